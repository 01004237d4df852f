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

/* For each byte, its value as a hex digit (0..15), 0xff when it is none. */
extern const unsigned char atd__hex_values[256];

/* Encodes code point u (< 0x110000; surrogates too, for lenient mode) at
 * out; returns the byte count (1 to 4). */
static inline size_t atd__utf8_encode(char *out, unsigned u)
{
    if (u < 0x80) {
        out[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        out[0] = (char)(0xc0 | (u >> 6));
        out[1] = (char)(0x80 | (u & 0x3f));
        return 2;
    }
    if (u < 0x10000) {
        out[0] = (char)(0xe0 | (u >> 12));
        out[1] = (char)(0x80 | ((u >> 6) & 0x3f));
        out[2] = (char)(0x80 | (u & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (u >> 18));
    out[1] = (char)(0x80 | ((u >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((u >> 6) & 0x3f));
    out[3] = (char)(0x80 | (u & 0x3f));
    return 4;
}

/* The value of the four hex digits at s, or a value above 0xffff when one
 * of them is no hex digit. */
static inline unsigned atd__hex4(const unsigned char *s)
{
    const unsigned char *h = atd__hex_values;
    unsigned a = h[s[0]], b = h[s[1]], c = h[s[2]], d = h[s[3]];
    return (a << 12 | b << 8 | c << 4 | d) | ((a | b | c | d) & 0x10u) << 12;
}

/* One escape of the decoders at p: a short one (atd__short_escapes),
 * \uXXXX, or a high surrogate escape followed at once by a low one, its
 * UTF-8 bytes written at *dst. Returns the byte after it with *dst past the
 * bytes written, or p (nothing written) when p holds no such escape (other
 * text; a bad or lone-surrogate escape, one cut by the end: the caller's
 * general path names those) or its bytes would not fit before dst_end. */
static inline const char *atd__decode_escape(const char *p, const char *end, char **dst,
                                             char *dst_end)
{
    char *d = *dst;
    if (end - p < 2 || *p != '\\')
        return p;
    unsigned char c = atd__short_escapes[(unsigned char)p[1]];
    if (c != 0) {
        if (d == dst_end)
            return p;
        *d = (char)c;
        *dst = d + 1;
        return p + 2;
    }
    const unsigned char *s = (const unsigned char *)p;
    if (p[1] != 'u' || end - p < 6 || dst_end - d < 4)
        return p;
    unsigned u = atd__hex4(s + 2);
    if (u - 0xd800u >= 0x800u) { /* not a surrogate; or above 0xffff: bad digits */
        if (u > 0xffff)
            return p;
        *dst = d + atd__utf8_encode(d, u);
        return p + 6;
    }
    if (u >= 0xdc00 || end - p < 12 || s[6] != '\\' || s[7] != 'u')
        return p;
    unsigned lo = atd__hex4(s + 8);
    if (lo - 0xdc00u >= 0x400u)
        return p;
    *dst = d + atd__utf8_encode(d, 0x10000u + ((u - 0xd800u) << 10) + (lo - 0xdc00u));
    return p + 12;
}

/* The escapes that follow one another from p, each decoded by
 * atd__decode_escape; returns the first byte that is not one it decodes. */
static inline const char *atd__decode_escapes(const char *p, const char *end, char **dst,
                                              char *dst_end)
{
    for (;;) {
        const char *q = atd__decode_escape(p, end, dst, dst_end);
        if (q == p)
            return p;
        p = q;
    }
}

/* Decodes a string body from p into dst in one pass: copies the text,
 * checks its UTF-8 as atd__scan_text does, and decodes the escapes as they
 * come (atd__decode_escapes), writing nowhere at or past dst_end. Returns
 * where it stopped, with *dst_out past the bytes written for everything
 * before:
 * - the closing quote (when nothing else came first);
 * - a byte the caller must handle: a backslash that atd__decode_escapes
 *   does not decode (an invalid escape, a lone surrogate, one cut by the
 *   end), a control byte, or end;
 * - when the room ran out, any other byte (at a sequence boundary) or the
 *   backslash of an escape;
 * - NULL when ill-formed UTF-8 (or a sequence cut short) comes first; the
 *   caller then names the offending byte the sequence-by-sequence way.
 * Dispatched at run time like atd__scan_text. */
const char *atd__decode_text(char *dst, char *dst_end, const char *p, const char *end,
                             char **dst_out);

/* Where the text [start, p) can be cut so that no sequence straddles the
 * cut: p, or the lead byte of a sequence that the last three bytes before p
 * begin but do not finish (for the wide kernels, which hand the last bytes
 * of the input or the room to a narrower one). */
static inline const char *atd__sequence_boundary(const char *start, const char *p)
{
    for (int i = 1; i <= 3 && p - i >= start; i++) {
        unsigned char c = (unsigned char)p[-i];
        if (c < 0x80)
            break;
        if (c >= 0xc0) {
            int len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
            return len > i ? p - i : p;
        }
    }
    return p;
}

/* The kernels: portable (always there, SSE2 for ASCII runs when the build
 * has it, sequence by sequence otherwise), AVX2 (32 bytes per step) and
 * AVX-512 (64). */
const char *atd__scan_text_scalar(const char *p, const char *end);
const char *atd__decode_text_scalar(char *dst, char *dst_end, const char *p, const char *end,
                                    char **dst_out);
#if ATD__HAVE_AVX2_KERNELS
const char *atd__scan_text_avx2(const char *p, const char *end);
const char *atd__decode_text_avx2(char *dst, char *dst_end, const char *p, const char *end,
                                  char **dst_out);
#endif
#if ATD__HAVE_AVX512_KERNELS
const char *atd__scan_text_avx512(const char *p, const char *end);
const char *atd__decode_text_avx512(char *dst, char *dst_end, const char *p, const char *end,
                                    char **dst_out);
#endif

#endif
