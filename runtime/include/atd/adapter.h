/* Run-time support of JSON adapters in generated code.
 *
 * atdgen's built-in adapters are read natively: Type_field, a sum whose
 * constructor is named by a field of the object that is its argument,
 * {"type":"Circle","radius":2}, needs atd_read_type_field_p (the writers need
 * nothing).
 *
 * Custom adapters, <json adapter.c="NAME"> on a record or sum type t: the
 * user writes, in C, the two functions that atdgen's OCaml adapter module
 * has, over generic JSON values:
 *
 *     bool NAME_normalize(atd_json *v, atd_arena *arena, const char **why);
 *     bool NAME_restore(atd_json *v, atd_arena *arena, const char **why);
 *
 * normalize turns the JSON found in a document into the JSON that the ATD
 * type describes; restore does the reverse before writing. Each may modify
 * *v in place or replace it, allocating what it needs in `arena` (freed
 * with the document when reading, right after writing the value when
 * writing). Returning false fails the read or write with *why (a static
 * message, or one allocated in the arena; may stay NULL) and the JSON path.
 * Only values of t go through a DOM (read with atd_json_read, normalized,
 * written out and read again by t's plain reader); the rest of the document
 * keeps the direct path. */
#ifndef ATD_ADAPTER_H
#define ATD_ADAPTER_H

#include "common.h"
#include "json.h"
#include "reader.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Finds the first member named `name` of the object at p without reading
 * anything else into memory, so that the object can then be read as the
 * constructor's argument.
 *   r:        the reader.
 *   p:        the cursor, at the object's '{'.
 *   name:     the member's name, name_len bytes.
 *   sum_name: the ATD type, for messages.
 *   tag:      set to the member's string value (borrowed from the input
 *             when it has no escape).
 *   tag_at:   set to the value's byte offset.
 * Returns p (the object is not consumed), or NULL after recording the
 * error with the JSON path: the member is missing (ATD_ERR_MISSING_FIELD),
 * is not a string (ATD_ERR_BAD_VARIANT), or the object is malformed. */
const char *atd_read_type_field_p(atd_reader *r, const char *p, const char *name,
                                  size_t name_len, const char *sum_name, atd_string *tag,
                                  size_t *tag_at);

/* The user's NAME_normalize or NAME_restore. */
typedef bool (*atd_json_adapter_fn)(atd_json *v, atd_arena *arena, const char **why);
/* A type's plain reader / writer, on untyped pointers. */
typedef bool (*atd_adapted_read_fn)(atd_reader *r, void *out);
typedef bool (*atd_adapted_write_fn)(atd_writer *w, const void *value);

/* Reads one value of a type with a custom adapter: the JSON value at p
 * into a DOM, normalize, then `read` on its normalized text (copied into
 * r's arena, so that borrowed strings stay valid).
 *   r:         the reader.
 *   p:         the cursor, before the value.
 *   name:      the adapter's name, for messages.
 *   normalize: the user's NAME_normalize.
 *   read:      the type's plain reader, run on the normalized text.
 *   out:       the value read.
 * Returns the cursor after the value, or NULL after recording the error at
 * the value's start; one found in the normalized JSON says so and gives
 * its path there. */
const char *atd_read_adapted_p(atd_reader *r, const char *p, const char *name,
                               atd_json_adapter_fn normalize, atd_adapted_read_fn read, void *out);

/* Writes one value of a type with a custom adapter: `write` into a
 * temporary buffer, parsed into a DOM, restore, then written to w.
 *   w:       the writer.
 *   p:       the cursor (atd/writer.h's cursor form).
 *   name:    the adapter's name, for messages.
 *   restore: the user's NAME_restore.
 *   write:   the type's plain writer.
 *   value:   the value to write.
 * Returns the cursor after the value, or NULL after recording the error. */
char *atd_write_adapted_p(atd_writer *w, char *p, const char *name, atd_json_adapter_fn restore,
                          atd_adapted_write_fn write, const void *value);

#ifdef __cplusplus
}
#endif

#endif
