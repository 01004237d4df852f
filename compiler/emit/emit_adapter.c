/* atdgen's built-in JSON adapters in generated code (ir_adapter), without
 * a DOM: the bytes are read and written directly, as for any other type.
 *
 * Type_field (field "type" here): a constructor with a record argument is
 * {"type":"Circle","radius":2.0}. The reader finds the type field first
 * (atd_read_type_field skips the other members), then reads the whole
 * object as the argument record; a nullary constructor is "Dot" and the
 * plain ["Circle",{"radius":2.0}] is still accepted, as atdgen's normalize
 * passes both through. The writer writes `{"type":"Circle"` and then the
 * record's fields through the record's tagged writer (emit_write.c); an
 * argument that is not a record is written ["Name",arg], as atdgen's
 * restore leaves it.
 *
 * One_field is the object form of <json repr="object"> (emit_read.c,
 * emit_write.c) plus the array form on reading. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atd/writer.h"
#include "emit.h"

/* Writes the JSON string literal of s[0..len) at p (at most ATD_ESCAPED_MAX(len)
 * bytes); returns the end. */
static char *json_quoted(char *p, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    *p++ = '"';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            *p++ = '\\';
            *p++ = (char)c;
        } else if (c < 0x20 || c == 0x7f) {
            memcpy(p, "\\u00", 4);
            p[4] = hex[c >> 4];
            p[5] = hex[c & 15];
            p += 6;
        } else {
            *p++ = (char)c;
        }
    }
    *p++ = '"';
    return p;
}

/*     if (c == '{') {
 *         unsigned flags_ = r->flags;
 *         if (!atd_read_type_field(r, "type", 4, "shape", &s, &at)) return false;
 *         switch (event_shape__case(s.ptr, s.len)) {
 *         case 1:
 *             out->tag = EVENT_SHAPE_CIRCLE;
 *             r->flags &= ~(unsigned)ATD_READ_STRICT_FIELDS;
 *             ...read out->u.Circle from the object...
 *             r->flags = flags_;
 *             return true;
 *         ...
 *         }
 *         return atd_reader_fail_at(r, at, ..."unsupported variant...");
 *     }
 */
void emit_sum_read_type_field(cw *w, const ir_type *t)
{
    const char *field = cw_c_string(w, t->type_field, t->type_field_len);
    cw_open(w, "if (c == '{')");
    cw_line(w, "unsigned flags_ = r->flags;");
    cw_open(w, "if (!atd_read_type_field(r, \"%s\", %zu, \"%s\", &s, &at))", field,
            t->type_field_len, t->atd_name);
    cw_line(w, "return false;");
    cw_close(w, "}");
    cw_line(w, "(void)flags_;");
    cw_open(w, "switch (%s__case(s.ptr, s.len)) {", t->fn);
    for (size_t i = 0; i < t->ncases; i++) {
        const ir_case *k = &t->cases[i];
        if (k->catch_all)
            continue;
        cw_mid(w, "case %zu:", i);
        if (k->arg.type == NULL) {
            cw_line(w,
                    "return atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, \"variant '%%s' "
                    "takes no argument: it is the string \\\"%%s\\\", not an object\", \"%s\", "
                    "\"%s\");",
                    k->atd_name, k->atd_name);
            continue;
        }
        cw_line(w, "out->tag = %s;", k->const_name);
        /* The type field is a member of the object but not of the record:
         * it must not count as an unknown field. */
        cw_line(w, "r->flags &= ~(unsigned)ATD_READ_STRICT_FIELDS;");
        emit_read_slot(w, &k->arg, cw_fmt(w, "out->u.%s", k->member),
                       "return (r->flags = flags_, false);");
        cw_line(w, "r->flags = flags_;");
        cw_line(w, "return true;");
    }
    cw_mid(w, "default:");
    cw_line(w, "break;");
    cw_close(w, "}");
    cw_open(w, "{");
    cw_line(w, "char q_[ATD_QUOTE_NAME_CAP];");
    cw_line(w,
            "return atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, \"unsupported variant "
            "\\\"%%s\\\" in field '%s' of '%%s'\", atd_quote_name(s.ptr, s.len, q_, sizeof q_), "
            "\"%s\");",
            field, t->atd_name);
    cw_close(w, "}");
    cw_close(w, "}");
}

/*     case EVENT_SHAPE_CIRCLE:
 *         return event_circle__write_tagged(w, &v->u.Circle, "{\"type\":\"Circle\"", 16);
 */
void emit_type_field_case_write(cw *w, const ir_type *t, const ir_case *k)
{
    /* {"<type field>":"<constructor>" */
    char *json = cw_alloc(w, 2 + ATD_ESCAPED_MAX(t->type_field_len) + ATD_ESCAPED_MAX(k->json_len));
    if (json == NULL)
        return; /* recorded in the output's status */
    char *p = json;
    *p++ = '{';
    p = json_quoted(p, t->type_field, t->type_field_len);
    *p++ = ':';
    p = json_quoted(p, k->json_name, k->json_len);
    size_t n = (size_t)(p - json);
    if (k->arg.validator != NULL)
        emit_validator_write_check(w, k->arg.validator, k->arg.ptr, cw_fmt(w, "v->u.%s", k->member),
                                   "return false;");
    cw_line(w, "return %s(w, %sv->u.%s, \"%s\", %zu);", emit_tagged_writer_name(w, k->arg.type),
            k->arg.ptr ? "" : "&", k->member, cw_c_string(w, json, n), n);
}

void emit_adapter_prototypes(cw *w, const ir_module *m)
{
    bool any = false;
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (t->kind != IR_RECORD || t->tagged_by == NULL || t->imported)
            continue;
        cw_line(w, "static bool %s(atd_writer *w, const %s *v, const char *tag, size_t tag_len);",
                emit_tagged_writer_name(w, t), t->name);
        any = true;
    }
    if (any)
        cw_blank(w);
}

/* The tagged writer is emitted with the record's other writers, under the
 * plain writer's name when the record has a custom adapter. */
const char *emit_tagged_writer_name(cw *w, const ir_type *t)
{
    return cw_fmt(w, "%s%s__write_tagged", t->fn, t->c_adapter != NULL ? "__plain" : "");
}

bool emit_plain_type(cw *w, const ir_type *t, ir_type *plain)
{
    if ((t->c_adapter == NULL && t->validator == NULL) ||
        (t->kind != IR_RECORD && t->kind != IR_SUM && t->kind != IR_ENUM))
        return false;
    *plain = *t;
    plain->fn = cw_fmt(w, "%s__plain", t->fn);
    plain->exported = false;
    return true;
}

/* P t_read of a type with a custom adapter and/or a validator, around the
 * plain reader P t__plain_read:
 *     static bool event_t__plain_read_any(atd_reader *r, void *out)
 *     {
 *         return event_t__plain_read(r, (event_t *)out);
 *     }
 *     bool event_t_read(atd_reader *r, event_t *out)
 *     {
 *         atd_skip_ws(r);
 *         size_t at = (size_t)(r->cur - r->start);
 *         const char *why = NULL;
 *         if (!atd_read_adapted(r, "NAME", NAME_normalize, event_t__plain_read_any, out))
 *             return false;
 *         if (!valid_t(out, &why)) return atd_reader_fail_validator(r, at, "valid_t", why);
 *         return true;
 *     }
 */
void emit_adapted_read(cw *w, const ir_type *t)
{
    if (t->c_adapter != NULL) {
        cw_line(w, "static bool %s__plain_read_any(atd_reader *r, void *out)", t->fn);
        cw_open(w, "{");
        cw_line(w, "return %s__plain_read(r, (%s *)out);", t->fn, t->name);
        cw_close(w, "}");
        cw_blank(w);
    }
    cw_line(w, "bool %s_read(atd_reader *r, %s *out)", t->fn, t->name);
    cw_open(w, "{");
    if (t->validator != NULL) {
        cw_line(w, "atd_skip_ws(r);");
        cw_line(w, "size_t at = (size_t)(r->cur - r->start);");
        cw_line(w, "const char *why = NULL;");
    }
    if (t->c_adapter != NULL)
        cw_open(w, "if (!atd_read_adapted(r, \"%s\", %s_normalize, %s__plain_read_any, out))",
                t->c_adapter, t->c_adapter, t->fn);
    else
        cw_open(w, "if (!%s__plain_read(r, out))", t->fn);
    cw_line(w, "return false;");
    cw_close(w, "}");
    if (t->validator != NULL) {
        cw_open(w, "if (!%s(out, &why))", t->validator);
        cw_line(w, "return atd_reader_fail_validator(r, at, \"%s\", why);", t->validator);
        cw_close(w, "}");
    }
    cw_line(w, "return true;");
    cw_close(w, "}");
}

void emit_validator_write_check(cw *w, const char *validator, bool ptr, const char *rv,
                                const char *fail)
{
    cw_open(w, "if ((w->flags & ATD_WRITE_VALIDATE) != 0)");
    cw_line(w, "const char *why_ = NULL;");
    cw_open(w, "if (!%s(%s%s, &why_))", validator, ptr ? "" : "&", rv);
    cw_line(w, "atd_writer_fail_validator(w, \"%s\", why_);", validator);
    cw_line(w, "%s", fail);
    cw_close(w, "}");
    cw_close(w, "}");
}

void emit_adapted_write(cw *w, const ir_type *t)
{
    if (t->c_adapter != NULL) {
        cw_line(w, "static bool %s__plain_write_any(atd_writer *w, const void *v)", t->fn);
        cw_open(w, "{");
        cw_line(w, "return %s__plain_write(w, (const %s *)v);", t->fn, t->name);
        cw_close(w, "}");
        cw_blank(w);
    }
    cw_line(w, "bool %s_write(atd_writer *w, const %s *v)", t->fn, t->name);
    cw_open(w, "{");
    if (t->validator != NULL)
        emit_validator_write_check(w, t->validator, true, "v", "return false;");
    if (t->c_adapter != NULL)
        cw_line(w, "return atd_write_adapted(w, \"%s\", %s_restore, %s__plain_write_any, v);",
                t->c_adapter, t->c_adapter, t->fn);
    else
        cw_line(w, "return %s__plain_write(w, v);", t->fn);
    cw_close(w, "}");
}

/* The validator of slot k (a field or a constructor's argument) of t. */
static const char *slot_validator(const ir_type *t, size_t k)
{
    if (t->kind == IR_RECORD)
        return k < t->nfields ? t->fields[k].slot.validator : NULL;
    if (t->kind == IR_SUM)
        return k < t->ncases ? t->cases[k].arg.validator : NULL;
    return NULL;
}

static const ir_type *slot_type(const ir_type *t, size_t k)
{
    return t->kind == IR_RECORD ? t->fields[k].slot.type : t->cases[k].arg.type;
}

static size_t slot_count(const ir_type *t)
{
    return t->kind == IR_RECORD ? t->nfields : t->kind == IR_SUM ? t->ncases : 0;
}

/* Whether `fn` was declared already: by a type before index upto_type, or
 * by one of the slots before (upto_type, upto_slot). */
static bool validator_seen(const ir_module *m, size_t upto_type, size_t upto_slot, const char *fn)
{
    for (size_t i = 0; i <= upto_type && i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (t->imported)
            continue;
        if (i < upto_type && t->validator != NULL && strcmp(t->validator, fn) == 0)
            return true;
        size_t n = i < upto_type ? slot_count(t) : upto_slot;
        for (size_t k = 0; k < n; k++) {
            const char *v = slot_validator(t, k);
            if (v != NULL && strcmp(v, fn) == 0)
                return true;
        }
    }
    return false;
}

/* The validators' prototypes (atd/validate.h), once per name:
 *     bool valid_age(const int64_t *v, const char **why);
 */
static void emit_validator_declarations(cw *w, const ir_module *m)
{
    bool any = false;
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (t->imported)
            continue;
        size_t n = slot_count(t);
        for (size_t k = 0; k < n; k++) {
            const char *fn = slot_validator(t, k);
            if (fn == NULL || validator_seen(m, i, k, fn))
                continue;
            if (!any)
                cw_comment(w, "<c validator>s: written by the user (atd/validate.h)");
            any = true;
            cw_line(w, "bool %s(const %s *v, const char **why);", fn, slot_type(t, k)->name);
        }
        if (t->validator != NULL && !validator_seen(m, i, n, t->validator)) {
            if (!any)
                cw_comment(w, "<c validator>s: written by the user (atd/validate.h)");
            any = true;
            cw_line(w, "bool %s(const %s *v, const char **why);", t->validator, t->name);
        }
    }
    if (any)
        cw_blank(w);
}

/*     / * <json adapter.c="shape_adapter">: written by the user (atd/adapter.h) * /
 *     bool shape_adapter_normalize(atd_json *v, atd_arena *arena, const char **why);
 *     bool shape_adapter_restore(atd_json *v, atd_arena *arena, const char **why);
 * (once per name). */
void emit_adapter_declarations(cw *w, const ir_module *m)
{
    emit_validator_declarations(w, m);
    for (size_t i = 0; i < m->ntypes; i++) {
        const char *name = m->types[i]->c_adapter;
        if (name == NULL || m->types[i]->imported)
            continue;
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = m->types[k]->c_adapter != NULL && strcmp(m->types[k]->c_adapter, name) == 0;
        if (seen)
            continue;
        cw_comment(w, "<json adapter.c=\"%s\">: written by the user (atd/adapter.h)", name);
        cw_line(w, "bool %s_normalize(atd_json *v, atd_arena *arena, const char **why);", name);
        cw_line(w, "bool %s_restore(atd_json *v, atd_arena *arena, const char **why);", name);
        cw_blank(w);
    }
}
