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

#include "alloc.h"
#include "atd/buf.h"

#define DIAG_DEFAULT_MAX_ERRORS 20

typedef enum diag_kind { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } diag_kind;

/* A diagnostic held back by diag_defer_begin: its formatted message (without
 * the location prefix and the quoted line, which are added when it is
 * printed) and the report order, the tie-break of the sort. */
struct diag_pending {
    diag_kind kind;
    ast_loc loc;
    char *msg;
    size_t len;
    size_t seq;
};

void diag_init(diag_ctx *d)
{
    memset(d, 0, sizeof *d);
    d->max_errors = DIAG_DEFAULT_MAX_ERRORS;
}

static void diag_pending_free(diag_ctx *d)
{
    for (size_t i = 0; i < d->npending; i++)
        util_free(d->pending[i].msg);
    util_free(d->pending);
    d->pending = NULL;
    d->npending = d->pending_cap = 0;
}

void diag_free(diag_ctx *d)
{
    diag_pending_free(d);
    d->deferring = false;
    util_free(d->sources);
    d->sources = NULL;
    d->nsources = d->sources_cap = 0;
}

void diag_add_source(diag_ctx *d, const char *path, const char *text, size_t len)
{
    if (d->nsources == d->sources_cap) {
        size_t cap = d->sources_cap ? d->sources_cap * 2 : 4;
        diag_source *s = util_realloc(d->sources, cap * sizeof *s);
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

/* Appends `fmt` formatted, straight into the buffer (a second pass when the
 * first guess of the length was short). */
static void diag_vappendf(atd_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char *p = atd_buf_reserve(b, 256);
    int n = p != NULL ? vsnprintf(p, 256, fmt, ap) : -1;
    if (n >= 256) {
        p = atd_buf_reserve(b, (size_t)n + 1);
        n = p != NULL ? vsnprintf(p, (size_t)n + 1, fmt, ap2) : -1;
    }
    va_end(ap2);
    if (p != NULL && n >= 0)
        atd_buf_commit(b, p + n);
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

/* Prints one diagnostic whose message is already formatted, applying the
 * error limit; `counted` when `errors`/`warnings` were incremented already
 * (at report time, for a deferred one). */
static void diag_deliver(diag_ctx *d, diag_kind kind, ast_loc loc, const char *msg, size_t len,
                         bool counted)
{
    if (kind == DIAG_NOTE) {
        if (d->last_dropped)
            return;
    } else {
        if (!counted) {
            if (kind == DIAG_ERROR)
                d->errors++;
            else
                d->warnings++;
        }
        d->last_dropped = d->stopped;
        if (d->stopped)
            return;
        if (kind == DIAG_ERROR && d->max_errors > 0 && ++d->limited > d->max_errors) {
            static const char too_many[] =
                "atdc: error: too many errors emitted, stopping now (use --max-errors N)\n";
            d->stopped = true;
            d->last_dropped = true;
            diag_emit(d, too_many, sizeof too_many - 1);
            return;
        }
    }

    atd_buf b;
    atd_buf_init_with(&b, util_allocator());
    static const char *const kinds[] = {"error", "warning", "note"};
    if (loc.file != NULL && loc.line > 0)
        diag_appendf(&b, "%s:%d:%d: %s: ", loc.file, loc.line, loc.col, kinds[kind]);
    else if (loc.file != NULL)
        diag_appendf(&b, "%s: %s: ", loc.file, kinds[kind]);
    else
        diag_appendf(&b, "atdc: %s: ", kinds[kind]);
    atd_buf_append(&b, msg, len);
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
    else
        diag_oom(d);
    atd_buf_free(&b);
}

void diag_oom(diag_ctx *d)
{
    static const char msg[] = "atdc: error: out of memory\n";
    d->errors++;
    if (d->oom)
        return;
    d->oom = true;
    diag_emit(d, msg, sizeof msg - 1);
}

/* Keeps a diagnostic for diag_defer_end; false when out of memory (it is
 * then printed at once: out of order beats lost). */
static bool diag_hold(diag_ctx *d, diag_kind kind, ast_loc loc, const char *msg, size_t len)
{
    if (d->npending == d->pending_cap) {
        size_t cap = d->pending_cap ? d->pending_cap * 2 : 16;
        struct diag_pending *p = util_realloc(d->pending, cap * sizeof *p);
        if (p == NULL)
            return false;
        d->pending = p;
        d->pending_cap = cap;
    }
    char *copy = util_malloc(len + 1);
    if (copy == NULL)
        return false;
    memcpy(copy, msg, len);
    copy[len] = '\0';
    struct diag_pending *e = &d->pending[d->npending];
    e->kind = kind;
    e->loc = loc;
    e->msg = copy;
    e->len = len;
    e->seq = d->npending;
    d->npending++;
    return true;
}

static void diag_vreport(diag_ctx *d, diag_kind kind, ast_loc loc, const char *fmt, va_list ap)
{
    atd_buf m;
    atd_buf_init_with(&m, util_allocator());
    diag_vappendf(&m, fmt, ap);
    if (m.status != 0) {
        diag_oom(d);
        atd_buf_free(&m);
        return;
    }
    const char *msg = m.data != NULL ? m.data : "";
    size_t len = m.len;
    /* A note with nothing held before it belongs to a diagnostic printed
     * before the deferral began: it is printed at once, like that one. */
    bool hold = d->deferring && (kind != DIAG_NOTE || d->npending > 0);
    if (hold && diag_hold(d, kind, loc, msg, len)) {
        if (kind == DIAG_ERROR)
            d->errors++;
        else if (kind == DIAG_WARNING)
            d->warnings++;
    } else {
        diag_deliver(d, kind, loc, msg, len, false);
    }
    atd_buf_free(&m);
}

void diag_defer_begin(diag_ctx *d)
{
    d->deferring = true;
}

/* Orders the heads (errors and warnings) of held groups by file, then
 * position, then report order. Locations without a file go last. */
static int diag_pending_cmp(const void *pa, const void *pb)
{
    const struct diag_pending *a = *(const struct diag_pending *const *)pa;
    const struct diag_pending *b = *(const struct diag_pending *const *)pb;
    if ((a->loc.file == NULL) != (b->loc.file == NULL))
        return a->loc.file == NULL ? 1 : -1;
    if (a->loc.file != NULL && a->loc.file != b->loc.file) {
        int c = strcmp(a->loc.file, b->loc.file);
        if (c != 0)
            return c;
    }
    if (a->loc.file != NULL && a->loc.offset != b->loc.offset)
        return a->loc.offset < b->loc.offset ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq ? 1 : 0;
}

void diag_defer_end(diag_ctx *d)
{
    d->deferring = false;
    size_t nheads = 0;
    for (size_t i = 0; i < d->npending; i++)
        if (d->pending[i].kind != DIAG_NOTE)
            nheads++;
    struct diag_pending **heads = util_malloc((nheads ? nheads : 1) * sizeof *heads);
    if (heads == NULL) {
        /* Out of memory: report order is still a complete report. */
        for (size_t i = 0; i < d->npending; i++)
            diag_deliver(d, d->pending[i].kind, d->pending[i].loc, d->pending[i].msg,
                         d->pending[i].len, true);
        diag_pending_free(d);
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < d->npending; i++)
        if (d->pending[i].kind != DIAG_NOTE)
            heads[k++] = &d->pending[i];
    qsort(heads, nheads, sizeof *heads, diag_pending_cmp);
    /* Each head is printed with the notes that follow it in report order. */
    for (k = 0; k < nheads; k++) {
        size_t i = (size_t)(heads[k] - d->pending);
        do {
            const struct diag_pending *e = &d->pending[i];
            diag_deliver(d, e->kind, e->loc, e->msg, e->len, true);
            i++;
        } while (i < d->npending && d->pending[i].kind == DIAG_NOTE);
    }
    util_free(heads);
    diag_pending_free(d);
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

static const char *const diag_warn_names[DIAG_W_COUNT] = {
    "unknown-annotation",  "misplaced-annotation", "ignored-annotation",
    "obsolete-annotation", "unused-import",
};

const char *diag_warn_name(diag_warn_kind kind)
{
    return (unsigned)kind < DIAG_W_COUNT ? diag_warn_names[kind] : "?";
}

bool diag_warn_lookup(const char *name, diag_warn_kind *out)
{
    for (unsigned i = 0; i < DIAG_W_COUNT; i++) {
        if (strcmp(diag_warn_names[i], name) == 0) {
            *out = (diag_warn_kind)i;
            return true;
        }
    }
    return false;
}

void diag_warn(diag_ctx *d, diag_warn_kind kind, ast_loc loc, const char *fmt, ...)
{
    if (d->warn_disabled & (1u << kind))
        return;
    atd_buf m;
    atd_buf_init_with(&m, util_allocator());
    va_list ap;
    va_start(ap, fmt);
    diag_vappendf(&m, fmt, ap);
    va_end(ap);
    diag_appendf(&m, " [-W%s%s]", d->werror ? "error=" : "", diag_warn_name(kind));
    atd_buf_putc(&m, '\0');
    if (m.status != 0) {
        diag_oom(d);
        atd_buf_free(&m);
        return;
    }
    const char *msg = m.data;
    if (d->werror)
        diag_error(d, loc, "%s", msg);
    else
        diag_warning(d, loc, "%s", msg);
    atd_buf_free(&m);
}
