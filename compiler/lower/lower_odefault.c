/* <ocaml default> values in C (lower_odefault.h). */
#include "lower_odefault.h"
#include "util/alloc.h"
#include "util/names.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct odefault_ctx {
    atd_arena *a;
    lower_odefault_result result;
    const char *range_type;
    int64_t range_value;
} odefault_ctx;

static const char *od_fmt(odefault_ctx *c, const char *f, ...) ATD_PRINTF(2, 3);
static const char *od_fmt(odefault_ctx *c, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *s = util_arena_vprintf(c->a, f, ap);
    va_end(ap);
    if (s == NULL)
        c->result = LOWER_ODEFAULT_OOM;
    return s;
}

/* Gives up on the value: nothing in C holds it. */
static const char *od_none(odefault_ctx *c)
{
    if (c->result == LOWER_ODEFAULT_OK)
        c->result = LOWER_ODEFAULT_UNTRANSLATABLE;
    return NULL;
}

/* A C double constant that reads back as exactly f: the shortest of %.15g,
 * %.16g, %.17g that round-trips, with ".0" added when it would read as an
 * integer ("1000" -> "1000.0"). */
static const char *od_double(odefault_ctx *c, double f)
{
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, f);
        if (strtod(buf, NULL) == f)
            break;
    }
    /* n: nan/inf cannot occur (the parser takes finite floats only) */
    return od_fmt(c, strpbrk(buf, ".eEn") == NULL ? "%s.0" : "%s", buf);
}

static const char *od_int(odefault_ctx *c, const ir_type *t, int64_t v)
{
    int64_t lo, hi;
    ir_int_range(t->int_repr, &lo, &hi);
    if (v < lo || v > hi) {
        c->result = LOWER_ODEFAULT_RANGE;
        c->range_type = t->name;
        c->range_value = v;
        return NULL;
    }
    /* -9223372036854775808 is not a C constant: it is -(2^63) */
    return v == INT64_MIN ? "INT64_MIN" : od_fmt(c, "%" PRId64, v);
}

/* The zero of t inside an initializer. */
static const char *od_zero(const ir_type *t)
{
    switch (t->kind) {
    case IR_UNIT:
    case IR_BOOL:
    case IR_INT:
    case IR_FLOAT:
    case IR_ENUM:
        return "0";
    default:
        return "{0}";
    }
}

static const char *od_init(odefault_ctx *c, const ir_type *t, const check_default_value *v);

/* The initializer of a slot: a value held by pointer has no constant. */
static const char *od_slot(odefault_ctx *c, const ir_slot *s, const check_default_value *v)
{
    return s->ptr ? od_none(c) : od_init(c, s->type, v);
}

/* "a, b, c": the initializers of v's parts, each of the type of its slot. */
static const char *od_join(odefault_ctx *c, const char *acc, const char *item)
{
    if (acc == NULL || item == NULL)
        return NULL;
    return *acc == 0 ? item : od_fmt(c, "%s, %s", acc, item);
}

/* has-flag and value of a `?` field or an option: None or Some v */
static const char *od_option(odefault_ctx *c, const ir_slot *s, const check_default_value *v)
{
    if (v->kind == CHECK_DEFAULT_NONE)
        return s->ptr ? "false, NULL" : od_fmt(c, "false, %s", od_zero(s->type));
    if (v->kind != CHECK_DEFAULT_SOME)
        return od_none(c);
    const char *arg = od_slot(c, s, v->args);
    return arg == NULL ? NULL : od_fmt(c, "true, %s", arg);
}

static const char *od_record(odefault_ctx *c, const ir_type *t, const check_default_value *v)
{
    if (t->imported || v->n != t->nfields)
        return od_none(c);
    const char *acc = "";
    for (size_t i = 0; i < t->nfields && acc != NULL; i++) {
        const ir_field *f = &t->fields[i];
        size_t k = 0;
        while (k < v->n && strcmp(v->labels[k], f->atd_name) != 0)
            k++;
        if (k == v->n)
            return od_none(c);
        const char *item = f->kind == IR_FIELD_OPTIONAL ? od_option(c, &f->slot, &v->args[k])
                                                        : od_slot(c, &f->slot, &v->args[k]);
        acc = od_join(c, acc, item);
    }
    return acc == NULL ? NULL : od_fmt(c, "{%s}", acc);
}

/* The constructor of enum or sum t that v names, with the argument v has
 * (or none), or NULL. */
static const ir_case *od_case(const ir_type *t, const check_default_value *v)
{
    if ((t->kind != IR_ENUM && t->kind != IR_SUM) || t->imported)
        return NULL;
    for (size_t i = 0; i < t->ncases; i++) {
        const ir_case *k = &t->cases[i];
        if (strcmp(k->atd_name, v->name) == 0 && !k->catch_all)
            return (k->arg.type == NULL) == (v->n == 0) ? k : NULL;
    }
    return NULL;
}

static const char *od_constructor(odefault_ctx *c, const ir_type *t, const check_default_value *v)
{
    const ir_case *k = od_case(t, v);
    if (k == NULL)
        return od_none(c);
    if (t->kind == IR_ENUM)
        return k->const_name;
    if (k->arg.type == NULL)
        return od_fmt(c, "{%s, {0}}", k->const_name);
    const char *arg = od_slot(c, &k->arg, v->args);
    return arg == NULL ? NULL : od_fmt(c, "{%s, {.%s = %s}}", k->const_name, k->member, arg);
}

static const char *od_init(odefault_ctx *c, const ir_type *t, const check_default_value *v)
{
    switch (v->kind) {
    case CHECK_DEFAULT_UNIT:
        return t->kind == IR_UNIT ? "0" : od_none(c);
    case CHECK_DEFAULT_BOOL:
        return t->kind == IR_BOOL ? (v->b ? "true" : "false") : od_none(c);
    case CHECK_DEFAULT_INT:
        return t->kind == IR_INT     ? od_int(c, t, v->i)
               : t->kind == IR_FLOAT ? od_double(c, (double)v->i)
                                     : od_none(c);
    case CHECK_DEFAULT_FLOAT:
        return t->kind == IR_FLOAT ? od_double(c, v->f) : od_none(c);
    case CHECK_DEFAULT_STRING: {
        if (t->kind != IR_STRING)
            return od_none(c);
        char *lit = v->len < SIZE_MAX / 4 ? atd_arena_alloc(c->a, 4 * v->len + 1, 1) : NULL;
        if (lit == NULL) {
            c->result = LOWER_ODEFAULT_OOM;
            return NULL;
        }
        names_c_string(lit, v->s, v->len);
        return od_fmt(c, "{\"%s\", %zu}", lit, v->len);
    }
    case CHECK_DEFAULT_EMPTY_LIST:
        return t->kind == IR_LIST || t->kind == IR_ASSOC ? "{NULL, 0}" : od_none(c);
    case CHECK_DEFAULT_LIST: {
        if (t->kind != IR_LIST || t->elem.ptr)
            return od_none(c);
        const char *acc = "";
        for (size_t i = 0; i < v->n && acc != NULL; i++)
            acc = od_join(c, acc, od_init(c, t->elem.type, &v->args[i]));
        return acc == NULL ? NULL : od_fmt(c, "{(%s[]){%s}, %zu}", t->elem.type->name, acc, v->n);
    }
    case CHECK_DEFAULT_TUPLE: {
        if (t->kind != IR_TUPLE || t->ncells != v->n)
            return od_none(c);
        const char *acc = "";
        for (size_t i = 0; i < v->n && acc != NULL; i++)
            acc = od_join(c, acc, od_slot(c, &t->cells[i].slot, &v->args[i]));
        return acc == NULL ? NULL : od_fmt(c, "{%s}", acc);
    }
    case CHECK_DEFAULT_RECORD:
        return t->kind == IR_RECORD ? od_record(c, t, v) : od_none(c);
    case CHECK_DEFAULT_NONE:
    case CHECK_DEFAULT_SOME:
        if (t->kind == IR_OPTION || t->kind == IR_NULLABLE) {
            const char *o = od_option(c, &t->elem, v);
            return o == NULL ? NULL : od_fmt(c, "{%s}", o);
        }
        return od_constructor(c, t, v); /* a sum's own None or Some */
    case CHECK_DEFAULT_CONSTRUCTOR:
        return od_constructor(c, t, v);
    case CHECK_DEFAULT_INVALID:
        break;
    }
    return od_none(c);
}

lower_odefault_result lower_ocaml_default(atd_arena *a, const check_default_value *v,
                                          const ir_type *t, ir_default *d, const char **range_type,
                                          int64_t *range_value)
{
    memset(d, 0, sizeof *d);
    odefault_ctx c = {a, LOWER_ODEFAULT_OK, NULL, 0};
    bool zero =
        (v->kind == CHECK_DEFAULT_EMPTY_LIST && (t->kind == IR_LIST || t->kind == IR_ASSOC)) ||
        (v->kind == CHECK_DEFAULT_NONE && (t->kind == IR_OPTION || t->kind == IR_NULLABLE)) ||
        (v->kind == CHECK_DEFAULT_UNIT && t->kind == IR_UNIT);
    if (!zero) {
        const char *init = od_init(&c, t, v);
        if (init == NULL) {
            *range_type = c.range_type;
            *range_value = c.range_value;
            return c.result == LOWER_ODEFAULT_OK ? LOWER_ODEFAULT_UNTRANSLATABLE : c.result;
        }
        /* what the writer compares stays a constant: scalars, enum
         * constants, sum tags and strings; the rest is an object */
        if (t->kind == IR_STRING) {
            d->kind = IR_DEFAULT_STRING;
            d->bytes = v->s;
            d->len = v->len;
        } else if (t->kind == IR_SUM && v->n == 0) {
            d->kind = IR_DEFAULT_EXPR; /* the tag */
            d->c_expr = od_case(t, v)->const_name;
        } else {
            d->kind =
                t->kind == IR_BOOL || t->kind == IR_INT || t->kind == IR_FLOAT || t->kind == IR_ENUM
                    ? IR_DEFAULT_EXPR
                    : IR_DEFAULT_OPAQUE;
            d->c_expr = init;
        }
    }
    return LOWER_ODEFAULT_OK;
}
