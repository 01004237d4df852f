/* atdc_bench: the generated readers and writers against generic JSON parsers,
 * side by side, on the same input bytes, in one process.
 *
 * Usage: atdc_bench [--quick] [--rounds N] [--data DIR] [--csv FILE]
 *                   [--workload NAME] [--only ID --iters N]
 *
 * This file reads the options and runs the parts in order; driver.h says
 * which file does what (workloads, contenders, timing, report). Allocation
 * counts come from one untimed document with counting switched on
 * (alloc_count.c).
 *
 * Buffers are reused across iterations (arenas reset, output buffers
 * cleared), and M_MMAP_THRESHOLD/M_TRIM_THRESHOLD are raised so that glibc
 * does not hand big blocks back to the kernel on every free: otherwise every
 * iteration of a large document would pay for fresh pages. */
#define _GNU_SOURCE

#include "driver.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

bool quick_mode;
int rounds = 25;
const char *only_id;
long only_iters;
int exit_status;

static int usage(void)
{
    fprintf(stderr, "usage: atdc_bench [--quick] [--rounds N] [--data DIR] [--csv FILE]\n"
                    "                  [--workload NAME] [--only ID --iters N]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *csv_path = NULL, *workload_filter = NULL;
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

    if (!report_open_csv(csv_path)) {
        fprintf(stderr, "atdc_bench: cannot write %s\n", csv_path);
        return 2;
    }
    if (only_id == NULL)
        report_begin();
    bench_workloads(dir, workload_filter);
    if (only_id == NULL) {
        allocation_growth();
        report_targets();
    }
    report_close_csv();
    return exit_status;
}
