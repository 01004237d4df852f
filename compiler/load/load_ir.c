/* Whole-schema loading (load_ir.h): load the imports' files, check with
 * them, lower, then the same for each imported schema, depth first. A schema imported
 * twice (directly and through another import) is lowered once: the loaded
 * schemas are remembered by path for the duration of one load_ir call.
 * deps_load has already refused import cycles, so the walk ends. */
#include "load_ir.h"

#include <string.h>

#include "check/check_lowered.h"
#include "load/deps.h"
#include "lower/lower.h"

/* Following wraps and imports: a longer chain can only be a cycle of
 * imported aliases, which lowering does not produce; the bound is a guard. */
#define LOAD_IR_MAX_WIRE 256

typedef struct load_ctx {
    atd_arena *arena;
    diag_ctx *d;
    const char *const *include_dirs;
    size_t ninclude;
    const check_options *opts;
    struct load_done {
        load_schema *s;
        struct load_done *next;
    } *done;
} load_ctx;

static const load_schema *load_one(load_ctx *L, const ast_module *m, const char *path)
{
    for (struct load_done *p = L->done; p != NULL; p = p->next)
        if (strcmp(p->s->path, path) == 0)
            return p->s;
    deps_graph g;
    if (!deps_load(&g, L->arena, L->d, m, path, L->include_dirs, L->ninclude))
        return NULL;
    const checked_module *cm = check_module(L->d, L->arena, m, g.imports, L->opts);
    if (cm == NULL)
        return NULL;
    lower_options lopts = {0};
    ir_module *ir = lower_module(L->d, L->arena, cm, &lopts);
    if (ir == NULL || !check_lowered(L->d, L->arena, ir))
        return NULL;
    load_schema *s = atd_arena_alloc(L->arena, sizeof *s, _Alignof(load_schema));
    struct load_done *done = atd_arena_alloc(L->arena, sizeof *done, _Alignof(struct load_done));
    const load_schema **imports =
        atd_arena_alloc(L->arena, (m->nimports + 1) * sizeof *imports, _Alignof(load_schema *));
    if (s == NULL || done == NULL || imports == NULL) {
        diag_oom(L->d);
        return NULL;
    }
    s->path = path;
    s->ast = m;
    s->ir = ir;
    s->imports = imports;
    done->s = s;
    done->next = L->done;
    L->done = done;
    for (size_t i = 0; i < m->nimports; i++) {
        imports[i] = load_one(L, g.imports[i].module, g.imports[i].path);
        if (imports[i] == NULL)
            return NULL;
    }
    return s;
}

const load_schema *load_ir(atd_arena *arena, diag_ctx *d, const ast_module *m, const char *path,
                           const char *const *include_dirs, size_t ninclude,
                           const check_options *opts)
{
    load_ctx L = {arena, d, include_dirs, ninclude, opts, NULL};
    return load_one(&L, m, path);
}

const ir_def *load_ir_def(const load_schema *s, const char *name)
{
    for (size_t i = 0; i < s->ir->ndefs; i++)
        if (strcmp(s->ir->defs[i].atd_name, name) == 0)
            return &s->ir->defs[i];
    return NULL;
}

const ir_def *load_ir_resolve(const load_schema *s, const ir_type *t, const load_schema **owner)
{
    if (!t->imported)
        return NULL;
    /* atd_name is "mod.t", mod the import's alias or last path component. */
    const char *dot = strchr(t->atd_name, '.');
    if (dot == NULL)
        return NULL;
    size_t modlen = (size_t)(dot - t->atd_name);
    for (size_t i = 0; i < s->ast->nimports; i++) {
        const ast_import *im = &s->ast->imports[i];
        const char *mod = im->alias != NULL ? im->alias : im->path[im->npath - 1];
        if (strlen(mod) == modlen && memcmp(mod, t->atd_name, modlen) == 0) {
            *owner = s->imports[i];
            return load_ir_def(s->imports[i], dot + 1);
        }
    }
    return NULL;
}

const ir_type *load_ir_wire(const load_schema **s, const ir_type *t, const ir_def **via)
{
    if (via != NULL)
        *via = NULL;
    for (int i = 0; i < LOAD_IR_MAX_WIRE; i++) {
        if (t->kind == IR_WRAP && t->elem.type != NULL) {
            t = t->elem.type;
        } else if (t->imported) {
            const load_schema *owner = NULL;
            const ir_def *d = load_ir_resolve(*s, t, &owner);
            if (d == NULL)
                return t;
            if (via != NULL)
                *via = d;
            *s = owner;
            t = d->type;
        } else {
            return t;
        }
    }
    return t;
}
