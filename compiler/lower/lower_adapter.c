/* Built-in JSON adapters on sums (lower_adapter.h). One_field is the
 * object form of <json repr="object"> that also accepts the array form;
 * Type_field names the constructor in a field of the argument record. */
#include "lower_adapter.h"

#include <string.h>

#include "check/check_adapter.h"

/* <json adapter.c="NAME">, which takes precedence over adapter.ocaml. */
static const char *annot_value(const ast_annots *a, const char *section, const char *field)
{
    for (size_t i = 0; i < a->len; i++) {
        if (strcmp(a->items[i].section, section) != 0)
            continue;
        for (size_t k = 0; k < a->items[i].nfields; k++)
            if (strcmp(a->items[i].fields[k].name, field) == 0)
                return a->items[i].fields[k].value;
    }
    return NULL;
}

void lower_record_adapter(const ast_annots *annots, ir_type *rt)
{
    rt->c_adapter = annot_value(annots, "json", "adapter.c");
    rt->validator = annot_value(annots, "c", "validator");
}

bool lower_sum_adapter(diag_ctx *diag, atd_arena *arena, const ast_annots *annots, ir_type *st)
{
    st->c_adapter = annot_value(annots, "json", "adapter.c");
    st->validator = annot_value(annots, "c", "validator");
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
        if (arg->imported) {
            diag_error(diag, st->cases[i].loc,
                       "the argument of '%s' is a record of another schema, which atdc cannot "
                       "write with the type field of '<json %s>': define the record in this "
                       "schema",
                       st->cases[i].atd_name, ad.where->name);
            ok = false;
        } else if (arg->tagged_by != NULL &&
                   (arg->tagged_by_len != ad.field_len ||
                    memcmp(arg->tagged_by, ad.field, ad.field_len) != 0)) {
            diag_error(diag, st->cases[i].loc,
                       "record '%s' is the argument of sums whose type fields differ: atdc "
                       "supports one type field per record",
                       arg->atd_name);
            ok = false;
        } else {
            arg->tagged_by = ad.field;
            arg->tagged_by_len = ad.field_len;
        }
    }
    return ok;
}
