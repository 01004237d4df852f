/* The JSON path of an error (atd_error_path, error.h), one implementation for
 * every failing reader and writer: JSON and biniou readers, streams and
 * writers push segments while they unwind, in one notation: .name for an
 * identifier key, ["odd key"] otherwise (quote, backslash and unprintable
 * bytes escaped, long keys cut with "..."), [i] for an index. Internal. */
#ifndef ATD_ERROR_PATH_H
#define ATD_ERROR_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "atd/error.h"

void atd__path_clear(atd_error_path *p);
/* A printable rendering of byte c at out (at most 4 bytes): printable ASCII
 * as is, \xNN otherwise; with `key`, \" and \\ too, so that a key reads as
 * a string literal. Also the reader's rendering of tokens in messages. */
size_t atd__render_byte(char *out, unsigned char c, bool key);
void atd__path_push_field(atd_error_path *p, const char *name, size_t len);
void atd__path_push_index(atd_error_path *p, size_t index);
/* A segment rendered already (at most 255 bytes), such as a nested path. */
void atd__path_push_raw(atd_error_path *p, const char *seg, size_t n);
/* "$" then the segments outermost first ("$..." when inner ones were
 * dropped), NUL-terminated in out[0..cap), cap >= 5. */
void atd__path_compose(const atd_error_path *p, char *out, size_t cap);

#endif
