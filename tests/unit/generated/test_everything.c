/* Tests of the code generated for schemas/everything.atd (generated/
 * everything.c, included directly): for each construct of the JSON mapping,
 * input -> exact output bytes (atdgen's JSON forms), and the error paths that
 * are specific to a construct (variants, options, tuples, narrow ints). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_files.h"
#include "test_main.h"

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

/* FAILS_AT(type, input literal, code, line, column, path, message): the whole
 * atd_error. The input is a literal so that it may hold any byte. */
#define FAILS_AT(ty, in, cd, ln, col, pth, msg)                                            \
    do {                                                                                     \
        everything_##ty v_;                                                                  \
        atd_error e_;                                                                        \
        ck_assert_int_eq(everything_##ty##_from_json(in, sizeof(in) - 1, arena, &v_, &e_),   \
                         cd);                                                                \
        ck_assert_int_eq(e_.code, cd);                                                       \
        ck_assert_uint_eq(e_.line, ln);                                                      \
        ck_assert_uint_eq(e_.column, col);                                                   \
        ck_assert_str_eq(e_.path, pth);                                                      \
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
    FAILS(shape, "[ \"Count\" ]", ATD_ERR_BAD_VARIANT,
          "line 1, column 3, at $: variant 'Count' needs an argument");
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
    /* a null for a ? or ~ field, before each byte that may follow it */
    ECHO(fields,
         "{\"req_int\":1,\"req_nullable\":null,\"req_unit\":null,\"opt_option\":null,"
         "\"def_int\":null }",
         min);
    ECHO(fields,
         "{ \"def_int\" : null\n, \"req_int\":1,\"req_nullable\":null,\"req_unit\":null,"
         "\"opt_option\":null\t,\"opt_alias\": null\r\n}",
         min);
    /* a broken null goes to the field's own reader */
    FAILS(fields, "{\"req_int\":1,\"req_nullable\":null,\"req_unit\":null,\"opt_option\":nul}",
          ATD_ERR_TYPE, "line 1, column 63, at $.opt_option: expected an integer, found nul");
    FAILS(fields, "{\"req_int\":1,\"req_nullable\":null,\"req_unit\":null,\"def_int\":nullx}",
          ATD_ERR_TYPE, "line 1, column 60, at $.def_int: expected an integer, found nullx");
    FAILS(fields, "{\"req_int\":1,\"req_nullable\":null,\"req_unit\":null,\"def_int\":null",
          ATD_ERR_EOF, "line 1, column 64, at $: unexpected end of input");
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

/* <json repr="object"> on a sum (newer ATD backends): {"Name":v} for a
 * constructor with an argument, "Name" for a nullary one, and nothing else. */
START_TEST(test_sum_repr_object)
{
    ECHO(obj_shape, "\"Dot\"", "\"Dot\"");
    ECHO(obj_shape, "{ \"Size\" : -3 }", "{\"Size\":-3}");
    ECHO(obj_shape, "{\"Pair\":[1,2]}", "{\"Pair\":[1,2.0]}");
    ECHO(obj_shape, "{\"re named\":\"x\"}", "{\"re named\":\"x\"}");
    ECHO(obj_shape, "{\"re\\u0020named\":\"\"}", "{\"re named\":\"\"}");
    ECHO(obj_shape, "{\"Box\":{\"h\":0.5,\"w\":2}}", "{\"Box\":{\"w\":2,\"h\":0.5}}");
    ECHO(obj_shape, "{\"Inner\":[\"Dot\",{\"Inner\":[]},{\"Size\":1}]}",
         "{\"Inner\":[\"Dot\",{\"Inner\":[]},{\"Size\":1}]}");
    ECHO(anon_z, "{\"z\":true}", "{\"z\":true}");
    FAILS_AT(obj_shape, "{\n  \"Size\": 1,\n  \"Pair\": [1, 2]\n}", ATD_ERR_BAD_VARIANT, 2, 13, "$",
             "line 2, column 13, at $: expected '}' after the argument of variant 'Size'");
    FAILS_AT(obj_shape, "{\n  \"Dot\": null\n}", ATD_ERR_BAD_VARIANT, 2, 3, "$",
             "line 2, column 3, at $: unsupported variant \"Dot\" with an argument in "
             "'obj_shape'");
    FAILS_AT(obj_shape, "{\n  \"Nope\": 1\n}", ATD_ERR_BAD_VARIANT, 2, 3, "$",
             "line 2, column 3, at $: unsupported variant \"Nope\" with an argument in "
             "'obj_shape'");
    FAILS_AT(obj_shape, "{ }", ATD_ERR_BAD_VARIANT, 1, 1, "$",
             "line 1, column 1, at $: empty object instead of a variant of 'obj_shape'");
    FAILS_AT(obj_shape, "[\"Size\", 1]", ATD_ERR_TYPE, 1, 1, "$",
             "line 1, column 1, at $: expected a variant of 'obj_shape', found '['");
    FAILS_AT(obj_shape, "\"Size\"", ATD_ERR_BAD_VARIANT, 1, 1, "$",
             "line 1, column 1, at $: unsupported variant \"Size\" in 'obj_shape'");
    FAILS_AT(obj_shape, "null", ATD_ERR_TYPE, 1, 1, "$",
             "line 1, column 1, at $: expected a variant of 'obj_shape', found null");
    FAILS_AT(obj_shape, "{1: 2}", ATD_ERR_SYNTAX, 1, 2, "$",
             "line 1, column 2, at $: expected an object key, found 1");
    FAILS_AT(obj_shape, "{\"Size\" 1}", ATD_ERR_SYNTAX, 1, 9, "$",
             "line 1, column 9, at $: expected ':', found 1");
    FAILS_AT(obj_shape, "{\n  \"Inner\": [{\"Size\": \"x\"}]\n}", ATD_ERR_TYPE, 2, 22,
             "$.Inner[0].Size",
             "line 2, column 22, at $.Inner[0].Size: expected an integer, found \"x\"");
    FAILS_AT(obj_shape, "{\n  \"Box\": {\"h\": 1}\n}", ATD_ERR_MISSING_FIELD, 2, 10, "$.Box",
             "line 2, column 10, at $.Box: missing field 'w' in record 'obj_shape_Box'");
    /* writing: a failure inside the argument pushes the constructor's name */
    {
        everything_obj_shape v;
        atd_buf b;
        atd_error e;
        atd_buf_init(&b);
        everything_obj_shape_init(&v);
        v.tag = EVERYTHING_OBJ_SHAPE_PAIR;
        v.u.Pair.f1 = (double)INFINITY;
        ck_assert_int_eq(everything_obj_shape_to_json(&v, &b, &e), ATD_ERR_NONFINITE);
        ck_assert_str_eq(e.message, "at $.Pair[1]: cannot write infinity as JSON");
        ck_assert_uint_eq(b.len, 0);
        atd_buf_free(&b);
    }
}
END_TEST

/* The error matrix: for each construct of everything.atd, the exact error
 * (code, line, column, path, message) of a typical wrong input, on several
 * lines so that line and column mean something. */
START_TEST(test_error_matrix)
{
    /* record: missing field, reported where the object starts */
    FAILS_AT(fields, "{\n  \"req_int\": 1,\n  \"req_unit\": null\n}", ATD_ERR_MISSING_FIELD, 1,
             1, "$", "line 1, column 1, at $: missing field 'req_nullable' in record 'fields'");
    /* wrong type, for each scalar kind */
    FAILS_AT(struct_, "{\n  \"union\": 1.5,\n  \"switch\": \"s\"\n}", ATD_ERR_TYPE, 2, 12,
             "$.union", "line 2, column 12, at $.union: expected an integer, found 1.5");
    FAILS_AT(rect, "{\n  \"width\": 1,\n  \"height\": []\n}", ATD_ERR_TYPE, 3, 13, "$.height",
             "line 3, column 13, at $.height: expected a number, found '['");
    FAILS_AT(struct_, "{\n  \"union\": 1,\n  \"switch\": 2\n}", ATD_ERR_TYPE, 3, 13, "$.switch",
             "line 3, column 13, at $.switch: expected a string, found 2");
    FAILS_AT(derived, "{\n  \"kind_id\": 1,\n  \"extra\": 1\n}", ATD_ERR_TYPE, 3, 12, "$.extra",
             "line 3, column 12, at $.extra: expected a boolean, found 1");
    FAILS_AT(fields, "{\n  \"req_int\": 1,\n  \"req_nullable\": null,\n  \"req_unit\": 0\n}",
             ATD_ERR_TYPE, 4, 15, "$.req_unit",
             "line 4, column 15, at $.req_unit: expected null, found 0");
    /* narrow ints: one overflow per <c repr> */
    FAILS_AT(reprs, "{\n  \"c_int32\": 2147483648\n}", ATD_ERR_RANGE, 2, 14, "$.c_int32",
             "line 2, column 14, at $.c_int32: integer 2147483648 out of range "
             "[-2147483648, 2147483647]");
    FAILS_AT(reprs, "{\n  \"c_uint8\": -1\n}", ATD_ERR_RANGE, 2, 14, "$.c_uint8",
             "line 2, column 14, at $.c_uint8: integer -1 out of range [0, 255]");
    FAILS_AT(reprs, "{\n  \"c_int8_list\": [0,\n    -129]\n}", ATD_ERR_RANGE, 3, 5,
             "$.c_int8_list[1]",
             "line 3, column 5, at $.c_int8_list[1]: integer -129 out of range [-128, 127]");
    FAILS_AT(reprs, "{\n  \"c_int16\": 32768\n}", ATD_ERR_RANGE, 2, 14, "$.c_int16",
             "line 2, column 14, at $.c_int16: integer 32768 out of range [-32768, 32767]");
    FAILS_AT(reprs, "{\n  \"c_uint16\": 65536\n}", ATD_ERR_RANGE, 2, 15, "$.c_uint16",
             "line 2, column 15, at $.c_uint16: integer 65536 out of range [0, 65535]");
    FAILS_AT(reprs, "{\n  \"c_uint32\": 4294967296\n}", ATD_ERR_RANGE, 2, 15, "$.c_uint32",
             "line 2, column 15, at $.c_uint32: integer 4294967296 out of range [0, 4294967295]");
    FAILS_AT(reprs, "{\n  \"c_int64\": 9223372036854775808\n}", ATD_ERR_RANGE, 2, 14,
             "$.c_int64",
             "line 2, column 14, at $.c_int64: integer 9223372036854775808 out of range");
    /* variants */
    FAILS_AT(level, "\n  \"Low\"", ATD_ERR_BAD_VARIANT, 2, 3, "$",
             "line 2, column 3, at $: unsupported variant \"Low\" in 'level'");
    FAILS_AT(shape, "[\n  \"Nested\",\n  [\"Circle\"]\n]", ATD_ERR_BAD_VARIANT, 3, 4, "$[1][0]",
             "line 3, column 4, at $[1][0]: unsupported variant \"Circle\" in 'shape'");
    FAILS_AT(shape, "[\n  \"Nested\",\n  [[\"Point\"]]\n]", ATD_ERR_BAD_VARIANT, 3, 5, "$[1][0]",
             "line 3, column 5, at $[1][0]: unsupported variant \"Point\" with an argument in "
             "'shape'");
    /* options and nullables */
    FAILS_AT(options, "{\n  \"opt\": \"Some\"\n}", ATD_ERR_BAD_VARIANT, 2, 10, "$.opt",
             "line 2, column 10, at $.opt: expected \"None\" or [\"Some\", ...], found \"Some\"");
    FAILS_AT(options, "{\n  \"opt\": [\"None\"]\n}", ATD_ERR_BAD_VARIANT, 2, 11, "$.opt",
             "line 2, column 11, at $.opt: expected \"Some\", found \"None\"");
    FAILS_AT(options, "{\n  \"opt\": []\n}", ATD_ERR_BAD_VARIANT, 2, 10, "$.opt",
             "line 2, column 10, at $.opt: expected [\"Some\", ...], found an empty array");
    FAILS_AT(options, "{\n  \"opt\": [ \"Some\"]\n}", ATD_ERR_BAD_VARIANT, 2, 12, "$.opt",
             "line 2, column 12, at $.opt: \"Some\" needs an argument");
    FAILS_AT(options, "{\n  \"opt\": [\"Some\", 1, 2]\n}", ATD_ERR_BAD_VARIANT, 2, 21, "$.opt",
             "line 2, column 21, at $.opt: expected ']' after the argument of \"Some\"");
    FAILS_AT(options, "{\n  \"opt\": [1]\n}", ATD_ERR_TYPE, 2, 11, "$.opt[0]",
             "line 2, column 11, at $.opt[0]: expected a string, found 1");
    FAILS_AT(options, "{\n  \"opt\": null\n}", ATD_ERR_TYPE, 2, 10, "$.opt",
             "line 2, column 10, at $.opt: expected an option (\"None\" or [\"Some\", ...]), "
             "found null");
    FAILS_AT(options, "{\n  \"nul\": \"null\"\n}", ATD_ERR_TYPE, 2, 10, "$.nul",
             "line 2, column 10, at $.nul: expected an integer, found \"null\"");
    FAILS_AT(options, "{\n  \"opt_nul\": [\"Some\", null]\n}", ATD_ERR_TYPE, 2, 23,
             "$.opt_nul[1]", "line 2, column 23, at $.opt_nul[1]: expected an integer, found null");
    /* tuples, open enums, association objects */
    FAILS_AT(with_defaults, "[\n  1\n]", ATD_ERR_TUPLE, 1, 1, "$",
             "line 1, column 1, at $: expected at least 2 tuple elements, found 1");
    FAILS_AT(color, "\n[\"Other\", \"x\"]", ATD_ERR_TYPE, 2, 1, "$",
             "line 2, column 1, at $: expected a variant of 'color', found '['");
    FAILS_AT(reprs, "{\n  \"assoc_object\": {\n    1: 2\n  }\n}", ATD_ERR_SYNTAX, 3, 5,
             "$.assoc_object", "line 3, column 5, at $.assoc_object: expected an object key, found 1");
    /* the document: trailing data, empty input */
    FAILS_AT(mode, "\"On\"\n  x", ATD_ERR_TRAILING, 2, 3, "$",
             "line 2, column 3, at $: unexpected x after the JSON value");
    FAILS_AT(mode, "", ATD_ERR_EOF, 1, 1, "$", "line 1, column 1, at $: unexpected end of input");
    FAILS_AT(mode, "  \n ", ATD_ERR_EOF, 2, 2, "$", "line 2, column 2, at $: unexpected end of input");
    /* strings: invalid UTF-8, lone surrogates (atdc rejects both halves) */
    FAILS_AT(pair, "[\n  \"a\xff\", 1\n]", ATD_ERR_UTF8, 2, 5, "$[0]",
             "line 2, column 5, at $[0]: invalid UTF-8 byte 0xff in string");
    FAILS_AT(pair, "[\n  \"\\ud800\", 1\n]", ATD_ERR_STRING, 2, 4, "$[0]",
             "line 2, column 4, at $[0]: lone surrogate '\\ud800' in string");
    FAILS_AT(pair, "[\n  \"\\udc00\", 1\n]", ATD_ERR_STRING, 2, 4, "$[0]",
             "line 2, column 4, at $[0]: lone surrogate '\\udc00' in string");
    /* abstract: nesting deeper than ATD_DEFAULT_MAX_DEPTH */
    {
        static char deep[2 * ATD_DEFAULT_MAX_DEPTH + 8];
        size_t n = 0;
        everything_json_value v;
        atd_error e;
        deep[n++] = '\n';
        for (int i = 0; i < ATD_DEFAULT_MAX_DEPTH + 1; i++)
            deep[n++] = '[';
        for (int i = 0; i < ATD_DEFAULT_MAX_DEPTH + 1; i++)
            deep[n++] = ']';
        ck_assert_int_eq(everything_json_value_from_json(deep, n, arena, &v, &e), ATD_ERR_DEPTH);
        ck_assert_uint_eq(e.line, 2);
        ck_assert_uint_eq(e.column, ATD_DEFAULT_MAX_DEPTH + 1);
        ck_assert_msg(strncmp(e.path, "$...[0][0]", 10) == 0, "%s", e.path);
        ck_assert_msg(strstr(e.message, "line 2, column 1025, at $...[0]") == e.message, "%s",
                      e.message);
        ck_assert_msg(strstr(e.message, "]: nesting deeper than 1024") != NULL, "%s", e.message);
    }
}
END_TEST

/* Fixed-size pieces (ir_fixed): one reservation for the key and the value,
 * with the same bytes and the same errors as the checked writers. */
START_TEST(test_fixed_pieces)
{
    ECHO(reprs,
         "{\"assoc_object\":{},\"assoc_array\":[],\"assoc_label\":{},\"assoc_nested\":{},"
         "\"int_string\":1,\"float_int\":1,\"float_prec\":1,\"c_int32\":-2147483648,"
         "\"c_uint8\":0,\"c_int8_list\":[],\"c_int16\":-32768,\"c_uint16\":65535,"
         "\"c_uint32\":4294967295,\"c_int64\":-9223372036854775808,\"c_float\":-1e-300,"
         "\"c_both\":0,\"raw\":null,\"raw_list\":[]}",
         "{\"assoc_object\":{},\"assoc_array\":[],\"assoc_label\":{},\"assoc_nested\":{},"
         "\"int_string\":\"1\",\"float_int\":1,\"float_prec\":1.0,\"c_int32\":-2147483648,"
         "\"c_uint8\":0,\"c_int8_list\":[],\"c_int16\":-32768,\"c_uint16\":65535,"
         "\"c_uint32\":4294967295,\"c_int64\":-9223372036854775808,\"c_float\":-0.0,"
         "\"c_both\":0.0,\"raw\":null,\"raw_list\":[]}");
    ECHO(matrix, "[[1e300,-2.5e-308],[],[0.1]]", "[[1e+300,-2.5e-308],[],[0.1]]");
    /* rows written two floats at a time, then the odd one */
    ECHO(matrix, "[[1,-2,3],[0.5,-0.25,1e-7,4,5e-324],[0,-0.0,2.5,1.5]]",
         "[[1.0,-2.0,3.0],[0.5,-0.25,1e-07,4.0,5e-324],[0.0,-0.0,2.5,1.5]]");
    ECHO(with_defaults, "[-1,\"\",2,-0.0]", "[-1,\"\",2,-0.0]");
    ECHO(single, "[-9223372036854775808]", "[-9223372036854775808]");
    {
        everything_matrix m;
        everything_float_list row;
        double cells[2] = {1.0, (double)NAN};
        atd_buf b;
        atd_error e;
        atd_buf_init(&b);
        row.items = cells;
        row.len = 2;
        m.items = &row;
        m.len = 1;
        ck_assert_int_eq(everything_matrix_to_json(&m, &b, &e), ATD_ERR_NONFINITE);
        ck_assert_str_eq(e.message, "at $[0][1]: cannot write NaN as JSON");
        ck_assert_uint_eq(b.len, 0);
        /* the first of a pair, and the odd one after the pairs */
        double three[3] = {(double)INFINITY, 2.0, 3.0};
        row.items = three;
        row.len = 3;
        ck_assert_int_eq(everything_matrix_to_json(&m, &b, &e), ATD_ERR_NONFINITE);
        ck_assert_str_eq(e.message, "at $[0][0]: cannot write infinity as JSON");
        three[0] = 1.0;
        three[2] = (double)NAN;
        ck_assert_int_eq(everything_matrix_to_json(&m, &b, &e), ATD_ERR_NONFINITE);
        ck_assert_str_eq(e.message, "at $[0][2]: cannot write NaN as JSON");
        ck_assert_uint_eq(b.len, 0);
        atd_buf_free(&b);
    }
    {
        everything_fields f;
        atd_buf b;
        atd_error e;
        atd_buf_init(&b);
        everything_fields_init(&f);
        f.ex_ctor = (everything_mode)7;
        ck_assert_int_eq(everything_fields_to_json(&f, &b, &e), ATD_ERR_INVALID);
        ck_assert_str_eq(e.message, "at $.ex_ctor: invalid constructor tag for 'mode'");
        ck_assert_uint_eq(b.len, 0);
        atd_buf_free(&b);
    }
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

/* The runtime's document entry points with a type's read_any/write_any and
 * flags: what the typed from_json/to_json cannot pass. */
START_TEST(test_entry_points)
{
    static const char in[] = "{\"width\":1,\"height\":2,\"depth\":3}";
    everything_rect r;
    everything_all_optional o = {false, 0, false, {NULL, 0}};
    atd_error e;
    atd_buf b;
    atd_buf_init(&b);
    ck_assert_int_eq(atd_from_json(in, sizeof in - 1, arena, everything_rect_read_any, &r, &e), 0);
    ck_assert(r.width == 1.0 && r.height == 2.0);
    ck_assert_int_eq(atd_from_json_flags(in, sizeof in - 1, arena, ATD_READ_STRICT_FIELDS,
                                         everything_rect_read_any, &r, &e),
                     ATD_ERR_UNKNOWN_FIELD);
    ck_assert_str_eq(e.message, "line 1, column 31, at $: unknown field \"depth\" in record 'rect'");
    /* a typo of a field's name gets a suggestion */
    static const char typo[] = "{\"width\":1,\"heigth\":2}";
    ck_assert_int_eq(atd_from_json_flags(typo, sizeof typo - 1, arena, ATD_READ_STRICT_FIELDS,
                                         everything_rect_read_any, &r, &e),
                     ATD_ERR_UNKNOWN_FIELD);
    ck_assert_str_eq(e.detail,
                     "unknown field \"heigth\" in record 'rect'; did you mean \"height\"?");
    /* ~ fields equal to their default: omitted, or written with ATD_WRITE_DEFAULTS */
    ck_assert_int_eq(atd_to_json(everything_all_optional_write_any, &o, &b, &e), 0);
    ck_assert_int_eq(atd_to_json_flags(everything_all_optional_write_any, &o, ATD_WRITE_DEFAULTS,
                                       &b, &e),
                     0);
    ck_assert_uint_eq(b.len, 2 + 18);
    ck_assert_int_eq(memcmp(b.data, "{}{\"b\":false,\"c\":[]}", b.len), 0);
    atd_buf_free(&b);
}
END_TEST

/* Reads doc (n bytes, with flags) with `read` into v and writes that with
 * `write` into got (emptied first); with want, checks that the output is
 * want's bytes. `what` names the case in failure messages. */
static void check_reads_as(const char *doc, size_t n, unsigned flags, atd_read_fn read,
                           atd_write_fn write, void *v, const atd_buf *want, atd_buf *got,
                           const char *what)
{
    atd_error e;
    ck_assert_msg(atd_from_json_flags(doc, n, arena, flags, read, v, &e) == 0, "%s: %s", what,
                  e.message);
    got->len = 0;
    ck_assert_int_eq(atd_to_json(write, v, got, &e), 0);
    if (want != NULL)
        ck_assert_msg(got->len == want->len && memcmp(got->data, want->data, want->len) == 0,
                      "%s: read %.*s", what, (int)got->len, got->data);
}

/* Whether a scan of JSON text is inside a string, after the bytes given
 * to string_state_step one by one: the opening quote is inside, the
 * closing one outside. */
typedef struct string_state {
    bool in_string, escaped;
} string_state;

static void string_state_step(string_state *st, char c)
{
    if (!st->in_string)
        st->in_string = c == '"';
    else if (st->escaped)
        st->escaped = false;
    else if (c == '\\')
        st->escaped = true;
    else if (c == '"')
        st->in_string = false;
}

/* Lenient mode: a comment (with whitespace around it, in the forms that
 * take the readers' inline and out-of-line paths) anywhere between two
 * tokens of json changes nothing that the reader `read` reads (compared
 * through `write`'s compact output). The inline whitespace skips of the
 * generated readers may stop at a '/'; this checks that every place that
 * does then skips the comment. Returns the number of documents read. */
static size_t comments_sweep(const char *json, size_t len, atd_read_fn read, atd_write_fn write,
                             void *v)
{
    static const char *const comments[] = {"/**/", "//x\n", " /* } ] , : */ ", "\n  /**/",
                                           "/**/\n      ", "\n//\n   ", " // \" \n"};
    atd_buf want, got;
    atd_buf_init(&want);
    atd_buf_init(&got);
    check_reads_as(json, len, 0, read, write, v, NULL, &want, "as it is");
    char *doc = malloc(len + 32);
    ck_assert_ptr_nonnull(doc);
    size_t tried = 0;
    string_state st = {false, false};
    for (size_t i = 0; i <= len; i++) {
        /* between two tokens: next to a bracket, a ',' or a ':' outside strings */
        char before = i > 0 ? json[i - 1] : '{', at = i < len ? json[i] : '}';
        if (i > 0)
            string_state_step(&st, before);
        if (st.in_string)
            continue;
        if (!strchr("{}[],:", before) && !strchr("{}[],:", at))
            continue;
        for (size_t k = 0; k < sizeof comments / sizeof *comments; k++) {
            size_t n = strlen(comments[k]);
            memcpy(doc, json, i);
            memcpy(doc + i, comments[k], n);
            memcpy(doc + i + n, json + i, len - i);
            char what[64];
            snprintf(what, sizeof what, "comment %zu at byte %zu", k, i);
            check_reads_as(doc, len + n, ATD_READ_LENIENT, read, write, v, &want, &got, what);
            tried++;
        }
        atd_arena_reset(arena);
    }
    free(doc);
    atd_buf_free(&want);
    atd_buf_free(&got);
    return tried;
}

START_TEST(test_comments_anywhere)
{
    /* every construct */
    size_t len;
    char *json = test_read_file(ATD_SOURCE_DIR "/tests/conformance/everything_root.json", &len);
    everything_root root;
    ck_assert_uint_gt(comments_sweep(json, len, everything_root_read_any,
                                     everything_root_write_any, &root),
                      1000);
    free(json);
    /* optional fields given as null, which read as absent */
    static const char nulls[] =
        "{\"req_int\":1,\"req_nullable\":null,\"req_unit\":null,\"opt_option\":null,"
        "\"opt_nullable\":null,\"opt_alias\":null,\"def_bool\":null,\"def_int\":null,"
        "\"def_string\":null,\"def_list\":null,\"def_option\":null,\"ex_true\":null}";
    everything_fields fields;
    ck_assert_uint_gt(comments_sweep(nulls, sizeof nulls - 1, everything_fields_read_any,
                                     everything_fields_write_any, &fields),
                      100);
}
END_TEST

/* Appends a newline and 0 to 40 spaces (from *seed; 8 or 20 three times
 * in four) at out + n; returns the new length. */
static size_t put_indentation(char *out, size_t n, uint64_t *seed)
{
    *seed = *seed * 6364136223846793005u + 1442695040888963407u;
    unsigned spaces = (unsigned)(*seed >> 33) % 41;
    if ((*seed >> 20) % 4 != 0)
        spaces = (unsigned)(*seed >> 40) % 2 ? 8 : 20;
    out[n++] = '\n';
    memset(out + n, ' ', spaces);
    return n + spaces;
}

/* Copies json (len bytes) to out with an indentation (put_indentation)
 * before every closing bracket and after every opening one, ',' and ':'
 * outside strings; returns the length. Lines at one level then mostly
 * share their indentation, as in pretty-printed input, but not always. */
static size_t relayout(const char *json, size_t len, uint64_t seed, char *out)
{
    size_t n = 0;
    string_state st = {false, false};
    for (size_t i = 0; i < len; i++) {
        char c = json[i];
        bool structural = !st.in_string && strchr("{}[],:", c) != NULL;
        bool closing = c == '}' || c == ']';
        if (structural && closing)
            n = put_indentation(out, n, &seed);
        out[n++] = c;
        if (structural && !closing)
            n = put_indentation(out, n, &seed);
        string_state_step(&st, c);
    }
    return n;
}

/* The inline whitespace skip moves the cursor by the indentation it last
 * found at the same level and checks that guess: any indentation, the
 * guess right or wrong, reads the same values. */
START_TEST(test_indentation_guesses)
{
    size_t len;
    char *json = test_read_file(ATD_SOURCE_DIR "/tests/conformance/everything_root.json", &len);
    everything_root root;
    atd_buf want, got;
    atd_buf_init(&want);
    atd_buf_init(&got);
    check_reads_as(json, len, 0, everything_root_read_any, everything_root_write_any, &root, NULL,
                   &want, "as it is");
    char *doc = malloc(len * 90 + 1);
    ck_assert_ptr_nonnull(doc);
    for (uint64_t seed = 1; seed <= 64; seed++) {
        char what[32];
        snprintf(what, sizeof what, "seed %u", (unsigned)seed);
        check_reads_as(doc, relayout(json, len, seed, doc), 0, everything_root_read_any,
                       everything_root_write_any, &root, &want, &got, what);
        atd_arena_reset(arena);
    }
    free(doc);
    free(json);
    atd_buf_free(&want);
    atd_buf_free(&got);
}
END_TEST

Suite *everything_suite(void);
Suite *everything_suite(void)
{
    Suite *s = suite_create("everything");
    TCase *tc = tcase_create("generated");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_sums);
    tcase_add_test(tc, test_indentation_guesses);
    tcase_add_test(tc, test_fields);
    tcase_add_test(tc, test_names_and_inherit);
    tcase_add_test(tc, test_tuples_options);
    tcase_add_test(tc, test_reprs);
    tcase_add_test(tc, test_generics_recursion);
    tcase_add_test(tc, test_write_errors);
    tcase_add_test(tc, test_sum_repr_object);
    tcase_add_test(tc, test_error_matrix);
    tcase_add_test(tc, test_fixed_pieces);
    tcase_add_test(tc, test_entry_points);
    tcase_add_test(tc, test_comments_anywhere);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(everything_suite)
