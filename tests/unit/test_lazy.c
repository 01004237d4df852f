/* The lazy format (docs/lazy-format.md) through the code atdc --lazy
 * generates for schemas/revindex.atd (as lz_revindex.atd): write, open from
 * a buffer and from a mapped file, find, fetch and iterate; sharing stores
 * each file name once; a corpus record root with optional and plain-map lazy
 * fields; duplicate keys refused on write; errors with their byte offset and
 * path; truncation at every offset and byte flips of a small file never read
 * out of bounds (ASan, valgrind); a file written for a changed schema
 * (tests/lazy/lz_changed.atd) refused by its fingerprint. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lz_changed.h"
#include "lz_revindex.h"
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

START_TEST(test_lazy_roundtrip_buffer)
{
    atd_buf buf;
    write_sample(&buf);
    atd_lazy_db db;
    lz_revindex_revindex_lz root;
    atd_error err;
    ck_assert_int_eq(lz_revindex_revindex_lazy_open(&db, buf.data, buf.len, arena, &root, &err), 0);
    /* 40 file names among thousands of occurrences: each stored once */
    ck_assert_uint_eq(db.strings_count, 40);
    check_db(&db, &root);
    atd_lazy_close(&db);
    atd_buf_free(&buf);
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
    /* the second occurrence's `line` hashtag, broken in a copy: the
     * occurrences are the bytes right at ref.off */
    char *copy = (char *)malloc(buf.len);
    memcpy(copy, buf.data, buf.len);
    const char *first = memchr(buf.data + ref.off, ATD_BIN_RECORD, ref.len);
    ck_assert_ptr_nonnull(first);
    /* array tag, count, element tag (record), then record bodies: count 2,
     * filename hashtag, tag 49, id, line hashtag... */
    size_t at = (size_t)(first - buf.data) + 1; /* first record's count */
    at += 1 + 4 + 1;                            /* count, hashtag, shared tag */
    while ((unsigned char)copy[at] & 0x80)      /* the string id */
        at++;
    at++;
    copy[at] = 0x11; /* the line field's hashtag loses its high bit */
    ck_assert_int_eq(lz_revindex_revindex_lazy_open(&db, copy, buf.len, arena, &root, &err), 0);
    lz_revindex_occurrences occ;
    ck_assert_int_ne(lz_revindex_occurrences_lazy_fetch(&db, &ref, arena, &occ, &err), 0);
    char want[64];
    snprintf(want, sizeof want, "byte %zu, at $[0]", at);
    ck_assert_msg(strncmp(err.message, want, strlen(want)) == 0, "%s", err.message);
    ck_assert_uint_eq(err.offset, at);
    /* a reference made up by the caller is checked too */
    atd_lazy wild = {buf.len, 10};
    ck_assert_int_eq(lz_revindex_occurrences_lazy_fetch(&db, &wild, arena, &occ, &err),
                     ATD_ERR_INVALID);
    atd_lazy_index wild_map = {1u << 30, 5};
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
    /* byte flips in the header, trailer fields set out of their bounds */
    struct {
        size_t at;
        uint64_t value; /* 0: flip the byte; else the 8-byte field at `at` */
        const char *message;
    } cases[] = {{0, 0, "bad magic"},
                 {8, 0, "format version"},
                 {buf.len - 1, 0, "trailer magic"},
                 {buf.len - 48, 1, "data section end"},
                 {buf.len - 48, buf.len, "data section end"},
                 {buf.len - 40, buf.len, "string table"},
                 {buf.len - 32, UINT64_MAX / 4, "shared strings exceed"},
                 {buf.len - 16, 1, "root at"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(copy, buf.data, buf.len);
        if (cases[i].value == 0) {
            copy[cases[i].at] = (char)(copy[cases[i].at] ^ 0x5a);
        } else {
            for (int b = 0; b < 8; b++)
                copy[cases[i].at + (size_t)b] = (char)(unsigned char)(cases[i].value >> (8 * b));
        }
        ck_assert_int_eq(lz_revindex_revindex_lazy_open(&db, copy, buf.len, arena, &root, &err),
                         ATD_ERR_SYNTAX);
        ck_assert_msg(strstr(err.message, cases[i].message) != NULL, "%s", err.message);
    }
    free(copy);
    atd_buf_free(&buf);
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
    tcase_add_test(tc, test_lazy_corpus);
    tcase_add_test(tc, test_lazy_duplicate_keys);
    tcase_add_test(tc, test_lazy_fingerprint);
    tcase_add_test(tc, test_lazy_truncation_and_flips);
    tcase_add_test(tc, test_lazy_error_location);
    tcase_add_test(tc, test_lazy_bad_headers);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(lazy_suite)
