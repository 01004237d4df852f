/* Biniou (atdgen's binary format): the runtime primitives (vints, hashes, tags,
 * skipping, errors) and the code atdc --biniou generates for
 * tests/biniou/all.atd and for copies of the bench workloads' schemas:
 * the worked examples of the spec byte for byte, every reading rule (field
 * order, unknown and duplicate fields, tuples with defaults, tables), errors
 * with their byte offset and path, the depth limit, truncation and byte
 * flips of every workload's biniou (every offset of small documents, edges
 * and a seeded sample of large ones: ATDC_BIN_SAMPLES), and allocation
 * failures. The
 * comparison with atdgen itself is tests/biniou/differential.sh. */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"
#include "spec.h"
#include "bin_blockchain.h"
#include "bin_canada.h"
#include "bin_citm_catalog.h"
#include "bin_donut.h"
#include "bin_event.h"
#include "bin_github.h"
#include "bin_twitter.h"
#include "test_files.h"
#include "test_main.h"

/* Decodes hex (spaces allowed) into out; returns the byte count. */
static size_t unhex(const char *hex, char *out)
{
    size_t n = 0;
    int hi = -1;
    for (const char *p = hex; *p; p++) {
        int v;
        if (*p >= '0' && *p <= '9')
            v = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            v = *p - 'a' + 10;
        else
            continue;
        if (hi < 0) {
            hi = v;
        } else {
            out[n++] = (char)(hi * 16 + v);
            hi = -1;
        }
    }
    return n;
}

static void assert_bytes(const atd_buf *b, const char *hex)
{
    char want[4096];
    size_t n = unhex(hex, want);
    char got[8192];
    size_t g = 0;
    for (size_t i = 0; i < b->len && g + 3 < sizeof got; i++)
        g += (size_t)snprintf(got + g, sizeof got - g, "%02x", (unsigned char)b->data[i]);
    ck_assert_msg(b->len == n && memcmp(b->data, want, n) == 0, "got %s, want %s", got, hex);
}

START_TEST(test_biniou_vints)
{
    static const struct {
        uint64_t u;
        const char *hex;
    } uv[] = {{0, "00"},         {100, "64"}, {1000, "e807"},
              {16384, "808001"}, {127, "7f"}, {128, "8001"}};
    static const struct {
        int64_t v;
        const char *hex;
    } sv[] = {{5, "0a"}, {-5, "09"}, {100, "c801"}, {-100, "c701"}, {0, "00"}, {-1, "01"}};
    atd_buf b;
    atd_writer w;
    atd_buf_init(&b);
    for (size_t i = 0; i < sizeof uv / sizeof uv[0]; i++) {
        atd_buf_clear(&b);
        atd_writer_init(&w, &b, 0);
        ck_assert(atd_bin_write_uvint(&w, uv[i].u));
        assert_bytes(&b, uv[i].hex);
        atd_reader r;
        uint64_t back;
        atd_reader_init(&r, b.data, b.len, NULL, 0);
        ck_assert(atd_reader_advance(&r, atd_bin_read_uvint_p(&r, atd_reader_cursor(&r), &back)));
        ck_assert(back == uv[i].u);
    }
    for (size_t i = 0; i < sizeof sv / sizeof sv[0]; i++) {
        atd_buf_clear(&b);
        atd_writer_init(&w, &b, 0);
        ck_assert(atd_bin_write_svint(&w, sv[i].v));
        assert_bytes(&b, sv[i].hex);
        atd_reader r;
        int64_t back;
        atd_reader_init(&r, b.data, b.len, NULL, 0);
        ck_assert(atd_reader_advance(&r, atd_bin_read_int_p(&r, r.cur, ATD_BIN_SVINT, &back)));
        ck_assert(back == sv[i].v);
    }
    /* the largest portable magnitudes (|n| < 2^62) take 9 bytes and read back */
    int64_t edges[] = {((int64_t)1 << 62) - 1, -((int64_t)1 << 62)};
    for (size_t i = 0; i < 2; i++) {
        atd_buf_clear(&b);
        atd_writer_init(&w, &b, 0);
        ck_assert(atd_bin_write_svint(&w, edges[i]));
        ck_assert_uint_eq(b.len, 9);
        atd_reader r;
        int64_t back;
        atd_reader_init(&r, b.data, b.len, NULL, 0);
        ck_assert(atd_reader_advance(&r, atd_bin_read_int_p(&r, r.cur, ATD_BIN_SVINT, &back)));
        ck_assert(back == edges[i]);
    }
    /* a tenth byte is more than OCaml reads */
    char ten[10];
    memset(ten, 0x80, 9);
    ten[9] = 1;
    atd_reader r;
    uint64_t u;
    atd_reader_init(&r, ten, 10, NULL, 0);
    ck_assert(!atd_reader_advance(&r, atd_bin_read_uvint_p(&r, atd_reader_cursor(&r), &u)));
    ck_assert_int_eq(r.err_code, ATD_ERR_RANGE);
    atd_buf_free(&b);
}
END_TEST

/* Every vint length (1 to 9 bytes, at both ends of each), read with 8 bytes
 * or more after it (the one-load decoding) and at the very end of the
 * input (the byte loop): the value and the bytes consumed must agree with
 * the byte-by-byte definition. */
START_TEST(test_biniou_vint_lengths)
{
    for (unsigned bits = 1; bits <= 63; bits++) {
        uint64_t vals[2] = {(uint64_t)1 << (bits - 1), ((uint64_t)1 << bits) - 1};
        for (int k = 0; k < 2; k++) {
            uint64_t u = vals[k], x = u;
            char enc[32];
            size_t n = 0;
            while (x >= 0x80) {
                enc[n++] = (char)(unsigned char)(x | 0x80);
                x >>= 7;
            }
            enc[n++] = (char)(unsigned char)x;
            atd_buf b;
            atd_writer w;
            atd_buf_init(&b);
            atd_writer_init(&w, &b, 0);
            ck_assert(atd_bin_write_uvint(&w, u));
            ck_assert_msg(b.len == n && memcmp(b.data, enc, n) == 0, "write of %llu",
                          (unsigned long long)u);
            atd_buf_free(&b);
            for (size_t tail = 0; tail <= 9; tail += 9) {
                char in[32];
                memcpy(in, enc, n);
                memset(in + n, 0x7f, tail);
                atd_reader r;
                uint64_t back = 0;
                atd_reader_init(&r, in, n + tail, NULL, 0);
                ck_assert(atd_reader_advance(&r, atd_bin_read_uvint_p(&r, atd_reader_cursor(&r), &back)));
                ck_assert_msg(back == u && (size_t)(r.cur - in) == n, "read of %llu, tail %zu",
                              (unsigned long long)u, tail);
            }
        }
    }
    /* a continuation bit on the last byte of the input is its end */
    char cut[3] = {(char)0x80, (char)0x80, (char)0x80};
    atd_reader r;
    uint64_t u;
    atd_reader_init(&r, cut, 3, NULL, 0);
    ck_assert(!atd_reader_advance(&r, atd_bin_read_uvint_p(&r, atd_reader_cursor(&r), &u)));
    ck_assert_int_eq(r.err_code, ATD_ERR_EOF);
}
END_TEST

START_TEST(test_biniou_hashes)
{
    ck_assert_uint_eq(atd_bin_hash("id", 2), 0x00005bdbu);
    ck_assert_uint_eq(atd_bin_hash("Off", 3), 0x003c4b4fu);
    ck_assert_uint_eq(atd_bin_hash("Level", 5) | 0x80000000u, 0x85908564u);
    ck_assert_uint_eq(atd_bin_hash("", 0), 0);
    ck_assert_str_eq(atd_bin_tag_name(ATD_BIN_SVINT), "svint");
    ck_assert_ptr_null(atd_bin_tag_name(5));
}
END_TEST

static atd_arena *arena;

static void setup(void)
{
    arena = atd_arena_new(0, NULL);
}

static void teardown(void)
{
    atd_arena_free(arena);
}

/* Hand-checked bytes of a record with a variant field, in both directions:
 * JSON -> biniou must give exactly these bytes, and back. */
START_TEST(test_biniou_worked_example)
{
    static const char json[] = "{\"id\":5,\"temp\":21.5,\"state\":[\"Level\",-5]}";
    static const char bytes[] = "15 03 80005bdb 110a ccf9c314 0c 4035800000000000"
                                " 840b7611 17 85908564 11 09";
    spec_reading v;
    atd_error err;
    atd_buf b;
    atd_buf_init(&b);
    ck_assert_int_eq(spec_reading_from_json(json, sizeof json - 1, arena, &v, &err), 0);
    ck_assert_int_eq(spec_reading_to_biniou(&v, &b, &err), 0);
    assert_bytes(&b, bytes);
    char in[256];
    size_t n = unhex(bytes, in);
    spec_reading back;
    ck_assert_int_eq(spec_reading_from_biniou(in, n, arena, &back, &err), 0);
    atd_buf_clear(&b);
    ck_assert_int_eq(spec_reading_to_json(&back, &b, &err), 0);
    ck_assert_uint_eq(b.len, sizeof json - 1);
    ck_assert(memcmp(b.data, json, b.len) == 0);

    static const char pjson[] = "[[1,\"x\"],[-1,\"\"]]";
    spec_pairs p;
    ck_assert_int_eq(spec_pairs_from_json(pjson, sizeof pjson - 1, arena, &p, &err), 0);
    atd_buf_clear(&b);
    ck_assert_int_eq(spec_pairs_to_biniou(&p, &b, &err), 0);
    assert_bytes(&b, "13 02 14 02 11 02 12 01 78 02 11 01 12 00");
    atd_buf_free(&b);
}
END_TEST

/* Reads hex as an spec_reading; returns the code and leaves the message in err. */
static int read_reading(const char *hex, spec_reading *v, atd_error *err)
{
    char in[512];
    size_t n = unhex(hex, in);
    return spec_reading_from_biniou(in, n, arena, v, err);
}

START_TEST(test_biniou_record_rules)
{
    spec_reading v;
    atd_error err;
    /* any order; an unknown field (hash 0x80000001, a nested array) skipped;
     * a duplicate keeps the last value */
    ck_assert_int_eq(read_reading("15 05 840b7611 17 003c4b4f  80000001 13 02 11 02 04"
                                  "  80005bdb 11 02  ccf9c314 0c 4035800000000000"
                                  "  80005bdb 11 0a",
                                  &v, &err),
                     0);
    ck_assert(v.id == 5 && v.temp == 21.5 && v.state.tag == SPEC_SIGNAL_OFF && !v.has_note);
    /* with the default: state Off, temp 0.0 */
    ck_assert_int_eq(read_reading("15 02 80005bdb 11 0a 84 0b 76 11 17 003c4b4f", &v, &err), 0);
    ck_assert(v.temp == 0.0 && v.tags.len == 0);
    /* missing required field */
    ck_assert_int_eq(read_reading("15 01 80005bdb 11 0a", &v, &err), ATD_ERR_MISSING_FIELD);
    ck_assert_str_eq(err.message, "byte 1, at $: missing field 'state' in record 'reading'");
    /* wrong tag, with the byte offset and the path */
    ck_assert_int_eq(read_reading("15 02 80005bdb 12 01 78 84 0b 76 11 17 003c4b4f", &v, &err),
                     ATD_ERR_TYPE);
    ck_assert_str_eq(err.message, "byte 6, at $.id: expected one of the tags int8 (1), "
                                  "int16 (2), uvint (16), svint (17), found string (18)");
    ck_assert_uint_eq(err.offset, 6);
    ck_assert_str_eq(err.path, "$.id");
    ck_assert_str_eq(err.detail, "expected one of the tags int8 (1), int16 (2), uvint (16), "
                                 "svint (17), found string (18)");
    ck_assert_int_eq(read_reading("15 01 ccf9c314 11 0a", &v, &err), ATD_ERR_TYPE);
    ck_assert_str_eq(err.message, "byte 6, at $.temp: expected tag float64 (12), found svint (17)");
    /* a variant with the argument bit but not the hash of a constructor */
    ck_assert_int_eq(read_reading("15 02 80005bdb 11 0a 84 0b 76 11 17 803c4b4f 11 00", &v, &err),
                     ATD_ERR_BAD_VARIANT);
    ck_assert_str_eq(err.path, "$.state");
    /* truncated, trailing bytes, shared, a byte that is no tag */
    ck_assert_int_eq(read_reading("15 02 80005bdb 11", &v, &err), ATD_ERR_EOF);
    /* bytes after the value: ignored, as atdgen ignores them, unless the
     * caller asks atd_bin_read_end */
    ck_assert_int_eq(read_reading("15 02 80005bdb 11 0a 84 0b 76 11 17 003c4b4f 00", &v, &err), 0);
    {
        char in[64];
        size_t n = unhex("15 02 80005bdb 11 0a 84 0b 76 11 17 003c4b4f 00", in);
        atd_reader r;
        atd_reader_init(&r, in, n, arena, 0);
        ck_assert(spec_reading_read_biniou(&r, &v));
        ck_assert(!atd_bin_read_end(&r));
        ck_assert_int_eq(atd_bin_get_error(&r, &err), ATD_ERR_TRAILING);
        ck_assert_uint_eq(err.offset, n - 1);
    }
    ck_assert_int_eq(read_reading("1a 00", &v, &err), ATD_ERR_SYNTAX);
    ck_assert_int_eq(read_reading("15 01 80000001 07", &v, &err), ATD_ERR_SYNTAX);
    /* a field hashtag lacks bit 31 */
    ck_assert_int_eq(read_reading("15 01 00005bdb 11 0a", &v, &err), ATD_ERR_SYNTAX);
    /* a count larger than the input */
    ck_assert_int_eq(read_reading("15 ff ff ff 0f", &v, &err), ATD_ERR_EOF);
}
END_TEST

/* The cursor form: each reader takes the cursor and returns the next one,
 * leaving r->cur alone; on error it returns NULL, at the offending byte. */
START_TEST(test_biniou_cursor_form)
{
    /* room for the 8-byte loads of the inline readers */
    static const char in[32] = "\x00\x01\x02";
    atd_reader r;
    bool b = true;
    atd_reader_init(&r, in, 3, NULL, 0);
    const char *p = atd_bin_read_bool_p(&r, in, &b);
    ck_assert(p == in + 1 && !b);
    p = atd_bin_read_bool_p(&r, p, &b);
    ck_assert(p == in + 2 && b);
    ck_assert(r.cur == in);
    ck_assert_ptr_null(atd_bin_read_bool_p(&r, p, &b));
    ck_assert_int_eq(r.err_code, ATD_ERR_TYPE);
    ck_assert_uint_eq(r.err_offset, 2);

    static const char hashtag[32] = "\x00\x12\x34\x56\x78";
    uint32_t h = 0;
    atd_reader_init(&r, hashtag, 5, NULL, 0);
    ck_assert_ptr_null(atd_bin_read_field_hashtag_p(&r, hashtag + 1, &h));
    ck_assert_int_eq(r.err_code, ATD_ERR_SYNTAX);
    ck_assert_uint_eq(r.err_offset, 1);
    atd_reader_init(&r, hashtag, 5, NULL, 0);
    ck_assert(atd_bin_read_hashtag_p(&r, hashtag + 1, &h) == hashtag + 5 && h == 0x12345678u);
    ck_assert_ptr_null(atd_bin_read_hashtag_p(&r, hashtag + 2, &h));
    ck_assert_int_eq(r.err_code, ATD_ERR_EOF);

    static const char count[32] = "\x07\x05\x00";
    size_t n = 0;
    atd_reader_init(&r, count, 3, NULL, 0);
    ck_assert_ptr_null(atd_bin_read_count_p(&r, count + 1, &n));
    ck_assert_int_eq(r.err_code, ATD_ERR_EOF);
    ck_assert_uint_eq(r.err_offset, 1);

    /* the byte 0 is the tag bool; 5 is no tag */
    uint8_t tag = 0;
    atd_reader_init(&r, count, 3, NULL, 0);
    ck_assert_ptr_null(atd_bin_read_tag_p(&r, count + 2, ATD_BIN_MASK(ATD_BIN_SVINT), &tag));
    ck_assert_int_eq(r.err_code, ATD_ERR_TYPE);
    ck_assert_uint_eq(r.err_offset, 2);
    atd_reader_init(&r, count, 3, NULL, 0);
    ck_assert_ptr_null(atd_bin_read_tag_p(&r, count + 1, ATD_BIN_ANY_MASK, &tag));
    ck_assert_int_eq(r.err_code, ATD_ERR_SYNTAX);
    ck_assert_uint_eq(r.err_offset, 1);
    atd_reader_init(&r, count, 3, NULL, 0);
    ck_assert_ptr_null(atd_bin_read_tag_p(&r, count + 3, ATD_BIN_ANY_MASK, &tag));
    ck_assert_int_eq(r.err_code, ATD_ERR_EOF);

    /* an svint, a float64, a string, then the end of the input */
    static const char body[32] = "\x03\x40\x09\x21\xfb\x54\x44\x2d\x18\x02hi";
    int64_t v = 0;
    double d = 0;
    atd_string s;
    atd_reader_init(&r, body, 12, arena, 0);
    p = atd_bin_read_int_p(&r, body, ATD_BIN_SVINT, &v);
    ck_assert(p == body + 1 && v == -2);
    p = atd_bin_read_float64_p(&r, p, &d);
    ck_assert(p == body + 9 && d > 3.14159 && d < 3.1416);
    p = atd_bin_read_string_p(&r, p, &s);
    ck_assert(p == body + 12 && s.len == 2 && memcmp(s.ptr, "hi", 3) == 0);
    ck_assert_ptr_null(atd_bin_read_unit_p(&r, p));
    ck_assert_int_eq(r.err_code, ATD_ERR_EOF);
    ck_assert(r.cur == r.end);
}
END_TEST

START_TEST(test_biniou_strict_fields)
{
    char in[64];
    size_t n = unhex("15 03 80000001 18 00 80005bdb 11 0a 84 0b 76 11 17 003c4b4f", in);
    atd_reader r;
    spec_reading v;
    atd_error err;
    atd_reader_init(&r, in, n, arena, 0);
    ck_assert(spec_reading_read_biniou(&r, &v));
    atd_reader_init(&r, in, n, arena, ATD_READ_STRICT_FIELDS);
    ck_assert(!spec_reading_read_biniou(&r, &v));
    ck_assert_int_eq(atd_bin_get_error(&r, &err), ATD_ERR_UNKNOWN_FIELD);
    ck_assert_str_eq(err.message,
                     "byte 2, at $: unknown field hash 0x80000001 in record 'reading'");
}
END_TEST

START_TEST(test_biniou_scalars)
{
    static const struct {
        const char *hex;
        int code;
    } cases[] = {
        {"00 01", 0},
        {"00 02", ATD_ERR_TYPE}, /* bool: only 0 and 1 */
        {"18 00", 0},
        {"18 01", ATD_ERR_TYPE}, /* unit */
        {"16 00", 0},
        {"16 80 11 01", 0},      /* option */
        {"16 40", ATD_ERR_TYPE}, /* neither 0 nor 0x80 */
    };
    atd_error err;
    char in[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = unhex(cases[i].hex, in);
        int rc;
        if (in[0] == 0) {
            bool b;
            atd_reader r;
            atd_reader_init(&r, in + 1, n - 1, NULL, 0);
            rc = atd_bin_read_bool_p(&r, r.cur, &b) != NULL ? 0 : (int)r.err_code;
        } else if (in[0] == 0x18) {
            atd_reader r;
            atd_reader_init(&r, in + 1, n - 1, NULL, 0);
            rc = atd_bin_read_unit_p(&r, r.cur) != NULL ? 0 : (int)r.err_code;
        } else {
            all_int_option o;
            rc = all_int_option_from_biniou(in, n, arena, &o, &err);
        }
        ck_assert_msg(rc == cases[i].code, "%s: %d", cases[i].hex, rc);
    }
}
END_TEST

/* int reprs: each tag as written, range errors with the path. */
START_TEST(test_biniou_int_reprs)
{
    static const char json[] =
        "{\"plain\":-3,\"u\":300,\"i8\":255,\"i16\":65535,\"i32\":-2,\"i64\":-1,\"small\":-7}";
    all_ints v;
    atd_error err;
    atd_buf b;
    atd_buf_init(&b);
    ck_assert_int_eq(all_ints_from_json(json, sizeof json - 1, arena, &v, &err), 0);
    ck_assert_int_eq(all_ints_to_biniou(&v, &b, &err), 0);
    assert_bytes(&b, "15 07 c48dfa0a 11 05  80000075 10 ac02  80005baf 01 ff"
                     "  804fd78e 02 ffff  804fd948 03 fffffffe"
                     "  804fdbe7 04 ffffffffffffffff  ff6af0c7 11 0d");
    all_ints back;
    ck_assert_int_eq(all_ints_from_biniou(b.data, b.len, arena, &back, &err), 0);
    ck_assert(back.u == 300 && back.i8 == 255 && back.i16 == 65535 && back.i32 == -2 &&
              back.i64 == -1 && back.small == -7);
    /* A negative uvint goes out as OCaml writes it, its 63-bit two's
     * complement (9 bytes), and reads back as the same int. */
    v.u = -1;
    atd_buf_clear(&b);
    ck_assert_int_eq(all_ints_to_biniou(&v, &b, &err), 0);
    ck_assert_int_eq(all_ints_from_biniou(b.data, b.len, arena, &back, &err), 0);
    ck_assert(back.u == -1);
    v.u = (int64_t)1 << 62; /* not an OCaml int */
    atd_buf_clear(&b);
    ck_assert_int_eq(all_ints_to_biniou(&v, &b, &err), ATD_ERR_RANGE);
    ck_assert_str_eq(err.message, "at $.u: 4611686018427387904 cannot be written as biniou uvint");
    ck_assert_uint_eq(b.len, 0);
    v.u = 1;
    v.plain = INT64_MAX; /* beyond OCaml's 63 bits */
    ck_assert_int_eq(all_ints_to_biniou(&v, &b, &err), ATD_ERR_RANGE);
    ck_assert_str_eq(err.path, "$.plain");
    v.plain = 0;
    v.i8 = 256;
    ck_assert_int_eq(all_ints_to_biniou(&v, &b, &err), ATD_ERR_RANGE);
    ck_assert_str_eq(err.path, "$.i8");
    /* <c repr="int16">: a value out of its range is an error on read */
    char in[64];
    size_t n = unhex("15 01 ff6af0c7 11 808004", in);
    ck_assert_int_eq(all_ints_from_biniou(in, n, arena, &back, &err), ATD_ERR_RANGE);
    ck_assert_str_eq(err.path, "$.small");
    /* int32 accepts only its own tag */
    n = unhex("15 01 804fd948 11 02", in);
    ck_assert_int_eq(all_ints_from_biniou(in, n, arena, &back, &err), ATD_ERR_TYPE);
    atd_buf_free(&b);
}
END_TEST

START_TEST(test_biniou_tuples)
{
    all_cell c;
    atd_error err;
    char in[64];
    /* only the required prefix: the defaults fill the rest */
    size_t n = unhex("14 02 11 02 12 01 78", in);
    ck_assert_int_eq(all_cell_from_biniou(in, n, arena, &c, &err), 0);
    ck_assert(c.f0 == 1 && c.f1.len == 1 && c.f2 == 1.5 && c.f3);
    /* extra cells are skipped */
    n = unhex("14 06 11 02 12 01 78 0c 0000000000000000 00 00 12 00 13 00", in);
    ck_assert_int_eq(all_cell_from_biniou(in, n, arena, &c, &err), 0);
    ck_assert(c.f2 == 0.0 && !c.f3);
    n = unhex("14 01 11 02", in);
    ck_assert_int_eq(all_cell_from_biniou(in, n, arena, &c, &err), ATD_ERR_TUPLE);
}
END_TEST

/* A table is written for <biniou repr="table"> and read as a table or an
 * array; `?` columns are full options; unknown columns are skipped as atdgen skips them. */
START_TEST(test_biniou_tables)
{
    static const char json[] = "{\"unit_v\":null,\"bool_v\":true,\"ints\":{\"plain\":0,\"u\":0,"
                               "\"i8\":0,\"i16\":0,\"i32\":0,\"i64\":0,\"small\":0},\"floats\":"
                               "{\"f\":0.0,\"f32\":0.0},\"text\":\"\",\"color\":\"Red\","
                               "\"shapes\":[],\"opt\":\"None\",\"nul\":null,\"pair\":[1,2],"
                               "\"cell\":[1,\"a\"],\"rows\":[],\"table\":[{\"id\":1,\"name\":"
                               "\"a\",\"note\":\"n\"},{\"id\":2,\"name\":\"b\"}],\"tree\":"
                               "{\"value\":1},\"assoc\":{},\"nested\":[]}";
    all_everything v, back;
    atd_error err;
    atd_buf b, b2, b3;
    atd_buf_init(&b);
    atd_buf_init(&b2);
    atd_buf_init(&b3);
    ck_assert_int_eq(all_everything_from_json(json, sizeof json - 1, arena, &v, &err), 0);
    ck_assert_int_eq(all_everything_to_biniou(&v, &b, &err), 0);
    const char *table_hash = "\x8a\xe3\xb8\x0e"; /* "table" */
    ck_assert_uint_eq(atd_bin_hash("table", 5) | 0x80000000u, 0x8ae3b80eu);
    const char *at = memmem(b.data, b.len, table_hash, 4);
    ck_assert_ptr_nonnull(at);
    ck_assert_int_eq(at[4], ATD_BIN_TABLE);
    ck_assert_int_eq(at[5], 2);  /* rows */
    ck_assert_int_eq(at[6], 11); /* every field is a column */
    ck_assert_int_eq(all_everything_from_biniou(b.data, b.len, arena, &back, &err), 0);
    ck_assert(back.table.len == 2 && back.table.items[0].has_note && !back.table.items[1].has_note);
    ck_assert_int_eq(all_everything_to_json(&back, &b2, &err), 0);
    ck_assert_int_eq(all_everything_to_json(&v, &b3, &err), 0);
    ck_assert(b2.len == b3.len && memcmp(b2.data, b3.data, b2.len) == 0);
    /* a table read where an array is written, and the reverse: rows, as a table */
    all_row_table t;
    char in[128];
    size_t n = unhex("19 01 03  80005bdb 11  80000001 18  c90a17f2 16"
                     "  0a  18 00  80 12 01 79",
                     in);
    ck_assert_int_eq(all_row_table_from_biniou(in, n, arena, &t, &err), ATD_ERR_MISSING_FIELD);
    ck_assert_str_eq(err.path, "$[0]");
    /* an unknown column: as atdgen, its tag is not looked at and its cells
     * are skipped as tagged values (here a tagged unit, 18 00) */
    n = unhex("19 01 03  80005bdb 11  80000001 ee  c8ff724b 12"
              "  0a  18 00  01 79",
              in);
    ck_assert_int_eq(all_row_table_from_biniou(in, n, arena, &t, &err), 0);
    ck_assert(t.len == 1 && t.items[0].id == 5 && t.items[0].name.len == 1);
    /* so an untagged cell there is misread, and refused, by both */
    n = unhex("19 01 03  80005bdb 11  80000001 18  c8ff724b 12"
              "  0a  00  01 79",
              in);
    ck_assert_int_ne(all_row_table_from_biniou(in, n, arena, &t, &err), 0);
    n = unhex("13 01 15 02 80005bdb 11 0a c8ff724b 12 01 79", in);
    ck_assert_int_eq(all_row_table_from_biniou(in, n, arena, &t, &err), 0);
    ck_assert(t.len == 1 && t.items[0].id == 5);
    n = unhex("19 00", in);
    ck_assert_int_eq(all_row_table_from_biniou(in, n, arena, &t, &err), 0);
    ck_assert_uint_eq(t.len, 0);
    atd_buf_free(&b);
    atd_buf_free(&b2);
    atd_buf_free(&b3);
}
END_TEST

/* A string nullable among a record's fields is written in place (absent:
 * 0; present: 0x80, the string tag, the length, the bytes), short or past
 * the room that the record checks at once (ATD_BIN_RUN_MAX: the checked
 * path), and reads back. */
START_TEST(test_biniou_nullable_strings)
{
    static const char json[] = "{\"unit_v\":null,\"bool_v\":true,\"ints\":{\"plain\":0,\"u\":0,"
                               "\"i8\":0,\"i16\":0,\"i32\":0,\"i64\":0,\"small\":0},\"floats\":"
                               "{\"f\":0.0,\"f32\":0.0},\"text\":\"\",\"color\":\"Red\","
                               "\"shapes\":[],\"opt\":\"None\",\"nul\":null,\"pair\":[1,2],"
                               "\"cell\":[1,\"a\"],\"rows\":[],\"table\":[],\"tree\":"
                               "{\"value\":1},\"assoc\":{},\"nested\":[]}";
    static const long lengths[] = {-1, 0, 1, 127, 128, ATD_BIN_RUN_MAX, 5000, 70000};
    const char head[] = "\x80\x53\xde\x45\x16"; /* "nul", then the nullable's tag */
    ck_assert_uint_eq(atd_bin_hash("nul", 3) | 0x80000000u, 0x8053de45u);
    char *text = malloc(70000);
    ck_assert_ptr_nonnull(text);
    for (size_t i = 0; i < 70000; i++)
        text[i] = (char)('a' + i % 26);
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        all_everything v, back;
        atd_error err;
        atd_buf b;
        atd_buf_init(&b);
        atd_arena_reset(arena);
        ck_assert_int_eq(all_everything_from_json(json, sizeof json - 1, arena, &v, &err), 0);
        v.nul.has = lengths[k] >= 0;
        v.nul.value.ptr = text;
        /* absent: a value that is not looked at */
        v.nul.value.len = lengths[k] >= 0 ? (size_t)lengths[k] : SIZE_MAX;
        ck_assert_int_eq(all_everything_to_biniou(&v, &b, &err), 0);
        const char *at = memmem(b.data, b.len, head, 5);
        ck_assert_ptr_nonnull(at);
        at += 5;
        if (lengths[k] < 0) {
            ck_assert_int_eq(at[0], 0);
        } else {
            size_t len = (size_t)lengths[k];
            char want[16];
            want[0] = (char)0x80;
            want[1] = ATD_BIN_STRING;
            char *q = atd_bin_put_uvint(want + 2, len);
            ck_assert(memcmp(at, want, (size_t)(q - want)) == 0);
            ck_assert(memcmp(at + (q - want), text, len) == 0);
        }
        ck_assert_int_eq(all_everything_from_biniou(b.data, b.len, arena, &back, &err), 0);
        ck_assert(back.nul.has == v.nul.has);
        if (v.nul.has)
            ck_assert(back.nul.value.len == v.nul.value.len &&
                      memcmp(back.nul.value.ptr, text, v.nul.value.len) == 0);
        atd_buf_free(&b);
    }
    free(text);
}
END_TEST

/* Nesting deeper than the reader's limit is an error, in generated readers
 * and in skipping. */
START_TEST(test_biniou_depth)
{
    enum { LEVELS = 3000 };
    atd_buf b;
    atd_buf_init(&b);
    for (int i = 0; i < LEVELS; i++)
        atd_buf_append(&b, "\x15\x02\x80\x00\x00\x01\x11\x00\x80\x00\x00\x02", 12);
    atd_buf_append(&b, "\x15\x00", 2);
    /* tree: value is 0x...; use the real hashes */
    uint32_t hv = atd_bin_hash("value", 5) | 0x80000000u;
    uint32_t hl = atd_bin_hash("left", 4) | 0x80000000u;
    for (int i = 0; i < LEVELS; i++) {
        char *p = b.data + 12 * i;
        atd_bin_put_be(p + 2, hv, 4);
        atd_bin_put_be(p + 8, hl, 4);
    }
    all_tree t;
    atd_error err;
    ck_assert_int_eq(all_tree_from_biniou(b.data, b.len, arena, &t, &err), ATD_ERR_DEPTH);
    /* the same bytes as an unknown field are skipped, to the same limit */
    atd_reader r;
    atd_reader_init(&r, b.data, b.len, NULL, 0);
    ck_assert(!atd_reader_advance(&r, atd_bin_skip_p(&r, r.cur)));
    ck_assert_int_eq(r.err_code, ATD_ERR_DEPTH);
    atd_reader_init(&r, b.data, b.len, NULL, 0);
    r.max_depth = 2 * LEVELS + 10;
    ck_assert(atd_reader_advance(&r, atd_bin_skip_p(&r, r.cur)));
    ck_assert(atd_bin_read_end(&r));
    atd_buf_free(&b);
}
END_TEST

typedef int (*bin_read_fn)(const char *data, size_t len, atd_arena *a, atd_error *err);
typedef int (*bin_write_fn)(const char *data, size_t len, atd_arena *a, atd_buf *out,
                            atd_error *err);

/* For a root type T of schema S: read_S (read only) and roundtrip_S (read;
 * what reads must write, and what is written must read back: the read's
 * status). */
#define BIN_ROOT(S, T)                                                                             \
    static int read_##S(const char *d, size_t n, atd_arena *a, atd_error *err)                     \
    {                                                                                              \
        T v;                                                                                       \
        return T##_from_biniou(d, n, a, &v, err);                                                  \
    }                                                                                              \
    static int roundtrip_##S(const char *d, size_t n, atd_arena *a, atd_buf *out, atd_error *err)  \
    {                                                                                              \
        T v, back;                                                                                 \
        int rc = T##_from_biniou(d, n, a, &v, err);                                                \
        if (rc != 0)                                                                               \
            return rc;                                                                             \
        ck_assert_msg(T##_to_biniou(&v, out, err) == 0, #S ": what was read does not write");      \
        ck_assert_msg(T##_from_biniou(out->data, out->len, a, &back, err) == 0,                    \
                      #S ": what was written does not read back");                                 \
        return 0;                                                                                  \
    }

/* And biniou_of_S (JSON -> biniou, appended to bin), for a bench workload. */
#define BIN_WORKLOAD(S, T)                                                                         \
    BIN_ROOT(S, T)                                                                                 \
    static int biniou_of_##S(const char *json, size_t len, atd_arena *a, atd_buf *bin,             \
                             atd_error *err)                                                       \
    {                                                                                              \
        T v;                                                                                       \
        int rc = T##_from_json(json, len, a, &v, err);                                             \
        return rc != 0 ? rc : T##_to_biniou(&v, bin, err);                                         \
    }

BIN_ROOT(everything, all_everything)
BIN_WORKLOAD(event, bin_event_events)
BIN_WORKLOAD(twitter, bin_twitter_root)
BIN_WORKLOAD(citm_catalog, bin_citm_catalog_root)
BIN_WORKLOAD(canada, bin_canada_root)
BIN_WORKLOAD(github, bin_github_root)
BIN_WORKLOAD(blockchain, bin_blockchain_root)
BIN_WORKLOAD(donut, bin_donut_root)

/* How much of a document is damaged (truncate_and_flip): a document of up
 * to SMALL_DOC bytes at every offset, with every byte flipped by each mask;
 * a larger one at every offset of its first EDGE bytes, of its last EDGE
 * bytes (the last TAIL_BIG when it is over MEDIUM_DOC: each cut there reads
 * nearly all of it) and at ATDC_BIN_SAMPLES (default 256) offsets in
 * between, and flipped at ATDC_BIN_SAMPLES positions, the masks in turn.
 * The sample is seeded by the document's size: the same on every run. */
enum { SMALL_DOC = 16384, MEDIUM_DOC = 65536, EDGE = 4096, TAIL_BIG = 64 };
static const unsigned char flip_masks[] = {0x01, 0x80, 0xff};

static size_t bin_samples(void)
{
    const char *e = getenv("ATDC_BIN_SAMPLES");
    return e != NULL && *e != '\0' ? (size_t)strtoul(e, NULL, 10) : 256;
}

static uint64_t sample_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The first k bytes are an error, at an offset within them, with a message. */
static void truncate_at(const char *what, const char *bin, size_t k, bin_read_fn rd)
{
    atd_error err;
    atd_arena_reset(arena);
    int rc = rd(bin, k, arena, &err);
    ck_assert_msg(rc != 0, "%s: prefix of %zu bytes accepted", what, k);
    ck_assert_msg(err.offset <= k && err.message[0] != 0, "%s: bad error at %zu", what, k);
}

/* Byte k xor mask reads cleanly (and what reads writes and reads back) or
 * is an error with a message; 1 when it read. */
static size_t flip_at(const char *what, const char *bin, char *copy, size_t n, size_t k,
                      unsigned char mask, bin_write_fn rt, atd_buf *out)
{
    atd_error err;
    memcpy(copy, bin, n);
    copy[k] = (char)(copy[k] ^ mask);
    atd_arena_reset(arena);
    atd_buf_clear(out);
    int rc = rt(copy, n, arena, out, &err);
    ck_assert_msg(rc == 0 || err.message[0] != 0, "%s: error without message (byte %zu)", what, k);
    return rc == 0;
}

/* Every cut is an error; every flip is read cleanly or rejected (see SMALL_DOC). */
static void truncate_and_flip(const char *what, const char *bin, size_t n, bin_read_fn rd,
                              bin_write_fn rt)
{
    atd_buf out;
    atd_buf_init(&out);
    char *copy = malloc(n);
    ck_assert_ptr_nonnull(copy);
    size_t accepted = 0, flips = 0;
    if (n <= SMALL_DOC) {
        for (size_t k = 0; k < n; k++)
            truncate_at(what, bin, k, rd);
        for (size_t k = 0; k < n; k++)
            for (size_t f = 0; f < sizeof flip_masks; f++, flips++)
                accepted += flip_at(what, bin, copy, n, k, flip_masks[f], rt, &out);
    } else {
        size_t tail = n <= MEDIUM_DOC ? EDGE : TAIL_BIG, samples = bin_samples();
        uint64_t rng = n * 0x9e3779b97f4a7c15u + 1;
        for (size_t k = 0; k < EDGE; k++)
            truncate_at(what, bin, k, rd);
        for (size_t k = n - tail; k < n; k++)
            truncate_at(what, bin, k, rd);
        for (size_t i = 0; i < samples; i++)
            truncate_at(what, bin, EDGE + (size_t)(sample_next(&rng) % (n - tail - EDGE)), rd);
        for (size_t i = 0; i < samples; i++, flips++)
            accepted += flip_at(what, bin, copy, n, (size_t)(sample_next(&rng) % n),
                                flip_masks[i % sizeof flip_masks], rt, &out);
    }
    /* flips inside strings and numbers keep the document valid */
    if (flips >= 64)
        ck_assert_msg(accepted > 0, "%s: no flip of %zu was accepted", what, flips);
    free(copy);
    atd_buf_free(&out);
}

/* The event workload's input: n events of the bench's shape, seeded. */
static void events_json(atd_buf *b, size_t n)
{
    static const char *const types[] = {"Login", "Purchase", "Logout", "Cancel"};
    uint64_t rng = 42;
    char item[256];
    atd_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        uint64_t r = sample_next(&rng);
        int len = snprintf(item, sizeof item,
                           "%s{\"username\":\"user%u\",\"date\":%llu,\"event_type\":\"%s\","
                           "\"payload\":\"%.*s\"}",
                           i > 0 ? "," : "", (unsigned)(r % 10000),
                           (unsigned long long)(1600000000u + r % 100000000u), types[r % 4],
                           (int)(r >> 58), "the payload of an event, of any length up to 63 bytes");
        atd_buf_append(b, item, (size_t)len);
    }
    atd_buf_putc(b, ']');
}

/* Every bench workload's biniou (its JSON read by the biniou copy of its
 * schema and written as biniou), cut and flipped. */
START_TEST(test_biniou_real_data)
{
    static const struct {
        const char *name; /* bench/NAME.json; the event list is made here */
        int (*biniou_of)(const char *json, size_t len, atd_arena *a, atd_buf *bin, atd_error *err);
        bin_read_fn rd;
        bin_write_fn rt;
    } workloads[] = {
#define WORKLOAD(S) {#S, biniou_of_##S, read_##S, roundtrip_##S}
        WORKLOAD(event),  WORKLOAD(twitter),    WORKLOAD(citm_catalog), WORKLOAD(canada),
        WORKLOAD(github), WORKLOAD(blockchain), WORKLOAD(donut),
#undef WORKLOAD
    };
    for (size_t w = 0; w < sizeof workloads / sizeof workloads[0]; w++) {
        size_t len;
        char *json;
        atd_buf text;
        atd_buf_init(&text);
        if (strcmp(workloads[w].name, "event") == 0) {
            events_json(&text, 1000);
            ck_assert_int_eq(text.status, 0);
            len = text.len;
            json = text.data;
        } else {
            char path[512];
            snprintf(path, sizeof path, "%s/data/bench/%s.json", ATD_SHARED_DIR, workloads[w].name);
            json = test_read_file(path, &len);
            ck_assert_msg(json != NULL, "cannot read %s", path);
        }
        atd_error err;
        atd_buf b;
        atd_buf_init(&b);
        atd_arena_reset(arena);
        ck_assert_msg(workloads[w].biniou_of(json, len, arena, &b, &err) == 0, "%s: %s",
                      workloads[w].name, err.message);
        ck_assert_uint_lt(b.len, len);
        /* the bytes must outlive the arena resets of the damaged reads */
        char *bin = malloc(b.len);
        ck_assert_ptr_nonnull(bin);
        memcpy(bin, b.data, b.len);
        truncate_and_flip(workloads[w].name, bin, b.len, workloads[w].rd, workloads[w].rt);
        free(bin);
        atd_buf_free(&b);
        if (json != text.data)
            free(json);
        atd_buf_free(&text);
    }
}
END_TEST

/* Random documents of type everything as atdgen wrote them (its JSON). */
START_TEST(test_biniou_samples)
{
    size_t len;
    char *all = test_read_file(ATD_SOURCE_DIR "/tests/biniou/everything_samples.json", &len);
    ck_assert_ptr_nonnull(all);
    atd_buf b, j1, j2;
    atd_buf_init(&b);
    atd_buf_init(&j1);
    atd_buf_init(&j2);
    size_t docs = 0;
    for (char *line = all; line < all + len;) {
        char *nl = memchr(line, '\n', (size_t)(all + len - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(all + len - line);
        all_everything v, back;
        atd_error err;
        atd_arena_reset(arena);
        atd_buf_clear(&b);
        atd_buf_clear(&j1);
        atd_buf_clear(&j2);
        ck_assert_int_eq(all_everything_from_json(line, n, arena, &v, &err), 0);
        ck_assert_int_eq(all_everything_to_biniou(&v, &b, &err), 0);
        ck_assert_int_eq(all_everything_from_biniou(b.data, b.len, arena, &back, &err), 0);
        ck_assert_int_eq(all_everything_to_json(&v, &j1, &err), 0);
        ck_assert_int_eq(all_everything_to_json(&back, &j2, &err), 0);
        ck_assert(j1.len == j2.len && memcmp(j1.data, j2.data, j1.len) == 0);
        if (docs < 3) {
            char *bin = malloc(b.len);
            memcpy(bin, b.data, b.len);
            truncate_and_flip("everything", bin, b.len, read_everything, roundtrip_everything);
            free(bin);
        }
        docs++;
        line += n + 1;
    }
    ck_assert_uint_ge(docs, 10);
    free(all);
    atd_buf_free(&b);
    atd_buf_free(&j1);
    atd_buf_free(&j2);
}
END_TEST

/* An allocator that fails its Nth call and counts live blocks. */
typedef struct faulty {
    long calls, fail_at, live, failures;
} faulty;

static void *faulty_alloc(void *ctx, size_t size)
{
    faulty *f = ctx;
    f->calls++;
    if (f->calls == f->fail_at) {
        f->failures++;
        return NULL;
    }
    void *p = malloc(size ? size : 1);
    if (p)
        f->live++;
    return p;
}

static void faulty_free(void *ctx, void *p)
{
    faulty *f = ctx;
    if (p) {
        f->live--;
        free(p);
    }
}

START_TEST(test_biniou_alloc_failures)
{
    size_t len;
    atd_error err;
    char *json = test_read_file(ATD_SOURCE_DIR "/tests/biniou/everything_samples.json", &len);
    ck_assert_ptr_nonnull(json);
    char *nl = memchr(json, '\n', len);
    size_t n = nl ? (size_t)(nl - json) : len;
    all_everything v;
    atd_buf b;
    atd_buf_init(&b);
    ck_assert_int_eq(all_everything_from_json(json, n, arena, &v, &err), 0);
    ck_assert_int_eq(all_everything_to_biniou(&v, &b, &err), 0);
    /* reading: fail allocation 1, 2, ... until the read succeeds */
    long k;
    for (k = 1; k < 10000; k++) {
        faulty f = {0, k, 0, 0};
        atd_allocator al = {faulty_alloc, faulty_free, &f};
        atd_arena *a = atd_arena_new(64, &al);
        int rc = a == NULL ? ATD_ERR_NOMEM : 0;
        if (a != NULL) {
            all_everything back;
            rc = all_everything_from_biniou(b.data, b.len, a, &back, &err);
            atd_arena_free(a);
        }
        ck_assert_msg(f.live == 0, "read: %ld blocks leaked", f.live);
        if (f.failures == 0) {
            ck_assert_int_eq(rc, 0);
            break;
        }
        ck_assert_msg(rc == ATD_ERR_NOMEM, "read: fail at %ld gave %d", k, rc);
    }
    ck_assert_int_gt(k, 2);
    /* writing into a buffer whose allocations fail */
    for (k = 1; k < 1000; k++) {
        faulty f = {0, k, 0, 0};
        atd_allocator al = {faulty_alloc, faulty_free, &f};
        atd_buf out;
        atd_buf_init_with(&out, &al);
        int rc = all_everything_to_biniou(&v, &out, &err);
        int failed = f.failures > 0;
        if (!failed) {
            ck_assert_int_eq(rc, 0);
            ck_assert(out.len == b.len && memcmp(out.data, b.data, b.len) == 0);
        } else {
            ck_assert_int_eq(rc, ATD_ERR_NOMEM);
            ck_assert_uint_eq(out.len, 0);
        }
        atd_buf_free(&out);
        ck_assert_msg(f.live == 0, "write: %ld blocks leaked", f.live);
        if (!failed)
            break;
    }
    free(json);
    atd_buf_free(&b);
}
END_TEST

Suite *biniou_suite(void);
Suite *biniou_suite(void)
{
    Suite *s = suite_create("biniou");
    TCase *prim = tcase_create("primitives");
    tcase_add_test(prim, test_biniou_vints);
    tcase_add_test(prim, test_biniou_vint_lengths);
    tcase_add_test(prim, test_biniou_hashes);
    suite_add_tcase(s, prim);
    TCase *gen = tcase_create("generated");
    tcase_add_checked_fixture(gen, setup, teardown);
    tcase_set_timeout(gen, 120);
    tcase_add_test(gen, test_biniou_worked_example);
    tcase_add_test(gen, test_biniou_record_rules);
    tcase_add_test(gen, test_biniou_cursor_form);
    tcase_add_test(gen, test_biniou_strict_fields);
    tcase_add_test(gen, test_biniou_scalars);
    tcase_add_test(gen, test_biniou_int_reprs);
    tcase_add_test(gen, test_biniou_tuples);
    tcase_add_test(gen, test_biniou_tables);
    tcase_add_test(gen, test_biniou_nullable_strings);
    tcase_add_test(gen, test_biniou_depth);
    tcase_add_test(gen, test_biniou_real_data);
    tcase_add_test(gen, test_biniou_samples);
    tcase_add_test(gen, test_biniou_alloc_failures);
    suite_add_tcase(s, gen);
    return s;
}

ATD_CHECK_MAIN(biniou_suite)
