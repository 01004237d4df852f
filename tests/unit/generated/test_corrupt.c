/* Corrupt data, both ways: damaged documents fed to generated readers, and
 * values that have no JSON form fed to generated writers.
 *
 * Reading: every benchmark document (shared/data/bench/NAME.json) through
 * the generated reader of its schema's root type (NAME_root_from_json),
 * truncated at byte offsets -- every offset of the small files, and for the
 * large ones every offset of the first 2 KB plus a spread over the rest
 * sized to a fixed budget of bytes parsed (a truncation at offset k costs k
 * bytes, and this suite must stay fast under ASan) -- and with random byte
 * changes (fixed seed, so a failure reproduces): an error or a valid value,
 * never a crash, an invalid access or a leak (the ASan and valgrind runs
 * prove those). A truncated document must be an error unless only
 * whitespace was cut. A damaged document that still reads must write, and
 * its output must read back and write identically.
 *
 * Writing (JSON has neither NaN nor infinity, and its text is UTF-8): NaN
 * and infinities in any float position and strings that are not UTF-8 make
 * generated writers fail with an error that
 * names the path of the value, e.g. "at $.matrix[0][1]: NaN and infinity
 * cannot be written as JSON", and leave an in-memory buffer as it was; they
 * never produce invalid JSON. The documented opt-out
 * ATD_WRITE_ALLOW_INVALID_UTF8 writes the bytes as they are. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_main.h"
#include "test_files.h"

#include "atd/json.h"
#include "blockchain.h"
#include "canada.h"
#include "citm_catalog.h"
#include "donut.h"
#include "everything.h"
#include "github.h"
#include "twitter.h"

#define BENCH_DIR ATD_SHARED_DIR "/data/bench"
#define CONFORMANCE_DIR ATD_SOURCE_DIR "/tests/conformance"

/* Bytes parsed per file and per kind of damage: about 40 MB, about a second
 * under ASan. */
#define BUDGET ((size_t)40 << 20)

/* xorshift64*: a fixed, portable sequence. */
static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

/* Reads one document with a generated root reader; on success writes it,
 * reads the output back and checks that it writes identically. Returns the
 * read status. */
typedef int (*roundtrip_fn)(const char *json, size_t len);

#define ROUNDTRIP(schema)                                                                    \
    static int roundtrip_##schema(const char *json, size_t len)                              \
    {                                                                                        \
        atd_arena *arena = atd_arena_new(0, NULL);                                           \
        ck_assert_ptr_nonnull(arena);                                                        \
        schema##_root v, w;                                                                  \
        atd_error err;                                                                       \
        int rc = schema##_root_from_json(json, len, arena, &v, &err);                        \
        if (rc != 0) {                                                                       \
            ck_assert_msg((int)err.code == rc && err.line > 0 && strlen(err.message) > 0,    \
                          "unclear error %d", rc);                                           \
        } else {                                                                             \
            atd_buf a, b;                                                                    \
            atd_buf_init(&a);                                                                \
            atd_buf_init(&b);                                                                \
            int wrc = schema##_root_to_json(&v, &a, &err);                                   \
            ck_assert_msg(wrc == 0 || wrc == ATD_ERR_NONFINITE, "write: %s", err.message);    \
            if (wrc == 0) {                                                                  \
                ck_assert_msg(schema##_root_from_json(a.data, a.len, arena, &w, &err) == 0,  \
                              "own output: %s", err.message);                                \
                ck_assert_int_eq(schema##_root_to_json(&w, &b, &err), 0);                    \
                ck_assert(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);             \
            }                                                                                \
            atd_buf_free(&a);                                                                \
            atd_buf_free(&b);                                                                \
        }                                                                                    \
        atd_arena_free(arena);                                                               \
        return rc;                                                                           \
    }

ROUNDTRIP(donut)
ROUNDTRIP(blockchain)
ROUNDTRIP(github)
ROUNDTRIP(twitter)
ROUNDTRIP(citm_catalog)
ROUNDTRIP(canada)

static bool only_whitespace(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
            return false;
    return true;
}

/* Reads every truncation [0, k) for the chosen offsets k. Each prefix is
 * copied into a block of exactly k bytes so that ASan catches any read past
 * the end of the input. Returns how many offsets were tried. */
static size_t truncations(const char *name, roundtrip_fn fn)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.json", BENCH_DIR, name);
    size_t len;
    char *json = test_read_file(path, &len);
    ck_assert_int_eq(fn(json, len), 0);
    size_t tried = 0;
    /* every offset while it is cheap, then evenly spread over the rest */
    size_t dense = len * len / 2 <= BUDGET ? len : 2048;
    size_t spread = (len - dense) == 0 ? 0 : BUDGET / (len / 2 + 1) + 1;
    size_t step = spread == 0 ? 1 : (len - dense) / spread + 1;
    for (size_t k = 0; k < len; k += k < dense ? 1 : step) {
        char *prefix = malloc(k != 0 ? k : 1);
        ck_assert_ptr_nonnull(prefix);
        memcpy(prefix, json, k);
        int rc = fn(prefix, k);
        ck_assert_msg(rc != 0 || only_whitespace(json + k, len - k),
                      "%s truncated at %zu of %zu reads", name, k, len);
        free(prefix);
        tried++;
    }
    free(json);
    return tried;
}

/* Bytes that make damage interesting: structure, quotes, escapes, digits,
 * UTF-8 lead and continuation bytes, NUL. */
static const char damage_bytes[] = "{}[],:\"\\u0123456789.eE-+ntf \x80\xbf\xc3\xe2\xf0\xff";

static size_t flips(const char *name, roundtrip_fn fn, size_t *read_ok)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.json", BENCH_DIR, name);
    size_t len;
    char *json = test_read_file(path, &len);
    size_t rounds = BUDGET / len + 1;
    if (rounds > 3000)
        rounds = 3000;
    rng_state = 0x9e3779b97f4a7c15ull ^ len;
    char *copy = malloc(len);
    ck_assert_ptr_nonnull(copy);
    for (size_t i = 0; i < rounds; i++) {
        memcpy(copy, json, len);
        size_t changes = 1 + rng() % 4;
        for (size_t c = 0; c < changes; c++) {
            size_t at = (size_t)(rng() % len);
            uint64_t how = rng();
            if (how % 3 == 0)
                copy[at] = (char)(copy[at] ^ (1u << (how / 3 % 8))); /* a bit flip */
            else if (how % 3 == 1)
                copy[at] = damage_bytes[how / 3 % (sizeof damage_bytes)]; /* incl. NUL */
            else
                copy[at] = (char)(how / 3 % 256);
        }
        if (fn(copy, len) == 0)
            (*read_ok)++;
    }
    free(copy);
    free(json);
    return rounds;
}

static const struct {
    const char *name;
    roundtrip_fn fn;
} bench[] = {
    {"donut", roundtrip_donut},     {"blockchain", roundtrip_blockchain},
    {"github", roundtrip_github},   {"twitter", roundtrip_twitter},
    {"citm_catalog", roundtrip_citm_catalog}, {"canada", roundtrip_canada},
};

START_TEST(test_truncated)
{
    size_t tried = truncations(bench[_i].name, bench[_i].fn);
    if (strcmp(bench[_i].name, "donut") == 0)
        ck_assert_uint_gt(tried, 2800); /* every offset */
    else
        ck_assert_uint_gt(tried, 2000);
}
END_TEST

START_TEST(test_flipped)
{
    size_t ok = 0;
    size_t rounds = flips(bench[_i].name, bench[_i].fn, &ok);
    ck_assert_uint_gt(rounds, 15);
    /* some damage is harmless (a digit for a digit): both outcomes occur
     * in the small files, whose every round is checked above */
    if (rounds >= 1000)
        ck_assert_uint_gt(ok, 0);
}
END_TEST

/* --- writers --- */

static atd_arena *arena;
static everything_root root;

static void setup_root(void)
{
    size_t len;
    char *json = test_read_file(CONFORMANCE_DIR "/everything_root.json", &len);
    arena = atd_arena_new(0, NULL);
    atd_reader r;
    /* copied strings: the input is freed below */
    atd_reader_init(&r, json, len, arena, 0);
    ck_assert_msg(everything_root_read(&r, &root) && atd_read_end(&r), "everything_root.json");
    free(json);
}

static void teardown_root(void)
{
    atd_arena_free(arena);
}

/* Writing `root` fails with `code` at `path`; the buffer keeps its prefix. */
static void expect_write_error(atd_error_code code, const char *path)
{
    atd_buf out;
    atd_buf_init(&out);
    atd_buf_puts(&out, "[1,");
    atd_error err;
    int rc = everything_root_to_json(&root, &out, &err);
    ck_assert_msg(rc == (int)code, "%s: got %d (%s)", path, rc, err.message);
    ck_assert_str_eq(err.path, path);
    char want[512];
    snprintf(want, sizeof want, "at %s: ", path);
    ck_assert_msg(strncmp(err.message, want, strlen(want)) == 0, "%s", err.message);
    ck_assert_uint_eq(out.len, 3);
    atd_buf_free(&out);
}

static void expect_write_ok(void)
{
    atd_buf out;
    atd_buf_init(&out);
    atd_error err;
    ck_assert_msg(everything_root_to_json(&root, &out, &err) == 0, "%s", err.message);
    atd_json v;
    ck_assert_int_eq(atd_json_parse(out.data, out.len, arena, 0, &v, &err), 0);
    atd_buf_free(&out);
}

#define NONFINITE_AT(lvalue, path)                                                           \
    do {                                                                                     \
        double saved_ = (lvalue);                                                            \
        (lvalue) = (double)NAN;                                                              \
        expect_write_error(ATD_ERR_NONFINITE, path);                                         \
        (lvalue) = (double)INFINITY;                                                         \
        expect_write_error(ATD_ERR_NONFINITE, path);                                         \
        (lvalue) = -(double)INFINITY;                                                        \
        expect_write_error(ATD_ERR_NONFINITE, path);                                         \
        (lvalue) = saved_;                                                                   \
    } while (0)

START_TEST(test_write_nonfinite)
{
    expect_write_ok();
    ck_assert_int_eq(root.shapes.items[1].tag, EVERYTHING_SHAPE_CIRCLE);
    NONFINITE_AT(root.shapes.items[1].u.Circle, "$.shapes[1][1]");
    NONFINITE_AT(root.shapes.items[4].u.Rect.height, "$.shapes[4][1].height");
    NONFINITE_AT(root.shapes.items[6].u.Poly.items[1].f0, "$.shapes[6][1][1][0]");
    NONFINITE_AT(root.matrix.items[0].items[1], "$.matrix[0][1]");
    NONFINITE_AT(root.generics.entry_page.items.items[0].value.items[0],
                 "$.generics.entry_page.items[0].value[0]");
    NONFINITE_AT(root.reprs.float_int, "$.reprs.float_int");
    NONFINITE_AT(root.reprs.float_prec, "$.reprs.float_prec");
    NONFINITE_AT(root.reprs.assoc_label.items[0].value, "$.reprs.assoc_label.l");
    NONFINITE_AT(root.anon_record.items[1].y, "$.anon_record[1].y");
    NONFINITE_AT(root.fields.def_float, "$.fields.def_float");
    NONFINITE_AT(root.names.switch_, "$.names.switch");
    /* C float fields */
    float saved = root.reprs.c_float;
    root.reprs.c_float = (float)NAN;
    expect_write_error(ATD_ERR_NONFINITE, "$.reprs.c_float");
    root.reprs.c_float = saved;
    /* inside an abstract value: {"a":[1,2.5,"xé"],"b":true} */
    atd_json *a = &root.values.items[1].u.object.members[0].value;
    ck_assert_int_eq(a->u.array.items[1].kind, ATD_JSON_FLOAT);
    NONFINITE_AT(a->u.array.items[1].u.number, "$.values[1].a[1]");
    expect_write_ok();
}
END_TEST

#define INVALID_UTF8_AT(lvalue, path)                                                        \
    do {                                                                                     \
        atd_string saved_ = (lvalue);                                                        \
        static const char *const bad_[] = {"\xff", "ok\xc3", "\xed\xa0\x80", "\xc0\xaf",     \
                                           "\xf4\x90\x80\x80", "\x80"};                     \
        for (size_t i_ = 0; i_ < sizeof bad_ / sizeof bad_[0]; i_++) {                       \
            (lvalue).ptr = bad_[i_];                                                         \
            (lvalue).len = strlen(bad_[i_]);                                                 \
            expect_write_error(ATD_ERR_UTF8, path);                                          \
        }                                                                                    \
        (lvalue) = saved_;                                                                   \
    } while (0)

START_TEST(test_write_invalid_utf8)
{
    INVALID_UTF8_AT(root.label, "$.label");
    INVALID_UTF8_AT(root.names.accented,
                    "$.names[\"caf\\xc3\\xa9\"]"); /* non-ASCII escaped, as readers do */
    INVALID_UTF8_AT(root.shapes.items[8].u.Renamed, "$.shapes[8][1]");
    INVALID_UTF8_AT(root.reprs.assoc_object.items[0].key, "$.reprs.assoc_object[0]"); /* the pair */
    INVALID_UTF8_AT(root.generics.ext.items.items[0], "$.generics.ext.items[0]");
    INVALID_UTF8_AT(root.values.items[1].u.object.members[0].value.u.array.items[2].u.string,
                    "$.values[1].a[2]");
    INVALID_UTF8_AT(root.values.items[1].u.object.members[1].key, "$.values[1]");
    expect_write_ok();

    /* the documented opt-out writes the bytes as they are */
    atd_string saved = root.label;
    root.label.ptr = "\xff";
    root.label.len = 1;
    atd_buf out;
    atd_buf_init(&out);
    atd_writer w;
    atd_writer_init(&w, &out, ATD_WRITE_ALLOW_INVALID_UTF8);
    ck_assert(everything_root_write(&w, &root));
    static const char want[] = "\"label\":\"\xff\"";
    bool found = false;
    for (size_t i = 0; !found && i + sizeof want - 1 <= out.len; i++)
        found = memcmp(out.data + i, want, sizeof want - 1) == 0;
    ck_assert(found);
    atd_buf_free(&out);
    root.label = saved;
}
END_TEST

Suite *corrupt_suite(void);
Suite *corrupt_suite(void)
{
    Suite *s = suite_create("corrupt");
    TCase *tc = tcase_create("read");
    tcase_set_timeout(tc, 300);
    size_t n = sizeof bench / sizeof bench[0];
    tcase_add_loop_test(tc, test_truncated, 0, (int)n);
    tcase_add_loop_test(tc, test_flipped, 0, (int)n);
    suite_add_tcase(s, tc);
    TCase *tw = tcase_create("write");
    tcase_add_checked_fixture(tw, setup_root, teardown_root);
    tcase_add_test(tw, test_write_nonfinite);
    tcase_add_test(tw, test_write_invalid_utf8);
    suite_add_tcase(s, tw);
    return s;
}

ATD_CHECK_MAIN(corrupt_suite)
