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

bool atd__bin_fail_eof(atd_reader *r)
{
    return atd_reader_fail_at(r, offset_of(r, r->end), ATD_ERR_EOF, "unexpected end of input");
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

bool atd__bin_read_tag_slow(atd_reader *r, uint32_t accept, uint8_t *tag)
{
    if (ATD_UNLIKELY(r->cur >= r->end))
        return atd__bin_fail_eof(r);
    *tag = (uint8_t)*r->cur;
    r->cur++;
    return atd_bin_check_tag(r, offset_of(r, r->cur - 1), accept, *tag);
}

bool atd_bin_read_byte(atd_reader *r, uint8_t *out)
{
    if (ATD_UNLIKELY(r->cur >= r->end))
        return atd__bin_fail_eof(r);
    *out = (uint8_t)*r->cur++;
    return true;
}

bool atd__bin_read_uvint_slow(atd_reader *r, uint64_t *out)
{
    const char *p = r->cur;
    uint64_t u = 0;
    if (ATD_LIKELY(r->end - p >= 9)) { /* no end check per byte */
        for (unsigned shift = 0; shift < 63; shift += 7) {
            unsigned char c = (unsigned char)*p++;
            u |= (uint64_t)(c & 0x7f) << shift;
            if (c < 0x80) {
                r->cur = p;
                *out = u;
                return true;
            }
        }
        return atd_reader_fail_at(r, offset_of(r, r->cur), ATD_ERR_RANGE,
                                  "vint longer than 9 bytes");
    }
    for (unsigned shift = 0; shift < 63; shift += 7) {
        if (ATD_UNLIKELY(p >= r->end))
            return atd__bin_fail_eof(r);
        unsigned char c = (unsigned char)*p++;
        u |= (uint64_t)(c & 0x7f) << shift;
        if (c < 0x80) {
            r->cur = p;
            *out = u;
            return true;
        }
    }
    /* OCaml reads 63-bit ints: a tenth byte cannot be read by a peer */
    return atd_reader_fail_at(r, offset_of(r, r->cur), ATD_ERR_RANGE, "vint longer than 9 bytes");
}

bool atd__bin_fail_count(atd_reader *r, const char *at, uint64_t u)
{
    return atd_reader_fail_at(r, offset_of(r, at), ATD_ERR_EOF,
                              "count %" PRIu64 " exceeds the %zu bytes left", u,
                              (size_t)(r->end - r->cur));
}

bool atd__bin_fail_field_hashtag(atd_reader *r, uint32_t h)
{
    return atd_reader_fail_at(r, offset_of(r, r->cur - 4), ATD_ERR_SYNTAX,
                              "corrupted data: field hashtag 0x%08x lacks its high bit",
                              (unsigned)h);
}

bool atd__bin_read_int_slow(atd_reader *r, uint8_t tag, int64_t *out)
{
    static const unsigned char widths[5] = {0, 1, 2, 4, 8};
    if (tag == ATD_BIN_UVINT || tag == ATD_BIN_SVINT) {
        uint64_t u;
        if (!atd_bin_read_uvint(r, &u))
            return false;
        /* 9 bytes hold 63 bits: both results fit in int64_t. A uvint from
         * 2^62 on is read as OCaml reads it, as the 63-bit two's complement
         * int it is for atdgen: u - 2^63. */
        if (tag == ATD_BIN_SVINT)
            *out = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
        else if (u >= (uint64_t)1 << 62)
            *out = -(int64_t)(((uint64_t)1 << 63) - u);
        else
            *out = (int64_t)u;
        return true;
    }
    if (tag < ATD_BIN_INT8 || tag > ATD_BIN_INT64)
        return atd_bin_check_tag(r, offset_of(r, r->cur), ATD_BIN_INT_MASK, tag);
    unsigned n = widths[tag];
    if (ATD_UNLIKELY(!atd_bin_has(r, n)))
        return atd__bin_fail_eof(r);
    uint64_t u = atd_bin_get_be(r->cur, n);
    r->cur += n;
    /* int8 and int16 are unsigned; int32 and int64 are two's complement */
    if (tag == ATD_BIN_INT32)
        *out = (int64_t)(int32_t)(uint32_t)u;
    else if (tag == ATD_BIN_INT64)
        *out = (int64_t)u;
    else
        *out = (int64_t)u;
    return true;
}

bool atd_bin_int_range(atd_reader *r, size_t at, int64_t v, int64_t min, int64_t max)
{
    if (ATD_LIKELY(v >= min && v <= max))
        return true;
    return atd_reader_fail_at(r, at, ATD_ERR_RANGE,
                              "%" PRId64 " is out of range [%" PRId64 ", %" PRId64 "]", v, min,
                              max);
}

bool atd_bin_read_bool(atd_reader *r, bool *out)
{
    uint8_t b;
    if (!atd_bin_read_byte(r, &b))
        return false;
    if (ATD_UNLIKELY(b > 1))
        return atd_reader_fail_at(r, offset_of(r, r->cur - 1), ATD_ERR_TYPE,
                                  "expected a bool (0 or 1), found %u", b);
    *out = b != 0;
    return true;
}

bool atd_bin_read_unit(atd_reader *r)
{
    uint8_t b;
    if (!atd_bin_read_byte(r, &b))
        return false;
    if (ATD_UNLIKELY(b != 0))
        return atd_reader_fail_at(r, offset_of(r, r->cur - 1), ATD_ERR_TYPE,
                                  "expected unit (0), found %u", b);
    return true;
}

bool atd_bin_read_float32(atd_reader *r, float *out)
{
    if (ATD_UNLIKELY(!atd_bin_has(r, 4)))
        return atd__bin_fail_eof(r);
    uint32_t bits = (uint32_t)atd_bin_get_be(r->cur, 4);
    r->cur += 4;
    memcpy(out, &bits, sizeof *out);
    return true;
}

bool atd__bin_read_string_slow(atd_reader *r, size_t n, atd_string *out)
{
    char *s = atd_arena_strdup(r->arena, r->cur, n);
    if (s == NULL)
        return atd_reader_fail(r, ATD_ERR_NOMEM, "out of memory");
    out->ptr = s;
    out->len = n;
    r->cur += n;
    return true;
}

bool atd__bin_fail_depth(atd_reader *r)
{
    return atd_reader_fail(r, ATD_ERR_DEPTH, "nesting deeper than %u", r->max_depth);
}

/* --- skipping --- */

static bool skip_bytes(atd_reader *r, size_t n)
{
    if (ATD_UNLIKELY(!atd_bin_has(r, n)))
        return atd__bin_fail_eof(r);
    r->cur += n;
    return true;
}

bool atd_bin_skip(atd_reader *r)
{
    uint8_t tag;
    if (!atd_bin_read_tag(r, ATD_BIN_ANY_MASK, &tag))
        return false;
    return atd_bin_skip_body(r, tag);
}

static bool skip_nested(atd_reader *r, uint8_t tag)
{
    size_t n = 0;
    uint8_t b = 0;
    uint32_t h = 0;
    switch (tag) {
    case ATD_BIN_ARRAY:
        if (!atd_bin_read_count(r, &n))
            return false;
        if (n == 0)
            return true;
        if (!atd_bin_read_tag(r, ATD_BIN_ANY_MASK, &b))
            return false;
        for (size_t i = 0; i < n; i++)
            if (!atd_bin_skip_body(r, b))
                return atd_reader_push_index(r, i);
        return true;
    case ATD_BIN_TUPLE:
        if (!atd_bin_read_count(r, &n))
            return false;
        for (size_t i = 0; i < n; i++)
            if (!atd_bin_skip(r))
                return atd_reader_push_index(r, i);
        return true;
    case ATD_BIN_RECORD:
        if (!atd_bin_read_count(r, &n))
            return false;
        for (size_t i = 0; i < n; i++)
            if (!atd_bin_read_field_hashtag(r, &h) || !atd_bin_skip(r))
                return false;
        return true;
    case ATD_BIN_NUM_VARIANT:
        if (!atd_bin_read_byte(r, &b))
            return false;
        return (b & 0x80) ? atd_bin_skip(r) : true;
    case ATD_BIN_VARIANT:
        if (!atd_bin_read_hashtag(r, &h))
            return false;
        return (h & 0x80000000u) ? atd_bin_skip(r) : true;
    case ATD_BIN_TABLE: {
        size_t rows = 0, cols = 0;
        if (!atd_bin_read_count(r, &rows))
            return false;
        if (rows == 0)
            return true;
        if (!atd_bin_read_count(r, &cols))
            return false;
        /* the column tags are kept in the input: one byte after each hashtag */
        const char *header = r->cur;
        for (size_t c = 0; c < cols; c++) {
            if (!atd_bin_read_field_hashtag(r, &h) || !atd_bin_read_tag(r, ATD_BIN_ANY_MASK, &b))
                return false;
        }
        if (cols > 0 && rows > (size_t)(r->end - r->cur) / cols)
            return atd_reader_fail_at(r, offset_of(r, r->cur), ATD_ERR_EOF,
                                      "table of %zu rows and %zu columns exceeds the input", rows,
                                      cols);
        for (size_t i = 0; i < rows; i++)
            for (size_t c = 0; c < cols; c++)
                if (!atd_bin_skip_body(r, (uint8_t)header[5 * c + 4]))
                    return atd_reader_push_index(r, i);
        return true;
    }
    default:
        return atd_bin_check_tag(r, offset_of(r, r->cur), ATD_BIN_ANY_MASK, tag);
    }
}

bool atd_bin_skip_body(atd_reader *r, uint8_t tag)
{
    uint64_t u = 0;
    size_t n = 0;
    switch (tag) {
    case ATD_BIN_BOOL:
    case ATD_BIN_INT8:
    case ATD_BIN_UNIT:
        return skip_bytes(r, 1);
    case ATD_BIN_INT16:
        return skip_bytes(r, 2);
    case ATD_BIN_INT32:
    case ATD_BIN_FLOAT32:
        return skip_bytes(r, 4);
    case ATD_BIN_INT64:
    case ATD_BIN_FLOAT64:
        return skip_bytes(r, 8);
    case ATD_BIN_UVINT:
    case ATD_BIN_SVINT:
        return atd_bin_read_uvint(r, &u);
    case ATD_BIN_STRING:
        return atd_bin_read_count(r, &n) && skip_bytes(r, n);
    default: {
        if (!atd_bin_enter(r))
            return false;
        bool ok = skip_nested(r, tag);
        atd_bin_leave(r);
        return ok;
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
