/* The part of the checker that needs the C types (check_lowered.c): the
 * annotations whose meaning depends on what a type is in C once aliases are
 * resolved and parametrized types instantiated, which lowering records in
 * the module as it meets them (ir_module.uses) without reporting anything,
 * and the limits of lowering a schema reached (ir_module.limit). It runs
 * right after lowering, before the C names are compared (check_clash.h). */
#ifndef ATDC_CHECK_LOWERED_H
#define ATDC_CHECK_LOWERED_H

#include <stdbool.h>

#include "atd/arena.h"
#include "lower/ir.h"
#include "util/diag.h"

/* Reports, in the order lowering met them: a <c default> whose text does
 * not suit its C type (check_cdefault.h), an <ocaml default> without a C
 * form or outside its C integer type, the <c min>, <c max>, <c min_len>,
 * <c max_len> that do not suit their type or each other
 * (check_validators.h); then the limit lowering reached, if any. Returns
 * false when it reported an error (out of memory included). */
bool check_lowered(diag_ctx *d, atd_arena *arena, const ir_module *m);

#endif
