/* The writer's AVX2 string kernel (escape.h): escapes, validates and copies
 * a string in one pass, 32 bytes per step.
 *
 * Each block is loaded once, stored to the output at once, and tested for
 * the bytes to escape ('"', '\\', below 0x20, DEL). A block with non-ASCII
 * bytes is also checked as UTF-8 by the lookup step of utf8_lookup_avx2.h.
 * Errors are only gathered; the verdict comes at the end of the string,
 * since a failing string commits nothing anyway.
 *
 * The validation is fused with the copy and the escape test, which need
 * the same loaded block, and it restarts after each escaped byte: that byte
 * is ASCII, so a block that starts right after it has nothing pending from
 * the bytes before (had they been waiting for a continuation byte, the
 * escaped byte was already an error of the block that held it).
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

#include "utf8_lookup_avx2.h"

/* The broadcast constants of the loop, made opaque to the compiler once
 * per call (an empty asm that "changes" them): otherwise it rebuilds each
 * one, in three instructions, on every step rather than keep them. */
typedef struct {
    __m256i quote, bslash, del, ctl_max; /* escapes */
    __m256i low4, third, fourth, high;   /* atd__utf8_block_errors */
} loop_constants;

#define C8(x) ((char)(x))
#define REP4(x) C8(x), C8(x), C8(x), C8(x)
#define REP32(x)                                                                                   \
    {                                                                                              \
        REP4(x), REP4(x), REP4(x), REP4(x), REP4(x), REP4(x), REP4(x), REP4(x)                     \
    }

static const union {
    char bytes[8][32];
    __m256i align;
} constant_bytes = {{REP32('"'), REP32('\\'), REP32(0x7f), REP32(0x1f), REP32(ATD__U8_NIBBLE),
                     REP32(ATD__U8_THIRD), REP32(ATD__U8_FOURTH), REP32(ATD__U8_HIGH)}};

/* One load each, from the table above. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE void constants_init(loop_constants *c)
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

/* Bit i set where byte i of v is escaped: '"', '\\', below 0x20 or DEL. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE unsigned escapes(__m256i v, const loop_constants *c)
{
    __m256i q = _mm256_cmpeq_epi8(v, c->quote);
    __m256i b = _mm256_cmpeq_epi8(v, c->bslash);
    __m256i d = _mm256_cmpeq_epi8(v, c->del);
    __m256i l = _mm256_cmpeq_epi8(_mm256_min_epu8(v, c->ctl_max), v);
    return (unsigned)_mm256_movemask_epi8(
        _mm256_or_si256(_mm256_or_si256(q, b), _mm256_or_si256(d, l)));
}

/* s[0..n) for n < 32, zero-padded to a block, by loads that stay inside it:
 * two overlapping ones, the second shifted down onto its place. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE __m256i load_end(const char *s, unsigned n)
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
        lo = atd__load64(s);
        /* s[n-8..n) down by 16 - n (1 to 8) bytes: s[8..n) */
        hi = atd__load64(s + n - 8) >> (8 * (16 - n) - 8) >> 8;
    } else if (n >= 4) {
        uint64_t last = atd__load32(s + n - 4);
        lo = atd__load32(s) | (last >> 8 * (8 - n)) << 32;
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
static ATD__TARGET_AVX2 ATD__HOT_INLINE void copy_end(char *p, const char *s, unsigned n)
{
    if (n >= 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16));
        _mm_storeu_si128((__m128i *)(void *)p, a);
        _mm_storeu_si128((__m128i *)(void *)(p + n - 16), b);
    } else if (n >= 8) {
        uint64_t a = atd__load64(s), b = atd__load64(s + n - 8);
        memcpy(p, &a, 8);
        memcpy(p + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a = atd__load32(s), b = atd__load32(s + n - 4);
        memcpy(p, &a, 4);
        memcpy(p + n - 4, &b, 4);
    } else if (n > 0) {
        p[0] = s[0];
        p[n >> 1] = s[n >> 1];
        p[n - 1] = s[n - 1];
    }
}

static ATD__TARGET_AVX2 ATD__HOT_INLINE char *escape_kernel(char *p, const char *s, size_t len,
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
            atd__utf8_check_block(v, before, &err, &open, c.low4, c.third, c.fourth, c.high);
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
            atd__utf8_check_block(v, before, &err, &open, c.low4, c.third, c.fourth, c.high);
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

/* escape_kernel from s on, for a string whose bytes before s (if any) are
 * plain ASCII: nothing is pending from them. Out of line, so that its setup
 * (eight constants, saved registers) is paid only by the strings that need
 * it. */
static ATD__TARGET_AVX2 __attribute__((noinline)) char *escape_full(char *p, const char *s,
                                                                    size_t len, bool check)
{
    return check ? escape_kernel(p, s, len, true) : escape_kernel(p, s, len, false);
}

/* The constants of plain_stops, loaded from memory, by index. */
enum {
    PLAIN_LOW = 0,
    PLAIN_QUOTE1,
    PLAIN_BSLASH1,
    PLAIN_QUOTE,
    PLAIN_BSLASH,
    PLAIN_DEL,
    PLAIN_CTL_MAX,
    PLAIN_ONE
};
static const union {
    char bytes[8][32];
    __m256i align;
} plain_bytes = {{REP32(0x21), REP32('"' + 1), REP32('\\' + 1), REP32('"'), REP32('\\'),
                  REP32(0x7f), REP32(0x1f), REP32(1)}};

/* The table, made opaque to the compiler (an empty asm that "changes" the
 * pointer): else it folds the loads back into constants and rebuilds each
 * one in three instructions. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE const __m256i *plain_table(void)
{
    const __m256i *t = (const __m256i *)(const void *)plain_bytes.bytes;
    __asm__("" : "+r"(t));
    return t;
}

/* The bytes of v that stop the plain copy: those to escape and, with
 * `check`, the non-ASCII ones (the UTF-8 validation is then needed). With
 * one added, the bytes below 0x20, DEL and 0x80..0xff are exactly those
 * below 0x21 as signed bytes; '"' and '\\' are tested on their own. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE __m256i plain_stops(__m256i v, const __m256i *t, bool check)
{
    if (!check) {
        __m256i q = _mm256_cmpeq_epi8(v, _mm256_load_si256(t + PLAIN_QUOTE));
        __m256i b = _mm256_cmpeq_epi8(v, _mm256_load_si256(t + PLAIN_BSLASH));
        __m256i d = _mm256_cmpeq_epi8(v, _mm256_load_si256(t + PLAIN_DEL));
        __m256i l = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_load_si256(t + PLAIN_CTL_MAX)), v);
        return _mm256_or_si256(_mm256_or_si256(q, b), _mm256_or_si256(d, l));
    }
    __m256i u = _mm256_add_epi8(v, _mm256_load_si256(t + PLAIN_ONE));
    __m256i low = _mm256_cmpgt_epi8(_mm256_load_si256(t + PLAIN_LOW), u);
    __m256i q = _mm256_cmpeq_epi8(u, _mm256_load_si256(t + PLAIN_QUOTE1));
    __m256i b = _mm256_cmpeq_epi8(u, _mm256_load_si256(t + PLAIN_BSLASH1));
    return _mm256_or_si256(low, _mm256_or_si256(q, b));
}

static ATD__TARGET_AVX2 ATD__HOT_INLINE __m256i load32(const char *s)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)s);
}

static ATD__TARGET_AVX2 ATD__HOT_INLINE void store32(char *p, __m256i v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}

/* Whether the 64 bytes (a, b) hold a stop byte. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE bool pair_stops(__m256i a, __m256i b, const __m256i *t,
                                                      bool check)
{
    __m256i m = _mm256_or_si256(plain_stops(a, t, check), plain_stops(b, t, check));
    return !_mm256_testz_si256(m, m);
}

/* The rest of a string of 32 bytes or more, [s, end), whose bytes before s
 * are ASCII, 32 bytes at a time with the cheap test: a byte to escape is
 * escaped here, and only a non-ASCII byte (when checking) hands the rest to
 * the full kernel. The last 1 to 31 bytes are tested in the block that ends
 * at the end of the string (inside it, as the string has 32 bytes or more),
 * their bits moved down to start at s, and copied by exact moves. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE char *escape_ascii_body(char *p, const char *s,
                                                              const char *end, bool check)
{
    const __m256i *t = plain_table();
    while (end - s >= 32) {
        __m256i v = load32(s);
        store32(p, v);
        unsigned m = (unsigned)_mm256_movemask_epi8(plain_stops(v, t, check));
        if (ATD_LIKELY(m == 0)) {
            s += 32;
            p += 32;
            continue;
        }
        unsigned k = (unsigned)__builtin_ctz(m);
        unsigned char c = (unsigned char)s[k];
        if (check && c >= 0x80)
            return escape_full(p + k, s + k, (size_t)(end - s) - k, true);
        p = atd__escape_byte(p + k, c);
        s += k + 1;
    }
    __m256i last = load32(end - 32);
    unsigned stops = (unsigned)_mm256_movemask_epi8(plain_stops(last, t, check));
    while (s != end) {
        unsigned n = (unsigned)(end - s);
        unsigned m = stops >> (32 - n);
        if (ATD_LIKELY(m == 0)) {
            copy_end(p, s, n);
            return p + n;
        }
        unsigned k = (unsigned)__builtin_ctz(m);
        unsigned char c = (unsigned char)s[k];
        copy_end(p, s, k);
        if (check && c >= 0x80)
            return escape_full(p + k, s + k, n - k, true);
        p = atd__escape_byte(p + k, c);
        s += k + 1;
    }
    return p;
}

static ATD__TARGET_AVX2 __attribute__((noinline)) char *escape_ascii(char *p, const char *s,
                                                                     const char *end, bool check)
{
    return check ? escape_ascii_body(p, s, end, true) : escape_ascii_body(p, s, end, false);
}

/* Where the plain copy goes on from s when the pair (a, b) has a stop: to
 * the full kernel if the pair holds non-ASCII text to validate, else to
 * escape_ascii. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE char *after_stop(char *p, const char *s, const char *end,
                                                       __m256i a, __m256i b, bool check)
{
    if (check && _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0)
        return escape_full(p, s, (size_t)(end - s), true);
    return escape_ascii(p, s, end, check);
}

/* A string of 32 bytes or more is first copied with the cheap test above,
 * two 32-byte blocks (64 bytes) per step; the last pair (or the only one,
 * up to 64 bytes) overlaps the bytes before so as to end at the end of the
 * string (the bytes already copied are copied again as they are). Most
 * such strings (URLs, sentences) are plain ASCII and end there; at the
 * first pair that holds a stop byte, the full kernel takes over from the
 * start of that pair. */
static ATD__TARGET_AVX2 ATD__HOT_INLINE char *escape_plain_first(char *p, const char *s, size_t len,
                                                               bool check)
{
    const char *end = s + len;
    const __m256i *t = plain_table();
    if (len <= 64) {
        __m256i a = load32(s), b = load32(end - 32);
        if (ATD_UNLIKELY(pair_stops(a, b, t, check)))
            return after_stop(p, s, end, a, b, check);
        store32(p, a);
        store32(p + len - 32, b);
        return p + len;
    }
    while (end - s > 64) {
        __m256i a = load32(s), b = load32(s + 32);
        store32(p, a);
        store32(p + 32, b);
        if (ATD_UNLIKELY(pair_stops(a, b, t, check)))
            return after_stop(p, s, end, a, b, check);
        s += 64;
        p += 64;
    }
    /* end - s is 1 to 64: the last pair starts s - last bytes back */
    const char *last = end - 64;
    __m256i a = load32(last), b = load32(last + 32);
    if (ATD_UNLIKELY(pair_stops(a, b, t, check)))
        return after_stop(p, s, end, a, b, check);
    store32(p - (s - last), a);
    store32(p - (s - last) + 32, b);
    return p + (end - s);
}

ATD__TARGET_AVX2 char *atd__escape_avx2(char *p, const char *s, size_t len, bool check)
{
    if (len < 32)
        return escape_full(p, s, len, check);
    return check ? escape_plain_first(p, s, len, true) : escape_plain_first(p, s, len, false);
}

#else
/* ISO C wants a declaration in every translation unit. */
typedef int atd__no_escape_avx2;
#endif
