/* Tests of the <ocaml default> parser (check/check_default.c): the shape of
 * each value kind, nesting, OCaml's separators and trailing `;`, strings
 * holding separators, and the texts it must refuse (an expression, a sign
 * after a constructor, unclosed brackets, a record field without a value,
 * nesting past CHECK_DEFAULT_MAX_DEPTH). */
#include "test_main.h"

#include <string.h>

#include "check/check_default.h"

static atd_arena *arena;

static void setup(void)
{
    arena = atd_arena_new(0, NULL);
}

static void teardown(void)
{
    atd_arena_free(arena);
}

static check_default_value parse(const char *text, check_default_kind want)
{
    check_default_value v;
    check_default_kind k = check_default_parse(arena, text, strlen(text), &v);
    ck_assert_msg(k == want, "%s: kind %d, expected %d", text, (int)k, (int)want);
    return v;
}

START_TEST(test_scalars)
{
    ck_assert_int_eq(parse("(-3)", CHECK_DEFAULT_INT).i, -3);
    ck_assert(parse("2.", CHECK_DEFAULT_FLOAT).f == 2.0);
    ck_assert(!parse(" false ", CHECK_DEFAULT_BOOL).b);
    check_default_value s = parse("\"a;b,c\\n\"", CHECK_DEFAULT_STRING);
    ck_assert_uint_eq(s.len, 6);
    ck_assert_mem_eq(s.s, "a;b,c\n", 6);
    parse("( )", CHECK_DEFAULT_UNIT);
    parse("[ ]", CHECK_DEFAULT_EMPTY_LIST);
    parse("[| |]", CHECK_DEFAULT_EMPTY_LIST);
    ck_assert_str_eq(parse("None", CHECK_DEFAULT_NONE).name, "None");
    ck_assert_str_eq(parse("`None", CHECK_DEFAULT_CONSTRUCTOR).name, "None");
}
END_TEST

START_TEST(test_structures)
{
    check_default_value v = parse("Some (-3)", CHECK_DEFAULT_SOME);
    ck_assert_uint_eq(v.n, 1);
    ck_assert_int_eq(v.args[0].i, -3);
    v = parse("(Some(Some 1))", CHECK_DEFAULT_SOME);
    ck_assert_int_eq(v.args[0].kind, CHECK_DEFAULT_SOME);
    ck_assert_int_eq(v.args[0].args[0].i, 1);
    v = parse("`Circle 2.5", CHECK_DEFAULT_CONSTRUCTOR);
    ck_assert_str_eq(v.name, "Circle");
    ck_assert(v.n == 1 && v.args[0].f == 2.5);
    v = parse("[1; 2; 3;]", CHECK_DEFAULT_LIST);
    ck_assert_uint_eq(v.n, 3);
    ck_assert_int_eq(v.args[2].i, 3);
    v = parse("(1, \"a,b\", [Some 2; None])", CHECK_DEFAULT_TUPLE);
    ck_assert_uint_eq(v.n, 3);
    ck_assert_uint_eq(v.args[1].len, 3);
    ck_assert_int_eq(v.args[2].kind, CHECK_DEFAULT_LIST);
    ck_assert_int_eq(v.args[2].args[1].kind, CHECK_DEFAULT_NONE);
    v = parse("1, 2", CHECK_DEFAULT_TUPLE);
    ck_assert_uint_eq(v.n, 2);
    v = parse("{ rules = []; limit = Some {x = 1}; }", CHECK_DEFAULT_RECORD);
    ck_assert_uint_eq(v.n, 2);
    ck_assert_str_eq(v.labels[0], "rules");
    ck_assert_int_eq(v.args[0].kind, CHECK_DEFAULT_EMPTY_LIST);
    ck_assert_str_eq(v.labels[1], "limit");
    ck_assert_int_eq(v.args[1].args[0].kind, CHECK_DEFAULT_RECORD);
    ck_assert_str_eq(v.args[1].args[0].labels[0], "x");
}
END_TEST

START_TEST(test_refused)
{
    static const char *const bad[] = {
        "1 + 2",   "Some -3", "Some(",   "[1; 2",    "{x = }", "{x}", "{X = 1}",
        "[1;; 2]", "(1,)",    "max_int", "Some 3 4", "\"open", "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        parse(bad[i], CHECK_DEFAULT_INVALID);
    /* nesting within the limit, then past it */
    char deep[2 * CHECK_DEFAULT_MAX_DEPTH + 8];
    size_t n = 0;
    for (int i = 0; i < CHECK_DEFAULT_MAX_DEPTH; i++)
        deep[n++] = '[';
    deep[n++] = '1';
    for (int i = 0; i < CHECK_DEFAULT_MAX_DEPTH; i++)
        deep[n++] = ']';
    deep[n] = '\0';
    parse(deep, CHECK_DEFAULT_LIST);
    memmove(deep + 1, deep, n + 1);
    deep[0] = '[';
    deep[n + 1] = ']';
    deep[n + 2] = '\0';
    parse(deep, CHECK_DEFAULT_INVALID);
}
END_TEST

static Suite *default_values_suite(void)
{
    Suite *s = suite_create("default_values");
    TCase *tc = tcase_create("parse");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_scalars);
    tcase_add_test(tc, test_structures);
    tcase_add_test(tc, test_refused);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(default_values_suite)
