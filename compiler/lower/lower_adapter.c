/* Built-in JSON adapters on sums (lower_adapter.h). One_field is the
 * object form of <json repr="object"> that also accepts the array form;
 * Type_field names the constructor in a field of the argument record. */
#include "lower_adapter.h"

#include <string.h>

#include "check/check_adapter.h"
#include "check/check_annot.h"
#include "atd/suggest.h"

/* The known tags: words separated by blanks. */
static bool split_tags(atd_arena *arena, const ast_annot_field *f, ir_tv *tv)
{
    size_t n = 0, len = f->value_len;
    const char *v = f->value;
    for (size_t i = 0; i < len; i++)
        if (v[i] != ' ' && (i == 0 || v[i - 1] == ' '))
            n++;
    tv->known = atd_arena_alloc(arena, (n + 1) * sizeof *tv->known, 8);
    tv->known_lens = atd_arena_alloc(arena, (n + 1) * sizeof *tv->known_lens, 8);
    if (tv->known == NULL || tv->known_lens == NULL)
        return false;
    for (size_t i = 0; i < len;) {
        while (i < len && v[i] == ' ')
            i++;
        size_t start = i;
        while (i < len && v[i] != ' ')
            i++;
        if (i > start) {
            tv->known[tv->nknown] = v + start;
            tv->known_lens[tv->nknown++] = i - start;
        }
    }
    tv->has_known = true;
    return true;
}

static bool same_name(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && memcmp(a, b, alen) == 0;
}

/* Whether record rt has a field whose JSON name is name[0..len). */
static bool has_json_field(const ir_type *rt, const char *name, size_t len)
{
    for (size_t i = 0; i < rt->nfields; i++)
        if (same_name(rt->fields[i].json_name, rt->fields[i].json_len, name, len))
            return true;
    return false;
}

/* Type_and_value_fields on record rt: its value field and catch-all. */
static bool lower_tv(diag_ctx *diag, atd_arena *arena, const check_adapter *ad, ir_type *rt)
{
    const ast_annot_field *vf = ad->value_field;
    ast_loc loc = vf->loc;
    const ir_field *f = NULL;
    size_t value = 0;
    for (size_t i = 0; i < rt->nfields && f == NULL; i++)
        if (same_name(rt->fields[i].json_name, rt->fields[i].json_len, vf->value, vf->value_len)) {
            f = &rt->fields[i];
            value = i;
        }
    if (f == NULL) {
        atd_suggest s;
        atd_suggest_init(&s, vf->value, vf->value_len);
        for (size_t i = 0; i < rt->nfields; i++)
            atd_suggest_offer(&s, rt->fields[i].json_name, rt->fields[i].json_len);
        diag_error(diag, loc,
                   "record '%s' has no field \"%s\" to hold the value of "
                   "'<c adapter.value_field>'%s%.*s%s",
                   rt->atd_name, vf->value, s.best != NULL ? "; did you mean \"" : "",
                   s.best != NULL ? (int)s.best_len : 0, s.best != NULL ? s.best : "",
                   s.best != NULL ? "\"?" : "");
        return false;
    }
    const ir_type *st = f->slot.type;
    if (f->kind != IR_FIELD_REQUIRED || f->slot.ptr ||
        (st->kind != IR_SUM && st->kind != IR_ENUM) || st->imported) {
        diag_error(diag, loc,
                   "the value field '%s' of '<c adapter.value_field>' must be a required "
                   "field whose type is a sum of this schema",
                   f->atd_name);
        return false;
    }
    if (rt->c_adapter != NULL || rt->validator != NULL || rt->tagged_by != NULL) {
        diag_error(diag, loc,
                   "record '%s' has Type_and_value_fields: it cannot also have <json adapter.c>, "
                   "<c validator> or be the argument of a Type_field sum",
                   rt->atd_name);
        return false;
    }
    ir_tv *tv = atd_arena_alloc(arena, sizeof *tv, 8);
    if (tv == NULL)
        return false;
    memset(tv, 0, sizeof *tv);
    tv->type_field = ad->field;
    tv->type_field_len = ad->field_len;
    tv->value = value;
    tv->catch_all = -1;
    if (ad->known_tags != NULL && !split_tags(arena, ad->known_tags, tv))
        return false;
    if (ad->catch_all != NULL) {
        const ast_annot_field *ca = ad->catch_all;
        for (size_t i = 0; i < st->ncases; i++)
            if (same_name(st->cases[i].json_name, st->cases[i].json_len, ca->value, ca->value_len))
                tv->catch_all = (int)i;
        const ir_type *arg = tv->catch_all >= 0 ? st->cases[tv->catch_all].arg.type : NULL;
        if (arg == NULL || arg->kind != IR_TUPLE || arg->ncells != 2 ||
            arg->cells[0].slot.type->kind != IR_STRING || arg->cells[0].slot.ptr ||
            st->cases[tv->catch_all].arg.ptr) {
            diag_error(diag, ca->loc,
                       "'<c adapter.catch_all>' names the constructor of '%s' that holds an "
                       "unknown tag and its value: it must exist and take a (string * _) tuple",
                       st->atd_name);
            return false;
        }
    }
    /* the record's own field named like the type field is left out when
     * writing: the tag is written there (emit_write.c's tagged writer) */
    rt->tagged_by = ad->field;
    rt->tagged_by_len = ad->field_len;
    rt->tv = tv;
    return true;
}

bool lower_record_adapter(diag_ctx *diag, atd_arena *arena, const ast_annots *annots, ir_type *rt)
{
    const ast_annot_field *ca = check_adapter_c(annots);
    rt->c_adapter = ca != NULL ? ca->value : NULL;
    rt->validator = check_annot_str(annots, "c", "validator");
    check_adapter ad = check_adapter_of(arena, annots);
    if (ad.kind != CHECK_ADAPTER_TYPE_AND_VALUE_FIELDS)
        return true;
    return lower_tv(diag, arena, &ad, rt);
}

bool lower_sum_adapter(diag_ctx *diag, atd_arena *arena, const ast_annots *annots, ir_type *st)
{
    const ast_annot_field *ca = check_adapter_c(annots);
    st->c_adapter = ca != NULL ? ca->value : NULL;
    st->validator = check_annot_str(annots, "c", "validator");
    if (st->c_adapter != NULL)
        return true;
    check_adapter ad = check_adapter_of(arena, annots);
    if (ad.kind == CHECK_ADAPTER_ONE_FIELD) {
        st->adapter = IR_ADAPTER_ONE_FIELD;
        st->json_object = true;
        return true;
    }
    if (ad.kind != CHECK_ADAPTER_TYPE_FIELD)
        return true;
    st->adapter = IR_ADAPTER_TYPE_FIELD;
    st->type_field = ad.field;
    st->type_field_len = ad.field_len;
    bool ok = true;
    for (size_t i = 0; i < st->ncases; i++) {
        ir_type *arg = st->cases[i].arg.type;
        if (arg == NULL || arg->kind != IR_RECORD)
            continue; /* written ["Name", arg], as atdgen's restore leaves it */
        if (arg->tv != NULL) {
            diag_error(diag, st->cases[i].loc,
                       "the argument of '%s' is a record with Type_and_value_fields, which "
                       "cannot also be written with the type field of '<json %s>'",
                       st->cases[i].atd_name, ad.where->name);
            ok = false;
        } else if (arg->imported) {
            diag_error(diag, st->cases[i].loc,
                       "the argument of '%s' is a record of another schema, which atdc cannot "
                       "write with the type field of '<json %s>': define the record in this "
                       "schema",
                       st->cases[i].atd_name, ad.where->name);
            ok = false;
        } else if (arg->tagged_by != NULL &&
                   !same_name(arg->tagged_by, arg->tagged_by_len, ad.field, ad.field_len) &&
                   (has_json_field(arg, arg->tagged_by, arg->tagged_by_len) ||
                    has_json_field(arg, ad.field, ad.field_len))) {
            /* One tagged writer serves every sum: it leaves out the field
             * named like the type field, so the sums must agree on that
             * name unless the record has neither field. */
            diag_error(diag, st->cases[i].loc,
                       "record '%s' is the argument of sums whose type fields differ (\"%.*s\" "
                       "and \"%.*s\") and has a field of one of these names, which one sum "
                       "writes as the tag and the other as a field",
                       arg->atd_name, (int)arg->tagged_by_len, arg->tagged_by, (int)ad.field_len,
                       ad.field);
            ok = false;
        } else {
            arg->tagged_by = ad.field;
            arg->tagged_by_len = ad.field_len;
        }
    }
    return ok;
}
