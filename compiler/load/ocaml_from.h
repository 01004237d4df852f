/* atdgen's way, older than imports, to use a type of another schema:
 * `type loc <ocaml from="Jsonbug"> = abstract` (optionally with
 * <ocaml t="other"> naming the type there) is the type `loc` of
 * jsonbug.atd, whose OCaml modules are Jsonbug_t and Jsonbug_j. atdc reads
 * it as `from jsonbug import loc` and `type loc = jsonbug.loc`, so it is
 * found, checked and generated like any import (deps.h). */
#ifndef ATDC_OCAML_FROM_H
#define ATDC_OCAML_FROM_H

#include <stdbool.h>

#include "atd/arena.h"
#include "syntax/ast.h"
#include "util/diag.h"

/* Rewrites every such definition of m in place, adding one import per
 * module named (after m's own imports). False when out of memory
 * (reported). */
bool ocaml_from_rewrite(atd_arena *arena, diag_ctx *d, ast_module *m);

#endif
