/* Memory budgets (atd_arena_set_limit): documents whose values cost many
 * times their size in the arena stop with ATD_ERR_LIMIT, "the document needs
 * more than N bytes of memory", at the value being read (line, column and
 * path checked against the document's layout), within the budget, without
 * leaks (the suite runs under ASan), and the arena reads the next document
 * after a reset. Through the generated JSON reader (a 10 MB document of ""
 * read as string list list under 32 MiB), the generic value (`abstract`,
 * whose scratch stack counts too), the generated biniou and lazy readers,
 * and streams
 * (a per-record budget; a record over it is given back and, with skip_bad,
 * skipped). */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_main.h"

#include "atd/stream.h"
#include "budget.h"
#include "lz_revindex.h"

#define MIB ((size_t)1 << 20)
#define PREFIX "{\"name\":\"x\",\"rows\":["

/* {"name":"x","rows":[["","",...],...]}: `rows` rows of `per_row` empty
 * strings, on one line. */
static char *rows_doc(size_t rows, size_t per_row, size_t *len)
{
    size_t row_len = 2 + 3 * per_row - 1;
    size_t n = strlen(PREFIX) + rows * (row_len + 1) + 1;
    char *doc = malloc(n + 1);
    ck_assert_ptr_nonnull(doc);
    char *p = doc;
    memcpy(p, PREFIX, strlen(PREFIX));
    p += strlen(PREFIX);
    for (size_t i = 0; i < rows; i++) {
        *p++ = i == 0 ? '[' : ',';
        if (i != 0)
            *p++ = '[';
        for (size_t j = 0; j < per_row; j++) {
            if (j != 0)
                *p++ = ',';
            *p++ = '"';
            *p++ = '"';
        }
        *p++ = ']';
    }
    *p++ = ']';
    *p++ = '}';
    *p = '\0';
    *len = (size_t)(p - doc);
    ck_assert_uint_le(*len, n + 1);
    return doc;
}

/* The byte offset of rows[i][j] in rows_doc (j == SIZE_MAX: the row). */
static size_t rows_offset(size_t per_row, size_t i, size_t j)
{
    size_t row = strlen(PREFIX) + i * (2 + 3 * per_row);
    return j == SIZE_MAX ? row : row + 1 + 3 * j;
}

/* The error is ATD_ERR_LIMIT for `limit`, at a value in the rows: the path
 * names a row (the list that needed more room, at the element it was
 * adding) or an element in it, and the position is that element's. */
static void expect_rows_limit(const atd_error *err, size_t limit, size_t per_row)
{
    ck_assert_int_eq(err->code, ATD_ERR_LIMIT);
    char detail[96];
    snprintf(detail, sizeof detail, "the document needs more than %zu bytes of memory", limit);
    ck_assert_msg(strstr(err->message, detail) != NULL, "message: %s", err->message);
    size_t i, j;
    char tail;
    if (sscanf(err->path, "$.rows[%zu][%zu]%c", &i, &j, &tail) != 2) {
        ck_assert_msg(sscanf(err->path, "$.rows[%zu]%c", &i, &tail) == 1, "path: %s", err->path);
        size_t row = rows_offset(per_row, i, SIZE_MAX);
        ck_assert_uint_gt(err->offset, row);
        j = (err->offset - row - 1) / 3;
    }
    ck_assert_uint_lt(j, per_row);
    ck_assert_uint_eq(err->offset, rows_offset(per_row, i, j));
    ck_assert_uint_eq(err->line, 1);
    ck_assert_uint_eq(err->column, err->offset + 1);
}

START_TEST(test_json_limit)
{
    size_t per_row = 1000, len;
    char *doc = rows_doc(3400, per_row, &len); /* 10.2 MB */
    ck_assert_uint_gt(len, 10 * 1000 * 1000);
    atd_arena *a = atd_arena_new(0, NULL);
    ck_assert_ptr_nonnull(a);
    atd_arena_set_limit(a, 32 * MIB);
    ck_assert_uint_eq(atd_arena_limit(a), 32 * MIB);
    budget_doc d;
    atd_error err;
    ck_assert_int_eq(budget_doc_from_json(doc, len, a, &d, &err), ATD_ERR_LIMIT);
    expect_rows_limit(&err, 32 * MIB, per_row);
    ck_assert(atd_arena_over_limit(a));
    ck_assert_uint_le(atd_arena_get_stats(a).bytes_reserved, 32 * MIB);

    /* After a reset the same arena, still under its budget, reads. */
    atd_arena_reset(a);
    ck_assert(!atd_arena_over_limit(a));
    ck_assert_uint_eq(atd_arena_limit(a), 32 * MIB);
    free(doc);
    doc = rows_doc(100, 10, &len);
    ck_assert_int_eq(budget_doc_from_json(doc, len, a, &d, &err), 0);
    ck_assert_uint_eq(d.rows.len, 100);
    ck_assert_uint_eq(d.rows.items[99].len, 10);
    free(doc);
    atd_arena_free(a);
}
END_TEST

/* Without a budget the same kind of document costs many times its size:
 * the budget is what stops it, and a document that fits is not refused. */
START_TEST(test_json_within_limit)
{
    size_t len;
    char *doc = rows_doc(340, 1000, &len); /* 1 MB */
    atd_arena *a = atd_arena_new(0, NULL);
    ck_assert_ptr_nonnull(a);
    budget_doc d;
    atd_error err;
    ck_assert_int_eq(budget_doc_from_json(doc, len, a, &d, &err), 0);
    size_t needed = atd_arena_get_stats(a).bytes_reserved;
    ck_assert_uint_gt(needed, 8 * len);
    atd_arena_free(a);

    a = atd_arena_new(0, NULL);
    atd_arena_set_limit(a, needed + needed / 2);
    ck_assert_int_eq(budget_doc_from_json(doc, len, a, &d, &err), 0);
    ck_assert_uint_eq(d.rows.len, 340);
    atd_arena_reset(a);
    atd_arena_set_limit(a, len);
    ck_assert_int_eq(budget_doc_from_json(doc, len, a, &d, &err), ATD_ERR_LIMIT);
    expect_rows_limit(&err, len, 1000);
    /* 0 removes the budget. */
    atd_arena_reset(a);
    atd_arena_set_limit(a, 0);
    ck_assert_int_eq(budget_doc_from_json(doc, len, a, &d, &err), 0);
    atd_arena_free(a);
    free(doc);
}
END_TEST

/* [[],[],...] as `abstract`: the generic value's scratch stack of pending
 * items counts against the budget with the arena. */
START_TEST(test_abstract_limit)
{
    size_t n = 10 * 1000 * 1000 / 3, len = 3 * n + 1;
    char *doc = malloc(len + 1);
    ck_assert_ptr_nonnull(doc);
    doc[0] = '[';
    for (size_t i = 0; i < n; i++)
        memcpy(doc + 1 + 3 * i, "[],", 3);
    doc[len - 1] = ']';
    doc[len] = '\0';
    atd_arena *a = atd_arena_new(0, NULL);
    atd_arena_set_limit(a, 32 * MIB);
    atd_json v;
    atd_error err;
    ck_assert_int_eq(budget_anything_from_json(doc, len, a, &v, &err), ATD_ERR_LIMIT);
    size_t i;
    char tail;
    ck_assert_msg(sscanf(err.path, "$[%zu]%c", &i, &tail) == 1, "path: %s", err.path);
    ck_assert_uint_lt(i, n);
    /* at item i: its brackets or the comma after it, where it is kept */
    ck_assert_uint_ge(err.offset, 1 + 3 * i);
    ck_assert_uint_le(err.offset, 1 + 3 * i + 2);
    ck_assert_msg(strstr(err.message, "needs more than 33554432 bytes") != NULL, "%s",
                  err.message);
    ck_assert_uint_le(atd_arena_get_stats(a).bytes_reserved, 32 * MIB);
    atd_arena_reset(a);
    ck_assert_int_eq(budget_anything_from_json("[[],{\"a\":[]}]", 13, a, &v, &err), 0);
    ck_assert_int_eq(v.kind, ATD_JSON_ARRAY);
    atd_arena_free(a);
    free(doc);
}
END_TEST

/* The biniou reader: the same budget, the same code. */
START_TEST(test_biniou_limit)
{
    size_t len;
    char *doc = rows_doc(200, 1000, &len);
    atd_arena *a = atd_arena_new(0, NULL);
    budget_doc d;
    atd_error err;
    ck_assert_int_eq(budget_doc_from_json(doc, len, a, &d, &err), 0);
    atd_buf bin;
    atd_buf_init(&bin);
    ck_assert_int_eq(budget_doc_to_biniou(&d, &bin, &err), 0);
    atd_arena_free(a);
    free(doc);

    a = atd_arena_new(0, NULL);
    atd_arena_set_limit(a, 1 * MIB);
    ck_assert_int_eq(budget_doc_from_biniou(bin.data, bin.len, a, &d, &err), ATD_ERR_LIMIT);
    ck_assert_msg(strstr(err.message, "needs more than 1048576 bytes") != NULL, "%s",
                  err.message);
    ck_assert_msg(strncmp(err.path, "$.rows[", 7) == 0, "path: %s", err.path);
    ck_assert_uint_le(atd_arena_get_stats(a).bytes_reserved, 1 * MIB);
    atd_arena_reset(a);
    atd_arena_set_limit(a, 0);
    ck_assert_int_eq(budget_doc_from_biniou(bin.data, bin.len, a, &d, &err), 0);
    ck_assert_uint_eq(d.rows.len, 200);
    atd_arena_free(a);
    atd_buf_free(&bin);
}
END_TEST

/* The lazy reader: fetching a value of 100000 occurrences from a database
 * under a budget smaller than the value. */
START_TEST(test_lazy_limit)
{
    size_t n = 100000;
    lz_revindex_occurrence *occ = calloc(n, sizeof *occ);
    ck_assert_ptr_nonnull(occ);
    for (size_t i = 0; i < n; i++) {
        occ[i].filename.ptr = "file.txt";
        occ[i].filename.len = 8;
        occ[i].line = (int64_t)i;
    }
    lz_revindex_revindex_item item = {{"word", 4}, {occ, n}};
    lz_revindex_revindex index = {&item, 1};
    atd_buf db_bytes;
    atd_buf_init(&db_bytes);
    atd_error err;
    ck_assert_int_eq(lz_revindex_revindex_lazy_write(&index, &db_bytes, &err), 0);
    atd_arena *a = atd_arena_new(0, NULL);
    atd_lazy_db db;
    lz_revindex_revindex_lz root;
    ck_assert_int_eq(lz_revindex_revindex_lazy_open(&db, db_bytes.data, db_bytes.len, a, &root, &err),
                     0);
    atd_lazy ref;
    bool found;
    ck_assert_int_eq(lz_revindex_revindex_lazy_find(&db, &root, "word", 4, a, &ref, &found, &err), 0);
    ck_assert(found);
    atd_arena_set_limit(a, 256 * 1024);
    lz_revindex_occurrences got;
    ck_assert_int_eq(lz_revindex_occurrences_lazy_fetch(&db, &ref, a, &got, &err), ATD_ERR_LIMIT);
    ck_assert_msg(strstr(err.message, "needs more than 262144 bytes") != NULL, "%s", err.message);
    ck_assert_uint_le(atd_arena_get_stats(a).bytes_reserved, 256 * 1024);
    atd_arena_reset(a);
    atd_arena_set_limit(a, 0);
    ck_assert_int_eq(lz_revindex_occurrences_lazy_fetch(&db, &ref, a, &got, &err), 0);
    ck_assert_uint_eq(got.len, n);
    ck_assert_int_eq(got.items[n - 1].line, (int64_t)(n - 1));
    atd_lazy_close(&db);
    atd_arena_free(a);
    atd_buf_free(&db_bytes);
    free(occ);
}
END_TEST

/* An in-memory source for streams. */
typedef struct source {
    const char *data;
    size_t len, pos;
} source;

static ptrdiff_t read_source(void *ctx, char *buf, size_t cap)
{
    source *s = ctx;
    size_t n = s->len - s->pos < cap ? s->len - s->pos : cap;
    memcpy(buf, s->data + s->pos, n);
    s->pos += n;
    return (ptrdiff_t)n;
}

typedef struct bad_log {
    int count;
    atd_error first;
} bad_log;

static void log_bad(void *ctx, const atd_error *err)
{
    bad_log *log = ctx;
    if (log->count++ == 0)
        log->first = *err;
}

/* Three lines: small, one whose values need more than the record budget,
 * small. The default budget is finite; the big record stops the stream with
 * ATD_ERR_LIMIT at its line, or with skip_bad is skipped, its arena memory
 * given back, and the third line read. */
START_TEST(test_stream_record_limit)
{
    size_t big_len;
    char *big = rows_doc(200, 1000, &big_len); /* 600 KB, about 8 MB of values */
    size_t len = 0;
    char *input = malloc(big_len + 200);
    ck_assert_ptr_nonnull(input);
    len += (size_t)sprintf(input, "{\"name\":\"a\",\"rows\":[[\"\"]]}\n");
    memcpy(input + len, big, big_len);
    len += big_len;
    len += (size_t)sprintf(input + len, "\n{\"name\":\"c\",\"rows\":[]}\n");
    free(big);

    for (int skip = 0; skip <= 1; skip++) {
        source src = {input, len, 0};
        bad_log log = {0};
        atd_stream_options opt = {0};
        opt.max_memory = 2 * MIB;
        opt.skip_bad = skip;
        opt.on_bad = log_bad;
        opt.on_bad_ctx = &log;
        atd_stream s;
        ck_assert_int_eq(atd_stream_init_cb(&s, read_source, &src, &opt), 0);
        ck_assert_uint_eq(s.opt.max_memory, 2 * MIB);
        atd_arena *a = atd_arena_new(0, NULL);
        budget_doc d;
        ck_assert(budget_doc_next_line(&s, a, &d));
        ck_assert_str_eq(d.name.ptr, "a");
        size_t held = atd_arena_get_stats(a).bytes_reserved;
        const atd_error *e;
        if (!skip) {
            ck_assert(!budget_doc_next_line(&s, a, &d));
            e = atd_stream_error(&s);
            ck_assert_ptr_nonnull(e);
        } else {
            ck_assert(budget_doc_next_line(&s, a, &d));
            ck_assert_str_eq(d.name.ptr, "c");
            ck_assert_int_eq(log.count, 1);
            ck_assert_uint_eq(s.bad_records, 1);
            e = &log.first;
        }
        ck_assert_int_eq(e->code, ATD_ERR_LIMIT);
        ck_assert_uint_eq(e->line, 2);
        ck_assert_msg(strncmp(e->path, "$.rows[", 7) == 0, "path: %s", e->path);
        ck_assert_msg(strstr(e->message, "line 2, column ") == e->message, "%s", e->message);
        /* The failed record's memory went back; the caller's budget is untouched. */
        ck_assert_uint_le(atd_arena_get_stats(a).bytes_reserved, held + (skip ? 4096 : 0));
        ck_assert_uint_eq(atd_arena_limit(a), 0);
        ck_assert(!atd_arena_over_limit(a));
        atd_arena_free(a);
        atd_stream_free(&s);
    }

    /* The default budget is finite and documented. */
    atd_stream s;
    ck_assert_int_eq(atd_stream_init_cb(&s, read_source, NULL, NULL), 0);
    ck_assert_uint_eq(s.opt.max_memory, ATD_STREAM_MAX_MEMORY);
    ck_assert_uint_lt(ATD_STREAM_MAX_MEMORY, SIZE_MAX);
    atd_stream_free(&s);
    free(input);
}
END_TEST

Suite *budget_suite(void);
Suite *budget_suite(void)
{
    Suite *s = suite_create("budget");
    TCase *tc = tcase_create("budget");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_json_limit);
    tcase_add_test(tc, test_json_within_limit);
    tcase_add_test(tc, test_abstract_limit);
    tcase_add_test(tc, test_biniou_limit);
    tcase_add_test(tc, test_lazy_limit);
    tcase_add_test(tc, test_stream_record_limit);
    suite_add_tcase(s, tc);
    return s;
}

ATD_CHECK_MAIN(budget_suite)
