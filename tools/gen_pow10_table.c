/* Generator of runtime/src/pow10_table.c: the 128-bit normalized powers of ten
 * used by the number module (Eisel-Lemire parsing and Schubfach printing).
 *
 * Entry p (ATD__POW10_MIN <= p <= ATD__POW10_MAX) is T = floor(10^p * 2^-e) + 1
 * where e = floor(p * log2(10)) - 127 makes 2^127 <= T < 2^128: always a
 * slight over-estimate, never exact, which is what both algorithms' error
 * analyses assume. Everything is computed with exact big-integer arithmetic
 * (no floating point), so the table can be checked bit for bit: the unit
 * test tests/unit/runtime/test_number.c includes this file with GEN_POW10_NO_MAIN
 * defined, regenerates the table and compares it with the committed one.
 *
 * The program also proves, by exact comparison over the ranges the runtime
 * uses, the integer approximations of logarithms that number_read.c and
 * number_write.c rely on (gen_pow10_check_logs).
 *
 * Usage: gen_pow10_table > runtime/src/pow10_table.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN_POW10_MIN (-343)
#define GEN_POW10_MAX 324
#define GEN_LIMBS 80 /* 2560 bits: 2^1300 and 10^343 (1140 bits) fit */

typedef struct gen_big {
    uint32_t w[GEN_LIMBS]; /* little-endian limbs */
    int n;                 /* limbs in use, no leading zero limb */
} gen_big;

static void gen_big_set(gen_big *a, uint32_t v)
{
    memset(a->w, 0, sizeof a->w);
    a->w[0] = v;
    a->n = v != 0;
}

static void gen_big_mul(gen_big *a, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] * m + carry;
        a->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry != 0) {
        if (a->n == GEN_LIMBS) {
            fprintf(stderr, "gen_pow10_table: big integer overflow\n");
            exit(1);
        }
        a->w[a->n++] = (uint32_t)carry;
    }
}

static void gen_big_pow(gen_big *a, uint32_t base, int e)
{
    gen_big_set(a, 1);
    for (int i = 0; i < e; i++)
        gen_big_mul(a, base);
}

static int gen_big_bitlen(const gen_big *a)
{
    if (a->n == 0)
        return 0;
    int b = 32;
    uint32_t top = a->w[a->n - 1];
    while (!(top & 0x80000000u)) {
        top <<= 1;
        b--;
    }
    return (a->n - 1) * 32 + b;
}

static int gen_big_bit(const gen_big *a, int i)
{
    if (i < 0 || i / 32 >= a->n)
        return 0;
    return (a->w[i / 32] >> (i % 32)) & 1;
}

static int gen_big_cmp(const gen_big *a, const gen_big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

static void gen_big_shl1_or(gen_big *a, int bit)
{
    uint32_t carry = (uint32_t)bit;
    for (int i = 0; i < a->n; i++) {
        uint32_t next = a->w[i] >> 31;
        a->w[i] = (a->w[i] << 1) | carry;
        carry = next;
    }
    if (carry != 0)
        a->w[a->n++] = carry;
}

static void gen_big_sub(gen_big *a, const gen_big *b) /* a -= b, a >= b */
{
    int64_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        int64_t t = (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
        borrow = t < 0;
        a->w[i] = (uint32_t)(t + (borrow ? ((int64_t)1 << 32) : 0));
    }
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

/* The runtime's floor(p * log2(10)), checked below. */
static int gen_floor_log2_pow10(int p)
{
    int64_t x = (int64_t)p * 1741647;
    return (int)(x >= 0 ? x >> 19 : -((-x + (1 << 19) - 1) >> 19));
}

/* Entry for 10^p as two 64-bit halves. */
static void gen_pow10_entry(int p, uint64_t *hi, uint64_t *lo)
{
    gen_big d;
    gen_big_pow(&d, 10, p < 0 ? -p : p);
    int len = gen_big_bitlen(&d);
    uint32_t t[4] = {0, 0, 0, 0}; /* 128-bit result, little-endian */
    if (p >= 0) {
        /* 10^p has len bits: keep the top 128 (zero-padded) */
        for (int i = 0; i < 128; i++)
            if (gen_big_bit(&d, len - 128 + i))
                t[i / 32] |= 1u << (i % 32);
        if (gen_floor_log2_pow10(p) != len - 1) {
            fprintf(stderr, "gen_pow10_table: log2 formula wrong at %d\n", p);
            exit(1);
        }
    } else {
        /* floor(2^(127 + len) / 10^-p) by restoring long division: the
         * numerator is a one followed by 127 + len zeros. */
        gen_big r;
        gen_big_set(&r, 0);
        for (int i = 127 + len; i >= 0; i--) {
            gen_big_shl1_or(&r, i == 127 + len);
            int qbit = gen_big_cmp(&r, &d) >= 0;
            if (qbit)
                gen_big_sub(&r, &d);
            if (i < 128 && qbit)
                t[i / 32] |= 1u << (i % 32);
            else if (i >= 128 && qbit) {
                fprintf(stderr, "gen_pow10_table: quotient too large at %d\n", p);
                exit(1);
            }
        }
        /* 2^(len-1) < 10^-p < 2^len, so floor(p log2 10) = -len */
        if (gen_floor_log2_pow10(p) != -len) {
            fprintf(stderr, "gen_pow10_table: log2 formula wrong at %d\n", p);
            exit(1);
        }
    }
    if (!(t[3] & 0x80000000u)) {
        fprintf(stderr, "gen_pow10_table: entry %d not normalized\n", p);
        exit(1);
    }
    /* + 1 (an over-estimate even when 10^p is exact) */
    for (int i = 0; i < 4; i++)
        if (++t[i] != 0)
            break;
    if (t[0] == 0 && t[1] == 0 && t[2] == 0 && t[3] == 0) {
        fprintf(stderr, "gen_pow10_table: entry %d overflows\n", p);
        exit(1);
    }
    *hi = ((uint64_t)t[3] << 32) | t[2];
    *lo = ((uint64_t)t[1] << 32) | t[0];
}

/* Exact sign of 3^a3 * 2^a2 - 10^a10 (any signs of the exponents). */
static int gen_cmp_3_2_10(int a3, int a2, int a10)
{
    /* move negative exponents to the other side */
    int l2 = a2 > 0 ? a2 : 0, r2 = a2 < 0 ? -a2 : 0;
    int l10 = a10 < 0 ? -a10 : 0, r10 = a10 > 0 ? a10 : 0;
    gen_big l, r;
    gen_big_pow(&l, 3, a3);
    for (int i = 0; i < l10; i++)
        gen_big_mul(&l, 10);
    for (int i = 0; i < l2; i++)
        gen_big_mul(&l, 2);
    gen_big_pow(&r, 10, r10);
    for (int i = 0; i < r2; i++)
        gen_big_mul(&r, 2);
    return gen_big_cmp(&l, &r);
}

/* Checks the runtime's floor(q log10 2) and floor(log10(3/4 * 2^q)) for every
 * binary exponent of a double. Returns the number of failures. */
static int gen_pow10_check_logs(void)
{
    int failures = 0;
    for (int q = -1100; q <= 1100; q++) {
        int64_t x = (int64_t)q * 78913;
        int k = (int)(x >= 0 ? x >> 18 : -((-x + (1 << 18) - 1) >> 18));
        /* 10^k <= 2^q < 10^(k+1) */
        if (gen_cmp_3_2_10(0, q, k) < 0 || gen_cmp_3_2_10(0, q, k + 1) >= 0)
            failures++;
        int64_t y = (int64_t)q * 1262611 - 524031;
        int k3 = (int)(y >= 0 ? y >> 22 : -((-y + (1 << 22) - 1) >> 22));
        /* 10^k3 <= 3 * 2^(q-2) < 10^(k3+1) */
        if (gen_cmp_3_2_10(1, q - 2, k3) < 0 || gen_cmp_3_2_10(1, q - 2, k3 + 1) >= 0)
            failures++;
    }
    return failures;
}

/* Writes the whole pow10_table.c text. */
static void gen_pow10_write(FILE *out)
{
    fprintf(out,
            "/* Generated by tools/gen_pow10_table.c: do not edit. 128-bit normalized\n"
            " * over-estimates of the powers of ten 10^%d .. 10^%d: entry p is\n"
            " * floor(10^p / 2^e) + 1 with e = floor(p log2 10) - 127, as {hi, lo}.\n"
            " * tests/unit/runtime/test_number.c regenerates it and compares. */\n",
            GEN_POW10_MIN, GEN_POW10_MAX);
    fprintf(out, "#include \"pow10_table.h\"\n\n");
    fprintf(out, "const atd__u128 atd__pow10_table[ATD__POW10_MAX - ATD__POW10_MIN + 1] = {\n");
    for (int p = GEN_POW10_MIN; p <= GEN_POW10_MAX; p++) {
        uint64_t hi, lo;
        gen_pow10_entry(p, &hi, &lo);
        fprintf(out, "    {0x%016llxu, 0x%016llxu}, /* %d */\n", (unsigned long long)hi,
                (unsigned long long)lo, p);
    }
    fprintf(out, "};\n");
}

#ifndef GEN_POW10_NO_MAIN
int main(void)
{
    int failures = gen_pow10_check_logs();
    if (failures != 0) {
        fprintf(stderr, "gen_pow10_table: %d logarithm approximations are wrong\n", failures);
        return 1;
    }
    gen_pow10_write(stdout);
    return 0;
}
#endif
