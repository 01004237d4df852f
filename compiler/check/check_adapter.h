/* atdgen's built-in JSON adapters (<json adapter.ocaml="...">, or the
 * adapter.to_ocaml / adapter.from_ocaml pair), recognised by name so that a
 * schema shared with OCaml works unchanged; atdc implements them natively.
 *
 *   Type_field   adapter.ocaml="Atdgen_runtime.Json_adapter.Type_field"
 *                (also Atdgen_codec_runtime.Json_adapter.Type_field), or
 *                adapter.to_ocaml="Atdgen_runtime.Json_adapter.normalize_type_field \"k\""
 *                with adapter.from_ocaml="...restore_type_field \"k\"":
 *                {"type": "Circle", "radius": 2} is Circle {radius = 2};
 *                the field is "type", or "k" in the second form.
 *   One_field    adapter.ocaml="Atdgen_runtime.Json_adapter.One_field"
 *                (or Atdgen_codec_runtime): {"Circle": arg}.
 *
 * Any other adapter is OCaml code (CHECK_ADAPTER_CUSTOM). The checker and
 * the lowering stage both call check_adapter_of. */
#ifndef ATDC_CHECK_ADAPTER_H
#define ATDC_CHECK_ADAPTER_H

#include <stdbool.h>
#include <stddef.h>

#include "syntax/ast.h"
#include "atd/arena.h"

typedef enum check_adapter_kind {
    CHECK_ADAPTER_NONE,
    CHECK_ADAPTER_TYPE_FIELD,
    CHECK_ADAPTER_ONE_FIELD,
    CHECK_ADAPTER_CUSTOM
} check_adapter_kind;

typedef struct check_adapter {
    check_adapter_kind kind;
    const char *field; /* TYPE_FIELD: the key naming the constructor (arena or static) */
    size_t field_len;
    const ast_annot_field *where; /* the first adapter annotation, for messages */
} check_adapter;

/* The adapter that the <json adapter.*> annotations of `a` name. */
check_adapter check_adapter_of(atd_arena *arena, const ast_annots *a);

#endif
