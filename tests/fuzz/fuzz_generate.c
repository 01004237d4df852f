/* libFuzzer target for the whole generator: parse, check, load imports,
 * lower, sort, emit the header and the source into memory.
 *
 * For each input: run --check, then generation into memory. Any crash,
 * sanitizer report or leak is a finding, and so is a broken promise (abort):
 * --check and generation accept exactly the same schemas (generation runs
 * no check that --check skips), and an accepted schema gives a non-empty
 * header and source. tests/generate_compile.sh compiles what accepted
 * schemas produce; this target only runs the generator.
 * Run: tests/fuzz/run.sh fuzz_generate SECONDS */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atd/buf.h"
#include "driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_discard(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    (void)text;
    (void)len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    driver_options o;
    driver_options_init(&o);
    o.max_errors = 0;
    o.diag_sink = fuzz_discard;
    o.mode = DRIVER_CHECK;
    int checked = driver_compile_buffer(&o, "fuzz.atd", text, size);

    atd_buf h, c;
    atd_buf_init(&h);
    atd_buf_init(&c);
    o.mode = DRIVER_GENERATE;
    o.gen_h = &h;
    o.gen_c = &c;
    int generated = driver_compile_buffer(&o, "fuzz.atd", text, size);
    if (generated != DRIVER_OK && generated != DRIVER_SCHEMA_ERROR)
        abort();
    if (checked != generated)
        abort(); /* --check must accept exactly what generates */
    if (generated == DRIVER_OK && (h.len == 0 || c.len == 0))
        abort(); /* success means output */
    if (generated != DRIVER_OK && (h.len != 0 || c.len != 0))
        abort(); /* and failure means none */
    atd_buf_free(&h);
    atd_buf_free(&c);
    return 0;
}
