/* libFuzzer target for the generic JSON parser and writer (atd_json_parse,
 * atd_json_write, atd_json_equal) and the validating skipper (atd_skip_value).
 *
 * For each input, in strict mode and in lenient mode:
 *  - parse; the skipper must agree on acceptance (both claim the same
 *    grammar, and generated readers rely on the skipper for unknown fields,
 *    so a disagreement is a conformance bug in one of them). Error codes may
 *    differ: the parser knows which value it expected ("tru" is TYPE,
 *    "expected a boolean"), the skipper does not (SYNTAX);
 *  - when it parses: write it (the only acceptable failures are NaN/infinity
 *    from overflowing literals such as 1e400, and invalid UTF-8 that lenient
 *    mode lets in), parse the output again in strict mode -- the output must
 *    always be strict JSON -- and the two trees must be equal, and writing
 *    the second tree must give the same bytes (the writer is a fixpoint);
 *  - parsing with borrowed strings gives an equal tree.
 * Also: whatever strict mode accepts, lenient mode accepts, with an equal tree.
 * Any crash, sanitizer report, leak or broken promise (abort) is a finding.
 *
 * Build: see tests/fuzz/CMakeLists.txt; run: tests/fuzz/run.sh fuzz_json SECONDS. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atd/json.h"
#include "atd/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether the skipper accepts the same bytes as one whole document. */
static bool skip_accepts(const char *text, size_t size, unsigned flags)
{
    atd_reader r;
    atd_reader_init(&r, text, size, NULL, flags);
    return atd_skip_value(&r) && atd_read_end(&r);
}

/* Parses with `flags`, checks the promises above; returns the parse status
 * and leaves the tree in *v (allocated in arena). */
static int check_mode(const char *text, size_t size, atd_arena *arena, unsigned flags, atd_json *v)
{
    int rc = atd_json_parse(text, size, arena, flags, v, NULL);
    if (skip_accepts(text, size, flags) != (rc == 0))
        abort();
    if (rc != 0)
        return rc;

    atd_json borrowed;
    if (atd_json_parse(text, size, arena, flags | ATD_READ_BORROW_STRINGS, &borrowed, NULL) != 0)
        abort();
    if (!atd_json_equal(v, &borrowed) && !(flags & ATD_READ_LENIENT))
        abort(); /* lenient mode may hold NaN, which equals nothing */

    atd_buf out;
    atd_buf_init(&out);
    int wrc = atd_json_write(v, &out, NULL);
    if (wrc == 0) {
        atd_json again;
        if (atd_json_parse(out.data, out.len, arena, 0, &again, NULL) != 0)
            abort(); /* the writer produced invalid JSON */
        if (!atd_json_equal(v, &again))
            abort();
        atd_buf out2;
        atd_buf_init(&out2);
        if (atd_json_write(&again, &out2, NULL) != 0 || out2.len != out.len ||
            memcmp(out.data, out2.data, out.len) != 0)
            abort();
        atd_buf_free(&out2);
    } else if (wrc != ATD_ERR_NONFINITE && !(wrc == ATD_ERR_UTF8 && (flags & ATD_READ_LENIENT))) {
        abort();
    }
    atd_buf_free(&out);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL)
        abort();
    atd_json strict, lenient;
    int src = check_mode(text, size, arena, 0, &strict);
    int lrc = check_mode(text, size, arena, ATD_READ_LENIENT, &lenient);
    if (src == 0 && (lrc != 0 || !atd_json_equal(&strict, &lenient)))
        abort();
    atd_arena_free(arena);
    return 0;
}
