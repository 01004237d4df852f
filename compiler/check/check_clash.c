/* Clashes between generated C identifiers (check_clash.h). Every global
 * identifier that the emitters print is listed with the object that owns it
 * and the place that introduced it; sorting by name puts clashes side by
 * side. One error per pair of owners: two records both named `P_x` clash on
 * the struct and on each of their functions, but that is one mistake. */
#include "check_clash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct clash_entry {
    const char *name;  /* the C identifier */
    const void *owner; /* the ir_type, ir_def or ir_case it belongs to */
    const char *what;  /* "the list type 'int_list'" ... */
    ast_loc loc;
    size_t order;      /* insertion order: ties stay deterministic */
} clash_entry;

typedef struct clash_list {
    atd_arena *arena;
    clash_entry *items;
    size_t len, cap;
    bool oom;
} clash_list;

static char *clash_fmt(clash_list *c, const char *f, const char *a, const char *b)
{
    size_t n = strlen(f) + strlen(a) + strlen(b) + 1;
    char *s = atd_arena_alloc(c->arena, n, 1);
    if (s == NULL) {
        c->oom = true;
        return NULL;
    }
    /* f holds exactly two %s: a tiny formatter avoids a non-literal printf. */
    size_t k = 0;
    const char *args[2] = {a, b};
    int used = 0;
    for (const char *p = f; *p; p++) {
        if (p[0] == '%' && p[1] == 's' && used < 2) {
            size_t m = strlen(args[used]);
            memcpy(s + k, args[used++], m);
            k += m;
            p++;
        } else {
            s[k++] = *p;
        }
    }
    s[k] = '\0';
    return s;
}

static void clash_add(clash_list *c, const char *name, const void *owner, const char *what,
                      ast_loc loc)
{
    if (c->oom || name == NULL || what == NULL)
        return;
    if (c->len == c->cap) {
        size_t ncap = c->cap ? c->cap * 2 : 64;
        clash_entry *n = atd_arena_grow(c->arena, c->items, c->cap * sizeof *n,
                                        ncap * sizeof *n, 8);
        if (n == NULL) {
            c->oom = true;
            return;
        }
        c->items = n;
        c->cap = ncap;
    }
    clash_entry e = {name, owner, what, loc, c->len};
    c->items[c->len++] = e;
}

/* The generated functions of a type or typedef (emit.h, emit_read.c, emit_value_ops.c). */
static void clash_add_functions(clash_list *c, const char *base, const void *owner,
                                const char *what, ast_loc loc)
{
    static const char *const suffixes[] = {"%s_init",      "%s_read",      "%s_write",
                                           "%s_read_any",  "%s_write_any", "%s_from_json",
                                           "%s_to_json",   "%s_copy",      "%s_equal"};
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        clash_add(c, clash_fmt(c, suffixes[i], base, ""), owner, what, loc);
}

static const char *clash_kind_word(const ir_type *t)
{
    switch (t->kind) {
    case IR_RECORD:
        return "the record '%s'";
    case IR_ENUM:
        return "the enum '%s'";
    case IR_SUM:
        return "the sum '%s'";
    case IR_TUPLE:
        return "the tuple type '%s'";
    case IR_LIST:
        return "the list type '%s'";
    case IR_ASSOC:
        return "the association list type '%s'";
    case IR_OPTION:
        return "the option type '%s'";
    case IR_NULLABLE:
        return "the nullable type '%s'";
    default: /* the scalar kinds: the general word */
        break;
    }
    return "the type '%s'";
}

static void clash_add_type(clash_list *c, const ir_type *t)
{
    const char *what = clash_fmt(c, clash_kind_word(t), t->atd_name, "");
    clash_add(c, t->name, t, what, t->loc);
    clash_add_functions(c, t->fn, t, what, t->loc);
    if (t->kind == IR_SUM)
        clash_add(c, clash_fmt(c, "%s_tag", t->name, ""), t, what, t->loc);
    if (t->kind == IR_ASSOC)
        clash_add(c, clash_fmt(c, "%s_item", t->name, ""), t, what, t->loc);
    if (t->kind == IR_ENUM || t->kind == IR_SUM) {
        /* the names functions (emit_names.c) */
        const char *named = t->kind == IR_SUM ? clash_fmt(c, "%s_tag", t->name, "") : t->name;
        if (named != NULL) {
            clash_add(c, clash_fmt(c, "%s_name", named, ""), t, what, t->loc);
            clash_add(c, clash_fmt(c, "%s_of_name", named, ""), t, what, t->loc);
        }
        for (size_t i = 0; i < t->ncases; i++) {
            const ir_case *k = &t->cases[i];
            clash_add(c, k->const_name, k,
                      clash_fmt(c, "the constructor '%s' of '%s'", k->atd_name, t->atd_name),
                      k->loc.file != NULL ? k->loc : t->loc);
        }
    }
}

static int clash_cmp(const void *a, const void *b)
{
    const clash_entry *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    if (r != 0)
        return r;
    if (x->loc.offset != y->loc.offset)
        return x->loc.offset < y->loc.offset ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order ? 1 : 0;
}

/* Owner pairs already reported. */
typedef struct clash_pair {
    const void *a, *b;
} clash_pair;

static bool check_clash_report(diag_ctx *d, atd_arena *arena, const ir_module *m);

/* The clashes are found in name order and reported in source order. */
bool check_clash(diag_ctx *d, atd_arena *arena, const ir_module *m)
{
    diag_defer_begin(d);
    bool ok = check_clash_report(d, arena, m);
    diag_defer_end(d);
    return ok;
}

/* Every identifier of the module, sorted by name. False when out of memory. */
static bool clash_collect(clash_list *c, const ir_module *m)
{
    for (size_t i = 0; i < m->ntypes; i++)
        clash_add_type(c, m->types[i]);
    for (size_t i = 0; i < m->ndefs; i++) {
        const ir_def *def = &m->defs[i];
        if (!def->is_typedef)
            continue;
        const char *what = clash_fmt(c, "the type definition '%s'", def->atd_name, "");
        clash_add(c, def->c_name, def, what, def->loc);
        clash_add_functions(c, def->c_name, def, what, def->loc);
    }
    if (c->oom)
        return false;
    if (c->len > 1)
        qsort(c->items, c->len, sizeof *c->items, clash_cmp);
    return true;
}

/* A type whose C name atdc made up from its structure (`t list` is
 * P_t_list): renaming it changes no name the schema chose. Records and
 * sums keep theirs (their constants derive from it). */
static ir_type *clash_renameable(const ir_module *m, const void *owner)
{
    for (size_t i = 0; i < m->ntypes; i++) {
        ir_type *t = m->types[i];
        if (t == owner)
            return !t->exported && !t->imported &&
                           (t->kind == IR_LIST || t->kind == IR_ASSOC || t->kind == IR_OPTION ||
                            t->kind == IR_NULLABLE || t->kind == IR_TUPLE)
                       ? t
                       : NULL;
    }
    return NULL;
}

/* Whether some identifier of c is `name` or starts with `name_`. */
static bool clash_prefix_taken(const clash_list *c, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < c->len; i++)
        if (strncmp(c->items[i].name, name, n) == 0 &&
            (c->items[i].name[n] == '\0' || c->items[i].name[n] == '_'))
            return true;
    return false;
}

/* One clash where a made-up name is involved, renamed; false when none is
 * left (or out of memory: *oom). */
static bool clash_rename_one(diag_ctx *d, atd_arena *arena, ir_module *m, bool *oom)
{
    clash_list c = {arena, NULL, 0, 0, false};
    if (!clash_collect(&c, m)) {
        *oom = true;
        return false;
    }
    for (size_t i = 1; i < c.len; i++) {
        const clash_entry *a = &c.items[i - 1], *b = &c.items[i];
        if (strcmp(a->name, b->name) != 0 || a->owner == b->owner)
            continue;
        ir_type *t = clash_renameable(m, b->owner);
        const clash_entry *kept = a, *moved = b;
        if (t == NULL) {
            t = clash_renameable(m, a->owner);
            kept = b;
            moved = a;
        }
        if (t == NULL)
            continue;
        size_t n = strlen(t->name) + 24;
        char *name = atd_arena_alloc(arena, n, 1);
        if (name == NULL) {
            *oom = true;
            return false;
        }
        for (int k = 2;; k++) {
            snprintf(name, n, "%s_%d", t->name, k);
            if (!clash_prefix_taken(&c, name))
                break;
        }
        diag_note(d, moved->loc,
                  "generated C name '%s' of %s is also the name of %s: it is named '%s' instead",
                  t->name, moved->what, kept->what, name);
        t->name = name;
        t->fn = name;
        return true;
    }
    return false;
}

bool check_clash_rename(diag_ctx *d, atd_arena *arena, ir_module *m)
{
    bool oom = false;
    /* Each round renames one type to a name nothing else has: it ends. */
    while (clash_rename_one(d, arena, m, &oom))
        ;
    if (oom)
        diag_oom(d);
    return !oom;
}

static bool check_clash_report(diag_ctx *d, atd_arena *arena, const ir_module *m)
{
    clash_list c = {arena, NULL, 0, 0, false};
    if (!clash_collect(&c, m)) {
        diag_oom(d);
        return false;
    }
    clash_pair *seen = NULL;
    size_t nseen = 0, seen_cap = 0;
    bool ok = true;
    for (size_t i = 1; i < c.len; i++) {
        const clash_entry *later = &c.items[i];
        /* the first entry of this name is the earliest definition */
        size_t j = i;
        while (j > 0 && strcmp(c.items[j - 1].name, later->name) == 0)
            j--;
        if (j == i)
            continue;
        const clash_entry *first = &c.items[j];
        if (first->owner == later->owner)
            continue;
        bool dup = false;
        for (size_t k = 0; k < nseen && !dup; k++)
            dup = (seen[k].a == first->owner && seen[k].b == later->owner) ||
                  (seen[k].a == later->owner && seen[k].b == first->owner);
        ok = false;
        if (dup)
            continue;
        if (nseen == seen_cap) {
            size_t ncap = seen_cap ? seen_cap * 2 : 8;
            clash_pair *n = atd_arena_grow(arena, seen, seen_cap * sizeof *n, ncap * sizeof *n, 8);
            if (n == NULL) {
                diag_oom(d);
                return false;
            }
            seen = n;
            seen_cap = ncap;
        }
        seen[nseen].a = first->owner;
        seen[nseen].b = later->owner;
        nseen++;
        diag_error(d, later->loc, "generated C name '%s' of %s is also the name of %s",
                   later->name, later->what, first->what);
        diag_note(d, first->loc,
                  "%s is introduced here; use <c name=\"...\"> to rename one of them",
                  first->what);
    }
    return ok;
}
