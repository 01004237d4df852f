/* Tests of error reporting (error.c and the error half of reader.c): code
 * names and texts, line/column location, atd_error_set, and reader errors as
 * a generated reader produces them: a small hand-written reader for a nested
 * schema pushes field names and indexes while unwinding, and the tests check
 * the exact line, column, path and message on multi-line inputs. */
#include "test_main.h"

#include <atd.h>

#include <string.h>

/* --- codes --- */

START_TEST(test_error_code_names)
{
    ck_assert_str_eq(atd_error_code_name(ATD_ERR_OK), "OK");
    ck_assert_str_eq(atd_error_code_name(ATD_ERR_NOMEM), "NOMEM");
    ck_assert_str_eq(atd_error_code_name(ATD_ERR_EOF), "EOF");
    ck_assert_str_eq(atd_error_code_name(ATD_ERR_DEPTH), "DEPTH");
    ck_assert_str_eq(atd_error_code_name(ATD_ERR_INVALID), "INVALID");
    ck_assert_str_eq(atd_error_code_text(ATD_ERR_OK), "no error");
    ck_assert_str_eq(atd_error_code_text(ATD_ERR_UTF8), "invalid UTF-8");
    ck_assert_str_eq(atd_error_code_text(ATD_ERR_TRAILING), "unexpected data after the JSON value");
    ck_assert_str_eq(atd_error_code_name(ATD_ERR__COUNT), "UNKNOWN");
    ck_assert_str_eq(atd_error_code_name((atd_error_code)-1), "UNKNOWN");
    ck_assert_str_eq(atd_error_code_text((atd_error_code)999), "unknown error");
    /* Every code has a distinct, nonempty name. */
    for (int i = 0; i < ATD_ERR__COUNT; i++) {
        ck_assert(strlen(atd_error_code_name((atd_error_code)i)) > 0);
        ck_assert(strlen(atd_error_code_text((atd_error_code)i)) > 0);
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(atd_error_code_name((atd_error_code)i),
                             atd_error_code_name((atd_error_code)j));
    }
}
END_TEST

/* --- location --- */

static void locate(const char *s, size_t offset, size_t want_line, size_t want_col)
{
    size_t line = 0, col = 0;
    atd_error_locate(s, strlen(s), offset, &line, &col);
    ck_assert_msg(line == want_line && col == want_col, "offset %zu: %zu:%zu, wanted %zu:%zu",
                  offset, line, col, want_line, want_col);
}

START_TEST(test_error_locate)
{
    locate("", 0, 1, 1);
    locate("abc", 0, 1, 1);
    locate("abc", 2, 1, 3);
    locate("abc", 3, 1, 4);
    locate("ab\ncd", 2, 1, 3); /* the LF itself is on line 1 */
    locate("ab\ncd", 3, 2, 1);
    locate("ab\ncd", 4, 2, 2);
    locate("ab\r\ncd", 2, 1, 3);
    locate("ab\r\ncd", 3, 1, 4);
    locate("ab\r\ncd", 4, 2, 1);
    locate("a\n\n\nb", 4, 4, 1);
    locate("a\r\n\r\nb", 5, 3, 1);
    locate("a\rb", 2, 1, 3);     /* a lone CR is not a line break */
    locate("ab\ncd", 100, 2, 3); /* clamped to the end */
    /* Bytes, not characters. */
    locate("\xc3\xa9\xc3\xa9x", 4, 1, 5);
    /* NUL bytes do not stop the count. */
    size_t line, col;
    atd_error_locate("a\0\nb\0c", 6, 5, &line, &col);
    ck_assert_uint_eq(line, 2);
    ck_assert_uint_eq(col, 3);
    atd_error_locate(NULL, 0, 0, &line, &col);
    ck_assert_uint_eq(line, 1);
    ck_assert_uint_eq(col, 1);
    atd_error_locate("x\ny", 3, 3, NULL, NULL);
}
END_TEST

START_TEST(test_error_set)
{
    atd_error err;
    atd_error_set(&err, ATD_ERR_NONFINITE, "$.a[2]", "cannot write nan");
    ck_assert_int_eq(err.code, ATD_ERR_NONFINITE);
    ck_assert_uint_eq(err.line, 0);
    ck_assert_uint_eq(err.column, 0);
    ck_assert_str_eq(err.path, "$.a[2]");
    ck_assert_str_eq(err.message, "at $.a[2]: cannot write nan");
    atd_error_set(&err, ATD_ERR_IO, NULL, "disk full");
    ck_assert_str_eq(err.path, "");
    ck_assert_str_eq(err.message, "disk full");
    atd_error_set(&err, ATD_ERR_NOMEM, "", NULL);
    ck_assert_str_eq(err.message, "out of memory");
    ck_assert_str_eq(err.detail, "out of memory");
    atd_error_set(NULL, ATD_ERR_NOMEM, "", "ignored");
    /* Over-long parts are truncated, never overflowed. */
    char longpath[600], longdetail[900];
    memset(longpath, 'p', sizeof longpath - 1);
    longpath[sizeof longpath - 1] = '\0';
    memset(longdetail, 'd', sizeof longdetail - 1);
    longdetail[sizeof longdetail - 1] = '\0';
    atd_error_set(&err, ATD_ERR_INVALID, longpath, longdetail);
    ck_assert_uint_eq(strlen(err.path), ATD_ERROR_PATH_MAX - 1);
    ck_assert_uint_eq(strlen(err.message), ATD_ERROR_MESSAGE_MAX - 1);
    ck_assert_uint_eq(strlen(err.detail), ATD_ERROR_DETAIL_MAX - 1);
}
END_TEST

/* --- a hand-written reader, shaped like generated code ---
 *
 *   type event = { ?date : int; ?tags : string list }
 *   type item = [ Num of int | Event of event ]   (an int, or an object)
 *   type doc = { events : item list; ?meta : (string * int list) list <json repr="object"> }
 */

static bool read_tags(atd_reader *r)
{
    bool more;
    if (!atd_array_begin(r, &more))
        return false;
    for (size_t i = 0; more; i++) {
        atd_string s;
        if (!atd_read_string(r, &s))
            return atd_reader_push_index(r, i);
        if (!atd_array_next(r, &more))
            return false;
    }
    return true;
}

static bool read_event(atd_reader *r)
{
    bool more;
    if (!atd_object_begin(r, &more))
        return false;
    while (more) {
        atd_string key;
        if (!atd_object_key(r, &key))
            return false;
        if (key.len == 4 && memcmp(key.ptr, "date", 4) == 0) {
            int64_t v;
            if (!atd_read_int64(r, &v))
                return atd_reader_push_field(r, "date", 4);
        } else if (key.len == 4 && memcmp(key.ptr, "tags", 4) == 0) {
            if (!read_tags(r))
                return atd_reader_push_field(r, "tags", 4);
        } else if (!atd_skip_value(r)) {
            return atd_reader_push_field(r, key.ptr, key.len);
        }
        if (!atd_object_next(r, &more))
            return false;
    }
    return true;
}

static bool read_int_list(atd_reader *r)
{
    bool more;
    if (!atd_array_begin(r, &more))
        return false;
    for (size_t i = 0; more; i++) {
        int64_t v;
        if (!atd_read_int64(r, &v))
            return atd_reader_push_index(r, i);
        if (!atd_array_next(r, &more))
            return false;
    }
    return true;
}

static bool read_doc(atd_reader *r)
{
    bool more;
    if (!atd_object_begin(r, &more))
        return false;
    while (more) {
        atd_string key;
        if (!atd_object_key(r, &key))
            return false;
        if (key.len == 6 && memcmp(key.ptr, "events", 6) == 0) {
            bool more2;
            if (!atd_array_begin(r, &more2))
                return atd_reader_push_field(r, "events", 6);
            for (size_t i = 0; more2; i++) {
                int64_t v;
                bool ok = atd_peek(r) == '{' ? read_event(r) : atd_read_int64(r, &v);
                if (!ok) {
                    atd_reader_push_index(r, i);
                    return atd_reader_push_field(r, "events", 6);
                }
                if (!atd_array_next(r, &more2))
                    return atd_reader_push_field(r, "events", 6);
            }
        } else if (key.len == 4 && memcmp(key.ptr, "meta", 4) == 0) {
            bool more2;
            if (!atd_object_begin(r, &more2))
                return atd_reader_push_field(r, "meta", 4);
            while (more2) {
                atd_string k2;
                if (!atd_object_key(r, &k2))
                    return atd_reader_push_field(r, "meta", 4);
                if (!read_int_list(r)) {
                    atd_reader_push_field(r, k2.ptr, k2.len);
                    return atd_reader_push_field(r, "meta", 4);
                }
                if (!atd_object_next(r, &more2))
                    return atd_reader_push_field(r, "meta", 4);
            }
        } else if (!atd_skip_value(r)) {
            return atd_reader_push_field(r, key.ptr, key.len);
        }
        if (!atd_object_next(r, &more))
            return false;
    }
    return true;
}

/* Reads json as a doc, expects failure, returns the error. */
static atd_error doc_error(const char *json)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    ck_assert_ptr_nonnull(arena);
    size_t len = strlen(json);
    char *copy = malloc(len + 1);
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, json, len);
    atd_reader r;
    atd_reader_init(&r, copy, len, arena, 0);
    bool ok = read_doc(&r) && atd_read_end(&r);
    ck_assert_msg(!ok, "accepted: %s", json);
    atd_error err;
    atd_reader_get_error(&r, &err);
    free(copy);
    atd_arena_free(arena);
    return err;
}

START_TEST(test_error_issue_example)
{
    atd_error err = doc_error("{\"events\":[1,2,3,{\"date\":\"2.5\"}]}");
    ck_assert_int_eq(err.code, ATD_ERR_TYPE);
    ck_assert_uint_eq(err.offset, 25);
    ck_assert_uint_eq(err.line, 1);
    ck_assert_uint_eq(err.column, 26);
    ck_assert_str_eq(err.path, "$.events[3].date");
    ck_assert_str_eq(err.message,
                     "line 1, column 26, at $.events[3].date: expected an integer, found \"2.5\"");
    ck_assert_str_eq(err.detail, "expected an integer, found \"2.5\"");
}
END_TEST

/* atd_error_format: each kind of position, with and without a file name and
 * a path, and cut to a small buffer like snprintf. */
START_TEST(test_error_format)
{
    char out[200];
    atd_error err = doc_error("{\"events\":[1,2,3,{\"date\":\"2.5\"}]}");
    size_t n = atd_error_format(&err, "ev.json", out, sizeof out);
    ck_assert_str_eq(out, "ev.json:1:26: expected an integer, found \"2.5\" (at $.events[3].date)");
    ck_assert_uint_eq(n, strlen(out));
    atd_error_format(&err, NULL, out, sizeof out);
    ck_assert_str_eq(out, "1:26: expected an integer, found \"2.5\" (at $.events[3].date)");
    /* Too small: cut, NUL-terminated, and the whole length returned. */
    char small[8];
    ck_assert_uint_eq(atd_error_format(&err, "ev.json", small, sizeof small), n);
    ck_assert_str_eq(small, "ev.json");
    ck_assert_uint_eq(atd_error_format(&err, "ev.json", NULL, 0), n);

    atd_error_set(&err, ATD_ERR_NONFINITE, "$.a[2]", "cannot write nan");
    ck_assert_str_eq(err.detail, "cannot write nan");
    atd_error_format(&err, "out.json", out, sizeof out);
    ck_assert_str_eq(out, "out.json: cannot write nan (at $.a[2])");
    atd_error_set(&err, ATD_ERR_IO, NULL, "disk full");
    atd_error_format(&err, "out.json", out, sizeof out);
    ck_assert_str_eq(out, "out.json: disk full");
    atd_error_format(&err, "", out, sizeof out);
    ck_assert_str_eq(out, "disk full");
    /* A binary input's position is its byte offset. */
    err.offset = 17;
    atd_error_format(&err, "db.bin", out, sizeof out);
    ck_assert_str_eq(out, "db.bin: byte 17: disk full");
}
END_TEST

START_TEST(test_error_multiline)
{
    static const char lf[] = "{\n"
                             "  \"events\": [\n"
                             "    {\"date\": 1},\n"
                             "    {\"date\": 2, \"tags\": [\"a\", 3]}\n"
                             "  ]\n"
                             "}\n";
    atd_error err = doc_error(lf);
    ck_assert_str_eq(err.message,
                     "line 4, column 31, at $.events[1].tags[1]: expected a string, found 3");
    ck_assert_int_eq(err.code, ATD_ERR_TYPE);

    /* The same with CR LF line ends: same line and column. */
    char crlf[sizeof lf * 2];
    size_t n = 0;
    for (const char *p = lf; *p; p++) {
        if (*p == '\n')
            crlf[n++] = '\r';
        crlf[n++] = *p;
    }
    crlf[n] = '\0';
    err = doc_error(crlf);
    ck_assert_str_eq(err.message,
                     "line 4, column 31, at $.events[1].tags[1]: expected a string, found 3");

    /* Errors in skipped values name the field being skipped. */
    err = doc_error("{\n\"events\": [],\n\"other\": {\"x\": [1, 2,]}\n}");
    ck_assert_str_eq(err.message, "line 3, column 22, at $.other: expected a value, found ']'");
    ck_assert_int_eq(err.code, ATD_ERR_SYNTAX);

    /* A syntax error between elements is reported at the enclosing level. */
    err = doc_error("{\"events\": [1,\n  2\n  3]}");
    ck_assert_str_eq(err.message, "line 3, column 3, at $.events: expected ',' or ']', found 3");

    /* End of input inside the document. */
    err = doc_error("{\"events\": [1,\n  {\"date\": ");
    ck_assert_int_eq(err.code, ATD_ERR_EOF);
    ck_assert_str_eq(err.message,
                     "line 2, column 12, at $.events[1].date: unexpected end of input");

    /* Errors inside a string point at the byte. */
    err = doc_error("{\"events\": [{\"tags\": [\"ok\",\n\"bad \\q\"]}]}");
    ck_assert_int_eq(err.code, ATD_ERR_STRING);
    ck_assert_str_eq(err.message,
                     "line 2, column 6, at $.events[0].tags[1]: invalid escape '\\q' in string");
}
END_TEST

START_TEST(test_error_odd_keys)
{
    atd_error err = doc_error("{\"meta\": {\"odd key\": [1, true]}}");
    ck_assert_str_eq(err.path, "$.meta[\"odd key\"][1]");
    ck_assert_str_eq(
        err.message,
        "line 1, column 26, at $.meta[\"odd key\"][1]: expected an integer, found true");
    err = doc_error("{\"meta\": {\"q\\\"b\\\\s\\n\": [x]}}");
    ck_assert_str_eq(err.path, "$.meta[\"q\\\"b\\\\s\\x0a\"][0]");
    err = doc_error("{\"meta\": {\"\": [x]}}");
    ck_assert_str_eq(err.path, "$.meta[\"\"][0]");
    err = doc_error("{\"meta\": {\"_x9\": [x]}}");
    ck_assert_str_eq(err.path, "$.meta._x9[0]");
    err = doc_error("{\"meta\": {\"9x\": [x]}}");
    ck_assert_str_eq(err.path, "$.meta[\"9x\"][0]");
    err = doc_error("{\"meta\": {\"caf\xc3\xa9\": [x]}}");
    ck_assert_str_eq(err.path, "$.meta[\"caf\\xc3\\xa9\"][0]");
    /* A very long key is shortened. */
    char json[400];
    char key[201];
    memset(key, 'k', 200);
    key[200] = '\0';
    snprintf(json, sizeof json, "{\"meta\": {\"%s\": [x]}}", key);
    err = doc_error(json);
    ck_assert_uint_lt(strlen(err.path), 100);
    ck_assert_ptr_nonnull(strstr(err.path, "kkk...\"][0]"));
    ck_assert(strncmp(err.path, "$.meta[\"kkkk", 12) == 0);
}
END_TEST

START_TEST(test_error_path_truncation)
{
    atd_reader r;
    atd_reader_init(&r, "[]", 2, NULL, 0);
    /* Without an error, pushes do nothing. */
    ck_assert(!atd_reader_push_field(&r, "x", 1));
    ck_assert(!atd_reader_push_index(&r, 1));
    ck_assert_uint_eq(r.err_path.len, 0);
    atd_reader_fail(&r, ATD_ERR_INVALID, "bad");
    ck_assert(!atd_reader_push_index(&r, 7));
    for (int i = 0; i < 100; i++)
        ck_assert(!atd_reader_push_field(&r, "abcdefghij", 10));
    atd_error err;
    atd_reader_get_error(&r, &err);
    ck_assert(strncmp(err.path, "$...", 4) == 0);
    size_t len = strlen(err.path);
    ck_assert_uint_lt(len, ATD_ERROR_PATH_MAX);
    /* The innermost segments are the ones kept. */
    ck_assert_str_eq(err.path + len - 14, ".abcdefghij[7]");
    ck_assert_ptr_nonnull(strstr(err.message, err.path));
    /* The message ends with the detail, whatever the path length. */
    ck_assert_str_eq(err.message + strlen(err.message) - 5, ": bad");

    /* A path that fits is complete; indexes of any size. */
    atd_reader_init(&r, "[]", 2, NULL, 0);
    atd_reader_fail(&r, ATD_ERR_INVALID, "bad");
    atd_reader_push_index(&r, (size_t)4294967295u);
    atd_reader_push_field(&r, "a", 1);
    atd_reader_get_error(&r, &err);
    ck_assert_str_eq(err.path, "$.a[4294967295]");
    ck_assert_str_eq(err.message, "line 1, column 1, at $.a[4294967295]: bad");
}
END_TEST

Suite *error_suite(void);
Suite *error_suite(void)
{
    Suite *s = suite_create("error");
    TCase *tc = tcase_create("codes");
    tcase_add_test(tc, test_error_code_names);
    tcase_add_test(tc, test_error_locate);
    tcase_add_test(tc, test_error_set);
    suite_add_tcase(s, tc);
    tc = tcase_create("reader");
    tcase_add_test(tc, test_error_issue_example);
    tcase_add_test(tc, test_error_format);
    tcase_add_test(tc, test_error_multiline);
    tcase_add_test(tc, test_error_odd_keys);
    tcase_add_test(tc, test_error_path_truncation);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(error_suite)
