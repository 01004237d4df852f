/* C name clashes (atd-spec 18, style.md 3.3): two schema names that names.c
 * turns into the same C identifier would make the generated code invalid,
 * and we never add silent suffixes, so they are errors that point at both
 * names and suggest <c name>. Checked among type definitions, among the
 * fields of a record (after inheritance, including the `has_x` flag of an
 * optional field `x`) and among the constructors of a sum (compared in
 * upper case, as they become enum constants). */
#include "check_annot.h"
#include "check_cx.h"
#include "check_passes.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/names.h"

static const char *check_cnames_of(check_cx *cx, const char *atd_name, const ast_annots *a)
{
    const ast_annot_field *f = check_annot_find(a, "c", "name");
    const char *c = names_c_name(cx->arena, atd_name, f != NULL ? f->value : NULL);
    if (c == NULL)
        check_oom(cx);
    return c;
}

static bool check_cnames_same_origin(const check_member *a, const check_member *b)
{
    if (a->via_field != NULL)
        return a->via_field == b->via_field;
    if (a->via_variant != NULL)
        return a->via_variant == b->via_variant;
    return false;
}

static void check_cnames_clash(check_cx *cx, const check_member *a, const check_member *b,
                               const char *cname, bool is_sum)
{
    diag_error(cx->d, check_member_loc(b), "%s '%s' and '%s' have the same C name '%s'",
               is_sum ? "constructors" : "fields", check_member_name(a), check_member_name(b),
               cname);
    diag_note(cx->d, check_member_loc(a),
              "'%s' is defined here; use <c name=\"...\"> to rename one of them",
              check_member_name(a));
}

void check_cnames_members(check_cx *cx, const check_members *ms, bool is_sum)
{
    check_map seen;
    const char **names = check_alloc(cx, (ms->len ? ms->len : 1) * sizeof *names);
    if (names == NULL || !check_map_init(&seen, cx->arena, ms->len)) {
        check_oom(cx);
        return;
    }
    for (size_t i = 0; i < ms->len && !cx->oom; i++) {
        const check_member *mb = &ms->items[i];
        const ast_annots *an = mb->field != NULL ? &mb->field->annots : &mb->variant->annots;
        const char *c = check_cnames_of(cx, check_member_name(mb), an);
        if (c != NULL && is_sum)
            c = names_upper(cx->arena, c);
        if (c == NULL) {
            check_oom(cx);
            return;
        }
        names[i] = c;
        size_t first = check_map_put(&seen, c, strlen(c), i);
        if (first != i && first != SIZE_MAX && !check_cnames_same_origin(&ms->items[first], mb))
            check_cnames_clash(cx, &ms->items[first], mb, c, is_sum);
    }
    if (is_sum)
        return;
    /* `?x` is stored as `bool has_x; U x;`. */
    for (size_t i = 0; i < ms->len && !cx->oom; i++) {
        const check_member *mb = &ms->items[i];
        if (mb->field->kind != AST_FIELD_OPTIONAL)
            continue;
        size_t len = strlen(names[i]) + 5;
        char *flag = check_alloc(cx, len);
        if (flag == NULL)
            return;
        snprintf(flag, len, "has_%s", names[i]);
        size_t other = check_map_get(&seen, flag, strlen(flag));
        if (other == SIZE_MAX || check_cnames_same_origin(&ms->items[other], mb))
            continue;
        diag_error(cx->d, check_member_loc(&ms->items[other]),
                   "field '%s' has the same C name '%s' as the presence flag of optional field "
                   "'%s'",
                   check_member_name(&ms->items[other]), flag, check_member_name(mb));
        diag_note(cx->d, check_member_loc(mb),
                  "'%s' is defined here; use <c name=\"...\"> to rename one of them",
                  check_member_name(mb));
    }
}

/* The enum constant of a constructor is UPPER(<type>_<Constructor>) under the
 * module prefix (lower.c), so constructors of two different sums can meet:
 * type `a_b` with `C` and type `a` with `B_c` both give A_B_C. Only named,
 * non-parametrized sums are seen here; the emitter checks the names it
 * synthesizes for anonymous sums and instantiations. */
typedef struct check_enum_const {
    size_t def;
    check_member member;
} check_enum_const;

static void check_cnames_enum_constants(check_cx *cx, const char *const *type_cnames)
{
    const ast_module *m = cx->m;
    size_t total = 0;
    for (size_t i = 0; i < m->ndefs; i++) {
        const ast_typedef *td = &m->defs[i];
        check_members ms;
        if (type_cnames[i] == NULL || td->nparams > 0 || td->rhs->kind != AST_SUM ||
            !check_inherit_expand(cx, td->rhs, false, &ms))
            continue;
        total += ms.len;
    }
    check_enum_const *consts = check_alloc(cx, (total ? total : 1) * sizeof *consts);
    check_map seen;
    if (consts == NULL || !check_map_init(&seen, cx->arena, total)) {
        check_oom(cx);
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < m->ndefs && !cx->oom; i++) {
        const ast_typedef *td = &m->defs[i];
        check_members ms;
        if (type_cnames[i] == NULL || td->nparams > 0 || td->rhs->kind != AST_SUM ||
            !check_inherit_expand(cx, td->rhs, false, &ms))
            continue;
        for (size_t k = 0; k < ms.len && n < total && !cx->oom; k++) {
            const check_member *mb = &ms.items[k];
            const char *ctor = check_cnames_of(cx, mb->variant->name, &mb->variant->annots);
            if (ctor == NULL)
                return;
            size_t len = strlen(type_cnames[i]) + 1 + strlen(ctor) + 1;
            char *joined = check_alloc(cx, len);
            if (joined == NULL)
                return;
            snprintf(joined, len, "%s_%s", type_cnames[i], ctor);
            const char *c = names_upper(cx->arena, joined);
            if (c == NULL) {
                check_oom(cx);
                return;
            }
            consts[n].def = i;
            consts[n].member = *mb;
            size_t first = check_map_put(&seen, c, strlen(c), n);
            n++;
            /* Within one sum, check_cnames_members reports it already. */
            if (first == n - 1 || first == SIZE_MAX || consts[first].def == i)
                continue;
            const check_enum_const *a = &consts[first];
            diag_error(cx->d, check_member_loc(mb),
                       "constructor '%s' of type '%s' and constructor '%s' of type '%s' have the "
                       "same C enum constant '%s'",
                       check_member_name(mb), td->name, check_member_name(&a->member),
                       m->defs[a->def].name, c);
            diag_note(cx->d, check_member_loc(&a->member),
                      "'%s' is defined here; use <c name=\"...\"> to rename one of them",
                      check_member_name(&a->member));
        }
    }
}

void check_cnames_types(check_cx *cx)
{
    const ast_module *m = cx->m;
    check_map seen;
    if (!check_map_init(&seen, cx->arena, m->ndefs)) {
        check_oom(cx);
        return;
    }
    /* Per definition: its C type name, NULL when it is an error already. */
    const char **cnames = check_alloc(cx, (m->ndefs ? m->ndefs : 1) * sizeof *cnames);
    if (cnames == NULL)
        return;
    for (size_t i = 0; i < m->ndefs && !cx->oom; i++) {
        const ast_typedef *td = &m->defs[i];
        /* Duplicates and predefined names are errors already. */
        if (check_map_get(&cx->defs, td->name, strlen(td->name)) != i)
            continue;
        const char *c = check_cnames_of(cx, td->name, &td->annots);
        if (c == NULL)
            return;
        size_t first = check_map_put(&seen, c, strlen(c), i);
        if (first == i || first == SIZE_MAX) {
            cnames[i] = c;
            continue;
        }
        diag_error(cx->d, td->name_loc, "types '%s' and '%s' have the same C name '%s'",
                   m->defs[first].name, td->name, c);
        diag_note(cx->d, m->defs[first].name_loc,
                  "'%s' is defined here; use <c name=\"...\"> to rename one of them",
                  m->defs[first].name);
    }
    if (!cx->oom)
        check_cnames_enum_constants(cx, cnames);
}
