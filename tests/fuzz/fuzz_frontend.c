/* libFuzzer target for the atdc front end: lexer, parser, printer, checker.
 *
 * For each input: parse it; when it parses, print it, parse the printout and
 * print that again -- the two printouts must be identical (the printer's
 * round-trip promise) -- and finally run the whole --check pipeline. Any
 * crash, sanitizer report, leak or broken promise (abort) is a finding.
 *
 * Build (clang, -DATDC_FUZZ=ON): every compiler source except main.c -- that
 * is compiler/ *.c minus main.c, plus the flex/bison outputs lexer.c and
 * parser.c (the build's compiler/ directory on the include path for
 * parser.h) -- and the atdrt library, with -fsanitize=fuzzer,address,undefined.
 * Run: ./fuzz_frontend -max_len=4096 tests/valid schemas */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atd/arena.h"
#include "atd/buf.h"
#include "util/diag.h"
#include "driver.h"
#include "syntax/parse.h"
#include "syntax/print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_discard(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    (void)text;
    (void)len;
}

/* Prints `text` parsed; false when it does not parse. */
static bool fuzz_print(const char *text, size_t len, atd_buf *out)
{
    diag_ctx d;
    diag_init(&d);
    d.sink = fuzz_discard;
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL)
        abort();
    ast_module *m = parse_module(arena, &d, "fuzz.atd", text, len);
    if (m != NULL)
        print_module(out, m);
    atd_arena_free(arena);
    diag_free(&d);
    return m != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    atd_buf a, b;
    atd_buf_init(&a);
    atd_buf_init(&b);
    if (fuzz_print(text, size, &a)) {
        if (a.status != 0)
            abort();
        if (!fuzz_print(a.data != NULL ? a.data : "", a.len, &b))
            abort(); /* the printout must parse */
        if (b.len != a.len || (a.len > 0 && memcmp(a.data, b.data, a.len) != 0))
            abort(); /* and print identically */
    }
    atd_buf_free(&a);
    atd_buf_free(&b);

    driver_options o;
    driver_options_init(&o);
    o.mode = DRIVER_CHECK;
    o.max_errors = 0;
    o.diag_sink = fuzz_discard;
    int rc = driver_compile_buffer(&o, "fuzz.atd", text, size);
    if (rc != DRIVER_OK && rc != DRIVER_SCHEMA_ERROR)
        abort();
    return 0;
}
