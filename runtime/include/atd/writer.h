/* JSON writing primitives on top of atd_buf, used by generated writers and by
 * the generic value writer. Output is compact and follows atdgen exactly
 * (atd-spec 10.3, 10.4).
 *
 * Functions that can fail on the value (NaN, invalid UTF-8) return an
 * atd_error_code (0 on success) and write nothing in that case; buffer errors
 * (allocation, sink) are sticky in the buffer's status. */
#ifndef ATD_WRITER_H
#define ATD_WRITER_H

#include "common.h"
#include "buf.h"
#include "number.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The writing context of generated writers (defined in writer_ctx.h). */
typedef struct atd_writer atd_writer;

/* A type's writer behind a function pointer: writes *value (a const P_t *,
 * for P_t_write_any). What the whole-document and stream entry points take. */
typedef bool (*atd_write_fn)(atd_writer *w, const void *value);

/* Writer options. */
enum {
    /* Write strings that are not valid UTF-8 as they are instead of failing. */
    ATD_WRITE_ALLOW_INVALID_UTF8 = 1u << 0
};

/* Escapes `len` bytes as a JSON string, with the quotes. Escapes only '"', '\\'
 * and control bytes including DEL (\b \f \n \r \t, else \u00xx lowercase);
 * everything else is copied raw. Long strings are streamed through the buffer
 * in pieces (bounded memory with a sink). Returns ATD_ERR_UTF8 (writing nothing)
 * when the bytes are not valid UTF-8, unless ATD_WRITE_ALLOW_INVALID_UTF8.
 * Returns the buffer's status otherwise. */
int atd_write_string(atd_buf *b, const char *s, size_t len, unsigned flags);

/* Worst-case size of an escaped string of n bytes, quotes included. */
#define ATD_ESCAPED_MAX(n) (6 * (n) + 2)

/* Writes the escaped string (with quotes) at p without any check: the caller
 * reserved ATD_ESCAPED_MAX(len) bytes and validated the bytes if needed. */
char *atd_write_string_unchecked(char *p, const char *s, size_t len);

/* true when s[0..len) is valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF). */
bool atd_utf8_valid(const char *s, size_t len);

void atd_buf_write_int64(atd_buf *b, int64_t v);
/* Returns ATD_ERR_NONFINITE (writing nothing) for NaN and infinities. */
int atd_buf_write_double(atd_buf *b, double v);

#ifdef __cplusplus
}
#endif

#endif
