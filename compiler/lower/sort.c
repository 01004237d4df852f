/* Sorting of C type definitions (see sort.h): the strongly connected
 * components of the by-value containment graph (util/graph.h), then a
 * depth-first postorder on the edges that remain by value. Both walks visit
 * types in creation order, so the output is deterministic, and neither
 * recurses. Scratch memory comes from the compilation arena (freed with it);
 * running out of it makes sort_module return false. */
#include "sort.h"

#include <string.h>

#include "util/graph.h"

/* The by-value slots of t (lists and assoc lists hold pointers), stored at
 * out unless it is NULL; returns how many there are. */
static size_t slots_of(ir_type *t, ir_slot **out)
{
    size_t n = 0, nslots = t->kind == IR_LIST || t->kind == IR_WRAP ? 0 : ir_nslots(t);
    for (size_t i = 0; i < nslots; i++) {
        ir_slot *s = (ir_slot *)ir_slot_at(t, i); /* t is not const here */
        if (s == NULL)
            continue; /* a constructor without argument */
        if (out != NULL)
            out[n] = s;
        n++;
    }
    return n;
}

/* The edges from every type to the composite types it holds by value, in
 * slot order (another schema's types are not in m->types: no edge). With
 * `ptr_too` false, slots that became pointers are left out. */
static bool sort_edges(ir_module *m, atd_arena *arena, bool ptr_too, graph *g)
{
    size_t cap = 0;
    for (size_t i = 0; i < m->ntypes; i++)
        cap += slots_of(m->types[i], NULL);
    graph_edge *edges = atd_arena_alloc(arena, (cap ? cap : 1) * sizeof *edges, 16);
    ir_slot **s = atd_arena_alloc(arena, (cap ? cap : 1) * sizeof *s, 16);
    if (edges == NULL || s == NULL)
        return false;
    size_t n = 0;
    for (size_t i = 0; i < m->ntypes; i++) {
        ir_type *v = m->types[i];
        size_t k = slots_of(v, s);
        for (size_t j = 0; j < k; j++) {
            ir_type *w = s[j]->type;
            if (!ir_is_composite(w) || w->imported || (s[j]->ptr && !ptr_too))
                continue;
            edges[n].from = (size_t)v->mark;
            edges[n].to = (size_t)w->mark;
            n++;
        }
    }
    return graph_build(g, arena, m->ntypes, edges, n);
}

/* Appends to out, in depth-first postorder from v, every type not done yet
 * that v reaches by value: what a type contains comes before it. */
static void sort_postorder(const graph *g, ir_module *m, size_t v, bool *done, size_t *stack,
                           size_t *next, ir_type **out, size_t *n)
{
    if (done[v])
        return;
    size_t depth = 0;
    done[v] = true;
    stack[depth] = v;
    next[depth] = g->start[v];
    depth++;
    while (depth > 0) {
        size_t u = stack[depth - 1];
        if (next[depth - 1] < g->start[u + 1]) {
            size_t w = g->adj[next[depth - 1]++];
            if (!done[w]) {
                done[w] = true;
                stack[depth] = w;
                next[depth] = g->start[w];
                depth++;
            }
            continue;
        }
        out[(*n)++] = m->types[u];
        depth--;
    }
}

/* Zeroed scratch memory from the arena. */
static void *sort_zalloc(atd_arena *arena, size_t n, size_t size)
{
    void *p = atd_arena_alloc(arena, (n + 1) * size, 16);
    if (p != NULL)
        memset(p, 0, (n + 1) * size);
    return p;
}

bool sort_module(ir_module *m, atd_arena *arena)
{
    size_t nt = m->ntypes;
    for (size_t i = 0; i < nt; i++)
        m->types[i]->mark = (int)i;
    graph all;
    size_t *comp = sort_zalloc(arena, nt, sizeof *comp);
    if (comp == NULL || !sort_edges(m, arena, true, &all) || !graph_scc(&all, arena, comp))
        return false;
    for (size_t i = 0; i < nt; i++)
        m->types[i]->scc = (int)comp[i];
    /* Pointers for members that close a cycle. */
    ir_slot **s = NULL;
    for (size_t i = 0; i < nt; i++) {
        ir_type *v = m->types[i];
        s = sort_zalloc(arena, slots_of(v, NULL), sizeof *s);
        if (s == NULL)
            return false;
        size_t k = slots_of(v, s);
        for (size_t j = 0; j < k; j++) {
            ir_type *w = s[j]->type;
            if (ir_is_composite(w) && !w->imported && w->scc == v->scc &&
                (w->kind == IR_RECORD || w->kind == IR_SUM))
                s[j]->ptr = true;
        }
    }
    /* Enums first, then structs in dependency order. */
    graph byvalue;
    ir_type **out = sort_zalloc(arena, nt, sizeof *out);
    bool *done = sort_zalloc(arena, nt, sizeof *done);
    size_t *stack = sort_zalloc(arena, nt, sizeof *stack);
    size_t *next = sort_zalloc(arena, nt, sizeof *next);
    if (out == NULL || done == NULL || stack == NULL || next == NULL ||
        !sort_edges(m, arena, false, &byvalue))
        return false;
    size_t n = 0;
    for (size_t i = 0; i < nt; i++)
        if (m->types[i]->kind == IR_ENUM)
            sort_postorder(&byvalue, m, i, done, stack, next, out, &n);
    for (size_t i = 0; i < nt; i++)
        sort_postorder(&byvalue, m, i, done, stack, next, out, &n);
    memcpy(m->types, out, nt * sizeof *out);
    return true;
}
