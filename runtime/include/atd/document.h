/* Whole-document entry points: read one complete JSON document into a value,
 * or append one value as compact JSON (or biniou), through a type's reader or writer
 * passed as a function pointer. The typed functions that atdc generates
 * (P_t_from_json, P_t_to_json) are these calls with P_t_read_any and
 * P_t_write_any; calling them directly serves code that picks the type at run
 * time. */
#ifndef ATD_DOCUMENT_H
#define ATD_DOCUMENT_H

#include "common.h"
#include "arena.h"
#include "buf.h"
#include "error.h"
#include "reader.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads json[0..len) as exactly one value: only whitespace may follow it
 * (anything, with ATD_READ_LENIENT).
 *   json, len: the document; it need not end with a NUL. With
 *              ATD_READ_BORROW_STRINGS, strings without escapes point into it,
 *              so it must outlive the value.
 *   arena:     where the value's memory comes from; atd_arena_reset or
 *              atd_arena_free releases it all. Its budget, if set, caps what
 *              the document may take (ATD_ERR_LIMIT).
 *   flags:     ATD_READ_* (flags.h), or 0.
 *   read:      the type's reader: P_t_read_any.
 *   out:       the value to fill, of that type; on error it may hold part of
 *              the document, in memory of the arena.
 *   err:       NULL, or filled on error with the code, line, column, JSON path
 *              and message (atd_error_format prints them).
 * Returns 0, or the error code. */
int atd_from_json_flags(const char *json, size_t len, atd_arena *arena, unsigned flags,
                        atd_read_fn read, void *out, atd_error *err);
/* The same with flags 0 (copied strings, unknown fields skipped, strict JSON). */
int atd_from_json(const char *json, size_t len, atd_arena *arena, atd_read_fn read, void *out,
                  atd_error *err);

/* Appends a value as JSON.
 *   write: the type's writer: P_t_write_any.
 *   value: the value, of that type.
 *   flags: ATD_WRITE_* (flags.h), or 0.
 *   out:   the buffer appended to. On error an in-memory buffer keeps its
 *          previous length (no partial output); a buffer with a sink may have
 *          passed part of the output on already.
 *   err:   NULL, or filled on error with the code, JSON path and message.
 * Returns 0, or the error code. */
int atd_to_json_flags(atd_write_fn write, const void *value, unsigned flags, atd_buf *out,
                      atd_error *err);
/* The same with flags 0. */
int atd_to_json(atd_write_fn write, const void *value, atd_buf *out, atd_error *err);

/* The same two for biniou (biniou.h), behind P_t_from_biniou and
 * P_t_to_biniou, with the same parameters except that `read` and `write`
 * are the type's biniou reader and writer behind the untyped function
 * types, and there are no flags. Bytes after the value are ignored, as
 * atdgen does (a reader of its own can reject them with atd_bin_read_end);
 * errors are atd_bin_get_error's ("byte N, at PATH: DETAIL"). */
int atd_from_biniou(const char *data, size_t len, atd_arena *arena, atd_read_fn read, void *out,
                    atd_error *err);
int atd_to_biniou(atd_write_fn write, const void *value, atd_buf *out, atd_error *err);

#ifdef __cplusplus
}
#endif

#endif
