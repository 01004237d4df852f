/* Internals of atd/buf.h, which includes this file after its types (inside
 * its extern "C" block). Not API: these names may change in any release. */
#ifndef ATD_DETAIL_BUF_H
#define ATD_DETAIL_BUF_H

/* Slow path of atd_buf_reserve: grows the buffer, or flushes it to its sink. */
char *atd__buf_reserve_slow(atd_buf *b, size_t n);

#endif
