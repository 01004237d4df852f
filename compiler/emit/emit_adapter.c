/* atdgen's built-in JSON adapters in generated code (ir_adapter), without
 * a DOM: the bytes are read and written directly, as for any other type.
 *
 * Type_field (field "type" here): a constructor with a record argument is
 * {"type":"Circle","radius":2.0}. The reader finds the type field first
 * (atd_read_type_field_p skips the other members), then reads the whole
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
 *         unsigned flags_ = atd_reader_flags(r);
 *         p = atd_read_type_field_p(r, p, ATD_LIT("type"), "shape", &s, &at);
 *         if (p == NULL) return NULL;
 *         switch (event_shape__case(s.ptr, s.len)) {
 *         case 1:
 *             out->tag = EVENT_SHAPE_CIRCLE;
 *             atd_reader_set_flags(r, flags_ & ~(unsigned)ATD_READ_STRICT_FIELDS);
 *             ...read out->u.Circle from the object...
 *             atd_reader_set_flags(r, flags_);
 *             return p;
 *         ...
 *         }
 *         return atd_fail_cursor(atd_reader_fail_at(r, at, ..."unsupported variant..."));
 *     }
 */
void emit_sum_read_type_field(cw *w, const ir_type *t)
{
    const char *field = cw_c_string(w, t->type_field, t->type_field_len);
    cw_open(w, "if (c == '{')");
    cw_line(w, "unsigned flags_ = atd_reader_flags(r);");
    cw_line(w, "p = atd_read_type_field_p(r, p, ATD_LIT(\"%s\"), \"%s\", &s, &at);", field,
            t->atd_name);
    cw_open(w, "if (p == NULL)");
    cw_line(w, "return NULL;");
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
                    "return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, "
                    "\"variant '%%s' takes no argument: it is the string \\\"%%s\\\", not an "
                    "object\", \"%s\", \"%s\"));",
                    k->atd_name, k->atd_name);
            continue;
        }
        cw_line(w, "out->tag = %s;", k->const_name);
        /* The type field is a member of the object but not of the record:
         * it must not count as an unknown field. */
        cw_line(w, "atd_reader_set_flags(r, flags_ & ~(unsigned)ATD_READ_STRICT_FIELDS);");
        emit_read_slot(w, &k->arg, cw_fmt(w, "out->u.%s", k->member),
                       "return atd_fail_cursor((atd_reader_set_flags(r, flags_), false));");
        cw_line(w, "atd_reader_set_flags(r, flags_);");
        cw_line(w, "return p;");
    }
    cw_mid(w, "default:");
    cw_line(w, "break;");
    cw_close(w, "}");
    cw_open(w, "{");
    cw_line(w, "char q_[ATD_QUOTE_NAME_CAP];");
    cw_line(w,
            "return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, \"unsupported "
            "variant \\\"%%s\\\" in field '%s' of '%%s'\", atd_quote_name(s.ptr, s.len, q_, "
            "sizeof q_), \"%s\"));",
            field, t->atd_name);
    cw_close(w, "}");
    cw_close(w, "}");
}

/*     case EVENT_SHAPE_CIRCLE:
 *         return event_circle__write_tagged_p(w, p, &v->u.Circle, ATD_LIT("{\"type\":\"Circle\""));
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
    emit_validators_write(w, k->arg.check, k->arg.type, k->arg.ptr, cw_fmt(w, "v->u.%s", k->member),
                          "return NULL;");
    cw_line(w, "return %s(w, p, %sv->u.%s, %s);", emit_tagged_writer_name(w, k->arg.type),
            k->arg.ptr ? "" : "&", k->member, cw_lit(w, json, n));
}

void emit_adapter_prototypes(cw *w, const ir_module *m)
{
    bool any = false;
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (t->kind != IR_RECORD || t->tagged_by == NULL || t->imported)
            continue;
        cw_line(w,
                "static char *%s(atd_writer *w, char *p, const %s *v, const char *tag, "
                "size_t tag_len);",
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
    return cw_fmt(w, "%s%s__write_tagged_p", t->fn, t->c_adapter != NULL ? "__plain" : "");
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

/* P t_read_p of a type with a custom adapter and/or a validator, around the
 * plain reader P t__plain_read_p (for the adapter, which reads the
 * normalized text with a reader of its own, behind atd_adapted_read_fn):
 *     static bool event_t__plain_read_any(atd_reader *r, void *out)
 *     {
 *         return atd_reader_advance(r, event_t__plain_read_p(r, atd_reader_cursor(r), (event_t *)out));
 *     }
 *     static const char *event_t_read_p(atd_reader *r, const char *p, event_t *out)
 *     {
 *         p = atd_skip_ws_p(r, p);
 *         size_t at = atd_reader_offset_of(r, p);
 *         const char *why = NULL;
 *         p = atd_read_adapted_p(r, p, "NAME", NAME_normalize, event_t__plain_read_any, out);
 *         if (p == NULL) return NULL;
 *         if (!valid_t(out, &why))
 *             return atd_fail_cursor(atd_reader_fail_validator(r, at, "valid_t", why));
 *         return p;
 *     }
 */
void emit_adapted_read(cw *w, const ir_type *t)
{
    if (t->c_adapter != NULL) {
        cw_line(w, "static bool %s__plain_read_any(atd_reader *r, void *out)", t->fn);
        cw_open(w, "{");
        cw_line(w, "return atd_reader_advance(r, %s__plain_read_p(r, atd_reader_cursor(r), (%s *)out));",
                t->fn, t->name);
        cw_close(w, "}");
        cw_blank(w);
    }
    cw_line(w, "static const char *%s_read_p(atd_reader *r, const char *p, %s *out)", t->fn,
            t->name);
    cw_open(w, "{");
    if (t->validator != NULL) {
        cw_line(w, "p = atd_skip_ws_p(r, p);");
        cw_line(w, "size_t at = atd_reader_offset_of(r, p);");
        cw_line(w, "const char *why = NULL;");
    }
    if (t->c_adapter != NULL)
        emit_cursor_call(w,
                         cw_fmt(w, "atd_read_adapted_p(r, p, \"%s\", %s_normalize, %s__plain_read_any, out)",
                                t->c_adapter, t->c_adapter, t->fn),
                         "return NULL;");
    else
        emit_cursor_call(w, cw_fmt(w, "%s__plain_read_p(r, p, out)", t->fn), "return NULL;");
    if (t->validator != NULL) {
        cw_open(w, "if (!%s(out, &why))", t->validator);
        cw_line(w, "return atd_fail_cursor(atd_reader_fail_validator(r, at, \"%s\", why));",
                t->validator);
        cw_close(w, "}");
    }
    cw_line(w, "return p;");
    cw_close(w, "}");
}

void emit_validator_write_check(cw *w, const char *validator, bool ptr, const char *rv,
                                const char *fail)
{
    cw_open(w, "if (atd_writer_has_flag(w, ATD_WRITE_VALIDATE))");
    cw_line(w, "const char *why_ = NULL;");
    cw_open(w, "if (!%s(%s%s, &why_))", validator, ptr ? "" : "&", rv);
    cw_line(w, "atd_writer_fail_validator(w, \"%s\", why_);", validator);
    cw_line(w, "%s", fail);
    cw_close(w, "}");
    cw_close(w, "}");
}

/* P t_write_p of a type with a custom adapter and/or a validator, around
 * the plain writer (behind atd_adapted_write_fn for the adapter):
 *     static char *event_t_write_p(atd_writer *w, char *p, const event_t *v)
 *     {
 *         ...with ATD_WRITE_VALIDATE, valid_t(v)...
 *         return atd_write_adapted_p(w, p, "NAME", NAME_restore, event_t__plain_write_any, v);
 *     } */
void emit_adapted_write(cw *w, const ir_type *t)
{
    if (t->c_adapter != NULL) {
        cw_line(w, "static bool %s__plain_write_any(atd_writer *w, const void *v)", t->fn);
        cw_open(w, "{");
        cw_line(w,
                "return atd_writer_finish(w, %s__plain_write_p(w, atd_writer_cursor(w), (const %s "
                "*)v));",
                t->fn, t->name);
        cw_close(w, "}");
        cw_blank(w);
    }
    cw_line(w, "static char *%s_write_p(atd_writer *w, char *p, const %s *v)", t->fn, t->name);
    cw_open(w, "{");
    if (t->validator != NULL)
        emit_validator_write_check(w, t->validator, true, "v", "return NULL;");
    if (t->c_adapter != NULL)
        cw_line(w, "return atd_write_adapted_p(w, p, \"%s\", %s_restore, %s__plain_write_any, v);",
                t->c_adapter, t->c_adapter, t->fn);
    else
        cw_line(w, "return %s__plain_write_p(w, p, v);", t->fn);
    cw_close(w, "}");
}

/*     / * <json adapter.c="shape_adapter">: written by the user (atd/adapter.h) * /
 *     bool shape_adapter_normalize(atd_json *v, atd_arena *arena, const char **why);
 *     bool shape_adapter_restore(atd_json *v, atd_arena *arena, const char **why);
 * (once per name). */
void emit_adapter_declarations(cw *w, const ir_module *m)
{
    emit_validators_declarations(w, m);
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

/* --- Type_and_value_fields (ir_tv) ---
 * {"type":"A","payload":1,"id":2} for { payload : [A of int | B]; id : int }:
 * the record reader finds the tag first (atd_read_type_field_p), then reads
 * its fields; the value field goes through P r__tv_read with the tag, which
 * reads the constructor's argument where the field is, or sets a nullary
 * constructor when the field is missing. The writer writes {"type":"A",
 * then the record's fields through its tagged writer, the value field as
 * the argument alone (P r__tv_has_value, P r__tv_write_value). */

static const ir_field *tv_field(const ir_type *t)
{
    return &t->fields[t->tv->value];
}

/* The JSON string literal of s[0..len) after `pre`, as C string contents. */
static const char *tv_json_literal(cw *w, const char *pre, const char *s, size_t len)
{
    size_t pl = strlen(pre);
    char *buf = cw_alloc(w, pl + ATD_ESCAPED_MAX(len));
    if (buf == NULL)
        return ""; /* recorded in the output's status */
    memcpy(buf, pre, pl);
    return cw_c_string(w, buf, (size_t)(json_quoted(buf + pl, s, len) - buf));
}

void emit_tv_read_function(cw *w, const ir_type *t)
{
    const ir_tv *tv = t->tv;
    const ir_field *f = tv_field(t);
    const ir_type *st = f->slot.type;
    bool is_enum = st->kind == IR_ENUM;
    const char *vf = cw_c_string(w, f->json_name, f->json_len);
    const char *tf = cw_c_string(w, tv->type_field, tv->type_field_len);
    emit_case_match(w, st, cw_fmt(w, "%s__tv_case", t->fn));
    if (tv->has_known) {
        emit_match_function(w, "", cw_fmt(w, "%s__tv_known", t->fn), tv->known, tv->known_lens, NULL,
                            tv->nknown);
        cw_blank(w);
    }
    cw_line(w,
            "static const char *%s__tv_read_p(atd_reader *r, const char *p, atd_string tag, "
            "size_t tag_at, bool present, %s *out)",
            t->fn, st->name);
    cw_open(w, "{");
    cw_line(w, "char q_[ATD_QUOTE_NAME_CAP];");
    if (tv->has_known) {
        const ir_case *k = &st->cases[tv->catch_all];
        const ir_type *tup = k->arg.type;
        cw_open(w, "if (%s__tv_known(tag.ptr, tag.len) < 0)", t->fn);
        cw_open(w, "if (!present)");
        cw_line(w,
                "return atd_fail_cursor(atd_reader_fail_at(r, tag_at, ATD_ERR_BAD_VARIANT, "
                "\"unknown tag \\\"%%s\\\" without a field '%s': the catch-all '%s' needs a "
                "value\", atd_quote_name(tag.ptr, tag.len, q_, sizeof q_)));",
                vf, k->atd_name);
        cw_close(w, "}");
        cw_line(w, "out->tag = %s;", k->const_name);
        cw_line(w, "%s_init(&out->u.%s);", tup->fn, k->member);
        emit_cursor_call(w, "atd_reader_own_string_p(r, p, &tag)", "return NULL;");
        cw_line(w, "out->u.%s.f0 = tag;", k->member);
        emit_read_slot(w, &tup->cells[1].slot, cw_fmt(w, "out->u.%s.f1", k->member),
                       "return NULL;");
        cw_line(w, "return p;");
        cw_close(w, "}");
    }
    cw_open(w, "switch (%s__tv_case(tag.ptr, tag.len)) {", t->fn);
    for (size_t i = 0; i < st->ncases; i++) {
        const ir_case *k = &st->cases[i];
        if (k->catch_all)
            continue;
        cw_mid(w, "case %zu:", i);
        if (k->arg.type == NULL) {
            cw_open(w, "if (present)");
            cw_line(w,
                    "return atd_fail_cursor(atd_reader_fail_at(r, atd_reader_offset_of(r, p), "
                    "ATD_ERR_BAD_VARIANT, \"variant '%s' takes no argument: field '%s' must be "
                    "absent\"));",
                    k->atd_name, vf);
            cw_close(w, "}");
            if (is_enum)
                cw_line(w, "*out = %s;", k->const_name);
            else
                cw_line(w, "out->tag = %s;", k->const_name);
            cw_line(w, "return p;");
            continue;
        }
        cw_open(w, "if (!present)");
        cw_line(w,
                "return atd_fail_cursor(atd_reader_fail_at(r, tag_at, ATD_ERR_BAD_VARIANT, "
                "\"variant '%s' needs an argument: field '%s' is missing\"));",
                k->atd_name, vf);
        cw_close(w, "}");
        cw_line(w, "out->tag = %s;", k->const_name);
        emit_read_slot(w, &k->arg, cw_fmt(w, "out->u.%s", k->member), "return NULL;");
        cw_line(w, "return p;");
    }
    cw_mid(w, "default:");
    cw_line(w, "break;");
    cw_close(w, "}");
    for (size_t i = 0; i < st->ncases; i++) {
        const ir_case *k = &st->cases[i];
        if (!k->catch_all)
            continue;
        /* an open_enum's catch-all: the tag alone, as a string */
        cw_open(w, "if (!present)");
        emit_cursor_call(w, "atd_reader_own_string_p(r, p, &tag)", "return NULL;");
        cw_line(w, "out->tag = %s;", k->const_name);
        cw_line(w, "out->u.%s = tag;", k->member);
        cw_line(w, "return p;");
        cw_close(w, "}");
    }
    cw_line(w,
            "return atd_fail_cursor(atd_reader_fail_at(r, tag_at, ATD_ERR_BAD_VARIANT, "
            "\"unsupported variant \\\"%%s\\\" in field '%s' of '%%s'\", atd_quote_name(tag.ptr, "
            "tag.len, q_, sizeof q_), \"%s\"));",
            tf, st->atd_name);
    cw_close(w, "}");
    cw_blank(w);
}

void emit_tv_read_begin(cw *w, const ir_type *t)
{
    /* The scan for the tag leaves the cursor at the '{', for the record. */
    const ir_tv *tv = t->tv;
    cw_line(w, "atd_string tv_tag_ = {NULL, 0};");
    cw_line(w, "size_t tv_at_ = 0;");
    cw_line(w, "p = atd_skip_ws_p(r, p);");
    /* anything but an object is left to the record reader's error */
    cw_open(w, "if (atd_byte_at(r, p) == '{')");
    emit_cursor_call(w,
                     cw_fmt(w, "atd_read_type_field_p(r, p, %s, \"%s\", &tv_tag_, &tv_at_)",
                            cw_lit(w, tv->type_field, tv->type_field_len),
                            tv_field(t)->slot.type->atd_name),
                     "return NULL;");
    cw_close(w, "}");
}

void emit_tv_field_read(cw *w, const ir_type *t, bool present, const char *fail)
{
    if (!present)
        cw_line(w, "(void)at; /* a missing value field is no error here */");
    emit_cursor_call(w,
                     cw_fmt(w, "%s__tv_read_p(r, p, tv_tag_, tv_at_, %s, &out->%s)", t->fn,
                            present ? "true" : "false", tv_field(t)->c_name),
                     fail);
}

const char *emit_tv_not_type_key(cw *w, const ir_type *t)
{
    if (t->tv == NULL)
        return "";
    const char *name = cw_c_string(w, t->tv->type_field, t->tv->type_field_len);
    return cw_fmt(w, " && !(key.len == ATD_LEN(\"%s\") && memcmp(key.ptr, ATD_LIT(\"%s\")) == 0)",
                  name, name);
}

bool emit_tv_is_value(const ir_type *t, size_t i)
{
    return t->tv != NULL && t->tv->value == i;
}

/* Whether JSON null is all the catch-all's value can be written as (then
 * the value field is left out, as atdgen's restore does). */
static const char *tv_null_test(cw *w, const ir_type *x, const char *rv)
{
    if (x->kind == IR_NULLABLE)
        return cw_fmt(w, "!%s.has", rv);
    if (x->kind == IR_UNIT)
        return "true";
    if (x->kind == IR_ABSTRACT)
        return cw_fmt(w, "%s.kind == ATD_JSON_NULL", rv);
    return "false";
}

void emit_tv_write_functions(cw *w, const ir_type *t)
{
    const ir_tv *tv = t->tv;
    const ir_field *f = tv_field(t);
    const ir_type *st = f->slot.type;
    cw_line(w, "static bool %s__tv_has_value(const %s *v)", t->fn, st->name);
    cw_open(w, "{");
    if (st->kind == IR_ENUM) {
        cw_line(w, "(void)v;");
        cw_line(w, "return false;");
    } else {
        cw_open(w, "switch (v->tag) {");
        for (size_t i = 0; i < st->ncases; i++) {
            const ir_case *k = &st->cases[i];
            cw_mid(w, "case %s:", k->const_name);
            if (k->arg.type == NULL || k->catch_all)
                cw_line(w, "return false;");
            else if ((int)i == tv->catch_all)
                cw_line(w, "return !(%s);",
                        tv_null_test(w, k->arg.type->cells[1].slot.type,
                                     cw_fmt(w, "v->u.%s.f1", k->member)));
            else
                cw_line(w, "return true;");
        }
        cw_close(w, "}");
        cw_line(w, "return false;");
    }
    cw_close(w, "}");
    cw_blank(w);
    cw_line(w, "static char *%s__tv_write_value_p(atd_writer *w, char *p, const %s *v)", t->fn,
            st->name);
    cw_open(w, "{");
    if (st->kind == IR_ENUM) {
        cw_line(w, "(void)w;");
        cw_line(w, "(void)v;");
    } else {
        cw_open(w, "switch (v->tag) {");
        for (size_t i = 0; i < st->ncases; i++) {
            const ir_case *k = &st->cases[i];
            if (k->arg.type == NULL || k->catch_all)
                continue;
            cw_mid(w, "case %s:", k->const_name);
            if ((int)i == tv->catch_all)
                emit_write_slot(w, &k->arg.type->cells[1].slot, cw_fmt(w, "v->u.%s.f1", k->member),
                                "return NULL;");
            else
                emit_write_slot(w, &k->arg, cw_fmt(w, "v->u.%s", k->member), "return NULL;");
            cw_line(w, "return p;");
        }
        cw_mid(w, "default:");
        cw_line(w, "break;");
        cw_close(w, "}");
    }
    cw_line(w, "return p;");
    cw_close(w, "}");
    cw_blank(w);
}

void emit_tv_record_write(cw *w, const ir_type *t)
{
    const ir_tv *tv = t->tv;
    const ir_field *f = tv_field(t);
    const ir_type *st = f->slot.type;
    const char *lit = tv_json_literal(w, "{", tv->type_field, tv->type_field_len);
    cw_line(w, "static char *%s_write_p(atd_writer *w, char *p, const %s *v)", t->fn, t->name);
    cw_open(w, "{");
    const char *fail = cw_fmt(w, "return atd_writer_fail_cursor(atd_writer_push_field(w, %s));",
                              cw_lit(w, f->json_name, f->json_len));
    emit_cursor_call(w, cw_fmt(w, "atd_writer_raw_p(w, p, ATD_LIT(\"%s:\"))", lit), "return NULL;");
    const char *tag =
        st->kind == IR_ENUM ? cw_fmt(w, "v->%s", f->c_name) : cw_fmt(w, "v->%s.tag", f->c_name);
    cw_open(w, "switch (%s) {", tag);
    for (size_t i = 0; i < st->ncases; i++) {
        const ir_case *k = &st->cases[i];
        cw_mid(w, "case %s:", k->const_name);
        if (k->catch_all || (int)i == tv->catch_all) {
            const char *s = k->catch_all ? cw_fmt(w, "v->%s.u.%s", f->c_name, k->member)
                                         : cw_fmt(w, "v->%s.u.%s.f0", f->c_name, k->member);
            emit_cursor_call(
                w, cw_fmt(w, "atd_writer_key_string_p(w, p, ATD_LIT(\"\"), %s.ptr, %s.len)", s, s),
                fail);
        } else {
            const char *kl = tv_json_literal(w, "", k->json_name, k->json_len);
            emit_cursor_call(w, cw_fmt(w, "atd_writer_raw_p(w, p, ATD_LIT(\"%s\"))", kl),
                             "return NULL;");
        }
        cw_line(w, "break;");
    }
    cw_mid(w, "default:");
    cw_line(w, "atd_writer_fail(w, ATD_ERR_INVALID, \"invalid constructor tag for '%s'\");",
            st->atd_name);
    cw_line(w, "%s", fail);
    cw_close(w, "}");
    cw_line(w, "return %s(w, p, v, ATD_LIT(\"\"));", emit_tagged_writer_name(w, t));
    cw_close(w, "}");
}
