/* Internals of atd/reader.h, which includes this file after its types (inside
 * its extern "C" block): the out-of-line halves of its inline whitespace and
 * container functions, and the inline code they share. Not API: these names
 * may change in any release. */
#ifndef ATD_DETAIL_READER_H
#define ATD_DETAIL_READER_H

/* The key matchers of atd/reader.h must be inlined for their constants to fold. */
#define ATD__KEY_INLINE ATD__HOT_INLINE

/* What a record's key lookup (generated beside its reader) returns when the
 * key is no field's: the unknown key's value was skipped, or an error is
 * recorded. A field's key gives the field's index. */
enum { ATD__KEY_SKIPPED = -1, ATD__KEY_FAILED = -2 };
/* atd_read_grow's out-of-line half: every growth but a list's first block
 * taken from the arena's current chunk. */
void *atd__read_grow(atd_reader *r, const char *p, void *items, size_t *cap, size_t size,
                     size_t align);

/* Below atd_reader.fast_end = end - ATD__FAST_ROOM, the ATD__FAST_ROOM + 1
 * bytes from the cursor on are input: enough for the inline whitespace
 * skip (33) and a short string (18), which then need no other bounds
 * check. Small, so that short documents (JSON Lines records) have it too. */
#define ATD__FAST_ROOM 32

/* The index of the lowest set bit of x (x != 0), as a size_t to add to a
 * pointer. GCC gives __builtin_ctzll's int result a sign extension and, for
 * the CPUs where tzcnt waits on its target, clears the target first: two
 * instructions at every scan's stop. `rep bsf` is tzcnt where the CPU has
 * it and bsf elsewhere (the same for x != 0), and with x as its own target
 * it waits on nothing else. */
static ATD__HOT_INLINE size_t atd__lowest_bit(uint64_t x)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __asm__("rep bsf %0, %0" : "+r"(x) : : "cc");
    return (size_t)x;
#else
    return (size_t)__builtin_ctzll(x);
#endif
}

/* The cursor past the byte c when it is at p, by a branch rather than
 * p + (*p == c): whether the byte is there rarely changes from one value
 * to the next (the space after a ':', the sign of a field's numbers), so
 * the branch is predicted and the loads that follow do not wait for the
 * byte's. */
static ATD__HOT_INLINE const char *atd__past_byte(const char *p, char c)
{
    if (*p == c) {
#if defined(__GNUC__) || defined(__clang__)
        __asm__("" : "+r"(p)); /* (kept a branch) */
#endif
        p++;
    }
    return p;
}

/* p + n, where n is a count found in the input (an indentation, a short
 * string's length) and *guess the count found last at the same place: the
 * cursor moves by the guess, which a branch checks, so that when it holds
 * the next token's loads do not wait for the compares, the mask and the
 * bit scan that gave n. A wrong guess costs a misprediction and is
 * replaced; any value is correct. */
static ATD__HOT_INLINE const char *atd__past_count(const char *p, size_t n, unsigned char *guess)
{
#if defined(__GNUC__) || defined(__clang__)
    size_t g = *guess;
    /* (hidden from the compiler, which would otherwise use p + n where it
     * knows that n == g) */
    const char *q = p + g;
    __asm__ volatile("" : "+r"(q));
    if (ATD_UNLIKELY(n != g)) {
        q = p + n;
        *guess = (unsigned char)n;
    }
    return q;
#else
    (void)guess;
    return p + n;
#endif
}

#if ATD__INLINE_SSE2
/* The bytes of v that stop a plain string, as a movemask: the quote, the
 * backslash, control bytes and, negative as signed bytes, non-ASCII ones.
 * The empty asm hides the value of ' ' from GCC, which would otherwise
 * compare "v > 0x1f" and negate that: one instruction more per block. */
static ATD__HOT_INLINE unsigned atd__string_stops(__m128i v)
{
    __m128i space = _mm_set1_epi8(' ');
    __asm__("" : "+x"(space));
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                          _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                             _mm_cmpgt_epi8(space, v));
    return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* atd_skip_unknown_field_p's skip (skip.c): the value at p skipped, its
 * strings' length guesses (atd_reader.skip_lengths) from a slot that the
 * key gives on, one slot per string in the order met, so that the values
 * of different unknown fields keep apart; on an error, the key pushed on
 * the error's path. NULL key.ptr: no key (atd_skip_value_p). */
const char *atd__skip_field_value_p(atd_reader *r, const char *p, atd_string key);
/* A record's filter of its keys: bit atd__key_bit of each of its JSON
 * names (first and last: the first and last bytes of the name, '"' for
 * the empty name) set in a word that atdc computes, so that a key whose
 * bit is clear is none of the record's. */
static inline unsigned atd__key_bit(size_t len, unsigned char first, unsigned char last)
{
    return (unsigned)(len * 13 + first + last * 7) & 63;
}
/* A record reader's member at p whose key is in the plain form "key": and
 * none of the record's, known as such when its key tree (which compares
 * every name in that form) did not take it: the value skipped as by
 * atd_skip_unknown_field_p, then the members after it whose keys are plain
 * and whose bits are clear in the record's filter `known`, without a
 * return to the record reader for each. Returns the cursor after the last
 * value skipped (before the ',' or '}' that follows it), NULL after an
 * error, or p itself when the key at p is in another form (escapes,
 * whitespace, the last bytes of the input, lenient mode) or an unknown
 * field is an error (ATD_READ_STRICT_FIELDS): the general lookup then
 * decides. */
const char *atd__skip_plain_unknowns_p(atd_reader *r, const char *p, uint64_t known);
/* atd_skip_ws_p's slow path: runs of whitespace the inline skip leaves,
 * comments in lenient mode, the end of the input. */
const char *atd__skip_ws_slow_p(atd_reader *r, const char *p);
/* The inline exits of atd__skip_ws_try (`ways`), and whether a '/' ends
 * the skip. */
enum {
    ATD__WS_SPACE = 1,  /* one space, as after a ':' */
    ATD__WS_INDENT = 2, /* a newline and an indentation (or one space, in more steps) */
    /* A '/' is not taken for the token: it may start a comment (lenient
     * mode), which goes out of line. Without it the skip may stop at a
     * '/', for callers whose every path that does not find the token they
     * expect goes out of line and skips there with atd_skip_ws_p: one
     * compare less at each of their exits. */
    ATD__WS_COMMENT = 4,
    /* The caller has checked that p - 1 < r->fast_end: the 32 bytes from
     * p on are input, and the skip checks no bound. */
    ATD__WS_ROOM = 8,
    /* The nesting level of the token, for the indentation guess
     * (atd_reader.indent): without these, r->depth (a member or an
     * element); after an opening bracket, one deeper (the first member,
     * before r->depth counts the container); before a closing bracket,
     * one less. */
    ATD__WS_OPENED = 16,
    ATD__WS_CLOSING = 32
};
/* Whether c, the byte after some whitespace, is the token the skip stops
 * at: a byte above ' ', but for a '/' when slash_ends is false (a comment
 * then goes out of line). Bitwise rather than && and ||: with those, gcc
 * gives the out-of-line readers that start with a skip (atd_read_double_p
 * and the like) a stack frame on their fast path. */
static ATD__HOT_INLINE bool atd__ws_stop(unsigned char c, bool slash_ends)
{
    return (c > ' ') & (slash_ends | (c != '/'));
}
/* atd_skip_ws_p's inline half with only some of its exits (a constant
 * `ways`, above): every call site pays the code of the exits it keeps.
 * Callers keep the exits that the whitespace at their place in common
 * input takes: one space after a ':', a newline and an indentation after
 * a ',' or a bracket in pretty-printed input. Returns the cursor at the
 * token, or NULL where it leaves the rest to atd__skip_ws_slow_p (from p). */
static ATD__HOT_INLINE const char *atd__skip_ws_try(atd_reader *r, const char *p,
                                                    unsigned ways)
{
    /* Inline exits for the common cases: no whitespace, one space (": "),
     * and with SSE2 newlines and an indentation of up to 31 spaces in all
     * (pretty-printed input): 16 bytes compared with ' ' and '\n', 16 more
     * compared with ' ' when those are all whitespace, and the first other
     * byte is the token. Everything else (longer runs, tabs, CR, comments,
     * the last 32 bytes of the input) goes out of line. */
    const bool slash_ends = !(ways & ATD__WS_COMMENT);
    const char *end = r->end;
    if (ATD_LIKELY((ways & ATD__WS_ROOM) || p < end)) {
        unsigned char c = (unsigned char)*p;
        if (atd__ws_stop(c, slash_ends))
            return p;
        if ((ways & ATD__WS_SPACE) && c == ' ' && end - p >= 2 &&
            atd__ws_stop((unsigned char)p[1], slash_ends))
            return p + 1;
#if ATD__INLINE_SSE2
        if ((ways & ATD__WS_INDENT) && ATD_LIKELY((ways & ATD__WS_ROOM) || p < r->fast_end)) {
            const __m128i sp = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n');
            __m128i v0 = _mm_loadu_si128((const __m128i *)(const void *)p);
            uint64_t m = (unsigned)_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi8(v0, sp), _mm_cmpeq_epi8(v0, nl)));
            if (m == 0xffff) { /* a deeper indentation: 16 bytes more */
                __m128i v1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
                m |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v1, sp)) << 16;
            }
            /* at most 32: the bits above the 32 compared are zero in m */
            /* by the indentation last found at the same level: the guess
             * holds at every line of pretty-printed input but the first
             * at its level */
            unsigned level = r->depth + !!(ways & ATD__WS_OPENED) - !!(ways & ATD__WS_CLOSING);
            const char *q = atd__past_count(p, atd__lowest_bit(~m),
                                            &r->indent[level % ATD__INDENT_LEVELS]);
            if (ATD_LIKELY(atd__ws_stop((unsigned char)*q, slash_ends)))
                return q;
        }
#endif
    }
    return NULL;
}
/* The token after none or one space at p (a value after a ':'), the space
 * taken by a predicted branch so that the token's loads do not wait for
 * the byte's; NULL where the general skip is needed (more whitespace, a
 * '/', the last ATD__FAST_ROOM bytes of the input). */
static ATD__HOT_INLINE const char *atd__past_one_space(const atd_reader *r, const char *p)
{
    if (ATD_LIKELY(p < r->fast_end)) {
        const char *q = atd__past_byte(p, ' ');
        if (ATD_LIKELY(atd__ws_stop((unsigned char)*q, false)))
            return q;
    }
    return NULL;
}
/* atd__skip_ws_try, then its slow path: the cursor at the next token (or
 * at a '/' without ATD__WS_COMMENT) or the end of the input. */
static ATD__HOT_INLINE const char *atd__skip_ws_as_p(atd_reader *r, const char *p, unsigned ways)
{
    const char *q = atd__skip_ws_try(r, p, ways);
    return ATD_LIKELY(q != NULL) ? q : atd__skip_ws_slow_p(r, p);
}

/* The out-of-line halves: everything the inline halves below do not settle
 * (whitespace the inline skip leaves, the empty container, errors). They
 * take no flag pointer, so that the caller's flag stays in a register: the
 * byte before the cursor they return tells. begin returns the cursor at the
 * first token of a non-empty container (whose byte before is the opening
 * bracket or whitespace) or past the closing bracket of an empty one; next
 * returns the cursor past the ',' or past the closing bracket. */
const char *atd__array_begin_slow_p(atd_reader *r, const char *p);
const char *atd__object_begin_slow_p(atd_reader *r, const char *p);
const char *atd__array_next_slow_p(atd_reader *r, const char *p);
const char *atd__object_next_slow_p(atd_reader *r, const char *p);
/* atd_object_next_key_p's out-of-line half, at p after a member's value: past
 * the ',' and the whitespace after it (the cursor at the next key), or
 * past the '}' (the byte before the cursor), or NULL after an error. */
const char *atd__object_next_key_slow_p(atd_reader *r, const char *p);

/* atd_null_skip's out-of-line half, at q (an 'n'): the cursor past the
 * null when one is there, followed by what may follow a member's value,
 * else q. */
const char *atd__null_skip_p(const atd_reader *r, const char *q);

/* atd_read_string_p's out-of-line half: every string its inline half does
 * not settle (long ones, escapes, non-ASCII text, lenient mode, the end of
 * the input or of the arena's chunk, errors). */
const char *atd__read_string_p(atd_reader *r, const char *p, atd_string *out);
/* The same after the inline half found the n bytes (at most 16) after the
 * opening quote at p plain and copied them to the arena's cursor (whose
 * chunk had room for 16): the scan goes on after them. */
const char *atd__read_string_after_p(atd_reader *r, const char *p, unsigned n, atd_string *out);
/* The same when borrowing: the n bytes (at most 16) after the opening
 * quote at p are plain. */
const char *atd__borrow_string_after_p(atd_reader *r, const char *p, unsigned n, atd_string *out);

/* atd_read_int64_p (reader.h) with the number of its place, `slot`
 * (below ATD__LENGTH_SLOTS). */
const char *atd__read_int64_at_p(atd_reader *r, const char *p, int64_t *out, unsigned slot);

/* atd_read_string_p (reader.h) with the number of its place, `slot`. */
static ATD__HOT_INLINE const char *atd__read_string_at_p(atd_reader *r, const char *p,
                                                         atd_string *out, unsigned slot)
{
#if ATD__INLINE_SSE2
    atd_arena *a = r->copy_arena; /* NULL: lenient, borrowing or no arena */
    /* room for the space, the quote and 16 bytes of input, and for 16
     * bytes in the arena's chunk (its pointers are NULL before the first
     * chunk: compared as integers) */
    if (ATD_LIKELY(a != NULL && p < r->fast_end &&
                   (uintptr_t)a->end - (uintptr_t)a->cur >= 16)) {
        const char *q = atd__past_byte(p, ' ');
        if (ATD_LIKELY(*q == '"')) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(q + 1));
            unsigned bits = atd__string_stops(v);
            char *d = a->cur;
            _mm_storeu_si128((__m128i *)(void *)d, v);
            if (bits == 0) /* longer: on after the 16 bytes copied */
                return atd__read_string_after_p(r, q, 16, out);
            size_t n = atd__lowest_bit(bits);
            /* by the length last read at this place */
            const char *e = atd__past_count(q, n, &r->lengths[slot]);
            if (ATD_LIKELY(e[1] == '"')) {
                d[n] = '\0';
                a->cur = d + n + 1;
                out->ptr = d;
                out->len = n;
                return e + 2;
            }
            /* an escape or the like: on after the n plain bytes copied */
            return atd__read_string_after_p(r, q, n, out);
        }
    } else if ((r->flags & ATD_READ_BORROW_STRINGS) && p < r->fast_end) {
        /* borrowed: the same load finds the closing quote (a branch of
         * its own rather than tests of the mode in the copy's steps, which
         * would add instructions to every copied string) */
        const char *q = atd__past_byte(p, ' ');
        if (ATD_LIKELY(*q == '"')) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(q + 1));
            unsigned bits = atd__string_stops(v);
            if (bits == 0) /* longer: on after the 16 bytes scanned */
                return atd__borrow_string_after_p(r, q, 16, out);
            size_t n = atd__lowest_bit(bits);
            const char *e = atd__past_count(q, n, &r->lengths[slot]);
            if (ATD_LIKELY(e[1] == '"')) {
                out->ptr = q + 1;
                out->len = n;
                return e + 2;
            }
            return atd__borrow_string_after_p(r, q, (unsigned)n, out);
        }
    }
#else
    (void)slot;
#endif
    return atd__read_string_p(r, p, out);
}
/* begin: whitespace (unless `at`: the cursor is at the token already), the
 * bracket, whitespace again (pretty-printed input puts a newline and an
 * indentation there) and the first token or the closing bracket are
 * settled inline. */
static ATD__HOT_INLINE const char *atd__begin_p(atd_reader *r, const char *p, bool *nonempty,
                                                char open, char close, bool at,
                                                const char *(*slow)(atd_reader *, const char *))
{
    if (!at)
        p = atd__skip_ws_as_p(r, p, ATD__WS_INDENT);
    if (ATD_LIKELY(p < r->end && *p == open && r->depth < r->max_depth)) {
        /* exact: a comment there must not be taken for a first token */
        const char *q =
            atd__skip_ws_as_p(r, p + 1, ATD__WS_INDENT | ATD__WS_COMMENT | ATD__WS_OPENED);
        if (ATD_LIKELY(q < r->end)) {
            *nonempty = *q != close;
            if (*q == close)
                return q + 1;
            r->depth++;
            return q;
        }
    }
    p = slow(r, p);
    *nonempty = p != NULL && p[-1] != close;
    return p;
}
/* next: the ',' right after the value is settled inline, and for arrays
 * (and atd_object_end_p) whitespace then the closing bracket too; the rest
 * (whitespace before a ',', errors) goes out of line. */
static ATD__HOT_INLINE const char *atd__next_slow_p(atd_reader *r, const char *p, bool *more,
                                                    const char *(*slow)(atd_reader *,
                                                                        const char *))
{
    p = slow(r, p);
    *more = p != NULL && p[-1] == ',';
    return p;
}
static ATD__HOT_INLINE const char *atd__next_or_close_p(atd_reader *r, const char *p, bool *more,
                                                        char close,
                                                        const char *(*slow)(atd_reader *,
                                                                            const char *))
{
    if (p < r->end && *p == ',') {
        *more = true;
        return p + 1;
    }
    const char *q = atd__skip_ws_as_p(r, p, ATD__WS_INDENT | ATD__WS_CLOSING);
    if (ATD_LIKELY(q < r->end && *q == close)) {
        r->depth--;
        *more = false;
        return q + 1;
    }
    return atd__next_slow_p(r, q, more, slow);
}

#endif
