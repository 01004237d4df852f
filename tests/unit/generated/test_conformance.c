/* JSONTestSuite through GENERATED code (schemas/conformance.atd), and the
 * documented outcome of every implementation-defined case.
 *
 * The generic parser's side is in test_json.c: every y_ file parses and
 * writes back, every n_ file is rejected (test_json_suite_y/_n). Here:
 *
 *  - y_: each document is read by the generated reader of the most specific
 *    conformance.atd type its shape fits (an array of integers as `ints`, an
 *    object of strings as `string_map`, ...; fitting_type() below), and also
 *    by `any` (abstract) and `anys`/`any_map` for arrays/objects, then written
 *    back. The output must be VALUE-equal to the input: both are parsed with
 *    atd_json_parse and compared with atd_json_equal (kinds, values, member
 *    order and duplicates). Since the typed writers and the generic writer
 *    follow the same rules, the bytes must also be exactly what atd_json_write
 *    gives for the input's tree, and writing is a fixpoint. One normalization,
 *    on purpose: an array of integers is also read as `floats` (atdgen
 *    accepts an int for a float); its expected tree is the input with every
 *    integer turned into the float of the same value (`[1]` -> `[1.0]`).
 *  - n_: rejected by every generated reader of conformance.atd, not only by
 *    the generic parser: no type-directed reader accepts invalid JSON.
 *  - i_ and test_transform: the outcome of each file (generic parser strict
 *    and lenient, then writer; one generated typed reader and its writer) is
 *    computed and compared with the tables below, and the tables are
 *    rendered as markdown and compared with the blocks between the markers
 *    in docs/conformance.md, so the doc cannot drift from what the code
 *    does. A mismatch prints the block to paste. */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_main.h"
#include "test_files.h"

#include "atd/json.h"
#include "conformance.h"

#define PARSING_DIR ATD_SHARED_DIR "/data/jsontestsuite/test_parsing"
#define TRANSFORM_DIR ATD_SHARED_DIR "/data/jsontestsuite/test_transform"
#define DOC_PATH ATD_SOURCE_DIR "/docs/conformance.md"

/* --- the generated types, behind one interface --- */

/* Room for a value of any conformance.atd type. */
typedef union any_value {
    conformance_any any;
    conformance_int_value int_value;
    conformance_float_value float_value;
    conformance_string_value string_value;
    conformance_bool_value bool_value;
    conformance_null_value null_value;
    conformance_ints ints;
    conformance_floats floats;
    conformance_strings strings;
    conformance_bools bools;
    conformance_nulls nulls;
    conformance_maybe_ints maybe_ints;
    conformance_anys anys;
    conformance_matrix matrix;
    conformance_string_map string_map;
    conformance_int_map int_map;
    conformance_any_map any_map;
    conformance_objects objects;
} any_value;

typedef struct codec {
    const char *type;
    /* the generated entry point users call (strict, default flags) */
    int (*from_json)(const char *json, size_t len, atd_arena *arena, any_value *out, atd_error *err);
    /* the generated reader proper, for other flags */
    bool (*read)(atd_reader *r, any_value *out);
    int (*to_json)(const any_value *v, atd_buf *out, atd_error *err);
} codec;

#define CODEC_FUNCTIONS(ty)                                                                    \
    static int from_json_##ty(const char *json, size_t len, atd_arena *arena, any_value *out, \
                              atd_error *err)                                                  \
    {                                                                                          \
        return conformance_##ty##_from_json(json, len, arena, &out->ty, err);                  \
    }                                                                                          \
    static bool read_##ty(atd_reader *r, any_value *out)                                       \
    {                                                                                          \
        return conformance_##ty##_read(r, &out->ty);                                           \
    }                                                                                          \
    static int to_json_##ty(const any_value *v, atd_buf *out, atd_error *err)                  \
    {                                                                                          \
        return conformance_##ty##_to_json(&v->ty, out, err);                                   \
    }

CODEC_FUNCTIONS(any)
CODEC_FUNCTIONS(int_value)
CODEC_FUNCTIONS(float_value)
CODEC_FUNCTIONS(string_value)
CODEC_FUNCTIONS(bool_value)
CODEC_FUNCTIONS(null_value)
CODEC_FUNCTIONS(ints)
CODEC_FUNCTIONS(floats)
CODEC_FUNCTIONS(strings)
CODEC_FUNCTIONS(bools)
CODEC_FUNCTIONS(nulls)
CODEC_FUNCTIONS(maybe_ints)
CODEC_FUNCTIONS(anys)
CODEC_FUNCTIONS(matrix)
CODEC_FUNCTIONS(string_map)
CODEC_FUNCTIONS(int_map)
CODEC_FUNCTIONS(any_map)
CODEC_FUNCTIONS(objects)

#define CODEC(ty) {#ty, from_json_##ty, read_##ty, to_json_##ty}

/* Every type of conformance.atd. */
static const codec codecs[] = {
    CODEC(any),      CODEC(int_value),  CODEC(float_value), CODEC(string_value), CODEC(bool_value),
    CODEC(null_value), CODEC(ints),     CODEC(floats),      CODEC(strings),      CODEC(bools),
    CODEC(nulls),    CODEC(maybe_ints), CODEC(anys),        CODEC(matrix),       CODEC(string_map),
    CODEC(int_map),  CODEC(any_map),    CODEC(objects),
};
enum { N_CODECS = sizeof codecs / sizeof codecs[0] };

static const codec *codec_named(const char *type)
{
    for (size_t i = 0; i < N_CODECS; i++)
        if (strcmp(codecs[i].type, type) == 0)
            return &codecs[i];
    ck_abort_msg("no type %s in conformance.atd", type);
    return NULL;
}

/* Reads with the generated reader: from_json for the default flags (the
 * path users take), the reader with atd_read_end otherwise. */
static int codec_read(const codec *c, const char *json, size_t len, atd_arena *arena,
                      unsigned flags, any_value *out, atd_error *err)
{
    if (flags == 0)
        return c->from_json(json, len, arena, out, err);
    atd_reader r;
    atd_reader_init(&r, json, len, arena, flags);
    if (c->read(&r, out) && atd_read_end(&r))
        return 0;
    int rc = atd_reader_get_error(&r, err);
    return rc != 0 ? rc : (int)ATD_ERR_INVALID;
}

/* --- y_: generated round trips --- */

static bool all_kind(const atd_json *array, atd_json_kind a, atd_json_kind b)
{
    for (size_t i = 0; i < array->u.array.len; i++)
        if (array->u.array.items[i].kind != a && array->u.array.items[i].kind != b)
            return false;
    return true;
}

static bool all_values_kind(const atd_json *object, atd_json_kind k)
{
    for (size_t i = 0; i < object->u.object.len; i++)
        if (object->u.object.members[i].value.kind != k)
            return false;
    return true;
}

/* The most specific conformance.atd type that reads `v` without changing its
 * value (so ints are never read as floats here; see the normalization in the
 * header). */
static const char *fitting_type(const atd_json *v)
{
    switch (v->kind) {
    case ATD_JSON_NULL:
        return "null_value";
    case ATD_JSON_BOOL:
        return "bool_value";
    case ATD_JSON_INT:
        return "int_value";
    case ATD_JSON_FLOAT:
        return "float_value";
    case ATD_JSON_STRING:
        return "string_value";
    case ATD_JSON_BIGINT:
        return "any"; /* outside int64: only the generic value keeps it */
    case ATD_JSON_ARRAY: {
        static const struct {
            atd_json_kind a, b;
            const char *type;
        } arrays[] = {
            {ATD_JSON_INT, ATD_JSON_INT, "ints"},       {ATD_JSON_FLOAT, ATD_JSON_FLOAT, "floats"},
            {ATD_JSON_STRING, ATD_JSON_STRING, "strings"}, {ATD_JSON_BOOL, ATD_JSON_BOOL, "bools"},
            {ATD_JSON_NULL, ATD_JSON_NULL, "nulls"},    {ATD_JSON_INT, ATD_JSON_NULL, "maybe_ints"},
            {ATD_JSON_OBJECT, ATD_JSON_OBJECT, "objects"}, {ATD_JSON_ARRAY, ATD_JSON_ARRAY, "matrix"},
        };
        for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
            if (all_kind(v, arrays[i].a, arrays[i].b))
                return arrays[i].type;
        return "anys";
    }
    case ATD_JSON_OBJECT:
        if (all_values_kind(v, ATD_JSON_STRING))
            return "string_map";
        if (all_values_kind(v, ATD_JSON_INT))
            return "int_map";
        return "any_map";
    }
    return "any";
}

/* How many y_ documents each type read (indexed like codecs[]). */
static size_t type_uses[N_CODECS];

/* Reads `json` with `c`, writes it, and checks the output against `expect`:
 * value-equal, byte-equal to the generic writer's output for `expect` (when
 * `exact_bytes`: not for the normalized reading), and a fixpoint through the
 * same type. */
static void typed_roundtrip(const char *name, const codec *c, const char *json, size_t len,
                            const atd_json *expect, bool exact_bytes)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    ck_assert_ptr_nonnull(arena);
    any_value v, again;
    atd_error err;
    int rc = codec_read(c, json, len, arena, 0, &v, &err);
    ck_assert_msg(rc == 0, "%s as %s: %s", name, c->type, err.message);
    atd_buf out, generic, second;
    atd_buf_init(&out);
    atd_buf_init(&generic);
    atd_buf_init(&second);
    ck_assert_msg(c->to_json(&v, &out, &err) == 0, "%s as %s: write: %s", name, c->type,
                  err.message);

    atd_json got;
    rc = atd_json_parse(out.data, out.len, arena, 0, &got, &err);
    ck_assert_msg(rc == 0, "%s as %s wrote invalid JSON: %s", name, c->type, err.message);
    ck_assert_msg(atd_json_equal(expect, &got), "%s as %s: value changed: %.*s", name, c->type,
                  (int)out.len, out.data);

    ck_assert_int_eq(atd_json_write(expect, &generic, NULL), 0);
    ck_assert_msg(!exact_bytes || (generic.len == out.len && memcmp(generic.data, out.data, out.len) == 0),
                  "%s as %s: %.*s, generic writer: %.*s", name, c->type, (int)out.len, out.data,
                  (int)generic.len, generic.data);

    ck_assert_int_eq(codec_read(c, out.data, out.len, arena, 0, &again, &err), 0);
    ck_assert_int_eq(c->to_json(&again, &second, &err), 0);
    ck_assert(second.len == out.len && memcmp(second.data, out.data, out.len) == 0);

    type_uses[c - codecs]++;
    atd_buf_free(&second);
    atd_buf_free(&generic);
    atd_buf_free(&out);
    atd_arena_free(arena);
}

/* The normalization of the `floats` reading: integers become floats. */
static void ints_to_floats(atd_json *array)
{
    for (size_t i = 0; i < array->u.array.len; i++) {
        atd_json *item = &array->u.array.items[i];
        item->u.number = (double)item->u.integer;
        item->kind = ATD_JSON_FLOAT;
    }
}

static void check_y(const char *path, const char *name)
{
    size_t len;
    char *json = test_read_file(path, &len);
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json expect;
    atd_error err;
    ck_assert_msg(atd_json_parse(json, len, arena, 0, &expect, &err) == 0, "%s: %s", name,
                  err.message);
    const char *type = fitting_type(&expect);
    typed_roundtrip(name, codec_named(type), json, len, &expect, true);
    if (strcmp(type, "any") != 0)
        typed_roundtrip(name, codec_named("any"), json, len, &expect, true);
    if (expect.kind == ATD_JSON_ARRAY && strcmp(type, "anys") != 0)
        typed_roundtrip(name, codec_named("anys"), json, len, &expect, true);
    if (expect.kind == ATD_JSON_OBJECT && strcmp(type, "any_map") != 0)
        typed_roundtrip(name, codec_named("any_map"), json, len, &expect, true);
    if (strcmp(type, "ints") == 0) {
        ints_to_floats(&expect);
        typed_roundtrip(name, codec_named("floats"), json, len, &expect, false);
    }
    atd_arena_free(arena);
    free(json);
}

START_TEST(test_conformance_y_generated)
{
    memset(type_uses, 0, sizeof type_uses);
    ck_assert_uint_gt(test_for_each_json(PARSING_DIR, "y_", check_y), 90);
    /* the shapes of the suite reach every type but `objects` (no y_ file is
     * an array of objects): that one is read from a document of our own */
    static const char objects[] = "[{\"a\":[1,{}]},{},{\"b\":null,\"b\":\"x\"}]";
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json expect;
    ck_assert_int_eq(atd_json_parse(objects, strlen(objects), arena, 0, &expect, NULL), 0);
    ck_assert_str_eq(fitting_type(&expect), "objects");
    typed_roundtrip("objects", codec_named("objects"), objects, strlen(objects), &expect, true);
    atd_arena_free(arena);
    for (size_t i = 0; i < N_CODECS; i++)
        ck_assert_msg(type_uses[i] > 0, "no document was read as %s", codecs[i].type);
}
END_TEST

/* --- n_: rejected by every generated reader --- */

static void check_n(const char *path, const char *name)
{
    size_t len;
    char *json = test_read_file(path, &len);
    for (size_t i = 0; i < N_CODECS; i++) {
        atd_arena *arena = atd_arena_new(0, NULL);
        any_value v;
        atd_error err;
        int rc = codec_read(&codecs[i], json, len, arena, 0, &v, &err);
        ck_assert_msg(rc != 0, "%s accepted as %s", name, codecs[i].type);
        ck_assert_msg((int)err.code == rc && err.line > 0 && strlen(err.message) > 0,
                      "%s as %s: unclear error", name, codecs[i].type);
        atd_arena_free(arena);
    }
    free(json);
}

START_TEST(test_conformance_n_generated)
{
    ck_assert_uint_gt(test_for_each_json(PARSING_DIR, "n_", check_n), 150);
}
END_TEST

/* --- documented outcomes: i_ and test_transform --- */

/* One documented case: the file, the type its typed reading uses, the
 * expected cells (see outcome()) and a note for the reader of the doc. */
typedef struct doc_case {
    const char *file;
    const char *strict;  /* generic parser, default flags, then writer */
    const char *lenient; /* generic parser, ATD_READ_LENIENT, then writer */
    const char *type;    /* a conformance.atd type of the document's shape */
    const char *typed;   /* its generated reader (default flags), then writer */
    const char *note;
} doc_case;

/* Outputs up to this length are quoted in the doc; longer ones are counted. */
enum { QUOTE_MAX = 48 };

/* The doc's cell for one read + write: "`OUTPUT`", "written, N bytes",
 * "read; write error CODE" or "error CODE". */
static void outcome(char *cell, size_t size, int read_rc, int write_rc, const atd_buf *out)
{
    if (read_rc != 0) {
        snprintf(cell, size, "error %s", atd_error_code_name((atd_error_code)read_rc));
        return;
    }
    if (write_rc != 0) {
        snprintf(cell, size, "read; write error %s", atd_error_code_name((atd_error_code)write_rc));
        return;
    }
    /* markdown: no pipe or backtick inside a code span of a table */
    bool quotable = out->len <= QUOTE_MAX;
    for (size_t i = 0; quotable && i < out->len; i++)
        quotable = out->data[i] != '|' && out->data[i] != '`';
    if (quotable)
        snprintf(cell, size, "`%.*s`", (int)out->len, out->data);
    else
        snprintf(cell, size, "written, %zu bytes", out->len);
}

/* Generic parser + writer; the generated `any` (abstract) reader must give
 * the same outcome. */
static void generic_outcome(const char *name, const char *json, size_t len, unsigned flags,
                            char *cell, size_t size)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_json v;
    atd_buf out;
    atd_buf_init(&out);
    int rc = atd_json_parse(json, len, arena, flags, &v, NULL);
    int wrc = rc == 0 ? atd_json_write(&v, &out, NULL) : 0;
    outcome(cell, size, rc, wrc, &out);

    any_value g;
    atd_buf gout;
    atd_buf_init(&gout);
    const codec *any = codec_named("any");
    int grc = codec_read(any, json, len, arena, flags, &g, NULL);
    int gwrc = grc == 0 ? any->to_json(&g, &gout, NULL) : 0;
    char gcell[128];
    outcome(gcell, sizeof gcell, grc, gwrc, &gout);
    ck_assert_msg(strcmp(cell, gcell) == 0, "%s: generic %s, generated any %s", name, cell, gcell);
    atd_buf_free(&gout);
    atd_buf_free(&out);
    atd_arena_free(arena);
}

static void typed_outcome(const char *json, size_t len, const char *type, char *cell, size_t size)
{
    const codec *c = codec_named(type);
    atd_arena *arena = atd_arena_new(0, NULL);
    any_value v;
    atd_buf out;
    atd_buf_init(&out);
    int rc = codec_read(c, json, len, arena, 0, &v, NULL);
    int wrc = rc == 0 ? c->to_json(&v, &out, NULL) : 0;
    outcome(cell, size, rc, wrc, &out);
    atd_buf_free(&out);
    atd_arena_free(arena);
}

/* Computes the three cells of `dc` from its file and compares them. */
static void check_case(const char *dir, const doc_case *dc)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, dc->file);
    size_t len;
    char *json = test_read_file(path, &len);
    char strict[128], lenient[128], typed[128];
    generic_outcome(dc->file, json, len, 0, strict, sizeof strict);
    generic_outcome(dc->file, json, len, ATD_READ_LENIENT, lenient, sizeof lenient);
    typed_outcome(json, len, dc->type, typed, sizeof typed);
    ck_assert_msg(strcmp(strict, dc->strict) == 0, "%s: strict gives %s, table says %s", dc->file,
                  strict, dc->strict);
    ck_assert_msg(strcmp(lenient, dc->lenient) == 0, "%s: lenient gives %s, table says %s",
                  dc->file, lenient, dc->lenient);
    ck_assert_msg(strcmp(typed, dc->typed) == 0, "%s: %s gives %s, table says %s", dc->file,
                  dc->type, typed, dc->typed);
    free(json);
}

/* A growing string for the rendered markdown. */
typedef struct text {
    char *p;
    size_t len;
} text;

static void append(text *t, const char *s)
{
    size_t n = strlen(s);
    char *q = realloc(t->p, t->len + n + 1);
    ck_assert_ptr_nonnull(q);
    memcpy(q + t->len, s, n + 1);
    t->p = q;
    t->len += n;
}

/* The markdown table of `cases`, as docs/conformance.md must hold it
 * between "<!-- BEGIN marker -->" and "<!-- END marker -->". */
static text render(const doc_case *cases, size_t n)
{
    text t = {0};
    append(&t, "| File | Generic, strict | Generic, lenient | Type | Generated reader | Why |\n"
               "| --- | --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < n; i++) {
        char row[1024];
        snprintf(row, sizeof row, "| `%s` | %s | %s | `%s` | %s | %s |\n", cases[i].file,
                 cases[i].strict, cases[i].lenient, cases[i].type, cases[i].typed, cases[i].note);
        append(&t, row);
    }
    return t;
}

static void check_doc_block(const char *marker, const doc_case *cases, size_t n)
{
    size_t len;
    char *doc = test_read_file(DOC_PATH, &len);
    char begin[128], end[128];
    snprintf(begin, sizeof begin, "<!-- BEGIN %s -->\n", marker);
    snprintf(end, sizeof end, "<!-- END %s -->", marker);
    const char *b = strstr(doc, begin);
    ck_assert_msg(b != NULL, "docs/conformance.md: no %s", begin);
    b += strlen(begin);
    const char *e = strstr(b, end);
    ck_assert_msg(e != NULL, "docs/conformance.md: no %s", end);
    text want = render(cases, n);
    bool same = (size_t)(e - b) == want.len && memcmp(b, want.p, want.len) == 0;
    /* the block goes to stderr: Check limits the length of its messages */
    if (!same)
        fprintf(stderr, "docs/conformance.md, table %s, must be:\n%s", marker, want.p);
    ck_assert_msg(same, "docs/conformance.md: table %s differs (the right one is on stderr)",
                  marker);
    free(want.p);
    free(doc);
}

/* Every file of dir with the prefix is in the table (and conversely, since
 * check_case opens each file of the table). */
static void check_listed(const char *dir, const char *prefix, const doc_case *cases, size_t n)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        bool found = false;
        for (size_t i = 0; !found && i < n; i++)
            found = strcmp(cases[i].file, e->d_name) == 0;
        ck_assert_msg(found, "%s/%s has no documented outcome", dir, e->d_name);
        count++;
    }
    closedir(d);
    ck_assert_uint_eq(count, n);
}

#define OVERFLOW                                                                              \
    "beyond double: the generic value keeps the text and writes it back; a `float` field reads " \
    "infinity, which JSON cannot write"
#define SURROGATE "lone surrogate escape; lenient mode keeps its 3-byte form, which is not UTF-8"
#define BAD_UTF8 "not UTF-8; lenient mode keeps the bytes, the writer refuses them"
#define NOT_UTF8_INPUT "input is not UTF-8 text: no encoding detection, no BOM"

static const doc_case i_cases[] = {
    {"i_number_double_huge_neg_exp.json", "`[0.0]`", "`[0.0]`", "floats", "`[0.0]`",
     "underflows to 0"},
    {"i_number_huge_exp.json", "written, 137 bytes", "written, 137 bytes",
     "floats", "read; write error NONFINITE", OVERFLOW},
    {"i_number_neg_int_huge_exp.json", "`[-1e+9999]`", "`[-1e+9999]`",
     "floats", "read; write error NONFINITE", OVERFLOW},
    {"i_number_pos_double_huge_exp.json", "`[1.5e+9999]`", "`[1.5e+9999]`",
     "floats", "read; write error NONFINITE", OVERFLOW},
    {"i_number_real_neg_overflow.json", "`[-123123e100000]`", "`[-123123e100000]`",
     "floats", "read; write error NONFINITE", OVERFLOW},
    {"i_number_real_pos_overflow.json", "`[123123e100000]`", "`[123123e100000]`",
     "floats", "read; write error NONFINITE", OVERFLOW},
    {"i_number_real_underflow.json", "`[0.0]`", "`[0.0]`", "floats", "`[0.0]`", "underflows to 0"},
    {"i_number_too_big_neg_int.json", "`[-123123123123123123123123123123]`",
     "`[-123123123123123123123123123123]`", "ints", "error RANGE",
     "outside int64: the generic value keeps the text, an `int` field refuses it"},
    {"i_number_too_big_pos_int.json", "`[100000000000000000000]`", "`[100000000000000000000]`",
     "ints", "error RANGE", "outside int64: as above"},
    {"i_number_very_big_negative_int.json", "written, 51 bytes", "written, 51 bytes", "ints",
     "error RANGE", "outside int64: as above"},
    {"i_object_key_lone_2nd_surrogate.json", "error STRING", "read; write error UTF8", "int_map",
     "error STRING", SURROGATE},
    {"i_string_1st_surrogate_but_2nd_missing.json", "error STRING", "read; write error UTF8",
     "strings", "error STRING", SURROGATE},
    {"i_string_1st_valid_surrogate_2nd_invalid.json", "error STRING", "read; write error UTF8",
     "strings", "error STRING", SURROGATE},
    {"i_string_UTF-16LE_with_BOM.json", "error SYNTAX", "error SYNTAX", "strings", "error SYNTAX",
     NOT_UTF8_INPUT},
    {"i_string_UTF-8_invalid_sequence.json", "error UTF8", "read; write error UTF8", "strings",
     "error UTF8", BAD_UTF8},
    {"i_string_UTF8_surrogate_U+D800.json", "error UTF8", "read; write error UTF8", "strings",
     "error UTF8", "a surrogate encoded in UTF-8 (CESU) is not UTF-8"},
    {"i_string_incomplete_surrogate_and_escape_valid.json", "error STRING", "read; write error UTF8",
     "strings", "error STRING", SURROGATE},
    {"i_string_incomplete_surrogate_pair.json", "error STRING", "read; write error UTF8", "strings",
     "error STRING", SURROGATE},
    {"i_string_incomplete_surrogates_escape_valid.json", "error STRING", "read; write error UTF8",
     "strings", "error STRING", SURROGATE},
    {"i_string_invalid_lonely_surrogate.json", "error STRING", "read; write error UTF8", "strings",
     "error STRING", SURROGATE},
    {"i_string_invalid_surrogate.json", "error STRING", "read; write error UTF8", "strings",
     "error STRING", SURROGATE},
    {"i_string_invalid_utf-8.json", "error UTF8", "read; write error UTF8", "strings", "error UTF8",
     BAD_UTF8},
    {"i_string_inverted_surrogates_U+1D11E.json", "error STRING", "read; write error UTF8",
     "strings", "error STRING", SURROGATE},
    {"i_string_iso_latin_1.json", "error UTF8", "read; write error UTF8", "strings", "error UTF8",
     BAD_UTF8},
    {"i_string_lone_second_surrogate.json", "error STRING", "read; write error UTF8", "strings",
     "error STRING", SURROGATE},
    {"i_string_lone_utf8_continuation_byte.json", "error UTF8", "read; write error UTF8", "strings",
     "error UTF8", BAD_UTF8},
    {"i_string_not_in_unicode_range.json", "error UTF8", "read; write error UTF8", "strings",
     "error UTF8", "beyond U+10FFFF: not UTF-8"},
    {"i_string_overlong_sequence_2_bytes.json", "error UTF8", "read; write error UTF8", "strings",
     "error UTF8", "overlong form: not UTF-8"},
    {"i_string_overlong_sequence_6_bytes.json", "error UTF8", "read; write error UTF8", "strings",
     "error UTF8", "overlong form: not UTF-8"},
    {"i_string_overlong_sequence_6_bytes_null.json", "error UTF8", "read; write error UTF8",
     "strings", "error UTF8", "overlong form: not UTF-8"},
    {"i_string_truncated-utf-8.json", "error UTF8", "read; write error UTF8", "strings",
     "error UTF8", BAD_UTF8},
    {"i_string_utf16BE_no_BOM.json", "error SYNTAX", "error SYNTAX", "strings", "error SYNTAX",
     NOT_UTF8_INPUT},
    {"i_string_utf16LE_no_BOM.json", "error SYNTAX", "error SYNTAX", "strings", "error SYNTAX",
     NOT_UTF8_INPUT},
    {"i_structure_500_nested_arrays.json", "written, 1000 bytes", "written, 1000 bytes", "matrix",
     "written, 1000 bytes", "within the default depth limit of 1024"},
    {"i_structure_UTF-8_BOM_empty_object.json", "error SYNTAX", "error SYNTAX", "any_map",
     "error SYNTAX", "a BOM is not JSON: rejected, also in lenient mode"},
};

#define BIGINT_KEPT "outside int64: kept as text by the generic value, refused by `int`"
#define DUPLICATES "duplicate keys kept, in order, as the generic value keeps members; a record keeps the last"
#define NFC_NFD "keys compared as bytes: no Unicode normalization"

static const doc_case transform_cases[] = {
    {"number_-9223372036854775808.json", "`[-9223372036854775808]`", "`[-9223372036854775808]`",
     "ints", "`[-9223372036854775808]`", "INT64_MIN fits"},
    {"number_-9223372036854775809.json", "`[-9223372036854775809]`", "`[-9223372036854775809]`",
     "ints", "error RANGE", BIGINT_KEPT},
    {"number_1.0.json", "`[1.0]`", "`[1.0]`", "ints", "error TYPE",
     "a float, not an int (atdgen rejects `2.0` for an int too)"},
    {"number_1.000000000000000005.json", "`[1.0]`", "`[1.0]`", "floats", "`[1.0]`",
     "nearest double"},
    {"number_1000000000000000.json", "`[1000000000000000]`", "`[1000000000000000]`", "ints",
     "`[1000000000000000]`", "an integer literal stays an integer"},
    {"number_10000000000000000999.json", "`[10000000000000000999]`", "`[10000000000000000999]`",
     "ints", "error RANGE", BIGINT_KEPT},
    {"number_1e-999.json", "`[0.0]`", "`[0.0]`", "floats", "`[0.0]`", "underflows to 0"},
    {"number_1e6.json", "`[1000000.0]`", "`[1000000.0]`", "ints", "error TYPE",
     "an exponent makes a float; written in yojson's `%.16g` form with `.0`"},
    {"number_9223372036854775807.json", "`[9223372036854775807]`", "`[9223372036854775807]`",
     "ints", "`[9223372036854775807]`", "INT64_MAX fits"},
    {"number_9223372036854775808.json", "`[9223372036854775808]`", "`[9223372036854775808]`",
     "ints", "error RANGE", BIGINT_KEPT},
    {"object_key_nfc_nfd.json", "`{\"\xc3\xa9\":\"NFC\",\"e\xcc\x81\":\"NFD\"}`",
     "`{\"\xc3\xa9\":\"NFC\",\"e\xcc\x81\":\"NFD\"}`", "string_map",
     "`{\"\xc3\xa9\":\"NFC\",\"e\xcc\x81\":\"NFD\"}`", NFC_NFD},
    {"object_key_nfd_nfc.json", "`{\"e\xcc\x81\":\"NFD\",\"\xc3\xa9\":\"NFC\"}`",
     "`{\"e\xcc\x81\":\"NFD\",\"\xc3\xa9\":\"NFC\"}`", "string_map",
     "`{\"e\xcc\x81\":\"NFD\",\"\xc3\xa9\":\"NFC\"}`", NFC_NFD},
    {"object_same_key_different_values.json", "`{\"a\":1,\"a\":2}`", "`{\"a\":1,\"a\":2}`",
     "int_map", "`{\"a\":1,\"a\":2}`", DUPLICATES},
    {"object_same_key_same_value.json", "`{\"a\":1,\"a\":1}`", "`{\"a\":1,\"a\":1}`", "int_map",
     "`{\"a\":1,\"a\":1}`", DUPLICATES},
    {"object_same_key_unclear_values.json", "`{\"a\":0,\"a\":0}`", "`{\"a\":0,\"a\":0}`", "int_map",
     "`{\"a\":0,\"a\":0}`", "duplicates kept; the integer `-0` is 0"},
    {"string_1_escaped_invalid_codepoint.json", "error STRING", "read; write error UTF8", "strings",
     "error STRING", SURROGATE},
    {"string_1_invalid_codepoint.json", "error UTF8", "read; write error UTF8", "strings",
     "error UTF8", "a surrogate encoded in UTF-8 (CESU) is not UTF-8"},
    {"string_2_escaped_invalid_codepoints.json", "error STRING", "read; write error UTF8",
     "strings", "error STRING", SURROGATE},
    {"string_2_invalid_codepoints.json", "error UTF8", "read; write error UTF8", "strings",
     "error UTF8", "as above"},
    {"string_3_escaped_invalid_codepoints.json", "error STRING", "read; write error UTF8",
     "strings", "error STRING", SURROGATE},
    {"string_3_invalid_codepoints.json", "error UTF8", "read; write error UTF8", "strings",
     "error UTF8", "as above"},
    {"string_with_escaped_NULL.json", "`[\"A\\u0000B\"]`", "`[\"A\\u0000B\"]`", "strings",
     "`[\"A\\u0000B\"]`", "NUL kept (strings are pointer + length), written escaped"},
};

START_TEST(test_conformance_i_outcomes)
{
    size_t n = sizeof i_cases / sizeof i_cases[0];
    check_listed(PARSING_DIR, "i_", i_cases, n);
    for (size_t i = 0; i < n; i++)
        check_case(PARSING_DIR, &i_cases[i]);
    check_doc_block("i-table", i_cases, n);
}
END_TEST

START_TEST(test_conformance_transform_outcomes)
{
    size_t n = sizeof transform_cases / sizeof transform_cases[0];
    check_listed(TRANSFORM_DIR, "", transform_cases, n);
    for (size_t i = 0; i < n; i++)
        check_case(TRANSFORM_DIR, &transform_cases[i]);
    check_doc_block("transform-table", transform_cases, n);
}
END_TEST

Suite *conformance_suite(void);
Suite *conformance_suite(void)
{
    Suite *s = suite_create("conformance");
    TCase *tc = tcase_create("jsontestsuite");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_conformance_y_generated);
    tcase_add_test(tc, test_conformance_n_generated);
    tcase_add_test(tc, test_conformance_i_outcomes);
    tcase_add_test(tc, test_conformance_transform_outcomes);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(conformance_suite)
