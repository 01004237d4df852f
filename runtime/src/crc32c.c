/* CRC-32C (atd/crc32c.h): the SSE4.2 instruction where the CPU has it
 * (cpu.h decides once), else slicing by 8 over tables built on first use.
 * The tables are a constant of the polynomial, so two threads racing to
 * build them write the same bytes; the flag that says they are ready is
 * atomic and set after them. */
#include "atd/crc32c.h"

#include <stdatomic.h>
#include <string.h>

#include "cpu.h"

#define CRC32C_POLY 0x82F63B78u

static uint32_t table[8][256];
static atomic_bool table_ready;

static void build_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (CRC32C_POLY & (0u - (c & 1u)));
        table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int s = 1; s < 8; s++)
            table[s][i] = (table[s - 1][i] >> 8) ^ table[0][table[s - 1][i] & 0xff];
    atomic_store_explicit(&table_ready, true, memory_order_release);
}

static uint64_t load_le64(const unsigned char *p)
{
    uint64_t u = 0;
    for (int i = 7; i >= 0; i--)
        u = (u << 8) | p[i];
    return u;
}

/* The portable twin: slicing by 8. */
static uint32_t crc32c_table(uint32_t crc, const unsigned char *p, size_t len)
{
    if (!atomic_load_explicit(&table_ready, memory_order_acquire))
        build_table();
    uint32_t c = ~crc;
    for (; len >= 8; len -= 8, p += 8) {
        uint64_t x = load_le64(p) ^ c;
        c = table[7][x & 0xff] ^ table[6][(x >> 8) & 0xff] ^ table[5][(x >> 16) & 0xff] ^
            table[4][(x >> 24) & 0xff] ^ table[3][(x >> 32) & 0xff] ^ table[2][(x >> 40) & 0xff] ^
            table[1][(x >> 48) & 0xff] ^ table[0][x >> 56];
    }
    while (len-- > 0)
        c = (c >> 8) ^ table[0][(c ^ *p++) & 0xff];
    return ~c;
}

#if ATD__HAVE_SSE42_KERNELS
ATD__TARGET_SSE42 static uint32_t crc32c_sse42(uint32_t crc, const unsigned char *p, size_t len)
{
    uint64_t c = ~crc;
    for (; len >= 8; len -= 8, p += 8) {
        uint64_t x;
        memcpy(&x, p, 8); /* x86-64 is little-endian */
        c = __builtin_ia32_crc32di(c, x);
    }
    uint32_t c32 = (uint32_t)c;
    while (len-- > 0)
        c32 = __builtin_ia32_crc32qi(c32, *p++);
    return ~c32;
}
#endif

uint32_t atd_crc32c(uint32_t crc, const void *p, size_t len)
{
#if ATD__HAVE_SSE42_KERNELS
    if (atd__cpu_kernels() & ATD__CPU_SSE42)
        return crc32c_sse42(crc, (const unsigned char *)p, len);
#endif
    return crc32c_table(crc, (const unsigned char *)p, len);
}
