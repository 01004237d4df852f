/* C spelling of ATD names (names.h). The keyword list is deliberately wide:
 * generated headers are included from C++ too (extern "C"), and standard
 * headers turn names like `bool`, `and` or `complex` into macros, so a struct
 * member with such a name breaks someone's build even when it is not a C11
 * keyword. Mangling never fails silently into a clash: the checker compares
 * the results and reports two names that meet. */
#include "names.h"

#include <string.h>

/* Sorted, so that lookups can bisect. */
static const char *const names_keywords[] = {
    "NULL",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_BitInt",
    "_Bool",
    "_Complex",
    "_Decimal128",
    "_Decimal32",
    "_Decimal64",
    "_Generic",
    "_Imaginary",
    "_Noreturn",
    "_Pragma",
    "_Static_assert",
    "_Thread_local",
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "assert",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "compl",
    "complex",
    "const",
    "const_cast",
    "constexpr",
    "continue",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "errno",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "imaginary",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "noreturn",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "typeof",
    "typeof_unqual",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
};

/* Compares a counted string with a NUL-terminated one like strcmp. */
static int names_cmp(const char *s, size_t len, const char *kw)
{
    size_t kwlen = strlen(kw);
    size_t n = len < kwlen ? len : kwlen;
    int c = memcmp(s, kw, n);
    if (c != 0)
        return c;
    return len < kwlen ? -1 : len > kwlen ? 1 : 0;
}

bool names_is_keyword(const char *s, size_t len)
{
    size_t lo = 0;
    size_t hi = sizeof names_keywords / sizeof names_keywords[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = names_cmp(s, len, names_keywords[mid]);
        if (c == 0)
            return true;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return false;
}

static bool names_is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool names_is_alnum(char c)
{
    return names_is_alpha(c) || (c >= '0' && c <= '9');
}

bool names_is_c_identifier(const char *s, size_t len)
{
    if (len == 0 || !names_is_alpha(s[0]))
        return false;
    for (size_t i = 1; i < len; i++)
        if (!names_is_alnum(s[i]))
            return false;
    if (s[0] == '_' && len > 1 && (s[1] == '_' || (s[1] >= 'A' && s[1] <= 'Z')))
        return false;
    return !names_is_keyword(s, len);
}

char *names_mangle(atd_arena *a, const char *atd_name)
{
    size_t len = strlen(atd_name);
    size_t primes = 0;
    for (size_t i = 0; i < len; i++)
        primes += atd_name[i] == '\'';
    const char *prefix = "";
    if (atd_name[0] == '_')
        prefix = "x";
    else if (strncmp(atd_name, "atd_", 4) == 0)
        prefix = "x_";
    bool keyword = primes == 0 && prefix[0] == '\0' && names_is_keyword(atd_name, len);
    size_t out_len = strlen(prefix) + len + primes * (sizeof "_prime" - 2) + (keyword ? 1 : 0);
    char *out = atd_arena_alloc(a, out_len + 1, 1);
    if (out == NULL)
        return NULL;
    char *p = out;
    memcpy(p, prefix, strlen(prefix));
    p += strlen(prefix);
    for (size_t i = 0; i < len; i++) {
        if (atd_name[i] == '\'') {
            memcpy(p, "_prime", sizeof "_prime" - 1);
            p += sizeof "_prime" - 1;
        } else {
            *p++ = atd_name[i];
        }
    }
    if (keyword)
        *p++ = '_';
    *p = '\0';
    return out;
}

const char *names_c_name(atd_arena *a, const char *atd_name, const char *c_override)
{
    if (c_override != NULL)
        return c_override;
    return names_mangle(a, atd_name);
}

char *names_upper(atd_arena *a, const char *s)
{
    size_t len = strlen(s);
    char *out = atd_arena_alloc(a, len + 1, 1);
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < len; i++)
        out[i] = s[i] >= 'a' && s[i] <= 'z' ? (char)(s[i] - 'a' + 'A') : s[i];
    out[len] = '\0';
    return out;
}

char *names_base_name(atd_arena *a, const char *path)
{
    if (strcmp(path, "<stdin>") == 0)
        return atd_arena_strdup(a, "stdin", 5);
    const char *slash = strrchr(path, '/');
    const char *file = slash != NULL ? slash + 1 : path;
    const char *dot = strrchr(file, '.');
    size_t n = dot != NULL && dot != file ? (size_t)(dot - file) : strlen(file);
    char *b = atd_arena_strdup(a, file, n);
    if (b == NULL)
        return NULL;
    for (char *p = b; *p != '\0'; p++)
        if (!names_is_alnum(*p))
            *p = '_';
    return b;
}

const char *names_prefix(atd_arena *a, const char *explicit_prefix, const char *base)
{
    const char *p = explicit_prefix != NULL ? explicit_prefix : base;
    size_t n = strlen(p);
    if (explicit_prefix != NULL && (n == 0 || p[n - 1] == '_'))
        return p;
    char *s = atd_arena_alloc(a, n + 2, 1);
    if (s == NULL)
        return NULL;
    memcpy(s, p, n);
    s[n] = '_';
    s[n + 1] = '\0';
    return s;
}

void names_c_string(char *out, const char *bytes, size_t len)
{
    char *p = out;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c == '"' || c == '\\' || c == '?') {
            *p++ = '\\';
            *p++ = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            *p++ = (char)c;
        } else {
            /* always three octal digits, so a following digit cannot extend it */
            *p++ = '\\';
            *p++ = (char)('0' + (c >> 6));
            *p++ = (char)('0' + ((c >> 3) & 7));
            *p++ = (char)('0' + (c & 7));
        }
    }
    *p = 0;
}
