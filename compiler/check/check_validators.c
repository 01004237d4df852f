/* Validators of annotated type expressions (check_validators.h). */
#include "check_validators.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check_annot.h"

/* diag_error, or nothing when diag is NULL (a node already reported). */
static void report(diag_ctx *diag, ast_loc loc, const char *f, ...) ATD_PRINTF(3, 4);
static void report(diag_ctx *diag, ast_loc loc, const char *f, ...)
{
    if (diag == NULL)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    diag_error(diag, loc, "%s", buf);
}

static char *check_strdup(atd_arena *arena, const char *s, bool *oom)
{
    char *r = atd_arena_strdup(arena, s, strlen(s));
    if (r == NULL)
        *oom = true;
    return r;
}

/* A decimal integer: optional '-', digits, no leading zero but "0". */
static bool parse_int64(const char *s, int64_t *out)
{
    size_t i = s[0] == '-' ? 1 : 0;
    if (s[i] == 0 || (s[i] == '0' && s[i + 1] != 0))
        return false;
    for (size_t k = i; s[k]; k++)
        if (s[k] < '0' || s[k] > '9')
            return false;
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    if (errno == ERANGE || (i == 1 && strcmp(s, "-0") == 0))
        return false;
    *out = (int64_t)v;
    return true;
}

/* A JSON number, finite as a double. */
static bool parse_number(const char *s, double *out)
{
    size_t i = s[0] == '-' ? 1 : 0;
    if (s[i] == '0')
        i++;
    else if (s[i] >= '1' && s[i] <= '9')
        while (s[i] >= '0' && s[i] <= '9')
            i++;
    else
        return false;
    if (s[i] == '.') {
        i++;
        if (s[i] < '0' || s[i] > '9')
            return false;
        while (s[i] >= '0' && s[i] <= '9')
            i++;
    }
    if (s[i] == 'e' || s[i] == 'E') {
        i++;
        if (s[i] == '+' || s[i] == '-')
            i++;
        if (s[i] < '0' || s[i] > '9')
            return false;
        while (s[i] >= '0' && s[i] <= '9')
            i++;
    }
    if (s[i] != 0)
        return false;
    errno = 0;
    double d = strtod(s, NULL);
    if (errno == ERANGE && (d > 1.0 || d < -1.0))
        return false;
    *out = d;
    return true;
}

typedef struct bound {
    const ast_annot_field *f;
    const char *c_const; /* the C constant */
    double num;          /* for min <= max */
} bound;

static const char *kind_name(const ir_type *t)
{
    switch (t->kind) {
    case IR_UNIT:
        return "unit";
    case IR_BOOL:
        return "bool";
    case IR_INT:
        return "int";
    case IR_FLOAT:
        return "float";
    case IR_STRING:
        return "string";
    case IR_ABSTRACT:
        return "abstract";
    case IR_WRAP:
        return "wrap";
    case IR_RECORD:
        return "record";
    case IR_ENUM:
    case IR_SUM:
        return "sum";
    case IR_TUPLE:
        return "tuple";
    case IR_LIST:
    case IR_ASSOC:
        return "list";
    case IR_OPTION:
        return "option";
    case IR_NULLABLE:
        return "nullable";
    }
    return "value";
}

/* Reads the bound `name` of `a` into *b; false after an error. */
static bool read_bound(diag_ctx *diag, atd_arena *arena, const ast_annots *a, const char *name,
                       const ir_type *t, bound *b, bool *oom)
{
    b->f = check_annot_find(a, "c", name);
    b->c_const = NULL;
    if (b->f == NULL || b->f->value == NULL)
        return true;
    const char *v = b->f->value;
    bool len = strncmp(name, "min_len", 7) == 0 || strncmp(name, "max_len", 7) == 0;
    if (len ? t->kind != IR_STRING : t->kind != IR_INT && t->kind != IR_FLOAT) {
        report(diag, b->f->loc, "'<c %s>' applies to %s values, not to this %s", name,
               len ? "string" : "int and float", kind_name(t));
        return false;
    }
    char buf[64];
    if (len || t->kind == IR_INT) {
        int64_t n;
        if (strlen(v) != b->f->value_len || !parse_int64(v, &n) || (len && n < 0)) {
            report(diag, b->f->value_loc, "invalid value \"%s\" for '<c %s>': expected %s", v, name,
                   len ? "a number of bytes (a non-negative decimal integer)"
                       : "a decimal integer between -9223372036854775808 and "
                         "9223372036854775807");
            return false;
        }
        b->num = (double)n;
        if (n == INT64_MIN)
            snprintf(buf, sizeof buf, "INT64_MIN");
        else
            snprintf(buf, sizeof buf, "INT64_C(%lld)", (long long)n);
        b->c_const = check_strdup(arena, len ? v : buf, oom);
        return b->c_const != NULL;
    }
    double d;
    if (strlen(v) != b->f->value_len || !parse_number(v, &d)) {
        report(diag, b->f->value_loc,
               "invalid value \"%s\" for '<c %s>': expected a finite JSON number", v, name);
        return false;
    }
    b->num = d;
    b->c_const = check_strdup(arena, v, oom);
    return b->c_const != NULL;
}

/* What the bounds accept, for messages: "an int >= 0 and <= 65535". */
static const char *expected_text(atd_arena *arena, const ir_type *t, const bound *lo,
                                 const bound *hi, bool *oom)
{
    char buf[256];
    const char *lv = lo->f != NULL ? lo->f->value : NULL, *hv = hi->f != NULL ? hi->f->value : NULL;
    if (t->kind == IR_STRING) {
        if (lv != NULL && hv != NULL)
            snprintf(buf, sizeof buf, "a string of %s to %s bytes", lv, hv);
        else if (lv != NULL)
            snprintf(buf, sizeof buf, "a string of at least %s bytes", lv);
        else
            snprintf(buf, sizeof buf, "a string of at most %s bytes", hv);
    } else {
        const char *what = t->kind == IR_INT ? "an int" : "a float";
        if (lv != NULL && hv != NULL)
            snprintf(buf, sizeof buf, "%s >= %s and <= %s", what, lv, hv);
        else if (lv != NULL)
            snprintf(buf, sizeof buf, "%s >= %s", what, lv);
        else
            snprintf(buf, sizeof buf, "%s <= %s", what, hv);
    }
    return check_strdup(arena, buf, oom);
}

const ir_check *check_validators_node(diag_ctx *diag, atd_arena *arena, const ast_annots *a,
                                      const ir_type *t, const ir_check *next,
                                      bool with_validator, bool *failed, bool *oom)
{
    const ast_annot_field *vf = with_validator ? check_annot_find(a, "c", "validator") : NULL;
    bound lo, hi, llo, lhi;
    bool ok = read_bound(diag, arena, a, "min", t, &lo, oom);
    ok = read_bound(diag, arena, a, "max", t, &hi, oom) && ok;
    ok = read_bound(diag, arena, a, "min_len", t, &llo, oom) && ok;
    ok = read_bound(diag, arena, a, "max_len", t, &lhi, oom) && ok;
    if (!ok) {
        *failed = true;
        return next;
    }
    if (lo.c_const != NULL && hi.c_const != NULL && hi.num < lo.num) {
        report(diag, hi.f->value_loc, "'<c max>' (%s) is less than '<c min>' (%s)", hi.f->value,
               lo.f->value);
        *failed = true;
        return next;
    }
    if (llo.c_const != NULL && lhi.c_const != NULL && lhi.num < llo.num) {
        report(diag, lhi.f->value_loc, "'<c max_len>' (%s) is less than '<c min_len>' (%s)",
               lhi.f->value, llo.f->value);
        *failed = true;
        return next;
    }
    bool bounds = lo.c_const != NULL || hi.c_const != NULL;
    bool lens = llo.c_const != NULL || lhi.c_const != NULL;
    if ((vf == NULL || vf->value == NULL) && !bounds && !lens)
        return next;
    ir_check *c = atd_arena_alloc(arena, sizeof *c, 8);
    if (c == NULL) {
        *oom = true;
        return next;
    }
    memset(c, 0, sizeof *c);
    c->validator = vf != NULL ? vf->value : NULL;
    c->min = lo.c_const;
    c->max = hi.c_const;
    /* a bound that the C type guarantees is not tested (and the C compiler
     * would warn that the comparison is always false) */
    if (t->kind == IR_INT) {
        static const double mins[] = {-9223372036854775808.0, -128, -32768, -2147483648.0, 0, 0, 0};
        static const double maxs[] = {9223372036854775807.0, 127, 32767, 2147483647.0, 255, 65535,
                                      4294967295.0};
        if (lo.c_const != NULL && lo.num <= mins[t->int_repr])
            c->min = NULL;
        if (hi.c_const != NULL && hi.num >= maxs[t->int_repr])
            c->max = NULL;
    }
    c->min_len = llo.c_const;
    c->max_len = lhi.c_const;
    if (bounds)
        c->expected = expected_text(arena, t, &lo, &hi, oom);
    else if (lens)
        c->expected = expected_text(arena, t, &llo, &lhi, oom);
    c->next = next;
    return c;
}

const char *check_validators_key(atd_arena *arena, const ir_check *c, bool *oom)
{
    size_t n = 1;
    for (const ir_check *k = c; k != NULL; k = k->next)
        n += 16 + (k->validator ? strlen(k->validator) : 0) + (k->min ? strlen(k->min) : 0) +
             (k->max ? strlen(k->max) : 0) + (k->min_len ? strlen(k->min_len) : 0) +
             (k->max_len ? strlen(k->max_len) : 0);
    char *s = atd_arena_alloc(arena, n, 1);
    if (s == NULL) {
        *oom = true;
        return "";
    }
    size_t m = 0;
    s[0] = 0;
    for (const ir_check *k = c; k != NULL; k = k->next)
        m += (size_t)snprintf(s + m, n - m, "{%s,%s,%s,%s,%s}", k->validator ? k->validator : "",
                              k->min ? k->min : "", k->max ? k->max : "",
                              k->min_len ? k->min_len : "", k->max_len ? k->max_len : "");
    return s;
}
