/* The schema comparison of atdc diff (diff.h). Each definition of NEW is
 * compared with OLD's definition of the same name, by walking both IR
 * types side by side: the IR has already resolved aliases, instantiated
 * parametrized types and computed JSON names, field kinds and defaults, so
 * the walk only looks at what reaches the wire. Wraps are looked through
 * (their wire type is what is exchanged) and so are imported types, into
 * the IR of their own schema (load_ir_resolve). A pair of types is
 * compared once per definition, which ends the walk on recursive types; a
 * change found from several definitions is one finding that lists them all.
 *
 * Fields are matched by JSON name, constructors too, so a <json name>
 * change is a field that disappeared and one that is new, as atddiff
 * counts it; the message says it was a renaming. The locations are those
 * of the innermost definition, field or constructor that holds the change. */
#include "diff.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_params.h"
#include "util/alloc.h"

typedef struct diff_side {
    const load_schema *s;
    const ir_type *t;
} diff_side;

typedef struct diff_pair {
    const ir_type *o, *n;
} diff_pair;

typedef struct diff_ctx {
    atd_arena *arena;
    diff_result *out;
    const char *def_name; /* the definition being compared: the affected type */
    diff_pair *visited;   /* pairs already compared for def_name */
    size_t nvisited, visited_cap;
    bool oom;
} diff_ctx;

/* ---- Helpers ------------------------------------------------------------ */

/* Grows an arena array of `size`-byte elements to hold one more. */
static bool diff_grow(diff_ctx *C, void **items, size_t len, size_t *cap, size_t size)
{
    if (len < *cap)
        return true;
    size_t ncap = *cap == 0 ? 16 : *cap * 2;
    void *p = atd_arena_alloc(C->arena, ncap * size, 16);
    if (p == NULL) {
        C->oom = true;
        return false;
    }
    if (len > 0)
        memcpy(p, *items, len * size);
    *items = p;
    *cap = ncap;
    return true;
}

static const char *diff_fmt(diff_ctx *C, const char *fmt, ...) ATD_PRINTF(2, 3);
static const char *diff_fmt(diff_ctx *C, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = util_arena_vprintf(C->arena, fmt, ap);
    va_end(ap);
    if (s == NULL) {
        C->oom = true;
        return "";
    }
    return s;
}

/* A JSON name as a NUL-terminated string (names may hold any byte; the
 * printers escape them). */
static const char *diff_name(diff_ctx *C, const char *bytes, size_t len)
{
    char *s = atd_arena_strdup(C->arena, bytes, len);
    if (s == NULL) {
        C->oom = true;
        return "";
    }
    return s;
}

static bool diff_same_loc(const ast_loc *a, const ast_loc *b)
{
    return a->offset == b->offset && a->end_offset == b->end_offset &&
           (a->file == b->file || (a->file != NULL && b->file != NULL && strcmp(a->file, b->file) == 0));
}

/* Records a finding for the current definition; the same finding met again
 * from another definition only adds that definition to its list. */
static void diff_add(diff_ctx *C, diff_direction dir, bool certain, diff_kind kind,
                     const char *name, const ast_loc *old_loc, const ast_loc *new_loc,
                     const char *text)
{
    diff_result *R = C->out;
    diff_finding *f = NULL;
    for (size_t i = 0; i < R->len && f == NULL; i++) {
        diff_finding *g = &R->items[i];
        if (g->kind == kind && g->direction == dir && g->has_old == (old_loc != NULL) &&
            g->has_new == (new_loc != NULL) && (old_loc == NULL || diff_same_loc(&g->old_loc, old_loc)) &&
            (new_loc == NULL || diff_same_loc(&g->new_loc, new_loc)) && strcmp(g->text, text) == 0)
            f = g;
    }
    if (f == NULL) {
        if (!diff_grow(C, (void **)&R->items, R->len, &R->cap, sizeof *R->items))
            return;
        f = &R->items[R->len++];
        memset(f, 0, sizeof *f);
        f->direction = dir;
        f->certain = certain;
        f->kind = kind;
        f->name = name;
        f->has_old = old_loc != NULL;
        f->has_new = new_loc != NULL;
        if (old_loc != NULL)
            f->old_loc = *old_loc;
        if (new_loc != NULL)
            f->new_loc = *new_loc;
        f->text = text;
        f->seq = R->len - 1;
    }
    for (size_t i = 0; i < f->naffected; i++)
        if (strcmp(f->affected[i], C->def_name) == 0)
            return;
    if (diff_grow(C, (void **)&f->affected, f->naffected, &f->affected_cap, sizeof *f->affected))
        f->affected[f->naffected++] = C->def_name;
}

/* The type whose JSON form is exchanged (load_ir_wire). */
static diff_side diff_resolve(diff_side x)
{
    x.t = load_ir_wire(&x.s, x.t, NULL);
    return x;
}

/* What a type is, in the words of the messages. Records and sums are one
 * family each: enums and sums with arguments are the same JSON. */
static const char *diff_kind_noun(const ir_type *t)
{
    switch (t->kind) {
    case IR_RECORD:
        return "record/object";
    case IR_ENUM:
    case IR_SUM:
        return "sum type or enum";
    case IR_TUPLE:
        return "tuple";
    case IR_LIST:
        return "list/array";
    case IR_ASSOC:
        return "map";
    case IR_OPTION:
        return "option";
    case IR_NULLABLE:
        return "nullable";
    default:
        return t->atd_name; /* unit, bool, int, float, string, abstract */
    }
}

static int diff_family(const ir_type *t)
{
    return t->kind == IR_SUM ? IR_ENUM : (int)t->kind;
}

static bool diff_is_scalar(const ir_type *t)
{
    return !ir_is_composite(t);
}

/* ---- The walk ----------------------------------------------------------- */

static void diff_type(diff_ctx *C, diff_side o, diff_side n, const ast_loc *ol, const ast_loc *nl);

static void diff_int(diff_ctx *C, const ir_type *o, const ir_type *n, const ast_loc *ol,
                     const ast_loc *nl)
{
    if (o->int_as_string != n->int_as_string) {
        diff_add(C, DIFF_BOTH, true, DIFF_INCOMPATIBLE_TYPE, NULL, ol, nl,
                 o->int_as_string ? "int written as a JSON string (<json repr=\"string\">) is now a JSON number"
                                  : "int written as a JSON number is now a JSON string (<json repr=\"string\">)");
        return;
    }
    int64_t olo, ohi, nlo, nhi;
    ir_int_range(o->int_repr, &olo, &ohi);
    ir_int_range(n->int_repr, &nlo, &nhi);
    const char *a = ir_int_repr_name(o->int_repr), *b = ir_int_repr_name(n->int_repr);
    /* A narrower C type rejects the values outside its range on reading. */
    if (olo < nlo || ohi > nhi)
        diff_add(C, DIFF_BACKWARD, false, DIFF_INCOMPATIBLE_TYPE, NULL, ol, nl,
                 diff_fmt(C, "int <c repr> changed from %s to %s: NEW's readers reject the values outside %s",
                          a, b, b));
    if (nlo < olo || nhi > ohi)
        diff_add(C, DIFF_FORWARD, false, DIFF_INCOMPATIBLE_TYPE, NULL, ol, nl,
                 diff_fmt(C, "int <c repr> changed from %s to %s: OLD's readers reject the values outside %s",
                          a, b, a));
}

/* A default value, comparable across the two schemas (whose C prefixes
 * differ): the zero of the type, a constructor's JSON name, else the C text. */
static const char *diff_default_text(const ir_type *t, const ir_default *d)
{
    if (t->kind == IR_ENUM || t->kind == IR_SUM) {
        if (d->kind == IR_DEFAULT_ZERO && t->ncases > 0)
            return t->cases[0].json_name;
        for (size_t i = 0; i < t->ncases && d->c_expr != NULL; i++)
            if (strcmp(t->cases[i].const_name, d->c_expr) == 0)
                return t->cases[i].json_name;
    }
    switch (d->kind) {
    case IR_DEFAULT_ZERO:
        return "";
    case IR_DEFAULT_EXPR:
        if (strcmp(d->c_expr, "0") == 0 || strcmp(d->c_expr, "false") == 0 ||
            strcmp(d->c_expr, "0.0") == 0)
            return "";
        return d->c_expr;
    case IR_DEFAULT_STRING:
        return NULL; /* compared as bytes */
    case IR_DEFAULT_OPAQUE:
        return d->c_expr;
    }
    return "";
}

static bool diff_same_default(const ir_type *ot, const ir_default *o, const ir_type *nt,
                              const ir_default *n)
{
    bool os = o->kind == IR_DEFAULT_STRING, ns = n->kind == IR_DEFAULT_STRING;
    if (os || ns) {
        size_t ol = os ? o->len : 0, nl = ns ? n->len : 0;
        if ((!os && o->kind != IR_DEFAULT_ZERO) || (!ns && n->kind != IR_DEFAULT_ZERO))
            return false;
        return ol == nl && (ol == 0 || memcmp(o->bytes, n->bytes, ol) == 0);
    }
    return strcmp(diff_default_text(ot, o), diff_default_text(nt, n)) == 0;
}

static const ir_field *diff_find_field(const ir_type *t, const char *json, size_t len)
{
    for (size_t i = 0; i < t->nfields; i++)
        if (t->fields[i].json_len == len && memcmp(t->fields[i].json_name, json, len) == 0)
            return &t->fields[i];
    return NULL;
}

/* The field of `t` with ATD name `atd` but another JSON name: a renaming. */
static const ir_field *diff_renamed_field(const ir_type *t, const ir_field *f)
{
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *g = &t->fields[i];
        if (strcmp(g->atd_name, f->atd_name) == 0 &&
            (g->json_len != f->json_len || memcmp(g->json_name, f->json_name, f->json_len) != 0))
            return g;
    }
    return NULL;
}

static void diff_field_kinds(diff_ctx *C, const ir_field *f, const ir_field *g, const char *name)
{
    const ir_field_kind a = f->kind, b = g->kind;
    if (a == IR_FIELD_REQUIRED && b == IR_FIELD_OPTIONAL)
        diff_add(C, DIFF_FORWARD, true, DIFF_MISSING_FIELD, name, &f->loc, &g->loc,
                 diff_fmt(C, "formerly required field '%s' is now optional", name));
    else if (a == IR_FIELD_REQUIRED && b == IR_FIELD_DEFAULT)
        diff_add(C, DIFF_FORWARD, false, DIFF_DEFAULT_REQUIRED, name, &f->loc, &g->loc,
                 diff_fmt(C,
                          "formerly required field '%s' is now optional but has a default value: "
                          "NEW's writers leave it out when it has that value, unless they write "
                          "defaults (ATD_WRITE_DEFAULTS, atdgen -j-defaults)",
                          name));
    else if (a == IR_FIELD_OPTIONAL && b == IR_FIELD_REQUIRED)
        diff_add(C, DIFF_BACKWARD, true, DIFF_MISSING_FIELD, name, &f->loc, &g->loc,
                 diff_fmt(C, "formerly optional field '%s' is now required", name));
    else if (a == IR_FIELD_DEFAULT && b == IR_FIELD_REQUIRED)
        diff_add(C, DIFF_BACKWARD, false, DIFF_DEFAULT_REQUIRED, name, &f->loc, &g->loc,
                 diff_fmt(C,
                          "newly required field '%s' was optional but had a default value: "
                          "OLD's writers left it out when it had that value, unless they wrote "
                          "defaults (ATD_WRITE_DEFAULTS, atdgen -j-defaults)",
                          name));
}

static void diff_record(diff_ctx *C, diff_side o, diff_side n)
{
    const ir_type *ot = o.t, *nt = n.t;
    if ((ot->tv == NULL) != (nt->tv == NULL) ||
        (ot->tv != NULL && (ot->tv->type_field_len != nt->tv->type_field_len ||
                            memcmp(ot->tv->type_field, nt->tv->type_field, ot->tv->type_field_len) != 0)))
        diff_add(C, DIFF_BOTH, true, DIFF_INCOMPATIBLE_TYPE, NULL, &ot->loc, &nt->loc,
                 "the record's JSON adapter (Type_and_value_fields) changed");
    for (size_t i = 0; i < ot->nfields; i++) {
        const ir_field *f = &ot->fields[i];
        const char *name = diff_name(C, f->json_name, f->json_len);
        const ir_field *g = diff_find_field(nt, f->json_name, f->json_len);
        if (g == NULL) {
            if (f->kind != IR_FIELD_REQUIRED)
                continue;
            const ir_field *r = diff_renamed_field(nt, f);
            diff_add(C, DIFF_FORWARD, true, DIFF_MISSING_FIELD, name, &f->loc, NULL,
                     r == NULL ? diff_fmt(C, "required field '%s' disappeared", name)
                               : diff_fmt(C, "required field '%s' disappeared (renamed '%s' by <json name>)",
                                          name, diff_name(C, r->json_name, r->json_len)));
            continue;
        }
        diff_field_kinds(C, f, g, name);
        diff_side a = diff_resolve((diff_side){o.s, f->slot.type});
        diff_side b = diff_resolve((diff_side){n.s, g->slot.type});
        if (f->kind == IR_FIELD_DEFAULT && g->kind == IR_FIELD_DEFAULT && a.t->kind == b.t->kind &&
            !diff_same_default(a.t, &f->dflt, b.t, &g->dflt))
            diff_add(C, DIFF_BOTH, false, DIFF_DEFAULT_CHANGED, name, &f->loc, &g->loc,
                     diff_fmt(C,
                              "the default value of field '%s' changed: a writer leaves the field "
                              "out when it has the writer's default, and the other version's "
                              "readers then read their own",
                              name));
        diff_type(C, a, b, &f->loc, &g->loc);
    }
    for (size_t i = 0; i < nt->nfields; i++) {
        const ir_field *g = &nt->fields[i];
        if (g->kind != IR_FIELD_REQUIRED || diff_find_field(ot, g->json_name, g->json_len) != NULL)
            continue;
        const char *name = diff_name(C, g->json_name, g->json_len);
        const ir_field *r = diff_renamed_field(ot, g);
        diff_add(C, DIFF_BACKWARD, true, DIFF_MISSING_FIELD, name, NULL, &g->loc,
                 r == NULL ? diff_fmt(C, "required field '%s' is new", name)
                           : diff_fmt(C, "required field '%s' is new (renamed from '%s' by <json name>)",
                                      name, diff_name(C, r->json_name, r->json_len)));
    }
}

/* How a sum's constructors with an argument are written. */
static const char *diff_sum_form(const ir_type *t)
{
    if (t->adapter == IR_ADAPTER_TYPE_FIELD)
        return "objects with a type field (Type_field adapter)";
    if (t->adapter == IR_ADAPTER_ONE_FIELD)
        return "one-field objects (One_field adapter)";
    if (t->json_object)
        return "objects {\"C\": arg} (<json repr=\"object\">)";
    return "arrays [\"C\", arg]";
}

static bool diff_has_arg(const ir_type *t)
{
    for (size_t i = 0; i < t->ncases; i++)
        if (t->cases[i].arg.type != NULL && !t->cases[i].catch_all)
            return true;
    return false;
}

static bool diff_has_catch_all(const ir_type *t)
{
    for (size_t i = 0; i < t->ncases; i++)
        if (t->cases[i].catch_all)
            return true;
    return false;
}

static const ir_case *diff_find_case(const ir_type *t, const char *json, size_t len)
{
    for (size_t i = 0; i < t->ncases; i++)
        if (!t->cases[i].catch_all && t->cases[i].json_len == len &&
            memcmp(t->cases[i].json_name, json, len) == 0)
            return &t->cases[i];
    return NULL;
}

static void diff_sum(diff_ctx *C, diff_side o, diff_side n)
{
    const ir_type *ot = o.t, *nt = n.t;
    if (diff_has_arg(ot) && diff_has_arg(nt)) {
        const char *a = diff_sum_form(ot), *b = diff_sum_form(nt);
        if (strcmp(a, b) != 0)
            diff_add(C, DIFF_BOTH, true, DIFF_INCOMPATIBLE_TYPE, NULL, &ot->loc, &nt->loc,
                     diff_fmt(C, "constructors with an argument were written as %s, now as %s", a, b));
        else if (ot->adapter == IR_ADAPTER_TYPE_FIELD &&
                 (ot->type_field_len != nt->type_field_len ||
                  memcmp(ot->type_field, nt->type_field, ot->type_field_len) != 0))
            diff_add(C, DIFF_BOTH, true, DIFF_INCOMPATIBLE_TYPE, NULL, &ot->loc, &nt->loc,
                     diff_fmt(C, "the type field of the sum changed from '%s' to '%s'",
                              diff_name(C, ot->type_field, ot->type_field_len),
                              diff_name(C, nt->type_field, nt->type_field_len)));
    }
    bool old_open = ot->open_enum && diff_has_catch_all(ot);
    bool new_open = nt->open_enum && diff_has_catch_all(nt);
    if (old_open && !new_open)
        diff_add(C, DIFF_BACKWARD, false, DIFF_INCOMPATIBLE_TYPE, NULL, &ot->loc, &nt->loc,
                 "the sum is no longer an open enum (<json open_enum>): NEW's readers reject "
                 "the unknown constructors that OLD's readers kept");
    if (new_open && !old_open)
        diff_add(C, DIFF_FORWARD, false, DIFF_INCOMPATIBLE_TYPE, NULL, &ot->loc, &nt->loc,
                 "the sum is now an open enum (<json open_enum>): OLD's readers reject "
                 "the constructors unknown to them that NEW's writers may write");
    for (size_t i = 0; i < ot->ncases; i++) {
        const ir_case *c = &ot->cases[i];
        if (c->catch_all)
            continue;
        const char *name = diff_name(C, c->json_name, c->json_len);
        const ir_case *d = diff_find_case(nt, c->json_name, c->json_len);
        if (d == NULL) {
            if (!new_open)
                diff_add(C, DIFF_BACKWARD, true, DIFF_MISSING_VARIANT, name, &c->loc, NULL,
                         diff_fmt(C, "case '%s' disappeared", name));
            continue;
        }
        if (c->arg.type != NULL && d->arg.type == NULL)
            diff_add(C, DIFF_BOTH, true, DIFF_MISSING_VARIANT_ARGUMENT, name, &c->loc, &d->loc,
                     diff_fmt(C, "case '%s' no longer has an argument", name));
        else if (c->arg.type == NULL && d->arg.type != NULL)
            diff_add(C, DIFF_BOTH, true, DIFF_MISSING_VARIANT_ARGUMENT, name, &c->loc, &d->loc,
                     diff_fmt(C, "case '%s' used to not have an argument", name));
        else if (c->arg.type != NULL)
            diff_type(C, diff_resolve((diff_side){o.s, c->arg.type}),
                      diff_resolve((diff_side){n.s, d->arg.type}), &c->loc, &d->loc);
    }
    for (size_t i = 0; i < nt->ncases; i++) {
        const ir_case *d = &nt->cases[i];
        if (d->catch_all || old_open || diff_find_case(ot, d->json_name, d->json_len) != NULL)
            continue;
        const char *name = diff_name(C, d->json_name, d->json_len);
        diff_add(C, DIFF_FORWARD, true, DIFF_MISSING_VARIANT, name, NULL, &d->loc,
                 diff_fmt(C, "case '%s' is new", name));
    }
}

static void diff_tuple(diff_ctx *C, diff_side o, diff_side n, const ast_loc *ol, const ast_loc *nl)
{
    if (o.t->ncells != n.t->ncells)
        diff_add(C, DIFF_BOTH, true, DIFF_INCOMPATIBLE_TYPE, NULL, ol, nl,
                 diff_fmt(C, "a tuple of %zu elements is now a tuple of %zu elements", o.t->ncells,
                          n.t->ncells));
    size_t k = o.t->ncells < n.t->ncells ? o.t->ncells : n.t->ncells;
    for (size_t i = 0; i < k; i++)
        diff_type(C, diff_resolve((diff_side){o.s, o.t->cells[i].slot.type}),
                  diff_resolve((diff_side){n.s, n.t->cells[i].slot.type}), ol, nl);
}

static bool diff_visit(diff_ctx *C, const ir_type *o, const ir_type *n)
{
    for (size_t i = 0; i < C->nvisited; i++)
        if (C->visited[i].o == o && C->visited[i].n == n)
            return false;
    if (!diff_grow(C, (void **)&C->visited, C->nvisited, &C->visited_cap, sizeof *C->visited))
        return false;
    C->visited[C->nvisited++] = (diff_pair){o, n};
    return true;
}

/* o and n are resolved (diff_resolve); ol and nl locate the comparison. */
static void diff_type(diff_ctx *C, diff_side o, diff_side n, const ast_loc *ol, const ast_loc *nl)
{
    if (C->oom || !diff_visit(C, o.t, n.t))
        return;
    bool om = o.t->owner != NULL && diff_params_is_marker(o.t->owner);
    bool nm = n.t->owner != NULL && diff_params_is_marker(n.t->owner);
    if (om && nm) {
        if (strcmp(o.t->owner, n.t->owner) != 0)
            diff_add(C, DIFF_BOTH, true, DIFF_INCOMPATIBLE_TYPE, NULL, ol, nl,
                     "incompatible type variables are being used");
        return;
    }
    if (om || nm) {
        const char *b = nm ? "type variable" : diff_kind_noun(n.t);
        diff_add(C, DIFF_BOTH, true, DIFF_INCOMPATIBLE_TYPE, NULL, ol, nl,
                 diff_fmt(C, "incompatible kinds of types: %s is now %s %s",
                          om ? "type variable" : diff_kind_noun(o.t),
                          strchr("aeiou", b[0]) != NULL ? "an" : "a", b));
        return;
    }
    if (diff_family(o.t) != diff_family(n.t)) {
        const char *b = diff_kind_noun(n.t);
        if (diff_is_scalar(o.t) && diff_is_scalar(n.t))
            diff_add(C, DIFF_BOTH, true, DIFF_INCOMPATIBLE_TYPE, NULL, ol, nl,
                     diff_fmt(C, "type names '%s' and '%s' are not the same and may not be compatible",
                              o.t->atd_name, n.t->atd_name));
        else
            diff_add(C, DIFF_BOTH, true, DIFF_INCOMPATIBLE_TYPE, NULL, ol, nl,
                     diff_fmt(C, "incompatible kinds of types: %s is now %s %s", diff_kind_noun(o.t),
                              strchr("aeiou", b[0]) != NULL ? "an" : "a", b));
        return;
    }
    switch (o.t->kind) {
    case IR_INT:
        diff_int(C, o.t, n.t, ol, nl);
        break;
    case IR_FLOAT:
        if (o.t->float_as_int != n.t->float_as_int)
            diff_add(C, o.t->float_as_int ? DIFF_FORWARD : DIFF_BACKWARD, false,
                     DIFF_INCOMPATIBLE_TYPE, NULL, ol, nl,
                     o.t->float_as_int ? "float written as an integer (<json repr=\"int\">) is now "
                                         "written with its fraction, which OLD's readers may reject"
                                       : "float is now read as an integer (<json repr=\"int\">): "
                                         "NEW's readers may reject OLD's fractions");
        break;
    case IR_RECORD:
        diff_record(C, o, n);
        break;
    case IR_ENUM:
    case IR_SUM:
        diff_sum(C, o, n);
        break;
    case IR_TUPLE:
        diff_tuple(C, o, n, ol, nl);
        break;
    case IR_LIST:
    case IR_ASSOC:
    case IR_OPTION:
    case IR_NULLABLE:
        diff_type(C, diff_resolve((diff_side){o.s, o.t->elem.type}),
                  diff_resolve((diff_side){n.s, n.t->elem.type}), ol, nl);
        break;
    default: /* unit, bool, string, abstract: nothing more to compare */
        break;
    }
}

/* ---- Definitions -------------------------------------------------------- */

static const ast_typedef *diff_ast_def(const ast_module *m, const char *name)
{
    for (size_t i = 0; i < m->ndefs; i++)
        if (strcmp(m->defs[i].name, name) == 0)
            return &m->defs[i];
    return NULL;
}

static const ast_loc *diff_primary(const diff_finding *f)
{
    return f->has_new ? &f->new_loc : &f->old_loc;
}

static int diff_order(const void *pa, const void *pb)
{
    const diff_finding *a = pa, *b = pb;
    /* NEW's findings first, then those that only OLD locates. */
    if (a->has_new != b->has_new)
        return a->has_new ? -1 : 1;
    const ast_loc *x = diff_primary(a), *y = diff_primary(b);
    int c = strcmp(x->file != NULL ? x->file : "", y->file != NULL ? y->file : "");
    if (c != 0)
        return c;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq; /* the order of discovery */
}

bool diff_schemas(atd_arena *arena, const load_schema *old, const load_schema *new,
                  diff_result *out)
{
    memset(out, 0, sizeof *out);
    diff_ctx C = {arena, out, NULL, NULL, 0, 0, false};
    for (size_t i = 0; i < old->ast->ndefs; i++) {
        const ast_typedef *td = &old->ast->defs[i];
        if (diff_ast_def(new->ast, td->name) != NULL || strncmp(td->name, DIFF_PARAMS_PREFIX, strlen(DIFF_PARAMS_PREFIX)) == 0)
            continue;
        C.def_name = td->name;
        diff_add(&C, DIFF_BACKWARD, false, DIFF_DELETED_TYPE, NULL, &td->loc, NULL,
                 diff_fmt(&C, "the definition of type '%s' no longer exists", td->name));
    }
    for (size_t i = 0; i < new->ast->ndefs; i++) {
        const ast_typedef *td = &new->ast->defs[i];
        const char *origin = diff_params_origin(td->name);
        C.def_name = origin != NULL ? origin : td->name;
        if (origin == NULL && strncmp(td->name, DIFF_PARAMS_PREFIX, strlen(DIFF_PARAMS_PREFIX)) == 0)
            continue; /* a marker */
        if (diff_ast_def(old->ast, td->name) == NULL) {
            diff_add(&C, DIFF_FORWARD, false, DIFF_ADDED_TYPE, NULL, NULL, &td->loc,
                     diff_fmt(&C, "there is a new type named '%s'", td->name));
            continue;
        }
        const ir_def *nd = load_ir_def(new, td->name);
        const ir_def *od = load_ir_def(old, td->name);
        if (nd == NULL || od == NULL) /* parametrized: compared where it is used */
            continue;
        C.nvisited = 0;
        diff_type(&C, diff_resolve((diff_side){old, od->type}),
                  diff_resolve((diff_side){new, nd->type}), &od->loc, &nd->loc);
    }
    if (out->len > 1)
        qsort(out->items, out->len, sizeof *out->items, diff_order);
    return !C.oom;
}
