/* Error codes and the parts of error reporting that do not need a reader:
 * code names and descriptions (both expanded from ATD_ERROR_LIST, so they
 * cannot drift from the enum), turning a byte offset into line and column,
 * and filling an atd_error for errors that have no input position (writers).
 *
 * Nothing here runs on a successful read: line and column are computed only
 * when an error is reported, by one pass over the input before the offset. */
#include "atd/error.h"

#include <stdio.h>
#include <string.h>

#include "error_message.h"

static const char *const code_names[] = {
#define ATD__ERROR_NAME(name, text) #name,
    ATD_ERROR_LIST(ATD__ERROR_NAME)
#undef ATD__ERROR_NAME
};

static const char *const code_texts[] = {
#define ATD__ERROR_TEXT(name, text) text,
    ATD_ERROR_LIST(ATD__ERROR_TEXT)
#undef ATD__ERROR_TEXT
};

const char *atd_error_code_name(atd_error_code code)
{
    /* The cast keeps out-of-range values (from a corrupted or foreign int)
     * from indexing outside the table. */
    if ((unsigned)code >= (unsigned)ATD_ERR__COUNT)
        return "UNKNOWN";
    return code_names[code];
}

const char *atd_error_code_text(atd_error_code code)
{
    if ((unsigned)code >= (unsigned)ATD_ERR__COUNT)
        return "unknown error";
    return code_texts[code];
}

void atd_error_locate(const char *input, size_t len, size_t offset, size_t *line, size_t *column)
{
    /* Only LF ends a line, which makes CR LF count once; a lone CR is not a
     * line break (JSON inputs with old Mac line ends are not worth a rule). */
    if (offset > len)
        offset = len;
    size_t l = 1;
    size_t line_start = 0;
    const char *p = input;
    const char *stop = input ? input + offset : NULL;
    while (p && p < stop) {
        const char *nl = memchr(p, '\n', (size_t)(stop - p));
        if (!nl)
            break;
        l++;
        line_start = (size_t)(nl - input) + 1;
        p = nl + 1;
    }
    if (line)
        *line = l;
    if (column)
        *column = offset - line_start + 1;
}

/* Appends src to dst (of capacity cap, holding *len bytes), keeping a NUL
 * terminator; silently truncates. */
static void append(char *dst, size_t cap, size_t *len, const char *src)
{
    size_t n = strlen(src);
    if (*len + 1 >= cap)
        return;
    if (n > cap - 1 - *len)
        n = cap - 1 - *len;
    memcpy(dst + *len, src, n);
    *len += n;
    dst[*len] = '\0';
}

void atd__error_describe(atd_error *err, atd__error_at at, const char *detail)
{
    size_t dlen = 0;
    err->detail[0] = '\0';
    append(err->detail, sizeof err->detail, &dlen, detail);
    int n = 0;
    if (at == ATD__AT_LINE)
        n = snprintf(err->message, sizeof err->message, "line %zu, column %zu, ", err->line,
                     err->column);
    else if (at == ATD__AT_BYTE)
        n = snprintf(err->message, sizeof err->message, "byte %zu, ", err->offset);
    size_t mlen = n > 0 ? (size_t)n : 0;
    err->message[mlen] = '\0';
    if (err->path[0] != '\0') {
        append(err->message, sizeof err->message, &mlen, "at ");
        append(err->message, sizeof err->message, &mlen, err->path);
        append(err->message, sizeof err->message, &mlen, ": ");
    }
    append(err->message, sizeof err->message, &mlen, err->detail);
}

void atd_error_set(atd_error *err, atd_error_code code, const char *path, const char *detail)
{
    if (!err)
        return;
    err->code = code;
    err->offset = 0;
    err->line = 0;
    err->column = 0;
    size_t plen = 0;
    err->path[0] = '\0';
    if (path)
        append(err->path, sizeof err->path, &plen, path);
    if (!detail || !*detail)
        detail = atd_error_code_text(code);
    atd__error_describe(err, ATD__AT_NONE, detail);
}

size_t atd_error_format(const atd_error *err, const char *file, char *out, size_t n)
{
    char pos[64] = "";
    if (err->line != 0)
        snprintf(pos, sizeof pos, "%zu:%zu: ", err->line, err->column);
    else if (err->offset != 0)
        snprintf(pos, sizeof pos, "byte %zu: ", err->offset);
    bool named = file != NULL && *file != '\0';
    /* "FILE:3:7: ..." but "FILE: byte 9: ..." and "FILE: ...". */
    const char *sep = !named ? "" : err->line != 0 ? ":" : ": ";
    bool has_path = err->path[0] != '\0';
    int len = snprintf(out, n, "%s%s%s%s%s%s%s", named ? file : "", sep, pos, err->detail,
                       has_path ? " (at " : "", has_path ? err->path : "", has_path ? ")" : "");
    return len > 0 ? (size_t)len : 0;
}
