/* The code writer of cw.h: formats lines into an in-memory atd_buf with the
 * indentation given by the open blocks (4 spaces per level). Formatting goes
 * through vsnprintf into the buffer's reserved space, growing once when the
 * line is longer than the first guess. */
#include "cw.h"
#include "util/names.h"

#include "util/alloc.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cw_init(cw *w)
{
    atd_buf_init_with(&w->out, util_allocator());
    w->depth = 0;
    w->scratch = NULL;
}

void cw_free(cw *w)
{
    atd_buf_free(&w->out);
    atd_arena_free(w->scratch);
    w->scratch = NULL;
}

/* The scratch arena, whose memory lives until cw_free; NULL, recorded in
 * the output's status like a failed append, when out of memory. */
static atd_arena *cw_scratch_arena(cw *w)
{
    if (w->scratch == NULL)
        w->scratch = atd_arena_new(0, util_allocator());
    if (w->scratch == NULL)
        w->out.status = ATD_ERR_NOMEM;
    return w->scratch;
}

/* Scratch memory, or NULL (recorded) when out of memory. */
static void *cw_scratch(cw *w, size_t size, size_t align)
{
    atd_arena *a = cw_scratch_arena(w);
    void *p = a != NULL ? atd_arena_alloc(a, size, align) : NULL;
    if (a != NULL && p == NULL)
        w->out.status = ATD_ERR_NOMEM;
    return p;
}

void *cw_alloc(cw *w, size_t size)
{
    void *p = cw_scratch(w, size ? size : 1, 16);
    if (p != NULL)
        memset(p, 0, size ? size : 1);
    return p;
}

static const char *cw_vfmt(cw *w, const char *fmt, va_list ap)
{
    atd_arena *a = cw_scratch_arena(w);
    char *s = a != NULL ? util_arena_vprintf(a, fmt, ap) : NULL;
    if (a != NULL && s == NULL)
        w->out.status = ATD_ERR_NOMEM;
    return s != NULL ? s : "";
}

const char *cw_fmt(cw *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *s = cw_vfmt(w, fmt, ap);
    va_end(ap);
    return s;
}

/* Appends the formatted text, without indentation or newline. */
static void cw_vappend(cw *w, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char *p = atd_buf_reserve(&w->out, 256);
    int n = p ? vsnprintf(p, 256, fmt, ap) : -1;
    if (n >= 256) {
        p = atd_buf_reserve(&w->out, (size_t)n + 1);
        n = p ? vsnprintf(p, (size_t)n + 1, fmt, ap2) : -1;
    }
    va_end(ap2);
    if (p != NULL && n >= 0)
        atd_buf_commit(&w->out, p + n);
}

static void cw_indent(cw *w)
{
    for (int i = 0; i < w->depth; i++)
        atd_buf_append(&w->out, "    ", 4);
}

/* One formatted line, indented `shift` levels off the current depth. */
static void cw_vline(cw *w, int shift, const char *fmt, va_list ap)
{
    w->depth += shift;
    cw_indent(w);
    w->depth -= shift;
    cw_vappend(w, fmt, ap);
    atd_buf_putc(&w->out, '\n');
}

void cw_line(cw *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cw_vline(w, 0, fmt, ap);
    va_end(ap);
}

void cw_open(cw *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cw_indent(w);
    cw_vappend(w, fmt, ap);
    va_end(ap);
    size_t n = strlen(fmt);
    if (n == 0 || fmt[n - 1] != '{')
        atd_buf_append(&w->out, n == 0 ? "{" : " {", n == 0 ? 1 : 2);
    atd_buf_putc(&w->out, '\n');
    w->depth++;
}

void cw_close(cw *w, const char *fmt, ...)
{
    va_list ap;
    assert(w->depth > 0);
    w->depth--;
    va_start(ap, fmt);
    cw_vline(w, 0, fmt, ap);
    va_end(ap);
}

void cw_mid(cw *w, const char *fmt, ...)
{
    va_list ap;
    assert(w->depth > 0);
    va_start(ap, fmt);
    cw_vline(w, -1, fmt, ap);
    va_end(ap);
}

void cw_cont(cw *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cw_vline(w, 1, fmt, ap);
    va_end(ap);
}

void cw_blank(cw *w)
{
    atd_buf_putc(&w->out, '\n');
}

void cw_label(cw *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cw_vappend(w, fmt, ap);
    va_end(ap);
    atd_buf_putc(&w->out, '\n');
}

void cw_comment(cw *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *text = cw_vfmt(w, fmt, ap);
    va_end(ap);
    cw_indent(w);
    atd_buf_puts(&w->out, "/* ");
    /* A comment terminator inside user text (a doc string) would end the
     * comment early: break it up. */
    for (const char *s = text; *s != 0; s++)
        atd_buf_putc(&w->out, s[0] == '/' && s > text && s[-1] == '*' ? '|' : s[0]);
    atd_buf_puts(&w->out, " */\n");
}

void cw_end_item(cw *w)
{
    assert(w->depth == 0);
    (void)w;
}

const char *cw_c_string(cw *w, const char *bytes, size_t len)
{
    char *s = len < ((size_t)-1) / 4 ? cw_scratch(w, 4 * len + 1, 1) : NULL;
    if (s == NULL)
        return "";
    names_c_string(s, bytes, len);
    return s;
}
