/* JSON adapters: <json adapter.c="NAME"> on a record or sum (custom, user C
 * code; atd/adapter.h), else atdgen's built-in ones on a sum
 * (check_adapter.h): sets the sum's ir_adapter, and marks the records that are arguments of a
 * Type_field sum so that their tagged writer is emitted. */
#ifndef ATDC_LOWER_ADAPTER_H
#define ATDC_LOWER_ADAPTER_H

#include <stdbool.h>

#include "syntax/ast.h"
#include "atd/arena.h"
#include "util/diag.h"
#include "ir.h"

/* `annots` are those of the sum node that st was lowered from, after its
 * cases. False after reporting an error through diag. */
bool lower_sum_adapter(diag_ctx *diag, atd_arena *arena, const ast_annots *annots, ir_type *st);

/* <json adapter.c="NAME">, <c validator="fn"> and Type_and_value_fields
 * on a record (on a sum: lower_sum_adapter). False after reporting an
 * error through diag. */
bool lower_record_adapter(diag_ctx *diag, atd_arena *arena, const ast_annots *annots, ir_type *rt);

#endif
