/* The lazy format's generated API (atdc --lazy; the format is in
 * docs/lazy-format.md, its primitives in atd/lazy.h). Values are biniou
 * (emit_biniou.c writes and reads them) except where the schema says:
 *   - a slot (record field, association list value) with <c lazy> holds a
 *     reference to its value, written out of line;
 *   - a slot with <c shared> holds the index of its string in the strings
 *     section;
 *   - an association list with <c index> is a reference to its sorted
 *     entry table.
 * A type is "encoded" when its lazy-format bytes differ from biniou (it
 * contains one of these), and a "view" when reading it cannot give its C
 * type (it contains a lazy slot or an index not behind a lazy slot): a view
 * type T gets a C type T_lz, the same as T with atd_lazy in place of each
 * lazy value and atd_lazy_index in place of each indexed map.
 *
 * Per encoded type with functions (statics):
 *     T__lz_wbody(atd_writer *w, atd_lazy_writer *lw, const T *v)
 *     T__lz_rbody(atd_reader *r, const atd_lazy_db *db, uint8_t tag, LZ(T) *out)
 *     T__lz_wtagged / T__lz_rtagged   (tag, then body; biniou for a type
 *                                      that is only behind a lazy slot)
 * and the public API:
 *     int R_lazy_write(const R *value, atd_buf *out, atd_error *err);    encoded exported R
 *     int R_lazy_open(atd_lazy_db *db, const char *data, size_t len, atd_arena *arena,
 *                     LZ(R) *root, atd_error *err);
 *     int R_lazy_open_file(atd_lazy_db *db, const char *path, atd_arena *arena,
 *                          LZ(R) *root, atd_error *err);
 *     int T_lazy_fetch(const atd_lazy_db *db, const atd_lazy *ref, atd_arena *arena,
 *                      LZ(T) *out, atd_error *err);                   T behind a lazy slot
 *     int M_lazy_find(const atd_lazy_db *db, const atd_lazy_index *map, const char *key,
 *                     size_t len, atd_arena *arena, V *value, bool *found, atd_error *err);
 *     int M_lazy_entry(const atd_lazy_db *db, const atd_lazy_index *map, uint64_t i,
 *                      atd_arena *arena, atd_string *key, V *value, atd_error *err);
 * Each root's fingerprint hashes a canonical text of every type reachable
 * from it (names, field hashtags, kinds, reprs and these annotations), so a
 * file written for another version of any of them is refused at open. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atd/lazy.h"
#include "emit.h"
#include "util/alloc.h"

/* --- analysis --- */

typedef struct lz_info {
    const ir_module *m;
    size_t n;     /* ids are below n */
    bool *enc;    /* by type id: encoded */
    bool *view;   /* by type id: view */
    bool *fetch;  /* by type id: behind a lazy slot of an encoded type */
    bool *tagged; /* by type id: T__lz_wtagged/rtagged are emitted */
} lz_info;

/* Runs body with s bound to each slot of t. */
#define FOR_SLOTS(t, s, body)                                                                      \
    for (size_t k_ = 0; k_ < ir_nslots(t); k_++) {                                                 \
        const ir_slot *s = ir_slot_at(t, k_);                                                      \
        if (s != NULL)                                                                             \
            body                                                                                   \
    }

static bool lz_analyze(lz_info *z, const ir_module *m)
{
    memset(z, 0, sizeof *z);
    z->m = m;
    size_t n = 1;
    for (size_t i = 0; i < m->ntypes; i++)
        if ((size_t)m->types[i]->id + 1 > n)
            n = (size_t)m->types[i]->id + 1;
    for (size_t i = 0; i < m->nscalars; i++)
        if ((size_t)m->scalars[i]->id + 1 > n)
            n = (size_t)m->scalars[i]->id + 1;
    z->n = n;
    z->enc = (bool *)util_calloc(n, 1);
    z->view = (bool *)util_calloc(n, 1);
    z->fetch = (bool *)util_calloc(n, 1);
    z->tagged = (bool *)util_calloc(n, 1);
    if (!z->enc || !z->view || !z->fetch || !z->tagged)
        return false;
    /* least fixed points: recursive types start as neither */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < m->ntypes; i++) {
            const ir_type *t = m->types[i];
            bool enc = t->kind == IR_ASSOC && t->lz_index;
            bool view = enc;
            FOR_SLOTS(t, s, {
                if (s->lz_lazy || s->lz_shared)
                    enc = true;
                if (s->lz_lazy)
                    view = true;
                if ((size_t)s->type->id < n && z->enc[s->type->id])
                    enc = true;
                if (!s->lz_lazy && (size_t)s->type->id < n && z->view[s->type->id])
                    view = true;
            });
            if (enc != z->enc[t->id] || view != z->view[t->id]) {
                z->enc[t->id] = enc;
                z->view[t->id] = view;
                changed = true;
            }
        }
    }
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (!z->enc[t->id])
            continue;
        if (t->exported)
            z->tagged[t->id] = true;
        FOR_SLOTS(t, s, {
            if (s->lz_lazy)
                z->fetch[s->type->id] = z->tagged[s->type->id] = true;
        });
    }
    return true;
}

static void lz_free(lz_info *z)
{
    util_free(z->enc);
    util_free(z->view);
    util_free(z->fetch);
    util_free(z->tagged);
}

static bool is_enc(const lz_info *z, const ir_type *t)
{
    return (size_t)t->id < z->n && z->enc[t->id];
}

static bool is_view(const lz_info *z, const ir_type *t)
{
    return (size_t)t->id < z->n && z->view[t->id];
}

/* The C type a value of t is read into. */
static const char *lz_name(cw *w, const lz_info *z, const ir_type *t)
{
    if (!is_view(z, t))
        return t->name;
    return cw_fmt(w, "%s_lz", t->name);
}

/* The C type of a slot in a view. */
static const char *slot_name(cw *w, const lz_info *z, const ir_slot *s)
{
    return s->lz_lazy ? "atd_lazy" : lz_name(w, z, s->type);
}

/* The tag of an encoded composite. */
static unsigned lz_tag(const ir_type *t)
{
    return t->kind == IR_ASSOC && t->lz_index ? ATD_LAZY_TAG_INDEX : emit_biniou_tag(t);
}

/* --- fingerprint --- */

typedef struct fp_buf {
    char *s;
    size_t len, cap;
    bool oom;
    int *seen; /* by type id: 0, or 1 + visit number */
    int nseen;
} fp_buf;

static void fp_add(fp_buf *b, const char *fmt, ...) ATD_PRINTF(2, 3);
static void fp_add(fp_buf *b, const char *fmt, ...)
{
    /* Measured first, so a long name (a type name has no length limit) is
     * never cut: the fingerprint must change with every byte of it. */
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n >= 0 && !b->oom && b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *s = (char *)util_realloc(b->s, cap);
        if (s == NULL)
            b->oom = true;
        else {
            b->s = s;
            b->cap = cap;
        }
    }
    if (n >= 0 && !b->oom) {
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

static void fp_type(fp_buf *b, const lz_info *z, const ir_type *t);

static void fp_slot(fp_buf *b, const lz_info *z, const ir_slot *s)
{
    fp_add(b, "%s%s%s", s->lz_lazy ? "L" : "", s->lz_shared ? "S" : "", s->ptr ? "P" : "");
    fp_type(b, z, s->type);
}

/* A canonical text of t: what decides its bytes, in declaration order
 * (docs/lazy-format.md gives its grammar); a record or sum met before is
 * "#" and its number among the records and sums met, from 0 (every
 * recursion goes through one). */
static void fp_type(fp_buf *b, const lz_info *z, const ir_type *t)
{
    bool named = t->kind == IR_RECORD || t->kind == IR_SUM || t->kind == IR_ENUM;
    if (named && (size_t)t->id < z->n) {
        if (b->seen[t->id] != 0) {
            fp_add(b, "#%d", b->seen[t->id] - 1);
            return;
        }
        b->seen[t->id] = ++b->nseen;
    }
    switch (t->kind) {
    case IR_UNIT:
        fp_add(b, "u");
        return;
    case IR_BOOL:
        fp_add(b, "b");
        return;
    case IR_INT:
        fp_add(b, "i%d.%u", (int)t->int_repr, t->bin_int);
        return;
    case IR_FLOAT:
        fp_add(b, "f%d.%d", t->float32, t->bin_float32);
        return;
    case IR_STRING:
        fp_add(b, "s");
        return;
    case IR_ABSTRACT:
        fp_add(b, "a");
        return;
    case IR_WRAP:
        fp_add(b, "w(");
        fp_type(b, z, t->elem.type);
        fp_add(b, ")");
        return;
    case IR_RECORD:
        fp_add(b, "R%s{", t->atd_name);
        for (size_t i = 0; i < t->nfields; i++) {
            const ir_field *f = &t->fields[i];
            fp_add(b, "%s:%d:%08x:", f->atd_name, (int)f->kind, (unsigned)f->bin_hashtag);
            fp_slot(b, z, &f->slot);
            fp_add(b, ";");
        }
        fp_add(b, "}");
        return;
    case IR_ENUM:
    case IR_SUM:
        fp_add(b, "S%s{", t->atd_name);
        for (size_t i = 0; i < t->ncases; i++) {
            fp_add(b, "%s:%08x:", t->cases[i].atd_name, (unsigned)t->cases[i].bin_hashtag);
            if (t->cases[i].arg.type != NULL)
                fp_slot(b, z, &t->cases[i].arg);
            fp_add(b, ";");
        }
        fp_add(b, "}");
        return;
    case IR_TUPLE:
        fp_add(b, "T(");
        for (size_t i = 0; i < t->ncells; i++) {
            fp_slot(b, z, &t->cells[i].slot);
            fp_add(b, ",");
        }
        fp_add(b, ")");
        return;
    case IR_LIST:
        fp_add(b, "l%d(", t->bin_table);
        break;
    case IR_ASSOC:
        fp_add(b, "m%d(", t->lz_index);
        break;
    case IR_OPTION:
        fp_add(b, "o(");
        break;
    case IR_NULLABLE:
        fp_add(b, "n(");
        break;
    }
    fp_slot(b, z, &t->elem);
    fp_add(b, ")");
}

static uint64_t fingerprint(const lz_info *z, const ir_type *root)
{
    fp_buf b;
    memset(&b, 0, sizeof b);
    b.seen = (int *)util_calloc(z->n, sizeof *b.seen);
    fp_add(&b, "atd-lazy-%u:", ATD_LAZY_VERSION);
    if (b.seen != NULL)
        fp_type(&b, z, root);
    /* 0 means out of memory (a real hash of 0 is as likely as a collision) */
    uint64_t h = b.oom || b.seen == NULL ? 0 : atd_lazy_hash(b.s, b.len);
    util_free(b.s);
    util_free(b.seen);
    return h;
}

/* --- header --- */

static void emit_view_struct(cw *w, const lz_info *z, const ir_type *t)
{
    const char *n = lz_name(w, z, t);
    switch (t->kind) {
    case IR_RECORD:
        cw_open(w, "struct %s {", n);
        for (size_t i = 0; i < t->nfields; i++) {
            const ir_field *f = &t->fields[i];
            if (f->kind == IR_FIELD_OPTIONAL)
                cw_line(w, "bool has_%s;", f->c_name);
            cw_line(w, "%s %s;", slot_name(w, z, &f->slot), f->c_name);
        }
        cw_close(w, "};");
        break;
    case IR_LIST:
        cw_open(w, "struct %s {", n);
        cw_line(w, "%s *items;", lz_name(w, z, t->elem.type));
        cw_line(w, "size_t len;");
        cw_close(w, "};");
        break;
    case IR_ASSOC:
        cw_open(w, "struct %s_item {", n);
        cw_line(w, "atd_string key;");
        cw_line(w, "%s value;", slot_name(w, z, &t->elem));
        cw_close(w, "};");
        cw_open(w, "struct %s {", n);
        cw_line(w, "%s_item *items;", n);
        cw_line(w, "size_t len;");
        cw_close(w, "};");
        break;
    default: /* IR_OPTION */
        cw_open(w, "struct %s {", n);
        cw_line(w, "bool has;");
        cw_line(w, "%s value;", slot_name(w, z, &t->elem));
        cw_close(w, "};");
        break;
    }
}

static void emit_prototypes(cw *w, const lz_info *z, const ir_type *t)
{
    const char *lz = lz_name(w, z, t);
    if (t->exported && is_enc(z, t)) {
        cw_line(w, "int %s_lazy_write(const %s *value, atd_buf *out, atd_error *err);", t->name,
                t->name);
        cw_line(w, "int %s_lazy_write_file(const %s *value, const char *path, atd_error *err);",
                t->name, t->name);
        cw_line(w,
                "int %s_lazy_open(atd_lazy_db *db, const char *data, size_t len, atd_arena "
                "*arena, %s *root, atd_error *err);",
                t->name, lz);
        cw_line(w,
                "int %s_lazy_open_file(atd_lazy_db *db, const char *path, atd_arena *arena, %s "
                "*root, atd_error *err);",
                t->name, lz);
    }
    if (z->fetch[t->id])
        cw_line(w,
                "int %s_lazy_fetch(const atd_lazy_db *db, const atd_lazy *ref, atd_arena *arena, "
                "%s *out, atd_error *err);",
                t->fn, lz);
    if (t->kind == IR_ASSOC && t->lz_index) {
        const char *vn = slot_name(w, z, &t->elem);
        cw_line(w,
                "int %s_lazy_find(const atd_lazy_db *db, const atd_lazy_index *map, const char "
                "*key, size_t len, atd_arena *arena, %s *value, bool *found, atd_error *err);",
                t->fn, vn);
        cw_line(w,
                "int %s_lazy_entry(const atd_lazy_db *db, const atd_lazy_index *map, uint64_t i, "
                "atd_arena *arena, atd_string *key, %s *value, atd_error *err);",
                t->fn, vn);
    }
}

void emit_lazy_header(cw *w, const ir_module *m)
{
    lz_info z;
    if (!lz_analyze(&z, m)) {
        lz_free(&z);
        w->out.status = ATD_ERR_NOMEM;
        return;
    }
    cw_comment(w, "--- lazy format (docs/lazy-format.md) ---");
    cw_comment(w, "T_lz: T as read from a lazy-format file, with atd_lazy for each <c lazy> value "
                  "(fetch decodes it) and atd_lazy_index for each <c index> map (find searches "
                  "it). Strings point into the file. An open atd_lazy_db may be read from several "
                  "threads at once, each with its own arena.");
    cw_blank(w);
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (!is_view(&z, t))
            continue;
        if (t->kind == IR_ASSOC && t->lz_index) {
            cw_line(w, "typedef atd_lazy_index %s_lz;", t->name);
            continue;
        }
        if (t->kind == IR_ASSOC)
            cw_line(w, "typedef struct %s_lz_item %s_lz_item;", t->name, t->name);
        cw_line(w, "typedef struct %s_lz %s_lz;", t->name, t->name);
    }
    cw_blank(w);
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (!is_view(&z, t) || (t->kind == IR_ASSOC && t->lz_index))
            continue;
        emit_view_struct(w, &z, t);
        cw_end_item(w);
        cw_blank(w);
    }
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (is_enc(&z, t) || z.fetch[t->id])
            emit_prototypes(w, &z, t);
    }
    cw_blank(w);
    lz_free(&z);
}

/* --- source: writing --- */

static void check_call(cw *w, const char *call, const char *fail)
{
    cw_open(w, "if (!(%s))", call);
    cw_line(w, "%s", fail);
    cw_close(w, "}");
}

/* The statements writing slot s's value rv: the body of a reference, a
 * shared string's number, an encoded type's body (its type is known), or
 * a tagged biniou value. */
static void write_slot(cw *w, const lz_info *z, const ir_slot *s, const char *rv, const char *fail)
{
    if (s->lz_lazy) {
        cw_open(w, "{");
        cw_line(w, "atd_lazy ref_;");
        cw_line(w, "atd_writer *iw_ = atd_lazy_begin(lw, w);");
        cw_open(w, "if (iw_ == NULL)");
        cw_line(w, "%s", fail);
        cw_close(w, "}");
        check_call(w,
                   cw_fmt(w,
                          "atd_lazy_end(lw, w, %s__lz_wtagged(iw_, lw, &%s), &ref_) && "
                          "atd_lazy_write_ref(w, &ref_)",
                          s->type->fn, rv),
                   fail);
        cw_close(w, "}");
    } else if (s->lz_shared) {
        check_call(w, cw_fmt(w, "atd_lazy_write_shared(lw, w, %s.ptr, %s.len)", rv, rv), fail);
    } else if (is_enc(z, s->type)) {
        check_call(w, cw_fmt(w, "%s__lz_wbody(w, lw, &%s)", s->type->fn, rv), fail);
    } else {
        emit_biniou_write_tagged(w, s, rv, fail);
    }
}

static const char *push_field(cw *w, const char *side, const char *name)
{
    return cw_fmt(w, "return atd_%s_push_field(%s, ATD_LIT(\"%s\"));", side,
                  strcmp(side, "writer") == 0 ? "w" : "r", name);
}

/* A record: its fields in declaration order without names (the schema's
 * fingerprint fixes them), an optional one after its presence byte. */
static void emit_record_wbody(cw *w, const lz_info *z, const ir_type *t)
{
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        const char *fail = push_field(w, "writer", f->atd_name);
        if (f->kind == IR_FIELD_OPTIONAL) {
            check_call(w, cw_fmt(w, "atd_lazy_write_presence(w, v->has_%s)", f->c_name), fail);
            cw_open(w, "if (v->has_%s)", f->c_name);
        }
        write_slot(w, z, &f->slot, cw_fmt(w, "v->%s", f->c_name), fail);
        if (f->kind == IR_FIELD_OPTIONAL)
            cw_close(w, "}");
    }
    cw_line(w, "return true;");
}

/* The shared strings that writing an element of slot s's type `ahead` (a
 * value) looks up first: a shared string itself, or the shared fields
 * (not optional) of a record. Emitted (when `emit`) as prefetch hints
 * (ATD_LAZY_PREFETCH_SHARED);
 * returns whether there is any. */
static bool prefetch_shared(cw *w, const ir_slot *s, const char *ahead, bool emit)
{
    if (s->lz_shared) {
        if (emit)
            cw_line(w, "ATD_LAZY_PREFETCH_SHARED(lw, %s.ptr);", ahead);
        return true;
    }
    if (s->lz_lazy || s->ptr || s->type->kind != IR_RECORD)
        return false;
    bool any = false;
    for (size_t i = 0; i < s->type->nfields; i++) {
        const ir_field *f = &s->type->fields[i];
        if (f->kind == IR_FIELD_OPTIONAL || !f->slot.lz_shared)
            continue;
        if (emit)
            cw_line(w, "ATD_LAZY_PREFETCH_SHARED(lw, %s.%s.ptr);", ahead, f->c_name);
        any = true;
    }
    return any;
}

/* The prefetch hints of a list writer over the elements of v (index i;
 * `member`: the element's part of the slot's type): before its loop
 * (!ahead), the first ATD_LAZY_PREFETCH_AHEAD elements (short lists are
 * common: an indexer's occurrence lists); in it (ahead), the element
 * ATD_LAZY_PREFETCH_AHEAD places ahead. With many distinct shared strings,
 * each lookup's cache line then arrives while the elements before are
 * written, instead of being waited for one at a time. */
static void emit_prefetch(cw *w, const ir_slot *s, const char *member, bool ahead)
{
    if (!prefetch_shared(w, s, "", false))
        return;
    if (ahead)
        cw_open(w, "if (i + ATD_LAZY_PREFETCH_AHEAD < v->len)");
    else
        cw_open(w, "for (i = 0; i < ATD_LAZY_PREFETCH_AHEAD && i < v->len; i++)");
    const char *at = ahead ? "i + ATD_LAZY_PREFETCH_AHEAD" : "i";
    prefetch_shared(w, s, cw_fmt(w, "v->items[%s]%s", at, member), true);
    cw_close(w, "}");
}

/* A list of an encoded type: the count, then the elements' bodies. */
static void emit_list_wbody(cw *w, const ir_type *t)
{
    cw_line(w, "size_t i;");
    check_call(w, "atd_bin_write_uvint(w, v->len)", "return false;");
    emit_prefetch(w, &t->elem, "", false);
    cw_open(w, "for (i = 0; i < v->len; i++)");
    emit_prefetch(w, &t->elem, "", true);
    check_call(w, cw_fmt(w, "%s__lz_wbody(w, lw, &v->items[i])", t->elem.type->fn),
               "return atd_writer_push_index(w, i);");
    cw_close(w, "}");
    cw_line(w, "return true;");
}

/* An association list: the count, then each key's body and its value. */
static void emit_assoc_wbody(cw *w, const lz_info *z, const ir_type *t)
{
    cw_line(w, "size_t i;");
    check_call(w, "atd_bin_write_uvint(w, v->len)", "return false;");
    emit_prefetch(w, &t->elem, ".value", false);
    cw_open(w, "for (i = 0; i < v->len; i++)");
    emit_prefetch(w, &t->elem, ".value", true);
    check_call(w, "atd_bin_write_string(w, v->items[i].key.ptr, v->items[i].key.len)",
               "return atd_writer_push_index(w, i);");
    write_slot(w, z, &t->elem, "v->items[i].value", "return atd_writer_push_index(w, i);");
    cw_close(w, "}");
    cw_line(w, "return true;");
}

/* An indexed map: its entries' values in key order, collected by the
 * runtime into the nodes of its tree. */
static void emit_index_wbody(cw *w, const ir_type *t)
{
    cw_line(w, "atd_lazy_index_build b_;");
    cw_line(w, "size_t k_;");
    check_call(w, "atd_lazy_index_begin(lw, w, v->items, v->len, sizeof v->items[0], &b_)",
               "return false;");
    cw_open(w, "for (k_ = 0; k_ < b_.n; k_++)");
    cw_line(w, "size_t i = b_.order[k_];");
    cw_line(w, "atd_writer *iw_ = atd_lazy_begin(lw, w);");
    /* a <c lazy> value is given to the runtime whole, to be framed in its
     * leaf (a lookup then reads one page for the key and the value) */
    cw_open(w,
            "if (iw_ == NULL || !atd_lazy_index_add%s(lw, w, &b_, %s__lz_wentry(iw_, lw, "
            "&v->items[i])))",
            t->elem.lz_lazy ? "_value" : "", t->fn);
    cw_line(w, "atd_lazy_index_end(lw, w, &b_, false);");
    cw_line(w, "return atd_writer_push_index(w, i);");
    cw_close(w, "}");
    cw_close(w, "}");
    cw_line(w, "return atd_lazy_index_end(lw, w, &b_, true);");
}

static void emit_index_wentry(cw *w, const lz_info *z, const ir_type *t)
{
    cw_open(w, "static bool %s__lz_wentry(atd_writer *w, atd_lazy_writer *lw, const %s_item *v)",
            t->fn, t->name);
    /* a value written as plain biniou needs no lazy writer */
    if (!t->elem.lz_lazy && !t->elem.lz_shared && !is_enc(z, t->elem.type))
        cw_line(w, "(void)lw;");
    if (t->elem.lz_lazy) {
        /* the tagged value, not its reference (atd_lazy_index_add_value) */
        cw_line(w, "return %s__lz_wtagged(w, lw, &v->value);", t->elem.type->fn);
    } else {
        write_slot(w, z, &t->elem, "v->value", "return false;");
        cw_line(w, "return true;");
    }
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
}

static void emit_option_wbody(cw *w, const lz_info *z, const ir_type *t)
{
    check_call(w, "atd_lazy_write_presence(w, v->has)", "return false;");
    cw_open(w, "if (!v->has)");
    cw_line(w, "return true;");
    cw_close(w, "}");
    write_slot(w, z, &t->elem, "v->value", "return false;");
    cw_line(w, "return true;");
}

/* --- source: reading --- */

/* The statements reading slot s's value (as write_slot writes it) into lv. */
static void read_slot(cw *w, const lz_info *z, const ir_slot *s, const char *lv, const char *fail)
{
    if (s->lz_lazy)
        check_call(w, cw_fmt(w, "atd_lazy_read_ref(r, db, &%s)", lv), fail);
    else if (s->lz_shared)
        check_call(w, cw_fmt(w, "atd_lazy_read_shared(r, db, &%s)", lv), fail);
    else if (is_enc(z, s->type))
        check_call(w, cw_fmt(w, "%s__lz_rbody(r, db, &%s)", s->type->fn, lv), fail);
    else
        emit_biniou_read_tagged(w, s, lv, fail);
}

static void emit_record_rbody(cw *w, const lz_info *z, const ir_type *t)
{
    bool optional = false;
    for (size_t i = 0; i < t->nfields; i++)
        optional = optional || t->fields[i].kind == IR_FIELD_OPTIONAL;
    if (optional)
        cw_line(w, "bool present_ = false;");
    cw_line(w, "(void)db;");
    cw_line(w, "memset(out, 0, sizeof *out);");
    for (size_t i = 0; i < t->nfields; i++) {
        const ir_field *f = &t->fields[i];
        const char *fail = push_field(w, "reader", f->atd_name);
        if (f->kind == IR_FIELD_OPTIONAL) {
            check_call(w, "atd_lazy_read_presence(r, &present_)", fail);
            cw_open(w, "if (present_)");
            cw_line(w, "out->has_%s = true;", f->c_name);
        }
        read_slot(w, z, &f->slot, cw_fmt(w, "out->%s", f->c_name), fail);
        if (f->kind == IR_FIELD_OPTIONAL)
            cw_close(w, "}");
    }
    cw_line(w, "return true;");
}

/* Allocates n_ items of type tn into items_ (n_ is at most the bytes left). */
static void alloc_items(cw *w, const char *tn)
{
    cw_open(w, "if (n_ > SIZE_MAX / sizeof(%s))", tn);
    cw_line(w, "return atd_reader_fail(r, ATD_ERR_NOMEM, \"out of memory\");");
    cw_close(w, "}");
    cw_line(w, "items_ = (%s *)atd_arena_alloc(atd_reader_arena(r), n_ * sizeof(%s), 8);", tn, tn);
    cw_open(w, "if (items_ == NULL)");
    cw_line(w, "return atd_reader_fail(r, ATD_ERR_NOMEM, \"out of memory\");");
    cw_close(w, "}");
}

/* The count of a list or association list (every item takes a byte at
 * least, so the count is bounded by the bytes left), its items. */
static void read_count(cw *w, const char *itn)
{
    cw_line(w, "size_t n_ = 0, i;");
    cw_line(w, "%s *items_;", itn);
    cw_line(w, "out->items = NULL;");
    cw_line(w, "out->len = 0;");
    check_call(w, "atd_reader_advance(r, atd_bin_read_count_p(r, atd_reader_cursor(r), &n_))",
               "return false;");
    cw_open(w, "if (n_ == 0)");
    cw_line(w, "return true;");
    cw_close(w, "}");
    alloc_items(w, itn);
}

static void emit_list_rbody(cw *w, const lz_info *z, const ir_type *t)
{
    const ir_type *e = t->elem.type;
    read_count(w, lz_name(w, z, e));
    cw_open(w, "for (i = 0; i < n_; i++)");
    check_call(w, cw_fmt(w, "%s__lz_rbody(r, db, &items_[i])", e->fn),
               "return atd_reader_push_index(r, i);");
    cw_close(w, "}");
    cw_line(w, "out->items = items_;");
    cw_line(w, "out->len = n_;");
    cw_line(w, "return true;");
}

static void emit_assoc_rbody(cw *w, const lz_info *z, const ir_type *t)
{
    read_count(w, cw_fmt(w, "%s_item", lz_name(w, z, t)));
    cw_line(w, "(void)db;");
    cw_open(w, "for (i = 0; i < n_; i++)");
    check_call(w,
               "atd_reader_advance(r, atd_bin_read_string_p(r, atd_reader_cursor(r), "
               "&items_[i].key))",
               "return atd_reader_push_index(r, i);");
    read_slot(w, z, &t->elem, "items_[i].value", "return atd_reader_push_index(r, i);");
    cw_close(w, "}");
    cw_line(w, "out->items = items_;");
    cw_line(w, "out->len = n_;");
    cw_line(w, "return true;");
}

static void emit_option_rbody(cw *w, const lz_info *z, const ir_type *t)
{
    cw_line(w, "bool present_ = false;");
    cw_line(w, "(void)db;");
    cw_line(w, "out->has = false;");
    check_call(w, "atd_lazy_read_presence(r, &present_)", "return false;");
    cw_open(w, "if (!present_)");
    cw_line(w, "return true;");
    cw_close(w, "}");
    read_slot(w, z, &t->elem, "out->value", "return false;");
    cw_line(w, "out->has = true;");
    cw_line(w, "return true;");
}

/* --- source: per type --- */

static void emit_bodies(cw *w, const lz_info *z, const ir_type *t)
{
    bool index = t->kind == IR_ASSOC && t->lz_index;
    if (index)
        emit_index_wentry(w, z, t);
    cw_open(w, "static bool %s__lz_wbody(atd_writer *w, atd_lazy_writer *lw, const %s *v)", t->fn,
            t->name);
    if (t->kind == IR_RECORD)
        emit_record_wbody(w, z, t);
    else if (t->kind == IR_LIST)
        emit_list_wbody(w, t);
    else if (index)
        emit_index_wbody(w, t);
    else if (t->kind == IR_ASSOC)
        emit_assoc_wbody(w, z, t);
    else
        emit_option_wbody(w, z, t);
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
    cw_open(w, "static bool %s__lz_rbody(atd_reader *r, const atd_lazy_db *db, %s *out)", t->fn,
            lz_name(w, z, t));
    if (t->kind == IR_RECORD)
        emit_record_rbody(w, z, t);
    else if (t->kind == IR_LIST)
        emit_list_rbody(w, z, t);
    else if (index)
        cw_line(w, "return atd_lazy_read_index(r, db, out);");
    else if (t->kind == IR_ASSOC)
        emit_assoc_rbody(w, z, t);
    else
        emit_option_rbody(w, z, t);
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
}

/* Tag and body; biniou's for a type whose bytes are biniou's. */
static void emit_tagged(cw *w, const lz_info *z, const ir_type *t)
{
    ir_slot plain = {(ir_type *)t, false, NULL, false, false, {0}};
    cw_open(w, "static bool %s__lz_wtagged(atd_writer *w, atd_lazy_writer *lw, const %s *v)", t->fn,
            t->name);
    if (is_enc(z, t)) {
        check_call(w, cw_fmt(w, "atd_bin_write_byte(w, %uu)", lz_tag(t)), "return false;");
        cw_line(w, "return %s__lz_wbody(w, lw, v);", t->fn);
    } else {
        cw_line(w, "(void)lw;");
        emit_biniou_write_tagged(w, &plain, "(*v)", "return false;");
        cw_line(w, "return true;");
    }
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
    cw_open(w, "static bool %s__lz_rtagged(atd_reader *r, const atd_lazy_db *db, %s *out)", t->fn,
            lz_name(w, z, t));
    if (is_enc(z, t)) {
        cw_line(w, "uint8_t tag = 0;");
        check_call(
            w,
            cw_fmt(w,
                   "atd_reader_advance(r, atd_bin_read_byte_p(r, atd_reader_cursor(r), &tag)) "
                   "&& atd_lazy_check_tag(r, tag, %uu)",
                   lz_tag(t)),
            "return false;");
        cw_line(w, "return %s__lz_rbody(r, db, out);", t->fn);
    } else {
        cw_line(w, "(void)db;");
        emit_biniou_read_tagged(w, &plain, "(*out)", "return false;");
        cw_line(w, "return true;");
    }
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
}

/* Ends a reading entry point: 0, or the reader's error. */
static void emit_read_return(cw *w, const char *cond)
{
    cw_open(w, "if (!(%s))", cond);
    cw_line(w, "return atd_lazy_get_error(r, err);");
    cw_close(w, "}");
    emit_return_success(w);
}

static void emit_root_api(cw *w, const lz_info *z, const ir_type *t)
{
    const char *lz = lz_name(w, z, t);
    uint64_t fp = fingerprint(z, t);
    if (fp == 0)
        w->out.status = ATD_ERR_NOMEM; /* the driver reports it */
    cw_open(w, "int %s_lazy_write(const %s *value, atd_buf *out, atd_error *err)", t->name,
            t->name);
    cw_line(w, "atd_lazy_writer lw_;");
    cw_line(w, "atd_lazy_writer *lw = &lw_;");
    cw_line(w, "atd_writer *w = atd_lazy_writer_start(lw, out, 0x%016llxu, 0, err);",
            (unsigned long long)fp);
    cw_open(w, "if (w == NULL)");
    cw_line(w, "return out->status != 0 ? out->status : (int)ATD_ERR_NOMEM;");
    cw_close(w, "}");
    cw_line(w, "return atd_lazy_writer_finish(lw, %s__lz_wtagged(w, lw, value), err);", t->fn);
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
    cw_open(w, "int %s_lazy_write_file(const %s *value, const char *path, atd_error *err)",
            t->name, t->name);
    cw_line(w, "atd_lazy_file f_;");
    cw_line(w, "atd_buf out_;");
    cw_line(w, "int rc = atd_lazy_file_begin(&f_, path, &out_, err);");
    cw_open(w, "if (rc != 0)");
    cw_line(w, "return rc;");
    cw_close(w, "}");
    cw_line(w, "rc = %s_lazy_write(value, &out_, err);", t->name);
    cw_open(w, "if (rc != 0)");
    cw_line(w, "atd_lazy_file_commit(&f_, &out_, false, NULL);");
    cw_line(w, "return rc;");
    cw_close(w, "}");
    cw_line(w, "return atd_lazy_file_commit(&f_, &out_, true, err);");
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
    cw_open(w,
            "static int %s__lz_root(const atd_lazy_db *db, atd_arena *arena, %s *root, "
            "atd_error *err)",
            t->fn, lz);
    cw_line(w, "atd_reader r_;");
    cw_line(w, "atd_reader *r = &r_;");
    cw_line(w, "atd_lazy_root_reader(db, r, arena);");
    emit_read_return(w, cw_fmt(w, "%s__lz_rtagged(r, db, root) && atd_bin_read_end(r)", t->fn));
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
    cw_open(w,
            "int %s_lazy_open(atd_lazy_db *db, const char *data, size_t len, atd_arena *arena, "
            "%s *root, atd_error *err)",
            t->name, lz);
    cw_line(w, "int rc = atd_lazy_open_buffer(db, data, len, 0x%016llxu, err);",
            (unsigned long long)fp);
    cw_line(w, "return rc != 0 ? rc : %s__lz_root(db, arena, root, err);", t->fn);
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
    cw_open(w,
            "int %s_lazy_open_file(atd_lazy_db *db, const char *path, atd_arena *arena, %s *root, "
            "atd_error *err)",
            t->name, lz);
    cw_line(w, "int rc = atd_lazy_open_file(db, path, 0x%016llxu, err);", (unsigned long long)fp);
    cw_open(w, "if (rc == 0)");
    cw_line(w, "rc = %s__lz_root(db, arena, root, err);", t->fn);
    cw_open(w, "if (rc != 0)");
    cw_line(w, "atd_lazy_close(db);");
    cw_close(w, "}");
    cw_close(w, "}");
    cw_line(w, "return rc;");
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
}

static void emit_fetch(cw *w, const lz_info *z, const ir_type *t)
{
    cw_open(w,
            "int %s_lazy_fetch(const atd_lazy_db *db, const atd_lazy *ref, atd_arena *arena, %s "
            "*out, atd_error *err)",
            t->fn, lz_name(w, z, t));
    cw_line(w, "atd_reader r_;");
    cw_line(w, "atd_reader *r = &r_;");
    emit_read_return(w, cw_fmt(w,
                               "atd_lazy_fetch_reader(db, r, ref, arena) && "
                               "%s__lz_rtagged(r, db, out) && atd_bin_read_end(r)",
                               t->fn));
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
}

static void emit_find(cw *w, const lz_info *z, const ir_type *t)
{
    const char *vn = slot_name(w, z, &t->elem);
    cw_open(w,
            "int %s_lazy_find(const atd_lazy_db *db, const atd_lazy_index *map, const char *key, "
            "size_t len, atd_arena *arena, %s *value, bool *found, atd_error *err)",
            t->fn, vn);
    cw_line(w, "atd_reader r_;");
    cw_line(w, "atd_reader *r = &r_;");
    cw_line(w, "atd_lazy_reader(db, r, 0, 0, arena);");
    check_call(w, "atd_lazy_index_seek(db, map, key, len, r, found)",
               "return atd_lazy_get_error(r, err);");
    cw_open(w, "if (*found)");
    read_slot(w, z, &t->elem, "(*value)", "return atd_lazy_get_error(r, err);");
    check_call(w, "atd_bin_read_end(r)", "return atd_lazy_get_error(r, err);");
    cw_close(w, "}");
    emit_return_success(w);
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
    cw_open(w,
            "int %s_lazy_entry(const atd_lazy_db *db, const atd_lazy_index *map, uint64_t i, "
            "atd_arena *arena, atd_string *key, %s *value, atd_error *err)",
            t->fn, vn);
    cw_line(w, "atd_reader r_;");
    cw_line(w, "atd_reader *r = &r_;");
    cw_line(w, "atd_lazy_reader(db, r, 0, 0, arena);");
    check_call(w, "atd_lazy_index_entry(db, map, i, r, key)", "return atd_lazy_get_error(r, err);");
    read_slot(w, z, &t->elem, "(*value)", "return atd_lazy_get_error(r, err);");
    check_call(w, "atd_bin_read_end(r)", "return atd_lazy_get_error(r, err);");
    emit_return_success(w);
    cw_close(w, "}");
    cw_end_item(w);
    cw_blank(w);
}

void emit_lazy_source(cw *w, const ir_module *m, const bool *used)
{
    lz_info z;
    if (!lz_analyze(&z, m)) {
        lz_free(&z);
        w->out.status = ATD_ERR_NOMEM;
        return;
    }
    cw_comment(w, "--- lazy format ---");
    cw_blank(w);
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (!used[i])
            continue;
        const char *lz = lz_name(w, &z, t);
        if (t->kind == IR_ASSOC && t->lz_index)
            cw_line(w,
                    "static bool %s__lz_wentry(atd_writer *w, atd_lazy_writer *lw, const %s_item "
                    "*v);",
                    t->fn, t->name);
        if (is_enc(&z, t)) {
            cw_line(w, "static bool %s__lz_wbody(atd_writer *w, atd_lazy_writer *lw, const %s *v);",
                    t->fn, t->name);
            cw_line(w,
                    "static bool %s__lz_rbody(atd_reader *r, const atd_lazy_db *db, %s *out);",
                    t->fn, lz);
        }
        if (z.tagged[t->id]) {
            cw_line(w,
                    "static bool %s__lz_wtagged(atd_writer *w, atd_lazy_writer *lw, const %s *v);",
                    t->fn, t->name);
            cw_line(w, "static bool %s__lz_rtagged(atd_reader *r, const atd_lazy_db *db, %s *out);",
                    t->fn, lz);
        }
    }
    cw_blank(w);
    for (size_t i = 0; i < m->ntypes; i++) {
        const ir_type *t = m->types[i];
        if (!used[i])
            continue;
        if (is_enc(&z, t))
            emit_bodies(w, &z, t);
        if (z.tagged[t->id])
            emit_tagged(w, &z, t);
        if (t->exported && is_enc(&z, t))
            emit_root_api(w, &z, t);
        if (z.fetch[t->id])
            emit_fetch(w, &z, t);
        if (t->kind == IR_ASSOC && t->lz_index && is_enc(&z, t))
            emit_find(w, &z, t);
    }
    lz_free(&z);
}
