/* The one default allocator (malloc/free) behind every runtime structure that
 * takes an optional atd_allocator: arenas, buffers, generic-value stacks,
 * streams. Internal. */
#ifndef ATD_ALLOC_H
#define ATD_ALLOC_H

#include "atd/common.h"

/* *al, or malloc/free when al is NULL (or has no alloc function). */
atd_allocator atd__allocator_or_default(const atd_allocator *al);

/* Moves the block p (NULL: none) to one of new_size bytes keeping its first
 * `keep` bytes; NULL when out of memory (p is then untouched). With the
 * default allocator this is realloc, which moves large blocks by remapping
 * their pages, so the old and the new block are never both resident; a
 * custom allocator gets alloc, copy and free. */
void *atd__allocator_move(const atd_allocator *al, void *p, size_t keep, size_t new_size);

#endif
