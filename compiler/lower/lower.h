/* Lowering: from the checked module to the C IR of ir.h (names, C types,
 * JSON names, field kinds, defaults, definition order comes later from
 * sort.h). See the top of lower.c for the C mapping. */
#ifndef ATDC_LOWER_H
#define ATDC_LOWER_H

#include "check/check.h"
#include "ir.h"
#include "util/diag.h"

/* `prefix`: the C prefix of every generated name (NULL: <c prefix> of the
 * module head, else the schema's base name + "_"). `mod.t` lowers to the C
 * type and functions that the imported schema's own generation defines
 * (<its prefix><t>), from the schemas the module was checked with
 * (checked_imports), and the header includes its header. Returns NULL after
 * reporting errors through `d` (out of memory included). Everything lives
 * in `arena`. */
ir_module *lower_module(diag_ctx *d, atd_arena *arena, const checked_module *cm,
                        const char *prefix);

#endif
