/* Generated deep copy and value equality (emit.h), one function each per
 * type:
 *     int P_t_copy(const P_t *src, atd_arena *a, P_t *dst);
 *     bool P_t_equal(const P_t *a, const P_t *b);
 *
 * A copy starts as a shallow one (*dst = *src); then every part that holds
 * memory (a string, a list, an abstract value, a pointer) is copied into
 * the arena in place, on dst. So src and dst may be the same value (it then
 * moves into the arena), and a failure leaves *dst a valid value, parts of
 * which may still point into src's memory: every part is replaced only once
 * its copy is complete. Types without such parts copy by assignment; the
 * types that are not exported get a copy function only when they have
 * such parts (nothing else would call it).
 *
 * Equality compares values, not memory: strings by their bytes, floats with
 * C's == (the writer's rule for defaults: -0.0 equals 0.0, and NaN equals
 * nothing, not even itself), absent optional fields and options whatever
 * their unused member holds, unit always equal, sums by tag then payload,
 * abstract values with atd_json_equal, <c t> wraps by their wire values
 * (unwrap). Both recurse on the value's nesting, as the readers do. */
#include "emit.h"

#include <string.h>

/* Whether a value of type t holds memory of its own: what a copy must
 * duplicate. */
static bool type_is_deep(const ir_type *t);

static bool slot_is_deep(const ir_slot *s)
{
    return s->ptr || type_is_deep(s->type);
}

static bool type_is_deep(const ir_type *t)
{
    switch (t->kind) {
    case IR_STRING:
    case IR_ABSTRACT:
    case IR_LIST:
    case IR_ASSOC:
        return true;
    case IR_WRAP:
    case IR_OPTION:
    case IR_NULLABLE:
        return slot_is_deep(&t->elem);
    case IR_RECORD:
        if (t->imported)
            return true; /* unknown here: its own copy function decides */
        for (size_t i = 0; i < t->nfields; i++)
            if (slot_is_deep(&t->fields[i].slot))
                return true;
        return false;
    case IR_TUPLE:
        for (size_t i = 0; i < t->ncells; i++)
            if (slot_is_deep(&t->cells[i].slot))
                return true;
        return false;
    case IR_SUM:
        for (size_t i = 0; i < t->ncases; i++)
            if (t->cases[i].arg.type != NULL && slot_is_deep(&t->cases[i].arg))
                return true;
        return false;
    case IR_UNIT:
    case IR_BOOL:
    case IR_INT:
    case IR_FLOAT:
    case IR_ENUM:
        break;
    }
    return false;
}

/* Whether composite t has a copy function: the API's types always, the
 * others when a copy of what holds them calls it. */
static bool has_copy_function(const ir_type *t)
{
    return t->exported || type_is_deep(t);
}

/* --- copy --- */

/* The call that moves the value of type t at lvalue lv into the arena (0
 * or ATD_ERR_NOMEM), or NULL when that takes statements (a wrap) or
 * nothing (no memory of its own). */
static const char *copy_call(cw *w, const ir_type *t, const char *lv)
{
    switch (t->kind) {
    case IR_STRING:
        return cw_fmt(w, "atd_string_dup(a, %s.ptr, %s.len, &%s)", lv, lv, lv);
    case IR_ABSTRACT:
        return cw_fmt(w, "atd_json_copy(&%s, a, &%s)", lv, lv);
    default: /* the composite kinds (an enum is never deep); the others own no memory */
        return ir_is_composite(t) && type_is_deep(t)
                   ? cw_fmt(w, "%s_copy(&%s, a, &%s)", t->fn, lv, lv)
                   : NULL;
    }
}

static void copy_value(cw *w, const ir_type *t, const char *lv, int depth);

/* Emits the statements that move the parts of slot s at lvalue lv (a
 * shallow copy already) into the arena `a`, returning ATD_ERR_NOMEM on
 * failure, e.g. for a pointer to a record:
 *     if (dst->left != NULL) {
 *         P_tree *c0_ = ATD_LIST_ALLOC(a, P_tree, 1);
 *         if (c0_ == NULL) return ATD_ERR_NOMEM;
 *         *c0_ = *dst->left;
 *         if (P_tree_copy(&(*c0_), a, &(*c0_))) return ATD_ERR_NOMEM;
 *         dst->left = c0_;
 *     }
 */
static void copy_slot(cw *w, const ir_slot *s, const char *lv, int depth)
{
    if (!slot_is_deep(s))
        return;
    if (!s->ptr) {
        copy_value(w, s->type, lv, depth);
        return;
    }
    const char *c = cw_fmt(w, "c%d_", depth);
    cw_open(w, "if (%s != NULL)", lv);
    cw_line(w, "%s *%s = ATD_LIST_ALLOC(a, %s, 1);", s->type->name, c, s->type->name);
    cw_line(w, "if (%s == NULL) return ATD_ERR_NOMEM;", c);
    cw_line(w, "*%s = *%s;", c, lv);
    copy_value(w, s->type, cw_fmt(w, "(*%s)", c), depth + 1);
    cw_line(w, "%s = %s;", lv, c);
    cw_close(w, "}");
}

/* The same for a value of type t (not a pointer). */
static void copy_value(cw *w, const ir_type *t, const char *lv, int depth)
{
    const char *call = copy_call(w, t, lv);
    if (call != NULL) {
        cw_line(w, "if (%s) return ATD_ERR_NOMEM;", call);
    } else if (t->kind == IR_WRAP && slot_is_deep(&t->elem)) {
        /* through the wire value: { T w7_ = unwrap(lv); ...copy w7_...; lv = wrap(w7_); } */
        const char *tmp = cw_fmt(w, "w%d_", t->id);
        cw_open(w, "{");
        cw_line(w, "%s %s = %s(%s);", t->elem.type->name, tmp, t->unwrap_fn, lv);
        copy_slot(w, &t->elem, tmp, depth);
        cw_line(w, "%s = %s(%s);", lv, t->wrap_fn, tmp);
        cw_close(w, "}");
    }
}

/* The same for a slot that holds a value only when `has` is true (an
 * optional field, an option, a nullable). */
static void copy_present(cw *w, const char *has, const ir_slot *s, const char *lv)
{
    const char *call = s->ptr ? NULL : copy_call(w, s->type, lv);
    if (call != NULL) {
        cw_line(w, "if (%s && %s) return ATD_ERR_NOMEM;", has, call);
        return;
    }
    cw_open(w, "if (%s)", has);
    copy_slot(w, s, lv, 0);
    cw_close(w, "}");
}

/* Emits the body of t's copy function after `*dst = *src;`. */
static void copy_parts(cw *w, const ir_type *t)
{
    switch (t->kind) {
    case IR_RECORD:
        for (size_t i = 0; i < t->nfields; i++) {
            const ir_field *f = &t->fields[i];
            if (!slot_is_deep(&f->slot))
                continue;
            const char *lv = cw_fmt(w, "dst->%s", f->c_name);
            if (f->kind == IR_FIELD_OPTIONAL)
                copy_present(w, cw_fmt(w, "dst->has_%s", f->c_name), &f->slot, lv);
            else
                copy_slot(w, &f->slot, lv, 0);
        }
        break;
    case IR_TUPLE:
        for (size_t i = 0; i < t->ncells; i++)
            copy_slot(w, &t->cells[i].slot, cw_fmt(w, "dst->f%zu", i), 0);
        break;
    case IR_SUM:
        cw_open(w, "switch (dst->tag) {");
        for (size_t i = 0; i < t->ncases; i++) {
            const ir_case *k = &t->cases[i];
            if (k->arg.type == NULL || !slot_is_deep(&k->arg))
                continue;
            const char *lv = cw_fmt(w, "dst->u.%s", k->member);
            const char *call = k->arg.ptr ? NULL : copy_call(w, k->arg.type, lv);
            cw_mid(w, "case %s:", k->const_name);
            if (call != NULL) {
                cw_line(w, "return %s;", call);
            } else {
                copy_slot(w, &k->arg, lv, 0);
                cw_line(w, "break;");
            }
        }
        cw_mid(w, "default:");
        cw_line(w, "break;");
        cw_close(w, "}");
        break;
    case IR_OPTION:
    case IR_NULLABLE:
        copy_present(w, "dst->has", &t->elem, "dst->value");
        break;
    default: /* nothing deep to copy */
        break;
    }
}

/* Emits a list's or an association list's copy: new items, each a copy,
 * put in place only when all are done.
 *     P_t_item *items = ATD_LIST_ALLOC(a, P_t_item, src->len);
 *     if (items == NULL) return ATD_ERR_NOMEM;
 *     for (size_t i = 0; i < src->len; i++) {
 *         items[i] = src->items[i];
 *         ...copy its parts...
 *     }
 *     dst->items = items;
 *     dst->len = src->len;
 */
static void copy_items(cw *w, const ir_type *t)
{
    const char *item = t->kind == IR_ASSOC ? cw_fmt(w, "%s_item", t->name) : t->elem.type->name;
    cw_line(w, "%s *items = ATD_LIST_ALLOC(a, %s, src->len);", item, item);
    cw_line(w, "if (items == NULL) return ATD_ERR_NOMEM;");
    cw_open(w, "for (size_t i = 0; i < src->len; i++)");
    cw_line(w, "items[i] = src->items[i];");
    if (t->kind == IR_ASSOC) {
        cw_line(w, "if (atd_string_dup(a, items[i].key.ptr, items[i].key.len, &items[i].key)) "
                   "return ATD_ERR_NOMEM;");
        copy_slot(w, &t->elem, "items[i].value", 0);
    } else {
        copy_slot(w, &t->elem, "items[i]", 0);
    }
    cw_close(w, "}");
    cw_line(w, "dst->items = items;");
    cw_line(w, "dst->len = src->len;");
}

/* --- equality --- */

/* The expression that is true when the values of slot s at lvalues x and y
 * are equal, or NULL when they always are (unit). A wrap compares its wire
 * values through a static helper of its own (wrap_equal_name). */
static const char *equal_expr(cw *w, const ir_slot *s, const char *x, const char *y);

/* Named after the user's wrap function (no clash with the schema's names)
 * and the type's id (several wraps may share the function). */
static const char *wrap_equal_name(cw *w, const ir_type *t)
{
    return cw_fmt(w, "%s__equal_w%d", t->wrap_fn, t->id);
}

const char *emit_equal_value_expr(cw *w, const ir_type *t, const char *x, const char *y)
{
    switch (t->kind) {
    case IR_UNIT:
        return NULL;
    case IR_BOOL:
    case IR_INT:
    case IR_FLOAT:
    case IR_ENUM:
        return cw_fmt(w, "%s == %s", x, y);
    case IR_STRING:
        return cw_fmt(w, "atd_string_equal(&%s, &%s)", x, y);
    case IR_ABSTRACT:
        return cw_fmt(w, "atd_json_equal(&%s, &%s)", x, y);
    case IR_WRAP:
        if (equal_expr(w, &t->elem, "x", "y") == NULL)
            return NULL;
        return cw_fmt(w, "%s(&%s, &%s)", wrap_equal_name(w, t), x, y);
    default: /* the composite kinds other than enums */
        return cw_fmt(w, "%s_equal(&%s, &%s)", t->fn, x, y);
    }
    return NULL;
}

static const char *equal_expr(cw *w, const ir_slot *s, const char *x, const char *y)
{
    if (!s->ptr)
        return emit_equal_value_expr(w, s->type, x, y);
    const char *e = emit_equal_value_expr(w, s->type, cw_fmt(w, "(*%s)", x), cw_fmt(w, "(*%s)", y));
    if (e == NULL)
        return cw_fmt(w, "(%s == NULL) == (%s == NULL)", x, y);
    return cw_fmt(w, "(%s == NULL ? %s == NULL : %s != NULL && %s)", x, y, y, e);
}

/* An equality expression as one term of a && chain. */
static const char *term(cw *w, const char *e)
{
    return strstr(e, " ? ") != NULL ? cw_fmt(w, "(%s)", e) : e;
}

/* Emits `return T1 && T2 ...;`, one term a line, or `return true;` when
 * there are none (the parameters then unused). */
static void emit_return_all(cw *w, const char *const *terms, size_t n)
{
    if (n == 0) {
        cw_line(w, "(void)a;");
        cw_line(w, "(void)b;");
        cw_line(w, "return true;");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const char *end = i + 1 < n ? " &&" : ";";
        const char *e = n == 1 ? terms[i] : term(w, terms[i]);
        if (i == 0)
            cw_line(w, "return %s%s", e, end);
        else
            cw_cont(w, "%s%s", e, end);
    }
}

/* The term of an optional field, an option or a nullable: presence, then
 * the value when present. */
static const char *present_term(cw *w, const char *has_a, const char *has_b, const char *e)
{
    if (e == NULL)
        return cw_fmt(w, "%s == %s", has_a, has_b);
    return cw_fmt(w, "%s == %s && (!%s || %s)", has_a, has_b, has_a, e);
}

/* Emits the body of t's equality function, e.g. for a record
 *     return a->id == b->id &&
 *         atd_string_equal(&a->name, &b->name) &&
 *         a->has_note == b->has_note && (!a->has_note || atd_string_equal(&a->note, &b->note));
 */
static void equal_parts(cw *w, const ir_type *t)
{
    size_t n = t->nfields + t->ncells + 1;
    const char **terms = cw_alloc(w, n * sizeof *terms);
    if (terms == NULL)
        return; /* the writer records it */
    size_t k = 0;
    switch (t->kind) {
    case IR_RECORD:
        for (size_t i = 0; i < t->nfields; i++) {
            const ir_field *f = &t->fields[i];
            const char *e = equal_expr(w, &f->slot, cw_fmt(w, "a->%s", f->c_name),
                                       cw_fmt(w, "b->%s", f->c_name));
            if (f->kind == IR_FIELD_OPTIONAL)
                e = present_term(w, cw_fmt(w, "a->has_%s", f->c_name),
                                 cw_fmt(w, "b->has_%s", f->c_name), e);
            if (e != NULL)
                terms[k++] = e;
        }
        break;
    case IR_TUPLE:
        for (size_t i = 0; i < t->ncells; i++) {
            const char *e =
                equal_expr(w, &t->cells[i].slot, cw_fmt(w, "a->f%zu", i), cw_fmt(w, "b->f%zu", i));
            if (e != NULL)
                terms[k++] = e;
        }
        break;
    case IR_SUM:
        cw_line(w, "if (a->tag != b->tag) return false;");
        cw_open(w, "switch (a->tag) {");
        for (size_t i = 0; i < t->ncases; i++) {
            const ir_case *c = &t->cases[i];
            const char *e = c->arg.type == NULL
                                ? NULL
                                : equal_expr(w, &c->arg, cw_fmt(w, "a->u.%s", c->member),
                                             cw_fmt(w, "b->u.%s", c->member));
            if (e == NULL)
                continue;
            cw_mid(w, "case %s:", c->const_name);
            cw_line(w, "return %s;", e);
        }
        cw_mid(w, "default:");
        cw_line(w, "return true;");
        cw_close(w, "}");
        return;
    case IR_LIST:
    case IR_ASSOC: {
        bool assoc = t->kind == IR_ASSOC;
        const char *e = equal_expr(w, &t->elem, assoc ? "a->items[i].value" : "a->items[i]",
                                   assoc ? "b->items[i].value" : "b->items[i]");
        if (assoc)
            e = e == NULL ? "atd_string_equal(&a->items[i].key, &b->items[i].key)"
                          : cw_fmt(w, "atd_string_equal(&a->items[i].key, &b->items[i].key) && %s",
                                   term(w, e));
        cw_line(w, "if (a->len != b->len) return false;");
        if (e != NULL) {
            cw_open(w, "for (size_t i = 0; i < a->len; i++)");
            cw_line(w, "if (!(%s)) return false;", e);
            cw_close(w, "}");
        }
        cw_line(w, "return true;");
        return;
    }
    case IR_OPTION:
    case IR_NULLABLE:
        terms[k++] =
            present_term(w, "a->has", "b->has", equal_expr(w, &t->elem, "a->value", "b->value"));
        break;
    case IR_ENUM:
        terms[k++] = "*a == *b";
        break;
    default: /* the scalar kinds: no composite to compare */
        break;
    }
    emit_return_all(w, terms, k);
}

/* Emits the helper that compares two values of wrap type t by their wire
 * values:
 *     static bool P_w7__equal(const U *a, const U *b)
 *     {
 *         const T x = unwrap(*a), y = unwrap(*b);
 *         return x == y;
 *     }
 */
static void emit_wrap_equal(cw *w, const ir_type *t)
{
    const char *e = equal_expr(w, &t->elem, "x", "y");
    if (e == NULL)
        return;
    cw_line(w, "static bool %s(const %s *a, const %s *b)", wrap_equal_name(w, t), t->name, t->name);
    cw_open(w, "{");
    cw_line(w, "const %s x = %s(*a), y = %s(*b);", t->elem.type->name, t->unwrap_fn, t->unwrap_fn);
    cw_line(w, "return %s;", e);
    cw_close(w, "}");
    cw_blank(w);
}

/* --- functions --- */

void emit_value_ops_prototypes(cw *w, const char *name)
{
    cw_line(w, "int %s_copy(const %s *src, atd_arena *a, %s *dst);", name, name, name);
    cw_line(w, "bool %s_equal(const %s *a, const %s *b);", name, name, name);
}

/* Whether the equality of t needs a function: enums compare with != in
 * the functions that hold them. */
static bool has_equal_function(const ir_type *t)
{
    return t->exported || t->kind != IR_ENUM;
}

/* Emits, for a composite type:
 *     int P_t_copy(const P_t *src, atd_arena *a, P_t *dst)
 *     {
 *         *dst = *src;
 *         ...copy_parts...
 *         return 0;
 *     }
 *     bool P_t_equal(const P_t *a, const P_t *b) { ...equal_parts... }
 */
static void emit_type_value_ops(cw *w, const ir_type *t)
{
    const char *link = emit_linkage(t);
    if (has_copy_function(t)) {
        cw_line(w, "%sint %s_copy(const %s *src, atd_arena *a, %s *dst)", link, t->fn, t->name,
                t->name);
        cw_open(w, "{");
        if (t->kind == IR_LIST || t->kind == IR_ASSOC) {
            copy_items(w, t);
        } else {
            cw_line(w, "*dst = *src;");
            if (type_is_deep(t))
                copy_parts(w, t);
            else
                cw_line(w, "(void)a;");
        }
        cw_line(w, "return 0;");
        cw_close(w, "}");
        cw_blank(w);
    }
    if (has_equal_function(t)) {
        cw_line(w, "%sbool %s_equal(const %s *a, const %s *b)", link, t->fn, t->name, t->name);
        cw_open(w, "{");
        equal_parts(w, t);
        cw_close(w, "}");
        cw_blank(w);
    }
    cw_end_item(w);
}

/* The same for a typedef P_d of a type T: a copy and a comparison of one T. */
static void emit_def_value_ops(cw *w, const ir_def *d)
{
    ir_slot slot = {d->type, false, NULL, false, false, {0}};
    cw_line(w, "int %s_copy(const %s *src, atd_arena *a, %s *dst)", d->c_name, d->c_name,
            d->c_name);
    cw_open(w, "{");
    cw_line(w, "*dst = *src;");
    if (slot_is_deep(&slot))
        copy_slot(w, &slot, "(*dst)", 0);
    else
        cw_line(w, "(void)a;");
    cw_line(w, "return 0;");
    cw_close(w, "}");
    cw_blank(w);
    cw_line(w, "bool %s_equal(const %s *a, const %s *b)", d->c_name, d->c_name, d->c_name);
    cw_open(w, "{");
    const char *e = equal_expr(w, &slot, "(*a)", "(*b)");
    emit_return_all(w, &e, e != NULL);
    cw_close(w, "}");
    cw_blank(w);
    cw_end_item(w);
}

/* Adds the wraps that slot s holds (a wrap, the wraps inside it) to
 * wraps[0..*n), once each. */
static void collect_wraps(const ir_slot *s, const ir_type **wraps, size_t *n, size_t cap)
{
    const ir_type *t = s->type;
    if (t->kind != IR_WRAP)
        return;
    for (size_t i = 0; i < *n; i++)
        if (wraps[i] == t)
            return;
    if (*n < cap)
        wraps[(*n)++] = t;
    collect_wraps(&t->elem, wraps, n, cap);
}

/* Emits the equality helpers of every wrap that the functions compare. */
static void emit_wrap_helpers(cw *w, const ir_module *m, const bool *used)
{
    size_t cap = 0;
    for (size_t i = 0; i < m->ntypes; i++)
        cap += m->types[i]->nfields + m->types[i]->ncells + m->types[i]->ncases + 1;
    cap += m->ndefs;
    const ir_type **wraps = cw_alloc(w, (cap + 1) * sizeof *wraps);
    if (wraps == NULL)
        return; /* the writer records it */
    size_t n = 0;
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (!used[i])
            continue;
        for (size_t j = 0; j < t->nfields; j++)
            collect_wraps(&t->fields[j].slot, wraps, &n, cap);
        for (size_t j = 0; j < t->ncells; j++)
            collect_wraps(&t->cells[j].slot, wraps, &n, cap);
        for (size_t j = 0; j < t->ncases; j++)
            if (t->cases[j].arg.type != NULL)
                collect_wraps(&t->cases[j].arg, wraps, &n, cap);
        if (t->elem.type != NULL)
            collect_wraps(&t->elem, wraps, &n, cap);
    }
    for (size_t i = 0; i < m->ndefs; i++) {
        if (!m->defs[i].is_typedef)
            continue;
        ir_slot s = {m->defs[i].type, false, NULL, false, false, {0}};
        collect_wraps(&s, wraps, &n, cap);
    }
    /* a helper calls the helpers of the wraps inside */
    for (size_t i = 0; i < n; i++)
        if (equal_expr(w, &wraps[i]->elem, "x", "y") != NULL)
            cw_line(w, "static bool %s(const %s *a, const %s *b);", wrap_equal_name(w, wraps[i]),
                    wraps[i]->name, wraps[i]->name);
    for (size_t i = 0; i < n; i++)
        emit_wrap_equal(w, wraps[i]);
}

void emit_value_ops_internal_prototypes(cw *w, const ir_module *m, const bool *used)
{
    bool any = false;
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (!used[i] || t->exported)
            continue;
        if (has_copy_function(t))
            cw_line(w, "static int %s_copy(const %s *src, atd_arena *a, %s *dst);", t->fn, t->name,
                    t->name);
        if (has_equal_function(t))
            cw_line(w, "static bool %s_equal(const %s *a, const %s *b);", t->fn, t->name, t->name);
        any = true;
    }
    if (any)
        cw_blank(w);
}

void emit_value_ops_source(cw *w, const ir_module *m, const bool *used)
{
    cw_comment(w, "--- copy and equality ---");
    cw_blank(w);
    emit_wrap_helpers(w, m, used);
    for (size_t i = 0; i < m->ntypes; i++)
        if (used[i])
            emit_type_value_ops(w, m->types[i]);
    for (size_t i = 0; i < m->ndefs; i++)
        if (m->defs[i].is_typedef)
            emit_def_value_ops(w, &m->defs[i]);
}
