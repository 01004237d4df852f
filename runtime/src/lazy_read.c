/* Reading the lazy format (docs/lazy-format.md): opening (header, trailer,
 * section bounds), references checked against their sections, shared
 * strings, and the binary search of an index. Reads borrow the file's
 * bytes and never write to the db, which is what makes concurrent readers
 * safe. */
#define _POSIX_C_SOURCE 200809L

#include "atd/lazy.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
    atd_error_set(err, code, "$", NULL);
    err->offset = offset;
    snprintf(err->message, sizeof err->message, "byte %zu: %s", offset, detail);
    return code;
}

int atd_lazy_open_buffer(atd_lazy_db *db, const char *data, size_t len, uint64_t fingerprint,
                         atd_error *err)
{
    memset(db, 0, sizeof *db);
    const size_t hs = ATD_LAZY_HEADER_SIZE, ts = ATD_LAZY_TRAILER_SIZE;
    if (len < hs + ts)
        return open_fail(err, ATD_ERR_SYNTAX, len,
                         "not a lazy-format file: %zu bytes, shorter than header and trailer", len);
    if (memcmp(data, header_magic, 8) != 0)
        return open_fail(err, ATD_ERR_SYNTAX, 0, "not a lazy-format file (bad magic)");
    uint32_t version = get_le32(data + 8);
    if (version != ATD_LAZY_VERSION)
        return open_fail(err, ATD_ERR_SYNTAX, 8, "format version %u, this reader knows %u",
                         (unsigned)version, ATD_LAZY_VERSION);
    uint64_t fp = get_le64(data + 16);
    if (fp != fingerprint)
        return open_fail(err, ATD_ERR_TYPE, 16,
                         "written for another schema (fingerprint %016" PRIx64
                         ", this schema's is %016" PRIx64 ")",
                         fp, fingerprint);
    const char *t = data + len - ts;
    if (memcmp(t + 40, trailer_magic, 8) != 0)
        return open_fail(err, ATD_ERR_SYNTAX, len - 8, "truncated or corrupt: bad trailer magic");
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
        return open_fail(err, ATD_ERR_IO, 0, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < 0 || (uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        return open_fail(err, ATD_ERR_IO, 0, "cannot stat %s", path);
    }
    size_t len = (size_t)st.st_size;
    if (len == 0) {
        close(fd);
        return atd_lazy_open_buffer(db, "", 0, fingerprint, err);
    }
    void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return open_fail(err, ATD_ERR_IO, 0, "cannot map %s: %s", path, strerror(errno));
    int rc = atd_lazy_open_buffer(db, (const char *)map, len, fingerprint, err);
    if (rc != 0) {
        munmap(map, len);
        return rc;
    }
    db->map = map;
    db->map_len = len;
    return 0;
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
    r->end = db->data + off + len;
}

void atd_lazy_root_reader(const atd_lazy_db *db, atd_reader *r, atd_arena *arena)
{
    atd_lazy_reader(db, r, db->root_off, db->root_len, arena);
}

static size_t here(const atd_reader *r)
{
    return (size_t)(r->cur - r->start);
}

static bool ref_in_data(const atd_lazy_db *db, uint64_t off, uint64_t len)
{
    return off >= ATD_LAZY_HEADER_SIZE && off <= db->data_end && len <= db->data_end - off;
}

static bool index_in_data(const atd_lazy_db *db, const atd_lazy_index *map)
{
    return map->table >= ATD_LAZY_HEADER_SIZE && map->table <= db->data_end &&
           map->count <= (db->data_end - map->table) / 8;
}

bool atd_lazy_fetch_reader(const atd_lazy_db *db, atd_reader *r, const atd_lazy *ref,
                           atd_arena *arena)
{
    if (ref_in_data(db, ref->off, ref->len)) {
        atd_lazy_reader(db, r, ref->off, ref->len, arena);
        return true;
    }
    atd_lazy_reader(db, r, 0, 0, arena);
    return atd_reader_fail_at(r, 0, ATD_ERR_INVALID,
                              "lazy value at %" PRIu64 " of %" PRIu64
                              " bytes is outside the data section",
                              ref->off, ref->len);
}

bool atd_lazy_check_tag(atd_reader *r, uint8_t tag, unsigned want)
{
    if (tag == want)
        return true;
    return atd_reader_fail_at(r, here(r) - 1, ATD_ERR_TYPE, "expected tag %u, found tag %u", want,
                              (unsigned)tag);
}

static bool read_tag(atd_reader *r, unsigned want, const char *what)
{
    if (r->cur >= r->end)
        return atd__bin_fail_eof(r);
    unsigned t = (unsigned char)*r->cur;
    if (t != want)
        return atd_reader_fail_at(r, here(r), ATD_ERR_TYPE, "expected %s (tag %u), found tag %u",
                                  what, want, t);
    r->cur++;
    return true;
}

bool atd_lazy_read_ref(atd_reader *r, const atd_lazy_db *db, atd_lazy *out)
{
    uint64_t off, len;
    size_t at = here(r);
    if (!read_tag(r, ATD_LAZY_TAG_REF, "a lazy value") || !atd_bin_read_uvint(r, &off) ||
        !atd_bin_read_uvint(r, &len))
        return false;
    if (!ref_in_data(db, off, len))
        return atd_reader_fail_at(
            r, at, ATD_ERR_SYNTAX,
            "lazy value at %" PRIu64 " of %" PRIu64 " bytes is outside the data section", off, len);
    out->off = off;
    out->len = len;
    return true;
}

bool atd_lazy_read_shared(atd_reader *r, const atd_lazy_db *db, atd_string *out)
{
    uint64_t id;
    size_t at = here(r);
    if (!read_tag(r, ATD_LAZY_TAG_SHARED, "a shared string") || !atd_bin_read_uvint(r, &id))
        return false;
    if (id >= db->strings_count)
        return atd_reader_fail_at(r, at, ATD_ERR_SYNTAX, "shared string %" PRIu64 " of %" PRIu64,
                                  id, db->strings_count);
    uint64_t p = get_le64(db->data + db->strings_table + 8 * id);
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
    if (n > db->strings_table - p)
        return atd_reader_fail_at(
            r, at, ATD_ERR_SYNTAX,
            "shared string %" PRIu64 " of %" PRIu64 " bytes exceeds the strings section", id, n);
    out->ptr = db->data + p;
    out->len = (size_t)n;
    return true;
}

bool atd_lazy_read_index_body(atd_reader *r, const atd_lazy_db *db, atd_lazy_index *out)
{
    uint64_t table, count;
    size_t at = here(r);
    if (!atd_bin_read_uvint(r, &table) || !atd_bin_read_uvint(r, &count))
        return false;
    atd_lazy_index m = {table, count};
    if (!index_in_data(db, &m))
        return atd_reader_fail_at(r, at, ATD_ERR_SYNTAX,
                                  "index table at %" PRIu64 " of %" PRIu64
                                  " entries is outside the data section",
                                  table, count);
    out->table = table;
    out->count = count;
    return true;
}

bool atd_lazy_read_index(atd_reader *r, const atd_lazy_db *db, atd_lazy_index *out)
{
    return read_tag(r, ATD_LAZY_TAG_INDEX, "an indexed map") &&
           atd_lazy_read_index_body(r, db, out);
}

bool atd_lazy_index_entry(const atd_lazy_db *db, const atd_lazy_index *map, uint64_t i,
                          atd_reader *r, atd_string *key)
{
    atd_arena *arena = r->arena;
    if (!index_in_data(db, map) || i >= map->count) {
        atd_lazy_reader(db, r, 0, 0, arena);
        return atd_reader_fail_at(r, 0, ATD_ERR_INVALID,
                                  "entry %" PRIu64 " of an index of %" PRIu64
                                  " entries at %" PRIu64,
                                  i, map->count, map->table);
    }
    uint64_t at = map->table + 8 * i;
    uint64_t off = get_le64(db->data + at);
    if (off < ATD_LAZY_HEADER_SIZE || off >= db->data_end) {
        atd_lazy_reader(db, r, at, 8, arena);
        return atd_reader_fail_at(
            r, (size_t)at, ATD_ERR_SYNTAX,
            "index entry %" PRIu64 " at %" PRIu64 " is outside the data section", i, off);
    }
    atd_lazy_reader(db, r, off, db->data_end - off, arena);
    if (!atd_bin_read_string(r, key))
        return atd_reader_push_index(r, (size_t)i);
    return true;
}

static int key_cmp(const char *a, size_t alen, const atd_string *b)
{
    size_t n = alen < b->len ? alen : b->len;
    int c = n > 0 ? memcmp(a, b->ptr, n) : 0;
    if (c != 0)
        return c;
    return alen < b->len ? -1 : alen > b->len ? 1 : 0;
}

bool atd_lazy_index_seek(const atd_lazy_db *db, const atd_lazy_index *map, const char *key,
                         size_t len, atd_reader *r, bool *found)
{
    uint64_t lo = 0, hi = map->count;
    *found = false;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        atd_string k;
        if (!atd_lazy_index_entry(db, map, mid, r, &k))
            return false;
        int c = key_cmp(key, len, &k);
        if (c == 0) {
            *found = true;
            return true;
        }
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return true;
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
