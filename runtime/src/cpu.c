/* CPU feature probe and kernel choice (cpu.h). */
#include "cpu.h"

#include "atd/common.h"

#include <stdatomic.h>

/* Set once the probe has run: the value is then never 0. */
#define PROBED (1u << 31)

static atomic_uint kernels;
static atomic_uint limit = ~0u;

static unsigned probe(void)
{
    unsigned k = 0;
#if ATD__HAVE_AVX2_KERNELS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        k |= ATD__CPU_AVX2;
#endif
    return k | PROBED;
}

unsigned atd__cpu_kernels(void)
{
    unsigned k = atomic_load_explicit(&kernels, memory_order_relaxed);
    if (ATD_UNLIKELY(k == 0)) {
        k = probe();
        atomic_store_explicit(&kernels, k, memory_order_relaxed);
    }
    return k & atomic_load_explicit(&limit, memory_order_relaxed) & ~PROBED;
}

void atd__cpu_limit(unsigned mask)
{
    atomic_store_explicit(&limit, mask, memory_order_relaxed);
}
