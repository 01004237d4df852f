/* Internals of atd/lazy.h, which includes this file after the writer's
 * type: the shared strings' address cache, reached by the generated list
 * writers' prefetch hints (ATD_LAZY_PREFETCH_SHARED) and by lazy_write.c.
 * Not API: these names may change in any release. */
#ifndef ATD_DETAIL_LAZY_H
#define ATD_DETAIL_LAZY_H

/* The set of ATD_LAZY_SEEN_WAYS entries of lw->seen (a cache line, the
 * last one met first) where a shared string at address s may be
 * remembered: a lookup of a name met before at that address reads one
 * line. */
#define ATD_LAZY_SEEN_WAYS 4
static inline atd_lazy_shared_seen *atd_lazy__seen_at(const atd_lazy_writer *lw, const char *s)
{
    uint64_t a = (uint64_t)(uintptr_t)s;
    a ^= a >> 33;
    a *= UINT64_C(0xff51afd7ed558ccd);
    return &lw->seen[(size_t)(a ^ (a >> 33)) & (2 * lw->slots_cap - ATD_LAZY_SEEN_WAYS)];
}

/* A hint that the shared string at s will be written to lw soon: the
 * address cache's line for it starts on its way to the processor's cache
 * (a list writer gives the string of the element ATD_LAZY_PREFETCH_AHEAD
 * places ahead). Writes nothing; any s is allowed. With many distinct
 * strings that line is usually out of the processor's caches, and waiting
 * for it at each element would dominate the write. A macro, not an inline
 * function: GCC takes a function whose only effect is a prefetch for one
 * without effect, and deletes its calls. */
#define ATD_LAZY_PREFETCH_AHEAD 8
#if defined(__GNUC__) || defined(__clang__)
#define ATD_LAZY_PREFETCH_SHARED(lw, s)                                                            \
    do {                                                                                           \
        const atd_lazy_writer *atd_pf_lw_ = (lw);                                                  \
        if (atd_pf_lw_->slots_cap > 0)                                                             \
            __builtin_prefetch(atd_lazy__seen_at(atd_pf_lw_, (s)));                                \
    } while (0)
#else
#define ATD_LAZY_PREFETCH_SHARED(lw, s) ((void)(lw), (void)(s))
#endif

#endif
