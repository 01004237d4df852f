/* Token-level checks of C text from a schema (check_ctext.h). The text is
 * pasted into generated code as `x = (T)(TEXT);` or `static const T d =
 * TEXT;`, so anything that can end that statement early, hide the rest of
 * the line, or leave a bracket or literal open must be refused here, where
 * the annotation's position is known: comments, ';', '#', a backslash
 * outside a literal (a line splice), unterminated literals, unbalanced
 * brackets, and the plainest grammar slips: two operands in a row (`1 2`,
 * `x y`; adjacent string literals and a cast's `(T)x` are fine) and an
 * operator at the end (`1 +`). Everything else (which names exist, what
 * macros expand to, types) is the C compiler's to judge. */
#include "check_ctext.h"

#include <stdbool.h>
#include <string.h>

/* Deep enough for any real initializer; deeper is refused, not a crash. */
#define MAX_NESTING 64

/* Skips the literal opened by text[i] (a '"' or '\''); returns the index
 * after its closing quote, or 0 when it is not closed on its line. */
static size_t skip_literal(const char *text, size_t len, size_t i)
{
    char quote = text[i];
    for (i++; i < len; i++) {
        if (text[i] == '\\') {
            i++;
            if (i >= len || text[i] == '\n')
                return 0;
        } else if (text[i] == quote) {
            return i + 1;
        } else if (text[i] == '\n') {
            return 0;
        }
    }
    return 0;
}

static bool ident_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* The end of the identifier or preprocessing number at text[i]. */
static size_t skip_word(const char *text, size_t len, size_t i)
{
    bool number = text[i] >= '0' && text[i] <= '9';
    for (i++; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (number && (c == '+' || c == '-') && strchr("eEpP", text[i - 1]) != NULL)
            continue;
        if (!ident_char(c) && !(number && c == '.'))
            break;
    }
    return i;
}

/* Operators that take an operand before them: words that are operators. */
static bool is_operator_word(const char *w, size_t n)
{
    return (n == 6 && memcmp(w, "sizeof", 6) == 0) || (n == 8 && memcmp(w, "_Alignof", 8) == 0);
}

/* Whether only blanks stand between text[i] ('}') and the '{' before it. */
static bool last_open_is_brace(const char *text, size_t i)
{
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n' ||
                     text[i - 1] == '\r'))
        i--;
    return i > 0 && text[i - 1] == '{';
}

static char closing(char open)
{
    return open == '(' ? ')' : open == '[' ? ']' : '}';
}

const char *check_ctext_problem(const char *text, size_t len)
{
    char open[MAX_NESTING];
    size_t depth = 0;
    /* the previous token: an operand (and whether a string literal), a
     * closing bracket, an operator, or none yet */
    enum { NONE, OPERAND, STRING, CLOSE, OPERATOR } prev = NONE;
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)text[i];
        if (c == '"' || c == '\'') {
            size_t next = skip_literal(text, len, i);
            if (next == 0)
                return c == '"' ? "an unterminated string literal"
                                : "an unterminated character constant";
            if (prev == OPERAND || (prev == STRING && c == '\''))
                return "two operands in a row";
            prev = c == '"' ? STRING : OPERAND;
            i = next;
            continue;
        }
        if (ident_char(c) || (c == '.' && i + 1 < len && text[i + 1] >= '0' && text[i + 1] <= '9')) {
            size_t next = skip_word(text, len, i);
            bool op = is_operator_word(text + i, next - i);
            if (!op && (prev == OPERAND || prev == STRING))
                return "two operands in a row";
            prev = op ? OPERATOR : OPERAND;
            i = next;
            continue;
        }
        if (c == '/' && i + 1 < len && (text[i + 1] == '*' || text[i + 1] == '/'))
            return "a comment";
        if (c == ';')
            return "';', which would end the generated statement";
        if (c == '#')
            return "'#', which C allows only in macros";
        if (c == '\\')
            return "a backslash outside a literal";
        if (c == ',' && depth == 0)
            return "a ',' outside brackets (the comma operator is not a constant)";
        if (c == '(' || c == '[' || c == '{') {
            if (depth == MAX_NESTING)
                return "brackets nested too deeply";
            open[depth++] = (char)c;
            prev = NONE;
        } else if (c == ')' || c == ']' || c == '}') {
            if (prev == OPERATOR)
                return "an operator without its operand";
            if (depth == 0 || closing(open[depth - 1]) != (char)c) {
                static const char *const unmatched[] = {
                    "unbalanced brackets: ')' without '('", "unbalanced brackets: ']' without '['",
                    "unbalanced brackets: '}' without '{'"};
                return unmatched[c == ')' ? 0 : c == ']' ? 1 : 2];
            }
            if (c == '}' && last_open_is_brace(text, i))
                return "empty braces (C99 needs at least one initializer)";
            depth--;
            prev = CLOSE;
        } else if (c == ',') {
            if (prev == OPERATOR)
                return "an operator without its operand";
            prev = NONE;
        } else if (c < 0x20 ? c != ' ' && c != '\t' && c != '\n' && c != '\r'
                            : c >= 0x7f || c == '@' || c == '`' || c == '$') {
            return "a character that C allows only in literals";
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            prev = OPERATOR;
        }
        i++;
    }
    if (prev == OPERATOR)
        return "an operator without its operand";
    if (depth != 0) {
        static const char *const unclosed[] = {"unbalanced brackets: '(' not closed",
                                               "unbalanced brackets: '[' not closed",
                                               "unbalanced brackets: '{' not closed"};
        char o = open[depth - 1];
        return unclosed[o == '(' ? 0 : o == '[' ? 1 : 2];
    }
    return NULL;
}
