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
    for (; i < t.len && ((t.p[i] >= '0' && t.p[i] <= '9') || t.p[i] == '_'); i++)
        if (t.p[i] != '_')
            buf[n++] = t.p[i];
    if (i < t.len && t.p[i] == '.') {
        point = true;
        buf[n++] = t.p[i++];
        for (; i < t.len && ((t.p[i] >= '0' && t.p[i] <= '9') || t.p[i] == '_'); i++)
            if (t.p[i] != '_')
                buf[n++] = t.p[i];
    }
    if (i < t.len && (t.p[i] == 'e' || t.p[i] == 'E')) {
        exponent = true;
        buf[n++] = 'e';
        i++;
        if (i < t.len && (t.p[i] == '+' || t.p[i] == '-'))
            buf[n++] = t.p[i++];
        if (i >= t.len || t.p[i] < '0' || t.p[i] > '9')
            return false;
        for (; i < t.len && ((t.p[i] >= '0' && t.p[i] <= '9') || t.p[i] == '_'); i++)
            if (t.p[i] != '_')
                buf[n++] = t.p[i];
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

static bool check_default_constructor(atd_arena *a, check_default_text t, check_default_value *out)
{
    size_t i = t.len > 0 && t.p[0] == '`' ? 1 : 0;
    if (i >= t.len || t.p[i] < 'A' || t.p[i] > 'Z')
        return false;
    for (size_t k = i + 1; k < t.len; k++) {
        char c = t.p[k];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '\''))
            return false;
    }
    out->name = atd_arena_strdup(a, t.p + i, t.len - i);
    return out->name != NULL;
}

/* `[ ]` and `[| |]` with blanks inside. */
static bool check_default_empty_list(check_default_text t)
{
    if (t.len < 2 || t.p[0] != '[' || t.p[t.len - 1] != ']')
        return false;
    check_default_text in = {t.p + 1, t.len - 2};
    in = check_default_trim(in);
    if (in.len == 0)
        return true;
    if (in.len < 2 || in.p[0] != '|' || in.p[in.len - 1] != '|')
        return false;
    check_default_text bars = {in.p + 1, in.len - 2};
    return check_default_trim(bars).len == 0;
}

check_default_kind check_default_parse(atd_arena *a, const char *text, size_t len,
                                       check_default_value *out)
{
    memset(out, 0, sizeof *out);
    check_default_text t = {text, len};
    t = check_default_trim(t);
    /* Parentheses around a literal, as in (-3), only group. */
    while (t.len > 2 && t.p[0] == '(' && t.p[t.len - 1] == ')') {
        check_default_text in = {t.p + 1, t.len - 2};
        in = check_default_trim(in);
        if (in.len == 0)
            break;
        t = in;
    }
    check_default_text unit_in = {t.p + 1, t.len > 1 ? t.len - 2 : 0};
    if (t.len >= 2 && t.p[0] == '(' && t.p[t.len - 1] == ')' &&
        check_default_trim(unit_in).len == 0)
        out->kind = CHECK_DEFAULT_UNIT;
    else if (check_default_is(t, "true") || check_default_is(t, "false")) {
        out->kind = CHECK_DEFAULT_BOOL;
        out->b = t.p[0] == 't';
    } else if (check_default_empty_list(t))
        out->kind = CHECK_DEFAULT_EMPTY_LIST;
    else if (check_default_int(t, &out->i))
        out->kind = CHECK_DEFAULT_INT;
    else if (check_default_float(t, &out->f))
        out->kind = CHECK_DEFAULT_FLOAT;
    else if (check_default_string(a, t, out))
        out->kind = CHECK_DEFAULT_STRING;
    else if (check_default_constructor(a, t, out))
        out->kind = strcmp(out->name, "None") == 0 && t.p[0] != '`' ? CHECK_DEFAULT_NONE
                                                                    : CHECK_DEFAULT_CONSTRUCTOR;
    else
        out->kind = CHECK_DEFAULT_INVALID;
    return out->kind;
}
