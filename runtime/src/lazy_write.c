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
    if (cap > SIZE_MAX / sizeof(atd_string) || cap / 2 >= UINT32_MAX)
        return false;
    atd_lazy_shared_slot *slots = (atd_lazy_shared_slot *)malloc(cap * sizeof *slots);
    /* pairs of entries, each pair within a cache line */
    atd_lazy_shared_seen *seen =
        (atd_lazy_shared_seen *)aligned_alloc(64, cap * sizeof(atd_lazy_shared_seen));
    if (seen != NULL)
        memset(seen, 0, cap * sizeof *seen);
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

/* The pair of entries of lw->seen where a string at address s may be
 * remembered (two ways, the last one met first). */
static atd_lazy_shared_seen *seen_at(const atd_lazy_writer *lw, const char *s)
{
    uint64_t a = (uint64_t)(uintptr_t)s;
    a ^= a >> 33;
    a *= 0xff51afd7ed558ccdu;
    return &lw->seen[(size_t)(a ^ (a >> 33)) & (lw->slots_cap - 2)];
}

bool atd_lazy_write_shared(atd_lazy_writer *lw, atd_writer *w, const char *s, size_t len)
{
    if (lw->slots_cap > 0) {
        const atd_lazy_shared_seen *e = seen_at(lw, s);
        if (e[0].ptr == s && e[0].len == len && s != NULL)
            return atd_bin_write_uvint(w, e[0].id);
        if (e[1].ptr == s && e[1].len == len && s != NULL)
            return atd_bin_write_uvint(w, e[1].id);
    }
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
            /* the same bytes: often the very same pointer, as an indexer
             * shares one copy of each name */
            const atd_string *o = &lw->strings[e->id];
            if (o->len == len && (o->ptr == s || len == 0 || memcmp(o->ptr, s, len) == 0)) {
                id = e->id;
                break;
            }
        }
        j = (j + 1) & mask;
    }
    atd_lazy_shared_seen *e = seen_at(lw, s);
    e[1] = e[0];
    e[0].ptr = s;
    e[0].len = (uint32_t)len;
    e[0].id = id;
    return atd_bin_write_uvint(w, id);
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

static void index_free(atd_lazy_index_build *b)
{
    free(b->order);
    free(b->entry_at);
    atd_buf_free(&b->entries);
    b->order = NULL;
    b->entry_at = NULL;
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
    if (n < SIZE_MAX / sizeof(size_t)) {
        b->order = (size_t *)malloc((n + 1) * sizeof *b->order);
        b->entry_at = (size_t *)malloc((n + 1) * sizeof *b->entry_at);
        tmp = (size_t *)malloc((n + 1) * sizeof *tmp);
    }
    if (b->order == NULL || b->entry_at == NULL || tmp == NULL) {
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

bool atd_lazy_index_add(atd_lazy_writer *lw, atd_writer *w, atd_lazy_index_build *b, bool ok)
{
    unsigned d = --lw->depth;
    atd_buf *s = &lw->scratch[d];
    if (!ok || s->status != 0)
        return move_error(w, &lw->sw[d]);
    const atd_string *key = key_at(b->items, b->stride, b->order[b->added]);
    b->entry_at[b->added++] = b->entries.len;
    append_uvint(&b->entries, key->len);
    atd_buf_append(&b->entries, key->ptr, key->len);
    append_uvint(&b->entries, s->len);
    atd_buf_append(&b->entries, s->data, s->len);
    if (b->entries.status != 0)
        return atd_writer_fail(w, ATD_ERR_NOMEM, "out of memory");
    return true;
}

/* A node's child as its parent has it. */
typedef struct child {
    const char *key; /* the smallest key under it (in b->entries) */
    size_t klen;
    uint64_t off, len, count;
} child;

/* Room for a node's entries and their offsets: a page less its frame
 * (length, CRC) and its level and count. */
#define NODE_ROOM (ATD_LAZY_PAGE - 2 - 4 - 1 - 2)

/* Appends a node as a frame that does not straddle a page boundary when
 * it fits in a page (zero bytes of padding before it). */
static uint64_t append_node(atd_lazy_writer *lw, const atd_buf *node)
{
    uint64_t size = uvint_size(node->len) + node->len + 4, pos = file_pos(lw);
    if (size <= ATD_LAZY_PAGE && pos % ATD_LAZY_PAGE + size > ATD_LAZY_PAGE) {
        static const char zeros[ATD_LAZY_PAGE];
        atd_buf_append(lw->out, zeros, (size_t)(ATD_LAZY_PAGE - pos % ATD_LAZY_PAGE));
    }
    return append_frame(lw, node->data, node->len);
}

static size_t child_entry_size(const child *c)
{
    return uvint_size(c->klen) + c->klen + uvint_size(c->off) + uvint_size(c->len) +
           uvint_size(c->count);
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

/* How many of the n entries of these sizes go in the next node: as many
 * as fit with their offsets, at least one. */
static size_t node_fill(const size_t *sizes, size_t n)
{
    size_t j = 1, room = sizes[0] + 2;
    while (j < n && room + sizes[j] + 2 <= NODE_ROOM)
        room += sizes[j++] + 2;
    return j;
}

/* Writes the leaves (level 0) and the levels above them; the root's
 * child record ends in kids[0]. Returns false when out of memory. */
static bool write_tree(atd_lazy_writer *lw, atd_lazy_index_build *b, child *kids, size_t *sizes)
{
    atd_buf node;
    atd_buf_init(&node);
    const char *e = b->entries.data;
    b->entry_at[b->n] = b->entries.len;
    for (size_t i = 0; i < b->n; i++)
        sizes[i] = b->entry_at[i + 1] - b->entry_at[i];
    size_t nk = 0;
    for (size_t i = 0; i < b->n;) {
        size_t j = i + node_fill(sizes + i, b->n - i);
        node_head(&node, 0, sizes + i, j - i);
        atd_buf_append(&node, e + b->entry_at[i], b->entry_at[j] - b->entry_at[i]);
        child *c = &kids[nk++];
        atd_reader r;
        atd_reader_init(&r, e, b->entries.len, NULL, ATD_READ_BORROW_STRINGS);
        r.cur = e + b->entry_at[i];
        atd_string k = {"", 0};
        atd_bin_read_string(&r, &k); /* written above: cannot fail */
        c->key = k.ptr;
        c->klen = k.len;
        c->len = node.len;
        c->count = j - i;
        c->off = append_node(lw, &node);
        i = j;
    }
    for (unsigned level = 1; nk > 1; level++) {
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
    bool ok = node.status == 0;
    atd_buf_free(&node);
    return ok;
}

bool atd_lazy_index_end(atd_lazy_writer *lw, atd_writer *w, atd_lazy_index_build *b, bool ok)
{
    child root = {"", 0, 0, 0, 0};
    if (ok && b->n > 0) {
        child *kids = (child *)malloc(b->n * sizeof *kids);
        size_t *sizes = (size_t *)malloc(b->n * sizeof *sizes);
        if (kids == NULL || sizes == NULL || !write_tree(lw, b, kids, sizes))
            ok = atd_writer_fail(w, ATD_ERR_NOMEM, "out of memory");
        else
            root = kids[0];
        free(kids);
        free(sizes);
        ok = ok && out_ok(lw, w);
    }
    index_free(b);
    if (!ok)
        return false;
    char *p = atd_buf_reserve(w->buf, 3 * ATD_BIN_VINT_MAX);
    if (p == NULL)
        return atd_writer_fail_buf(w);
    p = atd_bin_put_uvint(p, root.off);
    p = atd_bin_put_uvint(p, root.len);
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
