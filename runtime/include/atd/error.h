/* Errors reported by readers and writers.
 *
 * Codes and their default descriptions come from one X-macro list so that the
 * enum and atd_error_code_name() cannot drift apart. An atd_error holds the
 * code, where the problem is (byte offset; line and column computed only when
 * the error is reported), the JSON path being read or written, the detail
 * (what is wrong, without position or path), and one human sentence saying
 * all of it, e.g.
 *   line 1, column 26, at $.events[3].date: expected an integer, found "2.5"
 * A program that prefixes its own file name formats the parts instead, with
 * atd_error_format:
 *   events.json:1:26: expected an integer, found "2.5" (at $.events[3].date) */
#ifndef ATD_ERROR_H
#define ATD_ERROR_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* X(NAME, "description") */
#define ATD_ERROR_LIST(X)                                                                          \
    X(OK, "no error")                                                                              \
    X(NOMEM, "out of memory")                                                                      \
    X(IO, "output error")                                                                          \
    X(EOF, "unexpected end of input")                                                              \
    X(SYNTAX, "invalid JSON")                                                                      \
    X(STRING, "invalid string")                                                                    \
    X(UTF8, "invalid UTF-8")                                                                       \
    X(NUMBER, "invalid number")                                                                    \
    X(RANGE, "number out of range")                                                                \
    X(DEPTH, "nesting too deep")                                                                   \
    X(TYPE, "unexpected value")                                                                    \
    X(MISSING_FIELD, "missing record field")                                                       \
    X(UNKNOWN_FIELD, "unknown record field")                                                       \
    X(BAD_VARIANT, "unsupported variant")                                                          \
    X(TUPLE, "wrong number of tuple elements")                                                     \
    X(TRAILING, "unexpected data after the JSON value")                                            \
    X(NONFINITE, "NaN and infinity cannot be written as JSON")                                     \
    X(INVALID, "invalid value")                                                                    \
    X(TOO_LARGE, "record too large")                                                               \
    X(LIMIT, "memory budget exceeded")                                                             \
    X(TRUNCATED, "input ended inside a record")                                                    \
    X(CORRUPT, "corrupt data (checksum mismatch)")

typedef enum atd_error_code {
#define ATD__ERROR_ENUM(name, text) ATD_ERR_##name,
    ATD_ERROR_LIST(ATD__ERROR_ENUM)
#undef ATD__ERROR_ENUM
        ATD_ERR__COUNT
} atd_error_code;

#define ATD_ERROR_PATH_MAX 256
#define ATD_ERROR_MESSAGE_MAX 512
#define ATD_ERROR_DETAIL_MAX 256

/* The JSON path of an error while failing readers and writers unwind: the
 * segments (".name", "[\"odd key\"]", "[3]") innermost first, each followed
 * by its length byte. Filled by atd_reader_push_* / atd_writer_push_*. */
typedef struct atd_error_path {
    char rev[ATD_ERROR_PATH_MAX];
    size_t len;
    bool truncated; /* outer segments were dropped: shown as "$..." */
} atd_error_path;

typedef struct atd_error {
    atd_error_code code;
    size_t offset;                       /* byte offset in the input (readers); 0 for writers */
    size_t line;                         /* 1-based; 0 when not applicable (writers) */
    size_t column;                       /* 1-based, in bytes; 0 when not applicable */
    char path[ATD_ERROR_PATH_MAX];       /* e.g. "$.events[3].date"; truncated with "..." */
    char detail[ATD_ERROR_DETAIL_MAX];   /* e.g. "expected a string, found 1"; no position */
    char message[ATD_ERROR_MESSAGE_MAX]; /* NUL-terminated, one sentence: position, path, detail */
} atd_error;

/* "NOMEM", "SYNTAX", ... */
const char *atd_error_code_name(atd_error_code code);
/* "out of memory", ... */
const char *atd_error_code_text(atd_error_code code);

/* Computes the 1-based line and column of `offset` in input[0..len). Lines end
 * at LF (CR LF counts once). Columns count bytes. */
void atd_error_locate(const char *input, size_t len, size_t offset, size_t *line, size_t *column);

/* Sets err (when not NULL) for an error without an input position, such as
 * a writer error.
 *   err:    the error to fill; NULL does nothing.
 *   code:   its code.
 *   path:   the JSON path, such as "$.items[2]"; NULL or "" for none.
 *   detail: what is wrong; NULL or "" for the code's description.
 * Builds the message "at PATH: DETAIL" (or just "DETAIL" without a path). */
void atd_error_set(atd_error *err, atd_error_code code, const char *path, const char *detail);

/* Writes err as one line for a program that names its input, in the form
 * compilers use, NUL-terminated and cut to fit:
 *   FILE:LINE:COLUMN: DETAIL (at PATH)   for text inputs (line is not 0);
 *   FILE: byte OFFSET: DETAIL (at PATH)  for binary inputs (biniou, lazy
 *                                        files: line 0, offset not 0);
 *   FILE: DETAIL (at PATH)               otherwise (writers, files that
 *                                        cannot be opened).
 *   err:  the error, as filled by a reader, writer, stream or lazy file.
 *   file: the input's name; NULL or "" leaves out "FILE:" and its space.
 *   out:  where to write; may be NULL when n is 0.
 *   n:    the capacity of out, the NUL included.
 * " (at PATH)" is left out when the error has no path. Returns the length of
 * the whole line (without the NUL), as snprintf does: out was too small when
 * the result is n or more. */
size_t atd_error_format(const atd_error *err, const char *file, char *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif
