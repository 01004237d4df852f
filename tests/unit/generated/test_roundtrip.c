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
 *     strings, booleans) must be equal exactly;
 *  3. the input rewritten with every object's keys sorted, reversed or
 *     shuffled, escaped or with a space before the colon reads as the same
 *     value (the entries of a map in the order they came in).
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

/* How a producer other than the generated writer may put an object's keys:
 * in another order (sorted by bytes, as jq -S, Go maps or PostgreSQL jsonb
 * write them; reversed, compact or pretty-printed, where an object ends
 * after its first field's value, on a line of its own; shuffled per object,
 * seeded), or in declaration order but in another form (the first byte
 * escaped as \u00XX; a space before the colon). */
enum key_form {
    KEYS_SORTED,
    KEYS_REVERSED,
    KEYS_REVERSED_PRETTY,
    KEYS_SHUFFLED,
    KEYS_ESCAPED,
    KEYS_SPACED,
    KEY_FORMS
};

static const atd_json_member *sorted_members; /* for qsort's comparison */

static int member_order(const void *a, const void *b)
{
    const atd_string *x = &sorted_members[*(const size_t *)a].key;
    const atd_string *y = &sorted_members[*(const size_t *)b].key;
    int c = memcmp(x->ptr, y->ptr, x->len < y->len ? x->len : y->len);
    return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Writes the key k (a string as atd_json_write quotes it) in form f. */
static void write_key(atd_string k, enum key_form f, atd_buf *out)
{
    atd_json key = {ATD_JSON_STRING, {.string = k}};
    size_t at = out->len;
    ck_assert_int_eq(atd_json_write(&key, out, NULL), 0);
    unsigned char c = k.len > 0 ? (unsigned char)out->data[at + 1] : 0;
    if (f == KEYS_ESCAPED && k.len > 0 && c == (unsigned char)k.ptr[0] && c < 0x80 && c != '\\') {
        char esc[8];
        snprintf(esc, sizeof esc, "\\u%04x", c);
        atd_buf tail;
        atd_buf_init(&tail);
        atd_buf_append(&tail, out->data + at + 2, out->len - at - 2);
        out->len = at + 1;
        atd_buf_puts(out, esc);
        atd_buf_append(out, tail.data, tail.len);
        atd_buf_free(&tail);
    }
    atd_buf_puts(out, f == KEYS_SPACED ? " :" : ":");
}

/* In KEYS_REVERSED_PRETTY, a newline and the indentation of depth. */
static void new_line(enum key_form f, int depth, atd_buf *out)
{
    if (f != KEYS_REVERSED_PRETTY)
        return;
    atd_buf_putc(out, '\n');
    for (int i = 0; i < depth; i++)
        atd_buf_puts(out, "  ");
}

static void write_in_form(const atd_json *v, enum key_form f, int depth, uint64_t *rng,
                          atd_buf *out)
{
    if (v->kind == ATD_JSON_ARRAY) {
        atd_buf_putc(out, '[');
        for (size_t i = 0; i < v->u.array.len; i++) {
            if (i > 0)
                atd_buf_putc(out, ',');
            new_line(f, depth + 1, out);
            write_in_form(&v->u.array.items[i], f, depth + 1, rng, out);
        }
        if (v->u.array.len > 0)
            new_line(f, depth, out);
        atd_buf_putc(out, ']');
        return;
    }
    if (v->kind != ATD_JSON_OBJECT) {
        ck_assert_int_eq(atd_json_write(v, out, NULL), 0);
        return;
    }
    size_t n = v->u.object.len;
    const atd_json_member *m = v->u.object.members;
    size_t *order = malloc((n + 1) * sizeof *order);
    ck_assert_ptr_nonnull(order);
    for (size_t i = 0; i < n; i++)
        order[i] = f == KEYS_REVERSED || f == KEYS_REVERSED_PRETTY ? n - 1 - i : i;
    if (f == KEYS_SORTED) {
        sorted_members = m;
        qsort(order, n, sizeof *order, member_order);
    }
    for (size_t i = n; f == KEYS_SHUFFLED && i > 1; i--) {
        size_t j = (size_t)(next_rand(rng) % i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    atd_buf_putc(out, '{');
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            atd_buf_putc(out, ',');
        new_line(f, depth + 1, out);
        write_key(m[order[i]].key, f, out);
        write_in_form(&m[order[i]].value, f, depth + 1, rng, out);
    }
    if (n > 0)
        new_line(f, depth, out);
    atd_buf_putc(out, '}');
    free(order);
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
    /* 3. the input with its keys in any order or form reads as the same value */
    static const char *const forms[KEY_FORMS] = {"sorted",   "reversed", "reversed, pretty",
                                                 "shuffled", "escaped",  "spaced"};
    for (int f = 0; f < KEY_FORMS; f++) {
        uint64_t rng = 0x9e3779b97f4a7c15u;
        atd_buf text;
        atd_buf_init(&text);
        write_in_form(&in, (enum key_form)f, 0, &rng, &text);
        atd_buf_clear(&b2);
        ck_assert_msg(from(text.data, text.len, arena, v2, &err) == 0, "%s, keys %s: %s", name,
                      forms[f], err.message);
        ck_assert_msg(to(v2, &b2, &err) == 0, "%s, keys %s: write: %s", name, forms[f],
                      err.message);
        /* the same value; the entries of a map (an object read as an
         * association list) keep the order they came in */
        atd_json again;
        ck_assert(atd_json_parse(b2.data, b2.len, arena, 0, &again, &err) == 0);
        ck_assert_msg(value_equal(&out, &again, where, sizeof where) &&
                          value_equal(&again, &out, where, sizeof where),
                      "%s, keys %s: %s", name, forms[f], where);
        atd_buf_free(&text);
    }
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
