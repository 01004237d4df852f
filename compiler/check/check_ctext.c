/* Token-level checks of C text from a schema (check_ctext.h). The text is
 * pasted into generated code as `x = (T)(TEXT);` or `static const T d =
 * TEXT;`, so anything that can end that statement early, hide the rest of
 * the line, or leave a bracket or literal open must be refused here, where
 * the annotation's position is known: comments, ';', '#', a backslash
 * outside a literal (a line splice), unterminated literals, unbalanced
 * brackets. Everything else (names, macros, arithmetic) is the C
 * compiler's to judge. */
#include "check_ctext.h"

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

static char closing(char open)
{
    return open == '(' ? ')' : open == '[' ? ']' : '}';
}

const char *check_ctext_problem(const char *text, size_t len)
{
    char open[MAX_NESTING];
    size_t depth = 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)text[i];
        if (c == '"' || c == '\'') {
            size_t next = skip_literal(text, len, i);
            if (next == 0)
                return c == '"' ? "an unterminated string literal"
                                : "an unterminated character constant";
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
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0 || closing(open[depth - 1]) != (char)c) {
                static const char *const unmatched[] = {
                    "unbalanced brackets: ')' without '('", "unbalanced brackets: ']' without '['",
                    "unbalanced brackets: '}' without '{'"};
                return unmatched[c == ')' ? 0 : c == ']' ? 1 : 2];
            }
            depth--;
        } else if (c < 0x20 ? c != ' ' && c != '\t' && c != '\n' && c != '\r'
                            : c >= 0x7f || c == '@' || c == '`' || c == '$') {
            return "a character that C allows only in literals";
        }
        i++;
    }
    if (depth != 0) {
        static const char *const unclosed[] = {"unbalanced brackets: '(' not closed",
                                               "unbalanced brackets: '[' not closed",
                                               "unbalanced brackets: '{' not closed"};
        char o = open[depth - 1];
        return unclosed[o == '(' ? 0 : o == '[' ? 1 : 2];
    }
    return NULL;
}
