/* What the lazy format's reader and writer share (internal to atdrt). */
#ifndef ATD_LAZY_INTERNAL_H
#define ATD_LAZY_INTERNAL_H

#include "atd/lazy.h"

/* The CRC of shared string `id`'s record (uvint length and bytes at p, n
 * bytes in all), started from the id instead of 0: so it covers the id,
 * and a string table entry pointing at another string's record is caught. */
uint32_t atd__lazy_string_crc(uint64_t id, const char *p, size_t n);

/* Reads [from, to) of a mapped file ahead, in the background (nothing for
 * a buffer): for the parts every query reads, up to this many bytes. */
#define ATD_LAZY_READ_AHEAD_MAX ((uint64_t)16 << 20)
void atd__lazy_read_ahead(const atd_lazy_db *db, uint64_t from, uint64_t to);

#endif
