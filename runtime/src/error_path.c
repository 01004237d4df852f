/* Error paths (error_path.h). Segments are stored innermost first, each
 * followed by one byte holding its length, so that composing walks them
 * backwards (outermost first) without moving anything while failing code
 * unwinds. */
#include "error_path.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Longest key shown in a segment, in rendered bytes. */
#define KEY_SHOWN_MAX 64

void atd__path_clear(atd_error_path *p)
{
    p->len = 0;
    p->truncated = false;
}

void atd__path_push_raw(atd_error_path *p, const char *seg, size_t n)
{
    if (p->truncated)
        return;
    if (n == 0 || n > 255 || p->len + n + 1 > sizeof p->rev) {
        /* Dropping this segment means dropping every outer one too, or the
         * path shown would skip a level. */
        p->truncated = true;
        return;
    }
    memcpy(p->rev + p->len, seg, n);
    p->rev[p->len + n] = (char)(unsigned char)n;
    p->len += n + 1;
}

static bool is_identifier(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        bool alpha = (unsigned)((c | 0x20) - 'a') < 26 || c == '_';
        bool digit = (unsigned)(c - '0') < 10;
        if (!(alpha || (digit && i > 0)))
            return false;
    }
    return true;
}

size_t atd__render_byte(char *out, unsigned char c, bool key)
{
    static const char hex[] = "0123456789abcdef";
    if (key && (c == '"' || c == '\\')) {
        out[0] = '\\';
        out[1] = (char)c;
        return 2;
    }
    if (c >= 0x20 && c < 0x7f) {
        out[0] = (char)c;
        return 1;
    }
    out[0] = '\\';
    out[1] = 'x';
    out[2] = hex[c >> 4];
    out[3] = hex[c & 15];
    return 4;
}

void atd__path_push_field(atd_error_path *p, const char *name, size_t len)
{
    char seg[KEY_SHOWN_MAX + 16];
    size_t n = 0;
    if (name == NULL)
        len = 0;
    if (len <= KEY_SHOWN_MAX && is_identifier(name, len)) {
        seg[n++] = '.';
        memcpy(seg + n, name, len);
        n += len;
    } else {
        seg[n++] = '[';
        seg[n++] = '"';
        for (size_t i = 0; i < len; i++) {
            char tmp[4];
            size_t k = atd__render_byte(tmp, (unsigned char)name[i], true);
            if (n + k + 1 > KEY_SHOWN_MAX + 2) {
                memcpy(seg + n, "...", 3);
                n += 3;
                break;
            }
            memcpy(seg + n, tmp, k);
            n += k;
        }
        seg[n++] = '"';
        seg[n++] = ']';
    }
    atd__path_push_raw(p, seg, n);
}

void atd__path_push_index(atd_error_path *p, size_t index)
{
    char seg[32];
    int n = snprintf(seg, sizeof seg, "[%zu]", index);
    atd__path_push_raw(p, seg, n > 0 ? (size_t)n : 0);
}

void atd__path_compose(const atd_error_path *p, char *out, size_t cap)
{
    const char *root = p->truncated ? "$..." : "$";
    size_t len = strlen(root);
    memcpy(out, root, len);
    size_t pos = p->len;
    while (pos > 0) {
        size_t n = (unsigned char)p->rev[pos - 1];
        pos -= n + 1;
        if (len + n + 1 > cap) {
            /* Cannot happen with the current sizes; never overflow anyway. */
            if (len + 4 <= cap) {
                memcpy(out + len, "...", 3);
                len += 3;
            }
            break;
        }
        memcpy(out + len, p->rev + pos, n);
        len += n;
    }
    out[len] = '\0';
}
