/* Tests of cw.c, the code writer: indentation by nesting, and the joining of
 * an `if` block whose body is one jump into one line, only where that keeps
 * the same meaning (no else, no second statement, no declaration) and the
 * line stays within 100 columns. */
#include "test_main.h"

#include <string.h>

#include "emit/cw.h"

static cw w;

static void setup(void)
{
    cw_init(&w);
}

static void teardown(void)
{
    cw_free(&w);
}

/* The text written so far, which must equal want. */
static void written(const char *want)
{
    ck_assert_int_eq(w.out.status, 0);
    ck_assert_msg(w.out.len == strlen(want) && memcmp(w.out.data, want, w.out.len) == 0,
                  "wrote:\n%.*s\nwanted:\n%s", (int)w.out.len, w.out.data, want);
}

START_TEST(test_nesting_indents)
{
    cw_open(&w, "int f(void)");
    cw_line(&w, "int x = %d;", 1);
    cw_open(&w, "while (x < 3)");
    cw_line(&w, "x++;");
    cw_close(&w, "}");
    cw_line(&w, "return x;");
    cw_close(&w, "}");
    cw_end_item(&w);
    written("int f(void) {\n    int x = 1;\n    while (x < 3) {\n        x++;\n    }\n"
            "    return x;\n}\n");
}
END_TEST

START_TEST(test_if_with_one_jump_is_one_line)
{
    cw_open(&w, "{");
    cw_open(&w, "if (p == NULL)");
    cw_line(&w, "return NULL;");
    cw_close(&w, "}");
    cw_open(&w, "if (!more)");
    cw_line(&w, "goto end;");
    cw_close(&w, "}");
    cw_open(&w, "if (done)");
    cw_line(&w, "break;");
    cw_close(&w, "}");
    /* a braced line that ends with a jump */
    cw_open(&w, "if (q == NULL)");
    cw_line(&w, "{ f = 3; goto fail; }");
    cw_close(&w, "}");
    cw_close(&w, "}");
    written("{\n    if (p == NULL) return NULL;\n    if (!more) goto end;\n    if (done) break;\n"
            "    if (q == NULL) { f = 3; goto fail; }\n}\n");
}
END_TEST

START_TEST(test_other_blocks_keep_their_braces)
{
    /* not a jump: a declaration would change scope, a call is left alone */
    cw_open(&w, "if (a)");
    cw_line(&w, "int x = 0;");
    cw_close(&w, "}");
    /* two statements */
    cw_open(&w, "if (b)");
    cw_line(&w, "p += 2;");
    cw_line(&w, "goto field_1;");
    cw_close(&w, "}");
    /* a braced line that does not end with a jump */
    cw_open(&w, "if (g)");
    cw_line(&w, "{ goto x; f = 3; }");
    cw_close(&w, "}");
    /* an else branch */
    cw_open(&w, "if (c)");
    cw_line(&w, "return 1;");
    cw_mid(&w, "} else {");
    cw_line(&w, "return 2;");
    cw_close(&w, "}");
    /* not an if */
    cw_open(&w, "while (d)");
    cw_line(&w, "continue;");
    cw_close(&w, "}");
    /* a nested block: the inner one is joined, the outer keeps its braces */
    cw_open(&w, "if (e)");
    cw_open(&w, "if (f)");
    cw_line(&w, "return 3;");
    cw_close(&w, "}");
    cw_close(&w, "}");
    written("if (a) {\n    int x = 0;\n}\n"
            "if (b) {\n    p += 2;\n    goto field_1;\n}\n"
            "if (g) {\n    { goto x; f = 3; }\n}\n"
            "if (c) {\n    return 1;\n} else {\n    return 2;\n}\n"
            "while (d) {\n    continue;\n}\n"
            "if (e) {\n    if (f) return 3;\n}\n");
}
END_TEST

START_TEST(test_long_lines_are_not_joined)
{
    char cond[80], body[40];
    memset(cond, 'x', sizeof cond - 1);
    cond[sizeof cond - 1] = 0;
    memset(body, 'y', sizeof body - 1);
    body[sizeof body - 1] = 0;
    cw_open(&w, "if (%s)", cond);
    cw_line(&w, "return %s;", body);
    cw_close(&w, "}");
    ck_assert_ptr_nonnull(memchr(w.out.data, '{', w.out.len));
    ck_assert_ptr_nonnull(memchr(w.out.data, '}', w.out.len));
    /* at 100 columns exactly it is joined */
    cw_free(&w);
    cw_init(&w);
    cond[100 - strlen("if () return ;") - (sizeof body - 1)] = 0;
    cw_open(&w, "if (%s)", cond);
    cw_line(&w, "return %s;", body);
    cw_close(&w, "}");
    ck_assert_int_eq(w.out.len, 101);
    ck_assert_ptr_null(memchr(w.out.data, '{', w.out.len));
}
END_TEST

START_TEST(test_lit_gives_the_literal_and_its_length)
{
    ck_assert_str_eq(cw_lit(&w, "a\"b", 3), "ATD_LIT(\"a\\\"b\")");
    ck_assert_str_eq(cw_lit(&w, "", 0), "ATD_LIT(\"\")");
}
END_TEST

static Suite *cw_suite(void)
{
    Suite *s = suite_create("cw");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_nesting_indents);
    tcase_add_test(tc, test_if_with_one_jump_is_one_line);
    tcase_add_test(tc, test_other_blocks_keep_their_braces);
    tcase_add_test(tc, test_long_lines_are_not_joined);
    tcase_add_test(tc, test_lit_gives_the_literal_and_its_length);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(cw_suite)
