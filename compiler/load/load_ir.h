/* A schema and every schema it imports, each checked and lowered to the IR
 * (lower/ir.h): what the tools that look at a whole schema build on (atdc
 * diff, atdc --json-schema). Code generation lowers only the compiled
 * schema, because an imported type is defined by its own schema's output;
 * these tools need to see inside it, so `mod.t` is followed into the
 * imported schema's own IR (load_ir_resolve). */
#ifndef ATDC_LOAD_IR_H
#define ATDC_LOAD_IR_H

#include <stdbool.h>
#include <stddef.h>

#include "atd/arena.h"
#include "check/check.h"
#include "lower/ir.h"
#include "syntax/ast.h"
#include "util/diag.h"

typedef struct load_schema load_schema;
struct load_schema {
    const char *path;
    const ast_module *ast;
    const ir_module *ir;
    const load_schema **imports; /* one per ast->imports[i] */
};

/* Checks and lowers `m`, parsed from `path`, then every schema it imports
 * (found like deps.h finds them), each once. Returns NULL after reporting
 * the errors through `d`. Everything lives in `arena`. */
const load_schema *load_ir(atd_arena *arena, diag_ctx *d, const ast_module *m, const char *path,
                           const char *const *include_dirs, size_t ninclude,
                           const check_options *opts);

/* Follows an imported type (t->imported) of schema `s` to the definition
 * that its own schema gives it, and sets *owner to that schema. NULL when
 * `t` is not imported or its schema does not define it (lowering has
 * already rejected that). */
const ir_def *load_ir_resolve(const load_schema *s, const ir_type *t, const load_schema **owner);

/* The type whose JSON is read and written for `t` of schema *s: wraps (the
 * wire type) and imported types (their definition's type) looked through;
 * *s becomes the schema that defines it, and *via (may be NULL) the last
 * imported definition followed, or NULL. */
const ir_type *load_ir_wire(const load_schema **s, const ir_type *t, const ir_def **via);

/* The definition named `name` in s, or NULL (parametrized definitions are
 * not in the IR: only their instances are). */
const ir_def *load_ir_def(const load_schema *s, const char *name);

#endif
