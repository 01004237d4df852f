/* Streams: reading typed values one at a time from a file descriptor, a
 * FILE* or a callback, in bounded memory.
 *
 * An atd_stream owns one buffer. It reads the input in chunks (64 KiB by
 * default, never more per read) and keeps in memory only the record being
 * read plus one chunk: a record larger than the buffer grows it, up to
 * max_record bytes, beyond which the record is an error (ATD_ERR_TOO_LARGE).
 * The record's values go to the caller's arena, within a budget of
 * max_memory bytes per record (ATD_ERR_LIMIT beyond; a failed record gives
 * its arena memory back). So the peak memory of a stream is one chunk plus
 * the current record's bytes plus its values: at most about
 * chunk_size + max_record + max_memory (64 KiB + 64 MiB + 256 MiB with the
 * defaults) however hostile the input. The buffer grows with realloc when the
 * allocator is the default one; with a custom allocator (alloc and free
 * only) growing it briefly holds the old copy too. Two framings sit on top:
 *
 * - JSON Lines (atd_stream_next_line): one value per line. Lines end at LF;
 *   a CR before it is whitespace, so CRLF files read the same; blank lines
 *   (only spaces, tabs, CRs) are skipped; the last line need not end with LF.
 * - A top-level array (atd_stream_next_element): the elements of one JSON
 *   array, however large the array, one at a time.
 *
 * Each record is read by the type's ordinary generated reader (through the
 * untyped shim P_t_read_any) over the record's bytes in the buffer, so the
 * values and the rules are exactly those of P_t_from_json. Errors give the
 * position in the whole stream, and the JSON path within the stream:
 *     line 12, column 31, at $.date: expected an integer, found "x"
 *     line 3, column 5, at $[12345].date: expected an integer, found "x"
 *
 * Typical loop (generated wrappers: P_t_next_line, P_t_next_element):
 *
 *     atd_stream s;
 *     if (atd_stream_init_fd(&s, 0, NULL) != 0) ...out of memory...
 *     while (event_event_next_line(&s, arena, &ev)) {
 *         ...use ev...
 *         atd_arena_reset(arena);
 *     }
 *     if (atd_stream_error(&s)) fprintf(stderr, "%s\n", atd_stream_error(&s)->message);
 *     atd_stream_free(&s);
 *
 * By default the first bad record stops the stream (next returns false and
 * atd_stream_error says why; the values before it were all delivered). With
 * the skip_bad option a bad record is passed to the on_bad callback, counted
 * in bad_records, and reading goes on with the next record; only I/O errors,
 * out of memory, and errors after which the framing is lost (an array element
 * larger than max_record, a broken array) still stop the stream.
 *
 * An input that ends inside a record (the last line cut short, an array
 * without its closing bracket: a writer that died mid-record) is not one
 * more bad record: the stream stops, in skip_bad mode too, with
 * ATD_ERR_TRUNCATED, "line 9, column 26, at $: the input ends inside a
 * record (unexpected end of input)". So after the loop, atd_stream_error is
 * NULL only for an input that ended cleanly between records.
 *
 * Framing looks only at quotes, backslashes, brackets, commas and LFs, so
 * in lenient mode (ATD_READ_LENIENT) a comment must not hold a LF (JSON
 * Lines) or a bracket or comma (arrays).
 *
 * Values live in the caller's arena; with ATD_READ_BORROW_STRINGS in
 * read_flags, strings without escapes point into the stream's buffer and are
 * valid only until the next call. */
#ifndef ATD_STREAM_H
#define ATD_STREAM_H

#include <stdio.h>

#include "common.h"
#include "arena.h"
#include "error.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads up to cap bytes into buf. Returns the number of bytes read (fewer
 * than cap is fine), 0 at the end of the input, or -1 on error (errno is
 * then used in the message; -1 with errno EINTR is retried). */
typedef ptrdiff_t (*atd_read_cb)(void *ctx, char *buf, size_t cap);

#define ATD_STREAM_CHUNK 65536
#define ATD_STREAM_MAX_RECORD (64u * 1024u * 1024u)
#define ATD_STREAM_MAX_MEMORY ((size_t)256 * 1024u * 1024u)

typedef struct atd_stream_options {
    size_t chunk_size;   /* bytes asked of each read; 0: ATD_STREAM_CHUNK */
    size_t max_record;   /* largest record accepted, in bytes; 0: ATD_STREAM_MAX_RECORD */
    /* arena bytes one record's values may take (atd_arena_set_limit, counted
     * from what the arena holds when the record starts; a tighter limit of
     * the arena's own stays); 0: ATD_STREAM_MAX_MEMORY; SIZE_MAX: no budget */
    size_t max_memory;
    unsigned read_flags; /* ATD_READ_* flags for the value readers */
    unsigned max_depth;  /* 0: ATD_DEFAULT_MAX_DEPTH */
    bool skip_bad;       /* report bad records and go on (see above) */
    /* Called for each bad record in skip_bad mode (may be NULL). */
    void (*on_bad)(void *ctx, const atd_error *err);
    void *on_bad_ctx;
    const atd_allocator *allocator; /* for the buffer; NULL: malloc */
} atd_stream_options;

/* Treat the fields as private, except the counters marked public. */
typedef struct atd_stream {
    atd_read_cb read;
    void *read_ctx;
    int fd; /* the descriptor of atd_stream_init_fd */
    FILE *file;
    atd_stream_options opt;
    atd_allocator allocator;
    char *buf;
    size_t cap;
    size_t pos;    /* first unconsumed byte */
    size_t len;    /* bytes in buf */
    bool eof;      /* the source returned 0 */
    uint64_t base; /* stream offset of buf[0] */
    /* Position of buf[pos]: its line, and the stream offset where that line starts. */
    size_t line;
    uint64_t line_start;
    int array_state; /* for next_element: before '[', in the array, after ']' */
    bool failed;
    atd_error error;
    /* public counters */
    size_t records;     /* values delivered */
    size_t bad_records; /* records reported and skipped (skip_bad mode) */
} atd_stream;

/* Prepares a stream over a file descriptor, a FILE* or a callback.
 *   s:    the stream to set up.
 *   fd:   the descriptor read from (retrying on EINTR); not closed by
 *         atd_stream_free.
 *   f:    the stream read from; not closed by atd_stream_free.
 *   read: the callback (atd_read_cb) that gives the input, with ctx.
 *   ctx:  passed to every call of read.
 *   opt:  the options, copied; NULL: the defaults.
 * Returns 0, or ATD_ERR_NOMEM (the stream then needs no atd_stream_free,
 * though calling it is harmless). */
int atd_stream_init_fd(atd_stream *s, int fd, const atd_stream_options *opt);
int atd_stream_init_file(atd_stream *s, FILE *f, const atd_stream_options *opt);
int atd_stream_init_cb(atd_stream *s, atd_read_cb read, void *ctx, const atd_stream_options *opt);
void atd_stream_free(atd_stream *s);

/* JSON Lines: reads the next non-blank line as one value.
 *   s:     the stream.
 *   arena: where the value's memory comes from, within the max_memory
 *          budget; reset it between records to keep memory flat.
 *   read:  the type's reader: P_t_read_any.
 *   out:   the value to fill, of that type.
 * Returns true with *out set, or false at the end of the input or on an
 * error (then atd_stream_error is not NULL). */
bool atd_stream_next_line(atd_stream *s, atd_arena *arena, atd_read_fn read, void *out);

/* Top-level array: reads the next element of the JSON array that makes up
 * the whole input, with the parameters of atd_stream_next_line. Returns
 * false after the closing bracket (and only whitespace after it) or on an
 * error. An input that is not an array is an error at its first byte. */
bool atd_stream_next_element(atd_stream *s, atd_arena *arena, atd_read_fn read, void *out);

/* The error that stopped the stream, or NULL while none (a clean end). */
const atd_error *atd_stream_error(const atd_stream *s);

#ifdef __cplusplus
}
#endif

#endif
