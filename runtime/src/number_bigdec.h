/* Internal to the number module: exact big-integer arithmetic for the rare
 * cases the fast number algorithms cannot decide (parsing ambiguous or long
 * decimals, printing with a fixed precision). Slow (microseconds), but
 * bounded: fixed-size stack integers, no allocation. */
#ifndef ATD_NUMBER_BIGDEC_H
#define ATD_NUMBER_BIGDEC_H

#include <stdbool.h>
#include <stdint.h>

/* Enough for every significant digit of any m * 2^e2 with m < 2^64 and
 * -1140 <= e2 <= 1024 (at most 800 digits are ever needed). */
#define ATD__BIGDEC_MAX_DIGITS 1000

/* Significant decimal digits that decide the rounding of any decimal to a
 * double: a halfway point between two doubles has at most 767 of them, so
 * digits after the first ATD__BIGDEC_KEEP only matter as "some nonzero". */
#define ATD__BIGDEC_KEEP 800

/* All significant digits of m * 2^e2 (m > 0, -1140 <= e2 <= 1024) as ASCII,
 * no trailing zeros; returns their count and sets *exp10 so that the value is
 * digits * 10^exp10. `out` holds ATD__BIGDEC_MAX_DIGITS bytes. */
int atd__bigdec_expand(uint64_t m, int e2, char *out, int *exp10);

/* Sign (-1, 0, 1) of D * 10^exp10 (+ a positive infinitesimal when `sticky`)
 * minus m * 2^e2, where D is the integer written by the ASCII digits
 * digits[0..n). Preconditions: 1 <= n <= ATD__BIGDEC_KEEP, D > 0, m > 0,
 * |exp10| <= 1200, |e2| <= 1200, and the two values within a factor 2^64 of
 * each other or on an order of magnitude any double can have. */
int atd__bigdec_compare(const char *digits, int n, int exp10, bool sticky, uint64_t m, int e2);

#endif
