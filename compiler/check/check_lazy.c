/* Where the lazy format's annotations may be written (docs/lazy-format.md):
 *   <c lazy>   on the type of a record field or of an association list's
 *              value: that value is stored out of line;
 *   <c shared> on `string` in the same places: equal strings stored once;
 *   <c index>  on a (string * T) list <json repr="object">: a sorted map
 *              searched without decoding it.
 * A slot is the one place the lazy writer can put a reference instead of the
 * value, so anywhere else they would silently do nothing: an error. */
#include "check_annot.h"
#include "check_cx.h"
#include "check_lookup.h"
#include "check_passes.h"

#include <string.h>

static bool check_lazy_is(check_cx *cx, const ast_type *t, check_predef pre)
{
    return t->kind == AST_NAME && check_lookup(cx, t).kind == CHECK_REF_PREDEF &&
           check_lookup(cx, t).pre == pre;
}

static bool check_lazy_is_object_list(check_cx *cx, const ast_type *t)
{
    if (!check_lazy_is(cx, t, CHECK_PRE_LIST))
        return false;
    const ast_annot_field *repr = check_annot_find(&t->annots, "json", "repr");
    return repr != NULL && repr->value != NULL && strcmp(repr->value, "object") == 0;
}

/* The annotations on node t; `slot` when t is the type of a record field or
 * the value of an association list. */
static void check_lazy_node(check_cx *cx, const ast_type *t, bool slot)
{
    const ast_annot_field *lz = check_annot_find(&t->annots, "c", "lazy");
    const ast_annot_field *sh = check_annot_find(&t->annots, "c", "shared");
    const ast_annot_field *ix = check_annot_find(&t->annots, "c", "index");
    const char *where = "the type of a record field or the value type of a (string * T) list "
                        "<json repr=\"object\">";
    if (lz != NULL && !slot)
        diag_error(cx->d, lz->loc, "'<c lazy>' belongs on %s", where);
    if (sh != NULL && !slot)
        diag_error(cx->d, sh->loc, "'<c shared>' belongs on %s", where);
    else if (sh != NULL && !check_lazy_is(cx, t, CHECK_PRE_STRING))
        diag_error(cx->d, sh->loc, "'<c shared>' applies to 'string' only");
    else if (sh != NULL && lz != NULL)
        diag_error(cx->d, lz->loc,
                   "'<c lazy>' and '<c shared>' cannot be combined: a shared "
                   "string is already stored out of line");
    if (ix != NULL && !check_lazy_is_object_list(cx, t))
        diag_error(cx->d, ix->loc,
                   "'<c index>' applies to a (string * T) list <json repr=\"object\"> only");
}

static void check_lazy_walk(check_cx *cx, const ast_type *t, bool slot)
{
    check_lazy_node(cx, t, slot);
    switch (t->kind) {
    case AST_TVAR:
        return;
    case AST_NAME: {
        bool object = check_lazy_is_object_list(cx, t);
        for (size_t i = 0; i < t->u.name.nargs; i++) {
            const ast_type *a = t->u.name.args[i];
            if (object && a->kind == AST_TUPLE && a->u.tuple.len == 2) {
                /* the pair of an association list: its value is a slot */
                check_lazy_node(cx, a, false);
                check_lazy_walk(cx, a->u.tuple.cells[0].type, false);
                check_lazy_walk(cx, a->u.tuple.cells[1].type, true);
            } else {
                check_lazy_walk(cx, a, false);
            }
        }
        return;
    }
    case AST_TUPLE:
        for (size_t i = 0; i < t->u.tuple.len; i++)
            check_lazy_walk(cx, t->u.tuple.cells[i].type, false);
        return;
    case AST_RECORD:
        for (size_t i = 0; i < t->u.record.len; i++)
            if (t->u.record.fields[i].type != NULL)
                check_lazy_walk(cx, t->u.record.fields[i].type, true);
        return;
    case AST_SUM:
        for (size_t i = 0; i < t->u.sum.len; i++)
            if (t->u.sum.variants[i].arg != NULL)
                check_lazy_walk(cx, t->u.sum.variants[i].arg, false);
        return;
    }
}

void check_lazy_module(check_cx *cx)
{
    for (size_t i = 0; i < cx->m->ndefs; i++)
        check_lazy_walk(cx, cx->m->defs[i].rhs, false);
}
