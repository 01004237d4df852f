/* cw: the code writer, the only way generated text reaches an output file
 * (readable like hand-written code). Lines are collected in memory (an atd_buf); indentation
 * follows cw_open/cw_close nesting, so emitter format strings never contain a
 * newline or leading spaces. Every printing function is printf-checked.
 *
 *     cw_open(w, "bool %s_read(atd_reader *r, %s *out)", fn, ty);  // line + "{", indent
 *     cw_line(w, "return true;");
 *     cw_close(w, "}");                                            // dedent + "}"
 *
 * An `if` block whose body is one jump (return, goto, break, continue) is
 * printed as one line, `if (p == NULL) return NULL;`, when it fits in 100
 * columns, so that the error checks of generated code do not take three
 * lines each.
 *
 * cw_end_item asserts that the depth is back to zero after each top-level
 * definition, so a missing cw_close shows up at once. */
#ifndef ATDC_CW_H
#define ATDC_CW_H

#include <stdbool.h>
#include <stddef.h>

#include "atd/arena.h"
#include "atd/buf.h"
#include "atd/common.h"
#include "atd/error.h"

typedef struct cw {
    atd_buf out;
    int depth;
    /* The innermost block opened last, while it may still become one line:
     * the offsets of its header line and of its only body line so far, and
     * how many body lines it has (-1: it cannot be joined). */
    size_t block_at, body_at;
    int body_lines;
    atd_arena *scratch; /* the strings of cw_fmt and cw_c_string */
} cw;

void cw_init(cw *w);
void cw_free(cw *w);

/* One line at the current indentation. */
void cw_line(cw *w, const char *fmt, ...) ATD_PRINTF(2, 3);
/* One line ending with " {" (or the line as given when fmt ends with '{' or
 * is exactly "{"), then indents. */
void cw_open(cw *w, const char *fmt, ...) ATD_PRINTF(2, 3);
/* Dedents, then prints the line (usually "}" or "};" or "} else {"); an
 * `if` block closed by "}" with one jump for body becomes one line. */
void cw_close(cw *w, const char *fmt, ...) ATD_PRINTF(2, 3);
/* Dedents, prints the line, indents again: "} else {", "case 3:". */
void cw_mid(cw *w, const char *fmt, ...) ATD_PRINTF(2, 3);
/* A continuation line of a statement, one level deeper than the current. */
void cw_cont(cw *w, const char *fmt, ...) ATD_PRINTF(2, 3);
/* An empty line. */
void cw_blank(cw *w);
/* A line at column 0 (preprocessor lines, goto labels). */
void cw_label(cw *w, const char *fmt, ...) ATD_PRINTF(2, 3);
/* A block comment "/" "* text *" "/" at the current indentation; the text
 * must not contain the comment terminator (it is replaced when it does). */
void cw_comment(cw *w, const char *fmt, ...) ATD_PRINTF(2, 3);
/* Asserts that every cw_open was closed. */
void cw_end_item(cw *w);

/* Every piece of generated text is built in growable memory, never in a
 * fixed buffer that could cut it short. The two functions below return
 * strings that live until cw_free; when memory runs out they return "" and
 * the output's status records it (out.status != 0), which the driver checks
 * before writing anything, as for any failed append. */

/* Zeroed memory for n bytes; NULL when out of memory. */
void *cw_alloc(cw *w, size_t size);

/* A formatted string. */
const char *cw_fmt(cw *w, const char *fmt, ...) ATD_PRINTF(2, 3);

/* Renders bytes as the body of a C string literal (without the quotes):
 * printable ASCII is kept, '"', '\\' and '?' (trigraphs) are escaped, every
 * other byte becomes a 3-digit octal escape. */
const char *cw_c_string(cw *w, const char *bytes, size_t len);

/* The bytes as the C expression ATD_LIT("..."): the literal and its length,
 * two arguments. */
const char *cw_lit(cw *w, const char *bytes, size_t len);

#endif
