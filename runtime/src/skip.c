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
 * their grammar plus the next-byte check, literals exactly; nothing is
 * decoded or allocated. Schemas often declare only some of the fields that
 * documents carry, so skipping is a hot path too: the common tokens (plain
 * ASCII strings, literals, whitespace of compact and pretty-printed input)
 * are settled inline (a scalar field value without the state of nested
 * containers), everything else by the general scanners; a string
 * moves the cursor by the length last found at its rank in the value
 * (atd_reader.skip_lengths), so that the next token need not wait for the
 * scan. */
#include "atd/reader.h"
#include "atd/number.h"
#include "reader_internal.h"
#include "scan.h"

#define STACK_WORDS (ATD_SKIP_MAX_NESTING / 64)

static ATD__HOT_INLINE bool is_delim(unsigned char c)
{
    return (atd__char_class[c] & ATD__CC_DELIM) != 0;
}

static ATD__HOT_INLINE bool is_digit(char c)
{
    return (unsigned)((unsigned char)c - '0') < 10;
}

/* Skips a number or a literal at p (already past whitespace) the general
 * way: near the end of the input, lenient mode's names, and the errors.
 * Returns the end of the token, or NULL after recording an error. */
static ATD_NOINLINE const char *skip_scalar_slow(atd_reader *r, const char *p)
{
    const char *end = r->end;
    unsigned char c = (unsigned char)*p;
    if (c == '-' || is_digit((char)c)) {
        bool is_int;
        const char *q = atd_scan_number(p, end, &is_int);
        if (q != p && (q == end || is_delim((unsigned char)*q)))
            return q;
        if ((r->flags & ATD_READ_LENIENT) && atd__match_literal(p, end, "-Infinity", 9) > 0)
            return p + 9;
        return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_NUMBER, "a number"));
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
        if (m > 0)
            return p + n;
        if (m < 0)
            return atd_fail_cursor(atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_EOF,
                                                      "unexpected end of input"));
    }
    return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, "a value"));
}

/* Whitespace at p, by the reader's inline skip for what is common at each
 * place (none anywhere; one space after a ':'; a newline and the
 * indentation last found at the same level after a ',' or an opening
 * bracket, and after a value before a closing bracket, one level up) and
 * its slow path for the rest. The members of the innermost open container
 * are at level r->depth. */
static ATD__HOT_INLINE const char *ws(atd_reader *r, const char *p)
{
    return atd__skip_ws_as_p(r, p, ATD__WS_SPACE | ATD__WS_INDENT | ATD__WS_COMMENT);
}
static ATD__HOT_INLINE const char *ws_before_member(atd_reader *r, const char *p)
{
    return atd__skip_ws_as_p(r, p, ATD__WS_INDENT | ATD__WS_COMMENT);
}
static ATD__HOT_INLINE const char *ws_after_value(atd_reader *r, const char *p)
{
    return atd__skip_ws_as_p(r, p, ATD__WS_INDENT | ATD__WS_COMMENT | ATD__WS_CLOSING);
}

/* The string whose opening quote is at p when it is not plain ASCII (or
 * in lenient mode): the general scan, from q where the fast one stopped. */
static ATD_NOINLINE const char *skip_string_rest(atd_reader *r, const char *p, const char *q)
{
    const char *b, *e;
    bool esc;
    if (!(r->flags & ATD_READ_LENIENT))
        return atd__scan_string_rest(r, p, q, &b, &e, &esc);
    return atd__scan_string_p(r, p, &b, &e, &esc);
}

/* The string whose opening quote is at p: plain ASCII in line, the rest by
 * the general scan. Returns the byte after the closing quote, or NULL after
 * recording an error. */
static ATD__HOT_INLINE const char *skip_string(atd_reader *r, const char *p, bool strict,
                                               unsigned char *guess)
{
    if (ATD_LIKELY(strict)) {
        const char *q = atd__find_special_strict(p + 1, r->end);
        if (ATD_LIKELY(q < r->end && *q == '"'))
            return atd__past_count(p, (size_t)(q - p), guess) + 1;
        return skip_string_rest(r, p, q);
    }
    return skip_string_rest(r, p, p + 1);
}

/* The digits at p, at most 15: the end of the run, or NULL for none or
 * more (reads at most 16 bytes from p). */
static ATD__HOT_INLINE const char *digit_run(const char *p)
{
    const char *q = p, *stop = p + 16;
    while (q < stop && is_digit(*q))
        q++;
    return q == p || q == stop ? NULL : q;
}

/* The number at p when 32 bytes are left (p < r->fast_end) and it has at
 * most 15 digits before the point, 15 after it and 15 in its exponent, and
 * a delimiter follows: its end, found a byte at a time (the loops' branches
 * follow the lengths of a document's numbers, which repeat from one value
 * to the next, so the next token's loads need not wait for a count
 * computed from the digits), an integer settled at the first byte after
 * its digits. NULL for anything else, which atd_scan_number settles. */
static ATD__HOT_INLINE const char *skip_short_number(const atd_reader *r, const char *p)
{
    const char *fast_end = r->fast_end;
    if (p >= fast_end)
        return NULL;
    const char *q = p;
    if (*q == '-')
        q++;
    if (*q == '0')
        q++;
    else if ((q = digit_run(q)) == NULL)
        return NULL;
    if (ATD_LIKELY(is_delim((unsigned char)*q))) /* an integer */
        return q;
    if (*q == '.' && (q = digit_run(q + 1)) == NULL)
        return NULL;
    /* the exponent reads at most 19 bytes from q: 32 are left if q is
     * before fast_end */
    if ((*q | 0x20) == 'e') {
        if (q >= fast_end)
            return NULL;
        q++;
        if (*q == '-' || *q == '+')
            q++;
        if ((q = digit_run(q)) == NULL)
            return NULL;
    }
    return is_delim((unsigned char)*q) ? q : NULL;
}

/* The literal lit (n bytes) at p followed by a delimiter, when 32 bytes
 * are left: its end, or NULL for anything else. */
static ATD__HOT_INLINE const char *skip_literal(const atd_reader *r, const char *p, const char *lit,
                                                size_t n)
{
    if (p < r->fast_end && atd_bytes_eq(p, lit, n) && is_delim((unsigned char)p[n]))
        return p + n;
    return NULL;
}

/* A literal or a short number at p, in the forms above: its end, or NULL
 * for anything else. */
static ATD__HOT_INLINE const char *skip_literal_or_number(const atd_reader *r, const char *p)
{
    switch (*p) {
    case 't':
        return skip_literal(r, p, "true", 4);
    case 'f':
        return skip_literal(r, p, "false", 5);
    case 'n':
        return skip_literal(r, p, "null", 4);
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
        return skip_short_number(r, p);
    default:
        return NULL;
    }
}

/* The value at p, its strings' length guesses from slot `rank` on: the
 * cursor after it, or NULL after recording an error. (Out of line: its
 * frame holds the nesting stack, which the scalars that
 * atd__skip_field_value_p settles do without.) */
static ATD_NOINLINE const char *skip_value(atd_reader *r, const char *p, unsigned rank)
{
    uint64_t stack[STACK_WORDS]; /* bit set: object; clear: array */
    size_t level = 0;            /* open containers in this value */
    bool in_object = false;      /* the innermost open container's kind */
    unsigned base_depth = r->depth;
    const char *end = r->end;
    const bool strict = !(r->flags & ATD_READ_LENIENT);
    const char *q;
    char c;

    p = ws(r, p);
value:
    /* past whitespace */
    if (p >= end)
        goto fail_value;
    c = *p;
    switch (c) {
    case '"':
        p = skip_string(r, p, strict, &r->skip_lengths[rank++ % ATD__SKIP_SLOTS]);
        if (p == NULL)
            return NULL;
        goto after_value;
    case '{':
    case '[': {
        if (ATD_UNLIKELY(r->depth >= r->max_depth)) {
            return atd_fail_cursor(atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_DEPTH,
                                                      "nesting deeper than %u", r->max_depth));
        }
        if (ATD_UNLIKELY(level >= ATD_SKIP_MAX_NESTING)) {
            return atd_fail_cursor(atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_DEPTH,
                                                      "nesting deeper than %u",
                                                      (unsigned)ATD_SKIP_MAX_NESTING));
        }
        uint64_t bit = UINT64_C(1) << (level & 63);
        in_object = c == '{';
        if (in_object)
            stack[level >> 6] |= bit;
        else
            stack[level >> 6] &= ~bit;
        level++;
        r->depth++;
        p = ws_before_member(r, p + 1);
        if (p < end && *p == (in_object ? '}' : ']')) {
            p++;
            goto close;
        }
        if (in_object)
            goto key;
        goto value;
    }
    case 't':
        q = skip_literal(r, p, "true", 4);
        break;
    case 'f':
        q = skip_literal(r, p, "false", 5);
        break;
    case 'n':
        q = skip_literal(r, p, "null", 4);
        break;
    default:
        q = c == '-' || is_digit(c) ? skip_short_number(r, p) : NULL;
        break;
    }
    if (ATD_LIKELY(q != NULL)) {
        p = q;
        goto after_value;
    }
    p = skip_scalar_slow(r, p);
    if (p == NULL)
        return NULL;

after_value:
    if (level == 0)
        return p;
    /* compact input: the ',' or the closing bracket right after the value,
     * with one room check for both (the general path below checks the
     * bound at each step: 2 to 3% more instructions in a skip) */
    if (ATD_LIKELY(p < r->fast_end)) {
        c = *p;
        if (c == ',') {
            p = atd__skip_ws_as_p(r, p + 1, ATD__WS_INDENT | ATD__WS_COMMENT | ATD__WS_ROOM);
            if (in_object)
                goto key;
            goto value;
        }
        if (c == (in_object ? '}' : ']')) {
            p++;
            goto close;
        }
    }
    p = ws_after_value(r, p);
    if (ATD_LIKELY(p < end)) {
        c = *p;
        if (c == ',') {
            p = ws_before_member(r, p + 1);
            if (in_object)
                goto key;
            goto value;
        }
        if (c == (in_object ? '}' : ']')) {
            p++;
            goto close;
        }
    }
    return atd_fail_cursor(
        atd__fail_found(r, p, ATD_ERR_SYNTAX, in_object ? "',' or '}'" : "',' or ']'"));

close:
    level--;
    r->depth--;
    if (level == 0) {
        r->depth = base_depth;
        return p;
    }
    in_object = (stack[(level - 1) >> 6] >> ((level - 1) & 63)) & 1;
    goto after_value;

key:
    /* past whitespace */
    if (ATD_UNLIKELY(p >= end || *p != '"'))
        return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, "an object key"));
    p = skip_string(r, p, strict, &r->skip_lengths[rank++ % ATD__SKIP_SLOTS]);
    if (p == NULL)
        return NULL;
    if (ATD_UNLIKELY(p >= end || *p != ':')) {
        p = ws(r, p);
        if (p >= end || *p != ':')
            return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, "':'"));
    }
    q = atd__past_one_space(r, p + 1);
    p = ATD_LIKELY(q != NULL) ? q : ws(r, p + 1);
    goto value;

fail_value:
    return atd_fail_cursor(atd__fail_found(r, p, ATD_ERR_SYNTAX, "a value"));
}

/* atd__skip_field_value_p, inline for the loop over a run of unknown
 * members: the frame is set up once per run. */
static ATD__HOT_INLINE const char *skip_field_value(atd_reader *r, const char *p, atd_string key)
{
    /* the ranks of the value's strings start where the key says: the
     * values of different unknown fields use different length guesses */
    unsigned rank = key.len > 0 ? (unsigned)key.len * 16 + (unsigned char)key.ptr[key.len - 1] : 0;
    /* most values of unknown fields are scalars after none or one space:
     * those in the fast forms without skip_value's state */
    const char *v = atd__past_one_space(r, p), *q;
    if (v != NULL && *v == '"' && !(r->flags & ATD_READ_LENIENT)) {
        q = skip_string(r, v, true, &r->skip_lengths[rank % ATD__SKIP_SLOTS]);
    } else {
        q = v != NULL ? skip_literal_or_number(r, v) : NULL;
        if (q == NULL)
            q = skip_value(r, p, rank);
    }
    if (ATD_UNLIKELY(q == NULL && key.ptr != NULL))
        atd_reader_push_field(r, key.ptr, key.len);
    return q;
}

const char *atd__skip_field_value_p(atd_reader *r, const char *p, atd_string key)
{
    return skip_field_value(r, p, key);
}

/* An unknown key moves the cursor by the length of the key that followed
 * the unknown one before it last time (atd_reader.key_lengths, the slot
 * given by that key): the value's loads then need not wait for the scan,
 * as the members of a list's records come in one order in every record.
 * (Known keys out of the schema's order, which atd_object_key_p reads, are
 * left unguessed: a producer that shuffles its keys would make the guess
 * miss at every key.) Documents often carry many more fields than the
 * schema reads: the unknown members that follow one another are skipped
 * here, each key looked up in the record's filter only. */
const char *atd__skip_plain_unknowns_p(atd_reader *r, const char *p, uint64_t known)
{
    atd_string key;
    const char *q;
    if ((r->flags & ATD_READ_STRICT_FIELDS) ||
        (q = atd__plain_key(r, p, &key, &r->key_lengths[r->key_slot])) == NULL)
        return p;
    for (;;) {
        r->key_slot = (unsigned char)((key.len * 16 + (unsigned char)q[-3]) % ATD__KEY_SLOTS);
        p = skip_field_value(r, q, key);
        if (p == NULL || !(p < r->fast_end && *p == ','))
            return p;
        /* the next member's key, when plain: if its bit is set it may be
         * one of the record's, which the record reader looks up */
        const char *k =
            atd__skip_ws_as_p(r, p + 1, ATD__WS_INDENT | ATD__WS_COMMENT | ATD__WS_ROOM);
        q = atd__plain_key(r, k, &key, &r->key_lengths[r->key_slot]);
        if (q == NULL ||
            ((known >> atd__key_bit(key.len, (unsigned char)k[1], (unsigned char)q[-3])) & 1))
            return p;
    }
}

const char *atd_skip_value_p(atd_reader *r, const char *p)
{
    atd_string none = {NULL, 0};
    return atd__skip_field_value_p(r, p, none);
}

bool atd_skip_value(atd_reader *r)
{
    return atd_reader_advance(r, atd_skip_value_p(r, r->cur));
}
