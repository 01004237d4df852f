/* The failing allocator of the unit suites: counts its calls and the blocks
 * still live, and refuses the call numbered `fail_at` (1-based; 0: never),
 * with `sticky` every later call too, and any request above `max_size`
 * (1 GiB from test_alloc_start: no test needs more, and under ASan a larger
 * malloc aborts instead of returning NULL). Tests pass test_alloc_start's atd_allocator to arenas,
 * buffers, readers and streams, fail each call in turn and check that
 * nothing leaked (live == 0). */
#ifndef ATD_TEST_ALLOC_H
#define ATD_TEST_ALLOC_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "atd/common.h"

typedef struct test_alloc {
    long calls;
    long fail_at;
    bool sticky;
    size_t max_size;
    long live;
    long failures;
} test_alloc;

static void *test_alloc_alloc(void *ctx, size_t size)
{
    test_alloc *t = ctx;
    t->calls++;
    bool refused =
        t->fail_at > 0 && (t->calls == t->fail_at || (t->sticky && t->calls > t->fail_at));
    if (refused || size > t->max_size) {
        t->failures++;
        return NULL;
    }
    void *p = malloc(size != 0 ? size : 1);
    if (p != NULL)
        t->live++;
    return p;
}

static void test_alloc_free(void *ctx, void *ptr)
{
    test_alloc *t = ctx;
    if (ptr != NULL)
        t->live--;
    free(ptr);
}

/* Resets *t to fail call fail_at (0: none; not sticky) and returns the
 * allocator that uses it. */
static inline atd_allocator test_alloc_start(test_alloc *t, long fail_at)
{
    memset(t, 0, sizeof *t);
    t->fail_at = fail_at;
    t->max_size = (size_t)1 << 30;
    atd_allocator al = {test_alloc_alloc, test_alloc_free, t};
    return al;
}

#endif
