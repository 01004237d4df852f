/* What generated readers share beyond the lexing primitives: the framing of
 * an option value on the wire, "None" or ["Some", v] (atdgen's option form), read
 * once here for every option reader (they only read v in between), the
 * copying of borrowed names and keys, and the errors of missing and
 * unknown fields. */
#include "atd/read_name.h"
#include "atd/reader.h"
#include "atd/suggest.h"
#include "reader_internal.h"

#include <string.h>

static bool is_name(atd_string s, const char *name)
{
    return s.len == 4 && memcmp(s.ptr, name, 4) == 0;
}

void *atd__read_grow(atd_reader *r, const char *p, void *items, size_t *cap, size_t size,
                     size_t align)
{
    size_t ncap = *cap != 0 ? 2 * *cap : 8;
    void *grown = NULL;
    if (ncap <= SIZE_MAX / size)
        grown = atd_arena_grow(atd_reader_arena(r), items, *cap * size, ncap * size, align);
    if (grown == NULL) {
        atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_NOMEM, "out of memory");
        return NULL;
    }
    *cap = ncap;
    return grown;
}

const char *atd__null_skip_p(const atd_reader *r, const char *q)
{
    if ((size_t)(r->end - q) < 4 || memcmp(q, "null", 4) != 0)
        return q;
    /* at the end of the input the next step reports it */
    unsigned char c = r->end - q > 4 ? (unsigned char)q[4] : ' ';
    if (c != ',' && c != '}' && c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != '/')
        return q;
    return q + 4;
}

const char *atd_read_option_begin_p(atd_reader *r, const char *p, bool *has)
{
    atd_string s;
    bool more;
    char q[ATD_QUOTE_NAME_CAP];
    p = atd_skip_ws_p(r, p);
    size_t at = atd_reader_offset_of(r, p);
    *has = false;
    if (atd_byte_at(r, p) == '"') {
        p = atd_read_name_p(r, p, &s);
        if (p == NULL || is_name(s, "None"))
            return p;
        return atd_fail_cursor(atd_reader_fail_at(
            r, at, ATD_ERR_BAD_VARIANT, "expected \"None\" or [\"Some\", ...], found \"%s\"",
            atd_quote_name(s.ptr, s.len, q, sizeof q)));
    }
    if (atd_byte_at(r, p) != '[')
        return atd_fail_cursor(
            atd_reader_fail_expected(r, p, "an option (\"None\" or [\"Some\", ...])"));
    p = atd_array_begin_p(r, p, &more);
    if (p == NULL)
        return NULL;
    if (!more)
        return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT,
                                                  "expected [\"Some\", ...], found an empty array"));
    p = atd_skip_ws_p(r, p);
    at = atd_reader_offset_of(r, p);
    p = atd_read_name_p(r, p, &s);
    if (p == NULL)
        return atd_fail_cursor(atd_reader_push_index(r, 0));
    if (!is_name(s, "Some"))
        return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT,
                                                  "expected \"Some\", found \"%s\"",
                                                  atd_quote_name(s.ptr, s.len, q, sizeof q)));
    p = atd_array_next_p(r, p, &more);
    if (p == NULL)
        return NULL;
    if (!more)
        return atd_fail_cursor(
            atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, "\"Some\" needs an argument"));
    *has = true;
    return p;
}

const char *atd_read_option_end_p(atd_reader *r, const char *p)
{
    bool more;
    p = atd_array_next_p(r, p, &more);
    if (p != NULL && more)
        return atd_fail_cursor(atd_reader_fail_at(r, atd_reader_offset_of(r, p),
                                                  ATD_ERR_BAD_VARIANT,
                                                  "expected ']' after the argument of \"Some\""));
    return p;
}

const char *atd_reader_own_string_p(atd_reader *r, const char *p, atd_string *s)
{
    /* only a string inside the input is borrowed; decoded ones are in the arena */
    if ((r->flags & ATD_READ_BORROW_STRINGS) || s->ptr < r->start || s->ptr >= r->end)
        return p;
    char *k = atd_arena_strdup(r->arena, s->ptr, s->len);
    if (k == NULL)
        return atd_fail_cursor(
            atd_reader_fail_at(r, atd_reader_offset_of(r, p), ATD_ERR_NOMEM, "out of memory"));
    s->ptr = k;
    return p;
}

bool atd_reader_fail_missing(atd_reader *r, const char *at, const char *field,
                             const char *record)
{
    /* The reader skipped this whitespace before the '{' already: skipping it
     * again ends at the same byte (and records nothing). */
    return atd_reader_fail_at(r, atd_reader_offset_of(r, atd_skip_ws_p(r, at)),
                              ATD_ERR_MISSING_FIELD, "missing field '%s' in record '%s'", field,
                              record);
}

bool atd_reader_fail_missing_of(atd_reader *r, const char *at, const uint64_t *seen,
                                const char *names, const char *record)
{
    size_t i = 0;
    while (seen[i / 64] >> (i % 64) & 1)
        i++;
    const char *name = names;
    while (i-- > 0)
        name += strlen(name) + 1;
    return atd_reader_fail_missing(r, at, name, record);
}

bool atd_reader_fail_unknown_field(atd_reader *r, const char *at, atd_string key,
                                   const char *record, const char *fields)
{
    atd_suggest s;
    atd_suggest_init(&s, key.ptr, key.len);
    for (const char *f = fields; *f != '\0'; f += strlen(f) + 1)
        atd_suggest_offer(&s, f, strlen(f));
    char q[ATD_QUOTE_NAME_CAP];
    const char *quoted = atd_quote_name(key.ptr, key.len, q, sizeof q);
    size_t at_offset = atd_reader_offset_of(r, at);
    if (s.best == NULL)
        return atd_reader_fail_at(r, at_offset, ATD_ERR_UNKNOWN_FIELD,
                                  "unknown field \"%s\" in record '%s'", quoted, record);
    char qb[ATD_QUOTE_NAME_CAP];
    return atd_reader_fail_at(r, at_offset, ATD_ERR_UNKNOWN_FIELD,
                              "unknown field \"%s\" in record '%s'; did you mean \"%s\"?", quoted,
                              record, atd_quote_name(s.best, s.best_len, qb, sizeof qb));
}

const char *atd_read_variant_arg_p(atd_reader *r, const char *p, size_t at, const char *name)
{
    bool more;
    p = atd_array_next_p(r, p, &more);
    if (p != NULL && !more)
        return atd_fail_cursor(atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT,
                                                  "variant '%s' needs an argument", name));
    return p;
}

const char *atd_read_variant_end_p(atd_reader *r, const char *p, char closer, const char *name)
{
    bool more;
    p = closer == ']' ? atd_array_next_p(r, p, &more) : atd_object_next_p(r, p, &more);
    if (p != NULL && more)
        return atd_fail_cursor(atd_reader_fail_at(
            r, atd_reader_offset_of(r, p), ATD_ERR_BAD_VARIANT,
            "expected '%c' after the argument of variant '%s'", closer, name));
    return p;
}
