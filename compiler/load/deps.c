/* Loading imported schemas and writing make rules (deps.h). A depth-first
 * walk over the imports: each file is identified by its device and inode (so
 * that "a.atd" and "./a.atd" or a -I path to the same file are one schema),
 * read once, parsed, and marked "loading" while its own imports are walked;
 * meeting a loading file again is a cycle. The walk keeps indices into a
 * growing array, never pointers, because the array moves when it grows. */
#define _POSIX_C_SOURCE 200809L /* stat */

#include "deps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load/ocaml_from.h"
#include "syntax/parse.h"
#include "util/alloc.h"
#include "util/names.h"
#include "check/check_annot.h"
#include "util/files.h"

/* Longer import chains are surely a mistake, and the walk recurses. */
#define DEPS_MAX_CHAIN 256

typedef struct deps_file {
    const char *path;
    dev_t dev;
    ino_t ino;
    bool has_id;  /* false for standard input */
    bool loading; /* on the walk's stack */
    const ast_module *module;
    const ast_loc *import_loc; /* where it was first imported (NULL for the root) */
} deps_file;

typedef struct deps_loader {
    atd_arena *arena;
    diag_ctx *d;
    const char *const *include_dirs;
    size_t ninclude;
    deps_file *files; /* malloc'd; files[0] is the root */
    size_t nfiles, cap;
    size_t *stack; /* indices of the files being loaded, outermost first */
    size_t depth;
    deps_import *root_imports;
    bool failed;
} deps_loader;

static void deps_oom(deps_loader *L)
{
    if (!L->failed)
        diag_oom(L->d);
    L->failed = true;
}

static char *deps_strdup(deps_loader *L, const char *s)
{
    char *p = atd_arena_strdup(L->arena, s, strlen(s));
    if (p == NULL)
        deps_oom(L);
    return p;
}

/* The folder part of `path` with its final '/', or "" for a bare name. */
static char *deps_dir_of(deps_loader *L, const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash != NULL ? (size_t)(slash - path) + 1 : 0;
    char *p = atd_arena_strdup(L->arena, path, n);
    if (p == NULL)
        deps_oom(L);
    return p;
}

/* "a/b.atd" for the module path a.b. */
static char *deps_module_file(deps_loader *L, const ast_import *im)
{
    size_t n = 5;
    for (size_t i = 0; i < im->npath; i++)
        n += strlen(im->path[i]) + 1;
    char *s = atd_arena_alloc(L->arena, n, 1);
    if (s == NULL) {
        deps_oom(L);
        return NULL;
    }
    s[0] = '\0';
    for (size_t i = 0; i < im->npath; i++) {
        if (i > 0)
            strcat(s, "/");
        strcat(s, im->path[i]);
    }
    strcat(s, ".atd");
    return s;
}

static char *deps_join(deps_loader *L, const char *dir, const char *rel)
{
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *s = atd_arena_alloc(L->arena, n, 1);
    if (s == NULL) {
        deps_oom(L);
        return NULL;
    }
    size_t dl = strlen(dir);
    bool sep = dl > 0 && dir[dl - 1] != '/';
    snprintf(s, n, "%s%s%s", dir, sep ? "/" : "", rel);
    return s;
}

/* The first existing regular file among DIR/rel and each -I folder/rel. */
static const char *deps_find(deps_loader *L, const char *dir, const char *rel, struct stat *st)
{
    for (size_t i = 0; i <= L->ninclude && !L->failed; i++) {
        const char *path = deps_join(L, i == 0 ? dir : L->include_dirs[i - 1], rel);
        if (path != NULL && stat(path, st) == 0 && S_ISREG(st->st_mode))
            return path;
    }
    return NULL;
}

/* Reads the whole file into the arena (the text must outlive the diag ctx's
 * use of it). Returns false with errno set. */
static bool deps_read(deps_loader *L, const char *path, char **text, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return false;
    atd_buf b;
    atd_buf_init_with(&b, util_allocator());
    bool ok = files_read(f, &b);
    int err = errno;
    fclose(f);
    if (ok) {
        *text = atd_arena_alloc(L->arena, b.len + 1, 1);
        ok = *text != NULL;
        err = ENOMEM;
        if (ok) {
            if (b.len > 0)
                memcpy(*text, b.data, b.len);
            *len = b.len;
        }
    }
    atd_buf_free(&b);
    if (!ok)
        errno = err;
    return ok;
}

static size_t deps_add_file(deps_loader *L, const char *path, const struct stat *st)
{
    if (L->nfiles == L->cap) {
        size_t cap = L->cap ? L->cap * 2 : 8;
        deps_file *p = util_realloc(L->files, cap * sizeof *p);
        size_t *s = util_realloc(L->stack, cap * sizeof *s);
        if (p != NULL)
            L->files = p;
        if (s != NULL)
            L->stack = s;
        if (p == NULL || s == NULL) {
            deps_oom(L);
            return SIZE_MAX;
        }
        L->cap = cap;
    }
    deps_file *f = &L->files[L->nfiles];
    memset(f, 0, sizeof *f);
    f->path = path;
    if (st != NULL) {
        f->dev = st->st_dev;
        f->ino = st->st_ino;
        f->has_id = true;
    }
    return L->nfiles++;
}

static size_t deps_find_loaded(const deps_loader *L, const struct stat *st)
{
    for (size_t i = 0; i < L->nfiles; i++)
        if (L->files[i].has_id && L->files[i].dev == st->st_dev && L->files[i].ino == st->st_ino)
            return i;
    return SIZE_MAX;
}

/* "import cycle: 'a.atd' -> 'b.atd' -> 'a.atd'" from the stack. */
static void deps_report_cycle(deps_loader *L, const ast_import *im, size_t again)
{
    atd_buf b;
    atd_buf_init_with(&b, util_allocator());
    size_t from = 0;
    while (from < L->depth && L->stack[from] != again)
        from++;
    for (size_t i = from; i < L->depth; i++) {
        atd_buf_puts(&b, "'");
        atd_buf_puts(&b, L->files[L->stack[i]].path);
        atd_buf_puts(&b, "' -> ");
    }
    atd_buf_puts(&b, "'");
    atd_buf_puts(&b, L->files[again].path);
    atd_buf_putc(&b, '\'');
    atd_buf_putc(&b, '\0');
    if (b.status != 0)
        diag_oom(L->d);
    else
        diag_error(L->d, im->path_loc, "import cycle: %s", b.data);
    atd_buf_free(&b);
    L->failed = true;
}

/* `<c prefix="p">` at the head of m, else base + "_"; "p" becomes "p_" the
 * same way lower.c treats the prefix of the schema being compiled. */
static const char *deps_prefix(deps_loader *L, const ast_module *m, const char *base)
{
    const char *p = names_prefix(L->arena, check_annot_str(&m->annots, "c", "prefix"), base);
    if (p == NULL) {
        deps_oom(L);
        return "";
    }
    return p;
}

static void deps_walk(deps_loader *L, size_t idx);

/* Resolves import `i` of file `idx`; loads the imported file if it is new. */
static void deps_import_one(deps_loader *L, size_t idx, size_t i)
{
    const ast_import *im = &L->files[idx].module->imports[i];
    const char *dir = deps_dir_of(L, L->files[idx].path);
    const char *rel = deps_module_file(L, im);
    if (dir == NULL || rel == NULL)
        return;
    struct stat st;
    const char *path = deps_find(L, dir, rel, &st);
    if (path == NULL) {
        if (L->failed)
            return;
        diag_error(L->d, im->path_loc,
                   "cannot find '%s' for module '%s' (searched '%s' and %zu -I "
                   "folder%s)",
                   rel, ast_join_path(L->arena, im->path, im->npath), dir[0] != '\0' ? dir : "./",
                   L->ninclude, L->ninclude == 1 ? "" : "s");
        L->failed = true;
        return;
    }
    size_t found = deps_find_loaded(L, &st);
    if (found != SIZE_MAX && L->files[found].loading) {
        deps_report_cycle(L, im, found);
        return;
    }
    if (found == SIZE_MAX) {
        char *text = NULL;
        size_t len = 0;
        if (!deps_read(L, path, &text, &len)) {
            if (errno == ENOMEM)
                diag_oom(L->d);
            else
                diag_error(L->d, im->path_loc, "cannot read '%s': %s", path, strerror(errno));
            L->failed = true;
            return;
        }
        found = deps_add_file(L, path, &st);
        if (found == SIZE_MAX)
            return;
        diag_add_source(L->d, path, text, len);
        L->files[found].import_loc = &im->path_loc;
        ast_module *pm = parse_module(L->arena, L->d, path, text, len);
        if (pm != NULL && !ocaml_from_rewrite(L->arena, L->d, pm)) {
            L->failed = true;
            return;
        }
        L->files[found].module = pm;
        if (L->files[found].module == NULL) {
            diag_note(L->d, im->path_loc, "'%s' is imported here", path);
            L->failed = true;
            return;
        }
        deps_walk(L, found);
    }
    if (idx == 0 && !L->failed) {
        deps_import *r = &L->root_imports[i];
        r->path = L->files[found].path;
        r->base = names_base_name(L->arena, r->path);
        r->module = L->files[found].module;
        r->prefix = deps_prefix(L, r->module, r->base != NULL ? r->base : "");
        if (r->base == NULL)
            deps_oom(L);
    }
}

static void deps_walk(deps_loader *L, size_t idx)
{
    if (L->depth >= DEPS_MAX_CHAIN) {
        const ast_loc *at = L->files[idx].import_loc;
        diag_error(L->d, at != NULL ? *at : DIAG_NO_LOC,
                   "imports are nested more than %d levels deep", DEPS_MAX_CHAIN);
        L->failed = true;
        return;
    }
    L->files[idx].loading = true;
    L->stack[L->depth++] = idx;
    size_t n = L->files[idx].module->nimports;
    for (size_t i = 0; i < n && !L->failed; i++)
        deps_import_one(L, idx, i);
    L->depth--;
    L->files[idx].loading = false;
}

bool deps_load(deps_graph *g, atd_arena *arena, diag_ctx *d, const ast_module *root,
               const char *root_path, const char *const *include_dirs, size_t ninclude)
{
    memset(g, 0, sizeof *g);
    deps_loader L;
    memset(&L, 0, sizeof L);
    L.arena = arena;
    L.d = d;
    L.include_dirs = include_dirs;
    L.ninclude = ninclude;
    bool is_stdin = strcmp(root_path, "-") == 0 || strcmp(root_path, "<stdin>") == 0;
    struct stat st;
    bool has_id = !is_stdin && stat(root_path, &st) == 0;
    size_t r = deps_add_file(&L, is_stdin ? "" : deps_strdup(&L, root_path), has_id ? &st : NULL);
    if (root->nimports > 0) {
        L.root_imports = atd_arena_alloc(arena, root->nimports * sizeof *L.root_imports, 8);
        if (L.root_imports == NULL)
            deps_oom(&L);
        else
            memset(L.root_imports, 0, root->nimports * sizeof *L.root_imports);
    }
    if (r != SIZE_MAX && !L.failed) {
        L.files[r].module = root;
        deps_walk(&L, r);
    }
    if (!L.failed) {
        size_t first = is_stdin ? 1 : 0;
        g->paths = atd_arena_alloc(arena, (L.nfiles + 1) * sizeof *g->paths, 8);
        if (g->paths == NULL) {
            deps_oom(&L);
        } else {
            for (size_t i = first; i < L.nfiles; i++)
                g->paths[g->npaths++] = L.files[i].path;
        }
        g->first_import = 1 - first;
        g->imports = L.root_imports;
    }
    util_free(L.files);
    util_free(L.stack);
    return !L.failed;
}

/* A path as make reads it: "\ " for a space, "\#", "$$". */
static void deps_put_path(atd_buf *b, const char *s)
{
    for (; *s != '\0'; s++) {
        if (*s == ' ' || *s == '#')
            atd_buf_putc(b, '\\');
        else if (*s == '$')
            atd_buf_putc(b, '$');
        atd_buf_putc(b, *s);
    }
}

static void deps_put_target(atd_buf *b, const char *out_dir, const char *base, const char *ext)
{
    if (out_dir != NULL) {
        deps_put_path(b, out_dir);
        if (out_dir[0] != '\0' && out_dir[strlen(out_dir) - 1] != '/')
            atd_buf_putc(b, '/');
    }
    deps_put_path(b, base);
    atd_buf_puts(b, ext);
}

void deps_write_rule(atd_buf *b, const deps_graph *g, const char *base, const char *out_dir)
{
    deps_put_target(b, out_dir, base, ".h");
    atd_buf_putc(b, ' ');
    deps_put_target(b, out_dir, base, ".c");
    atd_buf_putc(b, ':');
    for (size_t i = 0; i < g->npaths; i++) {
        atd_buf_puts(b, i == 0 ? " " : " \\\n  ");
        deps_put_path(b, g->paths[i]);
    }
    atd_buf_putc(b, '\n');
    /* An empty rule per imported schema, like cc -MP: deleting or renaming
     * one then makes the next build rerun atdc instead of failing. */
    for (size_t i = g->first_import; i < g->npaths; i++) {
        atd_buf_putc(b, '\n');
        deps_put_path(b, g->paths[i]);
        atd_buf_puts(b, ":\n");
    }
}
