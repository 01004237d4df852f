/* Unit tests of the output buffer (runtime/src/buf.c): reserve/commit, appends,
 * growth, sticky allocation failures, and the sinks: 100 MB through a callback
 * sink with the buffer never above its chunk, an fd sink into a temporary
 * file, a FILE* sink, and a sink that fails midway; no silent loss: every
 * byte written in writes of all sizes reaches an fd sink by atd_buf_close,
 * atd_buf_free flushes what is pending, and close reports a sink (or, for a
 * FILE*, an fflush) that fails. */
#define _POSIX_C_SOURCE 200809L

#include "atd/buf.h"
#include "atd/error.h"
#include "test_alloc.h"
#include "test_main.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

START_TEST(test_buf_reserve_commit)
{
    atd_buf b;
    atd_buf_init(&b);
    ck_assert_ptr_null(b.data);
    char *p = atd_buf_reserve(&b, 10);
    ck_assert_ptr_nonnull(p);
    memcpy(p, "hello", 5);
    atd_buf_commit(&b, p + 5);
    ck_assert_uint_eq(b.len, 5);
    p = atd_buf_reserve(&b, 3);
    *p++ = ',';
    atd_buf_commit(&b, p);
    atd_buf_putc(&b, 'x');
    atd_buf_puts(&b, "yz");
    atd_buf_append(&b, "\0!", 2);
    ck_assert_uint_eq(b.len, 11);
    ck_assert_int_eq(memcmp(b.data, "hello,xyz\0!", 11), 0);
    ck_assert_int_eq(b.status, 0);
    atd_buf_clear(&b);
    ck_assert_uint_eq(b.len, 0);
    ck_assert_uint_ge(b.cap, 11);
    atd_buf_free(&b);
}
END_TEST

START_TEST(test_buf_growth)
{
    test_alloc c;
    atd_allocator al = test_alloc_start(&c, 0);
    atd_buf b;
    atd_buf_init_with(&b, &al);
    char block[1000];
    for (int i = 0; i < 1000; i++)
        block[i] = (char)(i * 13);
    for (int i = 0; i < 3000; i++)
        atd_buf_append(&b, block, (size_t)(i % 1000) + 1);
    size_t expected = 0;
    for (int i = 0; i < 3000; i++)
        expected += (size_t)(i % 1000) + 1;
    ck_assert_uint_eq(b.len, expected);
    ck_assert_int_eq(b.status, 0);
    /* Doubling: few reallocations, capacity within 2x of the content. */
    ck_assert_int_le(c.calls, 20);
    ck_assert_uint_le(b.cap, 2 * expected);
    size_t off = 0;
    for (int i = 0; i < 3000; i++) {
        size_t n = (size_t)(i % 1000) + 1;
        ck_assert_int_eq(memcmp(b.data + off, block, n), 0);
        off += n;
    }
    /* A single huge reservation grows at once. */
    ck_assert_ptr_nonnull(atd_buf_reserve(&b, 10000000));
    ck_assert_uint_ge(b.cap - b.len, 10000000);
    atd_buf_free(&b);
    ck_assert_int_eq(c.live, 0);
}
END_TEST

START_TEST(test_buf_alloc_failure_sticky)
{
    test_alloc c;
    atd_allocator al = test_alloc_start(&c, 3);
    atd_buf b;
    atd_buf_init_with(&b, &al);
    char block[300];
    memset(block, 'a', sizeof block);
    size_t len_before_failure = 0;
    for (int i = 0; i < 100; i++) {
        size_t before = b.len;
        atd_buf_append(&b, block, sizeof block);
        if (b.status != 0 && len_before_failure == 0)
            len_before_failure = before;
    }
    ck_assert_int_eq(b.status, ATD_ERR_NOMEM);
    ck_assert_uint_eq(b.len, len_before_failure);
    ck_assert_ptr_null(atd_buf_reserve(&b, 1));
    atd_buf_putc(&b, 'x');
    ck_assert_uint_eq(b.len, len_before_failure);
    /* Content written before the failure is intact. */
    for (size_t i = 0; i < b.len; i++)
        ck_assert_int_eq(b.data[i], 'a');
    atd_buf_free(&b);
    ck_assert_int_eq(c.live, 0);
}
END_TEST

START_TEST(test_buf_size_overflow)
{
    test_alloc c;
    atd_allocator al = test_alloc_start(&c, 0);
    atd_buf b;
    atd_buf_init_with(&b, &al);
    atd_buf_append(&b, "abc", 3);
    ck_assert_ptr_null(atd_buf_reserve(&b, SIZE_MAX));
    ck_assert_int_eq(b.status, ATD_ERR_NOMEM);
    atd_buf_clear(&b);
    ck_assert_int_eq(b.status, 0);
    ck_assert_ptr_null(atd_buf_reserve(&b, SIZE_MAX - 100));
    ck_assert_int_eq(b.status, ATD_ERR_NOMEM);
    atd_buf_free(&b);
    ck_assert_int_eq(c.live, 0);
}
END_TEST

/* The stream written in the 100 MB test is a periodic pattern; the sink checks
 * each block against it with memcmp, tracks the buffer's capacity, and counts. */
#define PERIOD 1000003u
#define MAX_PIECE 300000u

typedef struct checker {
    const unsigned char *pattern; /* PERIOD + MAX_PIECE bytes */
    uint64_t received;
    uint64_t sum;       /* of the first byte of every 4 KiB page: order-sensitive */
    const atd_buf *buf; /* watched for its capacity */
    size_t max_cap;
    long calls;
    bool mismatch;
} checker;

static int checking_sink(void *ctx, const char *data, size_t len)
{
    checker *k = ctx;
    k->calls++;
    if (k->buf->cap > k->max_cap)
        k->max_cap = k->buf->cap;
    size_t done = 0;
    while (done < len) {
        size_t off = (size_t)((k->received + done) % PERIOD);
        size_t n = len - done;
        if (n > MAX_PIECE)
            n = MAX_PIECE;
        if (memcmp(data + done, k->pattern + off, n) != 0)
            k->mismatch = true;
        done += n;
    }
    for (uint64_t pos = (k->received + 4095) / 4096 * 4096; pos < k->received + len; pos += 4096)
        k->sum += (unsigned char)data[pos - k->received] * (pos / 4096 % 7 + 1);
    k->received += len;
    return 0;
}

START_TEST(test_buf_sink_100mb_bounded)
{
    unsigned char *pattern = malloc(PERIOD + MAX_PIECE);
    ck_assert_ptr_nonnull(pattern);
    uint32_t x = 12345;
    for (size_t i = 0; i < PERIOD; i++) {
        x = x * 1103515245u + 12345u;
        pattern[i] = (unsigned char)(x >> 24);
    }
    memcpy(pattern + PERIOD, pattern, MAX_PIECE);

    checker k = {pattern, 0, 0, NULL, 0, 0, false};
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_sink(&b, checking_sink, &k, 0), 0);
    k.buf = &b;
    ck_assert_uint_eq(b.cap, ATD_BUF_SINK_CHUNK);

    const uint64_t total = 100u * 1000u * 1000u;
    static const size_t sizes[] = {1, 100, 5000, 70000, MAX_PIECE, 65536, 3, 20000};
    uint64_t written = 0;
    uint64_t expected_sum = 0;
    for (unsigned i = 0; written < total; i++) {
        size_t n = sizes[i % 8];
        size_t off = (size_t)(written % PERIOD);
        if (i % 3 == 0 && n <= 20000) {
            /* Reserve-then-write path. */
            char *p = atd_buf_reserve(&b, n);
            ck_assert_ptr_nonnull(p);
            memcpy(p, pattern + off, n);
            atd_buf_commit(&b, p + n);
        } else {
            atd_buf_append(&b, pattern + off, n);
        }
        written += n;
        ck_assert_uint_le(b.cap, ATD_BUF_SINK_CHUNK);
    }
    ck_assert_int_eq(atd_buf_flush(&b), 0);
    for (uint64_t pos = 0; pos < written; pos += 4096)
        expected_sum += pattern[pos % PERIOD] * (pos / 4096 % 7 + 1);
    ck_assert_uint_eq(k.received, written);
    ck_assert_uint_eq(b.flushed, written);
    ck_assert_uint_eq(b.len, 0);
    ck_assert(!k.mismatch);
    ck_assert_uint_eq(k.sum, expected_sum);
    ck_assert_uint_eq(k.max_cap, ATD_BUF_SINK_CHUNK);
    ck_assert_uint_eq(b.cap, ATD_BUF_SINK_CHUNK);
    /* Far fewer sink calls than appends: pending bytes are batched. */
    ck_assert_int_lt(k.calls, 4000);
    atd_buf_free(&b);
    free(pattern);
}
END_TEST

typedef struct collector {
    char *data;
    size_t len;
    size_t cap;
    size_t fail_after; /* fail a call that would take the total past this */
    long calls;
} collector;

static int collecting_sink(void *ctx, const char *data, size_t len)
{
    collector *c = ctx;
    c->calls++;
    if (c->len + len > c->fail_after)
        return -1;
    if (c->len + len > c->cap) {
        size_t cap = (c->len + len) * 2;
        char *p = realloc(c->data, cap);
        if (p == NULL)
            return -1;
        c->data = p;
        c->cap = cap;
    }
    memcpy(c->data + c->len, data, len);
    c->len += len;
    return 0;
}

START_TEST(test_buf_sink_failure)
{
    collector c = {NULL, 0, 0, 10000, 0};
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_sink(&b, collecting_sink, &c, 1024), 0);
    char block[100];
    memset(block, 'z', sizeof block);
    for (int i = 0; i < 1000; i++)
        atd_buf_append(&b, block, sizeof block);
    ck_assert_int_eq(b.status, ATD_ERR_IO);
    ck_assert_int_eq(atd_buf_flush(&b), ATD_ERR_IO);
    ck_assert_ptr_null(atd_buf_reserve(&b, 1));
    ck_assert_uint_le(c.len, 10000);
    ck_assert_uint_eq(b.flushed, c.len);
    /* After the failure nothing else reaches the sink. */
    long calls = c.calls;
    atd_buf_append(&b, block, sizeof block);
    atd_buf_flush(&b);
    ck_assert_int_eq(c.calls, calls);
    atd_buf_free(&b);
    free(c.data);
}
END_TEST

START_TEST(test_buf_sink_large_reservation)
{
    collector c = {NULL, 0, 0, SIZE_MAX, 0};
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_sink(&b, collecting_sink, &c, 64), 0);
    atd_buf_append(&b, "head", 4);
    char *p = atd_buf_reserve(&b, 1000);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_ge(b.cap, 1000);
    memset(p, 'q', 1000);
    atd_buf_commit(&b, p + 1000);
    ck_assert_int_eq(atd_buf_flush(&b), 0);
    /* Back to the chunk size once flushed. */
    ck_assert_uint_eq(b.cap, 64);
    ck_assert_uint_eq(c.len, 1004);
    ck_assert_int_eq(memcmp(c.data, "headqqq", 7), 0);
    /* atd_buf_free passes the pending bytes on. */
    atd_buf_append(&b, "tail", 4);
    atd_buf_free(&b);
    ck_assert_uint_eq(c.len, 1008);
    ck_assert_int_eq(memcmp(c.data + 1004, "tail", 4), 0);
    free(c.data);
}
END_TEST

START_TEST(test_buf_fd_sink)
{
    char path[] = "/tmp/atd_check_buf_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    size_t total = 3 * ATD_BUF_SINK_CHUNK + 12345;
    char *expected = malloc(total);
    ck_assert_ptr_nonnull(expected);
    for (size_t i = 0; i < total; i++)
        expected[i] = (char)('a' + i % 26);
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_fd(&b, fd), 0);
    for (size_t off = 0; off < total;) {
        size_t n = total - off < 777 ? total - off : 777;
        atd_buf_append(&b, expected + off, n);
        off += n;
    }
    atd_buf_append(&b, expected, 0);
    ck_assert_int_eq(atd_buf_flush(&b), 0);
    atd_buf_free(&b);
    ck_assert_int_eq((int)lseek(fd, 0, SEEK_SET), 0);
    char *got = malloc(total + 1);
    ck_assert_ptr_nonnull(got);
    size_t n = 0;
    ssize_t r;
    while ((r = read(fd, got + n, total + 1 - n)) > 0)
        n += (size_t)r;
    ck_assert_uint_eq(n, total);
    ck_assert_int_eq(memcmp(got, expected, total), 0);
    close(fd);
    free(got);
    free(expected);
}
END_TEST

/* The whole content of fd (a temporary file), in a malloc'ed block. */
static char *read_back(int fd, size_t *len)
{
    ck_assert_int_eq((int)lseek(fd, 0, SEEK_SET), 0);
    size_t cap = 1 << 16, n = 0;
    char *got = malloc(cap);
    ck_assert_ptr_nonnull(got);
    ssize_t r;
    while ((r = read(fd, got + n, cap - n)) > 0) {
        n += (size_t)r;
        if (n == cap) {
            cap *= 2;
            got = realloc(got, cap);
            ck_assert_ptr_nonnull(got);
        }
    }
    ck_assert_int_eq((int)r, 0);
    *len = n;
    return got;
}

static int temp_fd(void)
{
    char path[] = "/tmp/atd_check_buf_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    return fd;
}

/* Writes of every size (1 byte to twice the chunk, by append, reserve and
 * commit, putc), ending with bytes still pending: atd_buf_close returns 0
 * and the file holds exactly the bytes written, in order. */
START_TEST(test_buf_fd_close_every_byte)
{
    int fd = temp_fd();
    size_t cap = (size_t)16 << 20, total = 0;
    char *expected = malloc(cap);
    ck_assert_ptr_nonnull(expected);
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_fd(&b, fd), 0);
    uint32_t seed = 12345;
    for (int i = 0; i < 3000; i++) {
        seed = seed * 1103515245u + 12345u;
        size_t n = 1 + (seed >> 8) % (i % 10 == 0 ? 2 * ATD_BUF_SINK_CHUNK : 300);
        if (total + n > cap)
            break;
        for (size_t k = 0; k < n; k++)
            expected[total + k] = (char)(' ' + (total + k) % 90);
        switch (i % 3) {
        case 0:
            atd_buf_append(&b, expected + total, n);
            break;
        case 1: {
            char *p = atd_buf_reserve(&b, n);
            ck_assert_ptr_nonnull(p);
            memcpy(p, expected + total, n);
            atd_buf_commit(&b, p + n);
            break;
        }
        default:
            for (size_t k = 0; k < n; k++)
                atd_buf_putc(&b, expected[total + k]);
        }
        total += n;
    }
    const char *tail = "{\"tail\":\"bytes still pending\"}\n";
    atd_buf_puts(&b, tail);
    memcpy(expected + total, tail, strlen(tail));
    total += strlen(tail);
    ck_assert_uint_gt(b.len, 0);
    ck_assert_int_eq(atd_buf_close(&b), 0);
    ck_assert_ptr_null(b.data);
    size_t n;
    char *got = read_back(fd, &n);
    ck_assert_uint_eq(n, total);
    ck_assert_int_eq(memcmp(got, expected, total), 0);
    close(fd);
    free(got);
    free(expected);
}
END_TEST

/* A buffer freed with bytes pending (no flush, no close) still delivers them. */
START_TEST(test_buf_fd_free_flushes)
{
    int fd = temp_fd();
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_fd(&b, fd), 0);
    const char *line = "{\"a\":1,\"b\":\"pending bytes\"}\n";
    atd_buf_puts(&b, line);
    atd_buf_free(&b);
    size_t n;
    char *got = read_back(fd, &n);
    ck_assert_uint_eq(n, strlen(line));
    ck_assert_int_eq(memcmp(got, line, n), 0);
    close(fd);
    free(got);
}
END_TEST

/* close reports what did not arrive: a bad descriptor, a FILE* whose
 * fflush fails (a full device), and a sink that failed earlier. */
START_TEST(test_buf_close_reports_failure)
{
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_fd(&b, -1), 0);
    atd_buf_puts(&b, "data");
    ck_assert_int_eq(atd_buf_close(&b), ATD_ERR_IO);

    FILE *full = fopen("/dev/full", "w");
    if (full != NULL) {
        ck_assert_int_eq(atd_buf_init_file(&b, full), 0);
        atd_buf_puts(&b, "data");
        ck_assert_int_eq(atd_buf_close(&b), ATD_ERR_IO);
        fclose(full);
    }

    collector c = {NULL, 0, 0, 10, 0};
    ck_assert_int_eq(atd_buf_init_sink(&b, collecting_sink, &c, 8), 0);
    atd_buf_puts(&b, "0123456789abcdef");
    atd_buf_puts(&b, "more");
    ck_assert_int_eq(atd_buf_close(&b), ATD_ERR_IO);
    free(c.data);

    atd_buf mem;
    atd_buf_init(&mem);
    atd_buf_puts(&mem, "in memory");
    ck_assert_int_eq(atd_buf_close(&mem), 0);
}
END_TEST

START_TEST(test_buf_fd_sink_error)
{
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_fd(&b, -1), 0);
    atd_buf_puts(&b, "data");
    ck_assert_int_eq(atd_buf_flush(&b), ATD_ERR_IO);
    atd_buf_free(&b);
}
END_TEST

START_TEST(test_buf_file_sink)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_file(&b, f), 0);
    for (int i = 0; i < 20000; i++)
        atd_buf_puts(&b, "0123456789");
    ck_assert_int_eq(atd_buf_flush(&b), 0);
    atd_buf_free(&b);
    ck_assert_int_eq(fflush(f), 0);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    ck_assert_int_eq(ftell(f), 200000);
    rewind(f);
    char got[10];
    ck_assert_uint_eq(fread(got, 1, 10, f), 10);
    ck_assert_int_eq(memcmp(got, "0123456789", 10), 0);
    fclose(f);
}
END_TEST

START_TEST(test_buf_file_sink_error)
{
    /* A stream opened for reading only: every fwrite fails. */
    FILE *ro = fopen("/dev/null", "r");
    ck_assert_ptr_nonnull(ro);
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_file(&b, ro), 0);
    atd_buf_puts(&b, "data");
    ck_assert_int_eq(atd_buf_flush(&b), ATD_ERR_IO);
    atd_buf_free(&b);
    fclose(ro);
}
END_TEST

Suite *buf_suite(void);
Suite *buf_suite(void)
{
    Suite *s = suite_create("buf");
    TCase *mem = tcase_create("memory");
    tcase_add_test(mem, test_buf_reserve_commit);
    tcase_add_test(mem, test_buf_growth);
    tcase_add_test(mem, test_buf_alloc_failure_sticky);
    tcase_add_test(mem, test_buf_size_overflow);
    suite_add_tcase(s, mem);
    TCase *sink = tcase_create("sink");
    tcase_set_timeout(sink, 30);
    tcase_add_test(sink, test_buf_sink_100mb_bounded);
    tcase_add_test(sink, test_buf_sink_failure);
    tcase_add_test(sink, test_buf_sink_large_reservation);
    tcase_add_test(sink, test_buf_fd_sink);
    tcase_add_test(sink, test_buf_fd_sink_error);
    tcase_add_test(sink, test_buf_fd_close_every_byte);
    tcase_add_test(sink, test_buf_fd_free_flushes);
    tcase_add_test(sink, test_buf_close_reports_failure);
    tcase_add_test(sink, test_buf_file_sink);
    tcase_add_test(sink, test_buf_file_sink_error);
    suite_add_tcase(s, sink);
    return s;
}

ATD_CHECK_MAIN(buf_suite)
