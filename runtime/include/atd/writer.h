/* JSON writer: the atd_writer context that generated writers take, its value
 * writers, and the buffer-level primitives under them. Output is compact and
 * follows atdgen exactly (its float and string forms).
 *
 * Return conventions, one per prefix, the same for strings, keys and numbers:
 *   atd_writer_*(atd_writer *w, ...)  bool: false after recording the error in
 *                                      the writer (as readers do);
 *   atd_buf_write_*(atd_buf *b, ...)  int: 0, or the atd_error_code; a value
 *                                      that cannot be written (NaN, invalid
 *                                      UTF-8) writes nothing, a buffer error
 *                                      (allocation, sink) is the buffer's
 *                                      sticky status, returned as well;
 *   atd_write_*(char *p, ...)         char *: the end of what was printed
 *                                      into memory the caller reserved
 *                                      (no check; number.h's are the same). */
#ifndef ATD_WRITER_H
#define ATD_WRITER_H

#include <string.h>

#include "common.h"
#include "buf.h"
#include "error.h"
#include "flags.h"
#include "json.h"
#include "number.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- atd_writer ---
 * atd_writer: the small context object that generated JSON writers take. It
 * wraps the output atd_buf with the writer flags and records the first error
 * (NaN, invalid UTF-8, out of memory) together with the JSON path of the value
 * being written, pushed while the failing writers unwind, exactly like the
 * reader does:
 *
 *     if (!event_event_write(w, &v->events.items[i]))
 *         return atd_writer_push_index(w, i);
 *
 * so that the final message reads "at $.events[3].name: invalid UTF-8".
 * Successful writes pay nothing for the path. */
typedef struct atd_writer {
    atd_buf *buf;
    unsigned flags; /* atd_write_flags */
    atd_error_code err_code;
    char err_detail[160];
    atd_error_path err_path; /* pushed while unwinding */
    char *end; /* cursor form: where the room of the buffer ends (see below) */
} atd_writer;

#include "detail/writer.h" /* the slow paths of the inline functions below */

/* A type's writer behind a function pointer: writes *value (a const P_t *,
 * for P_t_write_any). What the whole-document and stream entry points take. */
typedef bool (*atd_write_fn)(atd_writer *w, const void *value);

/* Prepares a writer, no error recorded.
 *   w:     the writer to set up.
 *   b:     the output buffer; it must outlive the writer.
 *   flags: atd_write_flags (flags.h), or-ed; 0 for the defaults. */
void atd_writer_init(atd_writer *w, atd_buf *b, unsigned flags);

/* Accessors for generated writers, which do not reach into the fields: the
 * output buffer of w (for atd_buf_reserve / atd_buf_commit of fixed-size
 * pieces), and whether w's flags hold `flag` (one of atd_write_flags). */
static inline atd_buf *atd_writer_buf(const atd_writer *w)
{
    return w->buf;
}

static inline bool atd_writer_has_flag(const atd_writer *w, atd_write_flags flag)
{
    return (w->flags & (unsigned)flag) != 0;
}

/* Records an error unless one is recorded already (the first one wins).
 *   w:      the writer.
 *   code:   what went wrong (ATD_ERR_*).
 *   detail: one lowercase phrase, copied (cut to fit err_detail).
 * Always returns false. */
ATD_COLD bool atd_writer_fail(atd_writer *w, atd_error_code code, const char *detail);
/* Records the failure of w's buffer: its status, or ATD_ERR_NOMEM when the
 * status is 0 (a reservation refused). Returns false. */
ATD_COLD bool atd_writer_fail_buf(atd_writer *w);

/* Path segments, added by failing writers on the way out (nothing is added
 * while no error is recorded).
 *   w:     the writer.
 *   name:  the record field's JSON name, len bytes.
 *   index: the list element's index.
 * Return false. */
ATD_COLD bool atd_writer_push_field(atd_writer *w, const char *name, size_t len);
ATD_COLD bool atd_writer_push_index(atd_writer *w, size_t index);

/* Reports the recorded error.
 *   w:   the writer.
 *   err: when not NULL, filled with code, path and "at PATH: DETAIL"
 *        (cleared when there is none).
 * Returns the code (0 when none). */
int atd_writer_get_error(const atd_writer *w, atd_error *err);

/* Appends n raw bytes (a precomputed literal such as "\"date\":"). Always
 * inlined: with n a constant the copy is a few fixed-size moves.
 *   w: the writer.
 *   s: the bytes, n of them, written as they are.
 * Returns true, or false after recording the buffer's failure. */
static ATD__HOT_INLINE bool
atd_writer_raw(atd_writer *w, const char *s, size_t n)
{
    char *p = atd_buf_reserve(w->buf, n);
    if (ATD_UNLIKELY(p == NULL))
        return atd_writer_fail_buf(w);
    memcpy(p, s, n);
    atd_buf_commit(w->buf, p + n);
    return true;
}

/* Records ATD_ERR_NONFINITE for v, NaN or an infinity, in w. Returns
 * false. */
ATD_COLD bool atd_writer_fail_nonfinite(atd_writer *w, double v);

/* The check atd_writer_double makes, for generated writers that print a
 * double themselves (atd_write_double) after one reservation for the key and
 * the number: true when v is finite, else false after recording the error. */
static inline bool atd_writer_finite(atd_writer *w, double v)
{
    if (ATD_LIKELY(v - v == 0.0)) /* NaN - NaN and inf - inf are NaN */
        return true;
    return atd_writer_fail_nonfinite(w, v);
}

/* Values, appended to w's buffer.
 *   w: the writer.
 *   v: the value (s, len: a string's bytes).
 * Each returns true, or false after recording an error (the buffer's, or
 * one named below). */
bool atd_writer_int64(atd_writer *w, int64_t v);
/* The int as a quoted decimal ("-12"), for <json repr="string">. */
bool atd_writer_int64_string(atd_writer *w, int64_t v);
/* atdgen's float format. NaN/inf: ATD_ERR_NONFINITE. */
bool atd_writer_double(atd_writer *w, double v);
/* <json precision="N">: %.Ng significant digits, then the ".0" rule
 * (atd_write_double_precision); NaN/inf: ATD_ERR_NONFINITE.
 *   precision: N, the significant digits. */
bool atd_writer_double_precision(atd_writer *w, double v, int precision);
/* <json repr="int">: rounded half away from zero, printed as an integer;
 * NaN/inf: ATD_ERR_NONFINITE. */
bool atd_writer_double_as_int(atd_writer *w, double v);
/* A JSON string; invalid UTF-8 is ATD_ERR_UTF8 unless ATD_WRITE_ALLOW_INVALID_UTF8. */
bool atd_writer_string(atd_writer *w, const char *s, size_t len);
/* The raw bytes key[0..key_len) (a key literal such as ",\"name\":", or a
 * separator; key_len may be 0), then the string s[0..len) as
 * atd_writer_string does, with one buffer reservation for both. On invalid
 * UTF-8 neither is written. Returns true, or false after recording the
 * error. */
static inline bool atd_writer_key_string(atd_writer *w, const char *key, size_t key_len,
                                         const char *s, size_t len);
bool atd_writer_bool(atd_writer *w, bool v);
/* A generic value (abstract). */
bool atd_writer_json(atd_writer *w, const atd_json *v);
/* The same four in the cursor form, for generated writers (see "cursor
 * form" below).
 *   w: the writer.
 *   p: the cursor (atd_writer_cursor); room is checked here.
 *   v, precision: as above.
 * Each returns the cursor after the value, or NULL after recording the
 * error. */
char *atd_writer_int64_string_p(atd_writer *w, char *p, int64_t v);
char *atd_writer_double_precision_p(atd_writer *w, char *p, double v, int precision);
char *atd_writer_double_as_int_p(atd_writer *w, char *p, double v);
char *atd_writer_json_p(atd_writer *w, char *p, const atd_json *v);

/* --- the buffer-level primitives under atd_writer --- */

/* Escapes `len` bytes as a JSON string, with the quotes. Escapes only '"', '\\'
 * and control bytes including DEL (\b \f \n \r \t, else \u00xx lowercase);
 * everything else is copied raw. Long strings are streamed through the buffer
 * in pieces (bounded memory with a sink).
 *   b:     the buffer appended to.
 *   s:     the bytes, len of them.
 *   flags: atd_write_flags; ATD_WRITE_ALLOW_INVALID_UTF8 skips validation.
 * Returns ATD_ERR_UTF8 (writing nothing) when the bytes are not valid UTF-8
 * and validated, else the buffer's status. */
int atd_buf_write_string(atd_buf *b, const char *s, size_t len, unsigned flags);

/* Worst-case size of an escaped string of n bytes, quotes included. */
#define ATD_ESCAPED_MAX(n) (6 * (n) + 2)

/* Writes the escaped string (with quotes) at p without any check.
 *   p: where it goes; the caller reserved ATD_ESCAPED_MAX(len) bytes.
 *   s: the bytes, len of them, validated by the caller if needed.
 * Returns the cursor after the closing quote. */
char *atd_write_string_unchecked(char *p, const char *s, size_t len);

/* Whether s[0..len) is valid UTF-8 (no overlongs, no surrogates,
 * <= U+10FFFF, no truncated sequence).
 *   s: the bytes, len of them. */
bool atd_utf8_valid(const char *s, size_t len);

/* Append v to b in the writers' number forms.
 *   b: the buffer.
 *   v: the number.
 * atd_buf_write_int64 returns the buffer's status (an int64 always has a
 * JSON form); atd_buf_write_double returns ATD_ERR_NONFINITE (writing
 * nothing) for NaN and infinities, else the buffer's status. */
int atd_buf_write_int64(atd_buf *b, int64_t v);
int atd_buf_write_double(atd_buf *b, double v);

/* A key that the call site knows (a literal: its length is a constant) is
 * copied here by fixed-size moves, in the same room as the string; the
 * string itself is written by atd__writer_string_at. Other keys, long
 * strings and a full buffer take the general form. Forced inline: only
 * inlined does the key's length stay a constant. */
static ATD__HOT_INLINE bool
atd_writer_key_string(atd_writer *w, const char *key, size_t key_len, const char *s, size_t len)
{
#if defined(__GNUC__) || defined(__clang__)
    if (__builtin_constant_p(key_len) && key_len <= 32) {
        atd_buf *b = w->buf;
        if (ATD_LIKELY(len <= ATD__SHORT_STRING &&
                       b->cap - b->len >= key_len + ATD_ESCAPED_MAX(len) && b->status == 0)) {
            char *p = b->data + b->len;
            memcpy(p, key, key_len);
            return atd__writer_string_at(w, p + key_len, s, len);
        }
    }
#endif
    return atd__writer_key_string(w, key, key_len, s, len);
}

/* --- cursor form ---
 * Generated writers keep the output position in a local `char *p` (the
 * cursor) instead of the buffer's length: each piece is written at p after
 * a check of the room left before w->end, which is a register compare with
 * no load of the buffer's length, and the length is stored (committed) only
 * when the writer hands the buffer to code that does not take the cursor.
 * A writer in this form takes the cursor and returns the new one, or NULL
 * after recording the error, like the reader's p-form functions:
 *
 *     p = atd_writer_room(w, p, 8 + ATD_INT64_CHARS);
 *     if (p == NULL) return atd_writer_fail_cursor(atd_writer_push_field(w, "date", 4));
 *     memcpy(p, "{\"date\":", 8);
 *     p = atd_write_int64(p + 8, v->date);
 *
 * Bytes after the last commit are the writer's own until it commits: a
 * failing writer leaves the buffer's length where the last commit put it
 * (an in-memory buffer is restored to its length before the call anyway).
 * Every reservation is of a bounded size (a piece of fixed-size values, or
 * a short string); long strings and full buffers take the buffer's own
 * paths (flush, growth, streaming), so a sink-bound buffer stays bounded. */

/* The cursor at the end of what w's buffer holds, with w->end set to the
 * end of its room (or to the cursor itself, no room, once the buffer has
 * failed: every later check then takes the slow path, which reports it).
 * Never NULL. */
static inline char *atd_writer_cursor(atd_writer *w)
{
    atd_buf *b = w->buf;
    if (ATD_LIKELY(b->status == 0 && b->data != NULL)) {
        w->end = b->data + b->cap;
        return b->data + b->len;
    }
    return atd__writer_cursor_slow(w);
}

/* Marks everything up to the cursor p (from atd_writer_cursor or a writer
 * after it) as written in w's buffer. (A buffer without storage, whose
 * first allocation failed, has only the no-room cursor: nothing to mark.) */
static inline void atd_writer_commit(atd_writer *w, char *p)
{
    if (ATD_LIKELY(w->buf->data != NULL))
        atd_buf_commit(w->buf, p);
}

/* Commits p (the result of a cursor-form writer) and returns true, or
 * false when p is NULL (a failed write, its error recorded in w):
 *     return atd_writer_finish(w, event_event_write_p(w, atd_writer_cursor(w), v)); */
static inline bool atd_writer_finish(atd_writer *w, char *p)
{
    if (p == NULL)
        return false;
    atd_writer_commit(w, p);
    return true;
}

/* The failure result of a cursor-form writer, after an error call that
 * returns false (atd_writer_push_field, ...).
 *   ignored: that call's result. */
static inline char *atd_writer_fail_cursor(bool ignored)
{
    (void)ignored;
    return NULL;
}

/* Room for n more bytes at the cursor p.
 *   w: the writer.
 *   p: the cursor.
 *   n: the bytes about to be written.
 * Returns p when they fit before w->end; else commits p, has the buffer
 * make room (flush or growth) and returns the new cursor, or NULL after
 * recording the buffer's failure. */
static inline char *atd_writer_room(atd_writer *w, char *p, size_t n)
{
    if (ATD_LIKELY((size_t)(w->end - p) >= n))
        return p;
    return atd__writer_room_slow(w, p, n);
}

/* Copies s[0..n) to p, where room for them was reserved (atd_writer_room);
 * returns p + n. Generated writers pass a literal as ATD_LIT("...").
 *   p: the cursor.
 *   s: the bytes, n of them. */
static inline char *atd_put(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

/* The raw bytes s[0..n) at the cursor p of w (a literal, n a constant),
 * room checked. Returns the new cursor, or NULL after recording the
 * buffer's failure. */
static ATD__HOT_INLINE char *
atd_writer_raw_p(atd_writer *w, char *p, const char *s, size_t n)
{
    p = atd_writer_room(w, p, n);
    if (ATD_UNLIKELY(p == NULL))
        return NULL;
    return atd_put(p, s, n);
}

/* The ',' before a list element at the cursor p of w, when `comma` (not
 * the first element). Returns the new cursor (p itself without a comma),
 * or NULL after recording the buffer's failure. */
static inline char *atd_writer_comma_p(atd_writer *w, char *p, bool comma)
{
    p = atd_writer_room(w, p, 1);
    if (ATD_UNLIKELY(p == NULL))
        return NULL;
    *p = ','; /* overwritten by the element when there is no comma */
    return p + comma;
}

/* atd_writer_key_string in cursor form: the key literal key[0..key_len)
 * (key_len a constant: a few fixed-size moves) and the string s[0..len),
 * with one check of the room for both when the string is short, at the
 * cursor p of w. Returns the new cursor, or NULL after recording the error
 * (invalid UTF-8: neither is written). */
static ATD__HOT_INLINE char *
atd_writer_key_string_p(atd_writer *w, char *p, const char *key, size_t key_len, const char *s,
                        size_t len)
{
#if defined(__GNUC__) || defined(__clang__)
    if (__builtin_constant_p(key_len) && key_len <= 32 &&
        ATD_LIKELY(len <= ATD__SHORT_STRING && (size_t)(w->end - p) >= key_len + len + 2)) {
        memcpy(p, key, key_len);
        return atd__writer_string_p(w, p, key, key_len, s, len);
    }
#endif
    return atd__writer_key_string_p(w, p, key, key_len, s, len);
}

/* A list element that is a string s[0..len), at the cursor p of w: a ','
 * before it when `comma` (not the first element). Returns the new cursor,
 * or NULL after recording the error. */
static ATD__HOT_INLINE char *
atd_writer_elem_string_p(atd_writer *w, char *p, bool comma, const char *s, size_t len)
{
    if (ATD_LIKELY(len <= ATD__SHORT_STRING && (size_t)(w->end - p) >= 1 + len + 2)) {
        *p = ','; /* overwritten by the opening quote when there is no comma */
        return atd__writer_string_p(w, p, ",", comma, s, len);
    }
    return atd__writer_key_string_p(w, p, ",", comma, s, len);
}

#ifdef __cplusplus
}
#endif

#endif
