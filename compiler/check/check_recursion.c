/* Recursion. Two properties, both on graphs so that
 * any number of mutually recursive definitions is handled in linear passes:
 *
 * 1. Every cycle of references must pass through a record or a sum. An edge
 *    t -> u exists when u is referenced in t's body outside any record or sum.
 *    A reference inside the argument of an application counts only if the
 *    applied definition exposes that parameter outside its own records and
 *    sums: with `type 'a box = { v : 'a }`, `type t = t box` is fine, while
 *    with `type 'a l = 'a list`, `type t = t l` is `t = t list`. Exposure is
 *    a least fixpoint, computed first as a set of Horn clauses.
 *
 * 2. Monomorphization must terminate. Nodes are the parameters of all
 *    definitions; a reference `(e1, ..., en) u` in the body of t adds an edge
 *    from each parameter 'a of t occurring in ej to parameter j of u, marked
 *    "grows" when ej is more than 'a itself. Instances grow without bound
 *    exactly when a growing edge lies on a cycle, i.e. inside one strongly
 *    connected component. */
#include "check_cx.h"
#include "check_lookup.h"
#include "check_passes.h"

#include <stdint.h>
#include <string.h>

#include "util/graph.h"

typedef struct check_edge {
    size_t from, to;
    const ast_type *at; /* the reference that made the edge */
    bool grows;         /* the argument strictly contains the variable */
} check_edge;

typedef struct check_rec {
    check_cx *cx;
    size_t *base; /* per def: index of its first parameter among all parameters */
    bool *exposed;
    check_edge *edges;
    size_t nedges, cap;
} check_rec;

/* Only the definition a name resolves to takes part: duplicates and
 * predefined-name definitions are errors already and unreachable. */
static bool check_rec_primary(check_cx *cx, size_t i)
{
    const char *name = cx->m->defs[i].name;
    return check_map_get(&cx->defs, name, strlen(name)) == i;
}

static size_t check_rec_param(const ast_typedef *td, const char *name)
{
    for (size_t i = 0; i < td->nparams; i++)
        if (strcmp(td->params[i].name, name) == 0)
            return i;
    return SIZE_MAX;
}

static void check_rec_edge(check_rec *r, size_t from, size_t to, const ast_type *at, bool grows)
{
    if (r->nedges == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        check_edge *e;
        if (r->edges == NULL)
            e = atd_arena_alloc(r->cx->arena, cap * sizeof *e, _Alignof(check_edge));
        else
            e = atd_arena_grow(r->cx->arena, r->edges, r->cap * sizeof *e, cap * sizeof *e,
                               _Alignof(check_edge));
        if (e == NULL) {
            check_oom(r->cx);
            return;
        }
        r->edges = e;
        r->cap = cap;
    }
    check_edge e = {from, to, at, grows};
    r->edges[r->nedges++] = e;
}

/* The graph of an edge list (util/graph.h). */
static bool check_graph_build(check_cx *cx, graph *g, size_t n, const check_edge *edges,
                              size_t nedges)
{
    graph_edge *plain = check_alloc(cx, (nedges ? nedges : 1) * sizeof *plain);
    if (plain == NULL)
        return false;
    for (size_t e = 0; e < nedges; e++) {
        plain[e].from = edges[e].from;
        plain[e].to = edges[e].to;
    }
    if (!graph_build(g, cx->arena, n, plain, nedges)) {
        check_oom(cx);
        return false;
    }
    return true;
}

static bool check_graph_scc(check_cx *cx, const graph *g, size_t *comp)
{
    if (!graph_scc(g, cx->arena, comp)) {
        check_oom(cx);
        return false;
    }
    return true;
}

/* Whether the walks go on into application t (not when it is in error or
 * names a local definition that is not usable), with *u the definition it
 * refers to when that is a usable local one, else SIZE_MAX (a builtin or
 * imported type, whose arguments are still walked). */
static bool check_rec_target(check_cx *cx, const ast_type *t, size_t *u)
{
    check_ref ref = check_lookup(cx, t);
    if (ref.kind == CHECK_REF_ERROR || !ref.arity_ok)
        return false;
    bool usable = ref.kind == CHECK_REF_DEF && check_rec_primary(cx, ref.def);
    *u = usable ? ref.def : SIZE_MAX;
    return usable || ref.kind != CHECK_REF_DEF;
}

/* ---- 1. cycles outside records and sums ------------------------------------ */

/* Walks the unguarded part of def d's body and adds an edge d -> u for each
 * reference to a definition u there. */
static void check_rec_unguarded(check_rec *r, size_t d, const ast_type *t)
{
    check_cx *cx = r->cx;
    switch (t->kind) {
    case AST_RECORD:
    case AST_SUM:
    case AST_TVAR:
        return;
    case AST_TUPLE:
        for (size_t i = 0; i < t->u.tuple.len; i++)
            check_rec_unguarded(r, d, t->u.tuple.cells[i].type);
        return;
    case AST_NAME:
        break;
    }
    size_t u;
    if (!check_rec_target(cx, t, &u))
        return;
    if (u != SIZE_MAX)
        check_rec_edge(r, d, u, t, false);
    for (size_t j = 0; j < t->u.name.nargs; j++)
        if (u == SIZE_MAX || r->exposed[r->base[u] + j])
            check_rec_unguarded(r, d, t->u.name.args[j]);
}

/* Exposure is a set of Horn clauses: parameter i of d is exposed if 'i
 * occurs in d's body outside records and sums, under applications whose
 * parameters at those positions are all exposed. Each argument position on
 * the way gets an auxiliary node "this position is reached unguarded"
 * (aux <= parent_aux AND param(u, j)), which keeps the clauses linear in the
 * size of the schema; unit propagation then solves them in linear time. */
typedef struct check_horn {
    size_t head, b1, b2; /* b1/b2: SIZE_MAX when absent */
} check_horn;

typedef struct check_horns {
    check_horn *items;
    size_t len, cap;
    size_t nodes; /* parameters, then auxiliary nodes */
} check_horns;

static void check_horn_add(check_rec *r, check_horns *h, size_t head, size_t b1, size_t b2)
{
    if (h->len == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        check_horn *items;
        if (h->items == NULL)
            items = atd_arena_alloc(r->cx->arena, cap * sizeof *items, _Alignof(check_horn));
        else
            items = atd_arena_grow(r->cx->arena, h->items, h->cap * sizeof *items,
                                   cap * sizeof *items, _Alignof(check_horn));
        if (items == NULL) {
            check_oom(r->cx);
            return;
        }
        h->items = items;
        h->cap = cap;
    }
    check_horn c = {head, b1, b2};
    h->items[h->len++] = c;
}

static void check_horn_walk(check_rec *r, check_horns *h, size_t d, const ast_type *t, size_t aux)
{
    check_cx *cx = r->cx;
    switch (t->kind) {
    case AST_RECORD:
    case AST_SUM:
        return;
    case AST_TVAR: {
        size_t i = check_rec_param(&cx->m->defs[d], t->u.tvar.name);
        if (i != SIZE_MAX)
            check_horn_add(r, h, r->base[d] + i, aux, SIZE_MAX);
        return;
    }
    case AST_TUPLE:
        for (size_t i = 0; i < t->u.tuple.len; i++)
            check_horn_walk(r, h, d, t->u.tuple.cells[i].type, aux);
        return;
    case AST_NAME:
        break;
    }
    size_t u;
    if (!check_rec_target(cx, t, &u))
        return;
    for (size_t j = 0; j < t->u.name.nargs && !cx->oom; j++) {
        size_t next = aux;
        if (u != SIZE_MAX) {
            next = h->nodes++;
            check_horn_add(r, h, next, aux, r->base[u] + j);
        }
        check_horn_walk(r, h, d, t->u.name.args[j], next);
    }
}

/* Fills r->exposed by unit propagation over the clauses. */
static void check_rec_exposure(check_rec *r, size_t nparams)
{
    check_cx *cx = r->cx;
    check_horns h = {NULL, 0, 0, nparams};
    for (size_t d = 0; d < cx->m->ndefs && !cx->oom; d++)
        if (check_rec_primary(cx, d))
            check_horn_walk(r, &h, d, cx->m->defs[d].rhs, SIZE_MAX);
    if (cx->oom)
        return;
    size_t n = h.nodes;
    bool *value = check_alloc(cx, (n ? n : 1) * sizeof *value);
    size_t *remaining = check_alloc(cx, (h.len ? h.len : 1) * sizeof *remaining);
    size_t *queue = check_alloc(cx, (n ? n : 1) * sizeof *queue);
    check_edge *watch = check_alloc(cx, (2 * h.len + 1) * sizeof *watch);
    if (value == NULL || remaining == NULL || queue == NULL || watch == NULL)
        return;
    size_t nwatch = 0, qlen = 0;
    for (size_t c = 0; c < h.len; c++) {
        const check_horn *cl = &h.items[c];
        size_t body[2] = {cl->b1, cl->b2};
        for (size_t k = 0; k < 2; k++) {
            if (body[k] == SIZE_MAX)
                continue;
            check_edge e = {body[k], c, NULL, false};
            watch[nwatch++] = e;
            remaining[c]++;
        }
        if (remaining[c] == 0 && !value[cl->head]) {
            value[cl->head] = true;
            queue[qlen++] = cl->head;
        }
    }
    graph g;
    if (!check_graph_build(cx, &g, n, watch, nwatch))
        return;
    for (size_t q = 0; q < qlen; q++) {
        size_t v = queue[q];
        for (size_t k = g.start[v]; k < g.start[v + 1]; k++) {
            const check_horn *cl = &h.items[g.adj[k]];
            if (--remaining[g.adj[k]] == 0 && !value[cl->head]) {
                value[cl->head] = true;
                queue[qlen++] = cl->head;
            }
        }
    }
    for (size_t i = 0; i < nparams; i++)
        r->exposed[i] = value[i];
}

static void check_rec_report_cycles(check_rec *r, const size_t *comp)
{
    check_cx *cx = r->cx;
    size_t n = cx->m->ndefs;
    bool *cyclic = check_alloc(cx, n * sizeof *cyclic);
    size_t *size = check_alloc(cx, n * sizeof *size);
    bool *reported = check_alloc(cx, n * sizeof *reported);
    if (cyclic == NULL || size == NULL || reported == NULL)
        return;
    for (size_t v = 0; v < n; v++)
        size[comp[v]]++;
    for (size_t e = 0; e < r->nedges; e++)
        if (r->edges[e].from == r->edges[e].to)
            cyclic[comp[r->edges[e].from]] = true;
    for (size_t v = 0; v < n; v++) {
        size_t c = comp[v];
        if (!check_rec_primary(cx, v) || reported[c] || (!cyclic[c] && size[c] < 2))
            continue;
        reported[c] = true;
        const ast_typedef *td = &cx->m->defs[v];
        diag_error(cx->d, td->name_loc,
                   "type '%s' is defined in terms of itself without going through a record or "
                   "a sum",
                   td->name);
        size_t shown = 0;
        for (size_t w = v + 1; w < n && shown < 5; w++) {
            if (comp[w] == c && check_rec_primary(cx, w)) {
                diag_note(cx->d, cx->m->defs[w].name_loc, "the cycle goes through '%s'",
                          cx->m->defs[w].name);
                shown++;
            }
        }
    }
}

static void check_rec_cycles(check_rec *r)
{
    check_cx *cx = r->cx;
    size_t n = cx->m->ndefs;
    check_rec_exposure(r, r->base[n]);
    r->nedges = 0;
    for (size_t d = 0; d < n && !cx->oom; d++)
        if (check_rec_primary(cx, d))
            check_rec_unguarded(r, d, cx->m->defs[d].rhs);
    graph g;
    size_t *comp = check_alloc(cx, (n ? n : 1) * sizeof *comp);
    if (cx->oom || comp == NULL || !check_graph_build(cx, &g, n, r->edges, r->nedges) ||
        !check_graph_scc(cx, &g, comp))
        return;
    check_rec_report_cycles(r, comp);
}

/* ---- 2. non-regular recursion ------------------------------------------------- */

/* Adds an edge from every parameter of d occurring in `arg` to parameter j
 * of u. */
static void check_rec_args(check_rec *r, size_t d, const ast_type *arg, const ast_type *whole,
                           size_t u, size_t j, const ast_type *at)
{
    switch (arg->kind) {
    case AST_TVAR: {
        size_t i = check_rec_param(&r->cx->m->defs[d], arg->u.tvar.name);
        if (i != SIZE_MAX)
            check_rec_edge(r, r->base[d] + i, r->base[u] + j, at, arg != whole);
        return;
    }
    case AST_NAME:
        for (size_t k = 0; k < arg->u.name.nargs; k++)
            check_rec_args(r, d, arg->u.name.args[k], whole, u, j, at);
        return;
    case AST_TUPLE:
        for (size_t k = 0; k < arg->u.tuple.len; k++)
            check_rec_args(r, d, arg->u.tuple.cells[k].type, whole, u, j, at);
        return;
    case AST_RECORD:
        for (size_t k = 0; k < arg->u.record.len; k++)
            check_rec_args(r, d, arg->u.record.fields[k].type, whole, u, j, at);
        return;
    case AST_SUM:
        for (size_t k = 0; k < arg->u.sum.len; k++)
            if (arg->u.sum.variants[k].arg != NULL)
                check_rec_args(r, d, arg->u.sum.variants[k].arg, whole, u, j, at);
        return;
    }
}

static void check_rec_instances(check_rec *r, size_t d, const ast_type *t)
{
    switch (t->kind) {
    case AST_TVAR:
        return;
    case AST_NAME: {
        size_t u = SIZE_MAX;
        (void)check_rec_target(r->cx, t, &u); /* the arguments are walked in any case */
        for (size_t j = 0; j < t->u.name.nargs; j++) {
            if (u != SIZE_MAX)
                check_rec_args(r, d, t->u.name.args[j], t->u.name.args[j], u, j, t);
            check_rec_instances(r, d, t->u.name.args[j]);
        }
        return;
    }
    case AST_TUPLE:
        for (size_t k = 0; k < t->u.tuple.len; k++)
            check_rec_instances(r, d, t->u.tuple.cells[k].type);
        return;
    case AST_RECORD:
        for (size_t k = 0; k < t->u.record.len; k++)
            check_rec_instances(r, d, t->u.record.fields[k].type);
        return;
    case AST_SUM:
        for (size_t k = 0; k < t->u.sum.len; k++)
            if (t->u.sum.variants[k].arg != NULL)
                check_rec_instances(r, d, t->u.sum.variants[k].arg);
        return;
    }
}

static void check_rec_regular(check_rec *r, size_t nparams)
{
    check_cx *cx = r->cx;
    r->nedges = 0;
    for (size_t d = 0; d < cx->m->ndefs && !cx->oom; d++)
        if (check_rec_primary(cx, d))
            check_rec_instances(r, d, cx->m->defs[d].rhs);
    graph g;
    size_t *comp = check_alloc(cx, (nparams ? nparams : 1) * sizeof *comp);
    bool *reported = check_alloc(cx, (nparams ? nparams : 1) * sizeof *reported);
    if (cx->oom || comp == NULL || reported == NULL ||
        !check_graph_build(cx, &g, nparams, r->edges, r->nedges) || !check_graph_scc(cx, &g, comp))
        return;
    for (size_t e = 0; e < r->nedges; e++) {
        const check_edge *ed = &r->edges[e];
        if (!ed->grows || comp[ed->from] != comp[ed->to] || reported[comp[ed->from]])
            continue;
        reported[comp[ed->from]] = true;
        diag_error(cx->d, ed->at->u.name.name_loc,
                   "type '%s' is used recursively with growing type arguments (non-regular "
                   "recursion cannot be made monomorphic)",
                   ed->at->u.name.path[0]);
    }
}

void check_recursion_module(check_cx *cx)
{
    size_t n = cx->m->ndefs;
    check_rec r;
    memset(&r, 0, sizeof r);
    r.cx = cx;
    r.base = check_alloc(cx, (n + 1) * sizeof *r.base);
    if (r.base == NULL)
        return;
    for (size_t d = 0; d < n; d++)
        r.base[d + 1] = r.base[d] + cx->m->defs[d].nparams;
    r.exposed = check_alloc(cx, (r.base[n] ? r.base[n] : 1) * sizeof *r.exposed);
    if (r.exposed == NULL)
        return;
    check_rec_cycles(&r);
    if (!cx->oom)
        check_rec_regular(&r, r.base[n]);
}
