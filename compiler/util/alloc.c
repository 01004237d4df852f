/* The compiler's allocation functions (alloc.h). */
#include "alloc.h"

#include <stdio.h>

#include <stdlib.h>

static unsigned long alloc_count;
static unsigned long alloc_fail_at;

/* Counts an allocation; false when it is the one that must fail. */
static bool alloc_allowed(void)
{
    alloc_count++;
    return alloc_fail_at == 0 || alloc_count != alloc_fail_at;
}

void *util_malloc(size_t size)
{
    return alloc_allowed() ? malloc(size != 0 ? size : 1) : NULL;
}

void *util_calloc(size_t n, size_t size)
{
    return alloc_allowed() ? calloc(n != 0 ? n : 1, size != 0 ? size : 1) : NULL;
}

void *util_realloc(void *p, size_t size)
{
    return alloc_allowed() ? realloc(p, size != 0 ? size : 1) : NULL;
}

void util_free(void *p)
{
    free(p);
}

static void *allocator_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return util_malloc(size);
}

static void allocator_free(void *ctx, void *p)
{
    (void)ctx;
    util_free(p);
}

const atd_allocator *util_allocator(void)
{
    static const atd_allocator a = {allocator_alloc, allocator_free, NULL};
    return &a;
}

void util_alloc_fail_at(unsigned long n)
{
    alloc_fail_at = n;
    alloc_count = 0;
}

unsigned long util_alloc_count(void)
{
    return alloc_count;
}

char *util_arena_vprintf(atd_arena *a, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = n < 0 ? NULL : atd_arena_alloc(a, (size_t)n + 1, 1);
    if (s != NULL)
        vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    return s;
}
