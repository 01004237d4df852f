/* Throughput of the reader primitives on the benchmark documents (twitter,
 * citm_catalog, canada), three contenders per file:
 *   skip  atd_skip_value (the validating skipper, no allocation);
 *   dom   atd_json_parse (the generic DOM, arena reset between iterations);
 *   gen   the generated reader of the file's schema (<schema>_root_from_json
 *         from generated/, arena reset between iterations).
 * Reported as MB/s (10^6 bytes of input per second), best of ROUNDS rounds:
 * on shared, noisy machines the best time is the stable figure, a median
 * moves with the load of the other processes. Contenders are
 * interleaved and the first one rotates each round; each timed batch lasts at
 * least 20 ms after one untimed iteration; every iteration's result is checked,
 * so a reader that fails early cannot look fast. Arenas are reset, not freed,
 * so no large buffer goes back to the kernel between iterations.
 *
 * For instruction counts, `--once CONTENDER FILE N` runs N iterations of one
 * contender through run_once() and nothing else (see bench/profile_reader.sh,
 * which runs it under callgrind with --toggle-collect=run_once).
 *
 * Built with the benchmark (-DATDC_BUILD_BENCH=ON) as atdc_bench_reader:
 *   build/rel/bench/atdc_bench_reader [DATA_DIR]
 *   build/rel/bench/atdc_bench_reader --once gen twitter.json 10 [DATA_DIR]
 * DATA_DIR holds twitter.json, citm_catalog.json and canada.json (default
 * ../shared/data/bench). */
#define _POSIX_C_SOURCE 200809L
#include <atd.h>

#include "canada.h"
#include "citm_catalog.h"
#include "twitter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 25
#define MIN_BATCH_NS 20000000.0
#define DEFAULT_DIR "../shared/data/bench"

enum { SKIP, DOM, GEN, NCONTENDERS };
static const char *const contender_names[NCONTENDERS] = {"skip", "dom", "gen"};
static const char *const files[] = {"twitter.json", "citm_catalog.json", "canada.json"};
#define NFILES (sizeof files / sizeof files[0])

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    if (fseek(fp, 0, SEEK_END) != 0) {
        fclose(fp);
        return NULL;
    }
    long n = ftell(fp);
    if (n < 0 || fseek(fp, 0, SEEK_SET) != 0) {
        fclose(fp);
        return NULL;
    }
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

/* One parse of `json` (file index f) by contender c. Returns a small checksum
 * of the result (nonzero on success), 0 on failure, with the message in err. */
static size_t parse(int c, size_t f, const char *json, size_t len, atd_arena *arena, atd_error *err)
{
    atd_arena_reset(arena);
    if (c == SKIP) {
        atd_reader r;
        atd_reader_init(&r, json, len, NULL, 0);
        if (!(atd_skip_value(&r) && atd_read_end(&r))) {
            atd_reader_get_error(&r, err);
            return 0;
        }
        return 1;
    }
    if (c == DOM) {
        atd_json v;
        if (atd_json_parse(json, len, arena, 0, &v, err) != 0)
            return 0;
        return 1 + (size_t)v.kind;
    }
    switch (f) {
    case 0: {
        twitter_root v;
        if (twitter_root_from_json(json, len, arena, &v, err) != 0)
            return 0;
        return 1 + v.statuses.len;
    }
    case 1: {
        citm_catalog_root v;
        if (citm_catalog_root_from_json(json, len, arena, &v, err) != 0)
            return 0;
        return 1 + v.performances.len;
    }
    default: {
        canada_root v;
        if (canada_root_from_json(json, len, arena, &v, err) != 0)
            return 0;
        return 1 + v.features.len;
    }
    }
}

/* The only code callgrind counts (--toggle-collect=run_once). */
__attribute__((noinline)) size_t run_once(int c, size_t f, const char *json, size_t len,
                                          atd_arena *arena, atd_error *err);
__attribute__((noinline)) size_t run_once(int c, size_t f, const char *json, size_t len,
                                          atd_arena *arena, atd_error *err)
{
    return parse(c, f, json, len, arena, err);
}

static int contender_index(const char *name)
{
    for (int c = 0; c < NCONTENDERS; c++)
        if (strcmp(name, contender_names[c]) == 0)
            return c;
    return -1;
}

static int run_fixed(const char *name, const char *file, long n, const char *dir)
{
    int c = contender_index(name);
    size_t f = 0;
    while (f < NFILES && strcmp(files[f], file) != 0)
        f++;
    if (c < 0 || f == NFILES) {
        fprintf(stderr, "usage: atdc_bench_reader --once skip|dom|gen FILE N [DIR]\n");
        return 2;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    size_t len;
    char *json = slurp(path, &len);
    atd_arena *arena = atd_arena_new(1 << 20, NULL);
    if (!json || !arena) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    atd_error err;
    size_t sum = 0;
    for (long i = 0; i < n; i++) {
        size_t k = run_once(c, f, json, len, arena, &err);
        if (!k) {
            fprintf(stderr, "%s %s: %s\n", name, file, err.message);
            return 1;
        }
        sum += k;
    }
    printf("%s %s: %ld iterations, %zu bytes each, checksum %zu\n", name, file, n, len, sum);
    atd_arena_free(arena);
    free(json);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "--once") == 0)
        return run_fixed(argv[2], argv[3], atol(argv[4]), argc > 5 ? argv[5] : DEFAULT_DIR);
    const char *dir = argc > 1 ? argv[1] : DEFAULT_DIR;
    int status = 0;
    atd_arena *arena = atd_arena_new(1 << 20, NULL);
    if (!arena)
        return 1;
    printf("%-20s %10s %10s %10s %10s   (MB/s, best of %d)\n", "file", "bytes", "skip", "dom",
           "gen", ROUNDS);
    for (size_t f = 0; f < NFILES; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        size_t len;
        char *json = slurp(path, &len);
        if (!json) {
            fprintf(stderr, "cannot read %s\n", path);
            status = 1;
            continue;
        }
        double best[NCONTENDERS];
        bool ok = true;
        for (int c = 0; c < NCONTENDERS; c++) {
            atd_error err;
            best[c] = 1e300;
            if (!parse(c, f, json, len, arena, &err)) {
                fprintf(stderr, "%s %s: %s\n", contender_names[c], files[f], err.message);
                ok = false;
            }
        }
        if (!ok) {
            status = 1;
            free(json);
            continue;
        }
        size_t sink = 0;
        for (int round = 0; round < ROUNDS; round++) {
            for (int k = 0; k < NCONTENDERS; k++) {
                int c = (k + round) % NCONTENDERS;
                atd_error err;
                sink += parse(c, f, json, len, arena, &err); /* untimed */
                size_t iters = 0;
                double t0 = now_ns(), t1;
                do {
                    size_t s = parse(c, f, json, len, arena, &err);
                    if (!s)
                        return 2;
                    sink += s;
                    iters++;
                    t1 = now_ns();
                } while (t1 - t0 < MIN_BATCH_NS);
                double per = (t1 - t0) / (double)iters;
                if (per < best[c])
                    best[c] = per;
            }
        }
        printf("%-20s %10zu %10.0f %10.0f %10.0f\n", files[f], len, (double)len / best[SKIP] * 1e3,
               (double)len / best[DOM] * 1e3, (double)len / best[GEN] * 1e3);
        if (sink == 0)
            printf("(sink)\n");
        fflush(stdout);
        free(json);
    }
    atd_arena_free(arena);
    return status;
}
