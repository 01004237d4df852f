/* Inheritance: `inherit T` splices the fields (constructors)
 * of the record (sum) T reaches through aliases and applications; when a
 * name then occurs more than once, the last occurrence wins and stays at its
 * own position.
 *
 * Which members a node has does not depend on the arguments it is
 * instantiated with (an `inherit 'a` is an error in any case), so the
 * inherit clauses make one graph over the record and sum nodes, walked once
 * (Tarjan's strongly connected components, with an explicit stack, so no
 * schema can exhaust the C stack). A clause whose target is in its own
 * node's component leads back to that node: it is a cycle, reported at the
 * clause, and splices nothing. Every other clause splices its target's
 * members, computed before (the target's component is finished first), so
 * each node is expanded once: time and memory grow with the schema's size
 * (members per node are bounded by the distinct names), whatever its
 * cycles and diamonds. Only the node being checked reports errors in its own
 * clauses; a bad clause deeper down is reported when its own definition is
 * checked. A chain of inherits longer than CHECK_MAX_INHERIT_DEPTH is
 * reported once, at the clause where it crosses the limit. */
#include "check_cx.h"
#include "check_lookup.h"

#include <stdint.h>
#include <string.h>

enum { NODE_NEW, NODE_OPEN, NODE_DONE };

/* One record or sum node of the inherit graph. */
typedef struct check_inherit_node {
    const ast_type *t;
    int state;
    size_t index, low; /* Tarjan's visit order and lowest reachable index */
    size_t component;  /* once done: nodes with the same value reach each other */
    size_t height;     /* longest chain of inherits below, capped */
    check_members members;
} check_inherit_node;

/* A node being visited: the next clause to follow. */
typedef struct check_inherit_frame {
    size_t node;
    size_t item;
} check_inherit_frame;

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

static size_t node_items(const ast_type *t)
{
    return t->kind == AST_SUM ? t->u.sum.len : t->u.record.len;
}

/* The target type of item i when it is an inherit clause, else NULL. */
static const ast_type *clause_type(const ast_type *t, size_t i, ast_loc *loc)
{
    if (t->kind == AST_SUM) {
        const ast_variant *v = &t->u.sum.variants[i];
        *loc = v->loc;
        return v->is_inherit ? v->arg : NULL;
    }
    const ast_field *f = &t->u.record.fields[i];
    *loc = f->loc;
    return f->kind == AST_FIELD_INHERIT ? f->type : NULL;
}

/* The node of t, added on first sight; SIZE_MAX when out of room. */
static size_t node_of(check_cx *cx, const ast_type *t)
{
    size_t i = check_map_get(&cx->inherit_memo, (const char *)&t, sizeof t);
    if (i != SIZE_MAX)
        return i;
    if (cx->ninherit_nodes >= cx->nstructs + 1)
        return SIZE_MAX;
    const ast_type **key = check_alloc(cx, sizeof *key);
    if (key == NULL)
        return SIZE_MAX;
    *key = t;
    i = cx->ninherit_nodes;
    if (check_map_put(&cx->inherit_memo, (const char *)key, sizeof *key, i) != i)
        return SIZE_MAX;
    check_inherit_node *n = &cx->inherit_nodes[i];
    memset(n, 0, sizeof *n);
    n->t = t;
    n->state = NODE_NEW;
    cx->ninherit_nodes++;
    return i;
}

/* The node that clause type `ct` of a sum (record) inherits from, or
 * SIZE_MAX when it reaches no sum (record): an error that
 * check_inherit_report reports; *h receives what it reached. */
static size_t clause_target(check_cx *cx, const ast_type *ct, bool is_sum, check_head *h)
{
    check_clo tc = {ct, NULL};
    *h = check_resolve(cx, tc, false);
    if (h->kind != (is_sum ? CHECK_H_SUM : CHECK_H_RECORD))
        return SIZE_MAX;
    return node_of(cx, h->clo.t);
}

/* The members of node n once every clause target outside its component is
 * done: its own items, and the members of those targets. */
static void node_finish(check_cx *cx, size_t n, const size_t *open_mark)
{
    check_inherit_node *node = &cx->inherit_nodes[n];
    const ast_type *t = node->t;
    check_vec out = {NULL, 0, 0};
    size_t height = 0;
    for (size_t i = 0; i < node_items(t) && !cx->oom; i++) {
        ast_loc loc;
        const ast_type *ct = clause_type(t, i, &loc);
        check_member mb = {t, NULL, NULL, NULL, NULL};
        if (ct == NULL) {
            if (t->kind == AST_SUM)
                mb.variant = &t->u.sum.variants[i];
            else
                mb.field = &t->u.record.fields[i];
            check_vec_push(cx, &out, &mb);
            continue;
        }
        check_head h;
        size_t target = clause_target(cx, ct, t->kind == AST_SUM, &h);
        if (target == SIZE_MAX || cx->inherit_nodes[target].state != NODE_DONE ||
            open_mark[target] != SIZE_MAX)
            continue; /* not a node of this kind, or in this component: a cycle */
        const check_inherit_node *tn = &cx->inherit_nodes[target];
        if (tn->height + 1 > height)
            height = tn->height + 1;
        for (size_t k = 0; k < tn->members.len; k++) {
            mb = tn->members.items[k];
            mb.via_field = t->kind == AST_SUM ? NULL : &t->u.record.fields[i];
            mb.via_variant = t->kind == AST_SUM ? &t->u.sum.variants[i] : NULL;
            check_vec_push(cx, &out, &mb);
        }
    }
    check_vec_dedupe(cx, &out);
    node->members.items = out.items;
    node->members.len = out.len;
    size_t cap = (size_t)CHECK_MAX_INHERIT_DEPTH + 1;
    node->height = height < cap ? height : cap;
}

/* Tarjan's walk from node `root`. `open_mark[i]` is SIZE_MAX unless node i
 * is on the component stack, which holds open nodes in visit order. */
static void walk(check_cx *cx, size_t root)
{
    size_t cap = cx->nstructs + 1;
    check_inherit_frame *frames = check_alloc(cx, cap * sizeof *frames);
    size_t *stack = check_alloc(cx, cap * sizeof *stack);
    size_t *open_mark = check_alloc(cx, cap * sizeof *open_mark);
    if (frames == NULL || stack == NULL || open_mark == NULL)
        return;
    for (size_t i = 0; i < cap; i++)
        open_mark[i] = SIZE_MAX;
    size_t nframes = 0, nstack = 0;
    check_inherit_node *nodes = cx->inherit_nodes;
    nodes[root].state = NODE_OPEN;
    nodes[root].index = nodes[root].low = cx->inherit_visits++;
    open_mark[root] = nstack;
    stack[nstack++] = root;
    frames[nframes++] = (check_inherit_frame){root, 0};
    while (nframes > 0 && !cx->oom) {
        check_inherit_frame *f = &frames[nframes - 1];
        check_inherit_node *node = &nodes[f->node];
        if (f->item < node_items(node->t)) {
            ast_loc loc;
            const ast_type *ct = clause_type(node->t, f->item++, &loc);
            check_head h;
            size_t target = ct != NULL ? clause_target(cx, ct, node->t->kind == AST_SUM, &h) : SIZE_MAX;
            if (target == SIZE_MAX)
                continue;
            if (nodes[target].state == NODE_NEW) {
                nodes[target].state = NODE_OPEN;
                nodes[target].index = nodes[target].low = cx->inherit_visits++;
                open_mark[target] = nstack;
                stack[nstack++] = target;
                frames[nframes++] = (check_inherit_frame){target, 0};
            } else if (open_mark[target] != SIZE_MAX && nodes[target].index < node->low) {
                node->low = nodes[target].index;
            }
            continue;
        }
        /* All clauses followed: close the component if this node is its root. */
        size_t n = f->node;
        nframes--;
        if (nframes > 0 && nodes[n].low < nodes[frames[nframes - 1].node].low)
            nodes[frames[nframes - 1].node].low = nodes[n].low;
        if (nodes[n].low != nodes[n].index)
            continue;
        size_t first = open_mark[n];
        for (size_t k = first; k < nstack; k++)
            nodes[stack[k]].state = NODE_DONE;
        /* Members, with the component's nodes still marked open so that
         * clauses between them splice nothing. */
        for (size_t k = nstack; k-- > first && !cx->oom;)
            node_finish(cx, stack[k], open_mark);
        for (size_t k = first; k < nstack; k++) {
            nodes[stack[k]].component = n;
            open_mark[stack[k]] = SIZE_MAX;
        }
        nstack = first;
    }
}

/* Errors of `inherit T` whose T reached h instead of a record (sum). */
static void check_inherit_report_kind(check_cx *cx, const ast_type *t, const ast_type *ct,
                                      ast_loc loc, check_head h)
{
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
        diag_error(cx->d, loc, "cannot inherit from '%s': it is not a %s", check_type_str(cx, ct),
                   t->kind == AST_SUM ? "sum" : "record");
        return;
    }
}

/* The errors in node n's own clauses. */
static void check_inherit_report(check_cx *cx, size_t n)
{
    const ast_type *t = cx->inherit_nodes[n].t;
    for (size_t i = 0; i < node_items(t) && !cx->oom; i++) {
        ast_loc loc;
        const ast_type *ct = clause_type(t, i, &loc);
        if (ct == NULL)
            continue;
        check_head h;
        size_t target = clause_target(cx, ct, t->kind == AST_SUM, &h);
        if (target == SIZE_MAX) {
            if (!cx->oom)
                check_inherit_report_kind(cx, t, ct, loc, h);
            continue;
        }
        const check_inherit_node *tn = &cx->inherit_nodes[target];
        if (tn->component == cx->inherit_nodes[n].component)
            diag_error(cx->d, loc, "cyclic inheritance through '%s'", check_type_str(cx, ct));
        else if (tn->height == (size_t)CHECK_MAX_INHERIT_DEPTH)
            diag_error(cx->d, loc, "inheritance is nested too deeply (more than %d levels)",
                       CHECK_MAX_INHERIT_DEPTH);
    }
}

bool check_inherit_expand(check_cx *cx, const ast_type *t, bool report, check_members *out)
{
    out->items = NULL;
    out->len = 0;
    size_t n = node_of(cx, t);
    if (n == SIZE_MAX) {
        check_oom(cx);
        return false;
    }
    if (cx->inherit_nodes[n].state == NODE_NEW)
        walk(cx, n);
    if (cx->oom)
        return false;
    if (report)
        check_inherit_report(cx, n);
    *out = cx->inherit_nodes[n].members;
    return !cx->oom;
}

struct check_inherit_node *check_inherit_alloc(check_cx *cx)
{
    return check_alloc(cx, (cx->nstructs + 1) * sizeof(check_inherit_node));
}
