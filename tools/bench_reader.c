/* Quick throughput check of the reader's validating skipper: atd_skip_value
 * over the benchmark documents, reported as MB/s (10^6 bytes of input per
 * second), best of 20 rounds as measuring.md recommends on our noisy shared
 * machines. Each round times a batch of at least 20 ms after one untimed
 * iteration; the result of every iteration is checked so that a skipper that
 * fails early cannot look fast.
 *
 * Build (from the repository root), for example:
 *   cc -std=c11 -O2 -Iruntime/include tools/bench_reader.c runtime/src/*.c -lm -o bench_reader
 *   ./bench_reader [/path/to/shared/data/bench] */
#define _POSIX_C_SOURCE 200809L
#include <atd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 20
#define MIN_BATCH_NS 20000000.0

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

static bool skip_once(const char *json, size_t len)
{
    atd_reader r;
    atd_reader_init(&r, json, len, NULL, 0);
    return atd_skip_value(&r) && atd_read_end(&r);
}

/* A byte-at-a-time loop over the same input, as a yardstick. */
static size_t count_quotes(const char *json, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += json[i] == '"';
    return n;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../shared/data/bench";
    static const char *const files[] = {"twitter.json", "citm_catalog.json", "canada.json"};
    int status = 0;
    printf("%-20s %10s %12s %14s\n", "file", "bytes", "skip MB/s", "byte-loop MB/s");
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        size_t len;
        char *json = slurp(path, &len);
        if (!json) {
            fprintf(stderr, "cannot read %s\n", path);
            status = 1;
            continue;
        }
        atd_reader r;
        atd_reader_init(&r, json, len, NULL, 0);
        if (!(atd_skip_value(&r) && atd_read_end(&r))) {
            atd_error err;
            atd_reader_get_error(&r, &err);
            fprintf(stderr, "%s: %s\n", files[f], err.message);
            status = 1;
            free(json);
            continue;
        }
        double best_skip = 1e300, best_loop = 1e300;
        size_t sink = 0;
        for (int round = 0; round < ROUNDS; round++) {
            /* Alternate which contender goes first. */
            for (int k = 0; k < 2; k++) {
                bool do_skip = (k == 0) == (round % 2 == 0);
                if (do_skip)
                    sink += skip_once(json, len);
                else
                    sink += count_quotes(json, len);
                size_t iters = 0;
                double t0 = now_ns(), t1;
                do {
                    if (do_skip) {
                        if (!skip_once(json, len))
                            return 2;
                    } else {
                        sink += count_quotes(json, len);
                    }
                    iters++;
                    t1 = now_ns();
                } while (t1 - t0 < MIN_BATCH_NS);
                double per = (t1 - t0) / (double)iters;
                if (do_skip && per < best_skip)
                    best_skip = per;
                if (!do_skip && per < best_loop)
                    best_loop = per;
            }
        }
        printf("%-20s %10zu %12.0f %14.0f\n", files[f], len, (double)len / best_skip * 1e3,
               (double)len / best_loop * 1e3);
        if (sink == 0)
            printf("(sink)\n");
        free(json);
    }
    return status;
}
