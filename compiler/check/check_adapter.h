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
 *   Type_and_value_fields
 *                a functor of atdgen's runtime, so the schema names the
 *                user's OCaml module made with it (adapter.ocaml="My.Tv"),
 *                and atdc reads its parameters from annotations of its own
 *                beside it, on the record, in the c section (atdgen -j
 *                rejects json fields it does not know):
 *                  <c adapter.type_field="type" adapter.value_field="payload"
 *                     [adapter.known_tags="A B" adapter.catch_all="Unknown"]>
 *                {"type":"A","payload":1,"id":2} is {payload = A 1; id = 2}.
 *   <c adapter.type_field="kind"> alone, on a sum, is Type_field with that
 *   field (the user's Type_field.Make module).
 *
 * Any other adapter is OCaml code (CHECK_ADAPTER_CUSTOM). The checker and
 * the lowering stage both call check_adapter_of. What the parameters name
 * (a record's value field, a constructor of its sum, the records a
 * Type_field sum writes) is judged on the lowered module, where fields
 * have their JSON names and types are resolved (check_adapter_record_ir,
 * check_adapter_sum_ir, called by check_lowered.c). */
#ifndef ATDC_CHECK_ADAPTER_H
#define ATDC_CHECK_ADAPTER_H

#include <stdbool.h>
#include <stddef.h>

#include "syntax/ast.h"
#include "atd/arena.h"
#include "lower/ir.h"
#include "util/diag.h"

typedef enum check_adapter_kind {
    CHECK_ADAPTER_NONE,
    CHECK_ADAPTER_TYPE_FIELD,
    CHECK_ADAPTER_ONE_FIELD,
    CHECK_ADAPTER_TYPE_AND_VALUE_FIELDS,
    CHECK_ADAPTER_CUSTOM
} check_adapter_kind;

typedef struct check_adapter {
    check_adapter_kind kind;
    const char *field; /* the key naming the constructor (arena or static) */
    size_t field_len;
    const ast_annot_field *value_field; /* TYPE_AND_VALUE_FIELDS: its parameters */
    const ast_annot_field *known_tags, *catch_all;
    /* a parameter that cannot be: beside a built-in named by adapter.ocaml
     * (why 1), without adapter.type_field (2), known_tags without catch_all
     * or either without value_field (3) */
    const ast_annot_field *conflict;
    int conflict_why;
    const ast_annot_field *where; /* the first adapter annotation, for messages */
} check_adapter;

/* The adapter that the <json adapter.*> annotations of `a` name. */
check_adapter check_adapter_of(atd_arena *arena, const ast_annots *a);

/* The user's C adapter: <c adapter="NAME">, or <json adapter.c="NAME">
 * (atdgen -j rejects the latter, a json field it does not know), or NULL. */
const ast_annot_field *check_adapter_c(const ast_annots *a);

/* The field of record rt whose JSON name is name[0..len), or -1. */
int check_adapter_json_field(const ir_type *rt, const char *name, size_t len);

/* The last case of sum st whose JSON name is name[0..len), or -1. */
int check_adapter_json_case(const ir_type *st, const char *name, size_t len);

/* What the adapters decided about the records so far, as the checker
 * replays them in the order lowering met them: which type field a record
 * is written with (Type_field sums, Type_and_value_fields) and whether it
 * has Type_and_value_fields. Zero-initialize; lives in `arena`. */
typedef struct check_adapter_state {
    struct check_adapter_record *items;
    size_t len, cap;
} check_adapter_state;

/* Type_and_value_fields on record rt (annotations `annots`): the value
 * field exists, is required and of a sum of this schema, the record has no
 * other adapter or validator and is no argument of a Type_field sum, and
 * the catch-all is a constructor taking a (string * _) tuple. False after
 * reporting (out of memory included). */
bool check_adapter_record_ir(diag_ctx *d, atd_arena *arena, const ast_annots *annots,
                             const ir_type *rt, check_adapter_state *s);

/* Type_field on sum st (annotations `annots`): each record argument has no
 * Type_and_value_fields, is of this schema, and is not written by another
 * sum with another type field that it has as a field. False after
 * reporting (out of memory included). */
bool check_adapter_sum_ir(diag_ctx *d, atd_arena *arena, const ast_annots *annots,
                          const ir_type *st, check_adapter_state *s);

#endif
