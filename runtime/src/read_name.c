/* Borrowed reads of names and their safe quoting (read_name.h). */
#include "atd/read_name.h"

#include "reader_internal.h"
#include "scan.h"

/* Everything but the plain name of atd_read_name_p's fast path. */
static ATD_NOINLINE const char *read_name_slow(atd_reader *r, const char *p, atd_string *out)
{
    const char *open_quote = atd_skip_ws_p(r, p);
    if (open_quote >= r->end || *open_quote != '"')
        return atd_fail_cursor(atd__fail_found(r, open_quote, ATD_ERR_TYPE, "a string"));
    const char *b, *e;
    bool esc;
    const char *q = atd__scan_string_p(r, open_quote, &b, &e, &esc);
    if (q == NULL)
        return NULL;
    if (ATD_LIKELY(!esc)) {
        out->ptr = b;
        out->len = (size_t)(e - b);
        return q;
    }
    /* Rare: escapes must be decoded. Scan again through the full reader,
     * which decodes into the arena; the string is known to be valid. */
    return atd_read_string_copy_p(r, open_quote, out);
}

const char *atd_read_name_p(atd_reader *r, const char *p, atd_string *out)
{
    /* Names are short plain ASCII: one wide scan, borrowed, no call. The
     * scan stops at every byte that needs a check, so what it settles is
     * valid as it stands. */
    const char *end = r->end;
    if (end - p >= 2 && *p == ' ')
        p++;
    if (ATD_LIKELY(p < end && *p == '"' && !(r->flags & ATD_READ_LENIENT))) {
        const char *q = atd__find_special_strict(p + 1, end);
        if (ATD_LIKELY(q < end && *q == '"')) {
            out->ptr = p + 1;
            out->len = (size_t)(q - p - 1);
            return q + 1;
        }
    }
    return read_name_slow(r, p, out);
}

bool atd_read_name(atd_reader *r, atd_string *out)
{
    return atd_reader_advance(r, atd_read_name_p(r, r->cur, out));
}

const char *atd_quote_name(const char *s, size_t len, char *buf, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    if (cap == 0)
        return buf;
    for (size_t i = 0; i < len && s != NULL; i++) {
        unsigned char c = (unsigned char)s[i];
        bool plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
        size_t need = plain ? 1 : 4;
        if (i == ATD_QUOTE_NAME_SHOWN || n + need + 4 > cap) {
            /* "..." and the NUL fit: the loop keeps 4 bytes free */
            for (const char *d = "..."; *d && n + 1 < cap; d++)
                buf[n++] = *d;
            break;
        }
        if (plain) {
            buf[n++] = (char)c;
        } else {
            buf[n++] = '\\';
            buf[n++] = 'x';
            buf[n++] = hex[c >> 4];
            buf[n++] = hex[c & 15];
        }
    }
    buf[n] = '\0';
    return buf;
}
