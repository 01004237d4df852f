/* Tests of the reader primitives other than strings (reader.c, skip.c):
 * whitespace, punctuation, containers and the depth limit, null, bool, int
 * and double with their type leniencies and their errors, numbers followed by
 * junk, lenient mode, fail-fast behaviour, and atd_skip_value over every
 * JSONTestSuite parsing file. */
#include "test_main.h"
#include "test_files.h"

#include <atd.h>

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef ATD_SHARED_DIR
#define ATD_SHARED_DIR "../shared"
#endif
#define SUITE_DIR ATD_SHARED_DIR "/data/jsontestsuite/test_parsing"

/* The input is copied into a heap block of exactly its length so ASan
 * catches any read past the end. */
typedef struct fixture {
    atd_reader r;
    atd_arena *arena;
    char *input;
    size_t len;
} fixture;

static void fx_open_n(fixture *f, const char *json, size_t len, unsigned flags)
{
    f->arena = atd_arena_new(0, NULL);
    ck_assert_ptr_nonnull(f->arena);
    f->input = malloc(len ? len : 1);
    ck_assert_ptr_nonnull(f->input);
    memcpy(f->input, json, len);
    f->len = len;
    atd_reader_init(&f->r, f->input, len, f->arena, flags);
}

static void fx_open(fixture *f, const char *json, unsigned flags)
{
    fx_open_n(f, json, strlen(json), flags);
}

static void fx_close(fixture *f)
{
    atd_arena_free(f->arena);
    free(f->input);
}

/* Checks the recorded error: code, offset and the detail after "at $: ". */
static void check_error_at(const atd_reader *r, atd_error_code code, size_t offset,
                           const char *detail, int line)
{
    atd_error err;
    int got = atd_reader_get_error(r, &err);
    ck_assert_msg(got == (int)code, "line %d: got %s (%s)", line, atd_error_code_name(err.code),
                  err.message);
    ck_assert_msg(err.offset == offset, "line %d: offset %zu (%s)", line, err.offset, err.message);
    const char *d = strstr(err.message, "at $: ");
    ck_assert_msg(d != NULL, "line %d: %s", line, err.message);
    ck_assert_msg(strcmp(d + 6, detail) == 0, "line %d: detail '%s', wanted '%s'", line, d + 6,
                  detail);
}
#define CHECK_ERROR(r, code, offset, detail) check_error_at(r, code, offset, detail, __LINE__)

/* --- ints --- */

static bool int_of(const char *json, unsigned flags, int64_t *v, fixture *keep)
{
    fx_open(keep, json, flags);
    return atd_read_int64(&keep->r, v) && atd_read_end(&keep->r);
}

#define INT_OK(json, want)                                                                         \
    do {                                                                                           \
        fixture f_;                                                                                \
        int64_t v_ = 12345;                                                                        \
        bool ok_ = int_of(json, 0, &v_, &f_);                                                      \
        atd_error e_;                                                                              \
        atd_reader_get_error(&f_.r, &e_);                                                          \
        ck_assert_msg(ok_, "%s: %s", json, e_.message);                                            \
        ck_assert_msg(v_ == (want), "%s: got %lld", json, (long long)v_);                          \
        fx_close(&f_);                                                                             \
    } while (0)

#define INT_FAIL(json, code, offset, detail)                                                       \
    do {                                                                                           \
        fixture f_;                                                                                \
        int64_t v_;                                                                                \
        ck_assert_msg(!int_of(json, 0, &v_, &f_), "%s accepted", json);                            \
        check_error_at(&f_.r, code, offset, detail, __LINE__);                                     \
        fx_close(&f_);                                                                             \
    } while (0)

START_TEST(test_reader_int_numbers)
{
    INT_OK("0", 0);
    INT_OK("-0", 0);
    INT_OK("42", 42);
    INT_OK(" \t\r\n-7 \n", -7);
    INT_OK("9223372036854775807", INT64_MAX);
    INT_OK("-9223372036854775808", INT64_MIN);
}
END_TEST

START_TEST(test_reader_int_rejects)
{
    INT_FAIL("2.5", ATD_ERR_TYPE, 0, "expected an integer, found 2.5");
    INT_FAIL("2.0", ATD_ERR_TYPE, 0, "expected an integer, found 2.0");
    INT_FAIL("2e3", ATD_ERR_TYPE, 0, "expected an integer, found 2e3");
    INT_FAIL("-1E-2", ATD_ERR_TYPE, 0, "expected an integer, found -1E-2");
    INT_FAIL("02", ATD_ERR_NUMBER, 0, "expected an integer, found 02");
    INT_FAIL("+2", ATD_ERR_SYNTAX, 0, "expected an integer, found +2");
    INT_FAIL("  2x", ATD_ERR_NUMBER, 2, "expected an integer, found 2x");
    INT_FAIL("1.", ATD_ERR_NUMBER, 0, "expected an integer, found 1.");
    INT_FAIL("-", ATD_ERR_NUMBER, 0, "expected an integer, found -");
    INT_FAIL(".5", ATD_ERR_SYNTAX, 0, "expected an integer, found .5");
    INT_FAIL("true", ATD_ERR_TYPE, 0, "expected an integer, found true");
    INT_FAIL("null", ATD_ERR_TYPE, 0, "expected an integer, found null");
    INT_FAIL("[1]", ATD_ERR_TYPE, 0, "expected an integer, found '['");
    INT_FAIL("{}", ATD_ERR_TYPE, 0, "expected an integer, found '{'");
    INT_FAIL("", ATD_ERR_EOF, 0, "unexpected end of input");
    INT_FAIL(" ", ATD_ERR_EOF, 1, "unexpected end of input");
    INT_FAIL("9223372036854775808", ATD_ERR_RANGE, 0, "integer 9223372036854775808 out of range");
    INT_FAIL("-9223372036854775809", ATD_ERR_RANGE, 0, "integer -9223372036854775809 out of range");
    INT_FAIL(" 123456789012345678901234567890123456789012345678901234567890", ATD_ERR_RANGE, 1,
             "integer 12345678901234567890123456789012345678901234... out of range");
    INT_FAIL("1 2", ATD_ERR_TRAILING, 2, "unexpected 2 after the JSON value");
}
END_TEST

/* Bare integers of every digit count, with every kind of byte after them,
 * at the end of the input and with more input after it: the word-at-a-time
 * paths (two 8-byte words, or one, or bytes near the end) give the value,
 * the cursor and the error code that the digits call for. The expected
 * value is computed here digit by digit, with an exact overflow check. */
START_TEST(test_reader_int_every_length)
{
    static const char *const after[] = {"", ",", "]", "}", " ", "\n", ".5", "e3", "E", "x", "\""};
    char json[64];
    for (int neg = 0; neg <= 1; neg++) {
        for (int lead_zero = 0; lead_zero <= 1; lead_zero++) {
            for (size_t nd = 1; nd <= 21; nd++) {
                for (size_t a = 0; a < sizeof after / sizeof after[0]; a++) {
                    for (size_t pad = 0; pad <= 24; pad += 24) {
                        size_t n = 0;
                        if (neg)
                            json[n++] = '-';
                        size_t digits = n;
                        uint64_t mag = 0;
                        bool overflow = false;
                        for (size_t i = 0; i < nd; i++) {
                            char d = lead_zero && i == 0 ? '0' : (char)('1' + (i * 7 + nd) % 9);
                            json[n++] = d;
                            uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
                            if (mag > (limit - (uint64_t)(d - '0')) / 10)
                                overflow = true;
                            else
                                mag = mag * 10 + (uint64_t)(d - '0');
                        }
                        size_t token_end = n;
                        memcpy(json + n, after[a], strlen(after[a]));
                        n += strlen(after[a]);
                        for (size_t i = 0; i < pad; i++)
                            json[n++] = ' ';
                        fixture f;
                        fx_open_n(&f, json, n, 0);
                        int64_t v = 12345;
                        bool ok = atd_read_int64(&f.r, &v);
                        atd_error err;
                        atd_reader_get_error(&f.r, &err);
                        bool delimited = a <= 5 || a == 10;
                        bool fraction = a >= 6 && a <= 8;
                        if (lead_zero && nd > 1) {
                            ck_assert_msg(!ok && err.code == ATD_ERR_NUMBER, "%.*s: %s", (int)n,
                                          json, err.message);
                        } else if (fraction) {
                            /* "1E" alone is no number; "1.5" and "1e3" are
                             * numbers, just not integers */
                            ck_assert_msg(!ok &&
                                              err.code == (a == 8 ? ATD_ERR_NUMBER : ATD_ERR_TYPE),
                                          "%.*s: %s", (int)n, json, err.message);
                        } else if (!delimited) {
                            ck_assert_msg(!ok && err.code == ATD_ERR_NUMBER, "%.*s: %s", (int)n,
                                          json, err.message);
                        } else if (overflow) {
                            ck_assert_msg(!ok && err.code == ATD_ERR_RANGE, "%.*s: %s", (int)n,
                                          json, err.message);
                        } else {
                            ck_assert_msg(ok, "%.*s: %s", (int)n, json, err.message);
                            int64_t want =
                                neg ? (mag == 0 ? 0 : -(int64_t)(mag - 1) - 1) : (int64_t)mag;
                            ck_assert_msg(v == want, "%.*s: got %lld", (int)n, json, (long long)v);
                            ck_assert_uint_eq((size_t)(f.r.cur - f.r.start), token_end);
                        }
                        if (!ok)
                            ck_assert_uint_eq(err.offset, digits - (size_t)neg);
                        fx_close(&f);
                    }
                }
            }
        }
    }
}
END_TEST

/* The next number of a xorshift sequence (the length guess tests' inputs). */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Opens f on the n bytes of json, an array, followed by 40 spaces (json has
 * room for them), so that its values are far from the end of the input
 * where the inline paths take them; returns the cursor at the first
 * element. */
static const char *open_padded_array(fixture *f, char *json, size_t n, bool *more)
{
    memset(json + n, ' ', 40);
    fx_open_n(f, json, n + 40, 0);
    return atd_array_begin_p(&f->r, f->r.cur, more);
}

/* The reader moves the cursor past an integer by the length it last found
 * at the same place (atd_reader.lengths) and checks that guess: integers of
 * random lengths (mostly the length before, else any of 1 to 18 digits,
 * some negative) read at one place, the guess now right, now wrong, read
 * what they are and leave the cursor after them. */
START_TEST(test_reader_int_length_guesses)
{
    char json[4096];
    int64_t want[64];
    uint64_t rng = 7;
    for (int doc = 0; doc < 50; doc++) {
        size_t n = 0, digits = 1;
        json[n++] = '[';
        for (int i = 0; i < 64; i++) {
            next_random(&rng);
            if (i == 0 || rng % 3 == 0)
                digits = 1 + (size_t)(rng >> 8) % 18;
            bool neg = (rng >> 16) % 4 == 0;
            if (i > 0)
                json[n++] = ',';
            if (neg)
                json[n++] = '-';
            int64_t v = 0;
            for (size_t k = 0; k < digits; k++) {
                int d = k == 0 ? 1 + (int)((rng >> 24) % 9) : (int)((rng >> (20 + k)) % 10);
                json[n++] = (char)('0' + d);
                v = v * 10 + d;
            }
            want[i] = neg ? -v : v;
        }
        json[n++] = ']';
        fixture f;
        bool more = false;
        const char *p = open_padded_array(&f, json, n, &more);
        for (int i = 0; i < 64; i++) {
            ck_assert_msg(more && p != NULL, "doc %d int %d", doc, i);
            int64_t got = 0;
            p = atd_read_int64_p(&f.r, p, &got); /* one place for all */
            ck_assert_msg(p != NULL && got == want[i], "doc %d int %d: %lld, wanted %lld", doc, i,
                          (long long)got, (long long)want[i]);
            ck_assert_msg(*p == (i == 63 ? ']' : ','), "doc %d int %d", doc, i);
            p = atd_array_next_p(&f.r, p, &more);
        }
        ck_assert(p != NULL && !more);
        fx_close(&f);
    }
}
END_TEST

/* Skipped strings move the cursor by the length last found at their rank
 * (atd_reader.skip_lengths), checked: elements of one array skipped one by
 * one all take rank 0, and their lengths (plain, escaped, non-ASCII) change
 * from one to the next; each skip must end right after its string. */
START_TEST(test_reader_skip_length_guesses)
{
    char json[8192];
    size_t ends[64];
    uint64_t rng = 11;
    for (int doc = 0; doc < 50; doc++) {
        size_t n = 0, len = 1;
        json[n++] = '[';
        for (int i = 0; i < 64; i++) {
            next_random(&rng);
            if (i == 0 || rng % 3 == 0)
                len = (size_t)(rng >> 8) % 40;
            if (i > 0)
                json[n++] = ',';
            json[n++] = '"';
            for (size_t k = 0; k < len; k++) {
                unsigned kind = (unsigned)(rng >> (10 + k % 40)) % 16;
                if (kind == 0) {
                    memcpy(json + n, "\\u00e9", 6);
                    n += 6;
                } else if (kind == 1) {
                    memcpy(json + n, "\xc3\xa9", 2);
                    n += 2;
                } else {
                    json[n++] = (char)('a' + kind);
                }
            }
            json[n++] = '"';
            ends[i] = n;
        }
        json[n++] = ']';
        fixture f;
        bool more = false;
        const char *p = open_padded_array(&f, json, n, &more);
        for (int i = 0; i < 64; i++) {
            ck_assert_msg(more && p != NULL, "doc %d string %d", doc, i);
            p = atd_skip_value_p(&f.r, p);
            ck_assert_msg(p != NULL && (size_t)(p - f.r.start) == ends[i],
                          "doc %d string %d: ended at %td, wanted %zu", doc, i,
                          p ? p - f.r.start : (ptrdiff_t)-1, ends[i]);
            p = atd_array_next_p(&f.r, p, &more);
        }
        ck_assert(p != NULL && !more);
        fx_close(&f);
    }
}
END_TEST

START_TEST(test_reader_int_strings)
{
    INT_OK("\"42\"", 42);
    INT_OK("\"-7\"", -7);
    INT_OK("\"+7\"", 7);
    INT_OK("\"007\"", 7);
    INT_OK("\"-0\"", 0);
    INT_OK("\"9223372036854775807\"", INT64_MAX);
    INT_OK("\"-9223372036854775808\"", INT64_MIN);
    INT_FAIL("\" 7\"", ATD_ERR_TYPE, 0, "expected an integer, found \" 7\"");
    INT_FAIL("\"7 \"", ATD_ERR_TYPE, 0, "expected an integer, found \"7 \"");
    INT_FAIL("\"1.0\"", ATD_ERR_TYPE, 0, "expected an integer, found \"1.0\"");
    INT_FAIL("\"\"", ATD_ERR_TYPE, 0, "expected an integer, found \"\"");
    INT_FAIL("\"+\"", ATD_ERR_TYPE, 0, "expected an integer, found \"+\"");
    INT_FAIL("\"-\"", ATD_ERR_TYPE, 0, "expected an integer, found \"-\"");
    INT_FAIL("\"+-1\"", ATD_ERR_TYPE, 0, "expected an integer, found \"+-1\"");
    INT_FAIL("\"0x1F\"", ATD_ERR_TYPE, 0, "expected an integer, found \"0x1F\"");
    INT_FAIL("\"1_000\"", ATD_ERR_TYPE, 0, "expected an integer, found \"1_000\"");
    INT_FAIL("\"4\\u0032\"", ATD_ERR_TYPE, 0, "expected an integer, found \"4\\u0032\"");
    INT_FAIL("\"9223372036854775808\"", ATD_ERR_RANGE, 0,
             "integer \"9223372036854775808\" out of range");
    INT_FAIL("\"-9223372036854775809\"", ATD_ERR_RANGE, 0,
             "integer \"-9223372036854775809\" out of range");
    INT_FAIL("\"42", ATD_ERR_EOF, 0, "unterminated string");
    INT_FAIL("\"a very long string that does not hold an integer at all\"", ATD_ERR_TYPE, 0,
             "expected an integer, found \"a very long string that does not hold an i...");
}
END_TEST

START_TEST(test_reader_int_range)
{
    fixture f;
    int64_t v;
    fx_open(&f, "[0, 255, 256, -1]", 0);
    bool more;
    ck_assert(atd_array_begin(&f.r, &more) && more);
    ck_assert(atd_read_int_range(&f.r, 0, 255, &v) && v == 0);
    ck_assert(atd_array_next(&f.r, &more) && more);
    ck_assert(atd_read_int_range(&f.r, 0, 255, &v) && v == 255);
    ck_assert(atd_array_next(&f.r, &more) && more);
    ck_assert(!atd_read_int_range(&f.r, 0, 255, &v));
    CHECK_ERROR(&f.r, ATD_ERR_RANGE, 9, "integer 256 out of range [0, 255]");
    fx_close(&f);
    fx_open(&f, "\"-129\"", 0);
    ck_assert(!atd_read_int_range(&f.r, -128, 127, &v));
    CHECK_ERROR(&f.r, ATD_ERR_RANGE, 0, "integer \"-129\" out of range [-128, 127]");
    fx_close(&f);
    fx_open(&f, "1.5", 0);
    ck_assert(!atd_read_int_range(&f.r, -128, 127, &v));
    CHECK_ERROR(&f.r, ATD_ERR_TYPE, 0, "expected an integer, found 1.5");
    fx_close(&f);
}
END_TEST

/* --- doubles --- */

static bool double_of(const char *json, unsigned flags, double *v, fixture *keep)
{
    fx_open(keep, json, flags);
    return atd_read_double(&keep->r, v) && atd_read_end(&keep->r);
}

#define DOUBLE_OK_F(json, flags, want)                                                             \
    do {                                                                                           \
        fixture f_;                                                                                \
        double v_ = 12345;                                                                         \
        bool ok_ = double_of(json, flags, &v_, &f_);                                               \
        atd_error e_;                                                                              \
        atd_reader_get_error(&f_.r, &e_);                                                          \
        ck_assert_msg(ok_, "%s: %s", json, e_.message);                                            \
        double w_ = (want);                                                                        \
        ck_assert_msg(isnan(w_) ? isnan(v_) : v_ == w_, "%s: got %g", json, v_);                   \
        ck_assert_msg(signbit(v_) == signbit(w_), "%s: sign", json);                               \
        fx_close(&f_);                                                                             \
    } while (0)
#define DOUBLE_OK(json, want) DOUBLE_OK_F(json, 0, want)

#define DOUBLE_FAIL_F(json, flags, code, offset, detail)                                           \
    do {                                                                                           \
        fixture f_;                                                                                \
        double v_;                                                                                 \
        ck_assert_msg(!double_of(json, flags, &v_, &f_), "%s accepted", json);                     \
        check_error_at(&f_.r, code, offset, detail, __LINE__);                                     \
        fx_close(&f_);                                                                             \
    } while (0)
#define DOUBLE_FAIL(json, code, offset, detail) DOUBLE_FAIL_F(json, 0, code, offset, detail)

START_TEST(test_reader_double)
{
    DOUBLE_OK("1", 1.0);
    DOUBLE_OK("-0", -0.0);
    DOUBLE_OK("-0.0", -0.0);
    DOUBLE_OK("2.5", 2.5);
    DOUBLE_OK(" 1e3 ", 1000.0);
    DOUBLE_OK("-1.25E-2", -0.0125);
    DOUBLE_OK("1e400", INFINITY);
    DOUBLE_OK("-1e400", -INFINITY);
    DOUBLE_OK("9223372036854775808", 9223372036854775808.0);
    DOUBLE_OK("\"2.5\"", 2.5);
    DOUBLE_OK("\"-1e2\"", -100.0);
    DOUBLE_OK("\"3\"", 3.0);
    DOUBLE_FAIL("\" 2.5\"", ATD_ERR_TYPE, 0, "expected a number, found \" 2.5\"");
    DOUBLE_FAIL("\"2.5x\"", ATD_ERR_TYPE, 0, "expected a number, found \"2.5x\"");
    DOUBLE_FAIL("\"\"", ATD_ERR_TYPE, 0, "expected a number, found \"\"");
    DOUBLE_FAIL("\"+1\"", ATD_ERR_TYPE, 0, "expected a number, found \"+1\"");
    DOUBLE_FAIL("\"NaN\"", ATD_ERR_TYPE, 0, "expected a number, found \"NaN\"");
    DOUBLE_FAIL("NaN", ATD_ERR_SYNTAX, 0, "expected a number, found NaN");
    DOUBLE_FAIL("Infinity", ATD_ERR_SYNTAX, 0, "expected a number, found Infinity");
    DOUBLE_FAIL("-Infinity", ATD_ERR_NUMBER, 0, "expected a number, found -Infinity");
    DOUBLE_FAIL("01", ATD_ERR_NUMBER, 0, "expected a number, found 01");
    DOUBLE_FAIL("1.5x", ATD_ERR_NUMBER, 0, "expected a number, found 1.5x");
    DOUBLE_FAIL("1.", ATD_ERR_NUMBER, 0, "expected a number, found 1.");
    DOUBLE_FAIL("1e", ATD_ERR_NUMBER, 0, "expected a number, found 1e");
    DOUBLE_FAIL(".5", ATD_ERR_SYNTAX, 0, "expected a number, found .5");
    DOUBLE_FAIL("true", ATD_ERR_TYPE, 0, "expected a number, found true");
    DOUBLE_FAIL("", ATD_ERR_EOF, 0, "unexpected end of input");
}
END_TEST

START_TEST(test_reader_double_lenient)
{
    DOUBLE_OK_F("NaN", ATD_READ_LENIENT, NAN);
    DOUBLE_OK_F("Infinity", ATD_READ_LENIENT, INFINITY);
    DOUBLE_OK_F(" -Infinity ", ATD_READ_LENIENT, -INFINITY);
    DOUBLE_OK_F("\"NaN\"", ATD_READ_LENIENT, NAN);
    DOUBLE_OK_F("\"Infinity\"", ATD_READ_LENIENT, INFINITY);
    DOUBLE_OK_F("\"-Infinity\"", ATD_READ_LENIENT, -INFINITY);
    DOUBLE_OK_F("2.5", ATD_READ_LENIENT, 2.5);
    DOUBLE_FAIL_F("NaNx", ATD_READ_LENIENT, ATD_ERR_SYNTAX, 0, "expected a number, found NaNx");
    DOUBLE_FAIL_F("Inf", ATD_READ_LENIENT, ATD_ERR_SYNTAX, 0, "expected a number, found Inf");
    DOUBLE_FAIL_F("nan", ATD_READ_LENIENT, ATD_ERR_TYPE, 0, "expected a number, found nan");
    DOUBLE_FAIL_F("-Inf", ATD_READ_LENIENT, ATD_ERR_NUMBER, 0, "expected a number, found -Inf");
    DOUBLE_FAIL_F("\"nan\"", ATD_READ_LENIENT, ATD_ERR_TYPE, 0, "expected a number, found \"nan\"");
    /* The array form, as a generated reader of float list sees it. */
    fixture f;
    fx_open(&f, "[NaN,Infinity,-Infinity,1]", ATD_READ_LENIENT);
    bool more;
    double v[4];
    ck_assert(atd_array_begin(&f.r, &more) && more);
    for (int i = 0; i < 4; i++) {
        ck_assert(atd_read_double(&f.r, &v[i]));
        ck_assert(atd_array_next(&f.r, &more));
        ck_assert_int_eq(more, i < 3);
    }
    ck_assert(isnan(v[0]) && v[1] == INFINITY && v[2] == -INFINITY && v[3] == 1.0);
    fx_close(&f);
}
END_TEST

/* --- null and bool --- */

START_TEST(test_reader_null_bool)
{
    static const struct {
        const char *json;
        int want; /* 0/1 for a bool, -1 for an error */
        atd_error_code code;
        size_t offset;
        const char *detail;
    } cases[] = {
        {"true", 1, ATD_ERR_OK, 0, NULL},
        {" false ", 0, ATD_ERR_OK, 0, NULL},
        {"\"true\"", 1, ATD_ERR_OK, 0, NULL},
        {"\"false\"", 0, ATD_ERR_OK, 0, NULL},
        {"\"tru\\u0065\"", -1, ATD_ERR_TYPE, 0, "expected a boolean, found \"tru\\u0065\""},
        {"\"True\"", -1, ATD_ERR_TYPE, 0, "expected a boolean, found \"True\""},
        {"\"true \"", -1, ATD_ERR_TYPE, 0, "expected a boolean, found \"true \""},
        {"True", -1, ATD_ERR_SYNTAX, 0, "expected a boolean, found True"},
        {"1", -1, ATD_ERR_TYPE, 0, "expected a boolean, found 1"},
        {"null", -1, ATD_ERR_TYPE, 0, "expected a boolean, found null"},
        {"truex", -1, ATD_ERR_TYPE, 0, "expected a boolean, found truex"},
        {"true1", -1, ATD_ERR_TYPE, 0, "expected a boolean, found true1"},
        {"fals", -1, ATD_ERR_EOF, 0, "unexpected end of input"},
        {" t", -1, ATD_ERR_EOF, 1, "unexpected end of input"},
        {"", -1, ATD_ERR_EOF, 0, "unexpected end of input"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fixture f;
        bool b = !cases[i].want;
        fx_open(&f, cases[i].json, 0);
        bool ok = atd_read_bool(&f.r, &b) && atd_read_end(&f.r);
        ck_assert_msg(ok == (cases[i].want >= 0), "%s", cases[i].json);
        if (ok)
            ck_assert_int_eq(b, cases[i].want);
        else
            check_error_at(&f.r, cases[i].code, cases[i].offset, cases[i].detail, __LINE__);
        fx_close(&f);
    }
    fixture f;
    fx_open(&f, " null", 0);
    ck_assert(atd_read_null(&f.r) && atd_read_end(&f.r));
    fx_close(&f);
    fx_open(&f, "nul", 0);
    ck_assert(!atd_read_null(&f.r));
    CHECK_ERROR(&f.r, ATD_ERR_EOF, 0, "unexpected end of input");
    fx_close(&f);
    fx_open(&f, "\"null\"", 0);
    ck_assert(!atd_read_null(&f.r));
    CHECK_ERROR(&f.r, ATD_ERR_TYPE, 0, "expected null, found \"null\"");
    fx_close(&f);
    fx_open(&f, "nullnull", 0);
    ck_assert(!atd_read_null(&f.r));
    CHECK_ERROR(&f.r, ATD_ERR_TYPE, 0, "expected null, found nullnull");
    fx_close(&f);
}
END_TEST

/* --- tokens, whitespace, containers --- */

START_TEST(test_reader_whitespace)
{
    /* Runs of every length and mix cross the 8- and 16-byte blocks. */
    static const char ws[] = " \t\r\n";
    char buf[100];
    for (size_t n = 0; n < 70; n++) {
        for (size_t i = 0; i < n; i++)
            buf[i] = ws[(i * 7 + n) % 4];
        buf[n] = '5';
        for (size_t tail = 0; tail < 20; tail++) {
            for (size_t i = 0; i < tail; i++)
                buf[n + 1 + i] = ws[(i + n) % 4];
            fixture f;
            fx_open_n(&f, buf, n + 1 + tail, 0);
            int64_t v;
            ck_assert(atd_read_int64(&f.r, &v) && v == 5);
            ck_assert_ptr_eq(f.r.cur, f.input + n + 1);
            ck_assert(atd_read_end(&f.r));
            fx_close(&f);
        }
    }
    /* Pretty-printed indentation (a newline, or a space, then spaces) of
     * every depth across the inline skip's 16- and 32-byte blocks, with the
     * input going on far enough for them. */
    for (size_t n = 0; n < 40; n++) {
        for (int lead = 0; lead < 2; lead++) {
            memset(buf, ' ', sizeof buf);
            buf[0] = lead ? '\n' : ' ';
            buf[n + 1] = '5';
            fixture f;
            fx_open_n(&f, buf, sizeof buf, 0);
            int64_t v;
            ck_assert(atd_read_int64(&f.r, &v) && v == 5);
            ck_assert_msg(f.r.cur == f.input + n + 2, "indentation %zu", n);
            ck_assert(atd_read_end(&f.r));
            fx_close(&f);
        }
    }
    /* A byte that is not JSON whitespace is never skipped, at the start of
     * the run or after its newline, with the input going on far enough for
     * the inline skip's blocks. */
    static const char not_ws[] = {'\f', '\v', 1, 0x7f};
    for (size_t k = 0; k < sizeof not_ws; k++) {
        for (size_t at = 0; at < 2; at++) {
            memset(buf, ' ', sizeof buf);
            buf[0] = '\n';
            buf[at] = not_ws[k];
            buf[at + 1] = '5';
            fixture g;
            fx_open_n(&g, buf, sizeof buf, 0);
            int64_t w;
            ck_assert(!atd_read_int64(&g.r, &w));
            ck_assert_uint_eq(g.r.err_offset, at);
            fx_close(&g);
        }
    }
    /* Form feed and vertical tab are not JSON whitespace. */
    fixture f;
    fx_open(&f, "  \f1", 0);
    int64_t v;
    ck_assert(!atd_read_int64(&f.r, &v));
    CHECK_ERROR(&f.r, ATD_ERR_SYNTAX, 2, "expected an integer, found \\x0c1");
    fx_close(&f);
    fx_open(&f, "                    \v", 0);
    ck_assert(!atd_read_end(&f.r));
    CHECK_ERROR(&f.r, ATD_ERR_TRAILING, 20, "unexpected \\x0b after the JSON value");
    fx_close(&f);
}
END_TEST

START_TEST(test_reader_tokens)
{
    fixture f;
    fx_open(&f, "  :  ,x", 0);
    ck_assert_int_eq(atd_peek(&f.r), ':');
    ck_assert(!atd_accept(&f.r, ','));
    ck_assert(!atd_reader_failed(&f.r));
    ck_assert(atd_accept(&f.r, ':'));
    ck_assert(atd_expect(&f.r, ','));
    ck_assert(!atd_expect(&f.r, ':'));
    CHECK_ERROR(&f.r, ATD_ERR_SYNTAX, 6, "expected ':', found x");
    ck_assert_int_eq(atd_peek(&f.r), -1);
    fx_close(&f);
    fx_open(&f, "   ", 0);
    ck_assert_int_eq(atd_peek(&f.r), -1);
    ck_assert(!atd_expect(&f.r, ']'));
    CHECK_ERROR(&f.r, ATD_ERR_EOF, 3, "unexpected end of input");
    fx_close(&f);
    /* A NULL pointer with length 0 is an empty input. */
    atd_reader r;
    atd_reader_init(&r, NULL, 0, NULL, 0);
    ck_assert_int_eq(atd_peek(&r), -1);
    ck_assert(atd_read_end(&r));
    ck_assert(!atd_skip_value(&r));
    CHECK_ERROR(&r, ATD_ERR_EOF, 0, "unexpected end of input");
}
END_TEST

/* The accessors generated readers use instead of the reader's fields. */
START_TEST(test_reader_accessors)
{
    fixture f;
    atd_string k;
    fx_open(&f, "  {\"ab\": 1}", ATD_READ_STRICT_FIELDS);
    ck_assert_ptr_eq(atd_reader_arena(&f.r), f.arena);
    ck_assert(atd_reader_has_flag(&f.r, ATD_READ_STRICT_FIELDS));
    ck_assert(!atd_reader_has_flag(&f.r, ATD_READ_BORROW_STRINGS));
    ck_assert_uint_eq(atd_reader_offset(&f.r), 0);
    atd_skip_ws(&f.r);
    ck_assert_uint_eq(atd_reader_offset(&f.r), 2);
    bool more;
    ck_assert(atd_object_begin(&f.r, &more) && more);
    ck_assert(atd_object_key(&f.r, &k));
    /* a key without escape is borrowed: owning it copies it into the arena */
    ck_assert(k.ptr == f.input + 4);
    ck_assert_ptr_eq(atd_reader_own_string_p(&f.r, f.r.cur, &k), f.r.cur);
    ck_assert(k.ptr != f.input + 4);
    ck_assert_uint_eq(k.len, 2);
    ck_assert_int_eq(memcmp(k.ptr, "ab", 3), 0);
    /* a string outside the input is left alone */
    const char *copy = k.ptr;
    ck_assert_ptr_eq(atd_reader_own_string_p(&f.r, f.r.cur, &k), f.r.cur);
    ck_assert_ptr_eq(k.ptr, copy);
    fx_close(&f);
    /* with ATD_READ_BORROW_STRINGS the borrowed bytes stay borrowed */
    fx_open(&f, "{\"ab\": 1}", ATD_READ_BORROW_STRINGS);
    ck_assert(atd_object_begin(&f.r, &more) && more);
    ck_assert(atd_object_key(&f.r, &k));
    ck_assert_ptr_eq(atd_reader_own_string_p(&f.r, f.r.cur, &k), f.r.cur);
    ck_assert(k.ptr == f.input + 2);
    fx_close(&f);
}
END_TEST

/* A list of int lists, read with the container primitives. */
START_TEST(test_reader_containers)
{
    fixture f;
    fx_open(&f, " [ [1, 2] ,[], [ 3 ] ] ", 0);
    bool more, more2;
    int64_t sum = 0, count = 0, v;
    ck_assert(atd_array_begin(&f.r, &more) && more);
    ck_assert_uint_eq(f.r.depth, 1);
    while (more) {
        ck_assert(atd_array_begin(&f.r, &more2));
        while (more2) {
            ck_assert_uint_eq(f.r.depth, 2);
            ck_assert(atd_read_int64(&f.r, &v));
            sum += v;
            count++;
            ck_assert(atd_array_next(&f.r, &more2));
        }
        ck_assert_uint_eq(f.r.depth, 1);
        ck_assert(atd_array_next(&f.r, &more));
    }
    ck_assert_uint_eq(f.r.depth, 0);
    ck_assert(atd_read_end(&f.r));
    ck_assert_int_eq(sum, 6);
    ck_assert_int_eq(count, 3);
    fx_close(&f);

    fx_open(&f, "{ }", 0);
    ck_assert(atd_object_begin(&f.r, &more) && !more);
    ck_assert_uint_eq(f.r.depth, 0);
    ck_assert(atd_read_end(&f.r));
    fx_close(&f);

    static const struct {
        const char *json;
        atd_error_code code;
        size_t offset;
        const char *detail;
    } bad[] = {
        {"[1 2]", ATD_ERR_SYNTAX, 3, "expected ',' or ']', found 2"},
        {"[1,]", ATD_ERR_SYNTAX, 3, "expected an integer, found ']'"},
        {"[1}", ATD_ERR_SYNTAX, 2, "expected ',' or ']', found '}'"},
        {"[1", ATD_ERR_EOF, 2, "unexpected end of input"},
        {"[", ATD_ERR_EOF, 1, "unexpected end of input"},
        {"[,1]", ATD_ERR_SYNTAX, 1, "expected an integer, found ','"},
        {"[1]]", ATD_ERR_TRAILING, 3, "unexpected ']' after the JSON value"},
        {"1", ATD_ERR_TYPE, 0, "expected an array, found 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fx_open(&f, bad[i].json, 0);
        bool ok = atd_array_begin(&f.r, &more);
        while (ok && more)
            ok = atd_read_int64(&f.r, &v) && atd_array_next(&f.r, &more);
        ok = ok && atd_read_end(&f.r);
        ck_assert_msg(!ok, "%s accepted", bad[i].json);
        check_error_at(&f.r, bad[i].code, bad[i].offset, bad[i].detail, __LINE__);
        fx_close(&f);
    }

    fx_open(&f, "{\"a\":1 \"b\":2}", 0);
    atd_string k;
    ck_assert(atd_object_begin(&f.r, &more) && more);
    ck_assert(atd_object_key(&f.r, &k) && atd_read_int64(&f.r, &v));
    ck_assert(!atd_object_next(&f.r, &more));
    CHECK_ERROR(&f.r, ATD_ERR_SYNTAX, 7, "expected ',' or '}', found \"b\"");
    fx_close(&f);
}
END_TEST

static char *nested(size_t n, const char *open)
{
    size_t k = strlen(open);
    char *s = malloc(n * k + 1);
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < n; i++)
        memcpy(s + i * k, open, k);
    s[n * k] = '\0';
    return s;
}

START_TEST(test_reader_depth_limit)
{
    size_t n = 1000000;
    char *deep = nested(n, "[");
    fixture f;
    /* Typed reading: the 1025th '[' fails. */
    fx_open_n(&f, deep, n, 0);
    bool more = true;
    size_t opened = 0;
    while (atd_array_begin(&f.r, &more))
        opened++;
    ck_assert_uint_eq(opened, ATD_DEFAULT_MAX_DEPTH);
    CHECK_ERROR(&f.r, ATD_ERR_DEPTH, 1024, "nesting deeper than 1024");
    fx_close(&f);
    /* Skipping: same limit, no recursion. */
    fx_open_n(&f, deep, n, 0);
    ck_assert(!atd_skip_value(&f.r));
    CHECK_ERROR(&f.r, ATD_ERR_DEPTH, 1024, "nesting deeper than 1024");
    fx_close(&f);
    /* With the limit lifted, the skipper's own bound applies. */
    fx_open_n(&f, deep, n, 0);
    f.r.max_depth = UINT_MAX;
    ck_assert(!atd_skip_value(&f.r));
    CHECK_ERROR(&f.r, ATD_ERR_DEPTH, ATD_SKIP_MAX_NESTING, "nesting deeper than 16384");
    fx_close(&f);
    free(deep);
    /* Objects nest the same way. */
    deep = nested(n / 10, "{\"a\":");
    fx_open(&f, deep, 0);
    ck_assert(!atd_skip_value(&f.r));
    CHECK_ERROR(&f.r, ATD_ERR_DEPTH, 1024 * 5, "nesting deeper than 1024");
    fx_close(&f);
    free(deep);
    /* A smaller limit, and a skip that starts below the top level. */
    fx_open(&f, "[[[[1]]]]", 0);
    f.r.max_depth = 4;
    ck_assert(atd_skip_value(&f.r) && atd_read_end(&f.r));
    ck_assert_uint_eq(f.r.depth, 0);
    fx_close(&f);
    fx_open(&f, "[[[[1]]]]", 0);
    f.r.max_depth = 4;
    ck_assert(atd_array_begin(&f.r, &more) && more);
    ck_assert(atd_skip_value(&f.r));
    ck_assert_uint_eq(f.r.depth, 1);
    ck_assert(atd_array_next(&f.r, &more) && !more);
    fx_close(&f);
    fx_open(&f, "[[[[[1]]]]]", 0);
    f.r.max_depth = 4;
    ck_assert(atd_array_begin(&f.r, &more) && more);
    ck_assert(!atd_skip_value(&f.r));
    CHECK_ERROR(&f.r, ATD_ERR_DEPTH, 4, "nesting deeper than 4");
    fx_close(&f);
}
END_TEST

/* --- lenient mode --- */

START_TEST(test_reader_lenient)
{
    static const char json[] = "/* head */ [1, // one\n 2 /* two */,/**/3//\n]// tail";
    fixture f;
    fx_open(&f, json, ATD_READ_LENIENT);
    bool more;
    int64_t v, sum = 0;
    ck_assert(atd_array_begin(&f.r, &more));
    while (more) {
        ck_assert(atd_read_int64(&f.r, &v));
        sum += v;
        ck_assert(atd_array_next(&f.r, &more));
    }
    ck_assert(atd_read_end(&f.r));
    ck_assert_int_eq(sum, 6);
    fx_close(&f);
    /* The same input is an error in strict mode. */
    fx_open(&f, json, 0);
    ck_assert(!atd_array_begin(&f.r, &more));
    CHECK_ERROR(&f.r, ATD_ERR_SYNTAX, 0, "expected an array, found /*");
    fx_close(&f);
    /* Skipping too. */
    fx_open(&f, json, ATD_READ_LENIENT);
    ck_assert(atd_skip_value(&f.r) && atd_read_end(&f.r));
    fx_close(&f);
    /* Unterminated comments are errors, also at the end. */
    fx_open(&f, "[1 /* open", ATD_READ_LENIENT);
    ck_assert(atd_array_begin(&f.r, &more) && atd_read_int64(&f.r, &v));
    ck_assert(!atd_array_next(&f.r, &more));
    CHECK_ERROR(&f.r, ATD_ERR_EOF, 3, "unterminated comment");
    fx_close(&f);
    fx_open(&f, "1 /* *", ATD_READ_LENIENT);
    ck_assert(atd_read_int64(&f.r, &v));
    ck_assert(!atd_read_end(&f.r));
    CHECK_ERROR(&f.r, ATD_ERR_EOF, 2, "unterminated comment");
    fx_close(&f);
    /* A line comment to the end of the input that ends with the closing
     * bracket leaves the container open: it is not an empty one. */
    fx_open(&f, "[//x]", ATD_READ_LENIENT);
    ck_assert(!atd_array_begin(&f.r, &more));
    CHECK_ERROR(&f.r, ATD_ERR_EOF, 5, "unexpected end of input");
    fx_close(&f);
    fx_open(&f, "{ // }", ATD_READ_LENIENT);
    ck_assert(!atd_object_begin(&f.r, &more));
    CHECK_ERROR(&f.r, ATD_ERR_EOF, 6, "unexpected end of input");
    fx_close(&f);
    /* A lone slash is not a comment. */
    fx_open(&f, "[1 / 2]", ATD_READ_LENIENT);
    ck_assert(atd_array_begin(&f.r, &more) && atd_read_int64(&f.r, &v));
    ck_assert(!atd_array_next(&f.r, &more));
    CHECK_ERROR(&f.r, ATD_ERR_SYNTAX, 3, "expected ',' or ']', found /");
    fx_close(&f);
    /* A number followed directly by a comment. */
    fx_open(&f, "1/**/", ATD_READ_LENIENT);
    ck_assert(atd_read_int64(&f.r, &v) && v == 1 && atd_read_end(&f.r));
    fx_close(&f);
    /* Text after the value is ignored. */
    fx_open(&f, "5 junk", ATD_READ_LENIENT);
    ck_assert(atd_read_int64(&f.r, &v) && v == 5 && atd_read_end(&f.r));
    fx_close(&f);
    fx_open(&f, "5 junk", 0);
    ck_assert(atd_read_int64(&f.r, &v) && v == 5);
    ck_assert(!atd_read_end(&f.r));
    CHECK_ERROR(&f.r, ATD_ERR_TRAILING, 2, "unexpected junk after the JSON value");
    fx_close(&f);
    /* Bare names inside skipped values. */
    fx_open(&f, "{\"x\":[NaN,Infinity,-Infinity]}", ATD_READ_LENIENT);
    ck_assert(atd_skip_value(&f.r) && atd_read_end(&f.r));
    fx_close(&f);
    fx_open(&f, "[-Infinityx]", ATD_READ_LENIENT);
    ck_assert(!atd_skip_value(&f.r));
    CHECK_ERROR(&f.r, ATD_ERR_NUMBER, 1, "expected a number, found -Infinityx");
    fx_close(&f);
}
END_TEST

/* --- errors and fail-fast --- */

/* The first required field not seen, by its bit, named from the list of
 * required names (an empty one included), in either word of seen. */
START_TEST(test_reader_fail_missing_of)
{
    static const char names[] = "a\0\0c\0";
    static const struct {
        uint64_t seen[2];
        const char *detail;
    } cases[] = {
        {{0, 0}, "missing field 'a' in record 'r'"},
        {{1, 0}, "missing field '' in record 'r'"},
        {{3, 0}, "missing field 'c' in record 'r'"},
        {{5, 0}, "missing field '' in record 'r'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fixture f;
        fx_open(&f, "  {}", 0);
        ck_assert(!atd_reader_fail_missing_of(&f.r, f.r.cur, cases[i].seen, names, "r"));
        CHECK_ERROR(&f.r, ATD_ERR_MISSING_FIELD, 2, cases[i].detail);
        fx_close(&f);
    }
    /* bit 64 + 2: the third name of the second word, after 64 seen */
    char many[200];
    size_t n = 0;
    for (int k = 0; k < 67; k++)
        n += (size_t)sprintf(many + n, "%c", k == 66 ? 'z' : 'x') + 1;
    uint64_t seen[2] = {UINT64_MAX, 3};
    fixture f;
    fx_open(&f, "{}", 0);
    ck_assert(!atd_reader_fail_missing_of(&f.r, f.r.cur, seen, many, "big"));
    CHECK_ERROR(&f.r, ATD_ERR_MISSING_FIELD, 0, "missing field 'z' in record 'big'");
    fx_close(&f);
}
END_TEST

START_TEST(test_reader_first_error_kept)
{
    fixture f;
    fx_open(&f, "[true, 1]", 0);
    bool more, b;
    int64_t v;
    ck_assert(atd_array_begin(&f.r, &more) && more);
    ck_assert(!atd_read_int64(&f.r, &v));
    ck_assert(atd_reader_failed(&f.r));
    /* Later calls fail without replacing the first error. */
    ck_assert(!atd_read_bool(&f.r, &b));
    ck_assert(!atd_array_next(&f.r, &more));
    ck_assert(!atd_skip_value(&f.r));
    ck_assert(!atd_read_end(&f.r));
    ck_assert(!atd_reader_fail(&f.r, ATD_ERR_MISSING_FIELD, "missing field %s", "x"));
    CHECK_ERROR(&f.r, ATD_ERR_TYPE, 1, "expected an integer, found true");
    fx_close(&f);
    /* No error: the OK code and message. */
    fx_open(&f, "1", 0);
    atd_error err;
    ck_assert_int_eq(atd_reader_get_error(&f.r, &err), ATD_ERR_OK);
    ck_assert_int_eq(err.code, ATD_ERR_OK);
    ck_assert_int_eq(atd_reader_get_error(&f.r, NULL), ATD_ERR_OK);
    fx_close(&f);
    /* fail_at places the error anywhere; a long detail is truncated. */
    fx_open(&f, "{\n}", 0);
    char longtext[400];
    memset(longtext, 'z', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    atd_reader_fail_at(&f.r, 2, ATD_ERR_MISSING_FIELD, "%s", longtext);
    ck_assert_int_eq(atd_reader_get_error(&f.r, &err), ATD_ERR_MISSING_FIELD);
    ck_assert_uint_eq(err.line, 2);
    ck_assert_uint_eq(err.column, 1);
    ck_assert_uint_eq(strlen(strstr(err.message, "zzz")), sizeof f.r.err_detail - 1);
    fx_close(&f);
}
END_TEST

/* Skips json whole, then the same text followed by 40 spaces: the skipper
 * settles the tokens it meets within the last 32 bytes of the input out of
 * line and the others inline, and both must accept the same texts. */
static void check_skip_good(const char *json)
{
    char padded[512];
    int n = snprintf(padded, sizeof padded, "%s%40s", json, "");
    ck_assert(n > 0 && (size_t)n < sizeof padded);
    const char *texts[] = {json, padded};
    for (int i = 0; i < 2; i++) {
        fixture f;
        fx_open(&f, texts[i], 0);
        ck_assert_msg(atd_skip_value(&f.r) && atd_read_end(&f.r), "%s", texts[i]);
        ck_assert_uint_eq(f.r.depth, 0);
        fx_close(&f);
    }
}

/* The same for a text the skipper rejects: the same error at the same place
 * both ways (with no padding only, for errors at the end of the input). */
static void check_skip_bad(const char *json, atd_error_code code, size_t offset,
                           const char *detail, int line)
{
    char padded[512];
    int n = snprintf(padded, sizeof padded, "%s%40s", json, "");
    ck_assert(n > 0 && (size_t)n < sizeof padded);
    const char *texts[] = {json, padded};
    for (int i = 0; i < (code == ATD_ERR_EOF ? 1 : 2); i++) {
        fixture f;
        fx_open(&f, texts[i], 0);
        ck_assert_msg(!(atd_skip_value(&f.r) && atd_read_end(&f.r)), "%s", texts[i]);
        check_error_at(&f.r, code, offset, detail, line);
        fx_close(&f);
    }
}

START_TEST(test_reader_skip_values)
{
    static const char *const good[] = {
        "0",
        "-1.5e+3",
        "\"s\"",
        "true",
        "false",
        "null",
        "[]",
        "{}",
        "[[],{}]",
        " { \"a\" : [ 1 , { \"b\" : null } ] , \"c\" : \"\\u00e9\" } ",
        "[1,[2,[3,[4]]],{\"x\":{\"y\":[]}}]",
        /* pretty-printed, with an indentation past the inline 15 spaces */
        "{\n  \"a\": [\n    1,\n    true,\n    null,\n    \"x\"\n  ],\n  \"b\": {\n"
        "                    \"deep\": false\n  }\n}",
        /* other whitespace, escapes, non-ASCII text, numbers of every shape */
        "[\r\n\t1,\t2 ,\r\n\"esc \\\" \\\\ \\n \\u00e9\", \"caf\xc3\xa9 \xe2\x82\xac\"]",
        "[0, -0, 0.5, -12.25, 1e5, 2E-3, 123456789012345678901234567890]",
        /* around the inline number scan's 15 digits a side */
        "[123456789012345,1234567890123456,0.123456789012345,0.1234567890123456,-1.5e-7]",
        /* runs of escapes, a surrogate pair among them */
        "[\"\\u00e9\\u3042\\/\\/\\ud83d\\ude00\\n\\u0041\", \"\\uFFFF\\u0000x\"]",
        /* exponents, around the inline scan's 15 digits */
        "[1e5,2E-3,-0.5e+0,1.25E+123456789012345,7e1234567890123456,0e0]",
        "{\"k\" :1, \"l\"\n:\n[true,false,null]}",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        check_skip_good(good[i]);
    static const struct {
        const char *json;
        atd_error_code code;
        size_t offset;
        const char *detail;
    } bad[] = {
        {"[1,]", ATD_ERR_SYNTAX, 3, "expected a value, found ']'"},
        {"{\"a\":1,}", ATD_ERR_SYNTAX, 7, "expected an object key, found '}'"},
        {"{\"a\"}", ATD_ERR_SYNTAX, 4, "expected ':', found '}'"},
        {"[1:2]", ATD_ERR_SYNTAX, 2, "expected ',' or ']', found ':'"},
        {"{\"a\":1]", ATD_ERR_SYNTAX, 6, "expected ',' or '}', found ']'"},
        {"[01]", ATD_ERR_NUMBER, 1, "expected a number, found 01"},
        {"[1x]", ATD_ERR_NUMBER, 1, "expected a number, found 1x"},
        {"[-]", ATD_ERR_NUMBER, 1, "expected a number, found -"},
        {"[1.]", ATD_ERR_NUMBER, 1, "expected a number, found 1."},
        {"[1.e5]", ATD_ERR_NUMBER, 1, "expected a number, found 1.e5"},
        {"[-01]", ATD_ERR_NUMBER, 1, "expected a number, found -01"},
        {"[1.5e]", ATD_ERR_NUMBER, 1, "expected a number, found 1.5e"},
        {"[1e+]", ATD_ERR_NUMBER, 1, "expected a number, found 1e+"},
        {"[2E5.0]", ATD_ERR_NUMBER, 1, "expected a number, found 2E5.0"},
        {"[3e-2e1]", ATD_ERR_NUMBER, 1, "expected a number, found 3e-2e1"},
        {"[1111111111111111111111111111111111111111", ATD_ERR_EOF, 41, "unexpected end of input"},
        {"[tru]", ATD_ERR_SYNTAX, 1, "expected a value, found tru"},
        {"[truex]", ATD_ERR_SYNTAX, 1, "expected a value, found truex"},
        {"[fals]", ATD_ERR_SYNTAX, 1, "expected a value, found fals"},
        {"[true/]", ATD_ERR_SYNTAX, 5, "expected ',' or ']', found /"},
        {"[nul", ATD_ERR_EOF, 1, "unexpected end of input"},
        {"[NaN]", ATD_ERR_SYNTAX, 1, "expected a value, found NaN"},
        {"[\"a\\x\"]", ATD_ERR_STRING, 3, "invalid escape '\\x' in string"},
        {"[\"\\u00e9\\u12G4\"]", ATD_ERR_STRING, 8, "invalid escape '\\u12G' in string"},
        {"[\"\\u0041\\ud800x\"]", ATD_ERR_STRING, 8, "lone surrogate '\\ud800' in string"},
        {"[\"\\/\\udc00\"]", ATD_ERR_STRING, 4, "lone surrogate '\\udc00' in string"},
        {"[\"\\u004", ATD_ERR_EOF, 1, "unterminated string"},
        {"", ATD_ERR_EOF, 0, "unexpected end of input"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        check_skip_bad(bad[i].json, bad[i].code, bad[i].offset, bad[i].detail, __LINE__);
}
END_TEST

/* Numbers of every length the skipper's word-at-a-time digit runs meet:
 * 1 to 20 digits before the point, after it and in the exponent, next to
 * other numbers (so that a word read past a number's end holds the next
 * one's digits), as an array's last element and as a member's value; then
 * the same number spoiled by a leading zero and by a letter after it. */
static void skip_number_at(const char *number, bool good, size_t *n_checked)
{
    char json[160];
    snprintf(json, sizeof json, "[%s,%s,7]", number, number);
    if (good) {
        check_skip_good(json);
        snprintf(json, sizeof json, "{\"k\":%s,\"l\":%s}", number, number);
        check_skip_good(json);
    } else {
        char padded[200];
        snprintf(padded, sizeof padded, "%s%40s", json, "");
        fixture f;
        fx_open(&f, padded, 0);
        ck_assert_msg(!atd_skip_value(&f.r), "%s", json);
        atd_error err;
        ck_assert_int_eq(atd_reader_get_error(&f.r, &err), ATD_ERR_NUMBER);
        ck_assert_msg(err.offset == 1, "%s: offset %zu", json, err.offset);
        fx_close(&f);
    }
    ++*n_checked;
}

START_TEST(test_reader_skip_number_runs)
{
    uint64_t rng = 5;
    size_t checked = 0;
    for (int int_digits = 1; int_digits <= 20; int_digits++) {
        for (int frac_digits = 0; frac_digits <= 20; frac_digits += int_digits % 3 + 1) {
            for (int exp_digits = 0; exp_digits <= 20; exp_digits += int_digits % 4 + 3) {
                char number[80];
                size_t n = 0;
                if (next_random(&rng) % 2)
                    number[n++] = '-';
                size_t first = n;
                for (int i = 0; i < int_digits; i++)
                    number[n++] = (char)('0' + next_random(&rng) % 10);
                if (number[first] == '0' && int_digits > 1)
                    number[first] = '9';
                if (frac_digits > 0) {
                    number[n++] = '.';
                    for (int i = 0; i < frac_digits; i++)
                        number[n++] = (char)('0' + next_random(&rng) % 10);
                }
                if (exp_digits > 0) {
                    number[n++] = "eE"[next_random(&rng) % 2];
                    unsigned sign = (unsigned)(next_random(&rng) % 3);
                    if (sign > 0)
                        number[n++] = "+-"[sign - 1];
                    for (int i = 0; i < exp_digits; i++)
                        number[n++] = (char)('0' + next_random(&rng) % 10);
                }
                number[n] = '\0';
                skip_number_at(number, true, &checked);
                /* a letter right after it */
                char spoiled[90];
                snprintf(spoiled, sizeof spoiled, "%sx", number);
                skip_number_at(spoiled, false, &checked);
                /* a leading zero before its first digit */
                snprintf(spoiled, sizeof spoiled, "%.*s0%s", (int)first, number, number + first);
                skip_number_at(spoiled, false, &checked);
            }
        }
    }
    ck_assert_uint_gt(checked, 1000);
}
END_TEST

/* Strings made of runs of escapes of every kind (one-byte ones, \uXXXX,
 * surrogate pairs, UTF-8 text between them) with now and then a bad piece
 * (an unknown escape, a bad hex digit, a lone surrogate, a control byte),
 * cut at every length near the end of the input: the skipper and the
 * borrowing reader (which share the scan of escapes) must reach the same
 * verdict at the same offset as the copying reader, which decodes every
 * escape by other code. */
START_TEST(test_reader_skip_escape_runs)
{
    static const char *const pieces[] = {
        "ab",     "\\n",     "\\/",           "\\\"",       "\\\\",   "\\t",
        "\\u00e9", "\\u3042", "\\ud83d\\ude00", "\xc3\xa9",   "xyz ",   "\\u0000",
        "\\x",     "\\u12G4", "\\ud800x",      "\\udc00",    "\x01",   "\\uFFFF",
    };
    enum { GOOD = 12, ALL = 18 };
    uint64_t rng = 17;
    char json[256];
    for (int doc = 0; doc < 3000; doc++) {
        size_t n = 0;
        json[n++] = '"';
        int count = (int)(next_random(&rng) % 24);
        for (int i = 0; i < count; i++) {
            uint64_t x = next_random(&rng);
            /* one bad piece in about forty */
            size_t k = x % 40 == 0 ? GOOD + (size_t)(x >> 8) % (ALL - GOOD) : (size_t)(x >> 8) % GOOD;
            size_t len = strlen(pieces[k]);
            memcpy(json + n, pieces[k], len);
            n += len;
        }
        json[n++] = '"';
        /* whole, or cut short by up to 7 bytes (an escape cut by the end) */
        size_t cut = next_random(&rng) % 3 == 0 ? (size_t)(next_random(&rng) % 8) : 0;
        size_t len = cut < n ? n - cut : n;
        char padded[300];
        memcpy(padded, json, len);
        memset(padded + len, ' ', 40);
        for (int pad = 0; pad < 2; pad++) {
            size_t total = len + (pad ? 40 : 0);
            fixture copy, skip, borrow;
            fx_open_n(&copy, padded, total, 0);
            fx_open_n(&skip, padded, total, 0);
            fx_open_n(&borrow, padded, total, ATD_READ_BORROW_STRINGS);
            atd_string s1, s2;
            bool ok_copy = atd_read_string(&copy.r, &s1) && atd_read_end(&copy.r);
            bool ok_skip = atd_skip_value(&skip.r) && atd_read_end(&skip.r);
            bool ok_borrow = atd_read_string(&borrow.r, &s2) && atd_read_end(&borrow.r);
            ck_assert_msg(ok_copy == ok_skip && ok_copy == ok_borrow, "doc %d: %.*s: %d %d %d", doc,
                          (int)len, json, ok_copy, ok_skip, ok_borrow);
            if (!ok_copy) {
                atd_error e1, e2, e3;
                atd_reader_get_error(&copy.r, &e1);
                atd_reader_get_error(&skip.r, &e2);
                atd_reader_get_error(&borrow.r, &e3);
                ck_assert_msg(e1.code == e2.code && e1.offset == e2.offset && e1.code == e3.code &&
                                  e1.offset == e3.offset,
                              "doc %d: %.*s: %s / %s / %s", doc, (int)len, json, e1.message,
                              e2.message, e3.message);
            } else {
                /* (borrowed when the text has no escape, decoded otherwise) */
                ck_assert(s1.len == s2.len && memcmp(s1.ptr, s2.ptr, s1.len) == 0);
            }
            fx_close(&copy);
            fx_close(&skip);
            fx_close(&borrow);
        }
    }
}
END_TEST

/* --- JSONTestSuite --- */

static bool skip_file(const char *name, unsigned flags, atd_error *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", SUITE_DIR, name);
    size_t len;
    char *data = test_read_file(path, &len);
    ck_assert_msg(data != NULL, "cannot read %s", path);
    fixture f;
    fx_open_n(&f, data, len, flags);
    free(data);
    bool ok = atd_skip_value(&f.r) && atd_read_end(&f.r);
    atd_reader_get_error(&f.r, err);
    if (ok)
        ck_assert_uint_eq(f.r.depth, 0);
    fx_close(&f);
    return ok;
}

/* The i_ files that atd_skip_value accepts in strict mode: the number files
 * (valid grammar; their values are then a matter for the typed readers, see
 * test_reader_suite_i_numbers) and 500 nested arrays (below the depth
 * limit). Every i_string_* and i_object_key_* file, the UTF-16 files and the
 * UTF-8 BOM are rejected (see test_strings.c for the reasons). */
static bool i_file_accepted(const char *name)
{
    return strncmp(name, "i_number_", 9) == 0 ||
           strcmp(name, "i_structure_500_nested_arrays.json") == 0;
}

START_TEST(test_reader_suite_skip)
{
    DIR *dir = opendir(SUITE_DIR);
    ck_assert_msg(dir != NULL, "cannot open %s", SUITE_DIR);
    struct dirent *de;
    size_t y = 0, n = 0, i = 0;
    while ((de = readdir(dir)) != NULL) {
        const char *name = de->d_name;
        size_t len = strlen(name);
        if (len < 6 || strcmp(name + len - 5, ".json") != 0)
            continue;
        atd_error err;
        bool ok = skip_file(name, 0, &err);
        if (name[0] == 'y') {
            ck_assert_msg(ok, "%s: %s", name, err.message);
            y++;
        } else if (name[0] == 'n') {
            ck_assert_msg(!ok, "%s accepted", name);
            ck_assert(err.code != ATD_ERR_OK);
            n++;
        } else if (name[0] == 'i') {
            ck_assert_msg(ok == i_file_accepted(name), "%s: %s", name,
                          ok ? "accepted" : err.message);
            i++;
        }
        /* Lenient mode never crashes and still accepts every y_ file. */
        bool lok = skip_file(name, ATD_READ_LENIENT, &err);
        if (name[0] == 'y')
            ck_assert_msg(lok, "%s lenient: %s", name, err.message);
    }
    closedir(dir);
    ck_assert_uint_ge(y, 90);
    ck_assert_uint_ge(n, 180);
    ck_assert_uint_ge(i, 30);
}
END_TEST

START_TEST(test_reader_suite_i_numbers)
{
    static const struct {
        const char *json;
        bool int_ok;
        double want; /* as a double */
    } cases[] = {
        {"[123.456e-789]", false, 0.0},
        {"[-1e+9999]", false, -INFINITY},
        {"[1.5e+9999]", false, INFINITY},
        {"[-123123e100000]", false, -INFINITY},
        {"[123123e100000]", false, INFINITY},
        {"[123e-10000000]", false, 0.0},
        {"[-123123123123123123123123123123]", false, -123123123123123123123123123123.0},
        {"[100000000000000000000]", false, 100000000000000000000.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fixture f;
        bool more;
        double d;
        int64_t v;
        fx_open(&f, cases[i].json, 0);
        ck_assert(atd_array_begin(&f.r, &more) && more);
        ck_assert_msg(atd_read_double(&f.r, &d), "%s", cases[i].json);
        ck_assert_msg(d == cases[i].want, "%s: %g", cases[i].json, d);
        fx_close(&f);
        fx_open(&f, cases[i].json, 0);
        ck_assert(atd_array_begin(&f.r, &more) && more);
        ck_assert(!atd_read_int64(&f.r, &v));
        atd_error err;
        int code = atd_reader_get_error(&f.r, &err);
        ck_assert(code == ATD_ERR_TYPE || code == ATD_ERR_RANGE);
        fx_close(&f);
    }
}
END_TEST

Suite *reader_suite(void);
Suite *reader_suite(void)
{
    Suite *s = suite_create("reader");
    TCase *tc = tcase_create("scalars");
    tcase_add_test(tc, test_reader_int_numbers);
    tcase_add_test(tc, test_reader_int_rejects);
    tcase_add_test(tc, test_reader_int_every_length);
    tcase_add_test(tc, test_reader_int_length_guesses);
    tcase_add_test(tc, test_reader_skip_length_guesses);
    tcase_add_test(tc, test_reader_int_strings);
    tcase_add_test(tc, test_reader_int_range);
    tcase_add_test(tc, test_reader_double);
    tcase_add_test(tc, test_reader_double_lenient);
    tcase_add_test(tc, test_reader_null_bool);
    suite_add_tcase(s, tc);
    tc = tcase_create("structure");
    tcase_add_test(tc, test_reader_whitespace);
    tcase_add_test(tc, test_reader_tokens);
    tcase_add_test(tc, test_reader_accessors);
    tcase_add_test(tc, test_reader_containers);
    tcase_add_test(tc, test_reader_depth_limit);
    tcase_add_test(tc, test_reader_lenient);
    tcase_add_test(tc, test_reader_first_error_kept);
    tcase_add_test(tc, test_reader_fail_missing_of);
    tcase_add_test(tc, test_reader_skip_values);
    tcase_add_test(tc, test_reader_skip_number_runs);
    tcase_add_test(tc, test_reader_skip_escape_runs);
    suite_add_tcase(s, tc);
    tc = tcase_create("suite");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_reader_suite_skip);
    tcase_add_test(tc, test_reader_suite_i_numbers);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(reader_suite)
