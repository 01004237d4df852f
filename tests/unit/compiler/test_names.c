/* Tests of names.c, the one place where schema names become C identifiers:
 * keywords and would-be macros get a trailing `_`, a leading `_` gets `x`,
 * the runtime's `atd_` prefix gets `x_`, primes become `_prime`, `<c name>`
 * replaces everything, upper-casing for enum constants, and the validity
 * test applied to `<c name>` values. */
#include "test_main.h"

#include <string.h>

#include "util/names.h"

static atd_arena *arena;

static void setup(void)
{
    arena = atd_arena_new(0, NULL);
    ck_assert_ptr_nonnull(arena);
}

static void teardown(void)
{
    atd_arena_free(arena);
    arena = NULL;
}

static void mangles_to(const char *atd, const char *want)
{
    const char *got = names_mangle(arena, atd);
    ck_assert_ptr_nonnull(got);
    ck_assert_msg(strcmp(got, want) == 0, "'%s' -> '%s', wanted '%s'", atd, got, want);
}

static bool is_kw(const char *s)
{
    return names_is_keyword(s, strlen(s));
}

static bool is_id(const char *s)
{
    return names_is_c_identifier(s, strlen(s));
}

START_TEST(test_plain_names_unchanged)
{
    mangles_to("point", "point");
    mangles_to("x", "x");
    mangles_to("v2", "v2");
    mangles_to("Off", "Off"); /* constructors keep their case */
    mangles_to("from", "from");
    mangles_to("import", "import");
    mangles_to("types", "types");
    mangles_to("atd", "atd");     /* only the `atd_` prefix is reserved */
    mangles_to("atdx_y", "atdx_y");
}
END_TEST

START_TEST(test_keywords_get_underscore)
{
    mangles_to("default", "default_");
    mangles_to("int", "int_");
    mangles_to("struct", "struct_");
    mangles_to("bool", "bool_");   /* <stdbool.h> macro */
    mangles_to("true", "true_");
    mangles_to("class", "class_"); /* C++ */
    mangles_to("and", "and_");     /* <iso646.h> */
    mangles_to("NULL", "NULL_");
    ck_assert(is_kw("while"));
    ck_assert(is_kw("alignof"));
    ck_assert(!is_kw("whilst"));
    ck_assert(!is_kw("whil"));
    ck_assert(!is_kw(""));
    ck_assert(!is_kw("point"));
    /* Counted: a keyword prefix of a longer buffer is not a keyword. */
    ck_assert(names_is_keyword("intx", 3));
    ck_assert(!names_is_keyword("int", 2));
}
END_TEST

START_TEST(test_leading_underscore_and_atd_prefix)
{
    mangles_to("_tmp", "x_tmp");
    mangles_to("_1", "x_1");
    mangles_to("__init__", "x__init__");
    mangles_to("_Bool", "x_Bool");
    mangles_to("atd_id", "x_atd_id");
    mangles_to("atd_", "x_atd_");
}
END_TEST

START_TEST(test_primes)
{
    mangles_to("x'", "x_prime");
    mangles_to("p''", "p_prime_prime");
    mangles_to("a'b", "a_primeb");
    /* A primed keyword is no keyword any more. */
    mangles_to("int'", "int_prime");
    mangles_to("_x'", "x_x_prime");
}
END_TEST

START_TEST(test_override)
{
    ck_assert_str_eq(names_c_name(arena, "default", "dflt"), "dflt");
    ck_assert_str_eq(names_c_name(arena, "default", NULL), "default_");
    ck_assert_str_eq(names_c_name(arena, "_x", NULL), "x_x");
}
END_TEST

START_TEST(test_upper)
{
    ck_assert_str_eq(names_upper(arena, "event_kind_Login"), "EVENT_KIND_LOGIN");
    ck_assert_str_eq(names_upper(arena, "a1_b2"), "A1_B2");
    ck_assert_str_eq(names_upper(arena, ""), "");
    /* The clash the checker must catch: type a_b + C and type a + B_c. */
    ck_assert_str_eq(names_upper(arena, "a_b_C"), names_upper(arena, "a_B_c"));
}
END_TEST

START_TEST(test_c_identifier_validity)
{
    ck_assert(is_id("x"));
    ck_assert(is_id("_x"));
    ck_assert(is_id("x_1"));
    ck_assert(is_id("Point"));
    ck_assert(!is_id(""));
    ck_assert(!is_id("1x"));
    ck_assert(!is_id("a-b"));
    ck_assert(!is_id("a b"));
    ck_assert(!is_id("x'"));
    ck_assert(!is_id("int"));
    ck_assert(!is_id("bool"));
    ck_assert(!is_id("__x")); /* reserved to the implementation */
    ck_assert(!is_id("_X"));
    ck_assert(!is_id("caf\xc3\xa9"));
    ck_assert(names_is_c_identifier("ab-", 2)); /* counted */
    /* Every mangled name is a valid identifier. */
    static const char *const samples[] = {"default", "_tmp", "atd_x", "x'", "p''", "class",
                                          "_", "a__b", "Off"};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        const char *m = names_mangle(arena, samples[i]);
        ck_assert_msg(is_id(m), "'%s' -> '%s' is not a valid C identifier", samples[i], m);
    }
}
END_TEST

static Suite *names_suite(void)
{
    Suite *s = suite_create("names");
    TCase *tc = tcase_create("mangle");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_plain_names_unchanged);
    tcase_add_test(tc, test_keywords_get_underscore);
    tcase_add_test(tc, test_leading_underscore_and_atd_prefix);
    tcase_add_test(tc, test_primes);
    tcase_add_test(tc, test_override);
    tcase_add_test(tc, test_upper);
    tcase_add_test(tc, test_c_identifier_validity);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(names_suite)
