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
 * (u16 offset, byte) xor one byte. The file is then opened and everything
 * reachable in it is read: the root, each index entry (key, fetch, find of
 * that key), the optional map, each plain-map value. Errors are expected;
 * crashes, sanitizer reports, leaks and hangs are findings.
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

static void exercise(const char *bytes, size_t len, atd_arena *a)
{
    atd_lazy_db db;
    revindex_corpus_lz root;
    if (revindex_corpus_lazy_open(&db, bytes, len, a, &root, NULL) != 0)
        return;
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
        for (; at + 3 <= size; at += 3) {
            size_t off = ((size_t)data[at] | (size_t)data[at + 1] << 8) % len;
            copy[off] = (char)(copy[off] ^ data[at + 2]);
        }
        exercise(copy, len, a);
        free(copy);
    }
    atd_arena_free(a);
    return 0;
}
