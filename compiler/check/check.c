/* Checker entry point (check.h): builds the table of type definitions, then
 * runs the passes of check_*.c in a fixed order (see check_cx.h for the
 * map). Passes never stop at the first error: each reports what it finds
 * and skips what an earlier pass already rejected, so one run shows as many
 * independent errors as possible while diag enforces the error limit.
 *
 * The definition table is filled first and in full because ATD definitions
 * are mutually recursive: a name may be used before it is defined. */
#include "check.h"

#include <stdint.h>
#include <string.h>

#include "check_annot.h"
#include "check_cx.h"
#include "check_lookup.h"
#include "check_passes.h"

void check_oom(check_cx *cx)
{
    cx->oom = true;
}

void *check_alloc(check_cx *cx, size_t size)
{
    void *p = atd_arena_alloc(cx->arena, size ? size : 1, 16);
    if (p == NULL) {
        check_oom(cx);
        return NULL;
    }
    memset(p, 0, size);
    return p;
}

/* The records and sums of t, for the size of the inheritance memo. The
 * parser bounds the depth of t (AST_MAX_DEPTH), so recursion is safe. */
static void check_count_structs(check_cx *cx, const ast_type *t)
{
    if (t->kind == AST_RECORD || t->kind == AST_SUM)
        cx->nstructs++;
    switch (t->kind) {
    case AST_TVAR:
        return;
    case AST_NAME:
        for (size_t i = 0; i < t->u.name.nargs; i++)
            check_count_structs(cx, t->u.name.args[i]);
        return;
    case AST_TUPLE:
        for (size_t i = 0; i < t->u.tuple.len; i++)
            check_count_structs(cx, t->u.tuple.cells[i].type);
        return;
    case AST_RECORD:
        for (size_t i = 0; i < t->u.record.len; i++)
            if (t->u.record.fields[i].type != NULL)
                check_count_structs(cx, t->u.record.fields[i].type);
        return;
    case AST_SUM:
        for (size_t i = 0; i < t->u.sum.len; i++)
            if (t->u.sum.variants[i].arg != NULL)
                check_count_structs(cx, t->u.sum.variants[i].arg);
        return;
    }
}

static void check_params(check_cx *cx, const ast_param *params, size_t n)
{
    /* Parameter lists are short: a quadratic scan is simplest. */
    for (size_t i = 1; i < n; i++) {
        for (size_t j = 0; j < i; j++) {
            if (strcmp(params[i].name, params[j].name) == 0) {
                diag_error(cx->d, params[i].loc, "duplicate type parameter '%s", params[i].name);
                diag_note(cx->d, params[j].loc, "first declared here");
                break;
            }
        }
    }
}

/* type name = ...: predefined names, duplicates, parameters, depth. */
static void check_declare_defs(check_cx *cx)
{
    const ast_module *m = cx->m;
    if (!check_map_init(&cx->defs, cx->arena, m->ndefs)) {
        check_oom(cx);
        return;
    }
    for (size_t i = 0; i < m->ndefs; i++) {
        const ast_typedef *td = &m->defs[i];
        if (check_predef_of(td->name) != CHECK_PRE_NONE) {
            diag_error(cx->d, td->name_loc, "cannot redefine predefined type '%s'", td->name);
        } else {
            size_t first = check_map_put(&cx->defs, td->name, strlen(td->name), i);
            if (first != i && first != SIZE_MAX) {
                diag_error(cx->d, td->name_loc, "type '%s' is defined twice", td->name);
                diag_note(cx->d, m->defs[first].name_loc, "first definition is here");
            }
        }
        check_params(cx, td->params, td->nparams);
        check_count_structs(cx, td->rhs);
    }
}

static void check_import_params(check_cx *cx)
{
    for (size_t i = 0; i < cx->m->nimports; i++)
        for (size_t k = 0; k < cx->m->imports[i].ntypes; k++)
            check_params(cx, cx->m->imports[i].types[k].params, cx->m->imports[i].types[k].nparams);
}

const checked_module *check_module(diag_ctx *d, atd_arena *arena, const ast_module *m,
                                   const deps_import *imports, const check_options *opts)
{
    static const check_options no_options = {false, false, NULL};
    check_cx *cx = atd_arena_alloc(arena, sizeof *cx, _Alignof(check_cx));
    if (cx == NULL) {
        diag_oom(d);
        return NULL;
    }
    memset(cx, 0, sizeof *cx);
    cx->d = d;
    cx->arena = arena;
    cx->m = m;
    cx->loaded = imports;
    cx->opts = opts != NULL ? opts : &no_options;
    int errors_before = d->errors;
    /* The passes each walk the whole module: sort their reports into source
     * order (diag.h). */
    diag_defer_begin(d);

    check_imports_declare(cx);
    if (!cx->oom) {
        check_import_params(cx);
        check_declare_defs(cx);
    }
    /* The passes below read the tables built above; after an allocation
     * failure they would see half-built ones. */
    if (!cx->oom) {
        cx->inherit_nodes = check_inherit_alloc(cx);
        if (cx->inherit_nodes != NULL &&
            !check_map_init(&cx->inherit_memo, arena, cx->nstructs + 1))
            check_oom(cx);
    }
    if (!cx->oom)
        check_types_module(cx);
    if (!cx->oom)
        check_imports_unused(cx);
    if (!cx->oom)
        check_recursion_module(cx);
    if (!cx->oom)
        check_records_module(cx);
    if (!cx->oom)
        check_annot_module(cx);
    if (!cx->oom)
        check_lazy_module(cx);
    if (!cx->oom)
        check_cprefix_module(cx);
    diag_defer_end(d);
    if (cx->oom)
        diag_oom(d);
    return d->errors == errors_before ? cx : NULL;
}

const ast_module *checked_ast(const checked_module *cm)
{
    return cm->m;
}

const deps_import *checked_imports(const checked_module *cm)
{
    return cm->loaded;
}
