/* JSON reader: a cursor over (const char *, size_t) input, and the lexing
 * primitives that generated readers are made of.
 *
 * The input is not NUL-terminated and may contain NUL bytes. Every primitive
 * skips the whitespace before its token, returns true on success and false on
 * error; the first error is recorded in the reader (code, byte offset, detail)
 * and later calls keep failing fast. Generated readers check every call:
 *
 *     if (!atd_read_int64(r, &out->date)) return atd_reader_push_field(r, "date", 4);
 *
 * As a failing read unwinds, each level adds its field name or index, so the
 * final error names the JSON path ($.events[3].date). Successful reads pay
 * nothing for this. Line and column are computed only when the error is
 * reported (atd_reader_get_error).
 *
 * Strings are decoded into the reader's arena (NUL-terminated) or, with
 * ATD_READ_BORROW_STRINGS, point into the input when they contain no escape.
 *
 * Choices this reader makes where the specification leaves room:
 * - Strict mode (default, RFC 8259): raw control bytes (0x00-0x1F) in strings,
 *   invalid UTF-8 (overlongs, UTF-8-encoded surrogates, > U+10FFFF, truncated
 *   sequences, stray continuation bytes), comments, bare NaN/Infinity and text
 *   after the top-level value are errors.
 * - Lone surrogate escapes (a \uD800-\uDBFF not followed by a \u low
 *   surrogate, or a lone \uDC00-\uDFFF) are an error in strict mode; in
 *   lenient mode each is encoded as its 3-byte form (ED A0 80 ...), as atdgen
 *   does. "\u0000" always yields a NUL byte kept in the string.
 * - Quoted ints (accepted as atdgen accepts them) are decimal only: optional sign, then one or
 *   more digits (leading zeros allowed, as OCaml's int_of_string does). The
 *   OCaml forms 0x1F, 0o17, 0b101 and 1_000 are not accepted, nor any string
 *   with an escape, a space or a fraction.
 * - Quoted floats hold a JSON number exactly; quoted or bare NaN, Infinity and
 *   -Infinity only in lenient mode.
 * - The strings "true"/"false" for bool must be spelled without escapes.
 * - Error positions are where the offending token starts, except inside
 *   strings, where they point at the offending byte or escape.
 * - Line and column: only LF ends a line (so CR LF counts once); columns count
 *   bytes from 1.
 * - Path segments: ".name" for keys matching [A-Za-z_][A-Za-z0-9_]*,
 *   ["key"] otherwise (quote, backslash escaped, other unprintable bytes as
 *   \xNN; long keys shortened with "..."), "[3]" for indexes. When the path
 *   does not fit, the outermost segments are dropped and shown as "$...". */
/* Names with a double underscore (atd__skip_ws_slow_p, ATD__KEY_INLINE...)
 * are not API: the halves of the inline functions here that atd/detail/reader.h
 * holds, which may change without notice. The reader's other internals are
 * private to the library (runtime/src/reader_internal.h). */
#ifndef ATD_READER_H
#define ATD_READER_H

#include "common.h"
#include "arena.h"
#include "error.h"
#include "flags.h"

#include <string.h>

/* SSE2 (the x86-64 baseline) for the inline whitespace skip; ATD_NO_SIMD
 * leaves the portable out-of-line path only. */
#if defined(__SSE2__) && !defined(ATD_NO_SIMD) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define ATD__INLINE_SSE2 1
#else
#define ATD__INLINE_SSE2 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define ATD_DEFAULT_MAX_DEPTH 1024
/* (internal: the nesting levels whose indentation the reader remembers,
 * and the places whose last short string's length it remembers) */
#define ATD__INDENT_LEVELS 16
#define ATD__LENGTH_SLOTS 64
#define ATD__SKIP_SLOTS 128
#define ATD__KEY_SLOTS 64

typedef struct atd_reader {
    const char *start; /* input */
    const char *cur;   /* next byte to read */
    const char *end;   /* one past the last byte */
    /* end - ATD__FAST_ROOM, or start when the input is shorter: below it,
     * the ATD__FAST_ROOM + 1 bytes from the cursor on are input, and the
     * inline fast paths need one compare. Set with end, by the runtime. */
    const char *fast_end;
    atd_arena *arena;  /* where decoded values go */
    unsigned flags;    /* atd_read_flags */
    /* The arena when strings are copied by the fast path: NULL in lenient or
     * borrowing mode or without an arena, so that one test settles all
     * three. atd_reader_init sets it with arena and flags, which are not
     * to be changed after it. */
    atd_arena *copy_arena;
    unsigned depth;    /* current nesting of arrays/objects */
    unsigned max_depth;
    /* The whitespace (a newline and the indentation) last found before a
     * token at each nesting level modulo ATD__INDENT_LEVELS: a guess that
     * pretty-printed input confirms at every line. The inline skip moves
     * the cursor by the guess and checks it with a branch, so the next
     * token's reads do not wait for the count of the whitespace. Set by
     * the runtime; any value is correct, only slower. */
    unsigned char indent[ATD__INDENT_LEVELS];
    /* The same for the length of the short string or of the integer last
     * read at each place of the code that reads them (a number per call of
     * atd_read_string_p or atd_read_int64_p, modulo ATD__LENGTH_SLOTS): a
     * field's strings and integers often have one length (ids, dates,
     * codes, counts). */
    unsigned char lengths[ATD__LENGTH_SLOTS];
    /* The same for the strings of skipped values, by their rank in the
     * value skipped (modulo ATD__SKIP_SLOTS): the same unknown field in
     * every record of a list has the same keys. */
    unsigned char skip_lengths[ATD__SKIP_SLOTS];
    /* The same for the keys of unknown fields, by the unknown key before
     * (key_slot: its slot, modulo ATD__KEY_SLOTS): the unknown members of
     * a list's records come in one order in every record. */
    unsigned char key_lengths[ATD__KEY_SLOTS];
    unsigned char key_slot;
    /* First error; err_code == ATD_ERR_OK while none. */
    atd_error_code err_code;
    size_t err_offset;
    char err_detail[160];
    atd_error_path err_path; /* pushed while unwinding */
} atd_reader;

/* A type's reader behind an untyped pointer (the generated P_t_read_any),
 * for the runtime functions that read any type (whole documents, streams). */
typedef bool (*atd_read_fn)(atd_reader *r, void *out);

#include "detail/reader.h" /* the halves of the inline functions below */

/* Prepares a reader, its cursor at the start of the input and no error
 * recorded; max_depth starts at ATD_DEFAULT_MAX_DEPTH.
 *   r:     the reader to set up.
 *   json:  the input, len bytes (not NUL-terminated); it must outlive the
 *          reader, and the values that borrow from it.
 *   arena: where decoded values go; NULL only if nothing will be allocated
 *          (e.g. for atd_skip_value).
 *   flags: atd_read_flags (flags.h), or-ed; 0 for strict RFC 8259. */
void atd_reader_init(atd_reader *r, const char *json, size_t len, atd_arena *arena, unsigned flags);

/* --- errors --- */

/* Records an error unless one is recorded already.
 *   r:      the reader.
 *   offset: the byte offset of the error in the input.
 *   code:   what went wrong (ATD_ERR_*).
 *   fmt:    printf format of the detail, one lowercase phrase, e.g.
 *           "expected an integer, found \"2.5\"" (cut to fit err_detail);
 *           its arguments follow.
 * Always returns false, so callers can `return atd_reader_fail(...)`. */
ATD_COLD bool atd_reader_fail_at(atd_reader *r, size_t offset, atd_error_code code, const char *fmt,
                                  ...) ATD_PRINTF(4, 5);
/* Same at the reader's cursor (r->cur). */
ATD_COLD bool atd_reader_fail(atd_reader *r, atd_error_code code, const char *fmt, ...)
    ATD_PRINTF(3, 4);
/* Records "expected WHAT, found <the token at `at`>" (a short, printable
 * quote of the input: strings with their quotes, punctuation in single quotes,
 * e.g. "expected an integer, found \"2.5\""), code ATD_ERR_TYPE (ATD_ERR_SYNTAX
 * when the token cannot start a JSON value). At the end of the input: code
 * ATD_ERR_EOF, detail "unexpected end of input".
 *   r:    the reader that records the error.
 *   at:   where the unexpected token starts, inside r's input (r->cur for a
 *         reader that keeps its own cursor).
 *   what: what was expected, e.g. "an integer".
 * Returns false. */
ATD_COLD bool atd_reader_fail_expected(atd_reader *r, const char *at, const char *what);

/* Add a path segment while unwinding: the record field or array element in
 * which the recorded error happened (each level adds its own, innermost
 * first).
 *   r:     the reader, with an error recorded.
 *   name:  the field's JSON name, len bytes.
 *   index: the element's index.
 * Return false. */
ATD_COLD bool atd_reader_push_field(atd_reader *r, const char *name, size_t len);
ATD_COLD bool atd_reader_push_index(atd_reader *r, size_t index);

/* Reports the recorded error.
 *   r:   the reader.
 *   err: when not NULL, filled from the recorded error: code, offset, line,
 *        column, path, and the message "line L, column C, at PATH: DETAIL"
 *        (cleared when there is none).
 * Returns the error code (ATD_ERR_OK when there is none). */
int atd_reader_get_error(const atd_reader *r, atd_error *err);

/* Whether r has recorded an error. */
static inline bool atd_reader_failed(const atd_reader *r)
{
    return r->err_code != ATD_ERR_OK;
}

/* Accessors for generated readers, which do not reach into the fields. */

/* The byte offset of r's cursor in the input (where the next token starts,
 * after atd_skip_ws), for error positions (atd_reader_fail_at). */
static inline size_t atd_reader_offset(const atd_reader *r)
{
    return (size_t)(r->cur - r->start);
}

/* Whether r's flags hold `flag` (one of atd_read_flags). */
static inline bool atd_reader_has_flag(const atd_reader *r, atd_read_flags flag)
{
    return (r->flags & (unsigned)flag) != 0;
}

/* The flags of reader r (atd_read_flags, or-ed), and a way to set them to
 * `flags` while a nested value is read: a Type_field adapter reads the
 * object's other fields as the argument record, where its type field is no
 * unknown field. */
static inline unsigned atd_reader_flags(const atd_reader *r)
{
    return r->flags;
}
static inline void atd_reader_set_flags(atd_reader *r, unsigned flags)
{
    r->flags = flags;
}

/* Where r's decoded values go (the arena given to atd_reader_init). */
static inline atd_arena *atd_reader_arena(const atd_reader *r)
{
    return r->arena;
}

/* The error of a record whose required field did not occur:
 * "missing field 'FIELD' in record 'RECORD'" (ATD_ERR_MISSING_FIELD).
 *   r:      the reader.
 *   at:     the cursor the record's reader started from; the error is at
 *           the object's '{', after the whitespace there.
 *   field:  the missing field's JSON name.
 *   record: the record's ATD name.
 * Returns false. */
ATD_COLD bool atd_reader_fail_missing(atd_reader *r, const char *at, const char *field,
                                      const char *record);
/* The same for the first required field not read, one of which the caller
 * knows is missing.
 *   seen:  bit i (of word i / 64) set when the i-th required field was read.
 *   names: the required fields' JSON names in that order, each ended by a
 *          NUL (a literal such as "date\0name\0").
 * r, at and record as above. Returns false. */
ATD_COLD bool atd_reader_fail_missing_of(atd_reader *r, const char *at, const uint64_t *seen,
                                         const char *names, const char *record);

/* The error of a key that is none of the record's fields, under
 * ATD_READ_STRICT_FIELDS: "unknown field \"KEY\" in record 'RECORD'"
 * (ATD_ERR_UNKNOWN_FIELD) at `at`, followed by "; did you mean \"NAME\"?"
 * when one of `fields` is close to the key (a typo). `fields` holds the
 * record's JSON field names, each ended by a NUL, then an empty name
 * ("id\0name\0").
 *   r:      the reader.
 *   at:     the key's opening quote, in r's input.
 *   key:    the key as read.
 *   record: the record's ATD name.
 *   fields: as above.
 * Returns false. */
ATD_COLD bool atd_reader_fail_unknown_field(atd_reader *r, const char *at, atd_string key,
                                            const char *record, const char *fields);
/* The record readers' way with such a key, read at p's left: under
 * ATD_READ_STRICT_FIELDS the error above; otherwise its value skipped
 * (atd_skip_value_p), the key pushed on the error's path if that fails.
 * key, record and fields as above. Returns the cursor after the value, or
 * NULL after recording the error. Inline: the call goes straight to the
 * skipper. */
static inline const char *atd_skip_unknown_field_p(atd_reader *r, const char *p, atd_string key,
                                                   const char *record, const char *fields)
{
    if (ATD_UNLIKELY(atd_reader_has_flag(r, ATD_READ_STRICT_FIELDS))) {
        atd_reader_fail_unknown_field(r, p, key, record, fields);
        return NULL;
    }
    return atd__skip_field_value_p(r, p, key);
}

/* The steps around the argument of a constructor in a sum reader, after
 * the constructor's name, for the array form ["Name", ARG] and the object
 * form {"Name": ARG}. atd_read_variant_arg_p reads the ',' before the
 * argument of the array form: "variant 'NAME' needs an argument"
 * (ATD_ERR_BAD_VARIANT) at `at` when the array closes instead.
 * atd_read_variant_end_p reads the `closer` that must follow the argument:
 * "expected 'C' after the argument of variant 'NAME'" when a ',' does.
 *   r:      the reader.
 *   p:      the cursor, after the name (arg) or after the argument (end).
 *   at:     the byte offset of the name, for the error of arg.
 *   closer: ']' for the array form, '}' for the object form.
 *   name:   the constructor's ATD name, for messages.
 * Both return the cursor after what they read, or NULL after recording the
 * error. */
const char *atd_read_variant_arg_p(atd_reader *r, const char *p, size_t at, const char *name);
const char *atd_read_variant_end_p(atd_reader *r, const char *p, char closer, const char *name);

/* Makes *s own its bytes: a string that points into the input (a name from
 * atd_read_name_p, a key from atd_object_key_p) is copied into the arena,
 * NUL-terminated, unless ATD_READ_BORROW_STRINGS.
 *   r: the reader, whose arena receives the copy.
 *   p: the cursor, where an out-of-memory error is reported.
 *   s: the string, updated to point at the copy.
 * Returns p, or NULL after recording ATD_ERR_NOMEM. */
const char *atd_reader_own_string_p(atd_reader *r, const char *p, atd_string *s);

/* --- tokens --- */

/* --- the cursor as a value ---
 * Every primitive comes in two forms. The *_p form takes the cursor `p` and
 * returns the cursor after its token, or NULL after recording an error at
 * the offending byte; it neither reads nor writes r->cur. Generated readers
 * use it with the cursor in a local variable, so that it stays in a
 * register from token to token. The bool form below each is the same
 * primitive with r->cur as the cursor (for hand-written readers, streams
 * and the DOM):
 *
 *     p = atd_read_int64_p(r, p, &out->date);
 *     if (p == NULL) return atd_fail_cursor(atd_reader_push_field(r, "date", 4));
 *
 * After an error r->cur is at the end of the input, as with the bool forms. */

/* The failure value of a reader that returns the cursor: NULL, whatever the
 * (always false) result of the error call it wraps.
 *   ignored: that result. */
static inline const char *atd_fail_cursor(bool ignored)
{
    (void)ignored;
    return NULL;
}

/* Where the bool forms read: generated readers hand the cursor to a bool-
 * form reader (atd_reader_seek, then the call) and take it back after
 * (atd_reader_cursor).
 *   r: the reader.
 *   p: the new cursor, inside r's input or at its end. */
static inline const char *atd_reader_cursor(const atd_reader *r)
{
    return r->cur;
}
static inline void atd_reader_seek(atd_reader *r, const char *p)
{
    r->cur = p;
}

/* The bool form of a p-form call.
 *   r: the reader.
 *   p: what the call returned.
 * Moves r->cur to p and returns true, or returns false when p is NULL (an
 * error is recorded and r->cur is at the end of the input). */
static inline bool atd_reader_advance(atd_reader *r, const char *p)
{
    if (p == NULL)
        return false;
    r->cur = p;
    return true;
}

/* The byte at p (a cursor in r's input), or -1 at the end of the input. */
static inline int atd_byte_at(const atd_reader *r, const char *p)
{
    return p < r->end ? (unsigned char)*p : -1;
}

/* The byte offset of p (a cursor in r's input), for error positions. */
static inline size_t atd_reader_offset_of(const atd_reader *r, const char *p)
{
    return (size_t)(p - r->start);
}

/* Skips JSON whitespace (space, tab, CR, LF; in lenient mode also comments).
 *   r: the reader.
 *   p: the cursor.
 * Returns the cursor at the next token, or the end of the input. Never
 * fails: after an unterminated comment (lenient mode; the error is
 * recorded) it returns the end of the input, where the next token fails.
 * atd_skip_ws does the same at r->cur. */
static ATD__HOT_INLINE const char *atd_skip_ws_p(atd_reader *r, const char *p)
{
    return atd__skip_ws_as_p(r, p, ATD__WS_SPACE | ATD__WS_INDENT | ATD__WS_COMMENT);
}
static inline void atd_skip_ws(atd_reader *r)
{
    r->cur = atd_skip_ws_p(r, r->cur);
}

/* Skips whitespace at r->cur and returns the next byte (without consuming
 * it), or -1 at the end of the input. */
static inline int atd_peek(atd_reader *r)
{
    atd_skip_ws(r);
    return r->cur < r->end ? (unsigned char)*r->cur : -1;
}

/* Skips whitespace at r->cur; if the next byte is c (a punctuation byte
 * such as ',' or ':'), consumes it and returns true. Otherwise returns
 * false without recording an error. */
static inline bool atd_accept(atd_reader *r, char c)
{
    atd_skip_ws(r);
    if (r->cur < r->end && *r->cur == c) {
        r->cur++;
        return true;
    }
    return false;
}

/* Like atd_accept, but a mismatch is an error ("expected ','", found ...):
 * returns false after recording it. */
bool atd_expect(atd_reader *r, char c);

/* After the top-level value: only whitespace may follow (in lenient mode,
 * anything may follow).
 *   r: the reader, its cursor after the value.
 * Returns true, or false when an error is recorded already or after
 * recording ATD_ERR_TRAILING. */
bool atd_read_end(atd_reader *r);

/* --- containers ---
 * Arrays:
 *     bool more;
 *     if (!atd_array_begin(r, &more)) return false;
 *     for (size_t i = 0; more; i++) {
 *         if (!read_elem(r, ...)) return atd_reader_push_index(r, i);
 *         if (!atd_array_next(r, &more)) return false;
 *     }
 * Objects:
 *     if (!atd_object_begin(r, &more)) return false;
 *     while (more) {
 *         atd_string key;
 *         if (!atd_object_key(r, &key)) return false;   // reads "key" and ':'
 *         ... read or skip the value ...
 *         if (!atd_object_next(r, &more)) return false;
 *     }
 * begin checks and increments the depth (error ATD_ERR_DEPTH beyond max_depth);
 * next decrements it when the container closes.
 *
 * The cursor forms (_p) take the cursor and return the new one, or NULL
 * after recording the error; the bool forms work at r->cur.
 *   r:        the reader.
 *   p:        the cursor: before the container (begin), after an element
 *             or member value (next, end).
 *   nonempty: begin: set to whether a first element or member follows.
 *   more:     next, end: set to whether a ',' was read (false: the closing
 *             bracket was, or an error is recorded and the cursor NULL; the
 *             same for nonempty after begin).
 * The common cases are settled inline. */
static ATD__HOT_INLINE const char *atd_array_begin_p(atd_reader *r, const char *p, bool *nonempty)
{
    return atd__begin_p(r, p, nonempty, '[', ']', false, atd__array_begin_slow_p);
}
static ATD__HOT_INLINE const char *atd_object_begin_p(atd_reader *r, const char *p, bool *nonempty)
{
    return atd__begin_p(r, p, nonempty, '{', '}', false, atd__object_begin_slow_p);
}
/* The same where the caller skipped the whitespace before the container
 * already (p is at the bracket, or at what is there instead): no second
 * skip inline. */
static ATD__HOT_INLINE const char *atd_array_begin_at_p(atd_reader *r, const char *p,
                                                        bool *nonempty)
{
    return atd__begin_p(r, p, nonempty, '[', ']', true, atd__array_begin_slow_p);
}
static ATD__HOT_INLINE const char *atd_object_begin_at_p(atd_reader *r, const char *p,
                                                         bool *nonempty)
{
    return atd__begin_p(r, p, nonempty, '{', '}', true, atd__object_begin_slow_p);
}
bool atd_array_begin(atd_reader *r, bool *nonempty);
bool atd_object_begin(atd_reader *r, bool *nonempty);

static ATD__HOT_INLINE const char *atd_array_next_p(atd_reader *r, const char *p, bool *more)
{
    return atd__next_or_close_p(r, p, more, ']', atd__array_next_slow_p);
}
static ATD__HOT_INLINE const char *atd_object_next_p(atd_reader *r, const char *p, bool *more)
{
    if (ATD_LIKELY(p < r->end && *p == ',')) {
        *more = true;
        return p + 1;
    }
    return atd__next_slow_p(r, p, more, atd__object_next_slow_p);
}
/* The same for the value that is expected to be the object's last (the
 * last field of a record): whitespace (pretty-printed input's newline and
 * indentation) then the '}' is settled inline too. */
static ATD__HOT_INLINE const char *atd_object_end_p(atd_reader *r, const char *p, bool *more)
{
    return atd__next_or_close_p(r, p, more, '}', atd__object_next_slow_p);
}
/* The record readers' step to the next member: past the ',' and the
 * whitespace after it, the cursor then at the key (or, in lenient mode,
 * maybe at a comment before it, which atd_object_key_p skips). On an error
 * *more is false as well as the cursor NULL, so that one test of *more per
 * member leaves the straight line and the cursor is tested once, where the
 * object ends. The ',' right after the value and the whitespace the inline
 * skip takes are settled inline, everything else (and the last 32 bytes
 * of the input) in one call. */
static ATD__HOT_INLINE const char *atd_object_next_key_p(atd_reader *r, const char *p, bool *more)
{
    if (ATD_LIKELY(p < r->fast_end && *p == ',')) {
        const char *q = atd__skip_ws_try(r, p + 1, ATD__WS_INDENT | ATD__WS_ROOM);
        if (ATD_LIKELY(q != NULL)) {
            *more = true;
            return q;
        }
    }
    p = atd__object_next_key_slow_p(r, p);
    *more = p != NULL && p[-1] != '}';
    return p;
}
/* The same after the value expected to be the object's last
 * (atd_object_end_p: the '}' is settled inline too). */
static ATD__HOT_INLINE const char *atd_object_end_key_p(atd_reader *r, const char *p, bool *more)
{
    p = atd_object_end_p(r, p, more);
    return *more ? atd__skip_ws_as_p(r, p, ATD__WS_INDENT) : p;
}
static inline bool atd_array_next(atd_reader *r, bool *more)
{
    return atd_reader_advance(r, atd_array_next_p(r, r->cur, more));
}
static inline bool atd_object_next(atd_reader *r, bool *more)
{
    return atd_reader_advance(r, atd_object_next_p(r, r->cur, more));
}

/* Reads an object key and the ':' after it.
 *   r:   the reader.
 *   p:   the cursor, before the key.
 *   key: the key, borrowed from the input when it has no escape, otherwise
 *        decoded into the arena; valid until the arena is reset.
 * Returns the cursor after the ':', or NULL after recording the error (the
 * bool form: true or false, at r->cur). */
const char *atd_object_key_p(atd_reader *r, const char *p, atd_string *key);
bool atd_object_key(atd_reader *r, atd_string *key);

/* --- key matching, for generated readers --- */

/* Whether the n bytes at p equal the n bytes at lit; reads exactly those
 * bytes (both must have n readable bytes). Generated readers pass a string literal and a constant n: once
 * inlined, the branches on n fold away and the loads from lit become
 * immediates, so a key costs one to four word compares and no call. Loads
 * of 8, 4 or 2 bytes go through memcpy (no alignment or aliasing issue); a
 * length that is not a multiple of the word ends with a word that overlaps
 * the previous one rather than a byte loop. */
static ATD__KEY_INLINE bool atd_bytes_eq(const char *p, const char *lit, size_t n)
{
    if (n >= 8) {
        /* A word at a time, out at the first that differs: as few
         * instructions as a branchless compare (an immediate and a compare
         * with memory per word), and a key that is not lit, as when keys
         * come in another order than the schema's, mostly differs in its
         * first word. */
        uint64_t a, b;
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            memcpy(&a, p + i, 8);
            memcpy(&b, lit + i, 8);
            if (a != b)
                return false;
        }
        if (i < n) {
            memcpy(&a, p + n - 8, 8);
            memcpy(&b, lit + n - 8, 8);
            return a == b;
        }
        return true;
    }
    if (n >= 4) {
        uint32_t a, b, c, e;
        memcpy(&a, p, 4);
        memcpy(&b, lit, 4);
        memcpy(&c, p + n - 4, 4);
        memcpy(&e, lit + n - 4, 4);
        return ((a ^ b) | (c ^ e)) == 0;
    }
    if (n >= 2) {
        uint16_t a, b, c, e;
        memcpy(&a, p, 2);
        memcpy(&b, lit, 2);
        memcpy(&c, p + n - 2, 2);
        memcpy(&e, lit + n - 2, 2);
        return ((a ^ b) | (c ^ e)) == 0;
    }
    return n == 0 || p[0] == lit[0];
}

/* The record readers' fast path for the key they expect next: whether the
 * input at p (already past whitespace) is exactly lit, n bytes holding the
 * key with its quotes and the colon ("\"date\":", 7). Callers then go on at
 * p + n; otherwise they read the key with atd_object_key_p from p. The key
 * between the quotes must be printable ASCII without '"' or '\\':
 * atd_object_key would then read the same bytes as this key, with no escape
 * and nothing to validate, and leave the cursor at the same place.
 *   r:   the reader (for the end of its input).
 *   p:   the cursor.
 *   lit: the expected bytes, n of them.
 * Returns whether they are at p, within the input. */
static ATD__KEY_INLINE bool atd_key_at(const atd_reader *r, const char *p, const char *lit,
                                       size_t n)
{
    return (size_t)(r->end - p) >= n && atd_bytes_eq(p, lit, n);
}

/* atd_key_at that also moves the cursor *p past the key when it is there:
 * the record readers then go on with the field's value. */
static ATD__KEY_INLINE bool atd_key_skip(const atd_reader *r, const char **p, const char *lit,
                                         size_t n)
{
    if (!atd_key_at(r, *p, lit, n))
        return false;
    *p += n;
    return true;
}

/* atd_bytes_eq that also moves the cursor *p past the n bytes when they
 * match (the caller has checked that n bytes are left: atd_key_room). */
static ATD__KEY_INLINE bool atd_bytes_skip(const char **p, const char *lit, size_t n)
{
    if (!atd_bytes_eq(*p, lit, n))
        return false;
    *p += n;
    return true;
}

/* The record readers' step to the next member when they expect the key
 * lit (n bytes, as atd_key_at): atd_object_next_key_p, then the key taken
 * if it is there. Returns false when it is not, with *p at the key, or when
 * no member follows: *more false, *p past the '}' or NULL after an error. */
static ATD__HOT_INLINE bool atd_object_next_is(atd_reader *r, const char **p, bool *more,
                                               const char *lit, size_t n)
{
    *p = atd_object_next_key_p(r, *p, more);
    return *more && atd_key_skip(r, p, lit, n);
}
/* The same for the first member: atd_object_begin_p, then the key. */
static ATD__HOT_INLINE bool atd_object_begin_is(atd_reader *r, const char **p, bool *more,
                                                const char *lit, size_t n)
{
    *p = atd_object_begin_p(r, *p, more);
    return *more && atd_key_skip(r, p, lit, n);
}

/* The record readers' test for a ? or ~ field given as null, which reads as
 * absent (as atdgen reads it).
 *   r: the reader.
 *   p: the cursor, before the value; moved past the whitespace before it,
 *      and past the null when one is there.
 * Returns whether a null was read, followed by what may follow a member's
 * value (',', '}', whitespace, or '/' for a lenient-mode comment).
 * Anything else, a broken literal such as `nul` included, is left to the
 * field's own reader, whose error names it. */
static ATD__HOT_INLINE bool atd_null_skip(atd_reader *r, const char **p)
{
    /* after the ':'; exact: a comment before a null is skipped here */
    const char *q = atd__skip_ws_as_p(r, *p, ATD__WS_SPACE | ATD__WS_COMMENT);
    if (ATD_LIKELY(q >= r->end || *q != 'n')) {
        *p = q;
        return false;
    }
    /* the literal checked out of line: a call for each null, no code at each field */
    *p = atd__null_skip_p(r, q);
    return *p != q;
}

/* The same on r->cur (lit, n as above): consumes the key and returns true,
 * or changes nothing and returns false. */
static ATD__KEY_INLINE bool atd_object_key_is(atd_reader *r, const char *lit, size_t n)
{
    if (!atd_key_at(r, r->cur, lit, n))
        return false;
    r->cur += n;
    return true;
}

/* Whether at least n bytes of input are left at p: the record readers'
 * dispatch of a key they did not expect reads bytes of the key at p + 1,
 * p + 2, ... and compares it whole (atd_bytes_eq), within the n bytes of
 * the record's longest "key": form.
 *   r: the reader.
 *   p: the cursor.
 *   n: the bytes needed. */
static ATD__KEY_INLINE bool atd_key_room(const atd_reader *r, const char *p, size_t n)
{
    return (size_t)(r->end - p) >= n;
}

/* The list readers' growth: items, an array of *cap elements of `size`
 * bytes aligned to `align` in the reader's arena (NULL and 0 at first),
 * grown to twice as many (8 at first), moved only if the arena cannot
 * grow it in place.
 *   r: the reader; p: the cursor, for the error's position.
 * Returns the array, *cap updated, or NULL after recording ATD_ERR_NOMEM.
 * Inline, a list's first block from the arena's chunk (most lists are
 * short); the rest out of line, so that each list reader is small. */
static ATD__HOT_INLINE void *atd_read_grow(atd_reader *r, const char *p, void *items, size_t *cap,
                                           size_t size, size_t align)
{
    if (*cap == 0) {
        void *first = atd__arena_alloc_here(atd_reader_arena(r), 8 * size, align);
        if (ATD_LIKELY(first != NULL)) {
            *cap = 8;
            return first;
        }
    }
    return atd__read_grow(r, p, items, cap, size, align);
}

/* --- options ---
 * An option is "None" or ["Some", v], as atdgen writes it:
 *     p = atd_read_option_begin_p(r, p, &out->has);
 *     if (p == NULL) return NULL;
 *     if (!out->has) return p;                          // "None"
 *     p = read_value_p(r, p, &out->value);
 *     if (p == NULL) return atd_fail_cursor(atd_reader_push_index(r, 1));
 *     return atd_read_option_end_p(r, p);
 *   r:   the reader.
 *   p:   the cursor: before the option (begin), after its value (end).
 *   has: set to false for "None", true after `["Some",`.
 * begin reads "None" or `["Some",`; end reads the closing ']'. Both return
 * the cursor after what they read, or NULL after recording the error. */
const char *atd_read_option_begin_p(atd_reader *r, const char *p, bool *has);
const char *atd_read_option_end_p(atd_reader *r, const char *p);

/* --- scalars ---
 * Each reads one value, whitespace before it allowed.
 *   r:   the reader.
 *   p:   the cursor, before the value (the bool forms read at r->cur and
 *        advance it).
 *   out: the value read; written only on success.
 * The _p forms return the cursor after the value, the bool forms true; on
 * an error, recorded with the offending token (ATD_ERR_TYPE for a value of
 * another type, ATD_ERR_SYNTAX for one that is no JSON), NULL or false. */

/* null. */
const char *atd_read_null_p(atd_reader *r, const char *p);
bool atd_read_null(atd_reader *r);
/* true/false; also the strings "true"/"false", as atdgen reads them. */
const char *atd_read_bool_p(atd_reader *r, const char *p, bool *out);
bool atd_read_bool(atd_reader *r, bool *out);
/* A JSON integer, or a string holding a decimal integer ("42", "-7", "+7")
 * (as atdgen reads them). Fractions, exponents and overflow are errors.
 * (A macro, as atd_read_string_p is, that gives atd__read_int64_at_p a
 * number per place it is called from, for the length guess of
 * atd_reader.lengths.) */
#ifdef __COUNTER__
#define atd_read_int64_p(r, p, out)                                                                \
    atd__read_int64_at_p(r, p, out, (unsigned)(__COUNTER__ % ATD__LENGTH_SLOTS))
#else
#define atd_read_int64_p(r, p, out) atd__read_int64_at_p(r, p, out, 0)
#endif
/* The function itself, for code that takes its address. */
const char *(atd_read_int64_p)(atd_reader *r, const char *p, int64_t *out);
bool atd_read_int64(atd_reader *r, int64_t *out);
/* Same, then checks min <= value <= max (ATD_ERR_RANGE otherwise, at the
 * value, "integer N out of range [MIN, MAX]").
 *   min, max: the bounds, both included. */
const char *atd_read_int_range_p(atd_reader *r, const char *p, int64_t min, int64_t max,
                                 int64_t *out);
bool atd_read_int_range(atd_reader *r, int64_t min, int64_t max, int64_t *out);
/* Any JSON number, or a string holding a JSON number; in lenient mode also
 * bare NaN, Infinity, -Infinity and those names quoted (as Yojson writes them). */
const char *atd_read_double_p(atd_reader *r, const char *p, double *out);
bool atd_read_double(atd_reader *r, double *out);
/* A JSON string: all escapes, surrogate pairs, embedded NUL kept, UTF-8
 * validated (unless lenient). Copied into the arena with a NUL terminator, or
 * borrowed (flag ATD_READ_BORROW_STRINGS) when it has no escape.
 * A short string (at most 15 bytes, printable ASCII without escape, at most
 * one space before it) is settled inline: one 16-byte load finds the
 * closing quote and, unless the string is borrowed, one store copies it,
 * with no call. Any other string goes on out of line, after the plain bytes
 * that load found.
 * (A macro that gives atd__read_string_at_p, its body, a number per place
 * it is called from, for the length guess of atd_reader.lengths.) */
#ifdef __COUNTER__
#define atd_read_string_p(r, p, out)                                                               \
    atd__read_string_at_p(r, p, out, (unsigned)(__COUNTER__ % ATD__LENGTH_SLOTS))
#else
#define atd_read_string_p(r, p, out) atd__read_string_at_p(r, p, out, 0)
#endif
/* The function itself (its name in parentheses is not the macro's), for
 * code that takes its address. */
static inline const char *(atd_read_string_p)(atd_reader *r, const char *p, atd_string *out)
{
    return atd__read_string_at_p(r, p, out, 0);
}
bool atd_read_string(atd_reader *r, atd_string *out);
/* Always copies (for values that must own their bytes). */
const char *atd_read_string_copy_p(atd_reader *r, const char *p, atd_string *out);
bool atd_read_string_copy(atd_reader *r, atd_string *out);

/* Skips any one JSON value, validating it fully (for unknown fields), with
 * the same rules as the typed primitives (strings validated, numbers checked,
 * lenient forms only in lenient mode). Iterative: it tracks nesting in a
 * fixed bit stack, so depth costs no C stack; beyond ATD_SKIP_MAX_NESTING
 * levels inside one skipped value it fails with ATD_ERR_DEPTH even if
 * max_depth is larger. Allocates nothing (the arena may be NULL).
 *   r: the reader.
 *   p: the cursor, before the value (the bool form reads at r->cur).
 * Returns the cursor after the value (true), or NULL (false) after
 * recording the error. */
#define ATD_SKIP_MAX_NESTING 16384
bool atd_skip_value(atd_reader *r);
const char *atd_skip_value_p(atd_reader *r, const char *p);

#ifdef __cplusplus
}
#endif

#endif
