/* Lowering: from the checked module to the C IR of ir.h (names, C types,
 * JSON names, field kinds, defaults, definition order comes later from
 * sort.h). See the top of lower.c for the C mapping. */
#ifndef ATDC_LOWER_H
#define ATDC_LOWER_H

#include "check/check.h"
#include "ir.h"
#include "load/deps.h"
#include "util/diag.h"

/* `prefix`: the C prefix of every generated name (NULL: <c prefix> of the
 * module head, else the schema's base name + "_"); `no_stutter`: the type
 * named like the prefix without its '_' is named by that bare prefix (atdc
 * --no-stutter), here and in imported schemas. `imports[i]` is the
 * schema loaded for the module's i-th import (deps.h), so that `mod.t`
 * lowers to the C type and functions that the imported schema's own
 * generation defines (<its prefix><t>) and the header includes its header;
 * NULL makes every imported type an error. Returns NULL after reporting
 * errors through `d` (out of memory included). Everything lives in `arena`. */
ir_module *lower_module(diag_ctx *d, atd_arena *arena, const checked_module *cm, const char *prefix,
                        bool no_stutter, const deps_import *imports);

#endif
