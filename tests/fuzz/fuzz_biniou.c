/* libFuzzer target for the biniou readers that atdc generates: every reader
 * of tests/biniou/all.atd (every construct that has a biniou form, with
 * --biniou) and of schemas/everything.atd (with --biniou-skip-abstract:
 * every definition but the five that hold abstract, which has no biniou
 * form). The JSON counterpart is fuzz_everything.
 *
 * The first input byte picks the type to read (FUZZ_TYPES order: seeds
 * stay valid as long as it only grows at the end); the rest is the biniou
 * value. For each input: read; when it reads, write it (it must succeed:
 * everything a reader accepts can be written); read the output again (it
 * must succeed) and write that: the two outputs must be byte-identical. Any
 * crash, sanitizer report, leak or broken promise (abort) is a finding.
 *
 * Build: see tests/fuzz/CMakeLists.txt; run: tests/fuzz/run.sh fuzz_biniou SECONDS.
 * Seeds: tests/fuzz/corpus/fuzz_biniou (make_seeds.sh writes the
 * everything_* ones). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "everything.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* X(schema, type): every public biniou reader, by schema. */
#define FUZZ_TYPES(X)                                                                              \
    X(all, everything)                                                                             \
    X(all, everythings)                                                                            \
    X(all, shape)                                                                                  \
    X(all, ints)                                                                                   \
    X(all, floats)                                                                                 \
    X(all, cell)                                                                                   \
    X(all, row)                                                                                    \
    X(all, row_table)                                                                              \
    X(all, tree)                                                                                   \
    X(everything, count)                                                                           \
    X(everything, user_id)                                                                         \
    X(everything, maybe_int)                                                                       \
    X(everything, label)                                                                           \
    X(everything, nothing)                                                                         \
    X(everything, from)                                                                            \
    X(everything, struct_)                                                                         \
    X(everything, union_)                                                                          \
    X(everything, mode)                                                                            \
    X(everything, level)                                                                           \
    X(everything, odd_names)                                                                       \
    X(everything, color)                                                                           \
    X(everything, obj_shape)                                                                       \
    X(everything, base_event)                                                                      \
    X(everything, event)                                                                           \
    X(everything, rect)                                                                            \
    X(everything, fields)                                                                          \
    X(everything, names)                                                                           \
    X(everything, patch)                                                                           \
    X(everything, all_optional)                                                                    \
    X(everything, base)                                                                            \
    X(everything, derived)                                                                         \
    X(everything, single)                                                                          \
    X(everything, pair)                                                                            \
    X(everything, with_defaults)                                                                   \
    X(everything, bare_cell)                                                                       \
    X(everything, matrix)                                                                          \
    X(everything, cube)                                                                            \
    X(everything, int_list)                                                                        \
    X(everything, float_list)                                                                      \
    X(everything, with_defaults_list)                                                              \
    X(everything, options)                                                                         \
    X(everything, int_page)                                                                        \
    X(everything, page_ext)                                                                        \
    X(everything, int_bool_entry)                                                                  \
    X(everything, generics)                                                                        \
    X(everything, tree)                                                                            \
    X(everything, rose_node)                                                                       \
    X(everything, expr)                                                                            \
    X(everything, binding)                                                                         \
    X(everything, stmt)                                                                            \
    X(everything, annotated)                                                                       \
    X(everything, anon_z)

/* Defines fuzz_S_TY(bin, len, arena): the read/write/read/write check. */
#define FUZZ_TYPE(s, ty)                                                                           \
    static void fuzz_##s##_##ty(const char *bin, size_t len, atd_arena *arena)                     \
    {                                                                                              \
        s##_##ty v1, v2;                                                                           \
        if (s##_##ty##_from_biniou(bin, len, arena, &v1, NULL) != 0)                               \
            return;                                                                                \
        atd_buf out1, out2;                                                                        \
        atd_buf_init(&out1);                                                                       \
        atd_buf_init(&out2);                                                                       \
        if (s##_##ty##_to_biniou(&v1, &out1, NULL) != 0)                                           \
            abort(); /* what was read can be written */                                            \
        if (s##_##ty##_from_biniou(out1.data, out1.len, arena, &v2, NULL) != 0)                    \
            abort(); /* our own output must read back */                                           \
        if (s##_##ty##_to_biniou(&v2, &out2, NULL) != 0 || out2.len != out1.len ||                 \
            memcmp(out1.data, out2.data, out1.len) != 0)                                           \
            abort(); /* and write identically */                                                   \
        atd_buf_free(&out1);                                                                       \
        atd_buf_free(&out2);                                                                       \
    }
FUZZ_TYPES(FUZZ_TYPE)

typedef void (*fuzz_fn)(const char *, size_t, atd_arena *);
#define FUZZ_ENTRY(s, ty) fuzz_##s##_##ty,
static const fuzz_fn fuzzers[] = {FUZZ_TYPES(FUZZ_ENTRY)};

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
