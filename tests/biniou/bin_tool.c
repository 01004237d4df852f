/* Converter used by the differential test against atdgen, built once per
 * schema with -DSCHEMA_H="x.h" -DROOT=x_t (the type of one document):
 *   bin_tool json2bin   JSON documents, one per line -> biniou as hex, one per line
 *   bin_tool bin2json   biniou as hex, one per line  -> JSON, one per line
 *   bin_tool bin2bin    biniou as hex -> biniou as hex (read, then written again)
 * A document that is rejected gives the line "ERR" (and its message on stderr
 * with -v), so that line i of the output always answers line i of the input. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include SCHEMA_H

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define ROOT_FROM_JSON CAT(ROOT, _from_json)
#define ROOT_TO_JSON CAT(ROOT, _to_json)
#define ROOT_FROM_BINIOU CAT(ROOT, _from_biniou)
#define ROOT_TO_BINIOU CAT(ROOT, _to_biniou)

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes hex in place; returns the byte count, or -1. */
static long unhex(char *s, size_t n)
{
    if (n % 2 != 0)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval((unsigned char)s[2 * i]), lo = hexval((unsigned char)s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        s[i] = (char)(hi * 16 + lo);
    }
    return (long)(n / 2);
}

static void put_hex(const char *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        putchar(digits[(unsigned char)p[i] >> 4]);
        putchar(digits[(unsigned char)p[i] & 15]);
    }
    putchar('\n');
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s json2bin|bin2json|bin2bin [-v]\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    int verbose = argc > 2 && strcmp(argv[2], "-v") == 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL)
        return 2;
    atd_buf out;
    atd_buf_init(&out);
    while ((got = getline(&line, &cap, stdin)) >= 0) {
        size_t n = (size_t)got;
        if (n > 0 && line[n - 1] == '\n')
            n--;
        ROOT v;
        atd_error err;
        int rc;
        atd_arena_reset(arena);
        atd_buf_clear(&out);
        if (strcmp(mode, "json2bin") == 0) {
            rc = ROOT_FROM_JSON(line, n, arena, &v, &err);
            if (rc == 0)
                rc = ROOT_TO_BINIOU(&v, &out, &err);
        } else {
            long len = unhex(line, n);
            if (len < 0) {
                fprintf(stderr, "bad hex line\n");
                return 2;
            }
            rc = ROOT_FROM_BINIOU(line, (size_t)len, arena, &v, &err);
            if (rc == 0)
                rc = strcmp(mode, "bin2json") == 0 ? ROOT_TO_JSON(&v, &out, &err)
                                                   : ROOT_TO_BINIOU(&v, &out, &err);
        }
        if (rc != 0) {
            if (verbose)
                fprintf(stderr, "%s\n", err.message);
            puts("ERR");
        } else if (strcmp(mode, "bin2json") == 0) {
            fwrite(out.data, 1, out.len, stdout);
            putchar('\n');
        } else {
            put_hex(out.data, out.len);
        }
    }
    free(line);
    atd_buf_free(&out);
    atd_arena_free(arena);
    return 0;
}
