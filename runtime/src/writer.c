/* JSON writing primitives on atd_buf: string escaping (atdgen's forms), the
 * strict UTF-8 check that guards it, and the int/double helpers.
 *
 * Strings dominate output time, so escaping looks at 16 bytes at a time with
 * SSE2 (8 with SWAR words elsewhere or under ATD_NO_SIMD), copying each block
 * as it goes, and stops only at a byte to escape or, when validating, at a
 * non-ASCII byte: the run of non-ASCII text starting there is checked by the
 * shared UTF-8 validator (utf8.h) and copied in one piece. A string with
 * nothing to escape is thus a few block copies. Short strings are validated
 * while they are escaped into the reserved space, which is committed only if
 * they are valid; long strings are validated first. Either way a failing
 * write leaves the buffer as it was. Long strings are escaped in pieces sized
 * to the room left in the buffer, never by reserving the 6x worst case of the
 * whole string: a 1 GB string through a sink needs only the sink's chunk.
 *
 * On CPUs with AVX2 every string that is not short plain ASCII goes to the
 * kernel of escape_avx2.c instead, which escapes, validates and copies 32
 * bytes per step in a single pass; the SSE2/SWAR escaper here is the
 * portable twin (and what ATD_NO_SIMD builds run). */
#include "atd/writer.h"
#include "atd/detail/copy.h"
#include "atd/error.h"

#include "escape.h"
#include "utf8.h"

#include <string.h>

/* Strings up to this length are escaped with a single worst-case reservation. */
#define SMALL_STRING ATD__SHORT_STRING

#if defined(__SSE2__) && !defined(ATD_NO_SIMD)
#include <emmintrin.h>
#define BLOCK 16 /* bytes looked at per step: one SSE2 register */
#else
#define BLOCK 8 /* one 64-bit word (SWAR) */
#endif

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)
#define LOWS UINT64_C(0x7f7f7f7f7f7f7f7f)

/* clang-format off */
const char atd__escape_letter[256] = {
    /* 0x00-0x1f: control bytes */
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
    ['"'] = '"',
    ['\\'] = '\\',
    [0x7f] = 'u',
};
/* clang-format on */

/* The stop test, over 8 bytes (SWAR) or 16 (SSE2): a byte stops the copy when
 * it must be escaped ('"', '\\', < 0x20, 0x7f) or, when `high`, when it is
 * not ASCII (it then goes to the UTF-8 validator). */

/* Index of the lowest set bit (mask != 0). */
static inline unsigned lowest_bit(uint64_t mask)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(mask);
#else
    unsigned i = 0;
    while (!(mask & 1)) {
        mask >>= 1;
        i++;
    }
    return i;
#endif
}

#if BLOCK == 8
/* High bit set in each byte of w equal to zero; exact per byte (no borrow
 * between bytes, unlike the shorter (w - ONES) & ~w form). */
static inline uint64_t zero_bytes(uint64_t w)
{
    return ~(((w & LOWS) + LOWS) | w) & HIGHS;
}

/* High bit set in each byte of w that stops the copy. */
static inline uint64_t stops64(uint64_t w, bool high)
{
    /* For a byte t < 0x80, t + 0x60 has its high bit set iff t >= 0x20. */
    uint64_t below_space = ~((w & LOWS) + ONES * 0x60) & ~w & HIGHS;
    uint64_t m = below_space | zero_bytes(w ^ (ONES * '"')) | zero_bytes(w ^ (ONES * '\\')) |
                 zero_bytes(w ^ (ONES * 0x7f));
    return high ? m | (w & HIGHS) : m;
}

/* Index of the first stopping byte of the 8 in w (memory order), or 8. */
static inline unsigned first_stop64(uint64_t w, bool high)
{
    uint64_t m = stops64(w, high);
    if (m == 0)
        return 8;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    unsigned char bytes[8];
    memcpy(bytes, &m, 8);
    unsigned i = 0;
    while (bytes[i] == 0)
        i++;
    return i;
#else
    return lowest_bit(m) >> 3;
#endif
}
#endif

#if BLOCK == 16
/* Bit i set when byte i of v stops the copy. Signed, every byte >= 0x80 is
 * below 0x20, so one comparison finds both the control and the non-ASCII
 * bytes; without `high` the non-ASCII ones are masked out again. */
static inline __m128i stop_bytes128(__m128i v, bool high)
{
    __m128i ctl = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    if (!high)
        ctl = _mm_andnot_si128(_mm_cmplt_epi8(v, _mm_setzero_si128()), ctl);
    return _mm_or_si128(_mm_or_si128(ctl, _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))),
                        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')),
                                     _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f))));
}

static inline unsigned stops128(__m128i v, bool high)
{
    return (unsigned)_mm_movemask_epi8(stop_bytes128(v, high));
}
#endif

/* Copies the BLOCK bytes at s to p and returns the index of the first
 * stopping byte, or BLOCK. The bytes copied after a stop are overwritten
 * next (output never falls behind input). */
static ATD__HOT_INLINE unsigned copy_block(char *p, const char *s, bool high)
{
#if BLOCK == 16
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
    _mm_storeu_si128((__m128i *)(void *)p, v);
    unsigned m = stops128(v, high);
    return m != 0 ? lowest_bit(m) : 16;
#else
    uint64_t w = atd__load64(s);
    memcpy(p, &w, 8);
    return first_stop64(w, high);
#endif
}

/* copy_block for the n < BLOCK bytes left at the end of a string, without
 * reading past them: two loads overlapping in the middle cover the n bytes
 * as one block (padded with 'A', which never stops), and two stores write
 * them back. Returns the index of the
 * first stopping byte, or n. */
static ATD__HOT_INLINE unsigned copy_tail(char *p, const char *s, unsigned n, bool high)
{
#if BLOCK == 16
    if (n >= 8) {
        uint64_t a = atd__load64(s), b = atd__load64(s + n - 8);
        memcpy(p, &a, 8);
        memcpy(p + n - 8, &b, 8);
        unsigned m = stops128(_mm_set_epi64x((long long)b, (long long)a), high);
        if (m == 0)
            return n;
        unsigned k = lowest_bit(m);
        return k < 8 ? k : n - 16 + k;
    }
    if (n >= 4) {
        uint32_t a = atd__load32(s), b = atd__load32(s + n - 4);
        memcpy(p, &a, 4);
        memcpy(p + n - 4, &b, 4);
        unsigned m = stops128(_mm_set_epi32(0x41414141, 0x41414141, (int)b, (int)a), high);
        if (m == 0)
            return n;
        unsigned k = lowest_bit(m);
        return k < 4 ? k : n - 8 + k;
    }
#else
    if (n >= 4) {
        uint32_t a = atd__load32(s), b = atd__load32(s + n - 4);
        memcpy(p, &a, 4);
        memcpy(p + n - 4, &b, 4);
        uint64_t w;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = (uint64_t)a << 32 | b;
#else
        w = (uint64_t)b << 32 | a;
#endif
        unsigned k = first_stop64(w, high);
        return k == 8 ? n : k < 4 ? k : n - 8 + k;
    }
#endif
    for (unsigned i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (atd__escape_letter[c] != 0 || (high && c >= 0x80))
            return i;
        p[i] = (char)c;
    }
    return n;
}

static char *escape_run(char *p, const char *s, size_t len);

/* Escapes s[0..len) at p, without quotes; p has room for 6 * len bytes. With
 * `check` the UTF-8 is validated in the same pass: from the first non-ASCII
 * byte on, the text goes to the shared validator (utf8.h) a stretch at a
 * time, and the result is NULL at the first ill-formed or truncated
 * sequence. Forced inline: each call site gets its own copy with `check`
 * known, and a call would cost more than the loop on short strings. */
static ATD__HOT_INLINE char *escape_body(char *p, const char *s, size_t len, bool check)
{
    const char *end = s + len;
    for (;;) {
        size_t left = (size_t)(end - s);
        unsigned k;
        if (left >= BLOCK) {
            k = copy_block(p, s, check);
            if (k == BLOCK) {
                p += BLOCK;
                s += BLOCK;
                continue;
            }
        } else {
            k = copy_tail(p, s, (unsigned)left, check);
            if (k == left)
                return p + left;
        }
        p += k;
        s += k;
        unsigned char c = (unsigned char)*s;
        if (!check || c < 0x80) {
            p = atd__escape_byte(p, c);
            s++;
            continue;
        }
        /* Non-ASCII text (bytes >= 0x80 stop the copy only when checking):
         * the shared validator checks everything up to the next '"', '\\' or
         * control byte at once, and that stretch, valid now, is escaped
         * without checking (only DEL can still need an escape in it). */
        const char *q = atd__scan_text(s, end);
        if (q == NULL)
            return NULL;
        size_t n = (size_t)(q - s);
        if (ATD_LIKELY(memchr(s, 0x7f, n) == NULL)) {
            memcpy(p, s, n); /* plain text: one copy */
            p += n;
        } else {
            p = escape_run(p, s, n);
        }
        s = q;
    }
}

static NOINLINE char *escape_run(char *p, const char *s, size_t len)
{
    return escape_body(p, s, len, false);
}

static NOINLINE char *escape_run_validate(char *p, const char *s, size_t len)
{
    return escape_body(p, s, len, true);
}

#if ATD__HAVE_AVX2_KERNELS
/* Whether the CPU runs the AVX2 kernel of escape.h, as far as known: false
 * before the first probe. Where that is the only question (either answer
 * gives the same output) it is one load, with no call whose registers would
 * have to be saved around it. */
static inline bool wide_kernels_known(void)
{
    return (atomic_load_explicit(&atd__cpu_chosen, memory_order_relaxed) & ATD__CPU_AVX2) != 0;
}

static char *escape_text(char *p, const char *s, size_t len, bool check);

/* escape_text's first use: the probe, then the escape. */
static NOINLINE char *escape_text_probe(char *p, const char *s, size_t len, bool check)
{
    atd__cpu_kernels();
    return escape_text(p, s, len, check);
}
#endif

/* escape_body with the widest kernel the CPU has: the AVX2 one (escape.h)
 * escapes, validates and copies in one pass. Every route is a tail call. */
static ATD__HOT_INLINE char *escape_text(char *p, const char *s, size_t len, bool check)
{
#if ATD__HAVE_AVX2_KERNELS
    unsigned kernels = atomic_load_explicit(&atd__cpu_chosen, memory_order_relaxed);
    if (kernels & ATD__CPU_AVX2)
        return atd__escape_avx2(p, s, len, check);
    if (ATD_UNLIKELY(kernels == 0))
        return escape_text_probe(p, s, len, check);
#endif
    return check ? escape_run_validate(p, s, len) : escape_run(p, s, len);
}

char *atd_write_string_unchecked(char *p, const char *s, size_t len)
{
    *p++ = '"';
    p = escape_text(p, s, len, false);
    *p++ = '"';
    return p;
}

/* The first non-ASCII byte of [s, end), or end. */
static const char *skip_ascii(const char *s, const char *end)
{
#if BLOCK == 16
    while (end - s >= 16) {
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)s));
        if (m != 0)
            return s + lowest_bit(m);
        s += 16;
    }
#endif
    while (end - s >= 8 && (atd__load64(s) & HIGHS) == 0)
        s += 8;
    while (s != end && (unsigned char)*s < 0x80)
        s++;
    return s;
}

bool atd_utf8_valid(const char *s, size_t len)
{
    const char *end = s + len;
    for (;;) {
        s = skip_ascii(s, end);
        if (s == end)
            return true;
        const char *q =
            (const char *)atd__utf8_skip((const unsigned char *)s, (const unsigned char *)end);
        if (q == s || (q != end && (unsigned char)*q >= 0x80))
            return false;
        s = q;
    }
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
        char *p = escape_text(b->data + b->len, s, n, false);
        atd_buf_commit(b, p);
        s += n;
        len -= n;
    }
    atd_buf_putc(b, '"');
    return b->status;
}

/* The cases of write_string_after that are not a short string written in
 * the room already there: out of room, long strings, sinks. */
static NOINLINE int write_string_slow(atd_buf *b, const char *pre, size_t pre_len, const char *s,
                                      size_t len, unsigned flags)
{
    bool check = !(flags & ATD_WRITE_ALLOW_INVALID_UTF8);
    size_t max = pre_len + ATD_ESCAPED_MAX(len);
    if (len <= SMALL_STRING && (b->sink == NULL || max <= b->chunk_size)) {
        char *p = atd_buf_reserve(b, max);
        if (p == NULL)
            return check && !atd_utf8_valid(s, len) ? ATD_ERR_UTF8 : b->status;
        atd__copy_short(p, pre, pre_len);
        p += pre_len;
        *p++ = '"';
        p = escape_text(p, s, len, check);
        if (p == NULL)
            return ATD_ERR_UTF8; /* nothing committed */
        *p++ = '"';
        atd_buf_commit(b, p);
        return 0;
    }
    /* A long string may be flushed piece by piece, so validate it first. */
    if (check && !atd_utf8_valid(s, len))
        return ATD_ERR_UTF8;
    if (pre_len != 0)
        atd_buf_append(b, pre, pre_len);
    return write_long_string(b, s, len);
}

/* The atd_writer forms (writer.h) record the error; they live here so
 * that the short-string path is inlined into them. */
static NOINLINE bool string_failed(atd_writer *w, int rc)
{
    if (rc == ATD_ERR_UTF8)
        return atd_writer_fail(w, ATD_ERR_UTF8, "invalid UTF-8 in a string");
    return atd_writer_fail_buf(w);
}

/* The string quoted at p, or NULL when `check` finds it is not UTF-8. */
static ATD__HOT_INLINE char *quoted_text(char *p, const char *s, size_t len, bool check)
{
    *p++ = '"';
    p = escape_text(p, s, len, check);
    if (p == NULL)
        return NULL;
    *p++ = '"';
    return p;
}

/* The general case of plain_at: escapes, non-ASCII text, longer strings. */
static NOINLINE char *quoted_general(char *p, const char *s, size_t len, bool check)
{
    return quoted_text(p, s, len, check);
}

/* True when one of the 16 bytes of (a, b) must be escaped or is not ASCII. */
static inline bool any_stop16(uint64_t a, uint64_t b)
{
#if BLOCK == 16
    return stops128(_mm_set_epi64x((long long)b, (long long)a), true) != 0;
#else
    return (stops64(a, true) | stops64(b, true)) != 0;
#endif
}

/* The string, quoted, at p[0..len + 2) when it is plain ASCII with nothing
 * to escape, and then true; else false, with nothing written. A string of
 * at most 16 bytes (the usual key, name, enum or identifier; with SSE2 up to
 * 64) goes through here without a loop, a call or a saved register: it is
 * loaded as two overlapping pieces that cover it exactly (never reading
 * outside s[0..len)), tested in one step, and stored back the same way.
 * Longer strings are left to quoted_general. */
static ATD__HOT_INLINE bool plain_at(char *p, const char *s, size_t len)
{
    uint64_t a, b;
    if (len >= 8 && len <= 16) {
        a = atd__load64(s);
        b = atd__load64(s + len - 8);
        if (ATD_UNLIKELY(any_stop16(a, b)))
            return false;
        memcpy(p + 1, &a, 8);
        memcpy(p + 1 + len - 8, &b, 8);
    } else if (len >= 4 && len < 8) {
        uint32_t x = atd__load32(s), y = atd__load32(s + len - 4);
        a = (uint64_t)y << 32 | x;
        if (ATD_UNLIKELY(any_stop16(a, a)))
            return false;
        memcpy(p + 1, &x, 4);
        memcpy(p + 1 + len - 4, &y, 4);
    } else if (len < 4) {
        /* the first, middle and last bytes cover 1 to 3 bytes; 'A' stands
         * in for them when there are none */
        unsigned char x = len ? (unsigned char)s[0] : 'A';
        unsigned char y = len ? (unsigned char)s[len >> 1] : 'A';
        unsigned char z = len ? (unsigned char)s[len - 1] : 'A';
        a = (uint64_t)x | (uint64_t)y << 8 | (uint64_t)z << 16 | ONES * 'A' << 24;
        if (ATD_UNLIKELY(any_stop16(a, a)))
            return false;
        if (len != 0) {
            p[1] = (char)x;
            p[1 + (len >> 1)] = (char)y;
            p[len] = (char)z;
        }
    } else {
#if BLOCK == 16
        /* 17 to 64 bytes (URLs, sentences) the same way: two or four
         * blocks, the last ones overlapping so as to end at the end; with
         * AVX2, 33 bytes and more are left to its kernel, which copies a
         * plain string in 32-byte blocks as cheaply */
        if (len > 64)
            return false;
#if ATD__HAVE_AVX2_KERNELS
        if (len > 32 && wide_kernels_known())
            return false;
#endif
        const __m128i *src = (const __m128i *)(const void *)s;
        const __m128i *last = (const __m128i *)(const void *)(s + len - 16);
        __m128i x0 = _mm_loadu_si128(src), x3 = _mm_loadu_si128(last);
        if (len <= 32) {
            if (ATD_UNLIKELY(_mm_movemask_epi8(
                    _mm_or_si128(stop_bytes128(x0, true), stop_bytes128(x3, true)))))
                return false;
            _mm_storeu_si128((__m128i *)(void *)(p + 1), x0);
            _mm_storeu_si128((__m128i *)(void *)(p + 1 + len - 16), x3);
        } else {
            __m128i x1 = _mm_loadu_si128(src + 1), x2 = _mm_loadu_si128(last - 1);
            __m128i m =
                _mm_or_si128(_mm_or_si128(stop_bytes128(x0, true), stop_bytes128(x1, true)),
                             _mm_or_si128(stop_bytes128(x2, true), stop_bytes128(x3, true)));
            if (ATD_UNLIKELY(_mm_movemask_epi8(m)))
                return false;
            _mm_storeu_si128((__m128i *)(void *)(p + 1), x0);
            _mm_storeu_si128((__m128i *)(void *)(p + 17), x1);
            _mm_storeu_si128((__m128i *)(void *)(p + 1 + len - 32), x2);
            _mm_storeu_si128((__m128i *)(void *)(p + 1 + len - 16), x3);
        }
#else
        return false;
#endif
    }
    p[0] = '"';
    p[len + 1] = '"';
    return true;
}

/* The general case of atd__writer_string_at, which tail-calls it. */
static NOINLINE bool string_at_general(atd_writer *w, char *p, const char *s, size_t len)
{
    p = quoted_text(p, s, len, !(w->flags & ATD_WRITE_ALLOW_INVALID_UTF8));
    if (p == NULL)
        return string_failed(w, ATD_ERR_UTF8); /* nothing committed */
    atd_buf_commit(w->buf, p);
    return true;
}

bool atd__writer_string_at(atd_writer *w, char *p, const char *s, size_t len)
{
    if (ATD_UNLIKELY(!plain_at(p, s, len)))
        return string_at_general(w, p, s, len);
    atd_buf_commit(w->buf, p + len + 2);
    return true;
}

/* atd_buf_write_string after the literal pre[0..pre_len) (a key such as
 * ",\"name\":"), both in one reservation for short strings. The common case,
 * a short string that fits in the buffer's free room, is handled here
 * without a further call; atd_buf_write_string, which has no literal, loses the
 * copy altogether. */
static ATD__HOT_INLINE int write_string_after(atd_buf *b, const char *pre, size_t pre_len,
                                            const char *s, size_t len, unsigned flags)
{
    if (ATD_LIKELY(len <= SMALL_STRING && b->cap - b->len >= pre_len + ATD_ESCAPED_MAX(len) &&
                   b->status == 0)) {
        char *p = b->data + b->len;
        atd__copy_short(p, pre, pre_len);
        p += pre_len;
        if (ATD_LIKELY(plain_at(p, s, len))) {
            atd_buf_commit(b, p + len + 2);
            return 0;
        }
        p = quoted_general(p, s, len, !(flags & ATD_WRITE_ALLOW_INVALID_UTF8));
        if (p == NULL)
            return ATD_ERR_UTF8; /* nothing committed */
        atd_buf_commit(b, p);
        return 0;
    }
    return write_string_slow(b, pre, pre_len, s, len, flags);
}

int atd_buf_write_string(atd_buf *b, const char *s, size_t len, unsigned flags)
{
    return write_string_after(b, NULL, 0, s, len, flags);
}

bool atd_writer_string(atd_writer *w, const char *s, size_t len)
{
    int rc = write_string_after(w->buf, NULL, 0, s, len, w->flags);
    return ATD_LIKELY(rc == 0) || string_failed(w, rc);
}

bool atd__writer_key_string(atd_writer *w, const char *key, size_t key_len, const char *s,
                            size_t len)
{
    int rc = write_string_after(w->buf, key, key_len, s, len, w->flags);
    return ATD_LIKELY(rc == 0) || string_failed(w, rc);
}

int atd_buf_write_int64(atd_buf *b, int64_t v)
{
    char *p = atd_buf_reserve(b, ATD_INT64_CHARS);
    if (p != NULL)
        atd_buf_commit(b, atd_write_int64(p, v));
    return b->status;
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

/* --- the cursor form (writer.h) --- */

char *atd__writer_key_string_p(atd_writer *w, char *p, const char *key, size_t key_len,
                               const char *s, size_t len)
{
    atd_writer_commit(w, p);
    if (!atd__writer_key_string(w, key, key_len, s, len))
        return NULL;
    return atd_writer_cursor(w);
}

/* The string needs escaping or is not ASCII: written in the room left when
 * its worst case fits there (the caller made sure the key does), else by
 * the buffer's own paths. */
static NOINLINE char *string_p_general(atd_writer *w, char *p, const char *key, size_t key_len,
                                       const char *s, size_t len)
{
    if ((size_t)(w->end - p) - key_len >= ATD_ESCAPED_MAX(len)) {
        char *end = quoted_text(p + key_len, s, len, !(w->flags & ATD_WRITE_ALLOW_INVALID_UTF8));
        if (end == NULL) {
            string_failed(w, ATD_ERR_UTF8); /* nothing committed */
            return NULL;
        }
        return end;
    }
    return atd__writer_key_string_p(w, p, key, key_len, s, len);
}

char *atd__writer_string_p(atd_writer *w, char *p, const char *key, size_t key_len, const char *s,
                           size_t len)
{
    char *q = p + key_len;
    if (ATD_LIKELY(plain_at(q, s, len)))
        return q + len + 2;
    return string_p_general(w, p, key, key_len, s, len);
}
