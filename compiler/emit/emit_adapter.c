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

#include "emit.h"

/* Appends the JSON string literal of s[0..len) to buf (cap bytes). */
static size_t json_quoted(char *buf, size_t cap, size_t n, const char *s, size_t len)
{
    if (n + 1 < cap)
        buf[n++] = '"';
    for (size_t i = 0; i < len && n + 8 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            buf[n++] = '\\';
            buf[n++] = (char)c;
        } else if (c < 0x20 || c == 0x7f) {
            n += (size_t)snprintf(buf + n, cap - n, "\\u%04x", c);
        } else {
            buf[n++] = (char)c;
        }
    }
    if (n + 1 < cap)
        buf[n++] = '"';
    return n;
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
    char lv[300];
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
        snprintf(lv, sizeof lv, "out->u.%s", k->member);
        emit_read_slot(w, &k->arg, lv, "return (r->flags = flags_, false);");
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
    char json[2100];
    size_t n = 0;
    json[n++] = '{';
    n = json_quoted(json, sizeof json, n, t->type_field, t->type_field_len);
    json[n++] = ':';
    n = json_quoted(json, sizeof json, n, k->json_name, k->json_len);
    const char *lit = cw_c_string(w, json, n);
    char name[320], rv[300];
    snprintf(rv, sizeof rv, "v->u.%s", k->member);
    emit_check_write(w, k->arg.check, k->arg.type, k->arg.ptr, rv, "return false;");
    cw_line(w, "return %s(w, %sv->u.%s, \"%s\", %zu);",
            emit_tagged_writer_name(k->arg.type, name, sizeof name), k->arg.ptr ? "" : "&",
            k->member, lit, n);
}

void emit_adapter_prototypes(cw *w, const ir_module *m)
{
    bool any = false;
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (t->kind != IR_RECORD || t->tagged_by == NULL || t->imported)
            continue;
        char name[320];
        cw_line(w, "static bool %s(atd_writer *w, const %s *v, const char *tag, size_t tag_len);",
                emit_tagged_writer_name(t, name, sizeof name), t->name);
        any = true;
    }
    if (any)
        cw_blank(w);
}

/* The tagged writer is emitted with the record's other writers, under the
 * plain writer's name when the record has a custom adapter. */
const char *emit_tagged_writer_name(const ir_type *t, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s__write_tagged", t->fn, t->c_adapter != NULL ? "__plain" : "");
    return buf;
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

/*     / * <json adapter.c="shape_adapter">: written by the user (atd/adapter.h) * /
 *     bool shape_adapter_normalize(atd_json *v, atd_arena *arena, const char **why);
 *     bool shape_adapter_restore(atd_json *v, atd_arena *arena, const char **why);
 * (once per name). */
void emit_adapter_declarations(cw *w, const ir_module *m)
{
    emit_check_declarations(w, m);
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
