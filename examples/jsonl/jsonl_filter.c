/* jsonl_filter: reads JSON Lines of `event` records (event.atd) on standard
 * input and writes each valid record back, compact, one per line, on
 * standard output. Each invalid line is reported on standard error as
 *     line N: column C, at $.date: expected an integer, found "x"
 * and skipped; an input cut inside its last line is reported the same way.
 * Exit status: 0 when every line was valid, 1 when some line was invalid or
 * cut short, 2 on an I/O error. Memory stays bounded (one 64 KiB input chunk
 * plus the longest line and its values, one output chunk), so it runs
 * unchanged as a Hadoop Streaming mapper or under GNU parallel --pipe. */
#include <stdio.h>
#include <string.h>

#include "event.h"

/* Called for each bad line (the stream goes on with the next one), and for
 * a cut last line. */
static void report_bad_line(void *ctx, const atd_error *err)
{
    (void)ctx;
    /* The message reads "line N, column C, at PATH: DETAIL": keep what
     * follows the line number. */
    const char *rest = strstr(err->message, ", ");
    fprintf(stderr, "line %zu: %s\n", err->line, rest != NULL ? rest + 2 : err->message);
}

int main(void)
{
    atd_stream_options opt = {0};
    opt.skip_bad = true;
    opt.on_bad = report_bad_line;
    /* Strings may point into the input buffer: each record is written out
     * before the next one is read. */
    opt.read_flags = ATD_READ_BORROW_STRINGS;

    atd_stream in;
    atd_buf out;
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL || atd_stream_init_fd(&in, 0, &opt) != 0) {
        fputs("jsonl_filter: out of memory\n", stderr);
        return 2;
    }
    if (atd_buf_init_fd(&out, 1) != 0) {
        fputs("jsonl_filter: out of memory\n", stderr);
        return 2;
    }

    int status = 0;
    event_event ev;
    atd_error err;
    while (event_event_next_line(&in, arena, &ev)) {
        if (event_event_write_line(&ev, &out, &err) != 0) {
            fprintf(stderr, "jsonl_filter: output: %s\n", err.message);
            status = 2;
            break;
        }
        atd_arena_reset(arena);
    }
    const atd_error *stop = atd_stream_error(&in);
    if (stop != NULL && stop->code == ATD_ERR_TRUNCATED) {
        report_bad_line(NULL, stop);
        if (status == 0)
            status = 1;
    } else if (stop != NULL) {
        fprintf(stderr, "jsonl_filter: %s\n", stop->message);
        status = 2;
    }
    /* Close, not just free: it says whether the last bytes got out. */
    if (atd_buf_close(&out) != 0 && status != 2) {
        fputs("jsonl_filter: cannot write the output\n", stderr);
        status = 2;
    }
    if (status == 0 && in.bad_records > 0)
        status = 1;
    atd_stream_free(&in);
    atd_arena_free(arena);
    return status;
}
