/* Recognition of atdgen's built-in JSON adapters (check_adapter.h). The
 * OCaml text is matched exactly, after trimming blanks: a module path, or
 * a function path applied to one OCaml string literal. */
#include "check_adapter.h"

#include <string.h>

#include "check_annot.h"
#include "check_default.h"

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
