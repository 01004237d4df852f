/* `atdc diff [OPTIONS] OLD.atd NEW.atd` (diff_cli.h): options, reading and
 * loading both schemas (load_ir.h), the comparison (diff.h), the filters,
 * the output (diff_print.h). Exit statuses as atddiff's: 0 nothing found,
 * 3 findings, 1 a user error (options, files, a schema atdc rejects), and
 * 2 out of memory. */
#define _POSIX_C_SOURCE 200809L /* fstat, fileno */

#include "diff_cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "atd/buf.h"
#include "diff.h"
#include "diff_params.h"
#include "diff_print.h"
#include "load/load_ir.h"
#include "load/ocaml_from.h"
#include "syntax/parse.h"
#include "util/alloc.h"
#include "util/files.h"

enum { DIFF_EXIT_OK = 0, DIFF_EXIT_USER = 1, DIFF_EXIT_OOM = 2, DIFF_EXIT_FOUND = 3 };

static const char diff_usage_text[] =
    "Usage: atdc diff [OPTIONS] OLD.atd NEW.atd\n"
    "Report the changes from OLD.atd to NEW.atd that break JSON data exchange:\n"
    "backward incompatibilities (NEW's readers reject data written by OLD's\n"
    "writers) and forward incompatibilities (OLD's readers reject NEW's data).\n"
    "\n"
    "Options:\n"
    "  --backward          report only backward incompatibilities\n"
    "  --forward           report only forward incompatibilities\n"
    "  --types T1,T2,...   report only the findings that affect these types\n"
    "  --json              print the findings as JSON\n"
    "  -I DIR              also search imported schemas in DIR (repeatable, in order)\n"
    "  --ignore-adapters   accept JSON adapters that are OCaml code and ignore them\n"
    "  --help              show this help and exit\n"
    "\n"
    "Exit status: 0 nothing found, 3 findings reported, 1 user error (options,\n"
    "files, schema errors), 2 out of memory.\n";

static int diff_usage_error(const char *fmt, const char *arg)
{
    fputs("atdc diff: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'atdc diff --help' for more information.\n", stderr);
    return DIFF_EXIT_USER;
}

typedef struct diff_options {
    const char *files[2];
    size_t nfiles;
    unsigned directions; /* DIFF_BACKWARD | DIFF_FORWARD bits to report */
    const char *types;   /* --types, comma-separated, or NULL */
    bool json;
    bool ignore_adapters;
    const char **include_dirs;
    size_t ninclude_dirs;
} diff_options;

/* Reads `path` ("-": standard input) into the arena and registers it with d
 * for quoting. False after reporting why. */
static bool diff_read(atd_arena *arena, diag_ctx *d, const char *path, const char **name,
                      const char **text, size_t *len)
{
    bool is_stdin = strcmp(path, "-") == 0;
    *name = is_stdin ? "<stdin>" : path;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    struct stat st;
    int err = errno;
    if (f != NULL && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        err = EISDIR;
        if (!is_stdin)
            fclose(f);
        f = NULL;
    }
    if (f == NULL) {
        diag_error(d, DIAG_NO_LOC, "cannot read '%s': %s", path, strerror(err));
        return false;
    }
    atd_buf b;
    atd_buf_init_with(&b, util_allocator());
    bool ok = files_read(f, &b);
    err = errno;
    if (!is_stdin)
        fclose(f);
    char *copy = ok ? atd_arena_alloc(arena, b.len + 1, 1) : NULL;
    if (copy != NULL) {
        if (b.len > 0)
            memcpy(copy, b.data, b.len);
        copy[b.len] = '\0';
        *text = copy;
        *len = b.len;
        diag_add_source(d, *name, copy, b.len);
    } else if (ok || err == ENOMEM) {
        diag_oom(d);
    } else {
        diag_error(d, DIAG_NO_LOC, "cannot read '%s': %s", path, strerror(err));
    }
    atd_buf_free(&b);
    return copy != NULL;
}

static ast_module *diff_parse(atd_arena *arena, diag_ctx *d, const char *path, const char **name)
{
    const char *text;
    size_t len;
    if (!diff_read(arena, d, path, name, &text, &len))
        return NULL;
    ast_module *m = parse_module(arena, d, *name, text, len);
    if (m == NULL || !ocaml_from_rewrite(arena, d, m))
        return NULL;
    return m;
}

static const load_schema *diff_load(atd_arena *arena, diag_ctx *d, const diff_options *o,
                                    const ast_module *m, const char *name)
{
    check_options copts;
    memset(&copts, 0, sizeof copts);
    copts.ignore_adapters = o->ignore_adapters;
    return load_ir(arena, d, m, name, o->include_dirs, o->ninclude_dirs, &copts);
}

/* Whether `name` is one of the comma-separated names of `list`. */
static bool diff_in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t k = end != NULL ? (size_t)(end - p) : strlen(p);
        if (k == n && memcmp(p, name, n) == 0)
            return true;
        p += k + (end != NULL);
    }
    return false;
}

static bool diff_defines(const load_schema *s, const char *name, size_t len)
{
    for (size_t i = 0; i < s->ast->ndefs; i++)
        if (strlen(s->ast->defs[i].name) == len && memcmp(s->ast->defs[i].name, name, len) == 0)
            return true;
    return false;
}

/* Each name of --types must be defined by one of the schemas: a typo would
 * otherwise silence every finding. */
static bool diff_check_types(diag_ctx *d, const char *list, const load_schema *a,
                             const load_schema *b)
{
    for (const char *p = list;;) {
        const char *end = strchr(p, ',');
        size_t k = end != NULL ? (size_t)(end - p) : strlen(p);
        if (!diff_defines(a, p, k) && !diff_defines(b, p, k)) {
            diag_error(d, DIAG_NO_LOC, "--types: no type '%.*s' in either schema", (int)k, p);
            return false;
        }
        if (end == NULL)
            return true;
        p = end + 1;
    }
}

static bool diff_selected(const diff_options *o, const diff_finding *f)
{
    if ((o->directions & (unsigned)f->direction) == 0)
        return false;
    if (o->types == NULL)
        return true;
    for (size_t i = 0; i < f->naffected; i++)
        if (diff_in_list(o->types, f->affected[i]))
            return true;
    return false;
}

static int diff_run(const diff_options *o, diag_ctx *d, atd_arena *arena)
{
    const char *old_name, *new_name;
    ast_module *old_m = diff_parse(arena, d, o->files[0], &old_name);
    ast_module *new_m = old_m != NULL ? diff_parse(arena, d, o->files[1], &new_name) : NULL;
    if (new_m != NULL && !diff_params_add(arena, old_m, new_m)) {
        diag_oom(d);
        return DIFF_EXIT_OOM;
    }
    const load_schema *old = new_m != NULL ? diff_load(arena, d, o, old_m, old_name) : NULL;
    const load_schema *new = old != NULL ? diff_load(arena, d, o, new_m, new_name) : NULL;
    if (new == NULL)
        return d->oom ? DIFF_EXIT_OOM : DIFF_EXIT_USER;
    if (o->types != NULL && !diff_check_types(d, o->types, old, new))
        return DIFF_EXIT_USER;
    diff_result r;
    if (!diff_schemas(arena, old, new, &r)) {
        diag_oom(d);
        return DIFF_EXIT_OOM;
    }
    const diff_finding **shown = atd_arena_alloc(arena, (r.len + 1) * sizeof *shown, _Alignof(void *));
    if (shown == NULL) {
        diag_oom(d);
        return DIFF_EXIT_OOM;
    }
    size_t n = 0;
    for (size_t i = 0; i < r.len; i++)
        if (diff_selected(o, &r.items[i]))
            shown[n++] = &r.items[i];
    atd_buf b;
    atd_buf_init_with(&b, util_allocator());
    if (o->json)
        diff_print_json(&b, shown, n);
    else
        diff_print_text(&b, shown, n);
    int rc = n > 0 ? DIFF_EXIT_FOUND : DIFF_EXIT_OK;
    if (b.status != 0) {
        diag_oom(d);
        rc = DIFF_EXIT_OOM;
    } else if ((b.len > 0 && fwrite(b.data, 1, b.len, stdout) != b.len) || fflush(stdout) != 0) {
        diag_error(d, DIAG_NO_LOC, "cannot write the output: %s", strerror(errno));
        rc = DIFF_EXIT_USER;
    }
    atd_buf_free(&b);
    return rc;
}

int diff_main(int argc, char **argv)
{
    diff_options o;
    memset(&o, 0, sizeof o);
    o.include_dirs = util_calloc((size_t)argc + 1, sizeof *o.include_dirs);
    if (o.include_dirs == NULL) {
        fputs("atdc: error: out of memory\n", stderr);
        return DIFF_EXIT_OOM;
    }
    bool backward = false, forward = false, only_files = false;
    int rc = DIFF_EXIT_OK;
    for (int i = 1; i < argc && rc == DIFF_EXIT_OK; i++) {
        const char *arg = argv[i];
        if (only_files || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (o.nfiles == 2)
                rc = diff_usage_error("unexpected argument '%s': give exactly OLD.atd and NEW.atd", arg);
            else
                o.files[o.nfiles++] = arg;
        } else if (strcmp(arg, "--") == 0) {
            only_files = true;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(diff_usage_text, stdout);
            util_free(o.include_dirs);
            return DIFF_EXIT_OK;
        } else if (strcmp(arg, "--backward") == 0) {
            backward = true;
        } else if (strcmp(arg, "--forward") == 0) {
            forward = true;
        } else if (strcmp(arg, "--json") == 0) {
            o.json = true;
        } else if (strcmp(arg, "--ignore-adapters") == 0) {
            o.ignore_adapters = true;
        } else if (strncmp(arg, "--types", 7) == 0 && (arg[7] == '\0' || arg[7] == '=')) {
            const char *v = arg[7] == '=' ? arg + 8 : i + 1 < argc ? argv[++i] : NULL;
            if (v == NULL || *v == '\0')
                rc = diff_usage_error("option '%s' needs a comma-separated list of types", "--types");
            else
                o.types = v;
        } else if (strncmp(arg, "-I", 2) == 0) {
            if (arg[2] != '\0')
                o.include_dirs[o.ninclude_dirs++] = arg + 2;
            else if (i + 1 < argc)
                o.include_dirs[o.ninclude_dirs++] = argv[++i];
            else
                rc = diff_usage_error("option '%s' needs a directory", arg);
        } else {
            rc = diff_usage_error("unknown option '%s'", arg);
        }
    }
    if (rc == DIFF_EXIT_OK && o.nfiles != 2)
        rc = diff_usage_error("%s", "give two schemas: OLD.atd NEW.atd");
    if (rc == DIFF_EXIT_OK && strcmp(o.files[0], "-") == 0 && strcmp(o.files[1], "-") == 0)
        rc = diff_usage_error("%s", "only one of the schemas can be standard input ('-')");
    o.directions = backward || forward ? (backward ? DIFF_BACKWARD : 0u) | (forward ? DIFF_FORWARD : 0u)
                                       : (unsigned)DIFF_BOTH;
    if (rc == DIFF_EXIT_OK) {
        diag_ctx d;
        diag_init(&d);
        atd_arena *arena = atd_arena_new(0, util_allocator());
        if (arena == NULL) {
            diag_oom(&d);
            rc = DIFF_EXIT_OOM;
        } else {
            rc = diff_run(&o, &d, arena);
            atd_arena_free(arena);
        }
        if (d.oom)
            rc = DIFF_EXIT_OOM;
        diag_free(&d);
    }
    util_free(o.include_dirs);
    return rc;
}
