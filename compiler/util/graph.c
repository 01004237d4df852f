/* Graphs and strongly connected components (graph.h). */
#include "graph.h"

#include <stdint.h>
#include <string.h>

static void *graph_zalloc(atd_arena *a, size_t n, size_t size)
{
    void *p = atd_arena_alloc(a, (n ? n : 1) * size, 16);
    if (p != NULL)
        memset(p, 0, (n ? n : 1) * size);
    return p;
}

bool graph_build(graph *g, atd_arena *a, size_t n, const graph_edge *edges, size_t nedges)
{
    size_t *start = graph_zalloc(a, n + 1, sizeof *start);
    size_t *adj = graph_zalloc(a, nedges, sizeof *adj);
    size_t *fill = graph_zalloc(a, n, sizeof *fill);
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

/* One level of the depth-first walk that recursion would keep on the C
 * stack: the vertex and the next of its successors to look at. */
typedef struct graph_frame {
    size_t v;
    size_t next;
} graph_frame;

bool graph_scc(const graph *g, atd_arena *a, size_t *comp)
{
    size_t n = g->n;
    if (n == 0)
        return true;
    size_t *index = graph_zalloc(a, n, sizeof *index);
    size_t *low = graph_zalloc(a, n, sizeof *low);
    bool *on_stack = graph_zalloc(a, n, sizeof *on_stack);
    size_t *stack = graph_zalloc(a, n, sizeof *stack);
    graph_frame *calls = graph_zalloc(a, n, sizeof *calls);
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
            graph_frame *f = &calls[depth - 1];
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
