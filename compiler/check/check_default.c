/* Parser for the <ocaml default> literals atdc translates (check_default.h).
 * It accepts exactly OCaml's lexical syntax for each literal kind and
 * nothing more: anything else in an OCaml default is an OCaml expression
 * whose C meaning we cannot know, so the user must give <c default>. */
#include "check_default.h"
#include "util/utf8.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct check_default_text {
    const char *p;
    size_t len;
} check_default_text;

static bool check_default_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static check_default_text check_default_trim(check_default_text t)
{
    while (t.len > 0 && check_default_space(t.p[0])) {
        t.p++;
        t.len--;
    }
    while (t.len > 0 && check_default_space(t.p[t.len - 1]))
        t.len--;
    return t;
}

static bool check_default_is(check_default_text t, const char *word)
{
    return t.len == strlen(word) && memcmp(t.p, word, t.len) == 0;
}

static int check_default_digit(char c, int base)
{
    int v = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : 99;
    return v < base ? v : -1;
}

/* -?(0x|0o|0b)?digits with `_` after the first digit, optional l/L/n. */
static bool check_default_int(check_default_text t, int64_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < t.len && t.p[i] == '-') {
        neg = true;
        i++;
    }
    int base = 10;
    if (i + 1 < t.len && t.p[i] == '0') {
        char c = t.p[i + 1];
        base = c == 'x' || c == 'X' ? 16 : c == 'o' || c == 'O' ? 8 : c == 'b' || c == 'B' ? 2 : 10;
        if (base != 10)
            i += 2;
    }
    size_t end = t.len;
    if (end > i && (t.p[end - 1] == 'l' || t.p[end - 1] == 'L' || t.p[end - 1] == 'n'))
        end--;
    if (i >= end || check_default_digit(t.p[i], base) < 0)
        return false;
    uint64_t v = 0;
    const uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; i < end; i++) {
        if (t.p[i] == '_')
            continue;
        int d = check_default_digit(t.p[i], base);
        if (d < 0)
            return false;
        if (v > (limit - (uint64_t)d) / (uint64_t)base)
            return false;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return true;
}

/* The digits and underscores of t from *i on, the digits appended to buf
 * at n (buf holds t.len bytes); returns the new n, *i past them. */
static size_t copy_digits(check_default_text t, size_t *i, char *buf, size_t n)
{
    for (; *i < t.len && ((t.p[*i] >= '0' && t.p[*i] <= '9') || t.p[*i] == '_'); (*i)++)
        if (t.p[*i] != '_')
            buf[n++] = t.p[*i];
    return n;
}

/* -?[0-9][0-9_]*(.[0-9_]*)?([eE][+-]?[0-9][0-9_]*)?, with a point or an
 * exponent (else it is an integer). */
static bool check_default_float(check_default_text t, double *out)
{
    char buf[128];
    size_t n = 0, i = 0;
    bool point = false, exponent = false;
    if (t.len >= sizeof buf)
        return false;
    if (i < t.len && t.p[i] == '-')
        buf[n++] = t.p[i++];
    if (i >= t.len || t.p[i] < '0' || t.p[i] > '9')
        return false;
    n = copy_digits(t, &i, buf, n);
    if (i < t.len && t.p[i] == '.') {
        point = true;
        buf[n++] = t.p[i++];
        n = copy_digits(t, &i, buf, n);
    }
    if (i < t.len && (t.p[i] == 'e' || t.p[i] == 'E')) {
        exponent = true;
        buf[n++] = 'e';
        i++;
        if (i < t.len && (t.p[i] == '+' || t.p[i] == '-'))
            buf[n++] = t.p[i++];
        if (i >= t.len || t.p[i] < '0' || t.p[i] > '9')
            return false;
        n = copy_digits(t, &i, buf, n);
    }
    if (i != t.len || (!point && !exponent))
        return false;
    buf[n] = '\0';
    errno = 0;
    double v = strtod(buf, NULL);
    if (!isfinite(v))
        return false;
    *out = v;
    return true;
}

/* One escape after the backslash at p[*i]; appends its bytes to out. */
static bool check_default_escape(const char *p, size_t end, size_t *i, char *out, size_t *n)
{
    size_t k = *i + 1; /* past the backslash */
    if (k >= end)
        return false;
    char c = p[k];
    static const char simple_in[] = "\\\"' ntbr";
    static const char simple_out[] = "\\\"' \n\t\b\r";
    const char *s = strchr(simple_in, c);
    if (s != NULL && c != '\0') {
        out[(*n)++] = simple_out[s - simple_in];
        *i = k + 1;
        return true;
    }
    if (c == '\n' || c == '\r') {
        /* Line continuation: the newline and the next line's blanks vanish. */
        k += c == '\r' && k + 1 < end && p[k + 1] == '\n' ? 2 : 1;
        while (k < end && (p[k] == ' ' || p[k] == '\t'))
            k++;
        *i = k;
        return true;
    }
    unsigned long v = 0;
    if (c >= '0' && c <= '9') {
        for (size_t j = 0; j < 3; j++, k++) {
            if (k >= end || p[k] < '0' || p[k] > '9')
                return false;
            v = v * 10 + (unsigned long)(p[k] - '0');
        }
        if (v > 255)
            return false;
        out[(*n)++] = (char)v;
        *i = k;
        return true;
    }
    if (c == 'x' || c == 'o') {
        int base = c == 'x' ? 16 : 8;
        int digits = c == 'x' ? 2 : 3;
        k++;
        for (int j = 0; j < digits; j++, k++) {
            int d = k < end ? check_default_digit(p[k], base) : -1;
            if (d < 0)
                return false;
            v = v * (unsigned long)base + (unsigned long)d;
        }
        if (v > 255)
            return false;
        out[(*n)++] = (char)v;
        *i = k;
        return true;
    }
    if (c == 'u' && k + 1 < end && p[k + 1] == '{') {
        k += 2;
        int digits = 0;
        while (k < end && p[k] != '}') {
            int d = check_default_digit(p[k], 16);
            if (d < 0 || ++digits > 6)
                return false;
            v = v * 16 + (unsigned long)d;
            k++;
        }
        if (k >= end || digits == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
            return false;
        *n += utf8_encode(out + *n, v);
        *i = k + 1;
        return true;
    }
    return false;
}

static bool check_default_string(atd_arena *a, check_default_text t, check_default_value *out)
{
    if (t.len < 2 || t.p[0] != '"' || t.p[t.len - 1] != '"')
        return false;
    /* Decoding never lengthens: each escape is at least as long as its bytes. */
    char *buf = atd_arena_alloc(a, t.len + 1, 1);
    if (buf == NULL)
        return false;
    size_t n = 0, i = 1, end = t.len - 1;
    while (i < end) {
        if (t.p[i] == '"')
            return false;
        if (t.p[i] == '\\') {
            if (!check_default_escape(t.p, end, &i, buf, &n))
                return false;
        } else {
            buf[n++] = t.p[i++];
        }
    }
    buf[n] = '\0';
    out->s = buf;
    out->len = n;
    return true;
}

/* The index of the quote that closes the string literal opening at
 * t.p[open]; t.len when there is none. */
static size_t check_default_string_end(check_default_text t, size_t open)
{
    for (size_t i = open + 1; i < t.len; i++) {
        if (t.p[i] == '\\')
            i++;
        else if (t.p[i] == '"')
            return i;
    }
    return t.len;
}

/* The index of the bracket that closes the one at t.p[open], skipping
 * string literals; t.len when there is none. */
static size_t check_default_close(check_default_text t, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < t.len; i++) {
        char c = t.p[i];
        if (c == '"') {
            i = check_default_string_end(t, i);
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (--depth == 0)
                return i;
        }
    }
    return t.len;
}

/* Splits t at the `sep` characters outside brackets and strings into at
 * most `max` parts (parts may be NULL to count them); returns the count. A
 * last part that is empty (`[1; 2;]`, `{x = 1;}`) is dropped when
 * `trailing` allows it, as OCaml does for `;`. */
static size_t check_default_split(check_default_text t, char sep, bool trailing,
                                  check_default_text *parts, size_t max)
{
    size_t n = 0, start = 0;
    for (size_t i = 0; i <= t.len; i++) {
        char c = i < t.len ? t.p[i] : sep;
        if (c == '"' || c == '(' || c == '[' || c == '{') {
            size_t close = c == '"' ? check_default_string_end(t, i) : check_default_close(t, i);
            if (close >= t.len)
                return 0; /* not closed: not a value */
            i = close;
            continue;
        }
        if (c != sep)
            continue;
        check_default_text part = check_default_trim((check_default_text){t.p + start, i - start});
        start = i + 1;
        if (part.len == 0 && i == t.len && trailing && n > 0)
            break;
        if (parts != NULL && n < max)
            parts[n] = part;
        n++;
    }
    return n;
}

static bool check_default_value_of(atd_arena *a, check_default_text t, int depth,
                                   check_default_value *out);

/* The values of the `sep`-separated parts of t, into out->args. */
static bool check_default_parts(atd_arena *a, check_default_text t, char sep, int depth,
                                check_default_value *out)
{
    size_t n = check_default_split(t, sep, sep == ';', NULL, 0);
    check_default_text *parts = n ? atd_arena_alloc(a, n * sizeof *parts, 8) : NULL;
    out->args = n ? atd_arena_alloc(a, n * sizeof *out->args, 8) : NULL;
    if (n == 0 || parts == NULL || out->args == NULL)
        return false;
    check_default_split(t, sep, sep == ';', parts, n);
    out->n = n;
    for (size_t i = 0; i < n; i++)
        if (parts[i].len == 0 || !check_default_value_of(a, parts[i], depth + 1, &out->args[i]))
            return false;
    return true;
}

static bool check_default_label_char(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || c == '_' ||
           (!first && ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '\''));
}

/* { x = a; y = b } without the braces. */
static bool check_default_record(atd_arena *a, check_default_text t, int depth,
                                 check_default_value *out)
{
    size_t n = check_default_split(t, ';', true, NULL, 0);
    check_default_text *parts = n ? atd_arena_alloc(a, n * sizeof *parts, 8) : NULL;
    out->args = n ? atd_arena_alloc(a, n * sizeof *out->args, 8) : NULL;
    out->labels = n ? atd_arena_alloc(a, n * sizeof *out->labels, 8) : NULL;
    if (n == 0 || parts == NULL || out->args == NULL || out->labels == NULL)
        return false;
    check_default_split(t, ';', true, parts, n);
    out->n = n;
    for (size_t i = 0; i < n; i++) {
        check_default_text f = parts[i];
        size_t k = 0;
        while (k < f.len && check_default_label_char(f.p[k], k == 0))
            k++;
        check_default_text rest = check_default_trim((check_default_text){f.p + k, f.len - k});
        if (k == 0 || rest.len < 2 || rest.p[0] != '=')
            return false;
        out->labels[i] = atd_arena_strdup(a, f.p, k);
        rest = check_default_trim((check_default_text){rest.p + 1, rest.len - 1});
        if (out->labels[i] == NULL || rest.len == 0 ||
            !check_default_value_of(a, rest, depth + 1, &out->args[i]))
            return false;
    }
    out->kind = CHECK_DEFAULT_RECORD;
    return true;
}

/* A constructor name with an optional backquote, then nothing or its
 * argument. */
static bool check_default_constructor(atd_arena *a, check_default_text t, int depth,
                                      check_default_value *out)
{
    size_t i = t.len > 0 && t.p[0] == '`' ? 1 : 0;
    if (i >= t.len || t.p[i] < 'A' || t.p[i] > 'Z')
        return false;
    size_t k = i + 1;
    while (k < t.len && ((t.p[k] >= 'a' && t.p[k] <= 'z') || (t.p[k] >= 'A' && t.p[k] <= 'Z') ||
                         (t.p[k] >= '0' && t.p[k] <= '9') || t.p[k] == '_' || t.p[k] == '\''))
        k++;
    out->name = atd_arena_strdup(a, t.p + i, k - i);
    if (out->name == NULL)
        return false;
    check_default_text arg = check_default_trim((check_default_text){t.p + k, t.len - k});
    bool plain = i == 0;
    if (arg.len == 0) {
        out->kind = plain && strcmp(out->name, "None") == 0 ? CHECK_DEFAULT_NONE
                                                            : CHECK_DEFAULT_CONSTRUCTOR;
        return true;
    }
    /* an argument follows a blank or starts with a bracket or a quote; a
     * sign would make OCaml read a subtraction */
    if ((arg.p == t.p + k && strchr("([{\"", arg.p[0]) == NULL) || arg.p[0] == '-')
        return false;
    out->args = atd_arena_alloc(a, sizeof *out->args, 8);
    if (out->args == NULL || !check_default_value_of(a, arg, depth + 1, out->args))
        return false;
    out->n = 1;
    out->kind =
        plain && strcmp(out->name, "Some") == 0 ? CHECK_DEFAULT_SOME : CHECK_DEFAULT_CONSTRUCTOR;
    return true;
}

static bool check_default_value_of(atd_arena *a, check_default_text t, int depth,
                                   check_default_value *out)
{
    memset(out, 0, sizeof *out);
    t = check_default_trim(t);
    if (depth > CHECK_DEFAULT_MAX_DEPTH || t.len == 0)
        return false;
    char first = t.p[0];
    /* t is one bracketed group: in is what it holds */
    bool whole =
        (first == '(' || first == '[' || first == '{') && check_default_close(t, 0) == t.len - 1;
    check_default_text in = {t.p, 0};
    if (whole)
        in = check_default_trim((check_default_text){t.p + 1, t.len - 2});
    if (whole && first == '(') {
        /* (), a parenthesized value, or a tuple */
        if (in.len == 0) {
            out->kind = CHECK_DEFAULT_UNIT;
            return true;
        }
        if (check_default_split(in, ',', false, NULL, 0) == 1)
            return check_default_value_of(a, in, depth + 1, out);
    }
    if (check_default_split(t, ',', false, NULL, 0) > 1 || (whole && first == '(')) {
        out->kind = CHECK_DEFAULT_TUPLE;
        return check_default_parts(a, whole && first == '(' ? in : t, ',', depth, out);
    }
    if (whole && first == '[') {
        /* [| ... |] is an array, a list to ATD */
        if (in.len >= 2 && in.p[0] == '|' && in.p[in.len - 1] == '|')
            in = check_default_trim((check_default_text){in.p + 1, in.len - 2});
        if (in.len == 0) {
            out->kind = CHECK_DEFAULT_EMPTY_LIST;
            return true;
        }
        out->kind = CHECK_DEFAULT_LIST;
        return check_default_parts(a, in, ';', depth, out);
    }
    if (whole && first == '{')
        return check_default_record(a, in, depth, out);
    if (check_default_is(t, "true") || check_default_is(t, "false")) {
        out->kind = CHECK_DEFAULT_BOOL;
        out->b = first == 't';
    } else if (check_default_int(t, &out->i)) {
        out->kind = CHECK_DEFAULT_INT;
    } else if (check_default_float(t, &out->f)) {
        out->kind = CHECK_DEFAULT_FLOAT;
    } else if (check_default_string(a, t, out)) {
        out->kind = CHECK_DEFAULT_STRING;
    } else {
        return check_default_constructor(a, t, depth, out);
    }
    return true;
}

check_default_kind check_default_parse(atd_arena *a, const char *text, size_t len,
                                       check_default_value *out)
{
    if (!check_default_value_of(a, (check_default_text){text, len}, 0, out))
        memset(out, 0, sizeof *out); /* CHECK_DEFAULT_INVALID */
    return out->kind;
}
