/* C name clashes among the fields of one record: two field names that
 * names.c turns into the same C member would make the generated struct
 * invalid, and we never add silent suffixes, so they are errors that point at
 * both names and suggest <c name>. Checked after inheritance, including the
 * `has_x` flag of an optional field `x`. Identifiers that the whole generated
 * file shares (types, functions, and the enum constants that constructors
 * become, within one sum as across sums) are compared once, after lowering,
 * by check/check_clash.c. */
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
                               const char *cname)
{
    diag_error(cx->d, check_member_loc(b), "fields '%s' and '%s' have the same C name '%s'",
               check_member_name(a), check_member_name(b), cname);
    diag_note(cx->d, check_member_loc(a),
              "'%s' is defined here; use <c name=\"...\"> to rename one of them",
              check_member_name(a));
}

void check_cnames_fields(check_cx *cx, const check_members *ms)
{
    check_map seen;
    const char **names = check_alloc(cx, (ms->len ? ms->len : 1) * sizeof *names);
    if (names == NULL || !check_map_init(&seen, cx->arena, ms->len)) {
        check_oom(cx);
        return;
    }
    for (size_t i = 0; i < ms->len && !cx->oom; i++) {
        const check_member *mb = &ms->items[i];
        const char *c = check_cnames_of(cx, check_member_name(mb), &mb->field->annots);
        if (c == NULL) {
            check_oom(cx);
            return;
        }
        names[i] = c;
        size_t first = check_map_put(&seen, c, strlen(c), i);
        if (first != i && first != SIZE_MAX && !check_cnames_same_origin(&ms->items[first], mb))
            check_cnames_clash(cx, &ms->items[first], mb, c);
    }
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
