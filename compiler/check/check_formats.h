/* What the chosen output formats can carry (check_formats.c): biniou
 * (atdc --biniou, --biniou-skip-abstract) and the lazy format (--lazy).
 * Whether a type has a binary form or a lazy layout is a property of the
 * types the C code is made of, with aliases resolved and the instances of
 * parametrized types made, so this part of the checker reads the lowered
 * module (lower/ir.h) instead of the AST; it runs after lowering and before
 * emission, and reports, the emitters do not. */
#ifndef ATDC_CHECK_FORMATS_H
#define ATDC_CHECK_FORMATS_H

#include <stdbool.h>

#include "lower/ir.h"
#include "util/diag.h"

/* The formats asked for, beside JSON. */
typedef struct check_formats_options {
    bool biniou;
    bool biniou_skip_abstract; /* implies biniou */
    bool lazy;                 /* implies biniou */
} check_formats_options;

/* Refuses what the formats of `o` cannot write: an imported type or
 * abstract in biniou (abstract only a note per definition left out with
 * --biniou-skip-abstract, as lowering marked them: lower_bin.h), and the
 * lazy format's annotations outside records, lists, association lists and
 * options, on scalars or in recursive types. Returns false after reporting
 * (out of memory included). */
bool check_formats(diag_ctx *d, const ir_module *m, const check_formats_options *o);

#endif
