/* Output buffer: the slow paths behind the inline atd_buf_reserve of buf.h,
 * and the sinks (callback, file descriptor, FILE*).
 *
 * An in-memory buffer doubles through its allocator (the allocator has no
 * realloc, so growth is alloc + copy + free). A sink-bound buffer keeps a fixed
 * chunk: a reservation that does not fit flushes first, and large appends
 * bypass the buffer, so writing gigabytes needs one chunk of memory. Every
 * failure is sticky in `status` so that writers check once, at the end, and
 * freeing flushes, so pending bytes are never dropped without a word. */
#define _POSIX_C_SOURCE 200809L

#include "atd/buf.h"
#include "atd/error.h"
#include "alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIN_CAP 256

void atd_buf_init_with(atd_buf *b, const atd_allocator *allocator)
{
    memset(b, 0, sizeof *b);
    b->allocator = atd__allocator_or_default(allocator);
}

void atd_buf_init(atd_buf *b)
{
    atd_buf_init_with(b, NULL);
}

int atd_buf_init_sink(atd_buf *b, atd_sink_fn sink, void *ctx, size_t chunk_size)
{
    atd_buf_init_with(b, NULL);
    b->sink = sink;
    b->sink_ctx = ctx;
    b->chunk_size = chunk_size != 0 ? chunk_size : ATD_BUF_SINK_CHUNK;
    b->data = b->allocator.alloc(b->allocator.ctx, b->chunk_size);
    if (b->data == NULL) {
        b->status = ATD_ERR_NOMEM;
        return ATD_ERR_NOMEM;
    }
    b->cap = b->chunk_size;
    return 0;
}

static int fd_sink(void *ctx, const char *data, size_t len)
{
    int fd = (int)(intptr_t)ctx;
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (n == 0)
            return -1; /* no progress: give up rather than spin */
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

int atd_buf_init_fd(atd_buf *b, int fd)
{
    return atd_buf_init_sink(b, fd_sink, (void *)(intptr_t)fd, 0);
}

static int file_sink(void *ctx, const char *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

int atd_buf_init_file(atd_buf *b, FILE *f)
{
    return atd_buf_init_sink(b, file_sink, f, 0);
}

/* Replaces the storage by `cap` bytes, keeping the first `keep` bytes. */
static bool resize(atd_buf *b, size_t cap, size_t keep)
{
    char *fresh = b->allocator.alloc(b->allocator.ctx, cap);
    if (fresh == NULL)
        return false;
    if (keep != 0)
        memcpy(fresh, b->data, keep);
    b->allocator.free(b->allocator.ctx, b->data);
    b->data = fresh;
    b->cap = cap;
    return true;
}

int atd_buf_flush(atd_buf *b)
{
    if (b->sink == NULL || b->status != 0)
        return b->status;
    if (b->len != 0) {
        if (b->sink(b->sink_ctx, b->data, b->len) != 0) {
            b->status = ATD_ERR_IO;
            return b->status;
        }
        b->flushed += b->len;
        b->len = 0;
    }
    /* Back to the normal chunk after a temporarily large reservation; keeping
     * the large block is harmless if the allocator refuses. */
    if (b->cap > b->chunk_size)
        resize(b, b->chunk_size, 0);
    return 0;
}

int atd_buf_close(atd_buf *b)
{
    int status = atd_buf_flush(b);
    if (status == 0 && b->sink == file_sink && fflush((FILE *)b->sink_ctx) != 0)
        status = b->status = ATD_ERR_IO;
    atd_buf_free(b);
    return status;
}

void atd_buf_free(atd_buf *b)
{
    atd_buf_flush(b);
    if (b->data != NULL)
        b->allocator.free(b->allocator.ctx, b->data);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void atd_buf_clear(atd_buf *b)
{
    b->len = 0;
    b->status = 0;
}

char *atd__buf_reserve_slow(atd_buf *b, size_t n)
{
    if (b->status != 0)
        return NULL;
    if (b->cap - b->len >= n)
        return b->data + b->len;
    if (b->sink != NULL) {
        if (atd_buf_flush(b) != 0)
            return NULL;
        if (b->cap >= n)
            return b->data;
        if (!resize(b, n, 0)) {
            b->status = ATD_ERR_NOMEM;
            return NULL;
        }
        return b->data;
    }
    if (n > SIZE_MAX - b->len) {
        b->status = ATD_ERR_NOMEM;
        return NULL;
    }
    size_t need = b->len + n;
    size_t cap = b->cap < MIN_CAP ? MIN_CAP : b->cap;
    while (cap < need)
        cap = cap <= SIZE_MAX / 2 ? cap * 2 : need;
    if (!resize(b, cap, b->len)) {
        b->status = ATD_ERR_NOMEM;
        return NULL;
    }
    return b->data + b->len;
}

void atd_buf_append(atd_buf *b, const void *bytes, size_t n)
{
    if (b->status != 0 || n == 0)
        return;
    if (b->cap - b->len >= n) {
        memcpy(b->data + b->len, bytes, n);
        b->len += n;
        return;
    }
    if (b->sink != NULL) {
        if (atd_buf_flush(b) != 0)
            return;
        if (n < b->cap) {
            memcpy(b->data, bytes, n);
            b->len = n;
            return;
        }
        if (b->sink(b->sink_ctx, bytes, n) != 0) {
            b->status = ATD_ERR_IO;
            return;
        }
        b->flushed += n;
        return;
    }
    char *p = atd__buf_reserve_slow(b, n);
    if (p == NULL)
        return;
    memcpy(p, bytes, n);
    b->len += n;
}

void atd_buf_putc(atd_buf *b, char c)
{
    char *p = atd_buf_reserve(b, 1);
    if (p != NULL) {
        *p = c;
        b->len++;
    }
}

void atd_buf_puts(atd_buf *b, const char *s)
{
    atd_buf_append(b, s, strlen(s));
}
