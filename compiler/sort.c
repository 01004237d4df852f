/* Sorting of C type definitions (see sort.h): Tarjan's algorithm for the
 * strongly connected components of the by-value containment graph, then a
 * depth-first topological order on the edges that remain by value. Both walks
 * visit types in creation order, so the output is deterministic. */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

/* The by-value slots of t (lists and assoc lists hold pointers). */
static size_t slots_of(ir_type *t, ir_slot **out, size_t cap)
{
    size_t n = 0;
    switch (t->kind) {
    case IR_RECORD:
        for (size_t i = 0; i < t->nfields && n < cap; i++)
            out[n++] = &t->fields[i].slot;
        break;
    case IR_SUM:
        for (size_t i = 0; i < t->ncases && n < cap; i++)
            if (t->cases[i].arg.type != NULL)
                out[n++] = &t->cases[i].arg;
        break;
    case IR_TUPLE:
        for (size_t i = 0; i < t->ncells && n < cap; i++)
            out[n++] = &t->cells[i].slot;
        break;
    case IR_OPTION:
    case IR_NULLABLE:
    case IR_ASSOC: /* its item struct holds the value */
        out[n++] = &t->elem;
        break;
    default:
        break;
    }
    return n;
}

static size_t count_slots(const ir_type *t)
{
    switch (t->kind) {
    case IR_RECORD:
        return t->nfields;
    case IR_SUM:
        return t->ncases;
    case IR_TUPLE:
        return t->ncells;
    case IR_OPTION:
    case IR_NULLABLE:
    case IR_ASSOC:
        return 1;
    default:
        return 0;
    }
}

typedef struct tarjan {
    ir_type **stack;
    size_t sp;
    int *index, *low;
    bool *on;
    int counter, nscc;
} tarjan;

static void strongconnect(tarjan *T, ir_module *m, ir_type *v)
{
    int vi = v->mark;
    T->index[vi] = T->low[vi] = T->counter++;
    T->stack[T->sp++] = v;
    T->on[vi] = true;
    size_t cap = count_slots(v);
    ir_slot **s = malloc((cap ? cap : 1) * sizeof *s);
    size_t n = slots_of(v, s, cap);
    for (size_t i = 0; i < n; i++) {
        ir_type *w = s[i]->type;
        if (!ir_is_composite(w))
            continue;
        int wi = w->mark;
        if (T->index[wi] < 0) {
            strongconnect(T, m, w);
            if (T->low[wi] < T->low[vi])
                T->low[vi] = T->low[wi];
        } else if (T->on[wi] && T->index[wi] < T->low[vi]) {
            T->low[vi] = T->index[wi];
        }
    }
    free(s);
    if (T->low[vi] == T->index[vi]) {
        ir_type *w;
        do {
            w = T->stack[--T->sp];
            T->on[w->mark] = false;
            w->scc = T->nscc;
        } while (w != v);
        T->nscc++;
    }
}

static void topo(ir_type *v, ir_type **out, size_t *n, bool *done)
{
    if (done[v->mark])
        return;
    done[v->mark] = true;
    size_t cap = count_slots(v);
    ir_slot **s = malloc((cap ? cap : 1) * sizeof *s);
    size_t k = slots_of(v, s, cap);
    for (size_t i = 0; i < k; i++)
        if (ir_is_composite(s[i]->type) && !s[i]->ptr)
            topo(s[i]->type, out, n, done);
    free(s);
    out[(*n)++] = v;
}

void sort_module(ir_module *m)
{
    size_t nt = m->ntypes;
    for (size_t i = 0; i < nt; i++)
        m->types[i]->mark = (int)i;
    tarjan T;
    T.stack = malloc((nt + 1) * sizeof *T.stack);
    T.index = malloc((nt + 1) * sizeof *T.index);
    T.low = malloc((nt + 1) * sizeof *T.low);
    T.on = calloc(nt + 1, sizeof *T.on);
    T.sp = 0;
    T.counter = 0;
    T.nscc = 0;
    for (size_t i = 0; i < nt; i++)
        T.index[i] = -1;
    for (size_t i = 0; i < nt; i++)
        if (T.index[i] < 0)
            strongconnect(&T, m, m->types[i]);
    /* Pointers for members that close a cycle. */
    for (size_t i = 0; i < nt; i++) {
        ir_type *v = m->types[i];
        size_t cap = count_slots(v);
        ir_slot **s = malloc((cap ? cap : 1) * sizeof *s);
        size_t k = slots_of(v, s, cap);
        for (size_t j = 0; j < k; j++) {
            ir_type *w = s[j]->type;
            if (ir_is_composite(w) && w->scc == v->scc &&
                (w->kind == IR_RECORD || w->kind == IR_SUM))
                s[j]->ptr = true;
        }
        free(s);
    }
    /* Enums first, then structs in dependency order. */
    ir_type **out = malloc((nt + 1) * sizeof *out);
    bool *done = calloc(nt + 1, sizeof *done);
    size_t n = 0;
    for (size_t i = 0; i < nt; i++)
        if (m->types[i]->kind == IR_ENUM)
            topo(m->types[i], out, &n, done);
    for (size_t i = 0; i < nt; i++)
        topo(m->types[i], out, &n, done);
    memcpy(m->types, out, nt * sizeof *out);
    free(out);
    free(done);
    free(T.stack);
    free(T.index);
    free(T.low);
    free(T.on);
}
