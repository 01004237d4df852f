/* The JSON reader's cursor, its error recording, and the primitives for
 * everything except strings (read_string.c) and skipping (skip.c):
 * whitespace, punctuation, containers with the depth limit, null, bool, ints
 * and doubles, including atdgen's type leniencies (quoted bools and numbers).
 *
 * Errors are cheap to record and expensive to report: the first failure
 * stores a code, a byte offset and a short detail, and moves the cursor to the
 * end so later primitives fail at once. The path is collected while the
 * generated readers unwind, and line, column and the final message are built
 * only in atd_reader_get_error.
 *
 * Whitespace is skipped eight or sixteen bytes at a time because pretty-printed
 * input spends most of its bytes on indentation. */
#include "atd/reader.h"
#include "atd/number.h"
#include "cpu.h"
#include "error_message.h"
#include "error_path.h"
#include "reader_internal.h"
#include "scan.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Byte classes                                                              */
/* ------------------------------------------------------------------------ */

#define W (ATD__CC_WS | ATD__CC_DELIM)
#define D ATD__CC_DELIM
/* Whitespace: TAB LF CR SPACE. Delimiters also: " , / : [ ] { }. '/' ends a
 * token so that a lenient-mode comment may follow a number directly. */
const unsigned char atd__char_class[256] = {
    ['\t'] = W, ['\n'] = W, ['\r'] = W, [' '] = W, ['"'] = D, [','] = D,
    ['/'] = D,  [':'] = D,  ['['] = D,  [']'] = D, ['{'] = D, ['}'] = D,
};
#undef W
#undef D

/* ------------------------------------------------------------------------ */
/* Init and errors                                                           */
/* ------------------------------------------------------------------------ */

void atd_reader_init(atd_reader *r, const char *json, size_t len, atd_arena *arena, unsigned flags)
{
    /* An empty input may come with a NULL pointer; pointer arithmetic on
     * NULL is undefined, so point at a static empty string instead. */
    if (!json) {
        json = "";
        len = 0;
    }
    r->start = json;
    r->cur = json;
    atd__reader_set_end(r, json + len);
    r->arena = arena;
    r->flags = flags;
    r->copy_arena = (flags & (ATD_READ_BORROW_STRINGS | ATD_READ_LENIENT)) ? NULL : arena;
    r->depth = 0;
    r->max_depth = ATD_DEFAULT_MAX_DEPTH;
    memset(r->indent, 0, sizeof r->indent);
    memset(r->lengths, 0, sizeof r->lengths);
    memset(r->skip_lengths, 0, sizeof r->skip_lengths);
    memset(r->key_lengths, 0, sizeof r->key_lengths);
    r->key_slot = 0;
    r->err_code = ATD_ERR_OK;
    r->err_offset = 0;
    r->err_detail[0] = '\0';
    atd__path_clear(&r->err_path);
    /* The string reader's block copy reads the kernel choice without a
     * call, so it must be made before the first string. */
    (void)atd__cpu_kernels();
}

static bool fail_va(atd_reader *r, size_t offset, atd_error_code code, const char *fmt, va_list ap)
{
    if (r->err_code != ATD_ERR_OK)
        return false;
    r->err_code = code == ATD_ERR_OK ? ATD_ERR_INVALID : code;
    r->err_offset = offset;
    if (code == ATD_ERR_NOMEM && r->arena != NULL && atd_arena_over_limit(r->arena)) {
        /* The allocation failed for the arena's budget, not the machine's. */
        r->err_code = ATD_ERR_LIMIT;
        snprintf(r->err_detail, sizeof r->err_detail,
                 "the document needs more than %zu bytes of memory", atd_arena_limit(r->arena));
    } else {
        vsnprintf(r->err_detail, sizeof r->err_detail, fmt, ap);
    }
    /* From now on every primitive sees an empty input and fails quickly. */
    r->cur = r->end;
    return false;
}

bool atd_reader_fail_at(atd_reader *r, size_t offset, atd_error_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_va(r, offset, code, fmt, ap);
    va_end(ap);
    return false;
}

bool atd_reader_fail(atd_reader *r, atd_error_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_va(r, (size_t)(r->cur - r->start), code, fmt, ap);
    va_end(ap);
    return false;
}

/* Renders [p, pend) into buf at *len, keeping room for `reserve` more bytes
 * and the NUL; returns true if everything fit. */
static bool render_bytes(char *buf, size_t cap, size_t *len, const char *p, const char *pend,
                         size_t reserve)
{
    char tmp[4];
    for (; p < pend; p++) {
        size_t n = atd__render_byte(tmp, (unsigned char)*p, false);
        if (*len + n + reserve + 1 > cap)
            return false;
        memcpy(buf + *len, tmp, n);
        *len += n;
    }
    return true;
}

static void put_str(char *buf, size_t cap, size_t *len, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 1 > cap)
        n = cap - 1 - *len;
    memcpy(buf + *len, s, n);
    *len += n;
}

/* How many bytes of a token we quote at most. */
#define QUOTE_MAX 40

void atd__quote_token(const atd_reader *r, const char *at, char *buf, size_t cap)
{
    size_t len = 0;
    const char *end = r->end;
    if (cap == 0)
        return;
    buf[0] = '\0';
    if (cap < 8)
        return;
    if (cap > QUOTE_MAX + 8)
        cap = QUOTE_MAX + 8;
    if (at >= end) {
        put_str(buf, cap, &len, "end of input");
        buf[len] = '\0';
        return;
    }
    unsigned char c = (unsigned char)*at;
    if (c == '"') {
        /* The raw string up to its closing quote, backslash pairs kept. */
        const char *p = at + 1;
        while (p < end && *p != '"') {
            p += (*p == '\\' && p + 1 < end) ? 2 : 1;
        }
        bool closed = p < end;
        buf[len++] = '"';
        if (render_bytes(buf, cap, &len, at + 1, p, 4) && closed)
            buf[len++] = '"';
        else
            put_str(buf, cap, &len, "...");
    } else if ((atd__char_class[c] & ATD__CC_DELIM) && c != '/') {
        buf[len++] = '\'';
        render_bytes(buf, cap, &len, at, at + 1, 1);
        buf[len++] = '\'';
    } else {
        const char *p = at + 1;
        while (p < end && !(atd__char_class[(unsigned char)*p] & ATD__CC_DELIM))
            p++;
        if (!render_bytes(buf, cap, &len, at, p, 3))
            put_str(buf, cap, &len, "...");
    }
    buf[len] = '\0';
}

bool atd__fail_found(atd_reader *r, const char *at, atd_error_code code, const char *what)
{
    if (r->err_code != ATD_ERR_OK)
        return false;
    size_t offset = (size_t)(at - r->start);
    if (at >= r->end)
        return atd_reader_fail_at(r, offset, ATD_ERR_EOF, "unexpected end of input");
    if (code == ATD_ERR_TYPE) {
        /* Something that cannot start any JSON value is a syntax error, not a
         * value of the wrong type. */
        static const char starts[] = "\"[{-0123456789tfn";
        if (!memchr(starts, *at, sizeof starts - 1))
            code = ATD_ERR_SYNTAX;
    }
    char quote[QUOTE_MAX + 8];
    atd__quote_token(r, at, quote, sizeof quote);
    return atd_reader_fail_at(r, offset, code, "expected %s, found %s", what, quote);
}

bool atd_reader_fail_expected(atd_reader *r, const char *at, const char *what)
{
    return atd__fail_found(r, at, ATD_ERR_TYPE, what);
}

/* --- path segments (error_path.c) --- */

bool atd_reader_push_field(atd_reader *r, const char *name, size_t len)
{
    if (r->err_code != ATD_ERR_OK)
        atd__path_push_field(&r->err_path, name, len);
    return false;
}

bool atd_reader_push_index(atd_reader *r, size_t index)
{
    if (r->err_code != ATD_ERR_OK)
        atd__path_push_index(&r->err_path, index);
    return false;
}

int atd_reader_get_error(const atd_reader *r, atd_error *err)
{
    if (!err)
        return (int)r->err_code;
    if (r->err_code == ATD_ERR_OK) {
        atd_error_set(err, ATD_ERR_OK, NULL, NULL);
        return ATD_ERR_OK;
    }
    err->code = r->err_code;
    err->offset = r->err_offset;
    atd_error_locate(r->start, (size_t)(r->end - r->start), r->err_offset, &err->line,
                     &err->column);
    atd__path_compose(&r->err_path, err->path, sizeof err->path);
    atd__error_describe(err, ATD__AT_LINE, r->err_detail);
    return (int)r->err_code;
}

/* ------------------------------------------------------------------------ */
/* Whitespace                                                                */
/* ------------------------------------------------------------------------ */

/* Lenient mode: p is at '/'. Returns the byte after the comment, p itself
 * when this is not a comment, or NULL after recording an unterminated one. */
static const char *skip_comment(atd_reader *r, const char *p)
{
    const char *end = r->end;
    if (end - p < 2)
        return p;
    if (p[1] == '/') {
        const char *nl = memchr(p + 2, '\n', (size_t)(end - p - 2));
        return nl ? nl + 1 : end;
    }
    if (p[1] == '*') {
        const char *q = p + 2;
        for (;;) {
            const char *star = memchr(q, '*', (size_t)(end - q));
            if (!star || star + 1 >= end) {
                atd_reader_fail_at(r, (size_t)(p - r->start), ATD_ERR_EOF, "unterminated comment");
                return NULL;
            }
            if (star[1] == '/')
                return star + 2;
            q = star + 1;
        }
    }
    return p;
}

/* Lenient mode, p at '/': comments and the whitespace around them. Returns
 * the end of the input after recording an unterminated comment. */
static ATD_NOINLINE const char *skip_ws_comments(atd_reader *r, const char *p)
{
    for (;;) {
        const char *q = skip_comment(r, p);
        if (!q)
            return r->end; /* error recorded */
        if (q == p)
            break;
        p = atd__skip_ws_run(q, r->end);
        if (!(p < r->end && *p == '/'))
            break;
    }
    return p;
}

const char *atd__skip_ws_slow_p(atd_reader *r, const char *p)
{
    /* A leaf in the common case, so the call stays cheap; comments (lenient
     * mode only) are handled out of line. */
    p = atd__skip_ws_run(p, r->end);
    if (ATD_UNLIKELY(p < r->end && *p == '/' && (r->flags & ATD_READ_LENIENT)))
        return skip_ws_comments(r, p);
    return p;
}

/* ------------------------------------------------------------------------ */
/* Punctuation and containers                                                */
/* ------------------------------------------------------------------------ */

const char *atd__expect_p(atd_reader *r, const char *p, char c)
{
    p = atd_skip_ws_p(r, p);
    if (p < r->end && *p == c)
        return p + 1;
    char what[4] = {'\'', c, '\'', '\0'};
    return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, what));
}

bool atd_expect(atd_reader *r, char c)
{
    return atd_reader_advance(r, atd__expect_p(r, r->cur, c));
}

bool atd_read_end(atd_reader *r)
{
    if (r->err_code != ATD_ERR_OK)
        return false;
    atd_skip_ws(r);
    if (r->err_code != ATD_ERR_OK)
        return false; /* an unterminated comment */
    if (r->cur == r->end || (r->flags & ATD_READ_LENIENT))
        return true;
    char quote[QUOTE_MAX + 8];
    atd__quote_token(r, r->cur, quote, sizeof quote);
    return atd_reader_fail(r, ATD_ERR_TRAILING, "unexpected %s after the JSON value", quote);
}

/* The error of open_container, out of line so that the common path keeps a
 * small frame. */
static ATD_NOINLINE const char *open_fail(atd_reader *r, const char *p, char open,
                                             const char *what)
{
    if (p >= r->end || *p != open)
        return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_TYPE, what));
    return atd_fail_cursor(atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_DEPTH,
                                              "nesting deeper than %u", r->max_depth));
}

/* The slow halves of begin and next (reader.h says what they return). */
static ATD__HOT_INLINE const char *open_container(atd_reader *r, const char *p, char open,
                                                  char close, const char *what)
{
    p = atd_skip_ws_p(r, p);
    if (ATD_UNLIKELY(p >= r->end || *p != open || r->depth >= r->max_depth))
        return open_fail(r, p, open, what);
    /* (the first member's or element's indentation: one level deeper) */
    p = atd__skip_ws_as_p(r, p + 1,
                          ATD__WS_SPACE | ATD__WS_INDENT | ATD__WS_COMMENT | ATD__WS_OPENED);
    if (p < r->end && *p == close)
        return p + 1;
    if (r->err_code != ATD_ERR_OK)
        return NULL; /* an unterminated comment */
    /* A line comment that runs to the end of the input may end with the
     * closing bracket, and the caller would take that byte before the
     * cursor for the bracket of an empty container: report the missing
     * value here instead. */
    if (ATD_UNLIKELY(p >= r->end && p[-1] == close))
        return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, "a value"));
    r->depth++;
    return p;
}

static ATD__HOT_INLINE const char *next_in_container(atd_reader *r, const char *p, char close,
                                                     const char *what)
{
    /* Whitespace after a value is the closing bracket's when it holds a
     * newline (pretty-printers put the ',' right after the value): its
     * indentation is the guess of the level outside, so that the level
     * inside keeps its own for the members or elements still to come, as
     * when keys out of the schema's order end an object early. */
    p = atd__skip_ws_as_p(r, p, ATD__WS_INDENT | ATD__WS_COMMENT | ATD__WS_CLOSING);
    /* the bracket first: the callers settle a ',' right after the value
     * inline, and come here mostly for the container's end */
    if (ATD_LIKELY(p < r->end && *p == close)) {
        r->depth--;
        return p + 1;
    }
    if (p < r->end && *p == ',')
        return p + 1;
    return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, what));
}

const char *atd__array_begin_slow_p(atd_reader *r, const char *p)
{
    return open_container(r, p, '[', ']', "an array");
}

bool atd_array_begin(atd_reader *r, bool *nonempty)
{
    return atd_reader_advance(r, atd_array_begin_p(r, r->cur, nonempty));
}

const char *atd__array_next_slow_p(atd_reader *r, const char *p)
{
    return next_in_container(r, p, ']', "',' or ']'");
}

const char *atd__object_begin_slow_p(atd_reader *r, const char *p)
{
    return open_container(r, p, '{', '}', "an object");
}

bool atd_object_begin(atd_reader *r, bool *nonempty)
{
    return atd_reader_advance(r, atd_object_begin_p(r, r->cur, nonempty));
}

const char *atd__object_next_slow_p(atd_reader *r, const char *p)
{
    return next_in_container(r, p, '}', "',' or '}'");
}

const char *atd__object_next_key_slow_p(atd_reader *r, const char *p)
{
    /* a record whose keys come in another order than the schema's often
     * ends after another field than its last: that '}' first */
    if (ATD_LIKELY(p < r->end && *p == '}')) {
        r->depth--;
        return p + 1;
    }
    p = next_in_container(r, p, '}', "',' or '}'");
    if (p == NULL || p[-1] == '}')
        return p;
    return atd_skip_ws_p(r, p);
}

/* ------------------------------------------------------------------------ */
/* Literals                                                                  */
/* ------------------------------------------------------------------------ */

int atd__match_literal(const char *p, const char *end, const char *lit, size_t n)
{
    /* Literals are a few bytes: a loop beats a call to memcmp. */
    size_t avail = (size_t)(end - p);
    size_t k = avail < n ? avail : n;
    for (size_t i = 0; i < k; i++) {
        if (p[i] != lit[i])
            return 0;
    }
    if (avail < n)
        return -1;
    if (avail > n && !(atd__char_class[(unsigned char)p[n]] & ATD__CC_DELIM))
        return 0;
    return 1;
}

/* Reads the literal lit at p (already past whitespace). */
static const char *literal(atd_reader *r, const char *p, const char *lit, size_t n,
                           const char *what)
{
    int m = atd__match_literal(p, r->end, lit, n);
    if (m > 0)
        return p + n;
    if (m < 0)
        return atd_fail_cursor(atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_EOF,
                                                  "unexpected end of input"));
    return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_TYPE, what));
}

/* Whether the n bytes at p (at least n + 1 of them before end) are the
 * literal lit, followed by a delimiter. memcmp with a constant n compiles to
 * one or two word compares. */
static inline bool literal_fast(const char *p, const char *end, const char *lit, size_t n)
{
    return (size_t)(end - p) > n && memcmp(p, lit, n) == 0 &&
           (atd__char_class[(unsigned char)p[n]] & ATD__CC_DELIM);
}

/* The literals' fast paths below take the bare literal right at p or after
 * one space; they are leaves, and everything else is a tail call. */
static ATD_NOINLINE const char *read_null_slow(atd_reader *r, const char *p)
{
    p = atd_skip_ws_p(r, p);
    if (literal_fast(p, r->end, "null", 4))
        return p + 4;
    return literal(r, p, "null", 4, "null");
}

const char *atd_read_null_p(atd_reader *r, const char *p)
{
    if (r->end - p >= 2 && *p == ' ')
        p++;
    if (literal_fast(p, r->end, "null", 4))
        return p + 4;
    return read_null_slow(r, p);
}

bool atd_read_null(atd_reader *r)
{
    return atd_reader_advance(r, atd_read_null_p(r, r->cur));
}

static ATD_NOINLINE const char *read_bool_slow(atd_reader *r, const char *p, bool *out)
{
    p = atd_skip_ws_p(r, p);
    if (p < r->end) {
        switch (*p) {
        case 't':
            *out = true;
            if (literal_fast(p, r->end, "true", 4))
                return p + 4;
            return literal(r, p, "true", 4, "a boolean");
        case 'f':
            *out = false;
            if (literal_fast(p, r->end, "false", 5))
                return p + 5;
            return literal(r, p, "false", 5, "a boolean");
        case '"': {
            const char *b, *e;
            bool esc;
            const char *q = atd__scan_string_p(r, p, &b, &e, &esc);
            if (q == NULL)
                return NULL;
            size_t n = (size_t)(e - b);
            if (!esc && n == 4 && memcmp(b, "true", 4) == 0) {
                *out = true;
                return q;
            }
            if (!esc && n == 5 && memcmp(b, "false", 5) == 0) {
                *out = false;
                return q;
            }
            break;
        }
        default:
            break;
        }
    }
    return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_TYPE, "a boolean"));
}

const char *atd_read_bool_p(atd_reader *r, const char *p, bool *out)
{
    if (r->end - p >= 2 && *p == ' ')
        p++;
    if (literal_fast(p, r->end, "true", 4)) {
        *out = true;
        return p + 4;
    }
    if (literal_fast(p, r->end, "false", 5)) {
        *out = false;
        return p + 5;
    }
    return read_bool_slow(r, p, out);
}

bool atd_read_bool(atd_reader *r, bool *out)
{
    return atd_reader_advance(r, atd_read_bool_p(r, r->cur, out));
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                   */
/* ------------------------------------------------------------------------ */

static inline bool ends_token(const atd_reader *r, const char *q)
{
    return q >= r->end || (atd__char_class[(unsigned char)*q] & ATD__CC_DELIM);
}

/* Delimits the number token at p. Returns its end, or NULL when what is
 * there is not a whole JSON number ("01", "1.", "2x", "-"). */
static const char *number_token(const atd_reader *r, const char *p, bool *is_int)
{
    const char *q = atd_scan_number(p, r->end, is_int);
    if (q == p || !ends_token(r, q))
        return NULL;
    return q;
}

static bool fail_range(atd_reader *r, const char *at)
{
    char quote[QUOTE_MAX + 8];
    atd__quote_token(r, at, quote, sizeof quote);
    return atd_reader_fail_at(r, (size_t)(at - r->start), ATD_ERR_RANGE, "integer %s out of range",
                              quote);
}

/* The quoted form of an int: [+-]?[0-9]+, decimal. */
static bool parse_quoted_int(const char *p, const char *end, int64_t *out, bool *overflow)
{
    bool neg = false;
    *overflow = false;
    if (p < end && (*p == '+' || *p == '-')) {
        neg = *p == '-';
        p++;
    }
    if (p == end)
        return false;
    uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t v = 0;
    for (; p < end; p++) {
        unsigned d = (unsigned)(unsigned char)*p - '0';
        if (d > 9)
            return false;
        if (v > (limit - d) / 10)
            *overflow = true; /* keep checking the syntax */
        else
            v = v * 10 + d;
    }
    if (*overflow)
        return true;
    /* -(v - 1) - 1 avoids negating INT64_MIN's magnitude as a signed value. */
    *out = neg ? (v == 0 ? 0 : -(int64_t)(v - 1) - 1) : (int64_t)v;
    return true;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                        \
    (defined(__GNUC__) || defined(__clang__))
#define SWAR_DIGITS 1
/* Number of ASCII digits at the start of the little-endian word x (0..8).
 * A byte b is a digit when its high nibble is 3 and b + 6 keeps it 3. A byte
 * can receive a carry from b + 6 only if the byte below it is not a digit,
 * so the lowest flagged byte is always right; later ones do not matter. */
static inline unsigned swar_leading_digits(uint64_t x)
{
    const uint64_t hi = UINT64_C(0xf0f0f0f0f0f0f0f0), three = UINT64_C(0x3030303030303030);
    uint64_t bad = ((x & hi) ^ three) | (((x + UINT64_C(0x0606060606060606)) & hi) ^ three);
    return bad ? (unsigned)__builtin_ctzll(bad) >> 3 : 8;
}

/* Value of the first n (1..8) digits of x. The digits are moved to the top
 * of the word behind '0' bytes, then combined pairwise: bytes to 2-digit
 * values, those to 4-digit values in 16-bit lanes, those to the result. */
static inline uint64_t swar_digits_value(uint64_t x, unsigned n)
{
    if (n < 8)
        x = (x << (8 * (8 - n))) | (UINT64_C(0x3030303030303030) >> (8 * n));
    x -= UINT64_C(0x3030303030303030);
    x = (x * 10 + (x >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
    x = (x * 100 + (x >> 16)) & UINT64_C(0x0000ffff0000ffff);
    return (x * 10000 + (x >> 32)) & UINT64_C(0xffffffff);
}

static const uint64_t pow10_small[9] = {1,      10,      100,      1000,     10000,
                                        100000, 1000000, 10000000, 100000000};
#else
#define SWAR_DIGITS 0
#endif

const char *atd__read_small_int(const char *p, const char *end, int64_t *out, bool *fraction)
{
    /* At most 18 digits: 10^18 - 1 < 2^63, so the value cannot overflow and
     * needs no check per digit. Longer integers take the general path. */
    const char *s = p;
    bool neg = false;
    *fraction = false;
    if (s < end && *s == '-') {
        neg = true;
        s++;
    }
    if (s == end)
        return NULL;
    uint64_t v = (unsigned char)*s - (unsigned)'0';
    if (v > 9)
        return NULL;
    s++;
    /* A leading zero stands alone ("01" is not a JSON number). */
    if (v != 0) {
        const char *limit = end - s > 17 ? s + 17 : end;
        unsigned d;
#if SWAR_DIGITS
        /* Two words cover 16 of the 17 digits that may follow. */
        for (int k = 0; k < 2 && end - s >= 8; k++) {
            uint64_t x;
            memcpy(&x, s, 8);
            unsigned n = swar_leading_digits(x);
            if (n == 0)
                break;
            v = v * pow10_small[n] + swar_digits_value(x, n);
            s += n;
            if (n < 8)
                break;
        }
#endif
        while (s < limit && (d = (unsigned char)*s - (unsigned)'0') <= 9) {
            v = v * 10 + d;
            s++;
        }
    }
    if (s < end) {
        unsigned char c = (unsigned char)*s;
        if (!(atd__char_class[c] & ATD__CC_DELIM)) {
            *fraction = c == '.' || c == 'e' || c == 'E';
            return NULL;
        }
    }
    *out = neg ? -(int64_t)v : (int64_t)v;
    return s;
}

/* The general path of atd_read_int64 for a bare number: long integers, and
 * the exact error for anything that is not an integer. */
static ATD_NOINLINE const char *read_int_token(atd_reader *r, const char *at, int64_t *out)
{
    bool is_int;
    const char *q = number_token(r, at, &is_int);
    if (!q)
        return atd_fail_cursor(atd__fail_found(r, at, ATD_ERR_NUMBER, "an integer"));
    if (!is_int)
        return atd_fail_cursor(atd__fail_found(r, at, ATD_ERR_TYPE, "an integer"));
    if (atd_parse_int64(at, q, out) != ATD_NUM_OK)
        return atd_fail_cursor(fail_range(r, at));
    return q;
}

/* Everything but a bare number: a quoted int, or the error. */
static ATD_NOINLINE const char *read_int_other(atd_reader *r, const char *at, int64_t *out)
{
    if (at < r->end && *at == '"') {
        const char *b, *e;
        bool esc, overflow;
        const char *q = atd__scan_string_p(r, at, &b, &e, &esc);
        if (q == NULL)
            return NULL;
        if (!esc && parse_quoted_int(b, e, out, &overflow)) {
            if (overflow)
                return atd_fail_cursor(fail_range(r, at));
            return q;
        }
    }
    return atd_fail_cursor(atd__fail_found(r, at, ATD_ERR_TYPE, "an integer"));
}

const char *atd__read_int64_slow(atd_reader *r, const char *p, int64_t *out)
{
    if (ATD_UNLIKELY(p >= r->end))
        return read_int_other(r, p, out);
    unsigned char c = (unsigned char)*p;
    if (ATD_LIKELY(c == '-' || (unsigned)(c - '0') < 10)) {
        bool fraction;
        const char *q = atd__read_small_int(p, r->end, out, &fraction);
        if (ATD_LIKELY(q != NULL))
            return q;
        return read_int_token(r, p, out);
    }
    return read_int_other(r, p, out);
}

/* atd__read_int64_at_p after whitespace: out of line, so that the common
 * integer, right after the ':' or the ',' or one space, is read with no
 * stack frame. */
static ATD_NOINLINE const char *read_int64_after_ws(atd_reader *r, const char *p, int64_t *out,
                                                    unsigned slot)
{
    return atd__read_int64_token(r, atd_skip_ws_p(r, p), out, slot);
}

const char *atd__read_int64_at_p(atd_reader *r, const char *p, int64_t *out, unsigned slot)
{
    const char *q = atd__past_one_space(r, p);
    if (ATD_LIKELY(q != NULL))
        return atd__read_int64_token(r, q, out, slot);
    return read_int64_after_ws(r, p, out, slot);
}

const char *(atd_read_int64_p)(atd_reader *r, const char *p, int64_t *out)
{
    return atd__read_int64_at_p(r, p, out, 0);
}

bool atd_read_int64(atd_reader *r, int64_t *out)
{
    return atd_reader_advance(r, atd_read_int64_p(r, r->cur, out));
}

const char *atd_read_int_range_p(atd_reader *r, const char *p, int64_t min, int64_t max,
                                 int64_t *out)
{
    const char *at = atd_skip_ws_p(r, p);
    int64_t v;
    const char *q = atd_read_int64_p(r, at, &v);
    if (q == NULL)
        return NULL;
    if (v < min || v > max) {
        char quote[QUOTE_MAX + 8];
        atd__quote_token(r, at, quote, sizeof quote);
        return atd_fail_cursor(atd_reader_fail_at(
            r, (size_t)(at - r->start), ATD_ERR_RANGE,
            "integer %s out of range [%" PRId64 ", %" PRId64 "]", quote, min, max));
    }
    *out = v;
    return q;
}

bool atd_read_int_range(atd_reader *r, int64_t min, int64_t max, int64_t *out)
{
    return atd_reader_advance(r, atd_read_int_range_p(r, r->cur, min, max, out));
}

/* Lenient names for non-finite doubles, bare or quoted: [p, end) must be
 * exactly one of them. */
static bool nonfinite_name(const char *p, size_t n, double *out)
{
    if (n == 3 && memcmp(p, "NaN", 3) == 0) {
        *out = NAN;
        return true;
    }
    if (n == 8 && memcmp(p, "Infinity", 8) == 0) {
        *out = INFINITY;
        return true;
    }
    if (n == 9 && memcmp(p, "-Infinity", 9) == 0) {
        *out = -INFINITY;
        return true;
    }
    return false;
}

/* Lenient bare NaN/Infinity/-Infinity at p: the end of the name, or NULL
 * (no error recorded) when there is none. */
static const char *bare_nonfinite(const atd_reader *r, const char *p, double *out)
{
    const char *q = p;
    while (q < r->end && !(atd__char_class[(unsigned char)*q] & ATD__CC_DELIM) && q - p < 9)
        q++;
    if (!ends_token(r, q) || !nonfinite_name(p, (size_t)(q - p), out))
        return NULL;
    return q;
}

/* Everything but a plain number: quoted numbers, lenient names, errors. */
static ATD_NOINLINE const char *read_double_other(atd_reader *r, const char *at, double *out)
{
    bool lenient = (r->flags & ATD_READ_LENIENT) != 0;
    if (at >= r->end)
        return atd_fail_cursor(atd__fail_found(r, at, ATD_ERR_TYPE, "a number"));
    unsigned char c = (unsigned char)*at;
    const char *q;
    if (c == '-' || (unsigned)(c - '0') < 10) {
        if (lenient && (q = bare_nonfinite(r, at, out)) != NULL)
            return q;
        return atd_fail_cursor(atd__fail_found(r, at, ATD_ERR_NUMBER, "a number"));
    }
    if (c == '"') {
        const char *b, *e;
        bool esc, is_int;
        q = atd__scan_string_p(r, at, &b, &e, &esc);
        if (q == NULL)
            return NULL;
        if (!esc && e > b && atd_scan_number(b, e, &is_int) == e &&
            atd_parse_double(b, e, out) == ATD_NUM_OK)
            return q;
        if (!esc && lenient && nonfinite_name(b, (size_t)(e - b), out))
            return q;
        return atd_fail_cursor(atd__fail_found(r, at, ATD_ERR_TYPE, "a number"));
    }
    if (lenient && (c == 'N' || c == 'I') && (q = bare_nonfinite(r, at, out)) != NULL)
        return q;
    return atd_fail_cursor(atd__fail_found(r, at, ATD_ERR_TYPE, "a number"));
}

const char *atd__read_double_slow(atd_reader *r, const char *p, double *out)
{
    if (ATD_LIKELY(p < r->end)) {
        unsigned char c = (unsigned char)*p;
        if (ATD_LIKELY(c == '-' || (unsigned)(c - '0') < 10)) {
            /* One pass: the longest number at p, parsed as it is scanned;
             * it must then end the token. */
            double v;
            const char *q = atd__parse_double_general(p, r->end, &v);
            if (ATD_LIKELY(q != p && ends_token(r, q))) {
                *out = v;
                return q;
            }
        }
    }
    return read_double_other(r, p, out);
}

const char *atd_read_double_p(atd_reader *r, const char *p, double *out)
{
    return atd__read_double_token(r, atd_skip_ws_p(r, p), out);
}

bool atd_read_double(atd_reader *r, double *out)
{
    return atd_reader_advance(r, atd_read_double_p(r, r->cur, out));
}
