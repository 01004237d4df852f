/* Name dispatch for generated readers: a function mapping a key (field name
 * or constructor name, already unescaped) to its index. It switches on the
 * length, then compares bytes with atd_bytes_eq (reader.h), which is easy to
 * check by eye and, with a literal and a constant length, compiles to a few
 * word compares instead of a call to memcmp; the length check comes first,
 * so it reads only the key's own bytes. Names may contain any byte, so
 * literals go through cw_c_string. Record readers use the switch alone, on
 * a decoded key, after their own dispatch of the plain keys (emit_read.c).
 *
 * That dispatch, and the one of enum readers, is a decision tree on the
 * bytes of the input itself (emit_plain_dispatch): a switch on the byte that
 * splits the candidate names best, down to one, whose whole wire form is
 * then compared. */
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
static void emit_match_switch(cw *w, const char *s, const char *len, const char *action,
                              const char *const *names, const size_t *lens, const bool *use,
                              size_t n)
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

/* Emits (attrs: "" or attributes with a trailing space):
 *     static <attrs>int P t__case(const char *s, size_t len)
 *     {
 *         ...the switch above, returning the index...
 *         return -1;
 *     }
 */
void emit_match_function(cw *w, const char *attrs, const char *name, const char *const *names,
                         const size_t *lens, const bool *use, size_t n)
{
    cw_line(w, "static %sint %s(const char *s, size_t len)", attrs, name);
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
    emit_match_function(w, "", name, names, lens, NULL, sum->ncases);
    cw_blank(w);
}

bool emit_name_is_plain(const char *name, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
            return false;
    }
    return true;
}

/* Byte k of name i's wire form: the quote, the name, the quote, and for a
 * key the colon. */
static char wire_byte(const plain_tree *t, size_t i, size_t k)
{
    size_t len = t->lens[i];
    return k == 0 || k == len + 1 ? '"' : k == len + 2 ? ':' : t->names[i][k - 1];
}

/* The byte position that splits names idx[0..cnt) (cnt >= 2) best: the
 * most distinct bytes, then the smallest largest group. Only positions
 * inside every wire form count; two plain names always differ at one of
 * them (a name never holds '"', so no wire form is a prefix of another). */
static size_t split_position(const plain_tree *t, const size_t *idx, size_t cnt)
{
    size_t shortest = SIZE_MAX, best = 1, best_distinct = 0, best_largest = SIZE_MAX;
    for (size_t j = 0; j < cnt; j++)
        if (t->lens[idx[j]] + 2 + t->colon < shortest)
            shortest = t->lens[idx[j]] + 2 + t->colon;
    for (size_t k = 1; k < shortest; k++) {
        size_t counts[256] = {0}, distinct = 0, largest = 0;
        for (size_t j = 0; j < cnt; j++) {
            size_t c = ++counts[(unsigned char)wire_byte(t, idx[j], k)];
            distinct += c == 1;
            largest = c > largest ? c : largest;
        }
        if (distinct > best_distinct || (distinct == best_distinct && largest < best_largest)) {
            best = k;
            best_distinct = distinct;
            best_largest = largest;
        }
    }
    return best;
}

const char *emit_wire_literal(cw *w, const char *name, size_t len, bool colon)
{
    return cw_fmt(w, "\\\"%s\\\"%s", cw_c_string(w, name, len), colon ? ":" : "");
}

/* The compare of name i's whole wire form, and what a match runs. */
static const char *leaf(cw *w, const plain_tree *t, size_t i)
{
    const char *hit = t->hits != NULL ? t->hits[i] : cw_fmt(w, "%zu", i);
    return cw_fmt(w, "if (atd_bytes_skip(%s, ATD_LIT(\"%s\"))) %s%s%s", t->cursor,
                  emit_wire_literal(w, t->names[i], t->lens[i], t->colon), t->hit_head, hit,
                  t->hit_tail);
}

/* The C character literal of a byte of a plain name (printable ASCII). */
static const char *char_literal(cw *w, char c)
{
    return c == '\'' || c == '\\' ? cw_fmt(w, "'\\%c'", c) : cw_fmt(w, "'%c'", c);
}

/* The tree over names idx[0..cnt) (cnt >= 1). */
static void emit_plain_tree(cw *w, const plain_tree *t, const size_t *idx, size_t cnt)
{
    if (cnt == 1) {
        cw_line(w, "%s", leaf(w, t, idx[0]));
        return;
    }
    size_t k = split_position(t, idx, cnt);
    size_t *group = cw_alloc(w, cnt * sizeof *group);
    if (group == NULL)
        return; /* recorded in w's status */
    cw_open(w, "switch (p[%zu]) {", k);
    for (unsigned c = 0; c < 256; c++) {
        size_t n = 0;
        for (size_t j = 0; j < cnt; j++)
            if ((unsigned char)wire_byte(t, idx[j], k) == c)
                group[n++] = idx[j];
        if (n == 0)
            continue;
        if (n == 1) { /* one row of the table */
            cw_mid(w, "case %s: %s break;", char_literal(w, (char)c), leaf(w, t, group[0]));
            continue;
        }
        cw_mid(w, "case %s:", char_literal(w, (char)c));
        emit_plain_tree(w, t, group, n);
        cw_line(w, "break;");
    }
    cw_close(w, "}");
}

void emit_plain_dispatch(cw *w, const plain_tree *t)
{
    size_t *idx = cw_alloc(w, (t->n + 1) * sizeof *idx);
    size_t cnt = 0, longest = 0;
    if (idx == NULL)
        return; /* recorded in w's status */
    for (size_t i = 0; i < t->n; i++) {
        if (!emit_name_is_plain(t->names[i], t->lens[i]))
            continue;
        idx[cnt++] = i;
        if (cnt == 1 || t->lens[i] > t->lens[longest])
            longest = i;
    }
    if (cnt == 0)
        return;
    cw_open(w, "if (atd_key_room(r, p, ATD_LEN(\"%s\")))",
            emit_wire_literal(w, t->names[longest], t->lens[longest], t->colon));
    emit_plain_tree(w, t, idx, cnt);
    if (t->if_all != NULL && cnt == t->n)
        cw_line(w, "%s", t->if_all);
    cw_close(w, "}");
}
