/* Annotations judged on the lowered module (check_lowered.h). Lowering
 * translates each of them as well as it can and keeps going; this pass
 * runs the same translations again with a diagnostic context, so both
 * always agree on what is valid. */
#include "check_lowered.h"

#include <string.h>

#include "check_adapter.h"
#include "check_cdefault.h"
#include "check_default.h"
#include "check_validators.h"
#include "lower/lower_odefault.h"

/* Whether the zero of t is its implicit default (as atdgen defines it). */
static bool check_lowered_implicit(const ir_type *t)
{
    switch (t->kind) {
    case IR_UNIT:
    case IR_BOOL:
    case IR_INT:
    case IR_FLOAT:
    case IR_STRING:
    case IR_LIST:
    case IR_ASSOC:
    case IR_OPTION:
    case IR_NULLABLE:
    case IR_WRAP: /* the zero bytes of the user type; always written */
        return true;
    case IR_ABSTRACT:
    case IR_RECORD:
    case IR_ENUM:
    case IR_SUM:
    case IR_TUPLE:
        break;
    }
    return false;
}

/* An <ocaml default> that check_fields.c could not judge in full (a value
 * of an inherited field, or one C cannot hold by value: behind a pointer,
 * a non-empty map, a <c t> wrap) meets its C type here. */
static bool check_lowered_ocaml_default(diag_ctx *d, atd_arena *arena, const ir_use *u)
{
    const ast_annot_field *od = u->f;
    check_default_value dv;
    ir_default scratch;
    const char *range_type = NULL;
    int64_t range_value = 0;
    lower_odefault_result r = LOWER_ODEFAULT_UNTRANSLATABLE;
    if (check_default_parse(arena, od->value, od->value_len, &dv) != CHECK_DEFAULT_INVALID)
        r = lower_ocaml_default(arena, &dv, u->t, &scratch, &range_type, &range_value);
    switch (r) {
    case LOWER_ODEFAULT_OK:
        return true;
    case LOWER_ODEFAULT_OOM:
        diag_oom(d);
        return false;
    case LOWER_ODEFAULT_RANGE:
        diag_error(d, u->loc, "<ocaml default> %lld does not fit the C type %s",
                   (long long)range_value, range_type);
        return false;
    case LOWER_ODEFAULT_UNTRANSLATABLE:
        break;
    }
    /* a value of an <ocaml t> wrap's own type stands for the wire type's
     * zero (the checker warned: check_fields.c) */
    if (u->ocaml_wrap) {
        if (check_lowered_implicit(u->t))
            return true;
        diag_error(d, u->loc, "missing default value: add <c default>");
        return false;
    }
    size_t vlen = od->value_len;
    diag_error(d, u->loc, "cannot translate <ocaml default=\"%.*s\"> for %s: add <c default>",
               (int)(vlen > 80 ? 80 : vlen), od->value, u->t->atd_name);
    return false;
}

static bool check_lowered_use(diag_ctx *d, atd_arena *arena, const ir_use *u,
                              check_adapter_state *adapters)
{
    bool oom = false, ok = true;
    switch (u->kind) {
    case IR_USE_C_DEFAULT: {
        ir_default scratch;
        ok = check_cdefault(d, arena, u->f, u->t, &scratch, &oom);
        break;
    }
    case IR_USE_OCAML_DEFAULT:
        return check_lowered_ocaml_default(d, arena, u);
    case IR_USE_CHECKS: {
        bool wrong = false;
        check_validators_node(d, arena, u->annots, u->t, NULL, u->own, &wrong, &oom);
        ok = !wrong;
        break;
    }
    case IR_USE_RECORD_ADAPTER:
        return check_adapter_record_ir(d, arena, u->annots, u->t, adapters);
    case IR_USE_SUM_ADAPTER:
        return check_adapter_sum_ir(d, arena, u->annots, u->t, adapters);
    }
    if (oom)
        diag_oom(d);
    return ok && !oom;
}

bool check_lowered(diag_ctx *d, atd_arena *arena, const ir_module *m)
{
    if (d->oom) /* an earlier stage ran out of memory: its line is the last */
        return false;
    bool ok = true;
    check_adapter_state adapters = {NULL, 0, 0};
    for (size_t i = 0; i < m->nuses && !d->oom; i++)
        ok = check_lowered_use(d, arena, &m->uses[i], &adapters) && ok;
    if (m->limit != IR_LIMIT_NONE) {
        diag_error(d, m->limit_loc,
                   m->limit == IR_LIMIT_NESTING
                       ? "type is nested too deeply for the C emitter (more than %d levels, "
                         "counting aliases)"
                       : "too many instantiations of parametrized types (more than %d; "
                         "non-regular recursion?)",
                   m->limit_max);
        ok = false;
    }
    return ok && !d->oom;
}
