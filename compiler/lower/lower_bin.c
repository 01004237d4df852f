/* Which types reach abstract (lower_bin.h): the length of the shortest way
 * from each composite type to an abstract, found by relaxing every slot
 * until nothing changes (recursive types make the graph cyclic, and the
 * schemas are small), then, for each definition that has one, that way
 * spelled out step by step:
 *     .field   a record field        .Ctor   a constructor's argument
 *     .N       a tuple cell (from 0) []      a list element
 *     [].1     an association's value ?      an option's or nullable's value */
#include "lower_bin.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "atd/buf.h"
#include "util/alloc.h"

#define BIN_NO_WAY UINT_MAX

/* The type whose bytes represent t (wraps are their wire type). */
static const ir_type *bin_wire(const ir_type *t)
{
    while (t->kind == IR_WRAP)
        t = t->elem.type;
    return t;
}

/* The type held by slot k of t, or NULL (a nullary constructor). */
static const ir_type *bin_slot(const ir_type *t, size_t k)
{
    const ir_slot *s = ir_slot_at(t, k);
    return s != NULL ? s->type : NULL;
}

/* Steps from a slot of type s to an abstract: 0 when s is one. Composite
 * types are numbered by `mark` (set by lower_bin_skip_abstract). */
static unsigned bin_way(const ir_type *s, const unsigned *dist)
{
    if (s == NULL)
        return BIN_NO_WAY;
    s = bin_wire(s);
    if (s->kind == IR_ABSTRACT)
        return 0;
    if (!ir_is_composite(s) || s->imported)
        return BIN_NO_WAY;
    return dist[s->mark];
}

static void bin_step(atd_buf *b, const ir_type *t, size_t k)
{
    switch (t->kind) {
    case IR_RECORD:
        atd_buf_putc(b, '.');
        atd_buf_append(b, t->fields[k].atd_name, strlen(t->fields[k].atd_name));
        break;
    case IR_SUM:
        atd_buf_putc(b, '.');
        atd_buf_append(b, t->cases[k].atd_name, strlen(t->cases[k].atd_name));
        break;
    case IR_TUPLE: {
        char n[24];
        int len = snprintf(n, sizeof n, ".%zu", k);
        atd_buf_append(b, n, (size_t)len);
        break;
    }
    case IR_LIST:
        atd_buf_append(b, "[]", 2);
        break;
    case IR_ASSOC:
        atd_buf_append(b, "[].1", 4);
        break;
    default:
        atd_buf_putc(b, '?');
        break;
    }
}

/* The way from a definition left out to its abstract ("t.field[]"), in
 * the arena; NULL when the definition is abstract itself, or (with *oom
 * set) when memory ran out. */
static const char *bin_way_text(atd_arena *arena, const ir_def *def, const unsigned *dist,
                                bool *oom)
{
    const ir_type *t = bin_wire(def->type);
    if (t->kind == IR_ABSTRACT)
        return NULL;
    atd_buf path;
    atd_buf_init_with(&path, util_allocator());
    atd_buf_append(&path, def->atd_name, strlen(def->atd_name));
    while (t->kind != IR_ABSTRACT) {
        size_t k = 0;
        while (bin_way(bin_slot(t, k), dist) != dist[t->mark] - 1)
            k++;
        bin_step(&path, t, k);
        t = bin_wire(bin_slot(t, k));
    }
    const char *way = path.status == 0 ? atd_arena_strdup(arena, path.data, path.len) : NULL;
    *oom = way == NULL;
    atd_buf_free(&path);
    return way;
}

bool lower_bin_skip_abstract(diag_ctx *d, atd_arena *arena, ir_module *m)
{
    size_t n = m->ntypes;
    unsigned *dist = atd_arena_alloc(arena, (n + 1) * sizeof *dist, sizeof *dist);
    if (dist == NULL) {
        diag_oom(d);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        m->types[i]->mark = (int)i;
        dist[i] = BIN_NO_WAY;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < n; i++) {
            const ir_type *t = m->types[i];
            for (size_t k = 0; k < ir_nslots(t); k++) {
                unsigned w = bin_way(bin_slot(t, k), dist);
                if (w != BIN_NO_WAY && w + 1 < dist[i]) {
                    dist[i] = w + 1;
                    changed = true;
                }
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        m->types[i]->bin_skip = dist[i] != BIN_NO_WAY;
    bool oom = false;
    for (size_t i = 0; i < m->ndefs && !oom; i++) {
        ir_def *def = &m->defs[i];
        def->bin_skip = bin_way(def->type, dist) != BIN_NO_WAY;
        if (def->bin_skip)
            def->bin_skip_way = bin_way_text(arena, def, dist, &oom);
    }
    if (oom)
        diag_oom(d);
    return !oom;
}
