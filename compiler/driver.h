/* The compilation pipeline, one call per stage: read the file, parse
 * (syntax/), load the imported schemas (load/), check (check/), lower and
 * sort (lower/), emit (emit/), write the files; or print, or print the make
 * rule of the generation. main.c only parses options and calls
 * driver_compile_file; tests and the fuzzers call driver_compile_buffer on
 * memory (or parse_module, syntax/parse.h, for the front end alone). */
#ifndef ATDC_DRIVER_H
#define ATDC_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "atd/arena.h"
#include "atd/buf.h"
#include "check/check.h"
#include "load/deps.h"
#include "syntax/ast.h"
#include "util/diag.h"

/* Exit statuses of the compiler. */
enum { DRIVER_OK = 0, DRIVER_SCHEMA_ERROR = 1, DRIVER_USAGE_ERROR = 2 };

typedef enum driver_mode {
    DRIVER_GENERATE, /* default: check, then generate code */
    DRIVER_CHECK,    /* --check: every check of generation, nothing written */
    DRIVER_PRINT,    /* --print: parse, then print normalized ATD (no check) */
    DRIVER_DUMP_AST, /* --dump-ast: parse, then print the structural dump (no check) */
    DRIVER_DEPS,     /* -M: parse, load the imports, print the make rule (no check) */
    DRIVER_JSON_SCHEMA /* --json-schema ROOT: check, print the JSON Schema of ROOT */
} driver_mode;

typedef struct driver_options {
    driver_mode mode;
    const char *out_dir; /* -o DIR; NULL: the current directory */
    const char *prefix;  /* --prefix; NULL: the schema's base name */
    int max_errors;      /* --max-errors; 0: unlimited */
    bool ignore_adapters;
    bool werror;                     /* -Werror */
    unsigned warn_disabled;          /* -Wno-<kind>: bit (1u << diag_warn_kind) */
    bool biniou; /* --biniou: biniou readers and writers too */
    /* --biniou-skip-abstract (implies --biniou): the types that hold
     * abstract get no biniou functions instead of refusing the schema */
    bool biniou_skip_abstract;
    bool lazy;   /* --lazy: the lazy format's API too (implies --biniou) */
    bool types_only; /* --types-only: C types and init functions only */
    bool no_stream;  /* --no-stream: no next_line, next_element, write_line */
    bool no_pretty;  /* --no-pretty: no to_json_pretty */
    bool no_stutter; /* --no-stutter: type p in p.atd is named p, not p_p */
    const char *const *include_dirs; /* -I DIR...: where imports are searched (deps.h) */
    size_t ninclude_dirs;
    const char *depfile;    /* --depfile FILE: write the make rule there after generating */
    bool depfile_append;    /* add the rule to the file (every input after the first) */
    const char *json_schema_root; /* --json-schema ROOT */
    diag_sink_fn diag_sink; /* NULL: stderr */
    void *diag_sink_ctx;
    FILE *out; /* where --print/--dump-ast/-M write; NULL: stdout */
    /* Generation into memory instead of files (the fuzzers, tests): when
     * both are set, the header and the source are appended to them and
     * nothing is written to disk (--depfile is then ignored). */
    atd_buf *gen_h, *gen_c;
} driver_options;

/* Defaults: generate, 20 errors at most, diagnostics to stderr. */
void driver_options_init(driver_options *o);

/* Compiles the file at `path` ("-" is stdin, shown as "<stdin>"). Returns
 * DRIVER_OK, DRIVER_SCHEMA_ERROR, or DRIVER_USAGE_ERROR for I/O errors. */
int driver_compile_file(const driver_options *o, const char *path);

/* Same on a buffer (not NUL-terminated, may contain NUL bytes); `name` is
 * used in messages. */
int driver_compile_buffer(const driver_options *o, const char *name, const char *text, size_t len);

/* The front end every output of a schema shares, after parse_module: loads
 * every schema that `m` (parsed from `name`) imports, transitively, from
 * the -I folders of `o` (load/deps.h: deps_load, the graph in *g), then
 * checks m against them (check/check.h: check_module, with the checker
 * options of `o`). Returns the checked module (in `arena`), or NULL after
 * reporting through `d`. */
const checked_module *driver_load_and_check(const driver_options *o, diag_ctx *d, atd_arena *arena,
                                            const char *name, const ast_module *m, deps_graph *g);

#endif
