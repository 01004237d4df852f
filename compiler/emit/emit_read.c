/* Generated JSON readers (atdgen's JSON mapping, read side), plus the init
 * functions that set defaults. One pass straight from the bytes into the
 * struct through the runtime's reader primitives; no DOM, no token array.
 * Every failing call unwinds with the field name or index pushed on the error
 * path. Lists grow by doubling inside the reader's arena (atd_arena_grow,
 * in place when nothing else was allocated meanwhile).
 *
 * Record keys: the field expected next (declaration order) is tried first,
 * then a switch on the key's bytes chosen by atdc, then the length switch
 * of emit_match.c on the decoded key. A key that appears twice is read
 * twice and the last value wins (as in atdgen); for a list field the
 * earlier list stays in the arena until it is reset. Constructor names are
 * read with atd_read_name_p (borrowed, not copied) and quoted with
 * atd_quote_name in messages.
 *
 * Every reader takes the cursor and returns it (P_t_read_p: NULL after
 * recording the error), so that it stays in a register from the document's
 * first byte to its last; the bool P_t_read of the header is a one-line
 * wrapper (ATD_DEFINE_READ). Only a type imported from another schema is
 * called through its bool reader, its p-form reader being static there. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atd/reader.h"
#include "emit.h"

/* Arena alignment for arrays of t (the largest member alignment in practice). */
static int align_of(const ir_type *t)
{
    switch (t->kind) {
    case IR_UNIT:
    case IR_BOOL:
        return 1;
    case IR_INT:
        return t->int_repr == IR_INT8 || t->int_repr == IR_UINT8     ? 1
               : t->int_repr == IR_INT16 || t->int_repr == IR_UINT16 ? 2
               : t->int_repr == IR_INT64                             ? 8
                                                                     : 4;
    case IR_FLOAT:
        return t->float32 ? 4 : 8;
    default:
        return 8;
    }
}

bool emit_has_init(const ir_type *t)
{
    return t->exported || t->imported || t->kind == IR_RECORD || t->kind == IR_TUPLE;
}

void emit_init_call(cw *w, const ir_type *t, const char *ptr)
{
    if (emit_has_init(t))
        cw_line(w, "%s_init(%s);", t->fn, ptr);
    else if (t->kind == IR_ENUM)
        cw_line(w, "*%s = %s;", ptr, t->cases[0].const_name);
    else
        cw_line(w, "memset(%s, 0, sizeof *%s);", ptr, ptr);
}

bool emit_has_p_reader(const ir_type *t)
{
    return !t->imported && ir_is_composite(t) && t->kind != IR_WRAP;
}

/* `fail` below is always the whole failure statement. */

/* The failure statement that returns after the error call `call` (NULL:
 * the error is recorded already). */
static const char *fail_stmt(cw *w, const char *call)
{
    return call == NULL ? "return NULL;" : cw_fmt(w, "return atd_fail_cursor(%s);", call);
}

/* Opens the block run when the primitive `prim` (an atd_read_X_p with the
 * arguments `args` after the cursor, NULL for none) fails:
 *     p = atd_read_int64_p(r, p, &out->date);
 *     if (p == NULL) { */
static void open_prim(cw *w, const char *prim, const char *args)
{
    cw_line(w, "p = %s_p(r, p%s%s);", prim, args ? ", " : "", args ? args : "");
    cw_open(w, "if (p == NULL)");
}

/* The same for the reader of composite t into the lvalue lv. The bool
 * reader of an imported type runs on r->cur: the cursor goes there and
 * comes back (returns true: the caller takes it back after the block):
 *     p = P_t_read_p(r, p, &lv); if (p == NULL) {
 *     atd_reader_seek(r, p); if (!P_t_read(r, &lv)) { ... } p = atd_reader_cursor(r); */
static bool open_composite(cw *w, const ir_type *t, const char *lv)
{
    if (emit_has_p_reader(t)) {
        cw_line(w, "p = %s_read_p(r, p, &%s);", t->fn, lv);
        cw_open(w, "if (p == NULL)");
        return false;
    }
    cw_line(w, "atd_reader_seek(r, p);");
    cw_open(w, "if (!%s_read(r, &%s))", t->fn, lv);
    return true;
}

/* Emits the statements that read a value of type t into the lvalue `lv`,
 * running the statement `fail` when reading fails, e.g.
 *     p = atd_read_int64_p(r, p, &out->date);
 *     if (p == NULL) {
 *         return atd_fail_cursor(atd_reader_push_field(r, ATD_LIT("date")));
 *     }
 */
static void read_slot(cw *w, const ir_slot *s, const char *lv, const char *fail);

static void read_value(cw *w, const ir_type *t, const char *lv, const char *fail)
{
    static const char *const mins[] = {"INT64_MIN", "INT8_MIN", "INT16_MIN", "INT32_MIN",
                                       "0",         "0",        "0"};
    static const char *const maxs[] = {"INT64_MAX", "INT8_MAX",   "INT16_MAX", "INT32_MAX",
                                       "UINT8_MAX", "UINT16_MAX", "UINT32_MAX"};
    bool take_back = false; /* the cursor comes back from r->cur */
    switch (t->kind) {
    case IR_UNIT:
        open_prim(w, "atd_read_null", NULL);
        cw_line(w, "%s", fail);
        cw_close(w, "}");
        cw_line(w, "%s = 0;", lv);
        return;
    case IR_BOOL:
        open_prim(w, "atd_read_bool", cw_fmt(w, "&%s", lv));
        break;
    case IR_INT:
        if (t->int_repr == IR_INT64) {
            open_prim(w, "atd_read_int64", cw_fmt(w, "&%s", lv));
            break;
        }
        cw_open(w, "{");
        cw_line(w, "int64_t i_;");
        open_prim(w, "atd_read_int_range",
                  cw_fmt(w, "%s, %s, &i_", mins[t->int_repr], maxs[t->int_repr]));
        cw_line(w, "%s", fail);
        cw_close(w, "}");
        cw_line(w, "%s = (%s)i_;", lv, t->name);
        cw_close(w, "}");
        return;
    case IR_FLOAT:
        if (!t->float32) {
            open_prim(w, "atd_read_double", cw_fmt(w, "&%s", lv));
            break;
        }
        cw_open(w, "{");
        cw_line(w, "double d_;");
        open_prim(w, "atd_read_double", "&d_");
        cw_line(w, "%s", fail);
        cw_close(w, "}");
        cw_line(w, "%s = (float)d_;", lv);
        cw_close(w, "}");
        return;
    case IR_STRING:
        open_prim(w, "atd_read_string", cw_fmt(w, "&%s", lv));
        break;
    case IR_ABSTRACT:
        open_prim(w, "atd_json_read", cw_fmt(w, "&%s", lv));
        break;
    case IR_WRAP: {
        /* the wire value first, then the user's conversion:
         *     { int64_t w7_; ...read w7_...; out->id = id_of_int(w7_); } */
        const char *tmp = cw_fmt(w, "w%d_", t->id);
        const char *ptr = cw_fmt(w, "&%s", tmp);
        cw_open(w, "{");
        cw_line(w, "%s %s;", t->elem.type->name, tmp);
        if (ir_is_composite(t->elem.type))
            emit_init_call(w, t->elem.type, ptr);
        read_slot(w, &t->elem, tmp, fail);
        cw_line(w, "%s = %s(%s);", lv, t->wrap_fn, tmp);
        cw_close(w, "}");
        return;
    }
    default: /* the composite kinds */
        take_back = open_composite(w, t, lv);
        break;
    }
    cw_line(w, "%s", fail);
    cw_close(w, "}");
    if (take_back)
        cw_line(w, "p = atd_reader_cursor(r);");
}

/* Like read_value for a slot; a pointer slot first gets its value from the
 * arena:
 *     {
 *         event_tree *p_ = (event_tree *)atd_arena_alloc(r->arena, sizeof(event_tree), 8);
 *         if (p_ == NULL) { atd_reader_fail_at(r, ..., ATD_ERR_NOMEM, "out of memory"); FAIL }
 *         out->left = p_;
 *         ...read into *p_...
 *     }
 */
static void read_slot_value(cw *w, const ir_slot *s, const char *lv, const char *fail);

/* A slot with checks (<c validator="fn">, <c min>...): they run on the
 * value once read; a refusal is reported at the value's first byte
 * (emit_validators.c). */
static void read_slot(cw *w, const ir_slot *s, const char *lv, const char *fail)
{
    if (s->check == NULL) {
        read_slot_value(w, s, lv, fail);
        return;
    }
    cw_open(w, "{");
    cw_line(w, "p = atd_skip_ws_p(r, p);");
    cw_line(w, "size_t at_v_ = atd_reader_offset_of(r, p);");
    read_slot_value(w, s, lv, fail);
    emit_validators_read(w, s->check, s->type, s->ptr, lv, "at_v_", fail);
    cw_close(w, "}");
}

static void read_slot_value(cw *w, const ir_slot *s, const char *lv, const char *fail)
{
    if (!s->ptr) {
        read_value(w, s->type, lv, fail);
        return;
    }
    const char *tn = s->type->name;
    cw_open(w, "{");
    cw_line(w, "%s *p_ = (%s *)atd_arena_alloc(atd_reader_arena(r), sizeof(%s), 8);", tn, tn, tn);
    cw_open(w, "if (p_ == NULL)");
    cw_line(w, "atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_NOMEM, \"out of memory\");");
    cw_line(w, "%s", fail);
    cw_close(w, "}");
    cw_line(w, "%s = p_;", lv);
    read_value(w, s->type, "*p_", fail);
    cw_close(w, "}");
}

void emit_read_slot(cw *w, const ir_slot *s, const char *lv, const char *fail)
{
    read_slot(w, s, lv, fail);
}

/* Emits the assignment of a default value to the lvalue `lv` of type t;
 * `object` names the static const object of an OPAQUE default. */
static void assign_default(cw *w, const ir_type *t, const ir_default *d, const char *lv,
                           const char *object)
{
    switch (d->kind) {
    case IR_DEFAULT_ZERO:
        break; /* memset already */
    case IR_DEFAULT_EXPR:
        if (t->kind == IR_SUM)
            cw_line(w, "%s.tag = %s;", lv, d->c_expr);
        else
            cw_line(w, "%s = (%s)(%s);", lv, t->name, d->c_expr);
        break;
    case IR_DEFAULT_STRING: {
        const char *lit = cw_c_string(w, d->bytes, d->len);
        cw_line(w, "%s.ptr = \"%s\";", lv, lit);
        cw_line(w, "%s.len = ATD_LEN(\"%s\");", lv, lit);
        break;
    }
    case IR_DEFAULT_OPAQUE:
        cw_line(w, "%s = %s;", lv, object);
        break;
    }
}

/* The defaults given as C initializers (<c default="{...}"> on a list,
 * record, option...) live in file-scope static const objects: a compound
 * literal inside such an initializer (list items) has static storage, and
 * the C compiler checks that the initializer is constant. E.g.
 *     static const P_int_list P_t__default_xs = {(int64_t[]){1, 2}, 2};
 */
static void emit_default_object(cw *w, const ir_type *t, const ir_default *d, const char *object)
{
    if (d->kind == IR_DEFAULT_OPAQUE)
        cw_line(w, "static const %s %s = %s;", t->name, object, d->c_expr);
}

/* Emits:
 *     void event_event_init(event_event *v)
 *     {
 *         memset(v, 0, sizeof *v);
 *         v->level = (int64_t)(3);
 *     }
 */
static void emit_init(cw *w, const ir_type *t, const char *name)
{
    if (t->kind == IR_RECORD) {
        for (size_t i = 0; i < t->nfields; i++) {
            const ir_field *f = &t->fields[i];
            if (f->kind == IR_FIELD_DEFAULT && !f->slot.ptr)
                emit_default_object(w, f->slot.type, &f->dflt,
                                    cw_fmt(w, "%s__default_%s", name, f->c_name));
        }
    } else if (t->kind == IR_TUPLE) {
        for (size_t i = 0; i < t->ncells; i++) {
            if (t->cells[i].has_default && !t->cells[i].slot.ptr)
                emit_default_object(w, t->cells[i].slot.type, &t->cells[i].dflt,
                                    cw_fmt(w, "%s__default_f%zu", name, i));
        }
    }
    cw_line(w, "%svoid %s_init(%s *v)", emit_linkage(t), name, name);
    cw_open(w, "{");
    cw_line(w, "memset(v, 0, sizeof *v);");
    if (t->kind == IR_RECORD) {
        for (size_t i = 0; i < t->nfields; i++) {
            const ir_field *f = &t->fields[i];
            if (f->kind != IR_FIELD_DEFAULT || f->slot.ptr)
                continue;
            assign_default(w, f->slot.type, &f->dflt, cw_fmt(w, "v->%s", f->c_name),
                           cw_fmt(w, "%s__default_%s", name, f->c_name));
        }
    } else if (t->kind == IR_TUPLE) {
        for (size_t i = 0; i < t->ncells; i++) {
            if (!t->cells[i].has_default || t->cells[i].slot.ptr)
                continue;
            assign_default(w, t->cells[i].slot.type, &t->cells[i].dflt, cw_fmt(w, "v->f%zu", i),
                           cw_fmt(w, "%s__default_f%zu", name, i));
        }
    } else if (t->kind == IR_ENUM) {
        cw_line(w, "*v = %s;", t->cases[0].const_name);
    }
    cw_close(w, "}");
    cw_blank(w);
}

/* The failure statement that pushes a field name. */
static const char *push_field_stmt(cw *w, const char *json_name, size_t len)
{
    return fail_stmt(w, cw_fmt(w, "atd_reader_push_field(r, %s)", cw_lit(w, json_name, len)));
}

/* Whether field f's key may be matched byte for byte (emit_name_is_plain). */
static bool key_is_plain(const ir_field *f)
{
    return emit_name_is_plain(f->json_name, f->json_len);
}

/* The p-form reader's signature:
 *     static const char *event_event_read_p(atd_reader *r, const char *p, event_event *out)
 * A list's reader is not inlined (ATD_NOINLINE, as ATD_DEFINE_LIST_READ_P's):
 * it runs once per list, not per element, so the call costs little, and
 * the reader that calls it (gcc inlines a static function called once)
 * stays smaller: gcc's time grows faster than a function's size. */
static void read_p_signature(cw *w, const ir_type *t)
{
    cw_line(w, "static %sconst char *%s_read_p(atd_reader *r, const char *p, %s *out)",
            t->kind == IR_LIST ? "ATD_NOINLINE " : "", t->fn, t->name);
}

/* The bool reader P t_read of a type with a p-form reader, on r->cur
 * (atd/detail/entry_points.h):
 *     ATD_DEFINE_READ(extern, event_event, event_event) */
static void emit_bool_reader(cw *w, const ir_type *t)
{
    cw_blank(w);
    cw_line(w, "ATD_DEFINE_READ(%s, %s, %s)", t->exported ? "extern" : "static", t->fn, t->name);
}

/* Emits `if (v == NULL) return NULL;`: the error is recorded already. */
static void check_cursor_of(cw *w, const char *v)
{
    cw_open(w, "if (%s == NULL)", v);
    cw_line(w, "return NULL;");
    cw_close(w, "}");
}

/* The same for the cursor, after a container step. */
static void check_cursor(cw *w)
{
    check_cursor_of(w, "p");
}

/* The statements that read field f's value at p (after its key). A ? or ~
 * field given as null is absent, as atdgen reads it. */
static void read_field_value(cw *w, const ir_type *t, const ir_field *f)
{
    const char *fail = emit_field_fail(w, (size_t)(f - t->fields));
    const char *lv = cw_fmt(w, "out->%s", f->c_name);
    if (emit_tv_is_value(t, (size_t)(f - t->fields))) {
        emit_tv_field_read(w, t, true, fail); /* Type_and_value_fields (emit_adapter.c) */
        return;
    }
    if (f->kind == IR_FIELD_REQUIRED) {
        read_slot(w, &f->slot, lv, fail);
        return;
    }
    if (!t->keep_nulls)
        cw_open(w, "if (!atd_null_skip(r, &p))");
    read_slot(w, &f->slot, lv, fail);
    if (f->kind == IR_FIELD_OPTIONAL)
        cw_line(w, "out->has_%s = true;", f->c_name);
    if (!t->keep_nulls)
        cw_close(w, "}");
}

static void set_seen_bit(cw *w, const ir_field *f)
{
    if (f->kind == IR_FIELD_REQUIRED)
        cw_line(w, "seen[%d] |= (uint64_t)1 << %d;", f->required_index / 64,
                f->required_index % 64);
}

/* The C string contents of plain field f's key as the input holds it,
 * quoted and followed by the colon (json_len + 3 bytes): \\"date\\": */
static const char *key_literal(cw *w, const ir_field *f)
{
    return emit_wire_literal(w, f->json_name, f->json_len, true);
}

/* Bytewise order of two fields' JSON names, a prefix first: the order of
 * producers that sort keys (jq -S, Go maps, Python's sort_keys, Erlang). */
static int json_name_cmp(const void *x, const void *y)
{
    const ir_field *a = *(const ir_field *const *)x, *b = *(const ir_field *const *)y;
    size_t n = a->json_len < b->json_len ? a->json_len : b->json_len;
    int c = memcmp(a->json_name, b->json_name, n);
    if (c != 0)
        return c;
    return a->json_len < b->json_len ? -1 : a->json_len > b->json_len;
}

/* The sorted guesses of record t, from one sort of its fields: entry 0 is
 * the plain-keyed field that comes first in sorted order, entry i + 1 the
 * one that follows field i (-1: none). NULL when out of memory (recorded
 * in w's status; see guesses_at). */
static long *sorted_successors(cw *w, const ir_type *t)
{
    size_t n = t->nfields;
    long *succ = cw_alloc(w, (n + 1) * sizeof *succ);
    const ir_field **by_name = cw_alloc(w, (n + 1) * sizeof *by_name);
    if (succ == NULL || by_name == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++)
        by_name[i] = &t->fields[i];
    qsort(by_name, n, sizeof *by_name, json_name_cmp);
    /* backwards, carrying the nearest plain-keyed field after each */
    long next = -1;
    for (size_t k = n; k-- > 0;) {
        size_t i = (size_t)(by_name[k] - t->fields);
        succ[i + 1] = next;
        if (key_is_plain(by_name[k]))
            next = (long)i;
    }
    succ[0] = next;
    return succ;
}

/* The guesses where the straight line expects field k (k == nfields: the
 * '}') and finds another key: the key that follows in sorted order (entry k
 * of the table of sorted_successors; none without the table) and the one
 * that follows in reverse declaration order, the nearest plain-keyed field
 * before the one just read (k - 1), or the last where the object begins
 * (k == 0). -1 for none, for field k itself (its key was compared already)
 * and for a second guess equal to the first. */
typedef struct key_guesses {
    long sorted, reversed;
} key_guesses;

static key_guesses guesses_at(const ir_type *t, const long *succ, size_t k)
{
    key_guesses g = {succ != NULL ? succ[k] : -1, -1};
    long j = k == 0 ? (long)t->nfields - 1 : (long)k - 2;
    while (j >= 0 && !key_is_plain(&t->fields[j]))
        j--;
    g.reversed = j;
    if (g.sorted == (long)k)
        g.sorted = -1;
    if (g.reversed == (long)k || g.reversed == g.sorted)
        g.reversed = -1;
    return g;
}

/* Leaves the straight line when the key is not the one expected: to `end`
 * when no member follows, else to the field of a guess (key_guesses) when
 * its key is there, so that a document whose keys are sorted or in reverse
 * order goes from field to field by compares and direct jumps, as one in
 * declaration order does; else to the key lookup (`key`):
 *     { if (!more) goto end; if (atd_key_skip(r, &p, ATD_LIT("\"note\":"))) goto field_1; goto key; } */
static const char *goto_key(cw *w, const ir_type *t, key_guesses g)
{
    const char *skips = "";
    long guess[2] = {g.sorted, g.reversed};
    for (size_t i = 0; i < 2; i++) {
        if (guess[i] >= 0)
            skips = cw_fmt(w, "%sif (atd_key_skip(r, &p, ATD_LIT(\"%s\"))) goto field_%ld; ", skips,
                           key_literal(w, &t->fields[guess[i]]), guess[i]);
    }
    return cw_fmt(w, "{ if (!more) goto end; %sgoto key; }", skips);
}

/* The step to the object's first member (`first`) or to the next one, and
 * the key of field i compared as a literal (quoted, with the colon: a few
 * word compares, no key scan and no lookup): on a match the straight line
 * goes on with field i's value, otherwise to `key` by the guesses g;
 * `key` leaves when no member follows. */
static void emit_expect_key(cw *w, const ir_type *t, size_t i, key_guesses g, bool first)
{
    const ir_field *f = &t->fields[i];
    if (!key_is_plain(f)) {
        cw_line(w, "p = atd_object_%s_p(r, p, &more);", first ? "begin" : "next_key");
        cw_line(w, "%s", goto_key(w, t, g));
        return;
    }
    cw_line(w, "if (!atd_object_%s_is(r, &p, &more, ATD_LIT(\"%s\"))) %s", first ? "begin" : "next",
            key_literal(w, f), goto_key(w, t, g));
}

/* The straight line's step from field i to the next: after the value, the
 * ',' and the next field's key (emit_expect_key), or the '}' (the record is
 * done; or an error, which `end` tells by the NULL cursor). The last field
 * falls through to `tail`, which expects the '}'. */
static void emit_next_field(cw *w, const ir_type *t, size_t i, const long *succ)
{
    if (i + 1 < t->nfields)
        emit_expect_key(w, t, i + 1, guesses_at(t, succ, i + 1), false);
}

/* The record's filter of its keys for atd__skip_plain_unknowns_p: the bit
 * of each name, which the runtime computes from the keys of the input. */
static uint64_t key_filter(const char **names, const size_t *lens, size_t n)
{
    uint64_t known = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = lens[i];
        unsigned char first = len > 0 ? (unsigned char)names[i][0] : '"';
        unsigned char last = len > 0 ? (unsigned char)names[i][len - 1] : '"';
        known |= UINT64_C(1) << atd__key_bit(len, first, last);
    }
    return known;
}

/* The tree over the plain keys, when the input holds the key in the plain
 * form "name": with room for the longest key (near the end of the input,
 * and for keys with escapes or whitespace before the colon, the general
 * lookup after it decides; for unknown keys too, unless every name is
 * plain). */
static void emit_key_dispatch(cw *w, const ir_type *t, const char **names, size_t *lens)
{
    plain_tree tree = {names, lens, t->nfields, true, "pp", "return ", NULL, ";", NULL};
    /* A plain key that a tree of every name did not take is unknown:
     * skipped at once, with no match by name (the common case of documents
     * with more fields than the schema). Type_and_value_fields records know
     * their type key even when it is none of their fields. */
    if (t->tv == NULL)
        tree.if_all = cw_fmt(w,
                             "if ((*pp = atd__skip_plain_unknowns_p(r, p, UINT64_C(0x%016" PRIx64
                             "))) != p) return *pp != NULL ? ATD__KEY_SKIPPED : ATD__KEY_FAILED;",
                             key_filter(names, lens, t->nfields));
    emit_plain_dispatch(w, &tree);
}

/* The body of a C string literal of JSON field names of the record, each
 * ended by a NUL. With `required`, those of the required fields in the
 * order of their seen bits (atd_reader_fail_missing_of), or NULL when one
 * holds a NUL or is a Type_and_value value field (whose absence is read,
 * not an error): each field then has its own check. Else every field's,
 * for atd_reader_fail_unknown_field's suggestions, leaving out the names
 * that are empty or hold a NUL, which that list cannot hold. */
static const char *json_name_list(cw *w, const ir_type *t, bool required)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nfields; i++)
        n += t->fields[i].json_len + 1;
    char *list = cw_alloc(w, n + 1);
    if (list == NULL)
        return required ? NULL : ""; /* recorded in w's status */
    size_t len = 0;
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        bool odd = f->json_len == 0 || memchr(f->json_name, '\0', f->json_len) != NULL;
        if (required) {
            if (f->kind != IR_FIELD_REQUIRED)
                continue;
            if (emit_tv_is_value(t, i) || (odd && f->json_len > 0))
                return NULL;
        } else if (odd) {
            continue;
        }
        memcpy(list + len, f->json_name, f->json_len);
        len += f->json_len;
        list[len++] = '\0';
    }
    return cw_c_string(w, list, len);
}

/* The general lookup: the key read with atd_object_key_p (escapes decoded,
 * whitespace before the colon, lenient mode), matched by length and bytes
 * in a function beside the reader, kept out of it (such keys are rare, and
 * the reader stays smaller for the compiler); an unknown key is an error
 * with ATD_READ_STRICT_FIELDS, else its value is skipped. */
static void emit_key_lookup(cw *w, const ir_type *t)
{
    cw_line(w, "p = atd_object_key_p(r, p, &key);");
    cw_line(w, "if (p == NULL) return ATD__KEY_FAILED;");
    cw_line(w, "*pp = p;");
    if (t->nfields > 0) {
        cw_line(w, "i = %s__field_index(key.ptr, key.len);", t->fn);
        cw_line(w, "if (i >= 0) return i;");
    }
    if (t->tv == NULL) {
        cw_line(w, "*pp = atd_skip_unknown_field_p(r, p, key, \"%s\", \"%s\");", t->atd_name,
                json_name_list(w, t, false));
        cw_line(w, "return *pp != NULL ? ATD__KEY_SKIPPED : ATD__KEY_FAILED;");
        return;
    }
    /* Type_and_value_fields: the type key is known, even when strict */
    cw_open(w, "if (atd_reader_has_flag(r, ATD_READ_STRICT_FIELDS)%s)", emit_tv_not_type_key(w, t));
    cw_line(w, "atd_reader_fail_unknown_field(r, p, key, \"%s\", \"%s\");", t->atd_name,
            json_name_list(w, t, false));
    cw_line(w, "return ATD__KEY_FAILED;");
    cw_close(w, "}");
    cw_line(w, "*pp = atd_skip_value_p(r, p);");
    cw_open(w, "if (*pp == NULL)");
    cw_line(w, "atd_reader_push_field(r, key.ptr, key.len);");
    cw_line(w, "return ATD__KEY_FAILED;");
    cw_close(w, "}");
    cw_line(w, "return ATD__KEY_SKIPPED;");
}

/* The key lookup of record t: the index of the field whose key is at *pp,
 * with *pp past the key's colon, or ATD__KEY_SKIPPED or ATD__KEY_FAILED.
 * Its reader calls it once, at `key`; once inlined there, the compiler
 * jumps from each return straight to the field's label. Before it, the
 * record's names table (emit_field_names_table) and T__field_index. */
static void emit_key_function(cw *w, const ir_type *t)
{
    /* the JSON names, for the match by length and the tree over the bytes */
    const char **names = cw_alloc(w, (t->nfields + 1) * sizeof *names);
    size_t *lens = cw_alloc(w, (t->nfields + 1) * sizeof *lens);
    if (names == NULL || lens == NULL)
        return; /* recorded in w's status */
    for (size_t i = 0; i < t->nfields; i++) {
        names[i] = t->fields[i].json_name;
        lens[i] = t->fields[i].json_len;
    }
    if (t->nfields > 0) {
        emit_field_names_table(w, t);
        emit_match_function(w, "ATD_NOINLINE ", cw_fmt(w, "%s__field_index", t->fn), names, lens,
                            NULL, t->nfields);
        cw_blank(w);
    }
    cw_line(w, "static ATD__HOT_INLINE int %s__key(atd_reader *r, const char **pp)", t->fn);
    cw_open(w, "{");
    cw_line(w, "const char *p = *pp; /* reads the key; *pp moves past it */");
    cw_line(w, "atd_string key;");
    if (t->nfields > 0)
        cw_line(w, "int i;");
    emit_key_dispatch(w, t, names, lens);
    emit_key_lookup(w, t);
    cw_close(w, "}");
    cw_blank(w);
}

/* The checks after the object: every required field was seen. The value
 * field of Type_and_value_fields may be missing (a nullary constructor).
 * One compare per 64 required fields on the way out when all were seen:
 *     if (seen[0] != 0x3) { if (!(seen[0] & 1)) ...missing 'date'...; ... } */
static void emit_missing_fields(cw *w, const ir_type *t)
{
    if (t->nrequired == 0)
        return;
    size_t nwords = (t->nrequired + 63) / 64;
    const char *cond = NULL;
    for (size_t k = 0; k < nwords; k++) {
        size_t bits = k + 1 < nwords ? 64 : t->nrequired - 64 * k;
        uint64_t mask = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
        cond = cw_fmt(w, "%s%sseen[%zu] != UINT64_C(0x%" PRIx64 ")", cond ? cond : "",
                      cond ? " || " : "", k, mask);
    }
    cw_open(w, "if (%s)", cond);
    const char *names = json_name_list(w, t, true);
    if (names != NULL) {
        cw_line(w,
                "return atd_fail_cursor(atd_reader_fail_missing_of(r, at, seen, \"%s\", \"%s\"));",
                names, t->atd_name);
        cw_close(w, "}");
        return;
    }
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        if (f->kind != IR_FIELD_REQUIRED)
            continue;
        const char *lit = cw_c_string(w, f->json_name, f->json_len);
        cw_open(w, "if (!(seen[%d] & ((uint64_t)1 << %d)))", f->required_index / 64,
                f->required_index % 64);
        if (emit_tv_is_value(t, i)) {
            emit_tv_field_read(w, t, false, emit_field_fail(w, i));
            cw_close(w, "}");
            continue;
        }
        cw_line(w, "return atd_fail_cursor(atd_reader_fail_missing(r, at, \"%s\", \"%s\"));", lit,
                t->atd_name);
        cw_close(w, "}");
    }
    cw_close(w, "}");
}

/* Emits the record reader and its key lookup before it (emit_key_function),
 * e.g. for { date : int; ?note : string option }:
 *     static const char *event_event_read_p(atd_reader *r, const char *p, event_event *out)
 *     {
 *         bool more;
 *         int field = 0;
 *         const char *at = p;
 *         uint64_t seen[1] = {0};
 *         event_event_init(out);
 *         if (!atd_object_begin_is(r, &p, &more, ATD_LIT("\"date\":"))) { if (!more) goto end; goto key; }
 *     field_0:
 *         p = atd_read_int64_p(r, p, &out->date);
 *         if (p == NULL) { field = 0; goto fail; }
 *         seen[0] |= (uint64_t)1 << 0;
 *         if (!atd_object_next_is(r, &p, &more, ATD_LIT("\"note\":"))) { if (!more) goto end; goto key; }
 *     field_1:
 *         if (!atd_null_skip(r, &p)) { ...read out->note, has_note = true... }
 *     tail:
 *         p = atd_object_end_key_p(r, p, &more);
 *         { if (!more) goto end; if (atd_key_skip(r, &p, ATD_LIT("\"date\":"))) goto field_0; goto key; }
 *     end:
 *         if (p == NULL) return NULL;
 *         if (seen[0] != 0x1) return atd_fail_cursor(...missing field 'date'...);
 *         return p;
 *     key:
 *         switch (event_event__key(r, &p)) {
 *         case 0: goto field_0;
 *         case 1: goto field_1;
 *         case ATD__KEY_SKIPPED: goto tail;
 *         default: return NULL;
 *         }
 *     fail:
 *         return atd_fail_cursor(atd_reader_push_field(r, event_event__names[field].ptr, ...));
 *     }
 * Each field's value is read in one place, its label. A document with its
 * fields in declaration order runs the labels one after the other, each
 * reached from the previous one by one literal compare, without a key
 * scan, a lookup or an indirect jump; one with its keys sorted or in
 * reverse order does the same through the guesses, the keys that follow in
 * those orders, compared second and third. Any other key (another order, a
 * repeated key, where the last value wins) goes through the lookup's tree:
 * a switch on the byte that tells the record's keys apart (chosen by atdc,
 * nested where one byte is not enough) and one compare of the whole key
 * with its quotes and colon, straight from the input: no scan for the
 * closing quote and no atd_string. Keys in another form (escapes,
 * whitespace before the colon, lenient mode, the last bytes of the input)
 * and unknown keys take the general lookup after it, which matches the
 * decoded key in a function of its own (event_event__field_index). When
 * every name is in the plain form that the tree compares, a plain key that
 * it did not take is unknown at once (atd__skip_plain_unknowns_p, which
 * goes on over the unknown members after it). The
 * lookup is a function of its own too, to keep the reader short;
 * inlined at its one call, its returns become jumps to the labels. The
 * value code of a field exists once; one loop over a switch would be as
 * small but cost an indirect jump per field in declaration order. */
static void emit_record_read(cw *w, const ir_type *t)
{
    size_t n = t->nfields;
    const char *fn = t->fn;
    const long *succ = sorted_successors(w, t);
    emit_key_function(w, t);
    read_p_signature(w, t);
    cw_open(w, "{");
    cw_line(w, "bool more;");
    if (n > 0) {
        cw_line(w, "int field = 0; /* the field whose value failed */");
    }
    if (t->nrequired > 0)
        cw_line(w, "const char *at = p;");
    size_t nwords = (t->nrequired + 63) / 64;
    if (nwords > 0)
        cw_line(w, "uint64_t seen[%zu] = {0};", nwords);
    cw_line(w, "%s_init(out);", fn);
    if (t->tv != NULL)
        emit_tv_read_begin(w, t); /* Type_and_value_fields (emit_adapter.c) */
    /* an error leaves more false, for `end` to tell by the cursor */
    if (n > 0) {
        emit_expect_key(w, t, 0, guesses_at(t, succ, 0), true);
    } else {
        cw_line(w, "p = atd_object_begin_p(r, p, &more);");
        cw_line(w, "%s", goto_key(w, t, (key_guesses){-1, -1}));
    }
    for (size_t i = 0; i < n; i++) {
        cw_label(w, "field_%zu:", i);
        read_field_value(w, t, &t->fields[i]);
        set_seen_bit(w, &t->fields[i]);
        emit_next_field(w, t, i, succ);
    }
    cw_label(w, "tail:");
    cw_line(w, "p = atd_object_end_key_p(r, p, &more);");
    cw_line(w, "%s", goto_key(w, t, guesses_at(t, succ, n)));
    cw_label(w, "end:");
    check_cursor(w);
    emit_missing_fields(w, t);
    cw_line(w, "return p;");
    cw_label(w, "key:");
    cw_open(w, "switch (%s__key(r, &p)) {", fn);
    for (size_t i = 0; i < n; i++)
        cw_mid(w, "case %zu: goto field_%zu;", i, i);
    cw_mid(w, "case ATD__KEY_SKIPPED: goto tail;");
    cw_mid(w, "default: return NULL;");
    cw_close(w, "}");
    if (n > 0) {
        cw_label(w, "fail:");
        cw_line(w, "return atd_fail_cursor(atd_reader_push_field(r, %s__names[field].ptr, "
                   "%s__names[field].len));",
                fn, fn);
    }
    cw_close(w, "}");
}

/* Ends the case of a constructor with an argument once the argument is read:
 * the container (array or object) must close right after it.
 *         return atd_read_variant_end_p(r, p, ']', "Circle"); */
static void emit_payload_case_end(cw *w, const ir_case *k, char closer)
{
    cw_line(w, "return atd_read_variant_end_p(r, p, '%c', \"%s\");", closer, k->atd_name);
}

/* Closes the switch over constructor names with an argument; a name that
 * matched none is an error:
 *     default: break; }
 *     { char q_[...]; return atd_fail_cursor(atd_reader_fail_at(r, at, ..."unsupported variant...")); }
 *     } */
static void emit_payload_switch_end(cw *w, const ir_type *t)
{
    cw_mid(w, "default:");
    cw_line(w, "break;");
    cw_close(w, "}");
    cw_open(w, "{");
    cw_line(w, "char q_[ATD_QUOTE_NAME_CAP];");
    cw_line(w,
            "return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, "
            "\"unsupported variant \\\"%%s\\\" with an argument in '%%s'\", "
            "atd_quote_name(s.ptr, s.len, q_, sizeof q_), \"%s\"));",
            t->atd_name);
    cw_close(w, "}");
    cw_close(w, "}");
}

/* The opening of a constructor's container, [ or { at p, up to its first
 * token (begin leaves the cursor there), whose offset becomes `at`:
 *     p = atd_array_begin_at_p(r, p, &more); if (p == NULL) return NULL;
 *     if (!more) return atd_fail_cursor(atd_reader_fail_at(r, at, ..."empty array instead of a variant..."));
 *     at = atd_reader_offset_of(r, p); */
static void emit_payload_begin(cw *w, const ir_type *t, bool array)
{
    cw_line(w, "p = atd_%s_begin_at_p(r, p, &more);", array ? "array" : "object");
    check_cursor(w);
    cw_open(w, "if (!more)");
    cw_line(w,
            "return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, \"empty %s "
            "instead of a variant of '%%s'\", \"%s\"));",
            array ? "array" : "object", t->atd_name);
    cw_close(w, "}");
    cw_line(w, "at = atd_reader_offset_of(r, p);");
}

/* Emits the array form of the constructors with an argument (atdgen's):
 *     if (c == '[') {
 *         ...begin...
 *         p = atd_read_name_p(r, p, &s);
 *         if (p == NULL) return atd_fail_cursor(atd_reader_push_index(r, 0));
 *         switch (event_shape__case(s.ptr, s.len)) {
 *         case 1:
 *             p = atd_read_variant_arg_p(r, p, at, "Circle"); if (p == NULL) return NULL;
 *             out->tag = EVENT_SHAPE_CIRCLE;
 *             ...argument at index 1...
 *             return atd_read_variant_end_p(r, p, ']', "Circle");
 *         default: break;
 *         }
 *         ..."unsupported variant \"%s\" with an argument..."
 *     }
 */
static void emit_sum_read_array(cw *w, const ir_type *t)
{
    cw_open(w, "if (c == '[')");
    emit_payload_begin(w, t, true);
    cw_line(w, "p = atd_read_name_p(r, p, &s);");
    cw_open(w, "if (p == NULL)");
    cw_line(w, "return atd_fail_cursor(atd_reader_push_index(r, 0));");
    cw_close(w, "}");
    cw_open(w, "switch (%s__case(s.ptr, s.len)) {", t->fn);
    for (size_t i = 0; i < t->ncases; i++) {
        const ir_case *k = &t->cases[i];
        if (k->arg.type == NULL || k->catch_all)
            continue;
        cw_mid(w, "case %zu:", i);
        cw_line(w, "p = atd_read_variant_arg_p(r, p, at, \"%s\");", k->atd_name);
        check_cursor(w);
        cw_line(w, "out->tag = %s;", k->const_name);
        read_slot(w, &k->arg, cw_fmt(w, "out->u.%s", k->member),
                  "return atd_fail_cursor(atd_reader_push_index(r, 1));");
        emit_payload_case_end(w, k, ']');
    }
    emit_payload_switch_end(w, t);
}

/* Emits the object form of the constructors with an argument, for a sum with
 * <json repr="object"> (newer ATD backends): exactly one member, named after a
 * constructor with an argument, whose value is the argument.
 *     if (c == '{') {
 *         ...begin...
 *         p = atd_object_key_p(r, p, &s); if (p == NULL) return NULL;
 *         switch (event_shape__case(s.ptr, s.len)) {
 *         case 1:
 *             out->tag = EVENT_SHAPE_CIRCLE;
 *             ...read out->u.Circle, pushing the field "Circle" on failure...
 *             return atd_read_variant_end_p(r, p, '}', "Circle");
 *         default: break;
 *         }
 *         ..."unsupported variant \"%s\" with an argument..."
 *     }
 * atdgen peers cannot read this form: atdgen accepts the annotation but
 * ignores it, so it reads and writes ["Circle",2.0] only. A nullary
 * constructor is still the string "Point" in both directions; `[` is an
 * error ("expected a variant of 'shape'"). */
static void emit_sum_read_object(cw *w, const ir_type *t)
{
    cw_open(w, "if (c == '{')");
    emit_payload_begin(w, t, false);
    cw_line(w, "p = atd_object_key_p(r, p, &s);");
    check_cursor(w);
    cw_open(w, "switch (%s__case(s.ptr, s.len)) {", t->fn);
    for (size_t i = 0; i < t->ncases; i++) {
        const ir_case *k = &t->cases[i];
        if (k->arg.type == NULL || k->catch_all)
            continue;
        cw_mid(w, "case %zu:", i);
        cw_line(w, "out->tag = %s;", k->const_name);
        read_slot(w, &k->arg, cw_fmt(w, "out->u.%s", k->member),
                  push_field_stmt(w, k->json_name, k->json_len));
        emit_payload_case_end(w, k, '}');
    }
    emit_payload_switch_end(w, t);
}

/* Emits the reader of a sum: "Name" for a nullary constructor, ["Name", v]
 * (or {"Name": v} with <json repr="object">) for one with an argument
 * (as atdgen writes them); an enum with an adapter or a validator, and the
 * catch-all of an open_enum, read only strings.
 *     static const char *event_shape_read_p(atd_reader *r, const char *p, event_shape *out)
 *     {
 *         atd_string s; size_t at; bool more; int c;
 *         p = atd_skip_ws_p(r, p);
 *         at = atd_reader_offset_of(r, p);
 *         c = atd_byte_at(r, p);
 *         if (c == '"') {
 *             p = atd_read_name_p(r, p, &s);   // borrowed: no copy
 *             if (p == NULL) return NULL;
 *             switch (event_shape__case(s.ptr, s.len)) {
 *             case 0: out->tag = EVENT_SHAPE_DOT; return p;
 *             ...
 *         }
 *         if (c == '[') { ...name, ',', argument, ']'... }
 *         return atd_fail_cursor(atd_reader_fail_expected(r, p, "a variant of 'shape'"));
 *     }
 */
static void emit_sum_read(cw *w, const ir_type *t)
{
    bool is_enum = t->kind == IR_ENUM;
    bool any_arg = false; /* a constructor read with its argument */
    const ir_case *catch_all = NULL;
    for (size_t i = 0; i < t->ncases; i++) {
        if (t->cases[i].catch_all)
            catch_all = &t->cases[i];
        else if (t->cases[i].arg.type != NULL)
            any_arg = true;
    }
    emit_case_match(w, t, cw_fmt(w, "%s__case", t->fn));
    read_p_signature(w, t);
    cw_open(w, "{");
    /* `at`: where the name starts, for messages (an open_enum has none) */
    bool need_at = any_arg || catch_all == NULL;
    cw_line(w, "atd_string s;");
    if (need_at)
        cw_line(w, "size_t at;");
    if (any_arg)
        cw_line(w, "bool more;");
    cw_line(w, "int c;");
    cw_line(w, "p = atd_skip_ws_p(r, p);");
    if (need_at)
        cw_line(w, "at = atd_reader_offset_of(r, p);");
    cw_line(w, "c = atd_byte_at(r, p);");
    cw_open(w, "if (c == '\"')");
    cw_line(w, "p = atd_read_name_p(r, p, &s);");
    check_cursor(w);
    cw_open(w, "switch (%s__case(s.ptr, s.len)) {", t->fn);
    for (size_t i = 0; i < t->ncases; i++) {
        const ir_case *k = &t->cases[i];
        if (k->arg.type != NULL)
            continue;
        cw_mid(w, "case %zu:", i);
        if (is_enum)
            cw_line(w, "*out = %s;", k->const_name);
        else
            cw_line(w, "out->tag = %s;", k->const_name);
        cw_line(w, "return p;");
    }
    cw_mid(w, "default:");
    cw_line(w, "break;");
    cw_close(w, "}");
    if (catch_all != NULL) {
        /* the name was borrowed (atd_read_name_p): the value must own it */
        cw_line(w, "p = atd_reader_own_string_p(r, p, &s);");
        check_cursor(w);
        cw_line(w, "out->tag = %s;", catch_all->const_name);
        cw_line(w, "out->u.%s = s;", catch_all->member);
        cw_line(w, "return p;");
    } else {
        cw_line(w, "char q_[ATD_QUOTE_NAME_CAP];");
        cw_line(w,
                "return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, "
                "\"unsupported variant \\\"%%s\\\" in '%%s'\", "
                "atd_quote_name(s.ptr, s.len, q_, sizeof q_), \"%s\"));",
                t->atd_name);
    }
    cw_close(w, "}");
    /* atdgen's built-in adapters (emit_adapter.c) still accept the array
     * form: their normalize step passes it through unchanged. */
    if (any_arg && t->adapter == IR_ADAPTER_TYPE_FIELD)
        emit_sum_read_type_field(w, t);
    if (any_arg && t->json_object)
        emit_sum_read_object(w, t);
    if (any_arg && (!t->json_object || t->adapter == IR_ADAPTER_ONE_FIELD))
        emit_sum_read_array(w, t);
    cw_line(w, "return atd_fail_cursor(atd_reader_fail_expected(r, p, \"a variant of '%s'\"));",
            t->atd_name);
    cw_close(w, "}");
}

/* The enum reader's first try: the plain names as the input holds them,
 * matched in place by the decision tree (emit_plain_dispatch):
 *     if (atd_key_room(r, p, ATD_LEN("\"Purchase\""))) {
 *         switch (p[1]) {
 *         case 'L': ... if (atd_bytes_skip(&p, ATD_LIT("\"Login\""))) { *out = EVENT_KIND_LOGIN; return p; } ...
 *         }
 *     }
 * Names with escapes, unknown names and errors go on to the general path. */
static void emit_enum_plain_names(cw *w, const ir_type *t)
{
    const char **names = cw_alloc(w, (t->ncases + 1) * sizeof *names);
    size_t *lens = cw_alloc(w, (t->ncases + 1) * sizeof *lens);
    const char **consts = cw_alloc(w, (t->ncases + 1) * sizeof *consts);
    if (names == NULL || lens == NULL || consts == NULL)
        return; /* recorded in w's status */
    for (size_t i = 0; i < t->ncases; i++) {
        names[i] = t->cases[i].json_name;
        lens[i] = t->cases[i].json_len;
        consts[i] = t->cases[i].const_name;
    }
    plain_tree tree = {names, lens, t->ncases, false, "&p", "{ *out = ", consts, "; return p; }",
                       NULL};
    emit_plain_dispatch(w, &tree);
}

/* Emits the reader of an enum (no argument anywhere, no adapter, no
 * validator): only names, borrowed from the input.
 *     static const char *event_kind_read_p(atd_reader *r, const char *p, event_kind *out)
 *     {
 *         atd_string s;
 *         size_t at;
 *         int i;
 *         p = atd_skip_ws_p(r, p);
 *         at = atd_reader_offset_of(r, p);
 *         if (atd_byte_at(r, p) == '"') {
 *             p = atd_read_name_p(r, p, &s);
 *             if (p == NULL) return NULL;
 *             i = event_kind__case(s.ptr, s.len);
 *             if (i >= 0) { *out = (event_kind)i; return p; }
 *             return atd_fail_cursor(atd_reader_fail_at(r, at, ..."unsupported variant..."));
 *         }
 *         return atd_fail_cursor(atd_reader_fail_expected(r, p, "a variant of 'kind'"));
 *     }
 * The name's switch is the only one: the enum's constants are its cases'
 * indexes (emit_h.c gives them no values of their own). */
static void emit_enum_read_p(cw *w, const ir_type *t)
{
    emit_case_match(w, t, cw_fmt(w, "%s__case", t->fn));
    read_p_signature(w, t);
    cw_open(w, "{");
    cw_line(w, "atd_string s;");
    cw_line(w, "size_t at;");
    cw_line(w, "int i;");
    cw_line(w, "p = atd_skip_ws_p(r, p);");
    emit_enum_plain_names(w, t);
    cw_line(w, "at = atd_reader_offset_of(r, p);");
    cw_open(w, "if (atd_byte_at(r, p) == '\"')");
    cw_line(w, "p = atd_read_name_p(r, p, &s);");
    check_cursor(w);
    cw_line(w, "i = %s__case(s.ptr, s.len);", t->fn);
    cw_open(w, "if (i >= 0)");
    cw_line(w, "*out = (%s)i;", t->name);
    cw_line(w, "return p;");
    cw_close(w, "}");
    cw_open(w, "{");
    cw_line(w, "char q_[ATD_QUOTE_NAME_CAP];");
    cw_line(w,
            "return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, "
            "\"unsupported variant \\\"%%s\\\" in '%%s'\", "
            "atd_quote_name(s.ptr, s.len, q_, sizeof q_), \"%s\"));",
            t->atd_name);
    cw_close(w, "}");
    cw_close(w, "}");
    cw_line(w, "return atd_fail_cursor(atd_reader_fail_expected(r, p, \"a variant of '%s'\"));",
            t->atd_name);
    cw_close(w, "}");
}

/* Emits the reader of a tuple: an array; cells from the first defaulted one
 * on may be missing; extra elements are skipped (atdgen's tolerance).
 *     if (!more) return atd_reader_fail_at(r, at, ATD_ERR_TUPLE, ...);
 *     ...read out->f0...
 *     if (!atd_array_next(r, &more)) return false;
 *     ...
 *     for (i = N; more; i++) { skip; next }
 */
static void emit_tuple_read(cw *w, const ir_type *t)
{
    read_p_signature(w, t);
    cw_open(w, "{");
    cw_line(w, "bool more;");
    cw_line(w, "size_t at, i;");
    cw_line(w, "%s_init(out);", t->fn);
    cw_line(w, "p = atd_skip_ws_p(r, p);");
    cw_line(w, "at = atd_reader_offset_of(r, p);");
    cw_line(w, "p = atd_array_begin_at_p(r, p, &more);");
    check_cursor(w);
    for (size_t i = 0; i < t->ncells; i++) {
        if (i < t->nmin_cells) {
            cw_open(w, "if (!more)");
            cw_line(w,
                    "return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_TUPLE, \"expected "
                    "at least %zu tuple elements, found %zu\"));",
                    t->nmin_cells, i);
            cw_close(w, "}");
        } else {
            cw_open(w, "if (more)");
        }
        read_slot(w, &t->cells[i].slot, cw_fmt(w, "out->f%zu", i),
                  fail_stmt(w, cw_fmt(w, "atd_reader_push_index(r, %zu)", i)));
        cw_line(w, "p = atd_array_next_p(r, p, &more);");
        check_cursor(w);
        if (i >= t->nmin_cells)
            cw_close(w, "}");
    }
    cw_open(w, "for (i = %zu; more; i++)", t->ncells);
    cw_line(w, "p = atd_skip_value_p(r, p);");
    cw_open(w, "if (p == NULL)");
    cw_line(w, "return atd_fail_cursor(atd_reader_push_index(r, i));");
    cw_close(w, "}");
    cw_line(w, "p = atd_array_next_p(r, p, &more);");
    check_cursor(w);
    cw_close(w, "}");
    cw_line(w, "return p;");
    cw_close(w, "}");
}

/* Emits the growth step shared by lists and association lists (the
 * runtime's atd_read_grow doubles the array in the arena):
 *     if (len == cap) {
 *         items = (T *)atd_read_grow(r, p, items, &cap, sizeof(T), A);
 *         if (items == NULL) return NULL;
 *     }
 */
static void emit_grow(cw *w, const char *tn, int align)
{
    cw_open(w, "if (len == cap)");
    cw_line(w, "items = (%s *)atd_read_grow(r, p, items, &cap, sizeof(%s), %d);", tn, tn, align);
    check_cursor_of(w, "items");
    cw_close(w, "}");
}

/* The p-form reader of slot s's value when that is one call,
 * READER(r, p, &value), with nothing around it (no check, pointer, range or
 * conversion); NULL otherwise. */
static const char *single_call_reader(cw *w, const ir_slot *s)
{
    const ir_type *t = s->type;
    if (s->check != NULL || s->ptr)
        return NULL;
    switch (t->kind) {
    case IR_BOOL:
        return "atd_read_bool_p";
    case IR_INT:
        return t->int_repr == IR_INT64 ? "atd_read_int64_p" : NULL;
    case IR_FLOAT:
        return t->float32 ? NULL : "atd_read_double_p";
    case IR_STRING:
        return "atd_read_string_p";
    case IR_ABSTRACT:
        return "atd_json_read_p";
    default:
        return emit_has_p_reader(t) ? cw_fmt(w, "%s_read_p", t->fn) : NULL;
    }
}

/* Emits the list reader: one line when the element is read by one call
 * (atd/detail/list.h),
 *     ATD_DEFINE_LIST_READ_P(event_events, event_events, event_event, 8, event_event_read_p)
 * else the same loop with the element's statements:
 *     static const char *event_event_list_read_p(atd_reader *r, const char *p,
 *                                                event_event_list *out)
 *     {
 *         bool more; size_t len = 0, cap = 0; event_event *items = NULL;
 *         p = atd_array_begin_p(r, p, &more);
 *         while (more) {
 *             ...grow...
 *             ...read items[len], pushing index len on failure...
 *             len++;
 *             p = atd_array_next_p(r, p, &more);
 *         }
 *         out->items = items; out->len = len;
 *         return p;
 *     }
 * An error in a step leaves `more` false and the cursor NULL, which the
 * reader returns. */
static void emit_list_read(cw *w, const ir_type *t)
{
    const char *en = t->elem.type->name;
    int align = align_of(t->elem.type);
    const char *reader = single_call_reader(w, &t->elem);
    if (reader != NULL) {
        cw_line(w, "ATD_DEFINE_LIST_READ_P(%s, %s, %s, %d, %s)", t->fn, t->name, en, align,
                reader);
        return;
    }
    read_p_signature(w, t);
    cw_open(w, "{");
    cw_line(w, "bool more;");
    cw_line(w, "size_t len = 0, cap = 0;");
    cw_line(w, "%s *items = NULL;", en);
    cw_line(w, "p = atd_array_begin_p(r, p, &more);");
    cw_open(w, "while (more) {");
    emit_grow(w, en, align);
    read_slot(w, &t->elem, "items[len]",
              "return atd_fail_cursor(atd_reader_push_index(r, len));");
    cw_line(w, "len++;");
    cw_line(w, "p = atd_array_next_p(r, p, &more);");
    cw_close(w, "}");
    cw_line(w, "out->items = items;");
    cw_line(w, "out->len = len;");
    cw_line(w, "return p;");
    cw_close(w, "}");
}

/* Emits the reader of (string * T) list <json repr="object">: an object whose
 * keys (copied into the arena unless strings are borrowed) and values become
 * the items, in input order, duplicates kept (a list has no uniqueness). */
static void emit_assoc_read(cw *w, const ir_type *t)
{
    const char *itn = cw_fmt(w, "%s_item", t->name);
    read_p_signature(w, t);
    cw_open(w, "{");
    cw_line(w, "bool more;");
    cw_line(w, "size_t len = 0, cap = 0;");
    cw_line(w, "%s *items = NULL;", itn);
    cw_line(w, "p = atd_object_begin_p(r, p, &more);");
    check_cursor(w);
    cw_open(w, "while (more) {");
    cw_line(w, "atd_string key;");
    cw_line(w, "p = atd_object_key_p(r, p, &key);");
    check_cursor(w);
    cw_comment(w, "keys borrowed from the input are copied unless borrowing was asked for");
    cw_line(w, "p = atd_reader_own_string_p(r, p, &key);");
    check_cursor(w);
    emit_grow(w, itn, 8);
    cw_line(w, "items[len].key = key;");
    read_slot(w, &t->elem, "items[len].value",
              "return atd_fail_cursor(atd_reader_push_field(r, key.ptr, key.len));");
    cw_line(w, "len++;");
    cw_line(w, "p = atd_object_next_p(r, p, &more);");
    check_cursor(w);
    cw_close(w, "}");
    cw_line(w, "out->items = items;");
    cw_line(w, "out->len = len;");
    cw_line(w, "return p;");
    cw_close(w, "}");
}

/* Emits the option reader, "None" or ["Some", v] (atdgen's option form), around
 * the runtime's reading of that framing:
 *     p = atd_read_option_begin_p(r, p, &out->has);
 *     if (p == NULL || !out->has) return p;
 *     ...read out->value, pushing index 1 on failure...
 *     return atd_read_option_end_p(r, p);
 */
static void emit_option_read(cw *w, const ir_type *t)
{
    read_p_signature(w, t);
    cw_open(w, "{");
    cw_line(w, "p = atd_read_option_begin_p(r, p, &out->has);");
    cw_open(w, "if (p == NULL || !out->has)");
    cw_line(w, "return p;");
    cw_close(w, "}");
    read_slot(w, &t->elem, "out->value", "return atd_fail_cursor(atd_reader_push_index(r, 1));");
    cw_line(w, "return atd_read_option_end_p(r, p);");
    cw_close(w, "}");
}

/* Emits the nullable reader: null or the plain value. */
static void emit_nullable_read(cw *w, const ir_type *t)
{
    read_p_signature(w, t);
    cw_open(w, "{");
    cw_line(w, "p = atd_skip_ws_p(r, p);");
    cw_open(w, "if (atd_byte_at(r, p) == 'n')");
    cw_line(w, "out->has = false;");
    cw_line(w, "return atd_read_null_p(r, p);");
    cw_close(w, "}");
    read_slot(w, &t->elem, "out->value", "return NULL;");
    cw_line(w, "out->has = true;");
    cw_line(w, "return p;");
    cw_close(w, "}");
}

/* Emits the entry points of an exported type or typedef (emit.h): its
 * reader behind the runtime's atd_read_fn type (read_any), and from_json,
 * the document-level read through the runtime (atd/detail/entry_points.h):
 *     ATD_DEFINE_READ_ENTRY_POINTS(event_event) */
static void emit_read_entry_points(cw *w, const char *name)
{
    cw_line(w, "ATD_DEFINE_READ_ENTRY_POINTS(%s)", name);
    cw_blank(w);
}

void emit_type_init(cw *w, const ir_type *t)
{
    emit_init(w, t, t->name);
    cw_end_item(w);
}

void emit_def_init(cw *w, const ir_def *d)
{
    cw_line(w, "void %s_init(%s *v)", d->c_name, d->c_name);
    cw_open(w, "{");
    if (ir_is_composite(d->type))
        emit_init_call(w, d->type, "v");
    else
        cw_line(w, "memset(v, 0, sizeof *v);");
    cw_close(w, "}");
    cw_blank(w);
}

void emit_type_readers(cw *w, const ir_module *m, const ir_type *t)
{
    (void)m;
    if (emit_has_init(t))
        emit_init(w, t, t->name);
    /* A type with a custom adapter or a validator: the plain reader under
     * another name, and P t_read_p around it (emit_adapter.c). */
    ir_type plain;
    if (emit_plain_type(w, t, &plain)) {
        if (t->kind == IR_RECORD) {
            /* the plain reader starts with the record's init */
            cw_line(w, "static void %s_init(%s *v)", plain.fn, t->name);
            cw_open(w, "{");
            cw_line(w, "%s_init(v);", t->fn);
            cw_close(w, "}");
            cw_blank(w);
            emit_record_read(w, &plain);
        } else {
            emit_sum_read(w, &plain);
        }
        cw_blank(w);
        emit_adapted_read(w, t);
    } else {
        switch (t->kind) {
        case IR_RECORD:
            if (t->tv != NULL)
                emit_tv_read_function(w, t);
            emit_record_read(w, t);
            break;
        case IR_ENUM:
            if (t->adapter == IR_ADAPTER_NONE)
                emit_enum_read_p(w, t);
            else
                emit_sum_read(w, t);
            break;
        case IR_SUM:
            emit_sum_read(w, t);
            break;
        case IR_TUPLE:
            emit_tuple_read(w, t);
            break;
        case IR_LIST:
            emit_list_read(w, t);
            break;
        case IR_ASSOC:
            emit_assoc_read(w, t);
            break;
        case IR_OPTION:
            emit_option_read(w, t);
            break;
        case IR_NULLABLE:
            emit_nullable_read(w, t);
            break;
        default: /* the scalar kinds: no reader of their own */
            break;
        }
    }
    /* the bool reader: only the exported types need it (the generated code
     * calls the p form) */
    bool bool_reader = t->exported && emit_has_p_reader(t);
    if (bool_reader)
        emit_bool_reader(w, t);
    else
        cw_blank(w); /* the entry points right under ATD_DEFINE_READ */
    if (t->exported)
        emit_read_entry_points(w, t->name);
    cw_end_item(w);
}

/* Emits, for `type date = int` (a typedef of event_date):
 *     void event_date_init(event_date *v) { memset(v, 0, sizeof *v); }
 *     static const char *event_date_read_p(atd_reader *r, const char *p, event_date *out)
 *     {
 *         p = atd_read_int64_p(r, p, &*out);
 *         if (p == NULL) return NULL;
 *         return p;
 *     }
 *     ATD_DEFINE_READ(extern, event_date, event_date)
 * and from_json; for an alias of a composite type, init and read forward. */
void emit_def_readers(cw *w, const ir_module *m, const ir_def *d)
{
    (void)m;
    emit_def_init(w, d);
    cw_line(w, "static const char *%s_read_p(atd_reader *r, const char *p, %s *out)", d->c_name,
            d->c_name);
    cw_open(w, "{");
    ir_slot slot = {d->type, false, d->check, false, false, {0}};
    read_slot(w, &slot, "*out", "return NULL;");
    cw_line(w, "return p;");
    cw_close(w, "}");
    cw_blank(w);
    cw_line(w, "ATD_DEFINE_READ(extern, %s, %s)", d->c_name, d->c_name);
    emit_read_entry_points(w, d->c_name);
    cw_end_item(w);
}
