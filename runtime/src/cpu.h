/* Run-time choice of SIMD kernels (internal to atdrt).
 *
 * The library is built at the distribution's default flags: on x86-64 that
 * means SSE2, which the inline scanners of scan.h use unconditionally. Wider
 * kernels (AVX2) are compiled with a per-function target attribute and chosen
 * here, once the CPU has been asked what it supports. ATD_NO_SIMD at build
 * time removes them, so that the portable scalar twin of every kernel is
 * what runs (and what the test suite checks in that build).
 *
 * The probe runs on first use. Its result is a constant of the machine, so
 * two threads that race on the first use compute the same value and store it
 * atomically: there is no lock and no data race, and later calls cost one
 * relaxed load. */
#ifndef ATD_CPU_H
#define ATD_CPU_H

#include <stdbool.h>

/* Whether this build has AVX2 kernels at all: x86-64 with GCC or Clang. */
#if !defined(ATD_NO_SIMD) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ATD__HAVE_AVX2_KERNELS 1
#define ATD__TARGET_AVX2 __attribute__((target("avx2")))
#else
#define ATD__HAVE_AVX2_KERNELS 0
#endif

/* Kernel families the CPU supports (bits), as atd__cpu_kernels reports. */
enum { ATD__CPU_AVX2 = 1u << 0 };

/* The kernel families to use: the CPU's, limited by atd__cpu_limit. */
unsigned atd__cpu_kernels(void);

/* Tests only: restricts the kernels to those in mask (for instance 0 to run
 * the scalar twins in a build that has wider kernels). Not thread-safe with
 * concurrent readers' first use; call it before reading. */
void atd__cpu_limit(unsigned mask);

#endif
