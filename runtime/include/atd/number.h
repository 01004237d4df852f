/* Numbers: printing and parsing without printf/strtod and without any
 * dependence on the process locale.
 *
 * Printing writes at a cursor and returns the advanced cursor; the caller has
 * reserved the worst case (ATD_INT64_CHARS, ATD_DOUBLE_CHARS) beforehand.
 *
 * Parsing follows the strict JSON (RFC 8259) number grammar:
 *   -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
 * Doubles are correctly rounded (round-half-even, bit-identical to strtod in
 * the C locale) for every input, whatever its length. */
#ifndef ATD_NUMBER_H
#define ATD_NUMBER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ATD_INT64_CHARS 20  /* "-9223372036854775808" */
#define ATD_DOUBLE_CHARS 32 /* more than the longest output of atd_write_double */

/* Writes v in decimal, no leading zeros, '-' first when negative (the
 * unsigned form for a uint64).
 *   p: where the text goes, with room for ATD_INT64_CHARS bytes (no NUL is
 *      written).
 *   v: the number.
 * Returns the cursor after the last byte written. */
char *atd_write_int64(char *p, int64_t v);
char *atd_write_uint64(char *p, uint64_t v);

/* Shortest decimal digits that read back as exactly `v`. Among the
 * shortest candidates, the one closest to v.
 *   v:      the number: finite and > 0 (the caller handles the sign).
 *   digits: filled with ASCII digits, no trailing zeros, no NUL.
 *   exp10:  receives E such that v reads back from D * 10^E, D being the
 *           digits taken as an integer (e.g. 0.25 -> "25", E = -2).
 * Returns the number of digits, 1 to 17. */
int atd_double_shortest(double v, char digits[17], int *exp10);

/* Writes a finite double as atdgen/yojson do, with the shortest round-trip
 * digits: %g-style layout with precision P = 16 (17 when 17 digits are needed),
 * i.e. exponential form "d.ddde+XX" when the decimal exponent X < -4 or X >= P,
 * else fixed notation; an output made only of digits and '-' gets ".0".
 * Examples: 2 -> "2.0", 0.25, -0.0 -> "-0.0", 1e15 -> "1000000000000000.0",
 * 1e16 -> "1e+16", 3e-8 -> "3e-08", 5e-324 -> "5e-324".
 *   p: where the text goes, with room for ATD_DOUBLE_CHARS bytes (no NUL).
 *   v: the number; finite (callers report NaN/inf as ATD_ERR_NONFINITE).
 * Returns the cursor after the last byte written. */
char *atd_write_double(char *p, double v);

/* Writes a, a comma and b: the same bytes as atd_write_double(p, a), ','
 * and atd_write_double for b, in less time (the two numbers' digits are
 * found side by side; the writers of tuples call it for two float elements
 * in a row, such as GeoJSON positions).
 *   p:    where the text goes, with room for 2 * ATD_DOUBLE_CHARS + 1 bytes.
 *   a, b: the numbers; finite.
 * Returns the cursor after the last byte written. */
char *atd_write_double_pair(char *p, double a, double b);

/* Same layout as "%.<precision>g" followed by the ".0" rule (for
 * <json precision="N">): the double correctly rounded (half-even on exact
 * ties, as glibc's printf) to `precision` significant digits, trailing zeros
 * removed. A precision outside 1..16 behaves as 17 (spec 10.3). Examples
 * with 3: 2.71828 -> "2.72", 123456.7 -> "1.23e+05", 100 -> "100.0".
 * Not for hot paths: it uses exact big-integer arithmetic (a few µs).
 *   p:         where the text goes, with room for ATD_DOUBLE_CHARS bytes.
 *   v:         the number; finite.
 *   precision: the significant digits wanted.
 * Returns the cursor after the last byte written. */
char *atd_write_double_precision(char *p, double v, int precision);

/* Parse results. */
typedef enum atd_num_status {
    ATD_NUM_OK = 0,
    ATD_NUM_SYNTAX,  /* not a JSON number at p (nothing consumed) */
    ATD_NUM_NOT_INT, /* a valid JSON number, but with a fraction or exponent */
    ATD_NUM_RANGE    /* an integer outside the destination range */
} atd_num_status;

/* Scans the longest prefix of [p, end) that is a JSON number.
 *   p, end:     the input.
 *   is_integer: set to whether the number has no fraction and no exponent
 *               (when one was found).
 * Returns the end of that prefix, or p itself when no valid number starts
 * at p (e.g. "-"; "01" returns after "0": the caller's next-token check
 * rejects "1"; "1." and "1e" are invalid: returns p). */
const char *atd_scan_number(const char *p, const char *end, bool *is_integer);

/* Parses the JSON integer [p, end) (exactly an integer token as delimited by
 * atd_scan_number) into an int64. ATD_NUM_RANGE when it overflows:
 * "9223372036854775808" is out of range, "-9223372036854775808" is fine;
 * "-0" is 0. ATD_NUM_NOT_INT when [p, end) is a valid number with a fraction
 * or an exponent ("1.0", "1e3"), ATD_NUM_SYNTAX when it is not exactly one
 * JSON number.
 *   p, end: the token.
 *   out:    the integer; written only on ATD_NUM_OK.
 * Returns ATD_NUM_OK or the reason it is not an int64. */
atd_num_status atd_parse_int64(const char *p, const char *end, int64_t *out);

/* Parses the JSON number [p, end) (exactly a token as delimited by
 * atd_scan_number) into the correctly rounded double. Overflow gives +-inf,
 * underflow +-0 or a subnormal, as strtod does; "-0" gives -0.0.
 *   p, end: the token.
 *   out:    the double; left alone on ATD_NUM_SYNTAX.
 * Returns ATD_NUM_OK, or ATD_NUM_SYNTAX when [p, end) is not exactly one
 * JSON number. Mantissas and exponents of any length are fine:
 * time is linear in the length, no allocation. */
atd_num_status atd_parse_double(const char *p, const char *end, double *out);

/* atd_scan_number and atd_parse_double in one pass, for readers.
 *   p, end: the input.
 *   out:    the correctly rounded double of the longest JSON number at p;
 *           left alone when there is none.
 * Returns the end of the number, or p when no valid number starts at p.
 * Like atd_scan_number, "01" stops after "0" and "1." or "1e" give p. */
const char *atd_parse_double_prefix(const char *p, const char *end, double *out);

#ifdef __cplusplus
}
#endif

#endif
