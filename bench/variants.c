/* Variants of a JSON document, derived at run time from the bench inputs, so
 * that no figure depends on the key order, escaping or layout the original
 * file happens to have: real producers sort keys (jq -S, Go maps, jsonb),
 * emit them in their own order, escape every slash and all non-ASCII (PHP,
 * Python's default), or pretty-print.
 *
 *   sorted    every object's members sorted by key (bytewise on the decoded
 *             key; equal keys keep their order)
 *   reversed  every object's members in the reverse of their order (a
 *             producer's own order, consistent from object to object but
 *             not the schema's)
 *   hashed    every object's members in the order of a hash of their keys
 *             (FNV-1a): the same order in every object with the same keys,
 *             as a hash map gives, and neither the schema's nor one the
 *             reader guesses statically
 *   shuffled  every object's members in a random order (fixed seed)
 *   escaped   every string and key re-escaped: `/` as `\/`, every non-ASCII
 *             character as `\uXXXX` (a surrogate pair beyond the BMP)
 *   pretty    re-laid out with 2-space indentation, one member or item per
 *             line, `"key": value`
 *
 * A small re-writer over the text, not a DOM: numbers and literals are
 * copied byte for byte (no double is reformatted), and outside `pretty` the
 * whitespace is kept where it was (a reordered object keeps the layout of
 * its positions), so each variant differs from the original in one way only.
 * The input must be valid JSON (the caller has parsed it); anything else
 * makes the re-writer return false. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

const char *const VARIANT_NAMES[VARIANT_COUNT] = {"sorted",   "reversed", "hashed",
                                                  "shuffled", "escaped",  "pretty"};

bool variant_reorders_keys(doc_variant v)
{
    return v == VARIANT_SORTED || v == VARIANT_REVERSED || v == VARIANT_HASHED ||
           v == VARIANT_SHUFFLED;
}

/* Deeper than any bench document; bounds the recursion. */
#define MAX_DEPTH 128

typedef struct rewriter {
    const char *end;
    doc_variant variant;
    atd_buf *out;
    atd_buf scratch; /* a decoded string */
    atd_arena *keys; /* decoded keys of the objects being sorted */
    uint64_t rng;
} rewriter;

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && is_ws(*p))
        p++;
    return p;
}

/* p at the opening quote; returns the byte after the closing one. */
static const char *skip_string(const char *p, const char *end)
{
    for (p++; p < end; p++) {
        if (*p == '\\')
            p++;
        else if (*p == '"')
            return p + 1;
    }
    return NULL;
}

static void put(rewriter *rw, const char *p, size_t n)
{
    atd_buf_append(rw->out, p, n);
}

/* Whitespace of the original between p and q: kept, except when pretty. */
static void put_ws(rewriter *rw, const char *p, const char *q)
{
    if (rw->variant != VARIANT_PRETTY)
        put(rw, p, (size_t)(q - p));
}

static void newline(rewriter *rw, int depth)
{
    if (rw->variant != VARIANT_PRETTY)
        return;
    atd_buf_putc(rw->out, '\n');
    for (int i = 0; i < depth; i++)
        put(rw, "  ", 2);
}

/* ======================================================================== */
/* MARK: strings                                                             */
/* ======================================================================== */

static int hex_digit(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

static bool read_hex4(const char *p, const char *end, unsigned *cp)
{
    if (end - p < 4)
        return false;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_digit(p[i]);
        if (d < 0)
            return false;
        v = v << 4 | (unsigned)d;
    }
    *cp = v;
    return true;
}

static void put_utf8(atd_buf *b, unsigned cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xc0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | cp >> 12);
        u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        u[0] = (char)(0xf0 | cp >> 18);
        u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    atd_buf_append(b, u, n);
}

/* The bytes of the string literal between the quotes [p, end), unescaped. */
static bool decode_string(const char *p, const char *end, atd_buf *out)
{
    atd_buf_clear(out);
    while (p < end) {
        const char *q = p;
        while (q < end && *q != '\\')
            q++;
        atd_buf_append(out, p, (size_t)(q - p));
        if (q == end)
            break;
        if (end - q < 2)
            return false;
        char e = q[1];
        p = q + 2;
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *k = strchr(from, e);
        if (e != 'u') {
            if (e == 0 || k == NULL)
                return false;
            atd_buf_putc(out, to[k - from]);
            continue;
        }
        unsigned cp, lo;
        if (!read_hex4(p, end, &cp))
            return false;
        p += 4;
        if (cp >= 0xdc00 && cp < 0xe000)
            return false; /* lone low surrogate */
        if (cp >= 0xd800 && cp < 0xdc00) {
            if (end - p < 6 || p[0] != '\\' || p[1] != 'u' || !read_hex4(p + 2, end, &lo) ||
                lo < 0xdc00 || lo >= 0xe000)
                return false;
            p += 6;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        }
        put_utf8(out, cp);
    }
    return out->status == 0;
}

static void put_u_escape(atd_buf *b, unsigned unit)
{
    static const char hex[] = "0123456789abcdef";
    char e[6] = "\\u";
    for (int i = 0; i < 4; i++)
        e[2 + i] = hex[unit >> (12 - 4 * i) & 15];
    atd_buf_append(b, e, sizeof e);
}

/* The literal of the UTF-8 bytes [p, p + n) with `/` and every non-ASCII
 * character escaped. */
static bool put_escaped(atd_buf *b, const unsigned char *p, size_t n)
{
    atd_buf_putc(b, '"');
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        const char *short_form = c == '"'    ? "\\\""
                                 : c == '\\' ? "\\\\"
                                 : c == '/'  ? "\\/"
                                 : c == '\b' ? "\\b"
                                 : c == '\f' ? "\\f"
                                 : c == '\n' ? "\\n"
                                 : c == '\r' ? "\\r"
                                 : c == '\t' ? "\\t"
                                             : NULL;
        if (short_form != NULL) {
            atd_buf_append(b, short_form, 2);
            i++;
            continue;
        }
        if (c < 0x20) {
            put_u_escape(b, c);
            i++;
            continue;
        }
        if (c < 0x80) {
            atd_buf_putc(b, (char)c);
            i++;
            continue;
        }
        size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
        if (len == 0 || i + len > n)
            return false;
        unsigned cp = c & (0x7f >> len);
        for (size_t k = 1; k < len; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (p[i + k] & 0x3f);
        }
        if (cp >= 0x10000) {
            put_u_escape(b, 0xd800 + ((cp - 0x10000) >> 10));
            put_u_escape(b, 0xdc00 + ((cp - 0x10000) & 0x3ff));
        } else {
            put_u_escape(b, cp);
        }
        i += len;
    }
    atd_buf_putc(b, '"');
    return true;
}

/* p at the opening quote; returns the byte after the string. */
static const char *emit_string(rewriter *rw, const char *p)
{
    const char *q = skip_string(p, rw->end);
    if (q == NULL)
        return NULL;
    if (rw->variant != VARIANT_ESCAPED) {
        put(rw, p, (size_t)(q - p));
        return q;
    }
    if (!decode_string(p + 1, q - 1, &rw->scratch) ||
        !put_escaped(rw->out, (const unsigned char *)rw->scratch.data, rw->scratch.len))
        return NULL;
    return q;
}

/* ======================================================================== */
/* MARK: values                                                              */
/* ======================================================================== */

static const char *emit_value(rewriter *rw, const char *p, int depth);

/* The end of the value at p (a container's closing bracket + 1). */
static const char *skip_value(const char *p, const char *end)
{
    if (p >= end)
        return NULL;
    if (*p == '"')
        return skip_string(p, end);
    if (*p != '{' && *p != '[') {
        while (p < end && !is_ws(*p) && *p != ',' && *p != ']' && *p != '}' && *p != ':')
            p++;
        return p;
    }
    int open = 0;
    while (p < end) {
        char c = *p;
        if (c == '"') {
            p = skip_string(p, end);
            if (p == NULL)
                return NULL;
            continue;
        }
        if (c == '{' || c == '[')
            open++;
        else if ((c == '}' || c == ']') && --open == 0)
            return p + 1;
        p++;
    }
    return NULL;
}

/* One member of an object as the original has it. The whitespace slots
 * (before the key, around the colon, after the value) belong to the
 * position, the key and the value to the member. */
typedef struct member {
    const char *lead, *key, *colon, *value, *value_end, *trail_end;
    const char *name; /* decoded key (sorted and hashed only) */
    size_t name_len;
    size_t index;
    uint32_t hash; /* of the decoded key (hashed only) */
} member;

static int compare_names(const void *a, const void *b)
{
    const member *x = a, *y = b;
    size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->name, y->name, n);
    if (c != 0)
        return c;
    if (x->name_len != y->name_len)
        return x->name_len < y->name_len ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static uint32_t fnv1a(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int compare_hashes(const void *a, const void *b)
{
    const member *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Scans the members of the object at p into *ms; returns their count, and
 * the end of the object in *after, or (size_t)-1. */
static size_t scan_members(rewriter *rw, const char *p, member **ms, const char **after)
{
    size_t n = 0, cap = 0;
    *ms = NULL;
    p++; /* '{' */
    const char *q = skip_ws(p, rw->end);
    if (q < rw->end && *q == '}') {
        *after = q + 1;
        return 0;
    }
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            member *grown = realloc(*ms, cap * sizeof **ms);
            if (grown == NULL)
                return (size_t)-1;
            *ms = grown;
        }
        member *m = &(*ms)[n];
        m->index = n++;
        m->lead = p;
        m->key = skip_ws(p, rw->end);
        if (m->key >= rw->end || *m->key != '"' ||
            (m->colon = skip_string(m->key, rw->end)) == NULL)
            return (size_t)-1;
        q = skip_ws(m->colon, rw->end);
        if (q >= rw->end || *q != ':')
            return (size_t)-1;
        m->value = skip_ws(q + 1, rw->end);
        if ((m->value_end = skip_value(m->value, rw->end)) == NULL)
            return (size_t)-1;
        m->trail_end = skip_ws(m->value_end, rw->end);
        if (m->trail_end >= rw->end)
            return (size_t)-1;
        if (rw->variant == VARIANT_SORTED || rw->variant == VARIANT_HASHED) {
            if (!decode_string(m->key + 1, m->colon - 1, &rw->scratch))
                return (size_t)-1;
            m->name_len = rw->scratch.len;
            m->name = atd_arena_strdup(rw->keys, rw->scratch.data, rw->scratch.len);
            if (m->name == NULL)
                return (size_t)-1;
            m->hash = fnv1a(m->name, m->name_len);
        }
        char c = *m->trail_end;
        p = m->trail_end + 1;
        if (c == '}') {
            *after = p;
            return n;
        }
        if (c != ',')
            return (size_t)-1;
    }
}

static const char *emit_object(rewriter *rw, const char *p, int depth)
{
    member *ms;
    const char *after;
    size_t n = scan_members(rw, p, &ms, &after);
    if (n == (size_t)-1) {
        free(ms);
        return NULL;
    }
    /* order[i]: the member written at position i. */
    member *order = n ? malloc(n * sizeof *order) : NULL;
    if (n && order == NULL) {
        free(ms);
        return NULL;
    }
    if (n)
        memcpy(order, ms, n * sizeof *order);
    if (rw->variant == VARIANT_SORTED && n > 1)
        qsort(order, n, sizeof *order, compare_names);
    if (rw->variant == VARIANT_HASHED && n > 1)
        qsort(order, n, sizeof *order, compare_hashes);
    if (rw->variant == VARIANT_REVERSED) {
        for (size_t i = 0; i < n; i++)
            order[i] = ms[n - 1 - i];
    }
    if (rw->variant == VARIANT_SHUFFLED) {
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)(bench_rand(&rw->rng) % i);
            member t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
    }
    atd_buf_putc(rw->out, '{');
    if (n == 0)
        put_ws(rw, p + 1, after - 1);
    const char *ok = after;
    for (size_t i = 0; i < n && ok != NULL; i++) {
        const member *at = &ms[i], *m = &order[i];
        if (i > 0)
            atd_buf_putc(rw->out, ',');
        put_ws(rw, at->lead, at->key);
        newline(rw, depth + 1);
        if (emit_string(rw, m->key) == NULL) {
            ok = NULL;
            break;
        }
        if (rw->variant == VARIANT_PRETTY)
            put(rw, ": ", 2);
        else
            put(rw, at->colon, (size_t)(at->value - at->colon));
        if (emit_value(rw, m->value, depth + 1) == NULL)
            ok = NULL;
        put_ws(rw, at->value_end, at->trail_end);
    }
    if (n > 0)
        newline(rw, depth);
    atd_buf_putc(rw->out, '}');
    free(order);
    free(ms);
    return ok;
}

static const char *emit_array(rewriter *rw, const char *p, int depth)
{
    atd_buf_putc(rw->out, '[');
    p++;
    const char *q = skip_ws(p, rw->end);
    if (q < rw->end && *q == ']') {
        put_ws(rw, p, q);
        atd_buf_putc(rw->out, ']');
        return q + 1;
    }
    for (;;) {
        q = skip_ws(p, rw->end);
        put_ws(rw, p, q);
        newline(rw, depth + 1);
        if ((p = emit_value(rw, q, depth + 1)) == NULL)
            return NULL;
        q = skip_ws(p, rw->end);
        put_ws(rw, p, q);
        if (q >= rw->end)
            return NULL;
        if (*q == ']') {
            newline(rw, depth);
            atd_buf_putc(rw->out, ']');
            return q + 1;
        }
        if (*q != ',')
            return NULL;
        atd_buf_putc(rw->out, ',');
        p = q + 1;
    }
}

/* Writes the value at p; returns the byte after it. */
static const char *emit_value(rewriter *rw, const char *p, int depth)
{
    if (depth > MAX_DEPTH || p >= rw->end)
        return NULL;
    if (*p == '"')
        return emit_string(rw, p);
    if (*p == '{')
        return emit_object(rw, p, depth);
    if (*p == '[')
        return emit_array(rw, p, depth);
    const char *q = skip_value(p, rw->end);
    if (q == p)
        return NULL;
    put(rw, p, (size_t)(q - p));
    return q;
}

bool variant_text(const char *json, size_t len, doc_variant variant, atd_buf *out)
{
    rewriter rw = {json + len, variant, out, {0}, NULL, 0x8f1bbcdcca62c1d6u};
    atd_buf_init(&rw.scratch);
    rw.keys = atd_arena_new(0, NULL);
    const char *end = json + len;
    const char *p = skip_ws(json, end);
    put_ws(&rw, json, p);
    bool ok = rw.keys != NULL && (p = emit_value(&rw, p, 0)) != NULL;
    if (ok) {
        const char *q = skip_ws(p, end);
        ok = q == end;
        put_ws(&rw, p, q);
        if (variant == VARIANT_PRETTY)
            atd_buf_putc(out, '\n');
    }
    atd_buf_free(&rw.scratch);
    atd_arena_free(rw.keys);
    return ok && out->status == 0;
}
