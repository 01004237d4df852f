/* Writing the lazy format (docs/lazy-format.md): the header, out-of-line
 * values through a stack of scratch writers (a lazy value may contain lazy
 * values: each is complete before it is appended to the file, and its
 * parent, still being written, gets its reference), shared strings through
 * a hash table, index tables, and at the end the strings section, the root
 * and the trailer. The file is appended to only, so it may go to a sink. */
#include "atd/lazy.h"

#include <stdio.h>
#include <stdlib.h>

static const char header_magic[8] = {'A', 'T', 'D', 'L', 'A', 'Z', 'Y', 0};
static const char trailer_magic[8] = {'A', 'T', 'D', 'L', 'A', 'Z', 'Y', 'E'};

uint64_t atd_lazy_hash(const char *s, size_t len)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211u;
    }
    return h;
}

static void put_le64(char *p, uint64_t u)
{
    for (int i = 0; i < 8; i++)
        p[i] = (char)(unsigned char)(u >> (8 * i));
}

static void append_le64(atd_buf *b, uint64_t u)
{
    char p[8];
    put_le64(p, u);
    atd_buf_append(b, p, 8);
}

/* Offset in the file of the next byte appended. */
static uint64_t file_pos(const atd_lazy_writer *lw)
{
    return (uint64_t)(lw->out->flushed + lw->out->len) - lw->start;
}

atd_writer *atd_lazy_writer_start(atd_lazy_writer *lw, atd_buf *out, uint64_t fingerprint,
                                  unsigned flags, atd_error *err)
{
    memset(lw, 0, sizeof *lw);
    lw->out = out;
    lw->start = (uint64_t)(out->flushed + out->len);
    lw->fingerprint = fingerprint;
    char h[ATD_LAZY_HEADER_SIZE] = {0};
    memcpy(h, header_magic, 8);
    h[8] = (char)ATD_LAZY_VERSION; /* u32 version, u32 flags (0): little-endian */
    put_le64(h + 16, fingerprint);
    atd_buf_append(out, h, sizeof h);
    if (out->status != 0) {
        atd_error_set(err, (atd_error_code)out->status, NULL, "cannot write the header");
        return NULL;
    }
    atd_buf_init(&lw->scratch[0]);
    atd_writer_init(&lw->sw[0], &lw->scratch[0], flags);
    lw->ninit = 1;
    lw->depth = 1;
    return &lw->sw[0];
}

atd_writer *atd_lazy_begin(atd_lazy_writer *lw, atd_writer *outer)
{
    if (lw->depth >= ATD_LAZY_MAX_NEST) {
        atd_writer_fail(outer, ATD_ERR_DEPTH, "lazy values nested deeper than 16");
        return NULL;
    }
    unsigned d = lw->depth++;
    if (d == lw->ninit) {
        atd_buf_init(&lw->scratch[d]);
        lw->ninit++;
    } else {
        atd_buf_clear(&lw->scratch[d]);
    }
    atd_writer_init(&lw->sw[d], &lw->scratch[d], outer->flags);
    return &lw->sw[d];
}

/* Moves the first error of `inner` (with its path) to `outer`. */
static bool move_error(atd_writer *outer, const atd_writer *inner)
{
    if (inner->err_code == ATD_ERR_OK) {
        if (inner->buf->status != 0)
            return atd_writer_fail(outer, (atd_error_code)inner->buf->status,
                                   "cannot buffer a lazy value");
        return atd_writer_fail(outer, ATD_ERR_INVALID, "a lazy value was not written");
    }
    outer->err_code = inner->err_code;
    memcpy(outer->err_detail, inner->err_detail, sizeof outer->err_detail);
    outer->err_path = inner->err_path;
    return false;
}

bool atd_lazy_end(atd_lazy_writer *lw, atd_writer *outer, bool ok, atd_lazy *ref)
{
    unsigned d = --lw->depth;
    atd_buf *s = &lw->scratch[d];
    if (!ok || s->status != 0)
        return move_error(outer, &lw->sw[d]);
    ref->off = file_pos(lw);
    ref->len = s->len;
    atd_buf_append(lw->out, s->data, s->len);
    if (lw->out->status != 0)
        return atd_writer_fail(outer, (atd_error_code)lw->out->status, "cannot write the file");
    return true;
}

bool atd_lazy_write_ref(atd_writer *w, const atd_lazy *ref)
{
    char *p = atd_buf_reserve(w->buf, 1 + 2 * ATD_BIN_VINT_MAX);
    if (p == NULL)
        return atd_writer_fail_buf(w);
    *p++ = (char)ATD_LAZY_TAG_REF;
    p = atd_bin_put_uvint(p, ref->off);
    p = atd_bin_put_uvint(p, ref->len);
    atd_buf_commit(w->buf, p);
    return true;
}

/* --- shared strings --- */

static bool shared_grow(atd_lazy_writer *lw)
{
    size_t cap = lw->slots_cap ? lw->slots_cap * 2 : 1024;
    if (cap > SIZE_MAX / sizeof(atd_lazy_shared_slot))
        return false;
    atd_lazy_shared_slot *slots = (atd_lazy_shared_slot *)malloc(cap * sizeof *slots);
    uint64_t *order = (uint64_t *)realloc(lw->order, (cap / 2) * sizeof *order);
    if (slots == NULL || order == NULL) {
        free(slots);
        if (order != NULL)
            lw->order = order;
        return false;
    }
    lw->order = order;
    for (size_t i = 0; i < cap; i++)
        slots[i].id = UINT64_MAX;
    for (size_t i = 0; i < lw->slots_cap; i++) {
        const atd_lazy_shared_slot *o = &lw->slots[i];
        if (o->id == UINT64_MAX)
            continue;
        size_t j = (size_t)o->hash & (cap - 1);
        while (slots[j].id != UINT64_MAX)
            j = (j + 1) & (cap - 1);
        slots[j] = *o;
        order[o->id] = j;
    }
    free(lw->slots);
    lw->slots = slots;
    lw->slots_cap = cap;
    return true;
}

bool atd_lazy_write_shared(atd_lazy_writer *lw, atd_writer *w, const char *s, size_t len)
{
    /* kept under half full, so probing ends at an empty slot */
    if (lw->nshared >= lw->slots_cap / 2 && !shared_grow(lw))
        return atd_writer_fail(w, ATD_ERR_NOMEM, "out of memory");
    uint64_t h = atd_lazy_hash(s, len);
    size_t mask = lw->slots_cap - 1, j = (size_t)h & mask;
    for (;;) {
        atd_lazy_shared_slot *e = &lw->slots[j];
        if (e->id == UINT64_MAX) {
            e->ptr = s;
            e->len = len;
            e->hash = h;
            e->id = lw->nshared;
            lw->order[lw->nshared++] = j;
            break;
        }
        if (e->hash == h && e->len == len && (len == 0 || memcmp(e->ptr, s, len) == 0))
            break;
        j = (j + 1) & mask;
    }
    char *p = atd_buf_reserve(w->buf, 1 + ATD_BIN_VINT_MAX);
    if (p == NULL)
        return atd_writer_fail_buf(w);
    *p++ = (char)ATD_LAZY_TAG_SHARED;
    p = atd_bin_put_uvint(p, lw->slots[j].id);
    atd_buf_commit(w->buf, p);
    return true;
}

/* --- index tables --- */

static int key_cmp(const atd_string *a, const atd_string *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n > 0 ? memcmp(a->ptr, b->ptr, n) : 0;
    if (c != 0)
        return c;
    return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

static const atd_string *key_at(const void *items, size_t stride, size_t i)
{
    return (const atd_string *)(const void *)((const char *)items + i * stride);
}

/* Bottom-up merge sort of the item indices by key (stable, no recursion). */
static void sort_order(const void *items, size_t stride, size_t *order, size_t *tmp, size_t n)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] =
                    key_cmp(key_at(items, stride, order[j]), key_at(items, stride, order[i])) < 0
                        ? order[j++]
                        : order[i++];
            while (i < mid)
                tmp[k++] = order[i++];
            while (j < hi)
                tmp[k++] = order[j++];
        }
        memcpy(order, tmp, n * sizeof *order);
    }
}

bool atd_lazy_index_begin(atd_lazy_writer *lw, atd_writer *w, const void *items, size_t n,
                          size_t stride, atd_lazy_index_build *b)
{
    (void)lw;
    b->n = n;
    b->order = NULL;
    b->offsets = NULL;
    if (n == 0)
        return true;
    size_t *tmp = NULL;
    if (n <= SIZE_MAX / sizeof(uint64_t)) {
        b->order = (size_t *)malloc(n * sizeof *b->order);
        b->offsets = (uint64_t *)malloc(n * sizeof *b->offsets);
        tmp = (size_t *)malloc(n * sizeof *tmp);
    }
    if (b->order == NULL || b->offsets == NULL || tmp == NULL) {
        free(tmp);
        atd_lazy_index_end(lw, w, b, false);
        return atd_writer_fail(w, ATD_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        b->order[i] = i;
    sort_order(items, stride, b->order, tmp, n);
    free(tmp);
    for (size_t k = 1; k < n; k++) {
        const atd_string *a = key_at(items, stride, b->order[k - 1]);
        if (key_cmp(a, key_at(items, stride, b->order[k])) == 0) {
            size_t second = b->order[k];
            atd_lazy_index_end(lw, w, b, false);
            char detail[120];
            int shown = a->len > 60 ? 60 : (int)a->len;
            snprintf(detail, sizeof detail, "duplicate key \"%.*s\" in an indexed map", shown,
                     a->ptr);
            atd_writer_fail(w, ATD_ERR_INVALID, detail);
            return atd_writer_push_index(w, second);
        }
    }
    return true;
}

bool atd_lazy_index_end(atd_lazy_writer *lw, atd_writer *w, atd_lazy_index_build *b, bool ok)
{
    uint64_t table = file_pos(lw);
    if (ok) {
        for (size_t k = 0; k < b->n; k++)
            append_le64(lw->out, b->offsets[k]);
        if (lw->out->status != 0)
            ok = atd_writer_fail(w, (atd_error_code)lw->out->status, "cannot write the file");
    }
    free(b->order);
    free(b->offsets);
    b->order = NULL;
    b->offsets = NULL;
    if (!ok)
        return false;
    char *p = atd_buf_reserve(w->buf, 2 * ATD_BIN_VINT_MAX);
    if (p == NULL)
        return atd_writer_fail_buf(w);
    p = atd_bin_put_uvint(p, table);
    p = atd_bin_put_uvint(p, b->n);
    atd_buf_commit(w->buf, p);
    return true;
}

/* --- the end --- */

static void release(atd_lazy_writer *lw)
{
    for (unsigned i = 0; i < lw->ninit; i++)
        atd_buf_free(&lw->scratch[i]);
    free(lw->slots);
    free(lw->order);
    lw->slots = NULL;
    lw->order = NULL;
    lw->ninit = 0;
}

/* The strings section: each string's uvint length and bytes, then the
 * table of their offsets. */
static uint64_t write_strings(atd_lazy_writer *lw)
{
    uint64_t *offs = lw->nshared ? (uint64_t *)malloc(lw->nshared * sizeof *offs) : NULL;
    if (lw->nshared && offs == NULL)
        return UINT64_MAX;
    for (uint64_t id = 0; id < lw->nshared; id++) {
        const atd_lazy_shared_slot *e = &lw->slots[lw->order[id]];
        char len[ATD_BIN_VINT_MAX];
        offs[id] = file_pos(lw);
        atd_buf_append(lw->out, len, (size_t)(atd_bin_put_uvint(len, e->len) - len));
        atd_buf_append(lw->out, e->ptr, e->len);
    }
    uint64_t table = file_pos(lw);
    for (uint64_t id = 0; id < lw->nshared; id++)
        append_le64(lw->out, offs[id]);
    free(offs);
    return table;
}

int atd_lazy_writer_finish(atd_lazy_writer *lw, bool ok, atd_error *err)
{
    atd_writer *root = &lw->sw[0];
    atd_buf *out = lw->out;
    if (!ok || lw->scratch[0].status != 0) {
        if (root->err_code == ATD_ERR_OK)
            atd_writer_fail_buf(root);
        int code = atd_writer_get_error(root, err);
        release(lw);
        return code;
    }
    uint64_t data_end = file_pos(lw);
    uint64_t table = write_strings(lw);
    if (table == UINT64_MAX) {
        release(lw);
        atd_error_set(err, ATD_ERR_NOMEM, NULL, "out of memory");
        return ATD_ERR_NOMEM;
    }
    uint64_t root_off = file_pos(lw), root_len = lw->scratch[0].len;
    atd_buf_append(out, lw->scratch[0].data, lw->scratch[0].len);
    char t[ATD_LAZY_TRAILER_SIZE];
    put_le64(t, data_end);
    put_le64(t + 8, table);
    put_le64(t + 16, lw->nshared);
    put_le64(t + 24, root_off);
    put_le64(t + 32, root_len);
    memcpy(t + 40, trailer_magic, 8);
    atd_buf_append(out, t, sizeof t);
    release(lw);
    if (out->sink != NULL)
        atd_buf_flush(out);
    if (out->status != 0) {
        atd_error_set(err, (atd_error_code)out->status, NULL, "cannot write the file");
        return out->status;
    }
    if (err != NULL)
        atd_error_set(err, ATD_ERR_OK, NULL, NULL);
    return 0;
}
