/* Diagnostics (diag.h): formats errors, warnings and notes the way gcc does --
 * a `file:line:col: kind: message` line, the quoted source line behind a
 * gutter, and a caret line underlining the location -- and hands each
 * complete diagnostic to the sink in one call, so a capturing sink never sees
 * half a message. The error limit is enforced here, not in the callers: past
 * it, one "too many errors" line is printed and everything else is dropped
 * (but still counted, so the exit status stays right). */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atd/buf.h"

#define DIAG_DEFAULT_MAX_ERRORS 20

typedef enum diag_kind { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } diag_kind;

void diag_init(diag_ctx *d)
{
    memset(d, 0, sizeof *d);
    d->max_errors = DIAG_DEFAULT_MAX_ERRORS;
}

void diag_free(diag_ctx *d)
{
    free(d->sources);
    d->sources = NULL;
    d->nsources = d->sources_cap = 0;
}

void diag_add_source(diag_ctx *d, const char *path, const char *text, size_t len)
{
    if (d->nsources == d->sources_cap) {
        size_t cap = d->sources_cap ? d->sources_cap * 2 : 4;
        diag_source *s = realloc(d->sources, cap * sizeof *s);
        if (s == NULL)
            return; /* lines just won't be quoted for this file */
        d->sources = s;
        d->sources_cap = cap;
    }
    diag_source src = {path, text, len};
    d->sources[d->nsources++] = src;
}

bool diag_should_stop(const diag_ctx *d)
{
    return d->stopped;
}

static void diag_emit(diag_ctx *d, const char *text, size_t len)
{
    if (d->sink != NULL) {
        d->sink(d->sink_ctx, text, len);
        return;
    }
    fwrite(text, 1, len, stderr);
    fflush(stderr);
}

static const diag_source *diag_find_source(const diag_ctx *d, const char *path)
{
    for (size_t i = d->nsources; i-- > 0;)
        if (d->sources[i].path == path || strcmp(d->sources[i].path, path) == 0)
            return &d->sources[i];
    return NULL;
}

/* Appends `fmt` formatted; a message that does not fit the stack buffer is
 * formatted a second time into the heap. */
static void diag_vappendf(atd_buf *b, const char *fmt, va_list ap)
{
    char small[512];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        va_end(ap2);
        return;
    }
    if ((size_t)n < sizeof small) {
        atd_buf_append(b, small, (size_t)n);
    } else {
        char *big = malloc((size_t)n + 1);
        if (big != NULL) {
            vsnprintf(big, (size_t)n + 1, fmt, ap2);
            atd_buf_append(b, big, (size_t)n);
            free(big);
        }
    }
    va_end(ap2);
}

static void diag_appendf(atd_buf *b, const char *fmt, ...) ATD_PRINTF(2, 3);
static void diag_appendf(atd_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vappendf(b, fmt, ap);
    va_end(ap);
}

static int diag_digits(int n)
{
    int k = 1;
    while (n >= 10) {
        n /= 10;
        k++;
    }
    return k;
}

/* The quoted line and the caret line. The caret line copies the tabs of the
 * source line so that the caret sits under the right character in any tab
 * width; other control bytes are shown as spaces so the terminal (or a golden
 * file) never receives them raw. */
static void diag_quote(atd_buf *b, const diag_source *src, ast_loc loc)
{
    size_t off = loc.offset <= src->len ? loc.offset : src->len;
    size_t start = off;
    while (start > 0 && src->text[start - 1] != '\n')
        start--;
    size_t end = off;
    while (end < src->len && src->text[end] != '\n')
        end++;
    size_t shown_end = end;
    if (shown_end > start && src->text[shown_end - 1] == '\r')
        shown_end--;

    int width = diag_digits(loc.line);
    if (width < 4)
        width = 4;
    diag_appendf(b, " %*d | ", width, loc.line);
    for (size_t i = start; i < shown_end; i++) {
        unsigned char c = (unsigned char)src->text[i];
        atd_buf_putc(b, (c < 0x20 && c != '\t') || c == 0x7f ? ' ' : (char)c);
    }
    atd_buf_putc(b, '\n');

    diag_appendf(b, " %*s | ", width, "");
    for (size_t i = start; i < off; i++)
        atd_buf_putc(b, src->text[i] == '\t' ? '\t' : ' ');
    atd_buf_putc(b, '^');
    if (loc.end_line == loc.line && loc.end_offset > off) {
        size_t stop = loc.end_offset < shown_end ? loc.end_offset : shown_end;
        for (size_t i = off + 1; i < stop; i++)
            atd_buf_putc(b, '~');
    }
    atd_buf_putc(b, '\n');
}

static void diag_vreport(diag_ctx *d, diag_kind kind, ast_loc loc, const char *fmt, va_list ap)
{
    if (kind == DIAG_NOTE) {
        if (d->last_dropped)
            return;
    } else {
        if (kind == DIAG_ERROR)
            d->errors++;
        else
            d->warnings++;
        d->last_dropped = d->stopped;
        if (d->stopped)
            return;
        if (kind == DIAG_ERROR && d->max_errors > 0 && d->errors > d->max_errors) {
            static const char too_many[] =
                "atdc: error: too many errors emitted, stopping now (use --max-errors N)\n";
            d->stopped = true;
            d->last_dropped = true;
            diag_emit(d, too_many, sizeof too_many - 1);
            return;
        }
    }

    atd_buf b;
    atd_buf_init(&b);
    static const char *const kinds[] = {"error", "warning", "note"};
    if (loc.file != NULL && loc.line > 0)
        diag_appendf(&b, "%s:%d:%d: %s: ", loc.file, loc.line, loc.col, kinds[kind]);
    else if (loc.file != NULL)
        diag_appendf(&b, "%s: %s: ", loc.file, kinds[kind]);
    else
        diag_appendf(&b, "atdc: %s: ", kinds[kind]);
    diag_vappendf(&b, fmt, ap);
    atd_buf_putc(&b, '\n');
    bool same_place = kind == DIAG_NOTE && loc.file == d->last_loc.file &&
                      loc.offset == d->last_loc.offset && loc.end_offset == d->last_loc.end_offset;
    if (kind != DIAG_NOTE)
        d->last_loc = loc;
    const diag_source *src =
        loc.file != NULL && loc.line > 0 && !same_place ? diag_find_source(d, loc.file) : NULL;
    if (src != NULL)
        diag_quote(&b, src, loc);
    if (b.status == 0)
        diag_emit(d, b.data, b.len);
    atd_buf_free(&b);
}

void diag_error(diag_ctx *d, ast_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, DIAG_ERROR, loc, fmt, ap);
    va_end(ap);
}

void diag_warning(diag_ctx *d, ast_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, DIAG_WARNING, loc, fmt, ap);
    va_end(ap);
}

void diag_note(diag_ctx *d, ast_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, DIAG_NOTE, loc, fmt, ap);
    va_end(ap);
}
