/* Records, sums and tuples, wherever they are written (named or anonymous,
 * as atdgen requires): expands each record and sum once (check_inherit.c), which
 * reports its inherit errors, then checks what depends on the expanded
 * member list -- two members with the same JSON name, C name clashes -- and
 * hands fields and tuple cells to check_fields.c. */
#include "check_annot.h"
#include "check_cx.h"
#include "check_lookup.h"
#include "check_passes.h"

#include <stdint.h>
#include <string.h>

/* The wire name: <json name="..."> or the ATD name. */
static const char *check_records_json_name(const check_member *mb, size_t *len)
{
    const ast_annots *an = mb->field != NULL ? &mb->field->annots : &mb->variant->annots;
    const ast_annot_field *f = check_annot_find(an, "json", "name");
    if (f != NULL && f->value != NULL) {
        *len = f->value_len;
        return f->value;
    }
    const char *name = check_member_name(mb);
    *len = strlen(name);
    return name;
}

/* Two members that came through the same inherit clause clash in the
 * inherited definition too, and are reported there. */
static bool check_records_same_origin(const check_member *a, const check_member *b)
{
    if (a->via_field != NULL)
        return a->via_field == b->via_field;
    if (a->via_variant != NULL)
        return a->via_variant == b->via_variant;
    return false;
}

static void check_records_json_names(check_cx *cx, const check_members *ms, bool is_sum)
{
    check_map seen;
    if (!check_map_init(&seen, cx->arena, ms->len)) {
        check_oom(cx);
        return;
    }
    const char *what = is_sum ? "constructors" : "fields";
    for (size_t i = 0; i < ms->len; i++) {
        size_t len;
        const char *jn = check_records_json_name(&ms->items[i], &len);
        size_t first = check_map_put(&seen, jn, len, i);
        if (first == i || first == SIZE_MAX)
            continue;
        const check_member *a = &ms->items[first], *b = &ms->items[i];
        if (check_records_same_origin(a, b))
            continue;
        diag_error(cx->d, check_member_loc(b), "%s '%s' and '%s' have the same JSON name \"%s\"",
                   what, check_member_name(a), check_member_name(b), check_quote(cx, jn, len));
        diag_note(cx->d, check_member_loc(a), "'%s' is defined here", check_member_name(a));
    }
}

static void check_records_members(check_cx *cx, const ast_type *t)
{
    check_members ms;
    if (!check_inherit_expand(cx, t, true, &ms))
        return;
    check_records_json_names(cx, &ms, t->kind == AST_SUM);
    if (t->kind == AST_RECORD)
        check_cnames_fields(cx, &ms);
}

static void check_records_walk(check_cx *cx, const ast_type *t)
{
    switch (t->kind) {
    case AST_TVAR:
        return;
    case AST_NAME:
        for (size_t i = 0; i < t->u.name.nargs; i++)
            check_records_walk(cx, t->u.name.args[i]);
        return;
    case AST_TUPLE:
        check_fields_tuple(cx, t);
        for (size_t i = 0; i < t->u.tuple.len; i++)
            check_records_walk(cx, t->u.tuple.cells[i].type);
        return;
    case AST_RECORD:
        check_fields_record(cx, t);
        check_records_members(cx, t);
        for (size_t i = 0; i < t->u.record.len; i++)
            if (t->u.record.fields[i].type != NULL)
                check_records_walk(cx, t->u.record.fields[i].type);
        return;
    case AST_SUM:
        check_records_members(cx, t);
        for (size_t i = 0; i < t->u.sum.len; i++)
            if (t->u.sum.variants[i].arg != NULL)
                check_records_walk(cx, t->u.sum.variants[i].arg);
        return;
    }
}

void check_records_module(check_cx *cx)
{
    for (size_t i = 0; i < cx->m->ndefs && !cx->oom; i++)
        check_records_walk(cx, cx->m->defs[i].rhs);
}
