/* Building and comparing values by hand, in an arena: the string and list
 * constructors that generated code and programs share, so that a value put
 * together in C needs no casts, no manual alignment and no memcpy. Every
 * generated type also has P_t_copy (a deep copy into an arena) and P_t_equal
 * (value equality), built from these. */
#ifndef ATD_VALUE_H
#define ATD_VALUE_H

#include "common.h"
#include "arena.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies the `len` bytes at `bytes` into arena `a` and makes `*out` that copy,
 * NUL-terminated like a string a copying reader returns (out->ptr[len] == 0).
 *   a:     the arena that will hold the copy (not NULL)
 *   bytes: the bytes to copy (may contain NUL; may be NULL when len is 0);
 *          they may be *out's own bytes: atd_string_dup(a, s.ptr, s.len, &s)
 *          moves s into a
 *   len:   how many bytes
 *   out:   where the string goes; untouched on failure
 * Returns 0, or ATD_ERR_NOMEM when the arena cannot grow. */
int atd_string_dup(atd_arena *a, const char *bytes, size_t len, atd_string *out);

/* Whether two strings hold the same bytes.
 *   x, y: the strings (not NULL); a string of length 0 equals any other of
 *         length 0, whatever its ptr.
 * Returns true when the lengths and the bytes are equal. */
bool atd_string_equal(const atd_string *x, const atd_string *y);

/* Allocates room for `n` items of `size` bytes each in arena `a`, aligned
 * to `align`; the memory is not initialized. Prefer ATD_LIST_ALLOC, which
 * takes the item type.
 *   a:     the arena (not NULL)
 *   n:     how many items (0 gives a valid non-NULL pointer)
 *   size:  the size of one item (sizeof)
 *   align: its alignment, a power of two of at most 16 (ATD_ALIGNOF)
 * Returns the items, or NULL when out of memory, when n * size overflows
 * size_t, or when align is not a valid alignment. */
void *atd_list_alloc(atd_arena *a, size_t n, size_t size, size_t align);

/* The alignment of a type, in C99, C11 and C++. */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define ATD_ALIGNOF(type) alignof(type)
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define ATD_ALIGNOF(type) _Alignof(type)
#elif defined(__GNUC__) || defined(__clang__)
#define ATD_ALIGNOF(type) __alignof__(type)
#else
#define ATD_ALIGNOF(type) offsetof(struct { char c_; type t_; }, t_)
#endif

/* `n` uninitialized items of type `type` in arena `arena`, as a `type *`
 * (NULL when out of memory), e.g. for a list value l of a generated type:
 *     l.items = ATD_LIST_ALLOC(arena, event_event, 2);
 *     if (l.items == NULL) return ATD_ERR_NOMEM;
 *     l.len = 2;
 * `arena` and `n` are evaluated once, `type` is not evaluated. */
#define ATD_LIST_ALLOC(arena, type, n)                                                             \
    ((type *)atd_list_alloc((arena), (n), sizeof(type), ATD_ALIGNOF(type)))

#ifdef __cplusplus
}
#endif

#endif
