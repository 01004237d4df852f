/* The typed entry points that generated code defines for each type, as one
 * macro each: every type's are the same few lines around the runtime's
 * generic functions, differing only in the type's name. atd.h includes this
 * file; generated .c files use the macros, and their headers declare (and
 * document) the functions. Not API: the macros may change in any release.
 *
 * FN is the prefix of the type's functions and T its C type; for the entry
 * points of an exported type both are its C name. */
#ifndef ATD_DETAIL_ENTRY_POINTS_H
#define ATD_DETAIL_ENTRY_POINTS_H

/* FN_read on the reader's own cursor, around the cursor-form FN_read_p;
 * LINKAGE is static or extern. */
#define ATD_DEFINE_READ(LINKAGE, FN, T)                                                            \
    LINKAGE bool FN##_read(atd_reader *r, T *out)                                                  \
    {                                                                                              \
        return atd_reader_advance(r, FN##_read_p(r, atd_reader_cursor(r), out));                   \
    }

/* FN_write on the buffer's end, around the cursor-form FN_write_p. */
#define ATD_DEFINE_WRITE(FN, T)                                                                    \
    bool FN##_write(atd_writer *w, const T *v)                                                     \
    {                                                                                              \
        return atd_writer_finish(w, FN##_write_p(w, atd_writer_cursor(w), v));                     \
    }

/* T_read_any (T_read behind atd_read_fn) and T_from_json (document.h). */
#define ATD_DEFINE_READ_ENTRY_POINTS(T)                                                            \
    bool T##_read_any(atd_reader *r, void *out)                                                    \
    {                                                                                              \
        return T##_read(r, (T *)out);                                                              \
    }                                                                                              \
    int T##_from_json(const char *json, size_t len, atd_arena *arena, T *out, atd_error *err)      \
    {                                                                                              \
        return atd_from_json(json, len, arena, T##_read_any, out, err);                            \
    }

/* T_write_any (T_write behind atd_write_fn) and T_to_json (document.h). */
#define ATD_DEFINE_WRITE_ENTRY_POINTS(T)                                                           \
    bool T##_write_any(atd_writer *w, const void *value)                                           \
    {                                                                                              \
        return T##_write(w, (const T *)value);                                                     \
    }                                                                                              \
    int T##_to_json(const T *value, atd_buf *out, atd_error *err)                                  \
    {                                                                                              \
        return atd_to_json(T##_write_any, value, out, err);                                        \
    }

/* T_next_line, T_next_element and T_write_line (stream.h, pretty.h). */
#define ATD_DEFINE_STREAM_ENTRY_POINTS(T)                                                          \
    bool T##_next_line(atd_stream *s, atd_arena *arena, T *out)                                    \
    {                                                                                              \
        return atd_stream_next_line(s, arena, T##_read_any, out);                                  \
    }                                                                                              \
    bool T##_next_element(atd_stream *s, atd_arena *arena, T *out)                                 \
    {                                                                                              \
        return atd_stream_next_element(s, arena, T##_read_any, out);                               \
    }                                                                                              \
    int T##_write_line(const T *value, atd_buf *out, atd_error *err)                               \
    {                                                                                              \
        return atd_write_line(out, T##_write_any, value, 0, err);                                  \
    }

/* T_from_biniou and T_to_biniou (document.h), around T_read_biniou and
 * T_write_biniou behind the untyped function types. */
#define ATD_DEFINE_BINIOU_ENTRY_POINTS(T)                                                          \
    static bool T##__read_biniou_any(atd_reader *r, void *out)                                     \
    {                                                                                              \
        return T##_read_biniou(r, (T *)out);                                                       \
    }                                                                                              \
    static bool T##__write_biniou_any(atd_writer *w, const void *value)                            \
    {                                                                                              \
        return T##_write_biniou(w, (const T *)value);                                              \
    }                                                                                              \
    int T##_from_biniou(const char *data, size_t len, atd_arena *arena, T *out, atd_error *err)    \
    {                                                                                              \
        return atd_from_biniou(data, len, arena, T##__read_biniou_any, out, err);                  \
    }                                                                                              \
    int T##_to_biniou(const T *value, atd_buf *out, atd_error *err)                                \
    {                                                                                              \
        return atd_to_biniou(T##__write_biniou_any, value, out, err);                              \
    }

/* T_to_json_pretty (pretty.h). */
#define ATD_DEFINE_PRETTY_ENTRY_POINT(T)                                                           \
    int T##_to_json_pretty(const T *value, atd_buf *out, atd_error *err)                           \
    {                                                                                              \
        return atd_write_value(out, T##_write_any, value, ATD_WRITE_PRETTY, err);                  \
    }

#endif
