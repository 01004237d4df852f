/* Built-in JSON adapters, reader side (atd/adapter.h). The type field is
 * found by skipping the other members (validated, nothing allocated), so
 * the object is scanned twice but never held in a DOM. */
#include "atd/adapter.h"

#include <string.h>

#include "atd/read_name.h"

bool atd_read_type_field(atd_reader *r, const char *name, size_t name_len, const char *sum_name,
                         atd_string *tag, size_t *tag_at)
{
    const char *start = r->cur;
    unsigned depth = r->depth;
    size_t at = (size_t)(start - r->start);
    bool more;
    if (!atd_object_begin(r, &more))
        return false;
    while (more) {
        atd_string key;
        if (!atd_object_key(r, &key))
            return false;
        if (key.len == name_len && memcmp(key.ptr, name, name_len) == 0) {
            atd_skip_ws(r);
            *tag_at = (size_t)(r->cur - r->start);
            if (atd_peek(r) != '"') {
                atd_reader_fail(r, ATD_ERR_BAD_VARIANT,
                                "expected a string naming a constructor of '%s'", sum_name);
                return atd_reader_push_field(r, name, name_len);
            }
            if (!atd_read_name(r, tag))
                return atd_reader_push_field(r, name, name_len);
            r->cur = start;
            r->depth = depth;
            return true;
        }
        if (!atd_skip_value(r))
            return atd_reader_push_field(r, key.ptr, key.len);
        if (!atd_object_next(r, &more))
            return false;
    }
    char quoted[ATD_QUOTE_NAME_CAP];
    return atd_reader_fail_at(r, at, ATD_ERR_MISSING_FIELD,
                              "missing field '%s' naming the constructor of '%s'",
                              atd_quote_name(name, name_len, quoted, sizeof quoted), sum_name);
}
