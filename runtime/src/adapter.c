/* JSON adapters (atd/adapter.h). Built-in Type_field: the type field is
 * found by skipping the other members (validated, nothing allocated), so
 * the object is scanned twice but never held in a DOM. Custom adapters go
 * through a DOM for the values of their type only. */
#include "atd/adapter.h"

#include <stdio.h>
#include <string.h>

#include "atd/arena.h"
#include "atd/buf.h"

#include "atd/read_name.h"

const char *atd_read_type_field_p(atd_reader *r, const char *p, const char *name,
                                  size_t name_len, const char *sum_name, atd_string *tag,
                                  size_t *tag_at)
{
    const char *start = p;
    unsigned depth = r->depth;
    size_t at = atd_reader_offset_of(r, p);
    bool more;
    p = atd_object_begin_p(r, p, &more);
    if (p == NULL)
        return NULL;
    while (more) {
        atd_string key;
        p = atd_object_key_p(r, p, &key);
        if (p == NULL)
            return NULL;
        if (key.len == name_len && memcmp(key.ptr, name, name_len) == 0) {
            p = atd_skip_ws_p(r, p);
            *tag_at = atd_reader_offset_of(r, p);
            if (atd_byte_at(r, p) != '"') {
                atd_reader_fail_at(r, *tag_at, ATD_ERR_BAD_VARIANT,
                                   "expected a string naming a constructor of '%s'", sum_name);
                return atd_fail_cursor(atd_reader_push_field(r, name, name_len));
            }
            if (atd_read_name_p(r, p, tag) == NULL)
                return atd_fail_cursor(atd_reader_push_field(r, name, name_len));
            r->depth = depth;
            return start;
        }
        p = atd_skip_value_p(r, p);
        if (p == NULL)
            return atd_fail_cursor(atd_reader_push_field(r, key.ptr, key.len));
        p = atd_object_next_p(r, p, &more);
        if (p == NULL)
            return NULL;
    }
    char quoted[ATD_QUOTE_NAME_CAP];
    return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_MISSING_FIELD,
                                              "missing field '%s' naming the constructor of '%s'",
                                              atd_quote_name(name, name_len, quoted, sizeof quoted),
                                              sum_name));
}

const char *atd_read_adapted_p(atd_reader *r, const char *p, const char *name,
                               atd_json_adapter_fn normalize, atd_adapted_read_fn read, void *out)
{
    p = atd_skip_ws_p(r, p);
    size_t at = atd_reader_offset_of(r, p);
    atd_json v;
    p = atd_json_read_p(r, p, &v);
    if (p == NULL)
        return NULL;
    const char *why = NULL;
    if (!normalize(&v, r->arena, &why))
        return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_INVALID,
                                                  "adapter '%s' rejected the value: %s", name,
                                                  why != NULL ? why : "normalize failed"));
    atd_buf b;
    atd_buf_init(&b);
    atd_error e;
    int rc = atd_json_write(&v, &b, &e);
    char *text = rc == 0 ? atd_arena_strdup(r->arena, b.data != NULL ? b.data : "", b.len) : NULL;
    size_t len = b.len;
    atd_buf_free(&b);
    if (rc != 0)
        return atd_fail_cursor(
            atd_reader_fail_at(r, at, (atd_error_code)rc,
                               "adapter '%s' normalized the value into invalid JSON: %s", name,
                               e.message));
    if (text == NULL)
        return atd_fail_cursor(
            atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_NOMEM, "out of memory"));
    atd_reader sub;
    atd_reader_init(&sub, text, len, r->arena, r->flags);
    sub.max_depth = r->max_depth > r->depth ? r->max_depth - r->depth : 1;
    if (read(&sub, out))
        return p;
    atd_reader_get_error(&sub, &e);
    return atd_fail_cursor(atd_reader_fail_at(r, at, e.code,
                                              "in the JSON normalized by adapter '%s', at %s: %s",
                                              name, e.path, sub.err_detail));
}

static bool write_adapted(atd_writer *w, const char *name, atd_json_adapter_fn restore,
                          atd_adapted_write_fn write, const void *value)
{
    char detail[ATD_ERROR_MESSAGE_MAX];
    atd_buf b;
    atd_buf_init(&b);
    atd_writer sub;
    atd_writer_init(&sub, &b, w->flags);
    atd_error e;
    if (!write(&sub, value) || b.status != 0) {
        if (sub.err_code == ATD_ERR_OK)
            atd_writer_fail_buf(&sub);
        atd_writer_get_error(&sub, &e);
        atd_buf_free(&b);
        return atd_writer_fail(w, e.code, e.message);
    }
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL) {
        atd_buf_free(&b);
        return atd_writer_fail(w, ATD_ERR_NOMEM, "out of memory");
    }
    atd_json v;
    int rc = atd_json_parse(b.data != NULL ? b.data : "", b.len, arena, 0, &v, &e);
    atd_buf_free(&b);
    const char *why = NULL;
    bool ok;
    if (rc != 0) {
        ok = atd_writer_fail(w, (atd_error_code)rc, e.message);
    } else if (!restore(&v, arena, &why)) {
        snprintf(detail, sizeof detail, "adapter '%s' rejected the value: %s", name,
                 why != NULL ? why : "restore failed");
        ok = atd_writer_fail(w, ATD_ERR_INVALID, detail);
    } else {
        ok = atd_writer_json(w, &v);
    }
    atd_arena_free(arena);
    return ok;
}

char *atd_write_adapted_p(atd_writer *w, char *p, const char *name, atd_json_adapter_fn restore,
                          atd_adapted_write_fn write, const void *value)
{
    /* the value goes through a DOM written to the buffer: the cursor is
     * committed, then taken back after it */
    atd_writer_commit(w, p);
    return write_adapted(w, name, restore, write, value) ? atd_writer_cursor(w) : NULL;
}
