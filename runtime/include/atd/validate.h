/* Validators (<c validator="fn"> on any type expression of a schema): user
 * functions that generated code calls on a value after reading it and, when
 * the writer has ATD_WRITE_VALIDATE, before writing it:
 *
 *     bool fn(const T *v, const char **why);
 *
 * T is the C type of the annotated type expression. Returning false fails
 * the read (ATD_ERR_INVALID at the value's first byte, with its JSON path)
 * or the write (with the path), the message naming fn and giving *why
 * (a static string, or one in the reader's arena; may stay NULL). */
#ifndef ATD_VALIDATE_H
#define ATD_VALIDATE_H

#include "common.h"
#include "reader.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The failures, for generated code: ATD_ERR_INVALID with the detail
 * "invalid value (validator FN): WHY", recorded in the reader (at byte
 * offset `at`, where the value starts) or the writer, unless an error is
 * recorded already.
 *   r, w: the reader or writer that fails.
 *   at:   the value's byte offset in the reader's input.
 *   fn:   the validator's name, as written in the schema.
 *   why:  what the validator said; NULL gives "rejected".
 * Return false. */
bool atd_reader_fail_validator(atd_reader *r, size_t at, const char *fn, const char *why);
bool atd_writer_fail_validator(atd_writer *w, const char *fn, const char *why);

/* The declarative checks, <c min max> on an int or float and <c min_len
 * max_len> on a string (its length in bytes): the value found and what was
 * expected, as ATD_ERR_INVALID at the value ("invalid value 0: expected an
 * int >= 1 and <= 65535", "invalid string of 3 bytes: expected ...").
 *   r, w:     the reader or writer that fails.
 *   at:       the value's byte offset in the reader's input.
 *   v, len:   the value found, or the string's length in bytes.
 *   expected: what the bounds accept, a phrase generated from the schema.
 * Return false. */
bool atd_reader_fail_check_int(atd_reader *r, size_t at, int64_t v, const char *expected);
bool atd_reader_fail_check_float(atd_reader *r, size_t at, double v, const char *expected);
bool atd_reader_fail_check_len(atd_reader *r, size_t at, size_t len, const char *expected);
bool atd_writer_fail_check_int(atd_writer *w, int64_t v, const char *expected);
bool atd_writer_fail_check_float(atd_writer *w, double v, const char *expected);
bool atd_writer_fail_check_len(atd_writer *w, size_t len, const char *expected);

#ifdef __cplusplus
}
#endif

#endif
