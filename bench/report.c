/* The report: one markdown row per contender and workload on stdout (and
 * one CSV line when --csv is given, for bench/plot.sh), the machine line at
 * the top and the targets table at the end, computed from the rows kept. */
#define _GNU_SOURCE

#include "driver.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct result {
    char workload[48], id[40];
    bool writer, ok;
    size_t bytes;
    double mbps, ratio;
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

bool report_open_csv(const char *path)
{
    if (path == NULL)
        return true;
    csv = fopen(path, "w");
    return csv != NULL;
}

void report_close_csv(void)
{
    if (csv != NULL)
        fclose(csv);
    csv = NULL;
}

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

void report_begin(void)
{
    printf("## atdc benchmark%s\n\n", quick_mode ? " (--quick: figures meaningless)" : "");
    print_machine();
    if (csv != NULL)
        fprintf(csv, "workload,group,contender,bytes,best_seconds,mb_per_s,ratio_to_generated,"
                     "allocs_loop,allocs_fresh,bytes_fresh,peak_fresh\n");
    printf("Best of %d rounds; ratio = this contender's time / the generated reader's "
           "(writers: writer's) time in the same round, median over rounds (> 1: generated "
           "is faster). MB = 10^6 bytes of JSON text (writers: their own output).\n\n",
           rounds);
    printf("| workload | contender | MB/s (best) | time / generated (median same-round) | "
           "allocs/doc (loop) | allocs/doc (fresh) | bytes allocated (fresh) | peak bytes "
           "(fresh) |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
}

void report_note(const char *workload_name, const char *text)
{
    if (only_id == NULL)
        printf("| %s | (note) | %s | | | | | |\n", workload_name, text);
}

void report_setup_failed(const char *workload_name)
{
    fprintf(stderr, "atdc_bench: cannot set up workload %s\n", workload_name);
    printf("| %s | (all) | FAILED: set-up | | | | | |\n", workload_name);
    exit_status = 1;
}

void report_workload(const workload *w, contender *cs, size_t n)
{
    const contender *base_r = NULL, *base_w = NULL;
    for (size_t i = 0; i < n; i++) {
        if (cs[i].baseline && cs[i].error[0] == 0) {
            if (cs[i].kind->writer)
                base_w = &cs[i];
            else
                base_r = &cs[i];
        }
    }
    for (size_t i = 0; i < n; i++) {
        contender *c = &cs[i];
        bool writer = c->kind->writer;
        const contender *base = writer ? base_w : base_r;
        result *r = result_count < 1024 ? &results[result_count++] : &results[1023];
        memset(r, 0, sizeof *r);
        snprintf(r->workload, sizeof r->workload, "%s", w->name);
        memcpy(r->id, c->id, sizeof r->id); /* both char[40] */
        r->writer = writer;
        r->bytes = c->bytes;
        r->ok = c->error[0] == 0 && isfinite(c->best);
        if (!r->ok) {
            printf("| %s | %s | FAILED: %s | | | | | |\n", w->name, c->id,
                   c->error[0] ? c->error : "no timing");
            if (csv != NULL)
                fprintf(csv, "%s,%s,%s,%zu,,,,,,,\n", w->name, writer ? "write" : "read", c->id,
                        c->bytes);
            continue;
        }
        r->mbps = (double)c->bytes / 1e6 / c->best;
        r->ratio = base != NULL ? median_ratio(c, base) : NAN;
        char loop[32] = "n/a", fresh[32] = "n/a", bytes[32] = "n/a", peak[32] = "n/a";
        if (c->alloc_known) {
            snprintf(loop, sizeof loop, "%llu", (unsigned long long)c->loop_alloc.calls);
            snprintf(fresh, sizeof fresh, "%llu", (unsigned long long)c->fresh_alloc.calls);
            snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)c->fresh_alloc.bytes);
            snprintf(peak, sizeof peak, "%lld", (long long)c->fresh_alloc.peak);
        }
        printf("| %s | %s | %.0f | %.2f | %s | %s | %s | %s |\n", w->name, c->id, r->mbps, r->ratio,
               loop, fresh, bytes, peak);
        if (csv != NULL)
            fprintf(csv, "%s,%s,%s,%zu,%.9g,%.1f,%.3f,%s,%s,%s,%s\n", w->name,
                    writer ? "write" : "read", c->id, c->bytes, c->best, r->mbps, r->ratio, loop,
                    fresh, bytes, peak);
    }
    fflush(stdout);
}

/* ======================================================================== */
/* MARK: targets                                                             */
/* ======================================================================== */

static void target_row(const char *wl_name, const char *against, const char *fallback, double need,
                       bool writer, const char *label)
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
        printf("| %s | %s vs %s | >= %.1fx | n/a | |\n", wl_name, writer ? "gen.write" : "gen.read",
               against, need);
        return;
    }
    if (need <= 0) {
        printf("| %s | %s vs %s | (for information) | %.2fx | |\n", wl_name,
               writer ? "gen.write" : "gen.read", used, x->ratio);
        return;
    }
    printf("| %s | %s vs %s%s%s | >= %.1fx | %.2fx | %s |\n", wl_name,
           writer ? "gen.write" : "gen.read", used,
           used == fallback ? " (parse alone: approximates parse+conv)" : "", label, need, x->ratio,
           x->ratio >= need ? "met" : "NOT MET");
}

/* gen.read.partial (a schema for part of the document, the rest skipped)
 * against yyjson: the quotient of the two contenders' median same-round
 * ratios to gen.read. */
static void partial_target_row(const char *wl_name)
{
    const result *p = find_result(wl_name, "gen.read.partial");
    const result *x = find_result(wl_name, "yyjson.parse");
    if (p == NULL)
        return;
    if (x == NULL || !p->ok || !x->ok) {
        printf("| %s | gen.read.partial vs yyjson.parse | >= 1.3x | n/a | |\n", wl_name);
        return;
    }
    double ratio = x->ratio / p->ratio;
    printf("| %s | gen.read.partial vs yyjson.parse (required) | >= 1.3x | %.2fx | %s |\n", wl_name,
           ratio, ratio >= 1.3 ? "met" : "NOT MET");
}

/* The fastest generic parsers, workload by workload: the figures the speed
 * targets are about (ratio = their time / ours in the same round; below 1
 * they are faster). */
static void print_ratio(const char *wl_name, const char *id)
{
    const result *x = find_result(wl_name, id);
    if (x == NULL || !x->ok || isnan(x->ratio))
        printf(" n/a |");
    else
        printf(" %.2f |", x->ratio);
}

static void print_mbps(const char *wl_name, const char *id)
{
    const result *x = find_result(wl_name, id);
    if (x == NULL || !x->ok)
        printf(" n/a |");
    else
        printf(" %.0f |", x->mbps);
}

static const char *const SUMMARY_WORKLOADS[] = {"event",  "twitter",    "citm_catalog", "canada",
                                                "github", "blockchain", "donut"};
#define SUMMARY_COUNT (sizeof SUMMARY_WORKLOADS / sizeof SUMMARY_WORKLOADS[0])

/* Each summary workload, then its variants (variants.c): i = 0 is the
 * workload itself, 1..VARIANT_COUNT its variants. */
static const char *summary_name(size_t w, int i, char *buf, size_t size)
{
    if (i == 0)
        return SUMMARY_WORKLOADS[w];
    snprintf(buf, size, "%s.%s", SUMMARY_WORKLOADS[w], VARIANT_NAMES[i - 1]);
    return buf;
}

static void report_fastest(void)
{
    printf("\n### atdc against yyjson and simdjson (ratio = their time / atdc's, same round; "
           "< 1: they are faster)\n\n");
    printf("| workload | atdc read MB/s | yyjson read | yyjson read+conv | simdjson DOM | "
           "simdjson On-Demand | atdc write MB/s | yyjson write | simdjson minify |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < SUMMARY_COUNT * (VARIANT_COUNT + 1); i++) {
        char buf[48];
        const char *wl =
            summary_name(i / (VARIANT_COUNT + 1), (int)(i % (VARIANT_COUNT + 1)), buf, sizeof buf);
        if (find_result(wl, "gen.read") == NULL)
            continue;
        printf("| %s |", wl);
        print_mbps(wl, "gen.read");
        print_ratio(wl, "yyjson.parse");
        if (find_result(wl, "yyjson.parse+conv") != NULL)
            print_ratio(wl, "yyjson.parse+conv");
        else
            printf(" |");
        print_ratio(wl, "simdjson.dom");
        print_ratio(wl, "simdjson.ondemand");
        print_mbps(wl, "gen.write");
        print_ratio(wl, "yyjson.print");
        print_ratio(wl, "simdjson.minify");
        printf("\n");
    }
}

void report_targets(void)
{
    report_fastest();
    static const char *const wls[] = {"event", "twitter", "citm_catalog"};
    printf("\n### Targets (median same-round ratio of times, this run)\n\n");
    printf("| workload | comparison | target | ratio | |\n|---|---|---:|---:|---|\n");
    for (size_t i = 0; i < SUMMARY_COUNT * (VARIANT_COUNT + 1); i++) {
        /* Required: 1.3x yyjson reading (every workload and variant) and
         * writing; goals: simdjson's DOM reading, 1.5x yyjson writing. */
        char buf[48];
        const char *wl =
            summary_name(i / (VARIANT_COUNT + 1), (int)(i % (VARIANT_COUNT + 1)), buf, sizeof buf);
        target_row(wl, "yyjson.parse", NULL, 1.3, false, " (required)");
        partial_target_row(wl);
        target_row(wl, "yyjson.print", NULL, 1.3, true, " (required)"); /* none on variants */
        target_row(wl, "simdjson.dom", NULL, 1.0, false, " (goal)");
        target_row(wl, "yyjson.print", NULL, 1.5, true, " (goal)");
    }
    for (size_t i = 0; i < 3; i++) {
        target_row(wls[i], "atd_json.parse+conv", "atd_json.parse", 3, false, "");
        target_row(wls[i], "cjson.parse+conv", "cjson.parse", 5, false, "");
        target_row(wls[i], "jansson.parse+conv", "jansson.parse", 5, false, "");
        target_row(wls[i], "jsonc.parse+conv", "jsonc.parse", 5, false, "");
        target_row(wls[i], "simdjson.ondemand", NULL, 0, false, "");
        target_row(wls[i], "cjson.print", NULL, 3, true, "");
        target_row(wls[i], "jansson.print", NULL, 3, true, "");
        target_row(wls[i], "jsonc.print", NULL, 3, true, "");
    }
}
