/* Tests of the code generated for schemas/everything.atd (generated/
 * everything.c, included directly): for each construct of the JSON mapping,
 * input -> exact output bytes (atd-spec Part II), and the error paths that
 * are specific to a construct (variants, options, tuples, narrow ints). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "check_main.h"

#include "everything.h"

static atd_arena *arena;

static void setup(void)
{
    arena = atd_arena_new(0, NULL);
}

static void teardown(void)
{
    atd_arena_free(arena);
}

/* ECHO(type, input, expected output): read, write, compare bytes. */
#define ECHO(ty, in, want)                                                                   \
    do {                                                                                     \
        everything_##ty v_;                                                                  \
        atd_error e_;                                                                        \
        atd_buf b_;                                                                          \
        atd_buf_init(&b_);                                                                   \
        ck_assert_msg(everything_##ty##_from_json(in, strlen(in), arena, &v_, &e_) == 0,     \
                      "%s: %s", in, e_.message);                                             \
        ck_assert_msg(everything_##ty##_to_json(&v_, &b_, &e_) == 0, "%s", e_.message);      \
        ck_assert_msg(b_.len == strlen(want) && memcmp(b_.data, want, b_.len) == 0,          \
                      "got %.*s", (int)b_.len, b_.data);                                    \
        atd_buf_free(&b_);                                                                   \
    } while (0)

/* FAILS(type, input, code, message) */
#define FAILS(ty, in, code, msg)                                                             \
    do {                                                                                     \
        everything_##ty v_;                                                                  \
        atd_error e_;                                                                        \
        ck_assert_int_eq(everything_##ty##_from_json(in, strlen(in), arena, &v_, &e_), code); \
        ck_assert_str_eq(e_.message, msg);                                                   \
    } while (0)

START_TEST(test_sums)
{
    ECHO(mode, "\"Auto\"", "\"Auto\"");
    ECHO(level, "\"low\"", "\"low\"");
    ECHO(level, "\"HIGH-level\"", "\"HIGH-level\"");
    ECHO(shape, "\"Point\"", "\"Point\"");
    ECHO(shape, "[\"Circle\", 2]", "[\"Circle\",2.0]");
    ECHO(shape, "[\"Move\",[1,-2]]", "[\"Move\",[1,-2]]");
    ECHO(shape, "[\"Label\",{\"text\":\"t\"}]", "[\"Label\",{\"text\":\"t\"}]");
    ECHO(shape, "[\"Nested\",[\"Point\",[\"Count\",3]]]", "[\"Nested\",[\"Point\",[\"Count\",3]]]");
    ECHO(shape, "[\"renamed-shape\",\"x\"]", "[\"renamed-shape\",\"x\"]");
    ECHO(shape, "[\"Opt\",[\"Some\",1]]", "[\"Opt\",[\"Some\",1]]");
    ECHO(shape, "[\"Null\",null]", "[\"Null\",null]");
    ECHO(shape, "[\"Any\",{\"a\":[1,2.50,\"\\u00e9\"]}]", "[\"Any\",{\"a\":[1,2.5,\"\xc3\xa9\"]}]");
    ECHO(color, "\"blue\"", "\"blue\"");
    ECHO(color, "\"Other\"", "\"Other\"");
    ECHO(color, "\"mauve\"", "\"mauve\"");
    ECHO(event, "[\"Stop\",1]", "[\"Stop\",1]");
    ECHO(event, "\"Resume\"", "\"Resume\"");
    ECHO(odd_names, "[\"Some\",1]", "[\"Some\",1]");
    FAILS(level, "\"Low\"", ATD_ERR_BAD_VARIANT,
          "line 1, column 1, at $: unsupported variant \"Low\" in 'level'");
    FAILS(shape, "[\"Point\"]", ATD_ERR_BAD_VARIANT,
          "line 1, column 2, at $: unsupported variant \"Point\" with an argument in 'shape'");
    FAILS(shape, "\"Circle\"", ATD_ERR_BAD_VARIANT,
          "line 1, column 1, at $: unsupported variant \"Circle\" in 'shape'");
    FAILS(shape, "[\"Count\",1,2]", ATD_ERR_BAD_VARIANT,
          "line 1, column 12, at $: expected ']' after the argument of variant 'Count'");
    FAILS(shape, "[\"Count\",\"x\"]", ATD_ERR_TYPE,
          "line 1, column 10, at $[1]: expected an integer, found \"x\"");
}
END_TEST

START_TEST(test_fields)
{
    const char *min = "{\"req_int\":1,\"req_nullable\":null,\"req_unit\":null}";
    ECHO(fields, min, min);
    /* defaults are omitted, nulls mean absent, ? fields are unwrapped */
    ECHO(fields,
         "{\"req_int\":1,\"req_nullable\":\"s\",\"req_unit\":null,\"opt_option\":5,"
         "\"opt_nullable\":null,\"def_bool\":false,\"def_int\":0,\"def_float\":-0.0,"
         "\"def_string\":\"\",\"def_list\":[],\"def_option\":\"None\",\"def_nullable\":null,"
         "\"ex_int\":42,\"ex_neg\":-3,\"ex_float\":2.5,\"ex_float_dot\":2,\"ex_float_exp\":1000,"
         "\"ex_true\":true,\"ex_string\":\"on\",\"ex_ctor\":\"Auto\",\"ex_ctor_bq\":\"Medium\","
         "\"ex_wrap\":7,\"ex_c\":100}",
         "{\"req_int\":1,\"req_nullable\":\"s\",\"req_unit\":null,\"opt_option\":5}");
    ECHO(fields,
         "{\"req_int\":1,\"req_nullable\":null,\"req_unit\":null,\"def_bool\":true,"
         "\"def_option\":[\"Some\",5],\"ex_int\":0,\"ex_string\":\"off\",\"ex_ctor\":\"On\"}",
         "{\"req_int\":1,\"req_nullable\":null,\"req_unit\":null,\"def_bool\":true,"
         "\"def_option\":[\"Some\",5],\"ex_int\":0,\"ex_string\":\"off\",\"ex_ctor\":\"On\"}");
    FAILS(fields, "{\"req_int\":1,\"req_unit\":null}", ATD_ERR_MISSING_FIELD,
          "line 1, column 1, at $: missing field 'req_nullable' in record 'fields'");
    FAILS(fields, "{\"req_int\":1,\"req_nullable\":null,\"req_unit\":null,\"opt_option\":[\"Some\",5]}",
          ATD_ERR_TYPE,
          "line 1, column 63, at $.opt_option: expected an integer, found '['");
    ECHO(all_optional, "{}", "{}");
    ECHO(all_optional, "{\"b\":true,\"a\":1}", "{\"a\":1,\"b\":true}");
    ECHO(all_optional, "{\"c\":[\"x\"]}", "{\"c\":[\"x\"]}");
}
END_TEST

START_TEST(test_names_and_inherit)
{
    ECHO(derived, "{\"id\":\"i\",\"extra\":true,\"size\":1,\"name\":\"n\",\"kind_id\":3}",
         "{\"kind_id\":3,\"name\":\"n\",\"size\":1.0,\"id\":\"i\",\"extra\":true}");
    ECHO(patch, "{\"name\":null,\"age\":4}", "{\"name\":null,\"age\":4}");
    ECHO(patch, "{}", "{}");
    FAILS(patch, "{\"note\":null}", ATD_ERR_TYPE,
          "line 1, column 9, at $.note: expected a string, found null");
}
END_TEST

START_TEST(test_tuples_options)
{
    ECHO(single, "[5]", "[5]");
    ECHO(pair, "[\"a\",1,true,{}]", "[\"a\",1.0]");
    ECHO(with_defaults, "[1,\"x\"]", "[1,\"x\",0,1.5]");
    ECHO(with_defaults, "[1,\"x\",2]", "[1,\"x\",2,1.5]");
    FAILS(with_defaults, "[1]", ATD_ERR_TUPLE,
          "line 1, column 1, at $: expected at least 2 tuple elements, found 1");
    ECHO(options,
         "{\"opt\":\"None\",\"nul\":null,\"opt_nul\":null,\"nul_opt\":[\"Some\",null],"
         "\"nul_nul\":3,\"opt_opt\":[\"Some\",\"None\"],\"list_opt\":[\"None\",[\"Some\",2]],"
         "\"opt_list\":[\"Some\",[]],\"nul_list\":[null,\"a\"]}",
         "{\"opt\":\"None\",\"nul\":null,\"opt_nul\":null,\"nul_opt\":[\"Some\",null],"
         "\"nul_nul\":3,\"opt_opt\":[\"Some\",\"None\"],\"list_opt\":[\"None\",[\"Some\",2]],"
         "\"opt_list\":[\"Some\",[]],\"nul_list\":[null,\"a\"]}");
    FAILS(options, "{\"opt\":null}", ATD_ERR_TYPE,
          "line 1, column 8, at $.opt: expected an option (\"None\" or [\"Some\", ...]), found null");
}
END_TEST

START_TEST(test_reprs)
{
    const char *in = "{\"assoc_object\":{\"a\":1,\"a\":2},\"assoc_array\":[[\"b\",2]],"
                     "\"assoc_label\":{},\"assoc_nested\":{\"x\":{\"y\":true}},"
                     "\"int_string\":-12,\"float_int\":2.5,\"float_prec\":3.14159,"
                     "\"c_int32\":-5,\"c_uint8\":255,\"c_int8_list\":[-128,127],"
                     "\"c_float\":0.5,\"c_both\":0.1,\"raw\":[1e2],\"raw_list\":[null]}";
    ECHO(reprs, in,
         "{\"assoc_object\":{\"a\":1,\"a\":2},\"assoc_array\":[[\"b\",2]],"
         "\"assoc_label\":{},\"assoc_nested\":{\"x\":{\"y\":true}},"
         "\"int_string\":\"-12\",\"float_int\":3,\"float_prec\":3.14,"
         "\"c_int32\":-5,\"c_uint8\":255,\"c_int8_list\":[-128,127],"
         "\"c_float\":0.5,\"c_both\":0.1,\"raw\":[100.0],\"raw_list\":[null]}");
    FAILS(reprs, "{\"c_uint8\":256}", ATD_ERR_RANGE,
          "line 1, column 12, at $.c_uint8: integer 256 out of range [0, 255]");
}
END_TEST

START_TEST(test_generics_recursion)
{
    ECHO(int_page, "{\"items\":[1],\"next\":{\"items\":[],\"total\":0},\"total\":1}",
         "{\"items\":[1],\"next\":{\"items\":[],\"total\":0},\"total\":1}");
    ECHO(tree, "[\"Node\",[\"Leaf\",1,[\"Node\",[\"Leaf\",2,\"Leaf\"]]]]",
         "[\"Node\",[\"Leaf\",1,[\"Node\",[\"Leaf\",2,\"Leaf\"]]]]");
    ECHO(binding, "{\"name\":\"x\",\"bound\":[\"Let\",{\"name\":\"y\",\"bound\":[\"Num\",1],"
                  "\"body\":[\"Var\",\"y\"]}]}",
         "{\"name\":\"x\",\"bound\":[\"Let\",{\"name\":\"y\",\"bound\":[\"Num\",1],"
         "\"body\":[\"Var\",\"y\"]}]}");
    ECHO(rose_node, "{\"value\":1,\"children\":[{\"value\":2,\"children\":[]}]}",
         "{\"value\":1,\"children\":[{\"value\":2,\"children\":[]}]}");
}
END_TEST

START_TEST(test_write_errors)
{
    everything_rect r = {0.0, 0.0};
    atd_buf b;
    atd_error e;
    atd_buf_init(&b);
    r.height = (double)NAN;
    ck_assert_int_eq(everything_rect_to_json(&r, &b, &e), ATD_ERR_NONFINITE);
    ck_assert_str_eq(e.path, "$.height");
    ck_assert_uint_eq(b.len, 0);
    atd_buf_free(&b);
}
END_TEST

Suite *everything_suite(void);
Suite *everything_suite(void)
{
    Suite *s = suite_create("everything");
    TCase *tc = tcase_create("generated");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_sums);
    tcase_add_test(tc, test_fields);
    tcase_add_test(tc, test_names_and_inherit);
    tcase_add_test(tc, test_tuples_options);
    tcase_add_test(tc, test_reprs);
    tcase_add_test(tc, test_generics_recursion);
    tcase_add_test(tc, test_write_errors);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(everything_suite)
