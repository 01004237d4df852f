/* Arena (bump) allocator. All values produced by readers live in an arena;
 * one atd_arena_free (or atd_arena_reset) releases a whole document.
 *
 * Memory comes in chunks whose sizes grow geometrically (x2), so a document of
 * n bytes costs O(log n) calls to the underlying allocator.
 *
 * A memory budget (atd_arena_set_limit) caps the bytes the arena holds: an
 * allocation that would take it past the budget fails, and the reader that
 * asked for it reports ATD_ERR_LIMIT instead of ATD_ERR_NOMEM, so a server
 * can tell a hostile document from a machine out of memory. */
#ifndef ATD_ARENA_H
#define ATD_ARENA_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct atd_arena_chunk atd_arena_chunk;

/* Treat the fields as private except through the functions below. */
typedef struct atd_arena {
    char *cur;               /* next free byte of the current chunk */
    char *end;               /* end of the current chunk */
    atd_arena_chunk *chunks; /* most recent chunk first */
    size_t next_chunk_size;  /* size of the next chunk to allocate */
    /* bytes handed out in the chunks behind the head (padding included);
     * those of the head are cur less its start, so an allocation updates
     * nothing but cur */
    size_t used_behind_head;
    size_t bytes_reserved;   /* bytes obtained from the allocator */
    size_t chunk_count;      /* chunks currently held */
    size_t alloc_calls;      /* chunks obtained from the allocator, ever (not the struct) */
    atd_allocator allocator;
    size_t max_bytes; /* budget for bytes_reserved; 0: none (atd_arena_set_limit) */
    size_t held_outside; /* scratch bytes of a reader counted against the budget */
    bool over_limit;     /* an allocation was refused for the budget since the last reset */
} atd_arena;

#include "detail/arena.h" /* the slow paths of the inline functions below */

/* What atd_arena_get_stats reports. */
typedef struct atd_arena_stats {
    size_t bytes_used;     /* bytes handed out since the last reset, padding included */
    size_t bytes_reserved; /* bytes held from the allocator now, chunk headers included */
    size_t chunks;         /* chunks held now */
    size_t alloc_calls;    /* chunks obtained from the allocator since atd_arena_new */
} atd_arena_stats;

#define ATD_ARENA_DEFAULT_CHUNK 4096

/* Creates an arena.
 *   first_chunk_size: bytes of the first chunk (0: ATD_ARENA_DEFAULT_CHUNK);
 *                     later chunks double in size.
 *   allocator:        where chunks and the arena struct itself come from;
 *                     NULL: malloc and free. Copied, so it may be a temporary;
 *                     its ctx must outlive the arena.
 * Returns the arena, or NULL when out of memory. */
atd_arena *atd_arena_new(size_t first_chunk_size, const atd_allocator *allocator);

/* Releases every chunk and the arena itself. Accepts NULL. */
void atd_arena_free(atd_arena *a);

/* Forgets every allocation. Keeps the largest chunk for reuse and frees the
 * others, so a reader used in a loop stops calling malloc after the first round.
 * Clears the over-limit state; the budget stays. */
void atd_arena_reset(atd_arena *a);

/* Sets the memory budget: from now on the arena never holds more than
 * `max_bytes` bytes obtained from its allocator (chunk headers included; the
 * arena struct itself not counted). An allocation that would need more fails
 * (NULL) and marks the arena over its limit, which readers report as
 * ATD_ERR_LIMIT, "the document needs more than N bytes of memory", at the
 * value being read. 0 removes the budget (the default). Memory already held
 * stays; a reset keeps one chunk, which counts against the budget. The check
 * runs only when a new chunk is needed, so it costs nothing per value. */
void atd_arena_set_limit(atd_arena *a, size_t max_bytes);
/* The budget (0: none). */
size_t atd_arena_limit(const atd_arena *a);
/* Whether an allocation was refused for the budget since the last reset. */
bool atd_arena_over_limit(const atd_arena *a);

/* Allocates memory that lives until the next reset or free of the arena.
 *   size:  bytes wanted; 0 gives a valid non-NULL pointer.
 *   align: a power of two, at most 16.
 * Returns the memory, or NULL when the allocator fails, the budget is
 * reached, `align` is invalid or `size` cannot be held. */
static inline void *atd_arena_alloc(atd_arena *a, size_t size, size_t align)
{
    void *p = atd__arena_alloc_here(a, size, align);
    if (ATD_LIKELY(p != NULL))
        return p;
    return atd__arena_alloc_slow(a, size, align);
}

/* Resizes a block, to build arrays of unknown length without a second pass.
 *   ptr:      the block, from this arena (NULL, or old_size 0: a new block).
 *   old_size: its size in bytes; the bytes copied when it moves.
 *   new_size: the size wanted.
 *   align:    as for atd_arena_alloc.
 * The block grows in place when it is the most recent allocation and its
 * chunk has room; otherwise a new block is allocated and the contents are
 * copied. Returns the block's address, or NULL when out of memory (the old
 * block is then untouched). */
static inline void *atd_arena_grow(atd_arena *a, void *ptr, size_t old_size, size_t new_size,
                                   size_t align)
{
    /* a list's first block (the common case: most lists are short) costs
     * no call */
    if (ptr == NULL || old_size == 0)
        return atd_arena_alloc(a, new_size, align);
    return atd__arena_grow_slow(a, ptr, old_size, new_size, align);
}

/* Copies s[0..len) into the arena, followed by a NUL (s may hold NULs).
 * Returns the copy, or NULL when out of memory. */
char *atd_arena_strdup(atd_arena *a, const char *s, size_t len);

/* The arena's counters, for tests and benchmarks (allocations per document). */
atd_arena_stats atd_arena_get_stats(const atd_arena *a);

#ifdef __cplusplus
}
#endif

#endif
