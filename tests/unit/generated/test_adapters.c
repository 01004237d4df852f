/* Tests of atdgen's built-in JSON adapters in the code generated for
 * schemas/adapters.atd, beyond the outputs that tests/atdgen_adapters
 * compares with atdgen: error positions and paths, strict fields, borrowed
 * strings, and writing a record field named like the type field; the same
 * for Type_and_value_fields. */
#include <check.h>
#include <string.h>

#include "test_main.h"

#include "adapters.h"

static atd_arena *arena;

static void setup(void)
{
    arena = atd_arena_new(0, NULL);
}

static void teardown(void)
{
    atd_arena_free(arena);
}

static void read_fails(const char *json, unsigned flags, const char *message)
{
    atd_reader r;
    adapters_shape v;
    atd_error err;
    atd_reader_init(&r, json, strlen(json), arena, flags);
    ck_assert(!adapters_shape_read(&r, &v) || !atd_read_end(&r));
    ck_assert_int_ne(atd_reader_get_error(&r, &err), 0);
    ck_assert_msg(strcmp(err.message, message) == 0, "%s", err.message);
}

static void shape_is(const char *json, unsigned flags, const char *written)
{
    atd_reader r;
    adapters_shape v;
    atd_reader_init(&r, json, strlen(json), arena, flags);
    ck_assert_msg(adapters_shape_read(&r, &v) && atd_read_end(&r), "%s", json);
    atd_buf b;
    atd_error err;
    atd_buf_init(&b);
    ck_assert_int_eq(adapters_shape_to_json(&v, &b, &err), 0);
    ck_assert_msg(b.len == strlen(written) && memcmp(b.data, written, b.len) == 0, "%.*s",
                  (int)b.len, b.data);
    atd_buf_free(&b);
}

START_TEST(test_type_field_forms)
{
    shape_is("\"Dot\"", 0, "\"Dot\"");
    shape_is(" { \"radius\" : 2 , \"type\" : \"Circle\" } ", 0,
             "{\"type\":\"Circle\",\"radius\":2.0}");
    shape_is("[\"Circle\",{\"radius\":0.5}]", 0, "{\"type\":\"Circle\",\"radius\":0.5}");
    /* escaped names and keys are decoded */
    shape_is("{\"t\\u0079pe\":\"rect\\u0061ngle\",\"width\":1,\"height\":2}", 0,
             "{\"type\":\"rectangle\",\"width\":1,\"height\":2}");
    /* not a record: the array form, as atdgen's restore leaves it */
    shape_is("[\"Code\",7]", 0, "[\"Code\",7]");
    /* the type field is no unknown field, even with ATD_READ_STRICT_FIELDS */
    shape_is("{\"type\":\"Circle\",\"radius\":1}", ATD_READ_STRICT_FIELDS | ATD_READ_BORROW_STRINGS,
             "{\"type\":\"Circle\",\"radius\":1.0}");
    /* documented limit: the argument of a Type_field constructor is read
     * without ATD_READ_STRICT_FIELDS, so other unknown fields pass too */
    shape_is("{\"type\":\"Circle\",\"radius\":1,\"x\":0}", ATD_READ_STRICT_FIELDS,
             "{\"type\":\"Circle\",\"radius\":1.0}");
}
END_TEST

/* one record (circle) in two sums whose type fields differ */
START_TEST(test_record_in_two_type_field_sums)
{
    const char *json = "{\"radius\":1,\"kind\":\"Round\"}";
    atd_reader r;
    adapters_kind_shape v;
    atd_reader_init(&r, json, strlen(json), arena, ATD_READ_STRICT_FIELDS);
    ck_assert(adapters_kind_shape_read(&r, &v) && atd_read_end(&r));
    ck_assert_int_eq(v.tag, ADAPTERS_KIND_SHAPE_ROUND);
    ck_assert(v.u.Round.radius == 1.0);
    atd_buf b;
    atd_error err;
    atd_buf_init(&b);
    ck_assert_int_eq(adapters_kind_shape_to_json(&v, &b, &err), 0);
    const char *want = "{\"kind\":\"Round\",\"radius\":1.0}";
    ck_assert_msg(b.len == strlen(want) && memcmp(b.data, want, b.len) == 0, "%.*s", (int)b.len,
                  b.data);
    atd_buf_free(&b);
    shape_is("{\"type\":\"Circle\",\"radius\":1}", 0, "{\"type\":\"Circle\",\"radius\":1.0}");
}
END_TEST

START_TEST(test_type_field_errors)
{
    read_fails("{\"radius\":2}", 0,
               "line 1, column 1, at $: missing field 'type' naming the constructor of 'shape'");
    read_fails("{\"a\":[1,{\"b\":tru}],\"type\":\"Circle\"}", 0,
               "line 1, column 14, at $.a: expected a value, found tru");
    read_fails("{\"type\":null}", 0,
               "line 1, column 9, at $.type: expected a string naming a constructor of 'shape'");
    read_fails("{\"type\":\"Dot\"}", 0,
               "line 1, column 9, at $: variant 'Dot' takes no argument: it is the string "
               "\"Dot\", not an object");
    read_fails("{\"type\":\"Circle\",\"radius\":true}", 0,
               "line 1, column 27, at $.radius: expected a number, found true");
    read_fails("{\"type\":\"Code\"}", 0, "line 1, column 1, at $: expected an integer, found '{'");
    read_fails("{\"type\":\"Circle\"", 0, "line 1, column 17, at $: unexpected end of input");
}
END_TEST

START_TEST(test_record_field_named_like_type_field)
{
    /* Tagged's own "kind" holds the constructor name when read, and is
     * replaced by it when written. */
    const char *json = "{\"n\":1,\"kind\":\"Tagged\"}";
    adapters_event v;
    atd_error err;
    ck_assert_int_eq(adapters_event_from_json(json, strlen(json), arena, &v, &err), 0);
    ck_assert_int_eq(v.tag, ADAPTERS_EVENT_TAGGED);
    ck_assert_uint_eq(v.u.Tagged.kind.len, 6);
    v.u.Tagged.kind = (atd_string){"ignored", 7};
    atd_buf b;
    atd_buf_init(&b);
    ck_assert_int_eq(adapters_event_to_json(&v, &b, &err), 0);
    ck_assert_uint_eq(b.len, strlen("{\"kind\":\"Tagged\",\"n\":1}"));
    ck_assert_int_eq(memcmp(b.data, "{\"kind\":\"Tagged\",\"n\":1}", b.len), 0);
    atd_buf_free(&b);
}
END_TEST

START_TEST(test_one_field_errors)
{
    const char *cases[][2] = {
        {"{}", "line 1, column 1, at $: empty object instead of a variant of 'one'"},
        {"{\"Number\":1,\"Box\":{}}",
         "line 1, column 13, at $: expected '}' after the argument of variant 'Number'"},
        {"{\"Number\":\"x\"}", "line 1, column 11, at $.Number: expected an integer, found \"x\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        adapters_one v;
        atd_error err;
        ck_assert_int_ne(adapters_one_from_json(cases[i][0], strlen(cases[i][0]), arena, &v, &err),
                         0);
        ck_assert_msg(strcmp(err.message, cases[i][1]) == 0, "%s", err.message);
    }
}
END_TEST

/* Type_and_value_fields (tagged_value: "kind" and "payload"; tagged_value2
 * with known tags and a catch-all). */
static void tv_fails(const char *json, unsigned flags, const char *message)
{
    atd_reader r;
    adapters_tagged_value v;
    atd_error err;
    atd_reader_init(&r, json, strlen(json), arena, flags);
    ck_assert(!adapters_tagged_value_read(&r, &v) || !atd_read_end(&r));
    ck_assert_int_ne(atd_reader_get_error(&r, &err), 0);
    ck_assert_msg(strcmp(err.message, message) == 0, "%s", err.message);
}

static void tv2_is(const char *json, unsigned flags, const char *written)
{
    atd_reader r;
    adapters_tagged_value2 v;
    atd_reader_init(&r, json, strlen(json), arena, flags);
    ck_assert_msg(adapters_tagged_value2_read(&r, &v) && atd_read_end(&r), "%s", json);
    atd_buf b;
    atd_error err;
    atd_buf_init(&b);
    ck_assert_int_eq(adapters_tagged_value2_to_json(&v, &b, &err), 0);
    ck_assert_msg(b.len == strlen(written) && memcmp(b.data, written, b.len) == 0, "%.*s",
                  (int)b.len, b.data);
    atd_buf_free(&b);
}

START_TEST(test_type_and_value_fields)
{
    tv_fails("{\"payload\":1,\"id\":\"x\"}", 0,
             "line 1, column 1, at $: missing field 'kind' naming the constructor of 'payload'");
    tv_fails("{\"kind\":\"a\",\"id\":\"x\"}", 0,
             "line 1, column 9, at $.payload: variant 'A' needs an argument: field 'payload' is "
             "missing");
    tv_fails("{\"kind\":\"n\",\"payload\":null,\"id\":\"x\"}", 0,
             "line 1, column 23, at $.payload: variant 'Nothing' takes no argument: field "
             "'payload' must be absent");
    tv_fails("{\"kind\":\"c\",\"payload\":1,\"id\":\"x\"}", 0,
             "line 1, column 9, at $.payload: unsupported variant \"c\" in field 'kind' of "
             "'payload'");
    tv_fails("{\"kind\":\"b\",\"payload\":{\"width\":true},\"id\":\"x\"}", 0,
             "line 1, column 32, at $.payload.width: expected an integer, found true");
    /* the type field is no unknown field with ATD_READ_STRICT_FIELDS; others are */
    tv_fails("{\"kind\":\"a\",\"payload\":1,\"id\":\"x\",\"z\":0}", ATD_READ_STRICT_FIELDS,
             "line 1, column 38, at $: unknown field \"z\" in record 'tagged_value'");
    adapters_tagged_value v;
    atd_error err;
    const char *ok = "{\"kind\":\"a\",\"payload\":1,\"id\":\"x\"}";
    ck_assert_int_eq(adapters_tagged_value_from_json(ok, strlen(ok), arena, &v, &err), 0);
    ck_assert_int_eq(v.payload.tag, ADAPTERS_PAYLOAD_A);
    ck_assert_int_eq(v.payload.u.A, 1);
    /* the catch-all's tag is copied (unless borrowing was asked for) */
    char in[] = "{\"kind\":\"Group\",\"payload2\":[1]}";
    adapters_tagged_value2 w;
    atd_reader r;
    atd_reader_init(&r, in, strlen(in), arena, 0);
    ck_assert(adapters_tagged_value2_read(&r, &w));
    memset(in, 'x', strlen(in));
    ck_assert_int_eq(w.payload2.tag, ADAPTERS_PAYLOAD2_UNKNOWN);
    ck_assert(w.payload2.u.Unknown.f0.len == 5 &&
              memcmp(w.payload2.u.Unknown.f0.ptr, "Group", 5) == 0);
    /* the record's own field named "kind" gets the tag, and is replaced by
     * it on writing */
    tv2_is("{\"payload2\":1,\"kind\":\"a\"}", 0, "{\"kind\":\"a\",\"payload2\":1}");
    tv2_is("{\"kind\":\"Event\"}", 0, "{\"kind\":\"Event\"}");
    tv2_is("{\"kind\":\"X\",\"payload2\":null}", 0, "{\"kind\":\"X\"}");
    tv2_is("{\"kind\":\"X\",\"payload2\":{\"a\":[]}}", 0,
           "{\"kind\":\"X\",\"payload2\":{\"a\":[]}}");
}
END_TEST

static Suite *adapters_suite(void)
{
    Suite *s = suite_create("adapters");
    TCase *tc = tcase_create("builtin");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_type_field_forms);
    tcase_add_test(tc, test_record_in_two_type_field_sums);
    tcase_add_test(tc, test_type_field_errors);
    tcase_add_test(tc, test_record_field_named_like_type_field);
    tcase_add_test(tc, test_one_field_errors);
    tcase_add_test(tc, test_type_and_value_fields);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(adapters_suite)
