/* Limits: hostile sizes through the generated readers (everything.atd) and
 * the generic value (atd_json_parse): each input either reads correctly in
 * memory proportional to its size -- checked with the arena's statistics --
 * or fails with a clear error; never a stack overflow, a crash or a
 * quadratic blow-up.
 *
 *  - 10^6 nested arrays, 10^6 nested objects: ATD_ERR_DEPTH at the default
 *    limit (1024), through the DOM, the skipper (unknown fields) and every
 *    recursive generated type (shape, rose_node, tree, expr, abstract); with
 *    the limit raised to 2*10^6 the DOM, which uses no C stack, reads, writes
 *    and compares them.
 *  - one large string (64 MB; 1 GB in full mode): copied, borrowed, written.
 *  - an array of 10^7 small integers (10^8 in full mode) into an int list,
 *    and 10^6 into the DOM.
 *  - one key repeated 10^6 times: last wins in a record, all kept in order in
 *    the DOM (atd_json_get finds the last), in time linear in the input.
 *  - numbers with 10^5 digits: int fields fail with ATD_ERR_RANGE, float
 *    fields get strtod's value, the DOM keeps big integers as text.
 *
 * Full mode (environment ATD_LIMITS_FULL=1) runs the sizes the issue names;
 * it needs a few GB of memory and a Release build to be quick -- see
 * docs/conformance.md. The default sizes keep this suite at a few seconds in
 * the Sanitize build. */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_main.h"

#include "atd/json.h"
#include "everything.h"

#define MIB ((size_t)1 << 20)

static bool full_mode(void)
{
    const char *v = getenv("ATD_LIMITS_FULL");
    return v != NULL && strcmp(v, "1") == 0;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* A growing byte string for building inputs (aborts the test on failure). */
typedef struct text {
    char *p;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->cap - t->len < n) {
        size_t cap = t->cap != 0 ? t->cap : 4096;
        while (cap - t->len < n)
            cap *= 2;
        char *q = realloc(t->p, cap);
        ck_assert_ptr_nonnull(q);
        t->p = q;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
}

static void puts_n(text *t, const char *s, size_t times)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < times; i++)
        put(t, s, n);
}

/* --- nesting --- */

enum { DEEP = 1000000 };

/* [[[...0...]]] or {"a":{"a":...0...}}, `levels` deep, closed or not. */
static text nested(bool objects, size_t levels, bool closed)
{
    text t = {0};
    puts_n(&t, objects ? "{\"a\":" : "[", levels);
    put(&t, "0", 1);
    if (closed)
        puts_n(&t, objects ? "}" : "]", levels);
    return t;
}

static void expect_depth_error(int rc, const atd_error *err)
{
    ck_assert_msg(rc == ATD_ERR_DEPTH, "%d: %s", rc, err->message);
    ck_assert_msg(strstr(err->message, "nesting deeper than 1024") != NULL, "%s", err->message);
}

static void deep_dom(bool objects)
{
    for (int closed = 0; closed <= 1; closed++) {
        text t = nested(objects, DEEP, closed != 0);
        atd_arena *arena = atd_arena_new(0, NULL);
        atd_json v;
        atd_error err;
        expect_depth_error(atd_json_parse(t.p, t.len, arena, 0, &v, &err), &err);
        /* it stopped at the limit: nothing like the whole input was allocated */
        ck_assert_uint_lt(atd_arena_get_stats(arena).bytes_reserved, MIB);

        atd_reader r;
        atd_reader_init(&r, t.p, t.len, NULL, 0);
        ck_assert(!atd_skip_value(&r));
        ck_assert_int_eq(atd_reader_get_error(&r, &err), ATD_ERR_DEPTH);

        /* Raised limit: the DOM needs no C stack, the skipper stops at its
         * fixed bit stack (ATD_SKIP_MAX_NESTING). */
        atd_reader_init(&r, t.p, t.len, arena, 0);
        r.max_depth = 2 * DEEP;
        bool ok = atd_json_read(&r, &v) && atd_read_end(&r);
        if (!closed) {
            ck_assert(!ok);
            ck_assert_int_eq(atd_reader_get_error(&r, NULL), ATD_ERR_EOF);
        } else {
            ck_assert_msg(ok, "deep read failed");
            /* proportional: a node per level (an item or a member) */
            size_t per_level = objects ? sizeof(atd_json_member) : sizeof(atd_json);
            ck_assert_uint_le(atd_arena_get_stats(arena).bytes_reserved,
                              2 * per_level * DEEP + 2 * t.len + MIB);
            atd_buf out;
            atd_buf_init(&out);
            ck_assert_int_eq(atd_json_write(&v, &out, &err), 0);
            ck_assert_uint_eq(out.len, t.len);
            ck_assert(memcmp(out.data, t.p, t.len) == 0);
            ck_assert(atd_json_equal(&v, &v));
            atd_buf_free(&out);
        }
        atd_reader_init(&r, t.p, t.len, NULL, 0);
        r.max_depth = 2 * DEEP;
        ck_assert(!atd_skip_value(&r));
        ck_assert_int_eq(atd_reader_get_error(&r, NULL), ATD_ERR_DEPTH);
        atd_arena_free(arena);
        free(t.p);
    }
}

START_TEST(test_deep_arrays_dom)
{
    deep_dom(false);
}
END_TEST

START_TEST(test_deep_objects_dom)
{
    deep_dom(true);
}
END_TEST

/* Reads `t` with TYPE's generated reader: must be the depth error. */
#define EXPECT_DEEP(ty, t)                                                                     \
    do {                                                                                       \
        everything_##ty v_;                                                                    \
        atd_error e_;                                                                          \
        atd_arena *a_ = atd_arena_new(0, NULL);                                                \
        expect_depth_error(everything_##ty##_from_json((t).p, (t).len, a_, &v_, &e_), &e_);    \
        ck_assert_uint_lt(atd_arena_get_stats(a_).bytes_reserved, 4 * MIB);                   \
        atd_arena_free(a_);                                                                    \
    } while (0)

START_TEST(test_deep_generated)
{
    /* shape: ["Nested",["Nested",[ ... "Point" ... ]]] */
    text t = {0};
    puts_n(&t, "[\"Nested\",[", DEEP);
    put(&t, "\"Point\"", 7);
    puts_n(&t, "]]", DEEP);
    EXPECT_DEEP(shape, t);
    free(t.p);

    /* rose_node: objects and arrays alternating */
    t = (text){0};
    puts_n(&t, "{\"value\":1,\"children\":[", DEEP);
    puts_n(&t, "]}", DEEP);
    EXPECT_DEEP(rose_node, t);
    free(t.p);

    /* tree: ["Node",[ ... ,1,"Leaf"]] */
    t = (text){0};
    puts_n(&t, "[\"Node\",[", DEEP);
    put(&t, "\"Leaf\"", 6);
    puts_n(&t, ",1,\"Leaf\"]]", DEEP);
    EXPECT_DEEP(tree, t);
    free(t.p);

    /* expr, mutually recursive through binding: ["Let",{"name":"x","bound": */
    t = (text){0};
    puts_n(&t, "[\"Let\",{\"name\":\"x\",\"bound\":", DEEP);
    put(&t, "[\"Num\",1]", 9);
    puts_n(&t, "}]", DEEP);
    EXPECT_DEEP(expr, t);
    free(t.p);

    /* abstract, and deep values in places where they are skipped */
    text arrays = nested(false, DEEP, true);
    text objects = nested(true, DEEP, true);
    EXPECT_DEEP(json_value, arrays);
    EXPECT_DEEP(json_value, objects);
    EXPECT_DEEP(abstract_list, arrays);
    t = (text){0};
    puts_n(&t, "{\"width\":1,\"height\":2,\"unknown\":", 1);
    put(&t, objects.p, objects.len);
    put(&t, "}", 1);
    EXPECT_DEEP(rect, t);
    free(t.p);
    t = (text){0};
    put(&t, "[\"a\",1.5,", 9); /* extra tuple elements are skipped too */
    put(&t, arrays.p, arrays.len);
    put(&t, "]", 1);
    EXPECT_DEEP(pair, t);
    free(t.p);
    free(arrays.p);
    free(objects.p);
}
END_TEST

/* --- one large string --- */

START_TEST(test_large_string)
{
    size_t target = full_mode() ? ((size_t)1 << 30) : 64 * MIB;
    /* ASCII, 2-, 3- and 4-byte UTF-8 sequences, no escape */
    static const char unit[] = "abcdefgh \xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 xyz.";
    size_t unit_len = sizeof unit - 1;
    size_t reps = target / unit_len;
    text t = {0};
    t.p = malloc(reps * unit_len + 2);
    ck_assert_ptr_nonnull(t.p);
    t.cap = reps * unit_len + 2;
    put(&t, "\"", 1);
    for (size_t i = 0; i < reps; i++)
        put(&t, unit, unit_len);
    put(&t, "\"", 1);
    size_t body = t.len - 2;

    /* copied: the arena holds the string once (plus chunk slack) */
    atd_arena *arena = atd_arena_new(0, NULL);
    everything_label s;
    atd_error err;
    ck_assert_msg(everything_label_from_json(t.p, t.len, arena, &s, &err) == 0, "%s", err.message);
    ck_assert_uint_eq(s.len, body);
    ck_assert(memcmp(s.ptr, t.p + 1, body) == 0);
    ck_assert_uint_le(atd_arena_get_stats(arena).bytes_reserved, body + body / 2 + MIB);

    /* written back to memory: the same bytes */
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_int_eq(everything_label_to_json(&s, &out, &err), 0);
    ck_assert_uint_eq(out.len, t.len);
    ck_assert(memcmp(out.data, t.p, t.len) == 0);
    atd_buf_free(&out);
    atd_arena_free(arena);

    /* borrowed: nothing copied */
    arena = atd_arena_new(0, NULL);
    atd_reader r;
    atd_reader_init(&r, t.p, t.len, arena, ATD_READ_BORROW_STRINGS);
    ck_assert(everything_label_read(&r, &s) && atd_read_end(&r));
    ck_assert_ptr_eq(s.ptr, t.p + 1);
    ck_assert_uint_lt(atd_arena_get_stats(arena).bytes_reserved, MIB);

    /* written to a sink in fixed chunks: the buffer never grows */
    atd_buf sink;
    FILE *devnull = fopen("/dev/null", "wb");
    ck_assert_ptr_nonnull(devnull);
    ck_assert_int_eq(atd_buf_init_file(&sink, devnull), 0);
    ck_assert_int_eq(everything_label_to_json(&s, &sink, &err), 0);
    ck_assert_int_eq(atd_buf_flush(&sink), 0);
    ck_assert_uint_le(sink.cap, 2 * ATD_BUF_SINK_CHUNK);
    atd_buf_free(&sink);
    fclose(devnull);
    atd_arena_free(arena);

    /* the DOM, borrowing */
    arena = atd_arena_new(0, NULL);
    atd_json v;
    ck_assert_int_eq(atd_json_parse(t.p, t.len, arena, ATD_READ_BORROW_STRINGS, &v, &err), 0);
    ck_assert_int_eq(v.kind, ATD_JSON_STRING);
    ck_assert_uint_eq(v.u.string.len, body);
    ck_assert_uint_lt(atd_arena_get_stats(arena).bytes_reserved, MIB);
    atd_arena_free(arena);
    free(t.p);
}
END_TEST

/* --- many small integers --- */

static text int_array(size_t n)
{
    text t = {0};
    t.cap = n * 4 + 16;
    t.p = malloc(t.cap);
    ck_assert_ptr_nonnull(t.p);
    put(&t, "[", 1);
    for (size_t i = 0; i < n; i++) {
        char num[8];
        int k = snprintf(num, sizeof num, i == 0 ? "%d" : ",%d", (int)(i % 100));
        put(&t, num, (size_t)k);
    }
    put(&t, "]", 1);
    return t;
}

START_TEST(test_many_ints_generated)
{
    size_t n = full_mode() ? 100000000 : 10000000;
    text t = int_array(n);
    atd_arena *arena = atd_arena_new(0, NULL);
    everything_int_list v;
    atd_error err;
    ck_assert_msg(everything_int_list_from_json(t.p, t.len, arena, &v, &err) == 0, "%s", err.message);
    ck_assert_uint_eq(v.len, n);
    for (size_t i = 0; i < n; i += 9973)
        ck_assert_int_eq(v.items[i], (int64_t)(i % 100));
    ck_assert_int_eq(v.items[n - 1], (int64_t)((n - 1) % 100));
    /* the growing array is copied when it cannot grow in place: at most
     * the final array plus the copies it outgrew (a geometric series) */
    size_t final_bytes = n * sizeof(int64_t);
    atd_arena_stats st = atd_arena_get_stats(arena);
    ck_assert_msg(st.bytes_reserved <= 4 * final_bytes + MIB, "%zu bytes for %zu", st.bytes_reserved,
                  final_bytes);
    ck_assert_uint_lt(st.alloc_calls, 200); /* chunks, not elements */

    atd_buf out;
    atd_buf_init(&out);
    ck_assert_int_eq(everything_int_list_to_json(&v, &out, &err), 0);
    ck_assert_uint_eq(out.len, t.len);
    ck_assert(memcmp(out.data, t.p, t.len) == 0);
    atd_buf_free(&out);
    atd_arena_free(arena);
    free(t.p);
}
END_TEST

START_TEST(test_many_ints_dom)
{
    size_t n = full_mode() ? 10000000 : 1000000;
    text t = int_array(n);
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    atd_error err;
    ck_assert_msg(atd_json_parse(t.p, t.len, arena, 0, &v, &err) == 0, "%s", err.message);
    ck_assert_int_eq(v.kind, ATD_JSON_ARRAY);
    ck_assert_uint_eq(v.u.array.len, n);
    ck_assert_int_eq(v.u.array.items[n - 1].u.integer, (int64_t)((n - 1) % 100));
    atd_arena_stats st = atd_arena_get_stats(arena);
    ck_assert_msg(st.bytes_reserved <= 4 * n * sizeof(atd_json) + MIB, "%zu bytes", st.bytes_reserved);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_int_eq(atd_json_write(&v, &out, &err), 0);
    ck_assert_uint_eq(out.len, t.len);
    ck_assert(memcmp(out.data, t.p, t.len) == 0);
    atd_buf_free(&out);
    atd_arena_free(arena);
    free(t.p);
}
END_TEST

/* --- a key repeated --- */

START_TEST(test_repeated_key)
{
    enum { TIMES = 1000000 };
    /* {"width":0,"width":1,...,"height":2} into rect: the last width wins */
    text t = {0};
    put(&t, "{", 1);
    for (size_t i = 0; i < TIMES; i++) {
        char field[32];
        int k = snprintf(field, sizeof field, "\"width\":%zu,", i);
        put(&t, field, (size_t)k);
    }
    put(&t, "\"height\":2}", 11);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    atd_arena *arena = atd_arena_new(0, NULL);
    everything_rect r;
    atd_error err;
    ck_assert_msg(everything_rect_from_json(t.p, t.len, arena, &r, &err) == 0, "%s", err.message);
    ck_assert(r.width == (double)(TIMES - 1) && r.height == 2.0);
    ck_assert_uint_lt(atd_arena_get_stats(arena).bytes_reserved, MIB);

    /* the DOM keeps every member, in order; atd_json_get finds the last */
    atd_json v;
    ck_assert_int_eq(atd_json_parse(t.p, t.len, arena, 0, &v, &err), 0);
    ck_assert_uint_eq(v.u.object.len, TIMES + 1);
    const atd_json *w = atd_json_get(&v, "width", 5);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(w->u.integer, TIMES - 1);
    atd_arena_free(arena);
    free(t.p);

    /* a string field repeated: every occurrence is decoded (the reader cannot
     * know it will be overwritten), so memory stays proportional to the input */
    t = (text){0};
    put(&t, "{\"id\":1,\"size\":0.5", 18);
    puts_n(&t, ",\"name\":\"caf\\u00e9\"", TIMES);
    put(&t, "}", 1);
    arena = atd_arena_new(0, NULL);
    everything_base b;
    ck_assert_msg(everything_base_from_json(t.p, t.len, arena, &b, &err) == 0, "%s", err.message);
    ck_assert_str_eq(b.name.ptr, "caf\xc3\xa9");
    ck_assert_uint_le(atd_arena_get_stats(arena).bytes_reserved, 2 * t.len + MIB);
    atd_arena_free(arena);
    free(t.p);
    /* linear: a quadratic scan of 10^6 members would take minutes */
    double secs = seconds_since(&t0);
    ck_assert_msg(secs < 30.0, "repeated keys took %.1f s", secs);
}
END_TEST

/* --- numbers with 10^5 digits --- */

START_TEST(test_long_numbers)
{
    enum { DIGITS = 100000 };
    text t = {0};
    put(&t, "[", 1);
    put(&t, "7", 1);
    puts_n(&t, "3", DIGITS - 1);
    put(&t, "]", 1);
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_error err;

    /* an int field: a range error naming the place */
    everything_int_list il;
    ck_assert_int_eq(everything_int_list_from_json(t.p, t.len, arena, &il, &err), ATD_ERR_RANGE);
    ck_assert_str_eq(err.path, "$[0]");

    /* a float field: strtod's value (here +inf: it overflows) */
    everything_float_list fl;
    ck_assert_int_eq(everything_float_list_from_json(t.p, t.len, arena, &fl, &err), 0);
    ck_assert(isinf(fl.items[0]));
    /* which cannot be written back as JSON: an error, never "inf" */
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_int_eq(everything_float_list_to_json(&fl, &out, &err), ATD_ERR_NONFINITE);
    ck_assert_str_eq(err.path, "$[0]");
    ck_assert_uint_eq(out.len, 0);

    /* the DOM keeps the integer as text and writes it back verbatim */
    atd_json v;
    ck_assert_int_eq(atd_json_parse(t.p, t.len, arena, 0, &v, &err), 0);
    ck_assert_int_eq(v.u.array.items[0].kind, ATD_JSON_BIGINT);
    ck_assert_uint_eq(v.u.array.items[0].u.string.len, DIGITS);
    ck_assert_int_eq(atd_json_write(&v, &out, &err), 0);
    ck_assert_uint_eq(out.len, t.len);
    ck_assert(memcmp(out.data, t.p, t.len) == 0);
    free(t.p);

    /* long mantissas and exponents that give ordinary doubles: compare with
     * strtod (correct rounding needs all the digits) */
    static const char *const shapes[] = {"0.", "1.", "-0.000", "2.4703282292062327"};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        t = (text){0};
        put(&t, "[", 1);
        put(&t, shapes[s], strlen(shapes[s]));
        puts_n(&t, s % 2 ? "0" : "1", DIGITS);
        put(&t, s == 3 ? "e-324]" : "]", s == 3 ? 6 : 1);
        ck_assert_int_eq(everything_float_list_from_json(t.p, t.len, arena, &fl, &err), 0);
        char *z = strndup(t.p + 1, t.len - 2);
        ck_assert_ptr_nonnull(z);
        double want = strtod(z, NULL);
        ck_assert_msg(memcmp(&want, &fl.items[0], sizeof want) == 0, "shape %zu", s);
        ck_assert_int_eq(atd_json_parse(t.p, t.len, arena, 0, &v, &err), 0);
        ck_assert_int_eq(v.u.array.items[0].kind, ATD_JSON_FLOAT);
        ck_assert(memcmp(&want, &v.u.array.items[0].u.number, sizeof want) == 0);
        free(z);
        free(t.p);
    }
    /* an exponent of 10^5 digits: 1e+000...01 is 10; 1e-999...9 is 0 */
    t = (text){0};
    put(&t, "[1e+", 4);
    puts_n(&t, "0", DIGITS);
    put(&t, "1,1e-", 5);
    puts_n(&t, "9", DIGITS);
    put(&t, "]", 1);
    ck_assert_int_eq(everything_float_list_from_json(t.p, t.len, arena, &fl, &err), 0);
    ck_assert(fl.items[0] == 10.0 && fl.items[1] == 0.0);
    ck_assert_int_eq(everything_int_list_from_json(t.p, t.len, arena, &il, &err), ATD_ERR_TYPE);
    free(t.p);
    /* numbers allocate nothing */
    ck_assert_uint_lt(atd_arena_get_stats(arena).bytes_reserved, 2 * MIB);
    atd_buf_free(&out);
    atd_arena_free(arena);
}
END_TEST

Suite *limits_suite(void);
Suite *limits_suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("sizes");
    tcase_set_timeout(tc, full_mode() ? 3600 : 120);
    tcase_add_test(tc, test_deep_arrays_dom);
    tcase_add_test(tc, test_deep_objects_dom);
    tcase_add_test(tc, test_deep_generated);
    tcase_add_test(tc, test_large_string);
    tcase_add_test(tc, test_many_ints_generated);
    tcase_add_test(tc, test_many_ints_dom);
    tcase_add_test(tc, test_repeated_key);
    tcase_add_test(tc, test_long_numbers);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(limits_suite)
