/* Tests of the number module (number.h): integer and double printing,
 * scanning, int64 and double parsing, and the committed power-of-ten table.
 *
 * glibc (strtod, snprintf in the C locale) is the oracle: printed doubles
 * must read back to the same bits with both our parser and strtod and never
 * be longer than yojson's %.16g/%.17g text; parsed doubles must be bit-equal
 * to strtod's. Random inputs come from a fixed-seed xorshift generator, so a
 * failure is reproducible; the failing input is in the message. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atd/number.h"
#include "atd/reader.h"
#include "test_main.h"
#include "cpu.h"
#include "number_bigdec.h"
#include "number_shortest.h"
#include "pow10_table.h"

#define GEN_POW10_NO_MAIN
#include "gen_pow10_table.c"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

/* ck_assert in fork mode reports every passing check to the parent through
 * a pipe; loops over a million values use this instead. */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

/* Run 0 uses every kernel the CPU has, run 1 none: the double printer's
 * digits then come from SSE2 (or the scalar twin), not AVX-512 IFMA. */
static void use_kernels(int run)
{
    atd__cpu_limit(run == 0 ? ~0u : 0u);
}

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

static uint64_t bits_of(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static double of_bits(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* atd_write_double into a NUL-terminated buffer */
static const char *wd(char *buf, double v)
{
    char *e = atd_write_double(buf, v);
    CHECK(e - buf <= ATD_DOUBLE_CHARS, "too long");
    *e = 0;
    return buf;
}

/* Appends ".0" when s holds only digits and '-' (the yojson rule). */
static void dot_zero(char *s)
{
    for (const char *p = s; *p; p++)
        if (*p != '-' && (*p < '0' || *p > '9'))
            return;
    strcat(s, ".0");
}

/* yojson's text: %.16g if it reads back, else %.17g, then the ".0" rule */
static void yojson_text(char *out, size_t size, double v)
{
    snprintf(out, size, "%.16g", v);
    if (strtod(out, NULL) != v)
        snprintf(out, size, "%.17g", v);
    dot_zero(out);
}

/* Parses s with atd_parse_double and strtod and asserts equal bits. */
static void check_parse_vs_strtod(const char *s, size_t len)
{
    double got = 0, want = strtod(s, NULL);
    atd_num_status st = atd_parse_double(s, s + len, &got);
    CHECK(st == ATD_NUM_OK, "status %d for %.200s", (int)st, s);
    CHECK(bits_of(got) == bits_of(want), "%.300s: got %a want %a", s, got, want);
}

static void check_parse_str(const char *s)
{
    check_parse_vs_strtod(s, strlen(s));
}

/* ------------------------------------------------------------------------
 * Table
 * ------------------------------------------------------------------------ */

START_TEST(test_number_pow10_table_regenerates)
{
    ck_assert_int_eq(gen_pow10_check_logs(), 0);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    gen_pow10_write(f);
    long n = ftell(f);
    rewind(f);
    char *fresh = malloc((size_t)n + 1);
    ck_assert_int_eq((int)fread(fresh, 1, (size_t)n, f), (int)n);
    fclose(f);

    FILE *c = fopen(ATD_SOURCE_DIR "/runtime/src/pow10_table.c", "rb");
    ck_assert_ptr_nonnull(c);
    char *committed = malloc((size_t)n + 2);
    size_t m = fread(committed, 1, (size_t)n + 1, c);
    fclose(c);
    ck_assert_msg(m == (size_t)n && memcmp(fresh, committed, (size_t)n) == 0,
                  "runtime/src/pow10_table.c differs from tools/gen_pow10_table.c output");
    /* and the compiled table is that file */
    for (int p = ATD__POW10_MIN; p <= ATD__POW10_MAX; p++) {
        uint64_t hi, lo;
        gen_pow10_entry(p, &hi, &lo);
        ck_assert(atd__pow10_table[p - ATD__POW10_MIN].hi == hi);
        ck_assert(atd__pow10_table[p - ATD__POW10_MIN].lo == lo);
    }
    free(fresh);
    free(committed);
}
END_TEST

/* ------------------------------------------------------------------------
 * Integers
 * ------------------------------------------------------------------------ */

static void check_int64(int64_t v)
{
    char got[ATD_INT64_CHARS + 1], want[32];
    char *e = atd_write_int64(got, v);
    CHECK(e - got <= ATD_INT64_CHARS, "too long");
    *e = 0;
    snprintf(want, sizeof want, "%lld", (long long)v);
    CHECK(strcmp(got, want) == 0, "got %s want %s", got, want);
    int64_t back = 0;
    CHECK(atd_parse_int64(got, e, &back) == ATD_NUM_OK && back == v, "%s", got);
}

static void check_uint64(uint64_t v)
{
    char got[ATD_INT64_CHARS + 1], want[32];
    char *e = atd_write_uint64(got, v);
    CHECK(e - got <= ATD_INT64_CHARS, "too long");
    *e = 0;
    snprintf(want, sizeof want, "%llu", (unsigned long long)v);
    CHECK(strcmp(got, want) == 0, "got %s want %s", got, want);
}

START_TEST(test_number_int_write)
{
    check_int64(0);
    check_int64(-1);
    check_int64(INT64_MIN);
    check_int64(INT64_MAX);
    check_int64(INT64_MIN + 1);
    check_uint64(UINT64_MAX);
    check_uint64(0);
    uint64_t p10 = 1;
    for (int i = 0; i < 20; i++) {
        check_uint64(p10);
        check_uint64(p10 - 1);
        check_uint64(p10 + 1);
        if (p10 <= (uint64_t)INT64_MAX) {
            check_int64((int64_t)p10);
            check_int64(-(int64_t)p10);
            check_int64((int64_t)p10 - 1);
            check_int64(1 - (int64_t)p10);
        }
        if (i < 19)
            p10 *= 10;
    }
    /* every value of up to six digits, and random 32-bit values: the pair
     * writer's fixed-point steps differ by range */
    for (uint64_t v = 0; v < 1000000; v++)
        check_uint64(v);
    rng r = {0x9E3779B97F4A7C15u};
    for (int i = 0; i < 1000000; i++)
        check_uint64(rng_next(&r) >> 32);
    for (int i = 0; i < 200000; i++) {
        uint64_t x = rng_next(&r) >> (rng_next(&r) % 64);
        check_uint64(x);
        check_int64((int64_t)x);
        check_int64(-(int64_t)(x >> 1));
    }
}
END_TEST

static atd_num_status parse_i64(const char *s, int64_t *v)
{
    return atd_parse_int64(s, s + strlen(s), v);
}

START_TEST(test_number_int_parse)
{
    int64_t v = 42;
#define PI(s, st) parse_i64(s, &v) == (st)
    ck_assert(PI("0", ATD_NUM_OK) && v == 0);
    ck_assert(PI("-0", ATD_NUM_OK) && v == 0);
    ck_assert(PI("9223372036854775807", ATD_NUM_OK) && v == INT64_MAX);
    ck_assert(PI("-9223372036854775808", ATD_NUM_OK) && v == INT64_MIN);
    ck_assert(PI("-9223372036854775807", ATD_NUM_OK) && v == INT64_MIN + 1);
    v = 7;
    ck_assert(PI("9223372036854775808", ATD_NUM_RANGE) && v == 7);
    ck_assert(PI("-9223372036854775809", ATD_NUM_RANGE));
    ck_assert(PI("18446744073709551615", ATD_NUM_RANGE));
    ck_assert(PI("18446744073709551616", ATD_NUM_RANGE));
    ck_assert(PI("99999999999999999999", ATD_NUM_RANGE));
    ck_assert(PI("100000000000000000000000000000000", ATD_NUM_RANGE));
    ck_assert(PI("12345", ATD_NUM_OK) && v == 12345);
    ck_assert(PI("1.0", ATD_NUM_NOT_INT));
    ck_assert(PI("1e3", ATD_NUM_NOT_INT));
    ck_assert(PI("-1E+3", ATD_NUM_NOT_INT));
    ck_assert(PI("99999999999999999999.5", ATD_NUM_NOT_INT));
    ck_assert(PI("", ATD_NUM_SYNTAX));
    ck_assert(PI("-", ATD_NUM_SYNTAX));
    ck_assert(PI("01", ATD_NUM_SYNTAX));
    ck_assert(PI("+1", ATD_NUM_SYNTAX));
    ck_assert(PI("1.", ATD_NUM_SYNTAX));
    ck_assert(PI("1e", ATD_NUM_SYNTAX));
    ck_assert(PI("1x", ATD_NUM_SYNTAX));
    ck_assert(PI(" 1", ATD_NUM_SYNTAX));
    ck_assert(PI("--1", ATD_NUM_SYNTAX));
#undef PI
    /* the token is [p, end): a digit after end is not read */
    const char *s = "123456";
    ck_assert(atd_parse_int64(s, s + 3, &v) == ATD_NUM_OK && v == 123);
    rng r = {12345};
    for (int i = 0; i < 100000; i++) {
        char buf[32];
        int64_t x = (int64_t)(rng_next(&r) >> (rng_next(&r) % 64));
        if (i & 1)
            x = -x;
        int n = snprintf(buf, sizeof buf, "%lld", (long long)x);
        CHECK(atd_parse_int64(buf, buf + n, &v) == ATD_NUM_OK && v == x, "%s", buf);
    }
}
END_TEST

/* ------------------------------------------------------------------------
 * Scanning
 * ------------------------------------------------------------------------ */

/* Length atd_scan_number accepts in s, and whether it said integer. */
static int scan_len(const char *s, bool *integer)
{
    return (int)(atd_scan_number(s, s + strlen(s), integer) - s);
}

START_TEST(test_number_scan)
{
    bool i;
    ck_assert_int_eq(scan_len("0", &i), 1);
    ck_assert(i);
    ck_assert_int_eq(scan_len("01", &i), 1);
    ck_assert(i);
    ck_assert_int_eq(scan_len("-0", &i), 2);
    ck_assert_int_eq(scan_len("-", &i), 0);
    ck_assert_int_eq(scan_len("", &i), 0);
    ck_assert_int_eq(scan_len("1.", &i), 0);
    ck_assert_int_eq(scan_len("1.x", &i), 0);
    ck_assert_int_eq(scan_len(".5", &i), 0);
    ck_assert_int_eq(scan_len("+1", &i), 0);
    ck_assert_int_eq(scan_len("1e", &i), 0);
    ck_assert_int_eq(scan_len("1e+", &i), 0);
    ck_assert_int_eq(scan_len("1E-", &i), 0);
    ck_assert_int_eq(scan_len("--1", &i), 0);
    ck_assert_int_eq(scan_len("-a", &i), 0);
    ck_assert_int_eq(scan_len("0x1", &i), 1);
    ck_assert_int_eq(scan_len("123,", &i), 3);
    ck_assert(i);
    ck_assert_int_eq(scan_len("-12.50e+10]", &i), 10);
    ck_assert(!i);
    ck_assert_int_eq(scan_len("1E5", &i), 3);
    ck_assert(!i);
    ck_assert_int_eq(scan_len("0.0", &i), 3);
    ck_assert(!i);
    ck_assert_int_eq(scan_len("1.5.3", &i), 3);
    ck_assert_int_eq(scan_len("1e5e5", &i), 3);
    /* end bounds the scan: "12" within "123" */
    const char *s = "123";
    ck_assert(atd_scan_number(s, s + 2, &i) == s + 2);
    ck_assert(atd_scan_number(s, s, &i) == s);
}
END_TEST

START_TEST(test_number_parse_syntax)
{
    static const char *bad[] = {"",    "-",  "01", "1.",   ".5",  "+1",   "1e",  "1e+",      "--1",
                                "0x1", "1 ", " 1", "1.e3", "-.5", "1e5.", "NaN", "Infinity", "-01"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        double v = 42;
        ck_assert_msg(atd_parse_double(bad[k], bad[k] + strlen(bad[k]), &v) == ATD_NUM_SYNTAX,
                      "accepted %s", bad[k]);
        ck_assert(v == 42);
    }
    double v = 1;
    const char *m0 = "-0";
    ck_assert(atd_parse_double(m0, m0 + 2, &v) == ATD_NUM_OK);
    ck_assert(bits_of(v) == bits_of(-0.0));
    const char *m00 = "-0.0e5";
    ck_assert(atd_parse_double(m00, m00 + 4, &v) == ATD_NUM_OK);
    ck_assert(bits_of(v) == bits_of(-0.0));
    ck_assert(atd_parse_double(m00, m00 + 6, &v) == ATD_NUM_OK);
    ck_assert(bits_of(v) == bits_of(-0.0));

    /* the one-pass prefix form */
    const char *s = "-12.5e1,";
    ck_assert(atd_parse_double_prefix(s, s + 8, &v) == s + 7 && v == -125.0);
    s = "01";
    ck_assert(atd_parse_double_prefix(s, s + 2, &v) == s + 1 && v == 0.0);
    s = "1.x";
    v = 3;
    ck_assert(atd_parse_double_prefix(s, s + 3, &v) == s && v == 3);
    s = "1e+";
    ck_assert(atd_parse_double_prefix(s, s + 3, &v) == s && v == 3);
}
END_TEST

/* ------------------------------------------------------------------------
 * Printing doubles
 * ------------------------------------------------------------------------ */

START_TEST(test_number_write_cases)
{
    static const struct {
        double v;
        const char *s;
    } cases[] = {
        {2, "2.0"},
        {0.25, "0.25"},
        {-0.0, "-0.0"},
        {0.0, "0.0"},
        {0.1 + 0.2, "0.30000000000000004"},
        {1e15, "1000000000000000.0"},
        {1e16, "1e+16"},
        {3e-8, "3e-08"},
        {1.5e300, "1.5e+300"},
        {5e-324, "5e-324"},
        {-5e-324, "-5e-324"},
        {1.7976931348623157e308, "1.7976931348623157e+308"},
        {1e21, "1e+21"},
        {1e22, "1e+22"},
        {1e23, "1e+23"},
        {123456789012345680.0, "1.2345678901234568e+17"},
        {0.1, "0.1"},
        {100.0, "100.0"},
        {-1.5, "-1.5"},
        {0.0001, "0.0001"},
        {0.00001, "1e-05"},
        {0.000123, "0.000123"},
        {123.456, "123.456"},
        {9007199254740992.0, "9007199254740992.0"},
        {12345678901234567.0, "12345678901234568.0"},
        {2.2250738585072014e-308, "2.2250738585072014e-308"},
        {2.225073858507201e-308, "2.225073858507201e-308"},
        {4.9406564584124654e-323, "5e-323"},
        {-65.613616999999977, "-65.61361699999998"},
        {1e100, "1e+100"},
        {1.0 / 3.0, "0.3333333333333333"},
        {2.0 / 3.0, "0.6666666666666666"},
        {5e-310, "5e-310"},
        {1e-300, "1e-300"},
        {8.98846567431158e307, "8.98846567431158e+307"},
        {1234567.0, "1234567.0"},
    };
    char buf[ATD_DOUBLE_CHARS + 1];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        ck_assert_str_eq(wd(buf, cases[k].v), cases[k].s);
}
END_TEST

START_TEST(test_number_shortest_digits)
{
    char d[17];
    int e;
    int n = atd_double_shortest(0.25, d, &e);
    ck_assert(n == 2 && memcmp(d, "25", 2) == 0 && e == -2);
    n = atd_double_shortest(5e-324, d, &e);
    ck_assert(n == 1 && d[0] == '5' && e == -324);
    n = atd_double_shortest(1e23, d, &e);
    ck_assert(n == 1 && d[0] == '1' && e == 23);
    n = atd_double_shortest(1.7976931348623157e308, d, &e);
    ck_assert(n == 17 && memcmp(d, "17976931348623157", 17) == 0 && e == 292);
    n = atd_double_shortest(100.0, d, &e);
    ck_assert(n == 1 && d[0] == '1' && e == 2);
    /* powers of two: the rounding interval is narrower below */
    for (int k = -1074; k <= 1023; k++) {
        double v = ldexp(1.0, k);
        n = atd_double_shortest(v, d, &e);
        char txt[40];
        snprintf(txt, sizeof txt, "%.*se%d", n, d, e);
        ck_assert_msg(strtod(txt, NULL) == v, "2^%d printed as %s", k, txt);
        ck_assert(d[n - 1] != '0');
        /* shortest: one digit fewer cannot read back (the nearest shorter
         * candidates are the rounded-down and rounded-up prefixes) */
        if (n > 1) {
            char shorter[40];
            snprintf(shorter, sizeof shorter, "%.*se%d", n - 1, d, e + 1);
            ck_assert_msg(strtod(shorter, NULL) != v, "2^%d: %s also reads back", k, shorter);
            uint64_t pre = 0;
            for (int i = 0; i < n - 1; i++)
                pre = pre * 10 + (uint64_t)(d[i] - '0');
            snprintf(shorter, sizeof shorter, "%llue%d", (unsigned long long)(pre + 1), e + 1);
            ck_assert_msg(strtod(shorter, NULL) != v, "2^%d: %s also reads back", k, shorter);
        }
    }
}
END_TEST

/* The fast route to the shortest digits (one product, truncated
 * comparisons) against exact Schubfach: the same f and exponent wherever it
 * answers, on random bit patterns of every kind, and it answers for nearly
 * all of them. ATD_NUMBER_FAST_COUNT=N runs N doubles instead of the
 * default (a long run: 10^9). */
START_TEST(test_number_shortest_fast)
{
    rng r = {0x9E3779B97F4A7C15u};
    long count = 4000000;
    const char *env = getenv("ATD_NUMBER_FAST_COUNT");
    if (env != NULL)
        count = atol(env);
    long declined = 0, tried = 0;
    for (long i = 0; i < count; i++) {
        uint64_t b = rng_next(&r) & ~((uint64_t)1 << 63);
        switch (i % 8) {
        case 0: /* few significant bits: many ties and exact decimals */
            b &= ~(uint64_t)0 << (rng_next(&r) % 53);
            break;
        case 1: /* short decimals */
            b = bits_of((double)(rng_next(&r) % 100000000) / pow(10, (double)(rng_next(&r) % 12)));
            break;
        case 2: /* subnormal */
            b &= 0x000FFFFFFFFFFFFFu;
            break;
        case 3: /* every exponent, random significand */
            b = (b & 0x000FFFFFFFFFFFFFu) | ((uint64_t)(i / 8 % 2047) << 52);
            break;
        default:
            break;
        }
        double v = of_bits(b);
        if (!isfinite(v) || v == 0)
            continue;
        tried++;
        uint64_t f, g;
        int e, ge;
        if (!atd__shortest_fast(v, &f, &e)) {
            declined++;
            continue;
        }
        g = atd__shortest_exact(v, &ge);
        CHECK(f == g && e == ge, "%a: fast %llue%d, exact %llue%d", v, (unsigned long long)f, e,
              (unsigned long long)g, ge);
    }
    /* powers of two take the exact route by design: 1/8 of case 0 and the
     * rare ones elsewhere */
    CHECK(declined * 20 < tried, "fast route declined %ld of %ld", declined, tried);
}
END_TEST

/* The text atd_write_double must give, laid out here from the shortest
 * digits of atd_double_shortest (an independent path: general digit
 * output, byte-by-byte layout): "%.16g" layout, "%.17g" for 17 digits,
 * exponent with a sign and at least two digits, then the ".0" rule. */
static void expected_text(char *out, double v)
{
    char *o = out;
    if (signbit(v))
        *o++ = '-';
    v = fabs(v);
    if (v == 0) {
        strcpy(o, "0.0");
        return;
    }
    char d[17];
    int e;
    int n = atd_double_shortest(v, d, &e);
    int x = e + n - 1, prec = n == 17 ? 17 : 16;
    if (x < -4 || x >= prec) {
        *o++ = d[0];
        if (n > 1) {
            *o++ = '.';
            for (int i = 1; i < n; i++)
                *o++ = d[i];
        }
        sprintf(o, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
        return;
    }
    if (x < 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = -1; i > x; i--)
            *o++ = '0';
        memcpy(o, d, (size_t)n);
        o[n] = 0;
        return;
    }
    for (int i = 0; i < n || i <= x; i++) {
        if (i == x + 1)
            *o++ = '.';
        *o++ = i < n ? d[i] : '0';
    }
    *o = 0;
    dot_zero(out);
}

/* One printed double: round trip with both parsers, no longer than yojson,
 * and (when the %.{n}e rounding of v reads back) the closest n-digit value. */
static void check_print(double v, bool closest)
{
    char buf[ATD_DOUBLE_CHARS + 1], y[40];
    wd(buf, v);
    expected_text(y, v);
    CHECK(strcmp(buf, y) == 0, "%a printed %s, expected %s", v, buf, y);
    double a = 0;
    CHECK(atd_parse_double(buf, buf + strlen(buf), &a) == ATD_NUM_OK, "%s", buf);
    CHECK(bits_of(a) == bits_of(v), "%a printed %s reads %a", v, buf, a);
    CHECK(bits_of(strtod(buf, NULL)) == bits_of(v), "%a printed %s", v, buf);
    yojson_text(y, sizeof y, v);
    CHECK(strlen(buf) <= strlen(y), "%a printed %s, yojson %s", v, buf, y);
    if (closest && v != 0) {
        char d[17], e[40];
        int ex;
        int n = atd_double_shortest(fabs(v), d, &ex);
        snprintf(e, sizeof e, "%.*e", n - 1, fabs(v));
        if (strtod(e, NULL) == fabs(v)) {
            char mine[40];
            snprintf(mine, sizeof mine, "%c.%.*se%+03d", d[0], n - 1, d + 1, ex + n - 1);
            if (n == 1)
                snprintf(mine, sizeof mine, "%ce%+03d", d[0], ex);
            /* glibc keeps trailing zeros in %.Ne; ours has none, so compare
             * digit strings up to n */
            char ge[40];
            snprintf(ge, sizeof ge, "%.*e", n - 1, fabs(v));
            CHECK(ge[0] == d[0] && (n == 1 || memcmp(ge + 2, d + 1, (size_t)n - 1) == 0),
                  "%a: shortest %s, closest %s", v, mine, ge);
        }
    }
}

/* Every layout shape: 1 to 17 digits with the leading digit at every
 * weight from 10^-7 to 10^22, both signs, against expected_text. */
START_TEST(test_number_write_layouts)
{
    static const char digits[] = "12345678901234567";
    for (int run = 0; run < 2; run++) {
        use_kernels(run);
        for (int n = 1; n <= 17; n++) {
            for (int x = -7; x <= 22; x++) {
                char txt[48];
                snprintf(txt, sizeof txt, "%c.%.*se%d", digits[0], n - 1, digits + 1, x);
                double v = strtod(txt, NULL);
                check_print(v, false);
                check_print(-v, false);
                /* the neighbours have 16 or 17 digits */
                check_print(nextafter(v, 0), false);
                check_print(nextafter(v, INFINITY), false);
            }
        }
    }
    use_kernels(0);
}
END_TEST

/* Powers of ten and of two and their neighbours, over the whole range:
 * where the shortest form changes length (1 digit, then 16 or 17), where
 * the rounding interval is lopsided (powers of two), at the ends of the
 * exponent range and across the normal/subnormal boundary. */
START_TEST(test_number_write_powers)
{
    for (int run = 0; run < 2; run++) {
        use_kernels(run);
        for (int k = -325; k <= 309; k++) {
            char txt[16];
            snprintf(txt, sizeof txt, "1e%d", k);
            double v = strtod(txt, NULL);
            if (v == 0 || !isfinite(v))
                continue;
            check_print(v, true);
            check_print(nextafter(v, 0), true);
            check_print(nextafter(v, INFINITY), true);
            check_print(-v, false);
        }
        for (int e = -1074; e <= 1023; e++) {
            double v = ldexp(1.0, e);
            check_print(v, true);
            check_print(nextafter(v, 0), true);
            check_print(nextafter(v, INFINITY), true);
            check_print(-v, false);
        }
        check_print(DBL_MAX, true);
        check_print(DBL_MIN, true);
        check_print(nextafter(DBL_MIN, 0), true);
    }
    use_kernels(0);
}
END_TEST

/* Every digit of both 8-digit groups that the printer converts at once:
 * integers in [10^15, 2^53), whose shortest form is their own digits, over
 * a sweep of both groups and pairs of edge values, with and without the
 * AVX-512 kernels. */
START_TEST(test_number_write_digit_groups)
{
    static const uint32_t edges[] = {0,       1,        9,        10,       99999999, 90000000,
                                     9999999, 10000000, 12345678, 87654321, 99990000, 50000005};
    size_t ne = sizeof edges / sizeof edges[0];
    for (int run = 0; run < 2; run++) {
        use_kernels(run);
        for (uint32_t k = 0; k < 200000; k++) {
            uint64_t lo = k < ne * ne ? edges[k % ne] : (k * UINT64_C(7919) + 3) % 100000000;
            uint64_t hi = k < ne * ne ? edges[k / ne] : (k * UINT64_C(104729)) % 100000000;
            /* hi in [10^7, 9 * 10^7): the value stays below 2^53 */
            hi = 10000000 + hi % 80000000;
            check_print((double)(hi * 100000000 + lo), false);
            check_print(-(double)(hi * 100000000 + lo), false);
        }
    }
    use_kernels(0);
}
END_TEST

/* Every 8-digit group through the kernels the CPU has: 10^15 + x for
 * every x below 10^8 (exact doubles whose digits are 1000000 then x), against
 * an odometer. The two groups of a double go through the same lanes, so
 * this covers both. */
START_TEST(test_number_write_every_digit_group)
{
    char want[] = "1000000000000000.0";
    size_t n = sizeof want - 1;
    use_kernels(0);
    for (uint32_t x = 0; x < 100000000; x++) {
        char got[ATD_DOUBLE_CHARS + 1];
        size_t len = (size_t)(atd_write_double(got, 1e15 + x) - got);
        CHECK(len == n && memcmp(got, want, n) == 0, "1e15 + %u printed %.*s", (unsigned)x,
              (int)len, got);
        for (size_t i = n - 3; want[i]++ == '9'; i--)
            want[i] = '0';
    }
}
END_TEST

/* A random double of the kind that i picks: subnormal, few significant
 * bits, integer, short decimal, or any bit pattern (NaN and infinities
 * included: callers skip them). */
static double random_double(rng *r, int i)
{
    uint64_t b = rng_next(r);
    switch (i % 16) {
    case 0: /* subnormal */
        b &= 0x800FFFFFFFFFFFFFu;
        break;
    case 1: /* few significant bits: short decimals */
        b &= ~(uint64_t)0 << (rng_next(r) % 53);
        break;
    case 2: /* integers */
        b = bits_of((double)(int64_t)(rng_next(r) >> (rng_next(r) % 64)));
        break;
    case 3: /* short decimals like 12.34 */
        b = bits_of((double)(int64_t)(rng_next(r) % 1000000) / (double)(1u << (rng_next(r) % 16)));
        break;
    default:
        break;
    }
    return of_bits(b);
}

START_TEST(test_number_write_random)
{
    rng r = {0x243F6A8885A308D3u};
    for (int i = 0; i < 1000000; i++) {
        double v = random_double(&r, i);
        if (!isfinite(v))
            continue;
        /* every kernel for even i, none for odd i */
        use_kernels(i & 1);
        check_print(v, (i & 7) == 0);
    }
    use_kernels(0);
}
END_TEST

/* "%.Ng" with the .0 rule; N outside 1..16 behaves as 17 */
/* atd_write_double_pair writes what atd_write_double writes for each
 * number, with a comma between, and nothing past its end: on pairs of every
 * kind of random double (both on the usual route, one or both not: zeros,
 * subnormals, powers of two), with and without the AVX-512 kernels. */
START_TEST(test_number_write_pair)
{
    static const double odd[] = {0.0, -0.0, 1.0, -2.0, 0.5, 1e-310, -5e-324, DBL_MAX, DBL_MIN, 1e23};
    size_t nodd = sizeof odd / sizeof odd[0];
    rng r = {0x13198A2E03707344u};
    for (int i = 0; i < 1000000; i++) {
        double a = random_double(&r, i), b = random_double(&r, i / 16);
        if (i % 5 == 4)
            a = odd[rng_next(&r) % nodd];
        if (i % 7 == 6)
            b = odd[rng_next(&r) % nodd];
        if (!isfinite(a) || !isfinite(b))
            continue;
        use_kernels(i & 1);
        char want[2 * ATD_DOUBLE_CHARS + 1];
        char *w = atd_write_double(want, a);
        *w++ = ',';
        w = atd_write_double(w, b);
        char got[2 * ATD_DOUBLE_CHARS + 1 + 8];
        memset(got, '#', sizeof got);
        char *g = atd_write_double_pair(got, a, b);
        size_t n = (size_t)(w - want);
        CHECK((size_t)(g - got) == n && memcmp(got, want, n) == 0, "%a, %a: pair %.*s, want %.*s",
              a, b, (int)(g - got), got, (int)n, want);
        CHECK(memcmp(got + 2 * ATD_DOUBLE_CHARS + 1, "########", 8) == 0,
              "%a, %a: written past the room", a, b);
    }
    use_kernels(0);
}
END_TEST

START_TEST(test_number_write_precision)
{
    static const struct {
        double v;
        int prec;
        const char *s;
    } cases[] = {
        {2.71828, 3, "2.72"},
        {123456.7, 3, "1.23e+05"},
        {100, 3, "100.0"},
        {0.25, 1, "0.2"},
        {0.35, 1, "0.3"},
        {2.5, 1, "2.0"},
        {9.96, 2, "10.0"},
        {9.96, 1, "1e+01"},
        {0.1, 17, "0.10000000000000001"},
        {0.1, 0, "0.10000000000000001"},
        {0.1, 99, "0.10000000000000001"},
        {-0.0, 5, "-0.0"},
        {1e21, 3, "1e+21"},
        {5e-324, 3, "4.94e-324"},
        {0.0001234, 2, "0.00012"},
        {1.5, 16, "1.5"},
    };
    char buf[ATD_DOUBLE_CHARS + 1];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        *atd_write_double_precision(buf, cases[k].v, cases[k].prec) = 0;
        ck_assert_str_eq(buf, cases[k].s);
    }
    rng r = {777};
    for (int i = 0; i < 30000; i++) {
        uint64_t b = rng_next(&r);
        if (i % 4 == 0)
            b = bits_of((double)(int64_t)(rng_next(&r) % 100000) / 1000.0);
        double v = of_bits(b);
        if (!isfinite(v))
            continue;
        int prec = 1 + i % 17;
        char want[64];
        snprintf(want, sizeof want, "%.*g", prec, v);
        dot_zero(want);
        char *e = atd_write_double_precision(buf, v, prec);
        CHECK(e - buf <= ATD_DOUBLE_CHARS, "too long");
        *e = 0;
        CHECK(strcmp(buf, want) == 0, "%a at %d: got %s want %s", v, prec, buf, want);
    }
}
END_TEST

/* the exact expansion behind the slow paths, against glibc's exact %e */
START_TEST(test_number_bigdec_expand)
{
    rng r = {4242};
    char d[ATD__BIGDEC_MAX_DIGITS + 1], want[1200];
    for (int i = 0; i < 3000; i++) {
        uint64_t b = rng_next(&r) & 0x7FFFFFFFFFFFFFFFu;
        if (i % 3 == 0)
            b &= 0x000FFFFFFFFFFFFFu | ((uint64_t)(rng_next(&r) % 3) << 52);
        double v = of_bits(b);
        if (!isfinite(v) || v == 0)
            continue;
        uint64_t m = b & 0x000FFFFFFFFFFFFFu;
        int be = (int)(b >> 52), e2 = -1074;
        if (be) {
            m |= (uint64_t)1 << 52;
            e2 = be - 1075;
        }
        int e10;
        int n = atd__bigdec_expand(m, e2, d, &e10);
        d[n] = 0;
        snprintf(want, sizeof want, "%.*e", n - 1, v);
        /* same digits, and glibc's next digits (if asked) would be zeros */
        ck_assert_msg(want[0] == d[0] && (n == 1 || memcmp(want + 2, d + 1, (size_t)n - 1) == 0),
                      "%a: %s vs %s", v, d, want);
        ck_assert_int_eq(atoi(strchr(want, 'e') + 1), e10 + n - 1);
        ck_assert(d[n - 1] != '0');
    }
}
END_TEST

/* ------------------------------------------------------------------------
 * Parsing doubles
 * ------------------------------------------------------------------------ */

START_TEST(test_number_parse_hard)
{
    static const char *cases[] = {
        "0",
        "-0",
        "-0.0",
        "1",
        "0.1",
        "0.3",
        "1e23",
        "2.2250738585072011e-308",
        "2.2250738585072012e-308",
        "8.98846567431158e307",
        "4.9406564584124654e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "2.4703282292062327208e-324",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "1.797693134862315807e308",
        "1.797693134862315708145274237317043567981e308",
        "1e-400",
        "-1e-400",
        "1e400",
        "-1e400",
        "1e0000000000000000000001",
        "1e-99999999999999999999",
        "1e99999999999999999999",
        "0e99999999999999999999",
        "0.000000000000000000000000000000000000001e40",
        "9007199254740993",
        "9007199254740992",
        "9007199254740994",
        "9007199254740995",
        "18446744073709551615",
        "18446744073709551616",
        "123456789012345678901234567890",
        "-65.613616999999977",
        "7.038531e-26",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "5e-324",
        "3e-324",
        "2e-324",
        "1e-323",
        "2.225073858507201136057409796709131975934819546351645648e-308",
        "4.940656458412465441765687928682213723651e-324",
        "1e22",
        "1e-22",
        "1e308",
        "1e-308",
        "0.1e1",
        "100000000000000000000000000000000000000000000000000e-50",
        "1448997445238699",
        "179769313486231580793728971405303415079934132710037826936173778980"
        "444968292764750946649017977587207096330286416692887910946555547851"
        "940402630657488671505820681908902000708383676273854845817711531764"
        "475730270069855571366959622842914819860834936475292719074168444365"
        "510704342711559699508093042880177904174497791.9999999999999999999999",
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        check_parse_str(cases[k]);
    /* a few with known results, independent of the oracle */
    double v;
    const char *s = "1.7976931348623159e308";
    ck_assert(atd_parse_double(s, s + strlen(s), &v) == ATD_NUM_OK && isinf(v) && v > 0);
    s = "2.4703282292062327e-324";
    ck_assert(atd_parse_double(s, s + strlen(s), &v) == ATD_NUM_OK && bits_of(v) == 0);
    s = "2.4703282292062328e-324";
    ck_assert(atd_parse_double(s, s + strlen(s), &v) == ATD_NUM_OK && bits_of(v) == 1);
    s = "9007199254740993"; /* tie between 2^53 and 2^53 + 2: even */
    ck_assert(atd_parse_double(s, s + strlen(s), &v) == ATD_NUM_OK && v == 9007199254740992.0);
    s = "-1e-400";
    ck_assert(atd_parse_double(s, s + strlen(s), &v) == ATD_NUM_OK && bits_of(v) == bits_of(-0.0));
}
END_TEST

/* Random JSON numbers of varied shapes. */
static size_t random_number(rng *r, char *buf)
{
    char *p = buf;
    if (rng_next(r) & 1)
        *p++ = '-';
    uint64_t shape = rng_next(r) % 100;
    int nd;
    if (shape < 70)
        nd = 1 + (int)(rng_next(r) % 19);
    else if (shape < 93)
        nd = 20 + (int)(rng_next(r) % 30);
    else
        nd = 100 + (int)(rng_next(r) % 800);
    int lead0 = rng_next(r) % 5 == 0 ? (int)(rng_next(r) % 30) : 0;
    int point = (int)(rng_next(r) % (uint64_t)(nd + 1)); /* integer digits */
    if (lead0 > 0) {
        memcpy(p, "0.", 2);
        p += 2;
        memset(p, '0', (size_t)lead0);
        p += lead0;
        point = 0;
    }
    for (int k = 0; k < nd; k++) {
        if (k == point && k > 0)
            *p++ = '.';
        int dig = (int)(rng_next(r) % 10);
        if (k == 0 && dig == 0 && lead0 == 0)
            dig = 1 + (int)(rng_next(r) % 9);
        /* runs of 0s and 9s make values near powers and halfway points */
        if (shape % 7 == 0 && k > 2)
            dig = (shape & 8) ? 9 : 0;
        *p++ = (char)('0' + dig);
    }
    if (lead0 == 0 && point == 0 && nd > 1 && rng_next(r) % 2) {
        /* "0.ddd" form */
        memmove(buf + (buf[0] == '-') + 2, buf + (buf[0] == '-'),
                (size_t)(p - buf - (buf[0] == '-')));
        memcpy(buf + (buf[0] == '-'), "0.", 2);
        p += 2;
    }
    uint64_t ek = rng_next(r) % 10;
    if (ek > 0) {
        *p++ = (rng_next(r) & 1) ? 'e' : 'E';
        uint64_t sg = rng_next(r) % 3;
        int ex = (int)(rng_next(r) % 700) - (ek == 1 ? 0 : 350);
        if (ek == 2)
            ex = -300 - (int)(rng_next(r) % 60) - nd; /* subnormal range */
        if (ek == 3)
            ex = 290 + (int)(rng_next(r) % 30) - point;
        if (sg == 0 && ex >= 0)
            *p++ = '+';
        p += sprintf(p, "%s%d", sg == 1 && ex == 0 ? "-" : "", ex);
    }
    *p = 0;
    return (size_t)(p - buf);
}

START_TEST(test_number_parse_random)
{
    rng r = {0xB7E151628AED2A6Bu};
    char buf[1100];
    for (int i = 0; i < 1000000; i++) {
        size_t n = random_number(&r, buf);
        bool integer;
        CHECK(atd_scan_number(buf, buf + n, &integer) == buf + n, "scan %s", buf);
        check_parse_vs_strtod(buf, n);
    }
}
END_TEST

/* Short numbers of the shapes data is full of: coordinates and measures
 * (-?[0-9]{1,8}.[0-9]{1,17}), integers, "0.ddd", exactly held values such
 * as 2.5 or 1.000, a quarter with an exponent of any form. */
static size_t random_short_number(rng *r, char *buf)
{
    char *p = buf;
    if (rng_next(r) & 1)
        *p++ = '-';
    int ni = (int)(rng_next(r) % 9); /* 0: a lone "0" */
    if (ni == 0)
        *p++ = '0';
    for (int k = 0; k < ni; k++)
        *p++ = (char)('0' + (k == 0 ? 1 + rng_next(r) % 9 : rng_next(r) % 10));
    if (rng_next(r) % 8 != 0) {
        *p++ = '.';
        int nf = 1 + (int)(rng_next(r) % 17);
        bool runs = rng_next(r) % 4 == 0; /* ...99999 or ...00000 tails */
        for (int k = 0; k < nf; k++)
            *p++ = (char)('0' + (runs && k > 3 ? (ni & 1) * 9 : rng_next(r) % 10));
    }
    if (rng_next(r) % 4 == 0) {
        /* every exponent form: e or E, no sign, + or -, leading zeros, 1 to
         * 4 digits (up to 3 take the fast route), some past the range */
        *p++ = (rng_next(r) & 1) ? 'e' : 'E';
        uint64_t sign = rng_next(r) % 3;
        if (sign > 0)
            *p++ = sign == 1 ? '+' : '-';
        int zeros = rng_next(r) % 4 == 0 ? (int)(rng_next(r) % 3) : 0;
        for (int k = 0; k < zeros; k++)
            *p++ = '0';
        int mag = rng_next(r) % 8 == 0 ? (int)(rng_next(r) % 400) : (int)(rng_next(r) % 40);
        p += sprintf(p, "%d", mag);
    }
    *p = 0;
    return (size_t)(p - buf);
}

/* atd_parse_double_prefix as readers call it: the number [num, num + n)
 * followed by `tail` in a buffer of exactly that size (so that a read past
 * its end is caught by ASan and valgrind) ends at the number's end with
 * strtod's value. */
static void check_prefix_vs_strtod(const char *num, size_t n, const char *tail, size_t tail_len)
{
    char *buf = malloc(n + tail_len);
    ck_assert_ptr_nonnull(buf);
    memcpy(buf, num, n);
    memcpy(buf + n, tail, tail_len);
    double got = 42, want = strtod(num, NULL);
    const char *e = atd_parse_double_prefix(buf, buf + n + tail_len, &got);
    CHECK(e == buf + n, "%.300s + %zu bytes: end at %td", num, tail_len, e - buf);
    CHECK(bits_of(got) == bits_of(want), "%.300s + %zu bytes: got %a want %a", num, tail_len, got,
          want);
    free(buf);
}

/* The prefix form against strtod on random numbers of the common short
 * shapes and of every shape, each followed by a delimiter and 0 to 47 more
 * bytes of JSON-like text: the one-pass routes for numbers far from the end
 * of the input and the bounded ones near it agree with strtod. */
START_TEST(test_number_parse_prefix_random)
{
    static const char delims[] = ",]} \n\t";
    static const char filler[] = "0123456789.eE+-,[]{} \"x";
    rng r = {0x243F6A8885A308D3u};
    char num[1100], tail[48];
    for (int i = 0; i < 1000000; i++) {
        size_t n = i % 4 == 3 ? random_number(&r, num) : random_short_number(&r, num);
        size_t tail_len = (size_t)(rng_next(&r) % (sizeof tail + 1));
        if (tail_len > 0)
            tail[0] = delims[rng_next(&r) % (sizeof delims - 1)];
        for (size_t k = 1; k < tail_len; k++)
            tail[k] = filler[rng_next(&r) % (sizeof filler - 1)];
        check_prefix_vs_strtod(num, n, tail, tail_len);
    }
}
END_TEST

/* A copy of [text, text + n) in a buffer of exactly that size, so that a
 * read past its end is caught by ASan and valgrind. */
static char *exact_copy(const char *text, size_t n)
{
    char *buf = malloc(n + 1);
    ck_assert_ptr_nonnull(buf);
    memcpy(buf, text, n);
    return buf;
}

/* Random tails: empty, a delimiter and JSON-like bytes, or a byte that
 * cannot end a number token and then a space (so that no longer number
 * forms, such as "1.5" "e3"). Returns whether the tail ends the token. */
static bool random_tail(rng *r, char *tail, size_t *tail_len)
{
    static const char delims[] = ",]} \n\t\"";
    static const char nondelims[] = "x.eE-+a";
    static const char filler[] = "0123456789.eE+-,[]{} \"x";
    size_t len = (size_t)(rng_next(r) % 49);
    bool ends = true;
    if (len > 0) {
        ends = rng_next(r) % 8 != 0;
        tail[0] = ends ? delims[rng_next(r) % (sizeof delims - 1)]
                       : nondelims[rng_next(r) % (sizeof nondelims - 1)];
    }
    for (size_t k = 1; k < len; k++)
        tail[k] = k == 1 && !ends ? ' ' : filler[rng_next(r) % (sizeof filler - 1)];
    *tail_len = len;
    return ends;
}

/* atd_read_double as generated readers call it, on the numbers of
 * test_number_parse_prefix_random after 0 to 20 spaces and followed by a
 * random tail: strtod's value
 * and the cursor at the number's end when the tail ends the token, an
 * error otherwise. Covers the reader's one-pass fast path (numbers far
 * from the end of the input) and its bounded general path. */
START_TEST(test_number_read_double_token_random)
{
    rng r = {0x13198A2E03707344u};
    char num[1100], tail[48], text[1200];
    for (int i = 0; i < 1000000; i++) {
        size_t n = i % 4 == 3 ? random_number(&r, num) : random_short_number(&r, num);
        size_t tail_len;
        bool ends = random_tail(&r, tail, &tail_len);
        size_t lead = (size_t)(rng_next(&r) % 21); /* spaces before */
        memset(text, ' ', lead);
        memcpy(text + lead, num, n);
        memcpy(text + lead + n, tail, tail_len);
        char *buf = exact_copy(text, lead + n + tail_len);
        atd_reader rd;
        atd_reader_init(&rd, buf, lead + n + tail_len, NULL, 0);
        double got = 42;
        bool ok = atd_read_double(&rd, &got);
        if (ends) {
            double want = strtod(num, NULL);
            CHECK(ok && rd.cur == buf + lead + n, "%.300s + %.*s: ok %d, end at %td", num,
                  (int)tail_len, tail, ok, rd.cur - buf);
            CHECK(bits_of(got) == bits_of(want), "%.300s + %.*s: got %a want %a", num,
                  (int)tail_len, tail, got, want);
        } else {
            CHECK(!ok && rd.err_code == ATD_ERR_NUMBER, "%.300s + %.*s: accepted", num,
                  (int)tail_len, tail);
        }
        free(buf);
    }
}
END_TEST

/* atd_read_int64 the same way (the fast path also reads up to 15 bytes
 * before the number, when the input has them), on integers of 1 to 21 digits
 * (some with a leading zero, some at the int64 bounds, some of 16 to 20
 * digits near the int64 and uint64 limits and powers of ten) against a
 * digit-by-digit oracle with an exact overflow check. */
START_TEST(test_number_read_int_token_random)
{
    static const char *const bounds[] = {"9223372036854775807", "-9223372036854775808",
                                         "9223372036854775808", "-9223372036854775809",
                                         "9999999999999999999", "10000000000000000000"};
    rng r = {0xA4093822299F31D0u};
    char num[32], tail[48], text[128];
    for (int i = 0; i < 1000000; i++) {
        size_t n = 0;
        bool neg = rng_next(&r) & 1;
        if (i % 16 == 15) {
            const char *b = bounds[rng_next(&r) % (sizeof bounds / sizeof bounds[0])];
            n = strlen(b);
            memcpy(num, b, n);
            neg = b[0] == '-';
        } else if (i % 16 == 14) {
            /* 16 to 20 digits within 1000 of a limit or of a power of ten
             * (the long-integer route and its overflow check) */
            static const uint64_t near[] = {(uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1,
                                            UINT64_MAX,          1000000000000000,
                                            10000000000000000,   100000000000000000,
                                            1000000000000000000, 10000000000000000000u};
            uint64_t base = near[rng_next(&r) % (sizeof near / sizeof near[0])];
            uint64_t delta = rng_next(&r) % 1000;
            bool up = rng_next(&r) & 1;
            if (neg)
                num[n++] = '-';
            if (up && base > UINT64_MAX - delta) /* past 2^64: UINT64_MAX + delta */
                n += (size_t)sprintf(num + n, "1844674407370955%04u", (unsigned)(1615 + delta));
            else
                n += (size_t)sprintf(num + n, "%llu",
                                     (unsigned long long)(up ? base + delta : base - delta));
        } else {
            if (neg)
                num[n++] = '-';
            size_t nd = 1 + (size_t)(rng_next(&r) % 21);
            for (size_t k = 0; k < nd; k++)
                num[n++] = (char)('0' + (k == 0 && rng_next(&r) % 16 != 0 ? 1 + rng_next(&r) % 9
                                                                          : rng_next(&r) % 10));
        }
        num[n] = 0;
        const char *digits = num + neg;
        size_t nd = n - (size_t)neg;
        uint64_t mag = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        bool overflow = false;
        for (size_t k = 0; k < nd; k++) {
            uint64_t d = (uint64_t)(digits[k] - '0');
            if (mag > (limit - d) / 10)
                overflow = true;
            else
                mag = mag * 10 + d;
        }
        bool lead_zero = digits[0] == '0' && nd > 1;
        size_t tail_len;
        bool ends = random_tail(&r, tail, &tail_len);
        size_t lead = (size_t)(rng_next(&r) % 21); /* spaces before */
        memset(text, ' ', lead);
        memcpy(text + lead, num, n);
        memcpy(text + lead + n, tail, tail_len);
        char *buf = exact_copy(text, lead + n + tail_len);
        atd_reader rd;
        atd_reader_init(&rd, buf, lead + n + tail_len, NULL, 0);
        int64_t got = 42;
        bool ok = atd_read_int64(&rd, &got);
        if (ends && !lead_zero && !overflow) {
            int64_t want = neg ? (mag == 0 ? 0 : -(int64_t)(mag - 1) - 1) : (int64_t)mag;
            CHECK(ok && rd.cur == buf + lead + n && got == want,
                  "%s + %.*s: ok %d, got %lld at %td", num, (int)tail_len, tail, ok, (long long)got,
                  rd.cur - buf);
        } else {
            CHECK(!ok && got == 42, "%s + %.*s: accepted", num, (int)tail_len, tail);
            if (ends && overflow && !lead_zero)
                CHECK(rd.err_code == ATD_ERR_RANGE && rd.err_offset == lead,
                      "%s + %.*s: error %d at %zu", num, (int)tail_len, tail, (int)rd.err_code,
                      rd.err_offset);
        }
        free(buf);
    }
}
END_TEST

/* Exact halfway points between adjacent doubles, written with all their
 * digits, then nudged by one unit in the last digit or by a far tail. */
START_TEST(test_number_parse_halfway)
{
    rng r = {31337};
    char digits[ATD__BIGDEC_MAX_DIGITS + 1];
    char buf[ATD__BIGDEC_MAX_DIGITS + 64];
    for (int i = 0; i < 6000; i++) {
        uint64_t b = rng_next(&r) & 0x7FFFFFFFFFFFFFFFu;
        if (i % 4 == 0)
            b &= 0x000FFFFFFFFFFFFFu; /* subnormal */
        if (i % 4 == 1)
            b = (b & 0x7FF0000000000000u) | (rng_next(&r) & 0xFF); /* near a power of two */
        if (b >= 0x7FF0000000000000u)
            continue;
        uint64_t m = b & 0x000FFFFFFFFFFFFFu;
        int be = (int)(b >> 52), e2 = -1074;
        if (be) {
            m |= (uint64_t)1 << 52;
            e2 = be - 1075;
        }
        int e10;
        int n = atd__bigdec_expand(2 * m + 1, e2 - 1, digits, &e10);
        digits[n] = 0;
        int len =
            snprintf(buf, sizeof buf, "%c.%se%d", digits[0], n > 1 ? digits + 1 : "0", e10 + n - 1);
        check_parse_vs_strtod(buf, (size_t)len);
        /* exactly halfway: the even one of b, b + 1 */
        double v;
        atd_parse_double(buf, buf + len, &v);
        CHECK(bits_of(v) == ((b & 1) ? b + 1 : b), "tie %s", buf);
        /* one unit below in the last digit */
        digits[n - 1]--;
        len = snprintf(buf, sizeof buf, "%se%d", digits, e10);
        check_parse_vs_strtod(buf, (size_t)len);
        atd_parse_double(buf, buf + len, &v);
        /* (a unit of an integer's last digit may exceed half an ulp) */
        CHECK(e10 >= 0 || bits_of(v) == b, "below %s", buf);
        /* one unit above (an appended 1), and a far nonzero tail */
        digits[n - 1]++;
        len = snprintf(buf, sizeof buf, "%s1e%d", digits, e10 - 1);
        check_parse_vs_strtod(buf, (size_t)len);
        atd_parse_double(buf, buf + len, &v);
        CHECK(e10 >= 0 || bits_of(v) == b + 1, "above %s", buf);
        len = snprintf(buf, sizeof buf, "%s00000000000000000000000001e%d", digits, e10 - 26);
        check_parse_vs_strtod(buf, (size_t)len);
        len = snprintf(buf, sizeof buf, "%s0000000000000000000000000e%d", digits, e10 - 25);
        check_parse_vs_strtod(buf, (size_t)len);
    }
}
END_TEST

/* Mantissas of 10^5 digits: correct, and (checked by the timeout) linear. */
START_TEST(test_number_parse_huge)
{
    enum { N = 100000 };
    char *buf = malloc(N + 2000);
    ck_assert_ptr_nonnull(buf);
    rng r = {99};
    /* 1 followed by N zeros: inf; with a matching exponent: 1 */
    buf[0] = '1';
    memset(buf + 1, '0', N);
    buf[N + 1] = 0;
    check_parse_str(buf);
    sprintf(buf + N + 1, "e-%d", N);
    check_parse_str(buf);
    /* 0.000...0001: zero, then scaled back into range */
    memcpy(buf, "0.", 2);
    memset(buf + 2, '0', N);
    strcpy(buf + N + 2, "1");
    check_parse_str(buf);
    strcpy(buf + N + 2, "1e100000");
    check_parse_str(buf);
    strcpy(buf + N + 2, "17e100300");
    check_parse_str(buf);
    /* N random digits, at various scales */
    for (int k = 0; k < 6; k++) {
        buf[0] = (char)('1' + rng_next(&r) % 9);
        for (int i = 1; i < N; i++)
            buf[i] = (char)('0' + rng_next(&r) % 10);
        sprintf(buf + N, "e%d", -N + (int)(rng_next(&r) % 600) - 300);
        check_parse_str(buf);
    }
    /* a halfway point followed by N zeros (tie), then by a final 1 */
    char digits[ATD__BIGDEC_MAX_DIGITS + 1];
    int e10;
    int n = atd__bigdec_expand(2 * ((uint64_t)1 << 52) + 3, -1075 + 40, digits, &e10);
    memcpy(buf, digits, (size_t)n);
    memset(buf + n, '0', N);
    sprintf(buf + n + N, "e%d", e10 - N);
    check_parse_str(buf);
    sprintf(buf + n + N, "1e%d", e10 - N - 1);
    check_parse_str(buf);
    /* 800+ significant digits just around the smallest subnormal */
    n = atd__bigdec_expand(1, -1075, digits, &e10);
    memcpy(buf, digits, (size_t)n);
    memset(buf + n, '0', 100);
    sprintf(buf + n + 100, "1e%d", e10 - 101);
    check_parse_str(buf);
    buf[n - 1]--;
    memset(buf + n, '9', 100);
    sprintf(buf + n + 100, "e%d", e10 - 100);
    check_parse_str(buf);
    free(buf);
}
END_TEST

/* Random strings over a number-ish alphabet: parsing agrees with scanning
 * (a whole-token number parses, anything else is a syntax error, the prefix
 * form stops where the scan stops) and with strtod on the value. */
START_TEST(test_number_parse_garbage)
{
    static const char alphabet[] = "0123456789000111..eE+-- x";
    rng r = {2024};
    char buf[40];
    for (int i = 0; i < 300000; i++) {
        size_t n = (size_t)(rng_next(&r) % 24);
        for (size_t k = 0; k < n; k++)
            buf[k] = alphabet[rng_next(&r) % (sizeof alphabet - 1)];
        buf[n] = 0;
        bool integer;
        const char *e = atd_scan_number(buf, buf + n, &integer);
        double v = 42, w = 43;
        atd_num_status st = atd_parse_double(buf, buf + n, &v);
        const char *pe = atd_parse_double_prefix(buf, buf + n, &w);
        CHECK(pe == e, "prefix end differs on '%s'", buf);
        /* the same with more input after it (a space ends any number) */
        char padded[sizeof buf + 32];
        memcpy(padded, buf, n);
        memset(padded + n, ' ', 32);
        double u = 44;
        const char *pp = atd_parse_double_prefix(padded, padded + n + 32, &u);
        CHECK(pp - padded == pe - buf && bits_of(u) == bits_of(pe == buf ? 44 : w), "padded '%s'",
              buf);
        if (n > 0 && e == buf + n) {
            CHECK(st == ATD_NUM_OK && bits_of(v) == bits_of(strtod(buf, NULL)) &&
                      bits_of(w) == bits_of(v),
                  "'%s'", buf);
        } else {
            CHECK(st == ATD_NUM_SYNTAX && v == 42, "accepted '%s'", buf);
        }
        if (e > buf) {
            /* strtod on the scanned prefix alone ("012" would read as 12) */
            char pre[40];
            memcpy(pre, buf, (size_t)(e - buf));
            pre[e - buf] = 0;
            double t = strtod(pre, NULL);
            CHECK(bits_of(w) == bits_of(t), "prefix value of '%s'", buf);
        }
        int64_t iv;
        atd_num_status ist = atd_parse_int64(buf, buf + n, &iv);
        if (n > 0 && e == buf + n && !integer)
            CHECK(ist == ATD_NUM_NOT_INT, "'%s' not int", buf);
        else if (n == 0 || e != buf + n)
            CHECK(ist == ATD_NUM_SYNTAX, "'%s' int syntax", buf);
        else
            CHECK(ist == ATD_NUM_OK || ist == ATD_NUM_RANGE, "'%s' int", buf);
    }
}
END_TEST

/* JSONTestSuite's number files: "[<number>]" documents. y_ and i_ ones hold
 * a valid number (i_: out of range, read as strtod does), n_ ones do not. */
START_TEST(test_number_jsontestsuite)
{
    static const char *names[] = {
        "y_number.json",
        "y_number_0e+1.json",
        "y_number_0e1.json",
        "y_number_after_space.json",
        "y_number_double_close_to_zero.json",
        "y_number_int_with_exp.json",
        "y_number_minus_zero.json",
        "y_number_negative_int.json",
        "y_number_negative_one.json",
        "y_number_negative_zero.json",
        "y_number_real_capital_e.json",
        "y_number_real_capital_e_neg_exp.json",
        "y_number_real_capital_e_pos_exp.json",
        "y_number_real_exponent.json",
        "y_number_real_fraction_exponent.json",
        "y_number_real_neg_exp.json",
        "y_number_real_pos_exponent.json",
        "y_number_simple_int.json",
        "y_number_simple_real.json",
        "i_number_double_huge_neg_exp.json",
        "i_number_huge_exp.json",
        "i_number_neg_int_huge_exp.json",
        "i_number_pos_double_huge_exp.json",
        "i_number_real_neg_overflow.json",
        "i_number_real_pos_overflow.json",
        "i_number_real_underflow.json",
        "i_number_too_big_neg_int.json",
        "i_number_too_big_pos_int.json",
        "i_number_very_big_negative_int.json",
        "n_number_++.json",
        "n_number_+1.json",
        "n_number_+Inf.json",
        "n_number_-01.json",
        "n_number_-1.0..json",
        "n_number_-2..json",
        "n_number_-NaN.json",
        "n_number_.-1.json",
        "n_number_.2e-3.json",
        "n_number_0.1.2.json",
        "n_number_0.3e+.json",
        "n_number_0.3e.json",
        "n_number_0.e1.json",
        "n_number_0_capital_E+.json",
        "n_number_0_capital_E.json",
        "n_number_0e+.json",
        "n_number_0e.json",
        "n_number_1.0e+.json",
        "n_number_1.0e-.json",
        "n_number_1.0e.json",
        "n_number_1_000.json",
        "n_number_1eE2.json",
        "n_number_2.e+3.json",
        "n_number_2.e-3.json",
        "n_number_2.e3.json",
        "n_number_9.e+.json",
        "n_number_Inf.json",
        "n_number_NaN.json",
        "n_number_U+FF11_fullwidth_digit_one.json",
        "n_number_expression.json",
        "n_number_hex_1_digit.json",
        "n_number_hex_2_digits.json",
        "n_number_infinity.json",
        "n_number_invalid+-.json",
        "n_number_invalid-negative-real.json",
        "n_number_invalid-utf-8-in-bigger-int.json",
        "n_number_invalid-utf-8-in-exponent.json",
        "n_number_invalid-utf-8-in-int.json",
        "n_number_minus_infinity.json",
        "n_number_minus_sign_with_trailing_garbage.json",
        "n_number_minus_space_1.json",
        "n_number_neg_int_starting_with_zero.json",
        "n_number_neg_real_without_int_part.json",
        "n_number_neg_with_garbage_at_end.json",
        "n_number_real_garbage_after_e.json",
        "n_number_real_with_invalid_utf8_after_e.json",
        "n_number_real_without_fractional_part.json",
        "n_number_starting_with_dot.json",
        "n_number_with_alpha.json",
        "n_number_with_alpha_char.json",
        "n_number_with_leading_zero.json",
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[512], text[512];
        snprintf(path, sizeof path, "%s/data/jsontestsuite/test_parsing/%s", ATD_SHARED_DIR,
                 names[k]);
        FILE *f = fopen(path, "rb");
        ck_assert_msg(f != NULL, "cannot open %s", path);
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = 0;
        /* the token between '[' and ']', without surrounding spaces */
        const char *b = text, *e = text + n;
        while (b < e && (*b == '[' || *b == ' '))
            b++;
        while (e > b && (e[-1] == ']' || e[-1] == ' ' || e[-1] == '\n'))
            e--;
        double v = 42;
        atd_num_status st = atd_parse_double(b, e, &v);
        if (names[k][0] == 'n') {
            ck_assert_msg(st == ATD_NUM_SYNTAX, "%s accepted", names[k]);
        } else {
            ck_assert_msg(st == ATD_NUM_OK, "%s rejected", names[k]);
            ck_assert_msg(bits_of(v) == bits_of(strtod(b, NULL)), "%s: %a", names[k], v);
        }
    }
}
END_TEST

Suite *number_suite(void);
Suite *number_suite(void)
{
    Suite *s = suite_create("number");
    struct {
        const char *name;
        const TTest *test;
    } cases[] = {
        {"pow10_table", test_number_pow10_table_regenerates},
        {"int_write", test_number_int_write},
        {"int_parse", test_number_int_parse},
        {"scan", test_number_scan},
        {"parse_syntax", test_number_parse_syntax},
        {"write_cases", test_number_write_cases},
        {"shortest_digits", test_number_shortest_digits},
        {"shortest_fast", test_number_shortest_fast},
        {"write_layouts", test_number_write_layouts},
        {"write_powers", test_number_write_powers},
        {"write_digit_groups", test_number_write_digit_groups},
        {"write_every_digit_group", test_number_write_every_digit_group},
        {"write_random", test_number_write_random},
        {"write_pair", test_number_write_pair},
        {"write_precision", test_number_write_precision},
        {"bigdec_expand", test_number_bigdec_expand},
        {"parse_hard", test_number_parse_hard},
        {"parse_random", test_number_parse_random},
        {"parse_halfway", test_number_parse_halfway},
        {"parse_huge", test_number_parse_huge},
        {"parse_garbage", test_number_parse_garbage},
        {"parse_prefix_random", test_number_parse_prefix_random},
        {"read_double_token_random", test_number_read_double_token_random},
        {"read_int_token_random", test_number_read_int_token_random},
        {"jsontestsuite", test_number_jsontestsuite},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        TCase *tc = tcase_create(cases[k].name);
        tcase_set_timeout(tc, 60);
        tcase_add_test(tc, cases[k].test);
        suite_add_tcase(s, tc);
    }
    return s;
}

ATD_CHECK_MAIN(number_suite)
