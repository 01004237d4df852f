/* runtime_demo: parses and rewrites every JSON file of a directory with the
 * runtime's generic value (atd_json_parse / atd_json_write) and prints a
 * markdown table of throughputs and arena usage.
 *
 * Usage: runtime_demo [DIR]   (default: $ATD_SHARED_DIR/data/bench)
 *
 * Following docs/measuring.md (shared docs): the parse and write contenders
 * run back to back inside each round, each timed batch lasts at least 20 ms
 * and is preceded by one untimed iteration, and the figure kept is the best
 * per-iteration time over the rounds (medians move 2x on these machines). The
 * arena is reset, not freed, between iterations and the output buffer is
 * cleared, not freed, so the timed loops do not call malloc for big blocks.
 * Every result is checked (parse status, output length and checksum) before
 * it is timed. */
#define _POSIX_C_SOURCE 200809L

#include "atd.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 20
#define MIN_BATCH_SECONDS 0.020

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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

static uint64_t checksum(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211u;
    return h;
}

typedef struct doc {
    const char *json;
    size_t len;
    atd_arena *arena;
    atd_buf out;
    atd_json value;
    unsigned flags;
} doc;

/* One parse (the arena is reset first). Returns false on a parse error. */
static bool parse_once(doc *d)
{
    atd_arena_reset(d->arena);
    return atd_json_parse(d->json, d->len, d->arena, d->flags, &d->value, NULL) == 0;
}

static bool write_once(doc *d)
{
    atd_buf_clear(&d->out);
    return atd_json_write(&d->value, &d->out, NULL) == 0;
}

typedef bool (*step_fn)(doc *d);

/* Runs `iters` iterations after an untimed one; returns seconds per iteration,
 * or a negative value when an iteration fails. */
static double batch(step_fn fn, doc *d, long iters)
{
    if (!fn(d))
        return -1;
    double t0 = now();
    for (long i = 0; i < iters; i++) {
        if (!fn(d))
            return -1;
    }
    return (now() - t0) / (double)iters;
}

static long calibrate(step_fn fn, doc *d)
{
    long iters = 1;
    for (;;) {
        double per = batch(fn, d, iters);
        if (per < 0)
            return -1;
        if (per * (double)iters >= MIN_BATCH_SECONDS)
            return iters;
        iters *= 2;
    }
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int bench_file(const char *dir, const char *name)
{
    char path[4096];
    int plen = snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len = 0;
    char *json = plen > 0 && (size_t)plen < sizeof path ? read_file(path, &len) : NULL;
    if (json == NULL) {
        fprintf(stderr, "runtime_demo: cannot read %s\n", path);
        return 1;
    }

    /* Verify first: status, then a stable output (same length and checksum
     * after a second parse of the output). */
    doc d = {json, len, atd_arena_new(0, NULL), {0}, {ATD_JSON_NULL, {0}}, 0};
    atd_buf_init(&d.out);
    atd_error err;
    if (d.arena == NULL || atd_json_parse(json, len, d.arena, 0, &d.value, &err) != 0) {
        fprintf(stderr, "runtime_demo: %s: %s\n", name, d.arena ? err.message : "no memory");
        return 1;
    }
    atd_arena_stats fresh = atd_arena_get_stats(d.arena);
    if (atd_json_write(&d.value, &d.out, &err) != 0) {
        fprintf(stderr, "runtime_demo: %s: write: %s\n", name, err.message);
        return 1;
    }
    size_t out_len = d.out.len;
    uint64_t out_sum = checksum(d.out.data, d.out.len);

    long parse_iters = calibrate(parse_once, &d);
    d.flags = ATD_READ_BORROW_STRINGS;
    long borrow_iters = calibrate(parse_once, &d);
    d.flags = 0;
    parse_once(&d);
    long write_iters = calibrate(write_once, &d);
    if (parse_iters < 0 || borrow_iters < 0 || write_iters < 0 || d.out.len != out_len ||
        checksum(d.out.data, d.out.len) != out_sum) {
        fprintf(stderr, "runtime_demo: %s: result changed between iterations\n", name);
        return 1;
    }

    double best_parse = 1e30, best_borrow = 1e30, best_write = 1e30;
    for (int round = 0; round < ROUNDS; round++) {
        /* Rotate the starting contender so none always runs first. */
        for (int k = 0; k < 3; k++) {
            switch ((round + k) % 3) {
            case 0: {
                d.flags = 0;
                double t = batch(parse_once, &d, parse_iters);
                best_parse = t >= 0 && t < best_parse ? t : best_parse;
                break;
            }
            case 1: {
                d.flags = ATD_READ_BORROW_STRINGS;
                double t = batch(parse_once, &d, borrow_iters);
                best_borrow = t >= 0 && t < best_borrow ? t : best_borrow;
                break;
            }
            default: {
                d.flags = 0;
                parse_once(&d);
                double t = batch(write_once, &d, write_iters);
                best_write = t >= 0 && t < best_write ? t : best_write;
                break;
            }
            }
        }
    }
    d.flags = 0;
    parse_once(&d);
    write_once(&d);
    if (d.out.len != out_len || checksum(d.out.data, d.out.len) != out_sum) {
        fprintf(stderr, "runtime_demo: %s: output changed\n", name);
        return 1;
    }
    atd_arena_stats st = atd_arena_get_stats(d.arena);
    double mb = (double)len / 1e6;
    printf("| %s | %zu | %.0f | %.0f | %.0f | %zu | %zu | %zu |\n", name, len, mb / best_parse,
           mb / best_borrow, mb / best_write, st.bytes_used, fresh.chunks, out_len);
    atd_buf_free(&d.out);
    atd_arena_free(d.arena);
    free(json);
    return 0;
}

int main(int argc, char **argv)
{
    char default_dir[4096];
    const char *dir = argc > 1 ? argv[1] : NULL;
    if (dir == NULL) {
        const char *shared = getenv("ATD_SHARED_DIR");
        if (shared == NULL) {
            fprintf(stderr, "usage: runtime_demo DIR (or set ATD_SHARED_DIR)\n");
            return 2;
        }
        int n = snprintf(default_dir, sizeof default_dir, "%s/data/bench", shared);
        if (n < 0 || (size_t)n >= sizeof default_dir) {
            fprintf(stderr, "runtime_demo: ATD_SHARED_DIR is too long\n");
            return 2;
        }
        dir = default_dir;
    }
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "runtime_demo: cannot open %s\n", dir);
        return 2;
    }
    char *names[256];
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && count < 256) {
        size_t n = strlen(e->d_name);
        if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0) {
            names[count] = malloc(n + 1);
            if (names[count] == NULL)
                break;
            memcpy(names[count], e->d_name, n + 1);
            count++;
        }
    }
    closedir(d);
    qsort(names, count, sizeof names[0], compare_names);

    printf("| file | bytes | parse MB/s | parse MB/s (borrowed strings) | write MB/s | arena bytes "
           "| arena chunks (fresh arena) | output bytes |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    int status = 0;
    for (size_t i = 0; i < count; i++) {
        fflush(stdout);
        if (bench_file(dir, names[i]) != 0)
            status = 1;
        free(names[i]);
    }
    printf("\nBest of %d rounds, batches of at least %.0f ms, MB = 10^6 bytes of input; the arena "
           "is reset between parses.\n",
           ROUNDS, MIN_BATCH_SECONDS * 1e3);
    return status;
}
