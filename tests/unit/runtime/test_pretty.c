/* Tests of the layout pass (atd/pretty.h): the exact pretty layout, pieces
 * split at every byte, typed pretty output read back equal to the compact
 * output, and atd_json_reformat over every JSONTestSuite file (y_ files
 * round-trip, n_ files are rejected). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_files.h"
#include "test_main.h"

#include "event.h"

#define PARSING_DIR ATD_SHARED_DIR "/data/jsontestsuite/test_parsing"

static char *reformat(const char *json, size_t len, unsigned flags, size_t *out_len)
{
    atd_buf b;
    atd_buf_init(&b);
    atd_error err;
    int rc = atd_json_reformat(json, len, &b, flags, &err);
    ck_assert_msg(rc == 0, "%s", err.message);
    atd_buf_putc(&b, '\0');
    *out_len = b.len - 1;
    return b.data;
}

static const char nested[] =
    " { \"a\" : [1, {\"b\":[ ]}, \"x\\\"y,[\"],\n\"c\":{ }, \"d\":-1.5e3, \"e\":[[null]],"
    "\"\\u00e9\\\\\":true } ";

static const char nested_pretty[] = "{\n"
                                    "  \"a\": [\n"
                                    "    1,\n"
                                    "    {\n"
                                    "      \"b\": []\n"
                                    "    },\n"
                                    "    \"x\\\"y,[\"\n"
                                    "  ],\n"
                                    "  \"c\": {},\n"
                                    "  \"d\": -1.5e3,\n"
                                    "  \"e\": [\n"
                                    "    [\n"
                                    "      null\n"
                                    "    ]\n"
                                    "  ],\n"
                                    "  \"\\u00e9\\\\\": true\n"
                                    "}";

static const char nested_compact[] =
    "{\"a\":[1,{\"b\":[]},\"x\\\"y,[\"],\"c\":{},\"d\":-1.5e3,\"e\":[[null]],\"\\u00e9\\\\\":true}";

START_TEST(test_layout)
{
    size_t n;
    char *p = reformat(nested, strlen(nested), ATD_WRITE_PRETTY, &n);
    ck_assert_str_eq(p, nested_pretty);
    free(p);
    p = reformat(nested, strlen(nested), 0, &n);
    ck_assert_str_eq(p, nested_compact);
    free(p);
    p = reformat(" 42 ", 4, ATD_WRITE_PRETTY, &n);
    ck_assert_str_eq(p, "42");
    free(p);
}
END_TEST

/* Indentation deeper than the pass's block of spaces is made of whole
 * spaces: [[[...]]] is laid out as one bracket a line, two spaces a level. */
START_TEST(test_deep_indentation)
{
    enum { DEPTH = 100 };
    char doc[2 * DEPTH];
    memset(doc, '[', DEPTH);
    memset(doc + DEPTH, ']', DEPTH);
    static char want[2 * DEPTH * (2 * DEPTH + 2)];
    size_t w = 0;
    for (size_t k = 0; k + 1 < DEPTH; k++)
        w += (size_t)sprintf(want + w, "%*s[\n", (int)(2 * k), "");
    w += (size_t)sprintf(want + w, "%*s[]", (int)(2 * (DEPTH - 1)), "");
    for (size_t k = DEPTH - 1; k-- > 0;)
        w += (size_t)sprintf(want + w, "\n%*s]", (int)(2 * k), "");
    size_t n;
    char *p = reformat(doc, sizeof doc, ATD_WRITE_PRETTY, &n);
    ck_assert_uint_eq(n, w);
    ck_assert_msg(memcmp(p, want, w) == 0, "layout of %d nested arrays", DEPTH);
    free(p);
}
END_TEST

START_TEST(test_pieces_split_anywhere)
{
    size_t n = strlen(nested);
    for (size_t k = 0; k <= n; k++) {
        for (int compact = 0; compact <= 1; compact++) {
            atd_buf b;
            atd_buf_init(&b);
            atd_pretty p;
            atd_pretty_init(&p, &b, compact);
            ck_assert_int_eq(atd_pretty_feed(&p, nested, k), 0);
            ck_assert_int_eq(atd_pretty_feed(&p, nested + k, n - k), 0);
            const char *expect = compact ? nested_compact : nested_pretty;
            ck_assert_msg(b.len == strlen(expect) && memcmp(b.data, expect, b.len) == 0,
                          "split at %zu", k);
            atd_buf_free(&b);
        }
    }
}
END_TEST

START_TEST(test_syntax_error)
{
    atd_buf b;
    atd_buf_init(&b);
    atd_error err;
    const char *bad = "{\"a\": [1,\n 2,, 3]}";
    ck_assert_int_eq(atd_json_reformat(bad, strlen(bad), &b, ATD_WRITE_PRETTY, &err),
                     ATD_ERR_SYNTAX);
    ck_assert_str_eq(err.message, "line 2, column 4, at $.a[2]: expected a JSON value, found ','");
    ck_assert_uint_eq(b.len, 0);
    atd_buf_free(&b);
}
END_TEST

static const char events_json[] =
    "[{\"username\":\"alice\",\"date\":1,\"event_type\":\"Login\",\"payload\":\"a\\nb\"},"
    "{\"username\":\"bob\",\"date\":-2,\"event_type\":\"Logout\",\"payload\":\"\"}]";

static const char events_pretty[] = "[\n"
                                    "  {\n"
                                    "    \"username\": \"alice\",\n"
                                    "    \"date\": 1,\n"
                                    "    \"event_type\": \"Login\",\n"
                                    "    \"payload\": \"a\\nb\"\n"
                                    "  },\n"
                                    "  {\n"
                                    "    \"username\": \"bob\",\n"
                                    "    \"date\": -2,\n"
                                    "    \"event_type\": \"Logout\",\n"
                                    "    \"payload\": \"\"\n"
                                    "  }\n"
                                    "]";

START_TEST(test_typed_pretty_reads_back)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    event_events v, back;
    atd_error err;
    ck_assert_int_eq(event_events_from_json(events_json, strlen(events_json), arena, &v, &err), 0);
    atd_buf pretty, compact, again;
    atd_buf_init(&pretty);
    atd_buf_init(&compact);
    atd_buf_init(&again);
    ck_assert_int_eq(event_events_to_json_pretty(&v, &pretty, &err), 0);
    atd_buf_putc(&pretty, '\0');
    ck_assert_str_eq(pretty.data, events_pretty);
    ck_assert_int_eq(event_events_to_json(&v, &compact, &err), 0);
    ck_assert_int_eq(event_events_from_json(pretty.data, pretty.len - 1, arena, &back, &err), 0);
    ck_assert_int_eq(event_events_to_json(&back, &again, &err), 0);
    ck_assert(compact.len == again.len && memcmp(compact.data, again.data, compact.len) == 0);

    /* on a sink, in bounded pieces */
    FILE *f = tmpfile();
    atd_buf sink;
    ck_assert_int_eq(atd_buf_init_file(&sink, f), 0);
    ck_assert_int_eq(event_events_to_json_pretty(&v, &sink, &err), 0);
    ck_assert_int_eq(atd_buf_flush(&sink), 0);
    atd_buf_free(&sink);
    char text[1024];
    rewind(f);
    size_t n = fread(text, 1, sizeof text, f);
    fclose(f);
    ck_assert(n == strlen(events_pretty) && memcmp(text, events_pretty, n) == 0);

    /* a value error leaves nothing behind */
    size_t before = pretty.len;
    v.items[1].username.ptr = "\xc3";
    v.items[1].username.len = 1;
    ck_assert_int_eq(event_events_to_json_pretty(&v, &pretty, &err), ATD_ERR_UTF8);
    ck_assert_str_eq(err.message, "at $[1].username: invalid UTF-8 in a string");
    ck_assert_uint_eq(pretty.len, before);
    atd_buf_free(&pretty);
    atd_buf_free(&compact);
    atd_buf_free(&again);
    atd_arena_free(arena);
}
END_TEST

START_TEST(test_json_value_pretty)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v, back;
    ck_assert_int_eq(atd_json_parse(nested, strlen(nested), arena, 0, &v, NULL), 0);
    atd_buf b;
    atd_buf_init(&b);
    ck_assert_int_eq(atd_json_write_pretty(&v, &b, NULL), 0);
    ck_assert_int_eq(atd_json_parse(b.data, b.len, arena, 0, &back, NULL), 0);
    ck_assert(atd_json_equal(&v, &back));
    ck_assert(memchr(b.data, '\n', b.len) != NULL);
    /* NaN cannot be written: the error names the path, nothing is left */
    size_t before = b.len;
    v.u.object.members[2].value.kind = ATD_JSON_FLOAT;
    v.u.object.members[2].value.u.number = NAN;
    atd_error err;
    ck_assert_int_eq(atd_json_write_pretty(&v, &b, &err), ATD_ERR_NONFINITE);
    ck_assert_str_eq(err.message, "at $.d: NaN and infinity cannot be written as JSON");
    ck_assert_uint_eq(b.len, before);
    atd_buf_free(&b);
    atd_arena_free(arena);
}
END_TEST

/* y_ files: pretty output is valid, has the same value, and compacts to the
 * same bytes as the original. */
static void roundtrip_one(const char *path, const char *name)
{
    size_t len, plen, clen, pclen;
    char *json = test_read_file(path, &len);
    char *pretty = reformat(json, len, ATD_WRITE_PRETTY, &plen);
    char *compact = reformat(json, len, 0, &clen);
    char *pc = reformat(pretty, plen, 0, &pclen);
    ck_assert_msg(clen == pclen && memcmp(compact, pc, clen) == 0, "%s", name);
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json a, b;
    if (atd_json_parse(json, len, arena, 0, &a, NULL) == 0) {
        ck_assert_msg(atd_json_parse(pretty, plen, arena, 0, &b, NULL) == 0, "%s", name);
        ck_assert_msg(atd_json_equal(&a, &b), "%s", name);
    }
    atd_arena_free(arena);
    free(json);
    free(pretty);
    free(compact);
    free(pc);
}

START_TEST(test_jsontestsuite_y_roundtrip)
{
    ck_assert_uint_ge(test_for_each_json(PARSING_DIR, "y_", roundtrip_one), 90);
}
END_TEST

static void rejected_one(const char *path, const char *name)
{
    size_t len;
    char *json = test_read_file(path, &len);
    atd_buf b;
    atd_buf_init(&b);
    atd_error err;
    ck_assert_msg(atd_json_reformat(json, len, &b, ATD_WRITE_PRETTY, &err) != 0, "%s accepted",
                  name);
    ck_assert_msg(err.line >= 1 && err.column >= 1, "%s: %s", name, err.message);
    ck_assert_uint_eq(b.len, 0);
    atd_buf_free(&b);
    free(json);
}

START_TEST(test_jsontestsuite_n_rejected)
{
    ck_assert_uint_ge(test_for_each_json(PARSING_DIR, "n_", rejected_one), 180);
}
END_TEST

static Suite *pretty_suite(void)
{
    Suite *s = suite_create("pretty");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_layout);
    tcase_add_test(tc, test_deep_indentation);
    tcase_add_test(tc, test_pieces_split_anywhere);
    tcase_add_test(tc, test_syntax_error);
    tcase_add_test(tc, test_typed_pretty_reads_back);
    tcase_add_test(tc, test_json_value_pretty);
    tcase_add_test(tc, test_jsontestsuite_y_roundtrip);
    tcase_add_test(tc, test_jsontestsuite_n_rejected);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(pretty_suite)
