/* Names on the wire: the constructor names of sums and enums, and "None" /
 * "Some" of options. A generated reader only compares such a string with the
 * names it knows and then forgets it, so copying it into the arena (what
 * atd_read_string does without ATD_READ_BORROW_STRINGS) is wasted work on a
 * hot path: every enum value would cost an arena allocation.
 *
 * atd_read_name reads a JSON string like atd_read_string (same validation,
 * same errors) but BORROWS it from the input when it has no escape, whatever
 * the reader flags; only a name with an escape ("O\u0066f") is decoded into
 * the arena. The result is valid while the input is; a reader that keeps the
 * name (the catch-all of an open_enum) copies it itself unless strings are
 * borrowed anyway.
 *
 * atd_quote_name renders untrusted bytes for an error message: printable
 * ASCII as is, '"' and '\' and every other byte as \xNN, at most
 * ATD_QUOTE_NAME_SHOWN input bytes, then "...". Generated readers use it for
 * "unsupported variant \"...\"" so that a hostile name cannot put control
 * bytes or invalid UTF-8 into a message. */
#ifndef ATD_READ_NAME_H
#define ATD_READ_NAME_H

#include <stddef.h>

#include "common.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a name: a JSON string, borrowed from the input when it has no
 * escape (see above).
 *   r:   the reader; its arena holds a name with escapes.
 *   p:   the cursor, before the string (whitespace allowed).
 *   out: the name's bytes.
 * Returns the cursor after the closing quote, or NULL after recording the
 * error (anything but a string as atd_reader_fail_expected reports it,
 * and the string's own errors as for atd_read_string). */
const char *atd_read_name_p(atd_reader *r, const char *p, atd_string *out);
/* The same at the reader's own cursor, which it advances. Returns true, or
 * false after recording the error. */
bool atd_read_name(atd_reader *r, atd_string *out);

#define ATD_QUOTE_NAME_SHOWN 48
/* Enough room for any result: 4 bytes per shown byte, "...", NUL. */
#define ATD_QUOTE_NAME_CAP (4 * ATD_QUOTE_NAME_SHOWN + 4)

/* Writes the quoted form of s[0..len) into buf.
 *   s:   the bytes, len of them; any bytes.
 *   buf: where the quoted form goes, always NUL-terminated.
 *   cap: buf's size, at least 1; the form is cut short when cap is less
 *        than ATD_QUOTE_NAME_CAP.
 * Returns buf. */
const char *atd_quote_name(const char *s, size_t len, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
