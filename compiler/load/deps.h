/* Multi-file schemas: finding, reading and parsing the schemas that a schema
 * imports (`from a.b import ...`), and the make rule that lists them (atdc -M,
 * --depfile).
 *
 * Module paths map to files like this: `from a.b import t`, written in
 * DIR/x.atd, names the file a/b.atd, looked up first relative to DIR (the
 * importing file's own folder), then in each -I folder in command-line order;
 * the first file that exists wins. Imports are followed transitively, because
 * a generated header includes the headers of the schemas it imports, and
 * those include theirs. A chain of imports that comes back to a schema still
 * being loaded is an import cycle and an error at the import that closes it
 * (two C headers cannot include each other).
 *
 * Each imported schema is only parsed, not checked: its own atdc run checks
 * it. What the importer needs from it is its C prefix (`<c prefix="p">` at
 * its head, else its base name + "_") and its definitions (to know which
 * imported types exist and their `<c name>`). */
#ifndef ATDC_DEPS_H
#define ATDC_DEPS_H

#include <stdbool.h>
#include <stddef.h>

#include "syntax/ast.h"
#include "atd/arena.h"
#include "atd/buf.h"
#include "util/diag.h"

/* What one `from ... import` of the compiled schema resolved to. */
typedef struct deps_import {
    const char *path;         /* the file found, e.g. "schemas/a/b.atd" */
    const char *base;         /* its generated files are base.h and base.c */
    const char *prefix;       /* C prefix of its names, always ending in '_' or empty */
    const ast_module *module; /* its parsed definitions */
} deps_import;

/* Every schema one compilation reads: the compiled one first, then the
 * imported ones in the order they were found (each once). */
typedef struct deps_graph {
    const char **paths;
    size_t npaths;
    size_t first_import;  /* index of the first imported one in paths (0 for stdin) */
    deps_import *imports; /* one per import of the compiled schema, NULL if none */
} deps_graph;

/* Loads the schemas that `root` (read from `root_path`, "-" or "<stdin>" for
 * standard input, resolved from the current folder) imports, transitively,
 * searching the `ninclude` folders of `include_dirs` after the importing
 * file's folder. Every file's text stays alive in `arena` and is registered
 * with `d` so that diagnostics can quote it. Returns false after reporting an
 * error (missing file, syntax error in an imported schema, import cycle). */
bool deps_load(deps_graph *g, atd_arena *arena, diag_ctx *d, const ast_module *root,
               const char *root_path, const char *const *include_dirs, size_t ninclude);

/* Appends to `b` the make rule of one compilation, like `cc -M -MP`:
 *     OUT/x.h OUT/x.c: x.atd a/b.atd
 *     a/b.atd:
 * `out_dir` NULL means the current folder (no directory in the targets).
 * Characters special to make (space, '#', '$') are escaped. */
void deps_write_rule(atd_buf *b, const deps_graph *g, const char *base, const char *out_dir);

#endif
