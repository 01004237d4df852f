/* Common definitions for the atdc runtime (atdrt): version, portability macros,
 * the string type shared by readers, writers and generated code. */
#ifndef ATD_COMMON_H
#define ATD_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ATD_RUNTIME_VERSION 1
/* The one version string of atdc and its runtime (the root CMakeLists.txt
 * checks it against the project version). */
#define ATD_VERSION_STRING "0.1.0"

#if defined(__GNUC__) || defined(__clang__)
#define ATD_LIKELY(x) __builtin_expect(!!(x), 1)
#define ATD_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ATD_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
/* A rarely taken path: the functions that record an error, the checked
 * paths of generated writers. The compiler moves the code that calls them
 * out of the callers' hot code (generated readers have such a path at
 * every field) and never inlines them (so that the callers stay small
 * enough to inline). */
#define ATD_COLD __attribute__((cold, noinline))
/* A function kept out of its one caller, so that the caller's code (which
 * the compiler optimizes as a whole) stays small. */
#define ATD_NOINLINE __attribute__((noinline))
#else
#define ATD_LIKELY(x) (x)
#define ATD_UNLIKELY(x) (x)
#define ATD_PRINTF(fmt, args)
#define ATD_COLD
#define ATD_NOINLINE
#endif

/* Not API: the inline halves of the primitives that generated readers and
 * writers call at every token or field. Forced, because in a large generated
 * function the compiler keeps plain inline functions out of line, and then
 * every token costs a call. Not forced without optimization (-O0), where
 * nothing is inlined anyway: forcing only multiplies the code to compile
 * (gcc -O0 on a large generated file takes 3 times as long) and hides the
 * steps from a debugger. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__)
#define ATD__HOT_INLINE inline __attribute__((always_inline))
#else
#define ATD__HOT_INLINE inline
#endif

/* The length of a string literal, without its terminating NUL (embedded
 * NULs counted), and the literal with that length as two arguments:
 * ATD_LIT("ab") is `"ab", 2`. Generated code writes every literal's length
 * this way, so that no length is a number that could disagree with its
 * text. */
#define ATD_LEN(lit) (sizeof(lit) - 1)
#define ATD_LIT(lit) (lit), ATD_LEN(lit)

#ifdef __cplusplus
extern "C" {
#endif

/* A byte string: may contain NUL. Strings produced by copying readers are also
 * NUL-terminated (ptr[len] == 0); borrowed strings point into the input and are not. */
typedef struct atd_string {
    const char *ptr;
    size_t len;
} atd_string;

/* Allocator hooks used by arenas and buffers. Both functions receive `ctx`.
 * `alloc` returns NULL on failure; `free` accepts NULL. A NULL atd_allocator
 * pointer wherever one is accepted means malloc/free. Tests use this to inject
 * allocation failures. */
typedef struct atd_allocator {
    void *(*alloc)(void *ctx, size_t size);
    void (*free)(void *ctx, void *ptr);
    void *ctx;
} atd_allocator;

#ifdef __cplusplus
}
#endif

#endif
