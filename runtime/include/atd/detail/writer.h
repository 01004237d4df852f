/* Internals of atd/writer.h, which includes this file after its types (inside
 * its extern "C" block): the out-of-line halves of its inline string, room
 * and cursor functions. Not API: these names may change in any release. */
#ifndef ATD_DETAIL_WRITER_H
#define ATD_DETAIL_WRITER_H

/* Strings up to this length are written in the room already there, with no
 * flush or growth between the key and the string. */
#define ATD__SHORT_STRING 4096

/* atd_writer_key_string's general form (any key length, long strings, sinks). */
bool atd__writer_key_string(atd_writer *w, const char *key, size_t key_len, const char *s,
                            size_t len);
/* The string, quoted, at p (inside the buffer's free room, with
 * ATD_ESCAPED_MAX(len) bytes there), then committed up to its end. On
 * invalid UTF-8 nothing is committed and the error is recorded. */
bool atd__writer_string_at(atd_writer *w, char *p, const char *s, size_t len);

/* The slow path of atd_writer_cursor: a buffer without storage yet, or failed. */
char *atd__writer_cursor_slow(atd_writer *w);

/* The slow path of atd_writer_room: commits p, makes room for n bytes
 * (flushing or growing the buffer), and returns the new cursor; NULL after
 * recording the buffer's failure. */
char *atd__writer_room_slow(atd_writer *w, char *p, size_t n);

/* The general cases of atd_writer_key_string_p: the string written by
 * atd_writer_key_string at the committed cursor (out of room, long strings,
 * keys that are not short literals). */
char *atd__writer_key_string_p(atd_writer *w, char *p, const char *key, size_t key_len,
                               const char *s, size_t len);
/* The string after the key already copied at p[0..key_len), with room for
 * key_len + len + 2 bytes there: quoted at p + key_len when it is plain
 * ASCII with nothing to escape, else escaped in the room if there is enough
 * for its worst case, else written by atd__writer_key_string_p. Invalid
 * UTF-8 writes nothing and returns NULL (ATD_ERR_UTF8 recorded). */
char *atd__writer_string_p(atd_writer *w, char *p, const char *key, size_t key_len, const char *s,
                           size_t len);

#endif
