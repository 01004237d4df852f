/* The code writer of cw.h: formats lines into an in-memory atd_buf with the
 * indentation given by the open blocks (4 spaces per level). Formatting goes
 * through vsnprintf into the buffer's reserved space, growing once when the
 * line is longer than the first guess. */
#include "cw.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cw_init(cw *w)
{
    atd_buf_init(&w->out);
    w->depth = 0;
}

void cw_free(cw *w)
{
    atd_buf_free(&w->out);
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

void cw_line(cw *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cw_indent(w);
    cw_vappend(w, fmt, ap);
    va_end(ap);
    atd_buf_putc(&w->out, '\n');
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
    cw_indent(w);
    cw_vappend(w, fmt, ap);
    va_end(ap);
    atd_buf_putc(&w->out, '\n');
}

void cw_mid(cw *w, const char *fmt, ...)
{
    va_list ap;
    assert(w->depth > 0);
    w->depth--;
    va_start(ap, fmt);
    cw_indent(w);
    cw_vappend(w, fmt, ap);
    va_end(ap);
    atd_buf_putc(&w->out, '\n');
    w->depth++;
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
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* A comment terminator inside user text (a doc string) would end the
     * comment early: break it up. */
    for (char *s = text; (s = strstr(s, "*/")) != NULL;)
        s[1] = '|';
    cw_indent(w);
    atd_buf_puts(&w->out, "/* ");
    atd_buf_puts(&w->out, text);
    atd_buf_puts(&w->out, " */\n");
}

void cw_end_item(cw *w)
{
    assert(w->depth == 0);
    (void)w;
}

char *cw_c_string(const char *bytes, size_t len)
{
    char *s = malloc(4 * len + 1);
    if (s == NULL)
        return NULL;
    char *p = s;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c == '"' || c == '\\' || c == '?') {
            *p++ = '\\';
            *p++ = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            *p++ = (char)c;
        } else {
            /* Always three octal digits, so a following digit cannot extend it. */
            *p++ = '\\';
            *p++ = (char)('0' + (c >> 6));
            *p++ = (char)('0' + ((c >> 3) & 7));
            *p++ = (char)('0' + (c & 7));
        }
    }
    *p = 0;
    return s;
}
