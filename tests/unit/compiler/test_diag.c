/* Tests of diag.c through a capturing sink: the gcc-style first line, the
 * quoted source line and its caret range (one line, several lines, tabs,
 * control bytes, a location past the end), notes (quoted unless at the
 * error's own place, dropped with a dropped error), the error limit, and the
 * deferred mode that sorts a stage's reports into source order. */
#include "test_main.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

/* Everything the sink received, and how many calls: one per diagnostic. */
typedef struct capture {
    char text[8192];
    size_t len;
    int calls;
} capture;

static void capture_sink(void *ctx, const char *text, size_t len)
{
    capture *c = ctx;
    ck_assert_uint_lt(c->len + len, sizeof c->text);
    memcpy(c->text + c->len, text, len);
    c->len += len;
    c->text[c->len] = '\0';
    c->calls++;
}

static capture cap;
static diag_ctx d;

static void setup(void)
{
    memset(&cap, 0, sizeof cap);
    diag_init(&d);
    d.sink = capture_sink;
    d.sink_ctx = &cap;
}

static void teardown(void)
{
    diag_free(&d);
}

/* A location in "f.atd" from line:col to end_line:end_col, with offsets
 * computed in `text`. */
static ast_loc at(const char *text, int line, int col, int end_line, int end_col)
{
    ast_loc l = {"f.atd", line, col, end_line, end_col, 0, 0};
    size_t off = 0;
    int ln = 1;
    for (size_t i = 0; text[i] != '\0'; i++) {
        if (ln == line && (int)(i - off) == col - 1)
            l.offset = i;
        if (ln == end_line && (int)(i - off) == end_col - 1)
            l.end_offset = i;
        if (text[i] == '\n') {
            ln++;
            off = i + 1;
        }
    }
    if (ln == end_line && (size_t)(end_col - 1) == strlen(text) - off)
        l.end_offset = strlen(text);
    return l;
}

static void expect(const char *want)
{
    ck_assert_msg(strcmp(cap.text, want) == 0, "got:\n%s\nwanted:\n%s", cap.text, want);
}

START_TEST(test_error_with_range)
{
    static const char src[] = "type t = int\ntype person = { name: string }\n";
    diag_add_source(&d, "f.atd", src, sizeof src - 1);
    diag_error(&d, at(src, 2, 6, 2, 12), "type '%s' is defined twice", "person");
    expect("f.atd:2:6: error: type 'person' is defined twice\n"
           "    2 | type person = { name: string }\n"
           "      |      ^~~~~~\n");
    ck_assert_int_eq(d.errors, 1);
    ck_assert_int_eq(d.warnings, 0);
    ck_assert_int_eq(cap.calls, 1); /* one call per diagnostic */
}
END_TEST

START_TEST(test_warning_single_caret_and_multiline)
{
    static const char src[] = "type r = {\n  a : int\n}\n";
    diag_add_source(&d, "f.atd", src, sizeof src - 1);
    /* A range over several lines gets a single caret at its start. */
    diag_warning(&d, at(src, 1, 10, 3, 2), "spans %d lines", 3);
    expect("f.atd:1:10: warning: spans 3 lines\n"
           "    1 | type r = {\n"
           "      |          ^\n");
    ck_assert_int_eq(d.warnings, 1);
    ck_assert_int_eq(d.errors, 0);
}
END_TEST

START_TEST(test_tabs_and_control_bytes)
{
    static const char src[] = "\ttype\tt = \x01int\n";
    diag_add_source(&d, "f.atd", src, sizeof src - 1);
    diag_error(&d, at(src, 1, 12, 1, 15), "x");
    /* Tabs are copied into the caret line; other control bytes are blanked. */
    expect("f.atd:1:12: error: x\n"
           "    1 | \ttype\tt =  int\n"
           "      | \t    \t     ^~~\n");
}
END_TEST

START_TEST(test_crlf_and_range_clipped_to_line)
{
    static const char src[] = "type t = int\r\n";
    diag_add_source(&d, "f.atd", src, sizeof src - 1);
    ast_loc l = at(src, 1, 10, 1, 13);
    l.end_offset = sizeof src - 1; /* past the CR: clipped to the shown line */
    diag_error(&d, l, "x");
    expect("f.atd:1:10: error: x\n"
           "    1 | type t = int\n"
           "      |          ^~~\n");
}
END_TEST

START_TEST(test_wide_line_numbers)
{
    ast_loc l = {"g.atd", 12345, 1, 12345, 2, 0, 1};
    static const char src[] = "x\n";
    diag_add_source(&d, "g.atd", src, sizeof src - 1);
    diag_error(&d, l, "deep");
    expect("g.atd:12345:1: error: deep\n"
           " 12345 | x\n"
           "       | ^\n");
}
END_TEST

START_TEST(test_no_source_no_file)
{
    ast_loc nofile = {NULL, 0, 0, 0, 0, 0, 0};
    diag_error(&d, nofile, "cannot open '%s'", "x.atd");
    ast_loc noline = {"h.atd", 0, 0, 0, 0, 0, 0};
    diag_error(&d, noline, "file too large");
    ast_loc unregistered = {"u.atd", 3, 4, 3, 5, 20, 21};
    diag_warning(&d, unregistered, "not quoted");
    expect("atdc: error: cannot open 'x.atd'\n"
           "h.atd: error: file too large\n"
           "u.atd:3:4: warning: not quoted\n");
}
END_TEST

START_TEST(test_location_past_end)
{
    static const char src[] = "type t =";
    diag_add_source(&d, "f.atd", src, sizeof src - 1);
    ast_loc l = {"f.atd", 1, 9, 1, 9, 8, 8}; /* zero width, at end of input */
    diag_error(&d, l, "unexpected end of file");
    ast_loc far = {"f.atd", 1, 9, 1, 9, 500, 500}; /* offset beyond the text */
    diag_error(&d, far, "clamped");
    expect("f.atd:1:9: error: unexpected end of file\n"
           "    1 | type t =\n"
           "      |         ^\n"
           "f.atd:1:9: error: clamped\n"
           "    1 | type t =\n"
           "      |         ^\n");
}
END_TEST

START_TEST(test_notes)
{
    static const char src[] = "type a = int\ntype a = bool\n";
    diag_add_source(&d, "f.atd", src, sizeof src - 1);
    ast_loc second = at(src, 2, 6, 2, 7);
    diag_error(&d, second, "type 'a' is defined twice");
    diag_note(&d, at(src, 1, 6, 1, 7), "first definition is here");
    diag_note(&d, second, "a note at the error's own place is not quoted again");
    expect("f.atd:2:6: error: type 'a' is defined twice\n"
           "    2 | type a = bool\n"
           "      |      ^\n"
           "f.atd:1:6: note: first definition is here\n"
           "    1 | type a = int\n"
           "      |      ^\n"
           "f.atd:2:6: note: a note at the error's own place is not quoted again\n");
    ck_assert_int_eq(d.errors, 1); /* notes are not counted */
}
END_TEST

START_TEST(test_long_message)
{
    char name[2000];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    ast_loc nofile = {NULL, 0, 0, 0, 0, 0, 0};
    diag_error(&d, nofile, "type '%s' is unknown", name);
    ck_assert_uint_eq(cap.len, strlen("atdc: error: type '' is unknown\n") + sizeof name - 1);
}
END_TEST

START_TEST(test_max_errors)
{
    d.max_errors = 2;
    ast_loc nofile = {NULL, 0, 0, 0, 0, 0, 0};
    diag_error(&d, nofile, "e1");
    diag_warning(&d, nofile, "w1"); /* warnings do not count toward the limit */
    diag_error(&d, nofile, "e2");
    ck_assert(!diag_should_stop(&d));
    diag_error(&d, nofile, "e3");
    diag_note(&d, nofile, "note of a dropped error");
    diag_error(&d, nofile, "e4");
    diag_warning(&d, nofile, "w2");
    ck_assert(diag_should_stop(&d));
    expect("atdc: error: e1\n"
           "atdc: warning: w1\n"
           "atdc: error: e2\n"
           "atdc: error: too many errors emitted, stopping now (use --max-errors N)\n");
    /* Everything is still counted, so the exit status stays right. */
    ck_assert_int_eq(d.errors, 4);
    ck_assert_int_eq(d.warnings, 2);
}
END_TEST

START_TEST(test_unlimited)
{
    d.max_errors = 0;
    ast_loc nofile = {NULL, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 100; i++)
        diag_error(&d, nofile, "e");
    ck_assert(!diag_should_stop(&d));
    ck_assert_int_eq(cap.calls, 100);
}
END_TEST

START_TEST(test_stderr_default)
{
    /* No sink: goes to stderr; only checks that nothing crashes. */
    diag_ctx e;
    diag_init(&e);
    ck_assert_int_eq(e.max_errors, 20);
    ast_loc nofile = {NULL, 0, 0, 0, 0, 0, 0};
    diag_warning(&e, nofile, "this warning on stderr is expected from unit_diag");
    ck_assert_int_eq(e.warnings, 1);
    diag_free(&e);
}
END_TEST

START_TEST(test_deferred_sorted)
{
    static const char src[] = "type a = x\ntype b = y\ntype c = z\n";
    diag_add_source(&d, "f.atd", src, sizeof src - 1);
    diag_defer_begin(&d);
    diag_error(&d, at(src, 3, 10, 3, 11), "third");
    diag_note(&d, at(src, 1, 6, 1, 7), "note of third");
    diag_warning(&d, at(src, 2, 10, 2, 11), "second");
    diag_error(&d, at(src, 1, 10, 1, 11), "first");
    diag_error(&d, at(src, 1, 10, 1, 11), "first again"); /* same place: report order */
    ast_loc nofile = {NULL, 0, 0, 0, 0, 0, 0};
    diag_error(&d, nofile, "no file: last");
    /* Counted at once, printed at the end. */
    ck_assert_int_eq(d.errors, 4);
    ck_assert_int_eq(d.warnings, 1);
    ck_assert_int_eq(cap.calls, 0);
    diag_defer_end(&d);
    expect("f.atd:1:10: error: first\n"
           "    1 | type a = x\n"
           "      |          ^\n"
           "f.atd:1:10: error: first again\n"
           "    1 | type a = x\n"
           "      |          ^\n"
           "f.atd:2:10: warning: second\n"
           "    2 | type b = y\n"
           "      |          ^\n"
           "f.atd:3:10: error: third\n"
           "    3 | type c = z\n"
           "      |          ^\n"
           "f.atd:1:6: note: note of third\n"
           "    1 | type a = x\n"
           "      |      ^\n"
           "atdc: error: no file: last\n");
    ck_assert_int_eq(d.errors, 4); /* not counted twice */
    ck_assert_int_eq(d.warnings, 1);
}
END_TEST

START_TEST(test_deferred_limit_keeps_first_in_source)
{
    static const char src[] = "type a = x\ntype b = y\ntype c = z\n";
    d.max_errors = 1;
    diag_defer_begin(&d);
    diag_error(&d, at(src, 3, 10, 3, 11), "late");
    diag_note(&d, at(src, 3, 6, 3, 7), "dropped with its error");
    diag_error(&d, at(src, 2, 10, 2, 11), "early");
    ck_assert(!diag_should_stop(&d));
    diag_defer_end(&d);
    expect("f.atd:2:10: error: early\n"
           "atdc: error: too many errors emitted, stopping now (use --max-errors N)\n");
    ck_assert(diag_should_stop(&d));
    ck_assert_int_eq(d.errors, 2);
}
END_TEST

START_TEST(test_deferred_note_before_anything_held)
{
    ast_loc nofile = {NULL, 0, 0, 0, 0, 0, 0};
    diag_error(&d, nofile, "printed before");
    diag_defer_begin(&d);
    diag_note(&d, nofile, "belongs to the printed one");
    ck_assert_int_eq(cap.calls, 2);
    diag_defer_end(&d);
    diag_defer_begin(&d);
    diag_defer_end(&d); /* nothing held */
    expect("atdc: error: printed before\n"
           "atdc: note: belongs to the printed one\n");
}
END_TEST

START_TEST(test_deferred_free_without_end)
{
    diag_defer_begin(&d);
    ast_loc nofile = {NULL, 0, 0, 0, 0, 0, 0};
    diag_error(&d, nofile, "held, never printed");
    /* teardown's diag_free releases what is held (checked by ASan/LSan). */
    ck_assert_int_eq(cap.calls, 0);
}
END_TEST

static Suite *diag_suite(void)
{
    Suite *s = suite_create("diag");
    TCase *tc = tcase_create("format");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_error_with_range);
    tcase_add_test(tc, test_warning_single_caret_and_multiline);
    tcase_add_test(tc, test_tabs_and_control_bytes);
    tcase_add_test(tc, test_crlf_and_range_clipped_to_line);
    tcase_add_test(tc, test_wide_line_numbers);
    tcase_add_test(tc, test_no_source_no_file);
    tcase_add_test(tc, test_location_past_end);
    tcase_add_test(tc, test_notes);
    tcase_add_test(tc, test_long_message);
    suite_add_tcase(s, tc);
    tc = tcase_create("limit");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_max_errors);
    tcase_add_test(tc, test_unlimited);
    tcase_add_test(tc, test_stderr_default);
    suite_add_tcase(s, tc);
    tc = tcase_create("deferred");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_deferred_sorted);
    tcase_add_test(tc, test_deferred_limit_keeps_first_in_source);
    tcase_add_test(tc, test_deferred_note_before_anything_held);
    tcase_add_test(tc, test_deferred_free_without_end);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(diag_suite)
