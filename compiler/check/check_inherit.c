/* Inheritance (atd-spec 5.6): `inherit T` splices the fields (constructors)
 * of the record (sum) T reaches through aliases and applications; when a
 * name then occurs more than once, the last occurrence wins and stays at its
 * own position.
 *
 * Which members a node has does not depend on the arguments it is
 * instantiated with (an `inherit 'a` is an error in any case), so each
 * node's expansion is computed once and memoized; diamonds therefore cost
 * nothing extra. A stack of the nodes being expanded finds cycles and bounds
 * the depth. Only the node being checked reports errors in its own clauses:
 * a bad clause deeper down is reported once, when its own definition is
 * checked. A cycle is reported at each clause of a node that leads back to
 * that node; expansions cut short by a cycle above them are not memoized. */
#include "check_cx.h"
#include "check_lookup.h"

#include <stdint.h>
#include <string.h>

typedef enum check_exp_result {
    CHECK_EXP_OK,
    CHECK_EXP_DEEP, /* a chain of inherits longer than CHECK_MAX_INHERIT_DEPTH */
    CHECK_EXP_BIG   /* the work budget ran out */
} check_exp_result;

/* Memoization makes expansion linear; the budget only guards against
 * pathological mixes of cycles and diamonds, which are not memoized. */
#define CHECK_EXP_BUDGET 100000

typedef struct check_exp {
    check_cx *cx;
    bool is_sum;
    const ast_type *stack[CHECK_MAX_INHERIT_DEPTH + 1];
    size_t depth;
    size_t budget;
} check_exp;

typedef struct check_vec {
    check_member *items;
    size_t len, cap;
} check_vec;

const char *check_member_name(const check_member *mb)
{
    return mb->field != NULL ? mb->field->name : mb->variant->name;
}

ast_loc check_member_loc(const check_member *mb)
{
    if (mb->via_field != NULL)
        return mb->via_field->loc;
    if (mb->via_variant != NULL)
        return mb->via_variant->loc;
    return mb->field != NULL ? mb->field->name_loc : mb->variant->name_loc;
}

static void check_vec_push(check_cx *cx, check_vec *v, const check_member *mb)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 8;
        check_member *items;
        if (v->items == NULL)
            items = atd_arena_alloc(cx->arena, cap * sizeof *items, _Alignof(check_member));
        else
            items = atd_arena_grow(cx->arena, v->items, v->cap * sizeof *items, cap * sizeof *items,
                                   _Alignof(check_member));
        if (items == NULL) {
            check_oom(cx);
            return;
        }
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = *mb;
}

/* Keeps the last occurrence of each name, in place. */
static void check_vec_dedupe(check_cx *cx, check_vec *v)
{
    check_map last;
    if (!check_map_init(&last, cx->arena, v->len)) {
        check_oom(cx);
        return;
    }
    for (size_t i = 0; i < v->len; i++) {
        const char *name = check_member_name(&v->items[i]);
        check_map_set(&last, name, strlen(name), i);
    }
    size_t kept = 0;
    for (size_t i = 0; i < v->len; i++) {
        const char *name = check_member_name(&v->items[i]);
        if (check_map_get(&last, name, strlen(name)) == i)
            v->items[kept++] = v->items[i];
    }
    v->len = kept;
}

/* The memo key of a node is its address. */
static const check_members *check_memo_get(check_cx *cx, const ast_type *t)
{
    size_t i = check_map_get(&cx->inherit_memo, (const char *)&t, sizeof t);
    return i == SIZE_MAX ? NULL : &cx->inherit_lists[i];
}

static void check_memo_put(check_cx *cx, const ast_type *t, const check_vec *v)
{
    if (cx->ninherit_lists >= cx->nstructs + 1)
        return;
    const ast_type **key = check_alloc(cx, sizeof *key);
    if (key == NULL)
        return;
    *key = t;
    size_t i = cx->ninherit_lists;
    if (check_map_put(&cx->inherit_memo, (const char *)key, sizeof *key, i) != i)
        return;
    cx->inherit_lists[i].items = v->items;
    cx->inherit_lists[i].len = v->len;
    cx->ninherit_lists++;
}

/* Errors of `inherit T` whose T reached h instead of a record (sum). */
static void check_exp_report(check_exp *e, const ast_type *t, ast_loc loc, check_head h)
{
    check_cx *cx = e->cx;
    switch (h.kind) {
    case CHECK_H_ERROR:
        return; /* reported by check_types.c or check_recursion.c */
    case CHECK_H_TVAR:
        diag_error(cx->d, loc, "cannot inherit from a type variable");
        return;
    case CHECK_H_IMPORTED:
        diag_error(cx->d, loc, "cannot inherit from imported type '%s'",
                   check_type_str(cx, h.clo.t));
        return;
    default:
        diag_error(cx->d, loc, "cannot inherit from '%s': it is not a %s", check_type_str(cx, t),
                   e->is_sum ? "sum" : "record");
        return;
    }
}

static check_exp_result check_exp_node(check_exp *e, const ast_type *t, bool report, check_vec *out,
                                       size_t *cycle_at);

/* One `inherit T` clause of the node on top of the stack; appends the
 * members it brings. */
static check_exp_result check_exp_clause(check_exp *e, const ast_type *t, ast_loc loc, bool report,
                                         const ast_field *via_f, const ast_variant *via_v,
                                         check_vec *out, size_t *cycle_at)
{
    size_t self = e->depth - 1;
    check_clo tc = {t, NULL};
    check_head h = check_resolve(e->cx, tc, false);
    if (h.kind != (e->is_sum ? CHECK_H_SUM : CHECK_H_RECORD)) {
        if (report)
            check_exp_report(e, t, loc, h);
        return CHECK_EXP_OK;
    }
    size_t closes = SIZE_MAX;
    check_exp_result r = CHECK_EXP_OK;
    for (size_t i = 0; i < e->depth && closes == SIZE_MAX; i++)
        if (e->stack[i] == h.clo.t)
            closes = i;
    const check_members *memo = closes == SIZE_MAX ? check_memo_get(e->cx, h.clo.t) : NULL;
    check_vec sub = {NULL, 0, 0};
    if (memo != NULL) {
        sub.items = memo->items;
        sub.len = memo->len;
    } else if (closes != SIZE_MAX) {
        /* a cycle: nothing to splice */
    } else if (e->depth > CHECK_MAX_INHERIT_DEPTH) {
        r = CHECK_EXP_DEEP;
    } else if (e->budget == 0) {
        r = CHECK_EXP_BIG;
    } else {
        e->budget--;
        r = check_exp_node(e, h.clo.t, false, &sub, &closes);
    }
    if (closes == self && report)
        diag_error(e->cx->d, loc, "cyclic inheritance through '%s'", check_type_str(e->cx, t));
    if (closes < self && closes < *cycle_at)
        *cycle_at = closes;
    if (report && r == CHECK_EXP_DEEP)
        diag_error(e->cx->d, loc, "inheritance is nested too deeply (more than %d levels)",
                   CHECK_MAX_INHERIT_DEPTH);
    else if (report && r == CHECK_EXP_BIG)
        diag_error(e->cx->d, loc, "inheritance expands to too many members");
    for (size_t i = 0; i < sub.len; i++) {
        check_member mb = sub.items[i];
        mb.via_field = via_f;
        mb.via_variant = via_v;
        check_vec_push(e->cx, out, &mb);
    }
    return report ? CHECK_EXP_OK : r;
}

/* Expands node t into out (deduplicated); *cycle_at receives the lowest
 * stack index that a cycle from here leads back to, if below t's own. */
static check_exp_result check_exp_node(check_exp *e, const ast_type *t, bool report, check_vec *out,
                                       size_t *cycle_at)
{
    check_exp_result result = CHECK_EXP_OK;
    size_t self = e->depth;
    size_t cycle = SIZE_MAX;
    e->stack[e->depth++] = t;
    size_t n = e->is_sum ? t->u.sum.len : t->u.record.len;
    for (size_t i = 0; i < n && !e->cx->oom; i++) {
        check_member mb = {NULL, NULL, NULL, NULL, NULL};
        check_exp_result r = CHECK_EXP_OK;
        if (e->is_sum) {
            const ast_variant *v = &t->u.sum.variants[i];
            if (!v->is_inherit) {
                mb.variant = v;
                mb.owner = t;
                check_vec_push(e->cx, out, &mb);
            } else if (v->arg != NULL) {
                r = check_exp_clause(e, v->arg, v->loc, report, NULL, report ? v : NULL, out,
                                     &cycle);
            }
        } else {
            const ast_field *f = &t->u.record.fields[i];
            if (f->kind != AST_FIELD_INHERIT) {
                mb.field = f;
                mb.owner = t;
                check_vec_push(e->cx, out, &mb);
            } else if (f->type != NULL) {
                r = check_exp_clause(e, f->type, f->loc, report, report ? f : NULL, NULL, out,
                                     &cycle);
            }
        }
        if (r != CHECK_EXP_OK && result == CHECK_EXP_OK)
            result = r;
    }
    e->depth--;
    check_vec_dedupe(e->cx, out);
    /* A result cut short by the depth or the budget is memoized all the
     * same: the error is reported once, by the first checked node that hit
     * it, and redoing the work for every other node could take forever. */
    if (cycle == SIZE_MAX && !report && !e->cx->oom)
        check_memo_put(e->cx, t, out);
    if (cycle < self && cycle < *cycle_at)
        *cycle_at = cycle;
    return result;
}

bool check_inherit_expand(check_cx *cx, const ast_type *t, bool report, check_members *out)
{
    out->items = NULL;
    out->len = 0;
    const check_members *memo = report ? NULL : check_memo_get(cx, t);
    if (memo != NULL) {
        *out = *memo;
        return true;
    }
    check_exp e;
    memset(&e, 0, sizeof e);
    e.cx = cx;
    e.is_sum = t->kind == AST_SUM;
    e.budget = CHECK_EXP_BUDGET;
    check_vec v = {NULL, 0, 0};
    size_t cycle = SIZE_MAX;
    check_exp_node(&e, t, report, &v, &cycle);
    if (cx->oom)
        return false;
    out->items = v.items;
    out->len = v.len;
    return true;
}
