/* atdc --json-schema ROOT: a JSON Schema (draft 2020-12) of the JSON that
 * atdc's readers accept for the type ROOT, in atdgen's JSON conventions:
 * records as objects (unknown fields allowed, a `?`/`~` field also as
 * null), sums as "C" and ["C", arg] (or their <json repr="object">,
 * Type_field and One_field forms), options as "None" and ["Some", v],
 * nullables as null or the value, <json repr="object"> maps as objects,
 * tuples as arrays (whose
 * extra elements the readers skip); wraps as their wire type; <c repr> ranges and the
 * declarative <c min max max_len> bounds as minimum, maximum and maxLength
 * (<c min_len> counts bytes, which JSON Schema cannot express: left out);
 * `~` defaults as "default" when they are JSON values, <doc> as
 * "description". Every record and sum is a "$defs" entry (named after its
 * definition), so recursive types are references; the imported ones too,
 * named `module.type`; a Type_and_value_fields record is one alternative
 * per tag. What it cannot know is `{}` (anything): abstract and the JSON
 * of a <json adapter.c>. */
#ifndef ATDC_JSONSCHEMA_H
#define ATDC_JSONSCHEMA_H

#include <stdbool.h>

#include "atd/buf.h"
#include "load/load_ir.h"
#include "util/diag.h"

/* Appends the schema of definition `root` of `s`, indented, to `b`. False
 * after reporting an error (no such definition, a parametrized one, out of
 * memory). */
bool jsonschema_write(atd_buf *b, atd_arena *arena, diag_ctx *d, const load_schema *s,
                      const char *root);

#endif
