/* Generated biniou readers and writers (atdgen's binary format), with atdc
 * --biniou. Every composite type gets two static body functions (biniou
 * writes bodies without their tag inside arrays and tables) and four public
 * entry points:
 *     static char *P_t__bin_wbody(atd_writer *w, char *p, const P_t *v);  cursor form
 *     static const char *P_t__bin_rbody(atd_reader *r, const char *p, uint8_t tag,
 *                                       P_t *out);                      cursor form
 *     bool P_t_write_biniou(atd_writer *w, const P_t *v);   tag + body
 *     bool P_t_read_biniou(atd_reader *r, P_t *out);        tag checked, body
 *     int P_t_to_biniou(const P_t *value, atd_buf *out, atd_error *err);
 *     int P_t_from_biniou(const char *data, size_t len, atd_arena *arena, P_t *out,
 *                         atd_error *err);
 * The bytes are atdgen's: fields in declaration order, counted; `?` fields
 * omitted when absent and written unwrapped; `~` fields omitted when equal to
 * their default only where atdgen's physical comparison sees equality
 * (unit, bool, int, enum-like sums, empty lists, None), so float, string and
 * structured defaults are always written. Hashes come from lowering. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atd/biniou.h"
#include "emit.h"

/* The type whose bytes represent t (wraps are their wire type). */
static const ir_type *wire(const ir_type *t)
{
    while (t->kind == IR_WRAP)
        t = t->elem.type;
    return t;
}

/* The tag written for a value of type t. */
static unsigned bin_tag(const ir_type *t)
{
    t = wire(t);
    switch (t->kind) {
    case IR_UNIT:
        return ATD_BIN_UNIT;
    case IR_BOOL:
        return ATD_BIN_BOOL;
    case IR_INT:
        return t->bin_int;
    case IR_FLOAT:
        return t->bin_float32 ? ATD_BIN_FLOAT32 : ATD_BIN_FLOAT64;
    case IR_STRING:
        return ATD_BIN_STRING;
    case IR_RECORD:
        return ATD_BIN_RECORD;
    case IR_ENUM:
    case IR_SUM:
        return ATD_BIN_VARIANT;
    case IR_TUPLE:
        return ATD_BIN_TUPLE;
    case IR_LIST:
        return t->bin_table ? ATD_BIN_TABLE : ATD_BIN_ARRAY;
    case IR_ASSOC:
        return ATD_BIN_ARRAY;
    case IR_OPTION:
    case IR_NULLABLE:
        return ATD_BIN_NUM_VARIANT;
    case IR_ABSTRACT:
    case IR_WRAP:
        break;
    }
    return ATD_BIN_SHARED; /* unreachable: abstract stops generation or skips the type */
}

/* The tags a reader of t accepts, as a C expression (a mask). */
static const char *bin_accept(cw *w, const ir_type *t)
{
    t = wire(t);
    if (t->kind == IR_INT && t->bin_int != ATD_BIN_INT32 && t->bin_int != ATD_BIN_INT64)
        return "ATD_BIN_INT_MASK";
    if (t->kind == IR_LIST && t->bin_table) {
        return cw_fmt(w, "(ATD_BIN_MASK(%d) | ATD_BIN_MASK(%d))", ATD_BIN_ARRAY, ATD_BIN_TABLE);
    }
    return cw_fmt(w, "ATD_BIN_MASK(%u)", bin_tag(t));
}

/* --- writing ---
 * Body writers are in the cursor form of the JSON writers (writer.h): they
 * take the output cursor p and return the new one, or NULL once the error is
 * recorded. Each piece of bounded size is written unchecked after one check
 * of the room for it (atd_writer_room: a compare of p with w->end); runs of
 * such pieces (a record's scalar and string fields, a tuple of scalars)
 * share one check. */

/* Emits `if (!CALL) { FAIL }`. */
static void check_call(cw *w, const char *call, const char *fail)
{
    if (strstr(call, "&&") != NULL)
        cw_open(w, "if (!(%s))", call);
    else
        cw_open(w, "if (!%s)", call);
    cw_line(w, "%s", fail);
    cw_close(w, "}");
}

/* Room for n more bytes at p (n a C expression). */
static void room(cw *w, const char *n, const char *fail)
{
    emit_cursor_call(w, cw_fmt(w, "atd_writer_room(w, p, %s)", n), fail);
}

/* The failure statement of a cursor-form writer after an error call. */
static const char *writer_fail(cw *w, const char *call)
{
    return cw_fmt(w, "return atd_writer_fail_cursor(%s);", call);
}

static const char *push_field_fail(cw *w, const char *fn, const char *name)
{
    if (strcmp(fn, "writer") == 0)
        return writer_fail(w, cw_fmt(w, "atd_writer_push_field(w, ATD_LIT(\"%s\"))", name));
    return cw_fmt(w, "return atd_fail_cursor(atd_reader_push_field(r, ATD_LIT(\"%s\")));", name);
}

/* The most bytes put_body writes for a value of t, not counting a string's
 * bytes; 0 when its size has no bound (composites but enums, wraps). */
static size_t put_bound(const ir_type *t)
{
    switch (t->kind) {
    case IR_UNIT:
    case IR_BOOL:
        return 1;
    case IR_INT:
        switch (t->bin_int) {
        case ATD_BIN_INT8:
            return 1;
        case ATD_BIN_INT16:
            return 2;
        case ATD_BIN_INT32:
            return 4;
        case ATD_BIN_INT64:
            return 8;
        default:
            return ATD_BIN_VINT_MAX;
        }
    case IR_FLOAT:
        return t->bin_float32 ? 4 : 8;
    case IR_STRING:
        return ATD_BIN_VINT_MAX;
    case IR_ENUM:
        return 4;
    default:
        return 0;
    }
}

/* Bytes of the vint of the constant u. */
static size_t vint_size(size_t u)
{
    size_t n = 1;
    while (u >= 0x80) {
        u >>= 7;
        n++;
    }
    return n;
}

/* Emits the unchecked writing at p of the body of rv (of a type with a
 * put_bound, in room already checked): range checks first. */
static void put_body(cw *w, const ir_type *t, const char *rv, const char *fail)
{
    switch (t->kind) {
    case IR_UNIT:
        cw_line(w, "(void)%s;", rv);
        cw_line(w, "*p++ = 0;");
        break;
    case IR_BOOL:
        cw_line(w, "*p++ = (char)(%s ? 1 : 0);", rv);
        break;
    case IR_INT:
        if (t->bin_int == ATD_BIN_SVINT) { /* the range check is a test of the zigzag form */
            cw_open(w, "{");
            cw_line(w, "uint64_t z_ = atd_bin_zigzag((int64_t)%s);", rv);
            cw_open(w, "if (ATD_UNLIKELY(z_ >> 63))");
            cw_line(w, "atd_bin_fail_int(w, %uu, (int64_t)%s);", t->bin_int, rv);
            cw_line(w, "%s", fail);
            cw_close(w, "}");
            cw_line(w, "p = atd_bin_put_uvint(p, z_);");
            cw_close(w, "}");
            break;
        }
        cw_open(w, "if (ATD_UNLIKELY(!atd_bin_int_fits(%uu, (int64_t)%s)))", t->bin_int, rv);
        cw_line(w, "atd_bin_fail_int(w, %uu, (int64_t)%s);", t->bin_int, rv);
        cw_line(w, "%s", fail);
        cw_close(w, "}");
        cw_line(w, "p = atd_bin_put_int(p, %uu, (int64_t)%s);", t->bin_int, rv);
        break;
    case IR_FLOAT:
        if (t->bin_float32)
            cw_line(w, "p = atd_bin_put_float32(p, (float)%s);", rv);
        else
            cw_line(w, "p = atd_bin_put_float64(p, (double)%s);", rv);
        break;
    case IR_STRING:
        cw_line(w, "p = atd_bin_put_string(p, %s.ptr, %s.len);", rv, rv);
        break;
    default: /* IR_ENUM: the constructor's hashtag, from the table of its type */
        cw_open(w, "if (ATD_UNLIKELY((unsigned)%s >= %zuu))", rv, t->ncases);
        cw_line(w, "atd_writer_fail(w, ATD_ERR_INVALID, \"invalid constructor tag for '%s'\");",
                t->atd_name);
        cw_line(w, "%s", fail);
        cw_close(w, "}");
        cw_line(w, "memcpy(p, %s__bin_ctor[%s], 4);", t->fn, rv);
        cw_line(w, "p += 4;");
        break;
    }
}

/* Emits the statements writing the body of the value rv of type t. */
static void write_body(cw *w, const ir_type *t, const char *rv, const char *fail)
{
    switch (t->kind) {
    case IR_STRING:
        emit_cursor_call(w, cw_fmt(w, "atd_bin_string_p(w, p, %s.ptr, %s.len)", rv, rv), fail);
        return;
    case IR_WRAP: {
        const char *tmp = cw_fmt(w, "w%d_", t->id);
        cw_open(w, "{");
        cw_line(w, "const %s %s = %s(%s);", t->elem.type->name, tmp, t->unwrap_fn, rv);
        write_body(w, t->elem.type, tmp, fail);
        cw_close(w, "}");
        return;
    }
    case IR_ABSTRACT:
        return; /* unreachable: abstract stops generation */
    default:
        break;
    }
    size_t bound = put_bound(t);
    if (bound > 0) {
        room(w, cw_fmt(w, "%zu", bound), fail);
        put_body(w, t, rv, fail);
        return;
    }
    emit_cursor_call(w, cw_fmt(w, "%s__bin_wbody(w, p, &%s)", t->fn, rv), fail);
}

/* The value behind the pointer rv of a present slot, after the check that
 * it is not NULL. */
static const char *write_deref(cw *w, const char *rv, const char *fail)
{
    cw_open(w, "if (%s == NULL)", rv);
    cw_line(w, "atd_writer_fail(w, ATD_ERR_INVALID, \"NULL pointer for a present value\");");
    cw_line(w, "%s", fail);
    cw_close(w, "}");
    return cw_fmt(w, "(*%s)", rv);
}

/* Whether a value of t is written by put_body in a room of put_bound bytes
 * (scalars and enums; strings have their length on top). */
static bool fixed_size(const ir_type *t)
{
    return t->kind != IR_STRING && put_bound(t) > 0;
}

/* Emits a head of n constant bytes (a tag, a field's hashtag and tag) and
 * the body of rv: one room check for both when the body has a fixed size. */
static void write_headed(cw *w, const char *head, size_t n, const ir_type *t, const char *rv,
                         const char *fail)
{
    bool fixed = fixed_size(t);
    /* an empty array is its count, 0: written here, with no call */
    bool array = (t->kind == IR_LIST && !t->bin_table) || t->kind == IR_ASSOC;
    room(w, cw_fmt(w, "%zu", n + (fixed ? put_bound(t) : array ? 1 : 0)), fail);
    if (n == 1) {
        cw_line(w, "*p++ = (char)%s;", head);
    } else {
        cw_line(w, "p = atd_put(p, ATD_LIT(%s));", head);
    }
    if (fixed) {
        put_body(w, t, rv, fail);
    } else if (array) {
        cw_open(w, "if (%s.len == 0)", rv);
        cw_line(w, "*p++ = 0;");
        cw_mid(w, "} else {");
        write_body(w, t, rv, fail);
        cw_close(w, "}");
    } else {
        write_body(w, t, rv, fail);
    }
}

/* Tag and body of a slot (a pointer slot is checked, then dereferenced). */
static void write_slot_tagged(cw *w, const ir_slot *s, const char *rv, const char *fail)
{
    if (s->ptr)
        rv = write_deref(w, rv, fail);
    write_headed(w, cw_fmt(w, "%uu", bin_tag(s->type)), 1, s->type, rv, fail);
}

/* A 4-byte hashtag as a C string literal. */
static const char *hashtag_literal(cw *w, uint32_t h)
{
    return cw_fmt(w, "\"\\x%02x\\x%02x\\x%02x\\x%02x\"", (unsigned)(h >> 24),
                  (unsigned)(h >> 16) & 0xffu, (unsigned)(h >> 8) & 0xffu, (unsigned)h & 0xffu);
}

/* The 5 bytes of a field's head, the hashtag h and the value's tag, as a C
 * string literal. */
static const char *head_literal(cw *w, uint32_t h, unsigned tag)
{
    const char *hashtag = hashtag_literal(w, h);
    return cw_fmt(w, "%.*s\\x%02x\"", (int)strlen(hashtag) - 1, hashtag, tag);
}

/* The head of field f, whose value has the tag of its type. */
static const char *field_head_literal(cw *w, const ir_field *f)
{
    return head_literal(w, f->bin_hashtag, bin_tag(f->slot.type));
}

/* The condition under which atdgen writes a `~` field, or NULL when it
 * always does: its writer compares with the default physically (`!=`), so
 * only immediate OCaml values can be equal to it. */
static const char *bin_differs(cw *w, const ir_field *f, const char *rv)
{
    const ir_type *t = f->slot.type;
    const ir_default *d = &f->dflt;
    if (f->slot.ptr)
        return NULL;
    if (d->kind == IR_DEFAULT_ZERO) {
        switch (t->kind) {
        case IR_UNIT:
            return "0";
        case IR_BOOL:
            return cw_fmt(w, "%s", rv);
        case IR_INT:
        case IR_ENUM:
            return cw_fmt(w, "%s != 0", rv);
        case IR_LIST:
        case IR_ASSOC:
            return cw_fmt(w, "%s.len != 0", rv);
        case IR_OPTION:
        case IR_NULLABLE:
            return cw_fmt(w, "%s.has", rv);
        default:
            return NULL; /* floats and strings are boxed in OCaml */
        }
    }
    if (d->kind == IR_DEFAULT_EXPR) {
        switch (t->kind) {
        case IR_BOOL:
        case IR_INT:
        case IR_ENUM:
            return cw_fmt(w, "%s != (%s)(%s)", rv, t->name, d->c_expr);
        case IR_SUM:
            return cw_fmt(w, "%s.tag != %s", rv, d->c_expr);
        default:
            return NULL;
        }
    }
    return NULL;
}

/* The condition under which field f is written, or NULL for always. */
static const char *field_cond(cw *w, const ir_field *f)
{
    if (f->kind == IR_FIELD_OPTIONAL)
        return cw_fmt(w, "v->has_%s", f->c_name);
    if (f->kind != IR_FIELD_DEFAULT)
        return NULL;
    const char *d = bin_differs(w, f, cw_fmt(w, "v->%s", f->c_name));
    if (d == NULL)
        return NULL;
    if (strcmp(d, "0") == 0)
        return "atd_writer_has_flag(w, ATD_WRITE_DEFAULTS)";
    return cw_fmt(w, "atd_writer_has_flag(w, ATD_WRITE_DEFAULTS) || %s", d);
}

/* --- the bounded fast path of record writers --- */

static bool field_bounded(const ir_field *f)
{
    return !f->slot.ptr && put_bound(f->slot.type) > 0;
}

/* The string type of field f when f is an option or a nullable of a
 * string: a run writes it in place, absent as one byte, with no call.
 * NULL otherwise. (Only strings: a run with a string has a checked path,
 * which calls the option's own writer, so that writer is never unused.) */
static const ir_type *run_option_elem(const ir_field *f)
{
    const ir_type *t = f->slot.type;
    if (f->slot.ptr || (t->kind != IR_OPTION && t->kind != IR_NULLABLE) || t->elem.ptr)
        return NULL;
    return t->elem.type->kind == IR_STRING ? t->elem.type : NULL;
}

/* Whether field f can be written in a run (emit_record_run). */
static bool field_in_run(const ir_field *f)
{
    return field_bounded(f) || run_option_elem(f) != NULL;
}

/* The most bytes that field f's value takes in a run, a string's own on
 * top: an option's 0x80 and tag, then its value. */
static size_t run_bound(const ir_field *f)
{
    const ir_type *e = run_option_elem(f);
    return e != NULL ? 2 + put_bound(e) : put_bound(f->slot.type);
}

/* Whether field f of a run holds a string, whose length the run adds to
 * its room. */
static bool run_field_string(const ir_field *f)
{
    return f->slot.type->kind == IR_STRING || run_option_elem(f) != NULL;
}

/* The length of the string of a run's field f (run_field_string), as a C
 * expression. */
static const char *run_string_len(cw *w, const ir_field *f)
{
    if (f->slot.type->kind == IR_STRING)
        return cw_fmt(w, "v->%s.len", f->c_name);
    return cw_fmt(w, "(v->%s.has ? v->%s.value.len : 0)", f->c_name, f->c_name);
}

/* The checked writing of field i (its condition, head and body). */
static void write_record_field(cw *w, const ir_field *f)
{
    const char *c = field_cond(w, f);
    const char *rv = cw_fmt(w, "v->%s", f->c_name);
    const char *fail = push_field_fail(w, "writer", f->atd_name);
    if (c != NULL)
        cw_open(w, "if (%s)", c);
    if (f->slot.ptr)
        rv = write_deref(w, rv, fail);
    write_headed(w, field_head_literal(w, f), 5, f->slot.type, rv, fail);
    if (c != NULL)
        cw_close(w, "}");
}

/* Whether field f is an array written by write_headed: its head and the
 * count of an empty one fit in 6 bytes, after which it needs a call only
 * when it has elements. */
static bool field_array(const ir_field *f)
{
    const ir_type *t = f->slot.type;
    return !f->slot.ptr && ((t->kind == IR_LIST && !t->bin_table) || t->kind == IR_ASSOC);
}

/* The end of the run of bounded fields that starts at field i. */
static size_t run_end(const ir_type *t, size_t i)
{
    while (i < t->nfields && field_in_run(&t->fields[i]))
        i++;
    return i;
}

/* Where the field after the run ending at j starts: past the array field
 * that the run writes last, if any (see emit_record_run). */
static size_t run_next(const ir_type *t, size_t j)
{
    return j < t->nfields && field_array(&t->fields[j]) ? j + 1 : j;
}

/* Whether the run [from, to) has a string: then its size has no constant
 * bound, and the run has a checked path too. */
static bool run_has_string(const ir_type *t, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (run_field_string(&t->fields[i]))
            return true;
    return false;
}

/* The checked path of the run [from, to) of record t, for a size over
 * ATD_BIN_RUN_MAX (long strings): a function of its own, out of line, so
 * that the record's writer stays small. It writes the count n_ first when
 * the run starts the record. */
static void emit_record_run_checked(cw *w, const ir_type *t, size_t from, size_t to)
{
    bool array = to < t->nfields && field_array(&t->fields[to]);
    cw_line(w,
            "static ATD_COLD char *%s__bin_wrun%zu(atd_writer *w, char *p, const %s *v, size_t n_)",
            t->fn, from, t->name);
    cw_open(w, "{");
    if (from == 0) {
        room(w, cw_fmt(w, "%d", ATD_BIN_VINT_MAX), "return NULL;");
        cw_line(w, "p = atd_bin_put_uvint(p, n_);");
    } else {
        cw_line(w, "(void)n_;");
    }
    for (size_t i = from; i < to; i++)
        write_record_field(w, &t->fields[i]);
    if (array)
        write_record_field(w, &t->fields[to]);
    cw_line(w, "return p;");
    cw_close(w, "}");
    cw_blank(w);
}

/* The checked paths of t's runs (before its writer, which calls them). */
static void emit_record_runs_checked(cw *w, const ir_type *t)
{
    for (size_t i = 0; i < t->nfields;) {
        if (!field_in_run(&t->fields[i])) {
            i++;
            continue;
        }
        size_t j = run_end(t, i);
        if (run_has_string(t, i, j))
            emit_record_run_checked(w, t, i, j);
        i = run_next(t, j);
    }
}

/* Fields [from, to) (bounded, and the count first when with_count): one
 * room check for their largest size, then unchecked writes; the checked
 * path when that size is over ATD_BIN_RUN_MAX (long strings). When `to`
 * is an array field, its head and empty count share that room, and its
 * elements, when it has any, are written last, with checks of their own. */
static void emit_record_run(cw *w, const ir_type *t, size_t from, size_t to, bool with_count)
{
    size_t fixed = with_count ? ATD_BIN_VINT_MAX : 0;
    bool strings = run_has_string(t, from, to);
    bool array = to < t->nfields && field_array(&t->fields[to]);
    for (size_t i = from; i < to; i++)
        fixed += 5 + run_bound(&t->fields[i]);
    if (array)
        fixed += 6;
    cw_open(w, "{");
    cw_line(w, "size_t need_ = %zu;", fixed);
    for (size_t i = from; i < to; i++)
        if (run_field_string(&t->fields[i]))
            cw_line(w, "need_ += %s;", run_string_len(w, &t->fields[i]));
    if (strings)
        cw_open(w, "if (ATD_LIKELY(atd_bin_run_fits(w, p, need_)))");
    room(w, "need_", "return NULL;");
    if (with_count)
        cw_line(w, "p = atd_bin_put_uvint(p, n_);");
    for (size_t i = from; i < to; i++) {
        const ir_field *f = &t->fields[i];
        const char *c = field_cond(w, f);
        if (c != NULL)
            cw_open(w, "if (%s)", c);
        cw_line(w, "p = atd_put(p, ATD_LIT(%s));", field_head_literal(w, f));
        const ir_type *e = run_option_elem(f);
        const char *fail = push_field_fail(w, "writer", f->atd_name);
        if (e != NULL) {
            /* as the option's body writer: 0, or 0x80 then the tagged value */
            cw_open(w, "if (!v->%s.has)", f->c_name);
            cw_line(w, "*p++ = 0;");
            cw_mid(w, "} else {");
            cw_line(w, "*p++ = (char)0x80;");
            cw_line(w, "*p++ = (char)%uu;", bin_tag(e));
            put_body(w, e, cw_fmt(w, "v->%s.value", f->c_name), fail);
            cw_close(w, "}");
        } else {
            put_body(w, f->slot.type, cw_fmt(w, "v->%s", f->c_name), fail);
        }
        if (c != NULL)
            cw_close(w, "}");
    }
    if (array) {
        const ir_field *f = &t->fields[to];
        const char *c = field_cond(w, f);
        const char *rv = cw_fmt(w, "v->%s", f->c_name);
        if (c != NULL)
            cw_open(w, "if (%s)", c);
        cw_line(w, "p = atd_put(p, ATD_LIT(%s));", field_head_literal(w, f));
        cw_open(w, "if (%s.len == 0)", rv);
        cw_line(w, "*p++ = 0;");
        cw_mid(w, "} else {");
        write_body(w, f->slot.type, rv, push_field_fail(w, "writer", f->atd_name));
        cw_close(w, "}");
        if (c != NULL)
            cw_close(w, "}");
    }
    if (strings) {
        cw_mid(w, "} else {");
        emit_cursor_call(w, cw_fmt(w, "%s__bin_wrun%zu(w, p, v, n_)", t->fn, from), "return NULL;");
        cw_close(w, "}");
    }
    cw_close(w, "}");
}

/* Record body: the count of written fields, then hashtag and tagged value
 * of each; runs of bounded fields go through emit_record_run. */
static void emit_record_wbody(cw *w, const ir_type *t)
{
    size_t always = 0;
    for (size_t i = 0; i < t->nfields; i++)
        if (field_cond(w, &t->fields[i]) == NULL)
            always++;
    cw_line(w, "size_t n_ = %zu;", always);
    for (size_t i = 0; i < t->nfields; i++) {
        const char *cond = field_cond(w, &t->fields[i]);
        if (cond != NULL)
            cw_line(w, "n_ += (%s) ? 1 : 0;", cond);
    }
    if (t->nfields == 0 || !field_in_run(&t->fields[0])) {
        room(w, cw_fmt(w, "%d", ATD_BIN_VINT_MAX), "return NULL;");
        cw_line(w, "p = atd_bin_put_uvint(p, n_);");
    }
    for (size_t i = 0; i < t->nfields;) {
        if (!field_in_run(&t->fields[i])) {
            write_record_field(w, &t->fields[i]);
            i++;
            continue;
        }
        size_t j = run_end(t, i);
        emit_record_run(w, t, i, j, i == 0);
        i = run_next(t, j);
    }
    cw_line(w, "return p;");
}

static void emit_sum_wbody(cw *w, const ir_type *t)
{
    if (t->kind == IR_ENUM) { /* the constructor's hashtag, from the table */
        write_body(w, t, "(*v)", "return NULL;");
        cw_line(w, "return p;");
        return;
    }
    cw_open(w, "switch (v->tag) {");
    for (size_t i = 0; i < t->ncases; i++) {
        const ir_case *k = &t->cases[i];
        cw_mid(w, "case %s:", k->const_name);
        room(w, "4", "return NULL;");
        cw_line(w, "p = atd_put(p, ATD_LIT(%s));", hashtag_literal(w, k->bin_hashtag));
        if (k->arg.type != NULL)
            write_slot_tagged(w, &k->arg, cw_fmt(w, "v->u.%s", k->member),
                              push_field_fail(w, "writer", k->atd_name));
        cw_line(w, "return p;");
    }
    cw_mid(w, "default:");
    cw_line(w, "break;");
    cw_close(w, "}");
    cw_line(w,
            "return atd_writer_fail_cursor(atd_writer_fail(w, ATD_ERR_INVALID, \"invalid "
            "constructor tag for '%s'\"));",
            t->atd_name);
}

static void emit_tuple_wbody(cw *w, const ir_type *t)
{
    /* cells of fixed size: the count, then tag and body of each, in one room */
    size_t fixed = vint_size(t->ncells);
    for (size_t i = 0; i < t->ncells && fixed > 0; i++) {
        const ir_slot *s = &t->cells[i].slot;
        fixed = !s->ptr && fixed_size(s->type) ? fixed + 1 + put_bound(s->type) : 0;
    }
    if (fixed > 0) {
        room(w, cw_fmt(w, "%zu", fixed), "return NULL;");
        cw_line(w, "p = atd_bin_put_uvint(p, %zu);", t->ncells);
        for (size_t i = 0; i < t->ncells; i++) {
            cw_line(w, "*p++ = (char)%uu;", bin_tag(t->cells[i].slot.type));
            put_body(w, t->cells[i].slot.type, cw_fmt(w, "v->f%zu", i),
                     writer_fail(w, cw_fmt(w, "atd_writer_push_index(w, %zu)", i)));
        }
        cw_line(w, "return p;");
        return;
    }
    room(w, cw_fmt(w, "%zu", vint_size(t->ncells)), "return NULL;");
    cw_line(w, "p = atd_bin_put_uvint(p, %zu);", t->ncells);
    for (size_t i = 0; i < t->ncells; i++)
        write_slot_tagged(w, &t->cells[i].slot, cw_fmt(w, "v->f%zu", i),
                          writer_fail(w, cw_fmt(w, "atd_writer_push_index(w, %zu)", i)));
    cw_line(w, "return p;");
}

/* The count of a list and, unless it is empty, the tag of its elements. */
static void write_count_tag(cw *w, unsigned tag)
{
    room(w, cw_fmt(w, "%d", ATD_BIN_VINT_MAX + 1), "return NULL;");
    cw_line(w, "p = atd_bin_put_uvint(p, v->len);");
    cw_open(w, "if (v->len == 0)");
    cw_line(w, "return p;");
    cw_close(w, "}");
    cw_line(w, "*p++ = (char)%uu;", tag);
}

/* A table (<biniou repr="table">): rows, columns (every field, with the tag of its
 * cells; `?` columns keep the full option form), then the cells row by row. */
static void emit_table_wbody(cw *w, const ir_type *t)
{
    const ir_type *rec = t->elem.type;
    const char *rv, *fail;
    cw_line(w, "size_t i;");
    room(w, cw_fmt(w, "%zu", ATD_BIN_VINT_MAX + vint_size(rec->nfields) + 5 * rec->nfields),
         "return NULL;");
    cw_line(w, "p = atd_bin_put_uvint(p, v->len);");
    cw_open(w, "if (v->len == 0)");
    cw_line(w, "return p;");
    cw_close(w, "}");
    cw_line(w, "p = atd_bin_put_uvint(p, %zu);", rec->nfields);
    for (size_t j = 0; j < rec->nfields; j++) {
        const ir_field *f = &rec->fields[j];
        unsigned tag = f->kind == IR_FIELD_OPTIONAL ? ATD_BIN_NUM_VARIANT : bin_tag(f->slot.type);
        cw_line(w, "p = atd_put(p, ATD_LIT(%s));", head_literal(w, f->bin_hashtag, tag));
    }
    cw_open(w, "for (i = 0; i < v->len; i++)");
    cw_line(w, "const %s *row = &v->items[i];", rec->name);
    for (size_t j = 0; j < rec->nfields; j++) {
        const ir_field *f = &rec->fields[j];
        fail = writer_fail(w, cw_fmt(w,
                                     "(atd_writer_push_field(w, ATD_LIT(\"%s\")) || "
                                     "atd_writer_push_index(w, i))",
                                     f->atd_name));
        rv = cw_fmt(w, "row->%s", f->c_name);
        if (f->kind == IR_FIELD_OPTIONAL) {
            room(w, "1", fail);
            cw_open(w, "if (!row->has_%s)", f->c_name);
            cw_line(w, "*p++ = 0;");
            cw_mid(w, "} else {");
            cw_line(w, "*p++ = (char)0x80;");
            write_slot_tagged(w, &f->slot, rv, fail);
            cw_close(w, "}");
        } else if (f->slot.ptr) {
            write_body(w, f->slot.type, write_deref(w, rv, fail), fail);
        } else {
            write_body(w, f->slot.type, rv, fail);
        }
    }
    cw_close(w, "}");
    cw_line(w, "return p;");
}

static void emit_list_wbody(cw *w, const ir_type *t)
{
    if (t->bin_table) {
        emit_table_wbody(w, t);
        return;
    }
    const ir_type *et = t->elem.type;
    const char *fail = writer_fail(w, "atd_writer_push_index(w, (size_t)(e_ - v->items))");
    write_count_tag(w, bin_tag(et));
    /* a cursor over the items: no index arithmetic, no reload of v->items
     * after each store (the bytes written may alias it, for the compiler) */
    cw_line(w, "const %s *e_ = v->items, *end_ = v->items + v->len;", et->name);
    if (fixed_size(et)) {
        /* elements of bounded size: one room check per chunk of them */
        size_t bound = put_bound(et);
        cw_open(w, "while (e_ != end_)");
        cw_line(w, "const %s *stop_ = (size_t)(end_ - e_) > %zu ? e_ + %zu : end_;", et->name,
                ATD_BIN_RUN_MAX / bound, ATD_BIN_RUN_MAX / bound);
        room(w, cw_fmt(w, "(size_t)(stop_ - e_) * %zu", bound), fail);
        cw_open(w, "for (; e_ != stop_; e_++)");
        put_body(w, et, "(*e_)", fail);
        cw_close(w, "}");
        cw_close(w, "}");
    } else {
        cw_open(w, "for (; e_ != end_; e_++)");
        write_body(w, et, "(*e_)", fail);
        cw_close(w, "}");
    }
    cw_line(w, "return p;");
}

/* (string * T) list <json repr="object">: in biniou, the array of pairs it is. */
static void emit_assoc_wbody(cw *w, const ir_type *t)
{
    const char *fail = writer_fail(w, "atd_writer_push_index(w, (size_t)(e_ - v->items))");
    write_count_tag(w, ATD_BIN_TUPLE);
    /* a cursor over the items, as in emit_list_wbody */
    cw_line(w, "const %s_item *e_ = v->items, *end_ = v->items + v->len;", t->name);
    cw_open(w, "for (; e_ != end_; e_++)");
    if (!t->elem.ptr && put_bound(t->elem.type) > 0) {
        /* a scalar or string value: one room check for the pair, when short */
        bool str = t->elem.type->kind == IR_STRING;
        const char *len = str ? "e_->key.len + e_->value.len" : "e_->key.len";
        const char *need =
            cw_fmt(w, "%zu + %s", 2 + ATD_BIN_VINT_MAX + 1 + put_bound(t->elem.type), len);
        cw_open(w, "if (ATD_LIKELY(atd_bin_run_fits(w, p, %s)))", need);
        room(w, need, fail);
        cw_line(w, "*p++ = 2;");
        cw_line(w, "*p++ = (char)%uu;", ATD_BIN_STRING);
        cw_line(w, "p = atd_bin_put_string(p, e_->key.ptr, e_->key.len);");
        cw_line(w, "*p++ = (char)%uu;", bin_tag(t->elem.type));
        put_body(w, t->elem.type, "e_->value", fail);
        cw_line(w, "continue;");
        cw_close(w, "}");
    }
    room(w, "2", fail);
    cw_line(w, "*p++ = 2;");
    cw_line(w, "*p++ = (char)%uu;", ATD_BIN_STRING);
    emit_cursor_call(w, "atd_bin_string_p(w, p, e_->key.ptr, e_->key.len)", fail);
    write_slot_tagged(w, &t->elem, "e_->value", fail);
    cw_close(w, "}");
    cw_line(w, "return p;");
}

static void emit_option_wbody(cw *w, const ir_type *t)
{
    room(w, "1", "return NULL;");
    cw_open(w, "if (!v->has)");
    cw_line(w, "*p = 0;");
    cw_line(w, "return p + 1;");
    cw_close(w, "}");
    cw_line(w, "*p++ = (char)0x80;");
    write_slot_tagged(w, &t->elem, "v->value", "return NULL;");
    cw_line(w, "return p;");
}

/* --- reading ---
 * Body readers are in the cursor form of the JSON readers (reader.h): they
 * take the input cursor p and return the new one, or NULL once the error is
 * recorded, so that p stays in a register from value to value. */

/* The failure statement of a cursor-form reader after an error call. */
static const char *reader_fail(cw *w, const char *call)
{
    return cw_fmt(w, "return atd_fail_cursor(%s);", call);
}

/* The same for the index i of a list or table. */
static const char *index_fail(cw *w, const char *i)
{
    return reader_fail(w, cw_fmt(w, "atd_reader_push_index(r, %s)", i));
}

/* The tag of a value of type t when its reader accepts only one, else
 * NULL (ints of several forms, lists that may be tables). */
static const char *single_tag(cw *w, const ir_type *t)
{
    const char *accept = bin_accept(w, t);
    if (strncmp(accept, "ATD_BIN_MASK(", 13) != 0)
        return NULL;
    return cw_fmt(w, "%uu", bin_tag(t));
}

/* The error call for a hashtag (in the variable h, read last) that is none
 * of sum t's constructors. */
static const char *bad_variant_call(cw *w, const ir_type *t, const char *h)
{
    return cw_fmt(w,
                  "atd_reader_fail_at(r, atd_reader_offset_of(r, p) - 4, ATD_ERR_BAD_VARIANT, "
                  "\"unsupported variant hashtag 0x%%08x in '%%s'\", (unsigned)%s, \"%s\")",
                  h, t->atd_name);
}

/* Emits the statements reading the body of a value of type t, whose tag
 * (already checked) is the C expression `tag`, into the lvalue lv. */
static void read_body(cw *w, const ir_type *t, const char *tag, const char *lv, const char *fail)
{
    static const char *const mins[] = {"INT64_MIN", "INT8_MIN", "INT16_MIN", "INT32_MIN",
                                       "0",         "0",        "0"};
    static const char *const maxs[] = {"INT64_MAX", "INT8_MAX",   "INT16_MAX", "INT32_MAX",
                                       "UINT8_MAX", "UINT16_MAX", "UINT32_MAX"};
    const char *call;
    switch (t->kind) {
    case IR_UNIT:
        emit_cursor_call(w, "atd_bin_read_unit_p(r, p)", fail);
        cw_line(w, "%s = 0;", lv);
        return;
    case IR_BOOL:
        call = cw_fmt(w, "atd_bin_read_bool_p(r, p, &%s)", lv);
        break;
    case IR_INT:
        cw_open(w, "{");
        cw_line(w, "int64_t iv_ = 0;");
        if (t->int_repr != IR_INT64)
            cw_line(w, "size_t at_ = atd_reader_offset_of(r, p);");
        emit_cursor_call(w, cw_fmt(w, "atd_bin_read_int_p(r, p, %s, &iv_)", tag), fail);
        if (t->int_repr != IR_INT64) {
            call = cw_fmt(w, "atd_bin_int_range(r, at_, iv_, %s, %s)", mins[t->int_repr],
                          maxs[t->int_repr]);
            check_call(w, call, fail);
        }
        cw_line(w, "%s = (%s)iv_;", lv, t->name);
        cw_close(w, "}");
        return;
    case IR_FLOAT:
        cw_open(w, "{");
        if (t->bin_float32) {
            cw_line(w, "float d_ = 0;");
            emit_cursor_call(w, "atd_bin_read_float32_p(r, p, &d_)", fail);
        } else {
            cw_line(w, "double d_ = 0;");
            emit_cursor_call(w, "atd_bin_read_float64_p(r, p, &d_)", fail);
        }
        cw_line(w, "%s = (%s)d_;", lv, t->name);
        cw_close(w, "}");
        return;
    case IR_STRING:
        call = cw_fmt(w, "atd_bin_read_string_p(r, p, &%s)", lv);
        break;
    case IR_WRAP: {
        const char *tmp, *ptr;
        tmp = cw_fmt(w, "w%d_", t->id);
        ptr = cw_fmt(w, "&%s", tmp);
        cw_open(w, "{");
        cw_line(w, "%s %s;", t->elem.type->name, tmp);
        if (ir_is_composite(t->elem.type))
            emit_init_call(w, t->elem.type, ptr);
        read_body(w, t->elem.type, tag, tmp, fail);
        cw_line(w, "%s = %s(%s);", lv, t->wrap_fn, tmp);
        cw_close(w, "}");
        return;
    }
    case IR_ENUM: /* inline: a hashtag and a switch, cheaper than a call */
        cw_open(w, "{");
        cw_line(w, "uint32_t eh_ = 0;");
        emit_cursor_call(w, "atd_bin_read_hashtag_p(r, p, &eh_)", fail);
        cw_open(w, "switch (eh_) {");
        for (size_t i = 0; i < t->ncases; i++) {
            cw_mid(w, "case 0x%08xu:", (unsigned)t->cases[i].bin_hashtag);
            cw_line(w, "%s = %s;", lv, t->cases[i].const_name);
            cw_line(w, "break;");
        }
        cw_mid(w, "default:");
        cw_line(w, "%s;", bad_variant_call(w, t, "eh_"));
        cw_line(w, "%s", fail);
        cw_close(w, "}");
        cw_close(w, "}");
        return;
    case IR_ABSTRACT:
        return; /* unreachable: abstract stops generation */
    default:
        call = cw_fmt(w, "%s__bin_rbody(r, p, %s, &%s)", t->fn, tag, lv);
        break;
    }
    if ((t->kind == IR_LIST && !t->bin_table) || t->kind == IR_ASSOC) {
        /* an empty array without the call */
        cw_open(w, "if (atd_bin_empty_at(r, p))");
        cw_line(w, "(%s).items = NULL;", lv);
        cw_line(w, "(%s).len = 0;", lv);
        cw_line(w, "p++;");
        cw_mid(w, "} else {");
        emit_cursor_call(w, call, fail);
        cw_close(w, "}");
        return;
    }
    emit_cursor_call(w, call, fail);
}

/* The out-of-memory error at the cursor, as a statement's call. */
static const char *nomem_call(void)
{
    return "atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_NOMEM, \"out of memory\")";
}

/* Reads the body of a pointer slot lv into a new value from the arena. */
static void read_body_new(cw *w, const ir_type *t, const char *tag, const char *lv,
                          const char *fail)
{
    const char *tn = t->name;
    cw_line(w, "%s *p_ = (%s *)atd_arena_alloc(atd_reader_arena(r), sizeof(%s), 8);", tn, tn, tn);
    cw_open(w, "if (p_ == NULL)");
    cw_line(w, "%s;", nomem_call());
    cw_line(w, "%s", fail);
    cw_close(w, "}");
    cw_line(w, "%s = p_;", lv);
    read_body(w, t, tag, "*p_", fail);
}

/* Reads a tagged value of a slot: tag, check, body (a pointer slot first
 * gets its value from the arena). A type of a single tag is read with that
 * constant, which folds its reader's tests of the tag. */
static void read_slot_tagged(cw *w, const ir_slot *s, const char *lv, const char *fail)
{
    const char *tag = single_tag(w, s->type);
    cw_open(w, "{");
    cw_line(w, "uint8_t tg_ = 0;");
    emit_cursor_call(w, cw_fmt(w, "atd_bin_read_tag_p(r, p, %s, &tg_)", bin_accept(w, s->type)),
                     fail);
    if (tag == NULL)
        tag = "tg_";
    else
        cw_line(w, "(void)tg_;");
    if (s->ptr) {
        read_body_new(w, s->type, tag, lv, fail);
    } else {
        read_body(w, s->type, tag, lv, fail);
    }
    cw_close(w, "}");
}

/* Emits the reading of field f's value for a record or a table row `dst`
 * ("out" or "row"), marking a required field as seen. Its tag is read here
 * when `tag` is NULL, else it is the C expression `tag`. In a table, a `?`
 * field's cells are full options: 0, or 0x80 and the value. */
static void read_field(cw *w, const ir_field *f, const char *dst, const char *tag,
                       const char *fail)
{
    const char *lv = cw_fmt(w, "%s->%s", dst, f->c_name);
    if (tag == NULL) {
        read_slot_tagged(w, &f->slot, lv, fail);
    } else if (f->kind == IR_FIELD_OPTIONAL && strcmp(dst, "row") == 0) {
        cw_open(w, "{");
        cw_line(w, "uint8_t b_ = 0;");
        emit_cursor_call(w, "atd_bin_read_byte_p(r, p, &b_)", fail);
        cw_open(w, "if (b_ == 0x80)");
        read_slot_tagged(w, &f->slot, lv, fail);
        cw_line(w, "%s->has_%s = true;", dst, f->c_name);
        cw_mid(w, "} else if (b_ != 0) {");
        cw_line(w, "atd_reader_fail_at(r, atd_reader_offset_of(r, p) - 1, ATD_ERR_TYPE, "
                   "\"expected an option (0 or 0x80), found %%u\", b_);");
        cw_line(w, "%s", fail);
        cw_close(w, "}");
        cw_close(w, "}");
        return;
    } else if (f->slot.ptr) {
        cw_open(w, "{");
        read_body_new(w, f->slot.type, tag, lv, fail);
        cw_close(w, "}");
    } else {
        read_body(w, f->slot.type, tag, lv, fail);
    }
    if (f->kind == IR_FIELD_OPTIONAL)
        cw_line(w, "%s->has_%s = true;", dst, f->c_name);
    if (f->kind == IR_FIELD_REQUIRED)
        cw_line(w, "seen[%d] |= (uint64_t)1 << %d;", f->required_index / 64,
                f->required_index % 64);
}

/* The missing-field checks after a record or a table row: one compare per
 * word of `seen` when every field came, then the field to report. */
static void check_required(cw *w, const ir_type *t, const char *fail)
{
    size_t nwords = (t->nrequired + 63) / 64;
    if (nwords == 0)
        return;
    const char *cond = "0";
    for (size_t k = 0; k < nwords; k++) {
        size_t bits = k + 1 < nwords ? 64 : t->nrequired - 64 * k;
        uint64_t mask = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
        cond = cw_fmt(w, "%s%sseen[%zu] != UINT64_C(0x%llx)", k == 0 ? "" : cond,
                      k == 0 ? "" : " || ", k, (unsigned long long)mask);
    }
    cw_open(w, "if (%s)", cond);
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        if (f->kind != IR_FIELD_REQUIRED)
            continue;
        cw_open(w, "if (!(seen[%d] & ((uint64_t)1 << %d)))", f->required_index / 64,
                f->required_index % 64);
        cw_line(w,
                "atd_reader_fail_at(r, at, ATD_ERR_MISSING_FIELD, "
                "\"missing field '%%s' in record '%%s'\", \"%s\", \"%s\");",
                f->atd_name, t->atd_name);
        cw_line(w, "%s", fail);
        cw_close(w, "}");
    }
    cw_close(w, "}");
}

static void unknown_field(cw *w, const ir_type *t)
{
    cw_open(w, "if (atd_reader_has_flag(r, ATD_READ_STRICT_FIELDS))");
    cw_line(w, "%s",
            reader_fail(w, cw_fmt(w,
                                  "atd_reader_fail_at(r, atd_reader_offset_of(r, p) - 4, "
                                  "ATD_ERR_UNKNOWN_FIELD, \"unknown field hash 0x%%08x in "
                                  "record '%%s'\", (unsigned)h_, \"%s\")",
                                  t->atd_name)));
    cw_close(w, "}");
}

static void emit_record_rbody(cw *w, const ir_type *t)
{
    const char *fail;
    size_t nwords = (t->nrequired + 63) / 64;
    cw_line(w, "size_t n_ = 0, i_;");
    cw_line(w, "uint32_t h_ = 0;");
    if (nwords > 0) {
        cw_line(w, "uint64_t seen[%zu] = {0};", nwords);
        cw_line(w, "size_t at = atd_reader_offset_of(r, p);");
    }
    cw_line(w, "(void)tag;");
    cw_line(w, "%s_init(out);", t->fn);
    check_call(w, "atd_bin_enter(r, p)", "return NULL;");
    emit_cursor_call(w, "atd_bin_read_count_p(r, p, &n_)", "return NULL;");
    /* Fields in declaration order, with the tags atdgen writes, as atdgen
     * writes them: each head (hashtag and tag) compared as 5 constant bytes;
     * a field that does not come next (absent, elsewhere, another tag) is
     * left to the loop that follows, which takes any order. */
    cw_line(w, "i_ = 0;");
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        cw_open(w, "if (i_ < n_ && atd_bin_head_is(r, p, %s))", field_head_literal(w, f));
        cw_line(w, "p += 5;");
        read_field(w, f, "out", cw_fmt(w, "%uu", bin_tag(f->slot.type)),
                   push_field_fail(w, "reader", f->atd_name));
        cw_line(w, "i_++;");
        cw_close(w, "}");
    }
    cw_open(w, "for (; i_ < n_; i_++)");
    emit_cursor_call(w, "atd_bin_read_field_hashtag_p(r, p, &h_)", "return NULL;");
    cw_open(w, "switch (h_) {");
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        cw_mid(w, "case 0x%08xu:", (unsigned)f->bin_hashtag);
        fail = push_field_fail(w, "reader", f->atd_name);
        read_field(w, f, "out", NULL, fail);
        cw_line(w, "break;");
    }
    cw_mid(w, "default:");
    unknown_field(w, t);
    emit_cursor_call(w, "atd_bin_skip_p(r, p)", "return NULL;");
    cw_line(w, "break;");
    cw_close(w, "}");
    cw_close(w, "}");
    cw_line(w, "atd_bin_leave(r);");
    check_required(w, t, "return NULL;");
    cw_line(w, "return p;");
}

static void emit_sum_rbody(cw *w, const ir_type *t)
{
    const char *lv, *fail;
    cw_line(w, "(void)tag;");
    if (t->kind == IR_ENUM) { /* the switch that its uses inline */
        read_body(w, t, "tag", "*out", "return NULL;");
        cw_line(w, "return p;");
        return;
    }
    cw_line(w, "uint32_t h_ = 0;");
    emit_cursor_call(w, "atd_bin_read_hashtag_p(r, p, &h_)", "return NULL;");
    cw_open(w, "switch (h_) {");
    for (size_t i = 0; i < t->ncases; i++) {
        const ir_case *k = &t->cases[i];
        cw_mid(w, "case 0x%08xu:", (unsigned)k->bin_hashtag);
        cw_line(w, "out->tag = %s;", k->const_name);
        if (k->arg.type != NULL) {
            check_call(w, "atd_bin_enter(r, p)", "return NULL;");
            lv = cw_fmt(w, "out->u.%s", k->member);
            fail = push_field_fail(w, "reader", k->atd_name);
            read_slot_tagged(w, &k->arg, lv, fail);
            cw_line(w, "atd_bin_leave(r);");
        }
        cw_line(w, "return p;");
    }
    cw_mid(w, "default:");
    cw_line(w, "break;");
    cw_close(w, "}");
    cw_line(w, "%s", reader_fail(w, bad_variant_call(w, t, "h_")));
}

static void emit_tuple_rbody(cw *w, const ir_type *t)
{
    const char *lv, *fail;
    cw_line(w, "size_t n_ = 0, i_;");
    cw_line(w, "size_t at = atd_reader_offset_of(r, p);");
    cw_line(w, "(void)tag;");
    cw_line(w, "%s_init(out);", t->fn);
    check_call(w, "atd_bin_enter(r, p)", "return NULL;");
    emit_cursor_call(w, "atd_bin_read_count_p(r, p, &n_)", "return NULL;");
    cw_open(w, "if (n_ < %zu)", t->nmin_cells);
    cw_line(w, "%s",
            reader_fail(w, cw_fmt(w,
                                  "atd_reader_fail_at(r, at, ATD_ERR_TUPLE, \"expected at least "
                                  "%zu tuple elements, found %%zu\", n_)",
                                  t->nmin_cells)));
    cw_close(w, "}");
    for (size_t i = 0; i < t->ncells; i++) {
        if (i >= t->nmin_cells)
            cw_open(w, "if (n_ > %zu)", i);
        lv = cw_fmt(w, "out->f%zu", i);
        fail = index_fail(w, cw_fmt(w, "%zu", i));
        read_slot_tagged(w, &t->cells[i].slot, lv, fail);
        if (i >= t->nmin_cells)
            cw_close(w, "}");
    }
    cw_open(w, "for (i_ = %zu; i_ < n_; i_++)", t->ncells);
    emit_cursor_call(w, "atd_bin_skip_p(r, p)", index_fail(w, "i_"));
    cw_close(w, "}");
    cw_line(w, "atd_bin_leave(r);");
    cw_line(w, "return p;");
}

/* Allocates `count` items of type tn into `items` (count <= bytes left, so
 * the size is bounded by the input). */
static void alloc_items(cw *w, const char *tn, const char *count)
{
    cw_open(w, "if (%s > SIZE_MAX / sizeof(%s))", count, tn);
    cw_line(w, "%s", reader_fail(w, nomem_call()));
    cw_close(w, "}");
    cw_line(w, "items = (%s *)atd_arena_alloc(atd_reader_arena(r), %s * sizeof(%s), 8);", tn, count,
            tn);
    cw_open(w, "if (items == NULL)");
    cw_line(w, "%s", reader_fail(w, nomem_call()));
    cw_close(w, "}");
}

/* The table form of a list of records: the header maps each column to a
 * field (unknown columns are skipped), then each row is read like a record. */
static void emit_table_rbody(cw *w, const ir_type *t)
{
    const ir_type *rec = t->elem.type;
    const char *fail;
    size_t nwords = (rec->nrequired + 63) / 64;
    cw_line(w, "size_t rows = 0, cols = 0, i, c;");
    cw_line(w, "int *colf;");
    cw_line(w, "uint8_t *colt;");
    cw_line(w, "%s *items;", rec->name);
    cw_line(w, "size_t at = atd_reader_offset_of(r, p);");
    emit_cursor_call(w, "atd_bin_read_count_p(r, p, &rows)", "return NULL;");
    cw_open(w, "if (rows == 0)");
    cw_line(w, "atd_bin_leave(r);");
    cw_line(w, "return p;");
    cw_close(w, "}");
    emit_cursor_call(w, "atd_bin_read_count_p(r, p, &cols)", "return NULL;");
    cw_line(w, "colf = (int *)atd_arena_alloc(atd_reader_arena(r), cols * sizeof(int) + 1, 8);");
    cw_line(w, "colt = (uint8_t *)atd_arena_alloc(atd_reader_arena(r), cols + 1, 1);");
    cw_open(w, "if (colf == NULL || colt == NULL)");
    cw_line(w, "%s", reader_fail(w, nomem_call()));
    cw_close(w, "}");
    cw_open(w, "for (c = 0; c < cols; c++)");
    cw_line(w, "uint32_t h_ = 0;");
    cw_line(w, "uint32_t accept;");
    emit_cursor_call(w, "atd_bin_read_field_hashtag_p(r, p, &h_)", "return NULL;");
    cw_open(w, "switch (h_) {");
    for (size_t j = 0; j < rec->nfields; j++) {
        const ir_field *f = &rec->fields[j];
        cw_mid(w, "case 0x%08xu:", (unsigned)f->bin_hashtag);
        cw_line(w, "colf[c] = %zu;", j);
        if (f->kind == IR_FIELD_OPTIONAL)
            cw_line(w, "accept = ATD_BIN_MASK(%d);", ATD_BIN_NUM_VARIANT);
        else
            cw_line(w, "accept = %s;", bin_accept(w, f->slot.type));
        cw_line(w, "break;");
    }
    cw_mid(w, "default:");
    unknown_field(w, rec);
    cw_comment(w, "as atdgen: the column's tag is not looked at, and its cells are "
                  "skipped as tagged values");
    cw_line(w, "colf[c] = -1;");
    cw_line(w, "accept = 0;");
    cw_line(w, "break;");
    cw_close(w, "}");
    cw_open(w, "if (colf[c] < 0)");
    emit_cursor_call(w, "atd_bin_read_byte_p(r, p, &colt[c])", "return NULL;");
    cw_mid(w, "} else {");
    emit_cursor_call(w, "atd_bin_read_tag_p(r, p, accept, &colt[c])", "return NULL;");
    cw_close(w, "}");
    cw_close(w, "}");
    cw_open(w, "if (cols > 0 && rows > atd_bin_bytes_left(r, p) / cols)");
    cw_line(w, "%s",
            reader_fail(w, "atd_reader_fail_at(r, at, ATD_ERR_EOF, \"table of %zu rows "
                           "and %zu columns exceeds the input\", rows, cols)"));
    cw_close(w, "}");
    alloc_items(w, rec->name, "rows");
    cw_open(w, "for (i = 0; i < rows; i++)");
    cw_line(w, "%s *row = &items[i];", rec->name);
    if (nwords > 0)
        cw_line(w, "uint64_t seen[%zu] = {0};", nwords);
    cw_line(w, "%s_init(row);", rec->fn);
    cw_open(w, "for (c = 0; c < cols; c++)");
    cw_line(w, "uint8_t ct = colt[c];");
    cw_open(w, "switch (colf[c]) {");
    for (size_t j = 0; j < rec->nfields; j++) {
        const ir_field *f = &rec->fields[j];
        cw_mid(w, "case %zu:", j);
        fail = cw_fmt(w, "{ atd_reader_push_field(r, ATD_LIT(\"%s\")); %s }", f->atd_name,
                      index_fail(w, "i"));
        read_field(w, f, "row", "ct", fail);
        cw_line(w, "break;");
    }
    cw_mid(w, "default:");
    cw_line(w, "(void)ct;");
    emit_cursor_call(w, "atd_bin_skip_p(r, p)", index_fail(w, "i"));
    cw_line(w, "break;");
    cw_close(w, "}");
    cw_close(w, "}");
    check_required(w, rec, index_fail(w, "i"));
    cw_close(w, "}");
    cw_line(w, "out->items = items;");
    cw_line(w, "out->len = rows;");
    cw_line(w, "atd_bin_leave(r);");
    cw_line(w, "return p;");
}

static void emit_list_rbody(cw *w, const ir_type *t)
{
    const char *call, *tag;
    const char *en = t->elem.type->name;
    cw_line(w, "out->items = NULL;");
    cw_line(w, "out->len = 0;");
    check_call(w, "atd_bin_enter(r, p)", "return NULL;");
    if (t->bin_table) {
        cw_open(w, "if (tag == %d)", ATD_BIN_TABLE);
        emit_table_rbody(w, t);
        cw_close(w, "}");
    } else {
        cw_line(w, "(void)tag;");
    }
    cw_open(w, "{");
    cw_line(w, "size_t n_ = 0, i;");
    cw_line(w, "uint8_t et = 0;");
    cw_line(w, "%s *items;", en);
    emit_cursor_call(w, "atd_bin_read_count_p(r, p, &n_)", "return NULL;");
    cw_open(w, "if (n_ == 0)");
    cw_line(w, "atd_bin_leave(r);");
    cw_line(w, "return p;");
    cw_close(w, "}");
    call = cw_fmt(w, "atd_bin_read_tag_p(r, p, %s, &et)", bin_accept(w, t->elem.type));
    emit_cursor_call(w, call, "return NULL;");
    alloc_items(w, en, "n_");
    /* elements of a single tag are read with it as a constant */
    tag = single_tag(w, t->elem.type);
    cw_open(w, "for (i = 0; i < n_; i++)");
    read_body(w, t->elem.type, tag != NULL ? tag : "et", "items[i]", index_fail(w, "i"));
    cw_close(w, "}");
    cw_line(w, "out->items = items;");
    cw_line(w, "out->len = n_;");
    cw_line(w, "atd_bin_leave(r);");
    cw_line(w, "return p;");
    cw_close(w, "}");
}

static void emit_assoc_rbody(cw *w, const ir_type *t)
{
    const char *itn, *call, *fail;
    itn = cw_fmt(w, "%s_item", t->name);
    cw_line(w, "size_t n_ = 0, i, k;");
    cw_line(w, "uint8_t et = 0;");
    cw_line(w, "%s *items;", itn);
    cw_line(w, "(void)tag;");
    cw_line(w, "out->items = NULL;");
    cw_line(w, "out->len = 0;");
    check_call(w, "atd_bin_enter(r, p)", "return NULL;");
    emit_cursor_call(w, "atd_bin_read_count_p(r, p, &n_)", "return NULL;");
    cw_open(w, "if (n_ == 0)");
    cw_line(w, "atd_bin_leave(r);");
    cw_line(w, "return p;");
    cw_close(w, "}");
    call = cw_fmt(w, "atd_bin_read_tag_p(r, p, ATD_BIN_MASK(%d), &et)", ATD_BIN_TUPLE);
    emit_cursor_call(w, call, "return NULL;");
    alloc_items(w, itn, "n_");
    cw_open(w, "for (i = 0; i < n_; i++)");
    cw_line(w, "size_t cells = 0, at = atd_reader_offset_of(r, p);");
    check_call(w, "atd_bin_enter(r, p)", index_fail(w, "i"));
    emit_cursor_call(w, "atd_bin_read_count_p(r, p, &cells)", index_fail(w, "i"));
    cw_open(w, "if (cells < 2)");
    cw_line(w, "atd_reader_fail_at(r, at, ATD_ERR_TUPLE, \"expected at least 2 tuple elements, "
               "found %%zu\", cells);");
    cw_line(w, "%s", index_fail(w, "i"));
    cw_close(w, "}");
    fail = cw_fmt(w, "{ atd_reader_push_index(r, 0); %s }", index_fail(w, "i"));
    call = cw_fmt(w, "atd_bin_read_tag_p(r, p, ATD_BIN_MASK(%d), &et)", ATD_BIN_STRING);
    emit_cursor_call(w, call, fail);
    emit_cursor_call(w, "atd_bin_read_string_p(r, p, &items[i].key)", fail);
    read_slot_tagged(w, &t->elem, "items[i].value",
                     cw_fmt(w, "{ atd_reader_push_index(r, 1); %s }", index_fail(w, "i")));
    cw_open(w, "for (k = 2; k < cells; k++)");
    emit_cursor_call(w, "atd_bin_skip_p(r, p)", index_fail(w, "i"));
    cw_close(w, "}");
    cw_line(w, "atd_bin_leave(r);");
    cw_close(w, "}");
    cw_line(w, "out->items = items;");
    cw_line(w, "out->len = n_;");
    cw_line(w, "atd_bin_leave(r);");
    cw_line(w, "return p;");
}

static void emit_option_rbody(cw *w, const ir_type *t)
{
    cw_line(w, "uint8_t b_ = 0;");
    cw_line(w, "(void)tag;");
    cw_line(w, "out->has = false;");
    emit_cursor_call(w, "atd_bin_read_byte_p(r, p, &b_)", "return NULL;");
    cw_open(w, "if (b_ == 0)");
    cw_line(w, "return p;");
    cw_close(w, "}");
    cw_open(w, "if (b_ != 0x80)");
    cw_line(w, "%s",
            reader_fail(w, "atd_reader_fail_at(r, atd_reader_offset_of(r, p) - 1, "
                           "ATD_ERR_TYPE, \"expected an option (0 or 0x80), found "
                           "%u\", b_)"));
    cw_close(w, "}");
    check_call(w, "atd_bin_enter(r, p)", "return NULL;");
    read_slot_tagged(w, &t->elem, "out->value", "return NULL;");
    cw_line(w, "atd_bin_leave(r);");
    cw_line(w, "out->has = true;");
    cw_line(w, "return p;");
}

/* --- entry points --- */

static void emit_entry_points(cw *w, const char *name, const ir_type *t, bool composite)
{
    /* write: tag, then body */
    cw_line(w, "bool %s_write_biniou(atd_writer *w, const %s *v)", name, name);
    cw_open(w, "{");
    cw_line(w, "char *p = atd_writer_cursor(w);");
    if (composite) {
        room(w, "1", "return false;");
        cw_line(w, "*p++ = (char)%uu;", bin_tag(t));
        cw_line(w, "return atd_writer_finish(w, %s__bin_wbody(w, p, v));", t->fn);
    } else {
        write_headed(w, cw_fmt(w, "%uu", bin_tag(t)), 1, t, "(*v)", "return false;");
        cw_line(w, "atd_writer_commit(w, p);");
        cw_line(w, "return true;");
    }
    cw_close(w, "}");
    cw_blank(w);
    /* read: tag checked, then body */
    cw_line(w, "bool %s_read_biniou(atd_reader *r, %s *out)", name, name);
    cw_open(w, "{");
    cw_line(w, "uint8_t tag = 0;");
    cw_line(w, "const char *p = atd_bin_read_tag_p(r, atd_reader_cursor(r), %s, &tag);",
            bin_accept(w, t));
    cw_open(w, "if (p == NULL)");
    cw_line(w, "return false;");
    cw_close(w, "}");
    if (composite) {
        cw_line(w, "return atd_reader_advance(r, %s__bin_rbody(r, p, tag, out));", t->fn);
    } else {
        const char *tag = single_tag(w, t);
        read_body(w, t, tag != NULL ? tag : "tag", "(*out)", "return false;");
        cw_line(w, "atd_reader_seek(r, p);");
        cw_line(w, "return true;");
    }
    cw_close(w, "}");
    cw_blank(w);
    cw_line(w, "ATD_DEFINE_BINIOU_ENTRY_POINTS(%s)", name);
    cw_blank(w);
}

/* The body emitters of a composite kind: writer and reader. */
typedef struct bin_body {
    void (*write)(cw *w, const ir_type *t);
    void (*read)(cw *w, const ir_type *t);
} bin_body;

static bin_body bin_body_of(const ir_type *t)
{
    bin_body b = {emit_option_wbody, emit_option_rbody};
    switch (t->kind) {
    case IR_RECORD:
        b.write = emit_record_wbody;
        b.read = emit_record_rbody;
        break;
    case IR_ENUM:
    case IR_SUM:
        b.write = emit_sum_wbody;
        b.read = emit_sum_rbody;
        break;
    case IR_TUPLE:
        b.write = emit_tuple_wbody;
        b.read = emit_tuple_rbody;
        break;
    case IR_LIST:
        b.write = emit_list_wbody;
        b.read = emit_list_rbody;
        break;
    case IR_ASSOC:
        b.write = emit_assoc_wbody;
        b.read = emit_assoc_rbody;
        break;
    default:
        break;
    }
    return b;
}

/* Whether every field or cell of t is bounded (scalars, strings, enums):
 * its writer calls no other body writer, so t cannot be recursive. */
static bool wbody_leaf(const ir_type *t)
{
    if (t->kind == IR_RECORD) {
        for (size_t i = 0; i < t->nfields; i++)
            if (!field_in_run(&t->fields[i]))
                return false;
        return true;
    }
    for (size_t i = 0; i < t->ncells; i++)
        if (t->cells[i].slot.ptr || put_bound(t->cells[i].slot.type) == 0)
            return false;
    return true;
}

/* The storage of t's body writer: records and tuples are inline, so that
 * the loop of a list of them writes each one without a call (the compiler
 * keeps the call for large ones; leaves, whose strings' copies make them
 * look large, are inlined always); so are options, mostly absent values
 * whose call would cost more than their byte. */
static const char *wbody_storage(const ir_type *t)
{
    if (t->kind == IR_OPTION || t->kind == IR_NULLABLE)
        return "static inline";
    if (t->kind != IR_RECORD && t->kind != IR_TUPLE)
        return "static";
    return wbody_leaf(t) ? "static ATD__HOT_INLINE" : "static inline";
}

static void emit_type_biniou(cw *w, const ir_type *t)
{
    bin_body body = bin_body_of(t);
    if (t->kind == IR_RECORD)
        emit_record_runs_checked(w, t);
    cw_line(w, "%s char *%s__bin_wbody(atd_writer *w, char *p, const %s *v)", wbody_storage(t),
            t->fn, t->name);
    cw_open(w, "{");
    body.write(w, t);
    cw_close(w, "}");
    cw_blank(w);
    cw_line(w,
            "static const char *%s__bin_rbody(atd_reader *r, const char *p, uint8_t tag, %s *out)",
            t->fn, t->name);
    cw_open(w, "{");
    body.read(w, t);
    cw_close(w, "}");
    cw_blank(w);
    if (t->exported) /* the others are only read and written inside others */
        emit_entry_points(w, t->name, t, true);
    cw_end_item(w);
}

void emit_biniou_source(cw *w, const ir_module *m, const bool *used)
{
    cw_comment(w, "--- biniou ---");
    cw_blank(w);
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (!used[i])
            continue;
        cw_line(w, "%s char *%s__bin_wbody(atd_writer *w, char *p, const %s *v);", wbody_storage(t),
                t->fn, t->name);
        cw_line(w,
                "static const char *%s__bin_rbody(atd_reader *r, const char *p, uint8_t tag, "
                "%s *out);",
                t->fn, t->name);
        if (t->kind == IR_ENUM) { /* the constructors' hashtags: its writer, record writers */
            cw_open(w, "static const char %s__bin_ctor[%zu][5] = {", t->fn, t->ncases);
            for (size_t k = 0; k < t->ncases; k++) {
                uint32_t h = t->cases[k].bin_hashtag;
                cw_line(w, "\"\\x%02x\\x%02x\\x%02x\\x%02x\",", (unsigned)(h >> 24),
                        (unsigned)(h >> 16) & 0xffu, (unsigned)(h >> 8) & 0xffu,
                        (unsigned)h & 0xffu);
            }
            cw_close(w, "};");
        }
    }
    cw_blank(w);
    for (size_t i = 0; i < m->ntypes; i++)
        if (used[i])
            emit_type_biniou(w, m->types[i]);
    for (size_t i = 0; i < m->ndefs; i++) {
        const ir_def *d = &m->defs[i];
        if (!d->is_typedef || d->bin_skip)
            continue;
        emit_entry_points(w, d->c_name, d->type, false);
        cw_end_item(w);
    }
}

void emit_biniou_prototypes(cw *w, const char *name)
{
    cw_line(w, "bool %s_read_biniou(atd_reader *r, %s *out);", name, name);
    cw_line(w, "bool %s_write_biniou(atd_writer *w, const %s *v);", name, name);
    cw_line(w,
            "int %s_from_biniou(const char *data, size_t len, atd_arena *arena, %s *out, "
            "atd_error *err);",
            name, name);
    cw_line(w, "int %s_to_biniou(const %s *value, atd_buf *out, atd_error *err);", name, name);
}

/* For emit_lazy.c, whose values are biniou wherever the schema does not
 * mark them otherwise. */
unsigned emit_biniou_tag(const ir_type *t)
{
    return bin_tag(t);
}

void emit_biniou_write_tagged(cw *w, const ir_slot *s, const char *rv, const char *fail)
{
    /* in a function that returns a bool: the cursor lives in a block */
    cw_open(w, "{");
    cw_line(w, "char *p = atd_writer_cursor(w);");
    write_slot_tagged(w, s, rv, fail);
    cw_line(w, "atd_writer_commit(w, p);");
    cw_close(w, "}");
}

void emit_biniou_read_tagged(cw *w, const ir_slot *s, const char *lv, const char *fail)
{
    /* in a function that returns a bool: the cursor lives in a block */
    cw_open(w, "{");
    cw_line(w, "const char *p = atd_reader_cursor(r);");
    read_slot_tagged(w, s, lv, fail);
    cw_line(w, "atd_reader_seek(r, p);");
    cw_close(w, "}");
}
