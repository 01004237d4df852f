/* Whole-document reading and writing (document.h): one implementation of what
 * every generated P_t_from_json and P_t_to_json (and the biniou pair) does. */
#include "atd/document.h"

#include "atd/biniou.h"

int atd_from_json_flags(const char *json, size_t len, atd_arena *arena, unsigned flags,
                        atd_read_fn read, void *out, atd_error *err)
{
    atd_reader r;
    atd_reader_init(&r, json, len, arena, flags);
    if (!read(&r, out) || !atd_read_end(&r)) {
        int rc = atd_reader_get_error(&r, err);
        /* a reader that failed without saying why is still a failure */
        return rc != 0 ? rc : (int)ATD_ERR_INVALID;
    }
    if (err != NULL)
        atd_error_set(err, ATD_ERR_OK, NULL, NULL);
    return 0;
}

int atd_from_json(const char *json, size_t len, atd_arena *arena, atd_read_fn read, void *out,
                  atd_error *err)
{
    return atd_from_json_flags(json, len, arena, 0, read, out, err);
}

int atd_to_json_flags(atd_write_fn write, const void *value, unsigned flags, atd_buf *out,
                      atd_error *err)
{
    atd_writer w;
    size_t start = out->len;
    atd_writer_init(&w, out, flags);
    if (write(&w, value) && out->status == 0) {
        if (err != NULL)
            atd_error_set(err, ATD_ERR_OK, NULL, NULL);
        return 0;
    }
    if (w.err_code == ATD_ERR_OK)
        atd_writer_fail_buf(&w);
    /* no partial output is left in an in-memory buffer */
    if (out->sink == NULL && out->len > start)
        out->len = start;
    return atd_writer_get_error(&w, err);
}

int atd_to_json(atd_write_fn write, const void *value, atd_buf *out, atd_error *err)
{
    return atd_to_json_flags(write, value, 0, out, err);
}

int atd_from_biniou(const char *data, size_t len, atd_arena *arena, atd_read_fn read, void *out,
                    atd_error *err)
{
    atd_reader r;
    atd_reader_init(&r, data, len, arena, 0);
    if (!read(&r, out)) {
        int rc = atd_bin_get_error(&r, err);
        return rc != 0 ? rc : (int)ATD_ERR_INVALID;
    }
    if (err != NULL)
        atd_error_set(err, ATD_ERR_OK, NULL, NULL);
    return 0;
}

/* The writer's plumbing (errors, no partial output) does not depend on the
 * format. */
int atd_to_biniou(atd_write_fn write, const void *value, atd_buf *out, atd_error *err)
{
    return atd_to_json_flags(write, value, 0, out, err);
}
