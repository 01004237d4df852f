/* Internals of atd/biniou.h, which includes this file at the top of its
 * extern "C" block: the out-of-line halves of its inline writers and readers.
 * Not API: these names may change in any release. */
#ifndef ATD_DETAIL_BINIOU_H
#define ATD_DETAIL_BINIOU_H

/* Writing: a string body past the inline room check (long strings, a full
 * buffer); the range error of atd_bin_write_svint. */
char *atd__bin_string_p(atd_writer *w, char *p, const char *s, size_t len);
bool atd__bin_fail_range(atd_writer *w, int64_t v, const char *repr);

/* Reading, in the cursor form of atd/biniou.h: the paths the inline
 * readers leave (the end of the input, the byte loop of vints, a full arena
 * chunk) and their errors, recorded in r; those returning a cursor return
 * NULL on error, the others false. */
const char *atd__bin_read_tag_slow(atd_reader *r, const char *p, uint32_t accept, uint8_t *tag);
const char *atd__bin_read_uvint_slow(atd_reader *r, const char *p, uint64_t *out);
const char *atd__bin_read_int_slow(atd_reader *r, const char *p, uint8_t tag, int64_t *out);
const char *atd__bin_read_string_slow(atd_reader *r, const char *p, size_t n, atd_string *out);
const char *atd__bin_read_field_hashtag_slow(atd_reader *r, const char *p);
const char *atd__bin_read_bool_slow(atd_reader *r, const char *p);
const char *atd__bin_fail_count(atd_reader *r, const char *at, const char *p, uint64_t u);
const char *atd__bin_fail_eof(atd_reader *r);
bool atd__bin_fail_depth(atd_reader *r, const char *p);

/* The 4 bytes of x at p, least significant first: one store where the
 * byte order allows it. */
static inline void atd__bin_put_le32(char *p, uint32_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &x, 4);
#else
    p[0] = (char)(unsigned char)x;
    p[1] = (char)(unsigned char)(x >> 8);
    p[2] = (char)(unsigned char)(x >> 16);
    p[3] = (char)(unsigned char)(x >> 24);
#endif
}

#endif
