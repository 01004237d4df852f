/* The escapes of the wide string decoders (utf8_avx2.c, utf8_avx512.c),
 * internal to atdrt. Include it only from files compiled for AVX2 kernels
 * (ATD__HAVE_AVX2_KERNELS).
 *
 * Text escaped as \uXXXX (all non-ASCII, as PHP and Python write by
 * default) comes in long runs of escapes, six bytes for one character.
 * Decoded one by one, each costs four table lookups for its digits and a
 * branchy encoder. Here four escapes in a row (24 bytes) are checked and
 * converted at once with 16-byte vectors: the eight "\u" bytes and the
 * sixteen hex digits gathered by two shuffles, the digits validated and
 * turned into four code points by two multiply-adds, and four characters
 * of the same UTF-8 length (the usual case: one script) encoded together.
 * Anything else (short escapes, surrogates, bad digits, the last escapes of
 * a run, the end of the input or of the room) takes the one-escape step,
 * which also names nothing: the caller's general path reports errors. */
#ifndef ATD_UNESCAPE_WIDE_H
#define ATD_UNESCAPE_WIDE_H

#include <immintrin.h>
#include <stdint.h>

#include "utf8.h"

/* Input and room the four-escape step needs: it loads 24 bytes and stores
 * 16 (the 12 bytes of four 3-byte characters at most, then junk that the
 * next bytes overwrite or that is left unused). */
#define ATD__U4_IN 24
#define ATD__U4_ROOM 16

/* Whether the escape at p may start four \uXXXX escapes that
 * atd__decode_u4 can take: the input and the room it needs, and 'u' as
 * bytes 1 and 19 (a cheap test that keeps other escapes, such as the \/ of
 * every slash, away from the vector step). */
static inline bool atd__u4_ahead(const char *p, const char *end, const char *d, const char *dst_end)
{
    return end - p >= ATD__U4_IN && p[1] == 'u' && p[19] == 'u' && dst_end - d >= ATD__U4_ROOM;
}

/* Four \uXXXX escapes at p, none a surrogate, decoded at *dst. Returns
 * false, having written nothing, when the 24 bytes at p are not that. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE bool atd__decode_u4(const char *p,
                                                                                  char **dst)
{
    /* a: bytes 0..15, b: bytes 8..23. Escape k spans bytes 6k..6k+5. */
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 8));
    const __m128i digits_a =
        _mm_setr_epi8(2, 3, 4, 5, 8, 9, 10, 11, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i digits_b =
        _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 6, 7, 8, 9, 12, 13, 14, 15);
    const __m128i marks_a =
        _mm_setr_epi8(0, 1, 6, 7, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i marks_b =
        _mm_setr_epi8(-1, -1, -1, -1, 4, 5, 10, 11, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i marks_want =
        _mm_setr_epi8('\\', 'u', '\\', 'u', '\\', 'u', '\\', 'u', 0, 0, 0, 0, 0, 0, 0, 0);
    __m128i hex = _mm_or_si128(_mm_shuffle_epi8(a, digits_a), _mm_shuffle_epi8(b, digits_b));
    __m128i marks = _mm_or_si128(_mm_shuffle_epi8(a, marks_a), _mm_shuffle_epi8(b, marks_b));
    /* A digit is 0..9 after subtracting '0'; a letter, its case folded by
     * setting bit 5, is 0..5 after subtracting 'a' (nothing else folds
     * into a..f). Unsigned x <= max as min(x, max) == x. */
    __m128i digit = _mm_sub_epi8(hex, _mm_set1_epi8('0'));
    __m128i letter = _mm_sub_epi8(_mm_or_si128(hex, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
    __m128i is_digit = _mm_cmpeq_epi8(_mm_min_epu8(digit, _mm_set1_epi8(9)), digit);
    __m128i is_letter = _mm_cmpeq_epi8(_mm_min_epu8(letter, _mm_set1_epi8(5)), letter);
    __m128i ok =
        _mm_and_si128(_mm_cmpeq_epi8(marks, marks_want), _mm_or_si128(is_digit, is_letter));
    if (_mm_movemask_epi8(ok) != 0xffff)
        return false;
    __m128i nibbles = _mm_blendv_epi8(_mm_add_epi8(letter, _mm_set1_epi8(10)), digit, is_digit);
    /* 16 * first + second nibble: eight bytes in 16-bit lanes; then
     * 256 * first + second byte: the four code points in 32-bit lanes */
    __m128i pairs = _mm_maddubs_epi16(nibbles, _mm_set1_epi16(0x0110));
    __m128i cps = _mm_madd_epi16(pairs, _mm_set1_epi32(0x00010100));
    __m128i surrogate =
        _mm_cmpeq_epi32(_mm_and_si128(cps, _mm_set1_epi32(0xf800)), _mm_set1_epi32(0xd800));
    if (!_mm_testz_si128(surrogate, surrogate))
        return false; /* a pair (or an error): the one-escape step */
    char *d = *dst;
    __m128i low6 = _mm_set1_epi32(0x3f), cont = _mm_set1_epi32(0x80);
    int three = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(cps, _mm_set1_epi32(0x7ff))));
    int two = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(cps, _mm_set1_epi32(0x7f))));
    if (three == 0xf) {
        /* 1110xxxx 10xxxxxx 10xxxxxx in the low three bytes of each lane */
        __m128i b0 = _mm_or_si128(_mm_srli_epi32(cps, 12), _mm_set1_epi32(0xe0));
        __m128i b1 = _mm_or_si128(_mm_and_si128(_mm_srli_epi32(cps, 6), low6), cont);
        __m128i b2 = _mm_or_si128(_mm_and_si128(cps, low6), cont);
        __m128i lanes =
            _mm_or_si128(b0, _mm_or_si128(_mm_slli_epi32(b1, 8), _mm_slli_epi32(b2, 16)));
        const __m128i pack = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
        _mm_storeu_si128((__m128i *)(void *)d, _mm_shuffle_epi8(lanes, pack));
        *dst = d + 12;
        return true;
    }
    if (two == 0xf && three == 0) {
        /* 110xxxxx 10xxxxxx in the low two bytes of each lane */
        __m128i b0 = _mm_or_si128(_mm_srli_epi32(cps, 6), _mm_set1_epi32(0xc0));
        __m128i b1 = _mm_or_si128(_mm_and_si128(cps, low6), cont);
        __m128i lanes = _mm_or_si128(b0, _mm_slli_epi32(b1, 8));
        const __m128i pack =
            _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1, -1, -1, -1, -1);
        _mm_storeu_si128((__m128i *)(void *)d, _mm_shuffle_epi8(lanes, pack));
        *dst = d + 8;
        return true;
    }
    /* lengths mixed (ASCII among them): one by one */
    uint32_t u[4];
    _mm_storeu_si128((__m128i *)(void *)u, cps);
    for (int i = 0; i < 4; i++)
        d += atd__utf8_encode(d, u[i]);
    *dst = d;
    return true;
}

/* atd__decode_escapes with four \uXXXX escapes per step where they follow
 * one another: the same stops and bytes. Its vector constants take
 * registers, so the kernels use it only in their copy for escaped text,
 * which they hand a string over to at its first run of \u escapes
 * (atd__u4_ahead); plain text keeps the leaner loop. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE const char *
atd__decode_escapes_wide(const char *p, const char *end, char **dst, char *dst_end)
{
    for (;;) {
        if (atd__u4_ahead(p, end, *dst, dst_end) && atd__decode_u4(p, dst)) {
            p += ATD__U4_IN;
            continue;
        }
        const char *q = atd__decode_escape(p, end, dst, dst_end);
        if (q == p)
            return p;
        p = q;
    }
}

#endif
