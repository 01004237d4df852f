/* The `<ocaml default="...">` values that atdc translates into C:
 * integers (also `(-3)`, hex/octal/binary, `_` separators, l/L/n suffixes),
 * floats (`2.`, `0.5`, `1e3`, `-1.5`), `true`/`false`, OCaml double-quoted
 * strings with their escapes, `()`, constructors with an optional backquote
 * and argument (`None`, `Some 3`, `Circle 2.0`), and, made of these, lists
 * (`[]`, `[1; 2]`, `[||]`), tuples (`(1, "a")`) and records
 * (`{rules = []; limit = None}`). The checker uses it to decide whether a
 * default needs `<c default>`; the lowering stage reuses the decoded value
 * to print the C constant. */
#ifndef ATDC_CHECK_DEFAULT_H
#define ATDC_CHECK_DEFAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atd/arena.h"

typedef enum check_default_kind {
    CHECK_DEFAULT_INVALID, /* not one of the translatable literals */
    CHECK_DEFAULT_INT,
    CHECK_DEFAULT_FLOAT,
    CHECK_DEFAULT_BOOL,
    CHECK_DEFAULT_STRING,
    CHECK_DEFAULT_EMPTY_LIST, /* [] or [||] */
    CHECK_DEFAULT_NONE,
    CHECK_DEFAULT_UNIT,
    CHECK_DEFAULT_CONSTRUCTOR, /* also `None`, which is both; with an argument when n == 1 */
    CHECK_DEFAULT_SOME,        /* Some v: args[0] */
    CHECK_DEFAULT_LIST,        /* [a; b]: n items in args */
    CHECK_DEFAULT_TUPLE,       /* (a, b): n cells in args */
    CHECK_DEFAULT_RECORD       /* {x = a; y = b}: n fields, labels[i] = args[i] */
} check_default_kind;

typedef struct check_default_value {
    check_default_kind kind;
    int64_t i;        /* INT */
    double f;         /* FLOAT (finite) */
    bool b;           /* BOOL */
    const char *s;    /* STRING: decoded bytes (arena, NUL-terminated, may hold NUL) */
    size_t len;       /* STRING */
    const char *name; /* CONSTRUCTOR and NONE: the name without backquote (arena) */
    struct check_default_value *args; /* the parts of SOME, CONSTRUCTOR, LIST, TUPLE, RECORD */
    const char **labels;              /* RECORD: the field names, as written */
    size_t n;                         /* how many args */
} check_default_value;

/* Parses the text of an <ocaml default>. Allocates the decoded strings,
 * names and parts in `a`. Returns the kind (also stored in out->kind);
 * INVALID for anything else, including integers beyond int64, infinite
 * floats, values nested deeper than CHECK_DEFAULT_MAX_DEPTH, and when out
 * of memory. */
#define CHECK_DEFAULT_MAX_DEPTH 32
check_default_kind check_default_parse(atd_arena *a, const char *text, size_t len,
                                       check_default_value *out);

#endif
