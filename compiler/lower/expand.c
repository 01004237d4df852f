/* Expansion (see expand.h): definition lookup, parameter binding, and the
 * flattening of `inherit`. Inheritance is expanded recursively by following
 * the inherited type through aliases (and parametrized applications, whose
 * arguments are bound in a new environment) until a record or sum is reached.
 * A depth limit guards against cyclic inheritance, which the checker rejects
 * first; here it only prevents a crash if it slipped through. */
#include "expand.h"

#include <string.h>

#define INHERIT_DEPTH_MAX 64

const ast_typedef *expand_find_def(const expand_ctx *x, const char *name)
{
    for (size_t i = 0; i < x->module->ndefs; i++)
        if (strcmp(x->module->defs[i].name, name) == 0)
            return &x->module->defs[i];
    return NULL;
}

const expand_env *expand_bind(expand_ctx *x, const ast_typedef *d, const ast_type *app,
                              const expand_env *env)
{
    const expand_env *out = NULL;
    size_t n = app->u.name.nargs < d->nparams ? app->u.name.nargs : d->nparams;
    for (size_t i = 0; i < n; i++) {
        expand_env *e = atd_arena_alloc(x->arena, sizeof *e, 8);
        if (e == NULL)
            return out;
        e->tvar = d->params[i].name;
        e->expr = app->u.name.args[i];
        e->expr_env = env;
        e->next = out;
        out = e;
    }
    return out;
}

bool expand_lookup(const expand_env *env, const char *tvar, const ast_type **expr,
                   const expand_env **expr_env)
{
    for (; env != NULL; env = env->next) {
        if (strcmp(env->tvar, tvar) == 0) {
            *expr = env->expr;
            *expr_env = env->expr_env;
            return true;
        }
    }
    return false;
}

const ast_type *expand_resolve_tvars(const ast_type *t, const expand_env *env,
                                     const expand_env **env_out)
{
    int guard = 0;
    while (t != NULL && t->kind == AST_TVAR && guard++ < 1000) {
        const ast_type *e;
        const expand_env *ee;
        if (!expand_lookup(env, t->u.tvar.name, &e, &ee))
            break;
        t = e;
        env = ee;
    }
    *env_out = env;
    return t;
}

/* Follows `t` (read in env) through type variables and local definitions
 * until a node of kind `want` (AST_RECORD or AST_SUM) is reached. */
const ast_type *expand_reach(expand_ctx *x, const ast_type *t, const expand_env *env,
                             ast_type_kind want, const expand_env **env_out)
{
    for (int guard = 0; guard < INHERIT_DEPTH_MAX; guard++) {
        t = expand_resolve_tvars(t, env, &env);
        if (t == NULL)
            return NULL;
        if (t->kind == want) {
            *env_out = env;
            return t;
        }
        if (t->kind != AST_NAME || t->u.name.npath != 1)
            return NULL;
        const char *name = t->u.name.path[0];
        /* wrap is transparent */
        if (strcmp(name, "wrap") == 0 && t->u.name.nargs == 1) {
            t = t->u.name.args[0];
            continue;
        }
        const ast_typedef *d = expand_find_def(x, name);
        if (d == NULL)
            return NULL;
        env = expand_bind(x, d, t, env);
        t = d->rhs;
    }
    return NULL;
}

/* A growable array in the arena. */
typedef struct vec {
    void *items;
    size_t len, cap, size;
} vec;

static void *vec_push(atd_arena *a, vec *v)
{
    if (v->len == v->cap) {
        size_t ncap = v->cap ? v->cap * 2 : 8;
        void *n = atd_arena_grow(a, v->items, v->cap * v->size, ncap * v->size, 8);
        if (n == NULL)
            return NULL;
        v->items = n;
        v->cap = ncap;
    }
    return (char *)v->items + v->size * v->len++;
}

static bool collect_fields(expand_ctx *x, const ast_type *rec, const expand_env *env, vec *v,
                           int depth)
{
    if (depth > INHERIT_DEPTH_MAX) {
        diag_error(x->diag, rec->loc, "inheritance is too deep (cyclic?)");
        return false;
    }
    for (size_t i = 0; i < rec->u.record.len; i++) {
        const ast_field *f = &rec->u.record.fields[i];
        if (f->kind == AST_FIELD_INHERIT) {
            const expand_env *e2;
            const ast_type *r2 = expand_reach(x, f->type, env, AST_RECORD, &e2);
            if (r2 == NULL) {
                diag_error(x->diag, f->loc, "cannot inherit: not a record");
                return false;
            }
            if (!collect_fields(x, r2, e2, v, depth + 1))
                return false;
            continue;
        }
        expand_field *o = vec_push(x->arena, v);
        if (o == NULL)
            return false;
        o->field = f;
        o->env = env;
    }
    return true;
}

static bool collect_cases(expand_ctx *x, const ast_type *sum, const expand_env *env, vec *v,
                          int depth)
{
    if (depth > INHERIT_DEPTH_MAX) {
        diag_error(x->diag, sum->loc, "inheritance is too deep (cyclic?)");
        return false;
    }
    for (size_t i = 0; i < sum->u.sum.len; i++) {
        const ast_variant *c = &sum->u.sum.variants[i];
        if (c->is_inherit) {
            const expand_env *e2;
            const ast_type *s2 = expand_reach(x, c->arg, env, AST_SUM, &e2);
            if (s2 == NULL) {
                diag_error(x->diag, c->loc, "cannot inherit: not a sum");
                return false;
            }
            if (!collect_cases(x, s2, e2, v, depth + 1))
                return false;
            continue;
        }
        expand_case *o = vec_push(x->arena, v);
        if (o == NULL)
            return false;
        o->variant = c;
        o->env = env;
    }
    return true;
}

bool expand_record(expand_ctx *x, const ast_type *rec, const expand_env *env, expand_field **out,
                   size_t *n)
{
    vec v = {NULL, 0, 0, sizeof(expand_field)};
    if (!collect_fields(x, rec, env, &v, 0))
        return false;
    /* The last occurrence of a name wins and keeps its position. */
    expand_field *f = v.items;
    size_t k = 0;
    for (size_t i = 0; i < v.len; i++) {
        bool later = false;
        for (size_t j = i + 1; j < v.len && !later; j++)
            later = strcmp(f[i].field->name, f[j].field->name) == 0;
        if (!later)
            f[k++] = f[i];
    }
    *out = f;
    *n = k;
    return true;
}

bool expand_sum(expand_ctx *x, const ast_type *sum, const expand_env *env, expand_case **out,
                size_t *n)
{
    vec v = {NULL, 0, 0, sizeof(expand_case)};
    if (!collect_cases(x, sum, env, &v, 0))
        return false;
    expand_case *c = v.items;
    size_t k = 0;
    for (size_t i = 0; i < v.len; i++) {
        bool later = false;
        for (size_t j = i + 1; j < v.len && !later; j++)
            later = strcmp(c[i].variant->name, c[j].variant->name) == 0;
        if (!later)
            c[k++] = c[i];
    }
    *out = c;
    *n = k;
    return true;
}
