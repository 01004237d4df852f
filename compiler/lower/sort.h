/* Dependency order of the C type definitions. A struct that contains another
 * by value must come after it; enums come first (they have no dependencies
 * and cannot be forward-declared). Cycles of by-value containment (recursive
 * types) are found as strongly connected components; inside one, every member
 * whose type is a record or sum of the same component becomes a pointer, which
 * breaks every cycle (the checker ensures each passes through a record or sum).
 * All structs are forward-declared by the header emitter, so pointers and
 * lists may refer to any of them. */
#ifndef ATDC_SORT_H
#define ATDC_SORT_H

#include <stdbool.h>

#include "atd/arena.h"
#include "ir.h"

/* Sets slot.ptr where recursion needs it and reorders m->types. Scratch
 * memory comes from `arena`; false when it ran out (m is then unchanged
 * except for marks). */
bool sort_module(ir_module *m, atd_arena *arena);

#endif
