/* What generated readers share beyond the lexing primitives: the framing of
 * an option value on the wire, "None" or ["Some", v] (atdgen's option form), read
 * once here for every option reader (they only read v in between), the
 * copying of borrowed names and keys, and the errors of missing and
 * unknown fields. */
#include "atd/read_name.h"
#include "atd/reader.h"
#include "atd/suggest.h"

#include <string.h>

static bool is_name(atd_string s, const char *name)
{
    return s.len == 4 && memcmp(s.ptr, name, 4) == 0;
}

bool atd_read_option_begin(atd_reader *r, bool *has)
{
    atd_string s;
    bool more;
    char q[ATD_QUOTE_NAME_CAP];
    int c = atd_peek(r);
    size_t at = atd_reader_offset(r);
    *has = false;
    if (c == '"') {
        if (!atd_read_name(r, &s))
            return false;
        if (is_name(s, "None"))
            return true;
        return atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT,
                                  "expected \"None\" or [\"Some\", ...], found \"%s\"",
                                  atd_quote_name(s.ptr, s.len, q, sizeof q));
    }
    if (c != '[')
        return atd_reader_fail_expected(r, "an option (\"None\" or [\"Some\", ...])");
    if (!atd_array_begin(r, &more))
        return false;
    if (!more)
        return atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT,
                                  "expected [\"Some\", ...], found an empty array");
    atd_skip_ws(r);
    at = atd_reader_offset(r);
    if (!atd_read_name(r, &s))
        return atd_reader_push_index(r, 0);
    if (!is_name(s, "Some"))
        return atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, "expected \"Some\", found \"%s\"",
                                  atd_quote_name(s.ptr, s.len, q, sizeof q));
    if (!atd_array_next(r, &more))
        return false;
    if (!more)
        return atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, "\"Some\" needs an argument");
    *has = true;
    return true;
}

bool atd_read_option_end(atd_reader *r)
{
    bool more;
    if (!atd_array_next(r, &more))
        return false;
    if (more)
        return atd_reader_fail(r, ATD_ERR_BAD_VARIANT,
                               "expected ']' after the argument of \"Some\"");
    return true;
}

bool atd_reader_own_string(atd_reader *r, atd_string *s)
{
    /* only a string inside the input is borrowed; decoded ones are in the arena */
    if ((r->flags & ATD_READ_BORROW_STRINGS) || s->ptr < r->start || s->ptr >= r->end)
        return true;
    char *k = atd_arena_strdup(r->arena, s->ptr, s->len);
    if (k == NULL)
        return atd_reader_fail(r, ATD_ERR_NOMEM, "out of memory");
    s->ptr = k;
    return true;
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

bool atd_read_variant_arg(atd_reader *r, size_t at, const char *name)
{
    bool more;
    if (!atd_array_next(r, &more))
        return false;
    if (!more)
        return atd_reader_fail_at(r, at, ATD_ERR_BAD_VARIANT, "variant '%s' needs an argument",
                                  name);
    return true;
}

bool atd_read_variant_end(atd_reader *r, char closer, const char *name)
{
    bool more;
    if (!(closer == ']' ? atd_array_next(r, &more) : atd_object_next(r, &more)))
        return false;
    if (more)
        return atd_reader_fail(r, ATD_ERR_BAD_VARIANT,
                               "expected '%c' after the argument of variant '%s'", closer, name);
    return true;
}
