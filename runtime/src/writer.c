/* JSON writing primitives on atd_buf: string escaping (atd-spec 10.4), the
 * strict UTF-8 check that guards it, and the int/double helpers.
 *
 * Strings dominate output time, so escaping tests 8 bytes at a time (SWAR) and
 * copies whole words while they hold nothing to escape; UTF-8 validation skips
 * ASCII a word at a time. Short strings are validated while they are escaped
 * into the reserved space, which is committed only if they are valid; long
 * strings are validated first. Either way a failing write leaves the buffer as
 * it was. Long strings are
 * escaped in pieces sized to the room left in the buffer, never by reserving
 * the 6x worst case of the whole string: a 1 GB string through a sink needs only
 * the sink's chunk. */
#include "atd/writer.h"
#include "atd/error.h"

#include <string.h>

/* Strings up to this length are escaped with a single worst-case reservation. */
#define SMALL_STRING 4096

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)
#define LOWS UINT64_C(0x7f7f7f7f7f7f7f7f)

static uint64_t load64(const char *s)
{
    uint64_t w;
    memcpy(&w, s, 8);
    return w;
}

/* High bit set in each byte of w equal to zero; exact per byte (no borrow
 * between bytes, unlike the shorter (w - ONES) & ~w form). */
static uint64_t zero_bytes(uint64_t w)
{
    return ~(((w & LOWS) + LOWS) | w) & HIGHS;
}

/* High bit set in each byte that must be escaped: < 0x20, '"', '\\', 0x7f.
 * Bytes >= 0x80 are never flagged. */
static inline uint64_t special_bytes(uint64_t w)
{
    /* For a byte t < 0x80, t + 0x60 has its high bit set iff t >= 0x20. */
    uint64_t below_space = ~((w & LOWS) + ONES * 0x60) & ~w & HIGHS;
    return below_space | zero_bytes(w ^ (ONES * '"')) | zero_bytes(w ^ (ONES * '\\')) |
           zero_bytes(w ^ (ONES * 0x7f));
}

/* Index of the first flagged byte in memory order. */
static unsigned first_flagged(uint64_t mask)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (unsigned)__builtin_ctzll(mask) >> 3;
#else
    unsigned char bytes[8];
    memcpy(bytes, &mask, 8);
    unsigned i = 0;
    while (bytes[i] == 0)
        i++;
    return i;
#endif
}

/* For each byte: 0 when copied raw, else the letter after the backslash
 * ('u' for the \u00xx form). */
/* clang-format off */
static const char escape_letter[256] = {
    /* 0x00-0x1f: control bytes */
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
    ['"'] = '"',
    ['\\'] = '\\',
    [0x7f] = 'u',
};
/* clang-format on */

static const char hex_digits[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                    '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

static char *escape_byte(char *p, unsigned char c)
{
    char letter = escape_letter[c];
    *p++ = '\\';
    *p++ = letter;
    if (letter == 'u') {
        *p++ = '0';
        *p++ = '0';
        *p++ = hex_digits[c >> 4];
        *p++ = hex_digits[c & 15];
    }
    return p;
}

/* Escapes s[0..len) at p without quotes; p has room for 6 * len bytes. */
static char *escape_run(char *p, const char *s, size_t len)
{
    size_t i = 0;
    while (len - i >= 8) {
        uint64_t w = load64(s + i);
        uint64_t m = special_bytes(w);
        /* Store the whole word either way: the reservation covers it, and the
         * bytes after the special one are overwritten next. */
        memcpy(p, &w, 8);
        if (m == 0) {
            p += 8;
            i += 8;
            continue;
        }
        unsigned k = first_flagged(m);
        p += k;
        i += k;
        p = escape_byte(p, (unsigned char)s[i]);
        i++;
    }
    for (; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (escape_letter[c] == 0)
            *p++ = (char)c;
        else
            p = escape_byte(p, c);
    }
    return p;
}

char *atd_write_string_unchecked(char *p, const char *s, size_t len)
{
    *p++ = '"';
    p = escape_run(p, s, len);
    *p++ = '"';
    return p;
}

/* Length of the valid multi-byte sequence starting at s[0] (a byte >= 0x80),
 * or 0 when it is invalid or truncated. Follows the table of RFC 3629 4. */
static inline size_t utf8_sequence(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    if (c >= 0xc2 && c <= 0xdf) {
        return avail >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
    }
    if (c >= 0xe0 && c <= 0xef) {
        if (avail < 3 || (s[2] & 0xc0) != 0x80)
            return 0;
        unsigned char lo = c == 0xe0 ? 0xa0 : 0x80; /* no overlongs */
        unsigned char hi = c == 0xed ? 0x9f : 0xbf; /* no surrogates */
        return s[1] >= lo && s[1] <= hi ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        if (avail < 4 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
            return 0;
        unsigned char lo = c == 0xf0 ? 0x90 : 0x80; /* no overlongs */
        unsigned char hi = c == 0xf4 ? 0x8f : 0xbf; /* nothing above U+10FFFF */
        return s[1] >= lo && s[1] <= hi ? 4 : 0;
    }
    return 0; /* continuation byte, C0, C1 or F5..FF */
}

/* Escapes s[0..len) at p, without quotes, validating UTF-8 on the way: one
 * pass instead of two for strings written with a single reservation. Returns
 * NULL at the first invalid sequence (the caller then commits nothing). */
static char *escape_run_validate(char *p, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        if (len - i >= 8) {
            uint64_t w = load64(s + i);
            uint64_t m = special_bytes(w) | (w & HIGHS);
            memcpy(p, &w, 8);
            if (m == 0) {
                p += 8;
                i += 8;
                continue;
            }
            unsigned k = first_flagged(m);
            p += k;
            i += k;
        }
        unsigned char c = u[i];
        if (c < 0x80) {
            if (escape_letter[c] == 0)
                *p++ = (char)c;
            else
                p = escape_byte(p, c);
            i++;
            continue;
        }
        size_t n = utf8_sequence(u + i, len - i);
        if (n == 0)
            return NULL;
        /* A fixed-size copy compiles to one move instead of a memcpy call;
         * the reservation has 6 bytes per input byte, so 4 fit. */
        if (len - i >= 4)
            memcpy(p, s + i, 4);
        else
            memcpy(p, s + i, n);
        p += n;
        i += n;
    }
    return p;
}

bool atd_utf8_valid(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        if (len - i >= 8 && (load64(s + i) & HIGHS) == 0) {
            i += 8;
            continue;
        }
        if (u[i] < 0x80) {
            i++;
            continue;
        }
        size_t n = utf8_sequence(u + i, len - i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

/* Escapes a long string in pieces: each piece is as long as the free room
 * allows (6 output bytes per input byte in the worst case), so a sink-bound
 * buffer flushes between pieces and never grows. */
static int write_long_string(atd_buf *b, const char *s, size_t len)
{
    atd_buf_putc(b, '"');
    while (len > 0 && b->status == 0) {
        size_t n = (b->cap - b->len) / 6;
        if (n < len && n < 64) {
            size_t want = (len < SMALL_STRING ? len : SMALL_STRING) * 6;
            if (b->sink != NULL && want > b->chunk_size)
                want = b->chunk_size < 6 ? 6 : b->chunk_size;
            if (atd__buf_reserve_slow(b, want) == NULL)
                break;
            n = (b->cap - b->len) / 6;
        }
        if (n > len)
            n = len;
        char *p = escape_run(b->data + b->len, s, n);
        atd_buf_commit(b, p);
        s += n;
        len -= n;
    }
    atd_buf_putc(b, '"');
    return b->status;
}

int atd_write_string(atd_buf *b, const char *s, size_t len, unsigned flags)
{
    bool check = !(flags & ATD_WRITE_ALLOW_INVALID_UTF8);
    if (len <= SMALL_STRING && (b->sink == NULL || ATD_ESCAPED_MAX(len) <= b->chunk_size)) {
        char *p = atd_buf_reserve(b, ATD_ESCAPED_MAX(len));
        if (p == NULL)
            return check && !atd_utf8_valid(s, len) ? ATD_ERR_UTF8 : b->status;
        *p++ = '"';
        p = check ? escape_run_validate(p, s, len) : escape_run(p, s, len);
        if (p == NULL)
            return ATD_ERR_UTF8; /* nothing committed */
        *p++ = '"';
        atd_buf_commit(b, p);
        return 0;
    }
    /* A long string may be flushed piece by piece, so validate it first. */
    if (check && !atd_utf8_valid(s, len))
        return ATD_ERR_UTF8;
    return write_long_string(b, s, len);
}

void atd_buf_write_int64(atd_buf *b, int64_t v)
{
    char *p = atd_buf_reserve(b, ATD_INT64_CHARS);
    if (p != NULL)
        atd_buf_commit(b, atd_write_int64(p, v));
}

int atd_buf_write_double(atd_buf *b, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    /* All exponent bits set: NaN or an infinity (immune to -ffast-math). */
    if ((bits & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000))
        return ATD_ERR_NONFINITE;
    char *p = atd_buf_reserve(b, ATD_DOUBLE_CHARS);
    if (p == NULL)
        return b->status;
    atd_buf_commit(b, atd_write_double(p, v));
    return 0;
}
