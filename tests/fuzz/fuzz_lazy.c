/* libFuzzer target for the lazy format (docs/lazy-format.md): opening and
 * querying with the code atdc --lazy generates for schemas/revindex.atd,
 * rooted at `corpus` (a shared string, an index of lazy occurrence lists
 * with shared file names, an optional lazy map and a plain map of lazy
 * lists: every shape of the format).
 *
 * An input that starts with the format's magic is a whole file. Any other
 * input edits a valid file built once here (so that the fuzzer need not
 * find the schema fingerprint): its first two bytes, when present, truncate
 * it to (u16 % length + 1) bytes unless they are 0xffff, then each 3 bytes
 * (u16 offset, byte) xor one byte; when the number of edits is odd, the
 * checksums are then recomputed where the frames can be found, so that
 * the edited bytes reach the decoders instead of stopping at a CRC. The
 * file is then opened, verified, and everything reachable in it is read:
 * the root, each index entry (key, fetch, find of that key), the optional
 * map, each plain-map value. Errors are expected; crashes, sanitizer
 * reports, leaks and hangs are findings.
 *
 * Build: see tests/fuzz/CMakeLists.txt; run: tests/fuzz/run.sh fuzz_lazy SECONDS. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "revindex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static atd_buf sample;

/* A small corpus: 6 words, 3 files, stats present, 2 by-file entries. */
static void build_sample(void)
{
    static const char *const words[] = {"delta", "alpha", "echo", "bravo", "", "charlie"};
    static const char *const files[] = {"a.ml", "lib/b.ml", "c.mli"};
    static revindex_occurrence occ[12];
    static revindex_revindex_item items[6];
    static int64_t lines[4] = {1, 2, 3, 5};
    static revindex_int_list_assoc_item by_file[2];
    static revindex_int_assoc_item stat;
    for (size_t i = 0; i < 12; i++) {
        occ[i].filename.ptr = files[i % 3];
        occ[i].filename.len = strlen(files[i % 3]);
        occ[i].line = (int64_t)(i * 7 + 1);
    }
    for (size_t i = 0; i < 6; i++) {
        items[i].key.ptr = words[i];
        items[i].key.len = strlen(words[i]);
        items[i].value.items = &occ[i];
        items[i].value.len = i + 1;
    }
    by_file[0].key.ptr = "a.ml";
    by_file[0].key.len = 4;
    by_file[0].value.items = lines;
    by_file[0].value.len = 4;
    by_file[1].key.ptr = "c.mli";
    by_file[1].key.len = 5;
    stat.key.ptr = "n";
    stat.key.len = 1;
    stat.value = 6;
    revindex_corpus c;
    memset(&c, 0, sizeof c);
    c.name.ptr = "fuzz";
    c.name.len = 4;
    c.index.items = items;
    c.index.len = 6;
    c.has_stats = true;
    c.stats.items = &stat;
    c.stats.len = 1;
    c.by_file.items = by_file;
    c.by_file.len = 2;
    atd_buf_init(&sample);
    if (revindex_corpus_lazy_write(&c, &sample, NULL) != 0)
        abort();
}

static uint64_t get_le(const char *p, int n)
{
    uint64_t u = 0;
    for (int i = n - 1; i >= 0; i--)
        u = (u << 8) | (unsigned char)p[i];
    return u;
}

static void put_le32(char *p, uint32_t u)
{
    for (int i = 0; i < 4; i++)
        p[i] = (char)(unsigned char)(u >> (8 * i));
}

/* A uvint at p (before end) or UINT64_MAX; *p moves past it. */
static uint64_t take_uvint(const char **p, const char *end)
{
    uint64_t u = 0;
    for (unsigned shift = 0; *p < end && shift < 63; shift += 7) {
        unsigned char c = (unsigned char)*(*p)++;
        u |= (uint64_t)(c & 0x7f) << shift;
        if (c < 0x80)
            return u;
    }
    return UINT64_MAX;
}

/* Recomputes the CRCs of the frames of the data section, of the shared
 * strings, of the root and of the header and trailer, as far as the
 * (edited) trailer and frame lengths let them be found. */
static void fix_checksums(char *f, size_t len)
{
    const size_t hs = ATD_LAZY_HEADER_SIZE, ts = ATD_LAZY_TRAILER_SIZE;
    if (len < hs + ts)
        return;
    char *t = f + len - ts;
    uint64_t data_end = get_le(t, 8), table = get_le(t + 8, 8);
    uint64_t root_off = get_le(t + 24, 8), root_len = get_le(t + 32, 8);
    if (data_end > len - ts || table > len - ts || data_end > table)
        return;
    const char *p = f + hs, *end = f + data_end;
    while (p < end) {
        if (*p == 0) {
            p++;
            continue;
        }
        uint64_t n = take_uvint(&p, end);
        if (n == UINT64_MAX || n + 4 > (uint64_t)(end - p))
            break;
        put_le32((char *)(uintptr_t)(p + n), atd_crc32c(0, p, (size_t)n));
        p += n + 4;
    }
    p = f + data_end;
    end = f + table;
    for (uint32_t id = 0; p < end; id++) {
        const char *rec = p;
        uint64_t n = take_uvint(&p, end);
        if (n == UINT64_MAX || n + 4 > (uint64_t)(end - p))
            break;
        p += n;
        put_le32((char *)(uintptr_t)p, atd_crc32c(id, rec, (size_t)(p - rec)));
        p += 4;
    }
    if (root_off <= len - ts && root_len <= len - ts - root_off)
        put_le32(t + 40, atd_crc32c(0, f + root_off, (size_t)root_len));
    put_le32(t + 44, atd_crc32c(atd_crc32c(0, f, hs), t, 44));
}

static void exercise(const char *bytes, size_t len, atd_arena *a)
{
    atd_lazy_db db;
    revindex_corpus_lz root;
    if (revindex_corpus_lazy_open(&db, bytes, len, a, &root, NULL) != 0)
        return;
    (void)atd_lazy_verify(&db, NULL);
    for (uint64_t i = 0; i < root.index.count && i < 64; i++) {
        atd_string key;
        atd_lazy ref;
        revindex_occurrences occ;
        bool found;
        if (revindex_revindex_lazy_entry(&db, &root.index, i, a, &key, &ref, NULL) != 0)
            continue;
        (void)revindex_occurrences_lazy_fetch(&db, &ref, a, &occ, NULL);
        (void)revindex_revindex_lazy_find(&db, &root.index, key.ptr, key.len, a, &ref, &found,
                                          NULL);
    }
    if (root.has_stats) {
        revindex_int_assoc st;
        (void)revindex_int_assoc_lazy_fetch(&db, &root.stats, a, &st, NULL);
    }
    for (size_t i = 0; i < root.by_file.len && i < 64; i++) {
        revindex_int_list l;
        (void)revindex_int_list_lazy_fetch(&db, &root.by_file.items[i].value, a, &l, NULL);
    }
    atd_lazy_close(&db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (sample.data == NULL)
        build_sample();
    atd_arena *a = atd_arena_new(0, NULL);
    if (a == NULL)
        abort();
    if (size >= 8 && memcmp(data, "ATDLAZY", 8) == 0) {
        /* a copy of exactly that size, so that ASan sees reads past it */
        char *copy = (char *)malloc(size);
        memcpy(copy, data, size);
        exercise(copy, size, a);
        free(copy);
    } else {
        size_t len = sample.len;
        size_t at = 0;
        if (size >= 2) {
            unsigned cut = (unsigned)data[0] | (unsigned)data[1] << 8;
            if (cut != 0xffff)
                len = cut % sample.len + 1;
            at = 2;
        }
        char *copy = (char *)malloc(len);
        memcpy(copy, sample.data, len);
        size_t edits = 0;
        for (; at + 3 <= size; at += 3, edits++) {
            size_t off = ((size_t)data[at] | (size_t)data[at + 1] << 8) % len;
            copy[off] = (char)(copy[off] ^ data[at + 2]);
        }
        if (edits % 2 == 1)
            fix_checksums(copy, len);
        exercise(copy, len, a);
        free(copy);
    }
    atd_arena_free(a);
    return 0;
}
