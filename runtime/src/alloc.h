/* The one default allocator (malloc/free) behind every runtime structure that
 * takes an optional atd_allocator: arenas, buffers, generic-value stacks,
 * streams. Internal. */
#ifndef ATD_ALLOC_H
#define ATD_ALLOC_H

#include "atd/common.h"

/* *al, or malloc/free when al is NULL (or has no alloc function). */
atd_allocator atd__allocator_or_default(const atd_allocator *al);

#endif
