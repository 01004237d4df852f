/* Biniou reading primitives on the JSON reader's cursor,
 * error record and path: tags and their checks, vints, fixed-width bodies,
 * strings, nesting depth, skipping, and the byte-offset error report. */
#include "atd/biniou.h"

#include "error_message.h"

#include <inttypes.h>
#include <stdio.h>

static size_t offset_of(const atd_reader *r, const char *p)
{
    return (size_t)(p - r->start);
}

const char *atd__bin_fail_eof(atd_reader *r)
{
    atd_reader_fail_at(r, offset_of(r, r->end), ATD_ERR_EOF, "unexpected end of input");
    return NULL;
}

/* "svint (17)", or "byte 7" for a byte that is no tag. */
static void describe_tag(char *buf, size_t cap, unsigned tag)
{
    const char *name = atd_bin_tag_name(tag);
    if (name)
        snprintf(buf, cap, "%s (%u)", name, tag);
    else
        snprintf(buf, cap, "byte %u", tag);
}

/* "tag svint (17)" or "one of the tags int8 (1), int16 (2), uvint (16), svint (17)". */
static void describe_mask(char *buf, size_t cap, uint32_t accept)
{
    size_t n = 0;
    unsigned count = 0;
    for (unsigned t = 0; t < 32; t++)
        count += (accept >> t) & 1u;
    n += (size_t)snprintf(buf, cap, "%s", count == 1 ? "tag " : "one of the tags ");
    bool first = true;
    for (unsigned t = 0; t < 32 && n < cap; t++) {
        if (!((accept >> t) & 1u))
            continue;
        char one[32];
        describe_tag(one, sizeof one, t);
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", first ? "" : ", ", one);
        first = false;
    }
}

bool atd_bin_check_tag(atd_reader *r, size_t at, uint32_t accept, uint8_t tag)
{
    if (ATD_LIKELY(tag < 32 && ((accept >> tag) & 1u)))
        return true;
    if (atd_bin_tag_name(tag) == NULL || tag == ATD_BIN_SHARED)
        return atd_reader_fail_at(r, at, ATD_ERR_SYNTAX,
                                  "corrupted data: %s is not a tag that atdgen writes",
                                  tag == ATD_BIN_SHARED ? "shared (26)" : "this byte");
    char want[200], found[32];
    describe_mask(want, sizeof want, accept);
    describe_tag(found, sizeof found, tag);
    return atd_reader_fail_at(r, at, ATD_ERR_TYPE, "expected %s, found %s", want, found);
}

const char *atd__bin_read_tag_slow(atd_reader *r, const char *p, uint32_t accept, uint8_t *tag)
{
    if (ATD_UNLIKELY(p >= r->end))
        return atd__bin_fail_eof(r);
    uint8_t t = (uint8_t)*p;
    if (!atd_bin_check_tag(r, offset_of(r, p), accept, t))
        return NULL;
    *tag = t;
    return p + 1;
}

const char *atd__bin_read_uvint_slow(atd_reader *r, const char *p, uint64_t *out)
{
    const char *at = p;
    uint64_t u = 0;
    if (ATD_LIKELY(r->end - p >= 9)) { /* no end check per byte */
        for (unsigned shift = 0; shift < 63; shift += 7) {
            unsigned char c = (unsigned char)*p++;
            u |= (uint64_t)(c & 0x7f) << shift;
            if (c < 0x80) {
                *out = u;
                return p;
            }
        }
    } else {
        for (unsigned shift = 0; shift < 63; shift += 7) {
            if (ATD_UNLIKELY(p >= r->end))
                return atd__bin_fail_eof(r);
            unsigned char c = (unsigned char)*p++;
            u |= (uint64_t)(c & 0x7f) << shift;
            if (c < 0x80) {
                *out = u;
                return p;
            }
        }
    }
    /* OCaml reads 63-bit ints: a tenth byte cannot be read by a peer */
    atd_reader_fail_at(r, offset_of(r, at), ATD_ERR_RANGE, "vint longer than 9 bytes");
    return NULL;
}

const char *atd__bin_fail_count(atd_reader *r, const char *at, const char *p, uint64_t u)
{
    atd_reader_fail_at(r, offset_of(r, at), ATD_ERR_EOF,
                       "count %" PRIu64 " exceeds the %zu bytes left", u, (size_t)(r->end - p));
    return NULL;
}

const char *atd__bin_read_field_hashtag_slow(atd_reader *r, const char *p)
{
    if (r->end - p < 4)
        return atd__bin_fail_eof(r);
    atd_reader_fail_at(r, offset_of(r, p), ATD_ERR_SYNTAX,
                       "corrupted data: field hashtag 0x%08x lacks its high bit",
                       (unsigned)atd_bin_get_be(p, 4));
    return NULL;
}

const char *atd__bin_read_int_slow(atd_reader *r, const char *p, uint8_t tag, int64_t *out)
{
    static const unsigned char widths[5] = {0, 1, 2, 4, 8};
    if (tag == ATD_BIN_UVINT || tag == ATD_BIN_SVINT) {
        uint64_t u;
        p = atd_bin_read_uvint_p(r, p, &u);
        if (p == NULL)
            return NULL;
        /* 9 bytes hold 63 bits: both results fit in int64_t. A uvint from
         * 2^62 on is read as OCaml reads it, as the 63-bit two's complement
         * int it is for atdgen: u - 2^63. */
        if (tag == ATD_BIN_SVINT)
            *out = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
        else if (u >= (uint64_t)1 << 62)
            *out = -(int64_t)(((uint64_t)1 << 63) - u);
        else
            *out = (int64_t)u;
        return p;
    }
    if (tag < ATD_BIN_INT8 || tag > ATD_BIN_INT64) {
        atd_bin_check_tag(r, offset_of(r, p), ATD_BIN_INT_MASK, tag);
        return NULL;
    }
    unsigned n = widths[tag];
    if (ATD_UNLIKELY((size_t)(r->end - p) < n))
        return atd__bin_fail_eof(r);
    uint64_t u = atd_bin_get_be(p, n);
    /* int8 and int16 are unsigned; int32 and int64 are two's complement */
    if (tag == ATD_BIN_INT32)
        *out = (int64_t)(int32_t)(uint32_t)u;
    else
        *out = (int64_t)u;
    return p + n;
}

bool atd_bin_int_range(atd_reader *r, size_t at, int64_t v, int64_t min, int64_t max)
{
    if (ATD_LIKELY(v >= min && v <= max))
        return true;
    return atd_reader_fail_at(r, at, ATD_ERR_RANGE,
                              "%" PRId64 " is out of range [%" PRId64 ", %" PRId64 "]", v, min,
                              max);
}

const char *atd__bin_read_bool_slow(atd_reader *r, const char *p)
{
    if (p >= r->end)
        return atd__bin_fail_eof(r);
    atd_reader_fail_at(r, offset_of(r, p), ATD_ERR_TYPE, "expected a bool (0 or 1), found %u",
                       (unsigned char)*p);
    return NULL;
}

const char *atd_bin_read_unit_p(atd_reader *r, const char *p)
{
    if (ATD_UNLIKELY(p >= r->end))
        return atd__bin_fail_eof(r);
    if (ATD_UNLIKELY(*p != 0)) {
        atd_reader_fail_at(r, offset_of(r, p), ATD_ERR_TYPE, "expected unit (0), found %u",
                           (unsigned char)*p);
        return NULL;
    }
    return p + 1;
}

const char *atd__bin_read_string_slow(atd_reader *r, const char *p, size_t n, atd_string *out)
{
    char *s = atd_arena_strdup(r->arena, p, n);
    if (s == NULL) {
        atd_reader_fail_at(r, offset_of(r, p), ATD_ERR_NOMEM, "out of memory");
        return NULL;
    }
    out->ptr = s;
    out->len = n;
    return p + n;
}

bool atd__bin_fail_depth(atd_reader *r, const char *p)
{
    return atd_reader_fail_at(r, offset_of(r, p), ATD_ERR_DEPTH, "nesting deeper than %u",
                              r->max_depth);
}

/* --- skipping --- */

static const char *skip_bytes(atd_reader *r, const char *p, size_t n)
{
    if (ATD_UNLIKELY((size_t)(r->end - p) < n))
        return atd__bin_fail_eof(r);
    return p + n;
}

const char *atd_bin_skip_p(atd_reader *r, const char *p)
{
    uint8_t tag;
    p = atd_bin_read_tag_p(r, p, ATD_BIN_ANY_MASK, &tag);
    if (p == NULL)
        return NULL;
    return atd_bin_skip_body_p(r, p, tag);
}

/* The failure of an element of a skipped container: the index pushed. */
static const char *fail_index(atd_reader *r, size_t i)
{
    atd_reader_push_index(r, i);
    return NULL;
}

static const char *skip_nested(atd_reader *r, const char *p, uint8_t tag)
{
    size_t n = 0;
    uint8_t b = 0;
    uint32_t h = 0;
    switch (tag) {
    case ATD_BIN_ARRAY:
        p = atd_bin_read_count_p(r, p, &n);
        if (p == NULL || n == 0)
            return p;
        p = atd_bin_read_tag_p(r, p, ATD_BIN_ANY_MASK, &b);
        for (size_t i = 0; i < n && p != NULL; i++)
            if ((p = atd_bin_skip_body_p(r, p, b)) == NULL)
                return fail_index(r, i);
        return p;
    case ATD_BIN_TUPLE:
        p = atd_bin_read_count_p(r, p, &n);
        for (size_t i = 0; i < n && p != NULL; i++)
            if ((p = atd_bin_skip_p(r, p)) == NULL)
                return fail_index(r, i);
        return p;
    case ATD_BIN_RECORD:
        p = atd_bin_read_count_p(r, p, &n);
        for (size_t i = 0; i < n && p != NULL; i++) {
            p = atd_bin_read_field_hashtag_p(r, p, &h);
            if (p != NULL)
                p = atd_bin_skip_p(r, p);
        }
        return p;
    case ATD_BIN_NUM_VARIANT:
        p = atd_bin_read_byte_p(r, p, &b);
        return p != NULL && (b & 0x80) ? atd_bin_skip_p(r, p) : p;
    case ATD_BIN_VARIANT:
        p = atd_bin_read_hashtag_p(r, p, &h);
        return p != NULL && (h & 0x80000000u) ? atd_bin_skip_p(r, p) : p;
    case ATD_BIN_TABLE: {
        size_t rows = 0, cols = 0;
        p = atd_bin_read_count_p(r, p, &rows);
        if (p == NULL || rows == 0)
            return p;
        p = atd_bin_read_count_p(r, p, &cols);
        if (p == NULL)
            return NULL;
        /* the column tags are kept in the input: one byte after each hashtag */
        const char *header = p;
        for (size_t c = 0; c < cols; c++) {
            p = atd_bin_read_field_hashtag_p(r, p, &h);
            if (p != NULL)
                p = atd_bin_read_tag_p(r, p, ATD_BIN_ANY_MASK, &b);
            if (p == NULL)
                return NULL;
        }
        if (cols > 0 && rows > (size_t)(r->end - p) / cols) {
            atd_reader_fail_at(r, offset_of(r, p), ATD_ERR_EOF,
                               "table of %zu rows and %zu columns exceeds the input", rows, cols);
            return NULL;
        }
        for (size_t i = 0; i < rows; i++)
            for (size_t c = 0; c < cols; c++)
                if ((p = atd_bin_skip_body_p(r, p, (uint8_t)header[5 * c + 4])) == NULL)
                    return fail_index(r, i);
        return p;
    }
    default:
        atd_bin_check_tag(r, offset_of(r, p), ATD_BIN_ANY_MASK, tag);
        return NULL;
    }
}

const char *atd_bin_skip_body_p(atd_reader *r, const char *p, uint8_t tag)
{
    uint64_t u = 0;
    size_t n = 0;
    switch (tag) {
    case ATD_BIN_BOOL:
    case ATD_BIN_INT8:
    case ATD_BIN_UNIT:
        return skip_bytes(r, p, 1);
    case ATD_BIN_INT16:
        return skip_bytes(r, p, 2);
    case ATD_BIN_INT32:
    case ATD_BIN_FLOAT32:
        return skip_bytes(r, p, 4);
    case ATD_BIN_INT64:
    case ATD_BIN_FLOAT64:
        return skip_bytes(r, p, 8);
    case ATD_BIN_UVINT:
    case ATD_BIN_SVINT:
        return atd_bin_read_uvint_p(r, p, &u);
    case ATD_BIN_STRING:
        p = atd_bin_read_count_p(r, p, &n);
        return p != NULL ? skip_bytes(r, p, n) : NULL;
    default: {
        if (!atd_bin_enter(r, p))
            return NULL;
        p = skip_nested(r, p, tag);
        atd_bin_leave(r);
        return p;
    }
    }
}

bool atd_bin_read_end(atd_reader *r)
{
    if (r->cur == r->end)
        return true;
    return atd_reader_fail_at(r, offset_of(r, r->cur), ATD_ERR_TRAILING,
                              "%zu bytes after the biniou value", (size_t)(r->end - r->cur));
}

int atd_bin_get_error(const atd_reader *r, atd_error *err)
{
    int code = atd_reader_get_error(r, err);
    if (err == NULL || code == ATD_ERR_OK)
        return code;
    err->line = 0;
    err->column = 0;
    atd__error_describe(err, ATD__AT_BYTE, r->err_detail);
    return code;
}
