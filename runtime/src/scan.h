/* Wide scans shared by reader.c, read_string.c and skip.c (internal to
 * atdrt): whitespace runs and the next string byte that needs attention,
 * sixteen bytes at a time with SSE2, eight with SWAR words otherwise. Every
 * load stays inside [p, end): the wide loops run only while a whole block is
 * left, and the tail goes byte by byte. */
#ifndef ATD_SCAN_H
#define ATD_SCAN_H

#include "atd/reader.h"
#include "reader_internal.h"

#include <string.h>

#if defined(__SSE2__) && !defined(ATD_NO_SIMD)
#include <emmintrin.h>
#define ATD__SSE2 1
#else
#define ATD__SSE2 0
#endif

#define ATD__ONES UINT64_C(0x0101010101010101)
#define ATD__HIGHS UINT64_C(0x8080808080808080)

/* High bit set in each byte of x equal to byte c, exactly (no carries leak
 * between bytes because (b & 0x7f) + 0x7f <= 0xfe). */
static inline uint64_t atd__swar_eq(uint64_t x, unsigned char c)
{
    uint64_t y = x ^ (ATD__ONES * c);
    uint64_t t = ((y & ~ATD__HIGHS) + ~ATD__HIGHS) | y;
    return ~t & ATD__HIGHS;
}

/* High bit set in each byte below 0x20 or at least 0x80. Per byte,
 * (b | 0x80) - 0x20 cannot borrow from its neighbour, and its high bit is
 * clear exactly when (b & 0x7f) < 0x20. */
static inline uint64_t atd__swar_ctl_or_high(uint64_t x)
{
    uint64_t t = (x | ATD__HIGHS) - ATD__ONES * 0x20;
    return (~t & ATD__HIGHS) | (x & ATD__HIGHS);
}

/* Index of the first byte (in memory order) that is nonzero in a nonzero
 * word loaded with memcpy: the lowest set bit lies in that byte on a little-
 * endian machine, the highest on a big-endian one. -1 where the byte order
 * is unknown (callers then look at the bytes one by one). */
static inline int atd__swar_first(uint64_t x)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) &&                        \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return __builtin_ctzll(x) >> 3;
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) &&                      \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return __builtin_clzll(x) >> 3;
#else
    (void)x;
    return -1;
#endif
}

/* Returns the first non-whitespace byte at or after p (end if none). Forced
 * inline: it is the body of its callers' fast paths, and a call would cost
 * as much as a short run. */
static ATD__HOT_INLINE const char *atd__skip_ws_run(const char *p, const char *end)
{
    /* Pretty-printers put a newline and an indentation of spaces between
     * tokens: after a newline, compare with the space alone. The first byte
     * that is not a space ends the run when it is above ' ' (no other
     * whitespace byte is); otherwise (tabs, CR, blank lines) the general
     * loop below goes on from there. */
    if (p < end && *p == '\n') {
        p++;
#if ATD__SSE2
        const __m128i sp = _mm_set1_epi8(' ');
        /* Most indentations are below 32 spaces: two blocks, one mask, no
         * loop. */
        if (end - p >= 32) {
            __m128i v0 = _mm_loadu_si128((const __m128i *)(const void *)p);
            __m128i v1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
            uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, sp)) |
                         ((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v1, sp)) << 16);
            if (ATD_LIKELY(m != 0xffffffffu)) {
                p += __builtin_ctz(~m);
                if (ATD_LIKELY((unsigned char)*p > ' '))
                    return p;
                goto general;
            }
            p += 32;
        }
        while (end - p >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
            unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, sp)) ^ 0xffffu;
            if (m) {
                p += __builtin_ctz(m);
                if ((unsigned char)*p > ' ')
                    return p;
                break;
            }
            p += 16;
        }
#else
        while (end - p >= 8) {
            uint64_t x;
            memcpy(&x, p, 8);
            x ^= ATD__ONES * ' '; /* zero bytes: spaces */
            if (x) {
                int i = atd__swar_first(x);
                if (i < 0)
                    break;
                p += i;
                if ((unsigned char)*p > ' ')
                    return p;
                break;
            }
            p += 8;
        }
#endif
    }
#if ATD__SSE2
general:
    while (end - p >= 16) {
        const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
        const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, tab)),
                                  _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
        unsigned m = (unsigned)_mm_movemask_epi8(ws) ^ 0xffffu;
        if (m)
            return p + __builtin_ctz(m);
        p += 16;
    }
#endif
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        uint64_t ws = atd__swar_eq(x, ' ') | atd__swar_eq(x, '\t') | atd__swar_eq(x, '\n') |
                      atd__swar_eq(x, '\r');
        uint64_t m = ~ws & ATD__HIGHS;
        if (m) {
            int i = atd__swar_first(m);
            if (i >= 0)
                return p + i;
            break;
        }
        p += 8;
    }
    while (p < end && (atd__char_class[(unsigned char)*p] & ATD__CC_WS))
        p++;
    return p;
}

/* Strict mode: the first byte in [p, end) that is '"', '\\', a control byte
 * or a non-ASCII byte; end if none. */
static inline const char *atd__find_special_strict(const char *p, const char *end)
{
#if ATD__SSE2
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        unsigned bits = atd__string_stops(v);
        if (bits)
            return p + __builtin_ctz(bits);
        p += 16;
    }
#endif
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        uint64_t m = atd__swar_eq(x, '"') | atd__swar_eq(x, '\\') | atd__swar_ctl_or_high(x);
        if (m) {
            int i = atd__swar_first(m);
            if (i >= 0)
                return p + i;
            break;
        }
        p += 8;
    }
    for (; p < end; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80)
            return p;
    }
    return end;
}

/* The key at p when it is plain ASCII followed at once by ':', as keys
 * mostly are: the cursor past the colon, or NULL for the slow path. A scan
 * for the closing quote sixteen bytes at a time, then the colon, while 32
 * bytes are left. The scan stops at any byte below 0x20 or above 0x7f, so a
 * key it settles needs no UTF-8 check. Everything else (whitespace before
 * the key, as in pretty-printed input for callers that do not skip it
 * first, the end of the input) takes the slow path, which keeps this one
 * free of the registers a byte loop would need. With a `guess` (not NULL),
 * a key of up to 15 bytes moves the cursor by that length, which a branch
 * checks (atd__past_count). */
static ATD__HOT_INLINE const char *atd__plain_key(const atd_reader *r, const char *p,
                                                  atd_string *key, unsigned char *guess)
{
#if ATD__INLINE_SSE2
    if (ATD_LIKELY(p < r->fast_end && *p == '"' && !(r->flags & ATD_READ_LENIENT))) {
        const char *q = p + 1;
        unsigned stops = atd__string_stops(_mm_loadu_si128((const __m128i *)(const void *)q));
        if (ATD_LIKELY(stops != 0)) {
            size_t n = (size_t)__builtin_ctz(stops);
            q = guess != NULL ? atd__past_count(q, n, guess) : q + n;
        } else {
            do {
                q += 16;
                if (q >= r->fast_end)
                    return NULL;
            } while ((stops = atd__string_stops(
                          _mm_loadu_si128((const __m128i *)(const void *)q))) == 0);
            q += __builtin_ctz(stops);
        }
        /* q < fast_end + 16: q[1] is input */
        if (ATD_LIKELY(q[0] == '"' && q[1] == ':')) {
            key->ptr = p + 1;
            key->len = (size_t)(q - p - 1);
            return q + 2;
        }
    }
#else
    (void)r;
    (void)p;
    (void)key;
    (void)guess;
#endif
    return NULL;
}

/* The general string scan of read_string.c, for strings the fast scan did
 * not settle: open_quote is the string's opening quote and p the byte where
 * the mode's scan stopped (atd__find_special_strict in strict mode; in
 * lenient mode the first quote or backslash). Same results as
 * atd__scan_string_p. */
const char *atd__scan_string_rest(atd_reader *r, const char *open_quote, const char *p,
                                  const char **body, const char **body_end, bool *has_escape);

#endif
