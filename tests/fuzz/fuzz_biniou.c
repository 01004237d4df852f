/* libFuzzer target for the biniou readers that atdc --biniou generates, on
 * tests/biniou/all.atd (every construct that has a biniou form; the biniou
 * counterpart of fuzz_everything, whose schema uses `abstract`, which
 * biniou cannot have).
 *
 * The first input byte picks the type to read; the rest is the biniou value.
 * For each input: read; when it reads, write it (it must succeed: everything
 * a reader accepts can be written); read the output again (it must succeed)
 * and write that: the two outputs must be byte-identical. Any crash,
 * sanitizer report, leak or broken promise (abort) is a finding.
 *
 * Build: see tests/fuzz/CMakeLists.txt; run: tests/fuzz/run.sh fuzz_biniou SECONDS. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Defines fuzz_TY(bin, len, arena): the read/write/read/write check. */
#define FUZZ_TYPE(ty)                                                                              \
    static void fuzz_##ty(const char *bin, size_t len, atd_arena *arena)                           \
    {                                                                                              \
        all_##ty v1, v2;                                                                           \
        if (all_##ty##_from_biniou(bin, len, arena, &v1, NULL) != 0)                               \
            return;                                                                                \
        atd_buf out1, out2;                                                                        \
        atd_buf_init(&out1);                                                                       \
        atd_buf_init(&out2);                                                                       \
        if (all_##ty##_to_biniou(&v1, &out1, NULL) != 0)                                           \
            abort(); /* what was read can be written */                                            \
        if (all_##ty##_from_biniou(out1.data, out1.len, arena, &v2, NULL) != 0)                    \
            abort(); /* our own output must read back */                                           \
        if (all_##ty##_to_biniou(&v2, &out2, NULL) != 0 || out2.len != out1.len ||                 \
            memcmp(out1.data, out2.data, out1.len) != 0)                                           \
            abort(); /* and write identically */                                                   \
        atd_buf_free(&out1);                                                                       \
        atd_buf_free(&out2);                                                                       \
    }

FUZZ_TYPE(everything)
FUZZ_TYPE(everythings)
FUZZ_TYPE(shape)
FUZZ_TYPE(ints)
FUZZ_TYPE(floats)
FUZZ_TYPE(cell)
FUZZ_TYPE(row)
FUZZ_TYPE(row_table)
FUZZ_TYPE(tree)

typedef void (*fuzz_fn)(const char *, size_t, atd_arena *);
static const fuzz_fn fuzzers[] = {
    fuzz_everything, fuzz_everythings, fuzz_shape,     fuzz_ints, fuzz_floats,
    fuzz_cell,       fuzz_row,         fuzz_row_table, fuzz_tree,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL)
        return 0;
    fuzzers[data[0] % (sizeof fuzzers / sizeof fuzzers[0])]((const char *)data + 1, size - 1,
                                                            arena);
    atd_arena_free(arena);
    return 0;
}
