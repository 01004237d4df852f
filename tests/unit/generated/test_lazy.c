/* The lazy format (docs/lazy-format.md) through the code atdc --lazy
 * generates for schemas/revindex.atd (as lz_revindex.atd): write, open from
 * a buffer and from a mapped file, find, fetch and iterate; sharing stores
 * each file name once; a corpus record root with optional and plain-map lazy
 * fields and an indexed map found by the field's own lookup; duplicate keys
 * refused on write; errors with their byte offset and path; truncation at
 * every offset and byte flips of a small file never read out of bounds
 * (ASan, valgrind); a file written for a changed schema
 * (tests/lazy/lz_changed.atd) refused by its fingerprint; many distinct
 * shared strings (tests/lazy/lz_names.atd), each stored once whatever its
 * address. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lz_changed.h"
#include "lz_names.h"
#include "lz_revindex.h"
#include "cpu.h"
#include "revindex_data.h"
#include "test_main.h"

REVINDEX_DEFINE_GENERATOR(gen_revindex, lz_revindex_)
REVINDEX_DEFINE_GENERATOR(gen_changed, lz_changed_)

static atd_arena *arena;
static lz_revindex_revindex sample;

static void setup(void)
{
    arena = atd_arena_new(0, NULL);
    ck_assert_ptr_nonnull(arena);
    ck_assert(gen_revindex(&sample, arena, 300, 40, 7));
}

static void teardown(void)
{
    atd_arena_free(arena);
}

static bool same_string(atd_string a, atd_string b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static void check_occurrences(const lz_revindex_occurrences *got,
                              const lz_revindex_occurrences *want)
{
    ck_assert_uint_eq(got->len, want->len);
    for (size_t k = 0; k < got->len; k++) {
        ck_assert(same_string(got->items[k].filename, want->items[k].filename));
        ck_assert_int_eq(got->items[k].line, want->items[k].line);
    }
}

/* Writes the sample into buf (fresh). */
static void write_sample(atd_buf *buf)
{
    atd_error err;
    atd_buf_init(buf);
    ck_assert_int_eq(lz_revindex_revindex_lazy_write(&sample, buf, &err), 0);
}

/* Every word is found and its occurrences fetched equal; absent words are not
 * found; entries come in key order. */
static void check_db(const atd_lazy_db *db, const lz_revindex_revindex_lz *root)
{
    atd_error err;
    ck_assert_uint_eq(root->count, sample.len);
    for (size_t i = 0; i < sample.len; i++) {
        const lz_revindex_revindex_item *it = &sample.items[i];
        atd_lazy ref;
        bool found = false;
        ck_assert_int_eq(lz_revindex_revindex_lazy_find(db, root, it->key.ptr, it->key.len, arena,
                                                        &ref, &found, &err),
                         0);
        ck_assert(found);
        lz_revindex_occurrences occ;
        ck_assert_int_eq(lz_revindex_occurrences_lazy_fetch(db, &ref, arena, &occ, &err), 0);
        check_occurrences(&occ, &it->value);
        /* fetch is repeatable */
        lz_revindex_occurrences again;
        ck_assert_int_eq(lz_revindex_occurrences_lazy_fetch(db, &ref, arena, &again, &err), 0);
        check_occurrences(&again, &it->value);
    }
    static const char *const absent[] = {"", "zzzzzzzzzz", "0", "aaaaaaaaaaaaaaaaaaaa"};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
        atd_lazy ref;
        bool found = true;
        ck_assert_int_eq(lz_revindex_revindex_lazy_find(db, root, absent[i], strlen(absent[i]),
                                                        arena, &ref, &found, &err),
                         0);
        ck_assert(!found);
    }
    atd_string prev = {"", 0};
    for (uint64_t i = 0; i < root->count; i++) {
        atd_string key;
        atd_lazy ref;
        ck_assert_int_eq(lz_revindex_revindex_lazy_entry(db, root, i, arena, &key, &ref, &err), 0);
        size_t n = prev.len < key.len ? prev.len : key.len;
        int c = n ? memcmp(prev.ptr, key.ptr, n) : 0;
        ck_assert(i == 0 || c < 0 || (c == 0 && prev.len < key.len));
        prev = key;
    }
    atd_string key;
    atd_lazy ref;
    ck_assert_int_eq(
        lz_revindex_revindex_lazy_entry(db, root, root->count, arena, &key, &ref, &err),
        ATD_ERR_INVALID);
}

/* Writes the sample to memory and reads every word of it back. */
static void roundtrip_sample(void)
{
    atd_buf buf;
    write_sample(&buf);
    atd_lazy_db db;
    lz_revindex_revindex_lz root;
    atd_error err;
    ck_assert_int_eq(lz_revindex_revindex_lazy_open(&db, buf.data, buf.len, arena, &root, &err), 0);
    /* 40 file names among thousands of occurrences: each stored once */
    ck_assert_uint_eq(db.strings_count, 40);
    ck_assert_int_eq(atd_lazy_verify(&db, &err), 0);
    check_db(&db, &root);
    atd_lazy_close(&db);
    atd_buf_free(&buf);
}

START_TEST(test_lazy_roundtrip_buffer)
{
    roundtrip_sample();
}
END_TEST

/* Values too large to share a leaf with their keys are stored out of line
 * (here one of several pages among values stored in their leaves): every
 * word still reads back, and the file verifies. */
START_TEST(test_lazy_large_values)
{
    size_t big = 3000;
    lz_revindex_occurrence *occ =
        (lz_revindex_occurrence *)atd_arena_alloc(arena, big * sizeof *occ, 8);
    ck_assert_ptr_nonnull(occ);
    for (size_t k = 0; k < big; k++) {
        occ[k] = sample.items[0].value.items[0];
        occ[k].line = (int64_t)k;
    }
    sample.items[7].value.items = occ;
    sample.items[7].value.len = big;
    roundtrip_sample();
}
END_TEST

START_TEST(test_lazy_roundtrip_file)
{
    char path[] = "/tmp/atd_lazy_testXXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    atd_buf out;
    ck_assert_int_eq(atd_buf_init_fd(&out, fd), 0);
    atd_error err;
    ck_assert_int_eq(lz_revindex_revindex_lazy_write(&sample, &out, &err), 0);
    atd_buf_free(&out);
    close(fd);
    /* the same bytes as in memory */
    atd_buf mem;
    write_sample(&mem);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    char *bytes = (char *)malloc(mem.len + 1);
    ck_assert_uint_eq(fread(bytes, 1, mem.len + 1, f), mem.len);
    fclose(f);
    ck_assert(memcmp(bytes, mem.data, mem.len) == 0);
    free(bytes);
    atd_buf_free(&mem);
    atd_lazy_db db;
    lz_revindex_revindex_lz root;
    ck_assert_int_eq(lz_revindex_revindex_lazy_open_file(&db, path, arena, &root, &err), 0);
    ck_assert_ptr_nonnull(db.map);
    check_db(&db, &root);
    atd_lazy_close(&db);
    unlink(path);
    ck_assert_int_eq(lz_revindex_revindex_lazy_open_file(&db, path, arena, &root, &err),
                     ATD_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.message, "cannot open"));
    /* no position for a file that cannot be opened */
    ck_assert_ptr_eq(strstr(err.message, "byte"), NULL);
    ck_assert_uint_eq(err.offset, 0);
}
END_TEST

START_TEST(test_lazy_corpus)
{
    lz_revindex_corpus c;
    memset(&c, 0, sizeof c);
    c.name.ptr = "my corpus";
    c.name.len = 9;
    c.index = sample;
    int64_t lines[3] = {4, 8, 15};
    lz_revindex_int_list_assoc_item files[2];
    files[0].key.ptr = "a.ml";
    files[0].key.len = 4;
    files[0].value.items = lines;
    files[0].value.len = 3;
    files[1].key.ptr = "b.ml";
    files[1].key.len = 4;
    files[1].value.items = NULL;
    files[1].value.len = 0;
    c.by_file.items = files;
    c.by_file.len = 2;
    lz_revindex_int_assoc_item stat = {{"words", 5}, 300};
    lz_revindex_corpus_titles_item titles[2] = {{{"a.ml", 4}, {"Alpha", 5}},
                                                {{"b.ml", 4}, {"Beta", 4}}};
    c.titles.items = titles;
    c.titles.len = 2;
    for (int with_stats = 0; with_stats < 2; with_stats++) {
        c.has_stats = with_stats != 0;
        c.stats.items = &stat;
        c.stats.len = 1;
        atd_buf buf;
        atd_buf_init(&buf);
        atd_error err;
        ck_assert_int_eq(lz_revindex_corpus_lazy_write(&c, &buf, &err), 0);
        atd_lazy_db db;
        lz_revindex_corpus_lz root;
        ck_assert_int_eq(lz_revindex_corpus_lazy_open(&db, buf.data, buf.len, arena, &root, &err),
                         0);
        ck_assert(same_string(root.name, c.name));
        ck_assert(root.has_stats == c.has_stats);
        if (root.has_stats) {
            lz_revindex_int_assoc st;
            ck_assert_int_eq(lz_revindex_int_assoc_lazy_fetch(&db, &root.stats, arena, &st, &err),
                             0);
            ck_assert_uint_eq(st.len, 1);
            ck_assert(same_string(st.items[0].key, stat.key));
            ck_assert_int_eq(st.items[0].value, 300);
        }
        ck_assert_uint_eq(root.by_file.len, 2);
        for (size_t i = 0; i < 2; i++) {
            ck_assert(same_string(root.by_file.items[i].key, files[i].key));
            lz_revindex_int_list l;
            ck_assert_int_eq(
                lz_revindex_int_list_lazy_fetch(&db, &root.by_file.items[i].value, arena, &l, &err),
                0);
            ck_assert_uint_eq(l.len, files[i].value.len);
            for (size_t k = 0; k < l.len; k++)
                ck_assert_int_eq(l.items[k], lines[k]);
        }
        for (size_t i = 0; i < 3; i++) {
            atd_string title;
            bool found;
            const char *key = i < 2 ? titles[i].key.ptr : "c.ml";
            ck_assert_int_eq(lz_revindex_corpus_titles_lazy_find(&db, &root.titles, key, 4, arena,
                                                                 &title, &found, &err),
                             0);
            ck_assert(found == (i < 2));
            if (found)
                ck_assert(same_string(title, titles[i].value));
        }
        check_db(&db, &root.index);
        atd_lazy_close(&db);
        atd_buf_free(&buf);
    }
}
END_TEST

START_TEST(test_lazy_duplicate_keys)
{
    lz_revindex_revindex dup = sample;
    lz_revindex_revindex_item items[3] = {sample.items[0], sample.items[1], sample.items[0]};
    dup.items = items;
    dup.len = 3;
    atd_buf buf;
    atd_buf_init(&buf);
    atd_error err;
    ck_assert_int_eq(lz_revindex_revindex_lazy_write(&dup, &buf, &err), ATD_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err.message, "duplicate key"));
    ck_assert_str_eq(err.path, "$[2]");
    atd_buf_free(&buf);
}
END_TEST

START_TEST(test_lazy_fingerprint)
{
    lz_changed_revindex other;
    ck_assert(gen_changed(&other, arena, 20, 5, 3));
    atd_buf buf;
    atd_buf_init(&buf);
    atd_error err;
    ck_assert_int_eq(lz_changed_revindex_lazy_write(&other, &buf, &err), 0);
    atd_lazy_db db;
    lz_revindex_revindex_lz root;
    ck_assert_int_eq(lz_revindex_revindex_lazy_open(&db, buf.data, buf.len, arena, &root, &err),
                     ATD_ERR_TYPE);
    ck_assert_ptr_nonnull(strstr(err.message, "written for another schema"));
    ck_assert_uint_eq(err.offset, 16);
    /* and the other way round */
    atd_buf mine;
    write_sample(&mine);
    lz_changed_revindex_lz oroot;
    ck_assert_int_eq(lz_changed_revindex_lazy_open(&db, mine.data, mine.len, arena, &oroot, &err),
                     ATD_ERR_TYPE);
    /* a file of the same schema opens */
    ck_assert_int_eq(lz_changed_revindex_lazy_open(&db, buf.data, buf.len, arena, &oroot, &err), 0);
    atd_buf_free(&mine);
    atd_buf_free(&buf);
}
END_TEST

/* Opens data and, when that succeeds, looks at everything in it; the
 * result does not matter, only that nothing reads out of bounds. */
static int exercise_in(const char *data, size_t len, atd_arena *a)
{
    atd_lazy_db db;
    lz_revindex_revindex_lz root;
    atd_error err;
    int rc = lz_revindex_revindex_lazy_open(&db, data, len, a, &root, &err);
    if (rc != 0) {
        ck_assert(err.message[0] != '\0');
        return rc;
    }
    int bad = 0;
    for (uint64_t i = 0; i < root.count; i++) {
        atd_string key;
        atd_lazy ref;
        lz_revindex_occurrences occ;
        bool found;
        if (lz_revindex_revindex_lazy_entry(&db, &root, i, a, &key, &ref, &err) != 0 ||
            lz_revindex_occurrences_lazy_fetch(&db, &ref, a, &occ, &err) != 0 ||
            lz_revindex_revindex_lazy_find(&db, &root, key.ptr, key.len, a, &ref, &found, &err) !=
                0) {
            ck_assert(strncmp(err.message, "byte ", 5) == 0);
            bad++;
        }
    }
    return bad;
}

static int exercise(const char *data, size_t len)
{
    atd_arena *scratch = atd_arena_new(0, NULL);
    int rc = exercise_in(data, len, scratch);
    atd_arena_free(scratch);
    return rc;
}

START_TEST(test_lazy_truncation_and_flips)
{
    lz_revindex_revindex small = sample;
    small.len = 6;
    atd_buf buf;
    atd_buf_init(&buf);
    atd_error err;
    ck_assert_int_eq(lz_revindex_revindex_lazy_write(&small, &buf, &err), 0);
    ck_assert_int_eq(exercise(buf.data, buf.len), 0);
    /* every truncation is refused at open (the trailer is gone), each on a
     * heap copy of exactly that size so ASan sees any read past it */
    for (size_t n = 0; n < buf.len; n++) {
        char *copy = (char *)malloc(n ? n : 1);
        memcpy(copy, buf.data, n);
        ck_assert_int_ne(exercise(copy, n), 0);
        free(copy);
    }
    /* every byte flipped: refused, or read with errors, never out of bounds */
    size_t errors = 0;
    char *copy = (char *)malloc(buf.len);
    for (size_t i = 0; i < buf.len; i++) {
        static const unsigned char masks[] = {0x01, 0x80, 0xff};
        for (size_t k = 0; k < sizeof masks; k++) {
            memcpy(copy, buf.data, buf.len);
            copy[i] = (char)(copy[i] ^ masks[k]);
            errors += exercise(copy, buf.len) != 0;
        }
    }
    free(copy);
    ck_assert_uint_gt(errors, buf.len);
    atd_buf_free(&buf);
}
END_TEST

static void put_le32(char *p, uint32_t u)
{
    for (int i = 0; i < 4; i++)
        p[i] = (char)(unsigned char)(u >> (8 * i));
}

/* Recomputes the CRC of the frame at (off, len) of data, after an edit. */
static void fix_frame_crc(char *data, uint64_t off, uint64_t len)
{
    put_le32(data + off + len, atd_crc32c(0, data + off, (size_t)len));
}

/* Recomputes the trailer's CRC (header and trailer) of the len bytes at data. */
static void fix_trailer_crc(char *data, size_t len)
{
    char *t = data + len - ATD_LAZY_TRAILER_SIZE;
    put_le32(t + 44, atd_crc32c(atd_crc32c(0, data, ATD_LAZY_HEADER_SIZE), t, 44));
}

START_TEST(test_lazy_error_location)
{
    lz_revindex_revindex small = sample;
    small.len = 3;
    atd_buf buf;
    atd_buf_init(&buf);
    atd_error err;
    ck_assert_int_eq(lz_revindex_revindex_lazy_write(&small, &buf, &err), 0);
    atd_lazy_db db;
    lz_revindex_revindex_lz root;
    ck_assert_int_eq(lz_revindex_revindex_lazy_open(&db, buf.data, buf.len, arena, &root, &err), 0);
    atd_string key;
    atd_lazy ref;
    ck_assert_int_eq(lz_revindex_revindex_lazy_entry(&db, &root, 0, arena, &key, &ref, &err), 0);
    /* the occurrences at ref.off: list tag, count, then each occurrence's
     * file name number and tagged line; the first line's tag is broken
     * in a copy */
    char *copy = (char *)malloc(buf.len);
    memcpy(copy, buf.data, buf.len);
    size_t at = (size_t)ref.off + 1;       /* the count */
    while ((unsigned char)copy[at] & 0x80) /* (a uvint) */
        at++;
    at++;
    while ((unsigned char)copy[at] & 0x80) /* the file name's number */
        at++;
    at++;
    copy[at] = 0x7f; /* no biniou tag */
    ck_assert_int_eq(lz_revindex_revindex_lazy_open(&db, copy, buf.len, arena, &root, &err), 0);
    lz_revindex_occurrences occ;
    /* caught by the value's checksum first */
    ck_assert_int_eq(lz_revindex_occurrences_lazy_fetch(&db, &ref, arena, &occ, &err),
                     ATD_ERR_CORRUPT);
    char want[64];
    snprintf(want, sizeof want, "byte %zu, at $: corrupt", (size_t)ref.off);
    ck_assert_msg(strncmp(err.message, want, strlen(want)) == 0, "%s", err.message);
    /* with its checksum made right, the decoder reports where it is */
    fix_frame_crc(copy, ref.off, ref.len);
    ck_assert_int_ne(lz_revindex_occurrences_lazy_fetch(&db, &ref, arena, &occ, &err), 0);
    snprintf(want, sizeof want, "byte %zu, at $[0].line", at);
    ck_assert_msg(strncmp(err.message, want, strlen(want)) == 0, "%s", err.message);
    ck_assert_uint_eq(err.offset, at);
    /* a reference made up by the caller is checked too */
    atd_lazy wild = {buf.len, 10};
    ck_assert_int_eq(lz_revindex_occurrences_lazy_fetch(&db, &wild, arena, &occ, &err),
                     ATD_ERR_INVALID);
    atd_lazy_index wild_map = {1u << 30, 5, 5, 0};
    bool found;
    ck_assert_int_eq(
        lz_revindex_revindex_lazy_find(&db, &wild_map, "a", 1, arena, &ref, &found, &err),
        ATD_ERR_INVALID);
    free(copy);
    atd_buf_free(&buf);
}
END_TEST

START_TEST(test_lazy_bad_headers)
{
    atd_buf buf;
    write_sample(&buf);
    atd_lazy_db db;
    lz_revindex_revindex_lz root;
    atd_error err;
    char *copy = (char *)malloc(buf.len);
    const size_t t = buf.len - ATD_LAZY_TRAILER_SIZE;
    /* fields set to values out of their bounds, the checksums made right
     * so that each check is reached; then flips that only they catch */
    struct {
        size_t at, width;
        uint64_t value; /* xor'ed into a byte when width is 0 */
        int code;
        const char *message;
    } cases[] = {{0, 0, 0x5a, ATD_ERR_SYNTAX, "bad magic"},
                 {8, 4, 1, ATD_ERR_SYNTAX, "format version 1, this reader knows version 3"},
                 {12, 4, 1, ATD_ERR_SYNTAX, "header flags 0x00000001"},
                 {24, 8, 1, ATD_ERR_SYNTAX, "reserved"},
                 {buf.len - 1, 0, 0x5a, ATD_ERR_SYNTAX, "trailer magic"},
                 {t, 8, 1, ATD_ERR_SYNTAX, "data section end"},
                 {t, 8, buf.len, ATD_ERR_SYNTAX, "data section end"},
                 {t + 8, 8, buf.len, ATD_ERR_SYNTAX, "string table"},
                 {t + 16, 8, UINT64_MAX / 4, ATD_ERR_SYNTAX, "shared strings exceed"},
                 {t + 32, 8, 1, ATD_ERR_SYNTAX, "root at"},
                 {t + 40, 4, 7, ATD_ERR_CORRUPT, "checksum of the root value"},
                 {16, 8, 99, ATD_ERR_TYPE, "written for another schema"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(copy, buf.data, buf.len);
        if (cases[i].width == 0) {
            copy[cases[i].at] = (char)(copy[cases[i].at] ^ (char)cases[i].value);
        } else {
            for (size_t b = 0; b < cases[i].width; b++)
                copy[cases[i].at + b] = (char)(unsigned char)(cases[i].value >> (8 * b));
            fix_trailer_crc(copy, buf.len);
        }
        ck_assert_int_eq(lz_revindex_revindex_lazy_open(&db, copy, buf.len, arena, &root, &err),
                         cases[i].code);
        ck_assert_msg(strstr(err.message, cases[i].message) != NULL, "%s", err.message);
        /* without the checksum made right, the trailer's CRC refuses it */
        if (cases[i].width != 0 && cases[i].at != 8 && cases[i].at != 12 && cases[i].at != 24) {
            memcpy(copy + t + 44, buf.data + t + 44, 4);
            ck_assert_int_eq(
                lz_revindex_revindex_lazy_open(&db, copy, buf.len, arena, &root, &err),
                ATD_ERR_CORRUPT);
        }
    }
    free(copy);
    atd_buf_free(&buf);
}
END_TEST

/* Every value the sample's db gives: for each entry, its key and its
 * occurrences; open must succeed. Returns how many reads failed, each with
 * an error naming its byte; the others must read the original values. */
static int reads_original_or_fails(const char *data, size_t len, atd_arena *a, bool *opened,
                                   bool *verified)
{
    atd_lazy_db db;
    lz_revindex_corpus_lz root;
    atd_error err;
    *opened = lz_revindex_corpus_lazy_open(&db, data, len, a, &root, &err) == 0;
    *verified = false;
    if (!*opened) {
        ck_assert(strncmp(err.message, "byte ", 5) == 0);
        return 0;
    }
    *verified = atd_lazy_verify(&db, &err) == 0;
    ck_assert(*verified || strncmp(err.message, "byte ", 5) == 0);
    ck_assert(same_string(root.name, (atd_string){"my corpus", 9}));
    int bad = 0;
    size_t n = (size_t)root.index.count;
    ck_assert_uint_eq(n, 6);
    for (size_t i = 0; i < n; i++) {
        const lz_revindex_revindex_item *it = &sample.items[i];
        atd_lazy ref;
        bool found = false;
        lz_revindex_occurrences occ;
        if (lz_revindex_revindex_lazy_find(&db, &root.index, it->key.ptr, it->key.len, a, &ref,
                                           &found, &err) != 0 ||
            (found &&
             lz_revindex_occurrences_lazy_fetch(&db, &ref, a, &occ, &err) != 0)) {
            ck_assert(strncmp(err.message, "byte ", 5) == 0);
            bad++;
            continue;
        }
        ck_assert_msg(found, "a flip lost key %zu without an error", i);
        check_occurrences(&occ, &it->value);
    }
    return bad;
}

/* The corpus root with a 6-word index: every section of the format. */
static void write_corpus(atd_buf *buf, lz_revindex_corpus *c, lz_revindex_int_assoc_item *stat)
{
    memset(c, 0, sizeof *c);
    c->name.ptr = "my corpus";
    c->name.len = 9;
    c->index = sample;
    c->index.len = 6;
    stat->key.ptr = "words";
    stat->key.len = 5;
    stat->value = 6;
    c->has_stats = true;
    c->stats.items = stat;
    c->stats.len = 1;
    atd_error err;
    atd_buf_init(buf);
    ck_assert_int_eq(lz_revindex_corpus_lazy_write(c, buf, &err), 0);
}

START_TEST(test_lazy_every_flip_detected)
{
    /* the sample's first 6 words, sorted: find looks them up by key */
    lz_revindex_revindex_item *items = sample.items;
    qsort(items, 6, sizeof items[0], revindex_key_cmp);
    lz_revindex_corpus c;
    lz_revindex_int_assoc_item stat;
    atd_buf buf;
    write_corpus(&buf, &c, &stat);
    atd_arena *scratch = atd_arena_new(0, NULL);
    bool opened, verified;
    ck_assert_int_eq(reads_original_or_fails(buf.data, buf.len, scratch, &opened, &verified), 0);
    ck_assert(opened && verified);
    /* every byte, three ways: each flip is refused at open or by verify
     * (every byte of the file is under a checksum or checked), and what
     * reads without an error reads the original values */
    char *copy = (char *)malloc(buf.len);
    size_t refused = 0, unverified = 0, failed_reads = 0;
    for (size_t i = 0; i < buf.len; i++) {
        static const unsigned char masks[] = {0x01, 0x80, 0xff};
        for (size_t k = 0; k < sizeof masks; k++) {
            memcpy(copy, buf.data, buf.len);
            copy[i] = (char)(copy[i] ^ masks[k]);
            atd_arena_reset(scratch);
            failed_reads += (size_t)reads_original_or_fails(copy, buf.len, scratch, &opened,
                                                            &verified);
            refused += !opened;
            unverified += opened && !verified;
            ck_assert_msg(!opened || !verified, "flip of byte %zu by 0x%02x not detected", i,
                          masks[k]);
        }
    }
    ck_assert_uint_eq(refused + unverified, 3 * buf.len);
    ck_assert_uint_gt(unverified, 0);
    ck_assert_uint_gt(failed_reads, 0);
    free(copy);
    atd_arena_free(scratch);
    atd_buf_free(&buf);
}
END_TEST

/* Both CRC-32C implementations give the known values and agree on every
 * length and alignment. */
START_TEST(test_lazy_crc32c)
{
    ck_assert_uint_eq(atd_crc32c(0, "123456789", 9), 0xe3069283u);
    ck_assert_uint_eq(atd_crc32c(0, "", 0), 0);
    unsigned char bytes[300];
    uint64_t s = 99;
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (unsigned char)revindex_rand(&s);
    uint32_t fast[64][17];
    for (size_t off = 0; off < 17; off++)
        for (size_t n = 0; n < 64; n++)
            fast[n][off] = atd_crc32c(0, bytes + off, n * 4 + off);
    atd__cpu_limit(0); /* the table */
    ck_assert_uint_eq(atd_crc32c(0, "123456789", 9), 0xe3069283u);
    for (size_t off = 0; off < 17; off++)
        for (size_t n = 0; n < 64; n++)
            ck_assert_uint_eq(atd_crc32c(0, bytes + off, n * 4 + off), fast[n][off]);
    /* continued CRCs are the CRC of the concatenation */
    ck_assert_uint_eq(atd_crc32c(atd_crc32c(0, "12345", 5), "6789", 4), 0xe3069283u);
    atd__cpu_limit(~0u);
    ck_assert_uint_eq(atd_crc32c(atd_crc32c(0, "1234", 4), "56789", 5), 0xe3069283u);
}
END_TEST

/* A file of the previous format version is refused with a clear error. */
START_TEST(test_lazy_old_version)
{
    atd_buf buf;
    write_sample(&buf);
    buf.data[8] = 2;
    atd_lazy_db db;
    lz_revindex_revindex_lz root;
    atd_error err;
    ck_assert_int_eq(lz_revindex_revindex_lazy_open(&db, buf.data, buf.len, arena, &root, &err),
                     ATD_ERR_SYNTAX);
    ck_assert_ptr_nonnull(strstr(err.message, "format version 2, this reader knows version 3"));
    ck_assert_ptr_nonnull(strstr(err.message, "write the file again"));
    atd_buf_free(&buf);
}
END_TEST

/* write_file replaces a file atomically: a reader that has the old file
 * open keeps reading it whole; a new open reads the new one. */
START_TEST(test_lazy_write_file)
{
    char dir[] = "/tmp/atd_lazy_dirXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/db", dir);
    atd_error err;
    lz_revindex_revindex first = sample, second = sample;
    first.len = 10;
    second.len = 20;
    ck_assert_int_eq(lz_revindex_revindex_lazy_write_file(&first, path, &err), 0);
    atd_lazy_db old_db, new_db;
    lz_revindex_revindex_lz old_root, new_root;
    ck_assert_int_eq(lz_revindex_revindex_lazy_open_file(&old_db, path, arena, &old_root, &err),
                     0);
    ck_assert_int_eq(lz_revindex_revindex_lazy_write_file(&second, path, &err), 0);
    ck_assert_int_eq(atd_lazy_verify(&old_db, &err), 0);
    ck_assert_uint_eq(old_root.count, 10);
    ck_assert_int_eq(lz_revindex_revindex_lazy_open_file(&new_db, path, arena, &new_root, &err),
                     0);
    ck_assert_uint_eq(new_root.count, 20);
    ck_assert_int_eq(atd_lazy_verify(&new_db, &err), 0);
    atd_lazy_close(&old_db);
    atd_lazy_close(&new_db);
    /* no temporary file is left behind; a failed write leaves the file */
    lz_revindex_revindex dup = sample;
    lz_revindex_revindex_item items[2] = {sample.items[0], sample.items[0]};
    dup.items = items;
    dup.len = 2;
    ck_assert_int_eq(lz_revindex_revindex_lazy_write_file(&dup, path, &err), ATD_ERR_INVALID);
    ck_assert_int_eq(lz_revindex_revindex_lazy_open_file(&new_db, path, arena, &new_root, &err),
                     0);
    ck_assert_uint_eq(new_root.count, 20);
    atd_lazy_close(&new_db);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "test \"$(ls %s)\" = db", dir);
    ck_assert_int_eq(system(cmd), 0);
    /* a directory that does not exist: an I/O error, nothing created */
    snprintf(path, sizeof path, "%s/none/db", dir);
    ck_assert_int_eq(lz_revindex_revindex_lazy_write_file(&first, path, &err), ATD_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.message, "cannot create a temporary file"));
    snprintf(path, sizeof path, "%s/db", dir);
    unlink(path);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Tens of thousands of distinct shared strings (the writer's tables grow
 * many times; ids take three bytes), each at two addresses, in a list of
 * records and as the values of an association list, in an order unrelated
 * to their addresses: each is stored once, and every value reads back. */
START_TEST(test_lazy_many_shared)
{
    enum { N = 20000, M = 3 * N };
    atd_string *a = (atd_string *)atd_arena_alloc(arena, N * sizeof *a, 8);
    atd_string *b = (atd_string *)atd_arena_alloc(arena, N * sizeof *b, 8);
    lz_names_names v;
    v.entries.items = (lz_names_entry *)atd_arena_alloc(arena, M * sizeof *v.entries.items, 8);
    v.entries.len = M;
    v.by_key.items =
        (lz_names_string_assoc_item *)atd_arena_alloc(arena, N * sizeof *v.by_key.items, 8);
    v.by_key.len = N;
    ck_assert(a != NULL && b != NULL && v.entries.items != NULL && v.by_key.items != NULL);
    for (size_t i = 0; i < N; i++) {
        char name[32];
        int n = snprintf(name, sizeof name, "dir%zu/file_%zu.ml", i % 97, i);
        a[i].ptr = atd_arena_strdup(arena, name, (size_t)n);
        b[i].ptr = atd_arena_strdup(arena, name, (size_t)n);
        a[i].len = b[i].len = (size_t)n;
    }
    /* name (k * 7919) mod N: an odd step prime to N, so every name */
    for (size_t k = 0; k < M; k++) {
        size_t i = (k * 7919) % N;
        v.entries.items[k].name = k % 2 ? b[i] : a[i];
        v.entries.items[k].rank = (int64_t)k;
    }
    for (size_t k = 0; k < N; k++) {
        char key[16];
        int n = snprintf(key, sizeof key, "k%zu", k);
        v.by_key.items[k].key.ptr = atd_arena_strdup(arena, key, (size_t)n);
        v.by_key.items[k].key.len = (size_t)n;
        v.by_key.items[k].value = b[(k * 104729) % N];
    }
    atd_buf buf, again;
    atd_buf_init(&buf);
    atd_buf_init(&again);
    atd_error err;
    ck_assert_int_eq(lz_names_names_lazy_write(&v, &buf, &err), 0);
    ck_assert_int_eq(lz_names_names_lazy_write(&v, &again, &err), 0);
    ck_assert_uint_eq(buf.len, again.len);
    ck_assert(memcmp(buf.data, again.data, buf.len) == 0);
    atd_lazy_db db;
    lz_names_names got;
    ck_assert_int_eq(lz_names_names_lazy_open(&db, buf.data, buf.len, arena, &got, &err), 0);
    ck_assert_uint_eq(db.strings_count, N);
    ck_assert_int_eq(atd_lazy_verify(&db, &err), 0);
    ck_assert_uint_eq(got.entries.len, M);
    for (size_t k = 0; k < M; k++) {
        ck_assert(same_string(got.entries.items[k].name, v.entries.items[k].name));
        ck_assert_int_eq(got.entries.items[k].rank, (int64_t)k);
    }
    ck_assert_uint_eq(got.by_key.len, N);
    for (size_t k = 0; k < N; k++) {
        ck_assert(same_string(got.by_key.items[k].key, v.by_key.items[k].key));
        ck_assert(same_string(got.by_key.items[k].value, v.by_key.items[k].value));
    }
    atd_lazy_close(&db);
    atd_buf_free(&buf);
    atd_buf_free(&again);
}
END_TEST

Suite *lazy_suite(void);
Suite *lazy_suite(void)
{
    Suite *s = suite_create("lazy");
    TCase *tc = tcase_create("revindex");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_lazy_roundtrip_buffer);
    tcase_add_test(tc, test_lazy_roundtrip_file);
    tcase_add_test(tc, test_lazy_large_values);
    tcase_add_test(tc, test_lazy_corpus);
    tcase_add_test(tc, test_lazy_duplicate_keys);
    tcase_add_test(tc, test_lazy_fingerprint);
    tcase_add_test(tc, test_lazy_truncation_and_flips);
    tcase_add_test(tc, test_lazy_error_location);
    tcase_add_test(tc, test_lazy_bad_headers);
    tcase_add_test(tc, test_lazy_every_flip_detected);
    tcase_add_test(tc, test_lazy_crc32c);
    tcase_add_test(tc, test_lazy_old_version);
    tcase_add_test(tc, test_lazy_write_file);
    tcase_add_test(tc, test_lazy_many_shared);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(lazy_suite)
