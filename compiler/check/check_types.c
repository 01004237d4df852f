/* Names in type expressions: every reference must
 * name a predefined, defined or imported type with the right number of
 * arguments (an imported one also as its schema defines it, check_imports.c);
 * type variables must be parameters of their definition; `()`,
 * `{}` (unless allowed) and `[]` are rejected, as are fields and
 * constructors written twice in the same braces. This pass owns those
 * errors: later passes see the same problems through check_lookup and stay
 * silent about them. */
#include "check_cx.h"
#include "check_lookup.h"
#include "check_passes.h"
#include "util/suggest.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void check_types_arity(check_cx *cx, const ast_type *t, const char *name, size_t want)
{
    size_t got = t->u.name.nargs;
    if (want == 0)
        diag_error(cx->d, t->u.name.name_loc, "type '%s' expects no type argument but is given %zu",
                   name, got);
    else
        diag_error(cx->d, t->u.name.name_loc,
                   "type '%s' expects %zu type argument%s but is given %zu", name, want,
                   want == 1 ? "" : "s", got);
}

/* " (did you mean 'string'?)" for a misspelt type name, or "". */
static const char *check_types_did_you_mean(check_cx *cx, const char *name, const ast_import *from,
                                            char *buf, size_t cap)
{
    suggest s;
    suggest_init(&s, name);
    if (from != NULL) {
        for (size_t i = 0; i < from->ntypes; i++)
            suggest_offer(&s, from->types[i].name);
    } else {
        for (int p = CHECK_PRE_UNIT; p <= CHECK_PRE_WRAP; p++)
            if (p != CHECK_PRE_SHARED)
                suggest_offer(&s, check_predef_name((check_predef)p));
        for (size_t i = 0; i < cx->m->ndefs; i++)
            suggest_offer(&s, cx->m->defs[i].name);
    }
    if (s.best == NULL)
        return "";
    snprintf(buf, cap, "; did you mean '%s'?", s.best);
    return buf;
}

static void check_types_name(check_cx *cx, const ast_type *t)
{
    const char **path = t->u.name.path;
    size_t npath = t->u.name.npath;
    const char *shown = check_path(cx, path, npath);
    if (npath > 2) {
        diag_error(cx->d, t->u.name.name_loc,
                   "invalid type name '%s': a type name has at most one dot", shown);
        return;
    }
    size_t i = SIZE_MAX;
    if (npath == 2) {
        i = check_map_get(&cx->modules, path[0], strlen(path[0]));
        if (i == SIZE_MAX) {
            diag_error(cx->d, t->u.name.name_loc, "unknown module '%s' in type '%s'", path[0],
                       shown);
            return;
        }
        if (check_map_get(&cx->imports[i].types, path[1], strlen(path[1])) == SIZE_MAX) {
            char hint[ATD_SUGGEST_MAX_LEN + 32];
            diag_error(cx->d, t->u.name.name_loc, "type '%s' is not imported from module '%s'%s",
                       path[1], path[0],
                       check_types_did_you_mean(cx, path[1], &cx->m->imports[i], hint,
                                                sizeof hint));
            diag_note(cx->d, cx->m->imports[i].path_loc, "module '%s' is imported here", path[0]);
            return;
        }
    }
    check_ref r = check_lookup(cx, t);
    if (r.kind == CHECK_REF_ERROR) {
        char hint[ATD_SUGGEST_MAX_LEN + 32];
        diag_error(cx->d, t->u.name.name_loc, "undefined type '%s'%s", shown,
                   npath == 1 ? check_types_did_you_mean(cx, path[0], NULL, hint, sizeof hint)
                              : "");
        return;
    }
    if (r.kind == CHECK_REF_PREDEF && r.pre == CHECK_PRE_SHARED) {
        diag_error(cx->d, t->u.name.name_loc, "sharing is not supported");
        return;
    }
    if (!r.arity_ok)
        check_types_arity(cx, t, shown, r.arity);
    else if (npath == 2)
        check_imports_use(cx, t, i);
}

static bool check_types_is_param(const ast_typedef *td, const char *name)
{
    for (size_t i = 0; i < td->nparams; i++)
        if (strcmp(td->params[i].name, name) == 0)
            return true;
    return false;
}

static void check_types_walk(check_cx *cx, const ast_typedef *td, const ast_type *t);

static void check_types_record(check_cx *cx, const ast_typedef *td, const ast_type *t)
{
    if (t->u.record.len == 0 && !cx->opts->allow_empty_records)
        diag_error(cx->d, t->loc, "empty record type");
    check_map seen;
    if (!check_map_init(&seen, cx->arena, t->u.record.len)) {
        check_oom(cx);
        return;
    }
    for (size_t i = 0; i < t->u.record.len; i++) {
        const ast_field *f = &t->u.record.fields[i];
        if (f->kind != AST_FIELD_INHERIT && f->name != NULL) {
            size_t first = check_map_put(&seen, f->name, strlen(f->name), i);
            if (first != i && first != SIZE_MAX) {
                diag_error(cx->d, f->name_loc, "field '%s' is defined twice in this record",
                           f->name);
                diag_note(cx->d, t->u.record.fields[first].name_loc, "first definition is here");
            }
        }
        check_types_walk(cx, td, f->type);
    }
}

static void check_types_sum(check_cx *cx, const ast_typedef *td, const ast_type *t)
{
    if (t->u.sum.len == 0)
        diag_error(cx->d, t->loc, "empty sum type");
    check_map seen;
    if (!check_map_init(&seen, cx->arena, t->u.sum.len)) {
        check_oom(cx);
        return;
    }
    for (size_t i = 0; i < t->u.sum.len; i++) {
        const ast_variant *v = &t->u.sum.variants[i];
        if (!v->is_inherit && v->name != NULL) {
            size_t first = check_map_put(&seen, v->name, strlen(v->name), i);
            if (first != i && first != SIZE_MAX) {
                diag_error(cx->d, v->name_loc, "constructor '%s' is defined twice in this sum",
                           v->name);
                diag_note(cx->d, t->u.sum.variants[first].name_loc, "first definition is here");
            }
        }
        if (v->arg != NULL)
            check_types_walk(cx, td, v->arg);
    }
}

static void check_types_walk(check_cx *cx, const ast_typedef *td, const ast_type *t)
{
    switch (t->kind) {
    case AST_TVAR:
        if (!check_types_is_param(td, t->u.tvar.name))
            diag_error(cx->d, t->loc, "unbound type variable '%s", t->u.tvar.name);
        return;
    case AST_NAME:
        check_types_name(cx, t);
        for (size_t i = 0; i < t->u.name.nargs; i++)
            check_types_walk(cx, td, t->u.name.args[i]);
        return;
    case AST_TUPLE:
        if (t->u.tuple.len == 0)
            diag_error(cx->d, t->loc, "empty tuple type '()'");
        for (size_t i = 0; i < t->u.tuple.len; i++)
            check_types_walk(cx, td, t->u.tuple.cells[i].type);
        return;
    case AST_RECORD:
        check_types_record(cx, td, t);
        return;
    case AST_SUM:
        check_types_sum(cx, td, t);
        return;
    }
}

void check_types_module(check_cx *cx)
{
    for (size_t i = 0; i < cx->m->ndefs && !cx->oom; i++)
        check_types_walk(cx, &cx->m->defs[i], cx->m->defs[i].rhs);
}
