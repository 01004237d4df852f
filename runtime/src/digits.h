/* Eight bytes at a time: which are ASCII digits (internal to atdrt). The
 * number reader and the skipper find the end of a run of digits with these
 * on little-endian machines (DIGITS_SWAR), where the first byte of the
 * input is the lowest byte of the word; elsewhere they go a byte at a
 * time. */
#ifndef ATD_DIGITS_H
#define ATD_DIGITS_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define DIGITS_SWAR 1
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
#endif

#endif
