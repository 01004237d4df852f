/* atdc_bench: the generated readers and writers against generic JSON parsers,
 * side by side, on the same input bytes, in one process.
 *
 * Usage: atdc_bench [--quick] [--rounds N] [--data DIR] [--csv FILE]
 *                   [--workload NAME] [--only ID --iters N] [--list]
 *
 * How it measures (shared docs/measuring.md): the contenders of a workload
 * run interleaved; each round starts with a different contender (rotation);
 * every timed batch lasts at least 20 ms and follows one untimed iteration;
 * the figures kept are the best per-iteration time over the rounds and the
 * median over rounds of the same-round ratio to the generated reader (or
 * writer). A plain median time is never reported: on these machines it moves
 * 2x between runs. Before timing, and again after, each contender's result
 * is verified (value counts or checksums equal to the reference), so no
 * figure measures a failed parse. Allocation counts come from one untimed
 * document with counting switched on (alloc_count.c).
 *
 * Buffers are reused across iterations (arenas reset, output buffers
 * cleared), and M_MMAP_THRESHOLD/M_TRIM_THRESHOLD are raised so that glibc
 * does not hand big blocks back to the kernel on every free.
 *
 * --only ID --iters N runs one contender N times inside measured_loop (for
 * bench/callgrind.sh and --toggle-collect); --quick runs every case in one
 * short round (the ctest entry; no figure from it means anything). */
#define _GNU_SOURCE

#include "harness.h"

#include "blockchain.h"
#include "canada.h"
#include "citm_catalog.h"
#include "github.h"
#include "twitter.h"

#include <fcntl.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ======================================================================== */
/* MARK: typed schemas                                                       */
/* ======================================================================== */

enum { CONV_NONE, CONV_EVENTS, CONV_DONUT };

typedef struct schema_ops {
    size_t size;
    bool (*read)(atd_reader *r, void *out);
    bool (*write)(atd_writer *w, const void *v);
    int conv;
} schema_ops;

/* T_read_any and T_write_any: the generated reader and writer of T as
 * atd_read_fn and atd_write_fn. */
#define SCHEMA_OPS(T, CONV)                                                                        \
    static const schema_ops T##_ops = {sizeof(T), T##_read_any, T##_write_any, CONV};

SCHEMA_OPS(event_events, CONV_EVENTS)
SCHEMA_OPS(donut_root, CONV_DONUT)
SCHEMA_OPS(twitter_root, CONV_NONE)
SCHEMA_OPS(citm_catalog_root, CONV_NONE)
SCHEMA_OPS(canada_root, CONV_NONE)
SCHEMA_OPS(github_root, CONV_NONE)
SCHEMA_OPS(blockchain_root, CONV_NONE)
SCHEMA_OPS(bench_ints, CONV_NONE)
SCHEMA_OPS(bench_strings, CONV_NONE)
SCHEMA_OPS(bench_counts, CONV_NONE)

/* ======================================================================== */
/* MARK: workloads and contenders                                            */
/* ======================================================================== */

typedef struct workload {
    char name[48];
    const schema_ops *ops;
    const char *input; /* the text the readers read */
    size_t input_len;
    atd_arena *value_arena; /* the typed value the writers write */
    void *value;
    atd_buf out; /* the generated writer's text of `value` */
    dom_counts input_counts, out_counts;
    uint64_t typed_checksum; /* event / donut */
    long min_iters;          /* donut: enough documents in total */
    bool typed_roundtrip_exact;
} workload;

typedef enum kind {
    K_MEMCPY_IN,
    K_MEMCPY_OUT,
    K_GEN_READ,
    K_GEN_READ_BORROW,
    K_LIB_PARSE,
    K_LIB_PARSE_CONV,
    K_SIMD_DOM,
    K_SIMD_OD,
    K_GEN_WRITE,
    K_GEN_WRITE_FD,
    K_GEN_WRITE_FILE,
    K_ATD_STRUCT_DOM_TEXT,
    K_LIB_PRINT
} kind;

typedef struct contender {
    char id[40];
    kind k;
    bool writer;
    const generic_lib *lib;
    workload *w;
    /* state */
    void *lib_state;
    atd_arena *arena;
    void *value;
    atd_buf buf;
    FILE *file;
    void *simd;
    char *copy;
    dom_counts counts; /* filled by the walkers of simdjson On-Demand */
    /* results */
    size_t bytes; /* per iteration, for MB/s */
    long iters;
    double best;
    double *times; /* per round */
    alloc_stats loop_alloc, fresh_alloc;
    bool alloc_known, fresh_known;
    char error[120];
} contender;

static bool quick_mode;
static int rounds = 25;
static int exit_status;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool gen_read(contender *c, unsigned flags)
{
    atd_reader r;
    atd_arena_reset(c->arena);
    atd_reader_init(&r, c->w->input, c->w->input_len, c->arena, flags);
    return c->w->ops->read(&r, c->value) && atd_read_end(&r);
}

static bool gen_write(const schema_ops *ops, const void *value, atd_buf *b)
{
    atd_writer w;
    atd_writer_init(&w, b, 0);
    return ops->write(&w, value) && b->status == 0;
}

static bool lib_convert(contender *c)
{
    atd_arena_reset(c->arena);
    return c->w->ops->conv == CONV_EVENTS ? c->lib->to_events(c->lib_state, c->arena, c->value)
                                          : c->lib->to_donut(c->lib_state, c->arena, c->value);
}

/* One iteration of a contender. Results stay in its state for checking. */
static bool run_once(contender *c)
{
    const workload *w = c->w;
    switch (c->k) {
    case K_MEMCPY_IN:
        memcpy(c->copy, w->input, w->input_len);
        return true;
    case K_MEMCPY_OUT:
        memcpy(c->copy, w->out.data, w->out.len);
        return true;
    case K_GEN_READ:
        return gen_read(c, 0);
    case K_GEN_READ_BORROW:
        return gen_read(c, ATD_READ_BORROW_STRINGS);
    case K_LIB_PARSE:
        /* Parse and free: what parsing costs a caller. */
        if (!c->lib->parse(c->lib_state, w->input, w->input_len))
            return false;
        c->lib->free_doc(c->lib_state);
        return true;
    case K_LIB_PARSE_CONV: {
        if (!c->lib->parse(c->lib_state, w->input, w->input_len))
            return false;
        bool ok = lib_convert(c);
        c->lib->free_doc(c->lib_state);
        return ok;
    }
    case K_SIMD_DOM:
#ifdef BENCH_HAVE_SIMDJSON
        return simd_dom_parse(c->simd);
#else
        return false;
#endif
    case K_SIMD_OD:
#ifdef BENCH_HAVE_SIMDJSON
        c->counts = (dom_counts){0};
        return simd_ondemand_walk(c->simd, &c->counts);
#else
        return false;
#endif
    case K_GEN_WRITE:
        atd_buf_clear(&c->buf);
        return gen_write(w->ops, w->value, &c->buf);
    case K_GEN_WRITE_FD:
    case K_GEN_WRITE_FILE:
        if (!gen_write(w->ops, w->value, &c->buf) || atd_buf_flush(&c->buf) != 0)
            return false;
        return c->file == NULL || fflush(c->file) == 0;
    case K_ATD_STRUCT_DOM_TEXT: {
        atd_json dom;
        atd_arena_reset(c->arena);
        atd_buf_clear(&c->buf);
        bool ok = w->ops->conv == CONV_EVENTS ? events_to_atd_json(w->value, c->arena, &dom)
                                              : donut_to_atd_json(w->value, c->arena, &dom);
        return ok && atd_json_write(&dom, &c->buf, NULL) == 0;
    }
    case K_LIB_PRINT: {
        const char *text;
        return c->lib->print(c->lib_state, &text) != (size_t)-1;
    }
    }
    return false;
}

/* The loop callgrind counts (--toggle-collect=measured_loop). */
__attribute__((noinline)) long measured_loop(contender *c, long iters);
__attribute__((noinline)) long measured_loop(contender *c, long iters)
{
    long ok = 0;
    for (long i = 0; i < iters; i++)
        ok += run_once(c);
    return ok;
}

static uint64_t typed_checksum(const workload *w, const void *value)
{
    return w->ops->conv == CONV_EVENTS  ? checksum_events(value)
           : w->ops->conv == CONV_DONUT ? checksum_donut(value)
                                        : 0;
}

static bool fail(contender *c, const char *why)
{
    snprintf(c->error, sizeof c->error, "%s", why);
    return false;
}

/* Runs one iteration and checks its result against the workload's reference. */
static bool verify(contender *c)
{
    const workload *w = c->w;
    if (!run_once(c))
        return fail(c, "the run reported an error");
    dom_counts counts = {0};
    switch (c->k) {
    case K_MEMCPY_IN:
        return memcmp(c->copy, w->input, w->input_len) == 0 || fail(c, "copy differs");
    case K_MEMCPY_OUT:
        return memcmp(c->copy, w->out.data, w->out.len) == 0 || fail(c, "copy differs");
    case K_GEN_READ:
    case K_GEN_READ_BORROW: {
        if (w->ops->conv != CONV_NONE)
            return typed_checksum(w, c->value) == w->typed_checksum || fail(c, "checksum differs");
        /* No independent oracle for the big schemas: the value read must
         * write back to exactly the text the reference value wrote. */
        atd_buf b;
        atd_buf_init(&b);
        bool same = gen_write(w->ops, c->value, &b) && b.len == w->out.len &&
                    memcmp(b.data, w->out.data, b.len) == 0;
        atd_buf_free(&b);
        return same || fail(c, "value read writes back differently");
    }
    case K_LIB_PARSE:
        /* run_once freed the document: parse again and walk it. */
        if (!c->lib->parse(c->lib_state, w->input, w->input_len))
            return fail(c, "parse failed");
        c->lib->count(c->lib_state, &counts);
        c->lib->free_doc(c->lib_state);
        return dom_counts_equal(&counts, &w->input_counts) || fail(c, "value counts differ");
    case K_LIB_PARSE_CONV:
        return typed_checksum(w, c->value) == w->typed_checksum || fail(c, "checksum differs");
    case K_SIMD_DOM:
#ifdef BENCH_HAVE_SIMDJSON
        simd_dom_count(c->simd, &counts);
#endif
        return dom_counts_equal(&counts, &w->input_counts) || fail(c, "value counts differ");
    case K_SIMD_OD:
        return dom_counts_equal(&c->counts, &w->input_counts) || fail(c, "value counts differ");
    case K_GEN_WRITE:
        return (c->buf.len == w->out.len && memcmp(c->buf.data, w->out.data, w->out.len) == 0) ||
               fail(c, "output differs");
    case K_GEN_WRITE_FD:
    case K_GEN_WRITE_FILE: {
        /* Sinks to /dev/null: check the byte count that went through. */
        size_t before = c->buf.flushed;
        if (!run_once(c) || c->buf.flushed - before != w->out.len)
            return fail(c, "wrong number of bytes flushed");
        return true;
    }
    case K_ATD_STRUCT_DOM_TEXT:
        c->bytes = c->buf.len; /* MB/s of its own output */
        return (dom_counts_of_text(c->buf.data, c->buf.len, &counts) &&
                dom_counts_equal(&counts, &w->out_counts)) ||
               fail(c, "output has other values");
    case K_LIB_PRINT: {
        const char *text;
        size_t n = c->lib->print(c->lib_state, &text);
        c->bytes = n;
        return (n != (size_t)-1 && dom_counts_of_text(text, n, &counts) &&
                dom_counts_equal(&counts, &w->out_counts)) ||
               fail(c, "output has other values");
    }
    }
    return fail(c, "unknown kind");
}

/* ======================================================================== */
/* MARK: contender set-up                                                     */
/* ======================================================================== */

static contender *add(contender *cs, size_t *n, workload *w, kind k, const char *id,
                      const generic_lib *lib)
{
    contender *c = &cs[(*n)++];
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", id);
    c->k = k;
    c->w = w;
    c->lib = lib;
    c->writer = k >= K_GEN_WRITE || k == K_MEMCPY_OUT;
    c->best = INFINITY;
    c->bytes = c->writer ? w->out.len : w->input_len;
    return c;
}

/* Allocates a contender's state; false (with c->error) when impossible. */
static bool setup(contender *c)
{
    const workload *w = c->w;
    atd_buf_init_with(&c->buf, &counting_allocator);
    switch (c->k) {
    case K_MEMCPY_IN:
    case K_MEMCPY_OUT:
        c->copy = malloc(c->k == K_MEMCPY_IN ? w->input_len : w->out.len);
        return c->copy != NULL || fail(c, "no memory");
    case K_GEN_READ:
    case K_GEN_READ_BORROW:
    case K_LIB_PARSE_CONV:
    case K_ATD_STRUCT_DOM_TEXT:
        c->arena = atd_arena_new(0, &counting_allocator);
        c->value = calloc(1, w->ops->size);
        if (c->arena == NULL || c->value == NULL)
            return fail(c, "no memory");
        if (c->k != K_LIB_PARSE_CONV)
            return true;
        /* fall through - conversions need the library too */
    case K_LIB_PARSE:
        c->lib_state = c->lib->new_state();
        return c->lib_state != NULL || fail(c, "no memory");
    case K_LIB_PRINT:
        /* The DOM printed is the library's parse of the generated writer's
         * text, so that every writer writes the same values. */
        c->lib_state = c->lib->new_state();
        if (c->lib_state == NULL || !c->lib->parse(c->lib_state, w->out.data, w->out.len))
            return fail(c, "cannot parse the text to print");
        return true;
    case K_SIMD_DOM:
    case K_SIMD_OD:
#ifdef BENCH_HAVE_SIMDJSON
        c->simd = simd_new(w->input, w->input_len);
        return c->simd != NULL || fail(c, "no memory");
#else
        return fail(c, "simdjson not built");
#endif
    case K_GEN_WRITE:
        return true;
    case K_GEN_WRITE_FD: {
        atd_buf_free(&c->buf);
        int fd = open("/dev/null", O_WRONLY);
        if (fd < 0 || atd_buf_init_fd(&c->buf, fd) != 0)
            return fail(c, "cannot open /dev/null");
        return true;
    }
    case K_GEN_WRITE_FILE:
        atd_buf_free(&c->buf);
        c->file = fopen("/dev/null", "wb");
        if (c->file == NULL || atd_buf_init_file(&c->buf, c->file) != 0)
            return fail(c, "cannot open /dev/null");
        return true;
    }
    return fail(c, "unknown kind");
}

static void teardown(contender *c)
{
    if (c->lib_state != NULL)
        c->lib->free_state(c->lib_state);
    atd_arena_free(c->arena);
    free(c->value);
    if (c->k == K_GEN_WRITE_FD && c->buf.sink_ctx != NULL)
        close((int)(intptr_t)c->buf.sink_ctx);
    atd_buf_free(&c->buf);
    if (c->file != NULL)
        fclose(c->file);
#ifdef BENCH_HAVE_SIMDJSON
    simd_free(c->simd);
#endif
    free(c->copy);
    free(c->times);
}

/* Allocation figures: `loop` is one iteration in the steady state (what a
 * program pays per document once its arenas and buffers are warm); `fresh`
 * is one document from nothing (new arena / buffer / library state, freed
 * at the end), whose high-water mark is the memory the contender needs. */
static void measure_allocations(contender *c)
{
    bool counted_by_us = c->lib == NULL || strcmp(c->lib->alloc_source, "hooks") == 0 ||
                         alloc_interposed();
    if (c->k == K_SIMD_DOM || c->k == K_SIMD_OD)
        counted_by_us = alloc_interposed();
    if (!counted_by_us)
        return;
    run_once(c);
    alloc_count_begin();
    run_once(c);
    c->loop_alloc = alloc_count_end();
    c->alloc_known = true;

    const workload *w = c->w;
    alloc_count_begin();
    switch (c->k) {
    case K_GEN_READ:
    case K_GEN_READ_BORROW: {
        atd_arena *a = atd_arena_new(0, &counting_allocator);
        atd_reader r;
        atd_reader_init(&r, w->input, w->input_len, a,
                        c->k == K_GEN_READ ? 0 : ATD_READ_BORROW_STRINGS);
        c->fresh_known = a != NULL && w->ops->read(&r, c->value) && atd_read_end(&r);
        atd_arena_free(a);
        break;
    }
    case K_LIB_PARSE:
    case K_LIB_PARSE_CONV: {
        void *st = c->lib->new_state();
        atd_arena *a = atd_arena_new(0, &counting_allocator);
        c->fresh_known = st != NULL && a != NULL && c->lib->parse(st, w->input, w->input_len);
        if (c->fresh_known && c->k == K_LIB_PARSE_CONV)
            c->fresh_known = w->ops->conv == CONV_EVENTS ? c->lib->to_events(st, a, c->value)
                                                         : c->lib->to_donut(st, a, c->value);
        if (st != NULL)
            c->lib->free_state(st);
        atd_arena_free(a);
        break;
    }
    case K_GEN_WRITE: {
        atd_buf b;
        atd_buf_init_with(&b, &counting_allocator);
        c->fresh_known = gen_write(w->ops, w->value, &b);
        atd_buf_free(&b);
        break;
    }
    case K_ATD_STRUCT_DOM_TEXT: {
        atd_arena *a = atd_arena_new(0, &counting_allocator);
        atd_buf b;
        atd_json dom;
        atd_buf_init_with(&b, &counting_allocator);
        c->fresh_known = a != NULL &&
                         (w->ops->conv == CONV_EVENTS ? events_to_atd_json(w->value, a, &dom)
                                                      : donut_to_atd_json(w->value, a, &dom)) &&
                         atd_json_write(&dom, &b, NULL) == 0;
        atd_buf_free(&b);
        atd_arena_free(a);
        break;
    }
    case K_GEN_WRITE_FD:
    case K_GEN_WRITE_FILE: {
        /* A new sink-bound buffer: its memory is one chunk, whatever the size. */
        atd_buf b;
        int fd = open("/dev/null", O_WRONLY);
        c->fresh_known = fd >= 0 && atd_buf_init_fd(&b, fd) == 0 &&
                         gen_write(w->ops, w->value, &b) && atd_buf_flush(&b) == 0;
        if (fd >= 0) {
            atd_buf_free(&b);
            close(fd);
        }
        break;
    }
#ifdef BENCH_HAVE_SIMDJSON
    case K_SIMD_DOM:
        c->fresh_known = simd_fresh_dom_parse(w->input, w->input_len);
        break;
    case K_SIMD_OD:
        c->fresh_known = simd_fresh_ondemand_walk(w->input, w->input_len);
        break;
#endif
    default:
        /* Libraries' printers: the loop figure is the figure
         * (they allocate per call; json-c reuses the printbuf of the DOM). */
        break;
    }
    c->fresh_alloc = alloc_count_end();
    if (!c->fresh_known)
        c->fresh_alloc = c->loop_alloc;
}

/* ======================================================================== */
/* MARK: timing                                                               */
/* ======================================================================== */

/* One untimed iteration, then `iters` timed; seconds per iteration or < 0. */
static double batch(contender *c, long iters)
{
    if (!run_once(c))
        return -1;
    double t0 = now();
    if (measured_loop(c, iters) != iters)
        return -1;
    return (now() - t0) / (double)iters;
}

static long calibrate(contender *c)
{
    if (quick_mode)
        return 1;
    long iters = c->w->min_iters > 0 ? c->w->min_iters : 1;
    for (;;) {
        double per = batch(c, iters);
        if (per < 0)
            return -1;
        if (per * (double)iters >= 0.020)
            return iters;
        /* Aim a bit above 20 ms directly rather than doubling many times. */
        double want = 0.025 / (per > 1e-9 ? per : 1e-9);
        iters = want > (double)iters * 2 ? (long)want : iters * 2;
    }
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median over rounds of t(c) / t(base) measured in the same round. */
static double median_ratio(const contender *c, const contender *base)
{
    double r[256];
    int n = 0;
    for (int i = 0; i < rounds && n < 256; i++) {
        if (c->times[i] > 0 && base->times[i] > 0)
            r[n++] = c->times[i] / base->times[i];
    }
    if (n == 0)
        return NAN;
    qsort(r, (size_t)n, sizeof r[0], compare_doubles);
    return n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
}

/* ======================================================================== */
/* MARK: results                                                              */
/* ======================================================================== */

typedef struct result {
    char workload[48], id[40];
    bool writer, ok;
    size_t bytes;
    double mbps, ratio;
    bool alloc_known;
    alloc_stats loop, fresh;
} result;

static result results[1024];
static size_t result_count;
static FILE *csv;

static const result *find_result(const char *wl_name, const char *id)
{
    for (size_t i = 0; i < result_count; i++) {
        if (strcmp(results[i].workload, wl_name) == 0 && strcmp(results[i].id, id) == 0)
            return &results[i];
    }
    return NULL;
}

static void print_header(void)
{
    printf("| workload | contender | MB/s (best) | time / generated (median same-round) | "
           "allocs/doc (loop) | allocs/doc (fresh) | bytes allocated (fresh) | peak bytes "
           "(fresh) |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
}

static void report(const workload *w, contender *cs, size_t n)
{
    const contender *base_r = NULL, *base_w = NULL;
    for (size_t i = 0; i < n; i++) {
        if (cs[i].k == K_GEN_READ && cs[i].error[0] == 0)
            base_r = &cs[i];
        if (cs[i].k == K_GEN_WRITE && cs[i].error[0] == 0)
            base_w = &cs[i];
    }
    for (size_t i = 0; i < n; i++) {
        contender *c = &cs[i];
        const contender *base = c->writer ? base_w : base_r;
        result *r = result_count < 1024 ? &results[result_count++] : &results[1023];
        memset(r, 0, sizeof *r);
        snprintf(r->workload, sizeof r->workload, "%s", w->name);
        memcpy(r->id, c->id, sizeof r->id); /* both char[40] */
        r->writer = c->writer;
        r->bytes = c->bytes;
        r->ok = c->error[0] == 0 && isfinite(c->best);
        if (!r->ok) {
            printf("| %s | %s | FAILED: %s | | | | | |\n", w->name, c->id,
                   c->error[0] ? c->error : "no timing");
            if (csv != NULL)
                fprintf(csv, "%s,%s,%s,%zu,,,,,,,\n", w->name, c->writer ? "write" : "read",
                        c->id, c->bytes);
            continue;
        }
        r->mbps = (double)c->bytes / 1e6 / c->best;
        r->ratio = base != NULL ? median_ratio(c, base) : NAN;
        r->alloc_known = c->alloc_known;
        r->loop = c->loop_alloc;
        r->fresh = c->fresh_alloc;
        char loop[32] = "n/a", fresh[32] = "n/a", bytes[32] = "n/a", peak[32] = "n/a";
        if (c->alloc_known) {
            snprintf(loop, sizeof loop, "%llu", (unsigned long long)c->loop_alloc.calls);
            snprintf(fresh, sizeof fresh, "%llu", (unsigned long long)c->fresh_alloc.calls);
            snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)c->fresh_alloc.bytes);
            snprintf(peak, sizeof peak, "%lld", (long long)c->fresh_alloc.peak);
        }
        printf("| %s | %s | %.0f | %.2f | %s | %s | %s | %s |\n", w->name, c->id, r->mbps,
               r->ratio, loop, fresh, bytes, peak);
        if (csv != NULL)
            fprintf(csv, "%s,%s,%s,%zu,%.9g,%.1f,%.3f,%s,%s,%s,%s\n", w->name,
                    c->writer ? "write" : "read", c->id, c->bytes, c->best, r->mbps, r->ratio,
                    loop, fresh, bytes, peak);
    }
    fflush(stdout);
}

/* ======================================================================== */
/* MARK: running a workload                                                   */
/* ======================================================================== */

static const char *only_id;
static long only_iters;

/* `sinks`: the writers to memory, to a file descriptor and to a FILE*
 * instead of the generic printers. */
static void run_workload(workload *w, bool readers, bool writers, bool sinks)
{
    contender cs[24];
    size_t n = 0;
    static const generic_lib *const libs[] = {&lib_atd, &lib_cjson, &lib_jansson, &lib_jsonc};
    static const char *const lib_ids[] = {"atd_json", "cjson", "jansson", "jsonc"};
    char id[40];
    if (readers) {
        add(cs, &n, w, K_GEN_READ, "gen.read", NULL);
        add(cs, &n, w, K_GEN_READ_BORROW, "gen.read.borrow", NULL);
        for (size_t i = 0; i < 4; i++) {
            snprintf(id, sizeof id, "%s.parse", lib_ids[i]);
            add(cs, &n, w, K_LIB_PARSE, id, libs[i]);
            if (w->ops->conv != CONV_NONE) {
                snprintf(id, sizeof id, "%s.parse+conv", lib_ids[i]);
                add(cs, &n, w, K_LIB_PARSE_CONV, id, libs[i]);
            }
        }
#ifdef BENCH_HAVE_SIMDJSON
        add(cs, &n, w, K_SIMD_DOM, "simdjson.dom", NULL);
        add(cs, &n, w, K_SIMD_OD, "simdjson.ondemand", NULL);
#endif
        add(cs, &n, w, K_MEMCPY_IN, "memcpy", NULL);
    }
    if (writers) {
        add(cs, &n, w, K_GEN_WRITE, "gen.write", NULL);
        if (sinks) {
            add(cs, &n, w, K_GEN_WRITE_FD, "gen.write.fd", NULL);
            add(cs, &n, w, K_GEN_WRITE_FILE, "gen.write.FILE", NULL);
        } else {
            if (w->ops->conv != CONV_NONE)
                add(cs, &n, w, K_ATD_STRUCT_DOM_TEXT, "atd_json.struct>dom>text", NULL);
            for (size_t i = 0; i < 4; i++) {
                snprintf(id, sizeof id, "%s.print", lib_ids[i]);
                add(cs, &n, w, K_LIB_PRINT, id, libs[i]);
            }
            add(cs, &n, w, K_MEMCPY_OUT, "memcpy", NULL);
        }
    }

    /* --only: keep one contender, run it N times in measured_loop. */
    if (only_id != NULL) {
        size_t keep = n;
        for (size_t i = 0; i < n; i++) {
            if (strcmp(cs[i].id, only_id) == 0)
                keep = i;
        }
        if (keep == n)
            return;
        contender *c = &cs[keep];
        if (!setup(c) || !verify(c)) {
            fprintf(stderr, "atdc_bench: %s %s: %s\n", w->name, c->id, c->error);
            exit_status = 1;
        } else {
            long ok = measured_loop(c, only_iters);
            printf("%s %s: %ld iterations, %zu bytes each\n", w->name, c->id, ok, c->bytes);
        }
        teardown(c);
        return;
    }

    for (size_t i = 0; i < n; i++) {
        contender *c = &cs[i];
        c->times = calloc((size_t)rounds, sizeof(double));
        if (c->times == NULL || !setup(c) || !verify(c) || (c->iters = calibrate(c)) < 0) {
            if (c->error[0] == 0)
                fail(c, "failed while calibrating");
            continue;
        }
        measure_allocations(c);
        if (!verify(c))
            continue;
    }
    for (int r = 0; r < rounds; r++) {
        /* Rotate the starting contender so none always runs first. */
        for (size_t j = 0; j < n; j++) {
            contender *c = &cs[((size_t)r + j) % n];
            if (c->error[0] != 0)
                continue;
            double t = batch(c, c->iters);
            if (t < 0) {
                fail(c, "an iteration failed while timing");
                continue;
            }
            c->times[r] = t;
            if (t < c->best)
                c->best = t;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (cs[i].error[0] == 0)
            verify(&cs[i]); /* the result is still right after timing */
        if (cs[i].error[0] != 0)
            exit_status = 1;
    }
    report(w, cs, n);
    for (size_t i = 0; i < n; i++)
        teardown(&cs[i]);
}

/* ======================================================================== */
/* MARK: workload set-up                                                      */
/* ======================================================================== */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *data = NULL;
    long n;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        data = malloc((size_t)n + 1);
        if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
            free(data);
            data = NULL;
        }
        *len = (size_t)n;
    }
    fclose(f);
    return data;
}

static bool workload_init(workload *w, const char *name, const schema_ops *ops)
{
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", name);
    w->ops = ops;
    w->value_arena = atd_arena_new(0, NULL);
    w->value = calloc(1, ops->size);
    atd_buf_init(&w->out);
    return w->value_arena != NULL && w->value != NULL;
}

/* After the value is in place: its generated text, and the reference counts. */
static bool workload_finish(workload *w)
{
    if (!gen_write(w->ops, w->value, &w->out) ||
        !dom_counts_of_text(w->out.data, w->out.len, &w->out_counts))
        return false;
    if (w->input != NULL && !dom_counts_of_text(w->input, w->input_len, &w->input_counts))
        return false;
    w->typed_checksum = typed_checksum(w, w->value);
    return true;
}

static void workload_free(workload *w)
{
    atd_arena_free(w->value_arena);
    free(w->value);
    atd_buf_free(&w->out);
}

static const char *workload_filter;

static bool selected(const char *name)
{
    return workload_filter == NULL || strcmp(workload_filter, name) == 0;
}

static void setup_failed(const char *name)
{
    fprintf(stderr, "atdc_bench: cannot set up workload %s\n", name);
    printf("| %s | (all) | FAILED: set-up | | | | | |\n", name);
    exit_status = 1;
}

/* (a) 1000 events, written then read back; shuffled keys; unknown fields;
 * and the bounded-memory sinks. */
static void bench_events(void)
{
    static const char *const names[] = {"event", "event.shuffled", "event.unknown10"};
    workload w;
    if (!workload_init(&w, "event", &event_events_ops) ||
        !gen_events(w.value_arena, 1000, w.value) || !workload_finish(&w)) {
        setup_failed("event");
        workload_free(&w);
        return;
    }
    for (int variant = EVENTS_PLAIN; variant <= EVENTS_UNKNOWN; variant++) {
        atd_buf text;
        atd_buf_init(&text);
        if (!gen_events_text(w.value, variant, &text)) {
            setup_failed(names[variant]);
            atd_buf_free(&text);
            continue;
        }
        snprintf(w.name, sizeof w.name, "%s", names[variant]);
        w.input = text.data;
        w.input_len = text.len;
        if (variant == EVENTS_PLAIN && (text.len != w.out.len || memcmp(text.data, w.out.data, text.len))) {
            setup_failed(names[variant]);
        } else if (!dom_counts_of_text(w.input, w.input_len, &w.input_counts)) {
            setup_failed(names[variant]);
        } else if (selected(w.name)) {
            run_workload(&w, true, variant == EVENTS_PLAIN, false);
        }
        atd_buf_free(&text);
    }
    w.input = NULL;
    snprintf(w.name, sizeof w.name, "event.sink");
    if (selected(w.name))
        run_workload(&w, false, true, true);
    workload_free(&w);
}

/* (b) writer micro-workloads. */
static void bench_micro(void)
{
    workload w;
    if (selected("ints.1e5")) {
        if (workload_init(&w, "ints.1e5", &bench_ints_ops) &&
            gen_ints(w.value_arena, 100000, w.value) && workload_finish(&w))
            run_workload(&w, false, true, false);
        else
            setup_failed("ints.1e5");
        workload_free(&w);
    }
    if (selected("strings.1e5")) {
        if (workload_init(&w, "strings.1e5", &bench_strings_ops) &&
            gen_strings(w.value_arena, 100000, w.value) && workload_finish(&w))
            run_workload(&w, false, true, false);
        else
            setup_failed("strings.1e5");
        workload_free(&w);
    }
    if (selected("map.1e4")) {
        if (workload_init(&w, "map.1e4", &bench_counts_ops) &&
            gen_counts(w.value_arena, 10000, w.value) && workload_finish(&w))
            run_workload(&w, false, true, false);
        else
            setup_failed("map.1e4");
        workload_free(&w);
    }
}

/* (c) and (d): a file of the data folder through its schema's root type. */
static void bench_file(const char *dir, const char *name, const schema_ops *ops, long min_iters)
{
    if (!selected(name))
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    size_t len = 0;
    char *json = read_file(path, &len);
    workload w;
    bool ok = json != NULL && workload_init(&w, name, ops);
    if (ok) {
        w.input = json;
        w.input_len = len;
        w.min_iters = quick_mode ? 0 : min_iters;
        atd_reader r;
        atd_reader_init(&r, json, len, w.value_arena, 0);
        ok = ops->read(&r, w.value) && atd_read_end(&r) && workload_finish(&w);
        if (!ok) {
            atd_error err;
            atd_reader_get_error(&r, &err);
            fprintf(stderr, "atdc_bench: %s: %s\n", path, err.message);
        }
    }
    if (ok) {
        /* Informative: does the typed round trip keep every value? */
        w.typed_roundtrip_exact = dom_counts_equal(&w.input_counts, &w.out_counts);
        if (only_id == NULL && !w.typed_roundtrip_exact)
            printf("| %s | (note) | the schema keeps %llu of the %llu values of the file | | | | "
                   "| |\n",
                   name, (unsigned long long)dom_counts_total(&w.out_counts),
                   (unsigned long long)dom_counts_total(&w.input_counts));
        run_workload(&w, true, true, false);
    } else {
        setup_failed(name);
    }
    if (json != NULL)
        workload_free(&w);
    free(json);
}

/* Arena chunks obtained while reading one document with a fresh arena, for
 * event lists of growing size: the growth must be logarithmic. */
static void allocation_growth(void)
{
    printf("\n### Generated reader: allocations per document with a fresh arena\n\n");
    printf("| events | JSON bytes | allocations (copy) | allocations (borrow) | arena bytes "
           "reserved |\n|---:|---:|---:|---:|---:|\n");
    for (size_t n = 10; n <= (quick_mode ? 1000u : 100000u); n *= 10) {
        atd_arena *src = atd_arena_new(0, NULL);
        event_events v, back;
        atd_buf text;
        atd_buf_init(&text);
        if (src == NULL || !gen_events(src, n, &v) || !gen_write(&event_events_ops, &v, &text)) {
            exit_status = 1;
        } else {
            uint64_t calls[2] = {0, 0};
            size_t reserved = 0;
            for (int borrow = 0; borrow < 2; borrow++) {
                alloc_count_begin();
                atd_arena *a = atd_arena_new(0, &counting_allocator);
                atd_reader r;
                atd_reader_init(&r, text.data, text.len, a, borrow ? ATD_READ_BORROW_STRINGS : 0);
                bool ok = a != NULL && event_events_read(&r, &back) && atd_read_end(&r) &&
                          checksum_events(&back) == checksum_events(&v);
                if (!borrow && a != NULL)
                    reserved = atd_arena_get_stats(a).bytes_reserved;
                atd_arena_free(a);
                calls[borrow] = alloc_count_end().calls;
                if (!ok)
                    exit_status = 1;
            }
            printf("| %zu | %zu | %llu | %llu | %zu |\n", n, text.len,
                   (unsigned long long)calls[0], (unsigned long long)calls[1], reserved);
        }
        atd_buf_free(&text);
        atd_arena_free(src);
    }
    printf("\nAllocations include the arena struct itself (1); the rest are chunks doubling "
           "in size.\n");
}

static void target_row(const char *wl_name, const char *against, const char *fallback,
                       double need, bool writer)
{
    const result *g = find_result(wl_name, writer ? "gen.write" : "gen.read");
    const result *x = find_result(wl_name, against);
    const char *used = against;
    if (x == NULL && fallback != NULL) {
        x = find_result(wl_name, fallback);
        used = fallback;
    }
    if (g == NULL && x == NULL)
        return; /* workload not run */
    if (g == NULL || x == NULL || !g->ok || !x->ok) {
        printf("| %s | %s vs %s | >= %.0fx | n/a |\n", wl_name, writer ? "gen.write" : "gen.read",
               against, need);
        return;
    }
    if (need <= 0) {
        printf("| %s | %s vs %s | (for information) | %.2fx | |\n", wl_name,
               writer ? "gen.write" : "gen.read", used, x->ratio);
        return;
    }
    printf("| %s | %s vs %s%s | >= %.0fx | %.2fx | %s |\n", wl_name,
           writer ? "gen.write" : "gen.read", used,
           used == fallback ? " (parse alone: approximates parse+conv)" : "", need, x->ratio,
           x->ratio >= need ? "met" : "NOT MET");
}

static void targets(void)
{
    static const char *const wls[] = {"event", "twitter", "citm_catalog"};
    printf("\n### Targets (median same-round ratio of times, this run)\n\n");
    printf("| workload | comparison | target | ratio | |\n|---|---|---:|---:|---|\n");
    for (size_t i = 0; i < 3; i++) {
        target_row(wls[i], "atd_json.parse+conv", "atd_json.parse", 3, false);
        target_row(wls[i], "cjson.parse+conv", "cjson.parse", 5, false);
        target_row(wls[i], "jansson.parse+conv", "jansson.parse", 5, false);
        target_row(wls[i], "jsonc.parse+conv", "jsonc.parse", 5, false);
        target_row(wls[i], "simdjson.dom", NULL, 0, false);
        target_row(wls[i], "simdjson.ondemand", NULL, 0, false);
        target_row(wls[i], "cjson.print", NULL, 3, true);
        target_row(wls[i], "jansson.print", NULL, 3, true);
        target_row(wls[i], "jsonc.print", NULL, 3, true);
    }
}

/* ======================================================================== */
/* MARK: main                                                                 */
/* ======================================================================== */

static void print_machine(void)
{
    char model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f != NULL) {
        char line[512];
        while (fgets(line, sizeof line, f) != NULL) {
            if (strncmp(line, "model name", 10) == 0) {
                const char *p = strchr(line, ':');
                if (p != NULL) {
                    snprintf(model, sizeof model, "%s", p + 2);
                    model[strcspn(model, "\n")] = 0;
                }
                break;
            }
        }
        fclose(f);
    }
    char date[64];
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    printf("Machine: %ld CPUs (nproc), %s; compiler: %s %s; %s; simdjson: %s; allocation "
           "counting: hooks%s\n\n",
           sysconf(_SC_NPROCESSORS_ONLN), model,
#ifdef __clang__
           "clang",
#else
           "gcc",
#endif
           __VERSION__, date,
#ifdef BENCH_HAVE_SIMDJSON
           simd_version(),
#else
           "not built",
#endif
           alloc_interposed() ? " + malloc interposition" : " only (json-c, simdjson: n/a)");
    if (csv != NULL)
        fprintf(csv, "# %ld CPUs, %s, %s, %s\n", sysconf(_SC_NPROCESSORS_ONLN), model, __VERSION__,
                date);
}

static int usage(void)
{
    fprintf(stderr, "usage: atdc_bench [--quick] [--rounds N] [--data DIR] [--csv FILE]\n"
                    "                  [--workload NAME] [--only ID --iters N]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *csv_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quick") == 0) {
            quick_mode = true;
        } else if (strcmp(a, "--rounds") == 0 && v != NULL) {
            rounds = atoi(v);
            i++;
        } else if (strcmp(a, "--data") == 0 && v != NULL) {
            dir = v;
            i++;
        } else if (strcmp(a, "--csv") == 0 && v != NULL) {
            csv_path = v;
            i++;
        } else if (strcmp(a, "--workload") == 0 && v != NULL) {
            workload_filter = v;
            i++;
        } else if (strcmp(a, "--only") == 0 && v != NULL) {
            only_id = v;
            i++;
        } else if (strcmp(a, "--iters") == 0 && v != NULL) {
            only_iters = atol(v);
            i++;
        } else {
            return usage();
        }
    }
    if (quick_mode)
        rounds = 1; /* every path once; the ctest entry must stay short */
    if (rounds < 1 || rounds > 256 || (only_id != NULL && only_iters < 1))
        return usage();
    char default_dir[4096];
    if (dir == NULL) {
        const char *shared = getenv("ATD_SHARED_DIR");
        snprintf(default_dir, sizeof default_dir, "%s/data/bench", shared ? shared : "../shared");
        dir = default_dir;
    }

    /* Keep big blocks in the heap (see the file comment). */
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 512 * 1024 * 1024);
    alloc_install_library_hooks();

    if (csv_path != NULL) {
        csv = fopen(csv_path, "w");
        if (csv == NULL) {
            fprintf(stderr, "atdc_bench: cannot write %s\n", csv_path);
            return 2;
        }
    }
    if (only_id == NULL) {
        printf("## atdc benchmark%s\n\n", quick_mode ? " (--quick: figures meaningless)" : "");
        print_machine();
        if (csv != NULL)
            fprintf(csv, "workload,group,contender,bytes,best_seconds,mb_per_s,ratio_to_generated,"
                         "allocs_loop,allocs_fresh,bytes_fresh,peak_fresh\n");
        printf("Best of %d rounds; ratio = this contender's time / the generated reader's "
               "(writers: writer's) time in the same round, median over rounds (> 1: generated "
               "is faster). MB = 10^6 bytes of JSON text (writers: their own output).\n\n",
               rounds);
        print_header();
    }
    bench_events();
    bench_micro();
    bench_file(dir, "donut", &donut_root_ops, 4000);
    bench_file(dir, "twitter", &twitter_root_ops, 0);
    bench_file(dir, "citm_catalog", &citm_catalog_root_ops, 0);
    bench_file(dir, "canada", &canada_root_ops, 0);
    bench_file(dir, "github", &github_root_ops, 0);
    bench_file(dir, "blockchain", &blockchain_root_ops, 0);
    if (only_id == NULL) {
        allocation_growth();
        targets();
    }
    if (csv != NULL)
        fclose(csv);
    return exit_status;
}
