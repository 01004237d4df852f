/* Layout of JSON text (see atd/pretty.h): the re-indenting pass, and the
 * writers built on it. Pretty output of a typed value or a generic one goes
 * writer -> small sink-bound buffer -> atd_pretty -> out, so the compact
 * writers are untouched and memory stays bounded. */
#include "atd/pretty.h"

#include "atd/reader.h"
#include "atd/writer.h"
#include "reader_internal.h"

#include <string.h>

#define INDENT 2
#define MID_CHUNK 4096

/* 64 spaces; the literal's terminating NUL is not part of the indentation. */
static const char spaces[] = "                                                                ";
#define SPACES_LEN (sizeof spaces - 1)

void atd_pretty_init(atd_pretty *p, atd_buf *out, bool compact)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->compact = compact;
}

static void newline(atd_pretty *p)
{
    atd_buf_putc(p->out, '\n');
    size_t n = p->depth * INDENT;
    while (n > 0) {
        size_t k = n < SPACES_LEN ? n : SPACES_LEN;
        atd_buf_append(p->out, spaces, k);
        n -= k;
    }
}

/* Before a value: the first one of a container goes on a new line. */
static void value_start(atd_pretty *p)
{
    if (p->open) {
        p->open = false;
        if (!p->compact)
            newline(p);
    }
}

int atd_pretty_feed(atd_pretty *p, const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && p->out->status == 0) {
        if (p->in_string) {
            /* Copy the run up to the closing quote or the next escape. */
            size_t j = i;
            if (p->in_string == 2) {
                j++;
                p->in_string = 1;
            }
            while (j < len && text[j] != '"' && text[j] != '\\')
                j++;
            if (j < len) {
                p->in_string = text[j] == '"' ? 0 : 2;
                j++;
            }
            atd_buf_append(p->out, text + i, j - i);
            i = j;
            continue;
        }
        char c = text[i];
        switch (c) {
        case ' ':
        case '\t':
        case '\n':
        case '\r':
            i++;
            break;
        case '[':
        case '{':
            value_start(p);
            atd_buf_putc(p->out, c);
            p->depth++;
            p->open = true;
            i++;
            break;
        case ']':
        case '}':
            if (p->depth > 0)
                p->depth--;
            if (p->open)
                p->open = false;
            else if (!p->compact)
                newline(p);
            atd_buf_putc(p->out, c);
            i++;
            break;
        case ',':
            atd_buf_putc(p->out, ',');
            if (!p->compact)
                newline(p);
            i++;
            break;
        case ':':
            if (p->compact)
                atd_buf_putc(p->out, ':');
            else
                atd_buf_append(p->out, ": ", 2);
            i++;
            break;
        case '"':
            value_start(p);
            atd_buf_putc(p->out, '"');
            p->in_string = 1;
            i++;
            break;
        default: {
            /* A number or literal: copied up to the next delimiter (the rest
             * may come in the next piece). */
            value_start(p);
            size_t j = i + 1;
            while (j < len && !(atd__char_class[(unsigned char)text[j]] & ATD__CC_DELIM))
                j++;
            atd_buf_append(p->out, text + i, j - i);
            i = j;
            break;
        }
        }
    }
    return p->out->status;
}

static int pretty_sink(void *ctx, const char *data, size_t len)
{
    return atd_pretty_feed(ctx, data, len);
}

/* The error of a failed write: the output buffer's own failure first (the
 * intermediate buffer only sees that its sink failed). */
static int write_failed(atd_writer *w, atd_buf *out, size_t start, atd_error *err)
{
    int rc;
    if (out->status != 0) {
        rc = out->status;
        atd_error_set(err, (atd_error_code)rc, NULL, NULL);
    } else {
        if (w->err_code == ATD_ERR_OK)
            atd_writer_fail_buf(w);
        rc = atd_writer_get_error(w, err);
    }
    if (out->sink == NULL && out->len > start)
        out->len = start;
    return rc;
}

int atd_write_value(atd_buf *out, atd_write_fn write, const void *value, unsigned flags,
                    atd_error *err)
{
    size_t start = out->len;
    atd_writer w;
    bool ok;
    if (!(flags & ATD_WRITE_PRETTY)) {
        atd_writer_init(&w, out, flags);
        ok = write(&w, value) && out->status == 0;
    } else {
        atd_pretty p;
        atd_buf mid;
        atd_pretty_init(&p, out, false);
        if (atd_buf_init_sink(&mid, pretty_sink, &p, MID_CHUNK) != 0) {
            atd_error_set(err, ATD_ERR_NOMEM, NULL, NULL);
            return ATD_ERR_NOMEM;
        }
        atd_writer_init(&w, &mid, flags & ~(unsigned)ATD_WRITE_PRETTY);
        ok = write(&w, value) && atd_buf_flush(&mid) == 0 && out->status == 0;
        if (!ok && w.err_code == ATD_ERR_OK && out->status == 0)
            atd_writer_fail_buf(&w);
        if (!ok)
            atd_buf_clear(&mid); /* the failed value's rest goes nowhere */
        atd_buf_free(&mid);
    }
    if (!ok)
        return write_failed(&w, out, start, err);
    atd_error_set(err, ATD_ERR_OK, NULL, NULL);
    return 0;
}

int atd_write_line(atd_buf *out, atd_write_fn write, const void *value, unsigned flags,
                   atd_error *err)
{
    size_t start = out->len;
    int rc = atd_write_value(out, write, value, flags & ~(unsigned)ATD_WRITE_PRETTY, err);
    if (rc != 0)
        return rc;
    atd_buf_putc(out, '\n');
    if (out->status != 0) {
        if (out->sink == NULL)
            out->len = start;
        atd_error_set(err, (atd_error_code)out->status, NULL, NULL);
        return out->status;
    }
    return 0;
}

int atd_json_write_pretty(const atd_json *v, atd_buf *out, atd_error *err)
{
    size_t start = out->len;
    atd_pretty p;
    atd_buf mid;
    atd_pretty_init(&p, out, false);
    if (atd_buf_init_sink(&mid, pretty_sink, &p, MID_CHUNK) != 0) {
        atd_error_set(err, ATD_ERR_NOMEM, NULL, NULL);
        return ATD_ERR_NOMEM;
    }
    int rc = atd_json_write(v, &mid, err);
    if (rc == 0 && atd_buf_flush(&mid) != 0)
        rc = mid.status;
    if (rc != 0)
        atd_buf_clear(&mid);
    atd_buf_free(&mid);
    if (rc != 0 && out->status != 0) {
        rc = out->status;
        atd_error_set(err, (atd_error_code)rc, NULL, NULL);
    }
    if (rc != 0 && out->sink == NULL)
        out->len = start;
    return rc;
}

int atd_json_reformat(const char *json, size_t len, atd_buf *out, unsigned flags, atd_error *err)
{
    atd_reader r;
    atd_reader_init(&r, json, len, NULL, 0);
    if (!atd_skip_value(&r) || !atd_read_end(&r)) {
        /* The skipper keeps no path; on this error path only, read again
         * with the generic reader, which names it ($.a[2]). */
        atd_arena *scratch = atd_arena_new(0, NULL);
        if (scratch != NULL) {
            atd_reader again;
            atd_json v;
            atd_reader_init(&again, json, len, scratch, 0);
            bool failed = !atd_json_read(&again, &v) || !atd_read_end(&again);
            if (failed && again.err_code == r.err_code && again.err_offset == r.err_offset) {
                int rc = atd_reader_get_error(&again, err);
                atd_arena_free(scratch);
                return rc;
            }
            atd_arena_free(scratch);
        }
        return atd_reader_get_error(&r, err);
    }
    size_t start = out->len;
    atd_pretty p;
    atd_pretty_init(&p, out, !(flags & ATD_WRITE_PRETTY));
    int rc = atd_pretty_feed(&p, json, len);
    if (rc != 0) {
        if (out->sink == NULL)
            out->len = start;
        atd_error_set(err, (atd_error_code)rc, NULL, NULL);
        return rc;
    }
    atd_error_set(err, ATD_ERR_OK, NULL, NULL);
    return 0;
}
