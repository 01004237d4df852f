/* Sorting of C type definitions (see sort.h): Tarjan's algorithm for the
 * strongly connected components of the by-value containment graph, then a
 * depth-first topological order on the edges that remain by value. Both walks
 * visit types in creation order, so the output is deterministic. Scratch
 * memory comes from the compilation arena (freed with it); running out of it
 * makes sort_module return false. */
#include "sort.h"

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
    atd_arena *arena;
    bool oom;
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
    ir_slot **s = atd_arena_alloc(T->arena, (cap ? cap : 1) * sizeof *s, 8);
    if (s == NULL) {
        T->oom = true;
        cap = 0;
    }
    size_t n = s != NULL ? slots_of(v, s, cap) : 0;
    for (size_t i = 0; i < n; i++) {
        ir_type *w = s[i]->type;
        if (!ir_is_composite(w) || w->imported) /* another schema's: not in m->types */
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

static void topo(tarjan *T, ir_type *v, ir_type **out, size_t *n, bool *done)
{
    if (done[v->mark])
        return;
    done[v->mark] = true;
    size_t cap = count_slots(v);
    ir_slot **s = atd_arena_alloc(T->arena, (cap ? cap : 1) * sizeof *s, 8);
    if (s == NULL) {
        T->oom = true;
        cap = 0;
    }
    size_t k = s != NULL ? slots_of(v, s, cap) : 0;
    for (size_t i = 0; i < k; i++)
        if (ir_is_composite(s[i]->type) && !s[i]->type->imported && !s[i]->ptr)
            topo(T, s[i]->type, out, n, done);
    out[(*n)++] = v;
}

/* Zeroed scratch memory from the arena. */
static void *sort_zalloc(tarjan *T, size_t n, size_t size)
{
    void *p = atd_arena_alloc(T->arena, (n + 1) * size, 8);
    if (p == NULL)
        T->oom = true;
    else
        memset(p, 0, (n + 1) * size);
    return p;
}

bool sort_module(ir_module *m, atd_arena *arena)
{
    size_t nt = m->ntypes;
    for (size_t i = 0; i < nt; i++)
        m->types[i]->mark = (int)i;
    tarjan T;
    memset(&T, 0, sizeof T);
    T.arena = arena;
    T.stack = sort_zalloc(&T, nt, sizeof *T.stack);
    T.index = sort_zalloc(&T, nt, sizeof *T.index);
    T.low = sort_zalloc(&T, nt, sizeof *T.low);
    T.on = sort_zalloc(&T, nt, sizeof *T.on);
    ir_type **out = sort_zalloc(&T, nt, sizeof *out);
    bool *done = sort_zalloc(&T, nt, sizeof *done);
    if (T.oom)
        return false;
    for (size_t i = 0; i < nt; i++)
        T.index[i] = -1;
    for (size_t i = 0; i < nt && !T.oom; i++)
        if (T.index[i] < 0)
            strongconnect(&T, m, m->types[i]);
    /* Pointers for members that close a cycle. */
    for (size_t i = 0; i < nt && !T.oom; i++) {
        ir_type *v = m->types[i];
        size_t cap = count_slots(v);
        ir_slot **s = sort_zalloc(&T, cap, sizeof *s);
        size_t k = s != NULL ? slots_of(v, s, cap) : 0;
        for (size_t j = 0; j < k; j++) {
            ir_type *w = s[j]->type;
            if (ir_is_composite(w) && w->scc == v->scc &&
                (w->kind == IR_RECORD || w->kind == IR_SUM))
                s[j]->ptr = true;
        }
    }
    /* Enums first, then structs in dependency order. */
    size_t n = 0;
    for (size_t i = 0; i < nt && !T.oom; i++)
        if (m->types[i]->kind == IR_ENUM)
            topo(&T, m->types[i], out, &n, done);
    for (size_t i = 0; i < nt && !T.oom; i++)
        topo(&T, m->types[i], out, &n, done);
    if (T.oom)
        return false;
    memcpy(m->types, out, nt * sizeof *out);
    return true;
}
