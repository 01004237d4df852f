/* The JSON Schema export (jsonschema.h). It reads the IR, where JSON names,
 * field kinds, defaults, adapters, reprs and checks are already decided,
 * so the schema describes exactly what the generated readers accept. The
 * schema is written compact, then laid out by the runtime's reformatter.
 *
 * Records and sums become "$defs" entries, referenced by "$ref", in the
 * order they are first met; every other type is written inline (lists,
 * options and the like cannot be recursive without going through a record
 * or a sum). anyOf, never oneOf: a catch-all string of an open enum
 * overlaps the constructors' names, and a Type_field constructor is read in
 * two forms. */
#include "jsonschema.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atd/flags.h"
#include "atd/pretty.h"
#include "atd/writer.h"
#include "util/alloc.h"

#define JS_DRAFT "https://json-schema.org/draft/2020-12/schema"

typedef struct js_side {
    const load_schema *s;
    const ir_type *t;
} js_side;

typedef struct js_named {
    js_side x;
    const char *name; /* its "$defs" key */
    const char *doc;  /* its definition's <doc>, or NULL */
} js_named;

typedef struct js_ctx {
    atd_buf *b;
    atd_arena *arena;
    const load_schema *root;
    js_named *named; /* arena array, grown by copying */
    size_t nnamed, cap;
    bool oom;
} js_ctx;

static void js_puts(js_ctx *C, const char *s)
{
    atd_buf_puts(C->b, s);
}

static void js_string(js_ctx *C, const char *s, size_t len)
{
    atd_buf_write_string(C->b, s, len, ATD_WRITE_ALLOW_INVALID_UTF8);
}

static void js_cstring(js_ctx *C, const char *s)
{
    js_string(C, s, strlen(s));
}

/* Closes an object whose last key may have left a ',' (a description
 * before no other key: abstract, a wrap of nothing known). */
static void js_close(js_ctx *C)
{
    if (C->b->len > 0 && C->b->data[C->b->len - 1] == ',')
        C->b->len--;
    js_puts(C, "}");
}

static void js_int(js_ctx *C, int64_t v)
{
    atd_buf_write_int64(C->b, v);
}

/* ---- Names -------------------------------------------------------------- */

/* The type whose JSON is read (load_ir_wire). */
static js_side js_resolve(js_side x, const ir_def **def)
{
    x.t = load_ir_wire(&x.s, x.t, def);
    return x;
}

/* The definition that introduced t (not an alias of it), or NULL. */
static const ir_def *js_owner_def(js_side x)
{
    for (size_t i = 0; i < x.s->ir->ndefs; i++)
        if (x.s->ir->defs[i].type == x.t && !x.s->ir->defs[i].is_typedef)
            return &x.s->ir->defs[i];
    return NULL;
}

static bool js_name_taken(const js_ctx *C, const char *name)
{
    for (size_t i = 0; i < C->nnamed; i++)
        if (strcmp(C->named[i].name, name) == 0)
            return true;
    return false;
}

/* The "$defs" key of a record or sum, registered on first use. */
static const char *js_ref_name(js_ctx *C, js_side x)
{
    for (size_t i = 0; i < C->nnamed; i++)
        if (C->named[i].x.t == x.t)
            return C->named[i].name;
    if (C->nnamed == C->cap) {
        size_t ncap = C->cap == 0 ? 16 : 2 * C->cap;
        js_named *p = atd_arena_alloc(C->arena, ncap * sizeof *p, _Alignof(js_named));
        if (p == NULL) {
            C->oom = true;
            return "";
        }
        if (C->nnamed > 0)
            memcpy(p, C->named, C->nnamed * sizeof *p);
        C->named = p;
        C->cap = ncap;
    }
    const ir_def *d = js_owner_def(x);
    const char *base = d != NULL ? d->atd_name : x.t->short_name;
    const char *mod = x.s != C->root ? x.s->ir->base : NULL;
    size_t n = strlen(base) + (mod != NULL ? strlen(mod) + 1 : 0) + 24;
    char *name = atd_arena_alloc(C->arena, n, 1);
    if (name == NULL) {
        C->oom = true;
        return "";
    }
    snprintf(name, n, "%s%s%s", mod != NULL ? mod : "", mod != NULL ? "." : "", base);
    size_t len = strlen(name);
    for (int k = 2; js_name_taken(C, name); k++)
        snprintf(name + len, n - len, "_%d", k);
    C->named[C->nnamed++] = (js_named){x, name, d != NULL ? d->doc : NULL};
    return name;
}

/* ---- Values ------------------------------------------------------------- */

static void js_value(js_ctx *C, js_side x, const ir_check *check);

/* Parses "INT64_C(-5)", "INT64_MIN" (the forms of check_validators.c). */
static bool js_check_int(const char *c, int64_t *out)
{
    if (strcmp(c, "INT64_MIN") == 0) {
        *out = INT64_MIN;
        return true;
    }
    if (strncmp(c, "INT64_C(", 8) != 0)
        return false;
    errno = 0;
    char *end;
    long long v = strtoll(c + 8, &end, 10);
    if (errno != 0 || *end != ')')
        return false;
    *out = (int64_t)v;
    return true;
}

/* The readers also take an int as a decimal in a string, with an optional
 * sign (as atdgen's do), and a float as a string that holds exactly a JSON
 * number. The range of a quoted int is not expressed. */
#define JS_QUOTED_INT "{\"type\":\"string\",\"pattern\":\"^[-+]?[0-9]+$\"}"
#define JS_QUOTED_FLOAT                                                                            \
    "{\"type\":\"string\",\"pattern\":\"^-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][-+]?[0-9]+)?$\"}"

static void js_int_schema(js_ctx *C, const ir_type *t, const ir_check *check)
{
    int64_t lo, hi, v;
    ir_int_range(t->int_repr, &lo, &hi);
    for (const ir_check *k = check; k != NULL; k = k->next) {
        if (k->min != NULL && js_check_int(k->min, &v) && v > lo)
            lo = v;
        if (k->max != NULL && js_check_int(k->max, &v) && v < hi)
            hi = v;
    }
    js_puts(C, "\"anyOf\":[{\"type\":\"integer\",\"minimum\":");
    js_int(C, lo);
    js_puts(C, ",\"maximum\":");
    js_int(C, hi);
    js_puts(C, "}," JS_QUOTED_INT "]");
}

static void js_float_schema(js_ctx *C, const ir_check *check)
{
    /* The bounds are JSON numbers as written (check_validators.c checked them). */
    const char *lo = NULL, *hi = NULL;
    for (const ir_check *k = check; k != NULL; k = k->next) {
        if (k->min != NULL && (lo == NULL || strtod(k->min, NULL) > strtod(lo, NULL)))
            lo = k->min;
        if (k->max != NULL && (hi == NULL || strtod(k->max, NULL) < strtod(hi, NULL)))
            hi = k->max;
    }
    js_puts(C, "\"anyOf\":[{\"type\":\"number\"");
    if (lo != NULL) {
        js_puts(C, ",\"minimum\":");
        js_puts(C, lo);
    }
    if (hi != NULL) {
        js_puts(C, ",\"maximum\":");
        js_puts(C, hi);
    }
    js_puts(C, "}," JS_QUOTED_FLOAT "]");
}

static void js_string_schema(js_ctx *C, const ir_check *check)
{
    /* <c max_len> counts bytes, and a string has at most as many code
     * points as bytes: maxLength in code points is implied, never too
     * strict. <c min_len> has no such translation. */
    unsigned long long max = 0;
    bool has_max = false;
    for (const ir_check *k = check; k != NULL; k = k->next) {
        if (k->max_len != NULL) {
            unsigned long long v = strtoull(k->max_len, NULL, 10);
            if (!has_max || v < max)
                max = v;
            has_max = true;
        }
    }
    js_puts(C, "\"type\":\"string\"");
    if (has_max) {
        char num[32];
        snprintf(num, sizeof num, ",\"maxLength\":%llu", max);
        js_puts(C, num);
    }
}

/* ["C", v] for constructor json name s (and for "Some"). */
static void js_tagged_array(js_ctx *C, const char *s, size_t len, js_side arg, const ir_check *check)
{
    js_puts(C, "{\"type\":\"array\",\"prefixItems\":[{\"const\":");
    js_string(C, s, len);
    js_puts(C, "},");
    js_value(C, arg, check);
    js_puts(C, "],\"minItems\":2,\"maxItems\":2}");
}

/* The keys of the schema of x (without braces). */
static void js_keys(js_ctx *C, js_side x, const ir_check *check)
{
    const ir_type *t = x.t;
    switch (t->kind) {
    case IR_UNIT:
        js_puts(C, "\"type\":\"null\"");
        break;
    case IR_BOOL:
        js_puts(C, "\"type\":\"boolean\"");
        break;
    case IR_INT:
        js_int_schema(C, t, check);
        break;
    case IR_FLOAT:
        js_float_schema(C, check);
        break;
    case IR_STRING:
        js_string_schema(C, check);
        break;
    case IR_ABSTRACT:
    case IR_WRAP: /* a wrap of an imported type its schema does not define */
        break;
    case IR_RECORD:
    case IR_ENUM:
    case IR_SUM:
        js_puts(C, "\"$ref\":\"#/$defs/");
        js_puts(C, js_ref_name(C, x));
        js_puts(C, "\"");
        break;
    case IR_TUPLE:
        js_puts(C, "\"type\":\"array\",\"prefixItems\":[");
        for (size_t i = 0; i < t->ncells; i++) {
            if (i > 0)
                js_puts(C, ",");
            js_value(C, (js_side){x.s, t->cells[i].slot.type}, t->cells[i].slot.check);
        }
        /* The readers skip the elements after the last cell, as atdgen's. */
        js_puts(C, "],\"minItems\":");
        js_int(C, (int64_t)t->nmin_cells);
        break;
    case IR_LIST:
        js_puts(C, "\"type\":\"array\",\"items\":");
        js_value(C, (js_side){x.s, t->elem.type}, t->elem.check);
        break;
    case IR_ASSOC:
        js_puts(C, "\"type\":\"object\",\"additionalProperties\":");
        js_value(C, (js_side){x.s, t->elem.type}, t->elem.check);
        break;
    case IR_OPTION:
        js_puts(C, "\"anyOf\":[{\"const\":\"None\"},");
        js_tagged_array(C, "Some", 4, (js_side){x.s, t->elem.type}, t->elem.check);
        js_puts(C, "]");
        break;
    case IR_NULLABLE:
        js_puts(C, "\"anyOf\":[{\"type\":\"null\"},");
        js_value(C, (js_side){x.s, t->elem.type}, t->elem.check);
        js_puts(C, "]");
        break;
    }
}

/* The keys of x's schema, wraps and imports looked through. */
static void js_value_keys(js_ctx *C, js_side x, const ir_check *check)
{
    const ir_def *d;
    js_side r = js_resolve(x, &d);
    /* An imported alias of a scalar brings its own checks. */
    if (d != NULL && check == NULL)
        check = d->check;
    js_keys(C, r, check);
}

static void js_value(js_ctx *C, js_side x, const ir_check *check)
{
    js_puts(C, "{");
    js_value_keys(C, x, check);
    js_puts(C, "}");
}

/* ---- Definitions -------------------------------------------------------- */

/* The default of a `~` field as JSON, when it is a JSON value; NULL for a
 * C expression (a <c default> constant or initializer). */
static bool js_default(js_ctx *C, const ir_type *t, const ir_default *d)
{
    switch (d->kind) {
    case IR_DEFAULT_ZERO:
        switch (t->kind) {
        case IR_UNIT:
        case IR_NULLABLE:
            js_puts(C, "null");
            return true;
        case IR_BOOL:
            js_puts(C, "false");
            return true;
        case IR_INT:
            js_puts(C, t->int_as_string ? "\"0\"" : "0");
            return true;
        case IR_FLOAT:
            js_puts(C, "0.0");
            return true;
        case IR_STRING:
            js_puts(C, "\"\"");
            return true;
        case IR_LIST:
            js_puts(C, "[]");
            return true;
        case IR_ASSOC:
            js_puts(C, "{}");
            return true;
        case IR_OPTION:
            js_puts(C, "\"None\"");
            return true;
        default:
            return false;
        }
    case IR_DEFAULT_STRING:
        js_string(C, d->bytes, d->len);
        return true;
    case IR_DEFAULT_EXPR:
        if (t->kind == IR_ENUM || t->kind == IR_SUM) {
            for (size_t i = 0; i < t->ncases; i++)
                if (strcmp(t->cases[i].const_name, d->c_expr) == 0) {
                    js_string(C, t->cases[i].json_name, t->cases[i].json_len);
                    return true;
                }
            return false;
        }
        if (t->kind == IR_BOOL && (strcmp(d->c_expr, "true") == 0 || strcmp(d->c_expr, "false") == 0)) {
            js_puts(C, d->c_expr);
            return true;
        }
        if ((t->kind == IR_INT && !t->int_as_string) || t->kind == IR_FLOAT) {
            /* A number literal as lower.c prints it: digits, sign, '.', exponent. */
            const char *e = d->c_expr;
            if (strcmp(e, "INT64_MIN") == 0) {
                js_int(C, INT64_MIN);
                return true;
            }
            char *end;
            errno = 0;
            double v = strtod(e, &end);
            if (*e == '\0' || *end != '\0' || errno != 0 || !isfinite(v) || strpbrk(e, "xXpP") != NULL ||
                e[0] == '+' || e[0] == '.')
                return false;
            js_puts(C, e);
            return true;
        }
        return false;
    case IR_DEFAULT_OPAQUE:
        return false;
    }
    return false;
}

static void js_description(js_ctx *C, const char *doc)
{
    if (doc == NULL)
        return;
    js_puts(C, "\"description\":");
    js_cstring(C, doc);
    js_puts(C, ",");
}

/* Whether tag `j` is one of the known tags of a Type_and_value_fields record. */
static bool js_tv_known(const ir_tv *tv, const char *j, size_t len)
{
    for (size_t i = 0; i < tv->nknown; i++)
        if (tv->known_lens[i] == len && memcmp(tv->known[i], j, len) == 0)
            return true;
    return false;
}

/* The alternatives of a Type_and_value_fields record, one per tag: the
 * type field names the constructor, the value field holds its argument
 * and is absent for a nullary one; with known tags, any other tag is the
 * catch-all's, with the value of the catch-all's pair. */
static void js_tv_cases(js_ctx *C, js_side x)
{
    const ir_tv *tv = x.t->tv;
    const ir_field *vf = &x.t->fields[tv->value];
    const ir_def *d;
    js_side sum = js_resolve((js_side){x.s, vf->slot.type}, &d);
    js_puts(C, ",\"anyOf\":[");
    bool first = true;
    for (size_t i = 0; i < sum.t->ncases; i++) {
        const ir_case *c = &sum.t->cases[i];
        bool catch_all = tv->has_known && (int)i == tv->catch_all;
        if (!catch_all && tv->has_known && !js_tv_known(tv, c->json_name, c->json_len))
            continue;
        js_puts(C, first ? "{\"properties\":{" : ",{\"properties\":{");
        first = false;
        js_string(C, tv->type_field, tv->type_field_len);
        if (catch_all) {
            js_puts(C, ":{\"type\":\"string\",\"not\":{\"enum\":[");
            for (size_t k = 0; k < tv->nknown; k++) {
                if (k > 0)
                    js_puts(C, ",");
                js_string(C, tv->known[k], tv->known_lens[k]);
            }
            js_puts(C, "]}}");
        } else {
            js_puts(C, ":{\"const\":");
            js_string(C, c->json_name, c->json_len);
            js_puts(C, "}");
        }
        js_side arg = {sum.s, c->arg.type};
        if (catch_all) { /* its argument is (tag * value): the value */
            arg = js_resolve(arg, &d);
            if (arg.t->kind == IR_TUPLE && arg.t->ncells > 1)
                arg.t = arg.t->cells[1].slot.type;
        }
        if (arg.t != NULL) {
            js_puts(C, ",");
            js_string(C, vf->json_name, vf->json_len);
            js_puts(C, ":");
            js_value(C, arg, c->arg.check);
        }
        js_puts(C, "},\"required\":[");
        js_string(C, tv->type_field, tv->type_field_len);
        if (arg.t != NULL) {
            js_puts(C, ",");
            js_string(C, vf->json_name, vf->json_len);
            js_puts(C, "]}");
        } else {
            js_puts(C, "],\"not\":{\"required\":[");
            js_string(C, vf->json_name, vf->json_len);
            js_puts(C, "]}}");
        }
    }
    js_puts(C, "]");
}

static void js_record(js_ctx *C, js_side x)
{
    const ir_type *t = x.t;
    const ir_tv *tv = t->tv;
    js_puts(C, "\"type\":\"object\",\"properties\":{");
    bool first = true;
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        if (tv != NULL && i == tv->value)
            continue; /* in the alternatives of js_tv_cases */
        if (!first)
            js_puts(C, ",");
        first = false;
        js_string(C, f->json_name, f->json_len);
        js_puts(C, ":{");
        js_description(C, f->doc);
        js_side v = {x.s, f->slot.type};
        if (f->kind == IR_FIELD_DEFAULT) {
            const ir_def *d;
            js_side r = js_resolve(v, &d);
            size_t mark = C->b->len;
            js_puts(C, "\"default\":");
            if (js_default(C, r.t, &f->dflt))
                js_puts(C, ",");
            else
                C->b->len = mark;
        }
        if (f->kind != IR_FIELD_REQUIRED && !t->keep_nulls) {
            /* null stands for an absent `?` or `~` field. */
            js_puts(C, "\"anyOf\":[{\"type\":\"null\"},");
            js_value(C, v, f->slot.check);
            js_puts(C, "]}");
        } else {
            js_value_keys(C, v, f->slot.check);
            js_close(C);
        }
    }
    js_puts(C, "},\"required\":[");
    first = true;
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        if (f->kind != IR_FIELD_REQUIRED || (tv != NULL && i == tv->value))
            continue;
        if (!first)
            js_puts(C, ",");
        first = false;
        js_string(C, f->json_name, f->json_len);
    }
    js_puts(C, "]");
    if (tv != NULL)
        js_tv_cases(C, x);
}

/* {"type": "object", "properties": {"C": v}, "required": ["C"], "additionalProperties": false} */
static void js_one_field(js_ctx *C, const ir_case *c, js_side arg)
{
    js_puts(C, "{\"type\":\"object\",\"properties\":{");
    js_string(C, c->json_name, c->json_len);
    js_puts(C, ":");
    js_value(C, arg, c->arg.check);
    js_puts(C, "},\"required\":[");
    js_string(C, c->json_name, c->json_len);
    js_puts(C, "],\"additionalProperties\":false}");
}

static void js_case(js_ctx *C, const ir_type *t, const ir_case *c, js_side arg)
{
    if (c->catch_all) {
        js_puts(C, "{\"type\":\"string\"}"); /* any other name */
        return;
    }
    if (arg.t == NULL) {
        js_puts(C, "{");
        js_description(C, c->doc);
        js_puts(C, "\"const\":");
        js_string(C, c->json_name, c->json_len);
        js_puts(C, "}");
        return;
    }
    if (t->json_object && t->adapter == IR_ADAPTER_NONE) {
        js_one_field(C, c, arg);
        return;
    }
    if (t->adapter == IR_ADAPTER_NONE) {
        js_tagged_array(C, c->json_name, c->json_len, arg, c->arg.check);
        return;
    }
    /* The adapters write their object form and read the standard one too. */
    js_puts(C, "{\"anyOf\":[");
    if (t->adapter == IR_ADAPTER_ONE_FIELD) {
        js_one_field(C, c, arg);
    } else {
        js_puts(C, "{\"allOf\":[");
        js_value(C, arg, c->arg.check);
        js_puts(C, ",{\"type\":\"object\",\"properties\":{");
        js_string(C, t->type_field, t->type_field_len);
        js_puts(C, ":{\"const\":");
        js_string(C, c->json_name, c->json_len);
        js_puts(C, "}},\"required\":[");
        js_string(C, t->type_field, t->type_field_len);
        js_puts(C, "]}]}");
    }
    js_puts(C, ",");
    js_tagged_array(C, c->json_name, c->json_len, arg, c->arg.check);
    js_puts(C, "]}");
}

static void js_sum(js_ctx *C, js_side x)
{
    js_puts(C, "\"anyOf\":[");
    for (size_t i = 0; i < x.t->ncases; i++) {
        const ir_case *c = &x.t->cases[i];
        if (i > 0)
            js_puts(C, ",");
        js_case(C, x.t, c, (js_side){x.s, c->arg.type});
    }
    js_puts(C, "]");
}

static void js_definition(js_ctx *C, const js_named *n)
{
    js_cstring(C, n->name);
    js_puts(C, ":{");
    js_description(C, n->doc);
    if (n->x.t->c_adapter != NULL)
        js_puts(C, "\"$comment\":\"read through a C adapter: any JSON\"");
    else if (n->x.t->kind == IR_RECORD)
        js_record(C, n->x);
    else
        js_sum(C, n->x);
    js_puts(C, "}");
}

bool jsonschema_write(atd_buf *b, atd_arena *arena, diag_ctx *d, const load_schema *s,
                      const char *root)
{
    const ir_def *def = load_ir_def(s, root);
    if (def == NULL) {
        bool generic = false;
        for (size_t i = 0; i < s->ast->ndefs; i++)
            if (strcmp(s->ast->defs[i].name, root) == 0)
                generic = true;
        if (generic)
            diag_error(d, DIAG_NO_LOC,
                       "--json-schema: type '%s' has parameters: define an instance of it "
                       "(type t = int %s) and give that",
                       root, root);
        else
            diag_error(d, DIAG_NO_LOC, "--json-schema: no type '%s' in '%s'", root, s->path);
        return false;
    }
    atd_buf compact;
    atd_buf_init_with(&compact, util_allocator());
    js_ctx C = {&compact, arena, s, NULL, 0, 0, false};
    js_puts(&C, "{\"$schema\":\"" JS_DRAFT "\",\"title\":");
    js_cstring(&C, root);
    js_puts(&C, ",\"description\":");
    size_t n = strlen(s->ir->source_name) + (def->doc != NULL ? strlen(def->doc) : 0) + 40;
    char *desc = atd_arena_alloc(arena, n, 1);
    if (desc == NULL) {
        C.oom = true;
    } else {
        snprintf(desc, n, "Translated by atdc from %s.%s%s", s->ir->source_name,
                 def->doc != NULL ? "\n\n" : "", def->doc != NULL ? def->doc : "");
        js_cstring(&C, desc);
    }
    js_puts(&C, ",");
    js_value_keys(&C, (js_side){s, def->type}, def->check);
    if (C.nnamed == 0 && !C.oom)
        js_close(&C);
    if (C.nnamed > 0 || C.oom) {
        js_puts(&C, ",\"$defs\":{");
        /* Definitions met while writing these are appended: loop to the end. */
        for (size_t i = 0; i < C.nnamed && !C.oom; i++) {
            if (i > 0)
                js_puts(&C, ",");
            js_named one = C.named[i];
            js_definition(&C, &one);
        }
        js_puts(&C, "}}");
    }
    bool ok = !C.oom && compact.status == 0;
    atd_error err;
    if (ok && atd_json_reformat(compact.data, compact.len, b, ATD_WRITE_PRETTY, &err) != 0)
        atd_buf_append(b, compact.data, compact.len); /* text that is not UTF-8 */
    atd_buf_puts(b, "\n");
    atd_buf_free(&compact);
    if (!ok || b->status != 0) {
        diag_oom(d);
        return false;
    }
    return true;
}
