/* The AVX2 kernels of atd__scan_text and atd__decode_text (utf8.h): find
 * the first byte of a string body that ends plain text ('"', '\\' or a
 * control byte) and check, 32 bytes per step, that the bytes before it are
 * well-formed UTF-8; the decoder also stores each block at its destination
 * and goes on past short escapes.
 *
 * Validation is by three table lookups per byte, after the method of Keiser
 * and Lemire ("Validating UTF-8 in less than one instruction per byte",
 * 2021). Every error of table 3-7 shows in one pair of adjacent bytes, given
 * the high nibble of the first, its low nibble and the high nibble of the
 * second: each nibble selects the set of error kinds it is compatible with
 * (one bit per kind), and the AND of the three sets is the kinds that apply.
 * The one error a pair cannot show is a missing or extra third or fourth
 * byte; "continuation after continuation" (TWO_CONTS) is then flagged for
 * every 3rd and 4th byte, and XOR with "this byte must be a 3rd or 4th
 * byte" (from the bytes two and three back) cancels exactly the right ones.
 *
 * The previous block's bytes feed the pairs that straddle two blocks; a
 * block of pure ASCII skips the lookups and only checks that the previous
 * block did not end inside a sequence. When the text ends inside a block,
 * the bytes from the end on are replaced by zero (ASCII) before the check,
 * so that a sequence cut by the end is an error and bytes after it are not
 * looked at. The last partial block of the input is copied into a zero-
 * padded local block: no load reaches past the end of the input. */
#include "utf8.h"

#if ATD__HAVE_AVX2_KERNELS

#include <immintrin.h>
#include <string.h>

/* Error kinds, one bit each; bit 6 serves two kinds that the nibble tables
 * keep apart (F0 with 80..8F, and F5..FF with 80..8F). */
#define TOO_SHORT (1 << 0)      /* lead byte, then no continuation byte */
#define TOO_LONG (1 << 1)       /* ASCII, then a continuation byte */
#define OVERLONG_3 (1 << 2)     /* E0, then 80..9F */
#define TOO_LARGE (1 << 3)      /* F4, then 90..BF; F5..FF, then 90..BF */
#define SURROGATE (1 << 4)      /* ED, then A0..BF */
#define OVERLONG_2 (1 << 5)     /* C0 or C1, then a continuation byte */
#define OVERLONG_4 (1 << 6)     /* F0, then 80..8F */
#define TOO_LARGE_1000 (1 << 6) /* F5..FF, then 80..8F */
#define TWO_CONTS (1 << 7)      /* continuation, then continuation */
/* The kinds that do not depend on the first byte's low nibble. */
#define CARRY (TOO_SHORT | TOO_LONG | TWO_CONTS)

/* A 16-entry table in both 128-bit lanes (vpshufb looks up per lane). */
#define B(x) ((char)(x))
#define TABLE16(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)              \
    _mm256_setr_epi8(B(a0), B(a1), B(a2), B(a3), B(a4), B(a5), B(a6), B(a7), B(a8), B(a9), B(a10), \
                     B(a11), B(a12), B(a13), B(a14), B(a15), B(a0), B(a1), B(a2), B(a3), B(a4),    \
                     B(a5), B(a6), B(a7), B(a8), B(a9), B(a10), B(a11), B(a12), B(a13), B(a14),    \
                     B(a15))

/* Splat constants, read from memory rather than built from immediates:
 * with most registers taken by the block loops, the compiler otherwise
 * rebuilds each one (a move and a broadcast) on every block, where a memory
 * operand costs nothing. The empty asm hides the table's contents from the
 * compiler, so that it cannot turn the loads back into broadcasts. */
typedef union splat {
    unsigned char b[32];
    __m256i v;
} splat;
enum { K_QUOTE, K_BSLASH, K_CTL_MAX, K_NIBBLE, K_THIRD, K_FOURTH, K_HIGH, K_COUNT };
#define R8(x) x, x, x, x, x, x, x, x
#define SPLAT(x)                                                                                   \
    {                                                                                              \
        {                                                                                          \
            R8(x), R8(x), R8(x), R8(x)                                                             \
        }                                                                                          \
    }
static const splat splats[K_COUNT] = {
    [K_QUOTE] = SPLAT('"'),   [K_BSLASH] = SPLAT('\\'), [K_CTL_MAX] = SPLAT(0x1f),
    [K_NIBBLE] = SPLAT(0x0f), [K_THIRD] = SPLAT(0x60),  [K_FOURTH] = SPLAT(0x70),
    [K_HIGH] = SPLAT(0x80),
};
#undef R8
#undef SPLAT

static ATD__TARGET_AVX2 inline __m256i splat_of(int which)
{
    const splat *t = splats;
    __asm__("" : "+r"(t));
    return t[which].v;
}

/* Errors of each byte of `in` as the second of a pair (its first is the
 * byte before it, from `prev` for byte 0), and of missing or extra 3rd/4th
 * bytes: nonzero bytes mark ill-formed input. */
static ATD__TARGET_AVX2 inline __m256i block_errors(__m256i in, __m256i prev)
{
    /* The input shifted right by 1, 2 and 3 bytes, the previous block's
     * last bytes coming in at the bottom. */
    __m256i straddle = _mm256_permute2x128_si256(prev, in, 0x21);
    __m256i prev1 = _mm256_alignr_epi8(in, straddle, 15);
    __m256i prev2 = _mm256_alignr_epi8(in, straddle, 14);
    __m256i prev3 = _mm256_alignr_epi8(in, straddle, 13);

    const __m256i first_high = TABLE16(
        /* 0..7: ASCII */
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        /* 8..B: continuation */
        TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
        /* C: 2-byte lead (C0, C1 overlong) */
        TOO_SHORT | OVERLONG_2,
        /* D: 2-byte lead */
        TOO_SHORT,
        /* E: 3-byte lead */
        TOO_SHORT | OVERLONG_3 | SURROGATE,
        /* F: 4-byte lead, or not a lead byte at all (F5..FF) */
        TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
    const __m256i first_low = TABLE16(
        /* 0: C0, E0, F0 */
        CARRY | OVERLONG_2 | OVERLONG_3 | OVERLONG_4,
        /* 1: C1 */
        CARRY | OVERLONG_2,
        /* 2, 3 */
        CARRY, CARRY,
        /* 4: F4 */
        CARRY | TOO_LARGE,
        /* 5..C: F5..FC */
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        /* D: ED, FD */
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
        /* E, F: FE, FF */
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000);
    const __m256i second_high = TABLE16(
        /* 0..7: ASCII */
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        /* 8: 80..8F */
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        /* 9: 90..9F */
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        /* A, B: A0..BF */
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        /* C..F: lead bytes */
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT);

    const __m256i nibble = splat_of(K_NIBBLE);
    __m256i e1 =
        _mm256_shuffle_epi8(first_high, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble));
    __m256i e2 = _mm256_shuffle_epi8(first_low, _mm256_and_si256(prev1, nibble));
    __m256i e3 =
        _mm256_shuffle_epi8(second_high, _mm256_and_si256(_mm256_srli_epi16(in, 4), nibble));
    __m256i pair = _mm256_and_si256(_mm256_and_si256(e1, e2), e3);

    /* Bit 7 where the byte must be a 3rd or 4th byte: two back is E0..FF
     * (saturating prev2 - 0x60 reaches 0x80 exactly then) or three back is
     * F0..FF. */
    __m256i third = _mm256_subs_epu8(prev2, splat_of(K_THIRD));
    __m256i fourth = _mm256_subs_epu8(prev3, splat_of(K_FOURTH));
    __m256i must_cont = _mm256_and_si256(_mm256_or_si256(third, fourth), splat_of(K_HIGH));
    return _mm256_xor_si256(must_cont, pair);
}

/* Nonzero when `in` ends inside a sequence: its last byte is a lead byte,
 * the one before a 3- or 4-byte lead, or the one before that a 4-byte
 * lead. */
static ATD__TARGET_AVX2 inline __m256i ends_inside(__m256i in)
{
    const __m256i max = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         (char)(0xf0 - 1), (char)(0xe0 - 1), (char)(0xc0 - 1));
    return _mm256_subs_epu8(in, max);
}

/* Bit i set where byte i is '"', '\\' or below 0x20. */
static ATD__TARGET_AVX2 inline unsigned stop_bits(__m256i v)
{
    __m256i quote = _mm256_cmpeq_epi8(v, splat_of(K_QUOTE));
    __m256i bslash = _mm256_cmpeq_epi8(v, splat_of(K_BSLASH));
    /* v <= 0x1f, unsigned: min(v, 0x1f) == v */
    __m256i ctl = _mm256_cmpeq_epi8(_mm256_min_epu8(v, splat_of(K_CTL_MAX)), v);
    return (unsigned)_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(quote, bslash), ctl));
}

/* The block v of text ends at byte k (a stop byte, or the end of the
 * input): whether everything before k is well-formed, given the errors so
 * far, the previous block and whether that one ended inside a sequence. */
static ATD__TARGET_AVX2 inline bool last_block_ok(__m256i v, unsigned k, __m256i prev, __m256i err,
                                                  __m256i carry)
{
    unsigned before = k == 32 ? ~0u : (1u << k) - 1;
    if (((unsigned)_mm256_movemask_epi8(v) & before) != 0 || !_mm256_testz_si256(carry, carry)) {
        const __m256i index =
            _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                             20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
        __m256i keep = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)k), index);
        err = _mm256_or_si256(err, block_errors(_mm256_and_si256(v, keep), prev));
    }
    return _mm256_testz_si256(err, err);
}

ATD__TARGET_AVX2 const char *atd__scan_text_avx2(const char *p, const char *end)
{
    __m256i prev = _mm256_setzero_si256(); /* before p: as if ASCII */
    __m256i err = _mm256_setzero_si256();
    __m256i carry = _mm256_setzero_si256(); /* prev ends inside a sequence */
    while (end - p >= 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
        unsigned stops = stop_bits(v);
        if (stops != 0) {
            unsigned k = (unsigned)__builtin_ctz(stops);
            return last_block_ok(v, k, prev, err, carry) ? p + k : NULL;
        }
        if (_mm256_movemask_epi8(v) != 0) {
            err = _mm256_or_si256(err, block_errors(v, prev));
            carry = ends_inside(v);
        } else {
            err = _mm256_or_si256(err, carry);
            carry = _mm256_setzero_si256();
        }
        prev = v;
        p += 32;
    }
    /* The tail, padded with zero bytes: those stop the scan like the end. */
    size_t n = (size_t)(end - p);
    unsigned char block[32] = {0};
    memcpy(block, p, n);
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)block);
    unsigned stops = stop_bits(v);
    unsigned k = (unsigned)__builtin_ctz(stops | 1u << n); /* n < 32 */
    return last_block_ok(v, k, prev, err, carry) ? p + k : NULL;
}

/* Where the text [start, p) can be cut so that no sequence straddles the
 * cut: p, or the lead byte of a sequence that the last three bytes before p
 * begin but do not finish. */
static const char *sequence_boundary(const char *start, const char *p)
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

ATD__TARGET_AVX2 const char *atd__decode_text_avx2(char *dst, char *dst_end, const char *p,
                                                   const char *end, char **dst_out)
{
    __m256i prev = _mm256_setzero_si256(); /* before p: as if ASCII */
    __m256i err = _mm256_setzero_si256();
    __m256i carry = _mm256_setzero_si256(); /* prev ends inside a sequence */
    const char *run = p;                    /* start of the current run of text */
    /* Each block is stored whole before it is looked at: what lies past the
     * stop byte is overwritten by what comes next or left unused. `left`:
     * the bytes that both the input and the room have from p and dst. */
    size_t in_left = (size_t)(end - p), out_left = (size_t)(dst_end - dst);
    size_t left = in_left < out_left ? in_left : out_left;
    while (left >= 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
        _mm256_storeu_si256((__m256i *)(void *)dst, v);
        unsigned stops = stop_bits(v);
        if (stops == 0) {
            if (_mm256_movemask_epi8(v) != 0) {
                err = _mm256_or_si256(err, block_errors(v, prev));
                carry = ends_inside(v);
            } else {
                err = _mm256_or_si256(err, carry);
                carry = _mm256_setzero_si256();
            }
            prev = v;
            p += 32;
            dst += 32;
            left -= 32;
            continue;
        }
        unsigned k = (unsigned)__builtin_ctz(stops);
        if (!last_block_ok(v, k, prev, err, carry))
            return NULL;
        p += k;
        dst += k;
        /* A short escape becomes its byte (room: the block had 32 bytes and
         * took k < 32) and the blocks go on after it, as from the start of
         * a new run. */
        unsigned char c;
        if (!(*p == '\\' && end - p >= 2 && (c = atd__short_escapes[(unsigned char)p[1]]) != 0)) {
            *dst_out = dst;
            return p;
        }
        *dst++ = (char)c;
        p += 2;
        run = p;
        in_left = (size_t)(end - p);
        out_left = (size_t)(dst_end - dst);
        left = in_left < out_left ? in_left : out_left;
        prev = _mm256_setzero_si256();
        err = _mm256_setzero_si256();
        carry = _mm256_setzero_si256();
    }
    /* Near the end of the input or of the room: the rest goes the portable
     * way, from a sequence boundary (the bytes of a sequence that the last
     * block left open are checked again there). */
    if (!_mm256_testz_si256(err, err))
        return NULL;
    const char *cut = sequence_boundary(run, p);
    dst -= p - cut;
    return atd__decode_text_scalar(dst, dst_end, cut, end, dst_out);
}

#else
/* ISO C wants a declaration in every translation unit. */
typedef int atd__no_avx2_kernels;
#endif
