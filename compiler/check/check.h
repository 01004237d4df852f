/* Checker: the static semantics of an ATD module:
 * names, arity, duplicates, inheritance, recursion, defaults, annotations,
 * and what the module uses of the schemas it imports.
 *
 * It runs once the imports are loaded (load/deps.h: deps_load loads every
 * schema the module imports, transitively; check_module then checks the
 * module against the definitions of those it imports directly). Its result
 * is the checked module, the one place where what the schema means is
 * computed: the definition table, name resolution (check_lookup.h),
 * expanded inheritance (check_inherit.h) and the imported schemas. Lowering
 * reads those through the same functions instead of working them out again,
 * and reports nothing: a module the checker accepts lowers. What can only
 * be judged on the C types is checked on the lowered module, by the rest of
 * the checker (check_lowered.h, check_clash.h, check_formats.h). */
#ifndef ATDC_CHECK_H
#define ATDC_CHECK_H

#include <stdbool.h>

#include "syntax/ast.h"
#include "atd/arena.h"
#include "load/deps.h"
#include "util/diag.h"

typedef struct check_options {
    bool ignore_adapters; /* accept <json adapter.*> (OCaml-only code) */
    bool allow_empty_records;
    const char *prefix; /* --prefix, checked as the C prefix; NULL: <c prefix> or the file name */
} check_options;

/* The checked module; it lives in the arena, with m. */
typedef struct check_cx checked_module;

/* Checks m, whose imports are loaded: `imports[i]` is the schema of m's
 * i-th import (deps_graph.imports of deps_load; NULL when m imports
 * nothing, and then every use of an imported type is an error). Reports
 * every error it can through d; returns NULL when there was one. */
const checked_module *check_module(diag_ctx *d, atd_arena *arena, const ast_module *m,
                                   const deps_import *imports, const check_options *opts);

/* The module that was checked. */
const ast_module *checked_ast(const checked_module *cm);

/* The imported schemas it was checked with (one per import; NULL if none). */
const deps_import *checked_imports(const checked_module *cm);

#endif
