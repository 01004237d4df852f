/* The stream and layout entry points of every exported type: thin typed
 * wrappers over the runtime's generic stream.h and pretty.h functions, which
 * take the type's reader or writer through the agreed untyped shims
 * (P_t_read_any, P_t_write_any). One function here per kind of wrapper, so
 * the header prototypes and the definitions cannot drift apart. */
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

/* Emits
 *     bool event_event_read_any(atd_reader *r, void *out)
 *     {
 *         return event_event_read(r, (event_event *)out);
 *     }
 */
void emit_read_any(cw *w, const char *name)
{
    cw_line(w, "bool %s_read_any(atd_reader *r, void *out)", name);
    cw_open(w, "{");
    cw_line(w, "return %s_read(r, (%s *)out);", name, name);
    cw_close(w, "}");
    cw_blank(w);
}

void emit_write_any(cw *w, const char *name)
{
    cw_line(w, "bool %s_write_any(atd_writer *w, const void *value)", name);
    cw_open(w, "{");
    cw_line(w, "return %s_write(w, (const %s *)value);", name, name);
    cw_close(w, "}");
    cw_blank(w);
}

/* Emits, for event_event:
 *     bool event_event_next_line(atd_stream *s, atd_arena *arena, event_event *out)
 *     {
 *         return atd_stream_next_line(s, arena, event_event_read_any, out);
 *     }
 * and likewise next_element (atd_stream_next_element) and write_line
 * (atd_write_line), unless --no-stream, and to_json_pretty
 * (atd_write_value, ATD_WRITE_PRETTY), unless --no-pretty. */
void emit_stream_functions(cw *w, const ir_module *m, const char *name)
{
    if (!m->no_stream) {
        cw_line(w, "bool %s_next_line(atd_stream *s, atd_arena *arena, %s *out)", name, name);
        cw_open(w, "{");
        cw_line(w, "return atd_stream_next_line(s, arena, %s_read_any, out);", name);
        cw_close(w, "}");
        cw_blank(w);
        cw_line(w, "bool %s_next_element(atd_stream *s, atd_arena *arena, %s *out)", name, name);
        cw_open(w, "{");
        cw_line(w, "return atd_stream_next_element(s, arena, %s_read_any, out);", name);
        cw_close(w, "}");
        cw_blank(w);
        cw_line(w, "int %s_write_line(const %s *value, atd_buf *out, atd_error *err)", name, name);
        cw_open(w, "{");
        cw_line(w, "return atd_write_line(out, %s_write_any, value, 0, err);", name);
        cw_close(w, "}");
        cw_blank(w);
    }
    if (!m->no_pretty) {
        cw_line(w, "int %s_to_json_pretty(const %s *value, atd_buf *out, atd_error *err)", name,
                name);
        cw_open(w, "{");
        cw_line(w, "return atd_write_value(out, %s_write_any, value, ATD_WRITE_PRETTY, err);",
                name);
        cw_close(w, "}");
        cw_blank(w);
    }
    cw_end_item(w);
}
