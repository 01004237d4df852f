/* Unit tests of the writer primitives (runtime/src/writer.c): the escape form
 * of every byte (atdgen's), the word-at-a-time escaper against a
 * byte-by-byte reference at every alignment, strict UTF-8 validation, long
 * strings streamed through a small sink, and the int/double helpers. */
#include "atd/error.h"
#include "atd/writer.h"
#include "atd/writer.h"
#include "test_main.h"

/* The kernel choice, internal to the runtime: each string test runs with
 * the widest kernels (AVX2 where the CPU has it) and with the portable
 * ones. */
#include "../../runtime/src/cpu.h"

#include <math.h>
#include <string.h>

/* Loop tests: run 0 with every kernel the CPU has, run 1 with the portable
 * ones only. */
static void use_kernels(int run)
{
    atd__cpu_limit(run == 0 ? ~0u : 0u);
}

/* Independent byte-at-a-time escaper, written from atdgen's escape table. */
static size_t reference_escape(char *out, const unsigned char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    out[o++] = '"';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        switch (c) {
        case '"':
            out[o++] = '\\';
            out[o++] = '"';
            break;
        case '\\':
            out[o++] = '\\';
            out[o++] = '\\';
            break;
        case 0x08:
            out[o++] = '\\';
            out[o++] = 'b';
            break;
        case 0x0c:
            out[o++] = '\\';
            out[o++] = 'f';
            break;
        case '\n':
            out[o++] = '\\';
            out[o++] = 'n';
            break;
        case '\r':
            out[o++] = '\\';
            out[o++] = 'r';
            break;
        case '\t':
            out[o++] = '\\';
            out[o++] = 't';
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                memcpy(out + o, "\\u00", 4);
                o += 4;
                out[o++] = hex[c >> 4];
                out[o++] = hex[c & 15];
            } else {
                out[o++] = (char)c;
            }
        }
    }
    out[o++] = '"';
    return o;
}

static void assert_written(const char *in, size_t len, const char *expected)
{
    atd_buf b;
    atd_buf_init(&b);
    ck_assert_int_eq(atd_buf_write_string(&b, in, len, 0), 0);
    ck_assert_uint_eq(b.len, strlen(expected));
    ck_assert_int_eq(memcmp(b.data, expected, b.len), 0);
    atd_buf_free(&b);
}

START_TEST(test_writer_every_byte)
{
    use_kernels(_i);
    char expected[16];
    for (int c = 0; c < 256; c++) {
        unsigned char in = (unsigned char)c;
        size_t n = reference_escape(expected, &in, 1);
        atd_buf b;
        atd_buf_init(&b);
        ck_assert_int_eq(
            atd_buf_write_string(&b, (const char *)&in, 1, ATD_WRITE_ALLOW_INVALID_UTF8), 0);
        ck_assert_uint_eq(b.len, n);
        ck_assert_int_eq(memcmp(b.data, expected, n), 0);
        atd_buf_free(&b);
    }
    use_kernels(0);
}
END_TEST

START_TEST(test_writer_exact_outputs)
{
    assert_written("", 0, "\"\"");
    assert_written("hello", 5, "\"hello\"");
    assert_written("a\"b\\c/d", 7, "\"a\\\"b\\\\c/d\"");
    assert_written("\b\f\n\r\t", 5, "\"\\b\\f\\n\\r\\t\"");
    assert_written("\x01\x1b\x1f\x7f", 4, "\"\\u0001\\u001b\\u001f\\u007f\"");
    assert_written("a\0b", 3, "\"a\\u0000b\"");
    assert_written("caf\xc3\xa9 \xe2\x82\xac", 9, "\"caf\xc3\xa9 \xe2\x82\xac\"");
    assert_written("0123456789abcdef\"0123456789", 27, "\"0123456789abcdef\\\"0123456789\"");
}
END_TEST

/* Every special byte at every position of strings long enough for the
 * word-at-a-time loop, against the reference. */
START_TEST(test_writer_swar_positions)
{
    use_kernels(_i);
    static const unsigned char specials[] = {'"', '\\', 0, 0x1f, 0x7f, '\n', 0x20, 0x80, 0xff, '!'};
    unsigned char in[40];
    char expected[6 * 40 + 2];
    for (size_t len = 1; len <= 40; len++) {
        for (size_t pos = 0; pos < len; pos++) {
            for (size_t k = 0; k < sizeof specials; k++) {
                for (size_t i = 0; i < len; i++)
                    in[i] = (unsigned char)('A' + i % 26);
                in[pos] = specials[k];
                if (pos + 3 < len)
                    in[pos + 3] = '"'; /* a second special in the same word */
                size_t n = reference_escape(expected, in, len);
                atd_buf b;
                atd_buf_init(&b);
                ck_assert_int_eq(
                    atd_buf_write_string(&b, (const char *)in, len, ATD_WRITE_ALLOW_INVALID_UTF8),
                    0);
                ck_assert_uint_eq(b.len, n);
                ck_assert_int_eq(memcmp(b.data, expected, n), 0);
                atd_buf_free(&b);
            }
        }
    }
    use_kernels(0);
}
END_TEST

static void assert_utf8(const char *s, size_t len, bool valid)
{
    ck_assert_msg(atd_utf8_valid(s, len) == valid, "utf8 check of %zu bytes", len);
    atd_buf b;
    atd_buf_init(&b);
    atd_buf_append(&b, "[", 1);
    int rc = atd_buf_write_string(&b, s, len, 0);
    if (valid) {
        ck_assert_int_eq(rc, 0);
        ck_assert_uint_eq(b.len, len + 3);
    } else {
        ck_assert_int_eq(rc, ATD_ERR_UTF8);
        ck_assert_uint_eq(b.len, 1); /* nothing written */
        ck_assert_int_eq(b.status, 0);
        ck_assert_int_eq(atd_buf_write_string(&b, s, len, ATD_WRITE_ALLOW_INVALID_UTF8), 0);
        ck_assert_uint_eq(b.len, len + 3);
        ck_assert_int_eq(memcmp(b.data + 2, s, len), 0);
    }
    atd_buf_free(&b);
}

START_TEST(test_writer_utf8)
{
    assert_utf8("\xc3\xa9", 2, true);         /* U+00E9 */
    assert_utf8("\xc2\x80", 2, true);         /* U+0080 */
    assert_utf8("\xe2\x82\xac", 3, true);     /* U+20AC */
    assert_utf8("\xe0\xa0\x80", 3, true);     /* U+0800 */
    assert_utf8("\xed\x9f\xbf", 3, true);     /* U+D7FF */
    assert_utf8("\xee\x80\x80", 3, true);     /* U+E000 */
    assert_utf8("\xef\xbf\xbf", 3, true);     /* U+FFFF */
    assert_utf8("\xf0\x90\x80\x80", 4, true); /* U+10000 */
    assert_utf8("\xf4\x8f\xbf\xbf", 4, true); /* U+10FFFF */
    assert_utf8("plain ascii text, long enough", 29, true);
    assert_utf8("\xc0\x80", 2, false);         /* overlong NUL */
    assert_utf8("\xc1\xbf", 2, false);         /* overlong */
    assert_utf8("\xe0\x80\x80", 3, false);     /* overlong */
    assert_utf8("\xe0\x9f\xbf", 3, false);     /* overlong */
    assert_utf8("\xf0\x80\x80\x80", 4, false); /* overlong */
    assert_utf8("\xf0\x8f\xbf\xbf", 4, false); /* overlong */
    assert_utf8("\xed\xa0\x80", 3, false);     /* surrogate D800 */
    assert_utf8("\xed\xbf\xbf", 3, false);     /* surrogate DFFF */
    assert_utf8("\xf4\x90\x80\x80", 4, false); /* U+110000 */
    assert_utf8("\xf5\x80\x80\x80", 4, false); /* F5 */
    assert_utf8("\xff", 1, false);
    assert_utf8("\x80", 1, false);              /* lone continuation */
    assert_utf8("\xe2\x82", 2, false);          /* truncated */
    assert_utf8("abcdefgh\xe2\x82", 10, false); /* truncated after a word */
    assert_utf8("\xf0\x90\x80", 3, false);      /* truncated */
    assert_utf8("\xc3\x28", 2, false);          /* bad continuation */
    assert_utf8("\xe2\x28\xac", 3, false);
    assert_utf8("\xf0\x90\x28\x80", 4, false);
    assert_utf8("abcdefghijklmnop\xc3", 17, false);
}
END_TEST

/* Independent byte-at-a-time UTF-8 check (Unicode 3.9, table 3-7). */
static bool reference_utf8(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        size_t len;
        unsigned char lo = 0x80, hi = 0xbf;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xc2 && c <= 0xdf) {
            len = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            len = 3;
            lo = c == 0xe0 ? 0xa0 : 0x80;
            hi = c == 0xed ? 0x9f : 0xbf;
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4;
            lo = c == 0xf0 ? 0x90 : 0x80;
            hi = c == 0xf4 ? 0x8f : 0xbf;
        } else {
            return false;
        }
        if (i + len > n || s[i + 1] < lo || s[i + 1] > hi)
            return false;
        for (size_t k = 2; k < len; k++)
            if ((s[i + k] & 0xc0) != 0x80)
                return false;
        i += len;
    }
    return true;
}

/* Writes in[0..len) validating, and compares with the references: the
 * escaped text when valid, else ATD_ERR_UTF8 with nothing written. */
static void check_validated(const unsigned char *in, size_t len)
{
    char expected[6 * 320 + 2];
    bool valid = reference_utf8(in, len);
    size_t n = reference_escape(expected, in, len);
    /* Plain tests with ck_abort_msg on failure only: the sweeps call this
     * some 10^5 times, and each ck_assert's bookkeeping is what makes them
     * slow under valgrind. */
    if (atd_utf8_valid((const char *)in, len) != valid)
        ck_abort_msg("atd_utf8_valid, %zu bytes", len);
    atd_buf b;
    atd_buf_init(&b);
    atd_buf_append(&b, "[", 1);
    int rc = atd_buf_write_string(&b, (const char *)in, len, 0);
    if (valid ? rc != 0 || b.len != n + 1 || memcmp(b.data + 1, expected, n) != 0
              : rc != ATD_ERR_UTF8 || b.len != 1)
        ck_abort_msg("%zu bytes, %s: rc %d, %zu bytes written", len, valid ? "valid" : "invalid",
                     rc, b.len);
    atd_buf_free(&b);
}

/* The string lengths of the block sweeps: every length up to 72 (the
 * short paths end at 16, 32 and 64 bytes; the AVX2 kernel's plain copy
 * starts at 32, takes up to 64 bytes in one step, and more in steps of 64
 * then a last 64 bytes overlapping them) and those around 96, 128 and 192,
 * where its loop takes one, two or three steps before the last. Returns
 * the length after len (past SWEEP_MAX after the last). */
#define SWEEP_MAX 193
static size_t next_sweep_length(size_t len)
{
    switch (len) {
    case 72:
        return 95;
    case 97:
        return 127;
    case 129:
        return 191;
    default:
        return len + 1;
    }
}

/* Every byte kind that stops the plain copy (each escape form, DEL, a
 * non-ASCII byte valid or not) at every position of strings of the sweep
 * lengths, alone, followed by a byte to escape at the end of the string (in
 * the block that ends it) or after one halfway to it (the kernel then meets
 * it after an escape), at every input alignment, validated and not:
 * the output is the reference's, and ill-formed text is refused. */
START_TEST(test_writer_plain_block_boundaries)
{
    use_kernels(_i);
    static const char *const stops[] = {
        "\"",   "\\",   "\x00",         "\x1f",         "\x7f",
        "\n",   "\t",   "\xc3\xa9",     "\xe2\x82\xac", "\xf0\x9f\x98\x80",
        "\x80", "\xc3", "\xed\xa0\x80", "\xff",         "!"};
    unsigned char storage[SWEEP_MAX + 32];
    char expected[6 * SWEEP_MAX + 2];
    for (size_t len = 1; len <= SWEEP_MAX; len = next_sweep_length(len)) {
        unsigned char *in = storage + len % 32; /* every alignment */
        for (size_t pos = 0; pos < len; pos++) {
            for (size_t k = 0; k < sizeof stops / sizeof stops[0]; k++) {
                /* the second byte only with a few kinds: time under valgrind */
                int seconds = k < 2 || k == 7 || k == 10 ? 3 : 1;
                for (int second = 0; second < seconds; second++) {
                    for (size_t i = 0; i < len; i++)
                        in[i] = (unsigned char)('A' + i % 26);
                    size_t sl = strlen(stops[k]);
                    for (size_t i = 0; i < sl && pos + i < len; i++)
                        in[pos + i] = (unsigned char)stops[k][i];
                    if (second == 1 && pos + sl < len)
                        in[len - 1] = '\\';
                    if (second == 2 && pos >= 2)
                        in[pos / 2] = '"';
                    check_validated(in, len);
                    size_t n = reference_escape(expected, in, len);
                    atd_buf b;
                    atd_buf_init(&b);
                    int rc = atd_buf_write_string(&b, (const char *)in, len,
                                                  ATD_WRITE_ALLOW_INVALID_UTF8);
                    if (rc != 0 || b.len != n || memcmp(b.data, expected, n) != 0)
                        ck_abort_msg("%zu bytes, stop %zu at %zu: rc %d, %zu bytes", len, k, pos,
                                     rc, b.len);
                    atd_buf_free(&b);
                }
            }
        }
    }
    use_kernels(0);
}
END_TEST

/* Non-ASCII sequences, valid and not, at every position of strings that
 * span one to four blocks of the wide loop and end in its tail, followed by
 * ASCII, by an escape, by more non-ASCII text, or by ASCII holding a DEL
 * (escaped, yet not a stop of the validator), at every input alignment:
 * the one-pass escaper and validator agree with the references. */
START_TEST(test_writer_utf8_positions)
{
    use_kernels(_i);
    static const char *const seqs[] = {
        "\xc3\xa9",
        "\xe2\x82\xac",
        "\xf0\x9f\x98\x80",
        "\xe6\x97\xa5\xe6\x9c\xac",
        "\x80",
        "\xc3",
        "\xe2\x82",
        "\xed\xa0\x80",
        "\xc3\x28",
        "\xe0\x9f\xbf",
        "\xf4\x90\x80\x80",
        "\xff",
        "\xc3\xa9\xe2\x82",
        "\xc2\x80\x0a",
    };
    unsigned char storage[96];
    for (size_t len = 1; len <= 72; len++) {
        unsigned char *in = storage + len % 16; /* every alignment */
        for (size_t pos = 0; pos < len; pos++) {
            for (size_t k = 0; k < sizeof seqs / sizeof seqs[0]; k++) {
                for (int after = 0; after < 4; after++) {
                    for (size_t i = 0; i < len; i++)
                        in[i] = (unsigned char)('a' + i % 26);
                    size_t sl = strlen(seqs[k]);
                    for (size_t i = 0; i < sl && pos + i < len; i++)
                        in[pos + i] = (unsigned char)seqs[k][i];
                    size_t next = pos + sl;
                    if (after == 1 && next < len)
                        in[next] = '"';
                    if (after == 3 && next + 2 < len)
                        in[next + 2] = 0x7f; /* DEL after non-ASCII text */
                    for (size_t i = next; after == 2 && i + 1 < len; i += 2) {
                        in[i] = 0xd0; /* Cyrillic to the end */
                        in[i + 1] = 0xb6;
                    }
                    check_validated(in, len);
                }
            }
        }
    }
    use_kernels(0);
}
END_TEST

/* Random text of up to 300 bytes (several blocks of the widest kernel and
 * every tail length): ASCII, bytes to escape, characters of two to four
 * bytes and, now and then, an ill-formed byte or a cut sequence, at random
 * places. Both kernels agree with the references. */
START_TEST(test_writer_random_text)
{
    static const char *const pieces[] = {
        "a", "bc", "defg", " ", "\"", "\\", "\n", "\x01", "\x7f", "\xc3\xa9", "\xd0\xb6",
        "\xe2\x82\xac", "\xe6\x97\xa5", "\xef\xbf\xbf", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf",
        /* ill-formed */
        "\x80", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xc0\x80", "\xf5\x80\x80\x80", "\xff"};
    size_t npieces = sizeof pieces / sizeof pieces[0];
    use_kernels(_i);
    uint32_t seed = 12345;
    unsigned char in[320];
    for (int round = 0; round < 3000; round++) {
        seed = seed * 1103515245u + 12345u;
        size_t want = (seed >> 8) % 301;
        bool dirty = (seed >> 20) % 4 == 0; /* may hold ill-formed pieces */
        size_t len = 0;
        while (len < want) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 8) % 100;
            size_t k = r < 40 ? 0 : r < 55 ? 1 + r % 3 : r < 62 ? 4 + r % 5 : 9 + r % 7;
            if (dirty && (seed >> 4) % 16 == 0)
                k = 16 + (seed >> 12) % (npieces - 16);
            size_t pl = strlen(pieces[k]);
            if (len + pl > want)
                break;
            memcpy(in + len, pieces[k], pl);
            len += pl;
        }
        check_validated(in, len);
    }
    use_kernels(0);
}
END_TEST

/* atd_writer_key_string with a literal key (the inline form and its short
 * string paths, up to 64 bytes with SSE2, and the AVX2 kernel's plain copy
 * from 32 bytes on): strings of the sweep lengths, plain
 * or with one byte to escape, a non-ASCII character or an invalid byte at
 * every position, give what
 * atd_writer_raw then atd_writer_string give, and invalid UTF-8 commits
 * nothing. */
START_TEST(test_writer_key_string_literal)
{
    use_kernels(_i);
    static const char *const odd[] = {"\"",       "\n",           "\x01", "\x7f",
                                      "\xc3\xa9", "\xe2\x82\xac", "\xff", "\xc3"};
    char text[SWEEP_MAX + 8];
    for (size_t len = 0; len <= SWEEP_MAX; len = next_sweep_length(len)) {
        for (size_t k = 0; k <= sizeof odd / sizeof odd[0]; k++) {
            for (size_t at = 0; at < (k == 0 ? 1 : len + 1); at++) {
                for (size_t i = 0; i < len; i++)
                    text[i] = (char)('a' + i % 26);
                size_t n = len;
                if (k > 0) {
                    const char *o = odd[k - 1];
                    size_t ol = strlen(o);
                    memmove(text + at + ol, text + at, len - at);
                    memcpy(text + at, o, ol);
                    n += ol;
                }
                atd_buf want, got;
                atd_buf_init(&want);
                atd_buf_init(&got);
                atd_writer ww, wg;
                atd_writer_init(&ww, &want, 0);
                atd_writer_init(&wg, &got, 0);
                bool ok_want = atd_writer_raw(&ww, "[", 1) && atd_writer_raw(&ww, ",\"k\":", 5) &&
                               atd_writer_string(&ww, text, n);
                bool ok_got = atd_writer_raw(&wg, "[", 1) &&
                              atd_writer_key_string(&wg, ",\"k\":", 5, text, n);
                ck_assert_int_eq(ok_got, ok_want);
                if (ok_got) {
                    ck_assert_uint_eq(got.len, want.len);
                    ck_assert_int_eq(memcmp(got.data, want.data, got.len), 0);
                } else {
                    ck_assert_int_eq(atd_writer_get_error(&wg, NULL), ATD_ERR_UTF8);
                    ck_assert_uint_eq(got.len, 1);
                }
                atd_buf_free(&want);
                atd_buf_free(&got);
            }
        }
    }
    use_kernels(0);
}
END_TEST

/* atd_writer_key_string: the key then the string, exactly as atd_writer_raw
 * followed by atd_writer_string; on invalid UTF-8 neither, and the error. */
START_TEST(test_writer_key_string)
{
    static const char key[] = ",\"a_rather_long_key_name\":";
    static const char *const strs[] = {
        "", "x", "abc\n", "caf\xc3\xa9", "0123456789abcdef\"x", "bad \xc3\x28 utf8"};
    for (size_t kl = 0; kl < sizeof key; kl++) {
        for (size_t j = 0; j < sizeof strs / sizeof strs[0]; j++) {
            size_t sl = strlen(strs[j]);
            atd_buf want, got;
            atd_buf_init(&want);
            atd_buf_init(&got);
            atd_writer ww, wg;
            atd_writer_init(&ww, &want, 0);
            atd_writer_init(&wg, &got, 0);
            bool ok_want =
                (kl == 0 || atd_writer_raw(&ww, key, kl)) && atd_writer_string(&ww, strs[j], sl);
            bool ok_got = atd_writer_key_string(&wg, key, kl, strs[j], sl);
            ck_assert_int_eq(ok_got, ok_want);
            if (ok_got) {
                ck_assert_uint_eq(got.len, want.len);
                ck_assert_int_eq(memcmp(got.data, want.data, got.len), 0);
            } else {
                ck_assert_int_eq(atd_writer_get_error(&wg, NULL), ATD_ERR_UTF8);
                ck_assert_uint_eq(got.len, 0);
            }
            atd_writer_init(&wg, &got, ATD_WRITE_ALLOW_INVALID_UTF8);
            atd_buf_clear(&got);
            ck_assert(atd_writer_key_string(&wg, key, kl, strs[j], sl));
            ck_assert_uint_eq(got.len, kl + sl + 2 + (j == 2) + (j == 4));
            atd_buf_free(&want);
            atd_buf_free(&got);
        }
    }
}
END_TEST

typedef struct collector {
    char *data;
    size_t len;
    size_t cap;
    const atd_buf *buf;
    size_t max_cap;
} collector;

static int collecting_sink(void *ctx, const char *data, size_t len)
{
    collector *c = ctx;
    if (c->buf->cap > c->max_cap)
        c->max_cap = c->buf->cap;
    if (c->len + len > c->cap) {
        size_t cap = (c->len + len) * 2;
        char *p = realloc(c->data, cap);
        if (p == NULL)
            return -1;
        c->data = p;
        c->cap = cap;
    }
    memcpy(c->data + c->len, data, len);
    c->len += len;
    return 0;
}

static void check_long_string_through_sink(size_t chunk)
{
    size_t len = 3000000;
    char *s = malloc(len);
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < len; i++)
        s[i] = (char)('a' + i % 23);
    /* Escapes here and there, and a stretch of only escapes. */
    for (size_t i = 0; i < len; i += 997)
        s[i] = '\n';
    memset(s + 100000, '\x01', 50000);

    atd_buf mem;
    atd_buf_init(&mem);
    ck_assert_int_eq(atd_buf_write_string(&mem, s, len, 0), 0);

    collector c = {NULL, 0, 0, NULL, 0};
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_sink(&b, collecting_sink, &c, chunk), 0);
    c.buf = &b;
    atd_buf_putc(&b, '[');
    ck_assert_int_eq(atd_buf_write_string(&b, s, len, 0), 0);
    atd_buf_putc(&b, ']');
    ck_assert_int_eq(atd_buf_flush(&b), 0);
    ck_assert_uint_eq(c.len, mem.len + 2);
    ck_assert_int_eq(memcmp(c.data + 1, mem.data, mem.len), 0);
    ck_assert_uint_eq(c.max_cap, b.chunk_size);
    ck_assert_uint_eq(b.cap, b.chunk_size);
    atd_buf_free(&b);
    atd_buf_free(&mem);
    free(c.data);
    free(s);
}

START_TEST(test_writer_long_string_sink)
{
    check_long_string_through_sink(0);
    check_long_string_through_sink(1000);
}
END_TEST

START_TEST(test_writer_string_tiny_sink)
{
    /* A chunk smaller than one escape still works (it grows for a moment). */
    collector c = {NULL, 0, 0, NULL, 0};
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_sink(&b, collecting_sink, &c, 4), 0);
    c.buf = &b;
    ck_assert_int_eq(atd_buf_write_string(&b, "ab\x01\"cdefghijklmn", 16, 0), 0);
    ck_assert_int_eq(atd_buf_flush(&b), 0);
    const char *expected = "\"ab\\u0001\\\"cdefghijklmn\"";
    ck_assert_uint_eq(c.len, strlen(expected));
    ck_assert_int_eq(memcmp(c.data, expected, c.len), 0);
    atd_buf_free(&b);
    free(c.data);
}
END_TEST

START_TEST(test_writer_long_string_memory)
{
    size_t len = 1 << 20;
    char *s = malloc(len);
    char *expected = malloc(6 * len + 2);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(expected);
    for (size_t i = 0; i < len; i++)
        s[i] = (char)(i % 128);
    size_t n = reference_escape(expected, (const unsigned char *)s, len);
    atd_buf b;
    atd_buf_init(&b);
    atd_buf_putc(&b, 'x');
    ck_assert_int_eq(atd_buf_write_string(&b, s, len, 0), 0);
    ck_assert_uint_eq(b.len, n + 1);
    ck_assert_int_eq(memcmp(b.data + 1, expected, n), 0);
    atd_buf_free(&b);
    free(expected);
    free(s);
}
END_TEST

static int failing_sink(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    (void)data;
    (void)len;
    return 1;
}

START_TEST(test_writer_string_sink_error)
{
    atd_buf b;
    ck_assert_int_eq(atd_buf_init_sink(&b, failing_sink, NULL, 256), 0);
    char s[5000];
    memset(s, 'x', sizeof s);
    ck_assert_int_eq(atd_buf_write_string(&b, s, sizeof s, 0), ATD_ERR_IO);
    ck_assert_int_eq(b.status, ATD_ERR_IO);
    atd_buf_free(&b);
}
END_TEST

static void assert_buf(atd_buf *b, const char *expected)
{
    ck_assert_uint_eq(b->len, strlen(expected));
    ck_assert_int_eq(memcmp(b->data, expected, b->len), 0);
    atd_buf_clear(b);
}

START_TEST(test_writer_numbers)
{
    atd_buf b;
    atd_buf_init(&b);
    ck_assert_int_eq(atd_buf_write_int64(&b, 0), 0);
    assert_buf(&b, "0");
    ck_assert_int_eq(atd_buf_write_int64(&b, -42), 0);
    assert_buf(&b, "-42");
    ck_assert_int_eq(atd_buf_write_int64(&b, INT64_MIN), 0);
    assert_buf(&b, "-9223372036854775808");
    ck_assert_int_eq(atd_buf_write_int64(&b, INT64_MAX), 0);
    assert_buf(&b, "9223372036854775807");
    ck_assert_int_eq(atd_buf_write_double(&b, 2.0), 0);
    assert_buf(&b, "2.0");
    ck_assert_int_eq(atd_buf_write_double(&b, 0.25), 0);
    assert_buf(&b, "0.25");
    ck_assert_int_eq(atd_buf_write_double(&b, 1e16), 0);
    assert_buf(&b, "1e+16");
    ck_assert_int_eq(atd_buf_write_double(&b, -0.0), 0);
    assert_buf(&b, "-0.0");
    ck_assert_int_eq(atd_buf_write_double(&b, NAN), ATD_ERR_NONFINITE);
    ck_assert_int_eq(atd_buf_write_double(&b, INFINITY), ATD_ERR_NONFINITE);
    ck_assert_int_eq(atd_buf_write_double(&b, -INFINITY), ATD_ERR_NONFINITE);
    ck_assert_uint_eq(b.len, 0);
    ck_assert_int_eq(b.status, 0);
    atd_buf_free(&b);
}
END_TEST

Suite *writer_suite(void);
Suite *writer_suite(void)
{
    Suite *s = suite_create("writer");
    TCase *str = tcase_create("string");
    tcase_set_timeout(str, 30);
    tcase_add_loop_test(str, test_writer_every_byte, 0, 2);
    tcase_add_test(str, test_writer_exact_outputs);
    tcase_add_loop_test(str, test_writer_swar_positions, 0, 2);
    tcase_add_test(str, test_writer_utf8);
    tcase_add_loop_test(str, test_writer_utf8_positions, 0, 2);
    tcase_add_loop_test(str, test_writer_plain_block_boundaries, 0, 2);
    tcase_add_loop_test(str, test_writer_random_text, 0, 2);
    tcase_add_test(str, test_writer_key_string);
    tcase_add_loop_test(str, test_writer_key_string_literal, 0, 2);
    tcase_add_test(str, test_writer_long_string_sink);
    tcase_add_test(str, test_writer_string_tiny_sink);
    tcase_add_test(str, test_writer_long_string_memory);
    tcase_add_test(str, test_writer_string_sink_error);
    suite_add_tcase(s, str);
    TCase *num = tcase_create("numbers");
    tcase_add_test(num, test_writer_numbers);
    suite_add_tcase(s, num);
    return s;
}

ATD_CHECK_MAIN(writer_suite)
