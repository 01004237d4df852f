/* Checker: the static semantics of an ATD module (atd-spec sections 3-7):
 * names, arity, duplicates, inheritance, recursion, defaults, annotations.
 *
 * Its result is the checked module, the one place where what the schema
 * means is computed: the definition table, name resolution (check_lookup.h)
 * and expanded inheritance (check_inherit.h). Lowering reads those through
 * the same functions instead of working them out again. */
#ifndef ATDC_CHECK_H
#define ATDC_CHECK_H

#include <stdbool.h>

#include "syntax/ast.h"
#include "atd/arena.h"
#include "util/diag.h"

typedef struct check_options {
    bool ignore_adapters; /* accept <json adapter.*> (atd-spec 7.1) */
    bool allow_empty_records;
} check_options;

/* The checked module; it lives in the arena, with m. */
typedef struct check_cx checked_module;

/* Reports every error it can through d; returns NULL when there was one. */
const checked_module *check_module(diag_ctx *d, atd_arena *arena, const ast_module *m,
                                   const check_options *opts);

/* The module that was checked. */
const ast_module *checked_ast(const checked_module *cm);

#endif
