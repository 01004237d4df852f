/* UTF-8 validation for the reader (internal to atdrt). Well-formed means
 * Unicode 3.9, table 3-7: no overlongs, no encoded surrogates, nothing above
 * U+10FFFF, no truncated sequences or stray continuation bytes. */
#ifndef ATD_UTF8_H
#define ATD_UTF8_H

#include <stddef.h>

/* Length of the sequence at p (p < end, *p >= 0x80) when it is well-formed,
 * 0 when it is ill-formed, or -1 when the input ends before it could be
 * judged (the bytes present are a valid prefix so far). */
int atd__utf8_sequence(const unsigned char *p, const unsigned char *end);

/* Skips well-formed non-ASCII sequences from p for as long as they follow one
 * another. Returns the first byte that is ASCII, or end, or the first byte of
 * a sequence that atd__utf8_sequence does not accept (then *result >= 0x80
 * and atd__utf8_sequence tells why). */
const unsigned char *atd__utf8_skip(const unsigned char *p, const unsigned char *end);

#endif
