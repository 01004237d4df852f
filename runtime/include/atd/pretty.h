/* Layout of JSON text: indented ("pretty") or compact output, and the
 * JSON Lines writer.
 *
 * The compact writers stay as they are; indentation is a separate streaming
 * pass over their output (atd_pretty), token by token, with no tree and
 * O(1) state, so pretty output costs nothing unless asked for and stays in
 * bounded memory on a sink.
 *
 * The pretty layout (documented in README.md):
 * - one array element or object member per line, indented by two spaces per
 *   level; the closing bracket on its own line at the level of the opening
 *   one;
 * - "key": value, with one space after the colon;
 * - empty containers as [] and {};
 * - strings, numbers and literals byte for byte as in the input;
 * - no newline after the value (atdc-fmt adds one).
 * This is the layout of yojson's pretty printer for containers that do not
 * fit in its 80 columns; yojson also packs short containers on one line
 * ([ 1, 2 ], { "a": 1 }), which a single pass cannot decide without
 * buffering, and which atd_pretty does not do. */
#ifndef ATD_PRETTY_H
#define ATD_PRETTY_H

#include "common.h"
#include "buf.h"
#include "error.h"
#include "flags.h"
#include "json.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ATD_WRITE_PRETTY (flags.h): indented output, for atd_write_value and the
 * generated P_t_to_json_pretty. */

/* The re-indenting pass: feed it valid JSON text in pieces (any whitespace;
 * pieces may split tokens anywhere); it writes the text laid out to `out`.
 * Input that is not valid JSON gives unspecified (but memory-safe) output:
 * validate first (atd_json_reformat does). */
typedef struct atd_pretty {
    atd_buf *out;
    size_t depth;
    unsigned char in_string; /* 0, 1 inside a string, 2 right after a backslash */
    bool open;               /* right after '[' or '{': the container may be empty */
    bool compact;            /* drop whitespace only */
} atd_pretty;

/* Starts a pass at depth 0.
 *   p:       the pass to set up.
 *   out:     where the laid-out text goes; must outlive p.
 *   compact: true drops the whitespace between tokens only (compact JSON),
 *            false indents (the pretty layout above). */
void atd_pretty_init(atd_pretty *p, atd_buf *out, bool compact);
/* Lays out the next piece of the text.
 *   p:    the pass.
 *   text: the piece, len bytes; it may end inside a token or a string.
 * Returns out's status: 0 while fine, else its sticky error (nothing more
 * is written then). */
int atd_pretty_feed(atd_pretty *p, const char *text, size_t len);

/* Writes one value with its type's writer, compact or indented.
 *   out:   the buffer appended to.
 *   write: the type's writer (a generated P_t_write_any).
 *   value: the value, of the type `write` takes.
 *   flags: ATD_WRITE_* as for atd_writer_init; ATD_WRITE_PRETTY indents.
 *   err:   filled (when not NULL): cleared on success, the error otherwise.
 * Returns 0, or the error code. On an error an in-memory buffer is put back
 * to its length before the call; a sink-bound one may have flushed a
 * prefix. */
int atd_write_value(atd_buf *out, atd_write_fn write, const void *value, unsigned flags,
                    atd_error *err);

/* JSON Lines: the value compact (ATD_WRITE_PRETTY is ignored), then '\n'.
 * Parameters and result as for atd_write_value; on an error an in-memory
 * buffer is put back to its length before the call, so no partial line
 * stays. */
int atd_write_line(atd_buf *out, atd_write_fn write, const void *value, unsigned flags,
                   atd_error *err);

/* The generic value, indented (atd_json_write, laid out).
 *   v:   the value to write.
 *   out: the buffer appended to.
 *   err: filled on error when not NULL.
 * Returns 0, or the error code of atd_json_write or of the buffer; an
 * in-memory buffer is then put back to its length before the call. */
int atd_json_write_pretty(const atd_json *v, atd_buf *out, atd_error *err);

/* Checks that json[0..len) is one valid JSON document (strict RFC 8259, the
 * reader's rules), then writes it indented or compact, numbers and strings
 * byte for byte.
 *   json:  the document, len bytes (not NUL-terminated).
 *   out:   the buffer appended to.
 *   flags: ATD_WRITE_PRETTY indents; without it the output is compact.
 *   err:   filled on error when not NULL: line, column and path of a
 *          syntax error.
 * Returns 0 or the error code. Nothing is written on a syntax error. */
int atd_json_reformat(const char *json, size_t len, atd_buf *out, unsigned flags, atd_error *err);

#ifdef __cplusplus
}
#endif

#endif
