/* Converter used by the differential test against atdgen, built once per
 * schema with -DSCHEMA_H="x.h" -DROOT=x_t (the type of one document):
 *   bin_tool json2bin   JSON documents, one per line -> biniou as hex, one per line
 *   bin_tool json2json  JSON documents -> JSON documents (read, then written again)
 *   bin_tool bin2json   biniou as hex, one per line  -> JSON, one per line
 *   bin_tool bin2bin    biniou as hex -> biniou as hex (read, then written again)
 *   bin_tool mutate-bin SEED K    K mutations of each biniou hex line (hex lines)
 *   bin_tool mutate-json SEED K   K mutations of each JSON line (JSON lines)
 * A document that is rejected gives the line "ERR CODE" (and its message on
 * stderr with -v), so that line i of the output always answers line i of the input. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include SCHEMA_H

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define ROOT_FROM_BINIOU CAT(ROOT, _from_biniou)
#define ROOT_TO_BINIOU CAT(ROOT, _to_biniou)
#define ROOT_WRITE CAT(ROOT, _write)
#define ROOT_READ CAT(ROOT, _read)

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

/* A small deterministic generator (xorshift64*), the same on every platform. */
static uint64_t rng_state;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717u;
}

/* One mutation of s[0..n) into out (capacity n + 1): truncation, a flipped
 * byte, a deleted byte, or (JSON) a byte replaced by one that matters to the
 * grammar. Returns the new length. */
static size_t mutate(const char *s, size_t n, char *out, int json)
{
    static const char grammar[] = "{}[],:\"0-.e tn\\";
    memcpy(out, s, n);
    if (n == 0)
        return 0;
    size_t at = (size_t)(rng() % n);
    switch (rng() % 4) {
    case 0:
        return at; /* truncated */
    case 1:
        if (json)
            out[at] = grammar[rng() % (sizeof grammar - 1)];
        else
            out[at] = (char)(out[at] ^ (char)(1 + rng() % 255));
        return n;
    case 2:
        memmove(out + at, out + at + 1, n - at - 1);
        return n - 1;
    default:
        out[at] = json ? grammar[rng() % (sizeof grammar - 1)] : (char)(rng() % 27);
        return n;
    }
}

static int run_mutate(int json, unsigned long seed, unsigned long k)
{
    char *line = NULL, *out = NULL;
    size_t cap = 0, ocap = 0, lineno = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, stdin)) >= 0) {
        size_t n = (size_t)got;
        if (n > 0 && line[n - 1] == '\n')
            n--;
        if (!json) {
            long len = unhex(line, n);
            if (len < 0)
                return 2;
            n = (size_t)len;
        }
        if (n + 1 > ocap) {
            ocap = n + 1;
            out = realloc(out, ocap);
            if (out == NULL)
                return 2;
        }
        rng_state = (seed * 1000003u + lineno++) * 0x9e3779b97f4a7c15u + 1;
        for (unsigned long i = 0; i < k; i++) {
            size_t m = mutate(line, n, out, json);
            if (json) {
                fwrite(out, 1, m, stdout);
                putchar('\n');
            } else {
                put_hex(out, m);
            }
        }
    }
    free(line);
    free(out);
    return 0;
}

/* JSON as atdgen writes it from bytes it read from biniou: strings as they
 * are, even when they are not UTF-8 (biniou strings are bytes). */
static int to_json_raw(const ROOT *v, atd_buf *out, atd_error *err)
{
    atd_writer w;
    atd_writer_init(&w, out, ATD_WRITE_ALLOW_INVALID_UTF8);
    if (ROOT_WRITE(&w, v) && out->status == 0)
        return 0;
    if (w.err_code == ATD_ERR_OK)
        atd_writer_fail_buf(&w);
    return atd_writer_get_error(&w, err);
}

/* JSON read as atdgen reads it: with the leniencies of atd-spec 11 (invalid
 * UTF-8, comments, text after the value...), which atdc's default strict
 * mode rejects by design. */
static int from_json_lenient(const char *json, size_t len, atd_arena *a, ROOT *v, atd_error *err)
{
    atd_reader r;
    atd_reader_init(&r, json, len, a, ATD_READ_LENIENT);
    if (ROOT_READ(&r, v) && atd_read_end(&r))
        return 0;
    return atd_reader_get_error(&r, err);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s json2bin|bin2json|bin2bin [-v]\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    if (strncmp(mode, "mutate-", 7) == 0 && argc == 4)
        return run_mutate(strcmp(mode, "mutate-json") == 0, strtoul(argv[2], NULL, 10),
                          strtoul(argv[3], NULL, 10));
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
        if (strncmp(mode, "json2", 5) == 0) {
            rc = from_json_lenient(line, n, arena, &v, &err);
            if (rc == 0)
                rc = strcmp(mode, "json2json") == 0 ? to_json_raw(&v, &out, &err)
                                                    : ROOT_TO_BINIOU(&v, &out, &err);
        } else {
            long len = unhex(line, n);
            if (len < 0) {
                fprintf(stderr, "bad hex line\n");
                return 2;
            }
            rc = ROOT_FROM_BINIOU(line, (size_t)len, arena, &v, &err);
            if (rc == 0)
                rc = strcmp(mode, "bin2json") == 0 ? to_json_raw(&v, &out, &err)
                                                   : ROOT_TO_BINIOU(&v, &out, &err);
        }
        if (rc != 0) {
            if (verbose)
                fprintf(stderr, "%s\n", err.message);
            printf("ERR %s\n", atd_error_code_name(err.code));
        } else if (strcmp(mode + strlen(mode) - 4, "json") == 0) {
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
