/* Micro-benchmark of the number module against glibc: parsing doubles
 * (atd_parse_double vs strtod), printing them (atd_write_double vs
 * snprintf "%.17g") and printing int64 (vs snprintf "%lld"), on random
 * doubles and on the numbers of canada.json.
 *
 * Not a test. Contenders run back to back in each round (the first one
 * rotating), every timed batch lasts >= 20 ms after an untimed warm-up pass,
 * and the report gives best-of-rounds ns per value and the median of
 * same-round ratios: on shared, noisy machines those are the figures that
 * hold from one run to the next. Results are checked for agreement before
 * timing.
 *
 * Built with the benchmark (-DATDC_BUILD_BENCH=ON) as atdc_bench_numbers:
 *   build/rel/bench/atdc_bench_numbers [path/to/canada.json [once]]
 * "once" runs each contender a single time, for instruction counts:
 *   valgrind --tool=callgrind --toggle-collect=run_atd_parse
 *       build/rel/bench/atdc_bench_numbers canada.json once   (one line) */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atd/number.h"

#define ROUNDS 25
#define MAX_NUMS 200000

typedef struct span {
    const char *p;
    size_t n;
} span;

static struct {
    span spans[MAX_NUMS];
    double vals[MAX_NUMS];
    int64_t ints[MAX_NUMS];
    size_t count;
    volatile uint64_t sink;
} data;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t bits_of(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* --- contenders: each processes the whole data set once --- */

static void run_atd_parse(void)
{
    uint64_t s = 0;
    for (size_t i = 0; i < data.count; i++) {
        double v;
        atd_parse_double(data.spans[i].p, data.spans[i].p + data.spans[i].n, &v);
        s += bits_of(v);
    }
    data.sink = s;
}

/* as a reader would: the number's end is found while parsing, and the
 * input goes on to the end of the document */
static const char *doc_end;

static void run_atd_prefix(void)
{
    uint64_t s = 0;
    for (size_t i = 0; i < data.count; i++) {
        double v;
        atd_parse_double_prefix(data.spans[i].p, doc_end, &v);
        s += bits_of(v);
    }
    data.sink = s;
}

static void run_strtod(void)
{
    uint64_t s = 0;
    for (size_t i = 0; i < data.count; i++)
        s += bits_of(strtod(data.spans[i].p, NULL));
    data.sink = s;
}

static void run_atd_write(void)
{
    char buf[64];
    uint64_t s = 0;
    for (size_t i = 0; i < data.count; i++)
        s += (uint64_t)(atd_write_double(buf, data.vals[i]) - buf) + (uint8_t)buf[1];
    data.sink = s;
}

static void run_snprintf(void)
{
    char buf[64];
    uint64_t s = 0;
    for (size_t i = 0; i < data.count; i++)
        s += (uint64_t)snprintf(buf, sizeof buf, "%.17g", data.vals[i]) + (uint8_t)buf[1];
    data.sink = s;
}

static void run_atd_int(void)
{
    char buf[32];
    uint64_t s = 0;
    for (size_t i = 0; i < data.count; i++)
        s += (uint64_t)(atd_write_int64(buf, data.ints[i]) - buf) + (uint8_t)buf[0];
    data.sink = s;
}

static void run_snprintf_int(void)
{
    char buf[32];
    uint64_t s = 0;
    for (size_t i = 0; i < data.count; i++)
        s += (uint64_t)snprintf(buf, sizeof buf, "%lld", (long long)data.ints[i]) + (uint8_t)buf[0];
    data.sink = s;
}

/* Time batches of `fn` lasting >= 20 ms; returns ns per value. */
static double time_batch(void (*fn)(void))
{
    fn(); /* untimed */
    int reps = 0;
    double t0 = now_ns(), t1;
    do {
        fn();
        reps++;
        t1 = now_ns();
    } while (t1 - t0 < 20e6);
    return (t1 - t0) / reps / (double)data.count;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static bool once; /* "once" mode: one pass per contender, for callgrind */

static void duel(const char *what, const char *na, void (*a)(void), const char *nb, void (*b)(void))
{
    if (once) {
        a();
        b();
        printf("%s: one pass each over %zu values\n", what, data.count);
        return;
    }
    double best_a = 1e30, best_b = 1e30, ratios[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        double ta, tb;
        if (r & 1) {
            tb = time_batch(b);
            ta = time_batch(a);
        } else {
            ta = time_batch(a);
            tb = time_batch(b);
        }
        best_a = ta < best_a ? ta : best_a;
        best_b = tb < best_b ? tb : best_b;
        ratios[r] = tb / ta;
    }
    qsort(ratios, ROUNDS, sizeof ratios[0], cmp_double);
    printf("%-28s %-18s %7.1f ns   %-18s %7.1f ns   %s/%s median ratio %.2fx\n", what, na, best_a,
           nb, best_b, nb, na, ratios[ROUNDS / 2]);
}

/* --- data sets --- */

static char *text; /* numbers as text, each followed by ',' */

static void set_from_values(void)
{
    free(text);
    text = malloc(data.count * 32 + 1);
    char *p = text;
    for (size_t i = 0; i < data.count; i++) {
        data.spans[i].p = p;
        p += sprintf(p, "%.17g", data.vals[i]);
        data.spans[i].n = (size_t)(p - data.spans[i].p);
        *p++ = ',';
    }
    *p = 0;
}

static void check_agreement(void)
{
    for (size_t i = 0; i < data.count; i++) {
        double v;
        if (atd_parse_double(data.spans[i].p, data.spans[i].p + data.spans[i].n, &v) !=
                ATD_NUM_OK ||
            bits_of(v) != bits_of(strtod(data.spans[i].p, NULL))) {
            fprintf(stderr, "disagreement on %.*s\n", (int)data.spans[i].n, data.spans[i].p);
            exit(1);
        }
        char buf[64];
        *atd_write_double(buf, data.vals[i]) = 0;
        if (bits_of(strtod(buf, NULL)) != bits_of(data.vals[i])) {
            fprintf(stderr, "bad print %s\n", buf);
            exit(1);
        }
    }
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

int main(int argc, char **argv)
{
    const char *canada = argc > 1 ? argv[1] : "../shared/data/bench/canada.json";
    once = argc > 2 && strcmp(argv[2], "once") == 0;

    /* random finite doubles */
    uint64_t s = 0x9E3779B97F4A7C15u;
    data.count = 0;
    while (data.count < 100000) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        double v;
        memcpy(&v, &s, sizeof v);
        if (v - v == 0) { /* finite */
            data.vals[data.count] = v;
            data.ints[data.count] = (int64_t)(s >> (s % 64));
            data.count++;
        }
    }
    set_from_values();
    check_agreement();
    printf("random doubles (%zu, %%.17g text, best-of-%d):\n", data.count, ROUNDS);
    duel("  parse", "atd_parse_double", run_atd_parse, "strtod", run_strtod);
    duel("  print", "atd_write_double", run_atd_write, "snprintf %.17g", run_snprintf);
    duel("  int64 print (random widths)", "atd_write_int64", run_atd_int, "snprintf %lld",
         run_snprintf_int);

    size_t len;
    char *json = read_file(canada, &len);
    if (!json) {
        fprintf(stderr, "cannot read %s\n", canada);
        return 1;
    }
    data.count = 0;
    for (const char *p = json, *end = json + len; p < end && data.count < MAX_NUMS;) {
        bool integer;
        const char *e =
            (*p == '-' || (*p >= '0' && *p <= '9')) ? atd_scan_number(p, end, &integer) : p;
        if (e > p) {
            data.spans[data.count].p = p;
            data.spans[data.count].n = (size_t)(e - p);
            data.vals[data.count] = strtod(p, NULL);
            data.count++;
            p = e;
        } else {
            p++;
        }
    }
    check_agreement();
    printf("canada.json numbers (%zu, as in the file):\n", data.count);
    doc_end = json + len;
    duel("  parse", "atd_parse_double", run_atd_parse, "strtod", run_strtod);
    duel("  parse in document", "atd_parse_double_prefix", run_atd_prefix, "strtod", run_strtod);
    duel("  print", "atd_write_double", run_atd_write, "snprintf %.17g", run_snprintf);
    free(json);
    free(text);
    return 0;
}
