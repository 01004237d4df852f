/* libFuzzer target for number printing and parsing (runtime/src/number_*.c),
 * checked against the C library, which is correct but slow and
 * locale-dependent (the fuzzer runs in the "C" locale).
 *
 * Two views of each input:
 *  - As text: when the whole input is one JSON number (atd_scan_number
 *    consumes it all), atd_parse_double must give exactly strtod's bits,
 *    atd_parse_double_prefix must agree with scan + parse, and for integers
 *    atd_parse_int64 must agree with strtoll (value, or out of range).
 *  - As bits: the first 8 bytes are a double and an int64. A finite double
 *    printed by atd_write_double must parse back bit-identical (also through
 *    strtod), use at most ATD_DOUBLE_CHARS bytes and be a JSON number; the
 *    int64 must print and parse back unchanged. The 9th byte, when present,
 *    picks a precision for atd_write_double_precision, whose digits must be
 *    those of printf's "%.<P>g" (the layout differs only by the ".0" rule).
 * Any crash, sanitizer report or broken promise (abort) is a finding.
 *
 * Build: see tests/fuzz/CMakeLists.txt; run: tests/fuzz/run.sh fuzz_number SECONDS. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "atd/number.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_bits(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    if (x != y)
        abort();
}

static void check_text(const char *text, size_t size)
{
    const char *end = text + size;
    bool is_int = false;
    if (size == 0 || atd_scan_number(text, end, &is_int) != end)
        return;
    /* strtod needs a terminator; the scanner proved the bytes are a number. */
    char *z = malloc(size + 1);
    if (z == NULL)
        abort();
    memcpy(z, text, size);
    z[size] = '\0';

    double mine = 0, theirs = strtod(z, NULL);
    if (atd_parse_double(text, end, &mine) != ATD_NUM_OK)
        abort();
    same_bits(mine, theirs);
    double pre = 0;
    if (atd_parse_double_prefix(text, end, &pre) != end)
        abort();
    same_bits(pre, theirs);

    int64_t i = 0;
    atd_num_status st = atd_parse_int64(text, end, &i);
    if (!is_int) {
        if (st != ATD_NUM_NOT_INT)
            abort();
    } else {
        errno = 0;
        long long ll = strtoll(z, NULL, 10);
        if (errno == ERANGE) {
            if (st != ATD_NUM_RANGE)
                abort();
        } else if (st != ATD_NUM_OK || i != (int64_t)ll) {
            abort();
        }
    }
    free(z);
}

static void check_bits(const uint8_t *data, size_t size)
{
    if (size < 8)
        return;
    double d;
    int64_t n;
    memcpy(&d, data, sizeof d);
    memcpy(&n, data, sizeof n);

    char buf[ATD_DOUBLE_CHARS + ATD_INT64_CHARS + 8];
    char *e = atd_write_int64(buf, n);
    if (e - buf > ATD_INT64_CHARS)
        abort();
    int64_t back = 0;
    if (atd_parse_int64(buf, e, &back) != ATD_NUM_OK || back != n)
        abort();

    if (!isfinite(d))
        return;
    e = atd_write_double(buf, d);
    if (e - buf > ATD_DOUBLE_CHARS)
        abort();
    bool is_int;
    if (atd_scan_number(buf, e, &is_int) != e || is_int)
        abort(); /* a JSON number, always with a '.' or an exponent */
    double r = 0;
    if (atd_parse_double(buf, e, &r) != ATD_NUM_OK)
        abort();
    same_bits(r, d);
    *e = '\0';
    same_bits(strtod(buf, NULL), d);

    if (size < 9)
        return;
    int precision = 1 + data[8] % 17; /* 1..17 */
    e = atd_write_double_precision(buf, d, precision);
    if (e - buf > ATD_DOUBLE_CHARS)
        abort();
    *e = '\0';
    char ref[64];
    snprintf(ref, sizeof ref, "%.*g", precision > 16 ? 17 : precision, d);
    /* printf's "%g" plus the ".0" rule: add ".0" when only digits and '-'. */
    if (strspn(ref, "-0123456789") == strlen(ref))
        strcat(ref, ".0");
    if (strcmp(ref, buf) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_text((const char *)data, size);
    check_bits(data, size);
    return 0;
}
