/* stream_peak TYPE [MAX_RECORD MAX_MEMORY]: reads JSON Lines on standard
 * input with the stream API's defaults (or the given max_record and
 * max_memory), as TYPE (doc or anything, tests/budget/budget.atd), resetting
 * the arena after each record, and prints one line:
 *     records N bad B arena_peak BYTES code NAME
 * where arena_peak is the most the arena held after a record (or, for a
 * record over its budget, the budget), and NAME the stream's final error
 * code (OK after a clean end). For tests/stream_memory.sh, which compares
 * the peak RSS with the bound documented in atd/stream.h. */
#include <stdio.h>
#include <stdlib.h>

#include "budget.h"

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 4) {
        fputs("usage: stream_peak doc|anything [MAX_RECORD MAX_MEMORY]\n", stderr);
        return 2;
    }
    atd_stream_options opt = {0};
    if (argc == 4) {
        opt.max_record = (size_t)strtoull(argv[2], NULL, 10);
        opt.max_memory = (size_t)strtoull(argv[3], NULL, 10);
    }
    bool as_doc = argv[1][0] == 'd';
    atd_stream s;
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL || atd_stream_init_fd(&s, 0, &opt) != 0) {
        fputs("stream_peak: out of memory\n", stderr);
        return 2;
    }
    size_t peak = 0;
    for (;;) {
        budget_doc d;
        atd_json v;
        bool ok = as_doc ? budget_doc_next_line(&s, arena, &d)
                         : budget_anything_next_line(&s, arena, &v);
        if (!ok)
            break;
        size_t held = atd_arena_get_stats(arena).bytes_reserved;
        peak = held > peak ? held : peak;
        atd_arena_reset(arena);
    }
    const atd_error *e = atd_stream_error(&s);
    if (e != NULL && e->code == ATD_ERR_LIMIT)
        peak = s.opt.max_memory;
    printf("records %zu bad %zu arena_peak %zu code %s\n", s.records, s.bad_records, peak,
           atd_error_code_name(e != NULL ? e->code : ATD_ERR_OK));
    if (e != NULL)
        fprintf(stderr, "%.200s\n", e->message);
    atd_stream_free(&s);
    atd_arena_free(arena);
    return 0;
}
