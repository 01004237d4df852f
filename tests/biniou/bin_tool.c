/* Converter used by the differential test against atdgen, built once per
 * schema with -DSCHEMA_H="x.h", -DTYPES_H="diff_types.h" (the X-macro list
 * of the schema's types that gen_docs writes) and -DDIFF_BINIOU when the
 * schema has biniou code. Lines are "TYPE PAYLOAD" (TYPE an ATD name):
 *   bin_tool json2bin   JSON -> biniou as hex
 *   bin_tool json2json  JSON -> JSON (read, then written again)
 *   bin_tool bin2json   biniou as hex -> JSON
 *   bin_tool bin2bin    biniou as hex -> biniou as hex (read, then written again)
 *   bin_tool mutate-bin SEED K    K mutations of each biniou payload
 *   bin_tool mutate-json SEED K   K mutations of each JSON payload
 * A payload that is rejected (or is ERR already) gives "TYPE ERR" (and the
 * message on stderr with -v), so that line i of the output always answers
 * line i of the input. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include SCHEMA_H
#include TYPES_H

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
 * grammar. JSON is mutated by whole UTF-8 characters, so that it stays
 * valid UTF-8: atdc's refusal to write invalid UTF-8 is a choice of its
 * own (docs/behaviour.md), tested elsewhere. Returns the new length. */
static size_t mutate(const char *s, size_t n, char *out, int json)
{
    static const char grammar[] = "{}[],:\"0-.e tn\\";
    memcpy(out, s, n);
    if (n == 0)
        return 0;
    size_t at = (size_t)(rng() % n), width = 1;
    if (json) {
        while (at > 0 && ((unsigned char)s[at] & 0xc0) == 0x80)
            at--;
        while (at + width < n && ((unsigned char)s[at + width] & 0xc0) == 0x80)
            width++;
    }
    switch (rng() % 4) {
    case 0:
        return at; /* truncated */
    case 2:
        memmove(out + at, out + at + width, n - at - width);
        return n - width;
    case 1:
        if (!json) {
            out[at] = (char)(out[at] ^ (char)(1 + rng() % 255));
            return n;
        }
        /* fall through */
    default:
        if (!json) {
            out[at] = (char)(rng() % 27);
            return n;
        }
        out[at] = grammar[rng() % (sizeof grammar - 1)];
        memmove(out + at + 1, out + at + width, n - at - width);
        return n - width + 1;
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
        char *sp = memchr(line, ' ', n);
        if (sp == NULL)
            return 2;
        size_t name_len = (size_t)(sp - line);
        char *doc = sp + 1;
        n -= name_len + 1;
        if (n == 3 && memcmp(doc, "ERR", 3) == 0)
            continue; /* nothing to mutate */
        if (!json) {
            long len = unhex(doc, n);
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
            size_t m = mutate(doc, n, out, json);
            fwrite(line, 1, name_len + 1, stdout);
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
#define TO_JSON_RAW(P, v, out, err)                                                                \
    do {                                                                                           \
        atd_writer w_;                                                                             \
        atd_writer_init(&w_, out, ATD_WRITE_ALLOW_INVALID_UTF8);                                   \
        if (P##_write(&w_, v) && (out)->status == 0) {                                             \
            rc = 0;                                                                                \
        } else {                                                                                   \
            if (w_.err_code == ATD_ERR_OK)                                                         \
                atd_writer_fail_buf(&w_);                                                          \
            rc = atd_writer_get_error(&w_, err);                                                   \
        }                                                                                          \
    } while (0)

/* JSON read as atdgen reads it: with Yojson's leniencies (invalid UTF-8,
 * comments, text after the value...), which atdc's default strict mode
 * rejects by design. */
#define FROM_JSON_LENIENT(P, json, len, a, v, err)                                                 \
    do {                                                                                           \
        atd_reader r_;                                                                             \
        atd_reader_init(&r_, json, len, a, ATD_READ_LENIENT);                                      \
        rc = P##_read(&r_, v) && atd_read_end(&r_) ? 0 : atd_reader_get_error(&r_, err);           \
    } while (0)

enum { J2J, J2B, B2J, B2B };

static int fail(atd_error *err, const char *why)
{
    atd_error_set(err, ATD_ERR_INVALID, NULL, why);
    return ATD_ERR_INVALID;
}

#ifdef DIFF_BINIOU
#define TO_BIN(P, v, out, err) rc = P##_to_biniou(v, out, err)
#define FROM_BIN(P, bin, len, a, v, err) rc = P##_from_biniou(bin, len, a, v, err)
#else
#define TO_BIN(P, v, out, err) rc = fail(err, "no biniou code for this schema")
#define FROM_BIN(P, bin, len, a, v, err) rc = fail(err, "no biniou code for this schema")
#endif

/* One conversion of a payload of type P (the input is decoded in place). */
#define CONVERTER(atd, P)                                                                          \
    static int conv_##atd(int mode, char *in, size_t n, atd_arena *a, atd_buf *out,                \
                          atd_error *err)                                                          \
    {                                                                                              \
        P v;                                                                                       \
        int rc;                                                                                    \
        if (mode == J2J || mode == J2B) {                                                          \
            FROM_JSON_LENIENT(P, in, n, a, &v, err);                                               \
        } else {                                                                                   \
            long len = unhex(in, n);                                                               \
            if (len < 0)                                                                           \
                return fail(err, "bad hex");                                                       \
            FROM_BIN(P, in, (size_t)len, a, &v, err);                                              \
        }                                                                                          \
        if (rc != 0)                                                                               \
            return rc;                                                                             \
        if (mode == J2J || mode == B2J)                                                            \
            TO_JSON_RAW(P, &v, out, err);                                                          \
        else                                                                                       \
            TO_BIN(P, &v, out, err);                                                               \
        return rc;                                                                                 \
    }
DIFF_TYPES(CONVERTER)

typedef int (*conv_fn)(int, char *, size_t, atd_arena *, atd_buf *, atd_error *);
#define ENTRY(atd, P) {#atd, conv_##atd},
static const struct {
    const char *name;
    conv_fn fn;
} types[] = {DIFF_TYPES(ENTRY)};

static conv_fn find(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == len && memcmp(types[i].name, name, len) == 0)
            return types[i].fn;
    return NULL;
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"json2json", "json2bin", "bin2json", "bin2bin"};
    if (argc < 2) {
        fprintf(stderr, "usage: %s json2json|json2bin|bin2json|bin2bin [-v]\n", argv[0]);
        return 2;
    }
    if (strncmp(argv[1], "mutate-", 7) == 0 && argc == 4)
        return run_mutate(strcmp(argv[1], "mutate-json") == 0, strtoul(argv[2], NULL, 10),
                          strtoul(argv[3], NULL, 10));
    int mode = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(argv[1], modes[i]) == 0)
            mode = i;
    if (mode < 0)
        return 2;
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
        char *sp = memchr(line, ' ', n);
        size_t name_len = sp ? (size_t)(sp - line) : n;
        char *doc = sp ? sp + 1 : line + n;
        size_t len = n - name_len - (sp ? 1 : 0);
        conv_fn fn = find(line, name_len);
        atd_error err;
        int rc;
        atd_arena_reset(arena);
        atd_buf_clear(&out);
        if (fn == NULL || (len == 3 && memcmp(doc, "ERR", 3) == 0))
            rc = fail(&err, "ERR, or no such type");
        else
            rc = fn(mode, doc, len, arena, &out, &err);
        fwrite(line, 1, name_len, stdout);
        putchar(' ');
        if (rc != 0) {
            if (verbose)
                fprintf(stderr, "%s\n", err.message);
            printf("ERR\n");
        } else if (mode == J2J || mode == B2J) {
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
