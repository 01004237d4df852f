/* Lowering: from the checked module to the C IR of ir.h (names, C types,
 * JSON names, field kinds, defaults, definition order comes later from
 * sort.h). See the top of lower.c for the C mapping. */
#ifndef ATDC_LOWER_H
#define ATDC_LOWER_H

#include "check/check.h"
#include "ir.h"
#include "util/diag.h"

/* What to lower for, beside JSON. */
typedef struct lower_options {
    const char *prefix; /* of every generated name; NULL: <c prefix> of the
                         * module head, else the schema's base name + "_" */
    bool biniou;        /* biniou code too (ir_module.biniou) */
    /* biniou, without the types that hold abstract (lower_bin.h) */
    bool biniou_skip_abstract;
    bool lazy; /* the lazy format's API too (ir_module.lazy; implies biniou) */
    /* the type named like the prefix without its '_' is named by that bare
     * prefix (atdc --no-stutter), here and in imported schemas */
    bool no_stutter;
    bool types_only; /* C types and init functions, nothing else (ir_module.types_only) */
    bool no_stream;  /* no next_line, next_element, write_line (ir_module.no_stream) */
    bool no_pretty;  /* no to_json_pretty (ir_module.no_pretty) */
} lower_options;

/* `mod.t` lowers to the C type and functions that the imported schema's own
 * generation defines (<its prefix><t>), from the schemas the module was
 * checked with (checked_imports), and the header includes its header.
 * Lowering assumes a module the checker accepted and reports nothing about
 * the schema: what can only be judged on the C types (defaults, validators,
 * adapters, the limits of lowering) is recorded in the module
 * (ir_module.uses, .limit) for check_lowered.h. Returns NULL only when out of
 * memory, reported through `d`. Everything lives in `arena`. */
ir_module *lower_module(diag_ctx *d, atd_arena *arena, const checked_module *cm,
                        const lower_options *o);

#endif
