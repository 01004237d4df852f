/* The options of readers and writers, in one place. Functions take a
 * combination of them (or-ed) as `unsigned flags`; 0 is the default
 * behaviour everywhere. */
#ifndef ATD_FLAGS_H
#define ATD_FLAGS_H

#ifdef __cplusplus
extern "C" {
#endif

/* atd_reader_init, atd_from_json_flags. */
typedef enum atd_read_flags {
    /* Strings without escapes point into the input instead of being copied.
     * The input must then outlive the values read. */
    ATD_READ_BORROW_STRINGS = 1u << 0,
    /* Unknown record fields are an error (atdgen's -j-strict-fields). */
    ATD_READ_STRICT_FIELDS = 1u << 1,
    /* atdgen's syntactic leniencies (what Yojson tolerates): comments,
     * raw control bytes and invalid UTF-8 in strings, bare NaN/Infinity for
     * floats, text after the top-level value. */
    ATD_READ_LENIENT = 1u << 2
} atd_read_flags;

/* atd_writer_init, atd_to_json_flags, atd_buf_write_string. */
typedef enum atd_write_flags {
    /* Write strings that are not valid UTF-8 as they are instead of failing. */
    ATD_WRITE_ALLOW_INVALID_UTF8 = 1u << 0,
    /* Write every `~` field, even one equal to its default (atdgen's
     * -j-defaults). Absent `?` fields stay omitted. */
    ATD_WRITE_DEFAULTS = 1u << 1,
    /* Indented output (pretty.h: atd_write_value, P_t_to_json_pretty); the
     * value writers themselves always write compact JSON. */
    ATD_WRITE_PRETTY = 1u << 2,
    /* Call the schema's validators (validate.h) before writing (off by
     * default: a value built by the program is usually trusted). */
    ATD_WRITE_VALIDATE = 1u << 3
} atd_write_flags;

#ifdef __cplusplus
}
#endif

#endif
