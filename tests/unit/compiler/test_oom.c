/* The compiler under allocation failure: for a schema, compile once to count
 * its allocations (util/alloc.h), then again with the n-th allocation made to
 * fail, for every n. Each run must end one of two ways: exit status 2 and
 * exactly the one "out of memory" diagnostic, or (a failure the compiler can
 * do without, such as the table of quoted sources) success with output equal
 * to the normal run's. Never a crash, a partial output reported as success,
 * another message, or a leak (the Sanitize build's LeakSanitizer and the
 * valgrind run check that). */
#define _POSIX_C_SOURCE 200809L

#include "test_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "util/alloc.h"

typedef struct capture {
    char text[4096];
    size_t len;
} capture;

static void capture_sink(void *ctx, const char *text, size_t len)
{
    capture *c = ctx;
    size_t room = sizeof c->text - 1 - c->len;
    size_t n = len < room ? len : room;
    memcpy(c->text + c->len, text, n);
    c->len += n;
    c->text[c->len] = '\0';
}

/* What is generated: JSON only, with --biniou, --biniou-skip-abstract, --lazy. */
enum { PLAIN, BINIOU, BINIOU_SKIP, LAZY };

typedef struct run {
    int rc;
    atd_buf h, c;
    capture diag;
} run;

/* Compiles `path` into memory with the fail_at-th allocation failing
 * (0: none). */
static void compile(run *out, const char *path, int mode, const char *out_dir,
                    unsigned long fail_at)
{
    memset(&out->diag, 0, sizeof out->diag);
    atd_buf_init(&out->h);
    atd_buf_init(&out->c);
    driver_options o;
    driver_options_init(&o);
    o.biniou = mode != PLAIN;
    o.biniou_skip_abstract = mode == BINIOU_SKIP;
    o.lazy = mode == LAZY;
    o.diag_sink = capture_sink;
    o.diag_sink_ctx = &out->diag;
    if (out_dir != NULL) {
        o.out_dir = out_dir;
    } else {
        o.gen_h = &out->h;
        o.gen_c = &out->c;
    }
    util_alloc_fail_at(fail_at);
    out->rc = driver_compile_file(&o, path);
}

static void run_free(run *r)
{
    atd_buf_free(&r->h);
    atd_buf_free(&r->c);
}

static bool same(const atd_buf *a, const atd_buf *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* The diagnostic lines of `text` without their quoted source lines (which
 * diag_add_source leaves out when it runs out of memory), in out. */
static const char *heads(const char *text, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = text; *p != '\0';) {
        const char *nl = strchr(p, '\n');
        size_t len = nl != NULL ? (size_t)(nl - p) + 1 : strlen(p);
        if (*p != ' ' && n + len < cap) {
            memcpy(out + n, p, len);
            n += len;
        }
        p += len;
    }
    out[n] = '\0';
    return out;
}

/* Sweeps n over every allocation of compiling `schema` (relative to the
 * source root); returns how many runs ran out of memory. A run that
 * succeeds prints what the reference printed (nothing, or notes); one that
 * runs out of memory, a prefix of that and the out-of-memory line. */
static unsigned long sweep(const char *schema, int mode, const char *out_dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ATD_SOURCE_DIR, schema);
    run ref;
    if (out_dir != NULL) {
        /* the files exist from then on: every run leaves them alone */
        compile(&ref, path, mode, out_dir, 0);
        run_free(&ref);
    }
    compile(&ref, path, mode, out_dir, 0);
    unsigned long total = util_alloc_count();
    ck_assert_msg(ref.rc == DRIVER_OK, "%s: %s", schema, ref.diag.text);
    ck_assert_uint_gt(total, 10);
    unsigned long oom_runs = 0;
    for (unsigned long n = 1; n <= total; n++) {
        run r;
        compile(&r, path, mode, out_dir, n);
        ck_assert_uint_ge(util_alloc_count(), n); /* the same allocations up to n */
        static const char oom[] = "atdc: error: out of memory\n";
        char got[sizeof r.diag.text], want[sizeof r.diag.text];
        heads(r.diag.text, got, sizeof got);
        heads(ref.diag.text, want, sizeof want);
        size_t before = strlen(got) >= sizeof oom - 1 ? strlen(got) - (sizeof oom - 1) : 0;
        if (r.rc == DRIVER_OK) {
            ck_assert_msg(strcmp(got, want) == 0, "%s, allocation %lu: %s", schema, n, r.diag.text);
            ck_assert_msg(same(&r.h, &ref.h) && same(&r.c, &ref.c),
                          "%s, allocation %lu: success with different output", schema, n);
        } else {
            ck_assert_msg(r.rc == DRIVER_USAGE_ERROR, "%s, allocation %lu: status %d, '%s'", schema,
                          n, r.rc, r.diag.text);
            ck_assert_msg(strcmp(got + before, oom) == 0 && strncmp(got, want, before) == 0,
                          "%s, allocation %lu: '%s'", schema, n, r.diag.text);
            oom_runs++;
        }
        run_free(&r);
    }
    util_alloc_fail_at(0);
    run_free(&ref);
    return oom_runs;
}

START_TEST(test_oom_everything)
{
    /* most allocations are needed: only a few may fail without an error */
    unsigned long ran_out = sweep("schemas/everything.atd", PLAIN, NULL);
    ck_assert_uint_gt(ran_out, 10);
}
END_TEST

START_TEST(test_oom_adapters)
{
    ck_assert_uint_gt(sweep("schemas/adapters.atd", PLAIN, NULL), 10);
    ck_assert_uint_gt(sweep("schemas/validators.atd", PLAIN, NULL), 10);
}
END_TEST

/* biniou and the lazy format's analysis and fingerprints */
START_TEST(test_oom_biniou)
{
    ck_assert_uint_gt(sweep("tests/biniou/all.atd", BINIOU, NULL), 10);
    ck_assert_uint_gt(sweep("schemas/revindex.atd", LAZY, NULL), 10);
}
END_TEST

/* --biniou-skip-abstract: the analysis, its notes, the code left out */
START_TEST(test_oom_biniou_skip)
{
    ck_assert_uint_gt(sweep("schemas/everything.atd", BINIOU_SKIP, NULL), 10);
}
END_TEST

/* Through the files: the output folder, the comparison with the files there. */
START_TEST(test_oom_files)
{
    char dir[] = "/tmp/atdc_oom.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_uint_gt(sweep("schemas/event.atd", PLAIN, dir), 10);
    char path[64];
    snprintf(path, sizeof path, "%s/event.h", dir);
    ck_assert_int_eq(unlink(path), 0);
    snprintf(path, sizeof path, "%s/event.c", dir);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *oom_suite(void)
{
    Suite *s = suite_create("oom");
    TCase *tc = tcase_create("sweep");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_oom_everything);
    tcase_add_test(tc, test_oom_adapters);
    tcase_add_test(tc, test_oom_biniou);
    tcase_add_test(tc, test_oom_biniou_skip);
    tcase_add_test(tc, test_oom_files);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(oom_suite)
