/* Built-in JSON adapters on sums (lower_adapter.h). One_field is the
 * object form of <json repr="object"> that also accepts the array form;
 * Type_field names the constructor in a field of the argument record. */
#include "lower_adapter.h"

#include <string.h>

#include "check/check_adapter.h"
#include "check/check_annot.h"

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

/* Type_and_value_fields on record rt: its value field and catch-all. The
 * checker judges the parameters on the finished module (check_adapter.h,
 * check_adapter_record_ir); here a value field that is missing or not of a
 * sum leaves the record without the adapter, and a catch-all that names no
 * constructor is none. False only when out of memory. */
static bool lower_tv(atd_arena *arena, const check_adapter *ad, ir_type *rt)
{
    const ast_annot_field *vf = ad->value_field;
    int value = check_adapter_json_field(rt, vf->value, vf->value_len);
    if (value < 0)
        return true;
    const ir_type *st = rt->fields[value].slot.type;
    if (st->kind != IR_SUM && st->kind != IR_ENUM)
        return true;
    ir_tv *tv = atd_arena_alloc(arena, sizeof *tv, 8);
    if (tv == NULL)
        return false;
    memset(tv, 0, sizeof *tv);
    tv->type_field = ad->field;
    tv->type_field_len = ad->field_len;
    tv->value = (size_t)value;
    tv->catch_all = -1;
    if (ad->known_tags != NULL && !split_tags(arena, ad->known_tags, tv))
        return false;
    if (ad->catch_all != NULL)
        tv->catch_all =
            check_adapter_json_case(st, ad->catch_all->value, ad->catch_all->value_len);
    /* the record's own field named like the type field is left out when
     * writing: the tag is written there (emit_write.c's tagged writer) */
    rt->tagged_by = ad->field;
    rt->tagged_by_len = ad->field_len;
    rt->tv = tv;
    return true;
}

bool lower_record_adapter(atd_arena *arena, const ast_annots *annots, ir_type *rt)
{
    const ast_annot_field *ca = check_adapter_c(annots);
    rt->c_adapter = ca != NULL ? ca->value : NULL;
    rt->validator = check_annot_str(annots, "c", "validator");
    check_adapter ad = check_adapter_of(arena, annots);
    if (ad.kind != CHECK_ADAPTER_TYPE_AND_VALUE_FIELDS)
        return true;
    return lower_tv(arena, &ad, rt);
}

void lower_sum_adapter(atd_arena *arena, const ast_annots *annots, ir_type *st)
{
    const ast_annot_field *ca = check_adapter_c(annots);
    st->c_adapter = ca != NULL ? ca->value : NULL;
    st->validator = check_annot_str(annots, "c", "validator");
    if (st->c_adapter != NULL)
        return;
    check_adapter ad = check_adapter_of(arena, annots);
    if (ad.kind == CHECK_ADAPTER_ONE_FIELD) {
        st->adapter = IR_ADAPTER_ONE_FIELD;
        st->json_object = true;
        return;
    }
    if (ad.kind != CHECK_ADAPTER_TYPE_FIELD)
        return;
    st->adapter = IR_ADAPTER_TYPE_FIELD;
    st->type_field = ad.field;
    st->type_field_len = ad.field_len;
    /* The records that are arguments get the tagged writer, unless they
     * have one of their own or belong to another schema; the checker
     * reports those, and the arguments of sums whose type fields differ
     * (check_adapter.h, check_adapter_sum_ir). */
    for (size_t i = 0; i < st->ncases; i++) {
        ir_type *arg = st->cases[i].arg.type;
        if (arg == NULL || arg->kind != IR_RECORD || arg->tv != NULL || arg->imported)
            continue; /* written ["Name", arg], as atdgen's restore leaves it */
        arg->tagged_by = ad.field;
        arg->tagged_by_len = ad.field_len;
    }
}
