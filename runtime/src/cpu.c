/* CPU feature probe and kernel choice (cpu.h). */
#include "cpu.h"

atomic_uint atd__cpu_chosen;
static atomic_uint found; /* the CPU's kernels | ATD__CPU_PROBED, once probed */
static atomic_uint limit = ~0u;

static unsigned probe(void)
{
    unsigned k = 0;
#if ATD__HAVE_AVX2_KERNELS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi"))
        k |= ATD__CPU_AVX2;
    /* (the compiler's probe also asks the OS whether it saves the AVX-512
     * registers) */
    if ((k & ATD__CPU_AVX2) && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl"))
        k |= ATD__CPU_AVX512;
    if ((k & ATD__CPU_AVX512) && __builtin_cpu_supports("avx512vbmi2") &&
        __builtin_cpu_supports("popcnt"))
        k |= ATD__CPU_AVX512_VBMI2;
    if ((k & ATD__CPU_AVX512) && __builtin_cpu_supports("avx512ifma") &&
        __builtin_cpu_supports("avx512vbmi"))
        k |= ATD__CPU_AVX512_IFMA;
    if (__builtin_cpu_supports("sse4.2"))
        k |= ATD__CPU_SSE42;
#endif
    return k | ATD__CPU_PROBED;
}

static unsigned cpu_found(void)
{
    unsigned k = atomic_load_explicit(&found, memory_order_relaxed);
    if (k == 0) {
        k = probe();
        atomic_store_explicit(&found, k, memory_order_relaxed);
    }
    return k;
}

/* The CPU's kernels within mask, never 0. */
static unsigned choose(unsigned mask)
{
    unsigned k = cpu_found() & (mask | ATD__CPU_PROBED);
    atomic_store_explicit(&atd__cpu_chosen, k, memory_order_relaxed);
    return k;
}

unsigned atd__cpu_first_use(void)
{
    return choose(atomic_load_explicit(&limit, memory_order_relaxed));
}

void atd__cpu_limit(unsigned mask)
{
    atomic_store_explicit(&limit, mask, memory_order_relaxed);
    choose(mask);
}
