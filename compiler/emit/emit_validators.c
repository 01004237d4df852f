/* The checks of a value (ir_check: <c validator>, <c min max>, <c min_len
 * max_len>) in generated readers and writers, and the prototypes of the
 * user's validators. Each check of a chain in turn, e.g. for an int with
 * <c min="1" max="65535" validator="valid_port">, once read into out->port:
 *     if ((int64_t)(out->port) < INT64_C(1) || (int64_t)(out->port) > INT64_C(65535)) {
 *         atd_reader_fail_check_int(r, at_v_, (int64_t)(out->port), "an int >= 1 and <= 65535");
 *         FAIL
 *     }
 *     {
 *         const char *why_ = NULL;
 *         if (!valid_port(&out->port, &why_)) {
 *             atd_reader_fail_validator(r, at_v_, "valid_port", why_);
 *             FAIL
 *         }
 *     }
 * Writers do the same under `(w->flags & ATD_WRITE_VALIDATE) != 0`, before
 * writing, with the atd_writer_fail_* functions (atd/validate.h). */
#include <string.h>

#include "emit.h"

/* The condition that the bounds of c reject `val` (an expression of type t),
 * and the function that reports it with its argument; false without bounds. */
static bool bounds_test(cw *w, const ir_check *c, const ir_type *t, const char *val,
                        const char **cond, const char **fn, const char **arg)
{
    const char *lo, *hi, *x;
    if (t->kind == IR_STRING && (c->min_len != NULL || c->max_len != NULL)) {
        x = cw_fmt(w, "(%s).len", val);
        lo = c->min_len != NULL ? cw_fmt(w, "%s < (size_t)%s", x, c->min_len) : NULL;
        hi = c->max_len != NULL ? cw_fmt(w, "%s > (size_t)%s", x, c->max_len) : NULL;
        *fn = "len";
    } else if ((t->kind == IR_INT || t->kind == IR_FLOAT) && (c->min != NULL || c->max != NULL)) {
        x = cw_fmt(w, "(%s)(%s)", t->kind == IR_INT ? "int64_t" : "double", val);
        lo = c->min != NULL ? cw_fmt(w, "%s < %s", x, c->min) : NULL;
        hi = c->max != NULL ? cw_fmt(w, "%s > %s", x, c->max) : NULL;
        *fn = t->kind == IR_INT ? "int" : "float";
    } else {
        return false;
    }
    *arg = x;
    *cond = lo != NULL && hi != NULL ? cw_fmt(w, "%s || %s", lo, hi) : lo != NULL ? lo : hi;
    return true;
}

/* The checks, `lv` being the value (a pointer to it when ptr); `at` the
 * reader's offset of the value, or NULL in a writer. */
static void emit_checks(cw *w, const ir_check *c, const ir_type *t, bool ptr, const char *lv,
                        const char *at, const char *fail)
{
    const char *val = ptr ? cw_fmt(w, "(*%s)", lv) : lv;
    const char *addr = ptr ? lv : cw_fmt(w, "&%s", lv);
    for (; c != NULL; c = c->next) {
        const char *cond, *fn, *arg;
        if (bounds_test(w, c, t, val, &cond, &fn, &arg)) {
            const char *msg = cw_c_string(w, c->expected, strlen(c->expected));
            cw_open(w, "if (%s)", cond);
            if (at != NULL)
                cw_line(w, "atd_reader_fail_check_%s(r, %s, %s, \"%s\");", fn, at, arg, msg);
            else
                cw_line(w, "atd_writer_fail_check_%s(w, %s, \"%s\");", fn, arg, msg);
            cw_line(w, "%s", fail);
            cw_close(w, "}");
        }
        if (c->validator == NULL)
            continue;
        cw_open(w, "{");
        cw_line(w, "const char *why_ = NULL;");
        cw_open(w, "if (!%s(%s, &why_))", c->validator, addr);
        if (at != NULL)
            cw_line(w, "atd_reader_fail_validator(r, %s, \"%s\", why_);", at, c->validator);
        else
            cw_line(w, "atd_writer_fail_validator(w, \"%s\", why_);", c->validator);
        cw_line(w, "%s", fail);
        cw_close(w, "}");
        cw_close(w, "}");
    }
}

void emit_validators_read(cw *w, const ir_check *c, const ir_type *t, bool ptr, const char *lv,
                          const char *at, const char *fail)
{
    emit_checks(w, c, t, ptr, lv, at, fail);
}

void emit_validators_write(cw *w, const ir_check *c, const ir_type *t, bool ptr, const char *rv,
                           const char *fail)
{
    if (c == NULL)
        return;
    cw_open(w, "if (atd_writer_has_flag(w, ATD_WRITE_VALIDATE))");
    emit_checks(w, c, t, ptr, rv, NULL, fail);
    cw_close(w, "}");
}

/* --- the validators' prototypes --- */

typedef struct seen_names {
    const char **items;
    size_t len, cap;
    bool any;
} seen_names;

/* Declares `bool fn(const T *v, const char **why);` once per name. */
static void declare(cw *w, seen_names *s, const char *fn, const char *type_name)
{
    for (size_t i = 0; i < s->len; i++)
        if (strcmp(s->items[i], fn) == 0)
            return;
    if (s->len == s->cap) {
        size_t ncap = s->cap != 0 ? 2 * s->cap : 16;
        const char **n = cw_alloc(w, ncap * sizeof *n);
        if (n == NULL)
            return; /* recorded in w's status */
        if (s->len > 0)
            memcpy(n, s->items, s->len * sizeof *n);
        s->items = n;
        s->cap = ncap;
    }
    s->items[s->len++] = fn;
    if (!s->any)
        cw_comment(w, "<c validator>s: written by the user (atd/validate.h)");
    s->any = true;
    cw_line(w, "bool %s(const %s *v, const char **why);", fn, type_name);
}

static void declare_slot(cw *w, seen_names *s, const ir_slot *slot)
{
    for (const ir_check *c = slot->check; c != NULL; c = c->next)
        if (c->validator != NULL)
            declare(w, s, c->validator, slot->type->name);
    /* a wrap is a scalar: its wire value's checks are found through its slots */
    if (slot->type->kind == IR_WRAP)
        declare_slot(w, s, &slot->type->elem);
}

void emit_validators_declarations(cw *w, const ir_module *m)
{
    seen_names s = {NULL, 0, 0, false};
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (t->imported)
            continue;
        if (t->kind == IR_RECORD)
            for (size_t k = 0; k < t->nfields; k++)
                declare_slot(w, &s, &t->fields[k].slot);
        if (t->kind == IR_SUM)
            for (size_t k = 0; k < t->ncases; k++)
                if (t->cases[k].arg.type != NULL)
                    declare_slot(w, &s, &t->cases[k].arg);
        if (t->kind == IR_TUPLE)
            for (size_t k = 0; k < t->ncells; k++)
                declare_slot(w, &s, &t->cells[k].slot);
        if (t->kind == IR_LIST || t->kind == IR_ASSOC || t->kind == IR_OPTION ||
            t->kind == IR_NULLABLE)
            declare_slot(w, &s, &t->elem);
        if (t->validator != NULL)
            declare(w, &s, t->validator, t->name);
    }
    for (size_t i = 0; i < m->ndefs; i++) {
        ir_slot d = {m->defs[i].type, false, m->defs[i].check, false, false, {0}};
        declare_slot(w, &s, &d);
    }
    if (s.any)
        cw_blank(w);
}
