/* UTF-8 encoding of the code points that string-literal escapes name
 * (OCaml's \u{...} in <ocaml default>, C's \u and \U in <c default>). */
#ifndef ATDC_UTF8_H
#define ATDC_UTF8_H

#include <stddef.h>

/* Writes the UTF-8 encoding of cp (at most 0x10FFFF) to out, which has room
 * for 4 bytes; returns the number of bytes written. */
size_t utf8_encode(char *out, unsigned long cp);

#endif
