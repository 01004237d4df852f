/* Shared state and helpers of the checker, split over check_*.c by concern:
 *
 *   check.c            the entry point, the table of definitions, pass order
 *   check_map.c        a fixed-size string map in the arena
 *   check_lookup.c     what a type name refers to; alias resolution
 *   check_types.c      names, arity, type variables, empty and duplicate members
 *   check_imports.c    imports (atd-spec 5.11)
 *   check_graph.c      strongly connected components, without recursion
 *   check_recursion.c  cycles through aliases, non-regular recursion
 *   check_inherit.c    inherit expansion (5.6)
 *   check_records.c    per record/sum checks after expansion (JSON names, C names)
 *   check_fields.c     ?x / ~x fields, defaults, tuple cell defaults
 *   check_default.c    the <ocaml default> literals of 7.2
 *   check_annot.c      annotation schema: sections, positions, values
 *   check_annot_type.c annotations whose meaning depends on the annotated type
 *
 * Resolution never builds new AST: a type expression together with the
 * arguments of the definition it sits in is a closure (check_clo).
 *
 * Every walk over an AST is recursive, so check.c first rejects definitions
 * nested deeper than CHECK_MAX_DEPTH; the other passes skip them. */
#ifndef ATDC_CHECK_INTERNAL_H
#define ATDC_CHECK_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "check.h"

#define CHECK_MAX_DEPTH 200
#define CHECK_MAX_INHERIT_DEPTH 100

/* ---- check_map.c ---------------------------------------------------------- */

/* Open addressing, sized once for a known number of keys; keys are counted
 * byte strings that must outlive the map. */
typedef struct check_map_slot {
    const char *key;
    size_t len;
    size_t value;
} check_map_slot;

typedef struct check_map {
    check_map_slot *slots;
    size_t cap; /* a power of two, at least twice the expected keys */
    size_t count;
} check_map;

bool check_map_init(check_map *m, atd_arena *a, size_t expected);
/* Returns the value stored for key, or SIZE_MAX. */
size_t check_map_get(const check_map *m, const char *key, size_t len);
/* Stores key -> value unless key is present; returns the value now stored
 * (the old one when the key was there). Returns SIZE_MAX when full. */
size_t check_map_put(check_map *m, const char *key, size_t len, size_t value);
/* Stores key -> value, replacing any earlier value. */
void check_map_set(check_map *m, const char *key, size_t len, size_t value);

/* ---- context ------------------------------------------------------------------ */

typedef enum check_predef {
    CHECK_PRE_NONE,
    CHECK_PRE_UNIT,
    CHECK_PRE_BOOL,
    CHECK_PRE_INT,
    CHECK_PRE_FLOAT,
    CHECK_PRE_STRING,
    CHECK_PRE_ABSTRACT,
    CHECK_PRE_LIST,
    CHECK_PRE_OPTION,
    CHECK_PRE_NULLABLE,
    CHECK_PRE_SHARED,
    CHECK_PRE_WRAP
} check_predef;

typedef struct check_import_info {
    const char *local; /* alias, or last path component */
    check_map types;   /* name -> index in ast_import.types (first one) */
    bool *used;        /* per imported type */
    bool valid;        /* false for an import that is itself an error */
} check_import_info;

/* A field or constructor of a record or sum after inherit expansion. */
typedef struct check_member {
    const ast_field *field;     /* records */
    const ast_variant *variant; /* sums */
    const ast_field *via_field; /* the inherit clause of the expanded node it came through */
    const ast_variant *via_variant;
} check_member;

typedef struct check_members {
    check_member *items;
    size_t len;
} check_members;

typedef struct check_cx {
    diag_ctx *d;
    atd_arena *arena;
    const ast_module *m;
    const check_options *opts;
    bool oom;          /* out of memory: stop quietly, report once */
    check_map defs;    /* type name -> index of its first definition */
    bool *def_skip;    /* per def: not the first of its name, or too deep */
    check_map modules; /* local module name -> import index */
    check_import_info *imports;
    size_t nstructs;        /* record and sum nodes in the module */
    check_map inherit_memo; /* node address -> index in inherit_lists */
    check_members *inherit_lists;
    size_t ninherit_lists;
} check_cx;

/* Reports an out-of-memory condition once. */
void check_oom(check_cx *cx);
/* Arena allocation, zeroed; reports out of memory. */
void *check_alloc(check_cx *cx, size_t size);

/* ---- check_lookup.c ----------------------------------------------------------- */

typedef struct check_scope check_scope;

/* A type expression with the bindings of the type parameters it may use.
 * `sc == NULL` means "generic": its type variables stay variables. */
typedef struct check_clo {
    const ast_type *t;
    const check_scope *sc;
} check_clo;

struct check_scope {
    const ast_typedef *def;
    const check_clo *args; /* def->nparams of them */
};

typedef enum check_ref_kind {
    CHECK_REF_ERROR, /* undefined, bad path; reported by check_types.c */
    CHECK_REF_PREDEF,
    CHECK_REF_IMPORTED,
    CHECK_REF_DEF
} check_ref_kind;

typedef struct check_ref {
    check_ref_kind kind;
    bool arity_ok;
    size_t arity; /* expected number of arguments */
    check_predef pre;
    size_t def;                   /* CHECK_REF_DEF: index in m->defs */
    size_t import, imported_type; /* CHECK_REF_IMPORTED */
} check_ref;

/* What the AST_NAME node `t` refers to; marks imported types used. */
check_ref check_lookup(check_cx *cx, const ast_type *t);
check_predef check_predef_of(const char *name);
const char *check_predef_name(check_predef p);

typedef enum check_head_kind {
    CHECK_H_ERROR, /* unresolvable; already reported, or reported by another pass */
    CHECK_H_TVAR,  /* a variable of a generic definition */
    CHECK_H_PREDEF,
    CHECK_H_IMPORTED,
    CHECK_H_TUPLE,
    CHECK_H_RECORD,
    CHECK_H_SUM
} check_head_kind;

typedef struct check_head {
    check_head_kind kind;
    check_predef pre;
    check_clo clo; /* the node reached and its bindings */
} check_head;

/* Follows type variables and aliases (and `wrap` when through_wrap) until a
 * type constructor. Terminates on cyclic aliases (CHECK_H_ERROR). */
check_head check_resolve(check_cx *cx, check_clo c, bool through_wrap);
/* The bindings for the arguments of an application of def `def` written
 * at `t` inside `sc`. NULL when out of memory. */
const check_scope *check_scope_enter(check_cx *cx, const ast_type *t, const check_scope *sc,
                                     size_t def);

/* The reference as written, "m.t" (arena). */
const char *check_path_str(check_cx *cx, const char **path, size_t npath);
/* A short rendering of a type expression for messages: `string list`,
 * `(int, int) box`, `{...}` (arena). */
const char *check_type_str(check_cx *cx, const ast_type *t);
/* An annotation value made printable for a message: escapes, and cut
 * after 40 bytes (arena). */
const char *check_quote(check_cx *cx, const char *s, size_t len);

/* ---- check_graph.c ------------------------------------------------------------ */

typedef struct check_graph {
    size_t n;
    const size_t *start; /* n + 1 offsets into `adj` */
    const size_t *adj;
} check_graph;

/* Strongly connected components (Tarjan, with an explicit stack). Fills
 * comp[0..n) with component ids; returns false when out of memory. */
bool check_graph_scc(check_cx *cx, const check_graph *g, size_t *comp);

typedef struct check_edge {
    size_t from, to;
    const ast_type *at; /* the reference that made the edge */
    bool grows;         /* check_recursion.c: the argument strictly contains the variable */
} check_edge;

/* Builds the adjacency arrays of g from an edge list (arena). */
bool check_graph_build(check_cx *cx, check_graph *g, size_t n, const check_edge *edges,
                       size_t nedges);

/* ---- passes ----------------------------------------------------------------- */

void check_imports_declare(check_cx *cx);
void check_imports_unused(check_cx *cx);
void check_types_module(check_cx *cx);
void check_recursion_module(check_cx *cx);
void check_records_module(check_cx *cx);
void check_annot_module(check_cx *cx);
void check_cnames_types(check_cx *cx);

/* ---- check_inherit.c ------------------------------------------------------- */

/* Expands a record or sum node (AST_RECORD or AST_SUM). With `report`,
 * errors in its own inherit clauses are reported; errors met deeper are left
 * to the definitions they are in. Later occurrences of a name replace earlier
 * ones (5.6). Returns false when out of memory. */
bool check_inherit_expand(check_cx *cx, const ast_type *t, bool report, check_members *out);

/* The name and location of a member, for messages: the inherit clause when
 * it came through one. */
const char *check_member_name(const check_member *mb);
ast_loc check_member_loc(const check_member *mb);

/* ---- check_fields.c -------------------------------------------------------- */

void check_fields_record(check_cx *cx, const ast_type *record);
void check_fields_tuple(check_cx *cx, const ast_type *tuple);

/* ---- check_annot.c --------------------------------------------------------- */

/* First field `section field` among the annotations, or NULL. */
const ast_annot_field *check_annot_find(const ast_annots *a, const char *section,
                                        const char *field);
/* A flag's value: absent -> false; no value or "true" -> true. */
bool check_annot_flag(const ast_annots *a, const char *section, const char *field);

/* ---- check_annot_type.c ---------------------------------------------------- */

/* Type-dependent checks of the annotations on the type expression t. */
void check_annot_type(check_cx *cx, const ast_type *t);

/* ---- check_cnames.c -------------------------------------------------------- */

void check_cnames_members(check_cx *cx, const check_members *ms, bool is_sum);

#endif
