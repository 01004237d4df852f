/* Allocation counting for the benchmark: how many blocks, how many bytes and
 * what high-water mark of live bytes one document costs each contender.
 *
 * Two ways in, counting into the same totals:
 * - hooks: the atd arena and buffers take an atd_allocator, cJSON has
 *   cJSON_InitHooks and jansson json_set_alloc_funcs;
 * - interposition: json-c and simdjson have no hooks, so with glibc (and no
 *   sanitizer, which brings its own malloc) this file defines malloc, free,
 *   calloc, realloc and the aligned variants, forwarding to glibc's
 *   __libc_* entry points. glibc documents that a program may replace malloc
 *   this way, and its own internal calls (strdup, C++ operator new) then come
 *   here too. When interposition is compiled in, the hooks forward to the
 *   glibc entry points as well, so a block is never counted twice.
 *
 * Counting is switched on only around the single untimed document that
 * measures allocations (alloc_count_begin/end); in the timed loops the
 * wrappers cost one predictable branch. Block sizes come from
 * malloc_usable_size, so free needs no header. Not thread-safe: the bench is
 * single-threaded. */
#define _GNU_SOURCE

#include "harness.h"

#include <cjson/cJSON.h>
#include <jansson.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(BENCH_NO_INTERPOSE)
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BENCH_NO_INTERPOSE 1
#endif
#endif
#endif

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(BENCH_NO_INTERPOSE)
#define BENCH_INTERPOSE 1
/* glibc's exported implementations (GLIBC_2.0); declared here because no
 * header does. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *p);
#define RAW_MALLOC __libc_malloc
#define RAW_FREE __libc_free
#else
#define RAW_MALLOC malloc
#define RAW_FREE free
#endif

static bool counting;
static alloc_stats stats;

static void note_alloc(void *p)
{
    if (counting && p != NULL) {
        size_t n = malloc_usable_size(p);
        stats.calls++;
        stats.bytes += n;
        stats.live += (int64_t)n;
        if (stats.live > stats.peak)
            stats.peak = stats.live;
    }
}

static void note_free(void *p)
{
    if (counting && p != NULL)
        stats.live -= (int64_t)malloc_usable_size(p);
}

bool alloc_interposed(void)
{
#ifdef BENCH_INTERPOSE
    return true;
#else
    return false;
#endif
}

void alloc_count_begin(void)
{
    stats = (alloc_stats){0, 0, 0, 0};
    counting = true;
}

alloc_stats alloc_count_end(void)
{
    counting = false;
    return stats;
}

/* ---- hooks ----------------------------------------------------------------
 * RAW_MALLOC is glibc's own entry point when malloc is interposed (so the
 * block is noted here only), plain malloc otherwise. */

void *counted_malloc(size_t n)
{
    void *p = RAW_MALLOC(n);
    note_alloc(p);
    return p;
}

void counted_free(void *p)
{
    note_free(p);
    RAW_FREE(p);
}

/* Counted as a free of the old block and a new allocation. */
void *counted_realloc(void *old, size_t n)
{
    if (old == NULL)
        return counted_malloc(n);
    void *p = counted_malloc(n);
    if (p == NULL)
        return NULL;
    size_t keep = malloc_usable_size(old);
    memcpy(p, old, keep < n ? keep : n);
    counted_free(old);
    return p;
}

static void *counting_alloc(void *ctx, size_t n)
{
    (void)ctx;
    return counted_malloc(n);
}

static void counting_free(void *ctx, void *p)
{
    (void)ctx;
    counted_free(p);
}

const atd_allocator counting_allocator = {counting_alloc, counting_free, NULL};

void alloc_install_library_hooks(void)
{
    cJSON_Hooks hooks = {counted_malloc, counted_free};
    cJSON_InitHooks(&hooks);
    json_set_alloc_funcs(counted_malloc, counted_free);
}

/* ---- interposition ------------------------------------------------------- */
#ifdef BENCH_INTERPOSE
void *malloc(size_t n)
{
    void *p = __libc_malloc(n);
    note_alloc(p);
    return p;
}

void free(void *p)
{
    note_free(p);
    __libc_free(p);
}

void *calloc(size_t n, size_t size)
{
    void *p = __libc_calloc(n, size);
    note_alloc(p);
    return p;
}

void *realloc(void *old, size_t n)
{
    /* Counted as a free of the old block and a new allocation. */
    if (counting && old != NULL)
        note_free(old);
    void *p = __libc_realloc(old, n);
    if (p == NULL && old != NULL && n != 0) {
        /* The old block is still there. */
        if (counting)
            stats.live += (int64_t)malloc_usable_size(old);
        return NULL;
    }
    note_alloc(p);
    return p;
}

void *memalign(size_t align, size_t n)
{
    void *p = __libc_memalign(align, n);
    note_alloc(p);
    return p;
}

void *aligned_alloc(size_t align, size_t n)
{
    return memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)) != 0)
        return 22; /* EINVAL */
    void *p = memalign(align, n);
    if (p == NULL)
        return 12; /* ENOMEM */
    *out = p;
    return 0;
}
#endif
