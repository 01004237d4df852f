/* Run-time choice of SIMD kernels (internal to atdrt).
 *
 * The library is built at the distribution's default flags: on x86-64 that
 * means SSE2, which the inline scanners of scan.h use unconditionally. Wider
 * kernels (AVX2, AVX-512) are compiled with a per-function target attribute and chosen
 * here, once the CPU has been asked what it supports. ATD_NO_SIMD at build
 * time removes them, so that the portable scalar twin of every kernel is
 * what runs (and what the test suite checks in that build).
 *
 * The probe runs on first use. Its result is a constant of the machine, so
 * two threads that race on the first use compute the same value and store it
 * atomically: there is no lock and no data race, and later calls cost one
 * relaxed load, inline. */
#ifndef ATD_CPU_H
#define ATD_CPU_H

#include <stdatomic.h>
#include <stdbool.h>

#include "atd/common.h"

/* Whether this build has AVX2 kernels at all: x86-64 with GCC or Clang.
 * They may use BMI1 too (tzcnt gives a bit's index without a widening
 * step): every CPU with AVX2 has it, and the probe asks for both. */
#if !defined(ATD_NO_SIMD) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ATD__HAVE_AVX2_KERNELS 1
#define ATD__TARGET_AVX2 __attribute__((target("avx2,bmi")))
#else
#define ATD__HAVE_AVX2_KERNELS 0
#endif
/* The same for the SSE4.2 instructions (CRC-32C). */
#if ATD__HAVE_AVX2_KERNELS
#define ATD__HAVE_SSE42_KERNELS 1
#define ATD__TARGET_SSE42 __attribute__((target("sse4.2")))
#else
#define ATD__HAVE_SSE42_KERNELS 0
#endif

/* The AVX-512 kernels (64 bytes per step, byte masks) in the same builds:
 * AVX-512BW and VL on top of AVX2. */
#define ATD__HAVE_AVX512_KERNELS ATD__HAVE_AVX2_KERNELS
#if ATD__HAVE_AVX512_KERNELS
#define ATD__TARGET_AVX512 __attribute__((target("avx2,avx512f,avx512bw,avx512vl,bmi,bmi2")))
/* with VBMI2's byte compression too (vpcompressb), and popcnt */
#define ATD__TARGET_AVX512_VBMI2                                                                   \
    __attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vbmi2,bmi,bmi2,popcnt")))
/* with the 52-bit integer multiply-add (IFMA) and byte permutes (VBMI) */
#define ATD__TARGET_AVX512_IFMA                                                                    \
    __attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512ifma,avx512vbmi,bmi,bmi2")))
#endif

/* Kernel families the CPU supports (bits), as atd__cpu_kernels reports. A
 * CPU with AVX-512 has AVX2 too: both bits are set; VBMI2 comes with
 * AVX-512 only, and so do IFMA with VBMI. */
enum {
    ATD__CPU_AVX2 = 1u << 0,
    ATD__CPU_AVX512 = 1u << 1,
    ATD__CPU_SSE42 = 1u << 2,
    ATD__CPU_AVX512_VBMI2 = 1u << 3,
    ATD__CPU_AVX512_IFMA = 1u << 4
};
/* Marks atd__cpu_chosen as set. */
#define ATD__CPU_PROBED (1u << 31)

/* The kernel families to use with ATD__CPU_PROBED, or 0 before the first
 * use; written by cpu.c only. Read inline: the writer asks once per string. */
extern atomic_uint atd__cpu_chosen;

/* Probes the CPU and sets atd__cpu_chosen; returns its value. */
unsigned atd__cpu_first_use(void);

/* The kernel families to use: the CPU's, limited by atd__cpu_limit. */
static inline unsigned atd__cpu_kernels(void)
{
    unsigned k = atomic_load_explicit(&atd__cpu_chosen, memory_order_relaxed);
    if (ATD_UNLIKELY(k == 0))
        k = atd__cpu_first_use();
    return k & ~ATD__CPU_PROBED;
}

/* Tests only: restricts the kernels to those in mask (for instance 0 to run
 * the scalar twins in a build that has wider kernels). Not thread-safe with
 * concurrent readers' first use; call it before reading. */
void atd__cpu_limit(unsigned mask);

#endif
