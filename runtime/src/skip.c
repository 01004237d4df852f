/* Skipping one JSON value with full validation: what generated readers do
 * with the values of unknown record fields and extra tuple elements, and the
 * runtime's conformance check against JSONTestSuite.
 *
 * The skipper is a loop over a few states rather than a recursion, so hostile
 * nesting costs no C stack. Closing brackets must match their openers, which
 * needs one bit per open level (array or object): a fixed bit stack of
 * ATD_SKIP_MAX_NESTING bits lives in the frame (2 KiB). The reader's depth
 * counter and max_depth apply as for the typed primitives, so a document's
 * nesting limit does not depend on which of its values are skipped.
 *
 * Strings are validated by the same scanner as atd_read_string, numbers by
 * atd_scan_number plus the next-byte check, literals exactly; nothing is
 * decoded or allocated. */
#include "atd/reader.h"
#include "atd/number.h"
#include "reader_internal.h"
#include "scan.h"

#include <string.h>

#define STACK_WORDS (ATD_SKIP_MAX_NESTING / 64)

/* Skips a number or a literal at the cursor (already past whitespace). */
static bool skip_scalar(atd_reader *r)
{
    const char *p = r->cur;
    const char *end = r->end;
    unsigned char c = (unsigned char)*p;
    if (c == '-' || (unsigned)(c - '0') < 10) {
        bool is_int;
        const char *q = atd_scan_number(p, end, &is_int);
        if (q != p && (q == end || (atd__char_class[(unsigned char)*q] & ATD__CC_DELIM))) {
            r->cur = q;
            return true;
        }
        if ((r->flags & ATD_READ_LENIENT) && atd__match_literal(p, end, "-Infinity", 9) > 0) {
            r->cur = p + 9;
            return true;
        }
        return atd__fail_found(r, p, ATD_ERR_NUMBER, "a number");
    }
    const char *lit = NULL;
    size_t n = 0;
    switch (c) {
    case 't':
        lit = "true";
        n = 4;
        break;
    case 'f':
        lit = "false";
        n = 5;
        break;
    case 'n':
        lit = "null";
        n = 4;
        break;
    case 'N':
        if (r->flags & ATD_READ_LENIENT) {
            lit = "NaN";
            n = 3;
        }
        break;
    case 'I':
        if (r->flags & ATD_READ_LENIENT) {
            lit = "Infinity";
            n = 8;
        }
        break;
    default:
        break;
    }
    if (lit) {
        int m = atd__match_literal(p, end, lit, n);
        if (m > 0) {
            r->cur = p + n;
            return true;
        }
        if (m < 0)
            return atd_reader_fail(r, ATD_ERR_EOF, "unexpected end of input");
    }
    return atd__fail_found(r, p, ATD_ERR_SYNTAX, "a value");
}

/* Whitespace at p, with the common cases inline: none, or one space. The
 * rest (runs, comments in lenient mode) goes through the reader; inlining
 * the run scan here would make this helper too big to inline at its four
 * call sites. */
static inline const char *ws(atd_reader *r, const char *p)
{
    const char *end = r->end;
    if (p < end && (unsigned char)*p > ' ' && *p != '/')
        return p;
    if (end - p >= 2 && *p == ' ' && (unsigned char)p[1] > ' ' && p[1] != '/')
        return p + 1;
    return atd__skip_ws_slow_p(r, p);
}

/* The string whose opening quote is at p: plain ASCII in line, the rest by
 * the general scan from where the fast one stopped. Returns the byte after
 * the closing quote, or NULL after recording an error. */
static inline const char *skip_string(atd_reader *r, const char *p)
{
    const char *b, *e;
    bool esc;
    if (ATD_LIKELY(!(r->flags & ATD_READ_LENIENT))) {
        const char *q = atd__find_special_strict(p + 1, r->end);
        if (ATD_LIKELY(q < r->end && *q == '"'))
            return q + 1;
        return atd__scan_string_rest(r, p, q, &b, &e, &esc);
    }
    return atd__scan_string_p(r, p, &b, &e, &esc);
}

const char *atd_skip_value_p(atd_reader *r, const char *p)
{
    uint64_t stack[STACK_WORDS]; /* bit set: object; clear: array */
    size_t level = 0;            /* open containers in this value */
    unsigned base_depth = r->depth;
    const char *end = r->end;
    char c;

value:
    p = ws(r, p);
    if (p >= end)
        goto fail_value;
    c = *p;
    if (c == '[' || c == '{') {
        if (r->depth >= r->max_depth) {
            return atd_fail_cursor(atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_DEPTH,
                                                      "nesting deeper than %u", r->max_depth));
        }
        if (level >= ATD_SKIP_MAX_NESTING) {
            return atd_fail_cursor(atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_DEPTH,
                                                      "nesting deeper than %u",
                                                      (unsigned)ATD_SKIP_MAX_NESTING));
        }
        uint64_t bit = UINT64_C(1) << (level & 63);
        if (c == '{')
            stack[level >> 6] |= bit;
        else
            stack[level >> 6] &= ~bit;
        level++;
        r->depth++;
        p = ws(r, p + 1);
        if (p < end && *p == (c == '[' ? ']' : '}')) {
            p++;
            goto close;
        }
        if (c == '[')
            goto value;
        goto key;
    }
    if (c == '"') {
        p = skip_string(r, p);
        if (!p)
            return NULL;
    } else {
        /* scalars are rare in skipped values: r->cur carries the cursor */
        r->cur = p;
        if (!skip_scalar(r))
            return NULL;
        p = r->cur;
    }

after_value:
    if (level == 0)
        return p;
    p = ws(r, p);
    {
        bool in_object = (stack[(level - 1) >> 6] >> ((level - 1) & 63)) & 1;
        if (p < end) {
            c = *p;
            if (c == ',') {
                p++;
                if (in_object)
                    goto key;
                goto value;
            }
            if (c == (in_object ? '}' : ']')) {
                p++;
                goto close;
            }
        }
        return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, in_object ? "',' or '}'" : "',' or ']'"));
    }

close:
    level--;
    r->depth--;
    if (level == 0) {
        r->depth = base_depth;
        return p;
    }
    goto after_value;

key:
    p = ws(r, p);
    if (p >= end || *p != '"')
        return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, "an object key"));
    p = skip_string(r, p);
    if (!p)
        return NULL;
    p = ws(r, p);
    if (p >= end || *p != ':')
        return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, "':'"));
    p++;
    goto value;

fail_value:
    return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, "a value"));
}

bool atd_skip_value(atd_reader *r)
{
    return atd_reader_advance(r, atd_skip_value_p(r, r->cur));
}
