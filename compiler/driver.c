/* The pipeline (driver.h), one visible call per stage in driver_run:
 * parse, load the imports, check, lower, check what needs the C types (the
 * annotations lowering recorded, then the C names), sort, check what the
 * output formats can carry, then emit
 * the header and the source and write both files (and the make rule).
 * --print, --dump-ast and -M leave the sequence early, and so does --check,
 * right after the last stage that can reject a schema. Each compilation owns
 * one arena for everything it builds and one diag context; both are released
 * before returning, so the driver can run any number of times in one
 * process (the fuzzers do). */
#define _POSIX_C_SOURCE 200809L /* fstat, fileno */

#include "driver.h"

#include <errno.h>
#include <fcntl.h> /* AT_FDCWD */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atd/buf.h"
#include "check/check.h"
#include "check/check_formats.h"
#include "check/check_lowered.h"
#include "emit/emit.h"
#include "jsonschema/jsonschema.h"
#include "load/load_ir.h"
#include "load/ocaml_from.h"
#include "load/deps.h"
#include "lower/lower.h"
#include "check/check_clash.h"
#include "lower/sort.h"
#include "syntax/parse.h"
#include "syntax/print.h"
#include "util/alloc.h"
#include "util/names.h"
#include "util/files.h"

void driver_options_init(driver_options *o)
{
    memset(o, 0, sizeof *o);
    o->mode = DRIVER_GENERATE;
    o->max_errors = 20;
}

/* ==== Stages ============================================================== */

static int driver_write_out(const driver_options *o, diag_ctx *d, atd_buf *b)
{
    FILE *out = o->out != NULL ? o->out : stdout;
    if (b->status != 0) {
        diag_oom(d);
        return DRIVER_USAGE_ERROR;
    }
    /* b->data is NULL while nothing was written (an empty schema). */
    if ((b->len > 0 && fwrite(b->data, 1, b->len, out) != b->len) || fflush(out) != 0) {
        diag_error(d, DIAG_NO_LOC, "cannot write the output: %s", strerror(errno));
        return DRIVER_USAGE_ERROR;
    }
    return DRIVER_OK;
}

/* The make rule of this compilation (deps.h), to o->out for -M or to the
 * --depfile file. */
static int driver_write_rule(const driver_options *o, diag_ctx *d, atd_arena *arena,
                             const deps_graph *g, const char *name)
{
    const char *base = names_base_name(arena, name);
    if (base == NULL) {
        diag_oom(d);
        return DRIVER_USAGE_ERROR;
    }
    atd_buf b;
    atd_buf_init_with(&b, util_allocator());
    deps_write_rule(&b, g, base, o->out_dir);
    int rc;
    if (o->mode == DRIVER_DEPS) {
        rc = driver_write_out(o, d, &b);
    } else {
        FILE *f = fopen(o->depfile, o->depfile_append ? "ab" : "wb");
        rc = DRIVER_OK;
        if (b.status != 0) {
            diag_oom(d);
            rc = DRIVER_USAGE_ERROR;
        } else if (f == NULL || (b.len > 0 && fwrite(b.data, 1, b.len, f) != b.len)) {
            diag_error(d, DIAG_NO_LOC, "cannot write '%s': %s", o->depfile, strerror(errno));
            rc = DRIVER_USAGE_ERROR;
        }
        if (f != NULL && fclose(f) != 0 && rc == DRIVER_OK) {
            diag_error(d, DIAG_NO_LOC, "cannot write '%s': %s", o->depfile, strerror(errno));
            rc = DRIVER_USAGE_ERROR;
        }
    }
    atd_buf_free(&b);
    return rc;
}

/* The emitter leaves an output alone when its bytes did not change. make
 * has no equivalent of ninja's restat: such an output would stay older than
 * the schema, and every later build would run atdc again. So when a build
 * system drives atdc (--depfile), both outputs get the current time. */
static int driver_touch_outputs(const driver_options *o, diag_ctx *d, atd_arena *arena,
                                const char *name)
{
    const char *base = names_base_name(arena, name);
    const char *dir = o->out_dir != NULL ? o->out_dir : ".";
    static const char *const exts[] = {".h", ".c"};
    for (size_t i = 0; i < 2; i++) {
        size_t n = base != NULL ? strlen(dir) + strlen(base) + 4 : 0;
        char *path = base != NULL ? atd_arena_alloc(arena, n, 1) : NULL;
        if (path == NULL) {
            diag_oom(d);
            return DRIVER_USAGE_ERROR;
        }
        snprintf(path, n, "%s/%s%s", dir, base, exts[i]);
        if (utimensat(AT_FDCWD, path, NULL, 0) != 0) {
            diag_error(d, DIAG_NO_LOC, "cannot update the time of '%s': %s", path, strerror(errno));
            return DRIVER_USAGE_ERROR;
        }
    }
    return DRIVER_OK;
}

/* --print and --dump-ast: the parsed module as text. */
static int driver_print(const driver_options *o, diag_ctx *d, const ast_module *m)
{
    atd_buf b;
    atd_buf_init_with(&b, util_allocator());
    if (o->mode == DRIVER_PRINT)
        print_module(&b, m);
    else
        print_dump(&b, m);
    int rc = driver_write_out(o, d, &b);
    atd_buf_free(&b);
    return rc;
}

/* DIR/<base>.h and DIR/<base>.c, each rewritten only when it changed; DIR
 * is created first when needed. */
static int driver_write_files(const driver_options *o, diag_ctx *d, atd_arena *arena,
                              const ir_module *ir, const atd_buf *h, const atd_buf *c)
{
    const char *dir = o->out_dir != NULL ? o->out_dir : ".";
    size_t n = strlen(dir) + strlen(ir->base) + 4;
    char *path = atd_arena_alloc(arena, n, 1);
    if (path == NULL) {
        diag_oom(d);
        return DRIVER_USAGE_ERROR;
    }
    if (!files_make_dirs(d, dir))
        return DRIVER_USAGE_ERROR;
    snprintf(path, n, "%s/%s.h", dir, ir->base);
    if (!files_write_if_changed(d, path, h->data != NULL ? h->data : "", h->len))
        return DRIVER_USAGE_ERROR;
    snprintf(path, n, "%s/%s.c", dir, ir->base);
    if (!files_write_if_changed(d, path, c->data != NULL ? c->data : "", c->len))
        return DRIVER_USAGE_ERROR;
    return DRIVER_OK;
}

/* Renders the header and the source in memory, then writes both; nothing
 * is written unless both were rendered in full. */
static int driver_emit(const driver_options *o, diag_ctx *d, atd_arena *arena, const ir_module *ir)
{
    cw h, c;
    cw_init(&h);
    cw_init(&c);
    emit_header(&h, ir);
    emit_source(&c, ir);
    int rc;
    if (h.out.status != 0 || c.out.status != 0 || h.out.len == 0 || c.out.len == 0) {
        diag_oom(d);
        rc = DRIVER_USAGE_ERROR;
    } else if (o->gen_h != NULL && o->gen_c != NULL) {
        atd_buf_append(o->gen_h, h.out.data, h.out.len);
        atd_buf_append(o->gen_c, c.out.data, c.out.len);
        rc = o->gen_h->status == 0 && o->gen_c->status == 0 ? DRIVER_OK : DRIVER_USAGE_ERROR;
        if (rc != DRIVER_OK)
            diag_oom(d);
    } else {
        rc = driver_write_files(o, d, arena, ir, &h.out, &c.out);
    }
    cw_free(&h);
    cw_free(&c);
    return rc;
}

const checked_module *driver_load_and_check(const driver_options *o, diag_ctx *d, atd_arena *arena,
                                            const char *name, const ast_module *m, deps_graph *g)
{
    if (!deps_load(g, arena, d, m, name, o->include_dirs, o->ninclude_dirs))
        return NULL;
    check_options copts;
    memset(&copts, 0, sizeof copts);
    copts.ignore_adapters = o->ignore_adapters;
    copts.prefix = o->prefix;
    return check_module(d, arena, m, g->imports, &copts);
}

/* --json-schema ROOT: the schema and its imports lowered, then the JSON
 * Schema of ROOT (jsonschema.h). */
static int driver_json_schema(const driver_options *o, diag_ctx *d, atd_arena *arena,
                              const ast_module *m, const char *name)
{
    check_options copts;
    memset(&copts, 0, sizeof copts);
    copts.ignore_adapters = o->ignore_adapters;
    const load_schema *s = load_ir(arena, d, m, name, o->include_dirs, o->ninclude_dirs, &copts);
    if (s == NULL)
        return DRIVER_SCHEMA_ERROR;
    atd_buf b;
    atd_buf_init_with(&b, util_allocator());
    int rc = jsonschema_write(&b, arena, d, s, o->json_schema_root) ? driver_write_out(o, d, &b)
                                                                     : DRIVER_SCHEMA_ERROR;
    atd_buf_free(&b);
    return rc;
}

static int driver_run(const driver_options *o, diag_ctx *d, atd_arena *arena, const char *name,
                      const char *text, size_t len)
{
    ast_module *m = parse_module(arena, d, name, text, len);
    if (m == NULL)
        return DRIVER_SCHEMA_ERROR;
    if (o->mode == DRIVER_PRINT || o->mode == DRIVER_DUMP_AST)
        return driver_print(o, d, m);
    if (!ocaml_from_rewrite(arena, d, m))
        return DRIVER_USAGE_ERROR;
    if (o->mode == DRIVER_JSON_SCHEMA)
        return driver_json_schema(o, d, arena, m, name);

    deps_graph g;
    if (o->mode == DRIVER_DEPS) {
        if (!deps_load(&g, arena, d, m, name, o->include_dirs, o->ninclude_dirs))
            return DRIVER_SCHEMA_ERROR;
        return driver_write_rule(o, d, arena, &g, name);
    }

    /* --check stops after the last step that can find an error in the
     * schema, so a schema it accepts always generates. */
    const checked_module *cm = driver_load_and_check(o, d, arena, name, m, &g);
    if (cm == NULL)
        return DRIVER_SCHEMA_ERROR;
    lower_options lopts = {o->prefix, o->biniou, o->biniou_skip_abstract, o->lazy,
                           o->no_stutter, o->types_only, o->no_stream, o->no_pretty};
    ir_module *ir = lower_module(d, arena, cm, &lopts);
    if (ir == NULL || !check_lowered(d, arena, ir) || !check_clash_rename(d, arena, ir) ||
        !check_clash(d, arena, ir))
        return DRIVER_SCHEMA_ERROR;
    if (!sort_module(ir, arena)) {
        diag_oom(d);
        return DRIVER_USAGE_ERROR;
    }
    check_formats_options fopts = {o->biniou, o->biniou_skip_abstract, o->lazy};
    if (!check_formats(d, ir, &fopts))
        return DRIVER_SCHEMA_ERROR;
    if (o->mode == DRIVER_CHECK)
        return DRIVER_OK;

    int rc = driver_emit(o, d, arena, ir);
    if (rc != DRIVER_OK || o->depfile == NULL || o->gen_h != NULL)
        return rc;
    rc = driver_touch_outputs(o, d, arena, name);
    return rc != DRIVER_OK ? rc : driver_write_rule(o, d, arena, &g, name);
}

int driver_compile_buffer(const driver_options *o, const char *name, const char *text, size_t len)
{
    diag_ctx d;
    diag_init(&d);
    d.sink = o->diag_sink;
    d.sink_ctx = o->diag_sink_ctx;
    d.max_errors = o->max_errors;
    d.werror = o->werror;
    d.warn_disabled = o->warn_disabled;
    int rc;
    atd_arena *arena = atd_arena_new(0, util_allocator());
    if (arena == NULL) {
        diag_oom(&d);
        rc = DRIVER_USAGE_ERROR;
    } else {
        diag_add_source(&d, name, text, len);
        rc = driver_run(o, &d, arena, name, text, len);
        atd_arena_free(arena);
    }
    /* Out of memory anywhere is one outcome, whichever stage saw it. */
    if (d.oom)
        rc = DRIVER_USAGE_ERROR;
    diag_free(&d);
    return rc;
}

/* ==== Files =============================================================== */

/* One clean line for any I/O problem, through the same sink as diagnostics. */
static int driver_io_error(const driver_options *o, const char *what, const char *path, int err)
{
    diag_ctx d;
    diag_init(&d);
    d.sink = o->diag_sink;
    d.sink_ctx = o->diag_sink_ctx;
    if (err == ENOMEM)
        diag_oom(&d);
    else
        diag_error(&d, DIAG_NO_LOC, "cannot %s '%s': %s", what, path, strerror(err));
    diag_free(&d);
    return DRIVER_USAGE_ERROR;
}

int driver_compile_file(const driver_options *o, const char *path)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (f == NULL)
        return driver_io_error(o, "open", path, errno);
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!is_stdin)
            fclose(f);
        return driver_io_error(o, "read", path, EISDIR);
    }
    atd_buf text;
    atd_buf_init_with(&text, util_allocator());
    bool ok = files_read(f, &text);
    int err = errno;
    if (!is_stdin)
        fclose(f);
    int rc = ok ? driver_compile_buffer(o, is_stdin ? "<stdin>" : path,
                                        text.data != NULL ? text.data : "", text.len)
                : driver_io_error(o, "read", path, err);
    atd_buf_free(&text);
    return rc;
}
