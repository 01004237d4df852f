/* Biniou writing primitives that are not small enough to inline: ints
 * whose repr limits their range, strings, and the tag names and name hash
 * shared with the reader. */
#include "atd/biniou.h"

#include <inttypes.h>
#include <stdio.h>

static const char *const tag_names[27] = {
    "bool",   "int8",  "int16",   "int32",   "int64",       NULL,      NULL,   NULL,    NULL,
    NULL,     NULL,    "float32", "float64", NULL,          NULL,      NULL,   "uvint", "svint",
    "string", "array", "tuple",   "record",  "num_variant", "variant", "unit", "table", "shared"};

const char *atd_bin_tag_name(unsigned tag)
{
    return tag < sizeof tag_names / sizeof tag_names[0] ? tag_names[tag] : NULL;
}

uint32_t atd_bin_hash(const char *name, size_t len)
{
    uint32_t h = 0;
    for (size_t i = 0; i < len; i++)
        h = 223 * h + (unsigned char)name[i];
    return h & 0x7fffffffu;
}

bool atd__bin_fail_range(atd_writer *w, int64_t v, const char *repr)
{
    char detail[96];
    snprintf(detail, sizeof detail, "%" PRId64 " cannot be written as biniou %s", v, repr);
    return atd_writer_fail(w, ATD_ERR_RANGE, detail);
}

bool atd_bin_fail_int(atd_writer *w, unsigned repr, int64_t v)
{
    const char *name = atd_bin_tag_name(repr);
    return atd__bin_fail_range(w, v, name != NULL ? name : "int");
}

bool atd_bin_write_int(atd_writer *w, unsigned repr, int64_t v)
{
    switch (repr) {
    case ATD_BIN_UVINT:
        if (!atd_bin_int_fits(ATD_BIN_UVINT, v))
            return atd__bin_fail_range(w, v, "uvint");
        {
            char *p = atd_buf_reserve(w->buf, ATD_BIN_VINT_MAX);
            if (ATD_UNLIKELY(p == NULL))
                return atd_writer_fail_buf(w);
            atd_buf_commit(w->buf, atd_bin_put_int(p, ATD_BIN_UVINT, v));
        }
        return true;
    case ATD_BIN_INT8:
        if (v < 0 || v > 255)
            return atd__bin_fail_range(w, v, "int8");
        return atd_bin_write_byte(w, (unsigned)v);
    case ATD_BIN_INT16:
        if (v < 0 || v > 65535)
            return atd__bin_fail_range(w, v, "int16");
        return atd_bin_write_be(w, (uint64_t)v, 2);
    case ATD_BIN_INT32:
        if (v < INT32_MIN || v > INT32_MAX)
            return atd__bin_fail_range(w, v, "int32");
        return atd_bin_write_be(w, (uint64_t)v, 4);
    case ATD_BIN_INT64:
        return atd_bin_write_be(w, (uint64_t)v, 8);
    default:
        return atd_bin_write_svint(w, v);
    }
}

bool atd_bin_write_string(atd_writer *w, const char *s, size_t len)
{
    if (!atd_bin_write_uvint(w, len))
        return false;
    atd_buf_append(w->buf, s, len);
    if (ATD_UNLIKELY(w->buf->status != 0))
        return atd_writer_fail_buf(w);
    return true;
}

char *atd__bin_string_p(atd_writer *w, char *p, const char *s, size_t len)
{
    if (len <= ATD_BIN_RUN_MAX) {
        p = atd_writer_room(w, p, ATD_BIN_VINT_MAX + len);
        return p != NULL ? atd_bin_put_string(p, s, len) : NULL;
    }
    atd_writer_commit(w, p);
    if (!atd_bin_write_string(w, s, len))
        return NULL;
    return atd_writer_cursor(w);
}
