/* Internals of atd/arena.h, which includes this file after its types (inside
 * its extern "C" block): the out-of-line halves of its inline functions and
 * what the runtime's readers and streams use. Not API: these names may change
 * in any release. */
#ifndef ATD_DETAIL_ARENA_H
#define ATD_DETAIL_ARENA_H

/* Slow path of atd_arena_alloc: adds a chunk. */
void *atd__arena_alloc_slow(atd_arena *a, size_t size, size_t align);

/* atd_arena_grow of a block that exists: in place or by copying. */
void *atd__arena_grow_slow(atd_arena *a, void *ptr, size_t old_size, size_t new_size,
                           size_t align);

/* Counts `bytes` held outside the arena for the document being read (a
 * reader's scratch memory) against the budget until released: false, and the
 * arena marked over its limit, when the budget has no room. */
bool atd__arena_hold(atd_arena *a, size_t bytes);
void atd__arena_release(atd_arena *a, size_t bytes);

/* Makes the `size` bytes at a->cur, which the caller knows the chunk holds,
 * the most recent allocation (readers that copy into the free room before
 * they know the length commit it this way). */
static inline void *atd__arena_take(atd_arena *a, size_t size)
{
    char *p = a->cur;
    a->cur = p + size;
    return p;
}

/* The same from the current chunk only: NULL when it has no room (nothing
 * is allocated then), for hot paths that must not call out. */
static inline void *atd__arena_alloc_here(atd_arena *a, size_t size, size_t align)
{
    uintptr_t p = ((uintptr_t)a->cur + (align - 1)) & ~(uintptr_t)(align - 1);
    if (ATD_LIKELY(a->cur != NULL && p <= (uintptr_t)a->end &&
                   size <= (size_t)((uintptr_t)a->end - p))) {
        a->cur = (char *)p;
        return atd__arena_take(a, size);
    }
    return NULL;
}

/* A point to roll the arena back to (atd__arena_rewind). */
typedef struct atd__arena_mark {
    atd_arena_chunk *head;   /* the current chunk then */
    atd_arena_chunk *second; /* the chunk after it then */
    char *cur, *end;
    size_t used_behind_head, bytes_reserved, chunk_count;
    bool over_limit;
} atd__arena_mark;

/* Remembers the arena's state, so that a failed read can give back what it
 * took (a stream skipping a bad record). */
atd__arena_mark atd__arena_get_mark(const atd_arena *a);
/* Forgets every allocation made since the mark (and the over-limit state)
 * and frees the chunks taken since; allocations older than the mark stay
 * valid. */
void atd__arena_rewind(atd_arena *a, const atd__arena_mark *m);

#endif
