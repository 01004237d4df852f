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

/* Reads json[0..len) as exactly one value with `read` into `out` (values
 * allocated in `arena`): only whitespace may follow it (anything, with
 * ATD_READ_LENIENT). Returns 0, or the error code after filling err (when not
 * NULL) with the line, column, JSON path and message. `flags` are ATD_READ_*. */
int atd_from_json_flags(const char *json, size_t len, atd_arena *arena, unsigned flags,
                        atd_read_fn read, void *out, atd_error *err);
/* The same with flags 0 (copied strings, unknown fields skipped, strict JSON). */
int atd_from_json(const char *json, size_t len, atd_arena *arena, atd_read_fn read, void *out,
                  atd_error *err);

/* Appends `value` as JSON with `write` to out. Returns 0, or the error code
 * after filling err (when not NULL) with the JSON path and message; an
 * in-memory buffer then keeps its previous length (no partial output), a
 * buffer with a sink may have passed part of the output on already. `flags`
 * are ATD_WRITE_*. */
int atd_to_json_flags(atd_write_fn write, const void *value, unsigned flags, atd_buf *out,
                      atd_error *err);
/* The same with flags 0. */
int atd_to_json(atd_write_fn write, const void *value, atd_buf *out, atd_error *err);

/* The same two for biniou (biniou.h), behind P_t_from_biniou and
 * P_t_to_biniou: `read` and `write` are a type's biniou reader and writer
 * behind the untyped function types. Bytes after the value are ignored, as
 * atdgen does (a reader of its own can reject them with atd_bin_read_end);
 * errors are atd_bin_get_error's ("byte N, at PATH: DETAIL"). */
int atd_from_biniou(const char *data, size_t len, atd_arena *arena, atd_read_fn read, void *out,
                    atd_error *err);
int atd_to_biniou(atd_write_fn write, const void *value, atd_buf *out, atd_error *err);

#ifdef __cplusplus
}
#endif

#endif
