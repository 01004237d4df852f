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
    w->block_at = w->body_at = 0;
    w->body_lines = -1;
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

/* The longest line that a joined `if` block may make. */
#define CW_JOIN_COLUMNS 100

/* Whether the text, a line's body without its indentation, is one jump
 * statement, which can follow an `if (...)` on its line without braces, or
 * a braced line of statements that ends with one, `{ f = 3; goto fail; }`
 * (the generated readers' and writers' exits). */
static bool cw_is_jump(const char *s, size_t len)
{
    static const char *const jumps[] = {"return ", "return;", "goto ", "break;", "continue;"};
    if (len >= 6 && memcmp(s, "{ ", 2) == 0 && memcmp(s + len - 3, "; }", 3) == 0) {
        size_t last = len - 3; /* the last statement starts after "{ " or "; " */
        while (last > 2 && memcmp(s + last - 2, "; ", 2) != 0)
            last--;
        return cw_is_jump(s + last, len - 2 - last);
    }
    for (size_t i = 0; i < sizeof jumps / sizeof jumps[0]; i++) {
        size_t n = strlen(jumps[i]);
        if (len >= n && memcmp(s, jumps[i], n) == 0)
            return true;
    }
    return false;
}

/* Joins the block that has just been closed, at the current depth, into one
 * line when it is `if (...) {`, one jump and `}`, and the result is short
 * enough. Returns whether it did; the closing "}" is then not printed. */
static bool cw_join_block(cw *w)
{
    if (w->body_lines != 1 || w->out.status != 0)
        return false;
    char *d = w->out.data;
    size_t indent = 4 * (size_t)w->depth;
    const char *head = d + w->block_at + indent;
    size_t head_len = w->body_at - w->block_at - 2; /* up to the space before "{\n" */
    size_t body_from = w->body_at + indent + 4;
    if (w->out.len <= body_from)
        return false;
    size_t body_len = w->out.len - body_from - 1;
    if (strncmp(head, "if (", 4) != 0 || head_len < indent + 6 ||
        memcmp(d + w->block_at + head_len - 2, ") ", 2) != 0 ||
        !cw_is_jump(d + body_from, body_len) || head_len + body_len > CW_JOIN_COLUMNS)
        return false;
    memmove(d + w->block_at + head_len, d + body_from, body_len);
    w->out.len = w->block_at + head_len + body_len;
    d[w->out.len++] = '\n';
    return true;
}

void cw_line(cw *w, const char *fmt, ...)
{
    va_list ap;
    if (w->body_lines == 0) {
        w->body_at = w->out.len;
        w->body_lines = 1;
    } else {
        w->body_lines = -1;
    }
    va_start(ap, fmt);
    cw_vline(w, 0, fmt, ap);
    va_end(ap);
}

void cw_open(cw *w, const char *fmt, ...)
{
    va_list ap;
    w->block_at = w->out.len;
    w->body_lines = 0;
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
    bool joined = strcmp(fmt, "}") == 0 && cw_join_block(w);
    w->body_lines = -1;
    if (joined)
        return;
    va_start(ap, fmt);
    cw_vline(w, 0, fmt, ap);
    va_end(ap);
}

void cw_mid(cw *w, const char *fmt, ...)
{
    va_list ap;
    w->body_lines = -1;
    assert(w->depth > 0);
    va_start(ap, fmt);
    cw_vline(w, -1, fmt, ap);
    va_end(ap);
}

void cw_cont(cw *w, const char *fmt, ...)
{
    va_list ap;
    w->body_lines = -1;
    va_start(ap, fmt);
    cw_vline(w, 1, fmt, ap);
    va_end(ap);
}

void cw_blank(cw *w)
{
    w->body_lines = -1;
    atd_buf_putc(&w->out, '\n');
}

void cw_label(cw *w, const char *fmt, ...)
{
    va_list ap;
    w->body_lines = -1;
    va_start(ap, fmt);
    cw_vappend(w, fmt, ap);
    va_end(ap);
    atd_buf_putc(&w->out, '\n');
}

void cw_comment(cw *w, const char *fmt, ...)
{
    va_list ap;
    w->body_lines = -1;
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

const char *cw_lit(cw *w, const char *bytes, size_t len)
{
    return cw_fmt(w, "ATD_LIT(\"%s\")", cw_c_string(w, bytes, len));
}
