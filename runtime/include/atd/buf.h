/* Output buffer. Writers reserve the worst case once, then write without
 * bounds checks:
 *
 *     char *p = atd_buf_reserve(b, ATD_INT64_CHARS + 1);
 *     if (!p) return fail;
 *     p = atd_write_int64(p, v);
 *     *p++ = ',';
 *     atd_buf_commit(b, p);
 *
 * A buffer is either in memory (it grows, and `data`/`len` hold the whole
 * output) or bound to a sink (file descriptor, FILE*, or callback): then it
 * never grows beyond its chunk size; whenever a reservation does not fit, the
 * pending bytes are flushed to the sink first. Memory stays bounded however
 * large the value written is.
 *
 * Errors (allocation or sink failure) are sticky: the first one is recorded in
 * `status`, later reservations return NULL and appends do nothing.
 *
 * A sink-bound buffer ends with atd_buf_close, which passes the last pending
 * bytes to the sink and says whether every byte got there:
 *
 *     atd_buf out;
 *     if (atd_buf_init_fd(&out, 1) != 0) ...out of memory...
 *     ...P_t_write_line(&v, &out, &err)...
 *     if (atd_buf_close(&out) != 0) ...the output is incomplete...
 *
 * atd_buf_free flushes too, so no byte is dropped silently, but it cannot
 * report a failure. */
#ifndef ATD_BUF_H
#define ATD_BUF_H

#include <stdio.h>
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A sink: receives data[0..len), the bytes a buffer passes on.
 *   ctx:  the pointer given to atd_buf_init_sink.
 *   data: the bytes, valid only during the call.
 *   len:  how many, never 0.
 * Returns 0 when every byte was taken, nonzero on failure (the buffer then
 * records ATD_ERR_IO and drops later output). */
typedef int (*atd_sink_fn)(void *ctx, const char *data, size_t len);

typedef struct atd_buf {
    char *data;       /* public: the bytes written (and not yet flushed) */
    size_t len;       /* public: number of bytes in data */
    size_t cap;       /* capacity of data */
    int status;       /* 0, or an atd_error_code (ATD_ERR_NOMEM, ATD_ERR_IO) */
    atd_sink_fn sink; /* NULL: in-memory buffer */
    void *sink_ctx;
    size_t flushed; /* bytes already passed to the sink */
    atd_allocator allocator;
    size_t chunk_size; /* sink mode: the normal capacity (a larger reservation grows
                          the buffer until the next flush) */
} atd_buf;

#include "detail/buf.h" /* the slow path of atd_buf_reserve */

#define ATD_BUF_SINK_CHUNK 65536

/* In-memory buffer, initially empty (no allocation until the first write).
 *   b:         the buffer to set up.
 *   allocator: where its memory comes from; NULL: malloc and free. Copied;
 *              its ctx must outlive the buffer. */
void atd_buf_init(atd_buf *b);
void atd_buf_init_with(atd_buf *b, const atd_allocator *allocator);

/* Buffer bound to a sink.
 *   b:          the buffer to set up.
 *   sink:       called with the pending bytes whenever the buffer is full,
 *               and by atd_buf_flush, atd_buf_close and atd_buf_free.
 *   ctx:        passed to every call of sink.
 *   chunk_size: the buffer's capacity in bytes (0: ATD_BUF_SINK_CHUNK),
 *               allocated here.
 * Returns 0, or ATD_ERR_NOMEM. */
int atd_buf_init_sink(atd_buf *b, atd_sink_fn sink, void *ctx, size_t chunk_size);
/* The same with a sink of the runtime's that writes to the descriptor fd
 * (retrying on EINTR and short writes) or to the stream f, and a chunk of
 * ATD_BUF_SINK_CHUNK bytes. Neither is closed by the buffer. */
int atd_buf_init_fd(atd_buf *b, int fd);
int atd_buf_init_file(atd_buf *b, FILE *f);

/* Passes pending bytes to the sink (no-op for in-memory buffers). Returns status. */
int atd_buf_flush(atd_buf *b);

/* Ends a buffer: passes the pending bytes to the sink (for a FILE* sink, also
 * fflushes the FILE, so that its errors show here), releases the memory, and
 * returns the status: 0 when every byte written reached the sink, else the
 * first error (ATD_ERR_IO, ATD_ERR_NOMEM). For an in-memory buffer it is
 * atd_buf_free returning the status. The descriptor or FILE stays open. */
int atd_buf_close(atd_buf *b);

/* Releases the memory. A sink-bound buffer first passes its pending bytes to
 * the sink (when no error is recorded) without being able to report a
 * failure: use atd_buf_close to know. */
void atd_buf_free(atd_buf *b);

/* Empties an in-memory buffer, keeping its memory, and clears status. On a
 * sink-bound buffer it drops the pending bytes (and clears status) without
 * flushing them: the one call that discards output on purpose. */
void atd_buf_clear(atd_buf *b);

/* Returns a pointer where at least `n` bytes may be written, or NULL on error.
 * Nothing is added until atd_buf_commit. For a sink-bound buffer, `n` larger
 * than the chunk size grows the buffer temporarily (callers of large strings
 * use atd_buf_append or atd_buf_write_string, which stream in chunks). */
static inline char *atd_buf_reserve(atd_buf *b, size_t n)
{
    if (ATD_LIKELY(b->cap - b->len >= n && b->status == 0))
        return b->data + b->len;
    return atd__buf_reserve_slow(b, n);
}

/* Marks everything up to `end` (a pointer inside the last reservation) as written. */
static inline void atd_buf_commit(atd_buf *b, char *end)
{
    b->len = (size_t)(end - b->data);
}

/* Appends n bytes. On a sink-bound buffer a block that does not fit is
 * streamed: pending bytes are flushed, then a block of at least the chunk size
 * goes straight to the sink, so memory stays at the chunk size. */
void atd_buf_append(atd_buf *b, const void *bytes, size_t n);
void atd_buf_putc(atd_buf *b, char c);
/* Appends a NUL-terminated C string (calls strlen: not for hot paths). */
void atd_buf_puts(atd_buf *b, const char *s);

#ifdef __cplusplus
}
#endif

#endif
