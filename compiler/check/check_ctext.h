/* C text written in a schema (<c default>), checked token by token
 * (check_ctext.c) before it is pasted into generated code. */
#ifndef ATDC_CHECK_CTEXT_H
#define ATDC_CHECK_CTEXT_H

#include <stddef.h>

/* What keeps text[0..len) from being one C constant expression or
 * initializer in the generated code, as a phrase ("an unterminated string
 * literal", "a comment", "';'", "unbalanced brackets: ')' without '('"...),
 * or NULL when nothing does at the token level. A ',' outside brackets is
 * refused too: a braced initializer's commas are inside its braces, and
 * elsewhere it would be the comma operator. */
const char *check_ctext_problem(const char *text, size_t len);

#endif
