/* Checker: the static semantics of an ATD module (atd-spec sections 3-7):
 * names, arity, duplicates, inheritance, recursion, defaults, annotations.
 * Reports every error it can through diag; returns true when there was none. */
#ifndef ATDC_CHECK_H
#define ATDC_CHECK_H

#include <stdbool.h>

#include "ast.h"
#include "atd/arena.h"
#include "diag.h"

typedef struct check_options {
    bool ignore_adapters; /* accept <json adapter.*> (atd-spec 7.1) */
    bool allow_empty_records;
} check_options;

bool check_module(diag_ctx *d, atd_arena *arena, const ast_module *m, const check_options *opts);

#endif
