/* Generic JSON value (a DOM), allocated in an arena. Used for the ATD type
 * `abstract`, and as the project's own generic parser in the benchmark.
 *
 * Integers that fit int64 are kept as integers; other numbers are doubles,
 * except those that fit neither (an integer beyond int64, a float beyond
 * double's range such as 1e999), which are kept as their text
 * (ATD_JSON_BIGINT) and written back verbatim: every valid JSON document
 * round-trips. Object members keep their order and their duplicates. */
#ifndef ATD_JSON_H
#define ATD_JSON_H

#include "common.h"
#include "arena.h"
#include "buf.h"
#include "error.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum atd_json_kind {
    ATD_JSON_NULL,
    ATD_JSON_BOOL,
    ATD_JSON_INT,
    ATD_JSON_BIGINT, /* number beyond int64 and double (1e999): its text in u.string */
    ATD_JSON_FLOAT,
    ATD_JSON_STRING,
    ATD_JSON_ARRAY,
    ATD_JSON_OBJECT
} atd_json_kind;

typedef struct atd_json atd_json;
typedef struct atd_json_member atd_json_member;

struct atd_json {
    atd_json_kind kind;
    union {
        bool boolean;
        int64_t integer;
        double number;
        atd_string string; /* STRING and BIGINT */
        struct {
            atd_json *items;
            size_t len;
        } array;
        struct {
            atd_json_member *members;
            size_t len;
        } object;
    } u;
};

struct atd_json_member {
    atd_string key;
    atd_json value;
};

/* Reads one JSON value at the reader's cursor (a building block for generated
 * readers of `abstract`). Allocates in r->arena: strings are copied or borrowed
 * per the reader's flags (object keys too), integers outside int64 are kept as
 * BIGINT text. Nesting is limited by r->max_depth (ATD_ERR_DEPTH) and costs no
 * C stack: a scratch stack of pending items, taken from the arena's allocator
 * beyond a small local buffer, is freed before returning. On failure the error
 * is recorded in the reader with the path of the failing value, and *out is
 * set to null.
 *   r:   the reader, its cursor before the value.
 *   out: the value read.
 * Returns true, or false after recording the error. */
bool atd_json_read(atd_reader *r, atd_json *out);
/* The same at the cursor p (generated readers of `abstract` fields).
 *   r:   the reader (its own cursor is not used).
 *   p:   the cursor, before the value (whitespace allowed).
 *   out: the value read; null on failure.
 * Returns the cursor after the value, or NULL after recording the error. */
const char *atd_json_read_p(atd_reader *r, const char *p, atd_json *out);

/* Parses one complete JSON document (whitespace around it allowed).
 *   json:  the document, len bytes (not NUL-terminated).
 *   arena: where the value's nodes and strings go.
 *   flags: ATD_READ_* (flags.h), as for atd_reader_init.
 *   out:   the value; null after an error (text after a valid value is one).
 *   err:   filled on error when not NULL.
 * Returns 0, or the error code. */
int atd_json_parse(const char *json, size_t len, atd_arena *arena, unsigned flags, atd_json *out,
                   atd_error *err);

/* Appends the compact JSON text of v (floats and strings as the typed
 * writers write them, BIGINT text verbatim).
 *   v:   the value to write.
 *   out: the buffer appended to.
 *   err: filled on error when not NULL.
 * Returns 0, or an error code: ATD_ERR_NONFINITE for NaN or infinity and
 * ATD_ERR_UTF8 for a string or key that is not valid UTF-8 (the message names
 * the path, e.g. "at $.a[2]: NaN and infinity cannot be written as JSON"),
 * ATD_ERR_INVALID for a BIGINT that is not an integer literal, or the buffer's
 * ATD_ERR_NOMEM / ATD_ERR_IO. On a value error an in-memory buffer is put back
 * to its length before the call; a sink-bound one may have flushed a prefix. */
int atd_json_write(const atd_json *v, atd_buf *out, atd_error *err);

/* Structural equality: same kinds, same values (ints and floats compare by
 * kind then value; NaN differs from everything), same member order. Iterative;
 * trees nested deeper than 32 levels use malloc for the walk, and compare
 * unequal if that fails.
 *   a, b: the values compared.
 * Returns whether they are equal. */
bool atd_json_equal(const atd_json *a, const atd_json *b);

/* Deep copy: makes *dst a copy of *src whose strings, keys, items and
 * members all live in arena `a`, so that the value outlives the arena that
 * src lives in. src and dst may be the same value (it then moves into a).
 * Iterative: trees nested deeper than 32 levels use malloc for the walk.
 *   src: the value copied.
 *   a:   the arena that receives the copy.
 *   dst: where the copy goes.
 * Returns 0, or ATD_ERR_NOMEM; *dst is then still a valid value, parts of
 * which may point into src's memory. */
int atd_json_copy(const atd_json *src, atd_arena *a, atd_json *dst);

/* Looks up a member of an object (linear scan).
 *   object:  the value; NULL or anything but an object has no member.
 *   key:     the member's name, key_len bytes (compared byte for byte).
 * Returns the value of the last member named key, or NULL when there is
 * none. */
const atd_json *atd_json_get(const atd_json *object, const char *key, size_t key_len);

#ifdef __cplusplus
}
#endif

#endif
