/* The `<ocaml default="...">` literals that atdc translates into C:
 * integers (also `(-3)`, hex/octal/binary, `_` separators, l/L/n suffixes),
 * floats (`2.`, `0.5`, `1e3`, `-1.5`), `true`/`false`, OCaml double-quoted
 * strings with their escapes, `[]`, `[||]`, `None`, `()`, and constructor
 * names with an optional backquote. The checker uses it to decide whether a
 * default needs `<c default>`; the lowering stage can reuse the decoded
 * value to print the C constant. */
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
    CHECK_DEFAULT_CONSTRUCTOR /* also `None`, which is both */
} check_default_kind;

typedef struct check_default_value {
    check_default_kind kind;
    int64_t i;        /* INT */
    double f;         /* FLOAT (finite) */
    bool b;           /* BOOL */
    const char *s;    /* STRING: decoded bytes (arena, NUL-terminated, may hold NUL) */
    size_t len;       /* STRING */
    const char *name; /* CONSTRUCTOR and NONE: the name without backquote (arena) */
} check_default_value;

/* Parses the text of an <ocaml default>. Allocates the decoded string or
 * name in `a`. Returns the kind (also stored in out->kind); INVALID for
 * anything else, including integers beyond int64 and infinite floats, and
 * when out of memory. */
check_default_kind check_default_parse(atd_arena *a, const char *text, size_t len,
                                       check_default_value *out);

#endif
