/* Biniou without abstract (atdc --biniou-skip-abstract). abstract has no
 * binary form, so a type that holds one anywhere inside (through fields,
 * constructors, cells, elements and wraps) can have no biniou functions:
 * this pass of lowering marks those types (ir_type.bin_skip) and
 * definitions (ir_def.bin_skip, with the way from the definition to the
 * abstract in ir_def.bin_skip_way, which the checker's note of each
 * definition left out names: check/check_formats.h). Everything else keeps
 * its biniou code. */
#ifndef ATDC_LOWER_BIN_H
#define ATDC_LOWER_BIN_H

#include <stdbool.h>

#include "atd/arena.h"
#include "ir.h"
#include "util/diag.h"

/* Memory comes from `arena`; false (after diag_oom) when it ran out. */
bool lower_bin_skip_abstract(diag_ctx *d, atd_arena *arena, ir_module *m);

#endif
