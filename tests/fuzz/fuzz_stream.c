/* libFuzzer target for streams (atd_stream_next_line, _next_element) and the
 * layout pass (atd_json_reformat).
 *
 * The first two bytes choose the framing (JSON Lines or a top-level array),
 * skip_bad, the size of each read (1 to 16 bytes) and max_record (16 to 4111
 * bytes); the rest is the input. Values are read with the generic reader
 * (atd_json_read). Promises checked:
 *  - the transcript (each value written compact, each skipped record's
 *    message, the final error or the clean end) is the same when the source
 *    returns all the input in one read with the default chunk as when it
 *    returns a few bytes at a time with a chunk of 16 bytes: framing,
 *    positions, paths and messages do not depend on where reads stop;
 *  - atd_json_reformat accepts exactly what the skipper and read_end accept
 *    as one document, with the same message in pretty and compact modes,
 *    and compacting its pretty output gives its compact output.
 * Any crash, sanitizer report, leak or broken promise (abort) is a finding.
 *
 * Build: see tests/fuzz/CMakeLists.txt; run: tests/fuzz/run.sh fuzz_stream SECONDS. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct source {
    const char *data;
    size_t len, pos, step;
} source;

static ptrdiff_t source_read(void *ctx, char *buf, size_t cap)
{
    source *s = ctx;
    size_t n = s->len - s->pos;
    if (s->step != 0 && n > s->step)
        n = s->step;
    if (n > cap)
        n = cap;
    memcpy(buf, s->data + s->pos, n);
    s->pos += n;
    return (ptrdiff_t)n;
}

static bool json_read_any(atd_reader *r, void *out)
{
    return atd_json_read(r, out);
}

static void log_bad(void *ctx, const atd_error *err)
{
    atd_buf *t = ctx;
    atd_buf_puts(t, "bad: ");
    atd_buf_puts(t, err->message);
    atd_buf_putc(t, '\n');
}

/* Runs the stream over text and returns its transcript (malloc'ed). */
static atd_buf transcript(const char *text, size_t len, size_t step, size_t chunk, bool array,
                          bool skip_bad, size_t max_record)
{
    atd_buf t;
    atd_buf_init(&t);
    source src = {text, len, 0, step};
    atd_stream_options opt = {0};
    opt.chunk_size = chunk;
    opt.max_record = max_record;
    opt.skip_bad = skip_bad;
    opt.on_bad = log_bad;
    opt.on_bad_ctx = &t;
    atd_stream s;
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL || atd_stream_init_cb(&s, source_read, &src, &opt) != 0)
        abort();
    atd_json v;
    while (array ? atd_stream_next_element(&s, arena, json_read_any, &v)
                 : atd_stream_next_line(&s, arena, json_read_any, &v)) {
        /* 1e400 reads as infinity, which cannot be written: note it. */
        if (atd_json_write(&v, &t, NULL) != 0)
            atd_buf_puts(&t, "(unwritable)");
        atd_buf_putc(&t, '\n');
        atd_arena_reset(arena);
    }
    const atd_error *e = atd_stream_error(&s);
    atd_buf_puts(&t, e != NULL ? e->message : "end");
    atd_buf_putc(&t, '\n');
    atd_stream_free(&s);
    atd_arena_free(arena);
    if (t.status != 0)
        abort();
    return t;
}

static void check_reformat(const char *text, size_t len)
{
    atd_reader r;
    atd_reader_init(&r, text, len, NULL, 0);
    bool valid = atd_skip_value(&r) && atd_read_end(&r);
    atd_buf pretty, compact, again;
    atd_buf_init(&pretty);
    atd_buf_init(&compact);
    atd_buf_init(&again);
    atd_error e1, e2;
    int rc1 = atd_json_reformat(text, len, &pretty, ATD_WRITE_PRETTY, &e1);
    int rc2 = atd_json_reformat(text, len, &compact, 0, &e2);
    if ((rc1 == 0) != valid || (rc2 == 0) != valid)
        abort();
    if (!valid && (rc1 != rc2 || strcmp(e1.message, e2.message) != 0 || pretty.len != 0))
        abort();
    if (valid) {
        if (atd_json_reformat(pretty.data, pretty.len, &again, 0, NULL) != 0)
            abort();
        if (again.len != compact.len || memcmp(again.data, compact.data, again.len) != 0)
            abort();
    }
    atd_buf_free(&pretty);
    atd_buf_free(&compact);
    atd_buf_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    bool array = data[0] & 1;
    bool skip_bad = data[0] & 2;
    size_t step = 1 + (data[0] >> 4);
    size_t max_record = 16 + (size_t)data[1] * 16;
    const char *text = (const char *)data + 2;
    size_t len = size - 2;

    atd_buf whole = transcript(text, len, 0, 0, array, skip_bad, max_record);
    atd_buf split = transcript(text, len, step, 16, array, skip_bad, max_record);
    if (whole.len != split.len || memcmp(whole.data, split.data, whole.len) != 0)
        abort();
    atd_buf_free(&whole);
    atd_buf_free(&split);

    check_reformat(text, len);
    return 0;
}
