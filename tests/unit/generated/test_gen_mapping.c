/* Tests of the code generated for schemas/mapping.atd: <c t wrap unwrap>
 * (llabs both ways, so the conversions are visible in the bytes), <c
 * default> on a wrap (assigned by init, always written) and on a record
 * (compared by value like the other defaults), defaults omitted
 * on write unless ATD_WRITE_DEFAULTS, null for ?/~ fields, keep_nulls,
 * duplicate keys (the last one wins), enum names borrowed by the reader but
 * owned by the value, error messages quoting hostile names safely, lenient
 * mode through a generated reader, and the depth limit through a recursive
 * generated type. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "test_main.h"

#include "mapping.h"

static atd_arena *arena;

static void setup(void)
{
    arena = atd_arena_new(0, NULL);
}

static void teardown(void)
{
    atd_arena_free(arena);
}

/* Writes v with the writer flags `flags` and compares with `expect`. */
static void settings_is(const mapping_settings *v, unsigned flags, const char *expect)
{
    atd_buf b;
    atd_writer w;
    atd_error err;
    atd_buf_init(&b);
    atd_writer_init(&w, &b, flags);
    ck_assert(mapping_settings_write(&w, v));
    ck_assert_int_eq(atd_writer_get_error(&w, &err), 0);
    ck_assert_msg(b.len == strlen(expect) && memcmp(b.data, expect, b.len) == 0, "%.*s",
                  (int)b.len, b.data);
    atd_buf_free(&b);
}

START_TEST(test_defaults_omitted)
{
    mapping_settings v;
    mapping_settings_init(&v);
    ck_assert_int_eq(v.level, 3);
    ck_assert(v.ratio == 1000.0);
    ck_assert_uint_eq(v.name.len, 4);
    ck_assert_int_eq(v.mag, 5);
    ck_assert(v.origin.x == 1.0 && v.origin.y == 2.0);
    ck_assert_int_eq(v.color.tag, MAPPING_COLOR_GREEN);
    /* <c default> on a <c t> wrap: assigned, never compared, so always
     * written; on a record: compared by value, so omitted while equal */
    settings_is(&v, 0, "{\"mag\":5}");
    v.origin.y = 2.5;
    settings_is(&v, 0, "{\"mag\":5,\"origin\":{\"x\":1.0,\"y\":2.5}}");
    v.origin.y = 2.0;
    /* atdgen's -j-defaults: every ~ field, absent ? fields still omitted */
    settings_is(&v, ATD_WRITE_DEFAULTS,
                "{\"level\":3,\"ratio\":1000.0,\"name\":\"anon\",\"mag\":5,\"mags\":[],"
                "\"origin\":{\"x\":1.0,\"y\":2.0},\"flag\":false,\"nothing\":null,"
                "\"color\":\"Green\"}");
}
END_TEST

START_TEST(test_wrap)
{
    mapping_settings v;
    atd_error err;
    const char *json = "{\"mag\":-7,\"mags\":[1,-2],\"level\":4}";
    ck_assert_msg(mapping_settings_from_json(json, strlen(json), arena, &v, &err) == 0, "%s",
                  err.message);
    ck_assert_int_eq(v.mag, 7); /* llabs on read */
    ck_assert_uint_eq(v.mags.len, 2);
    ck_assert_int_eq(v.mags.items[1], 2);
    v.mag = -9; /* llabs again on write */
    settings_is(&v, 0, "{\"level\":4,\"mag\":9,\"mags\":[1,2]}");
    mapping_magnitude m;
    ck_assert_int_eq(mapping_magnitude_from_json("-3", 2, arena, &m, &err), 0);
    ck_assert_int_eq(m, 3);
}
END_TEST

START_TEST(test_nulls_and_duplicates)
{
    mapping_loose l;
    atd_error err;
    /* null for ? and ~ fields means absent; a later null does not reset */
    const char *j1 = "{\"x\":null,\"z\":null,\"y\":null}";
    ck_assert_int_eq(mapping_loose_from_json(j1, strlen(j1), arena, &l, &err), 0);
    ck_assert(!l.has_x && !l.has_y);
    ck_assert_int_eq(l.z, 7);
    const char *j2 = "{\"x\":1,\"x\":2,\"z\":3,\"x\":null,\"z\":4}";
    ck_assert_int_eq(mapping_loose_from_json(j2, strlen(j2), arena, &l, &err), 0);
    ck_assert(l.has_x);
    ck_assert_int_eq(l.x, 2); /* last non-null value wins */
    ck_assert_int_eq(l.z, 4);

    /* keep_nulls: null is the (unwrapped) value itself */
    mapping_patch p;
    const char *j3 = "{\"x\":null}";
    ck_assert_int_eq(mapping_patch_from_json(j3, strlen(j3), arena, &p, &err), 0);
    ck_assert(p.has_x && !p.x.has && !p.has_y);
    const char *j4 = "{\"x\":4}";
    ck_assert_int_eq(mapping_patch_from_json(j4, strlen(j4), arena, &p, &err), 0);
    ck_assert(p.has_x && p.x.has && p.x.value == 4);
    const char *j5 = "{\"y\":null}";
    ck_assert_int_eq(mapping_patch_from_json(j5, strlen(j5), arena, &p, &err), ATD_ERR_TYPE);
    ck_assert_str_eq(err.message, "line 1, column 6, at $.y: expected an integer, found null");
}
END_TEST

START_TEST(test_names)
{
    mapping_color c;
    atd_error err;
    /* an escaped name is decoded; a catch-all value owns its bytes */
    ck_assert_int_eq(mapping_color_from_json("\"Gr\\u0065en\"", 12, arena, &c, &err), 0);
    ck_assert_int_eq(c.tag, MAPPING_COLOR_GREEN);
    char json[] = "[\"Custom\",\"teal\"]";
    ck_assert_int_eq(mapping_color_from_json(json, strlen(json), arena, &c, &err), 0);
    ck_assert_int_eq(c.tag, MAPPING_COLOR_CUSTOM);
    memset(json, 'x', sizeof json - 1);
    ck_assert(c.u.Custom.len == 4 && memcmp(c.u.Custom.ptr, "teal", 4) == 0);
    /* a hostile name is quoted safely in the message */
    const char *bad = "\"R\\u0001d\\\"\"";
    ck_assert_int_eq(mapping_color_from_json(bad, strlen(bad), arena, &c, &err),
                     ATD_ERR_BAD_VARIANT);
    ck_assert_str_eq(err.message,
                     "line 1, column 1, at $: unsupported variant \"R\\x01d\\x22\" in 'color'");
}
END_TEST

START_TEST(test_lenient)
{
    mapping_settings v;
    atd_error err;
    atd_reader r;
    const char *json = "{/* c */\"level\":5, \"name\":\"a\x01\"} trailing";
    atd_reader_init(&r, json, strlen(json), arena, ATD_READ_LENIENT);
    ck_assert(mapping_settings_read(&r, &v));
    ck_assert(atd_read_end(&r));
    ck_assert_int_eq(v.level, 5);
    ck_assert_uint_eq(v.name.len, 2);
    ck_assert_int_eq(mapping_settings_from_json(json, strlen(json), arena, &v, &err),
                     ATD_ERR_SYNTAX);
}
END_TEST

START_TEST(test_depth)
{
    /* {"next":{"next":...}} a million levels: an error, no stack overflow */
    enum { DEEP = 1000000 };
    const char *open = "{\"id\":1,\"next\":";
    size_t n = strlen(open);
    char *json = malloc(DEEP * (n + 1) + 16);
    ck_assert_ptr_nonnull(json);
    size_t len = 0;
    for (size_t i = 0; i < DEEP; i++) {
        memcpy(json + len, open, n);
        len += n;
    }
    memcpy(json + len, "{\"id\":0}", 8);
    len += 8;
    memset(json + len, '}', DEEP);
    len += DEEP;
    mapping_chain c;
    atd_error err;
    ck_assert_int_eq(mapping_chain_from_json(json, len, arena, &c, &err), ATD_ERR_DEPTH);
    free(json);
    /* and within the limit it works */
    const char *ok = "{\"id\":1,\"next\":{\"id\":2}}";
    ck_assert_int_eq(mapping_chain_from_json(ok, strlen(ok), arena, &c, &err), 0);
    ck_assert(c.has_next && c.next->id == 2 && !c.next->has_next);
}
END_TEST

static Suite *gen_mapping_suite(void)
{
    Suite *s = suite_create("gen_mapping");
    TCase *tc = tcase_create("mapping");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_defaults_omitted);
    tcase_add_test(tc, test_wrap);
    tcase_add_test(tc, test_nulls_and_duplicates);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_lenient);
    tcase_add_test(tc, test_depth);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(gen_mapping_suite)
