/* Fields and tuple cells: `?x` needs an option or
 * nullable type; `~x` needs a default -- implicit from its type (through
 * aliases, not through wrap), or `<c default>`, or an `<ocaml default>` that
 * is one of the translatable literals and fits the type; a default on any
 * other field is superfluous. Only fields written in a record are checked
 * here, in the generic scope of their definition: inherited ones are
 * checked where they are written. */
#include "check_annot.h"
#include "check_cx.h"
#include "check_lookup.h"
#include "check_passes.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_default.h"

typedef enum check_fit { CHECK_FIT_YES, CHECK_FIT_NO, CHECK_FIT_UNKNOWN } check_fit;

/* Range of an int node with <c repr> (int8 ... uint64). */
static bool check_fields_int_range(const ast_type *t, int64_t v)
{
    const ast_annot_field *f = check_annot_find(&t->annots, "c", "repr");
    if (f == NULL || f->value == NULL)
        return true;
    static const struct {
        const char *name;
        int64_t lo, hi;
    } reprs[] = {
        {"int8", INT8_MIN, INT8_MAX},    {"int16", INT16_MIN, INT16_MAX},
        {"int32", INT32_MIN, INT32_MAX}, {"uint8", 0, UINT8_MAX},
        {"uint16", 0, UINT16_MAX},       {"uint32", 0, UINT32_MAX},
    };
    for (size_t i = 0; i < sizeof reprs / sizeof reprs[0]; i++)
        if (strcmp(f->value, reprs[i].name) == 0)
            return v >= reprs[i].lo && v <= reprs[i].hi;
    return true;
}

/* The constructor `name` of a sum, or NULL. */
static const ast_variant *check_fields_variant(check_cx *cx, check_head h, const char *name,
                                               bool *unknown)
{
    check_members ms;
    *unknown = !check_inherit_expand(cx, h.clo.t, false, &ms);
    for (size_t i = 0; !*unknown && i < ms.len; i++) {
        if (strcmp(ms.items[i].variant->name, name) == 0) {
            /* an inherited constructor's argument is in its own scope */
            *unknown = ms.items[i].via_variant != NULL && ms.items[i].variant->arg != NULL;
            return ms.items[i].variant;
        }
    }
    return NULL;
}

static check_fit check_fields_fits(check_cx *cx, check_clo c, const check_default_value *v);

/* Every part of v fits the type `t` of scope `sc`. */
static check_fit check_fields_all_fit(check_cx *cx, const ast_type *t, const check_scope *sc,
                                      const check_default_value *v)
{
    check_fit fit = CHECK_FIT_YES;
    for (size_t i = 0; i < v->n && fit != CHECK_FIT_NO; i++) {
        check_fit f = check_fields_fits(cx, (check_clo){t, sc}, &v->args[i]);
        fit = f == CHECK_FIT_YES ? fit : f;
    }
    return fit;
}

/* A record literal: one value for each field, named as in ATD, of its type. */
static check_fit check_fields_record_fits(check_cx *cx, check_head h, const check_default_value *v)
{
    check_members ms;
    if (!check_inherit_expand(cx, h.clo.t, false, &ms))
        return CHECK_FIT_UNKNOWN;
    if (ms.len != v->n)
        return CHECK_FIT_NO;
    check_fit fit = CHECK_FIT_YES;
    for (size_t i = 0; i < ms.len && fit != CHECK_FIT_NO; i++) {
        const ast_field *f = ms.items[i].field;
        size_t k = 0;
        while (k < v->n && strcmp(v->labels[k], f->name) != 0)
            k++;
        if (k == v->n)
            return CHECK_FIT_NO;
        if (ms.items[i].via_field != NULL)
            return CHECK_FIT_UNKNOWN; /* an inherited field's type is in its own scope */
        /* a `?x : T option` field is a T option in OCaml too */
        check_fit one = check_fields_fits(cx, (check_clo){f->type, h.clo.sc}, &v->args[k]);
        fit = one == CHECK_FIT_YES ? fit : one;
    }
    return fit;
}

static check_fit check_fields_fits(check_cx *cx, check_clo c, const check_default_value *v)
{
    /* a literal has to fit what the C type is made of */
    check_head h = check_resolve_c_type(cx, c);
    if (h.kind == CHECK_H_ERROR)
        return CHECK_FIT_UNKNOWN;
    check_predef p = h.kind == CHECK_H_PREDEF ? h.pre : CHECK_PRE_NONE;
    /* the element of a list, option or nullable */
    const ast_type *elem =
        (p == CHECK_PRE_LIST || p == CHECK_PRE_OPTION || p == CHECK_PRE_NULLABLE) &&
                h.clo.t->u.name.nargs == 1
            ? h.clo.t->u.name.args[0]
            : NULL;
    bool unknown = false;
    const ast_variant *k;
    switch (v->kind) {
    case CHECK_DEFAULT_INT:
        if (p == CHECK_PRE_INT)
            return check_fields_int_range(h.clo.t, v->i) ? CHECK_FIT_YES : CHECK_FIT_NO;
        return p == CHECK_PRE_FLOAT ? CHECK_FIT_YES : CHECK_FIT_NO;
    case CHECK_DEFAULT_FLOAT:
        return p == CHECK_PRE_FLOAT ? CHECK_FIT_YES : CHECK_FIT_NO;
    case CHECK_DEFAULT_BOOL:
        return p == CHECK_PRE_BOOL ? CHECK_FIT_YES : CHECK_FIT_NO;
    case CHECK_DEFAULT_STRING:
        return p == CHECK_PRE_STRING ? CHECK_FIT_YES : CHECK_FIT_NO;
    case CHECK_DEFAULT_UNIT:
        return p == CHECK_PRE_UNIT ? CHECK_FIT_YES : CHECK_FIT_NO;
    case CHECK_DEFAULT_EMPTY_LIST:
        return p == CHECK_PRE_LIST ? CHECK_FIT_YES : CHECK_FIT_NO;
    case CHECK_DEFAULT_LIST:
        return p == CHECK_PRE_LIST && elem != NULL ? check_fields_all_fit(cx, elem, h.clo.sc, v)
                                                   : CHECK_FIT_NO;
    case CHECK_DEFAULT_SOME:
        if ((p == CHECK_PRE_OPTION || p == CHECK_PRE_NULLABLE) && elem != NULL)
            return check_fields_all_fit(cx, elem, h.clo.sc, v);
        break; /* a sum's own constructor Some */
    case CHECK_DEFAULT_TUPLE: {
        if (h.kind != CHECK_H_TUPLE || h.clo.t->u.tuple.len != v->n)
            return CHECK_FIT_NO;
        check_fit fit = CHECK_FIT_YES;
        for (size_t i = 0; i < v->n && fit != CHECK_FIT_NO; i++) {
            check_clo cell = {h.clo.t->u.tuple.cells[i].type, h.clo.sc};
            check_fit f = check_fields_fits(cx, cell, &v->args[i]);
            fit = f == CHECK_FIT_YES ? fit : f;
        }
        return fit;
    }
    case CHECK_DEFAULT_RECORD:
        return h.kind == CHECK_H_RECORD ? check_fields_record_fits(cx, h, v) : CHECK_FIT_NO;
    case CHECK_DEFAULT_NONE:
        if (p == CHECK_PRE_OPTION || p == CHECK_PRE_NULLABLE)
            return CHECK_FIT_YES;
        break; /* a sum's own constructor None */
    case CHECK_DEFAULT_CONSTRUCTOR:
        break;
    case CHECK_DEFAULT_INVALID:
        return CHECK_FIT_NO;
    }
    /* a constructor of a sum, with the argument it takes */
    if (h.kind != CHECK_H_SUM)
        return CHECK_FIT_NO;
    k = check_fields_variant(cx, h, v->name, &unknown);
    if (unknown)
        return CHECK_FIT_UNKNOWN;
    if (k == NULL || (k->arg == NULL) != (v->n == 0))
        return CHECK_FIT_NO;
    return k->arg == NULL ? CHECK_FIT_YES : check_fields_all_fit(cx, k->arg, h.clo.sc, v);
}

/* Types with an implicit default (the table of 5.3): through aliases; and
 * through a wrap without <c t> when `c_type` (what the C value is made of). */
static bool check_fields_implicit(check_cx *cx, const ast_type *t, bool c_type, bool *unknown)
{
    check_clo c = {t, NULL};
    check_head h = c_type ? check_resolve_c_type(cx, c) : check_resolve(cx, c, false);
    *unknown = h.kind == CHECK_H_ERROR;
    if (h.kind != CHECK_H_PREDEF)
        return false;
    switch (h.pre) {
    case CHECK_PRE_UNIT:
    case CHECK_PRE_BOOL:
    case CHECK_PRE_INT:
    case CHECK_PRE_FLOAT:
    case CHECK_PRE_STRING:
    case CHECK_PRE_LIST:
    case CHECK_PRE_OPTION:
    case CHECK_PRE_NULLABLE:
        return true;
    default:
        return false;
    }
}

/* Checks the <ocaml default> of something whose type is t; `what` names it
 * in messages ("field 'x'"). */
static void check_fields_ocaml_default(check_cx *cx, const ast_annot_field *od, const ast_type *t,
                                       const char *what)
{
    check_default_value v;
    const char *shown = check_quote(cx, od->value, od->value_len);
    check_clo c = {t, NULL};
    bool unknown;
    if (check_default_parse(cx->arena, od->value, od->value_len, &v) != CHECK_DEFAULT_INVALID &&
        check_fields_fits(cx, c, &v) != CHECK_FIT_NO)
        return;
    /* the value of an <ocaml t> wrap: C holds the wire value, whose zero
     * stands for it (lowering does the same: lower.c, lower_default, and
     * check_lowered.c judges it on the C type) */
    if (check_is_ocaml_wrap(cx, c) && check_fields_implicit(cx, t, true, &unknown)) {
        diag_warn(cx->d, DIAG_W_IGNORED_ANNOTATION, od->value_loc,
                  "<ocaml default=\"%s\"> of %s is a value of the wrap's OCaml type: atdc "
                  "reads and writes the wire type, whose implicit default it uses (add a <c "
                  "default=\"...\"> to choose another)",
                  shown, what);
        return;
    }
    if (v.kind == CHECK_DEFAULT_INVALID)
        diag_error(cx->d, od->value_loc,
                   "cannot translate <ocaml default=\"%s\"> of %s to C: add a <c default=\"...\">",
                   shown, what);
    else
        diag_error(cx->d, od->value_loc, "default value \"%s\" does not fit the type of %s", shown,
                   what);
}

static void check_fields_optional(check_cx *cx, const ast_field *f)
{
    check_clo c = {f->type, NULL};
    check_head h = check_resolve(cx, c, false);
    if (h.kind == CHECK_H_ERROR)
        return;
    if (h.kind == CHECK_H_PREDEF && (h.pre == CHECK_PRE_OPTION || h.pre == CHECK_PRE_NULLABLE))
        return;
    diag_error(cx->d, f->name_loc, "optional field '%s' must have an option or nullable type",
               f->name);
}

static void check_fields_one(check_cx *cx, const ast_field *f)
{
    const ast_annot_field *cd = check_annot_find(&f->annots, "c", "default");
    const ast_annot_field *od = check_annot_find(&f->annots, "ocaml", "default");
    if (f->kind != AST_FIELD_DEFAULT && (cd != NULL || od != NULL)) {
        const ast_annot_field *which = cd != NULL ? cd : od;
        diag_error(cx->d, which->loc, "superfluous default on %s field '%s'",
                   f->kind == AST_FIELD_REQUIRED ? "required" : "optional", f->name);
    }
    if (f->kind == AST_FIELD_OPTIONAL)
        check_fields_optional(cx, f);
    if (f->kind != AST_FIELD_DEFAULT || cd != NULL)
        return;
    size_t what_len = strlen(f->name) + 16;
    char *what = check_alloc(cx, what_len);
    if (what == NULL)
        return;
    snprintf(what, what_len, "field '%s'", f->name);
    if (od != NULL) {
        if (od->value != NULL)
            check_fields_ocaml_default(cx, od, f->type, what);
        return;
    }
    bool unknown;
    if (!check_fields_implicit(cx, f->type, false, &unknown) && !unknown)
        diag_error(cx->d, f->name_loc,
                   "field '%s' needs a default value: its type has no implicit default (add a "
                   "<c default=\"...\">)",
                   f->name);
}

void check_fields_record(check_cx *cx, const ast_type *record)
{
    for (size_t i = 0; i < record->u.record.len && !cx->oom; i++) {
        const ast_field *f = &record->u.record.fields[i];
        if (f->kind != AST_FIELD_INHERIT && f->name != NULL && f->type != NULL)
            check_fields_one(cx, f);
    }
}

void check_fields_tuple(check_cx *cx, const ast_type *tuple)
{
    for (size_t i = 0; i < tuple->u.tuple.len && !cx->oom; i++) {
        const ast_cell *cell = &tuple->u.tuple.cells[i];
        const ast_annot_field *od = check_annot_find(&cell->annots, "ocaml", "default");
        if (od == NULL || od->value == NULL || check_annot_find(&cell->annots, "c", "default"))
            continue;
        char what[48];
        snprintf(what, sizeof what, "tuple cell %zu", i + 1);
        check_fields_ocaml_default(cx, od, cell->type, what);
    }
}
