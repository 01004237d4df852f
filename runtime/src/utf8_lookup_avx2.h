/* The block step of UTF-8 validation by table lookups, shared by the
 * reader's string kernels (utf8_avx2.c) and the writer's escape kernel
 * (escape_avx2.c), internal to atdrt. Include it only from files compiled
 * for AVX2 kernels (ATD__HAVE_AVX2_KERNELS).
 *
 * The method is Keiser and Lemire's ("Validating UTF-8 in less than one
 * instruction per byte", 2021). Every error of Unicode table 3-7 shows in
 * one pair of adjacent bytes, given the high nibble of the first, its low
 * nibble and the high nibble of the second: each nibble selects the set of
 * error kinds it is compatible with (one bit per kind), and the AND of the
 * three sets is the kinds that apply. The one error a pair cannot show is a
 * missing or extra third or fourth byte; "continuation after continuation"
 * (TWO_CONTS) is then flagged for every 3rd and 4th byte, and XOR with
 * "this byte must be a 3rd or 4th byte" (from the bytes two and three back)
 * cancels exactly the right ones.
 *
 * The previous block's bytes feed the pairs that straddle two blocks. The
 * four splat constants are parameters: each kernel keeps them where its
 * loop has room (registers, or memory operands when registers are short). */
#ifndef ATD_UTF8_LOOKUP_AVX2_H
#define ATD_UTF8_LOOKUP_AVX2_H

#include <immintrin.h>

#include "cpu.h"

/* Error kinds, one bit each; bit 6 serves two kinds that the nibble tables
 * keep apart (F0 with 80..8F, and F5..FF with 80..8F). */
#define ATD__U8_TOO_SHORT (1 << 0)      /* lead byte, then no continuation byte */
#define ATD__U8_TOO_LONG (1 << 1)       /* ASCII, then a continuation byte */
#define ATD__U8_OVERLONG_3 (1 << 2)     /* E0, then 80..9F */
#define ATD__U8_TOO_LARGE (1 << 3)      /* F4, then 90..BF; F5..FF, then 90..BF */
#define ATD__U8_SURROGATE (1 << 4)      /* ED, then A0..BF */
#define ATD__U8_OVERLONG_2 (1 << 5)     /* C0 or C1, then a continuation byte */
#define ATD__U8_OVERLONG_4 (1 << 6)     /* F0, then 80..8F */
#define ATD__U8_TOO_LARGE_1000 (1 << 6) /* F5..FF, then 80..8F */
#define ATD__U8_TWO_CONTS (1 << 7)      /* continuation, then continuation */
/* The kinds that do not depend on the first byte's low nibble. */
#define ATD__U8_CARRY (ATD__U8_TOO_SHORT | ATD__U8_TOO_LONG | ATD__U8_TWO_CONTS)

/* A 16-entry table in both 128-bit lanes (vpshufb looks up per lane). */
#define ATD__U8_B(x) ((char)(x))
#define ATD__U8_TABLE16(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)      \
    _mm256_setr_epi8(ATD__U8_B(a0), ATD__U8_B(a1), ATD__U8_B(a2), ATD__U8_B(a3), ATD__U8_B(a4),    \
                     ATD__U8_B(a5), ATD__U8_B(a6), ATD__U8_B(a7), ATD__U8_B(a8), ATD__U8_B(a9),    \
                     ATD__U8_B(a10), ATD__U8_B(a11), ATD__U8_B(a12), ATD__U8_B(a13),               \
                     ATD__U8_B(a14), ATD__U8_B(a15), ATD__U8_B(a0), ATD__U8_B(a1), ATD__U8_B(a2),  \
                     ATD__U8_B(a3), ATD__U8_B(a4), ATD__U8_B(a5), ATD__U8_B(a6), ATD__U8_B(a7),    \
                     ATD__U8_B(a8), ATD__U8_B(a9), ATD__U8_B(a10), ATD__U8_B(a11), ATD__U8_B(a12), \
                     ATD__U8_B(a13), ATD__U8_B(a14), ATD__U8_B(a15))

/* The splat constants the step needs, every byte of each the same:
 * 0x0f (a nibble), 0x60 (E0 - 0x80), 0x70 (F0 - 0x80), 0x80. */
#define ATD__U8_NIBBLE 0x0f
#define ATD__U8_THIRD 0x60
#define ATD__U8_FOURTH 0x70
#define ATD__U8_HIGH 0x80

/* Errors of each byte of `in` as the second of a pair (its first is the
 * byte before it, from `prev` for byte 0), and of missing or extra 3rd/4th
 * bytes: nonzero bytes mark ill-formed input. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE __m256i
atd__utf8_block_errors(__m256i in, __m256i prev, __m256i nibble, __m256i third_min,
                       __m256i fourth_min, __m256i high)
{
    /* The input shifted right by 1, 2 and 3 bytes, the previous block's
     * last bytes coming in at the bottom. */
    __m256i straddle = _mm256_permute2x128_si256(prev, in, 0x21);
    __m256i prev1 = _mm256_alignr_epi8(in, straddle, 15);
    __m256i prev2 = _mm256_alignr_epi8(in, straddle, 14);
    __m256i prev3 = _mm256_alignr_epi8(in, straddle, 13);

    const __m256i first_high = ATD__U8_TABLE16(
        /* 0..7: ASCII */
        ATD__U8_TOO_LONG, ATD__U8_TOO_LONG, ATD__U8_TOO_LONG, ATD__U8_TOO_LONG, ATD__U8_TOO_LONG,
        ATD__U8_TOO_LONG, ATD__U8_TOO_LONG, ATD__U8_TOO_LONG,
        /* 8..B: continuation */
        ATD__U8_TWO_CONTS, ATD__U8_TWO_CONTS, ATD__U8_TWO_CONTS, ATD__U8_TWO_CONTS,
        /* C: 2-byte lead (C0, C1 overlong) */
        ATD__U8_TOO_SHORT | ATD__U8_OVERLONG_2,
        /* D: 2-byte lead */
        ATD__U8_TOO_SHORT,
        /* E: 3-byte lead */
        ATD__U8_TOO_SHORT | ATD__U8_OVERLONG_3 | ATD__U8_SURROGATE,
        /* F: 4-byte lead, or not a lead byte at all (F5..FF) */
        ATD__U8_TOO_SHORT | ATD__U8_TOO_LARGE | ATD__U8_TOO_LARGE_1000 | ATD__U8_OVERLONG_4);
#define ATD__U8_F5 (ATD__U8_CARRY | ATD__U8_TOO_LARGE | ATD__U8_TOO_LARGE_1000)
    const __m256i first_low = ATD__U8_TABLE16(
        /* 0: C0, E0, F0 */
        ATD__U8_CARRY | ATD__U8_OVERLONG_2 | ATD__U8_OVERLONG_3 | ATD__U8_OVERLONG_4,
        /* 1: C1 */
        ATD__U8_CARRY | ATD__U8_OVERLONG_2,
        /* 2, 3 */
        ATD__U8_CARRY, ATD__U8_CARRY,
        /* 4: F4 */
        ATD__U8_CARRY | ATD__U8_TOO_LARGE,
        /* 5..C: F5..FC */
        ATD__U8_F5, ATD__U8_F5, ATD__U8_F5, ATD__U8_F5, ATD__U8_F5, ATD__U8_F5, ATD__U8_F5,
        ATD__U8_F5,
        /* D: ED, FD */
        ATD__U8_F5 | ATD__U8_SURROGATE,
        /* E, F: FE, FF */
        ATD__U8_F5, ATD__U8_F5);
#undef ATD__U8_F5
    const __m256i second_high = ATD__U8_TABLE16(
        /* 0..7: ASCII */
        ATD__U8_TOO_SHORT, ATD__U8_TOO_SHORT, ATD__U8_TOO_SHORT, ATD__U8_TOO_SHORT,
        ATD__U8_TOO_SHORT, ATD__U8_TOO_SHORT, ATD__U8_TOO_SHORT, ATD__U8_TOO_SHORT,
        /* 8: 80..8F */
        ATD__U8_TOO_LONG | ATD__U8_OVERLONG_2 | ATD__U8_TWO_CONTS | ATD__U8_OVERLONG_3 |
            ATD__U8_TOO_LARGE_1000 | ATD__U8_OVERLONG_4,
        /* 9: 90..9F */
        ATD__U8_TOO_LONG | ATD__U8_OVERLONG_2 | ATD__U8_TWO_CONTS | ATD__U8_OVERLONG_3 |
            ATD__U8_TOO_LARGE,
        /* A, B: A0..BF */
        ATD__U8_TOO_LONG | ATD__U8_OVERLONG_2 | ATD__U8_TWO_CONTS | ATD__U8_SURROGATE |
            ATD__U8_TOO_LARGE,
        ATD__U8_TOO_LONG | ATD__U8_OVERLONG_2 | ATD__U8_TWO_CONTS | ATD__U8_SURROGATE |
            ATD__U8_TOO_LARGE,
        /* C..F: lead bytes */
        ATD__U8_TOO_SHORT, ATD__U8_TOO_SHORT, ATD__U8_TOO_SHORT, ATD__U8_TOO_SHORT);

    __m256i e1 =
        _mm256_shuffle_epi8(first_high, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble));
    __m256i e2 = _mm256_shuffle_epi8(first_low, _mm256_and_si256(prev1, nibble));
    __m256i e3 =
        _mm256_shuffle_epi8(second_high, _mm256_and_si256(_mm256_srli_epi16(in, 4), nibble));
    __m256i pair = _mm256_and_si256(_mm256_and_si256(e1, e2), e3);

    /* Bit 7 where the byte must be a 3rd or 4th byte: two back is E0..FF
     * (saturating prev2 - 0x60 reaches 0x80 exactly then) or three back is
     * F0..FF. */
    __m256i third = _mm256_subs_epu8(prev2, third_min);
    __m256i fourth = _mm256_subs_epu8(prev3, fourth_min);
    __m256i must_cont = _mm256_and_si256(_mm256_or_si256(third, fourth), high);
    return _mm256_xor_si256(must_cont, pair);
}

/* Nonzero when `in` ends inside a sequence: its last byte is a lead byte,
 * the one before a 3- or 4-byte lead, or the one before that a 4-byte
 * lead. The next block has to continue it (checked when that block is
 * ASCII and skips the lookups). */
static ATD__TARGET_AVX2 ATD__HOT_INLINE __m256i
atd__utf8_ends_inside(__m256i in)
{
    const __m256i max = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         (char)(0xf0 - 1), (char)(0xe0 - 1), (char)(0xc0 - 1));
    return _mm256_subs_epu8(in, max);
}

/* One block of a validation loop: the errors of `in` (after `prev`) are
 * gathered into *err, and *open tells whether `in` ends inside a sequence.
 * A block of ASCII skips the lookups: it is an error only where the block
 * before ended open. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE void
atd__utf8_check_block(__m256i in, __m256i prev, __m256i *err, __m256i *open, __m256i nibble,
                      __m256i third_min, __m256i fourth_min, __m256i high)
{
    if (_mm256_movemask_epi8(in) != 0) {
        *err = _mm256_or_si256(
            *err, atd__utf8_block_errors(in, prev, nibble, third_min, fourth_min, high));
        *open = atd__utf8_ends_inside(in);
    } else {
        *err = _mm256_or_si256(*err, *open);
        *open = _mm256_setzero_si256();
    }
}

#endif
