/* Writing the lazy format (docs/lazy-format.md): the header, out-of-line
 * values through a stack of scratch writers (a lazy value may contain lazy
 * values: each is complete before it is appended to the file as a frame
 * with its CRC, and its parent, still being written, gets its reference),
 * shared strings through a hash table on their bytes, index nodes, and at
 * the end the strings section, the root and the trailer. The file is
 * appended to only, so it may go to a sink. */
#include "lazy_internal.h"

#include <stdio.h>
#include <stdlib.h>

#if defined(__GNUC__) || defined(__clang__)
#define ATD_NOINLINE __attribute__((noinline))
#else
#define ATD_NOINLINE
#endif

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

static void put_le32(char *p, uint32_t u)
{
    for (int i = 0; i < 4; i++)
        p[i] = (char)(unsigned char)(u >> (8 * i));
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

static void append_uvint(atd_buf *b, uint64_t u)
{
    char p[ATD_BIN_VINT_MAX];
    atd_buf_append(b, p, (size_t)(atd_bin_put_uvint(p, u) - p));
}

static size_t uvint_size(uint64_t u)
{
    size_t n = 1;
    while (u >= 0x80) {
        u >>= 7;
        n++;
    }
    return n;
}

/* Offset in the file of the next byte appended. */
static uint64_t file_pos(const atd_lazy_writer *lw)
{
    return (uint64_t)(lw->out->flushed + lw->out->len) - lw->start;
}

/* Appends a frame (uvint length, the bytes, their CRC-32C); returns the
 * offset of the bytes. */
static uint64_t append_frame(atd_lazy_writer *lw, const char *bytes, size_t len)
{
    append_uvint(lw->out, len);
    uint64_t off = file_pos(lw);
    char crc[4];
    put_le32(crc, atd_crc32c(0, bytes, len));
    atd_buf_append(lw->out, bytes, len);
    atd_buf_append(lw->out, crc, 4);
    return off;
}

static void make_header(char h[ATD_LAZY_HEADER_SIZE], uint64_t fingerprint)
{
    memset(h, 0, ATD_LAZY_HEADER_SIZE);
    memcpy(h, header_magic, 8);
    put_le32(h + 8, ATD_LAZY_VERSION); /* then u32 flags 0 */
    put_le64(h + 16, fingerprint);     /* then u64 reserved 0 */
}

atd_writer *atd_lazy_writer_start(atd_lazy_writer *lw, atd_buf *out, uint64_t fingerprint,
                                  unsigned flags, atd_error *err)
{
    memset(lw, 0, sizeof *lw);
    lw->out = out;
    lw->start = (uint64_t)(out->flushed + out->len);
    lw->fingerprint = fingerprint;
    char h[ATD_LAZY_HEADER_SIZE];
    make_header(h, fingerprint);
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

static bool out_ok(atd_lazy_writer *lw, atd_writer *w)
{
    if (lw->out->status == 0)
        return true;
    return atd_writer_fail(w, (atd_error_code)lw->out->status, "cannot write the file");
}

bool atd_lazy_end(atd_lazy_writer *lw, atd_writer *outer, bool ok, atd_lazy *ref)
{
    unsigned d = --lw->depth;
    atd_buf *s = &lw->scratch[d];
    if (!ok || s->status != 0)
        return move_error(outer, &lw->sw[d]);
    ref->off = append_frame(lw, s->data, s->len);
    ref->len = s->len;
    return out_ok(lw, outer);
}

bool atd_lazy_write_ref(atd_writer *w, const atd_lazy *ref)
{
    char *p = atd_buf_reserve(w->buf, 2 * ATD_BIN_VINT_MAX);
    if (p == NULL)
        return atd_writer_fail_buf(w);
    p = atd_bin_put_uvint(p, ref->off);
    p = atd_bin_put_uvint(p, ref->len);
    atd_buf_commit(w->buf, p);
    return true;
}

bool atd_lazy_write_presence(atd_writer *w, bool present)
{
    return atd_bin_write_byte(w, present ? 1 : 0);
}

/* --- shared strings --- */

/* A hash of the bytes, 8 at a time (the writer's table only: never stored). */
static uint64_t bytes_hash(const char *s, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ len;
    for (; len >= 8; s += 8, len -= 8) {
        uint64_t x;
        memcpy(&x, s, 8);
        h = (h ^ x) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    if (len > 0) {
        uint64_t x = 0;
        memcpy(&x, s, len);
        h = (h ^ x) * 0xc4ceb9fe1a85ec53u;
    }
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9u;
    return h ^ (h >> 32);
}

static bool shared_grow(atd_lazy_writer *lw)
{
    size_t cap = lw->slots_cap ? lw->slots_cap * 2 : 1024;
    if (cap > SIZE_MAX / (2 * sizeof(atd_lazy_shared_seen)) || cap / 2 >= UINT32_MAX)
        return false;
    atd_lazy_shared_slot *slots = (atd_lazy_shared_slot *)malloc(cap * sizeof *slots);
    /* twice as many addresses as slots (so at least four per string), in
     * sets of ATD_LAZY_SEEN_WAYS entries, each set a cache line: few sets
     * get more strings than ways, whose addresses would go to the slow
     * path again and again */
    atd_lazy_shared_seen *seen =
        (atd_lazy_shared_seen *)aligned_alloc(64, 2 * cap * sizeof(atd_lazy_shared_seen));
    if (seen != NULL)
        memset(seen, 0, 2 * cap * sizeof *seen);
    atd_string *strings = (atd_string *)realloc(lw->strings, (cap / 2) * sizeof *strings);
    if (slots == NULL || seen == NULL || strings == NULL) {
        free(slots);
        free(seen);
        if (strings != NULL)
            lw->strings = strings;
        return false;
    }
    lw->strings = strings;
    free(lw->seen);
    lw->seen = seen;
    for (size_t i = 0; i < cap; i++)
        slots[i].id = UINT32_MAX;
    for (uint64_t id = 0; id < lw->nshared; id++) {
        const atd_string *e = &strings[id];
        uint64_t h = bytes_hash(e->ptr, e->len);
        size_t j = (size_t)h & (cap - 1);
        while (slots[j].id != UINT32_MAX)
            j = (j + 1) & (cap - 1);
        slots[j].hash = (uint32_t)(h >> 32);
        slots[j].id = (uint32_t)id;
    }
    free(lw->slots);
    lw->slots = slots;
    lw->slots_cap = cap;
    return true;
}

/* A string not met at this address lately: looked up by its bytes, added
 * if new. Apart from atd_lazy_write_shared so that the common case (the
 * address cache hits) stays a short function without a stack frame. */
static ATD_NOINLINE bool write_shared_slow(atd_lazy_writer *lw, atd_writer *w, const char *s,
                                           size_t len)
{
    /* kept under half full, so probing ends at an empty slot */
    if (lw->nshared >= lw->slots_cap / 2 && !shared_grow(lw))
        return atd_writer_fail(w, ATD_ERR_NOMEM, "out of memory");
    if (len > UINT32_MAX)
        return atd_writer_fail(w, ATD_ERR_INVALID, "a shared string longer than 4 GB");
    uint64_t h = bytes_hash(s, len);
    uint32_t hi = (uint32_t)(h >> 32);
    size_t mask = lw->slots_cap - 1, j = (size_t)h & mask;
    uint32_t id;
    for (;;) {
        atd_lazy_shared_slot *e = &lw->slots[j];
        if (e->id == UINT32_MAX) {
            id = (uint32_t)lw->nshared++;
            e->hash = hi;
            e->id = id;
            lw->strings[id].ptr = s;
            lw->strings[id].len = len;
            break;
        }
        if (e->hash == hi) {
            const atd_string *o = &lw->strings[e->id];
            if (o->len == len && (o->ptr == s || len == 0 || memcmp(o->ptr, s, len) == 0)) {
                id = e->id;
                break;
            }
        }
        j = (j + 1) & mask;
    }
    atd_lazy_shared_seen *e = atd_lazy__seen_at(lw, s);
    memmove(e + 1, e, (ATD_LAZY_SEEN_WAYS - 1) * sizeof *e);
    e[0].ptr = s;
    e[0].len = (uint32_t)len;
    e[0].id = id;
    return atd_bin_write_uvint(w, id);
}

bool atd_lazy_write_shared(atd_lazy_writer *lw, atd_writer *w, const char *s, size_t len)
{
    /* an indexer usually shares one copy of each name: the same address
     * with the same length is the same string, found without its bytes
     * (NULL, which the zeroed cache holds, is never remembered) */
    if (ATD_LIKELY(lw->slots_cap > 0 && s != NULL)) {
        const atd_lazy_shared_seen *e = atd_lazy__seen_at(lw, s);
        int k = 0;
        while (k < ATD_LAZY_SEEN_WAYS && (e[k].ptr != s || e[k].len != len))
            k++;
        if (k == ATD_LAZY_SEEN_WAYS)
            return write_shared_slow(lw, w, s, len);
        uint32_t id = e[k].id;
        char *p = atd_buf_reserve(w->buf, ATD_BIN_VINT_MAX);
        if (ATD_UNLIKELY(p == NULL))
            return atd_writer_fail_buf(w);
        atd_buf_commit(w->buf, atd_bin_put_uvint(p, id));
        return true;
    }
    return write_shared_slow(lw, w, s, len);
}

/* --- indexes --- */

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

/* A leaf entry waiting for its leaf to be written. Its bytes are in
 * b->entries from `at`: the key (uvint length, bytes; key_size bytes in
 * all), then `len` bytes: the value's slot, or the body of a <c lazy>
 * value (kind VALUE) to be framed in the leaf itself. */
enum { SLOT, VALUE, REF };
typedef struct atd_lazy_index_pending {
    size_t at, key_size, len;
    int kind;     /* REF: a VALUE written out of line, at off */
    uint64_t off;
} pending;

/* A node's child as its parent has it. */
typedef struct atd_lazy_index_child {
    const char *key; /* the smallest key under it (the caller's) */
    size_t klen;
    uint64_t off, len, count;
} child;

/* Room for a node's entries and their offsets: a page less its frame
 * (length, CRC) and its level and count. */
#define NODE_ROOM (ATD_LAZY_PAGE - 2 - 4 - 1 - 2)

/* The most entries a leaf can hold (each takes at least 5 bytes with its
 * offset), bounding the pending entries. */
#define LEAF_MAX (NODE_ROOM / 5 + 1)

static void index_free(atd_lazy_index_build *b)
{
    free(b->order);
    free(b->pend);
    free(b->kids);
    atd_buf_free(&b->entries);
    b->order = NULL;
    b->pend = NULL;
    b->kids = NULL;
}

bool atd_lazy_index_begin(atd_lazy_writer *lw, atd_writer *w, const void *items, size_t n,
                          size_t stride, atd_lazy_index_build *b)
{
    (void)lw;
    memset(b, 0, sizeof *b);
    b->n = n;
    b->items = items;
    b->stride = stride;
    atd_buf_init(&b->entries);
    size_t *tmp = NULL;
    if (n < SIZE_MAX / sizeof(child)) {
        b->order = (size_t *)malloc((n + 1) * sizeof *b->order);
        b->pend = (pending *)malloc(((n < LEAF_MAX ? n : LEAF_MAX) + 1) * sizeof *b->pend);
        b->kids = (child *)malloc((n + 1) * sizeof *b->kids);
        tmp = (size_t *)malloc((n + 1) * sizeof *tmp);
    }
    if (b->order == NULL || b->pend == NULL || b->kids == NULL || tmp == NULL) {
        free(tmp);
        index_free(b);
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
            index_free(b);
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

/* The bytes of entry e in its leaf (key, slot length, slot) when the
 * offsets of values framed in the leaf take s bytes; *frame: the bytes of
 * its value's frame in the leaf (0 unless VALUE). */
static size_t entry_size(const pending *e, size_t s, size_t *frame)
{
    size_t slot = e->len;
    *frame = 0;
    if (e->kind == VALUE) {
        slot = s + uvint_size(e->len);
        *frame = uvint_size(e->len) + e->len + 4;
    } else if (e->kind == REF) {
        slot = uvint_size(e->off) + uvint_size(e->len);
    }
    return e->key_size + uvint_size(slot) + slot;
}

/* The body of the pending leaf with s-byte value offsets: level, count,
 * offsets, entries, then the frames of its values. */
static size_t leaf_body_size(const atd_lazy_index_build *b, size_t s)
{
    size_t size = 1 + uvint_size(b->npend) + 2 * b->npend;
    for (size_t k = 0; k < b->npend; k++) {
        size_t frame;
        size += entry_size(&b->pend[k], s, &frame) + frame;
    }
    return size;
}

/* Zero bytes up to the next page boundary when a frame of `size` bytes
 * that fits in a page would straddle one. */
static uint64_t node_padding(uint64_t pos, uint64_t size)
{
    if (size <= ATD_LAZY_PAGE && pos % ATD_LAZY_PAGE + size > ATD_LAZY_PAGE)
        return ATD_LAZY_PAGE - pos % ATD_LAZY_PAGE;
    return 0;
}

/* Appends a node as a frame that does not straddle a page boundary when
 * it fits in a page (zero bytes of padding before it). */
static uint64_t append_node(atd_lazy_writer *lw, const atd_buf *node)
{
    uint64_t pad = node_padding(file_pos(lw), uvint_size(node->len) + node->len + 4);
    static const char zeros[ATD_LAZY_PAGE];
    atd_buf_append(lw->out, zeros, (size_t)pad);
    return append_frame(lw, node->data, node->len);
}

/* A node's head: its level, its count, the u16 offset of each of its n
 * entries (sizes[k] bytes each) from the end of the offsets. */
static void node_head(atd_buf *node, unsigned level, const size_t *sizes, size_t n)
{
    atd_buf_clear(node);
    atd_buf_putc(node, (char)level);
    append_uvint(node, n);
    size_t at = 0;
    for (size_t k = 0; k < n; k++) {
        char o[2] = {(char)(unsigned char)(at & 0xff), (char)(unsigned char)(at >> 8)};
        atd_buf_append(node, o, 2);
        at += sizes[k];
    }
}

/* Writes the pending entries as a leaf, the values framed in it when the
 * leaf fits in a page: a lookup then reads one page for the key and its
 * value. The offsets of those values are uvints of the same size s (the
 * page they are in decides it); should the leaf land where they are not,
 * its values are written out of line first. */
static bool flush_leaf(atd_lazy_writer *lw, atd_lazy_index_build *b, atd_buf *node)
{
    size_t n = b->npend;
    if (n == 0)
        return true;
    size_t sizes[LEAF_MAX + 1], s = uvint_size(file_pos(lw) + ATD_LAZY_PAGE);
    uint64_t body_at = 0;
    bool inline_ok = false, any = false;
    for (size_t k = 0; k < n; k++)
        any = any || b->pend[k].kind == VALUE;
    if (any) {
        size_t body = leaf_body_size(b, s);
        uint64_t frame = uvint_size(body) + body + 4, pos = file_pos(lw);
        body_at = pos + node_padding(pos, frame) + uvint_size(body);
        inline_ok = frame <= ATD_LAZY_PAGE && uvint_size(body_at) == s &&
                    uvint_size(body_at + body) == s;
        for (size_t k = 0; k < n && !inline_ok; k++) {
            pending *e = &b->pend[k];
            if (e->kind == VALUE) {
                e->off = append_frame(lw, b->entries.data + e->at + e->key_size, e->len);
                e->kind = REF;
            }
        }
    }
    for (size_t k = 0; k < n; k++) {
        size_t frame;
        sizes[k] = entry_size(&b->pend[k], s, &frame);
    }
    node_head(node, 0, sizes, n);
    /* where the first value's frame starts: after the entries */
    uint64_t vpos = body_at + node->len;
    for (size_t k = 0; k < n; k++)
        vpos += sizes[k];
    for (size_t k = 0; k < n; k++) {
        const pending *e = &b->pend[k];
        const char *bytes = b->entries.data + e->at;
        atd_buf_append(node, bytes, e->key_size);
        if (e->kind == SLOT) {
            append_uvint(node, e->len);
            atd_buf_append(node, bytes + e->key_size, e->len);
            continue;
        }
        uint64_t off = e->off;
        if (e->kind == VALUE) {
            off = vpos + uvint_size(e->len);
            vpos = off + e->len + 4;
        }
        append_uvint(node, uvint_size(off) + uvint_size(e->len));
        append_uvint(node, off);
        append_uvint(node, e->len);
    }
    for (size_t k = 0; k < n; k++) {
        const pending *e = &b->pend[k];
        if (e->kind != VALUE)
            continue;
        const char *v = b->entries.data + e->at + e->key_size;
        char crc[4];
        put_le32(crc, atd_crc32c(0, v, e->len));
        append_uvint(node, e->len);
        atd_buf_append(node, v, e->len);
        atd_buf_append(node, crc, 4);
    }
    child *c = &b->kids[b->nkids++];
    const atd_string *first = key_at(b->items, b->stride, b->order[b->added - n]);
    c->key = first->ptr;
    c->klen = first->len;
    c->len = node->len;
    c->count = n;
    c->off = append_node(lw, node); /* at body_at when values are in it */
    b->npend = 0;
    atd_buf_clear(&b->entries);
    return node->status == 0;
}

/* Adds the entry whose bytes after its key are the scratch writer's. */
static bool index_add(atd_lazy_writer *lw, atd_writer *w, atd_lazy_index_build *b, bool ok,
                      int kind)
{
    unsigned d = --lw->depth;
    atd_buf *s = &lw->scratch[d];
    if (!ok || s->status != 0)
        return move_error(w, &lw->sw[d]);
    const atd_string *key = key_at(b->items, b->stride, b->order[b->added]);
    pending e = {0, uvint_size(key->len) + key->len, s->len, kind, 0};
    if (kind == VALUE && (s->len == 0 || s->len > NODE_ROOM)) {
        /* too large to share a page with its key: out of line */
        e.off = append_frame(lw, s->data, s->len);
        e.kind = REF;
    }
    size_t frame, size = entry_size(&e, uvint_size(file_pos(lw) + ATD_LAZY_PAGE), &frame);
    size += 2 + frame;
    atd_buf node;
    atd_buf_init(&node);
    if (b->npend > 0 && (b->leaf_size + size > NODE_ROOM || b->npend == LEAF_MAX)) {
        bool flushed = flush_leaf(lw, b, &node);
        atd_buf_free(&node);
        if (!flushed)
            return atd_writer_fail(w, ATD_ERR_NOMEM, "out of memory");
        b->leaf_size = 0;
    }
    e.at = b->entries.len;
    append_uvint(&b->entries, key->len);
    atd_buf_append(&b->entries, key->ptr, key->len);
    if (e.kind != REF)
        atd_buf_append(&b->entries, s->data, s->len);
    if (b->entries.status != 0)
        return atd_writer_fail(w, ATD_ERR_NOMEM, "out of memory");
    b->pend[b->npend++] = e;
    b->leaf_size += size;
    b->added++;
    return out_ok(lw, w);
}

bool atd_lazy_index_add(atd_lazy_writer *lw, atd_writer *w, atd_lazy_index_build *b, bool ok)
{
    return index_add(lw, w, b, ok, SLOT);
}

bool atd_lazy_index_add_value(atd_lazy_writer *lw, atd_writer *w, atd_lazy_index_build *b,
                              bool ok)
{
    return index_add(lw, w, b, ok, VALUE);
}

static size_t child_entry_size(const child *c)
{
    return uvint_size(c->klen) + c->klen + uvint_size(c->off) + uvint_size(c->len) +
           uvint_size(c->count);
}

/* How many of the n entries of these sizes go in the next node: as many
 * as fit with their offsets, at least one. */
static size_t node_fill(const size_t *sizes, size_t n)
{
    size_t j = 1, room = sizes[0] + 2;
    while (j < n && room + sizes[j] + 2 <= NODE_ROOM)
        room += sizes[j++] + 2;
    return j;
}

/* Writes the last leaf and the levels above the leaves, one after the
 * other from *inner (so that a reader may read them ahead at once); the
 * root's child record ends in b->kids[0]. Returns false when out of
 * memory. */
static bool write_tree(atd_lazy_writer *lw, atd_lazy_index_build *b, uint64_t *inner)
{
    atd_buf node;
    atd_buf_init(&node);
    bool ok = flush_leaf(lw, b, &node);
    child *kids = b->kids;
    size_t nk = b->nkids;
    size_t *sizes = (size_t *)malloc((nk + 1) * sizeof *sizes);
    *inner = nk > 1 ? file_pos(lw) : kids[0].off;
    for (unsigned level = 1; ok && sizes != NULL && nk > 1; level++) {
        size_t nout = 0;
        for (size_t i = 0; i < nk; i++)
            sizes[i] = child_entry_size(&kids[i]);
        for (size_t i = 0; i < nk;) {
            size_t j = i + node_fill(sizes + i, nk - i);
            node_head(&node, level, sizes + i, j - i);
            uint64_t count = 0;
            for (size_t k = i; k < j; k++) {
                append_uvint(&node, kids[k].klen);
                atd_buf_append(&node, kids[k].key, kids[k].klen);
                append_uvint(&node, kids[k].off);
                append_uvint(&node, kids[k].len);
                append_uvint(&node, kids[k].count);
                count += kids[k].count;
            }
            child c = {kids[i].key, kids[i].klen, 0, node.len, count};
            c.off = append_node(lw, &node);
            kids[nout++] = c; /* nout <= i: overwrites a child already written */
            i = j;
        }
        nk = nout;
    }
    ok = ok && sizes != NULL && node.status == 0;
    free(sizes);
    atd_buf_free(&node);
    return ok;
}

bool atd_lazy_index_end(atd_lazy_writer *lw, atd_writer *w, atd_lazy_index_build *b, bool ok)
{
    child root = {"", 0, 0, 0, 0};
    uint64_t inner = 0;
    if (ok && b->n > 0) {
        if (!write_tree(lw, b, &inner))
            ok = atd_writer_fail(w, ATD_ERR_NOMEM, "out of memory");
        else
            root = b->kids[0];
        ok = ok && out_ok(lw, w);
    }
    index_free(b);
    if (!ok)
        return false;
    char *p = atd_buf_reserve(w->buf, 4 * ATD_BIN_VINT_MAX);
    if (p == NULL)
        return atd_writer_fail_buf(w);
    p = atd_bin_put_uvint(p, root.off);
    p = atd_bin_put_uvint(p, root.len);
    p = atd_bin_put_uvint(p, b->n);
    p = atd_bin_put_uvint(p, inner);
    atd_buf_commit(w->buf, p);
    return true;
}

/* --- the end --- */

static void release(atd_lazy_writer *lw)
{
    for (unsigned i = 0; i < lw->ninit; i++)
        atd_buf_free(&lw->scratch[i]);
    free(lw->slots);
    free(lw->seen);
    free(lw->strings);
    lw->slots = NULL;
    lw->seen = NULL;
    lw->strings = NULL;
    lw->ninit = 0;
}

uint32_t atd__lazy_string_crc(uint64_t id, const char *p, size_t n)
{
    return atd_crc32c((uint32_t)id ^ (uint32_t)(id >> 32), p, n);
}

/* The strings section: each string's uvint length, bytes and CRC, then the
 * table of their offsets. */
static uint64_t write_strings(atd_lazy_writer *lw)
{
    uint64_t *offs = lw->nshared ? (uint64_t *)malloc(lw->nshared * sizeof *offs) : NULL;
    if (lw->nshared && offs == NULL)
        return UINT64_MAX;
    atd_buf rec;
    atd_buf_init(&rec);
    for (uint64_t id = 0; id < lw->nshared; id++) {
        const atd_string *e = &lw->strings[id];
        atd_buf_clear(&rec);
        append_uvint(&rec, e->len);
        atd_buf_append(&rec, e->ptr, e->len);
        char crc[4];
        put_le32(crc, atd__lazy_string_crc(id, rec.data, rec.len));
        offs[id] = file_pos(lw);
        atd_buf_append(lw->out, rec.data, rec.len);
        atd_buf_append(lw->out, crc, 4);
    }
    bool ok = rec.status == 0;
    atd_buf_free(&rec);
    uint64_t table = file_pos(lw);
    for (uint64_t id = 0; id < lw->nshared; id++)
        append_le64(lw->out, offs[id]);
    free(offs);
    return ok ? table : UINT64_MAX;
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
    const atd_buf *rb = &lw->scratch[0];
    uint64_t root_off = file_pos(lw), root_len = rb->len;
    atd_buf_append(out, rb->data, rb->len);
    char t[ATD_LAZY_TRAILER_SIZE], h[ATD_LAZY_HEADER_SIZE];
    put_le64(t, data_end);
    put_le64(t + 8, table);
    put_le64(t + 16, lw->nshared);
    put_le64(t + 24, root_off);
    put_le64(t + 32, root_len);
    put_le32(t + 40, atd_crc32c(0, rb->data, rb->len));
    make_header(h, lw->fingerprint);
    put_le32(t + 44, atd_crc32c(atd_crc32c(0, h, sizeof h), t, 44));
    memcpy(t + 48, trailer_magic, 8);
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
