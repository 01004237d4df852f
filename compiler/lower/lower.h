/* Lowering: from a checked ATD module to the C IR of ir.h (names, C types,
 * JSON names, field kinds, defaults, pointers for recursion, definition
 * order). See the top of lower.c for the C mapping. */
#ifndef ATDC_LOWER_H
#define ATDC_LOWER_H

#include "ast.h"
#include "deps.h"
#include "diag.h"
#include "ir.h"

/* `prefix`: the C prefix of every generated name (NULL: <c prefix> of the
 * module head, else the schema's base name + "_"). Returns NULL after
 * reporting errors through `d`. Everything lives in `arena`. */
ir_module *lower_module(diag_ctx *d, atd_arena *arena, const ast_module *m, const char *prefix);

/* Same for a module with imports: imports[i] is the schema loaded for
 * m->imports[i] (deps.h), so that `mod.t` lowers to the C type and functions
 * that the imported schema's own generation defines (<its prefix><t>) and
 * the header includes its header. lower_module passes NULL, which makes
 * every imported type an error. */
ir_module *lower_module_imports(diag_ctx *d, atd_arena *arena, const ast_module *m,
                                const char *prefix, const deps_import *imports);

/* Both of the above, plus `check_only` (atdc --check): lowering runs only to
 * find the errors that the checker cannot see (generated C names that clash,
 * untranslatable defaults, limits), and imported schemas are not needed. No
 * function here exits: every failure, out of memory included, is reported
 * through d and gives NULL. */
ir_module *lower_module_ex(diag_ctx *d, atd_arena *arena, const ast_module *m,
                           const char *prefix, const deps_import *imports, bool check_only);

#endif
