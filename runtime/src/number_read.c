/* Number parsing: the strict JSON number grammar, int64 with exact overflow
 * detection, and correctly rounded doubles without strtod or the locale.
 *
 * A double goes through three steps, each taken only when the one before
 * cannot decide:
 *   1. Clinger: mantissa <= 2^53 and |exponent| <= 22 is one exact IEEE
 *      multiplication or division.
 *   2. Eisel-Lemire: the (at most 19-digit) mantissa times a 128-bit
 *      over-estimate of 10^q from pow10_table.c. Most of the time the upper
 *      half of the product by the table entry's high word already decides
 *      (lemire_fast); otherwise the 192-bit product brackets the true value
 *      tightly enough to round it, except within 2^-64 of a halfway point.
 *      Longer mantissas are truncated to 19 digits w and both w and w + 1
 *      are rounded: equal results settle it.
 *   3. Exact comparison with the halfway point between the candidate double
 *      and its neighbour (number_bigdec.c), on the first 800 significant
 *      digits plus "any nonzero digit after them", which is all that can
 *      affect the rounding.
 * Digits are read and converted eight at a time where the input allows it
 * (SWAR on a little-endian 64-bit load, never past the end of the input),
 * a byte at a time elsewhere. Inputs of any length are read in one or two
 * linear passes; exponents with many digits saturate (their size only
 * matters as "huge"). The Clinger step relies on double arithmetic in double
 * precision (FLT_EVAL_METHOD == 0) and the default rounding mode; it is
 * compiled out elsewhere. */
#include "atd/number.h"

#include <float.h>
#include <string.h>

/* SSE2 (the x86-64 baseline) for sixteen fraction digits at once. */
#if defined(__SSE2__) && defined(__x86_64__) && !defined(ATD_NO_SIMD)
#include <emmintrin.h>
#define NUMBER_SSE2 1
#endif

#include "number_bigdec.h"
#include "pow10_table.h"
#include "reader_internal.h"

#define INF_BITS 0x7FF0000000000000u
#define EXP_SATURATE 100000000000000000 /* 10^17: exponents stop growing there */

#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* ------------------------------------------------------------------------
 * Digits
 * ------------------------------------------------------------------------ */

static inline bool is_digit(char c)
{
    return (unsigned char)((unsigned char)c - '0') <= 9;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HAVE_SWAR 1
#define BYTES(b) (0x0101010101010101u * (b))

/* The eight bytes at p, the first one in the lowest byte. */
static inline uint64_t load8(const char *p)
{
    uint64_t x;
    memcpy(&x, p, sizeof x);
    return x;
}

/* x with '0' taken from every byte: digit bytes become their values 0..9.
 * A byte below '0' borrows from the next (higher) byte. */
static inline uint64_t digit_values(uint64_t x)
{
    return x - BYTES(0x30);
}

/* For t = digit_values(x): bit 7 set in each byte of x that is not an ASCII
 * digit, i.e. whose t byte is above 9 (either bit 7 of t is set, or adding
 * 0x76 reaches 0x80). Borrows and carries only travel towards higher bytes
 * and digit bytes produce none, so the lowest flagged byte is exactly the
 * first non-digit; bytes above it may be flagged or not. */
static inline uint64_t nondigit_flags(uint64_t t)
{
    return (t | (t + BYTES(0x76))) & BYTES(0x80);
}

/* Value of eight digit values (first digit in the lowest byte): pairs, then
 * quads, then the whole, each by one multiply-shift on lanes of the word. */
static inline uint64_t eight_digits(uint64_t t)
{
    t = t * 10 + (t >> 8); /* even bytes: 10 * d[i] + d[i+1] <= 99 */
    return (((t & 0x000000FF000000FFu) * (100 + (1000000ull << 32))) +
            (((t >> 16) & 0x000000FF000000FFu) * (1 + (10000ull << 32)))) >>
           32;
}

static const uint64_t pow10_u64[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
#endif

#ifdef NUMBER_SSE2
/* 16 bytes of 0xFF, 16 of 0, 16 of 0xFF: byte_mask(16 - k) keeps the first
 * k bytes of a block, byte_mask(16 + k) the last k (0 <= k <= 16). */
static const unsigned char ones_zeros_ones[48] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

static inline __m128i byte_mask(unsigned at)
{
    return _mm_loadu_si128((const __m128i *)(const void *)(ones_zeros_ones + at));
}

static inline __m128i digit_values16(__m128i v)
{
    return _mm_sub_epi8(v, _mm_set1_epi8('0'));
}

/* Bit i set for each ASCII digit byte i of v (bits 16 and up clear). */
static inline unsigned digit_mask16(__m128i v)
{
    __m128i d = digit_values16(v);
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d));
}

/* The 16 digit values of d (0..9 each, the first one most significant) as
 * two 8-digit halves: the first eight in the low 32 bits, the next eight in
 * the high 32 bits. Pairs, quads and eights are combined by multiply-adds of
 * 16-bit lanes (values stay below 2^15 before each one, below 10^8 after
 * the last). */
static inline uint64_t halves16(__m128i d)
{
    const __m128i zero = _mm_setzero_si128();
    const __m128i tens = _mm_set1_epi32(0x0001000A); /* lanes 10, 1 */
    __m128i pairs = _mm_packs_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(d, zero), tens),
                                    _mm_madd_epi16(_mm_unpackhi_epi8(d, zero), tens));
    __m128i quads = _mm_madd_epi16(pairs, _mm_set1_epi32(0x00010064)); /* 100, 1 */
    __m128i eights = _mm_madd_epi16(_mm_packs_epi32(quads, quads), _mm_set1_epi32(0x00012710));
    return (uint64_t)_mm_cvtsi128_si64(eights);
}
#endif

/* Accumulates the digits at p into *w (wrapping past 19 digits; callers
 * count digits), returns the first non-digit. While eight bytes remain, a
 * word at a time: the n < 8 digits before a non-digit are shifted to the top
 * of the word behind zero digits (two shifts, so n == 0 gives 0 without a
 * shift by 64) and converted the same way. */
static inline const char *read_digits(const char *p, const char *end, uint64_t *w)
{
    uint64_t v = *w;
#ifdef HAVE_SWAR
    while (end - p >= 8) {
        uint64_t t = digit_values(load8(p));
        uint64_t bad = nondigit_flags(t);
        if (bad == 0) {
            v = v * 100000000 + eight_digits(t);
            p += 8;
            continue;
        }
        unsigned n = (unsigned)atd__ctz64(bad) / 8;
        *w = v * pow10_u64[n] + eight_digits((t << (56 - 8 * n)) << 8);
        return p + n;
    }
#endif
    while (p < end && is_digit(*p)) {
        v = v * 10 + (uint64_t)(*p - '0');
        p++;
    }
    *w = v;
    return p;
}

/* The same for an integer part, whose first digit (at p) is known: most are
 * short, so up to three digits are taken one at a time before going on a
 * word at a time. */
static inline const char *read_int_digits(const char *p, const char *end, uint64_t *w)
{
    uint64_t v = (uint64_t)(*p++ - '0');
    for (int i = 0; i < 3; i++) {
        if (p == end || !is_digit(*p)) {
            *w = v;
            return p;
        }
        v = v * 10 + (uint64_t)(*p++ - '0');
    }
    *w = v;
    return read_digits(p, end, w);
}

/* The first non-digit at or after p (or end). */
static inline const char *skip_digits(const char *p, const char *end)
{
#ifdef HAVE_SWAR
    while (end - p >= 8) {
        uint64_t bad = nondigit_flags(digit_values(load8(p)));
        if (bad != 0)
            return p + atd__ctz64(bad) / 8;
        p += 8;
    }
#endif
    while (p < end && is_digit(*p))
        p++;
    return p;
}

/* ------------------------------------------------------------------------
 * Scanning and integers
 * ------------------------------------------------------------------------ */

const char *atd_scan_number(const char *p, const char *end, bool *is_integer)
{
    const char *s = p;
    *is_integer = false;
    if (s < end && *s == '-')
        s++;
    if (s == end || !is_digit(*s))
        return p;
    s = *s == '0' ? s + 1 : skip_digits(s + 1, end);
    bool integer = true;
    if (s < end && *s == '.') {
        const char *f = ++s;
        s = skip_digits(s, end);
        if (s == f)
            return p;
        integer = false;
    }
    if (s < end && (*s | 0x20) == 'e') {
        s++;
        if (s < end && (*s == '+' || *s == '-'))
            s++;
        const char *f = s;
        s = skip_digits(s, end);
        if (s == f)
            return p;
        integer = false;
    }
    *is_integer = integer;
    return s;
}

atd_num_status atd_parse_int64(const char *p, const char *end, int64_t *out)
{
    const char *s = p;
    bool neg = false;
    if (s < end && *s == '-') {
        neg = true;
        s++;
    }
    if (s == end || !is_digit(*s))
        return ATD_NUM_SYNTAX;
    const char *digits = s;
    uint64_t v = 0;
    if (*s == '0')
        s++;
    else
        s = read_digits(s, end, &v);
    if (s != end) {
        bool integer;
        return atd_scan_number(p, end, &integer) == end ? ATD_NUM_NOT_INT : ATD_NUM_SYNTAX;
    }
    /* no leading zeros: 20 digits or more is at least 10^19 > 2^63, and 19
     * digits always fit in a uint64 */
    if (s - digits > 19)
        return ATD_NUM_RANGE;
    if (neg) {
        if (v > (uint64_t)INT64_MAX + 1)
            return ATD_NUM_RANGE;
        *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    } else {
        if (v > (uint64_t)INT64_MAX)
            return ATD_NUM_RANGE;
        *out = (int64_t)v;
    }
    return ATD_NUM_OK;
}

#ifdef HAVE_SWAR
/* Bytes the integer fast path may read after p: a sign, 19 digits and the
 * byte after them (with SSE2 also up to 15 bytes before p, INT_BEHIND). */
#define INT_SPAN 21
#define INT_BEHIND 15

/* The sign and magnitude v as int64 bits (two's complement of -v when neg). */
static inline void store_int(uint64_t v, unsigned neg, int64_t *out)
{
    uint64_t bits = (v ^ (0 - (uint64_t)neg)) + neg;
    memcpy(out, &bits, sizeof bits);
}

/* The rest of an integer whose first sixteen digits (the first nonzero,
 * value v) end at q: up to three more digits one at a time, then the token
 * end. 19 digits stay below 10^19 < 2^64, so only the int64 bound needs a
 * check. Returns the end with *out set, or NULL for a 20th digit, a value
 * beyond int64 or no token end (the general path then reports the exact
 * error). */
static ATD__HOT_INLINE const char *int_long_tail(const char *q, uint64_t v, unsigned neg,
                                               int64_t *out)
{
    unsigned d;
    for (int i = 0; i < 3 && (d = (unsigned)(unsigned char)*q - '0') <= 9; i++, q++)
        v = v * 10 + d;
    /* a digit is no delimiter: a 20th one fails here */
    if (!(atd__char_class[(unsigned char)*q] & ATD__CC_DELIM) || v > (uint64_t)INT64_MAX + neg)
        return NULL;
    store_int(v, neg, out);
    return q;
}

/* The bare integer -?(0|[1-9][0-9]{0,18}) followed by a token end, when
 * INT_SPAN bytes are left at p (and INT_BEHIND before it): up to 15 digits
 * (the common case: no overflow possible) with the digit count and the value
 * from no branch per digit and few live values, so that
 * atd__read_int64_token needs no stack frame; 16 to 19 digits (64-bit ids)
 * by int_long_tail. Returns the end with *out set, or NULL for anything else
 * (the general path then reads it or reports the exact error). */
#ifdef NUMBER_SSE2
/* One block gives the digit count; the 16 bytes that end with the last
 * digit, the ones before the first digit cleared, give the value. The
 * cursor moves by the count last found at the same place (*guess), which a
 * branch checks: the next token's loads then need not wait for the count,
 * and a field's integers often have one length (dates, codes, counts). */
static ATD__HOT_INLINE const char *int_fast(const char *p, int64_t *out, unsigned char *guess)
{
    const char *s = atd__past_byte(p, '-');
    bool neg = s != p;
    __m128i block = _mm_loadu_si128((const __m128i *)(const void *)s);
    unsigned n = (unsigned)__builtin_ctz(~digit_mask16(block));
    /* no digit, 16 or more, or a "0" followed by a digit */
    if (n - 1 >= 15 || (*s == '0' && n > 1)) {
        if (n != 16 || *s == '0')
            return NULL;
        uint64_t halves = halves16(digit_values16(block));
        return int_long_tail(s + 16, (halves & 0xFFFFFFFF) * 100000000 + (halves >> 32), neg, out);
    }
    const char *q = atd__past_count(s, n, guess);
    if (!(atd__char_class[(unsigned char)*q] & ATD__CC_DELIM))
        return NULL;
    __m128i last = _mm_loadu_si128((const __m128i *)(const void *)(q - 16));
    uint64_t halves = halves16(_mm_and_si128(digit_values16(last), byte_mask(16 + n)));
    store_int((halves & 0xFFFFFFFF) * 100000000 + (halves >> 32), neg, out);
    return q;
}
#else
/* One word, or two past 7 digits. */
static ATD__HOT_INLINE const char *int_fast(const char *p, int64_t *out, unsigned char *guess)
{
    (void)guess;
    const char *s = atd__past_byte(p, '-');
    bool neg = s != p;
    uint64_t t = digit_values(load8(s));
    uint64_t tb = nondigit_flags(t);
    uint64_t v;
    const char *q;
    if (tb != 0) {
        unsigned n = (unsigned)atd__ctz64(tb) / 8;
        /* no digit, or a "0" followed by a digit */
        if (n == 0 || ((t & 0xFF) == 0 && n > 1))
            return NULL;
        v = eight_digits(t << (64 - 8 * n));
        q = s + n;
    } else {
        uint64_t x = digit_values(load8(s + 8));
        uint64_t xb = nondigit_flags(x);
        if ((t & 0xFF) == 0) /* a leading "0" */
            return NULL;
        if (xb == 0) /* 16 digits or more */
            return int_long_tail(s + 16, eight_digits(t) * 100000000 + eight_digits(x), neg, out);
        unsigned n = (unsigned)atd__ctz64(xb) / 8;
        v = eight_digits(t) * pow10_u64[n] + eight_digits((x << (56 - 8 * n)) << 8);
        q = s + 8 + n;
    }
    if (!(atd__char_class[(unsigned char)*q] & ATD__CC_DELIM))
        return NULL;
    store_int(v, neg, out);
    return q;
}
#endif
#endif

const char *atd__read_int64_token(atd_reader *r, const char *p, int64_t *out, unsigned slot)
{
#ifdef HAVE_SWAR
#ifdef NUMBER_SSE2
    bool room = r->end - p >= INT_SPAN && p - r->start >= INT_BEHIND;
#else
    bool room = r->end - p >= INT_SPAN;
#endif
    if (ATD_LIKELY(room)) {
        const char *q = int_fast(p, out, &r->lengths[slot]);
        if (ATD_LIKELY(q != NULL))
            return q;
    }
#endif
    return atd__read_int64_slow(r, p, out);
}

/* ------------------------------------------------------------------------
 * Doubles: Eisel-Lemire step
 * ------------------------------------------------------------------------ */

static inline double from_bits(uint64_t bits, bool neg)
{
    double d;
    bits |= (uint64_t)neg << 63;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* Bits of the double nearest to w * 10^q (w > 0), with *ambiguous set when
 * the product is too close to a halfway point to be sure (the result is then
 * only within one unit of the right one).
 *
 * T = table entry over-estimates 10^q by less than one unit, so with w
 * normalized (top bit set) the exact product w * 10^q, scaled like the
 * 192-bit P = w * T, lies in [P - w, P). Rounding drops the low r bits of P
 * (r >= 138); writing L for those bits and H = 2^(r-1) for the halfway
 * point, L <= H rounds down for sure, L > H + w up for sure. */
static NOINLINE uint64_t lemire(uint64_t w, int64_t q, bool *ambiguous)
{
    *ambiguous = false;
    if (q < ATD__POW10_MIN)
        return 0; /* below 10^19 * 10^-344: under half the smallest subnormal */
    if (q > 308)
        return INF_BITS;
    int lz = atd__clz64(w);
    w <<= lz;
    const atd__u128 *t = &atd__pow10_table[q - ATD__POW10_MIN];
    uint64_t a0, b0;
    uint64_t a1 = atd__mul64(w, t->hi, &a0);
    uint64_t b1 = atd__mul64(w, t->lo, &b0);
    uint64_t p1 = a0 + b1;
    uint64_t p2 = a1 + (p1 < a0);
    uint64_t p0 = b0;
    /* P = p2:p1:p0 has its top bit at 191 or 190; keep 53 bits for a
     * normal result, fewer for a subnormal one: value = (P >> r) * 2^e */
    int r = 138 + (int)(p2 >> 63);
    int e = r + atd__floor_log2_pow10((int)q) - 127 - lz;
    if (e < -1074) {
        r += -1074 - e;
        e = -1074;
    }
    if (r > 192)
        return 0;    /* P < 2^192 <= H: rounds to zero */
    int s = r - 128; /* 10 .. 64: the kept bits and the halfway bit are in p2 */
    uint64_t m = s == 64 ? 0 : p2 >> s;
    uint64_t half = (uint64_t)1 << (s - 1);
    if ((p2 & half) && ((p2 & (half - 1)) | p1 | p0) != 0) {
        if ((p2 & (half - 1)) == 0 && p1 == 0 && p0 <= w)
            *ambiguous = true;
        m++;
    }
    if (m == (uint64_t)1 << 53) {
        m >>= 1;
        e++;
    }
    if (e >= 972)
        return INF_BITS;
    /* a normal m carries the hidden bit, which adds one to the exponent
     * field; a subnormal has e == -1074 and m < 2^52 (or m == 2^52 when it
     * rounded up to the smallest normal, which this also encodes right) */
    return m + ((uint64_t)(e + 1074) << 52);
}

/* The common case of lemire() with one 64 x 64-bit multiplication: the
 * bits of the double nearest to w * 10^q (w > 0), or false when that does
 * not suffice to decide (then lemire() does).
 *
 * With A = w * T.hi (a1:a0, w normalized), the 192-bit P = w * T of lemire()
 * is A * 2^64 + w * T.lo, so P / 2^128 lies in [a1 + f, a1 + f + 1) with
 * f = a0 / 2^64 < 1, and the exact product X in [P - w, P) lies strictly
 * between (a1 - 1) * 2^128 and (a1 + 2) * 2^128. Write k for the low bits of
 * a1 below the halfway bit of the rounding (s = r - 128 bits dropped from a1,
 * as in lemire()). When 1 <= k <= 2^(s-1) - 2, X is strictly inside the half
 * of the rounding interval that a1 is in: below the halfway point (round
 * down) or above it (round up), with no carry into the kept bits, so P has
 * the same top bit as a1 and the result is the one lemire() gives. Only
 * k == 0 or k == 2^(s-1) - 1 (2 values in 2^9 or 2^10) go the long way, as
 * do subnormal results. */
static inline bool lemire_fast(uint64_t w, int64_t q, uint64_t *bits)
{
    if ((uint64_t)(q - ATD__POW10_MIN) > (uint64_t)(308 - ATD__POW10_MIN))
        return false;
    int lz = atd__clz64(w);
    uint64_t a0;
    uint64_t a1 = atd__mul64(w << lz, atd__pow10_table[q - ATD__POW10_MIN].hi, &a0);
    (void)a0;
    int top = (int)(a1 >> 63);
    /* floor(q * log2(10)) as atd__floor_log2_pow10, with the shifted value
     * made nonnegative (q >= -343) to do without a branch */
    int fl2 = (int)((((int64_t)q * 1741647) + ((int64_t)2048 << 19)) >> 19) - 2048;
    int e = 11 + top + fl2 - lz;              /* r - 127 + fl2 - lz with r = 138 + top */
    uint64_t half = (uint64_t)1 << (9 + top); /* 2^(s-1), s = r - 128 */
    uint64_t k = a1 & (half - 1);
    /* normal results only: -1074 <= e <= 971 */
    if (k - 1 >= half - 2 || (uint32_t)(e + 1074) >= 2046)
        return false;
    /* kept bits plus the rounding bit, which cannot be a tie here; a
     * mantissa that rounds up to 2^53 carries into the exponent field, as it
     * should (up to infinity from e == 971) */
    uint64_t m = ((a1 >> (9 + top)) + 1) >> 1;
    *bits = m + ((uint64_t)(e + 1074) << 52);
    return true;
}

/* ------------------------------------------------------------------------
 * Doubles: exact slow step
 * ------------------------------------------------------------------------ */

/* The digits of the number as one sequence: n_int integer digits then n_frac
 * fraction digits; digit i has weight 10^(n_int - 1 - i + exp). */
typedef struct digit_seq {
    const char *int_digits;
    const char *frac_digits;
    int64_t n_int;
    int64_t n_frac;
    int64_t exp;
} digit_seq;

static inline char seq_at(const digit_seq *d, int64_t i)
{
    return i < d->n_int ? d->int_digits[i] : d->frac_digits[i - d->n_int];
}

/* Sign of the number compared with the halfway point between the double with
 * bits b and the next one up. */
static int cmp_halfway(const char *buf, int n, int exp10, bool sticky, uint64_t b)
{
    uint64_t be = b >> 52, m = b & (((uint64_t)1 << 52) - 1);
    int e = -1074;
    if (be != 0) {
        m |= (uint64_t)1 << 52;
        e = (int)be - 1075;
    }
    return atd__bigdec_compare(buf, n, exp10, sticky, 2 * m + 1, e - 1);
}

/* Correctly rounded bits, from an approximation b within a few units. */
static uint64_t slow_path(const digit_seq *d, int64_t first, uint64_t b)
{
    char buf[ATD__BIGDEC_KEEP];
    int n = 0;
    int64_t total = d->n_int + d->n_frac, i = first;
    for (; i < total && n < ATD__BIGDEC_KEEP; i++)
        buf[n++] = seq_at(d, i);
    int64_t last = i - 1;
    bool sticky = false;
    for (; i < total && !sticky; i++)
        sticky = seq_at(d, i) != '0';
    while (buf[n - 1] == '0') {
        n--;
        last--;
    }
    int exp10 = (int)(d->n_int - 1 - last + d->exp);

    if (b >= INF_BITS)
        b = INF_BITS - 1;
    for (;;) {
        int c;
        if (b > 0) {
            c = cmp_halfway(buf, n, exp10, sticky, b - 1);
            if (c < 0) {
                b--;
                continue;
            }
            if (c == 0)
                return (b - 1) & 1 ? b : b - 1;
        }
        if (b < INF_BITS) {
            c = cmp_halfway(buf, n, exp10, sticky, b);
            if (c > 0) {
                b++;
                continue;
            }
            if (c == 0)
                return b & 1 ? b + 1 : b;
        }
        return b;
    }
}

static inline bool clinger(uint64_t w, int64_t q, double *out)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (w <= (uint64_t)1 << 53 && (uint64_t)(q + 22) <= 44) {
        double v = (double)w;
        *out = q >= 0 ? v * pow10[q] : v / pow10[-q];
        return true;
    }
#else
    (void)w;
    (void)q;
    (void)out;
#endif
    return false;
}

/* Any digit sequence: skips leading zeros, keeps 19 significant digits, and
 * escalates to the exact step when the dropped digits can matter. */
static NOINLINE double parse_long(const digit_seq *d, bool neg)
{
    int64_t total = d->n_int + d->n_frac, i = 0;
    while (i < total && seq_at(d, i) == '0')
        i++;
    if (i == total)
        return from_bits(0, neg);
    int64_t first = i;
    uint64_t w = 0;
    for (; i < total && i - first < 19; i++)
        w = w * 10 + (uint64_t)(seq_at(d, i) - '0');
    int64_t q = d->n_int - i + d->exp; /* weight of digit i - 1 */
    bool truncated = false;
    for (; i < total && !truncated; i++)
        truncated = seq_at(d, i) != '0';
    double v;
    bool amb;
    if (!truncated && clinger(w, q, &v))
        return neg ? -v : v;
    uint64_t b = lemire(w, q, &amb);
    if (!amb) {
        if (!truncated)
            return from_bits(b, neg);
        bool amb1;
        uint64_t b1 = lemire(w + 1, q, &amb1);
        if (!amb1 && b1 == b)
            return from_bits(b, neg);
    }
    return from_bits(slow_path(d, first, b), neg);
}

/* The exponent digits after "e": saturating, *exp signed. Returns the end,
 * or NULL when there is no digit. */
static inline const char *read_exponent(const char *p, const char *end, int64_t *exp)
{
    bool neg = false;
    if (p < end && (*p == '+' || *p == '-')) {
        neg = *p == '-';
        p++;
    }
    const char *digits = p;
    int64_t e = 0;
    while (p < end && is_digit(*p)) {
        if (e < EXP_SATURATE)
            e = e * 10 + (*p - '0');
        p++;
    }
    if (p == digits)
        return NULL;
    *exp = neg ? -e : e;
    return p;
}

/* The general case, out of line: delimits the parts of the number
 * [p, stop) again (it is known to be valid) for parse_long(). */
static NOINLINE double parse_slow(const char *p, const char *stop)
{
    bool neg = *p == '-';
    p += neg;
    digit_seq d;
    d.int_digits = p;
    p = skip_digits(p, stop);
    d.n_int = p - d.int_digits;
    d.frac_digits = p;
    d.n_frac = 0;
    if (p < stop && *p == '.') {
        d.frac_digits = ++p;
        p = skip_digits(p, stop);
        d.n_frac = p - d.frac_digits;
    }
    d.exp = 0;
    if (p < stop)
        read_exponent(p + 1, stop, &d.exp);
    return parse_long(&d, neg);
}

/* The valid number [start, stop) whose fast step could not decide: w * 10^q
 * when `exact_w` (at most 19 digits), sign `neg`. Stores the value, returns
 * stop. Out of line, so that the common path needs no stack frame. */
static NOINLINE const char *finish_number(const char *start, const char *stop, uint64_t w,
                                          int64_t q, bool exact_w, bool neg, double *out)
{
    if (exact_w) {
        bool amb;
        uint64_t b = w == 0 ? 0 : lemire(w, q, &amb);
        if (w == 0 || !amb) {
            *out = from_bits(b, neg);
            return stop;
        }
    }
    *out = parse_slow(start, stop);
    return stop;
}

/* Parses the longest JSON number at start into *out and returns its end;
 * when `whole`, that must be `end`. Returns start, *out untouched, when
 * there is no such number. One pass over the text: the digits are
 * accumulated (eight at a time where possible) while they are delimited,
 * and at most 19 of them (the common case) go straight to the Clinger and
 * Eisel-Lemire steps. */
static ATD__HOT_INLINE const char *parse_number(const char *start, const char *end, bool whole,
                                              double *out)
{
    const char *p = start < end ? atd__past_byte(start, '-') : start;
    bool neg = p != start;
    if (p == end || !is_digit(*p))
        return start;
    uint64_t w = 0;
    const char *digits = p;
    if (*p == '0')
        p++;
    else
        p = read_int_digits(p, end, &w);
    /* w is exact up to 19 digits; a leading "0" holds no significant one */
    int64_t ndigits = (p - digits) - (*digits == '0');
    int64_t n_frac = 0;
    if (p < end && *p == '.') {
        const char *frac = ++p;
        p = read_digits(p, end, &w);
        n_frac = p - frac;
        if (n_frac == 0)
            return start;
        ndigits += n_frac;
    }
    int64_t exp = 0;
    if (p < end && (*p | 0x20) == 'e') {
        p = read_exponent(p + 1, end, &exp);
        if (p == NULL)
            return start;
    }
    if (whole && p != end)
        return start;
    int64_t q = exp - n_frac;
    if (ATD_LIKELY(ndigits <= 19)) {
        double v;
        if (clinger(w, q, &v)) {
            *out = neg ? -v : v;
            return p;
        }
        uint64_t b;
        if (w != 0 && lemire_fast(w, q, &b)) {
            *out = from_bits(b, neg);
            return p;
        }
    }
    return finish_number(start, p, w, q, ndigits <= 19, neg, out);
}

atd_num_status atd_parse_double(const char *p, const char *end, double *out)
{
    return parse_number(p, end, true, out) != p ? ATD_NUM_OK : ATD_NUM_SYNTAX;
}

/* The general prefix parse, out of line so that the fast path below needs no
 * stack frame and reaches it by a tail call. */
NOINLINE const char *atd__parse_double_general(const char *p, const char *end, double *out)
{
    return parse_number(p, end, false, out);
}

#ifdef HAVE_SWAR
/* Bytes the fast path may read from the start of the number, all below
 * offset 30: a sign, one word at the integer digits (at most 7 of them, then
 * the point), sixteen bytes of fraction digits (below offset 25); with at
 * most 3 integer digits the fraction's 16 digits end by offset 21, 3 more
 * digits and an exponent of up to 5 bytes follow, then the byte after them. */
#define FAST_SPAN 30

#ifdef NUMBER_SSE2
/* The digits at f (at most 16 are looked at; reads 16 bytes) as the 16-digit
 * integer they start, the missing ones taken as trailing zeros: digit i
 * weighs 10^(15 - i). *k receives their number (0..16). */
static inline uint64_t sixteen_digits(const char *f, unsigned *k)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)f);
    unsigned n = (unsigned)__builtin_ctz(~digit_mask16(v));
    *k = n;
    uint64_t halves = halves16(_mm_and_si128(digit_values16(v), byte_mask(16 - n)));
    return (halves & 0xFFFFFFFF) * 100000000 + (halves >> 32);
}
#else
/* The low n bytes of a word (n <= 7). */
static inline uint64_t low_bytes(uint64_t x, unsigned n)
{
    return x & (((uint64_t)1 << (8 * n)) - 1);
}

/* The same with two words. */
static inline uint64_t sixteen_digits(const char *f, unsigned *k)
{
    uint64_t u = digit_values(load8(f)), x = digit_values(load8(f + 8));
    uint64_t ub = nondigit_flags(u), xb = nondigit_flags(x);
    if (ub != 0) {
        unsigned n = (unsigned)atd__ctz64(ub) / 8;
        *k = n;
        return eight_digits(low_bytes(u, n)) * 100000000;
    }
    if (xb == 0) {
        *k = 16;
        return eight_digits(u) * 100000000 + eight_digits(x);
    }
    unsigned n = (unsigned)atd__ctz64(xb) / 8;
    *k = 8 + n;
    return eight_digits(u) * 100000000 + eight_digits(low_bytes(x, n));
}
#endif

/* w * 10^q without n trailing zeros of w when it has them (pow = 10^n, a
 * constant in each caller: the division is a multiplication). */
static inline void trim_zeros(uint64_t *w, int64_t *q, uint64_t pow, int n)
{
    if (*w % pow == 0) {
        *w /= pow;
        *q += n;
    }
}

/* The Clinger step for w * 10^q with the sign of the text at start, after
 * the fast Eisel-Lemire step could not decide. That happens mostly for
 * values that a double holds exactly (1.5, 2.0, 2.33e6): their product has
 * only zero bits below the rounding, which that step cannot tell from a
 * halfway case, and the fast path's mantissa, padded with trailing zeros,
 * is too large for the Clinger step. Without those zeros it often fits.
 * Stores the value and returns stop, or NULL (*out untouched). */
static NOINLINE const char *decide_trimmed(const char *start, const char *stop, uint64_t w,
                                           int64_t q, double *out)
{
    if (w == 0)
        return NULL;
    /* up to 23 trailing zeros (w < 2^64 has at most 19) */
    trim_zeros(&w, &q, 100000000, 8);
    trim_zeros(&w, &q, 100000000, 8);
    trim_zeros(&w, &q, 10000, 4);
    trim_zeros(&w, &q, 100, 2);
    trim_zeros(&w, &q, 10, 1);
    double v;
    if (!clinger(w, q, &v))
        return NULL;
    *out = *start == '-' ? -v : v;
    return stop;
}

/* The Clinger or the fast Eisel-Lemire step for w * 10^q with the sign of
 * the text at start: stores the value and returns stop, or NULL when they do
 * not decide (*out untouched). */
static ATD__HOT_INLINE const char *decide_fast(const char *start, const char *stop, uint64_t w,
                                             int64_t q, double *out)
{
    double v;
    if (clinger(w, q, &v)) {
        *out = *start == '-' ? -v : v;
        return stop;
    }
    uint64_t b;
    if (w != 0 && lemire_fast(w, q, &b)) {
        *out = from_bits(b, *start == '-');
        return stop;
    }
    return decide_trimmed(start, stop, w, q, out);
}

/* The rest of a number whose mantissa the fast path has read up to stop as
 * w * 10^-m, when the byte at stop is not the end: after sixteen fraction
 * digits (m == 16) up to 3 more while w stays below 2^64 (the 17 significant
 * digits of a double printed shortest, as 0.30000000000000004), then an
 * exponent [eE][+-]?[0-9]{1,3}, then the byte that must end the number as
 * in finish_fast (a fourth exponent digit goes the general way, which
 * saturates long exponents). Reads at most 8 bytes after stop and the one
 * after them. Out
 * of line: rare in most documents, and the common path stays free of a
 * stack frame. Returns the end with *out set, or NULL (*out untouched). */
static NOINLINE const char *fast_more(const char *start, const char *stop, bool token, uint64_t w,
                                      unsigned m, double *out)
{
    const char *p = stop;
    unsigned d;
    if (m == 16) {
        for (int i = 0; i < 3 && (d = (unsigned)(unsigned char)*p - '0') <= 9; i++, p++) {
            if (w > (UINT64_MAX - 9) / 10)
                return NULL;
            w = w * 10 + d;
            m++;
        }
    }
    int64_t q = -(int64_t)m;
    if ((*p | 0x20) == 'e') {
        p++;
        bool neg = *p == '-';
        p += *p == '-' || *p == '+';
        if ((d = (unsigned)(unsigned char)*p - '0') > 9)
            return NULL;
        int64_t x = d;
        p++;
        for (int i = 0; i < 2 && (d = (unsigned)(unsigned char)*p - '0') <= 9; i++, p++)
            x = x * 10 + d;
        q += neg ? -x : x;
        if (!token && is_digit(*p))
            return NULL;
    }
    if (token ? !(atd__char_class[(unsigned char)*p] & ATD__CC_DELIM)
              : is_digit(*p) || (*p | 0x20) == 'e')
        return NULL;
    return decide_fast(start, p, w, q, out);
}

/* The end of the fast path for the number [start, stop): the byte at stop
 * must end it (`token`: end a token; else neither continue the digits nor
 * start an exponent), or more fraction digits or an exponent follow
 * (fast_more); its value is w * 10^-m (m = 0, 8 or 16, a constant in each
 * caller so that the steps fold it in) with the sign of the text at start,
 * decided by the Clinger or the fast Eisel-Lemire step. Returns the end, or
 * NULL when that does not decide (*out untouched). */
static ATD__HOT_INLINE const char *finish_fast(const char *start, const char *stop, bool token,
                                             uint64_t w, unsigned m, double *out)
{
    unsigned char c = (unsigned char)*stop;
    if (token ? !(atd__char_class[c] & ATD__CC_DELIM) : is_digit((char)c) || (c | 0x20) == 'e') {
        if ((c | 0x20) == 'e' || (m == 16 && is_digit((char)c)))
            return fast_more(start, stop, token, w, m, out);
        return NULL;
    }
    return decide_fast(start, stop, w, -(int64_t)m, out);
}

/* The common shapes -?(0|[1-9][0-9]{0,6}) followed by (\.[0-9]{1,8})? or,
 * with at most 3 integer digits, by \.[0-9]{1,16} and up to 3 more digits
 * while the value fits, then by an optional exponent [eE][+-]?[0-9]{1,3}
 * (fast_more), when FAST_SPAN bytes are
 * left at start: a word gives the integer digits and their value at once,
 * one 16-byte block (two words without SSE2) the fraction, with no bound
 * check, no loop and few live values (the sign is read again at the end).
 * The fraction's missing digits count as trailing zeros so that the power
 * of ten is a constant: 10^-16 when the integer part has at most 3 digits
 * (w < 10^3 * 10^16 < 2^64), else 10^-8 with at most 8 fraction digits.
 * With `token`, the byte after the number must end a token
 * (atd__char_class). Returns the end of the number with *out set, or NULL
 * (*out untouched) for anything else: the general parse then decides and
 * finds the exact end or the syntax error. */
static ATD__HOT_INLINE const char *parse_fast(const char *start, bool token, double *out)
{
    const char *p = atd__past_byte(start, '-'); /* (the sign is read again at the end) */
    uint64_t t = digit_values(load8(p));
    /* 7 when there are 7 or more digits (then the byte at p + 7 decides) */
    unsigned n = (unsigned)atd__ctz64(nondigit_flags(t) | (uint64_t)1 << 63) / 8;
    /* no digit, or a "0" followed by a digit */
    if (n == 0 || ((t & 0xFF) == 0 && n > 1))
        return NULL;
    uint64_t w = eight_digits(t << (64 - 8 * n));
    p += n;
    if (*p != '.')
        return finish_fast(start, p, token, w, 0, out);
    unsigned k;
    uint64_t f = sixteen_digits(p + 1, &k);
    if (k == 0) /* "1." */
        return NULL;
    p += 1 + k;
    if (n <= 3)
        return finish_fast(start, p, token, w * 10000000000000000 + f, 16, out);
    if (k > 8)
        return NULL;
    return finish_fast(start, p, token, w * 100000000 + f / 100000000, 8, out);
}
#endif

const char *atd_parse_double_prefix(const char *p, const char *end, double *out)
{
#ifdef HAVE_SWAR
    if (ATD_LIKELY(end - p >= FAST_SPAN)) {
        const char *q = parse_fast(p, false, out);
        if (ATD_LIKELY(q != NULL))
            return q;
    }
#endif
    return atd__parse_double_general(p, end, out);
}

const char *atd__read_double_token(atd_reader *r, const char *p, double *out)
{
#ifdef HAVE_SWAR
    if (ATD_LIKELY(r->end - p >= FAST_SPAN)) {
        const char *q = parse_fast(p, true, out);
        if (ATD_LIKELY(q != NULL))
            return q;
    }
#endif
    return atd__read_double_slow(r, p, out);
}
