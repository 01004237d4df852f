/* Internals of the reader shared by reader.c, read_string.c, skip.c,
 * read_name.c, read_support.c, json_value.c, stream.c and pretty.c (private to atdrt: not
 * installed, not for generated code, may change without notice). */
#ifndef ATD_READER_INTERNAL_H
#define ATD_READER_INTERNAL_H

#include "atd/reader.h"

/* ATD_NOINLINE (atd/common.h) keeps the reader's rare paths (comments,
 * errors, general cases) out of their callers, so that the hot paths stay
 * leaves with no registers to save. */

/* Sets the end of r's input (and with it fast_end), at or after r->start. */
static inline void atd__reader_set_end(atd_reader *r, const char *end)
{
    r->end = end;
    r->fast_end = end - r->start > ATD__FAST_ROOM ? end - ATD__FAST_ROOM : r->start;
}

/* Scans the string whose opening quote is at p, validating it (escapes,
 * UTF-8 and control bytes in strict mode). On success sets [*body, *body_end)
 * to the raw bytes between the quotes, *has_escape when a backslash occurs,
 * and returns the byte after the closing quote; NULL after an error. */
const char *atd__scan_string_p(atd_reader *r, const char *p, const char **body,
                               const char **body_end, bool *has_escape);

/* Skips whitespace and the byte c, or records "expected 'c', found ...". */
const char *atd__expect_p(atd_reader *r, const char *p, char c);

/* Records "expected WHAT, found <token at `at`>" with `code` (ATD_ERR_EOF and
 * "unexpected end of input" when `at` is the end of the input; ATD_ERR_SYNTAX
 * instead of ATD_ERR_TYPE when the token cannot start a JSON value). */
bool atd__fail_found(atd_reader *r, const char *at, atd_error_code code, const char *what);

/* Renders a short, printable quote of the token at `at` into buf (always
 * NUL-terminated): strings with their quotes, punctuation in single quotes,
 * other tokens up to the next delimiter; long tokens end with "...". */
void atd__quote_token(const atd_reader *r, const char *at, char *buf, size_t cap);

/* Byte classes (see reader.c): ATD__CC_WS for JSON whitespace, ATD__CC_DELIM
 * for bytes that end a bare token (whitespace, , : [ ] { } " /). */
enum { ATD__CC_WS = 1, ATD__CC_DELIM = 2 };
extern const unsigned char atd__char_class[256];

/* Whether [p, end) starts with the n bytes of lit followed by a delimiter or
 * the end: returns 1 if so, -1 when the input ends inside a prefix of lit,
 * 0 otherwise. */
int atd__match_literal(const char *p, const char *end, const char *lit, size_t n);

/* Fast path for a short JSON integer at p: -?(0|[1-9][0-9]{0,17}) followed
 * by a delimiter or the end. Returns the end of the token with *out set, or
 * NULL for anything else (more digits, a fraction, an exponent, not a
 * number), setting *fraction when the integer part is followed by '.', 'e'
 * or 'E'. Callers take their general path on NULL. */
const char *atd__read_small_int(const char *p, const char *end, int64_t *out, bool *fraction);

/* atd_read_double_p after whitespace: the common plain number at p by a
 * one-pass fast path (number_read.c), anything else by
 * atd__read_double_slow (reader.c: numbers near the end of the input, long
 * or unusual ones, quoted numbers, lenient names and the errors). */
const char *atd__read_double_token(atd_reader *r, const char *p, double *out);
const char *atd__read_double_slow(atd_reader *r, const char *p, double *out);
/* atd_parse_double_prefix without its fast path, for callers that have just
 * tried it (atd__read_double_slow after atd__read_double_token). */
const char *atd__parse_double_general(const char *p, const char *end, double *out);

/* The same for atd_read_int64_p: the common bare integer (number_read.c;
 * slot: the place's length guess in atd_reader.lengths), anything else
 * (reader.c: long integers, integers near the end of the input, quoted
 * integers and the errors). */
const char *atd__read_int64_token(atd_reader *r, const char *p, int64_t *out, unsigned slot);
const char *atd__read_int64_slow(atd_reader *r, const char *p, int64_t *out);

#endif
