/* Unit tests of the generic JSON value (runtime/src/json_value.c): the public
 * JSONTestSuite (every y_ file parses and writes, every n_ file fails, i_ files
 * do not crash), round trips of those and of the bench documents, the exact
 * outputs of the compact form (atdgen's number and escape forms), error
 * codes and paths on read and on write, deep nesting, borrowed strings, and
 * allocation failures at every step. */
#define _POSIX_C_SOURCE 200809L

#include "atd/json.h"
#include "atd/writer.h"
#include "test_alloc.h"
#include "test_main.h"
#include "test_files.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SUITE_DIR ATD_SHARED_DIR "/data/jsontestsuite/test_parsing"
#define BENCH_DIR ATD_SHARED_DIR "/data/bench"

/* parse, write, parse again: both trees equal, and writing is a fixpoint. */
static void check_roundtrip(const char *path, const char *name, unsigned flags)
{
    size_t len;
    char *json = test_read_file(path, &len);
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v, w;
    atd_error err;
    int rc = atd_json_parse(json, len, arena, flags, &v, &err);
    ck_assert_msg(rc == 0, "%s: %s", name, err.message);
    atd_buf out;
    atd_buf_init(&out);
    rc = atd_json_write(&v, &out, &err);
    ck_assert_msg(rc == 0, "%s: write: %s", name, err.message);
    rc = atd_json_parse(out.data, out.len, arena, flags, &w, &err);
    ck_assert_msg(rc == 0, "%s: reparse: %s", name, err.message);
    ck_assert_msg(atd_json_equal(&v, &w), "%s: round trip differs", name);
    atd_buf again;
    atd_buf_init(&again);
    ck_assert_int_eq(atd_json_write(&w, &again, NULL), 0);
    ck_assert_uint_eq(again.len, out.len);
    ck_assert_msg(memcmp(again.data, out.data, out.len) == 0, "%s: not a fixpoint", name);
    atd_buf_free(&again);
    atd_buf_free(&out);
    atd_arena_free(arena);
    free(json);
}

static void check_y(const char *path, const char *name)
{
    check_roundtrip(path, name, 0);
    check_roundtrip(path, name, ATD_READ_BORROW_STRINGS);
}

static void check_n(const char *path, const char *name)
{
    size_t len;
    char *json = test_read_file(path, &len);
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    atd_error err;
    int rc = atd_json_parse(json, len, arena, 0, &v, &err);
    ck_assert_msg(rc != 0, "%s: accepted", name);
    ck_assert_int_eq(err.code, rc);
    ck_assert_uint_gt(strlen(err.message), 0);
    atd_arena_free(arena);
    free(json);
}

static void check_i(const char *path, const char *name)
{
    (void)name;
    size_t len;
    char *json = test_read_file(path, &len);
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    if (atd_json_parse(json, len, arena, 0, &v, NULL) == 0) {
        atd_buf out;
        atd_buf_init(&out);
        int rc = atd_json_write(&v, &out, NULL);
        /* 1e400 reads as infinity, which cannot be written. */
        ck_assert(rc == 0 || rc == ATD_ERR_NONFINITE);
        atd_buf_free(&out);
    }
    atd_json_parse(json, len, arena, ATD_READ_LENIENT, &v, NULL);
    atd_arena_free(arena);
    free(json);
}

START_TEST(test_json_suite_y)
{
    ck_assert_uint_gt(test_for_each_json(SUITE_DIR, "y_", check_y), 90);
}
END_TEST

START_TEST(test_json_suite_n)
{
    ck_assert_uint_gt(test_for_each_json(SUITE_DIR, "n_", check_n), 150);
}
END_TEST

START_TEST(test_json_suite_i)
{
    ck_assert_uint_gt(test_for_each_json(SUITE_DIR, "i_", check_i), 10);
}
END_TEST

static void check_bench(const char *path, const char *name)
{
    check_roundtrip(path, name, 0);
}

START_TEST(test_json_bench_roundtrip)
{
    ck_assert_uint_ge(test_for_each_json(BENCH_DIR, "", check_bench), 6);
}
END_TEST

/* Parses `in` and checks that it is written back as `expected`. */
static void assert_rewrite(const char *in, const char *expected)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    atd_error err;
    int rc = atd_json_parse(in, strlen(in), arena, 0, &v, &err);
    ck_assert_msg(rc == 0, "%s: %s", in, err.message);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_int_eq(atd_json_write(&v, &out, &err), 0);
    ck_assert_msg(out.len == strlen(expected) && memcmp(out.data, expected, out.len) == 0,
                  "%s gave %.*s, expected %s", in, (int)out.len, out.data, expected);
    atd_buf_free(&out);
    atd_arena_free(arena);
}

START_TEST(test_json_exact_outputs)
{
    assert_rewrite("2.50", "2.5");
    assert_rewrite("1e2", "100.0");
    assert_rewrite("-0.0", "-0.0");
    assert_rewrite("-0", "0");
    assert_rewrite("\"\\u00e9\\/\"", "\"\xc3\xa9/\"");
    assert_rewrite("\"\\ud83d\\ude00\\t\\u001F\\u007f\"", "\"\xf0\x9f\x98\x80\\t\\u001f\\u007f\"");
    assert_rewrite(" [ 1 , 2.0 , true , false , null , \"x\" , { } , [ ] ] ",
                   "[1,2.0,true,false,null,\"x\",{},[]]");
    assert_rewrite("[123456789012345678901234567890,-99999999999999999999]",
                   "[123456789012345678901234567890,-99999999999999999999]");
    assert_rewrite("[9223372036854775807,-9223372036854775808,9223372036854775808]",
                   "[9223372036854775807,-9223372036854775808,9223372036854775808]");
    assert_rewrite("{\"a\":1,\"a\":2,\"b\":{\"a\":3}}", "{\"a\":1,\"a\":2,\"b\":{\"a\":3}}");
    assert_rewrite("{\"z\":1,\"y\":2,\"x\":3}", "{\"z\":1,\"y\":2,\"x\":3}");
    assert_rewrite("{\"k\\\"ey\":\"v\"}", "{\"k\\\"ey\":\"v\"}");
    assert_rewrite("[[[[]]],{\"a\":[{}]}]", "[[[[]]],{\"a\":[{}]}]");
}
END_TEST

START_TEST(test_json_kinds)
{
    const char *in = "{\"i\":-7,\"f\":2.5,\"big\":18446744073709551616,\"s\":\"h\\u00e9\","
                     "\"a\":[1,\"x\"],\"a\":[],\"t\":true,\"n\":null}";
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    ck_assert_int_eq(atd_json_parse(in, strlen(in), arena, 0, &v, NULL), 0);
    ck_assert_int_eq(v.kind, ATD_JSON_OBJECT);
    ck_assert_uint_eq(v.u.object.len, 8);
    const atd_json *x = atd_json_get(&v, "i", 1);
    ck_assert_int_eq(x->kind, ATD_JSON_INT);
    ck_assert_int_eq(x->u.integer, -7);
    x = atd_json_get(&v, "f", 1);
    ck_assert_int_eq(x->kind, ATD_JSON_FLOAT);
    ck_assert(x->u.number == 2.5);
    x = atd_json_get(&v, "big", 3);
    ck_assert_int_eq(x->kind, ATD_JSON_BIGINT);
    ck_assert_uint_eq(x->u.string.len, 20);
    ck_assert_int_eq(memcmp(x->u.string.ptr, "18446744073709551616", 20), 0);
    x = atd_json_get(&v, "s", 1);
    ck_assert_int_eq(x->kind, ATD_JSON_STRING);
    ck_assert_str_eq(x->u.string.ptr, "h\xc3\xa9");
    /* The last of duplicate keys. */
    x = atd_json_get(&v, "a", 1);
    ck_assert_int_eq(x->kind, ATD_JSON_ARRAY);
    ck_assert_uint_eq(x->u.array.len, 0);
    ck_assert_int_eq(v.u.object.members[4].value.u.array.len, 2);
    ck_assert_ptr_null(atd_json_get(&v, "missing", 7));
    ck_assert_ptr_null(atd_json_get(x, "a", 1));
    ck_assert_ptr_null(atd_json_get(NULL, "a", 1));
    x = atd_json_get(&v, "t", 1);
    ck_assert(x->kind == ATD_JSON_BOOL && x->u.boolean);
    ck_assert_int_eq(atd_json_get(&v, "n", 1)->kind, ATD_JSON_NULL);
    /* Copied strings and keys do not point into the input. */
    uintptr_t lo = (uintptr_t)in, hi = (uintptr_t)(in + strlen(in));
    ck_assert((uintptr_t)v.u.object.members[0].key.ptr < lo ||
              (uintptr_t)v.u.object.members[0].key.ptr >= hi);
    ck_assert_int_eq(v.u.object.members[0].key.ptr[1], '\0');
    atd_arena_free(arena);
}
END_TEST

START_TEST(test_json_borrow)
{
    const char *in = "[\"plain\",\"esc\\n\",123456789012345678901234567890]";
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    ck_assert_int_eq(atd_json_parse(in, strlen(in), arena, ATD_READ_BORROW_STRINGS, &v, NULL), 0);
    ck_assert_ptr_eq(v.u.array.items[0].u.string.ptr, in + 2);
    ck_assert_ptr_ne(v.u.array.items[1].u.string.ptr, in + 10);
    ck_assert_int_eq(memcmp(v.u.array.items[1].u.string.ptr, "esc\n", 4), 0);
    ck_assert_ptr_eq(v.u.array.items[2].u.string.ptr, in + 17);
    atd_arena_free(arena);
}
END_TEST

/* Numbers beyond double's range are kept as their text, like big integers,
 * so that every valid document writes back byte for byte; those within it
 * (underflow to 0, long mantissas) stay doubles. */
START_TEST(test_json_out_of_range_floats)
{
    static const char *const kept[] = {"1e999", "-1E+400", "1.5e309", "123456789e400"};
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_buf out;
    atd_buf_init(&out);
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        char in[64];
        snprintf(in, sizeof in, "[%s,{\"x\":%s}]", kept[i], kept[i]);
        for (unsigned flags = 0; flags <= ATD_READ_BORROW_STRINGS; flags += ATD_READ_BORROW_STRINGS) {
            atd_json v;
            atd_error err;
            ck_assert_int_eq(atd_json_parse(in, strlen(in), arena, flags, &v, &err), 0);
            const atd_json *n = &v.u.array.items[0];
            ck_assert_int_eq(n->kind, ATD_JSON_BIGINT);
            ck_assert_uint_eq(n->u.string.len, strlen(kept[i]));
            ck_assert_int_eq(memcmp(n->u.string.ptr, kept[i], n->u.string.len), 0);
            ck_assert(atd_json_equal(n, &v.u.array.items[1].u.object.members[0].value));
            atd_buf_clear(&out);
            ck_assert_int_eq(atd_json_write(&v, &out, &err), 0);
            ck_assert_uint_eq(out.len, strlen(in));
            ck_assert_int_eq(memcmp(out.data, in, out.len), 0);
        }
    }
    atd_json v;
    ck_assert_int_eq(atd_json_parse("[1e-999,1.7976931348623157e308]", 31, arena, 0, &v, NULL), 0);
    ck_assert_int_eq(v.u.array.items[0].kind, ATD_JSON_FLOAT);
    ck_assert(v.u.array.items[0].u.number == 0.0);
    ck_assert_int_eq(v.u.array.items[1].kind, ATD_JSON_FLOAT);
    /* Text that is not one JSON number is refused by the writer. */
    static const char *const bad[] = {"1e", "inf", "1e999 ", "--1", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        atd_json b = {ATD_JSON_BIGINT, {.string = {bad[i], strlen(bad[i])}}};
        atd_error err;
        ck_assert_int_eq(atd_json_write(&b, &out, &err), ATD_ERR_INVALID);
    }
    atd_buf_free(&out);
    atd_arena_free(arena);
}
END_TEST

START_TEST(test_json_equal)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    static const char *const docs[] = {"1",
                                       "1.0",
                                       "\"1\"",
                                       "[1]",
                                       "{\"a\":1}",
                                       "{\"b\":1}",
                                       "{\"a\":1,\"b\":2}",
                                       "{\"b\":2,\"a\":1}",
                                       "[1,2]",
                                       "[2,1]",
                                       "null",
                                       "true",
                                       "false",
                                       "{}",
                                       "[]",
                                       "99999999999999999999",
                                       "99999999999999999998",
                                       "[[]]",
                                       "[{}]"};
    size_t n = sizeof docs / sizeof docs[0];
    atd_json v[sizeof docs / sizeof docs[0]], w[sizeof docs / sizeof docs[0]];
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(atd_json_parse(docs[i], strlen(docs[i]), arena, 0, &v[i], NULL), 0);
        ck_assert_int_eq(atd_json_parse(docs[i], strlen(docs[i]), arena, 0, &w[i], NULL), 0);
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++)
            ck_assert_msg(atd_json_equal(&v[i], &w[j]) == (i == j), "%s vs %s", docs[i], docs[j]);
    }
    atd_json nan = {ATD_JSON_FLOAT, {.number = NAN}};
    ck_assert(!atd_json_equal(&nan, &nan));
    atd_arena_free(arena);
}
END_TEST

static void assert_parse_error(const char *in, unsigned flags, int code, const char *path)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    atd_error err;
    int rc = atd_json_parse(in, strlen(in), arena, flags, &v, &err);
    ck_assert_msg(rc == code, "%s: got %d (%s), expected %d", in, rc, err.message, code);
    ck_assert_msg(strcmp(err.path, path) == 0, "%s: path %s, expected %s (%s)", in, err.path, path,
                  err.message);
    ck_assert_int_eq(v.kind, ATD_JSON_NULL);
    atd_arena_free(arena);
}

START_TEST(test_json_read_errors)
{
    assert_parse_error("", 0, ATD_ERR_EOF, "$");
    assert_parse_error("{\"a\":[1,2,{\"b\":tru}]}", 0, ATD_ERR_TYPE, "$.a[2].b");
    assert_parse_error("{\"a\":[1,2,{\"b\":1 2}]}", 0, ATD_ERR_SYNTAX, "$.a[2]");
    assert_parse_error("[1,[2,01]]", 0, ATD_ERR_NUMBER, "$[1][1]");
    assert_parse_error("{\"x y\":[1.]}", 0, ATD_ERR_NUMBER, "$[\"x y\"][0]");
    assert_parse_error("[1,2] 3", 0, ATD_ERR_TRAILING, "$");
    assert_parse_error("[\"\xc0\x80\"]", 0, ATD_ERR_UTF8, "$[0]");
    assert_parse_error("[NaN]", 0, ATD_ERR_SYNTAX, "$[0]");
    assert_parse_error("{\"a\":{1:2}}", 0, ATD_ERR_SYNTAX, "$.a");
}
END_TEST

START_TEST(test_json_lenient)
{
    const char *in = "[NaN, Infinity, -Infinity, 1]";
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    ck_assert_int_eq(atd_json_parse(in, strlen(in), arena, ATD_READ_LENIENT, &v, NULL), 0);
    ck_assert_uint_eq(v.u.array.len, 4);
    ck_assert(isnan(v.u.array.items[0].u.number));
    ck_assert(v.u.array.items[1].u.number == INFINITY);
    ck_assert(v.u.array.items[2].u.number == -INFINITY);
    ck_assert_int_eq(v.u.array.items[3].kind, ATD_JSON_INT);
    atd_buf out;
    atd_buf_init(&out);
    atd_error err;
    ck_assert_int_eq(atd_json_write(&v, &out, &err), ATD_ERR_NONFINITE);
    ck_assert_str_eq(err.path, "$[0]");
    atd_buf_free(&out);
    atd_arena_free(arena);
}
END_TEST

START_TEST(test_json_write_nan_path)
{
    const char *in = "{\"a\":[1.5,2,3.5],\"b\":0}";
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    ck_assert_int_eq(atd_json_parse(in, strlen(in), arena, 0, &v, NULL), 0);
    v.u.object.members[0].value.u.array.items[2].u.number = NAN;
    atd_buf out;
    atd_buf_init(&out);
    atd_buf_append(&out, "prefix", 6);
    atd_error err;
    ck_assert_int_eq(atd_json_write(&v, &out, &err), ATD_ERR_NONFINITE);
    ck_assert_int_eq(err.code, ATD_ERR_NONFINITE);
    ck_assert_str_eq(err.path, "$.a[2]");
    ck_assert_str_eq(err.message, "at $.a[2]: NaN and infinity cannot be written as JSON");
    /* No partial output in an in-memory buffer. */
    ck_assert_uint_eq(out.len, 6);
    ck_assert_int_eq(out.status, 0);
    /* At top level. */
    atd_json inf = {ATD_JSON_FLOAT, {.number = -INFINITY}};
    ck_assert_int_eq(atd_json_write(&inf, &out, &err), ATD_ERR_NONFINITE);
    ck_assert_str_eq(err.path, "$");
    ck_assert_int_eq(atd_json_write(&inf, &out, NULL), ATD_ERR_NONFINITE);
    atd_buf_free(&out);
    atd_arena_free(arena);
}
END_TEST

START_TEST(test_json_write_utf8_errors)
{
    atd_json bad = {ATD_JSON_STRING, {.string = {"\xed\xa0\x80", 3}}};
    atd_json items[2] = {{ATD_JSON_NULL, {.integer = 0}}, bad};
    atd_json_member members[2] = {{{"ok", 2}, {ATD_JSON_ARRAY, {.array = {items, 2}}}},
                                  {{"k\xff", 2}, {ATD_JSON_INT, {.integer = 1}}}};
    atd_json obj = {ATD_JSON_OBJECT, {.object = {members, 1}}};
    atd_buf out;
    atd_buf_init(&out);
    atd_error err;
    ck_assert_int_eq(atd_json_write(&obj, &out, &err), ATD_ERR_UTF8);
    ck_assert_str_eq(err.path, "$.ok[1]");
    obj.u.object.len = 2;
    items[1].kind = ATD_JSON_NULL;
    ck_assert_int_eq(atd_json_write(&obj, &out, &err), ATD_ERR_UTF8);
    ck_assert_str_eq(err.path, "$");
    members[1].key.ptr = "k";
    members[1].key.len = 1;
    ck_assert_int_eq(atd_json_write(&obj, &out, &err), 0);
    ck_assert_uint_eq(out.len, strlen("{\"ok\":[null,null],\"k\":1}"));
    ck_assert_int_eq(memcmp(out.data, "{\"ok\":[null,null],\"k\":1}", out.len), 0);
    /* A BIGINT must hold an integer literal. */
    atd_json big = {ATD_JSON_BIGINT, {.string = {"12a", 3}}};
    ck_assert_int_eq(atd_json_write(&big, &out, &err), ATD_ERR_INVALID);
    atd_buf_free(&out);
}
END_TEST

START_TEST(test_json_depth)
{
    size_t n = 1000000;
    char *deep = malloc(2 * n);
    ck_assert_ptr_nonnull(deep);
    memset(deep, '[', n);
    memset(deep + n, ']', n);
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    atd_error err;
    ck_assert_int_eq(atd_json_parse(deep, 2 * n, arena, 0, &v, &err), ATD_ERR_DEPTH);
    /* Within the limit: parses and writes back identically. */
    size_t ok = ATD_DEFAULT_MAX_DEPTH;
    ck_assert_int_eq(atd_json_parse(deep + n - ok, 2 * ok, arena, 0, &v, &err), 0);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_int_eq(atd_json_write(&v, &out, NULL), 0);
    ck_assert_uint_eq(out.len, 2 * ok);
    ck_assert_int_eq(memcmp(out.data, deep + n - ok, 2 * ok), 0);
    ck_assert_int_eq(atd_json_parse(deep + n - ok - 1, 2 * ok + 2, arena, 0, &v, &err),
                     ATD_ERR_DEPTH);
    /* Objects too. */
    char *objs = malloc(6 * n);
    ck_assert_ptr_nonnull(objs);
    for (size_t i = 0; i < n; i++)
        memcpy(objs + 5 * i, "{\"a\":", 5);
    memset(objs + 5 * n, '}', n);
    ck_assert_int_eq(atd_json_parse(objs, 6 * n, arena, 0, &v, &err), ATD_ERR_DEPTH);
    free(objs);
    atd_buf_free(&out);
    atd_arena_free(arena);
    free(deep);
}
END_TEST

START_TEST(test_json_deep_handmade_tree)
{
    /* Deeper than any reader allows: writing and comparing use no recursion. */
    size_t n = 200000;
    atd_json *nodes = malloc(n * sizeof *nodes);
    ck_assert_ptr_nonnull(nodes);
    for (size_t i = 0; i < n; i++) {
        nodes[i].kind = ATD_JSON_ARRAY;
        nodes[i].u.array.items = i + 1 < n ? &nodes[i + 1] : NULL;
        nodes[i].u.array.len = i + 1 < n ? 1 : 0;
    }
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_int_eq(atd_json_write(&nodes[0], &out, NULL), 0);
    ck_assert_uint_eq(out.len, 2 * n);
    ck_assert(atd_json_equal(&nodes[0], &nodes[0]));
    ck_assert(!atd_json_equal(&nodes[0], &nodes[1]));
    atd_buf_free(&out);
    free(nodes);
}
END_TEST

START_TEST(test_json_alloc_failures)
{
    /* A document needing several arena chunks and a scratch stack beyond its
     * local storage; every allocator call is failed in turn. */
    atd_buf doc;
    atd_buf_init(&doc);
    atd_buf_puts(&doc, "{\"list\":[");
    for (int i = 0; i < 400; i++)
        atd_buf_puts(&doc, i == 0 ? "{\"name\":\"n\\u00e9\",\"v\":[1,2.5,\"s\"]}"
                                  : ",{\"name\":\"n\\u00e9\",\"v\":[1,2.5,\"s\"]}");
    atd_buf_puts(&doc, "]}");
    ck_assert_int_eq(doc.status, 0);
    long needed = -1;
    for (long fail = 0; fail < 200 && needed < 0; fail++) {
        test_alloc c;
        atd_allocator al = test_alloc_start(&c, fail + 1);
        atd_arena *arena = atd_arena_new(256, &al);
        if (arena == NULL) {
            ck_assert_int_eq(c.live, 0);
            continue;
        }
        atd_json v;
        atd_error err;
        int rc = atd_json_parse(doc.data, doc.len, arena, 0, &v, &err);
        if (rc == 0) {
            needed = fail;
            ck_assert_uint_eq(v.u.object.members[0].value.u.array.len, 400);
        } else {
            ck_assert_int_eq(rc, ATD_ERR_NOMEM);
            ck_assert_int_eq(v.kind, ATD_JSON_NULL);
        }
        atd_arena_free(arena);
        ck_assert_int_eq(c.live, 0);
    }
    ck_assert_int_gt(needed, 3);
    atd_buf_free(&doc);
}
END_TEST

typedef struct collector {
    char *data;
    size_t len;
} collector;

static int collecting_sink(void *ctx, const char *data, size_t len)
{
    collector *c = ctx;
    char *p = realloc(c->data, c->len + len);
    if (p == NULL)
        return -1;
    memcpy(p + c->len, data, len);
    c->data = p;
    c->len += len;
    return 0;
}

START_TEST(test_json_write_to_sink)
{
    size_t len;
    char *json = test_read_file(BENCH_DIR "/twitter.json", &len);
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    ck_assert_int_eq(atd_json_parse(json, len, arena, 0, &v, NULL), 0);
    atd_buf mem;
    atd_buf_init(&mem);
    ck_assert_int_eq(atd_json_write(&v, &mem, NULL), 0);
    collector c = {NULL, 0};
    atd_buf sink;
    ck_assert_int_eq(atd_buf_init_sink(&sink, collecting_sink, &c, 4096), 0);
    ck_assert_int_eq(atd_json_write(&v, &sink, NULL), 0);
    ck_assert_int_eq(atd_buf_flush(&sink), 0);
    ck_assert_uint_eq(c.len, mem.len);
    ck_assert_int_eq(memcmp(c.data, mem.data, mem.len), 0);
    ck_assert_uint_eq(sink.cap, 4096);
    atd_buf_free(&sink);
    atd_buf_free(&mem);
    free(c.data);
    atd_arena_free(arena);
    free(json);
}
END_TEST

Suite *json_suite(void);
Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *conf = tcase_create("conformance");
    tcase_set_timeout(conf, 60);
    tcase_add_test(conf, test_json_suite_y);
    tcase_add_test(conf, test_json_suite_n);
    tcase_add_test(conf, test_json_suite_i);
    tcase_add_test(conf, test_json_bench_roundtrip);
    suite_add_tcase(s, conf);
    TCase *val = tcase_create("values");
    tcase_set_timeout(val, 30);
    tcase_add_test(val, test_json_exact_outputs);
    tcase_add_test(val, test_json_kinds);
    tcase_add_test(val, test_json_borrow);
    tcase_add_test(val, test_json_out_of_range_floats);
    tcase_add_test(val, test_json_equal);
    tcase_add_test(val, test_json_read_errors);
    tcase_add_test(val, test_json_lenient);
    tcase_add_test(val, test_json_write_nan_path);
    tcase_add_test(val, test_json_write_utf8_errors);
    tcase_add_test(val, test_json_depth);
    tcase_add_test(val, test_json_deep_handmade_tree);
    tcase_add_test(val, test_json_alloc_failures);
    tcase_add_test(val, test_json_write_to_sink);
    suite_add_tcase(s, val);
    return s;
}

ATD_CHECK_MAIN(json_suite)
