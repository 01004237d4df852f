/* UTF-8 validation for the reader (internal to atdrt). Well-formed means
 * Unicode 3.9, table 3-7: no overlongs, no encoded surrogates, nothing above
 * U+10FFFF, no truncated sequences or stray continuation bytes. */
#ifndef ATD_UTF8_H
#define ATD_UTF8_H

#include <stddef.h>

#include "cpu.h"

/* Length of the sequence at p (p < end, *p >= 0x80) when it is well-formed,
 * 0 when it is ill-formed, or -1 when the input ends before it could be
 * judged (the bytes present are a valid prefix so far). */
int atd__utf8_sequence(const unsigned char *p, const unsigned char *end);

/* Skips well-formed non-ASCII sequences from p for as long as they follow one
 * another. Returns the first byte that is ASCII, or end, or the first byte of
 * a sequence that atd__utf8_sequence does not accept (then *result >= 0x80
 * and atd__utf8_sequence tells why). */
const unsigned char *atd__utf8_skip(const unsigned char *p, const unsigned char *end);

/* The end of plain text in a string body: the first byte in [p, end) that
 * is '"', '\\' or below 0x20 (end when there is none), provided that every
 * byte before it is well-formed UTF-8; NULL when ill-formed UTF-8 (or a
 * sequence cut short by that byte or by the end) comes first. The caller
 * then finds the offending byte with atd__utf8_skip. This is the one UTF-8
 * validator of the library: the reader's strings, and the writer's strings
 * (the same three kinds of bytes need escaping there). Dispatched at run
 * time to the widest kernel the CPU has (cpu.h). */
const char *atd__scan_text(const char *p, const char *end);

/* The kernels: portable (always there, SSE2 for ASCII runs when the build
 * has it, sequence by sequence otherwise) and AVX2 (32 bytes per step). */
const char *atd__scan_text_scalar(const char *p, const char *end);
#if ATD__HAVE_AVX2_KERNELS
const char *atd__scan_text_avx2(const char *p, const char *end);
#endif

#endif
