/* Recognition of atdgen's built-in JSON adapters (check_adapter.h). The
 * OCaml text is matched exactly, after trimming blanks: a module path, or
 * a function path applied to one OCaml string literal. */
#include "check_adapter.h"

#include <string.h>

#include "check_annot.h"
#include "check_default.h"
#include "atd/suggest.h"

static const char *const adapter_modules[] = {"Atdgen_runtime.Json_adapter.",
                                              "Atdgen_codec_runtime.Json_adapter."};

static bool adapter_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static const ast_annot_field *adapter_field(const ast_annots *a, const char *name)
{
    return check_annot_find(a, "json", name);
}

/* Strips blanks around [*p, *p + *len). */
static void adapter_trim(const char **p, size_t *len)
{
    while (*len > 0 && adapter_blank(**p)) {
        (*p)++;
        (*len)--;
    }
    while (*len > 0 && adapter_blank((*p)[*len - 1]))
        (*len)--;
}

/* True when [p, p + len) is one of the module paths followed by `name`;
 * *rest is what follows the name. */
static bool adapter_path(const char *p, size_t len, const char *name, const char **rest,
                         size_t *rest_len)
{
    for (size_t i = 0; i < sizeof adapter_modules / sizeof adapter_modules[0]; i++) {
        size_t m = strlen(adapter_modules[i]), n = strlen(name);
        if (len >= m + n && memcmp(p, adapter_modules[i], m) == 0 && memcmp(p + m, name, n) == 0) {
            *rest = p + m + n;
            *rest_len = len - m - n;
            return true;
        }
    }
    return false;
}

/* `<path>.fn "name"`: the decoded name, or NULL. */
static const char *adapter_call(atd_arena *arena, const ast_annot_field *f, const char *fn,
                                size_t *name_len)
{
    if (f == NULL || f->value == NULL)
        return NULL;
    const char *p = f->value, *rest;
    size_t len = f->value_len, rest_len;
    adapter_trim(&p, &len);
    if (!adapter_path(p, len, fn, &rest, &rest_len) || rest_len == 0 || !adapter_blank(rest[0]))
        return NULL;
    check_default_value v;
    if (check_default_parse(arena, rest, rest_len, &v) != CHECK_DEFAULT_STRING)
        return NULL;
    *name_len = v.len;
    return v.s;
}

static check_adapter check_adapter_builtin(atd_arena *arena, const ast_annots *a, check_adapter ad);

const ast_annot_field *check_adapter_c(const ast_annots *a)
{
    const ast_annot_field *f = check_annot_find(a, "c", "adapter");
    return f != NULL ? f : adapter_field(a, "adapter.c");
}

/* The <c adapter.type_field adapter.value_field ...> parameters
 * (check_adapter.h), on top of what adapter.ocaml names. They are in the c
 * section, which atdgen ignores: its -j mode rejects json fields it does
 * not know. */
static check_adapter adapter_params(const ast_annots *a, check_adapter ad)
{
    const ast_annot_field *tf = check_annot_find(a, "c", "adapter.type_field");
    const ast_annot_field *vf = check_annot_find(a, "c", "adapter.value_field");
    const ast_annot_field *kt = check_annot_find(a, "c", "adapter.known_tags");
    const ast_annot_field *ca = check_annot_find(a, "c", "adapter.catch_all");
    const ast_annot_field *first = tf != NULL ? tf : vf != NULL ? vf : kt != NULL ? kt : ca;
    if (first == NULL)
        return ad;
    if (ad.kind == CHECK_ADAPTER_TYPE_FIELD || ad.kind == CHECK_ADAPTER_ONE_FIELD) {
        ad.conflict = first;
        ad.conflict_why = 1;
        return ad;
    }
    if (ad.where == NULL)
        ad.where = first;
    if (tf == NULL || tf->value == NULL || tf->value_len == 0) {
        ad.conflict = first;
        ad.conflict_why = 2;
        return ad;
    }
    ad.field = tf->value;
    ad.field_len = tf->value_len;
    ad.value_field = vf;
    ad.known_tags = kt;
    ad.catch_all = ca;
    ad.kind = vf != NULL ? CHECK_ADAPTER_TYPE_AND_VALUE_FIELDS : CHECK_ADAPTER_TYPE_FIELD;
    if ((vf == NULL && (kt != NULL || ca != NULL)) || (kt == NULL) != (ca == NULL)) {
        ad.conflict = kt != NULL ? kt : ca;
        ad.conflict_why = 3;
    }
    return ad;
}

check_adapter check_adapter_of(atd_arena *arena, const ast_annots *a)
{
    check_adapter ad;
    memset(&ad, 0, sizeof ad);
    ad.kind = CHECK_ADAPTER_NONE;
    ad = check_adapter_builtin(arena, a, ad);
    return adapter_params(a, ad);
}

static check_adapter check_adapter_builtin(atd_arena *arena, const ast_annots *a, check_adapter ad)
{
    const ast_annot_field *whole = adapter_field(a, "adapter.ocaml");
    const ast_annot_field *to = adapter_field(a, "adapter.to_ocaml");
    const ast_annot_field *from = adapter_field(a, "adapter.from_ocaml");
    ad.where = whole != NULL ? whole : to != NULL ? to : from;
    if (ad.where == NULL)
        return ad;
    ad.kind = CHECK_ADAPTER_CUSTOM;
    if (whole != NULL && to == NULL && from == NULL && whole->value != NULL) {
        const char *p = whole->value, *rest;
        size_t len = whole->value_len, rest_len;
        adapter_trim(&p, &len);
        if (adapter_path(p, len, "Type_field", &rest, &rest_len) && rest_len == 0) {
            ad.kind = CHECK_ADAPTER_TYPE_FIELD;
            ad.field = "type";
            ad.field_len = 4;
        } else if (adapter_path(p, len, "One_field", &rest, &rest_len) && rest_len == 0) {
            ad.kind = CHECK_ADAPTER_ONE_FIELD;
        }
        return ad;
    }
    if (whole == NULL && to != NULL && from != NULL) {
        size_t n1 = 0, n2 = 0;
        const char *k1 = adapter_call(arena, to, "normalize_type_field", &n1);
        const char *k2 = adapter_call(arena, from, "restore_type_field", &n2);
        if (k1 != NULL && k2 != NULL && n1 == n2 && memcmp(k1, k2, n1) == 0) {
            ad.kind = CHECK_ADAPTER_TYPE_FIELD;
            ad.field = k1;
            ad.field_len = n1;
        }
    }
    return ad;
}

/* ---- on the lowered module ------------------------------------------------ */

struct check_adapter_record {
    const ir_type *t;
    const char *tagged_by; /* the type field it is written with, or NULL */
    size_t tagged_by_len;
    bool tv; /* it has Type_and_value_fields */
};

/* The entry of record t, created empty; NULL when out of memory. */
static struct check_adapter_record *adapter_state_of(atd_arena *arena, check_adapter_state *s,
                                                     const ir_type *t)
{
    for (size_t i = 0; i < s->len; i++)
        if (s->items[i].t == t)
            return &s->items[i];
    if (s->len == s->cap) {
        size_t ncap = s->cap != 0 ? s->cap * 2 : 16;
        void *n = atd_arena_grow(arena, s->items, s->cap * sizeof *s->items,
                                 ncap * sizeof *s->items, _Alignof(struct check_adapter_record));
        if (n == NULL)
            return NULL;
        s->items = n;
        s->cap = ncap;
    }
    struct check_adapter_record *r = &s->items[s->len++];
    memset(r, 0, sizeof *r);
    r->t = t;
    return r;
}

static bool adapter_same_name(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && memcmp(a, b, alen) == 0;
}

int check_adapter_json_field(const ir_type *rt, const char *name, size_t len)
{
    for (size_t i = 0; i < rt->nfields; i++)
        if (adapter_same_name(rt->fields[i].json_name, rt->fields[i].json_len, name, len))
            return (int)i;
    return -1;
}

int check_adapter_json_case(const ir_type *st, const char *name, size_t len)
{
    int k = -1;
    for (size_t i = 0; i < st->ncases; i++)
        if (adapter_same_name(st->cases[i].json_name, st->cases[i].json_len, name, len))
            k = (int)i;
    return k;
}

bool check_adapter_record_ir(diag_ctx *d, atd_arena *arena, const ast_annots *annots,
                             const ir_type *rt, check_adapter_state *s)
{
    check_adapter ad = check_adapter_of(arena, annots);
    if (ad.kind != CHECK_ADAPTER_TYPE_AND_VALUE_FIELDS)
        return true;
    const ast_annot_field *vf = ad.value_field;
    int value = check_adapter_json_field(rt, vf->value, vf->value_len);
    const ir_field *f = value >= 0 ? &rt->fields[value] : NULL;
    if (f == NULL) {
        atd_suggest sg;
        atd_suggest_init(&sg, vf->value, vf->value_len);
        for (size_t i = 0; i < rt->nfields; i++)
            atd_suggest_offer(&sg, rt->fields[i].json_name, rt->fields[i].json_len);
        diag_error(d, vf->loc,
                   "record '%s' has no field \"%s\" to hold the value of "
                   "'<c adapter.value_field>'%s%.*s%s",
                   rt->atd_name, vf->value, sg.best != NULL ? "; did you mean \"" : "",
                   sg.best != NULL ? (int)sg.best_len : 0, sg.best != NULL ? sg.best : "",
                   sg.best != NULL ? "\"?" : "");
        return false;
    }
    const ir_type *st = f->slot.type;
    if (f->kind != IR_FIELD_REQUIRED || f->slot.ptr ||
        (st->kind != IR_SUM && st->kind != IR_ENUM) || st->imported) {
        diag_error(d, vf->loc,
                   "the value field '%s' of '<c adapter.value_field>' must be a required "
                   "field whose type is a sum of this schema",
                   f->atd_name);
        return false;
    }
    struct check_adapter_record *r = adapter_state_of(arena, s, rt);
    if (r == NULL) {
        diag_oom(d);
        return false;
    }
    if (rt->c_adapter != NULL || rt->validator != NULL || r->tagged_by != NULL) {
        diag_error(d, vf->loc,
                   "record '%s' has Type_and_value_fields: it cannot also have <json adapter.c>, "
                   "<c validator> or be the argument of a Type_field sum",
                   rt->atd_name);
        return false;
    }
    if (ad.catch_all != NULL) {
        const ast_annot_field *ca = ad.catch_all;
        int k = check_adapter_json_case(st, ca->value, ca->value_len);
        const ir_type *arg = k >= 0 ? st->cases[k].arg.type : NULL;
        if (arg == NULL || arg->kind != IR_TUPLE || arg->ncells != 2 ||
            arg->cells[0].slot.type->kind != IR_STRING || arg->cells[0].slot.ptr ||
            st->cases[k].arg.ptr) {
            diag_error(d, ca->loc,
                       "'<c adapter.catch_all>' names the constructor of '%s' that holds an "
                       "unknown tag and its value: it must exist and take a (string * _) tuple",
                       st->atd_name);
            return false;
        }
    }
    r->tagged_by = ad.field;
    r->tagged_by_len = ad.field_len;
    r->tv = true;
    return true;
}

bool check_adapter_sum_ir(diag_ctx *d, atd_arena *arena, const ast_annots *annots,
                          const ir_type *st, check_adapter_state *s)
{
    if (check_adapter_c(annots) != NULL)
        return true;
    check_adapter ad = check_adapter_of(arena, annots);
    if (ad.kind != CHECK_ADAPTER_TYPE_FIELD)
        return true;
    bool ok = true;
    for (size_t i = 0; i < st->ncases; i++) {
        const ir_type *arg = st->cases[i].arg.type;
        if (arg == NULL || arg->kind != IR_RECORD)
            continue; /* written ["Name", arg], as atdgen's restore leaves it */
        struct check_adapter_record *r = adapter_state_of(arena, s, arg);
        if (r == NULL) {
            diag_oom(d);
            return false;
        }
        if (r->tv) {
            diag_error(d, st->cases[i].loc,
                       "the argument of '%s' is a record with Type_and_value_fields, which "
                       "cannot also be written with the type field of '<json %s>'",
                       st->cases[i].atd_name, ad.where->name);
            ok = false;
        } else if (arg->imported) {
            diag_error(d, st->cases[i].loc,
                       "the argument of '%s' is a record of another schema, which atdc cannot "
                       "write with the type field of '<json %s>': define the record in this "
                       "schema",
                       st->cases[i].atd_name, ad.where->name);
            ok = false;
        } else if (r->tagged_by != NULL &&
                   !adapter_same_name(r->tagged_by, r->tagged_by_len, ad.field, ad.field_len) &&
                   (check_adapter_json_field(arg, r->tagged_by, r->tagged_by_len) >= 0 ||
                    check_adapter_json_field(arg, ad.field, ad.field_len) >= 0)) {
            /* One tagged writer serves every sum: it leaves out the field
             * named like the type field, so the sums must agree on that
             * name unless the record has neither field. */
            diag_error(d, st->cases[i].loc,
                       "record '%s' is the argument of sums whose type fields differ (\"%.*s\" "
                       "and \"%.*s\") and has a field of one of these names, which one sum "
                       "writes as the tag and the other as a field",
                       arg->atd_name, (int)r->tagged_by_len, r->tagged_by, (int)ad.field_len,
                       ad.field);
            ok = false;
        } else {
            r->tagged_by = ad.field;
            r->tagged_by_len = ad.field_len;
        }
    }
    return ok;
}
