/* atdc-fmt: lays out the JSON document in FILE (or on standard input)
 * indented (default) or compact (-c), on standard output, with
 * atd_json_reformat: the document is validated first, with the reader's
 * strict rules, so invalid JSON prints nothing on standard output and one
 * precise message on standard error. Numbers and strings are copied byte for
 * byte. The help text and docs/atdc-fmt.1 use the same words: change both
 * together. Exit status: 0 success, 1 invalid JSON, 2 usage or I/O error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atd.h"

static const char usage_text[] =
    "Usage: atdc-fmt [OPTIONS] [FILE]\n"
    "Pretty-print (or compact) the JSON document in FILE or on standard input.\n"
    "\n"
    "Options:\n"
    "  -c         compact output: no whitespace outside strings\n"
    "  --help     show this help and exit\n"
    "  --version  show the version and exit\n"
    "\n"
    "FILE may be '-' for standard input. Output ends with a newline.\n"
    "Exit status: 0 success, 1 invalid JSON, 2 usage or I/O error.\n";

/* Reads all of f into a malloc'ed buffer; NULL on error (errno set). */
static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 65536, n = 0;
    char *data = malloc(cap);
    if (data == NULL)
        return NULL;
    for (;;) {
        if (n == cap) {
            char *grown = cap <= SIZE_MAX / 2 ? realloc(data, cap * 2) : NULL;
            if (grown == NULL) {
                free(data);
                errno = ENOMEM;
                return NULL;
            }
            data = grown;
            cap *= 2;
        }
        size_t got = fread(data + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                free(data);
                return NULL;
            }
            break;
        }
    }
    *len = n;
    return data;
}

int main(int argc, char **argv)
{
    bool compact = false;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-c") == 0) {
            compact = true;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("atdc-fmt %s\n", ATD_VERSION_STRING);
            return 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr,
                    "atdc-fmt: error: unknown option '%s'\n"
                    "Try 'atdc-fmt --help' for more information.\n",
                    a);
            return 2;
        } else if (path != NULL) {
            fputs("atdc-fmt: error: more than one FILE\n"
                  "Try 'atdc-fmt --help' for more information.\n",
                  stderr);
            return 2;
        } else {
            path = a;
        }
    }
    bool from_stdin = path == NULL || strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "atdc-fmt: error: cannot open '%s': %s\n", path, strerror(errno));
        return 2;
    }
    size_t len = 0;
    char *json = read_all(f, &len);
    int saved = errno;
    if (!from_stdin)
        fclose(f);
    if (json == NULL) {
        fprintf(stderr, "atdc-fmt: error: cannot read '%s': %s\n", name, strerror(saved));
        return 2;
    }
    atd_buf out;
    if (atd_buf_init_fd(&out, 1) != 0) {
        free(json);
        fputs("atdc-fmt: error: out of memory\n", stderr);
        return 2;
    }
    /* JSON texts must not start with a byte order mark, but parsers may
     * ignore one (RFC 8259, section 8.1): some Windows tools write it. */
    size_t skip = 0;
    if (len >= 3 && memcmp(json, "\xef\xbb\xbf", 3) == 0) {
        fprintf(stderr, "atdc-fmt: %s: warning: UTF-8 byte order mark ignored\n", name);
        skip = 3;
    }
    atd_error err;
    int rc =
        atd_json_reformat(json + skip, len - skip, &out, compact ? 0 : ATD_WRITE_PRETTY, &err);
    free(json);
    int status = 0;
    if (rc != 0 && err.line > 0) {
        fprintf(stderr, "atdc-fmt: %s: %s\n", name, err.message);
        status = 1;
    } else {
        atd_buf_putc(&out, '\n');
        if (rc != 0 || atd_buf_flush(&out) != 0) {
            fprintf(stderr, "atdc-fmt: error: cannot write the output: %s\n",
                    atd_error_code_text((atd_error_code)(rc != 0 ? rc : out.status)));
            status = 2;
        }
    }
    atd_buf_free(&out);
    return status;
}
