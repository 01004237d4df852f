/* <c default="..."> (check_cdefault.h): what the C text of a default means
 * for each kind of type, and a diagnostic at the annotation when the text
 * cannot be a constant of that type. The text is C, so it is not parsed in
 * full: only its lexical shape is checked (a string literal, a braced
 * initializer, anything else), which catches the mistakes that would make
 * the generated code fail to compile or dangle, and leaves every other
 * constant expression (macros, enum constants, arithmetic) to the C
 * compiler. */
#include "check_cdefault.h"
#include "check/check_ctext.h"
#include "util/utf8.h"
#include "atd/suggest.h"

#include <stdbool.h>
#include <string.h>

typedef enum c_shape {
    C_SHAPE_EMPTY,  /* only blanks */
    C_SHAPE_STRING, /* one or more adjacent string literals "a" "b" */
    C_SHAPE_BRACED, /* { ... } */
    C_SHAPE_EXPR,   /* anything else without a string literal */
    C_SHAPE_MIXED   /* anything else with a string literal in it */
} c_shape;

static bool c_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Skips the string literal that starts at text[i] == '"'; returns the index
 * after its closing quote, or 0 when it is not closed on its line. */
static size_t c_skip_string(const char *text, size_t len, size_t i)
{
    for (i++; i < len; i++) {
        if (text[i] == '\\')
            i++;
        else if (text[i] == '"')
            return i + 1;
        else if (text[i] == '\n')
            return 0;
    }
    return 0;
}

static c_shape c_shape_of(const char *text, size_t len)
{
    size_t b = 0, e = len;
    while (b < e && c_blank(text[b]))
        b++;
    while (e > b && c_blank(text[e - 1]))
        e--;
    if (b == e)
        return C_SHAPE_EMPTY;
    if (text[b] == '{' && text[e - 1] == '}')
        return C_SHAPE_BRACED;
    bool only_strings = true, any_string = false;
    for (size_t i = b; i < e;) {
        if (text[i] == '"') {
            size_t next = c_skip_string(text, e, i);
            if (next == 0)
                return C_SHAPE_MIXED;
            any_string = true;
            i = next;
        } else if (text[i] == '\'') {
            /* a character constant, possibly '"' */
            only_strings = false;
            i += i + 1 < e && text[i + 1] == '\\' ? 4 : 3;
        } else {
            if (!c_blank(text[i]))
                only_strings = false;
            i++;
        }
    }
    if (any_string)
        return only_strings ? C_SHAPE_STRING : C_SHAPE_MIXED;
    return C_SHAPE_EXPR;
}

static int c_hex(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Decodes the adjacent C string literals of text (C_SHAPE_STRING) into
 * out, which has room for len bytes (decoding never lengthens). False on
 * an escape that C rejects or that does not give one byte. */
static bool c_decode_strings(const char *text, size_t len, char *out, size_t *n)
{
    *n = 0;
    bool in = false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (!in) {
            in = c == '"';
            continue;
        }
        if (c == '"') {
            in = false;
            continue;
        }
        if (c != '\\') {
            out[(*n)++] = c;
            continue;
        }
        c = text[++i];
        static const char simple_in[] = "ntrabfv\\'\"?";
        static const char simple_out[] = "\n\t\r\a\b\f\v\\'\"?";
        const char *s = strchr(simple_in, c);
        unsigned long v = 0;
        if (s != NULL) {
            out[(*n)++] = simple_out[s - simple_in];
        } else if (c >= '0' && c <= '7') {
            for (int k = 0; k < 3 && text[i] >= '0' && text[i] <= '7'; k++, i++)
                v = v * 8 + (unsigned long)(text[i] - '0');
            i--;
            if (v > 255)
                return false;
            out[(*n)++] = (char)v;
        } else if (c == 'x') {
            int digits = 0;
            while (c_hex(text[i + 1]) >= 0) {
                v = v * 16 + (unsigned long)c_hex(text[++i]);
                if (++digits > 2)
                    return false;
            }
            if (digits == 0)
                return false;
            out[(*n)++] = (char)v;
        } else if (c == 'u' || c == 'U') {
            int want = c == 'u' ? 4 : 8;
            for (int k = 0; k < want; k++) {
                int h = c_hex(text[i + 1]);
                if (h < 0)
                    return false;
                v = v * 16 + (unsigned long)h;
                i++;
            }
            if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
                return false;
            *n += utf8_encode(out + *n, v);
        } else {
            return false;
        }
    }
    return true;
}

/* <c default="Green"> on an enum or sum: a bare name, compared with the
 * nullary constructors' ATD names. Returns the constructor's enum constant;
 * NULL when it names none, with *near set to the constructor name or enum
 * constant close to it (a likely typo), or NULL when none is (the text is
 * then a C constant expression, a macro maybe). */
static const char *constructor_named(const ir_type *t, const char *text, size_t len,
                                     const char **near)
{
    *near = NULL;
    while (len > 0 && c_blank(*text)) {
        text++;
        len--;
    }
    while (len > 0 && c_blank(text[len - 1]))
        len--;
    for (size_t i = 0; i < len; i++)
        if (!((text[i] >= 'a' && text[i] <= 'z') || (text[i] >= 'A' && text[i] <= 'Z') ||
              (text[i] >= '0' && text[i] <= '9') || text[i] == '_' || text[i] == '\''))
            return NULL;
    atd_suggest s;
    atd_suggest_init(&s, text, len);
    for (size_t i = 0; i < t->ncases; i++) {
        const ir_case *k = &t->cases[i];
        if (k->arg.type != NULL || k->catch_all)
            continue;
        if (strlen(k->atd_name) == len && memcmp(k->atd_name, text, len) == 0)
            return k->const_name;
        if (strlen(k->const_name) == len && memcmp(k->const_name, text, len) == 0)
            return k->const_name;
        atd_suggest_offer(&s, k->atd_name, strlen(k->atd_name));
        atd_suggest_offer(&s, k->const_name, strlen(k->const_name));
    }
    *near = s.best; /* a constructor's ATD name or enum constant, NUL-terminated */
    return NULL;
}

static void bad_default(diag_ctx *diag, const ast_annot_field *f, const ir_type *t,
                        const char *expected)
{
    if (diag == NULL)
        return;
    ast_loc loc = f->value != NULL ? f->value_loc : f->loc;
    diag_error(diag, loc, "invalid <c default> for type '%s' (C type %s): expected %s",
               t->atd_name != NULL ? t->atd_name : t->name, t->name, expected);
}

bool check_cdefault(diag_ctx *diag, atd_arena *arena, const ast_annot_field *f, const ir_type *t,
                    ir_default *d, bool *oom)
{
    memset(d, 0, sizeof *d);
    const char *text = f->value != NULL ? f->value : "";
    size_t len = f->value != NULL ? f->value_len : 0;
    if (memchr(text, '\0', len) != NULL) {
        bad_default(diag, f, t, "C text without NUL bytes");
        return false;
    }
    const char *problem = check_ctext_problem(text, len);
    if (problem != NULL && diag == NULL)
        return false;
    if (problem != NULL) {
        ast_loc loc = f->value != NULL ? f->value_loc : f->loc;
        diag_error(diag, loc, "invalid <c default> for type '%s' (C type %s): the C text has %s",
                   t->atd_name != NULL ? t->atd_name : t->name, t->name, problem);
        return false;
    }
    c_shape shape = c_shape_of(text, len);
    if ((t->kind == IR_ENUM || t->kind == IR_SUM) && shape == C_SHAPE_EXPR && !t->imported) {
        /* a constructor's ATD name or enum constant sets the tag alone */
        const char *near = NULL;
        const char *tag = constructor_named(t, text, len, &near);
        if (tag != NULL) {
            d->kind = IR_DEFAULT_EXPR;
            d->c_expr = tag;
            return true;
        }
        if (near != NULL && diag == NULL)
            return false;
        if (near != NULL) {
            diag_error(diag, f->value != NULL ? f->value_loc : f->loc,
                       "invalid <c default> for type '%s': '%.*s' is not one of its "
                       "constructors; did you mean '%s'?",
                       t->atd_name, (int)len, text, near);
            return false;
        }
    }
    switch (t->kind) {
    case IR_STRING:
        if (shape == C_SHAPE_BRACED)
            break; /* an atd_string initializer such as {0} */
        if (shape != C_SHAPE_STRING) {
            bad_default(diag, f, t, "a C string literal, as in <c default=\"\\\"none\\\"\">");
            return false;
        }
        {
            char *bytes = atd_arena_alloc(arena, len + 1, 1);
            size_t n = 0;
            if (bytes == NULL) {
                *oom = true;
                return false;
            }
            if (!c_decode_strings(text, len, bytes, &n)) {
                bad_default(diag, f, t, "a C string literal with valid escapes");
                return false;
            }
            bytes[n] = '\0';
            d->kind = IR_DEFAULT_STRING;
            d->bytes = bytes;
            d->len = n;
            return true;
        }
    case IR_UNIT:
        bad_default(diag, f, t, "no <c default>: a unit field is always 0");
        return false;
    case IR_ENUM:
    case IR_BOOL:
    case IR_INT:
    case IR_FLOAT:
        if (shape != C_SHAPE_EXPR) {
            bad_default(diag, f, t,
                        t->kind == IR_ENUM ? "a C constant expression such as one of its enum "
                                             "constants"
                                           : "a C constant expression");
            return false;
        }
        d->kind = IR_DEFAULT_EXPR;
        d->c_expr = text;
        return true;
    case IR_SUM:
    case IR_LIST:
    case IR_ASSOC:
    case IR_OPTION:
    case IR_NULLABLE:
    case IR_RECORD:
    case IR_TUPLE:
    case IR_ABSTRACT:
    case IR_WRAP:
        break;
    }
    /* A struct is initialized by braces; a bare expression (an enum
     * constant for a string option) would not compile. A wrapped type may
     * be any C type, so it takes either. */
    if (shape != C_SHAPE_BRACED && (shape != C_SHAPE_EXPR || t->kind != IR_WRAP)) {
        bad_default(diag, f, t, "a braced initializer of the C type, as in <c default=\"{...}\">");
        return false;
    }
    d->kind = IR_DEFAULT_OPAQUE;
    d->c_expr = text;
    return true;
}
