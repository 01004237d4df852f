/* AST of an ATD module, as built by the parser (parser.y), read by the
 * checker, the printer and the later stages. Every node has a location.
 * All nodes and strings live in the compilation's arena; nothing is freed
 * individually. Arrays are (pointer, length) pairs. No logic here. */
#ifndef ATDC_AST_H
#define ATDC_AST_H

#include <stdbool.h>
#include <stddef.h>

#include "atd/arena.h"

/* Type expressions nested deeper than this are rejected after parsing
 * (parse_module), so that the checker may recurse over the tree; lowering,
 * which also follows aliases, bounds its expansion by the same number. */
#define AST_MAX_DEPTH 200

/* A source location: a range of bytes in one file. Lines and columns are
 * 1-based; columns count bytes. `end_*` point just past the last byte. */
typedef struct ast_loc {
    const char *file; /* the path as given on the command line */
    int line, col;
    int end_line, end_col;
    size_t offset, end_offset;
} ast_loc;

/* One field of an annotation: `name` (possibly dotted, "adapter.ocaml") and an
 * optional value (`value` NULL for a flag). Values are byte strings after
 * unescaping (may contain NUL). */
typedef struct ast_annot_field {
    const char *name;
    const char *value;
    size_t value_len;
    ast_loc loc;       /* the field name */
    ast_loc value_loc; /* the string literal (when value != NULL) */
} ast_annot_field;

/* `<section field field="v" ...>` */
typedef struct ast_annot {
    const char *section;
    ast_annot_field *fields;
    size_t nfields;
    ast_loc loc; /* from '<' to '>' */
} ast_annot;

typedef struct ast_annots {
    ast_annot *items;
    size_t len;
} ast_annots;

typedef struct ast_type ast_type;

typedef enum ast_type_kind {
    AST_TVAR,   /* 'a */
    AST_NAME,   /* a type name applied to 0+ arguments: int, int list, (a, b) t, m.t */
    AST_TUPLE,  /* (a * b * ...) -- also the 1-tuple (a) and the invalid () */
    AST_RECORD, /* { ... } */
    AST_SUM     /* [ ... ] */
} ast_type_kind;

typedef enum ast_field_kind {
    AST_FIELD_REQUIRED, /*  x : T */
    AST_FIELD_OPTIONAL, /* ?x : T */
    AST_FIELD_DEFAULT,  /* ~x : T */
    AST_FIELD_INHERIT   /* inherit T  (name is NULL, annots empty) */
} ast_field_kind;

typedef struct ast_field {
    ast_field_kind kind;
    const char *name;
    ast_loc name_loc;
    ast_annots annots; /* written after the name */
    ast_type *type;
    ast_loc loc;     /* the whole field */
    const char *doc; /* the text of a (** ... *) comment just before it, or NULL */
} ast_field;

typedef struct ast_variant {
    bool is_inherit;  /* inherit T: name NULL, arg is T */
    const char *name; /* UIDENT */
    ast_loc name_loc;
    ast_annots annots; /* written after the name */
    ast_type *arg;     /* NULL for a nullary constructor */
    ast_loc loc;
    const char *doc; /* the text of a (** ... *) comment just before it, or NULL */
} ast_variant;

typedef struct ast_cell {
    ast_annots annots; /* the prefix annotations of `<...> : T` */
    bool has_colon;    /* a `:` was written (with or without annotations) */
    ast_type *type;
    ast_loc loc;
} ast_cell;

struct ast_type {
    ast_type_kind kind;
    ast_loc loc;
    ast_annots annots; /* written after this node */
    union {
        struct {
            const char *name; /* without the quote: "a" for 'a */
        } tvar;
        struct {
            /* The dotted reference as written: path[0] . path[1] ... ;
             * npath == 1 for a local or predefined name, 2 for m.t; more is
             * a checker error. */
            const char **path;
            size_t npath;
            ast_loc name_loc; /* the reference itself, without the arguments */
            ast_type **args;
            size_t nargs;
        } name;
        struct {
            ast_cell *cells;
            size_t len;
        } tuple;
        struct {
            ast_field *fields;
            size_t len;
        } record;
        struct {
            ast_variant *variants;
            size_t len;
        } sum;
    } u;
};

typedef struct ast_param {
    const char *name; /* without the quote */
    ast_loc loc;
} ast_param;

/* type ('a, 'b) name <annots> = rhs */
typedef struct ast_typedef {
    const char *name;
    ast_loc name_loc;
    ast_param *params;
    size_t nparams;
    ast_annots annots;
    ast_type *rhs;
    ast_loc loc;     /* from `type` to the end of rhs */
    const char *doc; /* the text of a (** ... *) comment just before it, or NULL */
} ast_typedef;

/* An imported type: [params] name <annots> */
typedef struct ast_imported_type {
    const char *name;
    ast_loc name_loc;
    ast_param *params;
    size_t nparams;
    ast_annots annots;
} ast_imported_type;

/* from a.b.c <annots> [as alias] import t1, 'x t2, ('k, 'v) t3 */
typedef struct ast_import {
    const char **path; /* module path components: a, b, c */
    size_t npath;
    ast_loc path_loc;
    ast_annots annots;
    const char *alias; /* NULL when no `as` */
    ast_loc alias_loc;
    ast_imported_type *types;
    size_t ntypes;
    ast_loc loc;
} ast_import;

typedef struct ast_module {
    const char *file;
    ast_annots annots; /* module head */
    ast_import *imports;
    size_t nimports;
    ast_typedef *defs;
    size_t ndefs;
} ast_module;

/* ---- Construction (ast.c) -------------------------------------------------
 * Used by the parser. Every function allocates in the arena and returns NULL
 * (or false) when the arena is out of memory; nothing else can fail. */

/* A growable array of fixed-size elements, for lists whose length is unknown
 * until their end. `items` is handed over as the node's array when done. */
typedef struct ast_vec {
    void *items;
    size_t len;
    size_t cap;
} ast_vec;

/* Appends a copy of the `size` bytes at `elem`; doubles the capacity when full. */
bool ast_vec_push(atd_arena *a, ast_vec *v, const void *elem, size_t size);

/* Zeroed memory. */
void *ast_alloc(atd_arena *a, size_t size);

/* A new type node of `kind` at `loc`, with empty annotations and contents. */
ast_type *ast_type_new(atd_arena *a, ast_type_kind kind, ast_loc loc);

/* The smallest location covering both (same file assumed). */
ast_loc ast_loc_span(ast_loc first, ast_loc last);

/* "a.b.c" from the components {a, b, c}. */
const char *ast_join_path(atd_arena *a, const char *const *parts, size_t n);

/* Converts a vector of ast_annot into ast_annots (no copy). */
ast_annots ast_annots_of(ast_vec v);

#endif
