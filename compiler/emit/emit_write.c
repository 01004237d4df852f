/* Generated JSON writers (atdgen's JSON mapping, write side): compact output
 * exactly as atdgen writes it. Keys are precomputed literals with their
 * lengths ("\"date\":", 7), so nothing calls strlen at run time.
 *
 * The writers keep the output cursor in a local `p` (writer.h's cursor
 * form): every writer takes and returns it (P_t_write_p), so a whole
 * document is written without storing the buffer's length; only P t_write,
 * around it for exported types, commits it. A key and a value of bounded size
 * (int, bool, float, enum, unit) are written after one check of the room
 * left, shared by a whole run of such fields or tuple cells (and the
 * record's closing brace); a key and a string are one check and one call
 * (atd_writer_key_string_p). The writer of a type imported from another
 * schema, whose p form is static there, is called through its bool
 * P t_write with the cursor committed, and the cursor read back after. `?`
 * fields are omitted when absent and written unwrapped; `~` fields are
 * omitted when equal to their default (value equality), or always written
 * when the writer has ATD_WRITE_DEFAULTS (atdgen's -j-defaults); failures
 * (NaN, invalid UTF-8, out of memory) unwind pushing the JSON path.
 *
 * Documented limit: a `~` field whose default is a <c default> on a type
 * without C equality (record, tuple, list, string, abstract, a <c t> wrap)
 * is always written: the C expression can only be assigned, and comparing
 * by value would need a generated equality function per type. Implicit and
 * <ocaml default> defaults of strings, lists, options are compared by value
 * and omitted as atdgen does. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

bool emit_has_p_writer(const ir_type *t)
{
    return !t->imported && ir_is_composite(t) && t->kind != IR_WRAP;
}

/* `fail` strings are always whole statements. */

/* The failure statement after the error call `call` (NULL: the error is
 * recorded already). */
static const char *fail_stmt(cw *w, const char *call)
{
    return call == NULL ? "return NULL;" : cw_fmt(w, "return atd_writer_fail_cursor(%s);", call);
}

/* Emits the raw bytes `lit` (ATD_LIT("...")) at the cursor, running `fail`
 * when there is no room:
 *     p = atd_writer_raw_p(w, p, ATD_LIT("]"));
 *     if (p == NULL) FAIL */
static void write_raw(cw *w, const char *lit, const char *fail)
{
    emit_cursor_call(w, cw_fmt(w, "atd_writer_raw_p(w, p, %s)", lit), fail);
}

/* Emits the last raw piece `lit` of a writer and its successful end:
 *     return atd_writer_raw_p(w, p, ATD_LIT("]")); */
static void emit_raw_success(cw *w, const char *lit)
{
    cw_line(w, "return atd_writer_raw_p(w, p, %s);", lit);
}

/* Emits the comma before list element i > 0:
 *     p = atd_writer_comma_p(w, p, i > 0);
 *     if (p == NULL) { FAIL } */
static void write_comma(cw *w, const char *fail)
{
    emit_cursor_call(w, "atd_writer_comma_p(w, p, i > 0)", fail);
}

/* Emits the signature of a p-form writer:
 *     static char *event_event_write_p(atd_writer *w, char *p, const event_event *v) */
static void write_p_signature(cw *w, const ir_type *t)
{
    cw_line(w, "static char *%s_write_p(atd_writer *w, char *p, const %s *v)", t->fn, t->name);
}

/* Emits P t_write around the p-form writer of an exported type
 * (atd/detail/entry_points.h):
 *     ATD_DEFINE_WRITE(event_event, event_event) */
static void emit_bool_writer(cw *w, const ir_type *t)
{
    if (!t->exported)
        return;
    cw_blank(w);
    cw_line(w, "ATD_DEFINE_WRITE(%s, %s)", t->fn, t->name);
}

/* Opens the writer of t. */
static void open_writer(cw *w, const ir_type *t)
{
    write_p_signature(w, t);
    cw_open(w, "{");
}

/* Emits the call of the bool writer of an imported type, as the condition
 * `call` (true on success), running `fail` when it fails:
 *     atd_writer_commit(w, p);
 *     if (!P_t_write(w, &v->x)) { FAIL }
 *     p = atd_writer_cursor(w); */
static void write_bool_call(cw *w, const char *call, const char *fail)
{
    cw_line(w, "atd_writer_commit(w, p);");
    cw_open(w, "if (!%s)", call);
    cw_line(w, "%s", fail);
    cw_close(w, "}");
    cw_line(w, "p = atd_writer_cursor(w);");
}

/* Emits the statements that write the value `rv` (an lvalue expression of
 * type t), running `fail` on error, e.g.
 *     if (!atd_writer_string(w, v->name.ptr, v->name.len)) {
 *         return atd_writer_push_field(w, "name", 4);
 *     }
 */
/* One fixed-size piece (see ir_fixed): an optional comma decided at run
 * time, a literal (separator and key, may be empty), the value `rv` of type
 * `type`, and an optional closing literal. Consecutive pieces are written
 * after one reservation (write_fixed). */
typedef struct piece {
    const ir_type *type;
    const char *rv;
    const char *comma_if; /* C condition for a leading ',', or NULL */
    const char *lit;      /* "ATD_LIT(\",\\\"date\\\":\")" (C literal, length), or NULL */
    const char *close; /* a one-character closing literal such as "]", or NULL */
    const char *fail;  /* the statement run when this piece fails */
} piece;

/* Most pieces written after one reservation; longer runs are split. */
#define RUN_MAX 16

static void write_fixed(cw *w, const piece *pcs, size_t n);
static const char *enum_max_len(cw *w, const ir_type *t);

static void write_value(cw *w, const ir_type *t, const char *rv, const char *fail)
{
    if (t->fixed != IR_FIXED_NONE && t->kind != IR_ENUM) {
        /* a scalar: one piece without a key */
        piece pc = {t, rv, NULL, NULL, NULL, fail};
        write_fixed(w, &pc, 1);
        return;
    }
    switch (t->kind) {
    case IR_UNIT:
    case IR_BOOL:
        break; /* always fixed */
    case IR_INT:
        emit_cursor_call(w, cw_fmt(w, "atd_writer_int64_string_p(w, p, (int64_t)%s)", rv), fail);
        return;
    case IR_FLOAT:
        if (t->float_as_int)
            emit_cursor_call(w, cw_fmt(w, "atd_writer_double_as_int_p(w, p, (double)%s)", rv),
                             fail);
        else
            emit_cursor_call(
                w,
                cw_fmt(w, "atd_writer_double_precision_p(w, p, (double)%s, %d)", rv, t->precision),
                fail);
        return;
    case IR_STRING:
        cw_line(w, "p = atd_writer_key_string_p(w, p, ATD_LIT(\"\"), %s.ptr, %s.len);", rv, rv);
        cw_open(w, "if (p == NULL)");
        break;
    case IR_ABSTRACT:
        emit_cursor_call(w, cw_fmt(w, "atd_writer_json_p(w, p, &%s)", rv), fail);
        return;
    case IR_WRAP: {
        /* back to the wire type with the user's conversion, then write it:
         *     { const int64_t w7_ = int_of_id(v->id); ...write w7_... } */
        const char *tmp = cw_fmt(w, "w%d_", t->id);
        cw_open(w, "{");
        cw_line(w, "const %s %s = %s(%s);", t->elem.type->name, tmp, t->unwrap_fn, rv);
        emit_validators_write(w, t->elem.check, t->elem.type, false, tmp, fail);
        write_value(w, t->elem.type, tmp, fail);
        cw_close(w, "}");
        return;
    }
    default: /* the composite kinds */
        if (!emit_has_p_writer(t)) {
            write_bool_call(w, cw_fmt(w, "%s_write(w, &%s)", t->fn, rv), fail);
            return;
        }
        cw_line(w, "p = %s_write_p(w, p, &%s);", t->fn, rv);
        cw_open(w, "if (p == NULL)");
        break;
    }
    cw_line(w, "%s", fail);
    cw_close(w, "}");
}

/* Like write_value for a slot; a pointer slot is checked, then dereferenced:
 *     if (v->left == NULL) { atd_writer_fail(w, ATD_ERR_INVALID, "..."); FAIL }
 *     ...write (*v->left)...
 */
static void write_slot_value(cw *w, const ir_slot *s, const char *rv, const char *fail);

/* A slot with checks: with ATD_WRITE_VALIDATE, they run first (emit_validators.c). */
static void write_slot(cw *w, const ir_slot *s, const char *rv, const char *fail)
{
    if (s->ptr && s->check != NULL) {
        /* NULL is reported by write_slot_value */
        cw_open(w, "if (%s != NULL)", rv);
        emit_validators_write(w, s->check, s->type, true, rv, fail);
        cw_close(w, "}");
    } else {
        emit_validators_write(w, s->check, s->type, s->ptr, rv, fail);
    }
    write_slot_value(w, s, rv, fail);
}

void emit_write_slot(cw *w, const ir_slot *s, const char *rv, const char *fail)
{
    write_slot(w, s, rv, fail);
}

static void write_slot_value(cw *w, const ir_slot *s, const char *rv, const char *fail)
{
    if (!s->ptr) {
        write_value(w, s->type, rv, fail);
        return;
    }
    const char *deref = cw_fmt(w, "(*%s)", rv);
    cw_open(w, "if (%s == NULL)", rv);
    cw_line(w, "atd_writer_fail(w, ATD_ERR_INVALID, \"NULL pointer for a present value\");");
    cw_line(w, "%s", fail);
    cw_close(w, "}");
    write_value(w, s->type, deref, fail);
}

/* The condition under which a `~` field of record rt differs from its
 * default (so it is written), or NULL when it is always written; "0" when
 * never (unit). */
static const char *differs(cw *w, const ir_type *rt, const ir_field *f, const char *rv)
{
    const ir_type *t = f->slot.type;
    const ir_default *d = &f->dflt;
    if (f->slot.ptr)
        return NULL;
    switch (d->kind) {
    case IR_DEFAULT_ZERO:
        switch (t->kind) {
        case IR_UNIT:
            return "0";
        case IR_BOOL:
            return rv;
        case IR_INT:
        case IR_ENUM:
            return cw_fmt(w, "%s != 0", rv);
        case IR_FLOAT:
            /* -0.0 == 0.0: a negative zero is omitted too, as atdgen omits it */
            return cw_fmt(w, "%s != 0.0", rv);
        case IR_STRING:
        case IR_LIST:
        case IR_ASSOC:
            return cw_fmt(w, "%s.len != 0", rv);
        case IR_OPTION:
        case IR_NULLABLE:
            return cw_fmt(w, "%s.has", rv);
        default:
            return NULL;
        }
    case IR_DEFAULT_EXPR:
        if (t->kind == IR_SUM)
            return cw_fmt(w, "%s.tag != %s", rv, d->c_expr);
        return cw_fmt(w, "%s != (%s)(%s)", rv, t->name, d->c_expr);
    case IR_DEFAULT_STRING: {
        if (d->len == 0)
            return cw_fmt(w, "%s.len != 0", rv);
        const char *lit = cw_c_string(w, d->bytes, d->len);
        return cw_fmt(w, "!(%s.len == ATD_LEN(\"%s\") && memcmp(%s.ptr, ATD_LIT(\"%s\")) == 0)",
                      rv, lit, rv, lit);
    }
    case IR_DEFAULT_OPAQUE: {
        /* compared through the type's equal function, with the static
         * object the reader assigns (emit_read.c); a <c t> wrap is always
         * written: its comparison helper comes after the writers */
        if (t->kind == IR_WRAP)
            return NULL;
        const char *object = cw_fmt(w, "%s__default_%s", rt->name, f->c_name);
        const char *eq = emit_equal_value_expr(w, t, rv, object);
        return eq == NULL ? "0" : cw_fmt(w, "!%s", eq);
    }
    }
    return NULL;
}

/* Emits the checks that must pass before a fixed value is written: its
 * finiteness (float) or the range of its tag (enum), e.g.
 *     if (!atd_writer_finite(w, (double)v->x)) { FAIL }
 */
static void fixed_precheck(cw *w, const ir_type *t, const char *rv, const char *fail)
{
    switch (t->fixed) {
    case IR_FIXED_FLOAT:
        cw_open(w, "if (!atd_writer_finite(w, (double)%s))", rv);
        break;
    case IR_FIXED_ENUM:
        cw_open(w, "if ((size_t)%s >= %zu)", rv, t->ncases);
        cw_line(w, "atd_writer_fail(w, ATD_ERR_INVALID, \"invalid constructor tag for '%s'\");",
                t->atd_name);
        break;
    case IR_FIXED_NONE:
    case IR_FIXED_NULL:
    case IR_FIXED_BOOL:
    case IR_FIXED_INT:
        return;
    }
    cw_line(w, "%s", fail);
    cw_close(w, "}");
}

/* Whether pcs[i] and pcs[i + 1] are floats separated by a comma alone
 * (tuple cells), which atd_write_double_pair writes together. */
static bool float_pair(const piece *pcs, size_t n, size_t i)
{
    return i + 1 < n && pcs[i].type->fixed == IR_FIXED_FLOAT && pcs[i].close == NULL &&
           pcs[i + 1].type->fixed == IR_FIXED_FLOAT && pcs[i + 1].comma_if == NULL &&
           pcs[i + 1].lit != NULL && strcmp(pcs[i + 1].lit, "ATD_LIT(\",\")") == 0;
}

/* Emits the pieces pcs[0..n) (their types' fixed is not NONE) after one
 * check of the room, e.g. for two int fields after the first one:
 *     p = atd_writer_room(w, p, ATD_LEN(",\"date\":") + ATD_INT64_CHARS +
 *                                  ATD_LEN(",\"size\":") + ATD_INT64_CHARS);
 *     if (p == NULL) {
 *         return atd_writer_fail_cursor(atd_writer_push_field(w, ATD_LIT("date")));
 *     }
 *     p = atd_put(p, ATD_LIT(",\"date\":"));
 *     p = atd_write_int64(p, (int64_t)v->date);
 *     p = atd_put(p, ATD_LIT(",\"size\":"));
 *     p = atd_write_int64(p, (int64_t)v->size);
 * A list element is `if (i > 0) *p++ = ',';` then the value; floats and
 * enums are checked first (fixed_precheck), all before the reservation.
 * Two floats with a comma between are one atd_write_double_pair. */
static void write_fixed(cw *w, const piece *pcs, size_t n)
{
    /* the room as a sum of the pieces' sizes, each literal's as ATD_LEN */
    const char *sizes = NULL;
    for (size_t i = 0; i < n; i++) {
        const piece *pc = &pcs[i];
        assert(pc->type->fixed != IR_FIXED_NONE);
        fixed_precheck(w, pc->type, pc->rv, pc->fail);
        const char *size =
            pc->type->kind == IR_ENUM ? enum_max_len(w, pc->type) : pc->type->fixed_max;
        if (pc->comma_if != NULL)
            size = cw_fmt(w, "ATD_LEN(\",\") + %s", size);
        /* ATD_LIT("...") -> ATD_LEN("..."); out of memory, lit may be "" */
        if (pc->lit != NULL && strncmp(pc->lit, "ATD_LIT", strlen("ATD_LIT")) == 0)
            size = cw_fmt(w, "ATD_LEN%s + %s", pc->lit + strlen("ATD_LIT"), size);
        if (pc->close != NULL)
            size = cw_fmt(w, "%s + ATD_LEN(\"%s\")", size, pc->close);
        sizes = sizes == NULL ? size : cw_fmt(w, "%s + %s", sizes, size);
    }
    cw_line(w, "p = atd_writer_room(w, p, %s);", sizes != NULL ? sizes : "0");
    cw_open(w, "if (p == NULL)");
    cw_line(w, "%s", pcs[0].fail);
    cw_close(w, "}");
    for (size_t i = 0; i < n; i++) {
        const piece *pc = &pcs[i];
        const char *rv = pc->rv;
        if (pc->comma_if != NULL) {
            /* overwritten by what follows when there is no comma */
            cw_line(w, "*p = ',';");
            cw_line(w, "p += %s;", pc->comma_if);
        }
        if (pc->lit != NULL)
            cw_line(w, "p = atd_put(p, %s);", pc->lit);
        switch (pc->type->fixed) {
        case IR_FIXED_NULL:
            cw_line(w, "(void)%s; /* unit: always null */", rv);
            cw_line(w, "p = atd_put(p, ATD_LIT(\"null\"));");
            break;
        case IR_FIXED_BOOL:
            cw_line(w, "p = %s ? atd_put(p, ATD_LIT(\"true\")) : atd_put(p, ATD_LIT(\"false\"));", rv);
            break;
        case IR_FIXED_INT:
            cw_line(w, "p = atd_write_int64(p, (int64_t)%s);", rv);
            break;
        case IR_FIXED_FLOAT:
            if (float_pair(pcs, n, i)) {
                /* two floats with only a comma between: one call finds
                 * both numbers' digits side by side */
                i++;
                cw_line(w, "p = atd_write_double_pair(p, (double)%s, (double)%s);", rv, pcs[i].rv);
            } else {
                cw_line(w, "p = atd_write_double(p, (double)%s);", rv);
            }
            break;
        case IR_FIXED_ENUM:
            cw_line(w, "p = atd_put(p, %s__json[%s].ptr, %s__json[%s].len);", pc->type->fn, rv,
                    pc->type->fn, rv);
            break;
        case IR_FIXED_NONE:
            break; /* excluded by the assertion above */
        }
        if (pcs[i].close != NULL) /* (the second of a pair's) */
            cw_line(w, "*p++ = '%s';", pcs[i].close);
    }
}

/* pre + name[0..len) as a JSON string + post, as the body of a C string
 * literal; *total is its length in bytes. The name is escaped as the
 * writers escape strings (quote, backslash, control characters). */
static const char *json_literal(cw *w, const char *pre, const char *name, size_t len,
                                const char *post, size_t *total)
{
    char *json = cw_alloc(w, 6 * len + 1);
    if (json == NULL) {
        *total = 0;
        return ""; /* recorded in w's status */
    }
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c == '"' || c == '\\') {
            json[n++] = '\\';
            json[n++] = (char)c;
        } else if (c < 0x20 || c == 0x7f) {
            n += (size_t)snprintf(json + n, 7, "\\u%04x", c);
        } else {
            json[n++] = (char)c;
        }
    }
    *total = strlen(pre) + 1 + n + 1 + strlen(post);
    const char *body = cw_fmt(w, "%s\"%.*s\"%s", pre, (int)n, json, post);
    return cw_c_string(w, body, strlen(body));
}

/* The room for a value of enum t: ATD_LEN of its longest literal in its
 * writer's table, ATD_LEN("\"Logout\""). */
static const char *enum_max_len(cw *w, const ir_type *t)
{
    const char *longest = "";
    size_t most = 0;
    for (size_t i = 0; i < t->ncases; i++) {
        size_t total;
        const char *lit =
            json_literal(w, "", t->cases[i].json_name, t->cases[i].json_len, "", &total);
        if (total > most) {
            most = total;
            longest = lit;
        }
    }
    return cw_fmt(w, "ATD_LEN(\"%s\")", longest);
}

/* A JSON key literal: `"name":`, with an optional leading '{' or ','; as
 * the arguments ATD_LIT("...") of a raw write. */
static const char *key_literal(cw *w, const char *pre, const ir_field *f)
{
    size_t total;
    const char *c = json_literal(w, pre, f->json_name, f->json_len, ":", &total);
    return cw_fmt(w, "ATD_LIT(\"%s\")", c);
}

/* true for a field written unconditionally with a value of bounded size:
 * such fields after a first one share its reservation (write_fixed). */
static bool always_fixed(cw *w, const ir_type *rt, const ir_field *f)
{
    if (f->slot.ptr || f->slot.type->fixed == IR_FIXED_NONE || f->slot.check != NULL)
        return false;
    return f->kind == IR_FIELD_REQUIRED ||
           (f->kind == IR_FIELD_DEFAULT && differs(w, rt, f, "x") == NULL);
}

/* Emits the record writer, e.g. for { date : int; ?note : string option }:
 *     bool event_event_write(atd_writer *w, const event_event *v)
 *     {
 *         {
 *             char *p = atd_buf_reserve(atd_writer_buf(w), 8 + ATD_INT64_CHARS);
 *             if (p == NULL) { atd_writer_fail_buf(w); return atd_writer_push_field(...); }
 *             p = atd_put(p, ATD_LIT("{\"date\":"));
 *             p = atd_write_int64(p, (int64_t)v->date);
 *             atd_buf_commit(atd_writer_buf(w), p);
 *         }
 *         if (v->has_note) {
 *             if (!atd_writer_raw(w, ATD_LIT(",\"note\":"))) return false;
 *             ...write v->note...
 *         }
 *         return atd_writer_raw(w, "}", 1);
 *     }
 * Commas: known statically while every earlier field is required; after an
 * omissible field a run-time flag `first` decides. */
static bool is_type_field(const ir_type *t, const ir_field *f)
{
    return f->json_len == t->tagged_by_len && memcmp(f->json_name, t->tagged_by, f->json_len) == 0;
}

/* `tagged`: the writer of a record that is the argument of a Type_field
 * sum (emit_adapter.c), which starts after the `{"type":"Name"` given by
 * the caller and leaves out the record's own field of that name. */
static void emit_record_write_ex(cw *w, const ir_type *t, bool tagged)
{
    enum { FIRST, NOT_FIRST, UNKNOWN } state = FIRST;
    bool brace_written = false, closed = false;
    if (tagged) {
        cw_line(w,
                "static char *%s__write_tagged_p(atd_writer *w, char *p, const %s *v, "
                "const char *tag, size_t tag_len)",
                t->fn, t->name);
        cw_open(w, "{");
        size_t others = 0;
        for (size_t i = 0; i < t->nfields; i++)
            others += !is_type_field(t, &t->fields[i]);
        if (others == 0)
            cw_line(w, "(void)v; /* the record holds only the tag field */");
        write_raw(w, "tag, tag_len", "return NULL;");
        state = NOT_FIRST;
        brace_written = true;
    } else {
        write_p_signature(w, t);
        cw_open(w, "{");
    }
    const char *fail_raw = fail_stmt(w, NULL);
    /* does any field get written in the UNKNOWN state? */
    bool need_first = false;
    {
        int s = tagged ? NOT_FIRST : FIRST;
        for (size_t i = 0; i < t->nfields; i++) {
            const ir_field *f = &t->fields[i];
            if (tagged && is_type_field(t, f))
                continue;
            bool cond_field = f->kind != IR_FIELD_REQUIRED || emit_tv_is_value(t, i);
            if (f->kind == IR_FIELD_DEFAULT) {
                const char *c = differs(w, t, f, "x");
                if (c == NULL)
                    cond_field = false;
            }
            if (s == UNKNOWN)
                need_first = true;
            if (!cond_field)
                s = NOT_FIRST;
            else if (s == FIRST)
                s = UNKNOWN;
        }
    }
    if (need_first)
        cw_line(w, "bool first = true;");
    /* the one exit of a field's failure, which pushes its name */
    size_t written = 0;
    for (size_t i = 0; i < t->nfields; i++)
        written += !(tagged && is_type_field(t, &t->fields[i]));
    if (written > 0) {
        cw_line(w, "int field = 0; /* the field whose value failed */");
    }
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        if (tagged && is_type_field(t, f))
            continue;
        const char *rv = cw_fmt(w, "v->%s", f->c_name);
        const char *fail = emit_field_fail(w, i);
        const char *c = NULL;
        bool tv_value = emit_tv_is_value(t, i);
        if (tv_value) {
            c = cw_fmt(w, "%s__tv_has_value(&%s)", t->fn, rv);
        } else if (f->kind == IR_FIELD_OPTIONAL) {
            c = cw_fmt(w, "v->has_%s", f->c_name);
        } else if (f->kind == IR_FIELD_DEFAULT) {
            /* Written when it differs from its default, or always with
             * ATD_WRITE_DEFAULTS (atdgen's -j-defaults); a unit field always
             * equals its default, so only the flag writes it. */
            const char *dc = differs(w, t, f, rv);
            if (dc != NULL) {
                if (strcmp(dc, "0") == 0)
                    c = "atd_writer_has_flag(w, ATD_WRITE_DEFAULTS)";
                else
                    c = cw_fmt(w, "atd_writer_has_flag(w, ATD_WRITE_DEFAULTS) || %s", dc);
            }
        }
        if (c != NULL) {
            if (!brace_written) {
                write_raw(w, "ATD_LIT(\"{\")", fail_raw);
                brace_written = true;
            }
            cw_open(w, "if (%s)", c);
        }
        const char *pre = !brace_written ? "{" : state == NOT_FIRST ? "," : "";
        const char *lit = key_literal(w, pre, f);
        /* a value of bounded size: one reservation for the key and the value
         * (and the closing brace after the last field) */
        bool fixed = !f->slot.ptr && f->slot.type->fixed != IR_FIXED_NONE &&
                     f->slot.check == NULL && !tv_value;
        /* a string: one call for the key and the string */
        bool string = !f->slot.ptr && f->slot.type->kind == IR_STRING && f->slot.check == NULL;
        if (fixed) {
            /* the always-written fixed fields that follow join this piece */
            piece pcs[RUN_MAX] = {
                {f->slot.type, rv, state == UNKNOWN ? "!first" : NULL, lit, NULL, fail}};
            size_t n = 1;
            while (c == NULL && n < RUN_MAX && i + 1 < t->nfields &&
                   always_fixed(w, t, &t->fields[i + 1])) {
                const ir_field *g = &t->fields[++i];
                const char *glit = key_literal(w, ",", g);
                pcs[n++] = (piece){g->slot.type, cw_fmt(w, "v->%s", g->c_name), NULL, glit,
                                   NULL, emit_field_fail(w, i)};
            }
            closed = c == NULL && i + 1 == t->nfields;
            if (closed)
                pcs[n - 1].close = "}";
            write_fixed(w, pcs, n);
        } else if (string && state == UNKNOWN) {
            const char *lit2 = key_literal(w, ",", f);
            cw_line(w,
                    "p = first ? atd_writer_key_string_p(w, p, %s, %s.ptr, %s.len) : "
                    "atd_writer_key_string_p(w, p, %s, %s.ptr, %s.len);",
                    lit, rv, rv, lit2, rv, rv);
            cw_open(w, "if (p == NULL)");
            cw_line(w, "%s", fail);
            cw_close(w, "}");
        } else if (string) {
            cw_line(w, "p = atd_writer_key_string_p(w, p, %s, %s.ptr, %s.len);", lit, rv, rv);
            cw_open(w, "if (p == NULL)");
            cw_line(w, "%s", fail);
            cw_close(w, "}");
        } else if (state == UNKNOWN) {
            const char *lit2 = key_literal(w, ",", f);
            cw_line(w, "p = first ? atd_writer_raw_p(w, p, %s) : atd_writer_raw_p(w, p, %s);", lit,
                    lit2);
            cw_open(w, "if (p == NULL)");
            cw_line(w, "%s", fail_raw);
            cw_close(w, "}");
        } else {
            write_raw(w, lit, fail_raw);
        }
        brace_written = true;
        if (tv_value) {
            emit_validators_write(w, f->slot.check, f->slot.type, false, rv, fail);
            emit_cursor_call(w, cw_fmt(w, "%s__tv_write_value_p(w, p, &%s)", t->fn, rv), fail);
        } else if (!fixed && !string) {
            write_slot(w, &f->slot, rv, fail);
        }
        if (c != NULL) {
            if (need_first && state != NOT_FIRST)
                cw_line(w, "first = false;");
            cw_close(w, "}");
            if (state == FIRST)
                state = UNKNOWN;
        } else {
            if (need_first && state == UNKNOWN)
                cw_line(w, "first = false;");
            state = NOT_FIRST;
        }
    }
    if (!brace_written)
        emit_raw_success(w, "ATD_LIT(\"{}\")");
    else if (!closed)
        emit_raw_success(w, "ATD_LIT(\"}\")");
    else
        cw_line(w, "return p;");
    if (written > 0) {
        cw_label(w, "fail:");
        cw_line(w, "return atd_writer_fail_cursor(atd_writer_push_field(w, %s__names[field].ptr, "
                   "%s__names[field].len));",
                t->fn, t->fn);
    }
    cw_close(w, "}");
    if (!tagged)
        emit_bool_writer(w, t);
}

static void emit_record_write(cw *w, const ir_type *t)
{
    if (t->tv != NULL) {
        /* Type_and_value_fields (emit_adapter.c) */
        emit_tv_write_functions(w, t);
        emit_record_write_ex(w, t, true);
        cw_blank(w);
        emit_tv_record_write(w, t);
        emit_bool_writer(w, t);
        return;
    }
    if (t->tagged_by != NULL) {
        emit_record_write_ex(w, t, true);
        cw_blank(w);
    }
    emit_record_write_ex(w, t, false);
}

/* A constructor name as a JSON string literal with its length ("\"A\"", 3),
 * with an optional prefix ("[\"A\",", 5). */
static const char *case_literal(cw *w, const char *pre, const ir_case *k, const char *post)
{
    size_t total;
    const char *c = json_literal(w, pre, k->json_name, k->json_len, post, &total);
    return cw_fmt(w, "ATD_LIT(\"%s\")", c);
}

/* Emits the writer of a sum or enum:
 *     switch (v->tag) {
 *     case EVENT_SHAPE_DOT:
 *         return atd_writer_raw(w, "\"Dot\"", 5);
 *     case EVENT_SHAPE_CIRCLE:
 *         if (!atd_writer_raw(w, "[\"Circle\",", 10)) return false;
 *         ...write v->u.Circle...
 *         return atd_writer_raw(w, "]", 1);
 *     }
 *     return atd_writer_fail(w, ATD_ERR_INVALID, "invalid tag ...");
 * With <json repr="object"> a constructor with an argument is written
 * {"Circle":2.0} instead (newer ATD backends), a form atdgen peers cannot read:
 *         if (!atd_writer_raw(w, "{\"Circle\":", 10)) return false;
 *         ...write v->u.Circle, pushing the field "Circle" on failure...
 *         return atd_writer_raw(w, "}", 1);
 */
/* The statement that fails the writer on a tag that names no constructor
 * of t. */
static const char *invalid_tag_fail(cw *w, const ir_type *t)
{
    return fail_stmt(w, cw_fmt(w,
                            "atd_writer_fail(w, ATD_ERR_INVALID, \"invalid constructor tag for "
                            "'%s'\")",
                            t->atd_name));
}

/* Emits the writer of an enum, from its table of literals (emitted by
 * emit_writer_tables):
 *     if ((size_t)*v >= 3) return atd_writer_fail(w, ATD_ERR_INVALID, "invalid ... 'mode'");
 *     return atd_writer_raw(w, event_mode__json[*v].ptr, event_mode__json[*v].len);
 */
static void emit_enum_write(cw *w, const ir_type *t)
{
    open_writer(w, t);
    cw_open(w, "if ((size_t)*v >= %zu)", t->ncases);
    cw_line(w, "%s", invalid_tag_fail(w, t));
    cw_close(w, "}");
    emit_raw_success(w, cw_fmt(w, "%s__json[*v].ptr, %s__json[*v].len", t->fn, t->fn));
    cw_close(w, "}");
    emit_bool_writer(w, t);
}

static void emit_sum_write(cw *w, const ir_type *t)
{
    bool is_enum = t->kind == IR_ENUM;
    const char *fail_raw = fail_stmt(w, NULL);
    open_writer(w, t);
    cw_open(w, "switch (%s) {", is_enum ? "*v" : "v->tag");
    for (size_t i = 0; i < t->ncases; i++) {
        const ir_case *k = &t->cases[i];
        cw_mid(w, "case %s:", k->const_name);
        if (t->adapter == IR_ADAPTER_TYPE_FIELD && k->arg.type != NULL && !k->catch_all &&
            k->arg.type->kind == IR_RECORD) {
            emit_type_field_case_write(w, t, k);
            continue;
        }
        if (k->arg.type == NULL) {
            emit_raw_success(w, case_literal(w, "", k, ""));
        } else if (k->catch_all) {
            const char *call =
                cw_fmt(w, "atd_writer_key_string_p(w, p, ATD_LIT(\"\"), v->u.%s.ptr, v->u.%s.len)",
                       k->member, k->member);
            cw_line(w, "return %s;", call);
        } else if (t->json_object) {
            write_raw(w, case_literal(w, "{", k, ":"), fail_raw);
            const char *fail =
                fail_stmt(w, cw_fmt(w, "atd_writer_push_field(w, %s)", cw_lit(w, k->json_name, k->json_len)));
            write_slot(w, &k->arg, cw_fmt(w, "v->u.%s", k->member), fail);
            emit_raw_success(w, "ATD_LIT(\"}\")");
        } else {
            write_raw(w, case_literal(w, "[", k, ","), fail_raw);
            write_slot(w, &k->arg, cw_fmt(w, "v->u.%s", k->member),
                       fail_stmt(w, "atd_writer_push_index(w, 1)"));
            emit_raw_success(w, "ATD_LIT(\"]\")");
        }
    }
    cw_close(w, "}");
    cw_line(w, "%s", invalid_tag_fail(w, t));
    cw_close(w, "}");
    emit_bool_writer(w, t);
}

/* Emits the tuple writer: [f0,f1,...], every cell always written:
 *     if (!atd_writer_raw(w, "[", 1)) return false;
 *     ...write v->f0, pushing index 0 on failure...
 *     ...
 *     return atd_writer_raw(w, "]", 1);
 * A cell of bounded size is one piece with its '[' or ',' (and the ']' of
 * the last cell), see write_fixed. */
/* True when every cell of tuple t is a fixed-size value written as it is
 * (no pointer, no check), and there are at most RUN_MAX of them: then a list
 * of such tuples writes each element as one piece with its comma. */
static bool fixed_tuple(const ir_type *t)
{
    if (t->kind != IR_TUPLE || t->ncells == 0 || t->ncells > RUN_MAX)
        return false;
    for (size_t i = 0; i < t->ncells; i++) {
        const ir_slot *s = &t->cells[i].slot;
        if (s->ptr || s->type->fixed == IR_FIXED_NONE || s->check != NULL)
            return false;
    }
    return true;
}

static void emit_tuple_write(cw *w, const ir_type *t)
{
    bool closed = false;
    open_writer(w, t);
    for (size_t i = 0; i < t->ncells; i++) {
        const ir_slot *s = &t->cells[i].slot;
        const char *rv = cw_fmt(w, "v->f%zu", i);
        const char *fail = fail_stmt(w, cw_fmt(w, "atd_writer_push_index(w, %zu)", i));
        if (!s->ptr && s->type->fixed != IR_FIXED_NONE && s->check == NULL) {
            /* the fixed cells that follow join this piece */
            piece pcs[RUN_MAX] = {
                {s->type, rv, NULL, i == 0 ? "ATD_LIT(\"[\")" : "ATD_LIT(\",\")", NULL, fail}};
            size_t n = 1;
            while (n < RUN_MAX && i + 1 < t->ncells && !t->cells[i + 1].slot.ptr &&
                   t->cells[i + 1].slot.type->fixed != IR_FIXED_NONE &&
                   t->cells[i + 1].slot.check == NULL) {
                i++;
                pcs[n++] = (piece){t->cells[i].slot.type,
                                   cw_fmt(w, "v->f%zu", i),
                                   NULL,
                                   "ATD_LIT(\",\")",
                                   NULL,
                                   fail_stmt(w, cw_fmt(w, "atd_writer_push_index(w, %zu)", i))};
            }
            closed = i + 1 == t->ncells;
            if (closed)
                pcs[n - 1].close = "]";
            write_fixed(w, pcs, n);
            continue;
        }
        write_raw(w, i == 0 ? "ATD_LIT(\"[\")" : "ATD_LIT(\",\")", fail_stmt(w, NULL));
        write_slot(w, s, rv, fail);
    }
    if (!closed)
        emit_raw_success(w, "ATD_LIT(\"]\")");
    else
        cw_line(w, "return p;");
    cw_close(w, "}");
    emit_bool_writer(w, t);
}

/* The element v->items[i] of a list of fixed_tuple elements as pieces:
 *     if (i > 0) *p++ = ',';  "[" cell "," cell ... "]"
 * A failure (a cell not finite, or the buffer's, which is sticky) is one
 * the tuple's own writer meets again at the same cell: called then (on the
 * committed cursor, writing nothing), it reports it with the cell's index,
 * exactly as when the list calls it for every element, and fails:
 *     return atd_writer_fail_cursor(P_write_p(w, atd_writer_cursor(w), &v->items[i]) != NULL
 *                                   || atd_writer_push_index(w, i)); */
static void write_fixed_tuple_elem(cw *w, const ir_type *t)
{
    const char *again =
        emit_has_p_writer(t)
            ? cw_fmt(w, "%s_write_p(w, atd_writer_cursor(w), &v->items[i]) != NULL", t->fn)
            : cw_fmt(w, "%s_write(w, &v->items[i])", t->fn);
    const char *fail = fail_stmt(w, cw_fmt(w, "(%s || atd_writer_push_index(w, i))", again));
    piece pcs[RUN_MAX];
    for (size_t j = 0; j < t->ncells; j++)
        pcs[j] = (piece){t->cells[j].slot.type,
                         cw_fmt(w, "v->items[i].f%zu", j),
                         j == 0 ? "i > 0" : NULL,
                         j == 0 ? "ATD_LIT(\"[\")" : "ATD_LIT(\",\")",
                         j + 1 == t->ncells ? "]" : NULL,
                         fail};
    write_fixed(w, pcs, t->ncells);
}

/* Emits the list writer:
 *     if (!atd_writer_raw(w, "[", 1)) return false;
 *     for (i = 0; i < v->len; i++) {
 *         if (i > 0 && !atd_writer_raw(w, ",", 1)) return false;
 *         ...write v->items[i], pushing index i on failure...
 *     }
 *     return atd_writer_raw(w, "]", 1);
 * An element of bounded size (a scalar, or a tuple of them) is one piece
 * with its comma (write_fixed). */
static void emit_list_write(cw *w, const ir_type *t)
{
    const ir_type *et = t->elem.type;
    if (t->elem.check == NULL && et->fixed == IR_FIXED_NONE && !fixed_tuple(et) &&
        emit_has_p_writer(et)) {
        /* one call per element: the loop is the runtime's (atd/detail/list.h) */
        cw_line(w, "ATD_DEFINE_LIST_WRITE_P(%s, %s, %s_write_p)", t->fn, t->name, et->fn);
        emit_bool_writer(w, t);
        return;
    }
    open_writer(w, t);
    const char *fail = fail_stmt(w, "atd_writer_push_index(w, i)");
    cw_line(w, "size_t i;");
    write_raw(w, "ATD_LIT(\"[\")", fail_stmt(w, NULL));
    if (t->elem.check == NULL && et->fixed == IR_FIXED_FLOAT) {
        /* floats two at a time (atd_write_double_pair), then the last one */
        piece pcs[2] = {
            {et, "v->items[i]", "i > 0", NULL, NULL, fail},
            {et, "v->items[i + 1]", NULL, "ATD_LIT(\",\")", NULL,
             fail_stmt(w, "atd_writer_push_index(w, i + 1)")}};
        cw_open(w, "for (i = 0; i + 1 < v->len; i += 2)");
        write_fixed(w, pcs, 2);
        cw_close(w, "}");
        cw_open(w, "for (; i < v->len; i++)");
    } else {
        cw_open(w, "for (i = 0; i < v->len; i++)");
    }
    emit_validators_write(w, t->elem.check, t->elem.type, false, "v->items[i]", fail);
    if (t->elem.type->fixed != IR_FIXED_NONE) {
        piece pc = {t->elem.type, "v->items[i]", "i > 0", NULL, NULL, fail};
        write_fixed(w, &pc, 1);
    } else if (fixed_tuple(t->elem.type)) {
        write_fixed_tuple_elem(w, t->elem.type);
    } else if (t->elem.type->kind == IR_STRING) {
        /* the comma and the string with one check of the room */
        cw_line(w, "p = atd_writer_elem_string_p(w, p, i > 0, v->items[i].ptr, v->items[i].len);");
        cw_open(w, "if (p == NULL)");
        cw_line(w, "%s", fail);
        cw_close(w, "}");
    } else {
        write_comma(w, fail_stmt(w, NULL));
        write_value(w, t->elem.type, "v->items[i]", fail);
    }
    cw_close(w, "}");
    emit_raw_success(w, "ATD_LIT(\"]\")");
    cw_close(w, "}");
    emit_bool_writer(w, t);
}

/* Emits the writer of an association list as a JSON object {"k":v,...}. */
/* Emits the writer of an association list as a JSON object {"k":v,...};
 * the comma and the key are one check of the room. */
static void emit_assoc_write(cw *w, const ir_type *t)
{
    open_writer(w, t);
    cw_line(w, "size_t i;");
    write_raw(w, "ATD_LIT(\"{\")", fail_stmt(w, NULL));
    cw_open(w, "for (i = 0; i < v->len; i++)");
    cw_line(w, "p = atd_writer_elem_string_p(w, p, i > 0, v->items[i].key.ptr, "
               "v->items[i].key.len);");
    cw_open(w, "if (p == NULL)");
    cw_line(w, "%s", fail_stmt(w, "atd_writer_push_index(w, i)"));
    cw_close(w, "}");
    write_raw(w, "ATD_LIT(\":\")", fail_stmt(w, "atd_writer_push_index(w, i)"));
    write_slot(
        w, &t->elem, "v->items[i].value",
        fail_stmt(w, "atd_writer_push_field(w, v->items[i].key.ptr, v->items[i].key.len)"));
    cw_close(w, "}");
    emit_raw_success(w, "ATD_LIT(\"}\")");
    cw_close(w, "}");
    emit_bool_writer(w, t);
}

/* Emits the option writer: "None" or ["Some",v]. */
static void emit_option_write(cw *w, const ir_type *t)
{
    open_writer(w, t);
    cw_open(w, "if (!v->has)");
    emit_raw_success(w, "ATD_LIT(\"\\\"None\\\"\")");
    cw_close(w, "}");
    write_raw(w, "ATD_LIT(\"[\\\"Some\\\",\")", fail_stmt(w, NULL));
    write_slot(w, &t->elem, "v->value", fail_stmt(w, "atd_writer_push_index(w, 1)"));
    emit_raw_success(w, "ATD_LIT(\"]\")");
    cw_close(w, "}");
    emit_bool_writer(w, t);
}

/* Emits the nullable writer: null or the plain value. */
static void emit_nullable_write(cw *w, const ir_type *t)
{
    open_writer(w, t);
    cw_open(w, "if (!v->has)");
    emit_raw_success(w, "ATD_LIT(\"null\")");
    cw_close(w, "}");
    write_slot(w, &t->elem, "v->value", fail_stmt(w, NULL));
    cw_line(w, "return p;");
    cw_close(w, "}");
    emit_bool_writer(w, t);
}

/* Emits the entry points of an exported type or typedef (emit.h): its
 * writer behind the runtime's atd_write_fn type (write_any), and to_json,
 * the document-level write through the runtime (atd/detail/entry_points.h):
 *     ATD_DEFINE_WRITE_ENTRY_POINTS(event_event) */
static void emit_write_entry_points(cw *w, const char *name)
{
    cw_line(w, "ATD_DEFINE_WRITE_ENTRY_POINTS(%s)", name);
    cw_blank(w);
}

void emit_type_writers(cw *w, const ir_module *m, const ir_type *t)
{
    (void)m;
    /* A type with a custom adapter or a validator: the plain writer under
     * another name, and P t_write around it (emit_adapter.c). */
    ir_type plain;
    if (emit_plain_type(w, t, &plain)) {
        if (t->kind == IR_RECORD)
            emit_record_write(w, &plain);
        else if (t->kind == IR_SUM)
            emit_sum_write(w, &plain);
        else
            emit_enum_write(w, &plain);
        cw_blank(w);
        emit_adapted_write(w, t);
        emit_bool_writer(w, t);
        /* the entry points right under ATD_DEFINE_WRITE */
        if (t->exported)
            emit_write_entry_points(w, t->name);
        else
            cw_blank(w);
        cw_end_item(w);
        return;
    }
    switch (t->kind) {
    case IR_RECORD:
        emit_record_write(w, t);
        break;
    case IR_ENUM:
        emit_enum_write(w, t);
        break;
    case IR_SUM:
        emit_sum_write(w, t);
        break;
    case IR_TUPLE:
        emit_tuple_write(w, t);
        break;
    case IR_LIST:
        emit_list_write(w, t);
        break;
    case IR_ASSOC:
        emit_assoc_write(w, t);
        break;
    case IR_OPTION:
        emit_option_write(w, t);
        break;
    case IR_NULLABLE:
        emit_nullable_write(w, t);
        break;
    default: /* the scalar kinds: no writer of their own */
        break;
    }
    /* the entry points right under ATD_DEFINE_WRITE */
    if (t->exported)
        emit_write_entry_points(w, t->name);
    else
        cw_blank(w);
    cw_end_item(w);
}

/* Emits the literals of every enum of the module, before all writers (a
 * record writer may use an enum defined after it), one table each:
 *     static const atd_string event_mode__json[2] = {
 *         {ATD_LIT("\"Off\"")},
 *         {ATD_LIT("\"On\"")},
 *     };
 */
void emit_writer_tables(cw *w, const ir_module *m, const bool *used)
{
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (t->kind != IR_ENUM || !used[i])
            continue;
        cw_open(w, "static const atd_string %s__json[%zu] = {", t->fn, t->ncases);
        for (size_t j = 0; j < t->ncases; j++) {
            size_t total;
            const ir_case *k = &t->cases[j];
            cw_line(w, "{ATD_LIT(\"%s\")},",
                    json_literal(w, "", k->json_name, k->json_len, "", &total));
        }
        cw_close(w, "};");
        cw_blank(w);
        cw_end_item(w);
    }
}

/* Emits the writer of an alias (`type date = int`):
 *     static char *event_date_write_p(atd_writer *w, char *p, const event_date *v)
 *     {
 *         ...write (*v)...
 *         return p;
 *     }
 *     ATD_DEFINE_WRITE(event_date, event_date)
 * and its entry points. */
void emit_def_writers(cw *w, const ir_module *m, const ir_def *d)
{
    (void)m;
    cw_line(w, "static char *%s_write_p(atd_writer *w, char *p, const %s *v)", d->c_name,
            d->c_name);
    cw_open(w, "{");
    emit_validators_write(w, d->check, d->type, true, "v", "return NULL;");
    write_value(w, d->type, "(*v)", "return NULL;");
    cw_line(w, "return p;");
    cw_close(w, "}");
    cw_blank(w);
    cw_line(w, "ATD_DEFINE_WRITE(%s, %s)", d->c_name, d->c_name);
    emit_write_entry_points(w, d->c_name);
    cw_end_item(w);
}
