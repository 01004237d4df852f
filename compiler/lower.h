/* Lowering: from a checked ATD module to the C IR of ir.h (names, C types,
 * JSON names, field kinds, defaults, pointers for recursion, definition
 * order). See the top of lower.c for the C mapping. */
#ifndef ATDC_LOWER_H
#define ATDC_LOWER_H

#include "ast.h"
#include "diag.h"
#include "ir.h"

/* `prefix`: the C prefix of every generated name (NULL: <c prefix> of the
 * module head, else the schema's base name + "_"). Returns NULL after
 * reporting errors through `d`. Everything lives in `arena`. */
ir_module *lower_module(diag_ctx *d, atd_arena *arena, const ast_module *m, const char *prefix);

#endif
