/* Generated deep copy and value equality (emit.h), one function each per
 * type:
 *     int P_t_copy(const P_t *src, atd_arena *a, P_t *dst);
 *     bool P_t_equal(const P_t *a, const P_t *b);
 * defined by one macro of the runtime (atd/detail/value_ops.h) for every
 * shape that is the same lines for all types (a list, an option...), and
 * written out for records, tuples and sums.
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

/* --- the parts' copy and equality --- */

/* A part's copy and equality go by name, as functions (or function-like
 * macros) on pointers, the form that the runtime's macros take
 * (atd/detail/value_ops.h):
 *     COPY(const P *src, atd_arena *a, P *dst)   nonzero on failure
 *     EQUAL(const P *x, const P *y)
 * A wrap whose wire value holds memory or is compared, and a member that
 * points to its value, get helpers of their own for that (emitted first,
 * emit_helpers). */

/* The helpers of wrap t, named after the user's wrap function (no clash
 * with the schema's names) and the type's id (several wraps may share the
 * function). */
static const char *wrap_helper_name(cw *w, const ir_type *t, const char *op)
{
    return cw_fmt(w, "%s__%s_w%d", t->wrap_fn, op, t->id);
}

/* The COPY of slot s, or NULL when it holds no memory of its own. */
static const char *copy_fn(cw *w, const ir_slot *s)
{
    const ir_type *t = s->type;
    if (!slot_is_deep(s))
        return NULL;
    if (s->ptr)
        return cw_fmt(w, "%s__copy_ptr", t->name);
    switch (t->kind) {
    case IR_STRING:
        return "ATD_COPY_STRING";
    case IR_ABSTRACT:
        return "atd_json_copy";
    case IR_WRAP:
        return wrap_helper_name(w, t, "copy");
    default: /* the composite kinds (an enum is never deep) */
        return cw_fmt(w, "%s_copy", t->fn);
    }
}

/* The EQUAL of slot s, or NULL when its values are always equal (unit). */
static const char *equal_fn(cw *w, const ir_slot *s)
{
    const ir_type *t = s->type;
    if (s->ptr)
        return cw_fmt(w, "%s__equal_ptr", t->name);
    switch (t->kind) {
    case IR_UNIT:
        return NULL;
    case IR_BOOL:
    case IR_INT:
    case IR_FLOAT:
    case IR_ENUM:
        return "ATD_EQUAL_SCALAR";
    case IR_STRING:
        return "atd_string_equal";
    case IR_ABSTRACT:
        return "atd_json_equal";
    case IR_WRAP:
        return equal_fn(w, &t->elem) == NULL ? NULL : wrap_helper_name(w, t, "equal");
    default: /* the composite kinds other than enums */
        return cw_fmt(w, "%s_equal", t->fn);
    }
}

/* The same as expressions on lvalues x and y: `x == y` for scalars. */
static const char *equal_expr(cw *w, const ir_slot *s, const char *x, const char *y)
{
    const char *fn = equal_fn(w, s);
    if (fn == NULL)
        return NULL;
    if (strcmp(fn, "ATD_EQUAL_SCALAR") == 0)
        return cw_fmt(w, "%s == %s", x, y);
    return cw_fmt(w, "%s(&%s, &%s)", fn, x, y);
}

const char *emit_equal_value_expr(cw *w, const ir_type *t, const char *x, const char *y)
{
    ir_slot s = {(ir_type *)t, false, NULL, false, false, {0}};
    return equal_expr(w, &s, x, y);
}

/* --- copy --- */

/* Emits the statement that moves the parts of slot s at lvalue lv (a
 * shallow copy already) into the arena, when `has` (NULL: always) is true:
 *     if (dst->has_note && ATD_COPY_STRING(&dst->note, a, &dst->note)) return ATD_ERR_NOMEM;
 */
static void copy_part(cw *w, const char *has, const ir_slot *s, const char *lv)
{
    const char *fn = copy_fn(w, s);
    if (fn != NULL)
        cw_line(w, "if (%s%s%s(&%s, a, &%s)) return ATD_ERR_NOMEM;", has != NULL ? has : "",
                has != NULL ? " && " : "", fn, lv, lv);
}

/* Emits the body of record, tuple or sum t's copy function after
 * `*dst = *src;`. */
static void copy_parts(cw *w, const ir_type *t)
{
    switch (t->kind) {
    case IR_RECORD:
        for (size_t i = 0; i < t->nfields; i++) {
            const ir_field *f = &t->fields[i];
            copy_part(w, f->kind == IR_FIELD_OPTIONAL ? cw_fmt(w, "dst->has_%s", f->c_name) : NULL,
                      &f->slot, cw_fmt(w, "dst->%s", f->c_name));
        }
        break;
    case IR_TUPLE:
        for (size_t i = 0; i < t->ncells; i++)
            copy_part(w, NULL, &t->cells[i].slot, cw_fmt(w, "dst->f%zu", i));
        break;
    case IR_SUM:
        cw_open(w, "switch (dst->tag) {");
        for (size_t i = 0; i < t->ncases; i++) {
            const ir_case *k = &t->cases[i];
            const char *fn = k->arg.type == NULL ? NULL : copy_fn(w, &k->arg);
            if (fn == NULL)
                continue;
            cw_mid(w, "case %s:", k->const_name);
            cw_line(w, "return %s(&dst->u.%s, a, &dst->u.%s);", fn, k->member, k->member);
        }
        cw_mid(w, "default:");
        cw_line(w, "break;");
        cw_close(w, "}");
        break;
    default: /* the other kinds copy through a macro */
        break;
    }
}

/* --- equality --- */

/* Emits `return T1 && T2 ...;`, one term a line (n > 0). */
static void emit_return_all(cw *w, const char *const *terms, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *end = i + 1 < n ? " &&" : ";";
        if (i == 0)
            cw_line(w, "return %s%s", terms[i], end);
        else
            cw_cont(w, "%s%s", terms[i], end);
    }
}

/* The terms of record or tuple t's equality, e.g. for a record
 *     a->id == b->id
 *     atd_string_equal(&a->name, &b->name)
 *     a->has_note == b->has_note && (!a->has_note || atd_string_equal(&a->note, &b->note))
 * into terms (room for one per field or cell); returns their number. */
static size_t equal_terms(cw *w, const ir_type *t, const char **terms)
{
    size_t k = 0;
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        const char *e =
            equal_expr(w, &f->slot, cw_fmt(w, "a->%s", f->c_name), cw_fmt(w, "b->%s", f->c_name));
        if (f->kind == IR_FIELD_OPTIONAL) {
            const char *has = cw_fmt(w, "a->has_%s == b->has_%s", f->c_name, f->c_name);
            e = e == NULL ? has : cw_fmt(w, "%s && (!a->has_%s || %s)", has, f->c_name, e);
        }
        if (e != NULL)
            terms[k++] = e;
    }
    for (size_t i = 0; i < t->ncells; i++) {
        const char *e =
            equal_expr(w, &t->cells[i].slot, cw_fmt(w, "a->f%zu", i), cw_fmt(w, "b->f%zu", i));
        if (e != NULL)
            terms[k++] = e;
    }
    return k;
}

/* Emits the body of sum t's equality function: the tag, then the
 * constructor's argument. */
static void equal_sum(cw *w, const ir_type *t)
{
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
}

/* --- functions --- */

void emit_value_ops_prototypes(cw *w, const char *name)
{
    cw_line(w, "int %s_copy(const %s *src, atd_arena *a, %s *dst);", name, name, name);
    cw_line(w, "bool %s_equal(const %s *a, const %s *b);", name, name, name);
}

/* Whether the equality of t needs a function: enums compare with == in
 * the functions that hold them. */
static bool has_equal_function(const ir_type *t)
{
    return t->exported || t->kind != IR_ENUM;
}

/* A COPY or EQUAL, or the runtime's for parts without memory or always
 * equal. */
static const char *or_none(const char *fn, const char *none)
{
    return fn != NULL ? fn : none;
}

/* The C type of what slot s holds. */
static const char *slot_c_type(cw *w, const ir_slot *s)
{
    return s->ptr ? cw_fmt(w, "%s *", s->type->name) : s->type->name;
}

/* Emits t's copy function: a macro of atd/detail/value_ops.h but for a
 * record, tuple or sum that holds memory,
 *     ATD_DEFINE_LIST_COPY(static, P_shape_list, P_shape, P_shape_copy)
 *     int P_t_copy(const P_t *src, atd_arena *a, P_t *dst)
 *     {
 *         *dst = *src;
 *         ...copy_parts...
 *         return 0;
 *     }
 */
static bool emit_copy_function(cw *w, const ir_type *t)
{
    const char *link = t->exported ? "extern" : "static";
    const char *fn = t->elem.type != NULL ? copy_fn(w, &t->elem) : NULL;
    switch (t->kind) {
    case IR_LIST:
        cw_line(w, "ATD_DEFINE_LIST_COPY(%s, %s, %s, %s)", link, t->name, slot_c_type(w, &t->elem),
                or_none(fn, "ATD_COPY_NONE"));
        return true;
    case IR_ASSOC:
        cw_line(w, "ATD_DEFINE_ASSOC_COPY(%s, %s, %s)", link, t->name,
                or_none(fn, "ATD_COPY_NONE"));
        return true;
    case IR_OPTION:
    case IR_NULLABLE:
        if (fn != NULL) {
            cw_line(w, "ATD_DEFINE_OPTION_COPY(%s, %s, %s)", link, t->name, fn);
            return true;
        }
        break;
    default:
        break;
    }
    if (!type_is_deep(t)) {
        cw_line(w, "ATD_DEFINE_COPY(%s, %s, ATD_COPY_NONE)", link, t->name);
        return true;
    }
    cw_line(w, "%sint %s_copy(const %s *src, atd_arena *a, %s *dst)", emit_linkage(t), t->fn,
            t->name, t->name);
    cw_open(w, "{");
    cw_line(w, "*dst = *src;");
    copy_parts(w, t);
    cw_line(w, "return 0;");
    cw_close(w, "}");
    cw_blank(w);
    return false;
}

/* Emits t's equality function, a macro of atd/detail/value_ops.h but for a
 * sum, and a record or tuple with parts to compare:
 *     bool P_t_equal(const P_t *a, const P_t *b)
 *     {
 *         return a->id == b->id &&
 *             atd_string_equal(&a->name, &b->name);
 *     }
 */
static bool emit_equal_function(cw *w, const ir_type *t)
{
    const char *link = t->exported ? "extern" : "static";
    const char *macro = NULL, *fn = "ATD_EQUAL_SCALAR";
    const char **terms = NULL;
    size_t n = 0;
    switch (t->kind) {
    case IR_LIST:
        macro = "LIST_EQUAL";
        break;
    case IR_ASSOC:
        macro = "ASSOC_EQUAL";
        break;
    case IR_OPTION:
    case IR_NULLABLE:
        macro = "OPTION_EQUAL";
        break;
    case IR_ENUM:
        macro = "EQUAL";
        break;
    case IR_RECORD:
    case IR_TUPLE:
        terms = cw_alloc(w, (t->nfields + t->ncells + 1) * sizeof *terms);
        if (terms == NULL)
            return false; /* the writer records it */
        n = equal_terms(w, t, terms);
        if (n == 0) {
            macro = "EQUAL";
            fn = "ATD_EQUAL_ALWAYS";
        }
        break;
    default: /* a sum */
        break;
    }
    if (macro != NULL) {
        if (t->elem.type != NULL)
            fn = or_none(equal_fn(w, &t->elem), "ATD_EQUAL_ALWAYS");
        cw_line(w, "ATD_DEFINE_%s(%s, %s, %s)", macro, link, t->name, fn);
        return true;
    }
    cw_line(w, "%sbool %s_equal(const %s *a, const %s *b)", emit_linkage(t), t->fn, t->name,
            t->name);
    cw_open(w, "{");
    if (t->kind == IR_SUM)
        equal_sum(w, t);
    else
        emit_return_all(w, terms, n);
    cw_close(w, "}");
    cw_blank(w);
    return false;
}

/* Emits the copy and equality functions of composite type t, the API's
 * types always, the others when what holds them calls them. */
static void emit_type_value_ops(cw *w, const ir_type *t)
{
    /* a function is followed by a blank line, the type's last macro too */
    bool macro_last = false;
    if (has_copy_function(t))
        macro_last = emit_copy_function(w, t);
    if (has_equal_function(t))
        macro_last = emit_equal_function(w, t);
    if (macro_last)
        cw_blank(w);
    cw_end_item(w);
}

/* The same for a typedef P_d of a type T: a copy and a comparison of one T:
 *     ATD_DEFINE_COPY(extern, P_d, ATD_COPY_STRING)
 *     ATD_DEFINE_EQUAL(extern, P_d, atd_string_equal) */
static void emit_def_value_ops(cw *w, const ir_def *d)
{
    ir_slot slot = {d->type, false, NULL, false, false, {0}};
    cw_line(w, "ATD_DEFINE_COPY(extern, %s, %s)", d->c_name,
            or_none(copy_fn(w, &slot), "ATD_COPY_NONE"));
    cw_line(w, "ATD_DEFINE_EQUAL(extern, %s, %s)", d->c_name,
            or_none(equal_fn(w, &slot), "ATD_EQUAL_ALWAYS"));
    cw_blank(w);
    cw_end_item(w);
}

/* Adds what slot s needs a helper for to the set types[0..*n) (room for
 * cap), once each: the wraps it holds (a wrap, the wraps inside it), the
 * type it points to. */
static void collect_helpers(const ir_slot *s, const ir_type **types, size_t *n, size_t cap)
{
    const ir_type *t = s->type;
    if (t->kind != IR_WRAP && !s->ptr)
        return;
    for (size_t i = 0; i < *n; i++)
        if (types[i] == t)
            return;
    if (*n < cap)
        types[(*n)++] = t;
    if (t->kind == IR_WRAP)
        collect_helpers(&t->elem, types, n, cap);
}

/* Emits the helpers that the functions call:
 *     ATD_DEFINE_PTR_OPS(P_tree, P_tree_copy)
 *     static bool f__equal_w7(const U *a, const U *b);
 *     ATD_DEFINE_WRAP_EQUAL(f__equal_w7, U, int64_t, g, ATD_EQUAL_SCALAR)
 * the prototypes of a wrap's first: its helpers call those of the wraps
 * inside. The helpers of a wrap exist when its wire value holds memory
 * (copy) or is compared (equal); a pointer's both, since what holds a
 * pointer holds memory. */
static void emit_helpers(cw *w, const ir_module *m, const bool *used)
{
    size_t cap = 0;
    for (size_t i = 0; i < m->ntypes; i++)
        cap += m->types[i]->nfields + m->types[i]->ncells + m->types[i]->ncases + 1;
    cap += m->ndefs;
    const ir_type **types = cw_alloc(w, (cap + 1) * sizeof *types);
    if (types == NULL)
        return; /* the writer records it */
    size_t n = 0;
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (!used[i])
            continue;
        for (size_t j = 0; j < t->nfields; j++)
            collect_helpers(&t->fields[j].slot, types, &n, cap);
        for (size_t j = 0; j < t->ncells; j++)
            collect_helpers(&t->cells[j].slot, types, &n, cap);
        for (size_t j = 0; j < t->ncases; j++)
            if (t->cases[j].arg.type != NULL)
                collect_helpers(&t->cases[j].arg, types, &n, cap);
        if (t->elem.type != NULL)
            collect_helpers(&t->elem, types, &n, cap);
    }
    for (size_t i = 0; i < m->ndefs; i++) {
        if (!m->defs[i].is_typedef)
            continue;
        ir_slot s = {m->defs[i].type, false, NULL, false, false, {0}};
        collect_helpers(&s, types, &n, cap);
    }
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        const ir_type *t = types[i];
        if (t->kind != IR_WRAP) {
            ir_slot s = {(ir_type *)t, false, NULL, false, false, {0}};
            cw_line(w, "ATD_DEFINE_PTR_OPS(%s, %s)", t->name,
                    or_none(copy_fn(w, &s), "ATD_COPY_NONE"));
            any = true;
            continue;
        }
        if (slot_is_deep(&t->elem)) {
            cw_line(w, "static int %s(const %s *src, atd_arena *a, %s *dst);",
                    wrap_helper_name(w, t, "copy"), t->name, t->name);
            any = true;
        }
        if (equal_fn(w, &t->elem) != NULL) {
            cw_line(w, "static bool %s(const %s *a, const %s *b);", wrap_helper_name(w, t, "equal"),
                    t->name, t->name);
            any = true;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const ir_type *t = types[i];
        if (t->kind != IR_WRAP)
            continue;
        const char *copy = copy_fn(w, &t->elem), *equal = equal_fn(w, &t->elem);
        if (copy != NULL)
            cw_line(w, "ATD_DEFINE_WRAP_COPY(%s, %s, %s, %s, %s, %s)",
                    wrap_helper_name(w, t, "copy"), t->name, t->elem.type->name, t->unwrap_fn,
                    t->wrap_fn, copy);
        if (equal != NULL)
            cw_line(w, "ATD_DEFINE_WRAP_EQUAL(%s, %s, %s, %s, %s)", wrap_helper_name(w, t, "equal"),
                    t->name, t->elem.type->name, t->unwrap_fn, equal);
    }
    if (any)
        cw_blank(w);
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
    emit_helpers(w, m, used);
    for (size_t i = 0; i < m->ntypes; i++)
        if (used[i])
            emit_type_value_ops(w, m->types[i]);
    for (size_t i = 0; i < m->ndefs; i++)
        if (m->defs[i].is_typedef)
            emit_def_value_ops(w, &m->defs[i]);
}
