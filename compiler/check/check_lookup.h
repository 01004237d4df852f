/* What names mean (check_lookup.c): predefined types, definitions, imported
 * types, and the resolution of aliases and type variables. Lowering uses the
 * same functions on the checked module, so a name means the same thing in
 * both stages.
 *
 * Resolution never builds new AST: a type expression together with the
 * arguments of the definition it sits in is a closure (check_clo). */
#ifndef ATDC_CHECK_LOOKUP_H
#define ATDC_CHECK_LOOKUP_H

#include <stdbool.h>
#include <stddef.h>

#include "syntax/ast.h"

typedef struct check_cx check_cx;

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
/* Follows aliases, and a wrap that keeps its wire type as C type (no
 * <c t>): what the C type of c is made of. */
check_head check_resolve_c_type(check_cx *cx, check_clo c);
/* Whether c is, through aliases, a wrap with an OCaml type of its own
 * (<ocaml t>) and no <c t>: its <ocaml default> is a value of that OCaml
 * type, which has no C counterpart (the C type is the wire type). */
bool check_is_ocaml_wrap(check_cx *cx, check_clo c);
/* The bindings for the arguments of an application of def `def` written
 * at `t` inside `sc`. NULL when out of memory. */
/* The binding of type variable `name` in sc, or NULL when it has none. */
const check_clo *check_bind(const check_scope *sc, const char *name);
/* The bindings for the arguments of an application of def `def` written
 * at `t` inside `sc`. NULL when out of memory. */
const check_scope *check_scope_enter(check_cx *cx, const ast_type *t, const check_scope *sc,
                                     size_t def);

/* The reference as written, "m.t" (ast_join_path; "?" when out of memory). */
const char *check_path(check_cx *cx, const char **path, size_t npath);
/* A short rendering of a type expression for messages: `string list`,
 * `(int, int) box`, `{...}` (arena). */
const char *check_type_str(check_cx *cx, const ast_type *t);
/* An annotation value made printable for a message: escapes, and cut
 * after 40 bytes (arena). */
const char *check_quote(check_cx *cx, const char *s, size_t len);

#endif
