/* Biniou, atdgen's binary format: the primitives that
 * generated biniou readers and writers are made of.
 *
 * A value is a one-byte tag and a body; inside arrays and tables the bodies
 * appear without their tag (the tag is given once). Generated code reads
 * the tag, checks it against the tags its type accepts (atd_bin_read_tag_p),
 * then reads the body with the functions below.
 *
 * The reader is the JSON reader's atd_reader over the bytes (atd_reader_init),
 * so errors, the path pushed while unwinding ($.events[3].date), the depth
 * limit, the arena and the flags (ATD_READ_BORROW_STRINGS,
 * ATD_READ_STRICT_FIELDS) are one implementation for both formats; only the
 * report differs: atd_bin_get_error says "byte N" instead of line and column.
 * The writer is the JSON atd_writer on an atd_buf (memory or sink), for the
 * same reasons.
 *
 * Limits, as OCaml's reader has them: a vint has at most 9 bytes (63 bits);
 * counts (array length, fields, cells, rows) must fit in the bytes left,
 * since every body takes at least one byte, which also bounds every
 * allocation by the input size. */
#ifndef ATD_BINIOU_H
#define ATD_BINIOU_H

#include <string.h>

#include "common.h"
#include "reader.h"
#include "writer.h"
#include "detail/copy.h" /* the short copy of string bodies */

#ifdef __cplusplus
extern "C" {
#endif

#include "detail/biniou.h" /* the slow paths of the inline functions below */

/* Tags: the byte before every tagged value, naming its kind. */
enum {
    ATD_BIN_BOOL = 0,
    ATD_BIN_INT8 = 1,
    ATD_BIN_INT16 = 2,
    ATD_BIN_INT32 = 3,
    ATD_BIN_INT64 = 4,
    ATD_BIN_FLOAT32 = 11,
    ATD_BIN_FLOAT64 = 12,
    ATD_BIN_UVINT = 16,
    ATD_BIN_SVINT = 17,
    ATD_BIN_STRING = 18,
    ATD_BIN_ARRAY = 19,
    ATD_BIN_TUPLE = 20,
    ATD_BIN_RECORD = 21,
    ATD_BIN_NUM_VARIANT = 22,
    ATD_BIN_VARIANT = 23,
    ATD_BIN_UNIT = 24,
    ATD_BIN_TABLE = 25,
    ATD_BIN_SHARED = 26
};

/* A set of tags, as bits (1u << tag). */
#define ATD_BIN_MASK(tag) ((uint32_t)1 << (tag))
/* What a plain `int` accepts: int8, int16, uvint, svint. */
#define ATD_BIN_INT_MASK                                                                           \
    (ATD_BIN_MASK(ATD_BIN_INT8) | ATD_BIN_MASK(ATD_BIN_INT16) | ATD_BIN_MASK(ATD_BIN_UVINT) |      \
     ATD_BIN_MASK(ATD_BIN_SVINT))

/* Every tag a value may have (all that atdgen writes). */
#define ATD_BIN_ANY_MASK                                                                           \
    (ATD_BIN_MASK(0) | ATD_BIN_MASK(1) | ATD_BIN_MASK(2) | ATD_BIN_MASK(3) | ATD_BIN_MASK(4) |     \
     ATD_BIN_MASK(11) | ATD_BIN_MASK(12) | ATD_BIN_MASK(16) | ATD_BIN_MASK(17) |                   \
     ATD_BIN_MASK(18) | ATD_BIN_MASK(19) | ATD_BIN_MASK(20) | ATD_BIN_MASK(21) |                   \
     ATD_BIN_MASK(22) | ATD_BIN_MASK(23) | ATD_BIN_MASK(24) | ATD_BIN_MASK(25))

/* Worst-case size of a vint. */
#define ATD_BIN_VINT_MAX 10

/* The name of a tag.
 *   tag: a byte value.
 * Returns "svint", "record"... (a static string), or NULL for a byte that
 * is no tag. */
const char *atd_bin_tag_name(unsigned tag);

/* atdgen's hash of a name: h = 223 h + c (mod 2^32) over the bytes, then
 * the low 31 bits. Field hashtags set bit 31; so do variants with an argument.
 *   name: the field's or constructor's name as written in biniou (its ATD
 *         name, or <biniou name>), len bytes.
 * Returns the hash, bit 31 clear. */
uint32_t atd_bin_hash(const char *name, size_t len);

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

/* The parameters of the writers below:
 *   p:      atd_bin_put_*: where the bytes go, room reserved by the caller
 *           (ATD_BIN_VINT_MAX for a vint, n bytes for atd_bin_put_be, the
 *           length's vint and the bytes for a string); *_p: the cursor of
 *           writer.h's cursor form, room checked here.
 *   w:      the writer, whose buffer receives the bytes.
 *   u, v:   the number written (u unsigned).
 *   s, len: a string's bytes.
 *   repr:   how an int is written, as its tag: ATD_BIN_INT8, INT16, INT32,
 *           INT64, UVINT or SVINT.
 * atd_bin_put_* return the end of what they wrote; atd_bin_write_* return
 * true, or false after recording the error in w (the buffer's, or
 * ATD_ERR_RANGE for a number its form cannot hold); *_p return the new
 * cursor, or NULL after recording the error. */

/* Writes the vint forms at p (ATD_BIN_VINT_MAX bytes reserved); returns the end.
 * Two compares find the size class of the vints that dominate: one byte;
 * two or three (counts, small ints); four or more (ids, timestamps), whose
 * first four bytes are put together in a word, with no compare per byte. */
static inline char *atd_bin_put_uvint(char *p, uint64_t u)
{
    if (u < (UINT64_C(1) << 7)) {
        p[0] = (char)(unsigned char)u;
        return p + 1;
    }
    if (u < (UINT64_C(1) << 21)) {
        p[0] = (char)(unsigned char)(u | 0x80);
        if (u < (UINT64_C(1) << 14)) {
            p[1] = (char)(unsigned char)(u >> 7);
            return p + 2;
        }
        p[1] = (char)(unsigned char)((u >> 7) | 0x80);
        p[2] = (char)(unsigned char)(u >> 14);
        return p + 3;
    }
    /* the four 7-bit groups of the low 28 bits, one per byte, low first */
    uint32_t x = (uint32_t)((u & 0x7f) | ((u << 1) & 0x7f00) | ((u << 2) & 0x7f0000) |
                            ((u << 3) & 0x7f000000));
    if (u < (UINT64_C(1) << 28)) {
        atd__bin_put_le32(p, x | 0x808080u);
        return p + 4;
    }
    atd__bin_put_le32(p, x | 0x80808080u);
    p += 4;
    u >>= 28;
    while (u >= 0x80) {
        *p++ = (char)(unsigned char)(u | 0x80);
        u >>= 7;
    }
    *p++ = (char)(unsigned char)u;
    return p;
}

/* The zigzag form of v, the number an svint's vint holds: 0, -1, 1, -2...
 * -> 0, 1, 2, 3... (without signed overflow). Its top bit is set exactly
 * when v is outside [-2^62, 2^62 - 1], the svints OCaml reads: that test is
 * the range check of generated writers, on the value they then write. */
static inline uint64_t atd_bin_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (0 - (uint64_t)(v < 0));
}

static inline char *atd_bin_put_svint(char *p, int64_t v)
{
    return atd_bin_put_uvint(p, atd_bin_zigzag(v));
}

/* The low n bytes of u, big-endian (n at most 8; a constant in the hot
 * paths: 8 and 4 bytes are a byte swap and one store, as in atd_bin_get_be). */
static inline char *atd_bin_put_be(char *p, uint64_t u, unsigned n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                       \
    (defined(__GNUC__) || defined(__clang__))
    if (n == 8) {
        u = __builtin_bswap64(u);
        memcpy(p, &u, 8);
        return p + 8;
    }
    if (n == 4) {
        uint32_t x = __builtin_bswap32((uint32_t)u);
        memcpy(p, &x, 4);
        return p + 4;
    }
#endif
    for (unsigned i = n; i > 0; i--)
        *p++ = (char)(unsigned char)(u >> (8 * (i - 1)));
    return p;
}

/* Unchecked writers for generated code, after one reservation for a run
 * of fields whose size is bounded (a record's fields of scalar, string and
 * enum types): they write at p and return the end. The range checks of
 * atd_bin_write_int come first, with atd_bin_int_fits. */
#define ATD_BIN_RUN_MAX 4096 /* largest such reservation; beyond, the checked path */

/* Whether a run of n bytes at the cursor p of w (n counting strings'
 * lengths) takes the unchecked path: when w has the room already (one
 * compare, the common case), or n is small enough to make room for. */
static inline bool atd_bin_run_fits(const atd_writer *w, const char *p, size_t n)
{
    return (size_t)(w->end - p) >= n || n <= ATD_BIN_RUN_MAX;
}

/* (forced inline, as its copy is: else GCC calls it from large writers) */
static ATD__HOT_INLINE char *atd_bin_put_string(char *p, const char *s, size_t len)
{
    p = atd_bin_put_uvint(p, len);
    atd__copy_short(p, s, len);
    return p + len;
}

static inline char *atd_bin_put_float64(char *p, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return atd_bin_put_be(p, bits, 8);
}

static inline char *atd_bin_put_float32(char *p, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return atd_bin_put_be(p, bits, 4);
}

/* A string body in the cursor form of writer.h: one room check for its
 * length and bytes when it is short, else the buffer's streaming path
 * (atd_bin_write_string at the committed cursor). Returns the new cursor,
 * or NULL after recording the error. Forced inline: a list of strings
 * would otherwise make a call per item (strings.1e5: 2.6M instructions
 * inline, 3.8M called). */
static ATD__HOT_INLINE char *atd_bin_string_p(atd_writer *w, char *p, const char *s, size_t len)
{
    if (ATD_LIKELY(len <= ATD_BIN_RUN_MAX && (size_t)(w->end - p) >= ATD_BIN_VINT_MAX + len))
        return atd_bin_put_string(p, s, len);
    return atd__bin_string_p(w, p, s, len);
}

/* Whether v can be written with `repr` (a constant in generated code, so
 * the switch folds away); see atd_bin_write_int. Returns true when it can. */
static inline bool atd_bin_int_fits(unsigned repr, int64_t v)
{
    switch (repr) {
    case 1: /* int8 */
        return v >= 0 && v <= 255;
    case 2: /* int16 */
        return v >= 0 && v <= 65535;
    case 3: /* int32 */
        return v >= INT32_MIN && v <= INT32_MAX;
    case 4: /* int64 */
        return true;
    default: /* uvint, svint: OCaml's 63-bit ints */
        return v >= -((int64_t)1 << 62) && v <= (((int64_t)1 << 62) - 1);
    }
}

/* The int body of `repr`, for a v that atd_bin_int_fits. */
static inline char *atd_bin_put_int(char *p, unsigned repr, int64_t v)
{
    switch (repr) {
    case 1:
        *p = (char)(unsigned char)v;
        return p + 1;
    case 2:
        return atd_bin_put_be(p, (uint64_t)v, 2);
    case 3:
        return atd_bin_put_be(p, (uint64_t)v, 4);
    case 4:
        return atd_bin_put_be(p, (uint64_t)v, 8);
    case 16:
        /* a negative int as its 63-bit two's complement, as OCaml writes it */
        return atd_bin_put_uvint(p, (uint64_t)v & (((uint64_t)1 << 63) - 1));
    default:
        return atd_bin_put_svint(p, v);
    }
}

/* Records ATD_ERR_RANGE in w: v does not fit `repr` (the message names
 * both). Returns false. */
bool atd_bin_fail_int(atd_writer *w, unsigned repr, int64_t v);

/* One byte (a tag, a bool, a num_variant byte...): the low 8 bits of
 * `byte`. */
static inline bool atd_bin_write_byte(atd_writer *w, unsigned byte)
{
    char *p = atd_buf_reserve(w->buf, 1);
    if (ATD_UNLIKELY(p == NULL))
        return atd_writer_fail_buf(w);
    *p = (char)(unsigned char)byte;
    atd_buf_commit(w->buf, p + 1);
    return true;
}

/* Bodies of numbers: a uvint (any u). */
static inline bool atd_bin_write_uvint(atd_writer *w, uint64_t u)
{
    char *p = atd_buf_reserve(w->buf, ATD_BIN_VINT_MAX);
    if (ATD_UNLIKELY(p == NULL))
        return atd_writer_fail_buf(w);
    atd_buf_commit(w->buf, atd_bin_put_uvint(p, u));
    return true;
}

/* The ints OCaml peers can read: 63 bits, so |v| < 2^62 for svint. */
#define ATD_BIN_INT_MIN (-((int64_t)1 << 62))
#define ATD_BIN_INT_MAX (((int64_t)1 << 62) - 1)

/* An svint body; ATD_ERR_RANGE outside [ATD_BIN_INT_MIN, ATD_BIN_INT_MAX]. */
static inline bool atd_bin_write_svint(atd_writer *w, int64_t v)
{
    if (ATD_UNLIKELY(v < ATD_BIN_INT_MIN || v > ATD_BIN_INT_MAX))
        return atd__bin_fail_range(w, v, "svint");
    char *p = atd_buf_reserve(w->buf, ATD_BIN_VINT_MAX);
    if (ATD_UNLIKELY(p == NULL))
        return atd_writer_fail_buf(w);
    atd_buf_commit(w->buf, atd_bin_put_svint(p, v));
    return true;
}

/* A fixed-width big-endian body: the low n bytes of u, n at most 8
 * (int16, int32, int64, hashtags). */
static inline bool atd_bin_write_be(atd_writer *w, uint64_t u, unsigned n)
{
    char *p = atd_buf_reserve(w->buf, n);
    if (ATD_UNLIKELY(p == NULL))
        return atd_writer_fail_buf(w);
    atd_buf_commit(w->buf, atd_bin_put_be(p, u, n));
    return true;
}

/* A record field's head: its 4-byte hashtag (atd_bin_hash with bit 31 set)
 * and `tag`, the tag of its value. */
static inline bool atd_bin_write_head(atd_writer *w, uint32_t hashtag, unsigned tag)
{
    char *p = atd_buf_reserve(w->buf, 5);
    if (ATD_UNLIKELY(p == NULL))
        return atd_writer_fail_buf(w);
    p = atd_bin_put_be(p, hashtag, 4);
    *p++ = (char)(unsigned char)tag;
    atd_buf_commit(w->buf, p);
    return true;
}

/* The int body of `repr` (a tag: INT8, INT16, INT32, INT64, UVINT, SVINT).
 * Values the repr cannot hold are ATD_ERR_RANGE: as uvint or svint,
 * magnitudes from 2^62 on (not OCaml ints; a negative uvint is written as
 * OCaml does, as its 63-bit two's complement); int8 outside 0..255, int16 outside 0..65535,
 * int32 outside its range. */
bool atd_bin_write_int(atd_writer *w, unsigned repr, int64_t v);

/* A float64 or float32 body: v's IEEE bits, big-endian (NaN and the
 * infinities too: biniou has them). */
static inline bool atd_bin_write_float64(atd_writer *w, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return atd_bin_write_be(w, bits, 8);
}

static inline bool atd_bin_write_float32(atd_writer *w, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return atd_bin_write_be(w, bits, 4);
}

/* A string body: uvint length, then the bytes (any bytes: biniou does not
 * require UTF-8). */
bool atd_bin_write_string(atd_writer *w, const char *s, size_t len);

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

/* The readers below are in the cursor form of reader.h: each takes the
 * cursor p (inside r's input) and returns the cursor past what it read, or
 * NULL after recording the error in r, at the offending byte; they neither
 * read nor write r->cur, so that generated readers keep p in a register:
 *
 *     p = atd_bin_read_int_p(r, p, tag, &iv);
 *     if (p == NULL) return atd_fail_cursor(atd_reader_push_field(r, ATD_LIT("id")));
 *
 * Their parameters:
 *   r:   the reader over the biniou bytes (its end, arena, flags, errors).
 *   p:   the cursor.
 *   out: the value read; written only on success.
 *   tag: the tag of the value whose body is read (checked by the caller).
 * Errors: ATD_ERR_EOF when the input ends first, ATD_ERR_TYPE or
 * ATD_ERR_SYNTAX for bytes that are not what was expected ("corrupted
 * data"), ATD_ERR_RANGE for a value out of range. The hot ones are forced
 * inline (ATD__HOT_INLINE), as the JSON reader's are: in a large generated
 * reader the compiler would otherwise call them. Code that reads at r->cur
 * passes atd_reader_cursor(r) and takes the result back with
 * atd_reader_advance. */

/* Reads a tag and checks that it is in `accept` (a mask of ATD_BIN_MASK
 * bits), setting *tag to it. Errors: end of input; "expected tag svint
 * (17), found string (18)"; tag 26 and bytes that are no tag are
 * "corrupted data". */
static ATD__HOT_INLINE const char *atd_bin_read_tag_p(atd_reader *r, const char *p, uint32_t accept,
                                                      uint8_t *tag)
{
    if (ATD_LIKELY(p < r->end)) {
        unsigned t = (unsigned char)*p;
        if (ATD_LIKELY(t < 32 && ((accept >> t) & 1u))) {
            *tag = (uint8_t)t;
            return p + 1;
        }
    }
    return atd__bin_read_tag_slow(r, p, accept, tag);
}
/* Checks a tag read elsewhere (the element tag of an array, a table column)
 * against `accept`, with the errors of atd_bin_read_tag_p; `at` is the byte
 * offset of that tag, where the error goes. Reads nothing. Returns true when
 * the tag is accepted. */
bool atd_bin_check_tag(atd_reader *r, size_t at, uint32_t accept, uint8_t tag);

/* n bytes at p, big-endian, n at most 8 (a constant in the hot paths: 8
 * and 4 bytes are one load and a byte swap); p must hold n readable bytes.
 * Returns their value. */
static inline uint64_t atd_bin_get_be(const char *p, unsigned n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                       \
    (defined(__GNUC__) || defined(__clang__))
    if (n == 8) {
        uint64_t u;
        memcpy(&u, p, 8);
        return __builtin_bswap64(u);
    }
    if (n == 4) {
        uint32_t u;
        memcpy(&u, p, 4);
        return __builtin_bswap32(u);
    }
#endif
    uint64_t u = 0;
    for (unsigned i = 0; i < n; i++)
        u = (u << 8) | (unsigned char)p[i];
    return u;
}

/* Bodies: one byte, any value. */
static ATD__HOT_INLINE const char *atd_bin_read_byte_p(atd_reader *r, const char *p, uint8_t *out)
{
    if (ATD_UNLIKELY(p >= r->end))
        return atd__bin_fail_eof(r);
    *out = (uint8_t)*p;
    return p + 1;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                       \
    (defined(__GNUC__) || defined(__clang__)) && !defined(ATD_NO_SIMD)
#define ATD_BIN_SWAR 1
#else
#define ATD_BIN_SWAR 0 /* the byte loop of atd__bin_read_uvint_slow (its scalar twin) */
#endif

/* A uvint body (at most 9 bytes, 63 bits; more is "corrupted data").
 * Inline: the one-byte forms and, with 8 bytes left, vints of up to 8
 * bytes decoded from one load with no loop; the rest out of line (the byte
 * loop, the end of the input, errors). */
static ATD__HOT_INLINE const char *atd_bin_read_uvint_p(atd_reader *r, const char *p, uint64_t *out)
{
    if (ATD_LIKELY(p < r->end && (unsigned char)*p < 0x80)) {
        *out = (unsigned char)*p;
        return p + 1;
    }
#if ATD_BIN_SWAR
    if (ATD_LIKELY(r->end - p >= 8)) {
        uint64_t x;
        memcpy(&x, p, 8);
        /* the last byte is the first without its high bit */
        uint64_t stop = ~x & UINT64_C(0x8080808080808080);
        if (ATD_LIKELY(stop != 0)) {
            uint64_t last = stop & (0 - stop);
            x &= ((last << 1) - 1) & UINT64_C(0x7f7f7f7f7f7f7f7f);
            /* join the 7-bit groups: pairs into 14 bits, then 28, then 56 */
            x = (x & UINT64_C(0x007f007f007f007f)) | (x & UINT64_C(0x7f007f007f007f00)) >> 1;
            x = (x & UINT64_C(0x00003fff00003fff)) | (x & UINT64_C(0x3fff00003fff0000)) >> 2;
            x = (x & UINT64_C(0x000000000fffffff)) | (x & UINT64_C(0x0fffffff00000000)) >> 4;
            *out = x;
            return p + (__builtin_ctzll(stop) >> 3) + 1;
        }
    }
#endif
    return atd__bin_read_uvint_slow(r, p, out);
}
/* A count (array length, fields, cells): a uvint no larger than the bytes
 * left, each counted item taking at least one (else "corrupted data" at
 * the count). */
static ATD__HOT_INLINE const char *atd_bin_read_count_p(atd_reader *r, const char *p, size_t *out)
{
    const char *at = p;
    uint64_t u = 0;
    p = atd_bin_read_uvint_p(r, p, &u);
    if (ATD_UNLIKELY(p == NULL))
        return NULL;
    if (ATD_UNLIKELY(u > (uint64_t)(r->end - p)))
        return atd__bin_fail_count(r, at, p, u);
    *out = (size_t)u;
    return p;
}
/* 4 bytes, big-endian (field and variant hashtags). */
static ATD__HOT_INLINE const char *atd_bin_read_hashtag_p(atd_reader *r, const char *p,
                                                          uint32_t *out)
{
    if (ATD_UNLIKELY(r->end - p < 4))
        return atd__bin_fail_eof(r);
    *out = (uint32_t)atd_bin_get_be(p, 4);
    return p + 4;
}
/* Whether the 5 bytes at p are `head` (a field's hashtag and tag, as
 * atdgen writes them): the record readers' guess at the field that comes
 * next, a compare of constant bytes, after which they move p past them.
 * Records no error. */
static ATD__HOT_INLINE bool atd_bin_head_is(const atd_reader *r, const char *p, const char *head)
{
    return ATD_LIKELY(r->end - p >= 5) && memcmp(p, head, 5) == 0;
}
/* A field hashtag: bit 31 must be set (else "corrupted data", as OCaml says). */
static ATD__HOT_INLINE const char *atd_bin_read_field_hashtag_p(atd_reader *r, const char *p,
                                                                uint32_t *out)
{
    if (ATD_LIKELY(r->end - p >= 4)) {
        uint32_t h = (uint32_t)atd_bin_get_be(p, 4);
        if (ATD_LIKELY(h & 0x80000000u)) {
            *out = h;
            return p + 4;
        }
    }
    return atd__bin_read_field_hashtag_slow(r, p);
}
/* The body of an int written with tag `tag` (INT8, INT16, INT32, INT64,
 * UVINT, SVINT; the caller checked the tag). Then, for C types narrower than
 * int64, atd_bin_int_range. */
static ATD__HOT_INLINE const char *atd_bin_read_int_p(atd_reader *r, const char *p, uint8_t tag,
                                                      int64_t *out)
{
    if (ATD_LIKELY(tag == ATD_BIN_SVINT)) {
        /* 9 bytes hold 63 bits: the result fits in int64_t */
        uint64_t u = 0;
        p = atd_bin_read_uvint_p(r, p, &u);
        if (ATD_LIKELY(p != NULL))
            *out = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
        return p;
    }
    return atd__bin_read_int_slow(r, p, tag, out);
}
/* Checks an int read already: true when min <= v <= max, else false after
 * recording ATD_ERR_RANGE at byte offset `at`, where the value started. */
bool atd_bin_int_range(atd_reader *r, size_t at, int64_t v, int64_t min, int64_t max);
/* A bool body (the byte 0 or 1) and a unit body (the byte 0); any other
 * byte is ATD_ERR_TYPE. */
static ATD__HOT_INLINE const char *atd_bin_read_bool_p(atd_reader *r, const char *p, bool *out)
{
    if (ATD_LIKELY(p < r->end && (unsigned char)*p <= 1)) {
        *out = *p != 0;
        return p + 1;
    }
    return atd__bin_read_bool_slow(r, p);
}
const char *atd_bin_read_unit_p(atd_reader *r, const char *p);
/* float64 and float32 bodies: IEEE bits, big-endian. */
static ATD__HOT_INLINE const char *atd_bin_read_float64_p(atd_reader *r, const char *p, double *out)
{
    if (ATD_UNLIKELY(r->end - p < 8))
        return atd__bin_fail_eof(r);
    uint64_t bits = atd_bin_get_be(p, 8);
    memcpy(out, &bits, sizeof *out);
    return p + 8;
}
static ATD__HOT_INLINE const char *atd_bin_read_float32_p(atd_reader *r, const char *p, float *out)
{
    if (ATD_UNLIKELY(r->end - p < 4))
        return atd__bin_fail_eof(r);
    uint32_t bits = (uint32_t)atd_bin_get_be(p, 4);
    memcpy(out, &bits, sizeof *out);
    return p + 4;
}
/* A string body, copied into the arena (NUL-terminated) unless
 * ATD_READ_BORROW_STRINGS: inline while the arena's chunk has room. */
static ATD__HOT_INLINE const char *atd_bin_read_string_p(atd_reader *r, const char *p,
                                                         atd_string *out)
{
    size_t n = 0;
    p = atd_bin_read_count_p(r, p, &n);
    if (ATD_UNLIKELY(p == NULL))
        return NULL;
    if (r->flags & ATD_READ_BORROW_STRINGS) {
        out->ptr = p;
        out->len = n;
        return p + n;
    }
    /* the room left in the arena's chunk (0 before its first chunk, when
     * both ends are NULL): one compare, as the copy needs no alignment */
    atd_arena *a = r->arena;
    if (ATD_UNLIKELY((uintptr_t)a->end - (uintptr_t)a->cur <= n))
        return atd__bin_read_string_slow(r, p, n, out);
    char *s = (char *)atd__arena_take(a, n + 1);
    out->ptr = s;
    out->len = n;
    atd__copy_short(s, p, n);
    s[n] = '\0';
    return p + n;
}

/* Nesting (records, tuples, arrays, tables, variants, options): enter checks
 * and increments r's depth (false after recording ATD_ERR_DEPTH at the
 * cursor p beyond max_depth), leave decrements it. */
static inline bool atd_bin_enter(atd_reader *r, const char *p)
{
    if (ATD_UNLIKELY(r->depth >= r->max_depth))
        return atd__bin_fail_depth(r, p);
    r->depth++;
    return true;
}
static inline void atd_bin_leave(atd_reader *r)
{
    r->depth--;
}

/* Whether the body at p is an array of count 0 that may be entered (r's
 * depth is below its limit): a reader then takes its one byte without a
 * call, with the same outcome. */
static ATD__HOT_INLINE bool atd_bin_empty_at(const atd_reader *r, const char *p)
{
    return p < r->end && *p == 0 && r->depth < r->max_depth;
}

/* Skipping a value of unknown type: a tagged value, or the body of a value
 * of tag `tag`; validated as it is skipped (tags, counts, depth), nothing
 * allocated. */
const char *atd_bin_skip_p(atd_reader *r, const char *p);
const char *atd_bin_skip_body_p(atd_reader *r, const char *p, uint8_t tag);

/* After the top-level value, at r->cur: nothing may follow. Returns true at
 * the end of r's input, else false after recording ATD_ERR_TRAILING. */
bool atd_bin_read_end(atd_reader *r);

/* Reports the recorded error of a biniou reader.
 *   r:   the reader.
 *   err: when not NULL, filled from the error: code, offset, path, and the
 *        message "byte N, at PATH: DETAIL" (line and column are 0: they
 *        mean nothing in binary data).
 * Returns the code (ATD_ERR_OK when there is none). */
int atd_bin_get_error(const atd_reader *r, atd_error *err);

/* The bytes of r's input from the cursor p on (a bound on the size of a
 * table). */
static inline size_t atd_bin_bytes_left(const atd_reader *r, const char *p)
{
    return (size_t)(r->end - p);
}

#ifdef __cplusplus
}
#endif

#endif
