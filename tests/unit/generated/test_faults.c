/* Fault injection: allocation failures and output failures at every point
 * where they can happen, for generated readers and writers and for the
 * generic JSON value.
 *
 * Readers: an arena whose atd_allocator fails its Nth call (N = 1, 2, ...
 * until the read succeeds), in two modes -- only the Nth call fails (the code
 * must recover when later calls succeed) or every call from the Nth on (the
 * machine is out of memory). Every failing read must return ATD_ERR_NOMEM
 * with a message, and once the arena is freed no block may be left: the
 * allocator counts live blocks. The first arena chunk is tiny so that a
 * small document crosses many allocation points; the documents are
 * tests/conformance/everything_root.json (every construct of everything.atd,
 * including `abstract` values, whose reader takes a scratch stack from the
 * allocator), twitter.json (a large real document) and a deeply nested
 * generic value (the parser's scratch stack grows beyond its local buffer).
 *
 * Writers: an in-memory atd_buf whose allocator fails its Nth call, and a
 * sink-bound buffer whose sink fails once it has accepted K bytes, for every
 * K up to the output length: the writer reports ATD_ERR_NOMEM or ATD_ERR_IO
 * (never success, never a crash), an in-memory buffer is left as it was
 * before the call, and with a sink that never fails the bytes are exactly the
 * in-memory output. ASan (run-tests.sh) and valgrind (run-valgrind.sh)
 * prove there is no invalid access and no leak on any of these paths. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_alloc.h"
#include "test_main.h"
#include "test_files.h"

#include "atd/json.h"
#include "everything.h"
#include "twitter.h"

#define CONFORMANCE_DIR ATD_SOURCE_DIR "/tests/conformance"
#define BENCH_DIR ATD_SHARED_DIR "/data/bench"

/* A read through some reader into an arena; returns its status. */
typedef int (*read_fn)(const char *json, size_t len, atd_arena *arena);

static int read_everything(const char *json, size_t len, atd_arena *arena)
{
    everything_root v;
    atd_error err;
    int rc = everything_root_from_json(json, len, arena, &v, &err);
    if (rc != 0)
        ck_assert_msg(strlen(err.message) > 0 && (int)err.code == rc, "no message for %d", rc);
    return rc;
}

static int read_twitter(const char *json, size_t len, atd_arena *arena)
{
    twitter_root v;
    atd_error err;
    int rc = twitter_root_from_json(json, len, arena, &v, &err);
    if (rc != 0)
        ck_assert_msg(strlen(err.message) > 0 && (int)err.code == rc, "no message for %d", rc);
    return rc;
}

static int read_generic(const char *json, size_t len, atd_arena *arena)
{
    atd_json v;
    atd_error err;
    int rc = atd_json_parse(json, len, arena, 0, &v, &err);
    if (rc != 0) {
        ck_assert_int_eq(err.code, rc);
        ck_assert_int_eq(v.kind, ATD_JSON_NULL);
    }
    return rc;
}

/* Fails allocation N = 1, 2, ... (in both modes) until the read succeeds;
 * returns how many allocator calls the successful read made. */
static long inject_read_failures(const char *what, const char *json, size_t len, read_fn fn)
{
    long succeeded_at = -1;
    long total_calls = 0;
    for (int sticky = 0; sticky <= 1; sticky++) {
        for (long n = 1; n < 100000; n++) {
            test_alloc f;
            atd_allocator al = test_alloc_start(&f, n);
            f.sticky = sticky != 0;
            atd_arena *arena = atd_arena_new(64, &al);
            if (arena == NULL) {
                ck_assert_int_eq(f.live, 0);
                continue;
            }
            int rc = fn(json, len, arena);
            atd_arena_free(arena);
            ck_assert_msg(f.live == 0, "%s: %ld blocks leaked (fail at %ld)", what, f.live, n);
            if (f.failures == 0) {
                /* allocation n never happened: the read is complete */
                ck_assert_msg(rc == 0, "%s: failed without a fault: %d", what, rc);
                if (succeeded_at < 0)
                    succeeded_at = n;
                total_calls = f.calls;
                break;
            }
            /* A failed scratch allocation may be retried or avoided by the
             * code (only-Nth mode): success is then fine; otherwise NOMEM. */
            ck_assert_msg(rc == 0 || rc == ATD_ERR_NOMEM, "%s: fail at %ld gave %d", what, n, rc);
            if (sticky)
                ck_assert_msg(rc == ATD_ERR_NOMEM, "%s: succeeded without memory", what);
        }
    }
    ck_assert_int_gt(succeeded_at, 0);
    return total_calls;
}

START_TEST(test_read_everything_nomem)
{
    size_t len;
    char *json = test_read_file(CONFORMANCE_DIR "/everything_root.json", &len);
    long calls = inject_read_failures("everything", json, len, read_everything);
    ck_assert_int_gt(calls, 5);
    free(json);
}
END_TEST

START_TEST(test_read_twitter_nomem)
{
    size_t len;
    char *json = test_read_file(BENCH_DIR "/twitter.json", &len);
    long calls = inject_read_failures("twitter", json, len, read_twitter);
    ck_assert_int_gt(calls, 5);
    free(json);
}
END_TEST

START_TEST(test_parse_generic_nomem)
{
    size_t len;
    char *json = test_read_file(CONFORMANCE_DIR "/everything_root.json", &len);
    ck_assert_int_gt(inject_read_failures("generic", json, len, read_generic), 5);
    free(json);

    /* 1000 levels (under the default depth limit of 1024): the parser's
     * scratch stack outgrows its local buffer and is taken from the
     * allocator, then grows again. */
    enum { DEPTH = 1000 };
    char *deep = malloc(4 * DEPTH + 8);
    ck_assert_ptr_nonnull(deep);
    size_t n = 0;
    for (int i = 0; i < DEPTH; i++) {
        memcpy(deep + n, i % 2 ? "{\"k\":" : "[", i % 2 ? 5 : 1);
        n += i % 2 ? 5 : 1;
    }
    deep[n++] = '0';
    for (int i = DEPTH - 1; i >= 0; i--)
        deep[n++] = i % 2 ? '}' : ']';
    ck_assert_int_gt(inject_read_failures("deep", deep, n, read_generic), 1);
    free(deep);
}
END_TEST

/* --- writers --- */

typedef int (*write_fn)(const void *value, atd_buf *out, atd_error *err);

static int write_everything(const void *value, atd_buf *out, atd_error *err)
{
    return everything_root_to_json(value, out, err);
}

static int write_twitter(const void *value, atd_buf *out, atd_error *err)
{
    return twitter_root_to_json(value, out, err);
}

static int write_generic(const void *value, atd_buf *out, atd_error *err)
{
    return atd_json_write(value, out, err);
}

/* In-memory buffer whose allocator fails its Nth call: NOMEM, no leak, and
 * when `restores` the buffer back to its previous length (generated writers
 * promise it; atd_json_write only for value errors, json.h: after NOMEM its
 * buffer keeps a partial output behind its sticky status). */
static void inject_buf_failures(const char *what, const void *value, write_fn fn, bool restores)
{
    for (int sticky = 0; sticky <= 1; sticky++) {
        for (long n = 1; n < 1000; n++) {
            test_alloc f;
            atd_allocator al = test_alloc_start(&f, n);
            f.sticky = sticky != 0;
            atd_buf out;
            atd_buf_init_with(&out, &al);
            atd_buf_puts(&out, "prefix");
            size_t before = out.len;
            atd_error err;
            int rc = before == 6 ? fn(value, &out, &err) : ATD_ERR_NOMEM;
            if (f.failures == 0) {
                ck_assert_msg(rc == 0, "%s: %s", what, err.message);
                atd_buf_free(&out);
                ck_assert_int_eq(f.live, 0);
                break;
            }
            ck_assert_msg(rc == ATD_ERR_NOMEM, "%s: fail at %ld gave %d", what, n, rc);
            if (before == 6) {
                ck_assert_int_eq(err.code, ATD_ERR_NOMEM);
                ck_assert_int_eq(out.status, ATD_ERR_NOMEM);
                if (restores)
                    ck_assert_uint_eq(out.len, before);
                ck_assert(memcmp(out.data, "prefix", 6) == 0);
            }
            atd_buf_free(&out);
            ck_assert_msg(f.live == 0, "%s: %ld blocks leaked", what, f.live);
        }
    }
}

/* A sink that accepts `limit` bytes in total, then fails every call. */
typedef struct limited_sink {
    size_t limit;
    size_t got;
    char *copy; /* what was accepted */
    size_t calls_after_failure;
    bool failed;
} limited_sink;

static int limited_write(void *ctx, const char *data, size_t len)
{
    limited_sink *s = ctx;
    if (s->failed) {
        s->calls_after_failure++;
        return -1;
    }
    if (len > s->limit - s->got) {
        s->failed = true;
        return -1;
    }
    memcpy(s->copy + s->got, data, len);
    s->got += len;
    return 0;
}

/* Sink failing after K bytes, for K = 0 .. the output length (every K up to
 * `dense`, then a spread of K): the writer or the final flush reports
 * ATD_ERR_IO; when the sink never fails, it received exactly `expect`. */
static void inject_sink_failures(const char *what, const void *value, write_fn fn,
                                 const atd_buf *expect, size_t chunk, size_t dense)
{
    size_t total = expect->len;
    size_t step = 1;
    for (size_t k = 0; k <= total; k += step) {
        if (k >= dense)
            step = total / 200 + 1;
        limited_sink s = {k, 0, malloc(total + 1), 0, false};
        ck_assert_ptr_nonnull(s.copy);
        atd_buf out;
        ck_assert_int_eq(atd_buf_init_sink(&out, limited_write, &s, chunk), 0);
        atd_error err;
        int rc = fn(value, &out, &err);
        if (rc == 0)
            rc = atd_buf_flush(&out);
        else
            ck_assert_msg((int)err.code == rc && strlen(err.message) > 0, "%s: no message", what);
        if (k < total) {
            ck_assert_msg(rc == ATD_ERR_IO, "%s: sink failing after %zu of %zu bytes gave %d",
                          what, k, total, rc);
            ck_assert_uint_le(s.got, k);
            ck_assert(memcmp(s.copy, expect->data, s.got) == 0); /* a true prefix */
            /* sticky: the buffer does not keep calling a failed sink */
            ck_assert_uint_eq(s.calls_after_failure, 0);
        } else {
            ck_assert_int_eq(rc, 0);
            ck_assert_uint_eq(s.got, total);
            ck_assert(memcmp(s.copy, expect->data, total) == 0);
        }
        atd_buf_free(&out);
        free(s.copy);
    }
}

START_TEST(test_write_everything_faults)
{
    size_t len;
    char *json = test_read_file(CONFORMANCE_DIR "/everything_root.json", &len);
    atd_arena *arena = atd_arena_new(0, NULL);
    everything_root v;
    atd_error err;
    ck_assert_msg(everything_root_from_json(json, len, arena, &v, &err) == 0, "%s", err.message);
    atd_buf expect;
    atd_buf_init(&expect);
    ck_assert_int_eq(everything_root_to_json(&v, &expect, NULL), 0);
    inject_buf_failures("everything", &v, write_everything, true);
    /* chunk 16: smaller than many single reservations (the buffer grows
     * temporarily for those) and flushed hundreds of times */
    inject_sink_failures("everything", &v, write_everything, &expect, 16, expect.len + 1);
    inject_sink_failures("everything/64k", &v, write_everything, &expect, 0, 64);
    atd_buf_free(&expect);
    atd_arena_free(arena);
    free(json);
}
END_TEST

START_TEST(test_write_twitter_faults)
{
    size_t len;
    char *json = test_read_file(BENCH_DIR "/twitter.json", &len);
    atd_arena *arena = atd_arena_new(0, NULL);
    twitter_root v;
    atd_error err;
    ck_assert_msg(twitter_root_from_json(json, len, arena, &v, &err) == 0, "%s", err.message);
    atd_buf expect;
    atd_buf_init(&expect);
    ck_assert_int_eq(twitter_root_to_json(&v, &expect, NULL), 0);
    inject_buf_failures("twitter", &v, write_twitter, true);
    inject_sink_failures("twitter", &v, write_twitter, &expect, 4096, 300);
    atd_buf_free(&expect);
    atd_arena_free(arena);
    free(json);
}
END_TEST

START_TEST(test_write_generic_faults)
{
    size_t len;
    char *json = test_read_file(CONFORMANCE_DIR "/everything_root.json", &len);
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    ck_assert_int_eq(atd_json_parse(json, len, arena, 0, &v, NULL), 0);
    atd_buf expect;
    atd_buf_init(&expect);
    ck_assert_int_eq(atd_json_write(&v, &expect, NULL), 0);
    inject_buf_failures("generic", &v, write_generic, false);
    inject_sink_failures("generic", &v, write_generic, &expect, 16, expect.len + 1);
    atd_buf_free(&expect);
    atd_arena_free(arena);
    free(json);
}
END_TEST

Suite *faults_suite(void);
Suite *faults_suite(void)
{
    Suite *s = suite_create("faults");
    TCase *tc = tcase_create("inject");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_read_everything_nomem);
    tcase_add_test(tc, test_read_twitter_nomem);
    tcase_add_test(tc, test_parse_generic_nomem);
    tcase_add_test(tc, test_write_everything_faults);
    tcase_add_test(tc, test_write_twitter_faults);
    tcase_add_test(tc, test_write_generic_faults);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(faults_suite)
