/* The default allocator (alloc.h). */
#include "alloc.h"

#include <stdlib.h>

/* malloc(0) may return NULL, which callers would take for a failure. */
static void *default_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size != 0 ? size : 1);
}

static void default_free(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

atd_allocator atd__allocator_or_default(const atd_allocator *al)
{
    if (al != NULL && al->alloc != NULL)
        return *al;
    atd_allocator d = {default_alloc, default_free, NULL};
    return d;
}
