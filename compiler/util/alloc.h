/* Every allocation of the compiler goes through these functions: the
 * malloc-style ones for its own tables, util_allocator() for the runtime's
 * arenas and buffers it uses (atd_arena_new, atd_buf_init_with), the string
 * buffer of the lexer and the parser's stacks. The one exception is flex's
 * own input buffer: flex ends the process when allocating it fails (with
 * status 2, as the policy below), so it keeps flex's allocator. A failure is never fatal here:
 * callers report it through the one policy (diag_oom: one "out of memory" error, exit status 2).
 *
 * The one seam for the allocation-failure test (tests/unit/compiler/test_oom.c):
 * util_alloc_fail_at(n) makes the n-th allocation from then on fail, so a
 * test can sweep n over every allocation of a compilation. It is the only
 * state the compiler keeps outside its contexts, and only tests set it. */
#ifndef ATDC_UTIL_ALLOC_H
#define ATDC_UTIL_ALLOC_H

#include <stdarg.h>
#include <stddef.h>

#include "atd/arena.h"
#include "atd/common.h"

void *util_malloc(size_t size);
void *util_calloc(size_t n, size_t size);
void *util_realloc(void *p, size_t size);
void util_free(void *p);

/* For atd_arena_new and atd_buf_init_with: the functions above. */
const atd_allocator *util_allocator(void);
/* vsnprintf into a string allocated in `a`; NULL when out of memory or
 * when the format fails. */
char *util_arena_vprintf(atd_arena *a, const char *fmt, va_list ap);

/* Fail the n-th allocation counted from this call (1 is the next one), and
 * only that one; 0 turns failures off. Resets the count. */
void util_alloc_fail_at(unsigned long n);
/* Allocations made since the last util_alloc_fail_at. */
unsigned long util_alloc_count(void);

#endif
