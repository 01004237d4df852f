/* The copy of a short run of bytes that the readers and writers make for
 * most strings and keys (the JSON and biniou runtimes and the inline biniou
 * readers). Not API: the name may change in any release. */
#ifndef ATD_DETAIL_COPY_H
#define ATD_DETAIL_COPY_H

#include <stdint.h>
#include <string.h>

#include "../common.h"

/* Copies s[0..n) to d (the two do not overlap). Up to 64 bytes (names,
 * dates, URLs: most strings of records) move as fixed-size blocks, the
 * first ones from the start and the others ending at n, overlapping in the
 * middle (two of 16, 8 or 4 bytes, four of 16 from 33 bytes on, single
 * bytes below 4): no call, no loop, one compare per size class, no byte
 * read outside s[0..n). Longer runs go to memcpy. */
static ATD__HOT_INLINE void atd__copy_short(char *d, const char *s, size_t n)
{
    if (n > 16) {
        if (n <= 32) {
            char a[16], b[16];
            memcpy(a, s, 16);
            memcpy(b, s + n - 16, 16);
            memcpy(d, a, 16);
            memcpy(d + n - 16, b, 16);
        } else if (n <= 64) {
            /* 16-byte temporaries: GCC keeps them in registers, while
             * 32-byte ones would go through the stack without AVX */
            char a0[16], a1[16], b0[16], b1[16];
            memcpy(a0, s, 16);
            memcpy(a1, s + 16, 16);
            memcpy(b0, s + n - 32, 16);
            memcpy(b1, s + n - 16, 16);
            memcpy(d, a0, 16);
            memcpy(d + 16, a1, 16);
            memcpy(d + n - 32, b0, 16);
            memcpy(d + n - 16, b1, 16);
        } else {
            memcpy(d, s, n);
        }
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n > 0) {
        char a = s[0], b = s[n / 2], c = s[n - 1];
        d[0] = a;
        d[n / 2] = b;
        d[n - 1] = c;
    }
}

#endif
