/* Tests of the generated copy, equality and name functions (emit_value_ops.c,
 * emit_names.c) and of the runtime's value constructors (atd/value.h), on
 * generated/everything.c (every construct of the language, read from
 * tests/conformance/everything_root.json), generated/mapping.c (a <c t>
 * wrap) and generated/adapters.c (atdgen's adapters, on the documents of
 * tests/atdgen_adapters/cases.jsonl).
 *
 * Copies are deep: the source arena and the input are freed before the copy
 * is written and compared, so ASan and valgrind see any part left behind.
 * A copy into an arena whose allocator fails each call in turn returns
 * ATD_ERR_NOMEM and leaves a valid value, still equal to the source. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "test_alloc.h"
#include "test_files.h"
#include "test_main.h"

#include "adapters.h"
#include "defaults.h"
#include "event.h"
#include "everything.h"
#include "mapping.h"

#define ROOT_JSON ATD_SOURCE_DIR "/tests/conformance/everything_root.json"

/* Reads everything_root.json into *v in a new arena (returned). */
static atd_arena *read_root(everything_root *v)
{
    size_t len;
    char *json = test_read_file(ROOT_JSON, &len);
    atd_arena *a = atd_arena_new(0, NULL);
    atd_error err;
    ck_assert_ptr_nonnull(a);
    ck_assert_msg(everything_root_from_json(json, len, a, v, &err) == 0, "%s", err.message);
    free(json);
    return a;
}

/* The compact JSON of v, NUL-terminated (malloc). */
static char *root_json(const everything_root *v)
{
    atd_buf b;
    atd_error err;
    atd_buf_init(&b);
    ck_assert_msg(everything_root_to_json(v, &b, &err) == 0, "%s", err.message);
    char *s = malloc(b.len + 1);
    ck_assert_ptr_nonnull(s);
    memcpy(s, b.data, b.len);
    s[b.len] = '\0';
    atd_buf_free(&b);
    return s;
}

START_TEST(test_copy_outlives_source)
{
    everything_root src, dst;
    atd_arena *from = read_root(&src);
    atd_arena *to = atd_arena_new(16, NULL);
    char *want = root_json(&src);
    ck_assert_int_eq(everything_root_copy(&src, to, &dst), 0);
    ck_assert(everything_root_equal(&src, &dst));
    /* the source's memory is gone: everything the copy reaches is its own */
    atd_arena_free(from);
    char *got = root_json(&dst);
    ck_assert_str_eq(got, want);
    /* and a copy of the copy equals it */
    everything_root again;
    ck_assert_int_eq(everything_root_copy(&dst, to, &again), 0);
    ck_assert(everything_root_equal(&dst, &again));
    free(got);
    free(want);
    atd_arena_free(to);
}
END_TEST

/* src and dst the same value: it moves into the other arena. */
START_TEST(test_copy_in_place)
{
    everything_root v;
    atd_arena *from = read_root(&v);
    atd_arena *to = atd_arena_new(0, NULL);
    char *want = root_json(&v);
    ck_assert_int_eq(everything_root_copy(&v, to, &v), 0);
    atd_arena_free(from);
    char *got = root_json(&v);
    ck_assert_str_eq(got, want);
    free(got);
    free(want);
    atd_arena_free(to);
}
END_TEST

/* Every allocation of the copy fails in turn: ATD_ERR_NOMEM, a value that
 * is still valid and equal to the source, nothing leaked. */
START_TEST(test_copy_nomem)
{
    everything_root src;
    atd_arena *from = read_root(&src);
    long n;
    for (n = 1;; n++) {
        test_alloc t;
        atd_allocator al = test_alloc_start(&t, 0);
        atd_arena *to = atd_arena_new(64, &al);
        ck_assert_ptr_nonnull(to);
        t.fail_at = t.calls + n; /* the copy's nth call, and every later one */
        t.sticky = true;
        everything_root dst;
        int rc = everything_root_copy(&src, to, &dst);
        ck_assert_msg(rc == 0 || rc == ATD_ERR_NOMEM, "call %ld: %d", n, rc);
        ck_assert_msg(everything_root_equal(&src, &dst), "call %ld", n);
        atd_arena_free(to);
        ck_assert_int_eq(t.live, 0);
        if (rc == 0)
            break;
    }
    ck_assert_int_gt(n, 3);
    atd_arena_free(from);
}
END_TEST

/* A copy, then one change anywhere makes the values differ; changing it
 * back makes them equal again. */
START_TEST(test_equal_every_kind)
{
    everything_root x, y;
    atd_arena *a = read_root(&x);
    ck_assert_int_eq(everything_root_copy(&x, a, &y), 0);
    ck_assert(everything_root_equal(&x, &y));
    ck_assert(everything_root_equal(&y, &x));

#define DIFFERS(change, restore)                                                                   \
    do {                                                                                           \
        change;                                                                                    \
        ck_assert_msg(!everything_root_equal(&x, &y), "equal after %s", #change);                 \
        ck_assert_msg(!everything_root_equal(&y, &x), "equal after %s", #change);                 \
        restore;                                                                                   \
        ck_assert_msg(everything_root_equal(&x, &y), "unequal after %s", #restore);               \
    } while (0)

    /* a list's length, an int in it */
    DIFFERS(y.counts.len--, y.counts.len++);
    DIFFERS(y.counts.items[1]++, y.counts.items[1]--);
    /* a string's bytes (copies, so the source is untouched) and its length */
    char *label = (char *)y.label.ptr;
    DIFFERS(label[0] ^= 1, label[0] ^= 1);
    DIFFERS(y.label.len--, y.label.len++);
    /* an enum, a sum's tag and its payload */
    DIFFERS(y.modes.items[0] = EVERYTHING_MODE_ON, y.modes.items[0] = EVERYTHING_MODE_OFF);
    ck_assert_int_eq(y.shapes.items[1].tag, EVERYTHING_SHAPE_CIRCLE);
    DIFFERS(y.shapes.items[1].u.Circle = 3.0, y.shapes.items[1].u.Circle = 2.5);
    DIFFERS(y.shapes.items[1].tag = EVERYTHING_SHAPE_POINT,
            y.shapes.items[1].tag = EVERYTHING_SHAPE_CIRCLE);
    /* a nullary constructor's payload is not compared */
    ck_assert_int_eq(y.shapes.items[0].tag, EVERYTHING_SHAPE_POINT);
    y.shapes.items[0].u.Count = 99;
    ck_assert(everything_root_equal(&x, &y));
    /* an optional field: presence; its value only when present */
    ck_assert(y.fields.has_opt_option);
    DIFFERS(y.fields.has_opt_option = false, y.fields.has_opt_option = true);
    DIFFERS(y.fields.opt_option++, y.fields.opt_option--);
    ck_assert(!y.fields.has_opt_nullable);
    y.fields.opt_nullable.len = 7;
    ck_assert(everything_root_equal(&x, &y));
    /* a nullable and an option: presence, then value */
    DIFFERS(y.fields.req_nullable.has = false, y.fields.req_nullable.has = true);
    DIFFERS(y.fields.def_option.value++, y.fields.def_option.value--);
    /* a tuple cell, a narrow int, a float32 */
    DIFFERS(y.pair.f1 += 1, y.pair.f1 -= 1);
    DIFFERS(y.reprs.c_uint8++, y.reprs.c_uint8--);
    DIFFERS(y.reprs.c_float += 1, y.reprs.c_float -= 1);
    /* an association list: a key, a value */
    ck_assert_uint_gt(y.reprs.assoc_object.len, 0);
    char *key = (char *)y.reprs.assoc_object.items[0].key.ptr;
    DIFFERS(key[0] ^= 1, key[0] ^= 1);
    DIFFERS(y.reprs.assoc_object.items[0].value++, y.reprs.assoc_object.items[0].value--);
    /* an abstract value */
    DIFFERS(y.reprs.raw.kind = ATD_JSON_NULL, y.reprs.raw = x.reprs.raw);
    /* a pointer (recursion): NULL, and the value it points to */
    ck_assert_int_eq(y.tree.tag, EVERYTHING_TREE_NODE);
    everything_tree *left = y.tree.u.Node.f0;
    DIFFERS(y.tree.u.Node.f0 = NULL, y.tree.u.Node.f0 = left);
    DIFFERS(left->tag = (left->tag == EVERYTHING_TREE_LEAF ? EVERYTHING_TREE_NODE
                                                           : EVERYTHING_TREE_LEAF),
            *left = *x.tree.u.Node.f0);
    /* unit always equals unit */
    y.nothing = 1;
    ck_assert(everything_root_equal(&x, &y));
#undef DIFFERS
    atd_arena_free(a);
}
END_TEST

/* A list's copy has items of its own, down to the strings, lists and
 * association lists inside them: changing the source's afterwards leaves
 * the copy as it was, without a sanitizer to see shared memory. */
START_TEST(test_list_copy_is_deep)
{
    everything_root src, dst;
    atd_arena *from = read_root(&src);
    atd_arena *to = atd_arena_new(0, NULL);
    ck_assert_int_eq(everything_root_copy(&src, to, &dst), 0);
    /* items by assignment, by a function, strings, lists of lists */
    ck_assert_ptr_ne(dst.counts.items, src.counts.items);
    ck_assert_ptr_ne(dst.shapes.items, src.shapes.items);
    ck_assert_ptr_ne(dst.fields.def_list.items, src.fields.def_list.items);
    ck_assert_ptr_ne(dst.fields.def_list.items[0].ptr, src.fields.def_list.items[0].ptr);
    ck_assert_ptr_ne(dst.matrix.items[0].items, src.matrix.items[0].items);
    ck_assert_ptr_ne(dst.cube.items[0].items[0].items, src.cube.items[0].items[0].items);
    ck_assert_ptr_ne(dst.values.items, src.values.items);
    /* a list of nullables of strings, an association list: keys and values */
    ck_assert_ptr_ne(dst.options.items[0].nul_list.items[1].value.ptr,
                     src.options.items[0].nul_list.items[1].value.ptr);
    ck_assert_ptr_ne(dst.reprs.assoc_object.items, src.reprs.assoc_object.items);
    ck_assert_ptr_ne(dst.reprs.assoc_object.items[1].key.ptr,
                     src.reprs.assoc_object.items[1].key.ptr);
    ck_assert_ptr_ne(dst.reprs.assoc_nested.items[0].value.items,
                     src.reprs.assoc_nested.items[0].value.items);
    ck_assert_ptr_ne(dst.reprs.assoc_nested.items[0].value.items[0].key.ptr,
                     src.reprs.assoc_nested.items[0].value.items[0].key.ptr);

    /* changes to the source's items do not reach the copy */
    src.counts.items[1] += 10;
    src.matrix.items[0].items[1] += 10;
    ((char *)src.fields.def_list.items[0].ptr)[0] ^= 1;
    ((char *)src.reprs.assoc_object.items[1].key.ptr)[0] ^= 1;
    src.reprs.assoc_nested.items[0].value.items[0].value = false;
    ((char *)src.options.items[0].nul_list.items[1].value.ptr)[0] ^= 1;
    ck_assert(!everything_root_equal(&src, &dst));
    ck_assert_int_eq(dst.counts.items[1], 2);
    ck_assert(dst.matrix.items[0].items[1] == 2.0);
    ck_assert_int_eq(dst.fields.def_list.items[0].ptr[0], 'l');
    ck_assert_int_eq(dst.reprs.assoc_object.items[1].key.ptr[0], 'a');
    ck_assert(dst.reprs.assoc_nested.items[0].value.items[0].value);
    ck_assert_int_eq(dst.options.items[0].nul_list.items[1].value.ptr[0], 'a');
    atd_arena_free(to);
    atd_arena_free(from);
}
END_TEST

/* List equality looks at every item, the last ones too, through each kind
 * of item's own equality, and at the lengths. */
START_TEST(test_list_equal_every_item)
{
    everything_root x, y;
    atd_arena *a = read_root(&x);
    ck_assert_int_eq(everything_root_copy(&x, a, &y), 0);
    ck_assert(everything_root_equal(&x, &y));

#define DIFFERS(change, restore)                                                                   \
    do {                                                                                           \
        change;                                                                                    \
        ck_assert_msg(!everything_root_equal(&x, &y), "equal after %s", #change);                 \
        ck_assert_msg(!everything_root_equal(&y, &x), "equal after %s", #change);                 \
        restore;                                                                                   \
        ck_assert_msg(everything_root_equal(&x, &y), "unequal after %s", #restore);               \
    } while (0)

    /* the last item: by ==, by function, a string's bytes, an abstract value */
    DIFFERS(y.counts.items[y.counts.len - 1]++, y.counts.items[y.counts.len - 1]--);
    DIFFERS(y.levels.items[2] = EVERYTHING_LEVEL_LOW, y.levels.items[2] = x.levels.items[2]);
    DIFFERS(y.shapes.items[y.shapes.len - 1].tag = EVERYTHING_SHAPE_POINT,
            y.shapes.items[y.shapes.len - 1].tag = x.shapes.items[x.shapes.len - 1].tag);
    char *l = (char *)y.fields.def_list.items[0].ptr;
    DIFFERS(l[0] ^= 1, l[0] ^= 1);
    DIFFERS(y.values.items[1].kind = ATD_JSON_NULL, y.values.items[1] = x.values.items[1]);
    /* lists of lists: an inner item, an inner length */
    DIFFERS(y.matrix.items[0].items[1] += 1, y.matrix.items[0].items[1] -= 1);
    DIFFERS(y.matrix.items[0].len--, y.matrix.items[0].len++);
    DIFFERS(y.cube.items[0].items[0].items[0]++, y.cube.items[0].items[0].items[0]--);
    /* a list of options and of nullables: presence, then the value */
    DIFFERS(y.options.items[0].list_opt.items[1].value++,
            y.options.items[0].list_opt.items[1].value--);
    DIFFERS(y.options.items[0].list_opt.items[1].has = false,
            y.options.items[0].list_opt.items[1].has = true);
    char *n = (char *)y.options.items[0].nul_list.items[1].value.ptr;
    DIFFERS(n[0] ^= 1, n[0] ^= 1);
    /* association lists: the second key, a value, a nested value, a length */
    char *k = (char *)y.reprs.assoc_object.items[1].key.ptr;
    DIFFERS(k[0] ^= 1, k[0] ^= 1);
    DIFFERS(y.reprs.assoc_object.items[1].value++, y.reprs.assoc_object.items[1].value--);
    DIFFERS(y.reprs.assoc_nested.items[0].value.items[0].value = false,
            y.reprs.assoc_nested.items[0].value.items[0].value = true);
    DIFFERS(y.reprs.assoc_object.len--, y.reprs.assoc_object.len++);
    /* equal prefixes, different lengths, both ways */
    DIFFERS(y.counts.len--, y.counts.len++);
    DIFFERS(x.counts.len--, x.counts.len++);
#undef DIFFERS
    atd_arena_free(a);
}
END_TEST

/* Floats compare with ==, the writer's rule for defaults: -0.0 equals 0.0
 * (though written "-0.0"), and NaN equals nothing, not even itself. */
START_TEST(test_equal_floats)
{
    everything_rect r = {0.0, 1.0}, s = {-0.0, 1.0};
    ck_assert(everything_rect_equal(&r, &s));
    s.height = 1.0 + 1e-15;
    ck_assert(!everything_rect_equal(&r, &s));
    s.height = 1.0;
    r.width = NAN;
    ck_assert(!everything_rect_equal(&r, &r));
    s.width = NAN;
    ck_assert(!everything_rect_equal(&r, &s));
    /* the same in an abstract value */
    atd_json j = {ATD_JSON_FLOAT, {0}}, k = {ATD_JSON_FLOAT, {0}};
    j.u.number = 0.0;
    k.u.number = -0.0;
    ck_assert(atd_json_equal(&j, &k));
    j.u.number = NAN;
    ck_assert(!atd_json_equal(&j, &j));
    /* float lists, and a copy equals its source unless it holds NaN */
    atd_arena *a = atd_arena_new(0, NULL);
    everything_float_list l, m;
    l.items = ATD_LIST_ALLOC(a, double, 2);
    ck_assert_ptr_nonnull(l.items);
    l.items[0] = -0.0;
    l.items[1] = 2.5;
    l.len = 2;
    ck_assert_int_eq(everything_float_list_copy(&l, a, &m), 0);
    ck_assert_ptr_ne(l.items, m.items);
    ck_assert(everything_float_list_equal(&l, &m));
    ck_assert(signbit(m.items[0]));
    m.items[0] = 0.0;
    ck_assert(everything_float_list_equal(&l, &m));
    m.items[1] = NAN;
    ck_assert(!everything_float_list_equal(&m, &m));
    atd_arena_free(a);
}
END_TEST

/* A <c t> wrap is compared and copied through its wire value (unwrap). */
START_TEST(test_wrap)
{
    atd_arena *a = atd_arena_new(0, NULL);
    mapping_settings s, t;
    mapping_settings_init(&s);
    s.mag = -4; /* unwrap (llabs) gives 4 */
    s.mags.items = ATD_LIST_ALLOC(a, mapping_magnitude, 1);
    ck_assert_ptr_nonnull(s.mags.items);
    s.mags.items[0] = 3;
    s.mags.len = 1;
    ck_assert_int_eq(mapping_settings_copy(&s, a, &t), 0);
    ck_assert(t.mag == -4 && t.mags.items[0] == 3); /* an int: copied by assignment */
    ck_assert_ptr_ne(t.mags.items, s.mags.items);
    ck_assert(mapping_settings_equal(&s, &t));
    t.mag = 4; /* the same wire value */
    ck_assert(mapping_settings_equal(&s, &t));
    t.mags.items[0] = -3;
    ck_assert(mapping_settings_equal(&s, &t));
    t.mags.items[0] = 5;
    ck_assert(!mapping_settings_equal(&s, &t));
    atd_arena_free(a);
}
END_TEST

/* The types behind atdgen's JSON adapters are plain C types: each document
 * that reads, copied, outlives its arena and writes the same bytes. */
START_TEST(test_copy_adapters)
{
    size_t len;
    char *all = test_read_file(ATD_SOURCE_DIR "/tests/atdgen_adapters/cases.jsonl", &len);
    int copied = 0;
    for (char *line = all, *end; *line != '\0'; line = end + 1) {
        end = strchr(line, '\n');
        ck_assert_ptr_nonnull(end);
        atd_arena *from = atd_arena_new(0, NULL), *to = atd_arena_new(0, NULL);
        adapters_doc v, c;
        atd_error err;
        atd_buf want, got;
        atd_buf_init(&want);
        atd_buf_init(&got);
        if (adapters_doc_from_json(line, (size_t)(end - line), from, &v, &err) == 0) {
            ck_assert_int_eq(adapters_doc_to_json(&v, &want, &err), 0);
            ck_assert_int_eq(adapters_doc_copy(&v, to, &c), 0);
            ck_assert(adapters_doc_equal(&v, &c));
            atd_arena_free(from);
            from = NULL;
            ck_assert_int_eq(adapters_doc_to_json(&c, &got, &err), 0);
            ck_assert(got.len == want.len && memcmp(got.data, want.data, got.len) == 0);
            copied++;
        }
        atd_buf_free(&want);
        atd_buf_free(&got);
        atd_arena_free(from);
        atd_arena_free(to);
    }
    ck_assert_int_gt(copied, 10);
    free(all);
}
END_TEST

/* NAMES(T, count): every value below count has a name that of_name maps
 * back to it, count and beyond have none, and of_name rejects the names
 * with a byte added or removed without touching *out. */
#define NAMES(T, count)                                                                            \
    do {                                                                                           \
        for (int v_ = 0; v_ < (int)(count); v_++) {                                                \
            const char *n_ = T##_name((T)v_);                                                      \
            T out_;                                                                                \
            char longer_[64];                                                                      \
            ck_assert_ptr_nonnull(n_);                                                             \
            ck_assert_int_eq(T##_of_name(n_, strlen(n_), &out_), 0);                               \
            ck_assert_int_eq(out_, v_);                                                            \
            out_ = (T)(count);                                                                     \
            ck_assert_uint_lt(strlen(n_), sizeof longer_ - 1);                                     \
            snprintf(longer_, sizeof longer_, "%sx", n_);                                          \
            ck_assert_int_eq(T##_of_name(longer_, strlen(longer_), &out_), ATD_ERR_INVALID);       \
            if (strlen(n_) > 0)                                                                    \
                ck_assert_int_eq(T##_of_name(n_, strlen(n_) - 1, &out_), ATD_ERR_INVALID);         \
            ck_assert_int_eq(out_, (int)(count));                                                  \
        }                                                                                          \
        ck_assert_ptr_null(T##_name((T)(count)));                                                  \
    } while (0)

START_TEST(test_names_round_trip)
{
    NAMES(everything_mode, EVERYTHING_MODE_AUTO + 1);
    NAMES(everything_level, EVERYTHING_LEVEL_HIGH + 1);
    NAMES(everything_union__tag, EVERYTHING_UNION__RIGHT + 1);
    NAMES(everything_shape_tag, EVERYTHING_SHAPE_ANY + 1);
    NAMES(everything_odd_names_tag, EVERYTHING_ODD_NAMES_TRUE + 1);
    NAMES(everything_color_tag, EVERYTHING_COLOR_OTHER + 1);
    NAMES(everything_obj_shape_tag, EVERYTHING_OBJ_SHAPE_INNER + 1);
    NAMES(everything_base_event_tag, EVERYTHING_BASE_EVENT_STOP + 1);
    NAMES(everything_event_tag, EVERYTHING_EVENT_RESUME + 1);
    NAMES(everything_tree_tag, EVERYTHING_TREE_NODE + 1);
    NAMES(everything_expr_tag, EVERYTHING_EXPR_BLOCK + 1);
    NAMES(mapping_color_tag, MAPPING_COLOR_CUSTOM + 1);
    NAMES(event_event_type, EVENT_EVENT_TYPE_CANCEL + 1);
    NAMES(defaults_color, DEFAULTS_COLOR_BLUE + 1);
    NAMES(defaults_shape_tag, DEFAULTS_SHAPE_CIRCLE + 1);
    NAMES(adapters_shape_tag, ADAPTERS_SHAPE_CODE + 1);
    NAMES(adapters_event_tag, ADAPTERS_EVENT_STOP + 1);
    NAMES(adapters_one_tag, ADAPTERS_ONE_BOX + 1);
    NAMES(adapters_codec_shape_tag, ADAPTERS_CODEC_SHAPE_DISC + 1);
    NAMES(adapters_payload_tag, ADAPTERS_PAYLOAD_NOTHING + 1);
    NAMES(adapters_payload2_tag, ADAPTERS_PAYLOAD2_UNKNOWN + 1);
    NAMES(adapters_kind_shape_tag, ADAPTERS_KIND_SHAPE_BLANK + 1);
}
END_TEST

/* The names are the JSON names (<json name> included), the ones the
 * reader accepts. */
START_TEST(test_names_are_json_names)
{
    ck_assert_str_eq(everything_level_name(EVERYTHING_LEVEL_LOW), "low");
    ck_assert_str_eq(everything_level_name(EVERYTHING_LEVEL_MEDIUM), "Medium");
    ck_assert_str_eq(everything_level_name(EVERYTHING_LEVEL_HIGH), "HIGH-level");
    ck_assert_str_eq(everything_shape_tag_name(EVERYTHING_SHAPE_RENAMED), "renamed-shape");
    ck_assert_str_eq(everything_shape_tag_name(EVERYTHING_SHAPE_SHAPE_NAMED_C), "Named");
    ck_assert_str_eq(everything_obj_shape_tag_name(EVERYTHING_OBJ_SHAPE_RENAMED), "re named");
    ck_assert_str_eq(everything_color_tag_name(EVERYTHING_COLOR_BLUE), "blue");
    ck_assert_str_eq(everything_odd_names_tag_name(EVERYTHING_ODD_NAMES_NONE), "None");
    /* each enum name, quoted, is what the reader reads as that value */
    atd_arena *a = atd_arena_new(0, NULL);
    for (int v = 0; v <= EVERYTHING_LEVEL_HIGH; v++) {
        char json[64];
        everything_level got;
        atd_error err;
        snprintf(json, sizeof json, "\"%s\"", everything_level_name((everything_level)v));
        ck_assert_int_eq(everything_level_from_json(json, strlen(json), a, &got, &err), 0);
        ck_assert_int_eq(got, v);
    }
    atd_arena_free(a);
    /* matched exactly: case, the ATD name behind a <json name>, empty */
    everything_level l = EVERYTHING_LEVEL_MEDIUM;
    ck_assert_int_eq(everything_level_of_name("Low", 3, &l), ATD_ERR_INVALID);
    ck_assert_int_eq(everything_level_of_name("High", 4, &l), ATD_ERR_INVALID);
    ck_assert_int_eq(everything_level_of_name("HIGH-LEVEL", 10, &l), ATD_ERR_INVALID);
    ck_assert_int_eq(everything_level_of_name("", 0, &l), ATD_ERR_INVALID);
    ck_assert_int_eq(everything_level_of_name(NULL, 0, &l), ATD_ERR_INVALID);
    ck_assert_int_eq(everything_level_of_name("low\0", 4, &l), ATD_ERR_INVALID);
    ck_assert_int_eq(l, EVERYTHING_LEVEL_MEDIUM);
    ck_assert_int_eq(everything_level_of_name("lowx", 3, &l), 0);
    ck_assert_int_eq(l, EVERYTHING_LEVEL_LOW);
    /* an open enum's catch-all has its constructor's name; other strings
     * are its argument in JSON, not names */
    everything_color_tag c;
    ck_assert_str_eq(everything_color_tag_name(EVERYTHING_COLOR_OTHER), "Other");
    ck_assert_int_eq(everything_color_tag_of_name("mauve", 5, &c), ATD_ERR_INVALID);
    ck_assert_int_eq(everything_color_tag_of_name("Other", 5, &c), 0);
    ck_assert_int_eq(c, EVERYTHING_COLOR_OTHER);
}
END_TEST

/* A value built by hand with the runtime's constructors, copied and
 * compared. */
START_TEST(test_build_by_hand)
{
    atd_arena *a = atd_arena_new(0, NULL);
    everything_with_defaults_list l;
    l.items = ATD_LIST_ALLOC(a, everything_with_defaults, 2);
    ck_assert_ptr_nonnull(l.items);
    ck_assert_uint_eq((uintptr_t)l.items % ATD_ALIGNOF(everything_with_defaults), 0);
    l.len = 2;
    char bytes[] = {'a', '\0', 'b'};
    for (size_t i = 0; i < 2; i++) {
        everything_with_defaults_init(&l.items[i]);
        l.items[i].f0 = (int64_t)i;
        ck_assert_int_eq(atd_string_dup(a, bytes, 3 - i, &l.items[i].f1), 0);
    }
    ck_assert_ptr_ne(l.items[0].f1.ptr, bytes);
    ck_assert_uint_eq(l.items[0].f1.len, 3);
    ck_assert_int_eq(memcmp(l.items[0].f1.ptr, "a\0b", 4), 0); /* NUL-terminated too */
    atd_buf b;
    atd_error err;
    atd_buf_init(&b);
    ck_assert_int_eq(everything_with_defaults_list_to_json(&l, &b, &err), 0);
    atd_buf_append(&b, "", 1);
    ck_assert_str_eq(b.data, "[[0,\"a\\u0000b\",0,1.5],[1,\"a\\u0000\",0,1.5]]");
    atd_buf_free(&b);
    /* the empty string and the empty list */
    atd_string e;
    ck_assert_int_eq(atd_string_dup(a, NULL, 0, &e), 0);
    ck_assert_uint_eq(e.len, 0);
    ck_assert_ptr_nonnull(ATD_LIST_ALLOC(a, everything_with_defaults, 0));
    /* sizes that overflow, alignments the arena refuses */
    ck_assert_ptr_null(atd_list_alloc(a, SIZE_MAX / 2 + 1, 2, 1));
    ck_assert_ptr_null(atd_list_alloc(a, 1, 8, 3));
    /* atd_string_dup on its own bytes moves them to another arena */
    atd_arena *b2 = atd_arena_new(0, NULL);
    atd_string s = l.items[0].f1, want = {"a\0b", 3};
    ck_assert_int_eq(atd_string_dup(b2, s.ptr, s.len, &s), 0);
    ck_assert(atd_string_equal(&s, &want));
    want.len = 2;
    ck_assert(!atd_string_equal(&s, &want));
    everything_with_defaults_list copy;
    ck_assert_int_eq(everything_with_defaults_list_copy(&l, b2, &copy), 0);
    ck_assert(everything_with_defaults_list_equal(&l, &copy));
    atd_arena_free(a);
    ck_assert_uint_eq(copy.len, 2);
    ck_assert_uint_eq(copy.items[1].f1.len, 2);
    ck_assert_int_eq(memcmp(copy.items[1].f1.ptr, "a\0", 3), 0);
    ck_assert(everything_with_defaults_list_equal(&copy, &copy));
    atd_arena_free(b2);
}
END_TEST

/* atd_json_copy: deep, iterative (nesting far beyond 32 levels), keys and
 * BIGINT text copied. */
START_TEST(test_json_copy)
{
    atd_arena *a = atd_arena_new(0, NULL);
    atd_arena *b = atd_arena_new(0, NULL);
    size_t depth = 1000, n = 0;
    char *doc = malloc(depth * 8 + 64);
    ck_assert_ptr_nonnull(doc);
    for (size_t i = 0; i < depth; i++) {
        memcpy(doc + n, "{\"k\":[", 6);
        n += 6;
    }
    n += (size_t)sprintf(doc + n, "1e999,\"s\",-0.0");
    for (size_t i = 0; i < depth; i++) {
        memcpy(doc + n, "]}", 2);
        n += 2;
    }
    atd_json v, c;
    atd_error err;
    atd_reader r;
    atd_reader_init(&r, doc, n, a, 0);
    r.max_depth = 2 * (unsigned)depth + 2;
    ck_assert_msg(atd_json_read(&r, &v), "%s", r.err_detail);
    ck_assert_int_eq(atd_json_copy(&v, b, &c), 0);
    free(doc);
    atd_arena_free(a);
    atd_buf out;
    atd_buf_init(&out);
    ck_assert_int_eq(atd_json_write(&c, &out, &err), 0);
    ck_assert_uint_eq(out.len, n);
    ck_assert(atd_json_equal(&c, &c));
    atd_buf_free(&out);
    atd_arena_free(b);
}
END_TEST

static Suite *value_ops_suite(void)
{
    Suite *s = suite_create("value_ops");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_copy_outlives_source);
    tcase_add_test(tc, test_copy_in_place);
    tcase_add_test(tc, test_copy_nomem);
    tcase_add_test(tc, test_equal_every_kind);
    tcase_add_test(tc, test_list_copy_is_deep);
    tcase_add_test(tc, test_list_equal_every_item);
    tcase_add_test(tc, test_equal_floats);
    tcase_add_test(tc, test_wrap);
    tcase_add_test(tc, test_copy_adapters);
    tcase_add_test(tc, test_names_round_trip);
    tcase_add_test(tc, test_names_are_json_names);
    tcase_add_test(tc, test_build_by_hand);
    tcase_add_test(tc, test_json_copy);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(value_ops_suite)
