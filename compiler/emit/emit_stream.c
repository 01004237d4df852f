/* The stream and layout entry points of every exported type: thin typed
 * wrappers over the runtime's generic stream.h and pretty.h functions, which
 * take the type's reader or writer through the agreed untyped shims
 * (P_t_read_any, P_t_write_any), defined by the macros of
 * atd/detail/entry_points.h. The header prototypes are emitted here too, so
 * that they and the definitions cannot drift apart. */
#include "emit.h"

void emit_any_prototypes(cw *w, const char *name)
{
    cw_line(w, "bool %s_read_any(atd_reader *r, void *out);", name);
    cw_line(w, "bool %s_write_any(atd_writer *w, const void *value);", name);
}

void emit_stream_prototypes(cw *w, const ir_module *m, const char *name)
{
    if (!m->no_stream) {
        cw_line(w, "bool %s_next_line(atd_stream *s, atd_arena *arena, %s *out);", name, name);
        cw_line(w, "bool %s_next_element(atd_stream *s, atd_arena *arena, %s *out);", name, name);
        cw_line(w, "int %s_write_line(const %s *value, atd_buf *out, atd_error *err);", name,
                name);
    }
    if (!m->no_pretty)
        cw_line(w, "int %s_to_json_pretty(const %s *value, atd_buf *out, atd_error *err);", name,
                name);
}

/* Emits, for event_event (atd/detail/entry_points.h):
 *     ATD_DEFINE_STREAM_ENTRY_POINTS(event_event)
 * (next_line, next_element and write_line, over atd_stream_next_line,
 * atd_stream_next_element and atd_write_line) unless --no-stream, and
 *     ATD_DEFINE_PRETTY_ENTRY_POINT(event_event)
 * (to_json_pretty: atd_write_value with ATD_WRITE_PRETTY) unless --no-pretty. */
void emit_stream_functions(cw *w, const ir_module *m, const char *name)
{
    /* a line each, one type after the other: a list of what exists */
    if (!m->no_stream)
        cw_line(w, "ATD_DEFINE_STREAM_ENTRY_POINTS(%s)", name);
    if (!m->no_pretty)
        cw_line(w, "ATD_DEFINE_PRETTY_ENTRY_POINT(%s)", name);
    cw_end_item(w);
}
