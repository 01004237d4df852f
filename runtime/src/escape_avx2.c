/* The writer's AVX2 string kernel (escape.h): escapes, validates and copies
 * a string in one pass, 32 bytes per step.
 *
 * Each block is loaded once, stored to the output at once, and tested for
 * the bytes to escape ('"', '\\', below 0x20, DEL). A block with non-ASCII
 * bytes is also checked as UTF-8 by the lookup method of Keiser and Lemire
 * ("Validating UTF-8 in less than one instruction per byte", 2021): every
 * ill-formed sequence of Unicode table 3-7 shows in a pair of adjacent bytes,
 * judged by three 16-entry tables (the first byte's high and low nibble, the
 * second byte's high nibble), except a missing or extra 3rd or 4th byte,
 * which the bytes two and three back tell. Errors are only gathered; the
 * verdict comes at the end of the string, since a failing string commits
 * nothing anyway.
 *
 * The reader has its own block validator; this one is fused with the copy
 * and the escape test, which need the same loaded block, and it restarts
 * after each escaped byte: that byte is ASCII, so a block that starts right
 * after it has nothing pending from the bytes before (had they been
 * waiting for a continuation byte, the escaped byte was already an error
 * of the block that held it).
 *
 * The end of the string (under 32 bytes) is loaded by overlapping loads
 * inside the string and shifted into place, zero-padded: no byte outside
 * the string is read, and no store of it is read back (which would stall
 * the load). The zero padding is ASCII, so a sequence cut by the end of the
 * string shows as an error of that block. */
#include "escape.h"

#if ATD__HAVE_AVX2_KERNELS

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* Error kinds of a pair of adjacent bytes (one bit each). Bit 6 stands for
 * two kinds that the first byte's low nibble keeps apart. */
#define E_SHORT 0x01     /* lead byte, then no continuation byte */
#define E_LONG 0x02      /* ASCII, then a continuation byte */
#define E_OVER3 0x04     /* E0, then 80..9F: overlong 3-byte form */
#define E_LARGE 0x08     /* F4, then 90..BF, or F5..FF: above U+10FFFF */
#define E_SURR 0x10      /* ED, then A0..BF: a surrogate */
#define E_OVER2 0x20     /* C0 or C1 lead: overlong 2-byte form */
#define E_OVER4 0x40     /* F0, then 80..8F: overlong 4-byte form */
#define E_LARGE_LOW 0x40 /* F5..FF, then 80..8F */
#define E_CONT2 0x80     /* continuation, then continuation (3rd/4th byte) */
/* The kinds that the first byte's high nibble decides alone. */
#define E_ANY_LOW (E_SHORT | E_LONG | E_CONT2)

#define C8(x) ((char)(x))
/* One table for vpshufb, which looks up within each 128-bit lane. */
#define LANES(t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15)                \
    _mm256_setr_epi8(C8(t0), C8(t1), C8(t2), C8(t3), C8(t4), C8(t5), C8(t6), C8(t7), C8(t8),       \
                     C8(t9), C8(t10), C8(t11), C8(t12), C8(t13), C8(t14), C8(t15), C8(t0), C8(t1), \
                     C8(t2), C8(t3), C8(t4), C8(t5), C8(t6), C8(t7), C8(t8), C8(t9), C8(t10),      \
                     C8(t11), C8(t12), C8(t13), C8(t14), C8(t15))

/* The broadcast constants of the loop, made opaque to the compiler once
 * per call (an empty asm that "changes" them): otherwise it rebuilds each
 * one, in three instructions, on every step rather than keep them. */
typedef struct {
    __m256i quote, bslash, del, ctl_max; /* escapes */
    __m256i low4, third, fourth, high;   /* utf8_errors */
} loop_constants;

#define REP4(x) C8(x), C8(x), C8(x), C8(x)
#define REP32(x)                                                                                   \
    {                                                                                              \
        REP4(x), REP4(x), REP4(x), REP4(x), REP4(x), REP4(x), REP4(x), REP4(x)                     \
    }

static const union {
    char bytes[8][32];
    __m256i align;
} constant_bytes = {{REP32('"'), REP32('\\'), REP32(0x7f), REP32(0x1f), REP32(0x0f),
                     REP32(0xe0 - 0x80), REP32(0xf0 - 0x80), REP32(0x80)}};

/* One load each, from the table above. */
static ATD__TARGET_AVX2 ALWAYS_INLINE void constants_init(loop_constants *c)
{
    const __m256i *t = (const __m256i *)(const void *)constant_bytes.bytes;
    __asm__("" : "+r"(t)); /* not folded back into constants */
    c->quote = _mm256_load_si256(t);
    c->bslash = _mm256_load_si256(t + 1);
    c->del = _mm256_load_si256(t + 2);
    c->ctl_max = _mm256_load_si256(t + 3);
    c->low4 = _mm256_load_si256(t + 4);
    c->third = _mm256_load_si256(t + 5);
    c->fourth = _mm256_load_si256(t + 6);
    c->high = _mm256_load_si256(t + 7);
}

/* Nonzero bytes where the block v, following the block before (its last
 * three bytes matter), is not well-formed UTF-8. */
static ATD__TARGET_AVX2 ALWAYS_INLINE __m256i utf8_errors(__m256i v, __m256i before,
                                                          const loop_constants *c)
{
    /* v moved up by one, two and three bytes, filled from `before` */
    __m256i joint = _mm256_permute2x128_si256(before, v, 0x21);
    __m256i back1 = _mm256_alignr_epi8(v, joint, 15);
    __m256i back2 = _mm256_alignr_epi8(v, joint, 14);
    __m256i back3 = _mm256_alignr_epi8(v, joint, 13);

    const __m256i lead_high =
        LANES(E_LONG, E_LONG, E_LONG, E_LONG, E_LONG, E_LONG, E_LONG, E_LONG,  /* 0..7 ASCII */
              E_CONT2, E_CONT2, E_CONT2, E_CONT2,                              /* 8..B */
              E_SHORT | E_OVER2,                                               /* C */
              E_SHORT,                                                         /* D */
              E_SHORT | E_OVER3 | E_SURR,                                      /* E */
              E_SHORT | E_LARGE | E_LARGE_LOW | E_OVER4);                      /* F */
    const __m256i lead_low = LANES(E_ANY_LOW | E_OVER2 | E_OVER3 | E_OVER4,    /* x0 */
                                   E_ANY_LOW | E_OVER2,                        /* x1 */
                                   E_ANY_LOW, E_ANY_LOW,                       /* x2, x3 */
                                   E_ANY_LOW | E_LARGE,                        /* x4 */
                                   E_ANY_LOW | E_LARGE | E_LARGE_LOW,          /* x5 */
                                   E_ANY_LOW | E_LARGE | E_LARGE_LOW,          /* x6 */
                                   E_ANY_LOW | E_LARGE | E_LARGE_LOW,          /* x7 */
                                   E_ANY_LOW | E_LARGE | E_LARGE_LOW,          /* x8 */
                                   E_ANY_LOW | E_LARGE | E_LARGE_LOW,          /* x9 */
                                   E_ANY_LOW | E_LARGE | E_LARGE_LOW,          /* xA */
                                   E_ANY_LOW | E_LARGE | E_LARGE_LOW,          /* xB */
                                   E_ANY_LOW | E_LARGE | E_LARGE_LOW,          /* xC */
                                   E_ANY_LOW | E_LARGE | E_LARGE_LOW | E_SURR, /* xD */
                                   E_ANY_LOW | E_LARGE | E_LARGE_LOW,          /* xE */
                                   E_ANY_LOW | E_LARGE | E_LARGE_LOW);         /* xF */
    const __m256i next_high =
        LANES(E_SHORT, E_SHORT, E_SHORT, E_SHORT, E_SHORT, E_SHORT, E_SHORT, E_SHORT, /* ASCII */
              E_LONG | E_CONT2 | E_OVER2 | E_OVER3 | E_OVER4 | E_LARGE_LOW,           /* 8 */
              E_LONG | E_CONT2 | E_OVER2 | E_OVER3 | E_LARGE,                         /* 9 */
              E_LONG | E_CONT2 | E_OVER2 | E_SURR | E_LARGE,                          /* A */
              E_LONG | E_CONT2 | E_OVER2 | E_SURR | E_LARGE,                          /* B */
              E_SHORT, E_SHORT, E_SHORT, E_SHORT);                                    /* leads */

    const __m256i low4 = c->low4;
    __m256i k1 =
        _mm256_shuffle_epi8(lead_high, _mm256_and_si256(_mm256_srli_epi16(back1, 4), low4));
    __m256i k2 = _mm256_shuffle_epi8(lead_low, _mm256_and_si256(back1, low4));
    __m256i k3 = _mm256_shuffle_epi8(next_high, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4));
    __m256i pair = _mm256_and_si256(_mm256_and_si256(k1, k2), k3);

    /* Bit 7 where the byte has to be a 3rd or 4th byte: two back is a lead
     * of 3 or 4 bytes (E0..FF) or three back one of 4 (F0..FF). Exactly
     * those bytes must show E_CONT2, so XOR leaves the errors. */
    __m256i third = _mm256_subs_epu8(back2, c->third);
    __m256i fourth = _mm256_subs_epu8(back3, c->fourth);
    __m256i must = _mm256_and_si256(_mm256_or_si256(third, fourth), c->high);
    return _mm256_xor_si256(pair, must);
}

/* Nonzero when v ends inside a sequence: then the next block has to
 * continue it (checked when that block is ASCII and skips utf8_errors). */
static ATD__TARGET_AVX2 ALWAYS_INLINE __m256i ends_open(__m256i v)
{
    /* bytes 29, 30, 31 at least F0, E0, C0 */
    const __m256i limit =
        _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, C8(0xef), C8(0xdf), C8(0xbf));
    return _mm256_subs_epu8(v, limit);
}

/* Bit i set where byte i of v is escaped: '"', '\\', below 0x20 or DEL. */
static ATD__TARGET_AVX2 ALWAYS_INLINE unsigned escapes(__m256i v, const loop_constants *c)
{
    __m256i q = _mm256_cmpeq_epi8(v, c->quote);
    __m256i b = _mm256_cmpeq_epi8(v, c->bslash);
    __m256i d = _mm256_cmpeq_epi8(v, c->del);
    __m256i l = _mm256_cmpeq_epi8(_mm256_min_epu8(v, c->ctl_max), v);
    return (unsigned)_mm256_movemask_epi8(
        _mm256_or_si256(_mm256_or_si256(q, b), _mm256_or_si256(d, l)));
}

static inline uint64_t load64(const char *s)
{
    uint64_t w;
    memcpy(&w, s, 8);
    return w;
}

static inline uint32_t load32(const char *s)
{
    uint32_t w;
    memcpy(&w, s, 4);
    return w;
}

/* s[0..n) for n < 32, zero-padded to a block, by loads that stay inside it:
 * two overlapping ones, the second shifted down onto its place. */
static ATD__TARGET_AVX2 ALWAYS_INLINE __m256i load_end(const char *s, unsigned n)
{
    if (n >= 16) {
        /* slide + d as a vpshufb index: byte i takes byte i + d, zero once
         * that is past the end of the 16 */
        static const unsigned char slide[32] = {0,    1,    2,    3,    4,    5,    6,    7,
                                                8,    9,    10,   11,   12,   13,   14,   15,
                                                0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                                0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
        __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16));
        __m128i index = _mm_loadu_si128((const __m128i *)(const void *)(slide + 32 - n));
        return _mm256_set_m128i(_mm_shuffle_epi8(hi, index), lo);
    }
    uint64_t lo, hi = 0;
    if (n >= 8) {
        lo = load64(s);
        /* s[n-8..n) down by 16 - n (1 to 8) bytes: s[8..n) */
        hi = load64(s + n - 8) >> (8 * (16 - n) - 8) >> 8;
    } else if (n >= 4) {
        uint64_t last = load32(s + n - 4);
        lo = load32(s) | (last >> 8 * (8 - n)) << 32;
    } else if (n > 0) {
        lo = (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n >> 1] << 8 |
             (uint64_t)(unsigned char)s[n - 1] << 16;
        lo &= (UINT64_C(1) << 8 * n) - 1;
    } else {
        lo = 0;
    }
    return _mm256_set_epi64x(0, 0, (long long)hi, (long long)lo);
}

/* Copies s[0..n) (n < 32) to p, by overlapping moves that cover it exactly. */
static ATD__TARGET_AVX2 ALWAYS_INLINE void copy_end(char *p, const char *s, unsigned n)
{
    if (n >= 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16));
        _mm_storeu_si128((__m128i *)(void *)p, a);
        _mm_storeu_si128((__m128i *)(void *)(p + n - 16), b);
    } else if (n >= 8) {
        uint64_t a = load64(s), b = load64(s + n - 8);
        memcpy(p, &a, 8);
        memcpy(p + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a = load32(s), b = load32(s + n - 4);
        memcpy(p, &a, 4);
        memcpy(p + n - 4, &b, 4);
    } else if (n > 0) {
        p[0] = s[0];
        p[n >> 1] = s[n >> 1];
        p[n - 1] = s[n - 1];
    }
}

static ATD__TARGET_AVX2 ALWAYS_INLINE char *escape_kernel(char *p, const char *s, size_t len,
                                                          bool check)
{
    const char *end = s + len;
    loop_constants c;
    constants_init(&c);
    const __m256i zero = _mm256_setzero_si256();
    __m256i before = zero; /* the block before (text before s is ASCII) */
    __m256i err = zero;
    __m256i open = zero; /* `before` ends inside a sequence */
    while (end - s >= 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)s);
        _mm256_storeu_si256((__m256i *)(void *)p, v);
        if (check) {
            if (_mm256_movemask_epi8(v) != 0) {
                err = _mm256_or_si256(err, utf8_errors(v, before, &c));
                open = ends_open(v);
            } else {
                err = _mm256_or_si256(err, open);
                open = zero;
            }
            before = v;
        }
        unsigned stop = escapes(v, &c);
        if (ATD_LIKELY(stop == 0)) {
            s += 32;
            p += 32;
            continue;
        }
        /* The block was copied whole; the escape overwrites its byte, and
         * the text after it starts a new block, with nothing pending. */
        unsigned k = (unsigned)__builtin_ctz(stop);
        p = atd__escape_byte(p + k, (unsigned char)s[k]);
        s += k + 1;
        before = open = zero;
    }
    /* The last 0 to 31 bytes, zero-padded (the padding is no escape). */
    while (s != end) {
        unsigned n = (unsigned)(end - s);
        __m256i v = load_end(s, n);
        copy_end(p, s, n);
        /* The padding is ASCII: it shows a sequence left open at the end. */
        if (check)
            err = _mm256_or_si256(err,
                                  _mm256_movemask_epi8(v) != 0 ? utf8_errors(v, before, &c) : open);
        open = zero;
        unsigned stop = escapes(v, &c) & ((1u << n) - 1);
        if (ATD_LIKELY(stop == 0)) {
            p += n;
            break;
        }
        unsigned k = (unsigned)__builtin_ctz(stop);
        p = atd__escape_byte(p + k, (unsigned char)s[k]);
        s += k + 1;
        before = zero;
    }
    if (check) {
        err = _mm256_or_si256(err, open);
        if (!_mm256_testz_si256(err, err))
            return NULL;
    }
    return p;
}

ATD__TARGET_AVX2 char *atd__escape_avx2(char *p, const char *s, size_t len, bool check)
{
    return check ? escape_kernel(p, s, len, true) : escape_kernel(p, s, len, false);
}

#else
/* ISO C wants a declaration in every translation unit. */
typedef int atd__no_escape_avx2;
#endif
