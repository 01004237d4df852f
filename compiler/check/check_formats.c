/* What the output formats can carry (check_formats.h), on the lowered
 * module: biniou's refusals (an imported type: its schema's code may have no
 * biniou form; abstract: no binary form, atdgen cannot write it either),
 * the notes of --biniou-skip-abstract, and where the lazy format's
 * annotations can be.
 *
 * A type is "encoded" for the lazy format when its bytes there differ from
 * biniou: it holds <c lazy> or <c shared> in a slot, is an association list
 * with <c index>, or holds an encoded type in a slot (a least fixed point:
 * recursive types start as not encoded). Only records, lists that are not
 * biniou tables, association lists and options have a lazy layout. */
#include "check_formats.h"

#include "util/alloc.h"

static bool check_biniou(diag_ctx *d, const ir_module *m, const check_formats_options *o)
{
    const char *opt = o->lazy                   ? "--lazy"
                      : o->biniou_skip_abstract ? "--biniou-skip-abstract"
                                                : "--biniou";
    if (m->bin_imported) {
        diag_error(d, m->bin_imported_loc,
                   "an imported type has no biniou form (atdgen cannot write it either): generate "
                   "this schema without %s",
                   opt);
        return false;
    }
    if (!m->bin_abstract)
        return true;
    if (o->lazy || !o->biniou_skip_abstract) {
        diag_error(d, m->bin_abstract_loc,
                   "abstract has no biniou form (atdgen cannot write it either): generate this "
                   "schema without %s%s",
                   opt,
                   o->lazy ? ""
                           : ", or with --biniou-skip-abstract to leave out the types "
                             "that hold it");
        return false;
    }
    for (size_t i = 0; i < m->ndefs && !d->oom; i++) {
        const ir_def *def = &m->defs[i];
        if (!def->bin_skip)
            continue;
        if (def->bin_skip_way == NULL)
            diag_note(d, def->loc, "no biniou functions for '%s': it is abstract", def->atd_name);
        else
            diag_note(d, def->loc, "no biniou functions for '%s': it holds abstract at %s",
                      def->atd_name, def->bin_skip_way);
    }
    return !d->oom;
}

/* encoded[id] for every type of m (ids below n). */
static bool *lazy_encoded(const ir_module *m, size_t *n)
{
    *n = 1;
    for (size_t i = 0; i < m->ntypes; i++)
        if ((size_t)m->types[i]->id + 1 > *n)
            *n = (size_t)m->types[i]->id + 1;
    for (size_t i = 0; i < m->nscalars; i++)
        if ((size_t)m->scalars[i]->id + 1 > *n)
            *n = (size_t)m->scalars[i]->id + 1;
    bool *enc = util_calloc(*n, 1);
    if (enc == NULL)
        return NULL;
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < m->ntypes; i++) {
            const ir_type *t = m->types[i];
            bool e = t->kind == IR_ASSOC && t->lz_index;
            for (size_t k = 0; k < ir_nslots(t) && !e; k++) {
                const ir_slot *s = ir_slot_at(t, k);
                e = s != NULL &&
                    (s->lz_lazy || s->lz_shared || ((size_t)s->type->id < *n && enc[s->type->id]));
            }
            if (e && !enc[t->id]) {
                enc[t->id] = true;
                changed = true;
            }
        }
    }
    return enc;
}

static bool check_lazy(diag_ctx *d, const ir_module *m)
{
    size_t n;
    bool *enc = lazy_encoded(m, &n);
    if (enc == NULL) {
        diag_oom(d);
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (!enc[t->id])
            continue;
        bool shape = t->kind == IR_RECORD || (t->kind == IR_LIST && !t->bin_table) ||
                     t->kind == IR_ASSOC || t->kind == IR_OPTION;
        if (!shape) {
            diag_error(d, t->loc,
                       "the lazy format has <c lazy>, <c shared> and <c index> inside records, "
                       "lists, association lists and options only, and '%s' contains one",
                       t->atd_name);
            ok = false;
        }
        for (size_t k = 0; k < ir_nslots(t); k++) {
            const ir_slot *s = ir_slot_at(t, k);
            if (s == NULL)
                continue;
            if (s->ptr && shape) {
                diag_error(d, t->loc,
                           "%s: the lazy format does not support the pointer a recursive type "
                           "needs here",
                           t->atd_name);
                ok = false;
            }
            /* (<c shared> on anything but a string: check_lazy.c) */
            if (s->lz_lazy && !ir_is_composite(s->type)) {
                diag_error(d, s->lz_loc,
                           "'<c lazy>' on a scalar: only lists, records, options and maps are "
                           "worth a reference");
                ok = false;
            }
        }
    }
    util_free(enc);
    return ok;
}

bool check_formats(diag_ctx *d, const ir_module *m, const check_formats_options *o)
{
    if (d->oom) /* an earlier stage ran out of memory: its line is the last */
        return false;
    if (!o->biniou && !o->biniou_skip_abstract && !o->lazy)
        return true;
    return check_biniou(d, m, o) && (!o->lazy || check_lazy(d, m));
}
