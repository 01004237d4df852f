/* Tests of JSON strings on read (read_string.c): every escape, surrogate
 * pairs and lone surrogates in both modes, UTF-8 validation (hand-made cases
 * and the JSONTestSuite string files), embedded NUL, raw control bytes,
 * borrowing versus copying, object keys, and the positions of special bytes
 * around the 8- and 16-byte boundaries of the fast scanners. */
#include "test_main.h"
#include "test_files.h"

#include <atd.h>
#include <atd/detail/copy.h>

/* The UTF-8 kernels and the kernel choice, internal to the runtime. */
#include "utf8.h" /* runtime/src */

#include <stdio.h>
#include <string.h>

#ifndef ATD_SHARED_DIR
#define ATD_SHARED_DIR "../shared"
#endif
#define SUITE_DIR ATD_SHARED_DIR "/data/jsontestsuite/test_parsing"

/* One reader plus arena per test; the input is copied into a heap buffer of
 * exactly its length so that ASan catches any read past the end. */
typedef struct fixture {
    atd_reader r;
    atd_arena *arena;
    char *input;
} fixture;

/* warm: with a chunk in the arena already, as after a document's first
 * string: the block copies (which need room in the chunk) then read the
 * string, where a fresh arena sends it to the general path. */
static void fx_open_arena(fixture *f, const char *json, size_t len, unsigned flags, bool warm)
{
    f->arena = atd_arena_new(0, NULL);
    ck_assert_ptr_nonnull(f->arena);
    if (warm)
        ck_assert_ptr_nonnull(atd_arena_alloc(f->arena, 1, 1));
    f->input = malloc(len ? len : 1);
    ck_assert_ptr_nonnull(f->input);
    memcpy(f->input, json, len);
    atd_reader_init(&f->r, f->input, len, f->arena, flags);
}

static void fx_open(fixture *f, const char *json, size_t len, unsigned flags)
{
    fx_open_arena(f, json, len, flags, false);
}

static void fx_close(fixture *f)
{
    atd_arena_free(f->arena);
    free(f->input);
}

/* Reads one string from the whole input of f, then closes f; on success
 * checks the decoded bytes, on failure returns false and leaves the error in
 * *err. */
static bool read_one_in(fixture *f, size_t len, const char *want, size_t want_len,
                        atd_error *err)
{
    atd_string s = {NULL, 0};
    bool ok = atd_read_string(&f->r, &s) && atd_read_end(&f->r);
    atd_reader_get_error(&f->r, err);
    if (ok && want) {
        ck_assert_uint_eq(s.len, want_len);
        ck_assert_int_eq(memcmp(s.ptr, want, want_len), 0);
        if (s.ptr < f->input || s.ptr >= f->input + len)
            ck_assert_int_eq(s.ptr[s.len], '\0');
    }
    fx_close(f);
    return ok;
}

/* Reads the string with a fresh arena and with a warm one (fx_open_arena):
 * both must give the same bytes or the same error. */
static bool read_one(const char *json, size_t len, unsigned flags, const char *want,
                     size_t want_len, atd_error *err)
{
    fixture f;
    atd_error warm_err;
    fx_open(&f, json, len, flags);
    bool ok = read_one_in(&f, len, want, want_len, err);
    fx_open_arena(&f, json, len, flags, true);
    bool warm_ok = read_one_in(&f, len, want, want_len, &warm_err);
    ck_assert_msg(ok == warm_ok && err->code == warm_err.code && err->offset == warm_err.offset &&
                      strcmp(err->message, warm_err.message) == 0,
                  "fresh arena: %s; warm arena: %s", ok ? "ok" : err->message,
                  warm_ok ? "ok" : warm_err.message);
    return ok;
}

#define READ_OK(json, want) read_ok_at(json, sizeof(json) - 1, 0, want, sizeof(want) - 1, __LINE__)
#define READ_OK_LENIENT(json, want)                                                                \
    read_ok_at(json, sizeof(json) - 1, ATD_READ_LENIENT, want, sizeof(want) - 1, __LINE__)

static void read_ok_at(const char *json, size_t len, unsigned flags, const char *want,
                       size_t want_len, int line)
{
    atd_error err;
    bool ok = read_one(json, len, flags, want, want_len, &err);
    ck_assert_msg(ok, "line %d: %s", line, err.message);
}

/* Expects failure with the given code, offset and detail (the message after
 * "at $: "). */
#define READ_FAIL(json, flags, code, offset, detail)                                               \
    read_fail_at(json, sizeof(json) - 1, flags, code, offset, detail, __LINE__)

static void read_fail_at(const char *json, size_t len, unsigned flags, atd_error_code code,
                         size_t offset, const char *detail, int line)
{
    atd_error err;
    bool ok = read_one(json, len, flags, NULL, 0, &err);
    ck_assert_msg(!ok, "line %d: accepted", line);
    ck_assert_msg(err.code == code, "line %d: code %s, message %s", line,
                  atd_error_code_name(err.code), err.message);
    ck_assert_msg(err.offset == offset, "line %d: offset %zu, message %s", line, err.offset,
                  err.message);
    const char *colon = strstr(err.message, "at $: ");
    ck_assert_msg(colon != NULL, "line %d: %s", line, err.message);
    ck_assert_str_eq(colon + 6, detail);
}

/* ------------------------------------------------------------------------ */

START_TEST(test_strings_plain)
{
    READ_OK("\"\"", "");
    READ_OK("\"abc\"", "abc");
    READ_OK("  \"abc\"\n", "abc");
    READ_OK("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
            "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    READ_OK("\"a'b/c\x7f\"", "a'b/c\x7f");
}
END_TEST

START_TEST(test_strings_every_escape)
{
    READ_OK("\"\\\"\"", "\"");
    READ_OK("\"\\\\\"", "\\");
    READ_OK("\"\\/\"", "/");
    READ_OK("\"\\b\"", "\b");
    READ_OK("\"\\f\"", "\f");
    READ_OK("\"\\n\"", "\n");
    READ_OK("\"\\r\"", "\r");
    READ_OK("\"\\t\"", "\t");
    READ_OK("\"\\u0041\"", "A");
    READ_OK("\"\\u00e9\\u00E9\"", "\xc3\xa9\xc3\xa9");
    READ_OK("\"\\u20AC\\u20ac\"", "\xe2\x82\xac\xe2\x82\xac");
    READ_OK("\"\\u07ff\\u0800\\uffff\"", "\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf");
    READ_OK("\"x\\\"y\\\\z\\/\\b\\f\\n\\r\\tw\"", "x\"y\\z/\b\f\n\r\tw");
    READ_OK("\"\\u0000\"", "\0");
    READ_OK("\"a\\u0000b\"", "a\0b");
}
END_TEST

START_TEST(test_strings_invalid_escapes)
{
    READ_FAIL("\"ab\\qc\"", 0, ATD_ERR_STRING, 3, "invalid escape '\\q' in string");
    READ_FAIL("\"\\x41\"", 0, ATD_ERR_STRING, 1, "invalid escape '\\x' in string");
    READ_FAIL("\"\\U0041\"", 0, ATD_ERR_STRING, 1, "invalid escape '\\U' in string");
    READ_FAIL("\"\\u12G4\"", 0, ATD_ERR_STRING, 1, "invalid escape '\\u12G' in string");
    READ_FAIL("\"\\u\"", 0, ATD_ERR_STRING, 1, "invalid escape '\\u\"' in string");
    READ_FAIL("\"\\\x01\"", 0, ATD_ERR_STRING, 1, "invalid escape '\\\\x01' in string");
    READ_FAIL("\"\\'\"", ATD_READ_LENIENT, ATD_ERR_STRING, 1, "invalid escape '\\'' in string");
    /* The input ends inside the escape. */
    READ_FAIL("\"\\", 0, ATD_ERR_EOF, 0, "unterminated string");
    READ_FAIL("\"\\u00", 0, ATD_ERR_EOF, 0, "unterminated string");
    READ_FAIL("\"\\ud800\\u", 0, ATD_ERR_EOF, 0, "unterminated string");
}
END_TEST

START_TEST(test_strings_surrogate_pairs)
{
    READ_OK("\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80");
    READ_OK("\"\\uD834\\uDD1E\"", "\xf0\x9d\x84\x9e");
    READ_OK("\"\\ud800\\udc00\"", "\xf0\x90\x80\x80");
    READ_OK("\"\\udbff\\udfff\"", "\xf4\x8f\xbf\xbf");
    READ_OK("\"a\\ud83d\\ude00b\\ud83d\\ude01\"", "a\xf0\x9f\x98\x80"
                                                  "b\xf0\x9f\x98\x81");
}
END_TEST

START_TEST(test_strings_lone_surrogates)
{
    /* Strict: every lone surrogate is an error at its escape. */
    READ_FAIL("\"\\ud800\"", 0, ATD_ERR_STRING, 1, "lone surrogate '\\ud800' in string");
    READ_FAIL("\"ab\\udc00\"", 0, ATD_ERR_STRING, 3, "lone surrogate '\\udc00' in string");
    READ_FAIL("\"\\ud800x\"", 0, ATD_ERR_STRING, 1, "lone surrogate '\\ud800' in string");
    READ_FAIL("\"\\ud800\\n\"", 0, ATD_ERR_STRING, 1, "lone surrogate '\\ud800' in string");
    READ_FAIL("\"\\ud800\\u0041\"", 0, ATD_ERR_STRING, 1, "lone surrogate '\\ud800' in string");
    READ_FAIL("\"\\ud800\\ud800\"", 0, ATD_ERR_STRING, 1, "lone surrogate '\\ud800' in string");
    READ_FAIL("\"\\udc00\\ud800\"", 0, ATD_ERR_STRING, 1, "lone surrogate '\\udc00' in string");
    /* A bad escape where the low half should be is reported as such. */
    READ_FAIL("\"\\ud800\\uzzzz\"", 0, ATD_ERR_STRING, 7, "invalid escape '\\uz' in string");
    /* Lenient: encoded as the 3-byte form, like atdgen. */
    READ_OK_LENIENT("\"\\ud800\"", "\xed\xa0\x80");
    READ_OK_LENIENT("\"\\udc00\"", "\xed\xb0\x80");
    READ_OK_LENIENT("\"\\udfff!\"", "\xed\xbf\xbf!");
    READ_OK_LENIENT("\"\\ud800\\u0041\"", "\xed\xa0\x80"
                                          "A");
    READ_OK_LENIENT("\"\\ud800\\ud800\\udc00\"", "\xed\xa0\x80\xf0\x90\x80\x80");
    READ_OK_LENIENT("\"\\udc00\\ud800\"", "\xed\xb0\x80\xed\xa0\x80");
}
END_TEST

START_TEST(test_strings_utf8_invalid)
{
    /* Stray continuation bytes and bytes that never occur. */
    READ_FAIL("\"\x80\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0x80 in string");
    READ_FAIL("\"ab\xbf\"", 0, ATD_ERR_UTF8, 3, "invalid UTF-8 byte 0xbf in string");
    READ_FAIL("\"\xff\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xff in string");
    READ_FAIL("\"\xf5\x80\x80\x80\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xf5 in string");
    /* Overlongs. */
    READ_FAIL("\"\xc0\xaf\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xc0 in string");
    READ_FAIL("\"\xc1\xbf\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xc1 in string");
    READ_FAIL("\"\xe0\x9f\xbf\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xe0 in string");
    READ_FAIL("\"\xf0\x8f\xbf\xbf\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xf0 in string");
    /* Surrogates encoded in UTF-8, and beyond U+10FFFF. */
    READ_FAIL("\"\xed\xa0\x80\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xed in string");
    READ_FAIL("\"\xed\xbf\xbf\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xed in string");
    READ_FAIL("\"\xf4\x90\x80\x80\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xf4 in string");
    /* Truncated sequences, inside the string and at the end of the input. */
    READ_FAIL("\"\xc3\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xc3 in string");
    READ_FAIL("\"\xe2\x82\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xe2 in string");
    READ_FAIL("\"\xf0\x9f\x98\"", 0, ATD_ERR_UTF8, 1, "invalid UTF-8 byte 0xf0 in string");
    READ_FAIL("\"\xf0\x9f\x98", 0, ATD_ERR_EOF, 0, "unterminated string");
    READ_FAIL("\"\xc3", 0, ATD_ERR_EOF, 0, "unterminated string");
    /* The boundaries that are valid. */
    READ_OK(
        "\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"",
        "\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
    /* Lenient mode passes any byte through. */
    READ_OK_LENIENT("\"\xff\xc0\xaf\xed\xa0\x80\"", "\xff\xc0\xaf\xed\xa0\x80");
}
END_TEST

START_TEST(test_strings_control_bytes)
{
    READ_FAIL("\"a\nb\"", 0, ATD_ERR_STRING, 2,
              "raw control byte 0x0a in string (must be escaped)");
    READ_FAIL("\"\t\"", 0, ATD_ERR_STRING, 1, "raw control byte 0x09 in string (must be escaped)");
    READ_FAIL("\"\x1f\"", 0, ATD_ERR_STRING, 1,
              "raw control byte 0x1f in string (must be escaped)");
    READ_FAIL("\"a\0b\"", 0, ATD_ERR_STRING, 2,
              "raw control byte 0x00 in string (must be escaped)");
    READ_OK_LENIENT("\"a\nb\tc\0d\x1f\"", "a\nb\tc\0d\x1f");
    READ_OK("\"\x20\x7f\"", " \x7f");
}
END_TEST

START_TEST(test_strings_unterminated_and_type)
{
    READ_FAIL("\"abc", 0, ATD_ERR_EOF, 0, "unterminated string");
    READ_FAIL("  \"abcdefghijklmnopqrstuvwxyz", 0, ATD_ERR_EOF, 2, "unterminated string");
    READ_FAIL("\"", 0, ATD_ERR_EOF, 0, "unterminated string");
    READ_FAIL("", 0, ATD_ERR_EOF, 0, "unexpected end of input");
    READ_FAIL("   ", 0, ATD_ERR_EOF, 3, "unexpected end of input");
    READ_FAIL("12", 0, ATD_ERR_TYPE, 0, "expected a string, found 12");
    READ_FAIL("null", 0, ATD_ERR_TYPE, 0, "expected a string, found null");
    READ_FAIL(" [\"a\"]", 0, ATD_ERR_TYPE, 1, "expected a string, found '['");
    READ_FAIL("'a'", 0, ATD_ERR_SYNTAX, 0, "expected a string, found 'a'");
    READ_FAIL("\"a\" \"b\"", 0, ATD_ERR_TRAILING, 4, "unexpected \"b\" after the JSON value");
}
END_TEST

START_TEST(test_strings_embedded_nul_in_input)
{
    /* A NUL byte after the value is trailing data, not the end of input. */
    READ_FAIL("\"a\"\0", 0, ATD_ERR_TRAILING, 3, "unexpected \\x00 after the JSON value");
    READ_OK("\"a\\u0000\\u0000\"", "a\0\0");
}
END_TEST

/* Borrowed strings point into the input; copies live in the arena and are
 * NUL-terminated. */
START_TEST(test_strings_borrow_and_copy)
{
    static const char json[] = "[\"plain\", \"esc\\naped\"]";
    for (int mode = 0; mode < 3; mode++) {
        fixture f;
        unsigned flags = mode == 0 ? 0 : ATD_READ_BORROW_STRINGS;
        fx_open(&f, json, sizeof json - 1, flags);
        bool more;
        atd_string a, b;
        ck_assert(atd_array_begin(&f.r, &more) && more);
        if (mode == 2)
            ck_assert(atd_read_string_copy(&f.r, &a));
        else
            ck_assert(atd_read_string(&f.r, &a));
        ck_assert(atd_array_next(&f.r, &more) && more);
        ck_assert(atd_read_string(&f.r, &b));
        ck_assert(atd_array_next(&f.r, &more) && !more);
        ck_assert(atd_read_end(&f.r));
        bool a_inside = a.ptr >= f.input && a.ptr < f.input + sizeof json - 1;
        bool b_inside = b.ptr >= f.input && b.ptr < f.input + sizeof json - 1;
        ck_assert_int_eq(a_inside, mode == 1);
        ck_assert(!b_inside); /* escapes are always decoded */
        if (mode == 1)
            ck_assert_ptr_eq(a.ptr, f.input + 2);
        else
            ck_assert_int_eq(a.ptr[5], '\0');
        ck_assert_uint_eq(a.len, 5);
        ck_assert_int_eq(memcmp(a.ptr, "plain", 5), 0);
        ck_assert_str_eq(b.ptr, "esc\naped");
        ck_assert_uint_eq(b.len, 8);
        fx_close(&f);
    }
}
END_TEST

/* Borrowed plain strings of every length from 0 to 40, with input enough
 * after them for the inline path, which settles those up to 15 bytes with
 * one load (after none or one space): each points at its body in the input,
 * with its length; the lengths change at every string, as they do between
 * the fields of a record. */
START_TEST(test_strings_borrow_lengths)
{
    char json[1200];
    size_t n = 0;
    json[n++] = '[';
    for (size_t len = 0; len <= 40; len++) {
        if (len > 0)
            json[n++] = ',';
        if (len % 3 == 1)
            json[n++] = ' ';
        json[n++] = '"';
        for (size_t i = 0; i < len; i++)
            json[n++] = (char)('a' + (len + i) % 26);
        json[n++] = '"';
    }
    json[n++] = ']';
    fixture f;
    fx_open(&f, json, n, ATD_READ_BORROW_STRINGS);
    bool more;
    ck_assert(atd_array_begin(&f.r, &more) && more);
    for (size_t len = 0; len <= 40; len++) {
        atd_string s = {NULL, 0};
        ck_assert_msg(atd_read_string(&f.r, &s), "length %zu", len);
        ck_assert_uint_eq(s.len, len);
        ck_assert_msg(s.ptr > f.input && s.ptr + len < f.input + n && s.ptr[-1] == '"' &&
                          s.ptr[len] == '"',
                      "length %zu: not the body in the input", len);
        for (size_t i = 0; i < len; i++)
            ck_assert_int_eq(s.ptr[i], 'a' + (len + i) % 26);
        ck_assert(atd_array_next(&f.r, &more) && more == (len < 40));
    }
    ck_assert(atd_read_end(&f.r));
    fx_close(&f);
}
END_TEST

START_TEST(test_strings_no_arena)
{
    atd_reader r;
    atd_string s;
    atd_error err;
    /* Borrowing needs no arena... */
    atd_reader_init(&r, "\"abc\"", 5, NULL, ATD_READ_BORROW_STRINGS);
    ck_assert(atd_read_string(&r, &s));
    ck_assert_uint_eq(s.len, 3);
    /* ...but a copy or a decoded string does. */
    atd_reader_init(&r, "\"abc\"", 5, NULL, 0);
    ck_assert(!atd_read_string(&r, &s));
    ck_assert_int_eq(atd_reader_get_error(&r, &err), ATD_ERR_NOMEM);
    ck_assert_str_eq(err.message,
                     "line 1, column 1, at $: cannot store a string: the reader has no arena");
    atd_reader_init(&r, "{\"a\\u0062\":1}", 13, NULL, 0);
    bool more;
    ck_assert(atd_object_begin(&r, &more) && more);
    ck_assert(!atd_object_key(&r, &s));
    ck_assert_int_eq(atd_reader_get_error(&r, &err), ATD_ERR_NOMEM);
    ck_assert_uint_eq(err.offset, 1);
}
END_TEST

/* Arena allocations fail after a budget: the reader reports NOMEM and
 * nothing leaks (ASan). */
typedef struct budget {
    int left;
} budget;

static void *budget_alloc(void *ctx, size_t size)
{
    budget *b = ctx;
    if (b->left-- <= 0)
        return NULL;
    return malloc(size);
}

static void budget_free(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

START_TEST(test_strings_out_of_memory)
{
    budget b = {1}; /* the arena struct only */
    atd_allocator al = {budget_alloc, budget_free, &b};
    atd_arena *arena = atd_arena_new(64, &al);
    ck_assert_ptr_nonnull(arena);
    atd_reader r;
    atd_string s;
    atd_reader_init(&r, " \"abc\"", 6, arena, 0);
    ck_assert(!atd_read_string(&r, &s));
    atd_error err;
    ck_assert_int_eq(atd_reader_get_error(&r, &err), ATD_ERR_NOMEM);
    ck_assert_uint_eq(err.offset, 1);
    atd_arena_free(arena);
}
END_TEST

START_TEST(test_strings_keys)
{
    static const char json[] = "{\"id\":1, \"k\\u00e9y\" : 2,\"\":3}";
    fixture f;
    fx_open(&f, json, sizeof json - 1, 0);
    bool more;
    atd_string k;
    int64_t v;
    ck_assert(atd_object_begin(&f.r, &more) && more);
    ck_assert(atd_object_key(&f.r, &k));
    /* Keys without escapes are borrowed even without the borrow flag. */
    ck_assert_ptr_eq(k.ptr, f.input + 2);
    ck_assert_uint_eq(k.len, 2);
    ck_assert(atd_read_int64(&f.r, &v) && v == 1);
    ck_assert(atd_object_next(&f.r, &more) && more);
    ck_assert(atd_object_key(&f.r, &k));
    ck_assert_uint_eq(k.len, 4);
    ck_assert_int_eq(memcmp(k.ptr, "k\xc3\xa9y", 4), 0);
    ck_assert(k.ptr < f.input || k.ptr >= f.input + sizeof json);
    ck_assert(atd_read_int64(&f.r, &v) && v == 2);
    ck_assert(atd_object_next(&f.r, &more) && more);
    ck_assert(atd_object_key(&f.r, &k));
    ck_assert_uint_eq(k.len, 0);
    ck_assert(atd_read_int64(&f.r, &v) && v == 3);
    ck_assert(atd_object_next(&f.r, &more) && !more);
    ck_assert(atd_read_end(&f.r));
    fx_close(&f);
}
END_TEST

START_TEST(test_strings_key_errors)
{
    static const struct {
        const char *json;
        atd_error_code code;
        size_t offset;
        const char *detail;
    } cases[] = {
        {"{1:2}", ATD_ERR_SYNTAX, 1, "expected an object key, found 1"},
        {"{a:2}", ATD_ERR_SYNTAX, 1, "expected an object key, found a"},
        {"{\"a\" 2}", ATD_ERR_SYNTAX, 5, "expected ':', found 2"},
        {"{\"a\"", ATD_ERR_EOF, 4, "unexpected end of input"},
        {"{\"a", ATD_ERR_EOF, 1, "unterminated string"},
        {"{\"a\\x\":1}", ATD_ERR_STRING, 3, "invalid escape '\\x' in string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fixture f;
        fx_open(&f, cases[i].json, strlen(cases[i].json), 0);
        bool more;
        atd_string k;
        ck_assert(atd_object_begin(&f.r, &more) && more);
        ck_assert(!atd_object_key(&f.r, &k));
        atd_error err;
        ck_assert_int_eq(atd_reader_get_error(&f.r, &err), cases[i].code);
        ck_assert_uint_eq(err.offset, cases[i].offset);
        ck_assert_str_eq(strstr(err.message, "at $: ") + 6, cases[i].detail);
        fx_close(&f);
    }
}
END_TEST

/* Moves one special byte through every position of strings of many lengths,
 * so that each lands at every offset of the 16- and 8-byte blocks and of the
 * byte-wise tail. */
START_TEST(test_strings_scanner_boundaries)
{
    char json[80], want[80];
    static const struct {
        const char *ins; /* inserted raw */
        const char *dec; /* decoded */
        bool ok;
    } specials[] = {
        {"\\n", "\n", true},   {"\xc3\xa9", "\xc3\xa9", true}, {"\\u00e9", "\xc3\xa9", true},
        {"\x01", NULL, false}, {"\xff", NULL, false},          {"\xe2\x82", NULL, false},
    };
    for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++) {
        size_t ins = strlen(specials[k].ins);
        for (size_t len = 0; len <= 40; len++) {
            for (size_t pos = 0; pos <= len; pos++) {
                size_t n = 0, m = 0;
                json[n++] = '"';
                for (size_t i = 0; i < len; i++) {
                    if (i == pos) {
                        memcpy(json + n, specials[k].ins, ins);
                        n += ins;
                        if (specials[k].dec) {
                            memcpy(want + m, specials[k].dec, strlen(specials[k].dec));
                            m += strlen(specials[k].dec);
                        }
                    }
                    json[n++] = (char)('a' + i % 26);
                    want[m++] = (char)('a' + i % 26);
                }
                json[n++] = '"';
                atd_error err;
                bool ok = read_one(json, n, 0, want, m, &err);
                if (len == 0 || pos == len) {
                    /* nothing inserted */
                    ck_assert_msg(ok, "k=%zu len=%zu: %s", k, len, err.message);
                } else {
                    ck_assert_msg(ok == specials[k].ok, "k=%zu len=%zu pos=%zu: %s", k, len, pos,
                                  err.message);
                    if (!ok)
                        ck_assert_uint_eq(err.offset, 1 + pos);
                }
                /* And the string cut short at every length is unterminated. */
                for (size_t cut = 1; cut < n; cut += 7) {
                    ck_assert(!read_one(json, cut, 0, NULL, 0, &err));
                    ck_assert(err.code == ATD_ERR_EOF || err.code == ATD_ERR_UTF8 ||
                              err.code == ATD_ERR_STRING);
                }
            }
        }
    }
}
END_TEST

/* The inline short-string path and where it hands over: strings of every
 * length up to 40 (one escape at every position, or none), with and without
 * a space before them, near the end of the input or not (the inline half
 * needs 18 bytes of input), read after filler that leaves 0 to 33 bytes of
 * room in the arena's chunk (around the 16 it needs). Each string
 * reads back whole and NUL-ended, and the one read after it did not
 * overwrite it. The failures are counted, then asserted once: tens of
 * thousands of assertions cost minutes under valgrind. */
START_TEST(test_strings_inline_path_room_and_handover)
{
    static const size_t rooms[] = {0, 15, 16, 17, 33};
    char json[160], want[64];
    size_t wrong = 0;
    for (size_t len = 0; len <= 40; len++) {
        for (size_t pos = 0; pos <= len; pos++) { /* pos == len: no escape */
            for (size_t ri = 0; ri < sizeof rooms / sizeof rooms[0]; ri++) {
                for (int variant = 0; variant < 4; variant++) {
                    int space = variant & 1, pad = variant >> 1;
                    size_t room = rooms[ri], n = 0, m = 0;
                    json[n++] = '[';
                    if (space)
                        json[n++] = ' ';
                    json[n++] = '"';
                    for (size_t i = 0; i < len; i++) {
                        if (i == pos) {
                            memcpy(json + n, "\\/", 2);
                            n += 2;
                            want[m++] = '/';
                        }
                        json[n++] = (char)('a' + i % 26);
                        want[m++] = (char)('a' + i % 26);
                    }
                    memcpy(json + n, "\",\"zz\"]", 7);
                    n += 7;
                    if (pad) { /* whitespace after the document, not read */
                        memset(json + n, ' ', 24);
                        n += 24;
                    }
                    atd_arena *a = atd_arena_new(64, NULL);
                    char *in = malloc(n); /* exact size: a read past it is an ASan error */
                    /* filler: `room` bytes left in the first chunk */
                    if (a == NULL || in == NULL || atd_arena_alloc(a, 64 - room, 1) == NULL ||
                        (size_t)(a->end - a->cur) != room)
                        ck_abort_msg("set-up: len %zu room %zu", len, room);
                    memcpy(in, json, n);
                    atd_reader r;
                    atd_reader_init(&r, in, n, a, 0);
                    bool more = false, end = false;
                    atd_string s = {NULL, 0}, t = {NULL, 0};
                    bool ok = atd_array_begin(&r, &more) && more && atd_read_string(&r, &s) &&
                              atd_array_next(&r, &more) && more && atd_read_string(&r, &t) &&
                              atd_array_next(&r, &end) && !end;
                    ok = ok && s.len == m && memcmp(s.ptr, want, m) == 0 && s.ptr[m] == '\0' &&
                         t.len == 2 && memcmp(t.ptr, "zz", 3) == 0;
                    if (!ok) {
                        wrong++;
                        fprintf(stderr, "len %zu pos %zu room %zu space %d pad %d\n", len, pos,
                                room, space, pad);
                    }
                    atd_arena_free(a);
                    free(in);
                }
            }
        }
    }
    ck_assert_uint_eq(wrong, 0);
}
END_TEST

/* Long strings: the fast scanner must find the closing quote far away. */
START_TEST(test_strings_long)
{
    size_t n = 100000;
    char *json = malloc(n + 2);
    ck_assert_ptr_nonnull(json);
    json[0] = '"';
    for (size_t i = 1; i <= n; i++)
        json[i] = (char)('a' + i % 26);
    json[n + 1] = '"';
    fixture f;
    fx_open(&f, json, n + 2, 0);
    atd_string s;
    ck_assert(atd_read_string(&f.r, &s));
    ck_assert_uint_eq(s.len, n);
    ck_assert_int_eq(memcmp(s.ptr, json + 1, n), 0);
    ck_assert_int_eq(s.ptr[n], '\0');
    fx_close(&f);
    /* Mostly non-ASCII: 2-, 3- and 4-byte sequences in a row. */
    static const char seq[] = "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
    size_t reps = 2000, sl = sizeof seq - 1;
    json = realloc(json, reps * sl + 2);
    ck_assert_ptr_nonnull(json);
    json[0] = '"';
    for (size_t i = 0; i < reps; i++)
        memcpy(json + 1 + i * sl, seq, sl);
    json[reps * sl + 1] = '"';
    atd_error err;
    ck_assert(read_one(json, reps * sl + 2, 0, json + 1, reps * sl, &err));
    /* One bad byte deep inside is found at its offset. */
    json[1 + 1000 * sl + 4] = '\x41';
    ck_assert(!read_one(json, reps * sl + 2, 0, NULL, 0, &err));
    ck_assert_int_eq(err.code, ATD_ERR_UTF8);
    ck_assert_uint_eq(err.offset, 1 + 1000 * sl + 2);
    free(json);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* JSONTestSuite string files                                                */
/* ------------------------------------------------------------------------ */

/* Reads the file's value with the typed primitives: a one-element array of
 * strings as most of these files are, or a lone string; anything else is
 * skipped (so the result still reflects the strings inside). */
static bool read_suite_file(const char *name, unsigned flags, atd_error *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", SUITE_DIR, name);
    size_t len;
    char *data = test_read_file(path, &len);
    ck_assert_msg(data != NULL, "cannot read %s", path);
    fixture f;
    fx_open(&f, data, len, flags);
    free(data);
    bool ok;
    int c = atd_peek(&f.r);
    if (c == '[') {
        bool more;
        ok = atd_array_begin(&f.r, &more);
        while (ok && more) {
            atd_string s;
            ok = (atd_peek(&f.r) == '"' ? atd_read_string(&f.r, &s) : atd_skip_value(&f.r)) &&
                 atd_array_next(&f.r, &more);
        }
    } else if (c == '"') {
        atd_string s;
        ok = atd_read_string(&f.r, &s);
    } else {
        ok = atd_skip_value(&f.r);
    }
    ok = ok && atd_read_end(&f.r);
    atd_reader_get_error(&f.r, err);
    fx_close(&f);
    return ok;
}

/* Outcome of every i_string_* file (implementation-defined in the suite):
 * rejected in strict mode, with the code shown; accepted in lenient mode
 * except the UTF-16 ones, which are not JSON text in any mode.
 *   1st_surrogate_but_2nd_missing        STRING  lone surrogate
 *   1st_valid_surrogate_2nd_invalid      STRING  lone surrogate
 *   incomplete_surrogate_and_escape_valid STRING lone surrogate
 *   incomplete_surrogate_pair            STRING  lone surrogate
 *   incomplete_surrogates_escape_valid   STRING  lone surrogate
 *   invalid_lonely_surrogate             STRING  lone surrogate
 *   invalid_surrogate                    STRING  lone surrogate
 *   inverted_surrogates_U+1D11E          STRING  lone surrogate
 *   lone_second_surrogate                STRING  lone surrogate
 *   UTF-8_invalid_sequence               UTF8
 *   UTF8_surrogate_U+D800                UTF8    (ED A0 80)
 *   invalid_utf-8                        UTF8
 *   iso_latin_1                          UTF8
 *   lone_utf8_continuation_byte          UTF8
 *   not_in_unicode_range                 UTF8    (F4 BF BF BF)
 *   overlong_sequence_2_bytes            UTF8
 *   overlong_sequence_6_bytes(_null)     UTF8
 *   truncated-utf-8                      UTF8
 *   UTF-16LE_with_BOM, utf16BE_no_BOM, utf16LE_no_BOM: SYNTAX in both modes */
START_TEST(test_strings_suite_i_files)
{
    static const struct {
        const char *name;
        atd_error_code strict_code;
        bool lenient_ok;
    } cases[] = {
        {"i_string_1st_surrogate_but_2nd_missing.json", ATD_ERR_STRING, true},
        {"i_string_1st_valid_surrogate_2nd_invalid.json", ATD_ERR_STRING, true},
        {"i_string_incomplete_surrogate_and_escape_valid.json", ATD_ERR_STRING, true},
        {"i_string_incomplete_surrogate_pair.json", ATD_ERR_STRING, true},
        {"i_string_incomplete_surrogates_escape_valid.json", ATD_ERR_STRING, true},
        {"i_string_invalid_lonely_surrogate.json", ATD_ERR_STRING, true},
        {"i_string_invalid_surrogate.json", ATD_ERR_STRING, true},
        {"i_string_inverted_surrogates_U+1D11E.json", ATD_ERR_STRING, true},
        {"i_string_lone_second_surrogate.json", ATD_ERR_STRING, true},
        {"i_object_key_lone_2nd_surrogate.json", ATD_ERR_STRING, true},
        {"i_string_UTF-8_invalid_sequence.json", ATD_ERR_UTF8, true},
        {"i_string_UTF8_surrogate_U+D800.json", ATD_ERR_UTF8, true},
        {"i_string_invalid_utf-8.json", ATD_ERR_UTF8, true},
        {"i_string_iso_latin_1.json", ATD_ERR_UTF8, true},
        {"i_string_lone_utf8_continuation_byte.json", ATD_ERR_UTF8, true},
        {"i_string_not_in_unicode_range.json", ATD_ERR_UTF8, true},
        {"i_string_overlong_sequence_2_bytes.json", ATD_ERR_UTF8, true},
        {"i_string_overlong_sequence_6_bytes.json", ATD_ERR_UTF8, true},
        {"i_string_overlong_sequence_6_bytes_null.json", ATD_ERR_UTF8, true},
        {"i_string_truncated-utf-8.json", ATD_ERR_UTF8, true},
        {"i_string_UTF-16LE_with_BOM.json", ATD_ERR_SYNTAX, false},
        {"i_string_utf16BE_no_BOM.json", ATD_ERR_SYNTAX, false},
        {"i_string_utf16LE_no_BOM.json", ATD_ERR_SYNTAX, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        atd_error err;
        bool ok = read_suite_file(cases[i].name, 0, &err);
        ck_assert_msg(!ok, "%s accepted in strict mode", cases[i].name);
        ck_assert_msg(err.code == cases[i].strict_code, "%s: %s", cases[i].name, err.message);
        ok = read_suite_file(cases[i].name, ATD_READ_LENIENT, &err);
        ck_assert_msg(ok == cases[i].lenient_ok, "%s lenient: %s", cases[i].name, err.message);
    }
}
END_TEST

/* Every y_string_* file reads with atd_read_string; every n_string_* file
 * fails without crashing. */
START_TEST(test_strings_suite_y_n_files)
{
    static const char *const y_files[] = {
        "y_string_1_2_3_bytes_UTF-8_sequences.json",
        "y_string_accepted_surrogate_pair.json",
        "y_string_accepted_surrogate_pairs.json",
        "y_string_allowed_escapes.json",
        "y_string_backslash_and_u_escaped_zero.json",
        "y_string_backslash_doublequotes.json",
        "y_string_comments.json",
        "y_string_double_escape_a.json",
        "y_string_double_escape_n.json",
        "y_string_escaped_control_character.json",
        "y_string_escaped_noncharacter.json",
        "y_string_in_array.json",
        "y_string_in_array_with_leading_space.json",
        "y_string_last_surrogates_1_and_2.json",
        "y_string_nbsp_uescaped.json",
        "y_string_nonCharacterInUTF-8_U+10FFFF.json",
        "y_string_nonCharacterInUTF-8_U+FFFF.json",
        "y_string_null_escape.json",
        "y_string_one-byte-utf-8.json",
        "y_string_pi.json",
        "y_string_reservedCharacterInUTF-8_U+1BFFF.json",
        "y_string_simple_ascii.json",
        "y_string_space.json",
        "y_string_surrogates_U+1D11E_MUSICAL_SYMBOL_G_CLEF.json",
        "y_string_three-byte-utf-8.json",
        "y_string_two-byte-utf-8.json",
        "y_string_u+2028_line_sep.json",
        "y_string_u+2029_par_sep.json",
        "y_string_uEscape.json",
        "y_string_uescaped_newline.json",
        "y_string_unescaped_char_delete.json",
        "y_string_unicode.json",
        "y_string_unicodeEscapedBackslash.json",
        "y_string_unicode_2.json",
        "y_string_unicode_U+10FFFE_nonchar.json",
        "y_string_unicode_U+1FFFE_nonchar.json",
        "y_string_unicode_U+200B_ZERO_WIDTH_SPACE.json",
        "y_string_unicode_U+2064_invisible_plus.json",
        "y_string_unicode_U+FDD0_nonchar.json",
        "y_string_unicode_U+FFFE_nonchar.json",
        "y_string_unicode_escaped_double_quote.json",
        "y_string_utf8.json",
        "y_string_with_del_character.json",
    };
    static const char *const n_files[] = {
        "n_string_1_surrogate_then_escape.json",
        "n_string_1_surrogate_then_escape_u.json",
        "n_string_1_surrogate_then_escape_u1.json",
        "n_string_1_surrogate_then_escape_u1x.json",
        "n_string_accentuated_char_no_quotes.json",
        "n_string_backslash_00.json",
        "n_string_escape_x.json",
        "n_string_escaped_backslash_bad.json",
        "n_string_escaped_ctrl_char_tab.json",
        "n_string_escaped_emoji.json",
        "n_string_incomplete_escape.json",
        "n_string_incomplete_escaped_character.json",
        "n_string_incomplete_surrogate.json",
        "n_string_incomplete_surrogate_escape_invalid.json",
        "n_string_invalid-utf-8-in-escape.json",
        "n_string_invalid_backslash_esc.json",
        "n_string_invalid_unicode_escape.json",
        "n_string_invalid_utf8_after_escape.json",
        "n_string_leading_uescaped_thinspace.json",
        "n_string_no_quotes_with_bad_escape.json",
        "n_string_single_doublequote.json",
        "n_string_single_quote.json",
        "n_string_single_string_no_double_quotes.json",
        "n_string_start_escape_unclosed.json",
        "n_string_unescaped_ctrl_char.json",
        "n_string_unescaped_newline.json",
        "n_string_unescaped_tab.json",
        "n_string_unicode_CapitalU.json",
        "n_string_with_trailing_garbage.json",
    };
    atd_error err;
    for (size_t i = 0; i < sizeof y_files / sizeof y_files[0]; i++)
        ck_assert_msg(read_suite_file(y_files[i], 0, &err), "%s: %s", y_files[i], err.message);
    for (size_t i = 0; i < sizeof n_files / sizeof n_files[0]; i++) {
        ck_assert_msg(!read_suite_file(n_files[i], 0, &err), "%s accepted", n_files[i]);
        ck_assert(err.code != ATD_ERR_OK);
    }
}
END_TEST

/* Decoded content of a few suite files, checked byte for byte. */
START_TEST(test_strings_suite_contents)
{
    static const struct {
        const char *json;
        const char *want;
        size_t want_len;
    } cases[] = {
        {"[\"\\u0060\\u012a\\u12AB\"]", "\x60\xc4\xaa\xe1\x8a\xab", 6},
        {"[\"\\uD801\\udc37\"]", "\xf0\x90\x90\xb7", 4},
        {"[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]", "\"\\/\b\f\n\r\t", 8},
        {"[\"\\\\u0000\"]", "\\u0000", 6},
        {"[\"\\uDBFF\\uDFFF\"]", "\xf4\x8f\xbf\xbf", 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fixture f;
        fx_open(&f, cases[i].json, strlen(cases[i].json), 0);
        bool more;
        atd_string s;
        ck_assert(atd_array_begin(&f.r, &more) && more);
        ck_assert(atd_read_string(&f.r, &s));
        ck_assert_uint_eq(s.len, cases[i].want_len);
        ck_assert_int_eq(memcmp(s.ptr, cases[i].want, s.len), 0);
        fx_close(&f);
    }
}
END_TEST

/* ------------------------------------------------------------------------ */
/* The block validator (utf8.h): every kernel, every block boundary          */
/* ------------------------------------------------------------------------ */

/* Text in front of the byte under test: n bytes of whole 1- to 4-byte
 * characters (then 'a's to make up the length), so that the validator is
 * already inside non-ASCII text, carrying state from block to block, when it
 * reaches the position under test. */
static size_t mixed_text(char *out, size_t n)
{
    static const char *const chars[] = {"\xc3\xa9",         "a", "\xe2\x82\xac",
                                        "\xf0\x9f\x98\x80", " ", "\xd0\x96"};
    size_t len = 0;
    for (size_t i = 0;; i++) {
        const char *c = chars[i % 6];
        size_t cl = strlen(c);
        if (len + cl > n)
            break;
        memcpy(out + len, c, cl);
        len += cl;
    }
    while (len < n)
        out[len++] = 'a';
    return len;
}

/* Ill-formed text at each position of the first three 32-byte blocks, after
 * valid non-ASCII text: the error names the first byte of the bad sequence
 * and its offset, whichever kernel ran; a sequence cut short by the end of
 * the input is an unterminated string. */
START_TEST(test_strings_validator_errors_at_every_position)
{
    static const char *const bad[] = {
        "\x80",             /* stray continuation byte */
        "\xbf\xbf",         /* two of them */
        "\xc3(",            /* lead byte, then ASCII */
        "\xc3\xc3\xa9",     /* lead byte, then a lead byte */
        "\xc0\x80",         /* overlong 2-byte */
        "\xc1\xbf",         /* overlong 2-byte */
        "\xe0\x80\x80",     /* overlong 3-byte */
        "\xe0\x9f\xbf",     /* overlong 3-byte */
        "\xed\xa0\x80",     /* surrogate */
        "\xed\xbf\xbf",     /* surrogate */
        "\xf0\x80\x80\x80", /* overlong 4-byte */
        "\xf0\x8f\xbf\xbf", /* overlong 4-byte */
        "\xf4\x90\x80\x80", /* above U+10FFFF */
        "\xf5\x80\x80\x80", /* not a lead byte */
        "\xff",             /* not a lead byte */
        "\xe2\x82(",        /* 3-byte sequence, cut short */
        "\xf0\x9f\x98(",    /* 4-byte sequence, cut short */
        "\xe2\x82\xac\x80", /* one continuation byte too many */
        "\xf0\x9f\x98\x80\x80",
    };
    char json[160], msg[64];
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        size_t bl = strlen(bad[b]);
        for (size_t pos = 0; pos <= 100; pos++) {
            size_t n = 0;
            json[n++] = '"';
            n += mixed_text(json + n, pos);
            size_t at = n;
            /* the bad sequence: the error is at its first byte, except for
             * one continuation byte too many */
            size_t err_at = at + (b >= 17 ? bl - 1 : 0);
            memcpy(json + n, bad[b], bl);
            n += bl;
            n += mixed_text(json + n, 40);
            json[n++] = '"';
            snprintf(msg, sizeof msg, "invalid UTF-8 byte 0x%02x in string",
                     (unsigned char)json[err_at]);
            read_fail_at(json, n, 0, ATD_ERR_UTF8, err_at, msg, (int)(1000 * b + pos));
            /* The same text right before the closing quote. */
            n = at + bl;
            json[n++] = '"';
            read_fail_at(json, n, 0, ATD_ERR_UTF8, err_at, msg, (int)(1000 * b + pos));
            /* Lenient mode takes the bytes as they are. */
            atd_error err;
            ck_assert_msg(read_one(json, n, ATD_READ_LENIENT, json + 1, n - 2, &err), "%s",
                          err.message);
        }
    }
    /* Valid text cut by the end of the input, inside a sequence: the string
     * is unterminated (no quote is ever found), whatever the position. */
    static const char *const cut[] = {"\xc3",         "\xe2\x82", "\xe2",
                                      "\xf0\x9f\x98", "\xf0\x9f", "\xf0"};
    for (size_t c = 0; c < sizeof cut / sizeof cut[0]; c++) {
        for (size_t pos = 0; pos <= 100; pos++) {
            size_t n = 0;
            json[n++] = '"';
            n += mixed_text(json + n, pos);
            memcpy(json + n, cut[c], strlen(cut[c]));
            n += strlen(cut[c]);
            read_fail_at(json, n, 0, ATD_ERR_EOF, 0, "unterminated string", (int)pos);
        }
    }
}
END_TEST

/* Valid text of every length up to four blocks, each kind of character
 * straddling every block boundary, ending at a quote, a backslash or a
 * control byte at every position: decoded exactly. */
START_TEST(test_strings_validator_valid_at_every_position)
{
    static const char *const chars[] = {"\xc3\xa9",     "\xe2\x82\xac",     "\xf0\x9f\x98\x80",
                                        "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf", "\xed\x9f\xbf"};
    char json[200], want[200];
    for (size_t c = 0; c < sizeof chars / sizeof chars[0]; c++) {
        size_t cl = strlen(chars[c]);
        for (size_t pos = 0; pos <= 128; pos++) {
            size_t n = 0, m;
            json[n++] = '"';
            n += mixed_text(json + n, pos);
            memcpy(json + n, chars[c], cl);
            n += cl;
            n += mixed_text(json + n, 20);
            m = n - 1;
            memcpy(want, json + 1, m);
            /* then an escape and more text */
            memcpy(json + n, "\\n\xc3\xa9", 4);
            n += 4;
            memcpy(want + m, "\n\xc3\xa9", 3);
            m += 3;
            json[n++] = '"';
            atd_error err;
            ck_assert_msg(read_one(json, n, 0, want, m, &err), "c=%zu pos=%zu: %s", c, pos,
                          err.message);
            /* a raw control byte at the same place instead */
            json[n - 6] = '\x01';
            read_fail_at(json, n, 0, ATD_ERR_STRING, n - 6,
                         "raw control byte 0x01 in string (must be escaped)", (int)pos);
        }
    }
}
END_TEST

/* Ill-formed bytes after the closing quote, in the same block, belong to
 * what follows: the string is read, the next one fails where it should. */
START_TEST(test_strings_validator_stops_at_quote)
{
    for (size_t pos = 0; pos <= 70; pos++) {
        char json[160];
        size_t n = 0;
        json[n++] = '[';
        json[n++] = '"';
        n += mixed_text(json + n, pos);
        size_t first_end = n;
        memcpy(json + n, "\",\"\xff\"]", 7);
        n += 7;
        fixture f;
        fx_open(&f, json, n, 0);
        bool more;
        atd_string s;
        ck_assert(atd_array_begin(&f.r, &more) && more);
        ck_assert(atd_read_string(&f.r, &s));
        ck_assert_uint_eq(s.len, first_end - 2);
        ck_assert_int_eq(memcmp(s.ptr, json + 2, s.len), 0);
        ck_assert(atd_array_next(&f.r, &more) && more);
        ck_assert(!atd_read_string(&f.r, &s));
        atd_error err;
        atd_reader_get_error(&f.r, &err);
        ck_assert_int_eq(err.code, ATD_ERR_UTF8);
        ck_assert_uint_eq(err.offset, first_end + 3);
        fx_close(&f);
    }
}
END_TEST

/* The kernels against each other on random text (valid characters of every
 * length mixed with stray bytes of every kind), each input in an exact-size
 * heap block: the same verdict and the same stop byte. Where the CPU has no
 * AVX2 the wide kernel is not there and only the dispatch is checked. */
static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

START_TEST(test_strings_validator_kernels_agree)
{
    static const char *const pieces[] = {
        "a",
        " ",
        "\xc3\xa9",
        "\xe2\x82\xac",
        "\xf0\x9f\x98\x80",
        "\xed\x9f\xbf",
        "\xf4\x8f\xbf\xbf",
        "\"",
        "\\",
        "\x01",
        "\x80",
        "\xbf",
        "\xc0",
        "\xc2",
        "\xe0\xa0",
        "\xed\xa0",
        "\xf0\x90\x80",
        "\xf4\x90",
        "\xf5",
        "\xff",
        "\x7f",
        "\x1f",
    };
    const size_t np = sizeof pieces / sizeof pieces[0];
    uint64_t rng = 0x243f6a8885a308d3u;
    char text[300];
    unsigned cpu = atd__cpu_kernels();
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = 0, want = xorshift(&rng) % 200;
        /* mostly valid text, with a rare odd piece */
        while (n < want) {
            uint64_t x = xorshift(&rng);
            const char *pc = pieces[x % 64 < 60 ? x % 7 : (x >> 8) % np];
            size_t pl = strlen(pc);
            memcpy(text + n, pc, pl);
            n += pl;
        }
        char *buf = malloc(n ? n : 1);
        ck_assert_ptr_nonnull(buf);
        memcpy(buf, text, n);
        const char *scalar = atd__scan_text_scalar(buf, buf + n);
        const char *dispatched = atd__scan_text(buf, buf + n);
        ck_assert_msg(dispatched == scalar, "iter %d: dispatched %td, scalar %td", iter,
                      dispatched ? dispatched - buf : -1, scalar ? scalar - buf : -1);
#if ATD__HAVE_AVX2_KERNELS
        if (cpu & ATD__CPU_AVX2) {
            const char *wide = atd__scan_text_avx2(buf, buf + n);
            ck_assert_msg(wide == scalar, "iter %d: avx2 %td, scalar %td", iter,
                          wide ? wide - buf : -1, scalar ? scalar - buf : -1);
        }
#endif
#if ATD__HAVE_AVX512_KERNELS
        if (cpu & ATD__CPU_AVX512) {
            const char *wide = atd__scan_text_avx512(buf, buf + n);
            ck_assert_msg(wide == scalar, "iter %d: avx512 %td, scalar %td", iter,
                          wide ? wide - buf : -1, scalar ? scalar - buf : -1);
        }
#endif
        free(buf);
    }
    /* Limited to the scalar kernels, the dispatch must use them. */
    atd__cpu_limit(0);
    ck_assert_uint_eq(atd__cpu_kernels(), 0);
    atd__cpu_limit(~0u);
    ck_assert_uint_eq(atd__cpu_kernels(), cpu);
}
END_TEST

/* The one-pass decoder (atd__decode_text) through the reader: an escape,
 * a surrogate pair or a multi-byte character at every offset of the 32-byte
 * blocks, several escapes in a row, and bad bytes and escapes at every
 * offset, with blank room after the string so that whole blocks run to its
 * end (without it, the tail runs: test_strings_scanner_boundaries). */
START_TEST(test_strings_decoder_block_offsets)
{
    static const struct {
        const char *ins, *dec; /* raw and decoded; dec NULL: an error */
        atd_error_code code;
    } cases[] = {
        {"\\n", "\n", 0},
        {"\\\"\\\\\\/", "\"\\/", 0},
        {"\\t\\r", "\t\r", 0},
        {"\\u00e9", "\xc3\xa9", 0},
        {"\\ud83d\\ude00", "\xf0\x9f\x98\x80", 0},
        {"\xe2\x82\xac", "\xe2\x82\xac", 0},
        {"\xf0\x9f\x98\x80\\n\xc3\xa9", "\xf0\x9f\x98\x80\n\xc3\xa9", 0},
        {"\xff", NULL, ATD_ERR_UTF8},
        {"\xe2\x82", NULL, ATD_ERR_UTF8},
        {"\xed\xa0\x80", NULL, ATD_ERR_UTF8},
        {"\x01", NULL, ATD_ERR_STRING},
        {"\\x", NULL, ATD_ERR_STRING},
        {"\\ud800", NULL, ATD_ERR_STRING},
        {"\\u12g4", NULL, ATD_ERR_STRING},
        {"\xc3\xa9\\/\\u4e2d\\u6587", "\xc3\xa9/\xe4\xb8\xad\xe6\x96\x87", 0},
        {"\\u0001\\u007f\\u0080\\u07ff\\u0800\\uffff",
         "\x01\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf", 0},
        {"\\udbff\\udfff\\ud800\\udc00", "\xf4\x8f\xbf\xbf\xf0\x90\x80\x80", 0},
        {"\\udc00", NULL, ATD_ERR_STRING},
        {"\\ud800\\u0041", NULL, ATD_ERR_STRING},
        {"\\ud800\\udbff", NULL, ATD_ERR_STRING},
        {"\\uD83D\\uDE00\\uABCD", "\xf0\x9f\x98\x80\xea\xaf\x8d", 0},
        /* runs of \u escapes: four of one UTF-8 length, mixed lengths,
         * upper-case digits, a surrogate pair among them, a bad one first */
        {"\\u4e2d\\u6587\\u4e2d\\u6587\\u4e2d",
         "\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad", 0},
        {"\\u00e9\\u00e8\\u07ff\\u0080\\u00e9", "\xc3\xa9\xc3\xa8\xdf\xbf\xc2\x80\xc3\xa9", 0},
        {"\\u0041\\u00e9\\u4e2d\\u007f\\u0800", "A\xc3\xa9\xe4\xb8\xad\x7f\xe0\xa0\x80", 0},
        {"\\u4E2D\\uFFFF\\uABCD\\uaBcD", "\xe4\xb8\xad\xef\xbf\xbf\xea\xaf\x8d\xea\xaf\x8d", 0},
        {"\\u4e2d\\ud83d\\ude00\\u4e2d\\u6587\\u4e2d",
         "\xe4\xb8\xad\xf0\x9f\x98\x80\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad", 0},
        {"\\u4e2d\\u6587\\u4e2d\\u6587\\n\\/",
         "\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87\n/", 0},
        {"\\u4eg2\\u6587\\u4e2d\\u6587", NULL, ATD_ERR_STRING},
        {"\\udc00\\u6587\\u4e2d\\u6587", NULL, ATD_ERR_STRING},
    };
    char json[512], want[512];
    /* the widest kernels, AVX2 (where the widest are AVX-512), then the
     * portable ones */
    static const unsigned limits[] = {~0u, ATD__CPU_AVX2, 0u};
    for (int limit = 0; limit < 3; limit++) {
        atd__cpu_limit(limits[limit]);
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            size_t ins = strlen(cases[c].ins);
            for (size_t pos = 0; pos <= 140; pos++) {
                for (size_t after = 0; after <= 66; after += 33) {
                    size_t n = 0, m = 0;
                    json[n++] = '"';
                    for (size_t i = 0; i < pos; i++)
                        json[n++] = want[m++] = (char)('a' + i % 26);
                    memcpy(json + n, cases[c].ins, ins);
                    n += ins;
                    if (cases[c].dec) {
                        memcpy(want + m, cases[c].dec, strlen(cases[c].dec));
                        m += strlen(cases[c].dec);
                    }
                    /* non-ASCII text after the insert too: the validator's state
                     * must start afresh after an escape */
                    for (size_t i = 0; i < after; i++)
                        json[n++] = want[m++] = i % 5 == 3 ? '\xc3' : i % 5 == 4 ? '\xa9' : 'z';
                    if (json[n - 1] == '\xc3') /* ends with a lead byte: complete it */
                        json[n++] = want[m++] = '\xa9';
                    json[n++] = '"';
                    memset(json + n, ' ', 40);
                    n += 40;
                    /* copied, and (with the widest kernels) borrowed:
                     * decoded in one pass too when it has an escape */
                    for (int borrow = 0; borrow < (limit == 0 ? 2 : 1); borrow++) {
                        atd_error err;
                        bool ok =
                            read_one(json, n, borrow ? ATD_READ_BORROW_STRINGS : 0, want, m, &err);
                        if (cases[c].dec) {
                            ck_assert_msg(ok, "case %zu pos %zu after %zu: %s", c, pos, after,
                                          err.message);
                        } else {
                            ck_assert_msg(!ok, "case %zu pos %zu after %zu", c, pos, after);
                            ck_assert_int_eq(err.code, cases[c].code);
                            ck_assert_uint_eq(err.offset, 1 + pos);
                        }
                    }
                }
            }
        }
    }
    atd__cpu_limit(~0u);
}
END_TEST

/* Strings dense with escaped slashes (\/, as PHP writes every '/') among
 * plain bytes, other short escapes, an escaped backslash before a slash,
 * \u escapes and non-ASCII text, at every alignment to the blocks: each
 * kernel (VBMI2 where the CPU has it, which drops the backslashes of a
 * block's \/ in one step; AVX2; the portable one) reads what the pieces
 * spell, copied and borrowed. */
START_TEST(test_strings_slash_escapes_every_kernel)
{
    static const struct {
        const char *json, *dec;
    } pieces[] = {{"a", "a"},      {"bcd", "bcd"},         {"\\/", "/"},   {"\\/\\/", "//"},
                  {"/", "/"},      {"\\\\", "\\"},          {"\\\\/", "\\/"}, {"\\\"", "\""},
                  {"\\n", "\n"},   {"\\u00e9", "\xc3\xa9"}, {"\xc3\xa9", "\xc3\xa9"}};
    const size_t np = sizeof pieces / sizeof pieces[0];
    static const unsigned limits[] = {~0u, ATD__CPU_AVX2, 0u};
    char json[600], want[600];
    uint64_t rng = 0x9e3779b97f4a7c15u;
    for (int limit = 0; limit < 3; limit++) {
        atd__cpu_limit(limits[limit]);
        for (int iter = 0; iter < 4000; iter++) {
            size_t n = 0, m = 0, len = xorshift(&rng) % 300;
            json[n++] = '"';
            while (n < len + 1) {
                uint64_t x = xorshift(&rng);
                /* mostly plain bytes and \/, the rest now and then */
                size_t k = x % 8 < 3 ? 0 : x % 8 < 6 ? 2 : (x >> 8) % np;
                size_t jl = strlen(pieces[k].json), dl = strlen(pieces[k].dec);
                memcpy(json + n, pieces[k].json, jl);
                memcpy(want + m, pieces[k].dec, dl);
                n += jl;
                m += dl;
            }
            json[n++] = '"';
            memset(json + n, ' ', 40);
            n += 40;
            /* borrowed, then copied into a chunk of 1024 bytes whose room
             * is now ample, now about the string's length */
            atd_error err;
            ck_assert_msg(read_one(json, n, ATD_READ_BORROW_STRINGS, want, m, &err),
                          "limit %d iter %d: %s", limit, iter, err.message);
            size_t room = iter % 2 ? 1024 - 8 : m + xorshift(&rng) % 80;
            atd_arena *a = atd_arena_new(1024, NULL);
            char *in = malloc(n); /* exact size: a read past it is an ASan error */
            if (a == NULL || in == NULL || atd_arena_alloc(a, 1024 - room, 1) == NULL)
                ck_abort_msg("set-up");
            memcpy(in, json, n);
            atd_reader r;
            atd_reader_init(&r, in, n, a, 0);
            atd_string got = {NULL, 0};
            bool ok = atd_read_string(&r, &got) && atd_read_end(&r);
            atd_reader_get_error(&r, &err);
            ck_assert_msg(ok, "limit %d iter %d room %zu: %s", limit, iter, room, err.message);
            ck_assert_msg(got.len == m && memcmp(got.ptr, want, m) == 0 && got.ptr[m] == '\0',
                          "limit %d iter %d room %zu: %.*s", limit, iter, room, (int)got.len,
                          got.ptr);
            atd_arena_free(a);
            free(in);
        }
    }
    atd__cpu_limit(~0u);
}
END_TEST

/* The inline reader moves the cursor by the length it last read at the
 * same place (atd_reader.lengths) and checks that guess: strings of random
 * lengths (short and not, some with an escape) read at one place, the
 * guess now right, now wrong, read what they are. */
START_TEST(test_strings_length_guesses)
{
    char json[8192], want[64][24];
    size_t wlen[64];
    uint64_t rng = 42;
    for (int doc = 0; doc < 50; doc++) {
        size_t n = 0;
        json[n++] = '[';
        for (int i = 0; i < 64; i++) {
            uint64_t x = xorshift(&rng);
            /* mostly the length before, else any of 0..20 */
            size_t len = i > 0 && x % 3 != 0 ? wlen[i - 1] : (size_t)(x >> 8) % 21;
            bool esc = (x >> 16) % 8 == 0 && len > 0;
            if (i > 0)
                json[n++] = ',';
            if ((x >> 20) % 2)
                json[n++] = ' ';
            json[n++] = '"';
            for (size_t k = 0; k < len; k++) {
                char c = (char)('a' + (x >> (24 + k % 8)) % 26);
                if (esc && k == len / 2) {
                    json[n++] = '\\';
                    c = '/';
                }
                json[n++] = c;
                want[i][k] = c;
            }
            wlen[i] = len;
            json[n++] = '"';
        }
        json[n++] = ']';
        memset(json + n, ' ', 40);
        n += 40;
        atd_arena *a = atd_arena_new(4096, NULL);
        ck_assert_ptr_nonnull(a);
        ck_assert_ptr_nonnull(atd_arena_alloc(a, 1, 1)); /* a chunk with room */
        atd_reader r;
        atd_reader_init(&r, json, n, a, 0);
        bool more = false;
        const char *p = atd_array_begin_p(&r, r.cur, &more);
        for (int i = 0; i < 64; i++) {
            ck_assert_msg(more && p != NULL, "doc %d string %d", doc, i);
            atd_string got;
            p = atd_read_string_p(&r, p, &got); /* one place for all */
            ck_assert_msg(p != NULL, "doc %d string %d", doc, i);
            ck_assert_msg(got.len == wlen[i] && memcmp(got.ptr, want[i], wlen[i]) == 0,
                          "doc %d string %d: %.*s", doc, i, (int)got.len, got.ptr);
            p = atd_array_next_p(&r, p, &more);
        }
        ck_assert(p != NULL && !more);
        atd_arena_free(a);
    }
}
END_TEST

/* An arena whose first chunk is smaller than the strings: the decoder runs
 * out of room and the general path copies the string into a new chunk. */
START_TEST(test_strings_decoder_out_of_room)
{
    /* each piece is 9 bytes raw, 8 decoded */
    static const char raw[] = "abcdefg\\n", dec[] = "abcdefg\n";
    char json[1200], want[1200];
    for (size_t chunk = 16; chunk <= 256; chunk += 16) {
        for (size_t pieces = 0; pieces < 36; pieces += 5) {
            size_t n = 0, m = 0;
            json[n++] = '[';
            for (int k = 0; k < 3; k++) {
                json[n++] = '"';
                for (size_t i = 0; i < pieces; i++) {
                    memcpy(json + n, raw, 9);
                    n += 9;
                    if (k == 0) {
                        memcpy(want + m, dec, 8);
                        m += 8;
                    }
                }
                json[n++] = '"';
                json[n++] = k < 2 ? ',' : ']';
            }
            atd_arena *a = atd_arena_new(chunk, NULL);
            ck_assert_ptr_nonnull(a);
            char *in = malloc(n);
            ck_assert_ptr_nonnull(in);
            memcpy(in, json, n);
            atd_reader r;
            atd_reader_init(&r, in, n, a, 0);
            bool more;
            ck_assert(atd_array_begin(&r, &more) && more);
            for (int k = 0; k < 3; k++) {
                if (k > 0)
                    ck_assert(atd_array_next(&r, &more) && more);
                atd_string s;
                ck_assert_msg(atd_read_string(&r, &s), "chunk %zu pieces %zu", chunk, pieces);
                ck_assert_uint_eq(s.len, m);
                ck_assert_int_eq(memcmp(s.ptr, want, m), 0);
                ck_assert_int_eq(s.ptr[s.len], '\0');
            }
            ck_assert(atd_array_next(&r, &more) && !more);
            atd_arena_free(a);
            free(in);
        }
    }
}
END_TEST

/* The decoder's kernels against each other on random bodies (text of every
 * length, short and \u escapes, stray bytes), in exact-size heap blocks:
 * with room enough, the same stop, the same bytes; with less room, each
 * stops no later, at a byte it could not fit, having written only what
 * fits and the same bytes as with room enough. */
enum { K_SCALAR, K_AVX2, K_AVX512, K_DISPATCHED, K_COUNT };

static bool kernel_runs(int kernel)
{
    unsigned cpu = atd__cpu_kernels();
    return kernel == K_AVX2     ? ATD__HAVE_AVX2_KERNELS && (cpu & ATD__CPU_AVX2)
           : kernel == K_AVX512 ? ATD__HAVE_AVX512_KERNELS && (cpu & ATD__CPU_AVX512)
                                : true;
}

static const char *decode_with(int kernel, char *dst, char *dst_end, const char *p, const char *end,
                               char **dst_out)
{
#if ATD__HAVE_AVX2_KERNELS
    if (kernel == K_AVX2)
        return atd__decode_text_avx2(dst, dst_end, p, end, dst_out);
#endif
#if ATD__HAVE_AVX512_KERNELS
    if (kernel == K_AVX512)
        return atd__decode_text_avx512(dst, dst_end, p, end, dst_out);
#endif
    if (kernel == K_DISPATCHED)
        return atd__decode_text(dst, dst_end, p, end, dst_out);
    return atd__decode_text_scalar(dst, dst_end, p, end, dst_out);
}

/* The short copy behind string bodies (readers and biniou writers), for
 * every length of its size classes and past them: the bytes arrive, and
 * nothing is read outside the source (a heap block of exactly n bytes, for
 * ASan) nor written outside the destination (guard bytes). */
START_TEST(test_strings_short_copy_every_length)
{
    enum { GUARD = 64, MAX = 160 };
    char dst[GUARD + MAX + GUARD];
    for (size_t n = 0; n <= MAX; n++) {
        char *src = malloc(n ? n : 1);
        ck_assert_ptr_nonnull(src);
        for (size_t i = 0; i < n; i++)
            src[i] = (char)('A' + (i * 7 + n) % 26);
        memset(dst, '#', sizeof dst);
        atd__copy_short(dst + GUARD, src, n);
        ck_assert_msg(memcmp(dst + GUARD, src, n) == 0, "length %zu: bytes differ", n);
        for (size_t i = 0; i < GUARD; i++) {
            ck_assert_msg(dst[i] == '#', "length %zu: byte %zu before written", n, GUARD - i);
            ck_assert_msg(dst[GUARD + n + i] == '#', "length %zu: byte %zu after written", n, i);
        }
        free(src);
    }
}
END_TEST

/* An escape cut by the end of the input at every offset of the blocks, in
 * an exact-size heap block (so that a load past the end is an ASan error):
 * every kernel stops at the backslash having decoded the text before it. */
START_TEST(test_strings_decoder_escape_at_end)
{
    static const char *const tails[] = {"\\", "\\u", "\\u4e", "\\u4e2d\\u6587\\u4e2d\\u65"};
    for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
        for (size_t pos = 0; pos <= 140; pos++) {
            size_t tail = strlen(tails[t]), n = pos + tail;
            char *in = malloc(n);
            ck_assert_ptr_nonnull(in);
            memset(in, 'a', pos);
            memcpy(in + pos, tails[t], tail);
            char out[256];
            for (int kernel = K_SCALAR; kernel < K_COUNT; kernel++) {
                if (!kernel_runs(kernel))
                    continue;
                char *out_end = out;
                const char *q = decode_with(kernel, out, out + sizeof out, in, in + n, &out_end);
                ck_assert_ptr_nonnull(q);
                ck_assert_msg(*q == '\\', "tail %zu pos %zu kernel %d", t, pos, kernel);
                ck_assert_int_eq(memcmp(out, in, pos), 0);
            }
            free(in);
        }
    }
}
END_TEST

START_TEST(test_strings_decoder_kernels_agree)
{
    static const char *const pieces[] = {
        /* common: text and escapes that decode */
        "a",
        "bc",
        " ",
        "\xc3\xa9",
        "\xe2\x82\xac",
        "\xf0\x9f\x98\x80",
        "\\n",
        "\\\"",
        "\\/",
        "\\\\",
        "\\u00e9",
        "\\ud83d\\ude00",
        "\\u4e2d",
        /* rare: stops and errors */
        "\"",
        "\\x",
        "\x01",
        "\xff",
        "\xe2\x82",
        "\\",
        "\\u0000",
        "\\ud800",
        "\\udc00",
        "\\ud83dx",
        "\\ud83d\\u0041",
        "\\u12g4",
        "\\u00",
        "\\ud83d\\ude",
    };
    /* For runs of \u escapes (every other iteration): escapes of every
     * UTF-8 length and case, and bad digits next to the ranges of the
     * valid ones, in every position of a run of four. */
    static const char *const u_pieces[] = {
        "\\u4e2d",
        "\\u00e9",
        "\\u0041",
        "\\uFFFF",
        "\\u0800",
        "\\u07ff",
        "\\u0080",
        "\\u007f",
        "\\uABCD",
        "\\uabcd",
        "\\ud83d\\ude00",
        "\\u0000",
        "\\ud7ff",
        "\\ue000",
        /* rare */
        "\\u00:1",
        "\\u0/41",
        "\\u@041",
        "\\u00G1",
        "\\u00`1",
        "\\u00g1",
        "\\u00\xc3\xa9",
        "\\ud800",
        "\\udfff",
        "\\n",
        "a",
        "\xe4\xb8\xad",
        "\"",
        "\\u12",
    };
    const size_t np = sizeof pieces / sizeof pieces[0];
    const size_t nu = sizeof u_pieces / sizeof u_pieces[0];
    uint64_t rng = 0x13198a2e03707344u;
    char text[400];
    for (int iter = 0; iter < 40000; iter++) {
        size_t n = 0, want = xorshift(&rng) % 300;
        while (n < want) {
            uint64_t x = xorshift(&rng);
            const char *pc = iter % 2 == 0 ? pieces[x % 64 < 58 ? x % 13 : (x >> 8) % np]
                                           : u_pieces[x % 64 < 60 ? x % 14 : (x >> 8) % nu];
            memcpy(text + n, pc, strlen(pc));
            n += strlen(pc);
        }
        char *in = malloc(n ? n : 1);
        ck_assert_ptr_nonnull(in);
        memcpy(in, text, n);
        /* with room enough: every kernel the same */
        size_t full = n + 32;
        char *ref = malloc(full), *out = malloc(full);
        ck_assert(ref && out);
        char *ref_end = NULL, *out_end = NULL;
        const char *rq = decode_with(0, ref, ref + full, in, in + n, &ref_end);
        for (int kernel = K_AVX2; kernel < K_COUNT; kernel++) {
            if (!kernel_runs(kernel))
                continue;
            const char *q = decode_with(kernel, out, out + full, in, in + n, &out_end);
            ck_assert_msg(q == rq, "iter %d kernel %d: %td, scalar %td", iter, kernel,
                          q ? q - in : -1, rq ? rq - in : -1);
            if (q != NULL) {
                ck_assert_int_eq(out_end - out, ref_end - ref);
                ck_assert_int_eq(memcmp(out, ref, (size_t)(out_end - out)), 0);
            }
        }
        /* with little room: a prefix of the same result */
        size_t room = (size_t)xorshift(&rng) % (n + 1);
        char *small = malloc(room ? room : 1);
        ck_assert_ptr_nonnull(small);
        for (int kernel = K_SCALAR; kernel < K_COUNT; kernel++) {
            if (!kernel_runs(kernel))
                continue;
            char *small_end = small;
            const char *q = decode_with(kernel, small, small + room, in, in + n, &small_end);
            if (rq == NULL && q == NULL)
                continue;
            ck_assert_ptr_nonnull(q);
            ck_assert((size_t)(small_end - small) <= room);
            if (rq != NULL && q == rq) {
                ck_assert_int_eq(small_end - small, ref_end - ref);
            } else {
                /* stopped early for room, at a byte that needs none of the
                 * caller's attention but room: plain text or an escape
                 * that decodes */
                ck_assert(rq == NULL || q < rq);
                ck_assert(*q != '"' && (unsigned char)*q >= 0x20);
                if (*q == '\\') {
                    char tmp[8], *t = tmp;
                    ck_assert(atd__decode_escapes(q, in + n, &t, tmp + sizeof tmp) != q);
                }
            }
            if (rq != NULL)
                ck_assert_int_eq(memcmp(small, ref, (size_t)(small_end - small)), 0);
        }
        free(small);
        free(ref);
        free(out);
        free(in);
    }
}
END_TEST

Suite *strings_suite(void);
Suite *strings_suite(void)
{
    Suite *s = suite_create("strings");
    TCase *tc = tcase_create("decode");
    tcase_add_test(tc, test_strings_plain);
    tcase_add_test(tc, test_strings_inline_path_room_and_handover);
    tcase_add_test(tc, test_strings_borrow_lengths);
    tcase_add_test(tc, test_strings_every_escape);
    tcase_add_test(tc, test_strings_invalid_escapes);
    tcase_add_test(tc, test_strings_surrogate_pairs);
    tcase_add_test(tc, test_strings_lone_surrogates);
    tcase_add_test(tc, test_strings_utf8_invalid);
    tcase_add_test(tc, test_strings_control_bytes);
    tcase_add_test(tc, test_strings_unterminated_and_type);
    tcase_add_test(tc, test_strings_embedded_nul_in_input);
    suite_add_tcase(s, tc);
    tc = tcase_create("storage");
    tcase_add_test(tc, test_strings_borrow_and_copy);
    tcase_add_test(tc, test_strings_no_arena);
    tcase_add_test(tc, test_strings_out_of_memory);
    tcase_add_test(tc, test_strings_keys);
    tcase_add_test(tc, test_strings_key_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("scanner");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_strings_scanner_boundaries);
    tcase_add_test(tc, test_strings_long);
    tcase_add_test(tc, test_strings_validator_errors_at_every_position);
    tcase_add_test(tc, test_strings_validator_valid_at_every_position);
    tcase_add_test(tc, test_strings_validator_stops_at_quote);
    tcase_add_test(tc, test_strings_validator_kernels_agree);
    tcase_add_test(tc, test_strings_decoder_block_offsets);
    tcase_add_test(tc, test_strings_slash_escapes_every_kernel);
    tcase_add_test(tc, test_strings_length_guesses);
    tcase_add_test(tc, test_strings_decoder_out_of_room);
    tcase_add_test(tc, test_strings_decoder_kernels_agree);
    tcase_add_test(tc, test_strings_decoder_escape_at_end);
    tcase_add_test(tc, test_strings_short_copy_every_length);
    suite_add_tcase(s, tc);
    tc = tcase_create("suite");
    tcase_add_test(tc, test_strings_suite_i_files);
    tcase_add_test(tc, test_strings_suite_y_n_files);
    tcase_add_test(tc, test_strings_suite_contents);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(strings_suite)
