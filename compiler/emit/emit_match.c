/* Name dispatch for generated readers: a function mapping a key (field name
 * or constructor name, already unescaped) to its index. It switches on the
 * length, then compares bytes with atd_bytes_eq (reader.h), which is easy to
 * check by eye and, with a literal and a constant length, compiles to a few
 * word compares instead of a call to memcmp; the length check comes first,
 * so it reads only the key's own bytes. Names may contain any byte, so
 * literals go through cw_c_string. Record readers use the switch alone, on
 * a decoded key, after their own dispatch of the plain keys (emit_read.c). */
#include <stdlib.h>

#include "emit.h"

/* Emits the switch on the length of the name at `s` (`len` bytes), each
 * match running `<action><i>;`, a line per length that one name has:
 *     switch (len) {
 *     case 4: if (atd_bytes_eq(s, ATD_LIT("date"))) return 0; break;
 *     case 5:
 *         if (atd_bytes_eq(s, ATD_LIT("start"))) return 1;
 *         if (atd_bytes_eq(s, ATD_LIT("stops"))) return 2;
 *         break;
 *     }
 */
void emit_match_switch(cw *w, const char *s, const char *len, const char *action,
                       const char *const *names, const size_t *lens, const bool *use, size_t n)
{
    bool *done = cw_alloc(w, (n + 1) * sizeof *done);
    if (done == NULL)
        return; /* recorded in w's status */
    cw_open(w, "switch (%s) {", len);
    for (size_t i = 0; i < n; i++) {
        if (done[i] || (use != NULL && !use[i]))
            continue;
        size_t l = lens[i], same = 0;
        for (size_t j = i; j < n; j++)
            same += !done[j] && lens[j] == l && (use == NULL || use[j]);
        if (same == 1) {
            done[i] = true;
            if (l == 0) /* the only empty name: the length decides */
                cw_mid(w, "case 0: %s%zu;", action, i);
            else
                cw_mid(w, "case %zu: if (atd_bytes_eq(%s, %s)) %s%zu; break;", l, s,
                       cw_lit(w, names[i], l), action, i);
            continue;
        }
        cw_mid(w, "case %zu:", l);
        for (size_t j = i; j < n; j++) {
            if (done[j] || lens[j] != l || (use != NULL && !use[j]))
                continue;
            done[j] = true;
            cw_line(w, "if (atd_bytes_eq(%s, %s)) %s%zu;", s, cw_lit(w, names[j], l), action, j);
        }
        cw_line(w, "break;");
    }
    cw_close(w, "}");
}

/* Emits:
 *     static int P t__case(const char *s, size_t len)
 *     {
 *         ...the switch above, returning the index...
 *         return -1;
 *     }
 */
void emit_match_function(cw *w, const char *name, const char *const *names, const size_t *lens,
                         const bool *use, size_t n)
{
    cw_line(w, "static int %s(const char *s, size_t len)", name);
    cw_open(w, "{");
    size_t used = 0, nonempty = 0;
    for (size_t i = 0; i < n; i++)
        if (use == NULL || use[i]) {
            used++;
            nonempty += lens[i] != 0;
        }
    if (used == 0) {
        cw_line(w, "(void)s;");
        cw_line(w, "(void)len;");
        cw_line(w, "return -1;");
        cw_close(w, "}");
        return;
    }
    if (nonempty == 0)
        cw_line(w, "(void)s; /* only the empty name: the length decides */");
    emit_match_switch(w, "s", "len", "return ", names, lens, use, n);
    cw_line(w, "return -1;");
    cw_close(w, "}");
}

void emit_case_match(cw *w, const ir_type *sum, const char *name)
{
    const char **names = cw_alloc(w, (sum->ncases + 1) * sizeof *names);
    size_t *lens = cw_alloc(w, (sum->ncases + 1) * sizeof *lens);
    if (names == NULL || lens == NULL)
        return; /* recorded in w's status */
    for (size_t i = 0; i < sum->ncases; i++) {
        names[i] = sum->cases[i].json_name;
        lens[i] = sum->cases[i].json_len;
    }
    emit_match_function(w, name, names, lens, NULL, sum->ncases);
    cw_blank(w);
}
