/* The contenders: who reads and writes each workload, and how each kind of
 * contender is set up, run, verified and measured for allocations.
 *
 * CONTENDERS below is the whole list, in report order. Adding a contender is
 * one row there (and, for a new way of reading or writing, one
 * contender_kind: a few functions next to the others). Rows marked per_lib
 * are repeated for every generic parser of LIBS (a run of consecutive per_lib
 * rows is expanded library by library, so that "cjson.parse" and
 * "cjson.parse+conv" stay side by side).
 *
 * Verification: before timing and again after, every contender runs once and
 * its result is compared with the workload's reference (value counts of the
 * parsed document, typed checksums of the decoded structs, output re-parsed
 * and counted), so that no figure measures a failed or partial parse. */
#define _GNU_SOURCE

#include "driver.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool fail(contender *c, const char *why)
{
    snprintf(c->error, sizeof c->error, "%s", why);
    return false;
}

static bool check_typed(contender *c)
{
    return typed_checksum(c->w, c->value) == c->w->typed_checksum || fail(c, "checksum differs");
}

/* A printed text must hold the same values as the generated writer's. */
static bool check_text_values(contender *c, const char *text, size_t n)
{
    dom_counts counts;
    c->bytes = n; /* writers: MB/s of their own output */
    return (n != (size_t)-1 && dom_counts_of_text(text, n, &counts) &&
            dom_counts_equal(&counts, &c->w->out_counts)) ||
           fail(c, "output has other values");
}

static bool new_arena_and_value(contender *c)
{
    c->arena = atd_arena_new(0, &counting_allocator);
    c->value = calloc(1, c->w->ops->size);
    return (c->arena != NULL && c->value != NULL) || fail(c, "no memory");
}

static bool new_lib_state(contender *c)
{
    c->lib_state = c->lib->new_state();
    return c->lib_state != NULL || fail(c, "no memory");
}

/* ======================================================================== */
/* MARK: memcpy (the ceiling)                                                */
/* ======================================================================== */

static bool memcpy_in_setup(contender *c)
{
    c->copy = malloc(c->w->input_len);
    return c->copy != NULL || fail(c, "no memory");
}

static bool memcpy_in_run(contender *c)
{
    memcpy(c->copy, c->w->input, c->w->input_len);
    return true;
}

static bool memcpy_in_check(contender *c)
{
    return memcmp(c->copy, c->w->input, c->w->input_len) == 0 || fail(c, "copy differs");
}

static bool memcpy_out_setup(contender *c)
{
    c->copy = malloc(c->w->out.len);
    return c->copy != NULL || fail(c, "no memory");
}

static bool memcpy_out_run(contender *c)
{
    memcpy(c->copy, c->w->out.data, c->w->out.len);
    return true;
}

static bool memcpy_out_check(contender *c)
{
    return memcmp(c->copy, c->w->out.data, c->w->out.len) == 0 || fail(c, "copy differs");
}

static const contender_kind memcpy_in = {
    false, memcpy_in_setup, memcpy_in_run, memcpy_in_check, NULL, NULL, NULL};
static const contender_kind memcpy_out = {
    true, memcpy_out_setup, memcpy_out_run, memcpy_out_check, NULL, NULL, NULL};

/* ======================================================================== */
/* MARK: the generated reader                                                */
/* ======================================================================== */

static bool gen_read_run(contender *c)
{
    return gen_read_into(c->w, c->w->ops->read, c->arena, 0, c->value);
}

static bool gen_read_borrow_run(contender *c)
{
    return gen_read_into(c->w, c->w->ops->read, c->arena, ATD_READ_BORROW_STRINGS, c->value);
}

static bool gen_read_check(contender *c)
{
    const workload *w = c->w;
    if (w->ops->conv != CONV_NONE)
        return check_typed(c);
    /* No independent oracle for the big schemas: the value read must write
     * back to exactly the text the reference value wrote (keys sorted on
     * both sides after a variant that reorders them). */
    atd_buf b, sorted;
    atd_buf_init(&b);
    atd_buf_init(&sorted);
    const atd_buf *ref = w->out_sorted != NULL ? w->out_sorted : &w->out;
    const atd_buf *got = &b;
    bool same = gen_write(w->ops, c->value, &b);
    if (same && w->out_sorted != NULL) {
        same = variant_text(b.data, b.len, VARIANT_SORTED, &sorted);
        got = &sorted;
    }
    same = same && got->len == ref->len && memcmp(got->data, ref->data, ref->len) == 0;
    atd_buf_free(&b);
    atd_buf_free(&sorted);
    return same || fail(c, "value read writes back differently");
}

static bool gen_read_fresh_with(contender *c, bool (*read)(atd_reader *r, void *out),
                                unsigned flags)
{
    atd_arena *a = atd_arena_new(0, &counting_allocator);
    bool ok = a != NULL && gen_read_into(c->w, read, a, flags, c->value);
    atd_arena_free(a);
    return ok;
}

static bool gen_read_fresh(contender *c)
{
    return gen_read_fresh_with(c, c->w->ops->read, 0);
}

static bool gen_read_borrow_fresh(contender *c)
{
    return gen_read_fresh_with(c, c->w->ops->read, ATD_READ_BORROW_STRINGS);
}

static const contender_kind gen_read = {
    false, new_arena_and_value, gen_read_run, gen_read_check, gen_read_fresh, NULL, NULL};
static const contender_kind gen_read_borrow = {
    false, new_arena_and_value, gen_read_borrow_run, gen_read_check, gen_read_borrow_fresh, NULL,
    NULL};

/* The generated reader of a schema for part of the document
 * (partial_ops): most members are unknown fields, skipped. */
static bool gen_read_partial_setup(contender *c)
{
    c->arena = atd_arena_new(0, &counting_allocator);
    c->value = calloc(1, c->w->ops->partial->size);
    return (c->arena != NULL && c->value != NULL) || fail(c, "no memory");
}

static bool gen_read_partial_run(contender *c)
{
    return gen_read_into(c->w, c->w->ops->partial->read, c->arena, 0, c->value);
}

static bool gen_read_partial_check(contender *c)
{
    return c->w->ops->partial->check(c->w->value, c->value) ||
           fail(c, "the fields read differ from the whole value's");
}

static bool gen_read_partial_fresh(contender *c)
{
    return gen_read_fresh_with(c, c->w->ops->partial->read, 0);
}

static const contender_kind gen_read_partial = {false,
                                                gen_read_partial_setup,
                                                gen_read_partial_run,
                                                gen_read_partial_check,
                                                gen_read_partial_fresh,
                                                NULL,
                                                NULL};

/* ======================================================================== */
/* MARK: generic parsers (generic_lib)                                       */
/* ======================================================================== */

static bool lib_convert(const contender *c, void *state, atd_arena *arena)
{
    return c->w->ops->conv == CONV_EVENTS ? c->lib->to_events(state, arena, c->value)
                                          : c->lib->to_donut(state, arena, c->value);
}

/* Parse and free: what parsing costs a caller. */
static bool lib_parse_run(contender *c)
{
    if (!c->lib->parse(c->lib_state, c->w->input, c->w->input_len))
        return false;
    c->lib->free_doc(c->lib_state);
    return true;
}

static bool lib_parse_check(contender *c)
{
    /* The run freed the document: parse again and walk it. */
    const workload *w = c->w;
    dom_counts counts = {0};
    if (!c->lib->parse(c->lib_state, w->input, w->input_len))
        return fail(c, "parse failed");
    c->lib->count(c->lib_state, &counts);
    c->lib->free_doc(c->lib_state);
    return dom_counts_equal(&counts, &w->input_counts) || fail(c, "value counts differ");
}

static bool lib_parse_fresh(contender *c)
{
    void *st = c->lib->new_state();
    bool ok = st != NULL && c->lib->parse(st, c->w->input, c->w->input_len);
    if (st != NULL)
        c->lib->free_state(st);
    return ok;
}

static bool lib_parse_conv_setup(contender *c)
{
    return new_arena_and_value(c) && new_lib_state(c);
}

static bool lib_parse_conv_run(contender *c)
{
    if (!c->lib->parse(c->lib_state, c->w->input, c->w->input_len))
        return false;
    atd_arena_reset(c->arena);
    bool ok = lib_convert(c, c->lib_state, c->arena);
    c->lib->free_doc(c->lib_state);
    return ok;
}

static bool lib_parse_conv_fresh(contender *c)
{
    void *st = c->lib->new_state();
    atd_arena *a = atd_arena_new(0, &counting_allocator);
    bool ok = st != NULL && a != NULL && c->lib->parse(st, c->w->input, c->w->input_len) &&
              lib_convert(c, st, a);
    if (st != NULL)
        c->lib->free_state(st);
    atd_arena_free(a);
    return ok;
}

/* The DOM printed is the library's parse of the generated writer's text, so
 * that every writer writes the same values. */
static bool lib_print_setup(contender *c)
{
    c->lib_state = c->lib->new_state();
    if (c->lib_state == NULL || !c->lib->parse(c->lib_state, c->w->out.data, c->w->out.len))
        return fail(c, "cannot parse the text to print");
    return true;
}

static bool lib_print_run(contender *c)
{
    const char *text;
    return c->lib->print(c->lib_state, &text) != (size_t)-1;
}

static bool lib_print_check(contender *c)
{
    const char *text = NULL;
    size_t n = c->lib->print(c->lib_state, &text);
    return check_text_values(c, text, n);
}

/* Counted by our hooks, or by malloc interposition when it is compiled in. */
static bool lib_alloc_measurable(const contender *c)
{
    return strcmp(c->lib->alloc_source, "hooks") == 0 || alloc_interposed();
}

static const contender_kind lib_parse = {
    false,           new_lib_state, lib_parse_run,       lib_parse_check,
    lib_parse_fresh, NULL,          lib_alloc_measurable};
static const contender_kind lib_parse_conv = {
    false, lib_parse_conv_setup, lib_parse_conv_run, check_typed, lib_parse_conv_fresh,
    NULL,  lib_alloc_measurable};
/* Libraries' printers: no fresh figure, the loop figure is the figure (they
 * allocate per call; json-c reuses the printbuf of the DOM). */
static const contender_kind lib_print = {
    true, lib_print_setup, lib_print_run, lib_print_check, NULL, NULL, lib_alloc_measurable};

/* ======================================================================== */
/* MARK: simdjson (simd.cpp)                                                 */
/* ======================================================================== */

#ifdef BENCH_HAVE_SIMDJSON
static bool simd_setup(contender *c)
{
    c->simd = simd_new(c->w->input, c->w->input_len);
    return c->simd != NULL || fail(c, "no memory");
}

static void simd_teardown(contender *c)
{
    simd_free(c->simd);
}

static bool simd_dom_run(contender *c)
{
    return simd_dom_parse(c->simd);
}

static bool simd_dom_check(contender *c)
{
    dom_counts counts = {0};
    simd_dom_count(c->simd, &counts);
    return dom_counts_equal(&counts, &c->w->input_counts) || fail(c, "value counts differ");
}

static bool simd_dom_fresh(contender *c)
{
    return simd_fresh_dom_parse(c->w->input, c->w->input_len);
}

static bool simd_od_run(contender *c)
{
    c->counts = (dom_counts){0};
    return simd_ondemand_walk(c->simd, &c->counts);
}

static bool simd_od_check(contender *c)
{
    return dom_counts_equal(&c->counts, &c->w->input_counts) || fail(c, "value counts differ");
}

static bool simd_od_fresh(contender *c)
{
    return simd_fresh_ondemand_walk(c->w->input, c->w->input_len);
}

/* simdjson has no allocator hooks: only interposition sees its blocks. */
static bool simd_alloc_measurable(const contender *c)
{
    (void)c;
    return alloc_interposed();
}

/* Writing through simdjson: its DOM of the generated writer's text (parsed
 * once, untimed), serialized by simdjson::minify. */
static bool simd_minify_setup(contender *c)
{
    c->simd = simd_new(c->w->out.data, c->w->out.len);
    if (c->simd == NULL || !simd_dom_parse(c->simd))
        return fail(c, "cannot parse the text to print");
    return true;
}

static bool simd_minify_run(contender *c)
{
    const char *text;
    return simd_minify(c->simd, &text) != (size_t)-1;
}

static bool simd_minify_check(contender *c)
{
    const char *text = NULL;
    size_t n = simd_minify(c->simd, &text);
    return check_text_values(c, text, n);
}

static const contender_kind simd_minify_kind = {
    true, simd_minify_setup, simd_minify_run,      simd_minify_check,
    NULL, simd_teardown,     simd_alloc_measurable};
static const contender_kind simd_dom = {
    false,          simd_setup,    simd_dom_run,         simd_dom_check,
    simd_dom_fresh, simd_teardown, simd_alloc_measurable};
static const contender_kind simd_od = {
    false,         simd_setup,    simd_od_run,          simd_od_check,
    simd_od_fresh, simd_teardown, simd_alloc_measurable};
#endif

/* ======================================================================== */
/* MARK: the generated writer                                                */
/* ======================================================================== */

static bool gen_write_run(contender *c)
{
    atd_buf_clear(&c->buf);
    return gen_write(c->w->ops, c->w->value, &c->buf);
}

static bool gen_write_check(contender *c)
{
    const workload *w = c->w;
    return (c->buf.len == w->out.len && memcmp(c->buf.data, w->out.data, w->out.len) == 0) ||
           fail(c, "output differs");
}

static bool gen_write_fresh(contender *c)
{
    atd_buf b;
    atd_buf_init_with(&b, &counting_allocator);
    bool ok = gen_write(c->w->ops, c->w->value, &b);
    atd_buf_free(&b);
    return ok;
}

static const contender_kind gen_write_mem = {
    true, NULL, gen_write_run, gen_write_check, gen_write_fresh, NULL, NULL};

/* ---- bounded sinks on /dev/null ---- */

static bool sink_fd_setup(contender *c)
{
    atd_buf_free(&c->buf);
    int fd = open("/dev/null", O_WRONLY);
    if (fd < 0 || atd_buf_init_fd(&c->buf, fd) != 0)
        return fail(c, "cannot open /dev/null");
    return true;
}

static void sink_fd_teardown(contender *c)
{
    if (c->buf.sink_ctx != NULL)
        close((int)(intptr_t)c->buf.sink_ctx);
}

static bool sink_file_setup(contender *c)
{
    atd_buf_free(&c->buf);
    c->file = fopen("/dev/null", "wb");
    if (c->file == NULL || atd_buf_init_file(&c->buf, c->file) != 0)
        return fail(c, "cannot open /dev/null");
    return true;
}

static bool sink_run(contender *c)
{
    if (!gen_write(c->w->ops, c->w->value, &c->buf) || atd_buf_flush(&c->buf) != 0)
        return false;
    return c->file == NULL || fflush(c->file) == 0;
}

/* Sinks to /dev/null: check the byte count that went through. */
static bool sink_check(contender *c)
{
    size_t before = c->buf.flushed;
    if (!sink_run(c) || c->buf.flushed - before != c->w->out.len)
        return fail(c, "wrong number of bytes flushed");
    return true;
}

/* A new sink-bound buffer: its memory is one chunk, whatever the size. */
static bool sink_fresh(contender *c)
{
    atd_buf b;
    int fd = open("/dev/null", O_WRONLY);
    bool ok = fd >= 0 && atd_buf_init_fd(&b, fd) == 0 && gen_write(c->w->ops, c->w->value, &b) &&
              atd_buf_flush(&b) == 0;
    if (fd >= 0) {
        atd_buf_free(&b);
        close(fd);
    }
    return ok;
}

static const contender_kind gen_write_fd = {true,       sink_fd_setup,    sink_run, sink_check,
                                            sink_fresh, sink_fd_teardown, NULL};
static const contender_kind gen_write_file = {
    true, sink_file_setup, sink_run, sink_check, sink_fresh, NULL, NULL};

/* ---- structs -> our DOM -> text: writing through a generic value ---- */

static bool struct_to_dom_text(const workload *w, atd_arena *a, atd_buf *b)
{
    atd_json dom;
    bool ok = w->ops->conv == CONV_EVENTS ? events_to_atd_json(w->value, a, &dom)
                                          : donut_to_atd_json(w->value, a, &dom);
    return ok && atd_json_write(&dom, b, NULL) == 0;
}

static bool dom_text_run(contender *c)
{
    atd_arena_reset(c->arena);
    atd_buf_clear(&c->buf);
    return struct_to_dom_text(c->w, c->arena, &c->buf);
}

static bool dom_text_check(contender *c)
{
    return check_text_values(c, c->buf.data, c->buf.len);
}

static bool dom_text_fresh(contender *c)
{
    atd_arena *a = atd_arena_new(0, &counting_allocator);
    atd_buf b;
    atd_buf_init_with(&b, &counting_allocator);
    bool ok = a != NULL && struct_to_dom_text(c->w, a, &b);
    atd_buf_free(&b);
    atd_arena_free(a);
    return ok;
}

static const contender_kind struct_dom_text = {
    true, new_arena_and_value, dom_text_run, dom_text_check, dom_text_fresh, NULL, NULL};

/* ======================================================================== */
/* MARK: biniou (the schema's copy generated with atdc --biniou)             */
/* ======================================================================== */

/* The value (read from the generated writer's JSON text of the workload's
 * value, by the biniou copy's own JSON reader) and its biniou bytes. */
static bool bin_setup(contender *c)
{
    const bin_ops *b = c->w->ops->bin;
    atd_buf_init(&c->bin);
    c->arena = atd_arena_new(0, &counting_allocator);
    c->value = calloc(1, b->size);
    if (c->arena == NULL || c->value == NULL)
        return fail(c, "no memory");
    if (b->from_json(c->w->out.data, c->w->out.len, c->arena, c->value) != 0 ||
        b->to_biniou(c->value, &c->bin) != 0)
        return fail(c, "cannot make the biniou document");
    return true;
}

/* A biniou value must write the workload's JSON text again. */
static bool bin_value_check(contender *c, const void *value)
{
    atd_buf j;
    atd_buf_init(&j);
    bool same = c->w->ops->bin->to_json(value, &j) == 0 && j.len == c->w->out.len &&
                memcmp(j.data, c->w->out.data, j.len) == 0;
    atd_buf_free(&j);
    return same || fail(c, "biniou value writes other JSON");
}

static bool bin_read_setup(contender *c)
{
    if (!bin_setup(c))
        return false;
    c->bytes = c->bin.len; /* MB/s of biniou */
    char note[160];
    snprintf(note, sizeof note, "biniou: %zu bytes, %.2f of the %zu bytes of compact JSON",
             c->bin.len, (double)c->bin.len / (double)c->w->out.len, c->w->out.len);
    report_note(c->w->name, note);
    return true;
}

static bool bin_read_run(contender *c)
{
    atd_arena_reset(c->arena);
    return c->w->ops->bin->from_biniou(c->bin.data, c->bin.len, c->arena, c->value) == 0;
}

static bool bin_read_check(contender *c)
{
    return bin_value_check(c, c->value);
}

static bool bin_read_fresh(contender *c)
{
    atd_arena *a = atd_arena_new(0, &counting_allocator);
    bool ok = a != NULL && c->w->ops->bin->from_biniou(c->bin.data, c->bin.len, a, c->value) == 0;
    atd_arena_free(a);
    return ok;
}

static bool bin_write_setup(contender *c)
{
    if (!bin_setup(c))
        return false;
    c->bytes = c->bin.len;
    return true;
}

static bool bin_write_run(contender *c)
{
    atd_buf_clear(&c->buf);
    return c->w->ops->bin->to_biniou(c->value, &c->buf) == 0;
}

/* Read back, the output must hold the workload's value. */
static bool bin_write_check(contender *c)
{
    const bin_ops *b = c->w->ops->bin;
    atd_arena *a = atd_arena_new(0, NULL);
    void *v = calloc(1, b->size);
    bool ok = a != NULL && v != NULL && b->from_biniou(c->buf.data, c->buf.len, a, v) == 0 &&
              bin_value_check(c, v);
    free(v);
    atd_arena_free(a);
    return ok || fail(c, "biniou output reads to another value");
}

static bool bin_write_fresh(contender *c)
{
    atd_buf b;
    atd_buf_init_with(&b, &counting_allocator);
    bool ok = c->w->ops->bin->to_biniou(c->value, &b) == 0;
    atd_buf_free(&b);
    return ok;
}

static void bin_teardown(contender *c)
{
    atd_buf_free(&c->bin);
}

static const contender_kind bin_read = {
    false, bin_read_setup, bin_read_run, bin_read_check, bin_read_fresh, bin_teardown, NULL};
static const contender_kind bin_write = {
    true, bin_write_setup, bin_write_run, bin_write_check, bin_write_fresh, bin_teardown, NULL};

/* ======================================================================== */
/* MARK: the table                                                           */
/* ======================================================================== */

typedef struct lib_entry {
    const char *id; /* prefix of the contender ids */
    const generic_lib *lib;
    bool variants; /* also on the variants of the inputs (GROUP_VARIANT) */
} lib_entry;

static const lib_entry LIBS[] = {
    {"atd_json", &lib_atd, false},    {"cjson", &lib_cjson, false},
    {"jansson", &lib_jansson, false}, {"jsonc", &lib_jsonc, false},
#ifdef BENCH_HAVE_YYJSON
    {"yyjson", &lib_yyjson, true},
#endif
};

typedef struct contender_row {
    const char *id; /* per_lib rows: the part after "<lib>." */
    const contender_kind *kind;
    unsigned groups;    /* GROUP_* in which it runs */
    bool per_lib;       /* once per generic parser of LIBS */
    bool needs_conv;    /* only where DOM -> struct conversions exist (event, donut) */
    bool baseline;      /* the generated reader / writer the ratios divide by */
    bool needs_bin;     /* biniou: where the schema has it, once per value (not per text variant) */
    bool needs_partial; /* where the workload has a schema for part of it (partial_ops) */
} contender_row;

static const contender_row CONTENDERS[] = {
    {"gen.read", &gen_read, GROUP_READ | GROUP_VARIANT, false, false, true, false, false},
    {"gen.read.borrow", &gen_read_borrow, GROUP_READ | GROUP_VARIANT, false, false, false, false,
     false},
    {"gen.read.partial", &gen_read_partial, GROUP_READ | GROUP_VARIANT, false, false, false, false,
     true},
    {"bin.read", &bin_read, GROUP_READ, false, false, false, true, false},
    {"parse", &lib_parse, GROUP_READ | GROUP_VARIANT, true, false, false, false, false},
    {"parse+conv", &lib_parse_conv, GROUP_READ, true, true, false, false, false},
#ifdef BENCH_HAVE_SIMDJSON
    {"simdjson.dom", &simd_dom, GROUP_READ | GROUP_VARIANT, false, false, false, false, false},
    {"simdjson.ondemand", &simd_od, GROUP_READ, false, false, false, false, false},
#endif
    {"memcpy", &memcpy_in, GROUP_READ, false, false, false, false, false},
    {"gen.write", &gen_write_mem, GROUP_WRITE | GROUP_SINK, false, false, true, false, false},
    {"bin.write", &bin_write, GROUP_WRITE, false, false, false, true, false},
    {"gen.write.fd", &gen_write_fd, GROUP_SINK, false, false, false, false, false},
    {"gen.write.FILE", &gen_write_file, GROUP_SINK, false, false, false, false, false},
    {"atd_json.struct>dom>text", &struct_dom_text, GROUP_WRITE, false, true, false, false, false},
    {"print", &lib_print, GROUP_WRITE, true, false, false, false, false},
#ifdef BENCH_HAVE_SIMDJSON
    {"simdjson.minify", &simd_minify_kind, GROUP_WRITE, false, false, false, false, false},
#endif
    {"memcpy", &memcpy_out, GROUP_WRITE, false, false, false, false, false},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void add(contender *cs, size_t *n, size_t cap, workload *w, const contender_row *row,
                const lib_entry *lib)
{
    if (*n >= cap)
        return;
    contender *c = &cs[(*n)++];
    memset(c, 0, sizeof *c);
    if (lib != NULL)
        snprintf(c->id, sizeof c->id, "%s.%s", lib->id, row->id);
    else
        snprintf(c->id, sizeof c->id, "%s", row->id);
    c->kind = row->kind;
    c->lib = lib != NULL ? lib->lib : NULL;
    c->w = w;
    c->baseline = row->baseline;
    c->best = INFINITY;
    c->bytes = row->kind->writer ? w->out.len : w->input_len;
}

static bool row_applies(const contender_row *row, const lib_entry *lib, const workload *w,
                        unsigned groups)
{
    return (row->groups & groups) != 0 && (!row->needs_conv || w->ops->conv != CONV_NONE) &&
           (!row->needs_bin || (w->ops->bin != NULL && (groups & GROUP_WRITE) != 0)) &&
           (!row->needs_partial || w->ops->partial != NULL) &&
           (lib == NULL || lib->variants || (groups & ~(unsigned)GROUP_VARIANT) != 0);
}

size_t contenders_for(workload *w, unsigned groups, contender *cs, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < COUNT(CONTENDERS);) {
        if (!CONTENDERS[i].per_lib) {
            if (row_applies(&CONTENDERS[i], NULL, w, groups))
                add(cs, &n, cap, w, &CONTENDERS[i], NULL);
            i++;
            continue;
        }
        size_t end = i;
        while (end < COUNT(CONTENDERS) && CONTENDERS[end].per_lib)
            end++;
        for (size_t l = 0; l < COUNT(LIBS); l++) {
            for (size_t j = i; j < end; j++) {
                if (row_applies(&CONTENDERS[j], &LIBS[l], w, groups))
                    add(cs, &n, cap, w, &CONTENDERS[j], &LIBS[l]);
            }
        }
        i = end;
    }
    return n;
}

/* ======================================================================== */
/* MARK: life cycle                                                          */
/* ======================================================================== */

bool contender_setup(contender *c)
{
    atd_buf_init_with(&c->buf, &counting_allocator);
    return c->kind->setup == NULL || c->kind->setup(c);
}

bool contender_run(contender *c)
{
    return c->kind->run(c);
}

bool contender_verify(contender *c)
{
    if (!contender_run(c))
        return fail(c, "the run reported an error");
    return c->kind->check == NULL || c->kind->check(c);
}

void contender_teardown(contender *c)
{
    if (c->kind->teardown != NULL)
        c->kind->teardown(c);
    if (c->lib_state != NULL)
        c->lib->free_state(c->lib_state);
    atd_arena_free(c->arena);
    free(c->value);
    atd_buf_free(&c->buf);
    if (c->file != NULL)
        fclose(c->file);
    free(c->copy);
    free(c->times);
}

/* Allocation figures: `loop` is one iteration in the steady state (what a
 * program pays per document once its arenas and buffers are warm); `fresh`
 * is one document from nothing (new arena / buffer / library state, freed
 * at the end), whose high-water mark is the memory the contender needs. */
void contender_measure_allocations(contender *c)
{
    bool measurable = c->kind->alloc_measurable != NULL ? c->kind->alloc_measurable(c) : true;
    if (!measurable)
        return;
    contender_run(c);
    alloc_count_begin();
    contender_run(c);
    c->loop_alloc = alloc_count_end();
    c->alloc_known = true;

    alloc_count_begin();
    c->fresh_known = c->kind->fresh != NULL && c->kind->fresh(c);
    c->fresh_alloc = alloc_count_end();
    if (!c->fresh_known)
        c->fresh_alloc = c->loop_alloc;
}
