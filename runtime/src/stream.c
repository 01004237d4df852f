/* Streams (see atd/stream.h): a chunked byte source with one growable
 * buffer, and the JSON Lines and top-level-array framings on top of it.
 *
 * Both framings find the extent of one record in the buffer first (the next
 * LF; the next ',' or ']' outside strings and brackets), reading more chunks
 * while it is incomplete, and then run the ordinary generated reader over
 * exactly those bytes. The reader sees a small document of its own, so its
 * error positions are relative to the record: they are moved to the stream
 * by adding the line, column and offset where the record starts, and an
 * array element's index is pushed as the outermost path segment.
 *
 * Memory: each read asks for at most one chunk, so the buffer holds the
 * record being framed plus less than one chunk of what follows; it grows by
 * moving (realloc with the default allocator, so the old copy does not stay
 * resident). A record's values get a budget of max_memory bytes of the
 * caller's arena, and a record that fails gives back what it took there. */
#define _POSIX_C_SOURCE 200809L

#include "atd/stream.h"

#include "alloc.h"
#include "error_message.h"
#include "reader_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { ARRAY_BEFORE, ARRAY_FIRST, ARRAY_NEXT, ARRAY_DONE };

/* ------------------------------------------------------------------------ */
/* Sources                                                                   */
/* ------------------------------------------------------------------------ */

static ptrdiff_t read_fd(void *ctx, char *buf, size_t cap)
{
    const atd_stream *s = ctx;
    ssize_t n = read(s->fd, buf, cap);
    return n < 0 ? -1 : (ptrdiff_t)n;
}

static ptrdiff_t read_file(void *ctx, char *buf, size_t cap)
{
    const atd_stream *s = ctx;
    size_t n = fread(buf, 1, cap, s->file);
    if (n > 0)
        return (ptrdiff_t)n;
    if (ferror(s->file)) {
        /* An interrupted read sets the error flag; clear it so the retry
         * does not see a stale error. */
        if (errno == EINTR)
            clearerr(s->file);
        return -1;
    }
    return 0;
}

static int stream_init(atd_stream *s, atd_read_cb read, void *ctx, const atd_stream_options *opt)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    if (opt != NULL)
        s->opt = *opt;
    if (s->opt.chunk_size == 0)
        s->opt.chunk_size = ATD_STREAM_CHUNK;
    if (s->opt.max_record == 0)
        s->opt.max_record = ATD_STREAM_MAX_RECORD;
    if (s->opt.max_memory == 0)
        s->opt.max_memory = ATD_STREAM_MAX_MEMORY;
    if (s->opt.max_depth == 0)
        s->opt.max_depth = ATD_DEFAULT_MAX_DEPTH;
    s->allocator = atd__allocator_or_default(s->opt.allocator);
    s->opt.allocator = NULL; /* the copy above is the one in use */
    s->read = read;
    s->read_ctx = ctx;
    s->line = 1;
    s->cap = s->opt.chunk_size;
    s->buf = s->allocator.alloc(s->allocator.ctx, s->cap);
    if (s->buf == NULL) {
        s->cap = 0;
        return ATD_ERR_NOMEM;
    }
    atd_error_set(&s->error, ATD_ERR_OK, NULL, NULL);
    return 0;
}

int atd_stream_init_fd(atd_stream *s, int fd, const atd_stream_options *opt)
{
    int rc = stream_init(s, read_fd, s, opt);
    s->fd = fd;
    return rc;
}

int atd_stream_init_file(atd_stream *s, FILE *f, const atd_stream_options *opt)
{
    int rc = stream_init(s, read_file, s, opt);
    s->file = f;
    return rc;
}

int atd_stream_init_cb(atd_stream *s, atd_read_cb read, void *ctx, const atd_stream_options *opt)
{
    return stream_init(s, read, ctx, opt);
}

void atd_stream_free(atd_stream *s)
{
    if (s->buf != NULL)
        s->allocator.free(s->allocator.ctx, s->buf);
    s->buf = NULL;
    s->cap = s->len = s->pos = 0;
}

const atd_error *atd_stream_error(const atd_stream *s)
{
    return s->failed ? &s->error : NULL;
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

/* Where a record starts in the stream. */
typedef struct record_pos {
    size_t line;
    size_t column;
    uint64_t offset;
} record_pos;

static record_pos pos_here(const atd_stream *s)
{
    record_pos p;
    p.line = s->line;
    p.offset = s->base + s->pos;
    p.column = (size_t)(p.offset - s->line_start) + 1;
    return p;
}

/* Turns the error recorded in r (a reader over the bytes of a record that
 * starts at `at`) into the stream's error, in stream coordinates. */
static void take_reader_error(atd_stream *s, const atd_reader *r, record_pos at)
{
    atd_error local;
    atd_reader_get_error(r, &local);
    atd_error *e = &s->error;
    *e = local;
    e->line = at.line + local.line - 1;
    e->column = local.line == 1 ? at.column + local.column - 1 : local.column;
    e->offset = (size_t)at.offset + local.offset;
    atd__error_describe(e, ATD__AT_LINE, r->err_detail);
}

/* Records an error that stops the stream. Returns false. */
static bool stop(atd_stream *s)
{
    s->failed = true;
    return false;
}

/* The input ended inside a record (ATD_ERR_EOF there): a cut input, such as
 * a writer that died mid-record, not one more bad record. It becomes
 * ATD_ERR_TRUNCATED, keeping the position, path and the reader's detail, and
 * stops the stream even with skip_bad. Returns false. */
static bool stop_truncated(atd_stream *s)
{
    atd_error *e = &s->error;
    if (e->code != ATD_ERR_EOF)
        return stop(s);
    char detail[ATD_ERROR_DETAIL_MAX];
    if (snprintf(detail, sizeof detail, "the input ends inside a record (%s)", e->detail) < 0)
        detail[0] = '\0';
    e->code = ATD_ERR_TRUNCATED;
    atd__error_describe(e, ATD__AT_LINE, detail);
    return stop(s);
}

/* A bad record: stops the stream, or in skip_bad mode is reported and
 * counted. Returns whether reading may go on. */
static bool bad_record(atd_stream *s)
{
    if (!s->opt.skip_bad)
        return stop(s);
    s->bad_records++;
    if (s->opt.on_bad != NULL)
        s->opt.on_bad(s->opt.on_bad_ctx, &s->error);
    atd_error_set(&s->error, ATD_ERR_OK, NULL, NULL);
    return true;
}

/* An error at the current position that is not a reader's: too large
 * records and the array framing. `path` is "$" or "$[i]". */
static void ATD_PRINTF(4, 5)
    set_error(atd_stream *s, atd_error_code code, const char *path, const char *fmt, ...)
{
    char detail[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    record_pos at = pos_here(s);
    atd_error_set(&s->error, code, path, detail);
    s->error.line = at.line;
    s->error.column = at.column;
    s->error.offset = (size_t)at.offset;
    atd__error_describe(&s->error, ATD__AT_LINE, detail);
}

/* ------------------------------------------------------------------------ */
/* The buffer                                                                */
/* ------------------------------------------------------------------------ */

/* Reads more input, keeping buf[pos..len) (the record being framed), which
 * moves to the front of the buffer: pos becomes 0. The buffer grows when
 * less than a chunk is free, so it holds the record plus one chunk. Returns
 * 1 when bytes were added, 0 at the end of the input, -1 after recording an
 * I/O or memory error. */
static int fill(atd_stream *s)
{
    if (s->eof)
        return 0;
    if (s->pos > 0) {
        memmove(s->buf, s->buf + s->pos, s->len - s->pos);
        s->base += s->pos;
        s->len -= s->pos;
        s->pos = 0;
    }
    size_t chunk = s->opt.chunk_size;
    if (s->cap - s->len < chunk) {
        /* Double, so a large record costs O(log n) copies; but never beyond
         * what the largest record plus one chunk needs. */
        size_t limit = s->opt.max_record + chunk;
        size_t cap = s->cap * 2 > s->len + chunk ? s->cap * 2 : s->len + chunk;
        if (cap > limit)
            cap = limit > s->len + chunk ? limit : s->len + chunk;
        char *grown = atd__allocator_move(&s->allocator, s->buf, s->len, cap);
        if (grown == NULL) {
            set_error(s, ATD_ERR_NOMEM, "$", "out of memory for a record of %zu bytes", s->len);
            return -1;
        }
        s->buf = grown;
        s->cap = cap;
    }
    for (;;) {
        errno = 0;
        size_t room = s->cap - s->len;
        ptrdiff_t n = s->read(s->read_ctx, s->buf + s->len, room < chunk ? room : chunk);
        if (n > 0) {
            s->len += (size_t)n;
            return 1;
        }
        if (n == 0) {
            s->eof = true;
            return 0;
        }
        if (errno == EINTR)
            continue;
        int saved = errno;
        record_pos at = pos_here(s);
        char detail[ATD_ERROR_DETAIL_MAX];
        snprintf(detail, sizeof detail, "read error: %s",
                 saved != 0 ? strerror(saved) : "the source failed");
        atd_error_set(&s->error, ATD_ERR_IO, NULL, detail);
        s->error.line = at.line;
        s->error.offset = (size_t)(s->base + s->len);
        snprintf(s->error.message, sizeof s->error.message, "read error in line %zu: %s", at.line,
                 saved != 0 ? strerror(saved) : "the source failed");
        return -1;
    }
}

/* Moves pos to `to`, counting the lines it passes. */
static void advance(atd_stream *s, size_t to)
{
    const char *p = s->buf + s->pos, *end = s->buf + to;
    const char *lf;
    while (p < end && (lf = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        s->line++;
        s->line_start = s->base + (size_t)(lf + 1 - s->buf);
        p = lf + 1;
    }
    s->pos = to;
}

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The arena budget for one record: max_memory more than the arena holds
 * now, or the caller's own budget when that is tighter. */
static size_t record_budget(const atd_stream *s, const atd_arena *arena)
{
    if (s->opt.max_memory == SIZE_MAX)
        return atd_arena_limit(arena);
    size_t held = atd_arena_get_stats(arena).bytes_reserved;
    size_t budget = held <= SIZE_MAX - s->opt.max_memory ? held + s->opt.max_memory : SIZE_MAX;
    size_t own = atd_arena_limit(arena);
    return own != 0 && own < budget ? own : budget;
}

/* Runs `read` over buf[pos..end) as one document, within the record's
 * memory budget; a failure gives back the arena memory the record took.
 * Sets *trailing when the value was read but more than whitespace follows. */
static bool read_record(atd_stream *s, atd_reader *r, size_t end, atd_arena *arena,
                        atd_read_fn read, void *out, bool *trailing)
{
    atd_reader_init(r, s->buf + s->pos, end - s->pos, arena, s->opt.read_flags);
    r->max_depth = s->opt.max_depth;
    *trailing = false;
    bool ok;
    if (arena == NULL) {
        ok = read(r, out);
    } else {
        size_t own = atd_arena_limit(arena);
        atd__arena_mark mark = atd__arena_get_mark(arena);
        atd_arena_set_limit(arena, record_budget(s, arena));
        ok = read(r, out);
        atd_arena_set_limit(arena, own);
        if (!ok)
            atd__arena_rewind(arena, &mark);
    }
    if (!ok)
        return false;
    *trailing = !atd_read_end(r);
    return !*trailing;
}

/* ------------------------------------------------------------------------ */
/* JSON Lines                                                                */
/* ------------------------------------------------------------------------ */

static bool blank(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
            return false;
    return true;
}

/* Moves to buf[next], the start of the next line. */
static void skip_to_line(atd_stream *s, size_t next)
{
    s->pos = next;
    s->line++;
    s->line_start = s->base + next;
}

static void line_too_large(atd_stream *s)
{
    set_error(s, ATD_ERR_TOO_LARGE, "$", "line longer than the limit of %zu bytes",
              s->opt.max_record);
}

/* Discards the rest of a line that is too large, up to and including its
 * LF. Returns false on a read error. */
static bool drop_line(atd_stream *s)
{
    for (;;) {
        const char *lf = memchr(s->buf + s->pos, '\n', s->len - s->pos);
        if (lf != NULL) {
            skip_to_line(s, (size_t)(lf + 1 - s->buf));
            return true;
        }
        s->pos = s->len;
        int rc = fill(s);
        if (rc < 0)
            return stop(s);
        if (rc == 0)
            return true;
    }
}

bool atd_stream_next_line(atd_stream *s, atd_arena *arena, atd_read_fn read, void *out)
{
    if (s->failed)
        return false;
    for (;;) {
        /* Find the end of the line, reading until it is in the buffer. */
        size_t scanned = 0; /* bytes after pos known to hold no LF */
        const char *lf;
        while ((lf = memchr(s->buf + s->pos + scanned, '\n', s->len - s->pos - scanned)) == NULL) {
            scanned = s->len - s->pos;
            if (scanned > s->opt.max_record) {
                line_too_large(s);
                if (!s->opt.skip_bad)
                    return stop(s);
                if (!drop_line(s))
                    return false;
                bad_record(s);
                scanned = 0;
                continue;
            }
            int rc = fill(s);
            if (rc < 0)
                return stop(s);
            if (rc == 0)
                break;
        }
        if (lf == NULL && s->pos == s->len)
            return false; /* the end of the input */
        size_t end = lf != NULL ? (size_t)(lf - s->buf) : s->len;
        size_t next = lf != NULL ? end + 1 : end;
        if (end - s->pos > s->opt.max_record) {
            /* The same limit whether or not the line came in one read. */
            line_too_large(s);
            if (!s->opt.skip_bad)
                return stop(s);
            skip_to_line(s, next);
            bad_record(s);
            continue;
        }
        if (!blank(s->buf + s->pos, end - s->pos)) {
            atd_reader r;
            bool trailing;
            bool ok = read_record(s, &r, end, arena, read, out, &trailing);
            if (!ok) {
                take_reader_error(s, &r, pos_here(s));
                if (lf == NULL && s->error.code == ATD_ERR_EOF)
                    return stop_truncated(s);
            }
            skip_to_line(s, next);
            if (ok) {
                s->records++;
                return true;
            }
            if (!bad_record(s))
                return false;
            continue;
        }
        skip_to_line(s, next);
    }
}

/* ------------------------------------------------------------------------ */
/* Top-level arrays                                                          */
/* ------------------------------------------------------------------------ */

/* Skips whitespace, reading more as needed. Returns the next byte, -1 at the
 * end of the input, -2 after a read error (recorded). */
static int next_byte(atd_stream *s)
{
    for (;;) {
        size_t i = s->pos;
        while (i < s->len && is_ws(s->buf[i]))
            i++;
        advance(s, i);
        if (i < s->len)
            return (unsigned char)s->buf[i];
        int rc = fill(s);
        if (rc < 0)
            return -2;
        if (rc == 0)
            return -1;
    }
}

/* Reads until `n` bytes follow pos or the input ends, so that an error's
 * quote of the token at pos does not depend on where a read stopped.
 * Returns false after a read error (recorded). */
static bool lookahead(atd_stream *s, size_t n)
{
    while (s->len - s->pos < n) {
        int rc = fill(s);
        if (rc < 0)
            return false;
        if (rc == 0)
            break;
    }
    return true;
}

/* Enough for the reader's quote of a token (at most 40 bytes shown). */
#define QUOTE_LOOKAHEAD 64

/* A reader error at the current position for framing problems: "expected
 * WHAT, found <the token here>", as the document reader says it: a missing
 * array is a type error, a missing separator a syntax error. */
static bool framing_error(atd_stream *s, const char *path, const char *what, bool syntax)
{
    if (!lookahead(s, QUOTE_LOOKAHEAD))
        return stop(s);
    atd_reader r;
    atd_reader_init(&r, s->buf + s->pos, s->len - s->pos, NULL, s->opt.read_flags);
    if (syntax)
        atd__fail_found(&r, r.cur, ATD_ERR_SYNTAX, what);
    else
        atd_reader_fail_expected(&r, r.cur, what);
    take_reader_error(s, &r, pos_here(s));
    if (strcmp(path, "$") != 0) {
        /* keep the reader's detail, name the element */
        char detail[sizeof r.err_detail];
        memcpy(detail, r.err_detail, sizeof detail);
        set_error(s, s->error.code, path, "%s", detail);
    }
    /* Inside the array, the end of the input is a cut one; before it, the
     * input is empty. */
    return s->array_state != ARRAY_BEFORE ? stop_truncated(s) : stop(s);
}

/* Finds the end of the element at pos: the first ',' ']' or '}' outside
 * strings and brackets (or the end of the input). Reads more as needed.
 * Returns 1 with *end set, 0 when the element is over max_record (error
 * recorded), -1 on a read error. */
static int frame_element(atd_stream *s, size_t *end)
{
    size_t rel = 0, depth = 0;
    bool in_string = false, escape = false;
    for (;;) {
        const char *b = s->buf;
        size_t i = s->pos + rel, n = s->len;
        while (i < n) {
            char c = b[i];
            if (in_string) {
                if (escape)
                    escape = false;
                else if (c == '\\')
                    escape = true;
                else if (c == '"')
                    in_string = false;
            } else if (c == '"') {
                in_string = true;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if (c == ']' || c == '}') {
                if (depth == 0)
                    break;
                depth--;
            } else if (c == ',' && depth == 0) {
                break;
            }
            i++;
        }
        if (i < n) {
            *end = i;
            return 1;
        }
        rel = i - s->pos;
        if (rel > s->opt.max_record)
            return 0;
        int rc = fill(s);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            *end = s->len;
            return 1;
        }
    }
}

bool atd_stream_next_element(atd_stream *s, atd_arena *arena, atd_read_fn read, void *out)
{
    if (s->failed || s->array_state == ARRAY_DONE)
        return false;
    for (;;) {
        char path[32];
        snprintf(path, sizeof path, "$[%zu]", s->records + s->bad_records);
        int c = next_byte(s);
        if (c == -2)
            return stop(s);
        if (s->array_state == ARRAY_BEFORE) {
            if (c != '[')
                return framing_error(s, "$", "an array", false);
            advance(s, s->pos + 1);
            s->array_state = ARRAY_FIRST;
            continue;
        }
        if (c == ']') {
            advance(s, s->pos + 1);
            s->array_state = ARRAY_DONE;
            c = next_byte(s);
            if (c == -2)
                return stop(s);
            if (c >= 0 && !(s->opt.read_flags & ATD_READ_LENIENT)) {
                if (!lookahead(s, QUOTE_LOOKAHEAD))
                    return stop(s);
                atd_reader r;
                atd_reader_init(&r, s->buf + s->pos, s->len - s->pos, NULL, 0);
                atd_read_end(&r);
                take_reader_error(s, &r, pos_here(s));
                return stop(s);
            }
            return false;
        }
        if (s->array_state == ARRAY_NEXT) {
            if (c != ',')
                return framing_error(s, "$", "',' or ']'", true);
            advance(s, s->pos + 1);
            c = next_byte(s);
            if (c == -2)
                return stop(s);
        }
        if (c == -1)
            return framing_error(s, path, "a value", false);
        size_t end;
        int rc = frame_element(s, &end);
        if (rc < 0)
            return stop(s);
        if (rc == 0 || end - s->pos > s->opt.max_record) {
            set_error(s, ATD_ERR_TOO_LARGE, path,
                      "array element longer than the limit of %zu bytes", s->opt.max_record);
            return stop(s);
        }
        /* An element that ends at once (",," or ",]") still goes to the
         * reader, with the byte that ends it, for the usual "expected ..." */
        bool empty = end == s->pos;
        atd_reader r;
        bool trailing;
        bool ok = read_record(s, &r, empty ? end + 1 : end, arena, read, out, &trailing);
        s->array_state = ARRAY_NEXT;
        if (trailing) {
            /* A value, then more without a comma: deliver the value; the
             * next call reports the missing comma where the rest starts. */
            advance(s, s->pos + r.err_offset);
            s->records++;
            return true;
        }
        if (!ok) {
            atd_reader_push_index(&r, s->records + s->bad_records);
            take_reader_error(s, &r, pos_here(s));
            bool truncated = end == s->len && s->eof;
            advance(s, end);
            if (truncated && s->error.code == ATD_ERR_EOF)
                return stop_truncated(s);
            if (empty || !bad_record(s))
                return stop(s);
            continue;
        }
        advance(s, end);
        s->records++;
        return true;
    }
}
