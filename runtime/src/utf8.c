/* UTF-8 validation, one whole sequence per step.
 *
 * A lead byte fixes everything about its sequence: the length, and the range
 * of the second byte (Unicode 3.9, table 3-7: E0 needs A0..BF to exclude
 * overlongs, ED needs 80..9F to exclude surrogates, F0 needs 90..BF, F4 needs
 * 80..8F to stay below U+110000; others need 80..BF). The bytes after the
 * second are plain continuation bytes (10xxxxxx). So one table lookup per
 * sequence gives the length and the range, and a sequence costs one range
 * check plus one mask test per further byte, with no branch per byte on the
 * lead's value. Text in one script repeats the same length, so the branches
 * that remain predict well. */
#include "utf8.h"
#include "scan.h"

/* For lead bytes 0x80..0xFF (index c - 0x80): the sequence length (0: not a
 * lead byte: a continuation byte, C0/C1 overlong leads, F5..FF), and the
 * second byte's range as lo and hi - lo. */
typedef struct lead_info {
    unsigned char len, lo, span;
} lead_info;

/* clang-format off */
#define L2 {2, 0x80, 0x3f}
#define L3 {3, 0x80, 0x3f}
#define L4 {4, 0x80, 0x3f}
#define NO {0, 0, 0}
#define ROW8(x) x, x, x, x, x, x, x, x
static const lead_info leads[128] = {
    /* 80..BF: continuation bytes */
    ROW8(NO), ROW8(NO), ROW8(NO), ROW8(NO), ROW8(NO), ROW8(NO), ROW8(NO), ROW8(NO),
    /* C0, C1: overlong; C2..DF: 2 bytes */
    NO, NO, L2, L2, L2, L2, L2, L2, ROW8(L2), ROW8(L2), ROW8(L2),
    /* E0: A0..BF; E1..EC; ED: 80..9F; EE, EF */
    {3, 0xa0, 0x1f}, L3, L3, L3, L3, L3, L3, L3, L3, L3, L3, L3, L3, {3, 0x80, 0x1f}, L3, L3,
    /* F0: 90..BF; F1..F3; F4: 80..8F; F5..FF: beyond U+10FFFF */
    {4, 0x90, 0x2f}, L4, L4, L4, {4, 0x80, 0x0f}, NO, NO, NO, ROW8(NO),
};
#undef L2
#undef L3
#undef L4
#undef NO
#undef ROW8
/* clang-format on */

int atd__utf8_sequence(const unsigned char *p, const unsigned char *end)
{
    const lead_info *l = &leads[p[0] - 0x80];
    int n = l->len;
    if (n == 0)
        return 0;
    if (end - p < 2)
        return -1;
    if ((unsigned)(p[1] - l->lo) > l->span)
        return 0;
    for (int i = 2; i < n; i++) {
        if (end - p <= i)
            return -1;
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    }
    return n;
}

const unsigned char *atd__utf8_skip(const unsigned char *p, const unsigned char *end)
{
    /* With four bytes left every sequence fits, so no length check is needed
     * per byte. (unsigned)(b - lo) > span is the range check lo <= b <=
     * lo + span in one comparison: below lo wraps to a large value. */
    while (end - p >= 4) {
        unsigned c = p[0];
        if (c < 0x80)
            return p;
        /* The frequent leads take no table lookup: E1..EC, EE, EF start 3
         * bytes whose second byte may be any continuation byte (CJK text),
         * C2..DF start 2 bytes (accented Latin, Greek, Cyrillic...). */
        if (c - 0xe1u <= 0xefu - 0xe1u && c != 0xed) {
            if (((p[1] & 0xc0u) | ((p[2] & 0xc0u) << 8)) != 0x8080u)
                return p;
            p += 3;
            continue;
        }
        if (c - 0xc2u <= 0xdfu - 0xc2u) {
            if ((p[1] & 0xc0u) != 0x80u)
                return p;
            p += 2;
            continue;
        }
        const lead_info *l = &leads[c - 0x80];
        unsigned n = l->len;
        if (n == 0 || (unsigned)(p[1] - l->lo) > l->span)
            return p;
        if (n >= 3) {
            /* Bytes 3 and 4 (when n == 4) must be 10xxxxxx. */
            unsigned tail = n == 3 ? (p[2] & 0xc0u) : (p[2] & 0xc0u) | ((p[3] & 0xc0u) << 8);
            if (tail != (n == 3 ? 0x80u : 0x8080u))
                return p;
        }
        p += n;
    }
    while (p < end && *p >= 0x80) {
        int n = atd__utf8_sequence(p, end);
        if (n <= 0)
            return p;
        p += n;
    }
    return p;
}

const unsigned char atd__short_escapes[256] = {
    ['"'] = '"',  ['\\'] = '\\', ['/'] = '/',  ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n',  ['r'] = '\r', ['t'] = '\t',
};

/* clang-format off */
#define X16 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, \
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
const unsigned char atd__hex_values[256] = {
    X16, X16, X16,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    X16,
    0xff, 10, 11, 12, 13, 14, 15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    X16, X16, X16, X16, X16, X16, X16, X16, X16,
};
#undef X16
/* clang-format on */

/* ------------------------------------------------------------------------ */
/* Text runs of string bodies                                                */
/* ------------------------------------------------------------------------ */

const char *atd__scan_text_scalar(const char *p, const char *end)
{
    for (;;) {
        p = atd__find_special_strict(p, end);
        if (p == end || (unsigned char)*p < 0x80)
            return p;
        const unsigned char *u =
            atd__utf8_skip((const unsigned char *)p, (const unsigned char *)end);
        if (u < (const unsigned char *)end && *u >= 0x80)
            return NULL;
        p = (const char *)u;
    }
}

const char *atd__decode_text_scalar(char *dst, char *dst_end, const char *p, const char *end,
                                    char **dst_out)
{
    for (;;) {
        /* A run of text, validated first and then copied whole: nothing is
         * written before the run is known to fit. */
        const char *q = atd__scan_text_scalar(p, end);
        if (q == NULL)
            return NULL;
        size_t n = (size_t)(q - p);
        if (n > (size_t)(dst_end - dst))
            break; /* out of room at p, a sequence boundary */
        memcpy(dst, p, n);
        dst += n;
        p = atd__decode_escapes(q, end, &dst, dst_end);
        if (p == q)
            break; /* no escape there that it decodes */
    }
    *dst_out = dst;
    return p;
}

const char *atd__decode_text(char *dst, char *dst_end, const char *p, const char *end,
                             char **dst_out)
{
#if ATD__HAVE_AVX2_KERNELS
    unsigned k = atd__cpu_kernels();
    if (k & ATD__CPU_AVX512)
        return atd__decode_text_avx512(dst, dst_end, p, end, dst_out);
    if (k & ATD__CPU_AVX2)
        return atd__decode_text_avx2(dst, dst_end, p, end, dst_out);
#endif
    return atd__decode_text_scalar(dst, dst_end, p, end, dst_out);
}

const char *atd__scan_text(const char *p, const char *end)
{
#if ATD__HAVE_AVX2_KERNELS
    unsigned k = atd__cpu_kernels();
    if (k & ATD__CPU_AVX512)
        return atd__scan_text_avx512(p, end);
    if (k & ATD__CPU_AVX2)
        return atd__scan_text_avx2(p, end);
#endif
    return atd__scan_text_scalar(p, end);
}
