/* C code generation from the lowered and sorted module (lower/ir.h): the
 * two entry points that the driver calls, and the interface between the
 * emitter files. Each renders into a code writer (cw.h) in memory; out of
 * memory shows in the writer's buffer status, which the driver checks. */
#ifndef ATDC_EMIT_H
#define ATDC_EMIT_H

#include <stdbool.h>
#include <stddef.h>

#include "cw.h"
#include "lower/ir.h"

/* The whole header <base>.h of module m (emit_h.c). */
void emit_header(cw *w, const ir_module *m);
/* The whole source <base>.c (emit.c): readers, then writers. */
void emit_source(cw *w, const ir_module *m);

/* The end of an entry point that returns 0 or an error code with an
 * atd_error *err: err cleared when given, then 0. */
void emit_return_success(cw *w);

/* A call in cursor form and its check: `p = CALL;`, then `fail` (one
 * statement) when it returned NULL. */
void emit_cursor_call(cw *w, const char *call, const char *fail);

/* A record's reader and writer have one exit for a field's failure, which
 * pushes the field's name onto the error's path:
 *     int field = 0;
 *     ...
 *     if (p == NULL) { field = 1; goto fail; }
 *     ...
 * fail:
 *     return atd_fail_cursor(atd_reader_push_field(r, event_event__names[field].ptr, ...));
 * emit_field_names_table emits that table of the JSON names of every field
 * of t, in order, once before the reader (the writer, emitted after the
 * readers, uses it too):
 *     static const atd_string event_event__names[] = {{ATD_LIT("date")}, {ATD_LIT("note")}};
 * emit_field_fail gives the failure statement of field i. */
void emit_field_names_table(cw *w, const ir_type *t);
const char *emit_field_fail(cw *w, size_t i);

/* --- between the emitter files --- */

/* emit.c: which of m->types get a C definition and functions (used[i] for
 * m->types[i]): the exported ones and every type their definitions and
 * functions name, transitively; for biniou, only from the roots that have
 * biniou functions. A type the schema mentions only where it is not used
 * (the `T option` of a `?x : T option` field, which holds a T) is left out.
 * NULL when out of memory; util_free it. */
bool *emit_used_types(const ir_module *m, bool biniou);

/* emit_h.c: the static prototypes at the top of the source, of the types
 * that are not exported and have functions (used[i] for m->types[i]:
 * reachable from the exported ones). */
void emit_internal_prototypes(cw *w, const ir_module *m, const bool *used);

/* The functions of a schema's API, for every exported type (ir_type.exported)
 * and typedef P_t, declared in the header:
 *     void P_t_init(P_t *v);
 *     bool P_t_read(atd_reader *r, P_t *out);
 *     bool P_t_write(atd_writer *w, const P_t *v);
 *     bool P_t_read_any(atd_reader *r, void *out);          (an atd_read_fn)
 *     bool P_t_write_any(atd_writer *w, const void *value); (an atd_write_fn)
 *     int P_t_from_json(const char *json, size_t len, atd_arena *arena, P_t *out,
 *                       atd_error *err);
 *     int P_t_to_json(const P_t *value, atd_buf *out, atd_error *err);
 * from_json and to_json are calls of the runtime's atd_from_json and
 * atd_to_json (document.h) with read_any and write_any. Every other
 * composite type has only static read and write functions in the source
 * (and init where its reader needs one, emit_has_init), declared before
 * all of them (emit_internal_prototypes). */

/* "static " for the functions of a type that is not exported, else "". */
static inline const char *emit_linkage(const ir_type *t)
{
    return t->exported ? "" : "static ";
}

/* emit_read.c: init, read and the read entry points of a composite type /
 * a typedef; init alone (--types-only). */
void emit_type_readers(cw *w, const ir_module *m, const ir_type *t);
void emit_def_readers(cw *w, const ir_module *m, const ir_def *d);
void emit_type_init(cw *w, const ir_type *t);
void emit_def_init(cw *w, const ir_def *d);
/* Whether composite t has an init function (exported, imported, or a record
 * or tuple, whose reader starts with it). */
bool emit_has_init(const ir_type *t);
/* Whether composite t has a reader of its own in this module, in the p
 * form (the cursor in a local, emit_read.c): static const char
 * *P_t_read_p(atd_reader *r, const char *p, P_t *out), with P t_read around
 * it only when t is exported. False for a type imported from another
 * schema, read through its bool P t_read. */
bool emit_has_p_reader(const ir_type *t);
/* Emits the initialization of *ptr, a value of composite type t: its init
 * function, or what that would do (the first constant of an enum, else all
 * zero bytes). */
void emit_init_call(cw *w, const ir_type *t, const char *ptr);

/* emit_write.c: write and the write entry points. */
/* Whether composite t has a writer of its own in this module, in the p form
 * (the output cursor in a local, emit_write.c): static char
 * *P_t_write_p(atd_writer *w, char *p, const P_t *v), with P t_write around
 * it only when t is exported. False for a type imported from another
 * schema, written through its bool P t_write. */
bool emit_has_p_writer(const ir_type *t);
void emit_type_writers(cw *w, const ir_module *m, const ir_type *t);
void emit_def_writers(cw *w, const ir_module *m, const ir_def *d);
/* The tables of enum literals that the writers share; before the writers
 * (of the enums with functions, used[i] as for emit_internal_prototypes). */
void emit_writer_tables(cw *w, const ir_module *m, const bool *used);

/* emit_read.c: the statements that read a slot at the cursor p into the
 * lvalue lv, running `fail` on error. */
void emit_read_slot(cw *w, const ir_slot *s, const char *lv, const char *fail);

/* emit_adapter.c: atdgen's built-in JSON adapters (ir_adapter). The '{'
 * branch of a Type_field sum's reader; the case of a constructor with a
 * record argument in its writer; prototypes of the tagged record writers,
 * before all writers. */
void emit_sum_read_type_field(cw *w, const ir_type *t);
void emit_type_field_case_write(cw *w, const ir_type *t, const ir_case *k);
void emit_adapter_prototypes(cw *w, const ir_module *m);
/* Custom adapters (<json adapter.c="NAME">, atd/adapter.h): P t_read_p and
 * P t_write_p around the plain P t__plain_read_p / _write_p; the user's
 * functions' prototypes in the header; the name of a tagged writer. */
/* Whether t is such a type; then *plain is t under the plain name
 * (P t__plain), not exported, for the plain reader and writer. */
bool emit_plain_type(cw *w, const ir_type *t, ir_type *plain);
void emit_adapted_read(cw *w, const ir_type *t);
void emit_adapted_write(cw *w, const ir_type *t);
void emit_adapter_declarations(cw *w, const ir_module *m);
const char *emit_tagged_writer_name(cw *w, const ir_type *t);
/* With ATD_WRITE_VALIDATE, calls validator on rv (a pointer when ptr) and
 * runs fail when it refuses. */
void emit_validator_write_check(cw *w, const char *validator, bool ptr, const char *rv,
                                const char *fail);

/* emit_adapter.c: Type_and_value_fields (ir_tv) on a record t: the
 * function that reads the value field given the tag (before the record
 * reader), the record reader's start (finds the tag), the read of the value
 * field (present, or missing at the end), the condition that lets the type
 * field through ATD_READ_STRICT_FIELDS (" && ..."); whether field i is the
 * value field; the writer's helpers (before the tagged writer) and t's
 * writer. */
void emit_tv_read_function(cw *w, const ir_type *t);
void emit_tv_read_begin(cw *w, const ir_type *t);
void emit_tv_field_read(cw *w, const ir_type *t, bool present, const char *fail);
const char *emit_tv_not_type_key(cw *w, const ir_type *t);
bool emit_tv_is_value(const ir_type *t, size_t i);
void emit_tv_write_functions(cw *w, const ir_type *t);
void emit_tv_record_write(cw *w, const ir_type *t);
/* emit_write.c: the statements that write a slot rv at the cursor p, running
 * `fail` on error. */
void emit_write_slot(cw *w, const ir_slot *s, const char *rv, const char *fail);

/* emit_validators.c: the checks c of a value of type t (ir_check), lv / rv
 * being the value, or a pointer to it when ptr. In a reader, after reading
 * it, `at` naming the variable that holds its offset; in a writer, before
 * writing it, under ATD_WRITE_VALIDATE. `fail` runs on a refusal. Then the
 * prototypes of every validator the module names. */
void emit_validators_read(cw *w, const ir_check *c, const ir_type *t, bool ptr, const char *lv,
                          const char *at, const char *fail);
void emit_validators_write(cw *w, const ir_check *c, const ir_type *t, bool ptr, const char *rv,
                           const char *fail);
void emit_validators_declarations(cw *w, const ir_module *m);
/* emit_biniou.c: the biniou functions of every type with biniou functions
 * (used[i]: reached from the exported types and typedefs that are not
 * bin_skip; after the JSON ones; entry points for the exported ones), and
 * the four prototypes of a type. */
void emit_biniou_source(cw *w, const ir_module *m, const bool *used);
void emit_biniou_prototypes(cw *w, const char *name);
/* The biniou tag of t, and the statements writing / reading a slot's
 * tagged biniou value (writer `w`, reader `r`), for emit_lazy.c. */
unsigned emit_biniou_tag(const ir_type *t);
void emit_biniou_write_tagged(cw *w, const ir_slot *s, const char *rv, const char *fail);
void emit_biniou_read_tagged(cw *w, const ir_slot *s, const char *lv, const char *fail);
/* emit_lazy.c: the lazy format's API (atdc --lazy, docs/lazy-format.md;
 * check/check_formats.c refused what it cannot hold): view types and
 * prototypes in the header, functions in the source (after the biniou
 * ones). */
void emit_lazy_header(cw *w, const ir_module *m);
void emit_lazy_source(cw *w, const ir_module *m, const bool *used);

/* emit_value_ops.c: deep copy and value equality (not with --types-only):
 *     int P_t_copy(const P_t *src, atd_arena *a, P_t *dst);
 *     bool P_t_equal(const P_t *a, const P_t *b);
 * for every exported type and typedef (prototypes in the header), static
 * ones for the other types with functions (used[i]) that need them. */
void emit_value_ops_prototypes(cw *w, const char *name);
void emit_value_ops_source(cw *w, const ir_module *m, const bool *used);
/* The static prototypes of the copy and equal functions of the types that
 * are not exported, emitted before the readers: the writers compare `~`
 * fields with their defaults through them. */
void emit_value_ops_internal_prototypes(cw *w, const ir_module *m, const bool *used);
/* The expression that is true when the values of type t at lvalues x and
 * y are equal, or NULL when they always are (unit). */
const char *emit_equal_value_expr(cw *w, const ir_type *t, const char *x, const char *y);
/* emit_names.c: P_t_name and P_t_of_name of an exported enum, or of the tag
 * type P_t_tag of an exported sum (emit_has_names). */
bool emit_has_names(const ir_type *t);
void emit_names_prototypes(cw *w, const ir_type *t);
void emit_names_functions(cw *w, const ir_type *t);

/* emit_match.c: `static ATTRS int NAME(const char *s, size_t len)` returning
 * the index i of names[i] (lens[i] bytes) equal to s[0..len), or -1. Only
 * the entries with use[i] set take part (use may be NULL). */
void emit_match_function(cw *w, const char *attrs, const char *name, const char *const *names,
                         const size_t *lens, const bool *use, size_t n);
/* emit_match_function over the JSON names of the constructors of `sum`. */
void emit_case_match(cw *w, const ir_type *sum, const char *name);
/* Whether the input can hold a name as it is, so that a reader may match
 * it byte for byte: printable ASCII without quote or backslash (anything
 * else is escaped or needs validating). */
bool emit_name_is_plain(const char *name, size_t len);
/* Names (names[i], lens[i] bytes, n of them) as the input holds them:
 * quoted, and for object keys (colon) followed by ':'. On a match of name
 * i's whole wire form, a dispatch runs
 *     if (atd_bytes_skip(<cursor>, ATD_LIT("<wire form>"))) <hit_head><i><hit_tail>
 * which moves the cursor past it (with hits, hits[i] in place of i). */
typedef struct plain_tree {
    const char *const *names;
    const size_t *lens;
    size_t n;
    bool colon;
    const char *cursor;      /* a `const char **` expression: "pp", "&p" */
    const char *hit_head;    /* "return " */
    const char *const *hits; /* or NULL */
    const char *hit_tail;    /* ";" */
    const char *if_all;      /* a line after the tree, within its room check, when the
                                tree holds every name; or NULL */
} plain_tree;
/* The C string contents of a plain name's wire form: \"date\": */
const char *emit_wire_literal(cw *w, const char *name, size_t len, bool colon);
/* The dispatch over the plain names (emit_name_is_plain; nothing when there
 * is none), with room for the longest, a decision tree on bytes of the
 * input at p down to one name, whose whole wire form is then compared:
 *     if (atd_key_room(r, p, ATD_LEN("\"received\":"))) {
 *         switch (p[1]) {
 *         case 'd': if (atd_bytes_skip(pp, ATD_LIT("\"date\":"))) return 1; break;
 *         ...
 *         }
 *     } */
void emit_plain_dispatch(cw *w, const plain_tree *t);

/* emit_stream.c: the untyped shims (read_any, write_any; the agreed
 * interface with the runtime) and the stream wrappers (next_line,
 * next_element, write_line; not with --no-stream) and to_json_pretty (not
 * with --no-pretty) of a type named `name`. */
void emit_any_prototypes(cw *w, const char *name);
void emit_stream_prototypes(cw *w, const ir_module *m, const char *name);
void emit_stream_functions(cw *w, const ir_module *m, const char *name);

#endif
