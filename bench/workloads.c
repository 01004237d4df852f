/* The workloads: what is read and written, and the reference figures every
 * contender is checked against.
 *
 * A workload is a schema root type (schema_ops), the text the readers read,
 * the typed value the writers write and that value's text as the generated
 * writer writes it, plus the value counts of both texts and, for event and
 * donut, the checksum of the decoded structs. bench_workloads runs them in
 * report order: the synthetic event lists, the writer micro-workloads, then
 * the files of the data folder (FILES); each read workload of a document
 * (event and FILES) is followed by the variants of its text (variants.c:
 * NAME.sorted, NAME.reversed, NAME.hashed, NAME.shuffled, NAME.escaped,
 * NAME.pretty), checked against the same reference figures. */
#include "driver.h"

#include "bin_bench.h"
#include "bin_blockchain.h"
#include "bin_canada.h"
#include "bin_citm_catalog.h"
#include "bin_donut.h"
#include "bin_event.h"
#include "bin_github.h"
#include "bin_twitter.h"
#include "blockchain.h"
#include "canada.h"
#include "citm_catalog.h"
#include "github.h"
#include "twitter.h"
#include "twitter_partial.h"

#include <stdlib.h>
#include <string.h>

/* ======================================================================== */
/* MARK: typed schemas                                                       */
/* ======================================================================== */

/* The biniou functions of bin_T, behind void pointers. */
#define BIN_OPS(T)                                                                                 \
    static int bin_##T##_bench_from_json(const char *j, size_t n, atd_arena *a, void *out)         \
    {                                                                                              \
        return bin_##T##_from_json(j, n, a, out, NULL);                                            \
    }                                                                                              \
    static int bin_##T##_bench_to_json(const void *v, atd_buf *b)                                  \
    {                                                                                              \
        return bin_##T##_to_json(v, b, NULL);                                                      \
    }                                                                                              \
    static int bin_##T##_bench_from_biniou(const char *d, size_t n, atd_arena *a, void *out)       \
    {                                                                                              \
        return bin_##T##_from_biniou(d, n, a, out, NULL);                                          \
    }                                                                                              \
    static int bin_##T##_bench_to_biniou(const void *v, atd_buf *b)                                \
    {                                                                                              \
        return bin_##T##_to_biniou(v, b, NULL);                                                    \
    }                                                                                              \
    static const bin_ops T##_bin = {sizeof(bin_##T), bin_##T##_bench_from_json,                    \
                                    bin_##T##_bench_to_json, bin_##T##_bench_from_biniou,          \
                                    bin_##T##_bench_to_biniou};

BIN_OPS(event_events)
BIN_OPS(donut_root)
BIN_OPS(twitter_root)
BIN_OPS(citm_catalog_root)
BIN_OPS(canada_root)
BIN_OPS(github_root)
BIN_OPS(blockchain_root)
BIN_OPS(bench_strings)
BIN_OPS(bench_counts)

/* twitter.json through twitter_partial.atd: the fields it declares must
 * hold what the whole schema read. */
static bool twitter_partial_bench_read(atd_reader *r, void *out)
{
    return twitter_partial_root_read(r, out);
}

static bool twitter_partial_bench_check(const void *whole, const void *part)
{
    const twitter_root *w = whole;
    const twitter_partial_root *p = part;
    if (w->statuses.len != p->statuses.len)
        return false;
    for (size_t i = 0; i < w->statuses.len; i++) {
        const twitter_status *a = &w->statuses.items[i];
        const twitter_partial_status *b = &p->statuses.items[i];
        if (a->id != b->id || !atd_string_equal(&a->text, &b->text) || a->user.id != b->user.id ||
            !atd_string_equal(&a->user.screen_name, &b->user.screen_name) ||
            a->user.followers_count != b->user.followers_count ||
            a->retweet_count != b->retweet_count || a->favorited != b->favorited)
            return false;
    }
    return true;
}

static const partial_ops twitter_partial_ops = {
    sizeof(twitter_partial_root), twitter_partial_bench_read, twitter_partial_bench_check};

#define SCHEMA_OPS(T, CONV, BIN, PARTIAL)                                                          \
    static bool T##_bench_read(atd_reader *r, void *out)                                           \
    {                                                                                              \
        return T##_read(r, out);                                                                   \
    }                                                                                              \
    static bool T##_bench_write(atd_writer *w, const void *v)                                      \
    {                                                                                              \
        return T##_write(w, v);                                                                    \
    }                                                                                              \
    static const schema_ops T##_ops = {sizeof(T), T##_bench_read, T##_bench_write, CONV,           \
                                       BIN,       PARTIAL};

SCHEMA_OPS(event_events, CONV_EVENTS, &event_events_bin, NULL)
SCHEMA_OPS(donut_root, CONV_DONUT, &donut_root_bin, NULL)
SCHEMA_OPS(twitter_root, CONV_NONE, &twitter_root_bin, &twitter_partial_ops)
SCHEMA_OPS(citm_catalog_root, CONV_NONE, &citm_catalog_root_bin, NULL)
SCHEMA_OPS(canada_root, CONV_NONE, &canada_root_bin, NULL)
SCHEMA_OPS(github_root, CONV_NONE, &github_root_bin, NULL)
SCHEMA_OPS(blockchain_root, CONV_NONE, &blockchain_root_bin, NULL)
/* ints.1e5 holds ints beyond +-2^62, which biniou (63-bit ints in OCaml)
 * cannot carry: no biniou rows. */
SCHEMA_OPS(bench_ints, CONV_NONE, NULL, NULL)
SCHEMA_OPS(bench_strings, CONV_NONE, &bench_strings_bin, NULL)
SCHEMA_OPS(bench_counts, CONV_NONE, &bench_counts_bin, NULL)

/* The files of the data folder, each through its schema's root type. */
typedef struct file_workload {
    const char *name; /* NAME.json in the data folder */
    const schema_ops *ops;
    long min_iters; /* documents per timed batch, at least */
} file_workload;

static const file_workload FILES[] = {
    {"donut", &donut_root_ops, 4000},
    {"twitter", &twitter_root_ops, 0},
    {"citm_catalog", &citm_catalog_root_ops, 0},
    {"canada", &canada_root_ops, 0},
    {"github", &github_root_ops, 0},
    {"blockchain", &blockchain_root_ops, 0},
};

/* ======================================================================== */
/* MARK: reading and writing through a schema                                */
/* ======================================================================== */

bool gen_read_into(const workload *w, bool (*read)(atd_reader *r, void *out), atd_arena *arena,
                   unsigned flags, void *value)
{
    atd_reader r;
    atd_arena_reset(arena);
    atd_reader_init(&r, w->input, w->input_len, arena, flags);
    return read(&r, value) && atd_read_end(&r);
}

bool gen_write(const schema_ops *ops, const void *value, atd_buf *b)
{
    atd_writer w;
    atd_writer_init(&w, b, 0);
    return ops->write(&w, value) && b->status == 0;
}

uint64_t typed_checksum(const workload *w, const void *value)
{
    return w->ops->conv == CONV_EVENTS  ? checksum_events(value)
           : w->ops->conv == CONV_DONUT ? checksum_donut(value)
                                        : 0;
}

/* ======================================================================== */
/* MARK: workload set-up                                                     */
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

/* Whether `base` or one of its variants (`base.sorted`, ...) is selected. */
static bool selected_with_variants(const char *base)
{
    size_t n = strlen(base);
    if (selected(base) || (strncmp(workload_filter, base, n) == 0 && workload_filter[n] == '.'))
        return true;
    return false;
}

/* The variants of w's input (variants.c): the same values, so the same
 * reference figures (value counts, checksum, text written back), timed for
 * the few readers of GROUP_VARIANT. */
static void bench_variants(workload *w)
{
    char base[sizeof w->name];
    memcpy(base, w->name, sizeof base);
    const char *input = w->input;
    size_t input_len = w->input_len;
    dom_counts counts = w->input_counts;
    atd_buf out_sorted;
    atd_buf_init(&out_sorted);
    bool sorted_ok = variant_text(w->out.data, w->out.len, VARIANT_SORTED, &out_sorted);
    for (int v = 0; v < VARIANT_COUNT; v++) {
        int n = snprintf(w->name, sizeof w->name, "%s.%s", base, VARIANT_NAMES[v]);
        if (n < 0 || (size_t)n >= sizeof w->name || !selected(w->name))
            continue;
        w->out_sorted = variant_reorders_keys((doc_variant)v) ? &out_sorted : NULL;
        atd_buf text;
        atd_buf_init(&text);
        if (!sorted_ok || !variant_text(input, input_len, (doc_variant)v, &text) ||
            !dom_counts_of_text(text.data, text.len, &w->input_counts) ||
            !dom_counts_equal(&w->input_counts, &counts)) {
            report_setup_failed(w->name);
        } else {
            w->input = text.data;
            w->input_len = text.len;
            run_workload(w, GROUP_VARIANT);
        }
        atd_buf_free(&text);
    }
    atd_buf_free(&out_sorted);
    w->out_sorted = NULL;
    memcpy(w->name, base, sizeof base);
    w->input = input;
    w->input_len = input_len;
    w->input_counts = counts;
}

/* ======================================================================== */
/* MARK: the workloads                                                       */
/* ======================================================================== */

/* 1000 events, written then read back; the same with ten unknown fields
 * each (their values skipped); the variants of both texts; and the
 * bounded-memory sinks. */
static void bench_events(void)
{
    static const char *const names[] = {"event", "event.unknown10"};
    if (!selected_with_variants("event") && !selected("event.sink"))
        return;
    workload w;
    if (!workload_init(&w, "event", &event_events_ops) ||
        !gen_events(w.value_arena, 1000, w.value) || !workload_finish(&w)) {
        report_setup_failed("event");
        workload_free(&w);
        return;
    }
    for (int variant = EVENTS_PLAIN; variant <= EVENTS_UNKNOWN; variant++) {
        atd_buf text;
        atd_buf_init(&text);
        if (!gen_events_text(w.value, variant, &text)) {
            report_setup_failed(names[variant]);
            atd_buf_free(&text);
            continue;
        }
        snprintf(w.name, sizeof w.name, "%s", names[variant]);
        w.input = text.data;
        w.input_len = text.len;
        if (variant == EVENTS_PLAIN &&
            (text.len != w.out.len || memcmp(text.data, w.out.data, text.len))) {
            report_setup_failed(names[variant]);
        } else if (!dom_counts_of_text(w.input, w.input_len, &w.input_counts)) {
            report_setup_failed(names[variant]);
        } else {
            if (selected(w.name))
                run_workload(&w, GROUP_READ | (variant == EVENTS_PLAIN ? GROUP_WRITE : 0));
            bench_variants(&w);
        }
        atd_buf_free(&text);
    }
    w.input = NULL;
    snprintf(w.name, sizeof w.name, "event.sink");
    if (selected(w.name))
        run_workload(&w, GROUP_SINK);
    workload_free(&w);
}

/* A writer micro-workload: a value of `ops` made by `gen`. */
static void bench_micro(const char *name, const schema_ops *ops,
                        bool (*gen)(atd_arena *a, size_t n, void *out), size_t n)
{
    if (!selected(name))
        return;
    workload w;
    if (workload_init(&w, name, ops) && gen(w.value_arena, n, w.value) && workload_finish(&w))
        run_workload(&w, GROUP_WRITE);
    else
        report_setup_failed(name);
    workload_free(&w);
}

static bool gen_ints_any(atd_arena *a, size_t n, void *out)
{
    return gen_ints(a, n, out);
}

static bool gen_strings_any(atd_arena *a, size_t n, void *out)
{
    return gen_strings(a, n, out);
}

static bool gen_counts_any(atd_arena *a, size_t n, void *out)
{
    return gen_counts(a, n, out);
}

/* A file of the data folder through its schema's root type. */
static void bench_file(const char *dir, const file_workload *f)
{
    if (!selected_with_variants(f->name))
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.json", dir, f->name);
    size_t len = 0;
    char *json = read_file(path, &len);
    workload w;
    bool ok = json != NULL && workload_init(&w, f->name, f->ops);
    if (ok) {
        w.input = json;
        w.input_len = len;
        w.min_iters = quick_mode ? 0 : f->min_iters;
        atd_reader r;
        atd_reader_init(&r, json, len, w.value_arena, 0);
        ok = f->ops->read(&r, w.value) && atd_read_end(&r) && workload_finish(&w);
        if (!ok) {
            atd_error err;
            atd_reader_get_error(&r, &err);
            fprintf(stderr, "atdc_bench: %s: %s\n", path, err.message);
        }
    }
    if (ok) {
        /* Informative: does the typed round trip keep every value? */
        w.typed_roundtrip_exact = dom_counts_equal(&w.input_counts, &w.out_counts);
        if (!w.typed_roundtrip_exact) {
            char note[160];
            snprintf(note, sizeof note, "the schema keeps %llu of the %llu values of the file",
                     (unsigned long long)dom_counts_total(&w.out_counts),
                     (unsigned long long)dom_counts_total(&w.input_counts));
            report_note(f->name, note);
        }
        if (selected(f->name))
            run_workload(&w, GROUP_READ | GROUP_WRITE);
        bench_variants(&w);
    } else {
        report_setup_failed(f->name);
    }
    if (json != NULL)
        workload_free(&w);
    free(json);
}

void bench_workloads(const char *data_dir, const char *filter)
{
    workload_filter = filter;
    bench_events();
    bench_micro("ints.1e5", &bench_ints_ops, gen_ints_any, 100000);
    bench_micro("strings.1e5", &bench_strings_ops, gen_strings_any, 100000);
    bench_micro("map.1e4", &bench_counts_ops, gen_counts_any, 10000);
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++)
        bench_file(data_dir, &FILES[i]);
}

/* Arena chunks obtained while reading one document with a fresh arena, for
 * event lists of growing size: the growth must be logarithmic. */
void allocation_growth(void)
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
            printf("| %zu | %zu | %llu | %llu | %zu |\n", n, text.len, (unsigned long long)calls[0],
                   (unsigned long long)calls[1], reserved);
        }
        atd_buf_free(&text);
        atd_arena_free(src);
    }
    printf("\nAllocations include the arena struct itself (1); the rest are chunks doubling "
           "in size.\n");
}
