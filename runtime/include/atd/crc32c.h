/* CRC-32C (Castagnoli, reflected polynomial 0x82F63B78): the checksum of
 * the lazy format's values, nodes and strings (docs/lazy-format.md). On
 * x86-64 CPUs with SSE4.2 the `crc32` instruction computes it, chosen at
 * run time; elsewhere (and in ATD_NO_SIMD builds) a table, 8 bytes at a
 * time. Both give the same value: CRC-32C("123456789") is 0xE3069283. */
#ifndef ATD_CRC32C_H
#define ATD_CRC32C_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Continues a CRC over more bytes, so atd_crc32c(atd_crc32c(0, a, n), b, m)
 * is the CRC of a then b.
 *   crc: the CRC of the bytes before (0 to start).
 *   p:   the bytes, len of them.
 * Returns the CRC of the bytes before and these. */
uint32_t atd_crc32c(uint32_t crc, const void *p, size_t len);

#ifdef __cplusplus
}
#endif

#endif
