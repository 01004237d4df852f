/* Instances of parametrized definitions for atdc diff (diff_params.h).
 * A marker is `type __atdc_diff_tv_N = { __atdc_diff_tv_N : unit }`: a
 * record, so that it is a nominal type of its own in the IR, found by its
 * definition's name. */
#include "diff_params.h"

#include <stdio.h>
#include <string.h>

#define DIFF_TV "tv_" /* markers: __atdc_diff_tv_0 ... */
#define DIFF_OF "of_" /* instances: __atdc_diff_of_t */

static const ast_typedef *diff_params_find(const ast_module *m, const char *name)
{
    for (size_t i = 0; i < m->ndefs; i++)
        if (strcmp(m->defs[i].name, name) == 0)
            return &m->defs[i];
    return NULL;
}

static const char *diff_params_name(atd_arena *a, const char *what, const char *name)
{
    size_t n = strlen(DIFF_PARAMS_PREFIX) + strlen(what) + strlen(name) + 1;
    char *s = atd_arena_alloc(a, n, 1);
    if (s != NULL)
        snprintf(s, n, "%s%s%s", DIFF_PARAMS_PREFIX, what, name);
    return s;
}

static ast_type *diff_params_ref(atd_arena *a, const char *name, ast_loc loc)
{
    ast_type *t = ast_type_new(a, AST_NAME, loc);
    const char **path = ast_alloc(a, sizeof *path);
    if (t == NULL || path == NULL)
        return NULL;
    path[0] = name;
    t->u.name.path = path;
    t->u.name.npath = 1;
    t->u.name.name_loc = loc;
    return t;
}

/* Appends `n` definitions to m. */
static bool diff_params_append(atd_arena *a, ast_module *m, const ast_typedef *defs, size_t n)
{
    ast_typedef *all = ast_alloc(a, (m->ndefs + n) * sizeof *all);
    if (all == NULL)
        return false;
    if (m->ndefs > 0)
        memcpy(all, m->defs, m->ndefs * sizeof *all);
    memcpy(all + m->ndefs, defs, n * sizeof *all);
    m->defs = all;
    m->ndefs += n;
    return true;
}

/* `type __atdc_diff_tv_N = { __atdc_diff_tv_N : unit }` for N < nmax. */
static bool diff_params_markers(atd_arena *a, ast_module *m, size_t nmax, ast_loc loc)
{
    ast_typedef *defs = ast_alloc(a, (nmax + 1) * sizeof *defs);
    if (defs == NULL)
        return false;
    for (size_t i = 0; i < nmax; i++) {
        char num[24];
        snprintf(num, sizeof num, DIFF_TV "%zu", i);
        const char *name = diff_params_name(a, num, "");
        ast_type *rec = ast_type_new(a, AST_RECORD, loc);
        ast_field *f = ast_alloc(a, sizeof *f);
        ast_type *unit = diff_params_ref(a, "unit", loc);
        if (name == NULL || rec == NULL || f == NULL || unit == NULL)
            return false;
        f->kind = AST_FIELD_REQUIRED;
        f->name = name;
        f->name_loc = f->loc = loc;
        f->type = unit;
        rec->u.record.fields = f;
        rec->u.record.len = 1;
        defs[i].name = name;
        defs[i].name_loc = defs[i].loc = loc;
        defs[i].rhs = rec;
    }
    return diff_params_append(a, m, defs, nmax);
}

/* `type __atdc_diff_<t> = (markers...) t` in m, located at t. */
static bool diff_params_instance(atd_arena *a, ast_module *m, const ast_typedef *td)
{
    ast_typedef def;
    memset(&def, 0, sizeof def);
    def.name = diff_params_name(a, DIFF_OF, td->name);
    ast_type *app = diff_params_ref(a, td->name, td->name_loc);
    ast_type **args = ast_alloc(a, td->nparams * sizeof *args);
    if (def.name == NULL || app == NULL || args == NULL)
        return false;
    for (size_t i = 0; i < td->nparams; i++) {
        char num[24];
        snprintf(num, sizeof num, DIFF_TV "%zu", i);
        const char *mk = diff_params_name(a, num, "");
        args[i] = mk != NULL ? diff_params_ref(a, mk, td->name_loc) : NULL;
        if (args[i] == NULL)
            return false;
    }
    app->u.name.args = args;
    app->u.name.nargs = td->nparams;
    def.name_loc = td->name_loc;
    def.loc = td->loc;
    def.rhs = app;
    return diff_params_append(a, m, &def, 1);
}

bool diff_params_add(atd_arena *arena, ast_module *old, ast_module *new)
{
    size_t nmax = 0, nold = old->ndefs, nnew = new->ndefs;
    ast_loc none = {NULL, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < nnew; i++) {
        const ast_typedef *n = &new->defs[i];
        const ast_typedef *o = diff_params_find(old, n->name);
        if (n->nparams > 0 && o != NULL && o->nparams > 0) {
            if (n->nparams > nmax)
                nmax = n->nparams;
            if (o->nparams > nmax)
                nmax = o->nparams;
        }
    }
    if (nmax == 0)
        return true;
    if (!diff_params_markers(arena, old, nmax, none) || !diff_params_markers(arena, new, nmax, none))
        return false;
    for (size_t i = 0; i < nnew; i++) {
        const ast_typedef n = new->defs[i];
        const ast_typedef *o = NULL;
        for (size_t k = 0; k < nold; k++)
            if (strcmp(old->defs[k].name, n.name) == 0)
                o = &old->defs[k];
        if (n.nparams == 0 || o == NULL || o->nparams == 0)
            continue;
        const ast_typedef od = *o;
        if (!diff_params_instance(arena, old, &od) || !diff_params_instance(arena, new, &n))
            return false;
    }
    return true;
}

/* The rest of `name` after the prefix and `what`, or NULL. */
static const char *diff_params_after(const char *name, const char *what)
{
    size_t n = strlen(DIFF_PARAMS_PREFIX), k = strlen(what);
    if (strncmp(name, DIFF_PARAMS_PREFIX, n) != 0 || strncmp(name + n, what, k) != 0)
        return NULL;
    return name + n + k;
}

const char *diff_params_origin(const char *name)
{
    return diff_params_after(name, DIFF_OF);
}

bool diff_params_is_marker(const char *name)
{
    return diff_params_after(name, DIFF_TV) != NULL;
}
