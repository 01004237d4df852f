/* Tests of streams (atd/stream.h) with the code generated for
 * schemas/event.atd: JSON Lines and top-level arrays from callbacks that
 * split the input at every byte offset or return one byte at a time, from
 * a pipe and a FILE*, and every error (truncated record, invalid UTF-8, a
 * record over the size limit, a read error) with its position in the whole
 * stream, the records before it kept, and skip_bad mode going on after it. */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_main.h"

#include "event.h"

static atd_arena *arena;

static void setup(void)
{
    arena = atd_arena_new(0, NULL);
}

static void teardown(void)
{
    atd_arena_free(arena);
}

/* A callback source over a string: the first read returns at most `first`
 * bytes, later ones at most `step` bytes (0: all that fits); `fail_at`
 * makes the read that would pass that offset fail with EIO; `eintr` makes
 * every other call fail with EINTR first. */
typedef struct src {
    const char *data;
    size_t len, pos;
    size_t first, step;
    size_t fail_at;
    bool eintr, interrupted;
    size_t calls;
} src;

static src source(const char *data)
{
    src s = {data, strlen(data), 0, 0, 0, (size_t)-1, false, false, 0};
    return s;
}

static ptrdiff_t src_read(void *ctx, char *buf, size_t cap)
{
    src *s = ctx;
    s->calls++;
    if (s->eintr && !s->interrupted) {
        s->interrupted = true;
        errno = EINTR;
        return -1;
    }
    s->interrupted = false;
    size_t n = s->len - s->pos;
    size_t limit = s->calls == 1 ? s->first : s->step;
    if (limit != 0 && n > limit)
        n = limit;
    if (n > cap)
        n = cap;
    if (s->pos + n > s->fail_at || (n == 0 && s->fail_at <= s->len && s->pos >= s->fail_at)) {
        errno = EIO;
        return -1;
    }
    memcpy(buf, s->data + s->pos, n);
    s->pos += n;
    return (ptrdiff_t)n;
}

/* Reads every line (or element) of the stream and appends each value's
 * compact JSON and '\n' to out. Returns the number of values. */
static size_t drain(atd_stream *s, bool array, atd_buf *out)
{
    size_t n = 0;
    event_event ev;
    while (array ? event_event_next_element(s, arena, &ev) : event_event_next_line(s, arena, &ev)) {
        atd_error err;
        ck_assert_int_eq(event_event_write_line(&ev, out, &err), 0);
        n++;
        atd_arena_reset(arena);
    }
    return n;
}

static const char lines[] =
    "{\"username\":\"alice\",\"date\":1,\"event_type\":\"Login\",\"payload\":\"\"}\n"
    "\r\n"
    "  \n"
    "{ \"username\" : \"b\\u00e9\\\"ob\", \"date\" : -42,\"event_type\":\"Purchase\","
    "\"payload\":\"x,]}\\\\\"}\r\n"
    "{\"username\":\"\xc3\xa9t\xc3\xa9\",\"date\":\"7\",\"event_type\":\"Cancel\",\"payload\":\"{["
    "\"}";

static const char lines_out[] =
    "{\"username\":\"alice\",\"date\":1,\"event_type\":\"Login\",\"payload\":\"\"}\n"
    "{\"username\":\"b\xc3\xa9\\\"ob\",\"date\":-42,\"event_type\":\"Purchase\","
    "\"payload\":\"x,]}\\\\\"}\n"
    "{\"username\":\"\xc3\xa9t\xc3\xa9\",\"date\":7,\"event_type\":\"Cancel\",\"payload\":\"{[\"}"
    "\n";

static const char array_in[] =
    "[\n  {\"username\":\"alice\",\"date\":1,\"event_type\":\"Login\",\"payload\":\"\"},\n"
    "  { \"username\" : \"b\\u00e9\\\"ob\", \"date\" : -42,\"event_type\":\"Purchase\","
    "\"payload\":\"x,]}\\\\\"} ,"
    "{\"username\":\"\xc3\xa9t\xc3\xa9\",\"date\":\"7\",\"event_type\":\"Cancel\",\"payload\":\"{["
    "\"}\n]\n";

static void check_split(const char *input, bool array, size_t first, size_t step, size_t chunk)
{
    src in = source(input);
    in.first = first;
    in.step = step;
    atd_stream_options opt = {0};
    opt.chunk_size = chunk;
    atd_stream s;
    ck_assert_int_eq(atd_stream_init_cb(&s, src_read, &in, &opt), 0);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_uint_eq(drain(&s, array, &out), 3);
    ck_assert_msg(atd_stream_error(&s) == NULL, "split %zu: %s", first, s.error.message);
    ck_assert_uint_eq(out.len, strlen(lines_out));
    ck_assert_msg(memcmp(out.data, lines_out, out.len) == 0, "split at %zu", first);
    atd_buf_free(&out);
    atd_stream_free(&s);
}

START_TEST(test_lines_every_split)
{
    size_t n = strlen(lines);
    for (size_t k = 0; k <= n; k++) {
        check_split(lines, false, k, 0, 0);
        /* a small chunk: the buffer must grow to hold a line */
        check_split(lines, false, k, 0, 16);
    }
}
END_TEST

START_TEST(test_array_every_split)
{
    size_t n = strlen(array_in);
    for (size_t k = 0; k <= n; k++) {
        check_split(array_in, true, k, 0, 0);
        check_split(array_in, true, k, 0, 16);
    }
}
END_TEST

START_TEST(test_one_byte_at_a_time)
{
    check_split(lines, false, 1, 1, 0);
    check_split(lines, false, 1, 1, 1);
    check_split(array_in, true, 1, 1, 0);
    check_split(array_in, true, 1, 1, 1);
}
END_TEST

START_TEST(test_eintr_is_retried)
{
    src in = source(lines);
    in.eintr = true;
    in.step = 7;
    atd_stream s;
    ck_assert_int_eq(atd_stream_init_cb(&s, src_read, &in, NULL), 0);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_uint_eq(drain(&s, false, &out), 3);
    ck_assert_ptr_null(atd_stream_error(&s));
    ck_assert_uint_eq(out.len, strlen(lines_out));
    atd_buf_free(&out);
    atd_stream_free(&s);
}
END_TEST

/* Runs the stream over input; expects `good` values, then the error. */
static void expect_error(const char *input, bool array, const atd_stream_options *opt, size_t good,
                         int code, const char *message)
{
    src in = source(input);
    in.step = 5;
    atd_stream s;
    ck_assert_int_eq(atd_stream_init_cb(&s, src_read, &in, opt), 0);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_uint_eq(drain(&s, array, &out), good);
    const atd_error *e = atd_stream_error(&s);
    ck_assert_ptr_nonnull(e);
    ck_assert_msg(e->code == (atd_error_code)code, "code %d: %s", (int)e->code, e->message);
    ck_assert_str_eq(e->message, message);
    /* The detail is the message without its position and path. */
    size_t ml = strlen(e->message), dl = strlen(e->detail);
    ck_assert_msg(dl > 0 && dl < ml && strcmp(e->message + ml - dl, e->detail) == 0, "detail %s",
                  e->detail);
    /* and it stays stopped */
    event_event ev;
    ck_assert(!event_event_next_line(&s, arena, &ev));
    ck_assert(!event_event_next_element(&s, arena, &ev));
    atd_buf_free(&out);
    atd_stream_free(&s);
}

#define GOOD "{\"username\":\"a\",\"date\":1,\"event_type\":\"Login\",\"payload\":\"p\"}"

START_TEST(test_truncated_last_line)
{
    expect_error(GOOD "\n" GOOD "\n{\"username\":\"a\",\"da", false, NULL, 2, ATD_ERR_TRUNCATED,
                 "line 3, column 17, at $: the input ends inside a record (unterminated string)");
    expect_error(GOOD "\n" GOOD "\n{\"username\":\"a\",\"date\":", false, NULL, 2,
                 ATD_ERR_TRUNCATED,
                 "line 3, column 24, at $.date: the input ends inside a record (unexpected end of "
                 "input)");
    /* A last line without LF that is whole but wrong is a bad record. */
    expect_error(GOOD "\n{\"username\":1}", false, NULL, 1, ATD_ERR_TYPE,
                 "line 2, column 13, at $.username: expected a string, found 1");
}
END_TEST


START_TEST(test_invalid_utf8_mid_stream)
{
    expect_error(GOOD "\n\n" GOOD "\n{\"username\":\"ab\xff\",\"date\":1}\n" GOOD "\n", false, NULL,
                 2, ATD_ERR_UTF8,
                 "line 4, column 16, at $.username: invalid UTF-8 byte 0xff in string");
}
END_TEST

START_TEST(test_type_error_position)
{
    expect_error(GOOD "\r\n" GOOD "\r\n{\"username\":\"a\",\"date\":2.5,\"event_type\":\"Login\"}",
                 false, NULL, 2, ATD_ERR_TYPE,
                 "line 3, column 24, at $.date: expected an integer, found 2.5");
}
END_TEST

START_TEST(test_line_over_limit)
{
    atd_stream_options opt = {0};
    opt.max_record = 100;
    opt.chunk_size = 8;
    char input[1024];
    snprintf(input, sizeof input, "%s\n{\"username\":\"%0120d\"}\n%s\n", GOOD, 0, GOOD);
    expect_error(input, false, &opt, 1, ATD_ERR_TOO_LARGE,
                 "line 2, column 1, at $: line longer than the limit of 100 bytes");
    /* the same when the whole line arrives in one read */
    opt.chunk_size = 4096;
    expect_error(input, false, &opt, 1, ATD_ERR_TOO_LARGE,
                 "line 2, column 1, at $: line longer than the limit of 100 bytes");
    opt.chunk_size = 8;
    /* a line of exactly the limit is fine */
    char exact[256];
    snprintf(exact, sizeof exact, "%s%*s\n", GOOD, (int)(100 - strlen(GOOD)), "");
    src in = source(exact);
    atd_stream s;
    ck_assert_int_eq(atd_stream_init_cb(&s, src_read, &in, &opt), 0);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_uint_eq(drain(&s, false, &out), 1);
    ck_assert_ptr_null(atd_stream_error(&s));
    atd_buf_free(&out);
    atd_stream_free(&s);
    /* and an array element over the limit */
    snprintf(input, sizeof input, "[%s,{\"username\":\"%0120d\"}]", GOOD, 0);
    expect_error(input, true, &opt, 1, ATD_ERR_TOO_LARGE,
                 "line 1, column 63, at $[1]: array element longer than the limit of 100 bytes");
    opt.chunk_size = 4096;
    expect_error(input, true, &opt, 1, ATD_ERR_TOO_LARGE,
                 "line 1, column 63, at $[1]: array element longer than the limit of 100 bytes");
}
END_TEST

START_TEST(test_read_error)
{
    const char *input = GOOD "\n" GOOD "\n" GOOD "\n";
    src in = source(input);
    in.first = 10;
    in.step = 10;
    in.fail_at = strlen(GOOD) + 30;
    atd_stream s;
    ck_assert_int_eq(atd_stream_init_cb(&s, src_read, &in, NULL), 0);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_uint_eq(drain(&s, false, &out), 1);
    const atd_error *e = atd_stream_error(&s);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->code, ATD_ERR_IO);
    ck_assert_str_eq(e->message, "read error in line 2: Input/output error");
    ck_assert_str_eq(e->detail, "read error: Input/output error");
    atd_buf_free(&out);
    atd_stream_free(&s);
}
END_TEST

typedef struct bad_log {
    char text[1024];
    size_t len;
} bad_log;

static void log_bad(void *ctx, const atd_error *err)
{
    bad_log *log = ctx;
    int n = snprintf(log->text + log->len, sizeof log->text - log->len, "%s\n", err->message);
    ck_assert(n > 0 && (size_t)n < sizeof log->text - log->len);
    log->len += (size_t)n;
}

START_TEST(test_skip_bad_lines)
{
    char input[2048];
    snprintf(
        input, sizeof input,
        "%s\n{\"username\":1}\n%s\nnot json\n{\"username\":\"%0120d\"}\n\n%s\n{\"a\":\"\xc0\"}\n%s",
        GOOD, GOOD, 0, GOOD, GOOD);
    bad_log log = {{0}, 0};
    atd_stream_options opt = {0};
    opt.skip_bad = true;
    opt.on_bad = log_bad;
    opt.on_bad_ctx = &log;
    opt.max_record = 100;
    opt.chunk_size = 16;
    src in = source(input);
    atd_stream s;
    ck_assert_int_eq(atd_stream_init_cb(&s, src_read, &in, &opt), 0);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_uint_eq(drain(&s, false, &out), 4);
    ck_assert_ptr_null(atd_stream_error(&s));
    ck_assert_uint_eq(s.records, 4);
    ck_assert_uint_eq(s.bad_records, 4);
    ck_assert_str_eq(log.text, "line 2, column 13, at $.username: expected a string, found 1\n"
                               "line 4, column 1, at $: expected an object, found not\n"
                               "line 5, column 1, at $: line longer than the limit of 100 bytes\n"
                               "line 8, column 7, at $.a: invalid UTF-8 byte 0xc0 in string\n");
    atd_buf_free(&out);
    atd_stream_free(&s);
}
END_TEST

/* With skip_bad a cut last record is not one more bad record: the stream
 * stops with ATD_ERR_TRUNCATED, after the good records and the bad ones. */
START_TEST(test_truncated_skip_bad)
{
    const char *inputs[] = {GOOD "\n{\"username\":1}\n" GOOD "\n{\"username\":\"a\",\"date\":",
                            "[" GOOD ", {\"username\":1}, " GOOD ", {\"username\":\"a"};
    const char *messages[] = {
        "line 4, column 24, at $.date: the input ends inside a record (unexpected end of input)",
        "line 1, column 154, at $[3].username: the input ends inside a record (unterminated "
        "string)"};
    for (int array = 0; array <= 1; array++) {
        bad_log log = {{0}, 0};
        atd_stream_options opt = {0};
        opt.skip_bad = true;
        opt.on_bad = log_bad;
        opt.on_bad_ctx = &log;
        src in = source(inputs[array]);
        in.step = 3;
        atd_stream s;
        ck_assert_int_eq(atd_stream_init_cb(&s, src_read, &in, &opt), 0);
        atd_buf out;
        atd_buf_init(&out);
        ck_assert_uint_eq(drain(&s, array, &out), 2);
        ck_assert_uint_eq(s.bad_records, 1);
        const atd_error *e = atd_stream_error(&s);
        ck_assert_ptr_nonnull(e);
        ck_assert_int_eq(e->code, ATD_ERR_TRUNCATED);
        ck_assert_str_eq(e->message, messages[array]);
        ck_assert_str_eq(atd_error_code_name(e->code), "TRUNCATED");
        atd_buf_free(&out);
        atd_stream_free(&s);
    }
}
END_TEST

START_TEST(test_array_errors)
{
    expect_error("[\n" GOOD ",\n  {\"username\":\"a\",\n   \"date\":true}]", true, NULL, 1,
                 ATD_ERR_TYPE, "line 4, column 11, at $[1].date: expected an integer, found true");
    expect_error("  {}", true, NULL, 0, ATD_ERR_TYPE,
                 "line 1, column 3, at $: expected an array, found '{'");
    expect_error("[" GOOD " " GOOD "]", true, NULL, 1, ATD_ERR_SYNTAX,
                 "line 1, column 63, at $: expected ',' or ']', found '{'");
    expect_error("[" GOOD ",]", true, NULL, 1, ATD_ERR_SYNTAX,
                 "line 1, column 63, at $[1]: expected an object, found ']'");
    expect_error("[" GOOD "] x", true, NULL, 1, ATD_ERR_TRAILING,
                 "line 1, column 64, at $: unexpected x after the JSON value");
    expect_error("[" GOOD ",\n" GOOD, true, NULL, 2, ATD_ERR_TRUNCATED,
                 "line 2, column 61, at $: the input ends inside a record (unexpected end of "
                 "input)");
    expect_error("[" GOOD ",\n{\"username\":\"a", true, NULL, 1, ATD_ERR_TRUNCATED,
                 "line 2, column 13, at $[1].username: the input ends inside a record "
                 "(unterminated string)");
    expect_error("", true, NULL, 0, ATD_ERR_EOF, "line 1, column 1, at $: unexpected end of input");
}
END_TEST

START_TEST(test_array_skip_bad)
{
    bad_log log = {{0}, 0};
    atd_stream_options opt = {0};
    opt.skip_bad = true;
    opt.on_bad = log_bad;
    opt.on_bad_ctx = &log;
    src in = source("[" GOOD ", {\"date\":[1,{\"x\":\"]\"}]}, " GOOD ", 3\n, " GOOD "]");
    atd_stream s;
    ck_assert_int_eq(atd_stream_init_cb(&s, src_read, &in, &opt), 0);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_uint_eq(drain(&s, true, &out), 3);
    ck_assert_ptr_null(atd_stream_error(&s));
    ck_assert_uint_eq(s.bad_records, 2);
    ck_assert_str_eq(log.text, "line 1, column 72, at $[1].date: expected an integer, found '['\n"
                               "line 1, column 150, at $[3]: expected an object, found 3\n");
    /* empty arrays */
    atd_buf_free(&out);
    atd_stream_free(&s);
    in = source(" [ ] ");
    ck_assert_int_eq(atd_stream_init_cb(&s, src_read, &in, NULL), 0);
    atd_buf_init(&out);
    ck_assert_uint_eq(drain(&s, true, &out), 0);
    ck_assert_ptr_null(atd_stream_error(&s));
    atd_buf_free(&out);
    atd_stream_free(&s);
}
END_TEST

START_TEST(test_pipe_and_file)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    ck_assert_int_eq(write(fds[1], lines, strlen(lines)), (ssize_t)strlen(lines));
    close(fds[1]);
    atd_stream s;
    ck_assert_int_eq(atd_stream_init_fd(&s, fds[0], NULL), 0);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_uint_eq(drain(&s, false, &out), 3);
    ck_assert_ptr_null(atd_stream_error(&s));
    ck_assert(out.len == strlen(lines_out) && memcmp(out.data, lines_out, out.len) == 0);
    atd_stream_free(&s);
    close(fds[0]);

    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    fputs(array_in, f);
    rewind(f);
    ck_assert_int_eq(atd_stream_init_file(&s, f, NULL), 0);
    atd_buf_clear(&out);
    ck_assert_uint_eq(drain(&s, true, &out), 3);
    ck_assert_ptr_null(atd_stream_error(&s));
    ck_assert(out.len == strlen(lines_out) && memcmp(out.data, lines_out, out.len) == 0);
    atd_stream_free(&s);
    fclose(f);

    /* a descriptor that cannot be read */
    ck_assert_int_eq(atd_stream_init_fd(&s, -1, NULL), 0);
    ck_assert_uint_eq(drain(&s, false, &out), 0);
    ck_assert_ptr_nonnull(atd_stream_error(&s));
    ck_assert_str_eq(atd_stream_error(&s)->message, "read error in line 1: Bad file descriptor");
    atd_stream_free(&s);
    atd_buf_free(&out);
}
END_TEST

/* A source that makes up a top-level array of `count` events (or as many
 * JSON Lines) as it is read, so that the input never exists in memory. */
typedef struct generator {
    size_t count, made;
    bool array;
    char pending[256];
    size_t plen, ppos;
    bool closed;
} generator;

static ptrdiff_t generate_read(void *ctx, char *buf, size_t cap)
{
    generator *g = ctx;
    if (g->ppos == g->plen) {
        g->ppos = 0;
        if (g->made < g->count) {
            int n = snprintf(g->pending, sizeof g->pending,
                             "%s{\"username\":\"user%zu\",\"date\":%zu,\"event_type\":\"Logout\","
                             "\"payload\":\"%0*d\"}%s",
                             g->array && g->made == 0 ? "[" : "", g->made, g->made,
                             (int)(g->made % 100), 0, g->array ? "" : "\n");
            if (g->array && g->made > 0) {
                memmove(g->pending + 1, g->pending, (size_t)n + 1);
                g->pending[0] = ',';
                n++;
            }
            g->plen = (size_t)n;
            g->made++;
        } else if (g->array && !g->closed) {
            g->pending[0] = ']';
            g->plen = 1;
            g->closed = true;
        } else {
            return 0;
        }
    }
    size_t n = g->plen - g->ppos;
    if (n > cap)
        n = cap;
    memcpy(buf, g->pending + g->ppos, n);
    g->ppos += n;
    return (ptrdiff_t)n;
}

START_TEST(test_bounded_buffer)
{
    for (int array = 0; array <= 1; array++) {
        generator g = {200000, 0, array, {0}, 0, 0, false};
        atd_stream_options opt = {0};
        opt.chunk_size = 4096;
        atd_stream s;
        ck_assert_int_eq(atd_stream_init_cb(&s, generate_read, &g, &opt), 0);
        event_event ev;
        size_t n = 0;
        while (array ? event_event_next_element(&s, arena, &ev)
                     : event_event_next_line(&s, arena, &ev)) {
            ck_assert_int_eq(ev.date, (int64_t)n);
            ck_assert_uint_eq(ev.payload.len, n % 100 == 0 ? 1 : n % 100);
            n++;
            atd_arena_reset(arena);
        }
        ck_assert_ptr_null(atd_stream_error(&s));
        ck_assert_uint_eq(n, 200000);
        /* about 30 MB went through one chunk plus room for the record
         * being read (records are under 200 bytes here) */
        ck_assert_uint_le(s.cap, 2 * 4096);
        atd_stream_free(&s);
    }
}
END_TEST

static void *no_alloc(void *ctx, size_t size)
{
    (void)ctx;
    (void)size;
    return NULL;
}

static void no_free(void *ctx, void *ptr)
{
    (void)ctx;
    (void)ptr;
}

START_TEST(test_out_of_memory)
{
    atd_allocator none = {no_alloc, no_free, NULL};
    atd_stream_options opt = {0};
    opt.allocator = &none;
    atd_stream s;
    ck_assert_int_eq(atd_stream_init_fd(&s, 0, &opt), ATD_ERR_NOMEM);
    atd_stream_free(&s);
}
END_TEST

START_TEST(test_write_line)
{
    event_event ev;
    atd_error err;
    ck_assert_int_eq(event_event_from_json(GOOD, strlen(GOOD), arena, &ev, &err), 0);
    atd_buf b;
    atd_buf_init(&b);
    ck_assert_int_eq(event_event_write_line(&ev, &b, &err), 0);
    ck_assert_int_eq(event_event_write_line(&ev, &b, &err), 0);
    ck_assert_uint_eq(b.len, 2 * strlen(GOOD) + 2);
    ck_assert(memcmp(b.data, GOOD "\n" GOOD "\n", b.len) == 0);
    /* a value error leaves nothing behind */
    ev.username.ptr = "\xff";
    ev.username.len = 1;
    ck_assert_int_eq(event_event_write_line(&ev, &b, &err), ATD_ERR_UTF8);
    ck_assert_str_eq(err.message, "at $.username: invalid UTF-8 in a string");
    ck_assert_uint_eq(b.len, 2 * strlen(GOOD) + 2);
    atd_buf_free(&b);
}
END_TEST

static Suite *stream_suite(void)
{
    Suite *s = suite_create("stream");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_lines_every_split);
    tcase_add_test(tc, test_array_every_split);
    tcase_add_test(tc, test_one_byte_at_a_time);
    tcase_add_test(tc, test_eintr_is_retried);
    tcase_add_test(tc, test_truncated_last_line);
    tcase_add_test(tc, test_truncated_skip_bad);
    tcase_add_test(tc, test_invalid_utf8_mid_stream);
    tcase_add_test(tc, test_type_error_position);
    tcase_add_test(tc, test_line_over_limit);
    tcase_add_test(tc, test_read_error);
    tcase_add_test(tc, test_skip_bad_lines);
    tcase_add_test(tc, test_array_errors);
    tcase_add_test(tc, test_array_skip_bad);
    tcase_add_test(tc, test_pipe_and_file);
    tcase_add_test(tc, test_out_of_memory);
    tcase_add_test(tc, test_bounded_buffer);
    tcase_add_test(tc, test_write_line);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(stream_suite)
