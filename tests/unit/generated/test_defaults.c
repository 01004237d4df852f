/* Tests of the code generated for schemas/defaults.atd: <c default> on
 * every kind of field. init and a read of {} give the C values written in
 * the schema; the writer omits every field while it holds its default,
 * also those given as C initializers (compared through the generated equal
 * functions), and writes any field that differs, in any part. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_main.h"

#include "defaults.h"

static bool str_is(atd_string s, const char *want, size_t len)
{
    return s.len == len && memcmp(s.ptr, want, len) == 0;
}

static void all_is_default(const defaults_all *v)
{
    ck_assert(str_is(v->nickname, "none", 4));
    ck_assert(str_is(v->greeting, "h\xc3\xa9llo world\n", 13));
    ck_assert_uint_eq(v->empty.len, 0);
    ck_assert_int_eq(v->count, 42);
    ck_assert_int_eq(v->small, -7);
    ck_assert_int_eq(v->mask, 17);
    ck_assert_int_eq(v->big, INT64_MAX);
    ck_assert(v->ratio == 0.25);
    ck_assert(v->single == 1.5f);
    ck_assert(v->on);
    ck_assert_int_eq(v->color, DEFAULTS_COLOR_BLUE);
    ck_assert_int_eq(v->shape.tag, DEFAULTS_SHAPE_DOT);
    ck_assert_int_eq(v->circle.tag, DEFAULTS_SHAPE_CIRCLE);
    ck_assert(v->circle.u.Circle == 2.5);
    ck_assert(v->maybe.has && v->maybe.value == 3);
    ck_assert(v->nul.has && v->nul.value == 0.5);
    ck_assert_uint_eq(v->ints.len, 3);
    ck_assert(v->ints.items[0] == 1 && v->ints.items[1] == 2 && v->ints.items[2] == 3);
    ck_assert_uint_eq(v->names.len, 2);
    ck_assert(str_is(v->names.items[0], "a", 1) && str_is(v->names.items[1], "bc", 2));
    ck_assert(v->origin.x == 1.0 && v->origin.y == -2.0);
    ck_assert(v->pair.f0 == 7 && str_is(v->pair.f1, "seven", 5));
    ck_assert_int_eq(v->any.kind, ATD_JSON_BOOL);
    ck_assert(v->any.u.boolean);
}

static void written_is(const defaults_all *v, const char *expect)
{
    atd_buf b;
    atd_error err;
    atd_buf_init(&b);
    ck_assert_int_eq(defaults_all_to_json(v, &b, &err), 0);
    ck_assert_msg(b.len == strlen(expect) && memcmp(b.data, expect, b.len) == 0, "%.*s", (int)b.len,
                  b.data);
    atd_buf_free(&b);
}

START_TEST(test_init_and_read_empty)
{
    defaults_all v;
    defaults_all_init(&v);
    all_is_default(&v);
    atd_arena *arena = atd_arena_new(0, NULL);
    defaults_all r;
    atd_error err;
    memset(&r, 0xff, sizeof r);
    ck_assert_int_eq(defaults_all_from_json("{}", 2, arena, &r, &err), 0);
    all_is_default(&r);
    written_is(&r, "{}");
    atd_arena_free(arena);
}
END_TEST

START_TEST(test_changed_values_written)
{
    defaults_all v;
    defaults_all_init(&v);
    v.nickname = (atd_string){"nonE", 4};
    v.greeting = (atd_string){"h\xc3\xa9llo world", 12};
    v.empty = (atd_string){"x", 1};
    v.count = 41;
    v.small = 7;
    v.mask = 16;
    v.big = INT64_MAX - 1;
    v.ratio = 0.5;
    v.single = 1.25f;
    v.on = false;
    v.color = DEFAULTS_COLOR_RED;
    v.shape.tag = DEFAULTS_SHAPE_CIRCLE;
    v.shape.u.Circle = 1.0;
    written_is(&v, "{\"nickname\":\"nonE\",\"greeting\":\"h\xc3\xa9llo world\",\"empty\":\"x\","
                   "\"count\":41,\"small\":7,\"mask\":16,\"big\":9223372036854775806,"
                   "\"ratio\":0.5,\"single\":1.25,\"on\":false,\"color\":\"Red\","
                   "\"shape\":[\"Circle\",1.0]}");
    /* the defaults given as C initializers: one part changed is enough */
    defaults_all_init(&v);
    v.circle.u.Circle = 1.5;
    v.maybe.value = 4;
    v.nul.has = false;
    v.ints.len = 2;
    v.names.items = v.names.items + 1;
    v.names.len = 1;
    v.origin.y = 2.0;
    v.pair.f1.len = 4;
    v.any.u.boolean = false;
    written_is(&v, "{\"circle\":[\"Circle\",1.5],\"maybe\":[\"Some\",4],\"nul\":null,"
                   "\"ints\":[1,2],\"names\":[\"bc\"],\"origin\":{\"x\":1.0,\"y\":2.0},"
                   "\"pair\":[7,\"seve\"],\"any\":false}");
    /* Read back: every value as written, none replaced by its default. */
    atd_arena *arena = atd_arena_new(0, NULL);
    const char *in = "{\"nickname\":\"\",\"count\":0,\"on\":false,\"maybe\":\"None\",\"ints\":[]}";
    defaults_all r;
    atd_error err;
    ck_assert_int_eq(defaults_all_from_json(in, strlen(in), arena, &r, &err), 0);
    ck_assert_uint_eq(r.nickname.len, 0);
    ck_assert_int_eq(r.count, 0);
    ck_assert(!r.on);
    ck_assert(!r.maybe.has);
    ck_assert_uint_eq(r.ints.len, 0);
    ck_assert_int_eq(r.small, -7);
    atd_arena_free(arena);
}
END_TEST

static Suite *defaults_suite(void)
{
    Suite *s = suite_create("defaults");
    TCase *tc = tcase_create("c_default");
    tcase_add_test(tc, test_init_and_read_empty);
    tcase_add_test(tc, test_changed_values_written);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(defaults_suite)
