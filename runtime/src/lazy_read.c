/* Reading the lazy format (docs/lazy-format.md): opening (header, trailer,
 * section bounds, checksums), references checked against their sections
 * and their values' CRCs, shared strings, the descent of an index's tree,
 * and the verification of a whole file. Reads borrow the file's bytes and
 * never write to the db, which is what makes concurrent readers safe. */
#define _POSIX_C_SOURCE 200809L

#include "lazy_internal.h"
#include "reader_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The biniou primitives on r->cur, for the readers of the index and the
 * tables below: true after moving r->cur past the value, false after
 * recording the error. */
static bool bin_byte(atd_reader *r, uint8_t *out)
{
    return atd_reader_advance(r, atd_bin_read_byte_p(r, r->cur, out));
}
static bool bin_uvint(atd_reader *r, uint64_t *out)
{
    return atd_reader_advance(r, atd_bin_read_uvint_p(r, r->cur, out));
}
static bool bin_count(atd_reader *r, size_t *out)
{
    return atd_reader_advance(r, atd_bin_read_count_p(r, r->cur, out));
}
static bool bin_string(atd_reader *r, atd_string *out)
{
    return atd_reader_advance(r, atd_bin_read_string_p(r, r->cur, out));
}

static const char header_magic[8] = {'A', 'T', 'D', 'L', 'A', 'Z', 'Y', 0};
static const char trailer_magic[8] = {'A', 'T', 'D', 'L', 'A', 'Z', 'Y', 'E'};

static uint64_t get_le64(const char *p)
{
    uint64_t u = 0;
    for (int i = 7; i >= 0; i--)
        u = (u << 8) | (unsigned char)p[i];
    return u;
}

static uint32_t get_le32(const char *p)
{
    return (uint32_t)(unsigned char)p[0] | (uint32_t)(unsigned char)p[1] << 8 |
           (uint32_t)(unsigned char)p[2] << 16 | (uint32_t)(unsigned char)p[3] << 24;
}

/* open_fail's offset for an error of the file itself, not of its bytes. */
#define NO_POSITION SIZE_MAX

static int open_fail(atd_error *err, atd_error_code code, size_t offset, const char *fmt, ...)
    ATD_PRINTF(4, 5);
static int open_fail(atd_error *err, atd_error_code code, size_t offset, const char *fmt, ...)
{
    if (err == NULL)
        return code;
    char detail[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    /* A file that cannot be opened, read or mapped has no position. */
    if (offset == NO_POSITION) {
        atd_error_set(err, code, NULL, detail);
        return code;
    }
    atd_error_set(err, code, "$", detail);
    err->offset = offset;
    snprintf(err->message, sizeof err->message, "byte %zu: %s", offset, detail);
    return code;
}

int atd_lazy_open_buffer(atd_lazy_db *db, const char *data, size_t len, uint64_t fingerprint,
                         atd_error *err)
{
    memset(db, 0, sizeof *db);
    const size_t hs = ATD_LAZY_HEADER_SIZE, ts = ATD_LAZY_TRAILER_SIZE;
    if (len < 8 || memcmp(data, header_magic, 8) != 0)
        return open_fail(err, ATD_ERR_SYNTAX, 0, "not a lazy-format file (bad magic)");
    if (len < hs + ts)
        return open_fail(err, ATD_ERR_SYNTAX, len,
                         "truncated: %zu bytes, shorter than header and trailer", len);
    uint32_t version = get_le32(data + 8);
    if (version != ATD_LAZY_VERSION)
        return open_fail(err, ATD_ERR_SYNTAX, 8,
                         "format version %u, this reader knows version %u only: write the file "
                         "again with this version of the generated code",
                         (unsigned)version, ATD_LAZY_VERSION);
    uint32_t flags = get_le32(data + 12);
    if (flags != 0)
        return open_fail(err, ATD_ERR_SYNTAX, 12, "header flags 0x%08x, expected 0",
                         (unsigned)flags);
    if (get_le64(data + 24) != 0)
        return open_fail(err, ATD_ERR_SYNTAX, 24, "header reserved field is not 0");
    const char *t = data + len - ts;
    if (memcmp(t + 48, trailer_magic, 8) != 0)
        return open_fail(err, ATD_ERR_SYNTAX, len - 8, "truncated or corrupt: bad trailer magic");
    if (atd_crc32c(atd_crc32c(0, data, hs), t, 44) != get_le32(t + 44))
        return open_fail(err, ATD_ERR_CORRUPT, len - ts,
                         "corrupt: the checksum of the header and trailer differs");
    uint64_t fp = get_le64(data + 16);
    if (fp != fingerprint)
        return open_fail(err, ATD_ERR_TYPE, 16,
                         "written for another schema (fingerprint %016" PRIx64
                         ", this schema's is %016" PRIx64 ")",
                         fp, fingerprint);
    uint64_t data_end = get_le64(t), table = get_le64(t + 8), count = get_le64(t + 16);
    uint64_t root_off = get_le64(t + 24), root_len = get_le64(t + 32);
    uint64_t body_end = len - ts;
    size_t at = len - ts;
    /* the sections in their order: data, strings, string table, root */
    if (data_end < hs || data_end > body_end)
        return open_fail(err, ATD_ERR_SYNTAX, at, "data section end %" PRIu64 " out of bounds",
                         data_end);
    if (table < data_end || table > body_end)
        return open_fail(err, ATD_ERR_SYNTAX, at + 8,
                         "string table offset %" PRIu64 " out of bounds", table);
    if (count > (body_end - table) / 8)
        return open_fail(err, ATD_ERR_SYNTAX, at + 16, "%" PRIu64 " shared strings exceed the file",
                         count);
    if (root_off != table + 8 * count || root_len != body_end - root_off)
        return open_fail(err, ATD_ERR_SYNTAX, at + 24,
                         "root at %" PRIu64 " of %" PRIu64 " bytes does not end at the trailer",
                         root_off, root_len);
    if (atd_crc32c(0, data + root_off, (size_t)root_len) != get_le32(t + 40))
        return open_fail(err, ATD_ERR_CORRUPT, (size_t)root_off,
                         "corrupt: the checksum of the root value differs");
    db->data = data;
    db->len = len;
    db->fingerprint = fp;
    db->data_end = data_end;
    db->strings_table = table;
    db->strings_count = count;
    db->root_off = root_off;
    db->root_len = root_len;
    if (err != NULL)
        atd_error_set(err, ATD_ERR_OK, NULL, NULL);
    return 0;
}

int atd_lazy_open_file(atd_lazy_db *db, const char *path, uint64_t fingerprint, atd_error *err)
{
    memset(db, 0, sizeof *db);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return open_fail(err, ATD_ERR_IO, NO_POSITION, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < 0 || (uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        return open_fail(err, ATD_ERR_IO, NO_POSITION, "cannot stat %s", path);
    }
    size_t len = (size_t)st.st_size;
    if (len == 0) {
        close(fd);
        return atd_lazy_open_buffer(db, "", 0, fingerprint, err);
    }
    void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return open_fail(err, ATD_ERR_IO, NO_POSITION, "cannot map %s: %s", path, strerror(errno));
    /* queries read a few scattered pages: no read-ahead around them */
    posix_madvise(map, len, POSIX_MADV_RANDOM);
    int rc = atd_lazy_open_buffer(db, (const char *)map, len, fingerprint, err);
    if (rc != 0) {
        munmap(map, len);
        return rc;
    }
    db->map = map;
    db->map_len = len;
    /* the shared strings, their table and the root, at the end of the
     * file: the root is decoded now, and queries read strings from all
     * over a section much smaller than the file (read ahead in the
     * background when not too large, rather than a page at a time) */
    if (len - db->data_end > ATD_LAZY_READ_AHEAD_MAX)
        atd__lazy_read_ahead(db, db->root_off, len);
    else
        atd__lazy_read_ahead(db, db->data_end, len);
    return 0;
}

void atd__lazy_read_ahead(const atd_lazy_db *db, uint64_t from, uint64_t to)
{
    if (db->map == NULL || from >= to || to > db->map_len)
        return;
    size_t start = (size_t)from - (size_t)from % ATD_LAZY_PAGE;
    posix_madvise((char *)db->map + start, (size_t)to - start, POSIX_MADV_WILLNEED);
}

void atd_lazy_close(atd_lazy_db *db)
{
    if (db->map != NULL)
        munmap(db->map, db->map_len);
    memset(db, 0, sizeof *db);
}

void atd_lazy_reader(const atd_lazy_db *db, atd_reader *r, uint64_t off, uint64_t len,
                     atd_arena *arena)
{
    atd_reader_init(r, db->data, db->len, arena, ATD_READ_BORROW_STRINGS);
    r->cur = db->data + off;
    atd__reader_set_end(r, db->data + off + len);
}

void atd_lazy_root_reader(const atd_lazy_db *db, atd_reader *r, atd_arena *arena)
{
    atd_lazy_reader(db, r, db->root_off, db->root_len, arena);
}

static size_t here(const atd_reader *r)
{
    return (size_t)(r->cur - r->start);
}

/* A frame's body: at least one byte, after its length, before its CRC. */
static bool frame_in_data(const atd_lazy_db *db, uint64_t off, uint64_t len)
{
    return off > ATD_LAZY_HEADER_SIZE && off <= db->data_end && len >= 1 &&
           db->data_end - off >= 4 && len <= db->data_end - off - 4;
}

static bool frame_crc_ok(const atd_lazy_db *db, uint64_t off, uint64_t len)
{
    return atd_crc32c(0, db->data + off, (size_t)len) == get_le32(db->data + off + len);
}

static bool fail_crc(atd_reader *r, uint64_t off, uint64_t len, const char *what)
{
    return atd_reader_fail_at(r, (size_t)off, ATD_ERR_CORRUPT,
                              "corrupt: the checksum of the %s at %" PRIu64 " of %" PRIu64
                              " bytes differs",
                              what, off, len);
}

bool atd_lazy_fetch_reader(const atd_lazy_db *db, atd_reader *r, const atd_lazy *ref,
                           atd_arena *arena)
{
    if (!frame_in_data(db, ref->off, ref->len)) {
        atd_lazy_reader(db, r, 0, 0, arena);
        return atd_reader_fail_at(r, 0, ATD_ERR_INVALID,
                                  "lazy value at %" PRIu64 " of %" PRIu64
                                  " bytes is outside the data section",
                                  ref->off, ref->len);
    }
    atd_lazy_reader(db, r, ref->off, ref->len, arena);
    if (!frame_crc_ok(db, ref->off, ref->len))
        return fail_crc(r, ref->off, ref->len, "lazy value");
    return true;
}

bool atd_lazy_check_tag(atd_reader *r, uint8_t tag, unsigned want)
{
    if (tag == want)
        return true;
    return atd_reader_fail_at(r, here(r) - 1, ATD_ERR_TYPE, "expected tag %u, found tag %u", want,
                              (unsigned)tag);
}

bool atd_lazy_read_presence(atd_reader *r, bool *present)
{
    uint8_t b = 0;
    if (!bin_byte(r, &b))
        return false;
    if (b > 1)
        return atd_reader_fail_at(r, here(r) - 1, ATD_ERR_TYPE,
                                  "expected an option's presence byte (0 or 1), found %u",
                                  (unsigned)b);
    *present = b == 1;
    return true;
}

bool atd_lazy_read_ref(atd_reader *r, const atd_lazy_db *db, atd_lazy *out)
{
    uint64_t off, len;
    size_t at = here(r);
    if (!bin_uvint(r, &off) || !bin_uvint(r, &len))
        return false;
    if (!frame_in_data(db, off, len))
        return atd_reader_fail_at(
            r, at, ATD_ERR_SYNTAX,
            "lazy value at %" PRIu64 " of %" PRIu64 " bytes is outside the data section", off, len);
    out->off = off;
    out->len = len;
    return true;
}

/* Shared string `id`'s record, after its offset: uvint length, bytes, CRC.
 * `at` is where the reference is, for errors. */
static bool shared_record(atd_reader *r, const atd_lazy_db *db, uint64_t id, size_t at,
                          uint64_t *rec, uint64_t *rec_len, atd_string *out)
{
    uint64_t p = get_le64(db->data + db->strings_table + 8 * id), start = p;
    if (p < db->data_end || p >= db->strings_table)
        return atd_reader_fail_at(
            r, at, ATD_ERR_SYNTAX,
            "shared string %" PRIu64 " at %" PRIu64 " is outside the strings section", id, p);
    /* its length, a uvint that must end in the strings section */
    uint64_t n = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (p >= db->strings_table || shift >= 63)
            return atd_reader_fail_at(r, at, ATD_ERR_SYNTAX,
                                      "shared string %" PRIu64 " has a corrupt length", id);
        unsigned char c = (unsigned char)db->data[p++];
        n |= (uint64_t)(c & 0x7f) << shift;
        if (c < 0x80)
            break;
    }
    if (db->strings_table - p < 4 || n > db->strings_table - p - 4)
        return atd_reader_fail_at(
            r, at, ATD_ERR_SYNTAX,
            "shared string %" PRIu64 " of %" PRIu64 " bytes exceeds the strings section", id, n);
    size_t whole = (size_t)(p + n - start);
    if (atd__lazy_string_crc(id, db->data + start, whole) != get_le32(db->data + p + n))
        return fail_crc(r, start, whole, "shared string");
    *rec = start;
    *rec_len = whole;
    out->ptr = db->data + p;
    out->len = (size_t)n;
    return true;
}

bool atd_lazy_read_shared(atd_reader *r, const atd_lazy_db *db, atd_string *out)
{
    uint64_t id, rec, rec_len;
    size_t at = here(r);
    if (!bin_uvint(r, &id))
        return false;
    if (id >= db->strings_count)
        return atd_reader_fail_at(r, at, ATD_ERR_SYNTAX, "shared string %" PRIu64 " of %" PRIu64,
                                  id, db->strings_count);
    return shared_record(r, db, id, at, &rec, &rec_len, out);
}

bool atd_lazy_read_index(atd_reader *r, const atd_lazy_db *db, atd_lazy_index *out)
{
    uint64_t off, len, count, inner;
    size_t at = here(r);
    if (!bin_uvint(r, &off) || !bin_uvint(r, &len) ||
        !bin_uvint(r, &count) || !bin_uvint(r, &inner))
        return false;
    bool empty = off == 0 && len == 0 && count == 0 && inner == 0;
    if (!empty && (count == 0 || !frame_in_data(db, off, len)))
        return atd_reader_fail_at(r, at, ATD_ERR_SYNTAX,
                                  "index root at %" PRIu64 " of %" PRIu64
                                  " bytes is outside the data section",
                                  off, len);
    if (!empty && (inner < ATD_LAZY_HEADER_SIZE || inner > off))
        return atd_reader_fail_at(r, at, ATD_ERR_SYNTAX,
                                  "index inner nodes at %" PRIu64 " after its root at %" PRIu64,
                                  inner, off);
    /* every lookup reads a node of each level above the leaves: they are
     * read ahead at once rather than a page per lookup (a hint: a corrupt
     * `inner` reads ahead pages of the file, no more) */
    if (!empty && off + len + 4 - inner <= ATD_LAZY_READ_AHEAD_MAX)
        atd__lazy_read_ahead(db, inner, off + len + 4);
    out->root_off = off;
    out->root_len = len;
    out->count = count;
    out->inner = inner;
    return true;
}

/* --- index trees --- */

/* Deeper than any tree of 2^64 entries: a level byte above it is corrupt. */
#define MAX_LEVEL 32u

/* A node read: its level, its n entries at base + the u16 offsets at offs. */
typedef struct node {
    unsigned level;
    size_t n;
    const char *offs, *base;
} node;

/* Checks the bounds and CRC of the node at (off, len) and reads its head
 * (its level must be want, unless want is MAX_LEVEL). */
static bool open_node(const atd_lazy_db *db, atd_reader *r, uint64_t off, uint64_t len,
                      unsigned want, node *nd)
{
    atd_arena *arena = r->arena;
    if (!frame_in_data(db, off, len)) {
        atd_lazy_reader(db, r, 0, 0, arena);
        return atd_reader_fail_at(r, 0, ATD_ERR_INVALID,
                                  "index node at %" PRIu64 " of %" PRIu64
                                  " bytes is outside the data section",
                                  off, len);
    }
    atd_lazy_reader(db, r, off, len, arena);
    if (!frame_crc_ok(db, off, len))
        return fail_crc(r, off, len, "index node");
    uint8_t lv = 0;
    size_t n = 0;
    if (!bin_byte(r, &lv) || !bin_count(r, &n))
        return false;
    if (lv >= MAX_LEVEL || (want != MAX_LEVEL && lv != want) || n == 0 ||
        n > (size_t)(r->end - r->cur) / 2)
        return atd_reader_fail_at(r, (size_t)off, ATD_ERR_SYNTAX,
                                  "index node at %" PRIu64 ": level %u with %zu entries", off,
                                  (unsigned)lv, n);
    nd->level = lv;
    nd->n = n;
    nd->offs = r->cur;
    nd->base = r->cur + 2 * n;
    return true;
}

/* Positions r on entry k of the node. */
static bool node_entry(atd_reader *r, const node *nd, size_t k)
{
    const unsigned char *o = (const unsigned char *)nd->offs + 2 * k;
    size_t at = (size_t)o[0] | (size_t)o[1] << 8;
    if (at >= (size_t)(r->end - nd->base))
        return atd_reader_fail_at(r, (size_t)(nd->offs + 2 * k - r->start), ATD_ERR_SYNTAX,
                                  "index node entry %zu at %zu is outside its node", k, at);
    r->cur = nd->base + at;
    return true;
}

/* An inner node's entry: the smallest key below the child, the child. */
static bool read_child(atd_reader *r, atd_string *key, uint64_t *off, uint64_t *len,
                       uint64_t *count)
{
    return bin_string(r, key) && bin_uvint(r, off) &&
           bin_uvint(r, len) && bin_uvint(r, count);
}

/* A leaf's entry: its key; r is then narrowed to exactly its value. */
static bool read_leaf_entry(atd_reader *r, atd_string *key)
{
    uint64_t vlen;
    if (!bin_string(r, key) || !bin_uvint(r, &vlen))
        return false;
    if (vlen > (uint64_t)(r->end - r->cur))
        return atd__bin_fail_eof(r);
    atd__reader_set_end(r, r->cur + vlen);
    return true;
}

bool atd_lazy_index_entry(const atd_lazy_db *db, const atd_lazy_index *map, uint64_t i,
                          atd_reader *r, atd_string *key)
{
    if (i >= map->count) {
        atd_lazy_reader(db, r, 0, 0, r->arena);
        return atd_reader_fail_at(r, 0, ATD_ERR_INVALID,
                                  "entry %" PRIu64 " of an index of %" PRIu64 " entries", i,
                                  map->count);
    }
    node nd;
    if (!open_node(db, r, map->root_off, map->root_len, MAX_LEVEL, &nd))
        return false;
    while (nd.level > 0) {
        uint64_t off = 0, len = 0, count = 0;
        size_t k = 0;
        for (; k < nd.n; k++) {
            if (!node_entry(r, &nd, k) || !read_child(r, key, &off, &len, &count))
                return false;
            if (i < count)
                break;
            i -= count;
        }
        if (k == nd.n)
            return atd_reader_fail(r, ATD_ERR_SYNTAX, "index entry counts do not add up");
        if (!open_node(db, r, off, len, nd.level - 1, &nd))
            return false;
    }
    if (i >= nd.n)
        return atd_reader_fail(r, ATD_ERR_SYNTAX, "index entry counts do not add up");
    return node_entry(r, &nd, (size_t)i) && read_leaf_entry(r, key);
}

static int key_cmp(const char *a, size_t alen, const atd_string *b)
{
    size_t n = alen < b->len ? alen : b->len;
    int c = n > 0 ? memcmp(a, b->ptr, n) : 0;
    if (c != 0)
        return c;
    return alen < b->len ? -1 : alen > b->len ? 1 : 0;
}

/* Binary search in a node: the last entry whose key is at most key (-1:
 * none), and whether it is equal. */
static bool node_search(atd_reader *r, const node *nd, const char *key, size_t len, long *at,
                        bool *equal)
{
    size_t lo = 0, hi = nd->n;
    *equal = false;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        atd_string k;
        if (!node_entry(r, nd, mid) || !bin_string(r, &k))
            return false;
        int c = key_cmp(key, len, &k);
        if (c == 0) {
            *at = (long)mid;
            *equal = true;
            return true;
        }
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    *at = (long)lo - 1;
    return true;
}

bool atd_lazy_index_seek(const atd_lazy_db *db, const atd_lazy_index *map, const char *key,
                         size_t len, atd_reader *r, bool *found)
{
    *found = false;
    if (map->count == 0)
        return true;
    node nd;
    if (!open_node(db, r, map->root_off, map->root_len, MAX_LEVEL, &nd))
        return false;
    atd_string k;
    long at;
    bool equal;
    while (nd.level > 0) {
        uint64_t off, clen, count;
        if (!node_search(r, &nd, key, len, &at, &equal))
            return false;
        if (at < 0) /* below the smallest key */
            return true;
        if (!node_entry(r, &nd, (size_t)at) || !read_child(r, &k, &off, &clen, &count) ||
            !open_node(db, r, off, clen, nd.level - 1, &nd))
            return false;
    }
    if (!node_search(r, &nd, key, len, &at, &equal))
        return false;
    if (!equal)
        return true;
    *found = true;
    return node_entry(r, &nd, (size_t)at) && read_leaf_entry(r, &k);
}

/* --- verification --- */

int atd_lazy_verify(const atd_lazy_db *db, atd_error *err)
{
    atd_reader r;
    atd_lazy_reader(db, &r, ATD_LAZY_HEADER_SIZE, db->data_end - ATD_LAZY_HEADER_SIZE, NULL);
    /* the data section: frames, and zero bytes of padding between them */
    while (r.cur < r.end) {
        if (*r.cur == 0) {
            r.cur++;
            continue;
        }
        size_t at = here(&r);
        uint64_t len;
        if (!bin_uvint(&r, &len))
            return atd_lazy_get_error(&r, err);
        uint64_t off = here(&r);
        if (!frame_in_data(db, off, len)) {
            atd_reader_fail_at(&r, at, ATD_ERR_SYNTAX,
                               "frame at %zu of %" PRIu64 " bytes exceeds the data section", at,
                               len);
            return atd_lazy_get_error(&r, err);
        }
        if (!frame_crc_ok(db, off, len)) {
            fail_crc(&r, off, len, "frame");
            return atd_lazy_get_error(&r, err);
        }
        r.cur += len + 4;
    }
    /* the strings, one after the other in id order */
    uint64_t p = db->data_end;
    for (uint64_t id = 0; id < db->strings_count; id++) {
        uint64_t rec, rec_len;
        atd_string s;
        if (!shared_record(&r, db, id, (size_t)(db->strings_table + 8 * id), &rec, &rec_len, &s))
            return atd_lazy_get_error(&r, err);
        if (rec != p) {
            atd_reader_fail_at(&r, (size_t)(db->strings_table + 8 * id), ATD_ERR_SYNTAX,
                               "shared string %" PRIu64 " at %" PRIu64 ", expected at %" PRIu64,
                               id, rec, p);
            return atd_lazy_get_error(&r, err);
        }
        p += rec_len + 4;
    }
    if (p != db->strings_table) {
        atd_reader_fail_at(&r, (size_t)p, ATD_ERR_SYNTAX,
                           "%" PRIu64 " bytes after the last shared string",
                           db->strings_table - p);
        return atd_lazy_get_error(&r, err);
    }
    if (err != NULL)
        atd_error_set(err, ATD_ERR_OK, NULL, NULL);
    return 0;
}

int atd_lazy_get_error(const atd_reader *r, atd_error *err)
{
    int code = atd_bin_get_error(r, err);
    if (code != 0)
        return code;
    if (err != NULL)
        atd_error_set(err, ATD_ERR_INVALID, NULL, "invalid lazy-format data");
    return ATD_ERR_INVALID;
}
