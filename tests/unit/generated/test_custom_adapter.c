/* A custom JSON adapter in C (schemas/custom_adapter.atd): the user's
 * normalize and restore functions below map {"kind":"circle","r":2.0} and
 * {"kind":"dot"} to and from the ATD form, only values of `shape` go
 * through the DOM, and failures of the adapter or of the normalized JSON
 * are errors with the value's position and path. */
#include <check.h>
#include <string.h>

#include "test_main.h"

#include "custom_adapter.h"

static bool is_key(const atd_json_member *m, const char *k)
{
    return m->key.len == strlen(k) && memcmp(m->key.ptr, k, m->key.len) == 0;
}

static atd_json str_value(const char *s)
{
    atd_json v;
    v.kind = ATD_JSON_STRING;
    v.u.string.ptr = s;
    v.u.string.len = strlen(s);
    return v;
}

/* {"kind":"circle", rest...} -> ["Circle", {rest...}]; {"kind":"dot"} -> "Dot" */
bool shape_adapter_normalize(atd_json *v, atd_arena *arena, const char **why)
{
    const atd_json *kind = v->kind == ATD_JSON_OBJECT ? atd_json_get(v, "kind", 4) : NULL;
    if (kind == NULL || kind->kind != ATD_JSON_STRING) {
        *why = "expected an object with a string field \"kind\"";
        return false;
    }
    if (kind->u.string.len == 3 && memcmp(kind->u.string.ptr, "dot", 3) == 0) {
        *v = str_value("Dot");
        return true;
    }
    if (!(kind->u.string.len == 6 && memcmp(kind->u.string.ptr, "circle", 6) == 0)) {
        *why = "unknown kind";
        return false;
    }
    atd_json *pair = atd_arena_alloc(arena, 2 * sizeof *pair, 8);
    atd_json_member *rest = atd_arena_alloc(arena, v->u.object.len * sizeof *rest + 1, 8);
    if (pair == NULL || rest == NULL)
        return false;
    size_t n = 0;
    for (size_t i = 0; i < v->u.object.len; i++)
        if (!is_key(&v->u.object.members[i], "kind"))
            rest[n++] = v->u.object.members[i];
    pair[0] = str_value("Circle");
    pair[1].kind = ATD_JSON_OBJECT;
    pair[1].u.object.members = rest;
    pair[1].u.object.len = n;
    v->kind = ATD_JSON_ARRAY;
    v->u.array.items = pair;
    v->u.array.len = 2;
    return true;
}

/* The reverse: "Dot" -> {"kind":"dot"}; ["Circle", {...}] -> {"kind":"circle", ...} */
bool shape_adapter_restore(atd_json *v, atd_arena *arena, const char **why)
{
    size_t n = v->kind == ATD_JSON_ARRAY && v->u.array.items[1].kind == ATD_JSON_OBJECT
                   ? v->u.array.items[1].u.object.len
                   : 0;
    atd_json_member *ms = atd_arena_alloc(arena, (n + 1) * sizeof *ms, 8);
    if (ms == NULL)
        return false;
    ms[0].key = (atd_string){"kind", 4};
    if (v->kind == ATD_JSON_STRING) {
        ms[0].value = str_value("dot");
    } else if (v->kind == ATD_JSON_ARRAY && v->u.array.len == 2 &&
               v->u.array.items[1].kind == ATD_JSON_OBJECT) {
        ms[0].value = str_value("circle");
        memcpy(ms + 1, v->u.array.items[1].u.object.members, n * sizeof *ms);
    } else {
        *why = "unexpected shape";
        return false;
    }
    v->kind = ATD_JSON_OBJECT;
    v->u.object.members = ms;
    v->u.object.len = n + 1;
    return true;
}

START_TEST(test_round_trip)
{
    const char *in =
        "{\"shapes\":[{\"r\":2,\"kind\":\"circle\"},{\"kind\":\"dot\"}],\"name\":\"x\"}";
    atd_arena *arena = atd_arena_new(0, NULL);
    for (unsigned flags = 0; flags <= ATD_READ_BORROW_STRINGS; flags += ATD_READ_BORROW_STRINGS) {
        atd_reader r;
        custom_adapter_doc doc;
        atd_reader_init(&r, in, strlen(in), arena, flags);
        ck_assert(custom_adapter_doc_read(&r, &doc) && atd_read_end(&r));
        ck_assert_uint_eq(doc.shapes.len, 2);
        ck_assert_int_eq(doc.shapes.items[0].tag, CUSTOM_ADAPTER_SHAPE_CIRCLE);
        ck_assert(doc.shapes.items[0].u.Circle.r == 2.0);
        ck_assert_int_eq(doc.shapes.items[1].tag, CUSTOM_ADAPTER_SHAPE_DOT);
        atd_buf b;
        atd_error err;
        atd_buf_init(&b);
        ck_assert_int_eq(custom_adapter_doc_to_json(&doc, &b, &err), 0);
        const char *want =
            "{\"shapes\":[{\"kind\":\"circle\",\"r\":2.0},{\"kind\":\"dot\"}],\"name\":\"x\"}";
        ck_assert_msg(b.len == strlen(want) && memcmp(b.data, want, b.len) == 0, "%.*s", (int)b.len,
                      b.data);
        atd_buf_free(&b);
    }
    atd_arena_free(arena);
}
END_TEST

static void fails(const char *in, const char *message)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    custom_adapter_doc doc;
    atd_error err;
    ck_assert_int_ne(custom_adapter_doc_from_json(in, strlen(in), arena, &doc, &err), 0);
    ck_assert_msg(strcmp(err.message, message) == 0, "%s", err.message);
    atd_arena_free(arena);
}

START_TEST(test_errors)
{
    fails("{\"shapes\":[{\"kind\":\"dot\"},{\"kind\":\"square\"}],\"name\":\"x\"}",
          "line 1, column 27, at $.shapes[1]: adapter 'shape_adapter' rejected the value: "
          "unknown kind");
    fails("{\"shapes\":[{\"kind\":\"circle\",\"r\":\"big\"}],\"name\":\"x\"}",
          "line 1, column 12, at $.shapes[0]: in the JSON normalized by adapter "
          "'shape_adapter', at $[1].r: expected a number, found \"big\"");
    /* the rest of the document keeps the direct reader */
    fails("{\"shapes\":[],\"name\":3}", "line 1, column 21, at $.name: expected a string, found 3");
}
END_TEST

START_TEST(test_write_error)
{
    custom_adapter_shape bad;
    bad.tag = CUSTOM_ADAPTER_SHAPE_CIRCLE;
    bad.u.Circle.r = 1.0 / 0.0;
    atd_buf b;
    atd_error err;
    atd_buf_init(&b);
    ck_assert_int_eq(custom_adapter_shape_to_json(&bad, &b, &err), ATD_ERR_NONFINITE);
    atd_buf_free(&b);
}
END_TEST

static Suite *custom_adapter_suite(void)
{
    Suite *s = suite_create("custom_adapter");
    TCase *tc = tcase_create("adapter_c");
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_write_error);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(custom_adapter_suite)
