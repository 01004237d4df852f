/* The JSON reader and writer of a list type whose element is read or
 * written by one call, as one macro each: most list types are such, and
 * their loops differ only in names. atd.h includes this file; generated .c
 * files use the macros (the other lists spell their loop out). Not API: the
 * macros may change in any release.
 *
 * A list type T is a struct of `items` (an array of its elements) and `len`;
 * FN is the prefix of its functions. */
#ifndef ATD_DETAIL_LIST_H
#define ATD_DETAIL_LIST_H

/* Defines the cursor-form reader
 *     static ATD_NOINLINE const char *FN_read_p(atd_reader *r, const char *p, T *out)
 * of a JSON array into an array of ELEM in the reader's arena, grown by
 * doubling (atd_read_grow). Not inlined: it runs once per list, and the
 * reader that calls it stays smaller (gcc's time grows faster than a
 * function's size).
 *   ELEM:   the element's C type.
 *   ALIGN:  its alignment in bytes.
 *   READ_P: its cursor-form reader, const char *READ_P(atd_reader *,
 *           const char *, ELEM *).
 * An element's error gets the element's index in the error's path. A step
 * of the array that fails leaves `more` false and the cursor NULL, which
 * the reader returns. */
#define ATD_DEFINE_LIST_READ_P(FN, T, ELEM, ALIGN, READ_P)                                         \
    static ATD_NOINLINE const char *FN##_read_p(atd_reader *r, const char *p, T *out)              \
    {                                                                                              \
        bool more;                                                                                 \
        size_t len = 0, cap = 0;                                                                   \
        ELEM *items = NULL;                                                                        \
        p = atd_array_begin_p(r, p, &more);                                                        \
        while (more) {                                                                             \
            if (len == cap) {                                                                      \
                items = (ELEM *)atd_read_grow(r, p, items, &cap, sizeof(ELEM), ALIGN);             \
                if (items == NULL)                                                                 \
                    return NULL;                                                                   \
            }                                                                                      \
            p = READ_P(r, p, &items[len]);                                                         \
            if (p == NULL)                                                                         \
                return atd_fail_cursor(atd_reader_push_index(r, len));                             \
            len++;                                                                                 \
            p = atd_array_next_p(r, p, &more);                                                     \
        }                                                                                          \
        out->items = items;                                                                        \
        out->len = len;                                                                            \
        return p;                                                                                  \
    }

/* Defines the cursor-form writer
 *     static char *FN_write_p(atd_writer *w, char *p, const T *v)
 * of the JSON array of v's items.
 *   WRITE_P: the element's cursor-form writer, char *WRITE_P(atd_writer *,
 *            char *, const ELEM *).
 * An element's error gets the element's index in the error's path. */
#define ATD_DEFINE_LIST_WRITE_P(FN, T, WRITE_P)                                                    \
    static char *FN##_write_p(atd_writer *w, char *p, const T *v)                                  \
    {                                                                                              \
        size_t i;                                                                                  \
        p = atd_writer_raw_p(w, p, ATD_LIT("["));                                                  \
        if (p == NULL)                                                                             \
            return NULL;                                                                           \
        for (i = 0; i < v->len; i++) {                                                            \
            p = atd_writer_comma_p(w, p, i > 0);                                                   \
            if (p == NULL)                                                                         \
                return NULL;                                                                       \
            p = WRITE_P(w, p, &v->items[i]);                                                       \
            if (p == NULL)                                                                         \
                return atd_writer_fail_cursor(atd_writer_push_index(w, i));                        \
        }                                                                                          \
        return atd_writer_raw_p(w, p, ATD_LIT("]"));                                               \
    }

#endif
