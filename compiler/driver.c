/* The pipeline (driver.h). Reads like a table of contents: read, parse,
 * limit the depth, check, load the imports, then print or emit (and write
 * the make rule). Each compilation owns one arena
 * for every AST node and one diag context; both are released before
 * returning, so the driver can run any number of times in one process (the
 * fuzzer does). */
#define _POSIX_C_SOURCE 200809L /* fstat, fileno */

#include "driver.h"
#include "emit.h"

#include <errno.h>
#include <fcntl.h> /* AT_FDCWD */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atd/buf.h"
#include "check.h"
#include "deps.h"
#include "parser.h"
#include "print.h"

void driver_options_init(driver_options *o)
{
    memset(o, 0, sizeof *o);
    o->mode = DRIVER_GENERATE;
    o->max_errors = 20;
}

/* ==== Depth limit ========================================================= */

typedef struct driver_frame {
    const ast_type *t;
    int depth;
} driver_frame;

typedef struct driver_stack {
    driver_frame *items;
    size_t len, cap;
    bool oom;
} driver_stack;

static void driver_push(driver_stack *s, const ast_type *t, int depth)
{
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        driver_frame *p = realloc(s->items, cap * sizeof *p);
        if (p == NULL) {
            s->oom = true;
            return;
        }
        s->items = p;
        s->cap = cap;
    }
    driver_frame f = {t, depth};
    s->items[s->len++] = f;
}

/* Iterative on purpose: this is what protects the recursive stages from a
 * stack overflow on `int list list list ...` (postfix application nests
 * without nesting the parser's stack). Returns the first node found too deep,
 * or NULL. */
static const ast_type *driver_too_deep(const ast_type *root, bool *oom)
{
    driver_stack s = {NULL, 0, 0, false};
    const ast_type *bad = NULL;
    driver_push(&s, root, 1);
    while (s.len > 0 && bad == NULL && !s.oom) {
        driver_frame f = s.items[--s.len];
        const ast_type *t = f.t;
        if (f.depth > DRIVER_MAX_DEPTH) {
            bad = t;
            break;
        }
        switch (t->kind) {
        case AST_TVAR:
            break;
        case AST_NAME:
            for (size_t i = 0; i < t->u.name.nargs; i++)
                driver_push(&s, t->u.name.args[i], f.depth + 1);
            break;
        case AST_TUPLE:
            for (size_t i = 0; i < t->u.tuple.len; i++)
                driver_push(&s, t->u.tuple.cells[i].type, f.depth + 1);
            break;
        case AST_RECORD:
            for (size_t i = 0; i < t->u.record.len; i++)
                driver_push(&s, t->u.record.fields[i].type, f.depth + 1);
            break;
        case AST_SUM:
            for (size_t i = 0; i < t->u.sum.len; i++)
                if (t->u.sum.variants[i].arg != NULL)
                    driver_push(&s, t->u.sum.variants[i].arg, f.depth + 1);
            break;
        }
    }
    *oom = s.oom;
    free(s.items);
    return bad;
}

static bool driver_check_depth(diag_ctx *d, const ast_module *m)
{
    bool ok = true;
    for (size_t i = 0; i < m->ndefs; i++) {
        bool oom = false;
        const ast_type *bad = driver_too_deep(m->defs[i].rhs, &oom);
        if (oom) {
            ast_loc none = {NULL, 0, 0, 0, 0, 0, 0};
            diag_error(d, none, "out of memory");
            return false;
        }
        if (bad != NULL) {
            diag_error(d, bad->loc, "type expression nested too deeply (more than %d levels)",
                       DRIVER_MAX_DEPTH);
            ok = false;
        }
    }
    return ok;
}

/* ==== Stages ============================================================== */

ast_module *driver_parse(atd_arena *arena, diag_ctx *d, const char *name, const char *text,
                         size_t len)
{
    parse_ctx pc;
    memset(&pc, 0, sizeof pc);
    pc.arena = arena;
    pc.diag = d;
    pc.file = name;
    pc.text = text;
    pc.len = len;
    bool ok = lexer_parse(&pc);
    if (pc.oom && pc.errors == 0) {
        ast_loc none = {NULL, 0, 0, 0, 0, 0, 0};
        diag_error(d, none, "out of memory");
    }
    if (!ok || pc.module == NULL)
        return NULL;
    if (!driver_check_depth(d, pc.module))
        return NULL;
    return pc.module;
}

static int driver_write_out(const driver_options *o, diag_ctx *d, atd_buf *b)
{
    FILE *out = o->out != NULL ? o->out : stdout;
    ast_loc none = {NULL, 0, 0, 0, 0, 0, 0};
    if (b->status != 0) {
        diag_error(d, none, "out of memory");
        return DRIVER_USAGE_ERROR;
    }
    /* b->data is NULL while nothing was written (an empty schema). */
    if ((b->len > 0 && fwrite(b->data, 1, b->len, out) != b->len) || fflush(out) != 0) {
        diag_error(d, none, "cannot write the output: %s", strerror(errno));
        return DRIVER_USAGE_ERROR;
    }
    return DRIVER_OK;
}

/* The make rule of this compilation (deps.h), to o->out for -M or to the
 * --depfile file. */
static int driver_write_rule(const driver_options *o, diag_ctx *d, atd_arena *arena,
                             const deps_graph *g, const char *name)
{
    ast_loc none = {NULL, 0, 0, 0, 0, 0, 0};
    const char *base = deps_base_name(arena, name);
    if (base == NULL) {
        diag_error(d, none, "out of memory");
        return DRIVER_USAGE_ERROR;
    }
    atd_buf b;
    atd_buf_init(&b);
    deps_write_rule(&b, g, base, o->out_dir);
    int rc;
    if (o->mode == DRIVER_DEPS) {
        rc = driver_write_out(o, d, &b);
    } else {
        FILE *f = fopen(o->depfile, "wb");
        rc = DRIVER_OK;
        if (b.status != 0) {
            diag_error(d, none, "out of memory");
            rc = DRIVER_USAGE_ERROR;
        } else if (f == NULL || (b.len > 0 && fwrite(b.data, 1, b.len, f) != b.len)) {
            diag_error(d, none, "cannot write '%s': %s", o->depfile, strerror(errno));
            rc = DRIVER_USAGE_ERROR;
        }
        if (f != NULL && fclose(f) != 0 && rc == DRIVER_OK) {
            diag_error(d, none, "cannot write '%s': %s", o->depfile, strerror(errno));
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
    const char *base = deps_base_name(arena, name);
    const char *dir = o->out_dir != NULL ? o->out_dir : ".";
    static const char *const exts[] = {".h", ".c"};
    for (size_t i = 0; i < 2 && base != NULL; i++) {
        size_t n = strlen(dir) + strlen(base) + 4;
        char *path = atd_arena_alloc(arena, n, 1);
        if (path == NULL)
            break;
        snprintf(path, n, "%s/%s%s", dir, base, exts[i]);
        if (utimensat(AT_FDCWD, path, NULL, 0) != 0) {
            ast_loc none = {NULL, 0, 0, 0, 0, 0, 0};
            diag_error(d, none, "cannot update the time of '%s': %s", path, strerror(errno));
            return DRIVER_USAGE_ERROR;
        }
    }
    return DRIVER_OK;
}

static int driver_run(const driver_options *o, diag_ctx *d, atd_arena *arena, const char *name,
                      const char *text, size_t len)
{
    ast_module *m = driver_parse(arena, d, name, text, len);
    if (m == NULL)
        return DRIVER_SCHEMA_ERROR;

    deps_graph g;
    if (o->mode == DRIVER_DEPS) {
        if (!deps_load(&g, arena, d, m, name, o->include_dirs, o->ninclude_dirs))
            return DRIVER_SCHEMA_ERROR;
        return driver_write_rule(o, d, arena, &g, name);
    }

    if (o->mode == DRIVER_PRINT || o->mode == DRIVER_DUMP_AST) {
        atd_buf b;
        atd_buf_init(&b);
        if (o->mode == DRIVER_PRINT)
            print_module(&b, m);
        else
            print_dump(&b, m);
        int rc = driver_write_out(o, d, &b);
        atd_buf_free(&b);
        return rc;
    }

    check_options copts;
    memset(&copts, 0, sizeof copts);
    copts.ignore_adapters = o->ignore_adapters;
    if (!check_module(d, arena, m, &copts) || d->errors > 0)
        return DRIVER_SCHEMA_ERROR;
    /* --check also lowers (without loading imports): generated C names that
     * clash and untranslatable defaults are schema errors too. */
    if (o->mode == DRIVER_CHECK)
        return emit_check(d, arena, m, o->prefix) == 0 ? DRIVER_OK : DRIVER_SCHEMA_ERROR;

    /* ---- EMITTER CALL SITE ----------------------------------------------
     * Code generation goes here: expand, lower, then emit the .h/.c pair
     * into o->out_dir (NULL: ".") with the C prefix o->prefix (NULL: the
     * schema's base name), writing files only if the whole compilation
     * succeeded. */
    if (!deps_load(&g, arena, d, m, name, o->include_dirs, o->ninclude_dirs))
        return DRIVER_SCHEMA_ERROR;
    emit_options eopts;
    memset(&eopts, 0, sizeof eopts);
    eopts.out_dir = o->out_dir;
    eopts.prefix = o->prefix;
    eopts.imports = g.imports;
    int erc = emit_module(d, arena, m, &eopts);
    if (erc != 0)
        return erc == EMIT_IO_ERROR ? DRIVER_USAGE_ERROR : DRIVER_SCHEMA_ERROR;
    if (o->depfile == NULL)
        return DRIVER_OK;
    int rc = driver_touch_outputs(o, d, arena, name);
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
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL) {
        ast_loc none = {NULL, 0, 0, 0, 0, 0, 0};
        diag_error(&d, none, "out of memory");
        rc = DRIVER_USAGE_ERROR;
    } else {
        diag_add_source(&d, name, text, len);
        rc = driver_run(o, &d, arena, name, text, len);
        atd_arena_free(arena);
    }
    diag_free(&d);
    return rc;
}

/* ==== Files =============================================================== */

/* Reads all of `f` into a malloc'd buffer. Returns false with errno set. */
static bool driver_slurp(FILE *f, char **text, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (buf == NULL)
        return false;
    for (;;) {
        if (n == cap) {
            char *p = cap > (size_t)-1 / 2 ? NULL : realloc(buf, cap * 2);
            if (p == NULL) {
                free(buf);
                errno = ENOMEM;
                return false;
            }
            buf = p;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                int e = errno;
                free(buf);
                errno = e ? e : EIO;
                return false;
            }
            break;
        }
    }
    *text = buf;
    *len = n;
    return true;
}

/* One clean line for any I/O problem, through the same sink as diagnostics. */
static int driver_io_error(const driver_options *o, const char *what, const char *path, int err)
{
    diag_ctx d;
    diag_init(&d);
    d.sink = o->diag_sink;
    d.sink_ctx = o->diag_sink_ctx;
    ast_loc none = {NULL, 0, 0, 0, 0, 0, 0};
    diag_error(&d, none, "cannot %s '%s': %s", what, path, strerror(err));
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
    char *text = NULL;
    size_t len = 0;
    bool ok = driver_slurp(f, &text, &len);
    int err = errno;
    if (!is_stdin)
        fclose(f);
    if (!ok)
        return driver_io_error(o, "read", path, err);
    int rc = driver_compile_buffer(o, is_stdin ? "<stdin>" : path, text, len);
    free(text);
    return rc;
}
