/* The writer context of writer.h (atd_writer): value writers that turn the runtime's
 * error codes into a recorded error, and the JSON path built while unwinding
 * (error_path.c, shared with the readers). The string writers are in writer.c, next to
 * the escaper they inline. */
#include "atd/writer.h"

#include <stdio.h>
#include <string.h>

#include "atd/number.h"
#include "error_path.h"

void atd_writer_init(atd_writer *w, atd_buf *b, unsigned flags)
{
    w->buf = b;
    w->flags = flags;
    w->err_code = ATD_ERR_OK;
    w->err_detail[0] = '\0';
    atd__path_clear(&w->err_path);
    w->end = NULL;
}

/* The cursor of a buffer that has no storage and cannot get any: no room
 * before it, so that every check fails and reports the buffer's status. */
static char no_room[1];

char *atd__writer_cursor_slow(atd_writer *w)
{
    atd_buf *b = w->buf;
    if (b->status == 0 && b->data == NULL)
        atd__buf_reserve_slow(b, 1); /* the first storage of a fresh buffer */
    if (b->data == NULL) {
        w->end = no_room;
        return no_room;
    }
    char *p = b->data + b->len;
    w->end = b->status == 0 ? b->data + b->cap : p;
    return p;
}

char *atd__writer_room_slow(atd_writer *w, char *p, size_t n)
{
    atd_writer_commit(w, p);
    char *q = atd__buf_reserve_slow(w->buf, n);
    if (q == NULL) {
        atd_writer_fail_buf(w);
        return NULL;
    }
    w->end = w->buf->data + w->buf->cap;
    return q;
}

bool atd_writer_fail(atd_writer *w, atd_error_code code, const char *detail)
{
    if (w->err_code != ATD_ERR_OK)
        return false;
    w->err_code = code;
    snprintf(w->err_detail, sizeof w->err_detail, "%s", detail ? detail : "");
    return false;
}

bool atd_writer_fail_buf(atd_writer *w)
{
    atd_error_code code = w->buf->status != 0 ? (atd_error_code)w->buf->status : ATD_ERR_NOMEM;
    return atd_writer_fail(w, code, atd_error_code_text(code));
}

bool atd_writer_push_field(atd_writer *w, const char *name, size_t len)
{
    if (w->err_code != ATD_ERR_OK)
        atd__path_push_field(&w->err_path, name, len);
    return false;
}

bool atd_writer_push_index(atd_writer *w, size_t index)
{
    if (w->err_code != ATD_ERR_OK)
        atd__path_push_index(&w->err_path, index);
    return false;
}

int atd_writer_get_error(const atd_writer *w, atd_error *err)
{
    if (err == NULL)
        return (int)w->err_code;
    if (w->err_code == ATD_ERR_OK) {
        atd_error_set(err, ATD_ERR_OK, NULL, NULL);
        return ATD_ERR_OK;
    }
    char path[ATD_ERROR_PATH_MAX];
    atd__path_compose(&w->err_path, path, sizeof path);
    atd_error_set(err, w->err_code, path, w->err_detail);
    return (int)w->err_code;
}

bool atd_writer_int64(atd_writer *w, int64_t v)
{
    char *p = atd_buf_reserve(w->buf, ATD_INT64_CHARS);
    if (p == NULL)
        return atd_writer_fail_buf(w);
    atd_buf_commit(w->buf, atd_write_int64(p, v));
    return true;
}

char *atd_writer_int64_string_p(atd_writer *w, char *p, int64_t v)
{
    p = atd_writer_room(w, p, ATD_INT64_CHARS + 2);
    if (p == NULL)
        return NULL;
    *p++ = '"';
    p = atd_write_int64(p, v);
    *p++ = '"';
    return p;
}

bool atd_writer_int64_string(atd_writer *w, int64_t v)
{
    return atd_writer_finish(w, atd_writer_int64_string_p(w, atd_writer_cursor(w), v));
}

static bool nonfinite(double v)
{
    return v != v || v - v != 0.0;
}

bool atd_writer_fail_nonfinite(atd_writer *w, double v)
{
    return atd_writer_fail(w, ATD_ERR_NONFINITE,
                           v != v ? "cannot write NaN as JSON" : "cannot write infinity as JSON");
}

bool atd_writer_double(atd_writer *w, double v)
{
    if (nonfinite(v))
        return atd_writer_fail_nonfinite(w, v);
    char *p = atd_buf_reserve(w->buf, ATD_DOUBLE_CHARS);
    if (p == NULL)
        return atd_writer_fail_buf(w);
    atd_buf_commit(w->buf, atd_write_double(p, v));
    return true;
}

char *atd_writer_double_precision_p(atd_writer *w, char *p, double v, int precision)
{
    if (!atd_writer_finite(w, v))
        return NULL;
    p = atd_writer_room(w, p, ATD_DOUBLE_CHARS);
    if (p == NULL)
        return NULL;
    if (precision < 1 || precision > 16)
        return atd_write_double(p, v);
    return atd_write_double_precision(p, v, precision);
}

bool atd_writer_double_precision(atd_writer *w, double v, int precision)
{
    return atd_writer_finish(w, atd_writer_double_precision_p(w, atd_writer_cursor(w), v, precision));
}

/* The most bytes of a large integral double printed by %.0f (309 digits,
 * a sign) and its NUL. */
#define LARGE_INTEGRAL_CHARS 330

char *atd_writer_double_as_int_p(atd_writer *w, char *p, double v)
{
    if (!atd_writer_finite(w, v))
        return NULL;
    /* Below 2^52 the fraction is exact, so rounding half away from zero can
     * be done on the integer part; above, every double is an integer. */
    if (v > -4503599627370496.0 && v < 4503599627370496.0) {
        int64_t i = (int64_t)v;
        double frac = v - (double)i;
        if (frac >= 0.5)
            i++;
        else if (frac <= -0.5)
            i--;
        p = atd_writer_room(w, p, ATD_INT64_CHARS);
        return p != NULL ? atd_write_int64(p, i) : NULL;
    }
    /* A large integral double, printed exactly (%.0f has no decimal point, so
     * the locale does not matter). */
    p = atd_writer_room(w, p, LARGE_INTEGRAL_CHARS);
    if (p == NULL)
        return NULL;
    int n = snprintf(p, LARGE_INTEGRAL_CHARS, "%.0f", v);
    return p + (n > 0 ? n : 0);
}

bool atd_writer_double_as_int(atd_writer *w, double v)
{
    return atd_writer_finish(w, atd_writer_double_as_int_p(w, atd_writer_cursor(w), v));
}

bool atd_writer_bool(atd_writer *w, bool v)
{
    return v ? atd_writer_raw(w, "true", 4) : atd_writer_raw(w, "false", 5);
}

bool atd_writer_json(atd_writer *w, const atd_json *v)
{
    atd_error e;
    int rc = atd_json_write(v, w->buf, &e);
    if (rc != 0) {
        /* The generic writer reports its own path relative to the value
         * ("$.a[2]"): keep its detail, and make that path the innermost
         * segment so that the final path is whole ("$.values[1].a[2]"). */
        size_t plen = strlen(e.path);
        atd_writer_fail(w, (atd_error_code)rc, e.detail);
        if (plen > 1 && e.path[0] == '$')
            atd__path_push_raw(&w->err_path, e.path + 1, plen - 1);
        return false;
    }
    return true;
}

char *atd_writer_json_p(atd_writer *w, char *p, const atd_json *v)
{
    /* the generic writer appends to the buffer: the cursor is committed,
     * then taken back after it */
    atd_writer_commit(w, p);
    return atd_writer_json(w, v) ? atd_writer_cursor(w) : NULL;
}
