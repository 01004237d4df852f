/* libFuzzer target for the code atdc generates, on schemas/everything.atd
 * (generated/everything.c): every construct of the ATD JSON mapping.
 *
 * The first input byte picks the type to read (the root, or one of the types
 * whose constructs are the most intricate: sums, options, representations,
 * generics, recursion), so that short inputs reach deep code without having
 * to spell a whole root document; the rest is the JSON text. For each input:
 * read; when it reads, write it (the only acceptable failure: NaN/infinity
 * from an overflowing literal such as 1e400); read the output again -- it must
 * succeed -- and write that: the two outputs must be byte-identical (the
 * generated code is a fixpoint, so nothing is lost or invented between two
 * passes). Any crash, sanitizer report, leak or broken promise (abort) is a
 * finding.
 *
 * Build: see tests/fuzz/CMakeLists.txt; run: tests/fuzz/run.sh fuzz_everything SECONDS. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "everything.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Defines fuzz_TY(json, len, arena): the read/write/read/write check. */
#define FUZZ_TYPE(ty)                                                                      \
    static void fuzz_##ty(const char *json, size_t len, atd_arena *arena)                  \
    {                                                                                      \
        everything_##ty v1, v2;                                                            \
        if (everything_##ty##_from_json(json, len, arena, &v1, NULL) != 0)                 \
            return;                                                                        \
        atd_buf out1, out2;                                                                \
        atd_buf_init(&out1);                                                               \
        atd_buf_init(&out2);                                                               \
        int rc = everything_##ty##_to_json(&v1, &out1, NULL);                              \
        if (rc == 0) {                                                                     \
            if (everything_##ty##_from_json(out1.data, out1.len, arena, &v2, NULL) != 0)   \
                abort(); /* our own output must read back */                               \
            if (everything_##ty##_to_json(&v2, &out2, NULL) != 0 || out2.len != out1.len || \
                memcmp(out1.data, out2.data, out1.len) != 0)                               \
                abort(); /* and write identically */                                       \
        } else if (rc != ATD_ERR_NONFINITE) {                                              \
            abort();                                                                       \
        }                                                                                  \
        atd_buf_free(&out1);                                                               \
        atd_buf_free(&out2);                                                               \
    }

FUZZ_TYPE(root)
FUZZ_TYPE(shape)
FUZZ_TYPE(fields)
FUZZ_TYPE(names)
FUZZ_TYPE(patch)
FUZZ_TYPE(options)
FUZZ_TYPE(reprs)
FUZZ_TYPE(generics)
FUZZ_TYPE(tree)
FUZZ_TYPE(expr)
FUZZ_TYPE(color)
FUZZ_TYPE(event)
FUZZ_TYPE(with_defaults_list)
FUZZ_TYPE(derived)
FUZZ_TYPE(rose_node)
FUZZ_TYPE(cube)

typedef void (*fuzz_fn)(const char *json, size_t len, atd_arena *arena);

static const fuzz_fn fuzz_types[] = {
    fuzz_root,    fuzz_shape, fuzz_fields, fuzz_names,  fuzz_patch,
    fuzz_options, fuzz_reprs, fuzz_generics, fuzz_tree, fuzz_expr,
    fuzz_color,   fuzz_event, fuzz_with_defaults_list, fuzz_derived, fuzz_rose_node,
    fuzz_cube,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t n = sizeof fuzz_types / sizeof fuzz_types[0];
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL)
        abort();
    fuzz_types[data[0] % n]((const char *)data + 1, size - 1, arena);
    atd_arena_free(arena);
    return 0;
}
