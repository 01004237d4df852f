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

/* For each byte c, the byte that the short escape of c (a backslash, then
 * c) stands for: '"', '\\', '/', and b f n r t for their control bytes; 0
 * when c does not make one (the u of \uXXXX, or no escape at all). */
extern const unsigned char atd__short_escapes[256];

/* Decodes a string body from p into dst in one pass: copies the text,
 * checks its UTF-8 as atd__scan_text does, and replaces the short escapes
 * (atd__short_escapes) by their byte as they come, writing nowhere at or
 * past dst_end. Returns where it stopped, with *dst_out past the bytes
 * written for everything before:
 * - the closing quote (when nothing else came first);
 * - a byte the caller must handle: a backslash that does not start a short
 *   escape (\uXXXX, an invalid escape, or one cut by the end), a control byte,
 *   or end;
 * - when the room ran out, any other byte (at a sequence boundary) or the
 *   backslash of a short escape;
 * - NULL when ill-formed UTF-8 (or a sequence cut short) comes first; the
 *   caller then names the offending byte the sequence-by-sequence way.
 * Dispatched at run time like atd__scan_text. */
const char *atd__decode_text(char *dst, char *dst_end, const char *p, const char *end,
                             char **dst_out);

/* The kernels: portable (always there, SSE2 for ASCII runs when the build
 * has it, sequence by sequence otherwise) and AVX2 (32 bytes per step). */
const char *atd__scan_text_scalar(const char *p, const char *end);
const char *atd__decode_text_scalar(char *dst, char *dst_end, const char *p, const char *end,
                                    char **dst_out);
#if ATD__HAVE_AVX2_KERNELS
const char *atd__scan_text_avx2(const char *p, const char *end);
const char *atd__decode_text_avx2(char *dst, char *dst_end, const char *p, const char *end,
                                  char **dst_out);
#endif

#endif
