/* Number printing: integers, and doubles as the shortest decimal that reads
 * back to the same bits, laid out like yojson's "%.16g"/"%.17g" output.
 *
 * Integers are written two digits per step from a 200-byte "00".."99" table.
 * Doubles use Schubfach (R. Giulietti, "The Schubfach way to render
 * doubles", 2020): the rounding interval of the double is scaled by a power
 * of ten taken from pow10_table.c so that it holds between 1 and 10 integers;
 * a multiple of ten inside it gives the shorter result, otherwise the integer
 * nearest the scaled value does. The scaled bounds are computed with
 * round-to-odd 128 x 64-bit products, which keeps every comparison exact.
 * Unlike Java, which the paper targets and which wants two digits at least,
 * the coarser candidate is tried for any scaled value, so 4.9406564584124654e-323
 * (ten times the smallest subnormal) prints as "5e-323". The digits of
 * the usual 16 or 17 come from SSE2 vector splits, or from AVX-512 IFMA
 * multiply-adds where the CPU has them (chosen at run time, cpu.h).
 *
 * atd_write_double_precision is not on a hot path: it rounds the exact
 * decimal expansion of the double (number_bigdec.c), like glibc's printf. */
#include "atd/number.h"

#include <string.h>

#include "cpu.h"
#include "number_bigdec.h"
#include "number_shortest.h"
#include "pow10_table.h"

/* The rare cases out of line where the usual one is inline before them. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

static const char digit_pairs[200] = {
    '0', '0', '0', '1', '0', '2', '0', '3', '0', '4', '0', '5', '0', '6', '0', '7', '0', '8', '0',
    '9', '1', '0', '1', '1', '1', '2', '1', '3', '1', '4', '1', '5', '1', '6', '1', '7', '1', '8',
    '1', '9', '2', '0', '2', '1', '2', '2', '2', '3', '2', '4', '2', '5', '2', '6', '2', '7', '2',
    '8', '2', '9', '3', '0', '3', '1', '3', '2', '3', '3', '3', '4', '3', '5', '3', '6', '3', '7',
    '3', '8', '3', '9', '4', '0', '4', '1', '4', '2', '4', '3', '4', '4', '4', '5', '4', '6', '4',
    '7', '4', '8', '4', '9', '5', '0', '5', '1', '5', '2', '5', '3', '5', '4', '5', '5', '5', '6',
    '5', '7', '5', '8', '5', '9', '6', '0', '6', '1', '6', '2', '6', '3', '6', '4', '6', '5', '6',
    '6', '6', '7', '6', '8', '6', '9', '7', '0', '7', '1', '7', '2', '7', '3', '7', '4', '7', '5',
    '7', '6', '7', '7', '7', '8', '7', '9', '8', '0', '8', '1', '8', '2', '8', '3', '8', '4', '8',
    '5', '8', '6', '8', '7', '8', '8', '8', '9', '9', '0', '9', '1', '9', '2', '9', '3', '9', '4',
    '9', '5', '9', '6', '9', '7', '9', '8', '9', '9'};

/* ------------------------------------------------------------------------
 * Integers
 * ------------------------------------------------------------------------ */

static inline int count_digits_u32(uint32_t v)
{
    int n = 1;
    while (v >= 10000) {
        v /= 10000;
        n += 4;
    }
    return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define DIGITS_SWAR 1
#else
#define DIGITS_SWAR 0
#endif

/* SSE2 is the x86-64 baseline: the 16 digits of a double in one register. */
#if DIGITS_SWAR && defined(__SSE2__) && !defined(ATD_NO_SIMD)
#define DIGITS_SSE2 1
#include <emmintrin.h>
#else
#define DIGITS_SSE2 0
#endif

/* The same 16 digits by AVX-512 IFMA, where the CPU has it (cpu.h). */
#if DIGITS_SSE2 && ATD__HAVE_AVX512_KERNELS
#define DIGITS_IFMA 1
#include <immintrin.h>
#else
#define DIGITS_IFMA 0
#endif

#if DIGITS_SWAR
/* The 8 decimal digits of v < 10^8 as byte values 0..9 in one word, the
 * first digit in the lowest byte (memory order on little-endian). Each step
 * splits every lane in two with a multiply-shift division that is exact for
 * the lane's range: 10^4 per 32-bit lane, then 100 per 16-bit lane (v * 5243
 * >> 19 is v / 100 for v < 43699), then 10 per byte (v * 103 >> 10 is v / 10
 * for v < 179). No product crosses into the next lane. */
static inline uint64_t digits8(uint32_t v)
{
    uint64_t x = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
    uint64_t hundreds = ((x * 5243) >> 19) & UINT64_C(0x0000007f0000007f);
    uint64_t y = hundreds | (x - hundreds * 100) << 16;
    uint64_t tens = ((y * 103) >> 10) & UINT64_C(0x000f000f000f000f);
    return tens | (y - tens * 10) << 8;
}
#endif

#define ASCII_ZEROS UINT64_C(0x3030303030303030)

/* Writes exactly 8 digits (v < 10^8), with leading zeros. */
static inline void write_8digits(char *p, uint32_t v)
{
#if DIGITS_SWAR
    uint64_t w = digits8(v) + ASCII_ZEROS;
    memcpy(p, &w, 8);
#else
    uint32_t hi = v / 10000, lo = v % 10000;
    memcpy(p, digit_pairs + 2 * (hi / 100), 2);
    memcpy(p + 2, digit_pairs + 2 * (hi % 100), 2);
    memcpy(p + 4, digit_pairs + 2 * (lo / 100), 2);
    memcpy(p + 6, digit_pairs + 2 * (lo % 100), 2);
#endif
}

/* Writes v < 100 in 1 or 2 digits. Two bytes are stored either way (the
 * pair of "0v" starts one byte earlier for v < 10), so the caller's room
 * must allow one more byte than the digits. */
static inline char *write_1to2(char *p, uint32_t v)
{
    bool one = v < 10;
    memcpy(p, digit_pairs + 2 * v + one, 2);
    return p + 2 - one;
}

/* Writes v < 10^(2m + 2) given y, v / 10^(2m) in 32.32 fixed point: the
 * integer part is the leading pair (1 or 2 digits, or always 2 with
 * `full`), and each step multiplies the fraction by 100, which brings the
 * next pair into the integer part. One product and one table load per
 * pair, and no division: no pair waits for another's remainder. The
 * constants of write_u32 round 2^32 / 10^(2m) up (for m = 3 after a shift,
 * plus one); an exhaustive run over every v below 10^(2m + 2) showed every
 * pair they give to be exact. */
static inline uint64_t next_pair(char *p, uint64_t y)
{
    y = (uint64_t)(uint32_t)y * 100;
    memcpy(p, digit_pairs + 2 * (y >> 32), 2);
    return y;
}

static ATD__HOT_INLINE char *write_pairs(char *p, uint64_t y, int m, bool full)
{
    /* m is 1 to 3 */
    uint32_t lead = (uint32_t)(y >> 32);
    if (full) {
        memcpy(p, digit_pairs + 2 * lead, 2);
        p += 2;
    } else {
        p = write_1to2(p, lead);
    }
    /* unrolled by hand: GCC -O2 keeps a loop of constant trip count */
    if (m >= 1)
        y = next_pair(p, y);
    if (m >= 2)
        y = next_pair(p + 2, y);
    if (m >= 3)
        y = next_pair(p + 4, y);
    return p + 2 * m;
}

/* v / 10^6 in 32.32 fixed point for v < 10^8 (see write_pairs) */
static inline uint64_t fixed_div_1e6(uint32_t v)
{
    return ((uint64_t)v * 140737489 >> 15) + 1;
}

/* Writes v without leading zeros; returns the end. Branches on the
 * magnitude only (two comparisons from six digits up, where ids and
 * timestamps are, three below), then writes the digits in pairs. */
static ATD__HOT_INLINE char *write_u32(char *p, uint32_t v)
{
    if (v < 1000000) {
        if (v < 10000) {
            if (v < 100)
                return write_1to2(p, v);
            return write_pairs(p, (uint64_t)v * 42949673, 1, false);
        }
        return write_pairs(p, (uint64_t)v * 429497, 2, false);
    }
    if (v < 100000000)
        return write_pairs(p, fixed_div_1e6(v), 3, false);
    /* 9 or 10 digits: the leading 1 or 2, then 8 with leading zeros */
    uint32_t hi = v / 100000000;
    p = write_1to2(p, hi);
    return write_pairs(p, fixed_div_1e6(v - hi * 100000000), 3, true);
}

/* More than 10 digits: rare (timestamps, large ids), out of line. */
static NOINLINE char *write_u64_long(char *p, uint64_t v)
{
    if (v < 10000000000000000u) {
        p = write_u32(p, (uint32_t)(v / 100000000));
        write_8digits(p, (uint32_t)(v % 100000000));
        return p + 8;
    }
    uint64_t top = v / 100000000;
    p = write_u32(p, (uint32_t)(top / 100000000));
    write_8digits(p, (uint32_t)(top % 100000000));
    write_8digits(p + 8, (uint32_t)(v % 100000000));
    return p + 16;
}

/* Both entry points do their work in one function, with no call on the way
 * for the usual sizes. */
static ATD__HOT_INLINE char *write_u64(char *p, uint64_t v)
{
    if (ATD_LIKELY(v <= UINT32_MAX))
        return write_u32(p, (uint32_t)v);
    return write_u64_long(p, v);
}

char *atd_write_uint64(char *p, uint64_t v)
{
    return write_u64(p, v);
}

char *atd_write_int64(char *p, int64_t v)
{
    /* the sign without a branch: the '-' is overwritten when v >= 0; 0 - v
     * in unsigned arithmetic is also right for INT64_MIN */
    *p = '-';
    p += (uint64_t)v >> 63;
    return write_u64(p, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

/* ------------------------------------------------------------------------
 * Shortest digits (Schubfach)
 * ------------------------------------------------------------------------ */

/* Round-to-odd of g * cp / 2^128: the integer part, with its lowest bit set
 * when the fraction is nonzero. The table over-estimates g by less than one
 * unit, so the computed fraction exceeds the true one by less than 2^-64;
 * Schubfach's analysis shows a nonzero true fraction is never that small,
 * nor that close to one. */
static inline uint64_t round_to_odd(const atd__u128 *g, uint64_t cp)
{
    uint64_t x0, y0;
    uint64_t x1 = atd__mul64(g->lo, cp, &x0);
    uint64_t y1 = atd__mul64(g->hi, cp, &y0);
    uint64_t z = y0 + x1;
    y1 += z < y0;
    return y1 | (z != 0);
}

/* Shortest (closest among shortest) decimal f * 10^*e10 for a finite v > 0;
 * f may end with zeros. */
static inline uint64_t shortest(double v, int *e10)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    uint64_t t = bits & (((uint64_t)1 << 52) - 1);
    int be = (int)((bits >> 52) & 0x7FF);
    uint64_t c = t;
    int q = -1074;
    if (be != 0) {
        c |= (uint64_t)1 << 52;
        q = be - 1075;
    }
    /* v = c * 2^q, rounding interval [cl, cr] * 2^q, closed when c is even
     * (ties read back to even); its lower half is narrower at a power of
     * two, except for the smallest normal exponent */
    uint64_t cb = c << 2, cbr = cb + 2, cbl;
    int k;
    if (t != 0 || be <= 1) {
        cbl = cb - 2;
        k = atd__floor_log10_pow2(q);
    } else {
        cbl = cb - 1;
        k = atd__floor_log10_three_quarters_pow2(q);
    }
    /* the entry for 10^-k is g * 2^(floor(-k log2 10) - 127); h in 1..4
     * makes (c * 4 << h) * g / 2^128 = 4 * v * 10^-k */
    const atd__u128 *g = &atd__pow10_table[-k - ATD__POW10_MIN];
    int h = q + atd__floor_log2_pow10(-k) + 1;
    uint64_t vb = round_to_odd(g, cb << h);
    uint64_t vbl = round_to_odd(g, cbl << h);
    uint64_t vbr = round_to_odd(g, cbr << h);
    uint64_t out = c & 1; /* open interval: bounds excluded */
    uint64_t s = vb >> 2;

    /* at most one multiple of ten fits in the interval */
    uint64_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
    bool upin = vbl + out <= sp10 << 2;
    bool wpin = (tp10 << 2) + out <= vbr;
    *e10 = k;
    if (upin != wpin)
        return upin ? sp10 : tp10;

    uint64_t u = s, w = s + 1;
    bool uin = vbl + out <= u << 2;
    bool win = (w << 2) + out <= vbr;
    if (uin != win)
        return uin ? u : w;
    /* both in: the nearer one, the even one on a tie (vb is 4 * v, 2(u + w)
     * is 4 * the midpoint) */
    uint64_t mid = (u + w) << 1;
    return vb < mid || (vb == mid && !(u & 1)) ? u : w;
}

/* The same result as shortest() for a double whose neighbours are evenly
 * spaced (t != 0, or the smallest exponents), with one 128-bit product and
 * no loop: false when a comparison is too close to call with the truncated
 * quantities, and then shortest() decides.
 *
 * With k = floor(q log10 2), one unit in the last place of v, 2^q / 10^k,
 * lies in [1, 10) once v is scaled by 10^-k: the scaled v has an integer
 * part s (16 or 17 digits for normal doubles) and a fraction, and the
 * rounding interval is v +- half an ulp. At most one multiple of ten fits in
 * that interval (its width is below 10); if one does, it is the shorter
 * result, either d = s - s % 10 (when v - d <= half) or d + 10 (when
 * d + 10 - v <= half). Otherwise the integer nearest v is inside (half an
 * ulp is at least 1/2) and is the result. The positions within the decade
 * [d, d + 10) are kept in 4.60 fixed point (every one is below 16). Each
 * computed quantity is within one unit of the exact one (the table entry
 * over-estimates 10^-k by less than 2^-127 of it, the shifts truncate), so
 * a comparison whose sides differ by two units or more is exact; the ties
 * that the closed or open interval decides, and the half-way case that
 * rounds to even, are among the close ones. *zero_end is false when f
 * cannot end with a zero digit.
 * `branch_free` (a constant at each call) picks the coarse candidate by a
 * select instead of a branch: slower for one number, whose digits then wait
 * for the decision, faster for two printed side by side (write_pair), where
 * the other number's work fills that wait and a mispredicted branch would
 * throw both away. */
static ATD__HOT_INLINE bool shortest_fast(uint64_t c, int q, uint64_t *f, int *e10,
                                          bool *zero_end, bool branch_free)
{
    /* k = floor(q log10 2) as in atd__floor_log10_pow2; the bits below
     * the point are phi = q log10 2 - k in 0.18 fixed point */
    int32_t qk = q * 78913;
    int k = atd__floor_shift(qk, 18);
    const atd__u128 *g = &atd__pow10_table[-k - ATD__POW10_MIN];
    /* h in 0..3: (c << (h + 1)) * g / 2^128 is v * 10^-k. h = q +
     * floor(-k log2 10) is floor(phi log2 10), since q = (k + phi) log2 10;
     * from phi it takes one product that does not wait for k (3402 / 2^10
     * approximates log2 10; the unit test's every-exponent case checks the
     * result against the exact route for every q) */
    int h = (int)(((uint32_t)qk & 0x3FFFF) * 3402 >> 28);
    uint64_t cb = c << (h + 1);
    uint64_t lo_lo, lo_hi = atd__mul64(g->lo, cb, &lo_lo);
    uint64_t hi_lo, s = atd__mul64(g->hi, cb, &hi_lo);
    uint64_t frac = hi_lo + lo_hi; /* top 64 bits of the fraction */
    s += frac < hi_lo;
    uint64_t digit = s % 10;
    uint64_t pos = digit << 60 | frac >> 4; /* v - d */
    uint64_t half = g->hi >> (4 - h);       /* half an ulp, below 2^61 */
    uint64_t ten = (uint64_t)10 << 60;
    uint64_t end = pos + half; /* v + half - d */
    const uint64_t half_frac = (uint64_t)1 << 63;
    /* Usually f is the integer nearest v, s + (frac >> 63), computed
     * without s % 10 so that the digits can start before the tests below
     * are decided (a branch, not a select, so that f does not wait for
     * them); whether it may end with a zero is known long before its
     * digits are. */
    uint64_t round = frac >> 63, last = digit + round;
    *f = s + round;
    *zero_end = last == 0 || last == 10;
    *e10 = k;
    /* One test for the rare cases: d inside or close to the lower bound
     * (pos <= half + 1), d + 10 inside or close to the upper one (end + 1
     * >= ten), v close to half-way between two integers. Among them, the
     * close calls (|a - b| <= 1 as (a - b + 1) <= 2 in unsigned arithmetic)
     * go to shortest(); in the others d (half > pos) or d + 10 (end > ten)
     * is inside: the coarse candidate. */
    bool rare = (pos <= half + 1) | (end + 1 >= ten) | (frac - half_frac + 1 <= 2);
    if (branch_free) {
        bool close = (pos - half + 1 <= 2) | (end - ten + 1 <= 2) | (frac - half_frac + 1 <= 2);
        if (ATD_UNLIKELY(close))
            return false;
        uint64_t coarse = s - digit + 10 * (end > ten);
        *f = rare ? coarse : *f;
        *zero_end |= rare;
    } else if (ATD_UNLIKELY(rare)) {
        bool close = (pos - half + 1 <= 2) | (end - ten + 1 <= 2) | (frac - half_frac + 1 <= 2);
        if (close)
            return false;
        *f = s - digit + 10 * (end > ten);
        *zero_end = true;
    }
    return true;
}

/* The significand c and exponent q of a finite v > 0 (v = c * 2^q); true
 * when its neighbours are evenly spaced (not a power of two above the
 * smallest normal exponent), as shortest_fast() needs. */
static inline bool decode(uint64_t bits, uint64_t *c, int *q)
{
    uint64_t t = bits & (((uint64_t)1 << 52) - 1);
    int be = (int)(bits >> 52);
    *c = be != 0 ? t | (uint64_t)1 << 52 : t;
    *q = be != 0 ? be - 1075 : -1074;
    return t != 0 || be <= 1;
}

uint64_t atd__shortest_exact(double v, int *e10)
{
    return shortest(v, e10);
}

bool atd__shortest_fast(double v, uint64_t *f, int *e10)
{
    uint64_t bits, c;
    int q;
    bool zero_end;
    memcpy(&bits, &v, sizeof bits);
    return decode(bits, &c, &q) && shortest_fast(c, q, f, e10, &zero_end, false);
}

/* Removes trailing zeros from f > 0, adding them to *e10. */
static inline uint64_t strip_zeros(uint64_t f, int *e10)
{
    if (f % 100000000 == 0) {
        f /= 100000000;
        *e10 += 8;
    }
    while (f % 10 == 0) {
        f /= 10;
        *e10 += 1;
    }
    return f;
}

static inline int count_digits_u64(uint64_t v)
{
    int n = 1;
    while (v >= 100000000) {
        v /= 100000000;
        n += 8;
    }
    return n + count_digits_u32((uint32_t)v) - 1;
}

/* Writes the n digits of f (n = count_digits_u64(f) <= 17) at p: the
 * leading group first, since write_u32 may store one byte past its digits,
 * then the groups of eight that overwrite it. */
static inline void write_digits(char *p, uint64_t f, int n)
{
    if (n > 16) {
        write_u32(p, (uint32_t)(f / 10000000000000000u));
        f %= 10000000000000000u;
    } else if (n > 8) {
        write_u32(p, (uint32_t)(f / 100000000));
    } else {
        write_u32(p, (uint32_t)f);
        return;
    }
    if (n > 16)
        write_8digits(p + n - 16, (uint32_t)(f / 100000000));
    write_8digits(p + n - 8, (uint32_t)(f % 100000000));
}

int atd_double_shortest(double v, char digits[17], int *exp10)
{
    int e10;
    uint64_t f = strip_zeros(shortest(v, &e10), &e10);
    int n = count_digits_u64(f);
    write_digits(digits, f, n);
    *exp10 = e10;
    return n;
}

/* ------------------------------------------------------------------------
 * Layout
 * ------------------------------------------------------------------------ */

/* Writes the n digits d[0..n) (no trailing zeros, n >= 1) of a value whose
 * leading digit has weight 10^x, in "%.<prec>g" layout plus the ".0" rule. */
static char *layout(char *p, const char *d, int n, int x, int prec)
{
    if (x < -4 || x >= prec) {
        *p++ = d[0];
        if (n > 1) {
            *p++ = '.';
            memcpy(p, d + 1, (size_t)(n - 1));
            p += n - 1;
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        unsigned ax = (unsigned)(x < 0 ? -x : x);
        if (ax >= 100) {
            *p++ = (char)('0' + ax / 100);
            ax %= 100;
        }
        memcpy(p, digit_pairs + 2 * ax, 2);
        return p + 2;
    }
    if (x < 0) {
        /* 0.000ddd */
        memcpy(p, "0.000", (size_t)(1 - x));
        p += 1 - x;
        memcpy(p, d, (size_t)n);
        return p + n;
    }
    if (n <= x + 1) {
        /* an integer: ddd000.0 */
        memcpy(p, d, (size_t)n);
        p += n;
        memset(p, '0', (size_t)(x + 1 - n));
        p += x + 1 - n;
        memcpy(p, ".0", 2);
        return p + 2;
    }
    memcpy(p, d, (size_t)(x + 1));
    p += x + 1;
    *p++ = '.';
    memcpy(p, d + x + 1, (size_t)(n - x - 1));
    return p + (n - x - 1);
}

#if DIGITS_SWAR
/* layout() for digits d[0..n) followed by at least 24 readable bytes of
 * '0': every copy has a fixed size (digits past the end are overwritten or
 * left beyond the returned end), within ATD_DOUBLE_CHARS of p - 1 (room for
 * a sign). Rare shapes (a point after the 14th digit) go to layout(). */
static inline char *layout_fixed(char *p, const char *d, int n, int x, int prec)
{
    if (x >= 0 && x < prec) {
        if (x >= n - 1) {
            /* an integer: the padding supplies the zeros, then ".0" */
            memcpy(p, d, 24);
            p += x + 1;
            memcpy(p, ".0", 2);
            return p + 2;
        }
        if (x <= 13) {
            /* ddd.ddd: the digits, then the fraction again one byte later */
            memcpy(p, d, 16);
            memcpy(p + x + 2, d + x + 1, 16);
            p[x + 1] = '.';
            return p + n + 1;
        }
        return layout(p, d, n, x, prec);
    }
    if (x < 0 && x >= -4) {
        /* 0.000ddd */
        memcpy(p, "0.000000", 8);
        p += 1 - x;
        memcpy(p, d, 24);
        return p + n;
    }
    *p = d[0];
    if (n > 1) {
        p[1] = '.';
        memcpy(p + 2, d + 1, 16);
        p += n + 1;
    } else {
        p += 1;
    }
    *p++ = 'e';
    *p++ = x < 0 ? '-' : '+';
    unsigned ax = (unsigned)(x < 0 ? -x : x);
    if (ax >= 100) {
        *p++ = (char)('0' + ax / 100);
        ax %= 100;
    }
    memcpy(p, digit_pairs + 2 * ax, 2);
    return p + 2;
}

#if !DIGITS_SSE2
/* Byte count of the trailing zero digits of a digits8() word (w != 0); the
 * SSE2 route finds them in its registers instead. */
static inline int trailing_zero_digits(uint64_t w)
{
    return __builtin_clzll(w) >> 3;
}
#endif
#endif

#if DIGITS_SSE2
/* x * c per 16-bit lane as one pmullw: GCC otherwise spells a vector
 * multiply by a known constant as a longer chain of shifts and adds. */
static inline __m128i mul16_const(__m128i x, short c)
{
    __m128i k = _mm_set1_epi16(c);
#if defined(__GNUC__)
    __asm__("" : "+x"(k));
#endif
    return _mm_mullo_epi16(x, k);
}

/* The 16 digits of hi * 10^8 + lo (hi, lo < 10^8) as ASCII, the first in
 * byte 0: each 64-bit lane holds one half, split into 32-bit lanes of four
 * digits (multiply-shift by 2^45 / 10^4, exact below 2^32), then 16-bit
 * lanes of two (x * 5243 >> 19 is x / 100 below 43699), then bytes
 * (y * 6554 >> 16 is y / 10 below 100). No lane's product reaches the next. */
static inline __m128i digits16(uint32_t hi, uint32_t lo)
{
    __m128i v = _mm_set_epi64x((long long)lo, (long long)hi);
    __m128i q = _mm_srli_epi64(_mm_mul_epu32(v, _mm_set1_epi64x(0xd1b71759)), 45);
    __m128i r = _mm_sub_epi32(v, _mm_mul_epu32(q, _mm_set1_epi64x(10000)));
    __m128i x = _mm_or_si128(q, _mm_slli_epi64(r, 32));
    __m128i h = _mm_srli_epi16(_mm_mulhi_epu16(x, _mm_set1_epi32(5243)), 3);
    __m128i y = _mm_or_si128(h, _mm_slli_epi32(_mm_sub_epi16(x, mul16_const(h, 100)), 16));
    __m128i t = _mm_mulhi_epu16(y, _mm_set1_epi16(6554));
    __m128i z = _mm_or_si128(t, _mm_slli_epi16(_mm_sub_epi16(y, mul16_const(t, 10)), 8));
    return _mm_add_epi8(z, _mm_set1_epi8('0'));
}

#if DIGITS_IFMA
/* digits16 in two multiply-adds per eight digits, whose latency is about
 * half of digits16's chain of splits (one double's digits wait for its
 * shortest digits, so this chain bounds how many doubles are in flight).
 * Lane i of a 64-bit lane vector holds digit i of an 8-digit x (the first
 * at i = 0), the leading digit of x mod 10^j for j = 8 - i: the low 52
 * bits of x * c_j are the fraction (x mod 10^j) / 10^j in 0.52 fixed point,
 * and the high bits of that fraction times 10 are the digit. c_j is
 * 2^52 / 10^j rounded up, whose excess x * (c_j - 2^52 / 10^j) stays below
 * the fraction's distance to the next digit, 2^52 / 10^j, for j <= 7. For
 * j = 8 it would not: c_8 is rounded down, and 36000000 added, which covers
 * the deficit (below 0.28 x) and stays below 2^52 / 10^8 (about 4.5 * 10^7).
 * Every x below 10^8 prints exact (test_number: write_every_digit_group).
 * A byte permute gathers the sixteen digits, '0' added by the second
 * multiply-add. */
static ATD__TARGET_AVX512_IFMA inline __m128i digits16_ifma(uint32_t hi, uint32_t lo)
{
    const __m512i fraction_of =
        _mm512_setr_epi64(0x2af31dc, 0x1ad7f29b, 0x10c6f7a0c, 0xa7c5ac472, 0x68db8bac72,
                          0x4189374bc6b, 0x28f5c28f5c29, 0x199999999999a);
    const __m512i bias = _mm512_setr_epi64(36000000, 0, 0, 0, 0, 0, 0, 0);
    const __m512i ten = _mm512_set1_epi64(10), zero = _mm512_set1_epi64('0');
    /* byte 0 of every lane: lanes 0..7 of fh, then of fl */
    const __m512i gather =
        _mm512_setr_epi64(0x3830282018100800, 0x7870686058504840, 0, 0, 0, 0, 0, 0);
    __m512i fh = _mm512_madd52lo_epu64(bias, _mm512_set1_epi64(hi), fraction_of);
    __m512i fl = _mm512_madd52lo_epu64(bias, _mm512_set1_epi64(lo), fraction_of);
    __m512i dh = _mm512_madd52hi_epu64(zero, fh, ten);
    __m512i dl = _mm512_madd52hi_epu64(zero, fl, ten);
    return _mm512_castsi512_si128(_mm512_permutex2var_epi8(dh, gather, dl));
}
#endif

/* For the shape ddd.ddd with x + 1 digits before the point (x in 0..6):
 * output byte i is digit i (i <= x), '.' (i = x + 1) or digit i - 1. As
 * masks over the digits, the digits one byte later, and the point. */
typedef struct point_masks {
    /* 64-byte rows (48 bytes and padding): a row is indexed with one shift */
    _Alignas(64) unsigned char same[16];
    unsigned char shifted[16], point[16];
} point_masks;

#define PM_ROW(x)                                                                                  \
    {                                                                                              \
        {PM_B(x, 0, <=),  PM_B(x, 1, <=),  PM_B(x, 2, <=),  PM_B(x, 3, <=),                        \
         PM_B(x, 4, <=),  PM_B(x, 5, <=),  PM_B(x, 6, <=),  PM_B(x, 7, <=),                        \
         PM_B(x, 8, <=),  PM_B(x, 9, <=),  PM_B(x, 10, <=), PM_B(x, 11, <=),                       \
         PM_B(x, 12, <=), PM_B(x, 13, <=), PM_B(x, 14, <=), PM_B(x, 15, <=)},                      \
            {PM_B(x, 0, >),  PM_B(x, 1, >),  PM_B(x, 2, >),  PM_B(x, 3, >),                        \
             PM_B(x, 4, >),  PM_B(x, 5, >),  PM_B(x, 6, >),  PM_B(x, 7, >),                        \
             PM_B(x, 8, >),  PM_B(x, 9, >),  PM_B(x, 10, >), PM_B(x, 11, >),                       \
             PM_B(x, 12, >), PM_B(x, 13, >), PM_B(x, 14, >), PM_B(x, 15, >)},                      \
        {                                                                                          \
            PM_P(x, 0), PM_P(x, 1), PM_P(x, 2), PM_P(x, 3), PM_P(x, 4), PM_P(x, 5), PM_P(x, 6),    \
                PM_P(x, 7), PM_P(x, 8), PM_P(x, 9), PM_P(x, 10), PM_P(x, 11), PM_P(x, 12),         \
                PM_P(x, 13), PM_P(x, 14), PM_P(x, 15)                                              \
        }                                                                                          \
    }
/* digit bytes: i <= x keeps digit i; i > x + 1 takes digit i - 1 */
#define PM_B(x, i, op) ((i op(x)) && (i) != (x) + 1 ? 0xff : 0)
#define PM_P(x, i) ((i) == (x) + 1 ? '.' : 0)
static const point_masks point_table[7] = {PM_ROW(0), PM_ROW(1), PM_ROW(2), PM_ROW(3),
                                           PM_ROW(4), PM_ROW(5), PM_ROW(6)};
#undef PM_ROW
#undef PM_B
#undef PM_P

/* The shapes of write_16_17 other than ddd.ddd with a short integer part:
 * the 17 digits s[0..16) and d16, n of them significant. */
static NOINLINE char *write_17_other(char *p, __m128i s, char d16, int n, int x)
{
    char buf[48];
    _mm_storeu_si128((__m128i *)(void *)buf, s);
    buf[16] = d16;
    memset(buf + 17, '0', sizeof buf - 17);
    /* yojson prints with %.17g exactly when 16 digits do not read back */
    return layout_fixed(p, buf, n, x, n == 17 ? 17 : 16);
}

/* The digits by the kernel that the caller was compiled for. */
static ATD__HOT_INLINE __m128i digits16_of(uint32_t hi, uint32_t lo, bool ifma)
{
#if DIGITS_IFMA
    if (ifma)
        return digits16_ifma(hi, lo);
#endif
    (void)ifma;
    return digits16(hi, lo);
}

/* atd_write_double for f in [10^15, 10^17) (every normal double on the
 * fast route), laid out as 17 digits (a 16-digit f gets a zero after it):
 * digits16 or digits16_ifma prints 16 of them, and a 17-digit f's leading
 * one comes apart.
 * The number of digits left once trailing zeros are dropped decides where
 * the next value goes; it is known without looking at the digits unless f
 * may end with a zero. */
static ATD__HOT_INLINE char *write_16_17(char *p, uint64_t f, int e10, bool zero_end, bool ifma)
{
    int lead = f < 10000000000000000u; /* 16 digits */
    __m128i d, s;                      /* s: the first 16 of the 17 */
    int last2;                         /* the 16th and 17th */
    if (lead) {
        uint64_t hi8 = f / 100000000;
        d = digits16_of((uint32_t)hi8, (uint32_t)(f - hi8 * 100000000), ifma);
        s = d;
        last2 = _mm_extract_epi16(d, 7) >> 8 | '0' << 8;
    } else {
        /* h0 straight from f, not from hi9: both quotients at once */
        uint64_t hi9 = f / 100000000;
        uint32_t lo8 = (uint32_t)(f - hi9 * 100000000);
        uint32_t h0 = (uint32_t)hi9 / 100000000; /* 1..9 */
        uint32_t hi8 = (uint32_t)hi9 - h0 * 100000000;
        d = digits16_of(hi8, lo8, ifma); /* digits 1..16 */
        s = _mm_or_si128(_mm_slli_si128(d, 1), _mm_cvtsi32_si128((int)('0' + h0)));
        last2 = _mm_extract_epi16(d, 7);
    }
    e10 -= lead;
    /* the 17th place of a 16-digit f is a zero; d's last digit is the
     * 17th or the 16th, and d cannot be all zeros when f has 16 digits */
    int tz = lead;
    if (zero_end) {
        unsigned nonzero =
            ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_set1_epi8('0'))) & 0xffff;
        tz += nonzero != 0 ? __builtin_clz(nonzero) - 16 : 16;
    }
    int n = 17 - tz;
    int x = e10 + 16;
    if (x >= 0 && x <= 6 && x < n - 1) {
        const point_masks *m = &point_table[x];
        __m128i o = _mm_or_si128(
            _mm_or_si128(_mm_and_si128(s, _mm_load_si128((const __m128i *)(const void *)m->same)),
                         _mm_and_si128(_mm_slli_si128(s, 1),
                                       _mm_load_si128((const __m128i *)(const void *)m->shifted))),
            _mm_load_si128((const __m128i *)(const void *)m->point));
        _mm_storeu_si128((__m128i *)(void *)p, o);
        uint16_t tail = (uint16_t)last2;
        memcpy(p + 16, &tail, 2);
        return p + n + 1;
    }
    return write_17_other(p, s, (char)(last2 >> 8), n, x);
}
#endif

/* atd_write_double for a finite v after its sign (with SSE2, what the
 * inline usual case leaves). v comes as the double, so that the inline case
 * keeps no integer register for it. */
#if DIGITS_SSE2
static NOINLINE char *write_positive(char *p, double v)
#else
static inline char *write_positive(char *p, double v)
#endif
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits &= ~((uint64_t)1 << 63);
    if (bits == 0) {
        memcpy(p, "0.0", 3);
        return p + 3;
    }
    int e10;
    uint64_t f;
    uint64_t c;
    int q;
    bool zero_end;
    if (ATD_UNLIKELY(!decode(bits, &c, &q) || !shortest_fast(c, q, &f, &e10, &zero_end, false))) {
        double a;
        memcpy(&a, &bits, sizeof a);
        f = shortest(a, &e10);
        zero_end = true;
    }
#if DIGITS_SSE2
    if (f >= 1000000000000000u && f < 100000000000000000u)
        return write_16_17(p, f, e10, zero_end, false);
#elif DIGITS_SWAR
    /* Normal doubles give 16 or 17 digits (f is within 10x of the 53-bit
     * significand): print all 17 places at once, f = h0 | 8 digits | 8
     * digits, then find the leading and trailing zeros without dividing. */
    if (f >= 1000000000000000u && f < 100000000000000000u) {
        uint64_t hi = f / 100000000;
        uint32_t h0 = (uint32_t)(hi / 100000000);
        uint64_t wh = digits8((uint32_t)(hi % 100000000));
        uint64_t wl = digits8((uint32_t)(f % 100000000));
        uint64_t ah = wh + ASCII_ZEROS, al = wl + ASCII_ZEROS;
        int lead = h0 == 0; /* f >= 10^15, so wh != 0 then */
        /* The length decides where the next value goes: known from
         * zero_end alone in the usual case, it does not wait for the
         * digits. */
        int tz = 0;
        if (zero_end)
            tz = wl != 0 ? trailing_zero_digits(wl) : 8 + (wh != 0 ? trailing_zero_digits(wh) : 8);
        int n = 17 - lead - tz;
        int x = e10 + 16 - lead;
        if (x >= 0 && x <= 6 && x < n - 1) {
            /* ddd.ddd with the point among the first 8 digits, the most
             * frequent shape: the digits, in three words w0 w1 w2 in
             * memory order, are shifted by one byte after the point in
             * registers and stored once, with no staging buffer (whose
             * reloads across several stores would stall). */
            uint64_t w0 = lead ? ah : ('0' + h0) | ah << 8;
            uint64_t w1 = lead ? al : ah >> 56 | al << 8;
            uint64_t w2 = lead ? 0 : al >> 56;
            unsigned point = 8 * ((unsigned)x + 1); /* bits before the point, <= 56 */
            uint64_t low = ((uint64_t)1 << point) - 1;
            uint64_t o0 = (w0 & low) | (uint64_t)'.' << point | (w0 & ~low) << 8;
            uint64_t o1 = w0 >> 56 | w1 << 8;
            uint64_t o2 = w1 >> 56 | w2 << 8;
            memcpy(p, &o0, 8);
            memcpy(p + 8, &o1, 8);
            memcpy(p + 16, &o2, 8);
            return p + n + 1;
        }
        char d[40];
        d[0] = (char)('0' + h0);
        memcpy(d + 1, &ah, 8);
        memcpy(d + 9, &al, 8);
        const uint64_t zeros = ASCII_ZEROS;
        memcpy(d + 17, &zeros, 8);
        memcpy(d + 25, &zeros, 8);
        memcpy(d + 32, &zeros, 8);
        /* yojson prints with %.17g exactly when 16 digits do not read back */
        return layout_fixed(p, d + lead, n, x, n == 17 ? 17 : 16);
    }
#endif
    f = strip_zeros(f, &e10);
    int n = count_digits_u64(f);
    char d[20];
    write_digits(d, f, n);
    /* yojson prints with %.17g exactly when 16 digits do not read back */
    return layout(p, d, n, e10 + n - 1, n == 17 ? 17 : 16);
}

#if DIGITS_SSE2
/* A double on the usual route of atd_write_double, with or without its
 * sign: normal and not a power of two (so not zero either). Its
 * shortest_fast digits f are in [10^15, 10^17), as write_16_17 needs: the
 * scaled value s lies in [c, 10c) with c in [2^52, 2^53), and f is within
 * 10 of s. */
static inline bool usual(uint64_t bits)
{
    bits &= ~((uint64_t)1 << 63);
    return bits >= (uint64_t)1 << 52 && (bits & (((uint64_t)1 << 52) - 1)) != 0;
}

/* shortest_fast for a usual double, from its bits without the sign. */
static ATD__HOT_INLINE bool shortest_usual(uint64_t bits, uint64_t *f, int *e10, bool *zero_end,
                                           bool branch_free)
{
    return shortest_fast((bits & (((uint64_t)1 << 52) - 1)) | (uint64_t)1 << 52,
                         (int)(bits >> 52) - 1075, f, e10, zero_end, branch_free);
}
#endif

#if DIGITS_IFMA
/* The usual case of atd_write_double below, bits without the sign, with
 * the IFMA digits. */
static ATD__TARGET_AVX512_IFMA NOINLINE char *write_normal_ifma(char *p, uint64_t bits)
{
    uint64_t f;
    int e10;
    bool zero_end;
    if (ATD_LIKELY(shortest_usual(bits, &f, &e10, &zero_end, false)))
        return write_16_17(p, f, e10, zero_end, true);
    double v;
    memcpy(&v, &bits, sizeof v);
    return write_positive(p, v);
}
#endif

char *atd_write_double(char *p, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    /* the sign without a branch: the '-' is overwritten when positive */
    *p = '-';
    p += bits >> 63;
    bits &= ~((uint64_t)1 << 63);
#if DIGITS_SSE2
    /* the usual case inline, tested first */
    if (ATD_LIKELY(usual(bits))) {
        uint64_t f;
        int e10;
        bool zero_end;
#if DIGITS_IFMA
        if (atd__cpu_kernels() & ATD__CPU_AVX512_IFMA)
            return write_normal_ifma(p, bits);
#endif
        if (ATD_LIKELY(shortest_usual(bits, &f, &e10, &zero_end, false)))
            return write_16_17(p, f, e10, zero_end, false);
    }
#endif
    return write_positive(p, v);
}

/* atd_write_double_pair one number after the other (their bits a and b). */
static char *write_apart(char *p, uint64_t a, uint64_t b)
{
    double x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    p = atd_write_double(p, x);
    *p++ = ',';
    return atd_write_double(p, y);
}

#if DIGITS_SSE2
/* atd_write_double_pair for two usual doubles (their bits a and b). The
 * printer of one number is bound by the latency of its chain from the bits
 * to the stored digits, not by its instructions: both numbers' digits are
 * found before either is laid out, so that their chains overlap. */
static ATD__HOT_INLINE char *write_pair(char *p, uint64_t a, uint64_t b, bool ifma)
{
    const uint64_t sign = (uint64_t)1 << 63;
    uint64_t fa, fb;
    int ea, eb;
    bool za, zb;
    bool oka = shortest_usual(a & ~sign, &fa, &ea, &za, true);
    bool okb = shortest_usual(b & ~sign, &fb, &eb, &zb, true);
    if (ATD_UNLIKELY(!(oka & okb)))
        return write_apart(p, a, b);
    /* the signs without a branch, as in atd_write_double */
    *p = '-';
    p += a >> 63;
    p = write_16_17(p, fa, ea, za, ifma);
    p[0] = ',';
    p[1] = '-';
    p += 1 + (b >> 63);
    return write_16_17(p, fb, eb, zb, ifma);
}

static NOINLINE char *write_pair_sse2(char *p, uint64_t a, uint64_t b)
{
    return write_pair(p, a, b, false);
}

#if DIGITS_IFMA
static ATD__TARGET_AVX512_IFMA NOINLINE char *write_pair_ifma(char *p, uint64_t a, uint64_t b)
{
    return write_pair(p, a, b, true);
}
#endif
#endif

char *atd_write_double_pair(char *p, double x, double y)
{
    uint64_t a, b;
    memcpy(&a, &x, sizeof a);
    memcpy(&b, &y, sizeof b);
#if DIGITS_SSE2
    if (ATD_LIKELY(usual(a) && usual(b))) {
#if DIGITS_IFMA
        if (atd__cpu_kernels() & ATD__CPU_AVX512_IFMA)
            return write_pair_ifma(p, a, b);
#endif
        return write_pair_sse2(p, a, b);
    }
#endif
    return write_apart(p, a, b);
}

/* ------------------------------------------------------------------------
 * Fixed precision
 * ------------------------------------------------------------------------ */

char *atd_write_double_precision(char *p, double v, int precision)
{
    if (precision < 1 || precision > 16)
        precision = 17;
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (bits >> 63) {
        *p++ = '-';
        bits &= ~((uint64_t)1 << 63);
    }
    if (bits == 0) {
        memcpy(p, "0.0", 3);
        return p + 3;
    }
    uint64_t m = bits & (((uint64_t)1 << 52) - 1);
    int be = (int)(bits >> 52), e2 = -1074;
    if (be != 0) {
        m |= (uint64_t)1 << 52;
        e2 = be - 1075;
    }
    char d[ATD__BIGDEC_MAX_DIGITS];
    int e10;
    int n = atd__bigdec_expand(m, e2, d, &e10);
    int x = e10 + n - 1;
    if (n > precision) {
        /* round half-even at digit `precision`, on the exact expansion */
        bool up;
        char next = d[precision];
        if (next != '5') {
            up = next > '5';
        } else {
            bool rest = n > precision + 1; /* no trailing zeros: any rest is nonzero */
            up = rest || ((d[precision - 1] - '0') & 1);
        }
        n = precision;
        if (up) {
            int i = n - 1;
            while (i >= 0 && d[i] == '9')
                d[i--] = '0';
            if (i >= 0) {
                d[i]++;
            } else {
                d[0] = '1';
                x++;
            }
        }
        while (n > 1 && d[n - 1] == '0')
            n--;
    }
    return layout(p, d, n, x, precision);
}
