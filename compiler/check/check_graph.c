/* Strongly connected components for the recursion checks (check_recursion.c).
 * Tarjan's algorithm with an explicit stack instead of recursion: a schema
 * with a long chain of definitions must not overflow the C stack. */
#include "check_internal.h"

#include <stdint.h>
#include <string.h>

bool check_graph_build(check_cx *cx, check_graph *g, size_t n, const check_edge *edges,
                       size_t nedges)
{
    size_t *start = check_alloc(cx, (n + 1) * sizeof *start);
    size_t *adj = check_alloc(cx, (nedges ? nedges : 1) * sizeof *adj);
    size_t *fill = check_alloc(cx, (n ? n : 1) * sizeof *fill);
    if (start == NULL || adj == NULL || fill == NULL)
        return false;
    for (size_t e = 0; e < nedges; e++)
        start[edges[e].from + 1]++;
    for (size_t v = 0; v < n; v++)
        start[v + 1] += start[v];
    for (size_t e = 0; e < nedges; e++) {
        size_t v = edges[e].from;
        adj[start[v] + fill[v]++] = edges[e].to;
    }
    g->n = n;
    g->start = start;
    g->adj = adj;
    return true;
}

typedef struct check_graph_frame {
    size_t v;
    size_t next; /* next position in adj to look at */
} check_graph_frame;

bool check_graph_scc(check_cx *cx, const check_graph *g, size_t *comp)
{
    size_t n = g->n;
    if (n == 0)
        return true;
    size_t *index = check_alloc(cx, n * sizeof *index);
    size_t *low = check_alloc(cx, n * sizeof *low);
    bool *on_stack = check_alloc(cx, n * sizeof *on_stack);
    size_t *stack = check_alloc(cx, n * sizeof *stack);
    check_graph_frame *calls = check_alloc(cx, n * sizeof *calls);
    if (index == NULL || low == NULL || on_stack == NULL || stack == NULL || calls == NULL)
        return false;
    for (size_t v = 0; v < n; v++)
        index[v] = SIZE_MAX;
    size_t next_index = 0, sp = 0, ncomp = 0;

    for (size_t root = 0; root < n; root++) {
        if (index[root] != SIZE_MAX)
            continue;
        size_t depth = 0;
        calls[depth].v = root;
        calls[depth].next = g->start[root];
        depth++;
        index[root] = low[root] = next_index++;
        stack[sp++] = root;
        on_stack[root] = true;
        while (depth > 0) {
            check_graph_frame *f = &calls[depth - 1];
            size_t v = f->v;
            if (f->next < g->start[v + 1]) {
                size_t w = g->adj[f->next++];
                if (index[w] == SIZE_MAX) {
                    index[w] = low[w] = next_index++;
                    stack[sp++] = w;
                    on_stack[w] = true;
                    calls[depth].v = w;
                    calls[depth].next = g->start[w];
                    depth++;
                } else if (on_stack[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                size_t w;
                do {
                    w = stack[--sp];
                    on_stack[w] = false;
                    comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
            depth--;
            if (depth > 0) {
                size_t parent = calls[depth - 1].v;
                if (low[v] < low[parent])
                    low[parent] = low[v];
            }
        }
    }
    return true;
}
