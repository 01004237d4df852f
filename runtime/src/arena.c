/* Arena allocator: the slow paths behind the inline atd_arena_alloc of arena.h.
 *
 * Chunks come from the arena's allocator and double in size up to a cap, so a
 * document of n bytes costs O(log n) allocator calls; a single request larger
 * than the next chunk gets a chunk of its own. Such a dedicated chunk is slipped
 * behind the current one when the current one still has more room left, so that
 * one big string does not waste the rest of a half-empty chunk. Reset keeps only
 * the largest chunk: a reader used in a loop stops calling the allocator once
 * that chunk holds a whole document.
 *
 * The budget is checked here, on the slow path only: a chunk that would take
 * the arena past it is shrunk to what is left when the request still fits,
 * and refused otherwise. */
#include "atd/arena.h"
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

struct atd_arena_chunk {
    atd_arena_chunk *next;
    size_t size; /* usable bytes after the header */
};

/* The header is padded to 16 so that data starts as aligned as the allocator's
 * block; atd_arena_alloc aligns against real addresses anyway. */
#define CHUNK_HEADER ((sizeof(atd_arena_chunk) + 15) & ~(size_t)15)
#define MAX_CHUNK ((size_t)64 << 20)
#define MAX_ALIGN 16

static char *chunk_data(atd_arena_chunk *c)
{
    return (char *)c + CHUNK_HEADER;
}

atd_arena *atd_arena_new(size_t first_chunk_size, const atd_allocator *allocator)
{
    atd_allocator al = atd__allocator_or_default(allocator);
    atd_arena *a = al.alloc(al.ctx, sizeof *a);
    if (a == NULL)
        return NULL;
    memset(a, 0, sizeof *a);
    a->allocator = al;
    a->next_chunk_size = first_chunk_size != 0 ? first_chunk_size : ATD_ARENA_DEFAULT_CHUNK;
    return a;
}

void atd_arena_free(atd_arena *a)
{
    if (a == NULL)
        return;
    atd_allocator al = a->allocator;
    atd_arena_chunk *c = a->chunks;
    while (c != NULL) {
        atd_arena_chunk *next = c->next;
        al.free(al.ctx, c);
        c = next;
    }
    al.free(al.ctx, a);
}

void atd_arena_reset(atd_arena *a)
{
    if (a == NULL || a->chunks == NULL)
        return;
    atd_arena_chunk *keep = a->chunks;
    for (atd_arena_chunk *c = a->chunks->next; c != NULL; c = c->next) {
        if (c->size > keep->size)
            keep = c;
    }
    atd_arena_chunk *c = a->chunks;
    while (c != NULL) {
        atd_arena_chunk *next = c->next;
        if (c != keep)
            a->allocator.free(a->allocator.ctx, c);
        c = next;
    }
    keep->next = NULL;
    a->chunks = keep;
    a->cur = chunk_data(keep);
    a->end = a->cur + keep->size;
    a->used_behind_head = 0;
    a->bytes_reserved = CHUNK_HEADER + keep->size;
    a->chunk_count = 1;
    a->over_limit = false;
}

void atd_arena_set_limit(atd_arena *a, size_t max_bytes)
{
    a->max_bytes = max_bytes;
}

size_t atd_arena_limit(const atd_arena *a)
{
    return a->max_bytes;
}

bool atd_arena_over_limit(const atd_arena *a)
{
    return a->over_limit;
}

/* Bytes the arena holds for the budget: its chunks and the scratch memory. */
static size_t held(const atd_arena *a)
{
    return a->bytes_reserved + a->held_outside;
}

bool atd__arena_hold(atd_arena *a, size_t bytes)
{
    if (a->max_bytes != 0 && (held(a) > a->max_bytes || bytes > a->max_bytes - held(a))) {
        a->over_limit = true;
        return false;
    }
    a->held_outside += bytes;
    return true;
}

void atd__arena_release(atd_arena *a, size_t bytes)
{
    a->held_outside -= bytes;
}

/* The size of the next chunk for a request of `need` bytes within the
 * budget: `chunk_size`, less when only that much is left, 0 when the request
 * does not fit (the arena is then marked over its limit). */
static size_t chunk_within_budget(atd_arena *a, size_t chunk_size, size_t need)
{
    if (a->max_bytes == 0)
        return chunk_size;
    size_t taken = held(a) + CHUNK_HEADER;
    size_t left = a->max_bytes > taken ? a->max_bytes - taken : 0;
    if (need > left || left == 0) {
        a->over_limit = true;
        return 0;
    }
    return chunk_size < left ? chunk_size : left;
}

void *atd__arena_alloc_slow(atd_arena *a, size_t size, size_t align)
{
    if (align == 0 || (align & (align - 1)) != 0 || align > MAX_ALIGN)
        return NULL;
    /* Room for the worst-case padding, whatever the allocator's alignment. */
    if (size > SIZE_MAX - CHUNK_HEADER - MAX_ALIGN)
        return NULL;
    size_t need = size + (align - 1);
    size_t chunk_size = a->next_chunk_size;
    bool dedicated = need > chunk_size;
    if (dedicated)
        chunk_size = need;
    chunk_size = chunk_within_budget(a, chunk_size, need);
    if (chunk_size == 0)
        return NULL;

    atd_arena_chunk *c = a->allocator.alloc(a->allocator.ctx, CHUNK_HEADER + chunk_size);
    if (c == NULL)
        return NULL;
    c->size = chunk_size;
    a->alloc_calls++;
    a->chunk_count++;
    a->bytes_reserved += CHUNK_HEADER + chunk_size;
    if (!dedicated) {
        size_t next = a->next_chunk_size <= MAX_CHUNK / 2 ? a->next_chunk_size * 2 : MAX_CHUNK;
        a->next_chunk_size = next > a->next_chunk_size ? next : a->next_chunk_size;
    }

    char *data = chunk_data(c);
    uintptr_t p = ((uintptr_t)data + (align - 1)) & ~(uintptr_t)(align - 1);
    size_t used = (size_t)(p - (uintptr_t)data) + size;
    size_t new_room = chunk_size - used;
    size_t old_room = a->cur != NULL ? (size_t)(a->end - a->cur) : 0;
    if (a->chunks == NULL || new_room >= old_room) {
        if (a->chunks != NULL)
            a->used_behind_head += (size_t)(a->cur - chunk_data(a->chunks));
        c->next = a->chunks;
        a->chunks = c;
        a->cur = (char *)p + size;
        a->end = data + chunk_size;
    } else {
        /* The current chunk keeps serving small requests. */
        a->used_behind_head += used;
        c->next = a->chunks->next;
        a->chunks->next = c;
    }
    return (void *)p;
}

void *atd__arena_grow_slow(atd_arena *a, void *ptr, size_t old_size, size_t new_size,
                           size_t align)
{
    char *q = ptr;
    /* The most recent allocation of the current chunk ends at its cursor
     * (a block never spans chunks, and the chunks do not touch). */
    if (q + old_size == a->cur) {
        if (new_size <= old_size || new_size - old_size <= (size_t)(a->end - a->cur)) {
            a->cur = q + new_size;
            return ptr;
        }
    } else if (new_size <= old_size) {
        return ptr;
    }
    void *fresh = atd_arena_alloc(a, new_size, align);
    if (fresh == NULL)
        return NULL;
    memcpy(fresh, ptr, old_size < new_size ? old_size : new_size);
    return fresh;
}

char *atd_arena_strdup(atd_arena *a, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *p = atd_arena_alloc(a, len + 1, 1);
    if (p == NULL)
        return NULL;
    if (len != 0)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

atd__arena_mark atd__arena_get_mark(const atd_arena *a)
{
    atd__arena_mark m;
    m.head = a->chunks;
    m.second = a->chunks != NULL ? a->chunks->next : NULL;
    m.cur = a->cur;
    m.end = a->end;
    m.used_behind_head = a->used_behind_head;
    m.bytes_reserved = a->bytes_reserved;
    m.chunk_count = a->chunk_count;
    m.over_limit = a->over_limit;
    return m;
}

/* Frees the chunks from c up to (not including) stop. */
static void free_chunks(atd_arena *a, atd_arena_chunk *c, const atd_arena_chunk *stop)
{
    while (c != stop) {
        atd_arena_chunk *next = c->next;
        a->allocator.free(a->allocator.ctx, c);
        c = next;
    }
}

/* New chunks go in front of the list, or right behind its head: so those
 * taken since the mark are the ones before the marked head, and the ones
 * between it and the chunk that followed it then. */
void atd__arena_rewind(atd_arena *a, const atd__arena_mark *m)
{
    free_chunks(a, a->chunks, m->head);
    if (m->head != NULL) {
        free_chunks(a, m->head->next, m->second);
        m->head->next = m->second;
    }
    a->chunks = m->head;
    a->cur = m->cur;
    a->end = m->end;
    a->used_behind_head = m->used_behind_head;
    a->bytes_reserved = m->bytes_reserved;
    a->chunk_count = m->chunk_count;
    a->over_limit = m->over_limit;
}

atd_arena_stats atd_arena_get_stats(const atd_arena *a)
{
    atd_arena_stats st;
    st.bytes_used = a->used_behind_head +
                    (a->chunks != NULL ? (size_t)(a->cur - chunk_data(a->chunks)) : 0);
    st.bytes_reserved = a->bytes_reserved;
    st.chunks = a->chunk_count;
    st.alloc_calls = a->alloc_calls;
    return st;
}
