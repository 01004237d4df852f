/* Generated names of enums and sum tags (emit.h): the constructor's JSON
 * name for a value, and the value for a name, without going through JSON.
 * For an enum P_t, and for the tag type P_t_tag of a sum P_t:
 *     const char *P_t_name(P_t v);   NULL when v is no constructor
 *     int P_t_of_name(const char *s, size_t len, P_t *out);   0 or ATD_ERR_INVALID
 * Names are matched exactly (bytes, case included), as the readers match
 * them; the catch-all constructor of an open enum has its own name too. */
#include "emit.h"

/* The C type whose names are listed: the enum, or the sum's tag. */
static const char *named_type(cw *w, const ir_type *t)
{
    return t->kind == IR_SUM ? cw_fmt(w, "%s_tag", t->name) : t->name;
}

bool emit_has_names(const ir_type *t)
{
    return t->exported && (t->kind == IR_ENUM || t->kind == IR_SUM);
}

void emit_names_prototypes(cw *w, const ir_type *t)
{
    const char *n = named_type(w, t);
    cw_line(w, "const char *%s_name(%s v);", n, n);
    cw_line(w, "int %s_of_name(const char *s, size_t len, %s *out);", n, n);
}

/* Emits, for everything_level, the table of names and the functions
 * around it (atd/detail/value_ops.h):
 *     static const atd_string everything_level__names[3] = {
 *         {"low", 3},
 *         ...
 *     };
 *     ATD_DEFINE_NAMES(everything_level, 3)
 */
void emit_names_functions(cw *w, const ir_type *t)
{
    const char *n = named_type(w, t);
    cw_open(w, "static const atd_string %s__names[%zu] = {", n, t->ncases);
    for (size_t i = 0; i < t->ncases; i++) {
        const ir_case *k = &t->cases[i];
        cw_line(w, "{%s},", cw_lit(w, k->json_name, k->json_len));
    }
    cw_close(w, "};");
    cw_line(w, "ATD_DEFINE_NAMES(%s, %zu)", n, t->ncases);
    cw_blank(w);
    cw_end_item(w);
}
