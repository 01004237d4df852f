/* Round trip of every benchmark document (shared/data/bench/NAME.json)
 * through the generated reader and writer of its schema's `root` type
 * (schemas/NAME.atd, generated/NAME.c): read, write, read again, write again.
 *
 * What is checked, and why it is not plain equality with the input:
 *  1. the second write is byte-identical to the first (the generated code is
 *     a fixpoint: nothing is lost or invented between two passes);
 *  2. the first output is value-equal to the input, compared as generic JSON
 *     values (atd_json_parse) with the differences the JSON mapping allows
 *     and nothing more: object members are matched by key (output order is
 *     the declaration order, as atdgen writes); a member present in the input but
 *     absent from the output must hold null or a default-like value (false, 0,
 *     "", [], {}) -- an omitted `?`/`~` field; numbers compare by value, so the
 *     input 1 equals the output 1.0 of a float field; everything else (arrays,
 *     strings, booleans) must be equal exactly.
 * The generated code comes from the committed generated/ folder (library
 * atd_generated), which tests/golden_generated.sh proves fresh. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_main.h"
#include "test_files.h"

#include "blockchain.h"
#include "canada.h"
#include "citm_catalog.h"
#include "donut.h"
#include "github.h"
#include "twitter.h"

#ifndef ATD_SHARED_DIR
#define ATD_SHARED_DIR "../shared"
#endif

static bool default_like(const atd_json *v)
{
    switch (v->kind) {
    case ATD_JSON_NULL:
        return true;
    case ATD_JSON_BOOL:
        return !v->u.boolean;
    case ATD_JSON_INT:
        return v->u.integer == 0;
    case ATD_JSON_FLOAT:
        return v->u.number == 0.0;
    case ATD_JSON_STRING:
        return v->u.string.len == 0;
    case ATD_JSON_ARRAY:
        return v->u.array.len == 0;
    case ATD_JSON_OBJECT:
        return v->u.object.len == 0;
    case ATD_JSON_BIGINT:
        return false;
    }
    return false;
}

static bool is_number(const atd_json *v, double *d)
{
    if (v->kind == ATD_JSON_INT) {
        *d = (double)v->u.integer;
        return true;
    }
    if (v->kind == ATD_JSON_FLOAT) {
        *d = v->u.number;
        return true;
    }
    return false;
}

/* in: the input value; out: what the generated writer produced. */
static bool value_equal(const atd_json *in, const atd_json *out, char *where, size_t cap)
{
    double a, b;
    if (is_number(in, &a) && is_number(out, &b)) {
        if (a == b)
            return true;
        snprintf(where, cap, "number %.17g != %.17g", a, b);
        return false;
    }
    if (in->kind != out->kind) {
        snprintf(where, cap, "kind %d != %d", (int)in->kind, (int)out->kind);
        return false;
    }
    switch (in->kind) {
    case ATD_JSON_ARRAY:
        if (in->u.array.len != out->u.array.len) {
            snprintf(where, cap, "array length %zu != %zu", in->u.array.len, out->u.array.len);
            return false;
        }
        for (size_t i = 0; i < in->u.array.len; i++)
            if (!value_equal(&in->u.array.items[i], &out->u.array.items[i], where, cap))
                return false;
        return true;
    case ATD_JSON_OBJECT:
        for (size_t i = 0; i < out->u.object.len; i++) {
            const atd_json_member *m = &out->u.object.members[i];
            const atd_json *v = atd_json_get(in, m->key.ptr, m->key.len);
            if (v == NULL) {
                snprintf(where, cap, "key '%.*s' invented", (int)m->key.len, m->key.ptr);
                return false;
            }
            if (!value_equal(v, &m->value, where, cap)) {
                size_t n = strlen(where);
                snprintf(where + n, cap - n, " in '%.*s'", (int)m->key.len, m->key.ptr);
                return false;
            }
        }
        for (size_t i = 0; i < in->u.object.len; i++) {
            const atd_json_member *m = &in->u.object.members[i];
            if (atd_json_get(out, m->key.ptr, m->key.len) == NULL && !default_like(&m->value)) {
                snprintf(where, cap, "key '%.*s' dropped", (int)m->key.len, m->key.ptr);
                return false;
            }
        }
        return true;
    default:
        if (atd_json_equal(in, out))
            return true;
        snprintf(where, cap, "scalar differs");
        return false;
    }
}

typedef int (*from_fn)(const char *, size_t, atd_arena *, void *, atd_error *);
typedef int (*to_fn)(const void *, atd_buf *, atd_error *);

static void roundtrip(const char *name, size_t size, from_fn from, to_fn to)
{
    size_t len;
    char path[1024];
    snprintf(path, sizeof path, "%s/data/bench/%s.json", ATD_SHARED_DIR, name);
    char *json = test_read_file(path, &len);
    atd_arena *arena = atd_arena_new(0, NULL);
    void *v1 = calloc(1, size), *v2 = calloc(1, size);
    atd_error err;
    atd_buf b1, b2;
    atd_buf_init(&b1);
    atd_buf_init(&b2);
    ck_assert_msg(from(json, len, arena, v1, &err) == 0, "%s: read: %s", name, err.message);
    ck_assert_msg(to(v1, &b1, &err) == 0, "%s: write: %s", name, err.message);
    ck_assert_msg(from(b1.data, b1.len, arena, v2, &err) == 0, "%s: read again: %s", name,
                  err.message);
    ck_assert_msg(to(v2, &b2, &err) == 0, "%s: write again: %s", name, err.message);
    ck_assert_msg(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0,
                  "%s: second write differs", name);
    atd_json in, out;
    ck_assert(atd_json_parse(json, len, arena, 0, &in, &err) == 0);
    ck_assert(atd_json_parse(b1.data, b1.len, arena, 0, &out, &err) == 0);
    char where[512] = "";
    ck_assert_msg(value_equal(&in, &out, where, sizeof where), "%s: %s", name, where);
    atd_buf_free(&b1);
    atd_buf_free(&b2);
    atd_arena_free(arena);
    free(v1);
    free(v2);
    free(json);
}

/* Typed adapters to the generic signatures above (no function-pointer casts).
 * Reading uses ATD_READ_STRICT_FIELDS: every key of the data must be typed by
 * its schema, so a schema that forgot a field fails here instead of silently
 * skipping it. */
#define ROUNDTRIP(mod)                                                                       \
    static int mod##_from(const char *j, size_t n, atd_arena *a, void *v, atd_error *e)      \
    {                                                                                        \
        atd_reader r;                                                                        \
        atd_reader_init(&r, j, n, a, ATD_READ_STRICT_FIELDS);                                \
        if (!mod##_root_read(&r, (mod##_root *)v) || !atd_read_end(&r))                      \
            return atd_reader_get_error(&r, e);                                              \
        return 0;                                                                            \
    }                                                                                        \
    static int mod##_to(const void *v, atd_buf *b, atd_error *e)                             \
    {                                                                                        \
        return mod##_root_to_json((const mod##_root *)v, b, e);                              \
    }                                                                                        \
    START_TEST(test_##mod)                                                                   \
    {                                                                                        \
        roundtrip(#mod, sizeof(mod##_root), mod##_from, mod##_to);                           \
    }                                                                                        \
    END_TEST

ROUNDTRIP(blockchain)
ROUNDTRIP(canada)
ROUNDTRIP(citm_catalog)
ROUNDTRIP(donut)
ROUNDTRIP(github)
ROUNDTRIP(twitter)

Suite *roundtrip_suite(void);
Suite *roundtrip_suite(void)
{
    Suite *s = suite_create("roundtrip");
    TCase *tc = tcase_create("bench");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_blockchain);
    tcase_add_test(tc, test_canada);
    tcase_add_test(tc, test_citm_catalog);
    tcase_add_test(tc, test_donut);
    tcase_add_test(tc, test_github);
    tcase_add_test(tc, test_twitter);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(roundtrip_suite)
