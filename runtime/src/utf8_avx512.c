/* The AVX-512 kernels of atd__scan_text and atd__decode_text (utf8.h), for
 * CPUs with AVX-512BW and VL: the AVX2 kernels' method (utf8_avx2.c) with
 * blocks of 64 bytes. The stop bytes ('"', '\\', control bytes) and the
 * non-ASCII bytes come straight as 64-bit masks (no movemask); a block of
 * ASCII text, the common case, costs one load, three compares and a test.
 * Blocks with non-ASCII bytes are validated as two halves of 32 bytes by
 * the lookup step of utf8_lookup_avx2.h, the second half after the first.
 *
 * The scanner loads the last partial block of the input with a byte mask
 * (the bytes past the end read as zero, which stop the scan like the end,
 * and are never touched in memory). The decoder hands the last bytes of
 * the input or of the room to the AVX2 kernel, from a sequence boundary. */
#include "utf8.h"

#if ATD__HAVE_AVX512_KERNELS

#include <immintrin.h>
#include <stdint.h>

#include "unescape_wide.h"
#include "utf8_lookup_avx2.h"

/* The running state of validation: the previous 32 bytes, the errors so
 * far, and whether the previous bytes end inside a sequence. */
typedef struct u8_state {
    __m256i prev, err, carry;
} u8_state;

static ATD__TARGET_AVX512 inline void state_reset(u8_state *s)
{
    s->prev = _mm256_setzero_si256(); /* before the text: as if ASCII */
    s->err = _mm256_setzero_si256();
    s->carry = _mm256_setzero_si256();
}

static ATD__TARGET_AVX512 inline __m256i block_errors(__m256i in, __m256i prev)
{
    return atd__utf8_block_errors(in, prev, _mm256_set1_epi8(ATD__U8_NIBBLE),
                                  _mm256_set1_epi8(ATD__U8_THIRD), _mm256_set1_epi8(ATD__U8_FOURTH),
                                  _mm256_set1_epi8((char)ATD__U8_HIGH));
}

static ATD__TARGET_AVX512 inline __m256i low_half(__m512i v)
{
    return _mm512_castsi512_si256(v);
}

static ATD__TARGET_AVX512 inline __m256i high_half(__m512i v)
{
    return _mm512_extracti64x4_epi64(v, 1);
}

/* One whole block of text (no stop byte) into the state. */
static ATD__TARGET_AVX512 inline void check_block(__m512i v, u8_state *s)
{
    __m256i lo = low_half(v), hi = high_half(v);
    if (_mm512_movepi8_mask(v) != 0) {
        s->err = _mm256_or_si256(s->err,
                                 _mm256_or_si256(block_errors(lo, s->prev), block_errors(hi, lo)));
        s->carry = atd__utf8_ends_inside(hi);
    } else {
        s->err = _mm256_or_si256(s->err, s->carry);
        s->carry = _mm256_setzero_si256();
    }
    s->prev = hi;
}

/* Bit i set where byte i is '"', '\\' or below 0x20. */
static ATD__TARGET_AVX512 inline uint64_t stop_bits(__m512i v)
{
    return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"')) |
           _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\')) |
           _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1f));
}

/* The block v of text ends at byte k (0..64; a stop byte, or the end of
 * the input): whether everything before k is well-formed, given the state.
 * The bytes from k on are replaced by zero (ASCII) before the check, so that
 * a sequence cut at k is an error. */
static ATD__TARGET_AVX512 inline bool last_block_ok(__m512i v, unsigned k, const u8_state *s)
{
    uint64_t before = k == 64 ? ~UINT64_C(0) : (UINT64_C(1) << k) - 1;
    __m256i err = s->err;
    if ((_mm512_movepi8_mask(v) & before) != 0 || !_mm256_testz_si256(s->carry, s->carry)) {
        __m512i kept = _mm512_maskz_mov_epi8(before, v);
        __m256i lo = low_half(kept), hi = high_half(kept);
        err =
            _mm256_or_si256(err, _mm256_or_si256(block_errors(lo, s->prev), block_errors(hi, lo)));
    }
    return _mm256_testz_si256(err, err);
}

ATD__TARGET_AVX512 const char *atd__scan_text_avx512(const char *p, const char *end)
{
    u8_state s;
    state_reset(&s);
    while (end - p >= 64) {
        __m512i v = _mm512_loadu_si512((const void *)p);
        uint64_t stops = stop_bits(v);
        if (stops != 0) {
            unsigned k = (unsigned)__builtin_ctzll(stops);
            return last_block_ok(v, k, &s) ? p + k : NULL;
        }
        check_block(v, &s);
        p += 64;
    }
    /* The tail, zero past the end: those zeros stop the scan like the end. */
    unsigned n = (unsigned)(end - p); /* < 64 */
    __m512i v = _mm512_maskz_loadu_epi8((UINT64_C(1) << n) - 1, (const void *)p);
    unsigned k = (unsigned)__builtin_ctzll(stop_bits(v) | UINT64_C(1) << n);
    return last_block_ok(v, k, &s) ? p + k : NULL;
}

static const char *decode_text_u_runs(char *dst, char *dst_end, const char *p, const char *end,
                                      char **dst_out);

/* The decoder in two copies, as in the AVX2 kernel: the kernel proper,
 * and the one for text escaped as \uXXXX that it hands a string over to. */
static ATD__TARGET_AVX512 ATD__HOT_INLINE const char *
decode_text(char *dst, char *dst_end, const char *p, const char *end, char **dst_out, bool u_runs)
{
    u8_state s;
    state_reset(&s);
    const char *run = p; /* start of the current run of text */
    /* Each block is stored whole before it is looked at, as in the AVX2
     * kernel. `left`: the bytes that both the input and the room have. */
    size_t in_left = (size_t)(end - p), out_left = (size_t)(dst_end - dst);
    size_t left = in_left < out_left ? in_left : out_left;
    while (left >= 64) {
        __m512i v = _mm512_loadu_si512((const void *)p);
        _mm512_storeu_si512((void *)dst, v);
        uint64_t stops = stop_bits(v);
        if (stops == 0) {
            check_block(v, &s);
            p += 64;
            dst += 64;
            left -= 64;
            continue;
        }
        unsigned k = (unsigned)__builtin_ctzll(stops);
        if (!last_block_ok(v, k, &s))
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
        state_reset(&s);
    }
    /* Near the end of the input or of the room: the rest goes to the AVX2
     * kernel, from a sequence boundary (the bytes of a sequence that the
     * last block left open are checked again there). */
    if (!_mm256_testz_si256(s.err, s.err))
        return NULL;
    const char *cut = atd__sequence_boundary(run, p);
    dst -= p - cut;
    return atd__decode_text_avx2(dst, dst_end, cut, end, dst_out);
}

static ATD__TARGET_AVX512 __attribute__((noinline)) const char *
decode_text_u_runs(char *dst, char *dst_end, const char *p, const char *end, char **dst_out)
{
    return decode_text(dst, dst_end, p, end, dst_out, true);
}

ATD__TARGET_AVX512 const char *atd__decode_text_avx512(char *dst, char *dst_end, const char *p,
                                                       const char *end, char **dst_out)
{
    return decode_text(dst, dst_end, p, end, dst_out, false);
}

#else
/* ISO C wants a declaration in every translation unit. */
typedef int atd__no_avx512_kernels;
#endif
