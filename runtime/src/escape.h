/* JSON string escaping for the writer (internal to atdrt): atdgen's escape
 * form of a byte, shared by the portable escaper (writer.c) and the AVX2
 * kernel that escapes, validates and copies in one pass (escape_avx2.c). */
#ifndef ATD_ESCAPE_H
#define ATD_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "atd/common.h"
#include "cpu.h"

/* Unaligned loads of string bytes, for both escapers' short copies. */
static inline uint64_t atd__load64(const char *s)
{
    uint64_t w;
    memcpy(&w, s, 8);
    return w;
}

static inline uint32_t atd__load32(const char *s)
{
    uint32_t w;
    memcpy(&w, s, 4);
    return w;
}

/* For each byte: 0 when it is copied raw, else the letter after the
 * backslash ('u' for the \u00xx form). */
extern const char atd__escape_letter[256];

/* Writes the escape of c (escape_letter[c] != 0) at p; returns its end. */
static inline char *atd__escape_byte(char *p, unsigned char c)
{
    static const char hex[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                 '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
    char letter = atd__escape_letter[c];
    p[0] = '\\';
    p[1] = letter;
    if (letter != 'u')
        return p + 2;
    p[2] = '0';
    p[3] = '0';
    p[4] = hex[c >> 4];
    p[5] = hex[c & 15];
    return p + 6;
}

#if ATD__HAVE_AVX2_KERNELS
/* Escapes s[0..len) at p (without quotes; room for 6 * len bytes there) 32
 * bytes per step, copying each block as it is looked at. With `check` the
 * bytes are validated as UTF-8 in the same pass and the result is NULL when
 * they are not well-formed (what was written at p is then garbage). Never
 * reads outside s[0..len) nor writes outside p[0..6 * len). */
char *atd__escape_avx2(char *p, const char *s, size_t len, bool check);
#endif

#endif
