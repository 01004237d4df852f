/* Timing: how the contenders of a workload are measured.
 *
 * Noisy shared machines move a plain median time by 2x between runs, so the
 * figures kept are the best per-iteration time over the rounds and the median
 * over rounds of the same-round ratio to the generated reader (or writer):
 * the contenders of a workload run interleaved, each round starting with a
 * different contender (rotation), and every timed batch lasts at least 20 ms
 * after one untimed iteration.
 *
 * --only ID --iters N runs one contender N times inside measured_loop (for
 * bench/callgrind.sh and --toggle-collect); --quick runs every case in one
 * short round (the ctest entry; no figure from it means anything). */
#define _POSIX_C_SOURCE 200809L

#include "driver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) long measured_loop(contender *c, long iters)
{
    long ok = 0;
    for (long i = 0; i < iters; i++)
        ok += contender_run(c);
    return ok;
}

/* One untimed iteration, then `iters` timed; seconds per iteration or < 0. */
static double batch(contender *c, long iters)
{
    if (!contender_run(c))
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

double median_ratio(const contender *c, const contender *base)
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

/* --only: the one contender of that id, run only_iters times, untimed. */
static void run_only(contender *cs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        contender *c = &cs[i];
        if (strcmp(c->id, only_id) != 0)
            continue;
        if (!contender_setup(c) || !contender_verify(c)) {
            fprintf(stderr, "atdc_bench: %s %s: %s\n", c->w->name, c->id, c->error);
            exit_status = 1;
        } else {
            long ok = measured_loop(c, only_iters);
            printf("%s %s: %ld iterations, %zu bytes each\n", c->w->name, c->id, ok, c->bytes);
        }
        contender_teardown(c);
        return;
    }
}

void run_workload(workload *w, unsigned groups)
{
    contender cs[MAX_CONTENDERS];
    size_t n = contenders_for(w, groups, cs, MAX_CONTENDERS);
    if (only_id != NULL) {
        run_only(cs, n);
        return;
    }

    for (size_t i = 0; i < n; i++) {
        contender *c = &cs[i];
        c->times = calloc((size_t)rounds, sizeof(double));
        if (c->times == NULL || !contender_setup(c) || !contender_verify(c) ||
            (c->iters = calibrate(c)) < 0) {
            if (c->error[0] == 0)
                fail(c, "failed while calibrating");
            continue;
        }
        contender_measure_allocations(c);
        if (!contender_verify(c))
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
            contender_verify(&cs[i]); /* the result is still right after timing */
        if (cs[i].error[0] != 0)
            exit_status = 1;
    }
    report_workload(w, cs, n);
    for (size_t i = 0; i < n; i++)
        contender_teardown(&cs[i]);
}
