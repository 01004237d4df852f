/* String writing entry points shared inside atdrt (writer.c implements
 * them, writer_ctx.c builds on them). */
#ifndef ATD_WRITE_STRING_H
#define ATD_WRITE_STRING_H

#include "atd/buf.h"

/* atd_write_string preceded by the raw bytes pre[0..pre_len) (a JSON key
 * such as ",\"name\":", or a separator), written with the same single
 * reservation. Returns like atd_write_string; on ATD_ERR_UTF8 neither the
 * prefix nor the string is written. */
int atd__write_string_after(atd_buf *b, const char *pre, size_t pre_len, const char *s, size_t len,
                            unsigned flags);

#endif
