/* Unit tests of the arena allocator (runtime/src/arena.c): alignment, chunk
 * growth, dedicated chunks for large requests, reset reuse, in-place growth,
 * statistics, and clean failure when the underlying allocator fails (checked
 * with a counting allocator that can refuse its Nth call). */
#include "atd/arena.h"
#include "test_alloc.h"
#include "test_main.h"

#include <stdint.h>
#include <string.h>

START_TEST(test_arena_alignment)
{
    atd_arena *a = atd_arena_new(100, NULL);
    ck_assert_ptr_nonnull(a);
    unsigned char *blocks[200];
    size_t sizes[200];
    for (int i = 0; i < 200; i++) {
        size_t align = (size_t)1 << (i % 5);
        sizes[i] = (size_t)(i * 7 % 23) + 1;
        blocks[i] = atd_arena_alloc(a, sizes[i], align);
        ck_assert_ptr_nonnull(blocks[i]);
        ck_assert_uint_eq((uintptr_t)blocks[i] % align, 0);
        memset(blocks[i], i, sizes[i]);
    }
    /* No two blocks overlap: every block still holds its own pattern. */
    for (int i = 0; i < 200; i++) {
        for (size_t j = 0; j < sizes[i]; j++)
            ck_assert_int_eq(blocks[i][j], (unsigned char)i);
    }
    atd_arena_free(a);
}
END_TEST

START_TEST(test_arena_zero_size_and_bad_align)
{
    atd_arena *a = atd_arena_new(0, NULL);
    ck_assert_ptr_nonnull(atd_arena_alloc(a, 0, 1));
    ck_assert_ptr_null(atd__arena_alloc_slow(a, 8, 3));
    ck_assert_ptr_null(atd__arena_alloc_slow(a, 8, 32));
    atd_arena_free(a);
    atd_arena_free(NULL);
}
END_TEST

START_TEST(test_arena_geometric_growth)
{
    atd_arena *a = atd_arena_new(64, NULL);
    size_t total = 0;
    while (total < ((size_t)1 << 20)) {
        ck_assert_ptr_nonnull(atd_arena_alloc(a, 16, 8));
        total += 16;
    }
    atd_arena_stats st = atd_arena_get_stats(a);
    ck_assert_uint_eq(st.bytes_used, total);
    /* 64 + 128 + ... doubling: about log2(2^20 / 64) + 1 = 15 chunks. */
    ck_assert_uint_le(st.chunks, 16);
    ck_assert_uint_ge(st.chunks, 14);
    ck_assert_uint_eq(st.alloc_calls, st.chunks);
    ck_assert_uint_ge(st.bytes_reserved, total);
    ck_assert_uint_le(st.bytes_reserved, 3 * total);
    atd_arena_free(a);
}
END_TEST

START_TEST(test_arena_growth_is_capped)
{
    atd_arena *a = atd_arena_new((size_t)48 << 20, NULL);
    ck_assert_ptr_nonnull(atd_arena_alloc(a, 1, 1));
    ck_assert_uint_eq(a->next_chunk_size, (size_t)64 << 20);
    atd_arena_free(a);
}
END_TEST

START_TEST(test_arena_large_request_own_chunk)
{
    atd_arena *a = atd_arena_new(4096, NULL);
    char *s1 = atd_arena_alloc(a, 10, 1);
    size_t next = a->next_chunk_size;
    char *big = atd_arena_alloc(a, 1000000, 16);
    ck_assert_ptr_nonnull(big);
    memset(big, 'x', 1000000);
    atd_arena_stats st = atd_arena_get_stats(a);
    ck_assert_uint_eq(st.chunks, 2);
    ck_assert_uint_eq(a->next_chunk_size, next);
    /* Small requests keep filling the first chunk, right after s1. */
    char *s2 = atd_arena_alloc(a, 10, 1);
    ck_assert_ptr_eq(s2, s1 + 10);
    atd_arena_free(a);
}
END_TEST

START_TEST(test_arena_reset_keeps_largest)
{
    test_alloc c;
    atd_allocator al = test_alloc_start(&c, 0);
    atd_arena *a = atd_arena_new(256, &al);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 1000; i++)
            ck_assert_ptr_nonnull(atd_arena_alloc(a, 100, 8));
        atd_arena_reset(a);
        atd_arena_stats st = atd_arena_get_stats(a);
        ck_assert_uint_eq(st.chunks, 1);
        ck_assert_uint_eq(st.bytes_used, 0);
        ck_assert_int_eq(c.live, 2); /* the struct and one chunk */
    }
    /* Once the kept chunk is large enough, a round allocates nothing. */
    size_t calls = a->alloc_calls;
    for (int i = 0; i < 500; i++)
        ck_assert_ptr_nonnull(atd_arena_alloc(a, 100, 8));
    ck_assert_uint_eq(a->alloc_calls, calls);
    atd_arena_free(a);
    ck_assert_int_eq(c.live, 0);
}
END_TEST

START_TEST(test_arena_grow_in_place)
{
    atd_arena *a = atd_arena_new(4096, NULL);
    int *v = atd_arena_alloc(a, 4 * sizeof(int), sizeof(int));
    for (int i = 0; i < 4; i++)
        v[i] = i;
    int *w = atd_arena_grow(a, v, 4 * sizeof(int), 8 * sizeof(int), sizeof(int));
    ck_assert_ptr_eq(w, v);
    ck_assert_uint_eq(atd_arena_get_stats(a).bytes_used, 8 * sizeof(int));
    /* Shrinking the last block gives the bytes back. */
    w = atd_arena_grow(a, w, 8 * sizeof(int), 6 * sizeof(int), sizeof(int));
    ck_assert_ptr_eq(w, v);
    ck_assert_uint_eq(atd_arena_get_stats(a).bytes_used, 6 * sizeof(int));
    /* Not the last allocation any more: grows by copying. */
    char *other = atd_arena_alloc(a, 3, 1);
    ck_assert_ptr_nonnull(other);
    int *moved = atd_arena_grow(a, w, 6 * sizeof(int), 12 * sizeof(int), sizeof(int));
    ck_assert_ptr_nonnull(moved);
    ck_assert_ptr_ne(moved, w);
    ck_assert_uint_eq((uintptr_t)moved % sizeof(int), 0);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(moved[i], i);
    /* Growing past the chunk end moves to a new chunk, contents kept. */
    size_t n = 12;
    for (int i = 4; i < 12; i++)
        moved[i] = i;
    while (n < 100000) {
        moved = atd_arena_grow(a, moved, n * sizeof(int), 2 * n * sizeof(int), sizeof(int));
        ck_assert_ptr_nonnull(moved);
        for (size_t i = n; i < 2 * n; i++)
            moved[i] = (int)i;
        n *= 2;
    }
    /* One assertion for the whole check: Check's per-assertion cost would
     * make this test run for seconds under the sanitizers. */
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += moved[i] != (int)i;
    ck_assert_uint_eq(bad, 0);
    /* NULL grows like alloc. */
    ck_assert_ptr_nonnull(atd_arena_grow(a, NULL, 0, 10, 1));
    atd_arena_free(a);
}
END_TEST

/* A large block goes to a chunk of its own behind the current one, which
 * keeps serving small requests: it is then not at the arena's cursor, so
 * growing it copies, and the small allocations after it do not overlap. */
START_TEST(test_arena_grow_dedicated)
{
    atd_arena *a = atd_arena_new(64, NULL);
    char *small = atd_arena_alloc(a, 8, 1);
    char *big = atd_arena_alloc(a, 1000, 1);
    ck_assert_ptr_nonnull(small);
    ck_assert_ptr_nonnull(big);
    memset(big, 'b', 1000);
    ck_assert_uint_eq(atd_arena_get_stats(a).bytes_used, 1008);
    char *next = atd_arena_alloc(a, 8, 1);
    ck_assert_ptr_eq(next, small + 8); /* the first chunk still serves */
    char *grown = atd_arena_grow(a, big, 1000, 1100, 1);
    ck_assert_ptr_nonnull(grown);
    ck_assert_ptr_ne(grown, big);
    size_t bad = 0;
    for (size_t i = 0; i < 1000; i++)
        bad += grown[i] != 'b';
    ck_assert_uint_eq(bad, 0);
    ck_assert_uint_eq(atd_arena_get_stats(a).bytes_used, 1008 + 8 + 1100);
    /* the block at the cursor grows in place while its chunk has room */
    char *last = atd_arena_alloc(a, 4, 1);
    ck_assert_ptr_eq(atd_arena_grow(a, last, 4, 12, 1), last);
    atd_arena_free(a);
}
END_TEST

START_TEST(test_arena_strdup)
{
    atd_arena *a = atd_arena_new(0, NULL);
    char *s = atd_arena_strdup(a, "a\0bc", 4);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(memcmp(s, "a\0bc", 5), 0);
    char *e = atd_arena_strdup(a, NULL, 0);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e[0], 0);
    ck_assert_ptr_null(atd_arena_strdup(a, "x", SIZE_MAX));
    atd_arena_free(a);
}
END_TEST

START_TEST(test_arena_stats)
{
    atd_arena *a = atd_arena_new(1000, NULL);
    atd_arena_stats st = atd_arena_get_stats(a);
    ck_assert_uint_eq(st.chunks, 0);
    ck_assert_uint_eq(st.bytes_used, 0);
    ck_assert_uint_eq(st.bytes_reserved, 0);
    atd_arena_alloc(a, 3, 1);
    atd_arena_alloc(a, 8, 8); /* 5 bytes of padding at most */
    st = atd_arena_get_stats(a);
    ck_assert_uint_eq(st.chunks, 1);
    ck_assert_uint_eq(st.alloc_calls, 1);
    ck_assert_uint_ge(st.bytes_used, 11);
    ck_assert_uint_le(st.bytes_used, 11 + 7 + 15);
    ck_assert_uint_ge(st.bytes_reserved, 1000);
    ck_assert_uint_le(st.bytes_reserved, 1100);
    atd_arena_free(a);
}
END_TEST

START_TEST(test_arena_alloc_failure)
{
    /* Fail each allocator call in turn: every failure is a clean NULL, the
     * arena stays usable, and nothing leaks. */
    for (long fail = 0; fail < 12; fail++) {
        test_alloc c;
        atd_allocator al = test_alloc_start(&c, fail + 1);
        atd_arena *a = atd_arena_new(64, &al);
        if (a == NULL) {
            ck_assert_int_eq(fail, 0);
            ck_assert_int_eq(c.live, 0);
            continue;
        }
        int failures = 0;
        void *grown = NULL;
        size_t grown_size = 0;
        for (int i = 0; i < 300; i++) {
            char *p = atd_arena_alloc(a, 50, 8);
            if (p == NULL) {
                failures++;
                continue;
            }
            memset(p, 1, 50);
            void *g = atd_arena_grow(a, grown, grown_size, grown_size + 64, 8);
            if (g != NULL) {
                grown = g;
                grown_size += 64;
            }
        }
        ck_assert_int_le(failures, 1);
        atd_arena_free(a);
        ck_assert_int_eq(c.live, 0);
    }
}
END_TEST

START_TEST(test_arena_size_overflow)
{
    test_alloc c;
    atd_allocator al = test_alloc_start(&c, 0);
    atd_arena *a = atd_arena_new(64, &al);
    ck_assert_ptr_null(atd_arena_alloc(a, SIZE_MAX, 1));
    ck_assert_ptr_null(atd_arena_alloc(a, SIZE_MAX - 8, 16));
    ck_assert_ptr_null(atd_arena_alloc(a, SIZE_MAX / 2, 16)); /* refused by the allocator */
    char *p = atd_arena_alloc(a, 8, 8);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_null(atd_arena_grow(a, p, 8, SIZE_MAX - 4, 8));
    atd_arena_free(a);
    ck_assert_int_eq(c.live, 0);
}
END_TEST

Suite *arena_suite(void);
Suite *arena_suite(void)
{
    Suite *s = suite_create("arena");
    TCase *tc = tcase_create("arena");
    tcase_add_test(tc, test_arena_alignment);
    tcase_add_test(tc, test_arena_zero_size_and_bad_align);
    tcase_add_test(tc, test_arena_geometric_growth);
    tcase_add_test(tc, test_arena_growth_is_capped);
    tcase_add_test(tc, test_arena_large_request_own_chunk);
    tcase_add_test(tc, test_arena_reset_keeps_largest);
    tcase_add_test(tc, test_arena_grow_in_place);
    tcase_add_test(tc, test_arena_grow_dedicated);
    tcase_add_test(tc, test_arena_strdup);
    tcase_add_test(tc, test_arena_stats);
    tcase_add_test(tc, test_arena_alloc_failure);
    tcase_add_test(tc, test_arena_size_overflow);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(arena_suite)
