/* Directed graphs over vertices 0..n-1 in compressed adjacency form, and
 * their strongly connected components. The one graph engine of the
 * compiler: the checker's recursion rules (check_recursion.c) and the
 * ordering of C definitions (lower/sort.c) both use it. Nothing here
 * recurses, so a chain of any length cannot overflow the C stack. */
#ifndef ATDC_GRAPH_H
#define ATDC_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "atd/arena.h"

typedef struct graph_edge {
    size_t from, to;
} graph_edge;

typedef struct graph {
    size_t n;
    const size_t *start; /* n + 1 offsets into adj; v's successors are adj[start[v]..start[v+1]) */
    const size_t *adj;   /* successors in edge order */
} graph;

/* Builds g from an edge list, keeping the edge order per vertex (arena).
 * False when out of memory. */
bool graph_build(graph *g, atd_arena *a, size_t n, const graph_edge *edges, size_t nedges);

/* Strongly connected components (Tarjan's algorithm with an explicit stack):
 * fills comp[0..n) with component ids, numbered in the order components
 * complete, so a component's id is larger than that of every component it
 * reaches. Roots are tried in vertex order. False when out of memory. */
bool graph_scc(const graph *g, atd_arena *a, size_t *comp);

#endif
