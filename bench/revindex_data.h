/* The reverse-index workload (bench/revindex.c, tests/unit/generated/test_lazy.c):
 * `nwords` distinct words, each with 1 to 100 occurrences { filename; line }
 * among `nfiles` file names, from a fixed seed. The schema's C types differ
 * by prefix only (schemas/revindex.atd under several names), so the
 * generator is a macro over them:
 *     REVINDEX_DEFINE_GENERATOR(gen_fn, P)
 * defines
 *     static bool gen_fn(P##revindex *out, atd_arena *a, size_t nwords,
 *                        size_t nfiles, uint64_t seed);
 * All memory is in the arena; file name strings are shared between
 * occurrences, as an indexer would have them. */
#ifndef ATD_BENCH_REVINDEX_DATA_H
#define ATD_BENCH_REVINDEX_DATA_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atd.h>

/* xorshift64*: fast, good enough, and the same sequence everywhere. */
static inline uint64_t revindex_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717u;
}

/* Word i: base 26 of an odd multiple of i modulo 2^32, a bijection, so the
 * words are distinct and in no particular order. */
static inline size_t revindex_word(char *buf, size_t i)
{
    uint32_t x = (uint32_t)((uint64_t)i * 2654435761u);
    size_t n = 0;
    do {
        buf[n++] = (char)('a' + x % 26);
        x /= 26;
    } while (x != 0);
    return n;
}

static inline int revindex_key_cmp(const void *a, const void *b)
{
    const atd_string *x = (const atd_string *)a, *y = (const atd_string *)b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = n ? memcmp(x->ptr, y->ptr, n) : 0;
    return c != 0 ? c : x->len < y->len ? -1 : x->len > y->len ? 1 : 0;
}

/* Sorts map items (each starting with its atd_string key) by key, the
 * order of an indexed map, so that every variant holds the same bytes. */
static inline void revindex_sort(void *items, size_t n, size_t stride)
{
    qsort(items, n, stride, revindex_key_cmp);
}

#define REVINDEX_DEFINE_GENERATOR(gen_fn, P)                                                       \
    static bool gen_fn(P##revindex *out, atd_arena *a, size_t nwords, size_t nfiles,               \
                       uint64_t seed)                                                              \
    {                                                                                              \
        uint64_t s = seed | 1;                                                                     \
        atd_string *files = (atd_string *)atd_arena_alloc(a, nfiles * sizeof *files, 8);           \
        out->items = (P##revindex_item *)atd_arena_alloc(a, nwords * sizeof *out->items, 8);       \
        out->len = nwords;                                                                         \
        if (files == NULL || out->items == NULL)                                                   \
            return false;                                                                          \
        for (size_t f = 0; f < nfiles; f++) {                                                      \
            char name[64];                                                                         \
            int n = snprintf(name, sizeof name, "src/lib%03u/module_%06u.ml", (unsigned)(f % 997), \
                             (unsigned)f);                                                         \
            files[f].ptr = atd_arena_strdup(a, name, (size_t)n);                                   \
            files[f].len = (size_t)n;                                                              \
            if (files[f].ptr == NULL)                                                              \
                return false;                                                                      \
        }                                                                                          \
        for (size_t i = 0; i < nwords; i++) {                                                      \
            char w[16];                                                                            \
            size_t wl = revindex_word(w, i);                                                       \
            P##revindex_item *it = &out->items[i];                                                 \
            it->key.ptr = atd_arena_strdup(a, w, wl);                                              \
            it->key.len = wl;                                                                      \
            size_t n = 1 + (size_t)(revindex_rand(&s) % 100);                                      \
            it->value.items = (P##occurrence *)atd_arena_alloc(a, n * sizeof *it->value.items, 8); \
            it->value.len = n;                                                                     \
            if (it->key.ptr == NULL || it->value.items == NULL)                                    \
                return false;                                                                      \
            /* fields a schema variant adds keep their zero default */                             \
            memset(it->value.items, 0, n * sizeof *it->value.items);                               \
            for (size_t k = 0; k < n; k++) {                                                       \
                uint64_t r = revindex_rand(&s);                                                    \
                it->value.items[k].filename = files[(r >> 16) % nfiles];                           \
                it->value.items[k].line = (int64_t)(1 + (r & 0xffff) % 5000);                      \
            }                                                                                      \
        }                                                                                          \
        return true;                                                                               \
    }

#endif
