/* JSON adapters: <json adapter.c="NAME"> on a record or sum (custom, user C
 * code; atd/adapter.h), else atdgen's built-in ones on a sum
 * (check_adapter.h): sets the sum's ir_adapter, and marks the records that are arguments of a
 * Type_field sum so that their tagged writer is emitted. */
#ifndef ATDC_LOWER_ADAPTER_H
#define ATDC_LOWER_ADAPTER_H

#include <stdbool.h>

#include "syntax/ast.h"
#include "atd/arena.h"
#include "ir.h"

/* `annots` are those of the sum node that st was lowered from, after its
 * cases. Reports nothing: the checker judges the adapters on the lowered
 * module (check_adapter.h). */
void lower_sum_adapter(atd_arena *arena, const ast_annots *annots, ir_type *st);

/* <json adapter.c="NAME">, <c validator="fn"> and Type_and_value_fields
 * on a record (on a sum: lower_sum_adapter). False only when out of
 * memory. */
bool lower_record_adapter(atd_arena *arena, const ast_annots *annots, ir_type *rt);

#endif
