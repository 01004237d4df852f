/* The writers' cursor form (writer.h): the primitives that take and return
 * the output cursor, at every room boundary against the buffer-level
 * writers, and the generated writers built on them (donut.atd, whose
 * records are runs of strings, a float and nested lists): a bad string in
 * the middle of a run, a long string in a run through a small sink, a
 * fresh buffer whose first allocation fails. */
#include "atd/error.h"
#include "atd/writer.h"
#include "donut.h"
#include "test_alloc.h"
#include "test_main.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An in-memory buffer whose free room is exactly `room` bytes, after at
 * least 64 filler bytes ('.'). */
static void buf_with_room(atd_buf *b, size_t room)
{
    atd_buf_init(b);
    ck_assert_ptr_nonnull(atd_buf_reserve(b, room + 64));
    size_t fill = b->cap - room;
    char *p = atd_buf_reserve(b, fill);
    ck_assert_ptr_nonnull(p);
    memset(p, '.', fill);
    atd_buf_commit(b, p + fill);
    ck_assert_uint_eq(b->cap - b->len, room);
}

/* What atd_writer_key_string writes for (key, s) after the same filler,
 * with its result. */
static bool reference(atd_buf *out, size_t room, const char *key, size_t klen, const char *s,
                      size_t len, unsigned flags)
{
    buf_with_room(out, room);
    atd_writer w;
    atd_writer_init(&w, out, flags);
    return atd__writer_key_string(&w, key, klen, s, len);
}

static const char *const texts[] = {
    "",
    "a",
    "abcdefg",
    "0123456789abcdef",
    "plain text that is longer than the sixteen bytes of one block",
    "tab\there",
    "caf\xc3\xa9 au lait",
    "quote \" and backslash \\",
    "bad \xc3\x28 byte",
    "\xff",
    "truncated \xe2\x82",
};

/* atd_writer_key_string_p and atd_writer_elem_string_p write exactly what
 * atd_writer_key_string does, for every string kind and for every room
 * from none to more than enough; on invalid UTF-8 they fail with
 * ATD_ERR_UTF8 and the buffer keeps only what was committed before. */
START_TEST(test_cursor_key_string_rooms)
{
    unsigned flags = _i == 0 ? 0 : ATD_WRITE_ALLOW_INVALID_UTF8;
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        const char *s = texts[t];
        size_t len = strlen(s);
        for (size_t room = 0; room <= 6 * len + 24; room++) {
            for (int form = 0; form < 3; form++) {
                /* form 0: a key literal; 1: a list element after the
                 * first (comma); 2: the first element (no comma) */
                const char *key = form == 0 ? ",\"name\":" : ",";
                size_t klen = form == 0 ? 8 : form == 1 ? 1 : 0;
                atd_buf want, got;
                bool ok_want = reference(&want, room, key, klen, s, len, flags);
                buf_with_room(&got, room);
                size_t before = got.len;
                atd_writer w;
                atd_writer_init(&w, &got, flags);
                char *p = atd_writer_cursor(&w);
                ck_assert_ptr_nonnull(p);
                if (form == 0)
                    p = atd_writer_key_string_p(&w, p, ",\"name\":", 8, s, len);
                else
                    p = atd_writer_elem_string_p(&w, p, form == 1, s, len);
                ck_assert_int_eq(p != NULL, ok_want);
                if (p != NULL) {
                    atd_writer_commit(&w, p);
                    ck_assert_uint_eq(got.len, want.len);
                    ck_assert_int_eq(memcmp(got.data, want.data, got.len), 0);
                } else {
                    ck_assert_int_eq(atd_writer_get_error(&w, NULL), ATD_ERR_UTF8);
                    ck_assert_uint_le(got.len, before);
                    ck_assert_int_eq(got.status, 0);
                }
                atd_buf_free(&want);
                atd_buf_free(&got);
            }
        }
    }
}
END_TEST

/* atd_writer_room and atd_writer_raw_p: pieces keep their order across
 * the buffer's growth, and the cursor commits exactly what was written. */
START_TEST(test_cursor_room_growth)
{
    atd_buf b;
    atd_buf_init(&b);
    atd_writer w;
    atd_writer_init(&w, &b, 0);
    char *p = atd_writer_cursor(&w); /* a fresh buffer gets its storage */
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(b.data);
    char expect[3000];
    size_t n = 0;
    for (int i = 0; i < 300; i++) {
        p = atd_writer_room(&w, p, 1 + ATD_INT64_CHARS);
        ck_assert_ptr_nonnull(p);
        *p++ = i == 0 ? '[' : ',';
        p = atd_write_int64(p, i * 7);
        n += (size_t)snprintf(expect + n, sizeof expect - n, "%c%d", i == 0 ? '[' : ',', i * 7);
    }
    p = atd_writer_raw_p(&w, p, "]", 1);
    ck_assert_ptr_nonnull(p);
    expect[n++] = ']';
    /* the growths committed what came before them, not the last pieces */
    ck_assert_uint_lt(b.len, n);
    ck_assert_uint_gt(b.len, 0);
    ck_assert(atd_writer_finish(&w, p));
    ck_assert_uint_eq(b.len, n);
    ck_assert_int_eq(memcmp(b.data, expect, n), 0);
    ck_assert(!atd_writer_finish(&w, NULL));
    ck_assert_uint_eq(b.len, n);
    atd_buf_free(&b);
}
END_TEST

/* A fresh buffer whose first allocation fails: the cursor has no room, the
 * first check fails with ATD_ERR_NOMEM, and committing it does nothing;
 * the same for a buffer that has failed already. */
START_TEST(test_cursor_no_storage)
{
    test_alloc f;
    atd_allocator al = test_alloc_start(&f, 1);
    atd_buf b;
    atd_buf_init_with(&b, &al);
    atd_writer w;
    atd_writer_init(&w, &b, 0);
    char *p = atd_writer_cursor(&w);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_null(b.data);
    ck_assert_int_eq(b.status, ATD_ERR_NOMEM);
    atd_writer_commit(&w, p);
    ck_assert_uint_eq(b.len, 0);
    ck_assert_ptr_null(atd_writer_room(&w, p, 1));
    ck_assert_int_eq(atd_writer_get_error(&w, NULL), ATD_ERR_NOMEM);
    atd_writer_init(&w, &b, 0);
    p = atd_writer_cursor(&w);
    ck_assert_ptr_null(atd_writer_key_string_p(&w, p, "{\"a\":", 5, "x", 1));
    ck_assert_int_eq(atd_writer_get_error(&w, NULL), ATD_ERR_NOMEM);
    atd_buf_free(&b);
    ck_assert_int_eq(f.live, 0);

    /* generated writer on such a buffer: NOMEM, with the field's path */
    donut_ingredient ing = {{"1001", 4}, {"Regular", 7}};
    f.calls = 0;
    atd_buf_init_with(&b, &al);
    atd_error err;
    ck_assert_int_eq(donut_ingredient_to_json(&ing, &b, &err), ATD_ERR_NOMEM);
    ck_assert_str_eq(err.path, "$.id");
    atd_buf_free(&b);
    ck_assert_int_eq(f.live, 0);
}
END_TEST

/* Sink that keeps everything and the largest capacity the buffer had. */
typedef struct collector {
    char *data;
    size_t len;
    const atd_buf *buf;
    size_t max_cap;
    size_t calls;
} collector;

static int collect(void *ctx, const char *data, size_t len)
{
    collector *c = ctx;
    if (c->buf->cap > c->max_cap)
        c->max_cap = c->buf->cap;
    char *p = realloc(c->data, c->len + len + 1);
    if (p == NULL)
        return -1;
    memcpy(p + c->len, data, len);
    c->data = p;
    c->len += len;
    c->calls++;
    return 0;
}

static bool contains(const atd_buf *b, const char *text)
{
    size_t n = strlen(text);
    for (size_t i = 0; i + n <= b->len; i++)
        if (memcmp(b->data + i, text, n) == 0)
            return true;
    return false;
}

static donut_ingredient toppings[] = {
    {{"5001", 4}, {"None", 4}},
    {{"5002", 4}, {"Glazed", 6}},
    {{"5005", 4}, {"Sugar \"fine\"", 13}},
};

static donut_item make_item(const char *name, size_t name_len)
{
    donut_item it;
    memset(&it, 0, sizeof it);
    it.id = (atd_string){"0001", 4};
    it.item_type = (atd_string){"donut", 5};
    it.name = (atd_string){name, name_len};
    it.ppu = 0.55;
    it.batters.batter.items = toppings;
    it.batters.batter.len = 2;
    it.topping.items = toppings;
    it.topping.len = 3;
    return it;
}

/* Invalid UTF-8 in the middle string of the record's first run: the write
 * fails with ATD_ERR_UTF8 naming the field, the in-memory buffer is as it
 * was, and through a sink no byte of that string (or after it) arrives;
 * with ATD_WRITE_ALLOW_INVALID_UTF8 the bytes are written as they are. */
START_TEST(test_cursor_utf8_mid_run)
{
    static const char bad[] = "Cake\xc3\x28"; /* 0xc3 then a non-continuation */
    donut_item it = make_item(bad, 6);
    atd_buf b;
    atd_buf_init(&b);
    atd_buf_puts(&b, "prefix");
    atd_error err;
    ck_assert_int_eq(donut_item_to_json(&it, &b, &err), ATD_ERR_UTF8);
    ck_assert_str_eq(err.path, "$.name");
    ck_assert_uint_eq(b.len, 6);
    ck_assert_int_eq(memcmp(b.data, "prefix", 6), 0);

    /* in a list: the element's index and the field */
    donut_item items[3] = {make_item("Raised", 6), make_item("Old", 3), it};
    donut_root root = {items, 3};
    ck_assert_int_eq(donut_root_to_json(&root, &b, &err), ATD_ERR_UTF8);
    ck_assert_str_eq(err.path, "$[2].name");
    ck_assert_uint_eq(b.len, 6);

    for (size_t chunk = 16; chunk <= 4096; chunk *= 16) {
        collector c = {NULL, 0, NULL, 0, 0};
        atd_buf s;
        ck_assert_int_eq(atd_buf_init_sink(&s, collect, &c, chunk), 0);
        c.buf = &s;
        ck_assert_int_eq(donut_root_to_json(&root, &s, &err), ATD_ERR_UTF8);
        ck_assert_str_eq(err.path, "$[2].name");
        atd_buf_flush(&s);
        /* a prefix of the output that stops before the bad string */
        atd_buf good;
        atd_buf_init(&good);
        donut_root two = {items, 2};
        ck_assert_int_eq(donut_root_to_json(&two, &good, NULL), 0);
        size_t before_name = good.len + strlen(",{\"id\":\"0001\",\"type\":\"donut\"") - 1;
        ck_assert_uint_le(c.len, before_name);
        if (chunk == 16)
            ck_assert_uint_gt(c.len, 0); /* the small chunk was flushed before the error */
        if (c.len > 0)
            ck_assert_int_eq(memcmp(c.data, good.data, c.len < good.len - 1 ? c.len : good.len - 1),
                             0);
        atd_buf_free(&good);
        atd_buf_free(&s);
        free(c.data);
    }

    atd_buf_clear(&b);
    ck_assert_int_eq(
        atd_write_value(&b, donut_item_write_any, &it, ATD_WRITE_ALLOW_INVALID_UTF8, &err), 0);
    ck_assert(contains(&b, "\"name\":\"Cake\xc3\x28\","));
    atd_buf_free(&b);
}
END_TEST

/* A float that cannot be written, after a run of strings: ATD_ERR_NONFINITE
 * naming it, nothing left in the buffer. */
START_TEST(test_cursor_nonfinite_after_run)
{
    donut_item it = make_item("Cake", 4);
    it.ppu = NAN;
    atd_buf b;
    atd_buf_init(&b);
    atd_error err;
    ck_assert_int_eq(donut_item_to_json(&it, &b, &err), ATD_ERR_NONFINITE);
    ck_assert_str_eq(err.path, "$.ppu");
    ck_assert_uint_eq(b.len, 0);
    atd_buf_free(&b);
}
END_TEST

/* A long string (longer than the short-string limit, with escapes) in a
 * run, through sinks whose chunk is smaller than it: the bytes are exactly
 * the in-memory output, and the buffer never grows beyond its chunk (the
 * string is streamed, not reserved at its worst case). */
START_TEST(test_cursor_long_string_small_sink)
{
    size_t len = 3 * ATD__SHORT_STRING + 123;
    char *name = malloc(len);
    ck_assert_ptr_nonnull(name);
    for (size_t i = 0; i < len; i++)
        name[i] = i % 101 == 0 ? '\n' : (char)('a' + i % 26);
    donut_item items[2] = {make_item("Cake", 4), make_item(name, len)};
    donut_root root = {items, 2};
    atd_buf mem;
    atd_buf_init(&mem);
    ck_assert_int_eq(donut_root_to_json(&root, &mem, NULL), 0);
    ck_assert_uint_gt(mem.len, len);
    static const size_t chunks[] = {64, 1000, 4096};
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
        collector c = {NULL, 0, NULL, 0, 0};
        atd_buf s;
        ck_assert_int_eq(atd_buf_init_sink(&s, collect, &c, chunks[k]), 0);
        c.buf = &s;
        atd_error err;
        ck_assert_int_eq(donut_root_to_json(&root, &s, &err), 0);
        ck_assert_int_eq(atd_buf_flush(&s), 0);
        ck_assert_uint_eq(c.len, mem.len);
        ck_assert_int_eq(memcmp(c.data, mem.data, mem.len), 0);
        ck_assert_uint_eq(c.max_cap, chunks[k]);
        ck_assert_uint_gt(c.calls, mem.len / chunks[k]);
        atd_buf_free(&s);
        free(c.data);
    }
    atd_buf_free(&mem);
    free(name);
}
END_TEST

/* Allocation failure at every point of writing a donut document: NOMEM,
 * the buffer as it was, nothing leaked; then the output once memory is
 * there, identical to a write into a large buffer. */
START_TEST(test_cursor_nomem_mid_record)
{
    donut_item items[3] = {make_item("Cake", 4), make_item("Raised", 6), make_item("Old", 3)};
    donut_root root = {items, 3};
    atd_buf expect;
    atd_buf_init(&expect);
    ck_assert_int_eq(donut_root_to_json(&root, &expect, NULL), 0);
    bool done = false;
    for (long n = 1; n < 100 && !done; n++) {
        test_alloc f;
        atd_allocator al = test_alloc_start(&f, n);
        f.sticky = true;
        atd_buf b;
        atd_buf_init_with(&b, &al);
        atd_error err;
        int rc = donut_root_to_json(&root, &b, &err);
        if (f.failures == 0) {
            ck_assert_int_eq(rc, 0);
            ck_assert_uint_eq(b.len, expect.len);
            ck_assert_int_eq(memcmp(b.data, expect.data, b.len), 0);
            done = true;
        } else {
            ck_assert_int_eq(rc, ATD_ERR_NOMEM);
            ck_assert_int_eq(err.code, ATD_ERR_NOMEM);
            ck_assert_uint_eq(b.len, 0);
        }
        atd_buf_free(&b);
        ck_assert_int_eq(f.live, 0);
    }
    ck_assert(done);
    atd_buf_free(&expect);
}
END_TEST

Suite *write_cursor_suite(void);
Suite *write_cursor_suite(void)
{
    Suite *s = suite_create("write_cursor");
    TCase *tc = tcase_create("cursor");
    tcase_add_loop_test(tc, test_cursor_key_string_rooms, 0, 2);
    tcase_add_test(tc, test_cursor_room_growth);
    tcase_add_test(tc, test_cursor_no_storage);
    tcase_add_test(tc, test_cursor_utf8_mid_run);
    tcase_add_test(tc, test_cursor_nonfinite_after_run);
    tcase_add_test(tc, test_cursor_long_string_small_sink);
    tcase_add_test(tc, test_cursor_nomem_mid_record);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(write_cursor_suite)
