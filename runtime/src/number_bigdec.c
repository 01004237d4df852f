/* Exact slow paths of the number module, on fixed-size big integers.
 *
 * Parsing (number_read.c) comes here only when the 128-bit Eisel-Lemire step
 * cannot decide the rounding (a decimal within 2^-64 of a halfway point, or
 * more than 19 significant digits): the decimal is then compared exactly
 * with the halfway point between two candidate doubles. Printing with a
 * fixed precision (number_write.c) needs the exact decimal expansion of a
 * double, which is also computed here.
 *
 * Integers are little-endian arrays of 32-bit limbs on the stack (100 limbs,
 * 3200 bits: the largest operand, 2^64 * 5^1200, needs 2851), so there is no
 * allocation and the cost is bounded by a few tens of thousands of limb
 * operations. */
#include "number_bigdec.h"

#include <assert.h>
#include <string.h>

#include "pow10_table.h"

#define BIG_LIMBS 100

typedef struct big {
    uint32_t w[BIG_LIMBS];
    int n; /* limbs in use; w[n-1] != 0 unless n == 0 */
} big;

static void big_set_u64(big *a, uint64_t v)
{
    a->w[0] = (uint32_t)v;
    a->w[1] = (uint32_t)(v >> 32);
    a->n = v == 0 ? 0 : (v >> 32) == 0 ? 1 : 2;
}

/* a = a * m + add. The callers' bounds keep the result within BIG_LIMBS; a
 * carry out of the top limb would be a bug, so it is asserted, and dropped
 * (never written out of bounds) in release builds. */
static void big_muladd(big *a, uint32_t m, uint32_t add)
{
    uint64_t carry = add;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] * m + carry;
        a->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry != 0) {
        assert(a->n < BIG_LIMBS);
        if (a->n < BIG_LIMBS)
            a->w[a->n++] = (uint32_t)carry;
    }
}

static void big_mul_pow5(big *a, int e)
{
    /* 5^13 is the largest power of five below 2^32 */
    while (e >= 13) {
        big_muladd(a, 1220703125u, 0);
        e -= 13;
    }
    static const uint32_t small[13] = {1,     5,      25,      125,     625,      3125,     15625,
                                       78125, 390625, 1953125, 9765625, 48828125, 244140625};
    if (e > 0)
        big_muladd(a, small[e], 0);
}

static void big_shl(big *a, int s)
{
    if (a->n == 0 || s == 0)
        return;
    int limbs = s / 32, bits = s % 32;
    int n = a->n + limbs + 1;
    assert(n <= BIG_LIMBS);
    if (n > BIG_LIMBS)
        n = BIG_LIMBS;
    for (int i = n - 1; i >= limbs; i--) {
        int j = i - limbs;
        uint32_t hi = j < a->n ? a->w[j] : 0;
        uint32_t lo = j >= 1 && j - 1 < a->n ? a->w[j - 1] : 0;
        a->w[i] = bits == 0 ? hi : (hi << bits) | (lo >> (32 - bits));
    }
    for (int i = 0; i < limbs && i < n; i++)
        a->w[i] = 0;
    a->n = n;
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

static int big_bitlen(const big *a)
{
    if (a->n == 0)
        return 0;
    uint32_t top = a->w[a->n - 1];
    int b = 0;
    while (top != 0) {
        top >>= 1;
        b++;
    }
    return (a->n - 1) * 32 + b;
}

static int big_cmp(const big *a, const big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* a /= d, returns the remainder */
static uint32_t big_divmod(big *a, uint32_t d)
{
    uint64_t rem = 0;
    for (int i = a->n - 1; i >= 0; i--) {
        uint64_t cur = (rem << 32) | a->w[i];
        a->w[i] = (uint32_t)(cur / d);
        rem = cur % d;
    }
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
    return (uint32_t)rem;
}

/* a = m * 5^e for a 64-bit m: multiply the power first, then m in two
 * 32-bit halves, so every step is a single-limb multiplication. */
static void big_set_mul_pow5(big *a, uint64_t m, int e)
{
    big hi;
    big_set_u64(a, 1);
    big_mul_pow5(a, e);
    hi = *a;
    big_muladd(a, (uint32_t)m, 0);
    uint32_t mhi = (uint32_t)(m >> 32);
    if (mhi == 0)
        return;
    big_muladd(&hi, mhi, 0);
    big_shl(&hi, 32);
    /* a += hi */
    uint64_t carry = 0;
    int n = a->n > hi.n ? a->n : hi.n;
    for (int i = 0; i < n; i++) {
        uint64_t t = carry + (i < a->n ? a->w[i] : 0) + (i < hi.n ? hi.w[i] : 0);
        a->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    a->n = n;
    if (carry != 0 && n < BIG_LIMBS)
        a->w[a->n++] = (uint32_t)carry;
}

int atd__bigdec_expand(uint64_t m, int e2, char *out, int *exp10)
{
    big x;
    int e10 = 0;
    if (e2 >= 0) {
        big_set_u64(&x, m);
        big_shl(&x, e2);
    } else {
        /* m / 2^k = m * 5^k / 10^k */
        big_set_mul_pow5(&x, m, -e2);
        e10 = e2;
    }
    /* 9-digit chunks, least significant first */
    uint32_t chunks[(ATD__BIGDEC_MAX_DIGITS + 8) / 9];
    int nchunks = 0;
    while (x.n > 0 && nchunks < (int)(sizeof chunks / sizeof chunks[0]))
        chunks[nchunks++] = big_divmod(&x, 1000000000u);
    int n = 0;
    for (int c = nchunks - 1; c >= 0; c--) {
        char tmp[9];
        uint32_t v = chunks[c];
        for (int i = 8; i >= 0; i--) {
            tmp[i] = (char)('0' + v % 10);
            v /= 10;
        }
        int start = 0;
        if (c == nchunks - 1)
            while (start < 8 && tmp[start] == '0')
                start++;
        memcpy(out + n, tmp + start, (size_t)(9 - start));
        n += 9 - start;
    }
    while (n > 1 && out[n - 1] == '0') {
        n--;
        e10++;
    }
    *exp10 = e10;
    return n;
}

int atd__bigdec_compare(const char *digits, int n, int exp10, bool sticky, uint64_t m, int e2)
{
    /* Decide from magnitudes alone when they are far apart, which also keeps
     * the shifted operands below within BIG_LIMBS. The left side lies in
     * [2^lo_l, 2^hi_l), the right side in [2^(bits(m)-1+e2), 2^(bits(m)+e2)). */
    int lo_l = atd__floor_log2_pow10(n - 1 + exp10) - 1;
    int hi_l = atd__floor_log2_pow10(n + exp10) + 2;
    int mbits = 0;
    for (uint64_t t = m; t != 0; t >>= 1)
        mbits++;
    if (hi_l <= mbits - 1 + e2)
        return -1;
    if (lo_l >= mbits + e2)
        return 1;

    big x, y;
    /* x = D */
    x.n = 0;
    int i = 0;
    while (i < n) {
        uint32_t chunk = 0, scale = 1;
        for (int k = 0; k < 9 && i < n; k++, i++) {
            chunk = chunk * 10 + (uint32_t)(digits[i] - '0');
            scale *= 10;
        }
        big_muladd(&x, scale, chunk);
    }
    /* D * 10^exp10 vs m * 2^e2: move the powers of five to one side and
     * the powers of two to the other, as integers */
    int x2 = 0, y2 = e2;
    if (exp10 >= 0) {
        big_mul_pow5(&x, exp10);
        x2 = exp10;
        big_set_u64(&y, m);
    } else {
        big_set_mul_pow5(&y, m, -exp10);
        y2 -= exp10;
    }
    int lx = big_bitlen(&x) + x2, ly = big_bitlen(&y) + y2;
    int c;
    if (lx != ly) {
        c = lx < ly ? -1 : 1;
    } else {
        if (x2 > y2)
            big_shl(&x, x2 - y2);
        else
            big_shl(&y, y2 - x2);
        c = big_cmp(&x, &y);
    }
    if (c == 0 && sticky)
        c = 1;
    return c;
}
