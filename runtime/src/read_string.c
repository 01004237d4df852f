/* JSON strings on read: scanning with validation, then either borrowing the
 * bytes, copying them, or decoding escapes into the arena.
 * Object keys use the same path and are borrowed whenever possible.
 *
 * The common string is ASCII: the fast path copies it into the arena's
 * free room 16 bytes at a time as it scans (32 with AVX2), decoding short
 * escapes such as \/ on the way (with AVX-512 VBMI2, every \/ of a block
 * at once, by one compress). A string that needs more (\uXXXX, non-ASCII text) and is
 * copied goes on in one pass from
 * there (atd__decode_text, utf8.h: 32 or 64 bytes per step with AVX2 or
 * AVX-512), which copies, checks the UTF-8 and decodes every escape as it
 * goes. A borrowed string is validated in place and, at its first escape,
 * copied so far and decoded on in the same pass. Everything else (keys,
 * lenient mode, errors, a chunk too small) takes the general path: a scan
 * that checks everything (escapes, surrogate pairs, UTF-8, raw control
 * bytes), then a second pass that decodes, trusting its input and knowing
 * the result is no longer than the raw body.
 *
 * UTF-8 is checked against the table of well-formed sequences (Unicode 3.9,
 * table 3-7): no overlongs, no encoded surrogates, nothing above U+10FFFF,
 * no truncated sequences or stray continuation bytes. Non-ASCII text goes
 * to the block validator (atd__scan_text, or the decoder), which only says
 * yes or no; when it says no, the sequence-by-sequence check runs over the
 * same text to name the offending byte, so the errors are the same
 * whichever kernel ran. */
#include "atd/detail/copy.h"
#include "atd/reader.h"
#include "reader_internal.h"
#include "scan.h"
#include "utf8.h"

#include <string.h>

#if ATD__HAVE_AVX2_KERNELS
#include <immintrin.h>
#endif

#if defined(__GNUC__) || defined(__clang__)
#define ATD_NOINLINE_KEY __attribute__((noinline))
#else
#define ATD_NOINLINE_KEY
#endif

/* ------------------------------------------------------------------------ */
/* Finding the next byte that needs attention                                */
/* ------------------------------------------------------------------------ */

/* Strict mode: atd__find_special_strict (scan.h), shared with the keys. */

/* Lenient mode: only '"' and '\\' stop the scan. */
static const char *find_special_lenient(const char *p, const char *end)
{
#if ATD__SSE2
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash));
        unsigned bits = (unsigned)_mm_movemask_epi8(m);
        if (bits)
            return p + atd__lowest_bit(bits);
        p += 16;
    }
#endif
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        uint64_t m = atd__swar_eq(x, '"') | atd__swar_eq(x, '\\');
        if (m) {
            int i = atd__swar_first(m);
            if (i >= 0)
                return p + i;
            break;
        }
        p += 8;
    }
    for (; p < end; p++) {
        if (*p == '"' || *p == '\\')
            return p;
    }
    return end;
}

/* ------------------------------------------------------------------------ */
/* Escapes                                                                   */
/* ------------------------------------------------------------------------ */

static bool fail_unterminated(atd_reader *r, const char *open_quote)
{
    return atd_reader_fail_at(r, (size_t)(open_quote - r->start), ATD_ERR_EOF,
                              "unterminated string");
}

/* Reads the 4 hex digits after "\u" at p (p points at the backslash).
 * Returns the value, or -1 after recording an error. */
static long read_u_escape(atd_reader *r, const char *p, const char *open_quote)
{
    long v = 0;
    for (int i = 2; i < 6; i++) {
        if (r->end - p <= i)
            return fail_unterminated(r, open_quote), -1;
        unsigned d = atd__hex_values[(unsigned char)p[i]];
        if (d > 15) {
            /* Quote the escape as far as it goes, printable. */
            char shown[32];
            size_t n = 0;
            for (int j = 0; j <= i; j++) {
                unsigned char c = (unsigned char)p[j];
                if (c >= 0x20 && c < 0x7f) {
                    shown[n++] = (char)c;
                } else {
                    static const char hex[] = "0123456789abcdef";
                    shown[n++] = '\\';
                    shown[n++] = 'x';
                    shown[n++] = hex[c >> 4];
                    shown[n++] = hex[c & 15];
                }
            }
            shown[n] = '\0';
            atd_reader_fail_at(r, (size_t)(p - r->start), ATD_ERR_STRING,
                               "invalid escape '%s' in string", shown);
            return -1;
        }
        v = v * 16 + d;
    }
    return v;
}

/* Handles the escape at p (a backslash inside the string that opened at
 * open_quote). Writes its UTF-8 bytes to out (room for 4) when out is not
 * NULL, sets *n to their count, and returns the byte after the escape, or
 * NULL after recording an error. */
static const char *escape(atd_reader *r, const char *p, const char *open_quote, char *out,
                          size_t *n)
{
    char tmp[4];
    if (!out)
        out = tmp;
    if (r->end - p < 2)
        return fail_unterminated(r, open_quote), NULL;
    unsigned char c = atd__short_escapes[(unsigned char)p[1]];
    if (c != 0) {
        out[0] = (char)c;
        *n = 1;
        return p + 2;
    }
    if (p[1] != 'u') {
        unsigned char b = (unsigned char)p[1];
        if (b >= 0x20 && b < 0x7f)
            atd_reader_fail_at(r, (size_t)(p - r->start), ATD_ERR_STRING,
                               "invalid escape '\\%c' in string", (char)b);
        else
            atd_reader_fail_at(r, (size_t)(p - r->start), ATD_ERR_STRING,
                               "invalid escape '\\\\x%02x' in string", b);
        return NULL;
    }
    long u = read_u_escape(r, p, open_quote);
    if (u < 0)
        return NULL;
    const char *after = p + 6;
    if (u >= 0xd800 && u <= 0xdbff) {
        /* A high surrogate: the pair's low half must follow at once. */
        if (r->end - after >= 2 && after[0] == '\\' && after[1] == 'u') {
            long lo = read_u_escape(r, after, open_quote);
            if (lo < 0)
                return NULL;
            if (lo >= 0xdc00 && lo <= 0xdfff) {
                unsigned cp = 0x10000u + (((unsigned)u - 0xd800u) << 10) + ((unsigned)lo - 0xdc00u);
                *n = atd__utf8_encode(out, cp);
                return after + 6;
            }
        }
    }
    if (u >= 0xd800 && u <= 0xdfff && !(r->flags & ATD_READ_LENIENT)) {
        atd_reader_fail_at(r, (size_t)(p - r->start), ATD_ERR_STRING,
                           "lone surrogate '\\u%.4s' in string", p + 2);
        return NULL;
    }
    *n = atd__utf8_encode(out, (unsigned)u);
    return after;
}

/* ------------------------------------------------------------------------ */
/* Scanning                                                                  */
/* ------------------------------------------------------------------------ */

/* Strict-mode handling of a byte the fast scan stopped at that is neither a
 * quote nor a backslash: a UTF-8 sequence to validate, or a control byte.
 * Returns the byte after it, or NULL after recording an error. */
static const char *strict_other(atd_reader *r, const char *p, const char *open_quote)
{
    unsigned char c = (unsigned char)*p;
    if (c < 0x20) {
        atd_reader_fail_at(r, (size_t)(p - r->start), ATD_ERR_STRING,
                           "raw control byte 0x%02x in string (must be escaped)", c);
        return NULL;
    }
    const unsigned char *u = (const unsigned char *)p;
    const unsigned char *uend = (const unsigned char *)r->end;
    for (;;) {
        /* Non-ASCII text comes in runs, often with single ASCII bytes in
         * between (spaces, punctuation): hop over those here rather than go
         * back to the wide scan for one byte. */
        u = atd__utf8_skip(u, uend);
        if (u < uend && *u >= 0x80)
            break;
        if (uend - u >= 2 && u[1] >= 0x80 && u[0] >= 0x20 && u[0] != '"' && u[0] != '\\') {
            u++;
            continue;
        }
        return (const char *)u;
    }
    if (atd__utf8_sequence(u, uend) < 0)
        return fail_unterminated(r, open_quote), NULL;
    atd_reader_fail_at(r, (size_t)((const char *)u - r->start), ATD_ERR_UTF8,
                       "invalid UTF-8 byte 0x%02x in string", *u);
    return NULL;
}

/* From the backslash at p (end - p >= 2): past the escapes that need no
 * more than a check (the one-byte ones, \uXXXX outside the surrogates) and
 * the plain text between and after them, each escape costing the mode's
 * block scan rather than a turn of the general loop below. Returns the
 * stop byte at which it ended (or end), p itself when the escape at p is
 * none of those (a surrogate, an error: escape() takes it). */
static ATD__HOT_INLINE const char *past_plain_escapes(const char *p, const char *end, bool strict)
{
    for (;;) {
        unsigned u;
        if (atd__short_escapes[(unsigned char)p[1]] != 0)
            p += 2;
        else if (end - p >= 6 && p[1] == 'u' &&
                 (u = atd__hex4((const unsigned char *)p + 2)) <= 0xffff && u - 0xd800u >= 0x800u)
            p += 6;
        else
            return p;
        /* a run of escapes ("\u3042\u3044", "\/\/"): the next one without
         * a scan, whose result the cursor would wait for */
        if (end - p < 2 || *p != '\\') {
            p = strict ? atd__find_special_strict(p, end) : find_special_lenient(p, end);
            if (end - p < 2 || *p != '\\')
                return p;
        }
    }
}

/* The general scan (scan.h), from p (inside the string opened at
 * open_quote) to the closing quote: escapes, UTF-8, control bytes, lenient
 * mode. */
const char *atd__scan_string_rest(atd_reader *r, const char *open_quote, const char *p,
                                  const char **body, const char **body_end, bool *has_escape)
{
    const char *end = r->end;
    bool strict = !(r->flags & ATD_READ_LENIENT);
    bool esc = false;
    for (;;) {
        if (p >= end)
            return atd_fail_cursor(fail_unterminated(r, open_quote));
        if (*p == '"')
            break;
        if (*p == '\\') {
            esc = true;
            /* a run of the escapes that need only a check; surrogate pairs
             * and errors in escape() */
            const char *q = end - p >= 2 ? past_plain_escapes(p, end, strict) : p;
            if (ATD_LIKELY(q != p)) {
                p = q;
                continue;
            }
            size_t n;
            p = escape(r, p, open_quote, NULL, &n);
        } else if ((unsigned char)*p >= 0x80) {
            /* Non-ASCII text: the block validator takes it up to the next
             * quote, backslash or control byte; only when it finds the text
             * ill-formed does the sequence-by-sequence check run, to name
             * the offending byte. */
            const char *q = atd__scan_text(p, end);
            if (ATD_LIKELY(q != NULL)) {
                p = q;
                continue;
            }
            p = strict_other(r, p, open_quote);
        } else {
            p = strict_other(r, p, open_quote);
        }
        if (!p)
            return NULL;
        /* a run of escapes ("\u3042\u3044", "\/\/"): the next one without
         * a scan, whose result the cursor would wait for */
        if (p < end && *p == '\\')
            continue;
        p = strict ? atd__find_special_strict(p, end) : find_special_lenient(p, end);
    }
    *body = open_quote + 1;
    *body_end = p;
    *has_escape = esc;
    return p + 1;
}

/* atd__scan_string_p, inline for read_string: the out-parameters then stay in
 * registers and the common string costs no call. */
static inline const char *scan_string(atd_reader *r, const char *open_quote, const char **body,
                                      const char **body_end, bool *has_escape)
{
    const char *p = open_quote + 1;
    const char *end = r->end;
    /* Most strings are plain ASCII up to the closing quote: one wide scan
     * settles them. Anything else continues in the general loop from where
     * the scan stopped. */
    if (ATD_LIKELY(!(r->flags & ATD_READ_LENIENT))) {
        p = atd__find_special_strict(p, end);
        if (ATD_LIKELY(p < end && *p == '"')) {
            *body = open_quote + 1;
            *body_end = p;
            *has_escape = false;
            return p + 1;
        }
    } else {
        p = find_special_lenient(p, end);
    }
    return atd__scan_string_rest(r, open_quote, p, body, body_end, has_escape);
}

const char *atd__scan_string_p(atd_reader *r, const char *p, const char **body,
                               const char **body_end, bool *has_escape)
{
    return scan_string(r, p, body, body_end, has_escape);
}

/* ------------------------------------------------------------------------ */
/* Decoding and the public readers                                           */
/* ------------------------------------------------------------------------ */

static bool fail_no_arena(atd_reader *r, const char *at)
{
    return atd_reader_fail_at(r, (size_t)(at - r->start), ATD_ERR_NOMEM,
                              "cannot store a string: the reader has no arena");
}

static bool fail_nomem(atd_reader *r, const char *at)
{
    return atd_reader_fail_at(r, (size_t)(at - r->start), ATD_ERR_NOMEM, "out of memory");
}

/* Decodes the validated body [b, e) of the string opened at open_quote into
 * the arena. The result is never longer than the body: every escape takes at
 * least as many bytes as it produces. */
static bool decode(atd_reader *r, const char *open_quote, const char *b, const char *e,
                   atd_string *out)
{
    if (!r->arena)
        return fail_no_arena(r, open_quote);
    char *dst = atd_arena_alloc(r->arena, (size_t)(e - b) + 1, 1);
    if (!dst)
        return fail_nomem(r, open_quote);
    char *d = dst;
    const char *p = b;
    while (p < e) {
        const char *bs = memchr(p, '\\', (size_t)(e - p));
        if (!bs) {
            memcpy(d, p, (size_t)(e - p));
            d += e - p;
            break;
        }
        memcpy(d, p, (size_t)(bs - p));
        d += bs - p;
        size_t n;
        p = escape(r, bs, open_quote, d, &n);
        if (!p)
            return false; /* not reached: the scan validated every escape */
        d += n;
    }
    *d = '\0';
    out->ptr = dst;
    out->len = (size_t)(d - dst);
    return true;
}

/* memcpy(dst, src, n), without a call, for the strings of at most
 * SHORT_COPY_MAX bytes that most are: longer than 64 bytes, blocks of 16
 * (the last one overlapping the one before, so every load stays inside
 * [src, src + n)); up to 64, atd__copy_short. */
#define SHORT_COPY_MAX 256

static inline void copy_short(char *dst, const char *src, size_t n)
{
    if (n > 64) {
        size_t i = 0;
        for (; i + 16 < n; i += 16)
            memcpy(dst + i, src + i, 16);
        memcpy(dst + n - 16, src + n - 16, 16);
    } else {
        atd__copy_short(dst, src, n);
    }
}

static inline void copy_short_or_memcpy(char *dst, const char *src, size_t n)
{
    if (n > SHORT_COPY_MAX)
        memcpy(dst, src, n);
    else
        copy_short(dst, src, n);
}

static bool copy_plain(atd_reader *r, const char *open_quote, const char *b, const char *e,
                       atd_string *out)
{
    if (!r->arena)
        return fail_no_arena(r, open_quote);
    /* atd_arena_alloc is inline: most strings cost no call besides memcpy. */
    size_t n = (size_t)(e - b);
    char *dst = atd_arena_alloc(r->arena, n + 1, 1);
    if (!dst)
        return fail_nomem(r, open_quote);
    copy_short_or_memcpy(dst, b, n);
    dst[n] = '\0';
    out->ptr = dst;
    out->len = (size_t)(e - b);
    return true;
}

/* The string scanned at open_quote, body [b, e), `after` past its closing
 * quote: decoded, borrowed or copied into *out. Returns after, or NULL. */
static inline const char *finish_string(atd_reader *r, const char *open_quote, const char *b,
                                        const char *e, bool esc, const char *after, atd_string *out,
                                        bool borrow)
{
    if (esc)
        return decode(r, open_quote, b, e, out) ? after : NULL;
    if (borrow) {
        out->ptr = b;
        out->len = (size_t)(e - b);
        return after;
    }
    return copy_plain(r, open_quote, b, e, out) ? after : NULL;
}

/* Reads a string at p; borrow says whether an escape-free string may point
 * into the input. */
static inline const char *read_string(atd_reader *r, const char *p, atd_string *out, bool borrow,
                                      const char *what)
{
    const char *open_quote = atd_skip_ws_p(r, p);
    if (open_quote >= r->end || *open_quote != '"')
        return atd_fail_cursor(atd__fail_found(r, open_quote, ATD_ERR_TYPE, what));
    const char *b, *e;
    bool esc;
    const char *q = scan_string(r, open_quote, &b, &e, &esc);
    if (q == NULL)
        return NULL;
    return finish_string(r, open_quote, b, e, esc, q, out, borrow);
}

/* The plain string between the quotes at open_quote and close_quote, copied
 * into the arena: the long ones and those that need a new chunk. */
static ATD_NOINLINE_KEY const char *copy_plain_at(atd_reader *r, const char *open_quote,
                                                  const char *close_quote, atd_string *out)
{
    if (!copy_plain(r, open_quote, open_quote + 1, close_quote, out))
        return NULL;
    return close_quote + 1;
}

/* The string at open_quote whose fast scan stopped at q, not its end. */
static ATD_NOINLINE_KEY const char *read_string_rest(atd_reader *r, const char *open_quote,
                                                     const char *q, atd_string *out)
{
    const char *b, *e;
    bool esc;
    const char *after = atd__scan_string_rest(r, open_quote, q, &b, &e, &esc);
    if (after == NULL)
        return NULL;
    return finish_string(r, open_quote, b, e, esc, after, out,
                         (r->flags & ATD_READ_BORROW_STRINGS) != 0);
}

/* The strict-mode string at open_quote, copied into the arena's current
 * chunk with its escapes decoded, in one pass (atd__decode_text) rather than
 * a scan and then a decode: what comes before `from` is already decoded at
 * the chunk's free room, up to `to`. Anything the kernel does not settle
 * (an error, a chunk too small) goes back to the general path from the
 * opening quote: it names the error as ever, or copies into a new chunk. */
static ATD_NOINLINE_KEY const char *read_string_decoding(atd_reader *r, const char *open_quote,
                                                         const char *from, char *to,
                                                         atd_string *out)
{
    atd_arena *a = r->arena;
    if (a->cur != NULL) {
        char *dst = a->cur;
        char *d = to;
        const char *p = atd__decode_text(d, a->end, from, r->end, &d);
        if (p != NULL && p != r->end && *p == '"' && d != a->end) {
            *d = '\0';
            size_t n = (size_t)(d - dst);
            out->ptr = (const char *)atd__arena_take(a, n + 1);
            out->len = n;
            return p + 1;
        }
    }
    return read_string_rest(r, open_quote, open_quote + 1, out);
}

/* The strict-mode string at open_quote, borrowed when it has no escape:
 * its body is plain ASCII up to q, where the wide scan stopped. Non-ASCII
 * text is validated on up to the next byte that needs attention; at the
 * first escape, the body so far is copied into the arena and the rest
 * decoded after it in the same pass (read_string_decoding). */
static ATD_NOINLINE_KEY const char *read_string_borrowing(atd_reader *r, const char *open_quote,
                                                          const char *q, atd_string *out)
{
    const char *end = r->end;
    while (q < end && (unsigned char)*q >= 0x80) {
        const char *t = atd__scan_text(q, end);
        if (t == NULL)
            break; /* ill-formed: the general path names the byte */
        q = t;
    }
    if (q < end) {
        size_t n = (size_t)(q - open_quote - 1);
        if (*q == '"') {
            out->ptr = open_quote + 1;
            out->len = n;
            return q + 1;
        }
        atd_arena *a = r->arena;
        if (*q == '\\' && a != NULL && a->cur != NULL && (size_t)(a->end - a->cur) >= n) {
            memcpy(a->cur, open_quote + 1, n);
            return read_string_decoding(r, open_quote, q, a->cur + n, out);
        }
    }
    return read_string_rest(r, open_quote, q, out);
}

/* Everything but the fast path of atd_read_string_p. */
static ATD_NOINLINE_KEY const char *read_string_slow(atd_reader *r, const char *p, atd_string *out)
{
    return read_string(r, p, out, (r->flags & ATD_READ_BORROW_STRINGS) != 0, "a string");
}

/* The strict-mode string at open_quote whose body is plain up to `from`:
 * the wide scan on from there, then the copy, or the general path. Out of
 * line (and the fast path of atd_read_string_p a leaf) where blocks copy
 * as they scan. */
#if ATD__SSE2
#define ATD_READ_STRING_FROM ATD_NOINLINE_KEY
#else
#define ATD_READ_STRING_FROM inline
#endif
static ATD_READ_STRING_FROM const char *read_string_from(atd_reader *r, const char *open_quote,
                                                         const char *from, atd_string *out)
{
    const char *end = r->end;
    const char *p = open_quote;
    const char *q = atd__find_special_strict(from, end);
    if (ATD_LIKELY(q < end && *q == '"')) {
        size_t n = (size_t)(q - p - 1);
        if (r->flags & ATD_READ_BORROW_STRINGS) {
            out->ptr = p + 1;
            out->len = n;
            return q + 1;
        }
        char *dst = NULL;
        if (ATD_LIKELY(n <= SHORT_COPY_MAX && r->arena != NULL))
            dst = (char *)atd__arena_alloc_here(r->arena, n + 1, 1);
        if (ATD_UNLIKELY(dst == NULL))
            return copy_plain_at(r, p, q, out);
        copy_short(dst, p + 1, n);
        dst[n] = '\0';
        out->ptr = dst;
        out->len = n;
        return q + 1;
    }
    /* escapes, non-ASCII text, control bytes: copies decode in one pass
     * from the start (the wide fast path hands them over before it gets
     * here, except near the end of the input or of the chunk), borrows go
     * on from where the scan stopped */
    if (r->flags & ATD_READ_BORROW_STRINGS)
        return read_string_borrowing(r, p, q, out);
    if (r->arena != NULL)
        return read_string_decoding(r, p, p + 1, r->arena->cur, out);
    return read_string_rest(r, p, q, out);
}
#undef ATD_READ_STRING_FROM

#if ATD__SSE2
/* What the block copies do at a byte s that stops a plain string, d where
 * its output goes (start: the string's copy in the arena's chunk): the
 * closing quote ends the copy (*out set, the cursor past the quote in *s);
 * a short escape is decoded in place (*s and *d past it); anything else
 * (\uXXXX, a bad escape, non-ASCII text, a control byte) needs the
 * decoder. The byte after s is input, before the blocks' limit. */
enum block_stop { BLOCK_CLOSED, BLOCK_DECODED, BLOCK_SPECIAL };
static ATD__HOT_INLINE enum block_stop block_stop(atd_arena *a, char *start, const char **sp,
                                                  char **dp, atd_string *out)
{
    const char *s = *sp;
    char *d = *dp;
    if (ATD_LIKELY(*s == '"')) {
        *d = '\0';
        a->cur = d + 1; /* atd__arena_take, with the cursor known */
        out->ptr = start;
        out->len = (size_t)(d - start);
        *sp = s + 1;
        return BLOCK_CLOSED;
    }
    /* every slash, as PHP and others write it: one compare of both bytes */
    unsigned char c = atd_bytes_eq(s, "\\/", 2) ? '/'
                      : *s == '\\'               ? atd__short_escapes[(unsigned char)s[1]]
                                                 : 0;
    if (ATD_LIKELY(c != 0)) {
        *d = (char)c;
        *dp = d + 1;
        *sp = s + 2;
        return BLOCK_DECODED;
    }
    return BLOCK_SPECIAL;
}

/* How many bytes from s, in the body of a string, the block copies may
 * take: what both the input (up to end) and the arena's chunk (from d,
 * where the copy of s goes) hold. The copy never runs ahead of the scan
 * (an escape shrinks it), so a limit on s bounds both. */
static ATD__HOT_INLINE size_t block_span(const atd_arena *a, const char *end, const char *s,
                                         const char *d)
{
    /* as integers: both are NULL before the arena's first chunk */
    size_t room = (size_t)((uintptr_t)a->end - (uintptr_t)d);
    size_t in_left = (size_t)(end - s);
    return in_left < room ? in_left : room;
}

/* The copied string at the quote p whose block copy stopped at s, its
 * output at d, short of the end (the last bytes of the input or of the
 * chunk): on from s when the copy holds everything before it (the scan
 * there stops at once when s is a byte that needs attention), or from the
 * start when an escape was decoded: what follows copies the body from the
 * opening quote. */
static inline const char *blocks_left_off(atd_reader *r, const atd_arena *a, const char *p,
                                          const char *s, const char *d, atd_string *out)
{
    if ((uintptr_t)d - (uintptr_t)a->cur != (uintptr_t)(s - (p + 1)))
        s = p + 1; /* as integers: both NULL before the first chunk */
    return read_string_from(r, p, s, out);
}

/* The block copy (read_string_blocks.h), 16 bytes a step with SSE2, 32
 * with AVX2 where the CPU has it (the reader's init asks it once; the
 * flag is read here without a call). */
#define BLOCK_BYTES 16
#define BLOCK_NAME(x) x##_16
#define BLOCK_TARGET
static ATD__HOT_INLINE unsigned block_copy_stops_16(const char *s, char *d)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
    _mm_storeu_si128((__m128i *)(void *)d, v);
    return atd__string_stops(v);
}
#define BLOCK_COPY_STOPS block_copy_stops_16
#include "read_string_blocks.h"

#if ATD__HAVE_AVX2_KERNELS
#define BLOCK_BYTES 32
#define BLOCK_NAME(x) x##_32
#define BLOCK_TARGET ATD__TARGET_AVX2
static ATD__TARGET_AVX2 ATD__HOT_INLINE unsigned block_copy_stops_32(const char *s, char *d)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)s);
    _mm256_storeu_si256((__m256i *)(void *)d, v);
    __m256i space = _mm256_set1_epi8(' ');
    __asm__("" : "+x"(space)); /* as in atd__string_stops */
    __m256i m = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')),
                                                _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'))),
                                _mm256_cmpgt_epi8(space, v));
    return (unsigned)_mm256_movemask_epi8(m);
}
#define BLOCK_COPY_STOPS block_copy_stops_32
#include "read_string_blocks.h"
#endif

#if ATD__HAVE_AVX512_KERNELS
/* The block copy 32 bytes a step with AVX-512 and VBMI2, for the CPUs that
 * have them. Where the other widths stop at every escape, and the next
 * block's load waits for the bit scan that found it, this one drops the
 * backslash of every \/ before the block's first other stop with one
 * compress (so a URL written by PHP costs no more than one without
 * escapes) and goes on by 32 bytes when the block has no other stop: the
 * next load waits for nothing but a branch. The rest is as in
 * read_string_blocks.h. */
static ATD__TARGET_AVX512_VBMI2 const char *copy_blocks_vbmi2(atd_reader *r, atd_arena *a,
                                                               const char *p, size_t done,
                                                               atd_string *out)
{
    const char *s = p + 1 + done;
    char *const start = a->cur;
    char *d = start;
    if (done != 0) /* copied by the inline half: the chunk is there */
        d += done;
    size_t n = block_span(a, r->end, s, d);
    if (n > 32) {
        const char *const last = s + (n - 32);
        const __m256i quote = _mm256_set1_epi8('"'), bslash = _mm256_set1_epi8('\\'),
                      slash = _mm256_set1_epi8('/'), space = _mm256_set1_epi8(' ');
        do {
            __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)s);
            uint32_t bs = _mm256_cmpeq_epi8_mask(v, bslash);
            /* the quote; control bytes and (negative) non-ASCII ones */
            uint32_t other =
                _mm256_cmpeq_epi8_mask(v, quote) | _mm256_cmplt_epi8_mask(v, space);
            /* a backslash before a '/' in the block: dropped (one at the
             * block's last byte is an other stop, settled alone) */
            uint32_t drop = bs & (_mm256_cmpeq_epi8_mask(v, slash) >> 1);
            other |= bs & ~drop;
            if (ATD_LIKELY(drop == 0)) {
                _mm256_storeu_si256((__m256i *)(void *)d, v);
                if (other == 0) {
                    s += 32;
                    d += 32;
                    continue;
                }
                size_t i = (size_t)_tzcnt_u32(other);
                s += i;
                d += i;
            } else {
                /* the bytes before the first other stop (all when there
                 * is none), less the dropped backslashes: a backslash
                 * there escapes a '/', never another backslash, which
                 * would be an other stop before it */
                uint32_t keep = ((other - 1) & ~other) & ~drop;
                _mm256_storeu_si256((__m256i *)(void *)d, _mm256_maskz_compress_epi8(keep, v));
                d += _mm_popcnt_u32(keep);
                if (other == 0) {
                    s += 32;
                    continue;
                }
                s += _tzcnt_u32(other);
            }
            enum block_stop k = block_stop(a, start, &s, &d, out);
            if (ATD_LIKELY(k == BLOCK_CLOSED))
                return s;
            if (k == BLOCK_SPECIAL)
                return read_string_decoding(r, p, s, d, out);
        } while (s < last);
    }
    return blocks_left_off(r, a, p, s, d, out);
}
#endif

static inline const char *copy_blocks_from(atd_reader *r, atd_arena *a, const char *p, size_t done,
                                           atd_string *out)
{
#if ATD__HAVE_AVX2_KERNELS /* (and AVX-512 ones) */
    unsigned k = atomic_load_explicit(&atd__cpu_chosen, memory_order_relaxed);
    if (k & ATD__CPU_AVX512_VBMI2)
        return copy_blocks_vbmi2(r, a, p, done, out);
    if (k & ATD__CPU_AVX2)
        return copy_blocks_from_32(r, a, p, done, out);
#endif
    return copy_blocks_from_16(r, a, p, done, out);
}
#endif

const char *atd__read_string_after_p(atd_reader *r, const char *p, unsigned n, atd_string *out)
{
#if ATD__SSE2
    return copy_blocks_from(r, r->copy_arena, p, n, out);
#else
    (void)n; /* not called: no inline half */
    return atd__read_string_p(r, p, out);
#endif
}

const char *atd__borrow_string_after_p(atd_reader *r, const char *p, unsigned n, atd_string *out)
{
    if (r->flags & ATD_READ_LENIENT)
        return atd__read_string_p(r, p, out);
    return read_string_from(r, p, p + 1 + n, out);
}

const char *atd__read_string_p(atd_reader *r, const char *p, atd_string *out)
{
    /* The common string (no whitespace or one space before it, strict
     * mode, ASCII with short escapes at most, room in the arena's current
     * chunk) is copied block by block as it is scanned; the rest
     * (whitespace runs, escapes, UTF-8, lenient mode, a new chunk, errors)
     * takes the general paths. */
    const char *end = r->end;
#if ATD__SSE2
    atd_arena *a = r->copy_arena; /* NULL: lenient, borrowing or no arena */
    if (ATD_LIKELY(a != NULL && end - p >= 2)) {
        p += *p == ' ';
        if (ATD_LIKELY(*p == '"'))
            return copy_blocks_from(r, a, p, 0, out);
    }
#endif
    /* borrowing, the scalar build, and what the blocks do not start on */
    if (end - p >= 2 && *p == ' ')
        p++;
    if (ATD_LIKELY(p < end && *p == '"' && !(r->flags & ATD_READ_LENIENT)))
        return read_string_from(r, p, p + 1, out);
    return read_string_slow(r, p, out);
}

bool atd_read_string(atd_reader *r, atd_string *out)
{
    return atd_reader_advance(r, atd_read_string_p(r, r->cur, out));
}

const char *atd_read_string_copy_p(atd_reader *r, const char *p, atd_string *out)
{
    return read_string(r, p, out, false, "a string");
}

bool atd_read_string_copy(atd_reader *r, atd_string *out)
{
    return atd_reader_advance(r, atd_read_string_copy_p(r, r->cur, out));
}

/* The key at p when it is not the plain one the fast path of
 * atd_object_key_p settles: whitespace or a comment first, escapes, non-
 * ASCII bytes, lenient mode, space before the colon, errors. */
static ATD_NOINLINE_KEY const char *object_key_slow(atd_reader *r, const char *p, atd_string *key)
{
    const char *end = r->end;
    if (!(p < end && *p == '"')) {
        p = atd_skip_ws_p(r, p);
        if (p >= end || *p != '"')
            return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, "an object key"));
    }
    if (!(r->flags & ATD_READ_LENIENT)) {
        const char *q = atd__find_special_strict(p + 1, end);
        if (q < end && *q == '"') {
            key->ptr = p + 1;
            key->len = (size_t)(q - p - 1);
            return atd__expect_p(r, q + 1, ':');
        }
    }
    p = read_string(r, p, key, true, "an object key");
    if (p == NULL)
        return NULL;
    return atd__expect_p(r, p, ':');
}

const char *atd_object_key_p(atd_reader *r, const char *p, atd_string *key)
{
    const char *q = atd__plain_key(r, p, key, NULL);
    return ATD_LIKELY(q != NULL) ? q : object_key_slow(r, p, key);
}

bool atd_object_key(atd_reader *r, atd_string *key)
{
    return atd_reader_advance(r, atd_object_key_p(r, r->cur, key));
}
