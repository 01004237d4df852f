/* Run-time support of atdgen's built-in JSON adapters in generated readers
 * (the writers need none). Type_field: a sum whose constructor is named by
 * a field of the object that is its argument, {"type":"Circle","radius":2}. */
#ifndef ATD_ADAPTER_H
#define ATD_ADAPTER_H

#include "common.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* With r at the '{' of an object, finds its first member named `name`
 * (name_len bytes) without reading anything else into memory, and sets
 * *tag to that member's string value (borrowed from the input when it has
 * no escape) and *tag_at to the value's byte offset. On success the reader
 * is back at the '{', so that the object can then be read as the
 * constructor's argument. Errors, with the JSON path: the member is missing
 * (ATD_ERR_MISSING_FIELD), is not a string (ATD_ERR_BAD_VARIANT), or the
 * object is malformed. `sum_name` is the ATD type, for messages. */
bool atd_read_type_field(atd_reader *r, const char *name, size_t name_len, const char *sum_name,
                         atd_string *tag, size_t *tag_at);

#ifdef __cplusplus
}
#endif

#endif
