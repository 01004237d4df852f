/* The AVX2 kernels of atd__scan_text and atd__decode_text (utf8.h): find
 * the first byte of a string body that ends plain text ('"', '\\' or a
 * control byte) and check, 32 bytes per step, that the bytes before it are
 * well-formed UTF-8; the decoder also stores each block at its destination
 * and goes on past the escapes it decodes.
 *
 * Validation is the table-lookup block step of utf8_lookup_avx2.h.
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

#include "unescape_wide.h"
#include "utf8_lookup_avx2.h"

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
    [K_QUOTE] = SPLAT('"'),           [K_BSLASH] = SPLAT('\\'),
    [K_CTL_MAX] = SPLAT(0x1f),        [K_NIBBLE] = SPLAT(ATD__U8_NIBBLE),
    [K_THIRD] = SPLAT(ATD__U8_THIRD), [K_FOURTH] = SPLAT(ATD__U8_FOURTH),
    [K_HIGH] = SPLAT(ATD__U8_HIGH),
};
#undef R8
#undef SPLAT

static ATD__TARGET_AVX2 inline __m256i splat_of(int which)
{
    const splat *t = splats;
    __asm__("" : "+r"(t));
    return t[which].v;
}

/* The block steps with their constants as memory operands. */
static ATD__TARGET_AVX2 inline __m256i block_errors(__m256i in, __m256i prev)
{
    return atd__utf8_block_errors(in, prev, splat_of(K_NIBBLE), splat_of(K_THIRD),
                                  splat_of(K_FOURTH), splat_of(K_HIGH));
}

static ATD__TARGET_AVX2 inline void check_block(__m256i in, __m256i prev, __m256i *err,
                                                __m256i *carry)
{
    atd__utf8_check_block(in, prev, err, carry, splat_of(K_NIBBLE), splat_of(K_THIRD),
                          splat_of(K_FOURTH), splat_of(K_HIGH));
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
        check_block(v, prev, &err, &carry);
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

static const char *decode_text_u_runs(char *dst, char *dst_end, const char *p, const char *end,
                                      char **dst_out);

/* The decoder, in two copies: the kernel proper, and the one for text
 * escaped as \uXXXX (u_runs: four escapes per step) that the kernel hands
 * a string over to at the first run of them, as a tail call, so that the
 * kernel stays a leaf whose registers the vector escape step does not
 * take. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE const char *
decode_text(char *dst, char *dst_end, const char *p, const char *end, char **dst_out, bool u_runs)
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
            check_block(v, prev, &err, &carry);
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
        /* Escapes become their bytes, and the blocks go on after them, as
         * from the start of a new run (a backslash ends any sequence). */
        if (!u_runs && atd__u4_ahead(p, end, dst, dst_end))
            return decode_text_u_runs(dst, dst_end, p, end, dst_out);
        const char *q = u_runs ? atd__decode_escapes_wide(p, end, &dst, dst_end)
                               : atd__decode_escapes(p, end, &dst, dst_end);
        if (q == p) {
            *dst_out = dst;
            return p;
        }
        p = q;
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
    const char *cut = atd__sequence_boundary(run, p);
    dst -= p - cut;
    return atd__decode_text_scalar(dst, dst_end, cut, end, dst_out);
}

static ATD__TARGET_AVX2 __attribute__((noinline)) const char *
decode_text_u_runs(char *dst, char *dst_end, const char *p, const char *end, char **dst_out)
{
    return decode_text(dst, dst_end, p, end, dst_out, true);
}

ATD__TARGET_AVX2 const char *atd__decode_text_avx2(char *dst, char *dst_end, const char *p,
                                                   const char *end, char **dst_out)
{
    return decode_text(dst, dst_end, p, end, dst_out, false);
}

#else
/* ISO C wants a declaration in every translation unit. */
typedef int atd__no_avx2_kernels;
#endif
