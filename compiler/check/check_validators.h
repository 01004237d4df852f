/* The checks of one annotated type expression (ir_check): <c validator="fn">
 * and the declarative ones, each accepted on one kind of value only:
 *
 *   <c min="N" max="N">         int (decimal integers in int64 range) and
 *                               float (JSON numbers); bounds included
 *   <c min_len="N" max_len="N"> string: its length in bytes (not characters)
 *
 * Bounds are validated here, against the C type the node denotes (so on the
 * lowered module): numbers that parse, min <= max, the right type; every
 * error is at the annotation. */
#ifndef ATDC_CHECK_VALIDATORS_H
#define ATDC_CHECK_VALIDATORS_H

#include <stdbool.h>

#include "syntax/ast.h"
#include "atd/arena.h"
#include "util/diag.h"
#include "lower/ir.h"

/* The check of the annotations `a` of a node of type t, followed by `next`
 * (the checks of the alias it names); `next` itself when `a` has none, or
 * when the annotations are wrong (*failed is then set). With
 * `with_validator` false (a record or sum node, whose validator belongs to
 * the type) only the declarative checks are looked at. NULL on running out
 * of memory sets *oom. Errors are reported through `diag`, by the checker
 * (check_lowered.c); lowering passes NULL and reports nothing. */
const ir_check *check_validators_node(diag_ctx *diag, atd_arena *arena, const ast_annots *a,
                                      const ir_type *t, const ir_check *next,
                                      bool with_validator, bool *failed, bool *oom);

/* A text that tells chains apart, for the structural keys of the types that
 * hold a checked value ("" for none). */
const char *check_validators_key(atd_arena *arena, const ir_check *c, bool *oom);

#endif
