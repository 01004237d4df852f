/* The default allocator (alloc.h). */
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

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

void *atd__allocator_move(const atd_allocator *al, void *p, size_t keep, size_t new_size)
{
    if (al->alloc == default_alloc)
        return realloc(p, new_size != 0 ? new_size : 1);
    void *fresh = al->alloc(al->ctx, new_size);
    if (fresh == NULL)
        return NULL;
    if (keep != 0)
        memcpy(fresh, p, keep);
    al->free(al->ctx, p);
    return fresh;
}
