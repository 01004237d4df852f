/* Parsing (parse.h): the bison parser driven by the flex scanner, then the
 * depth limit. */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#include "parser.h"
#include "util/alloc.h"

typedef struct depth_frame {
    const ast_type *t;
    int depth;
} depth_frame;

typedef struct depth_stack {
    depth_frame *items;
    size_t len, cap;
    bool oom;
} depth_stack;

static void depth_push(depth_stack *s, const ast_type *t, int depth)
{
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        depth_frame *p = util_realloc(s->items, cap * sizeof *p);
        if (p == NULL) {
            s->oom = true;
            return;
        }
        s->items = p;
        s->cap = cap;
    }
    depth_frame f = {t, depth};
    s->items[s->len++] = f;
}

/* Iterative on purpose: this is what protects the recursive stages from a
 * stack overflow on `int list list list ...` (postfix application nests
 * without nesting the parser's stack). Returns the first node found too deep,
 * or NULL. */
static const ast_type *depth_too_deep(const ast_type *root, bool *oom)
{
    depth_stack s = {NULL, 0, 0, false};
    const ast_type *bad = NULL;
    depth_push(&s, root, 1);
    while (s.len > 0 && bad == NULL && !s.oom) {
        depth_frame f = s.items[--s.len];
        const ast_type *t = f.t;
        if (f.depth > AST_MAX_DEPTH) {
            bad = t;
            break;
        }
        switch (t->kind) {
        case AST_TVAR:
            break;
        case AST_NAME:
            for (size_t i = 0; i < t->u.name.nargs; i++)
                depth_push(&s, t->u.name.args[i], f.depth + 1);
            break;
        case AST_TUPLE:
            for (size_t i = 0; i < t->u.tuple.len; i++)
                depth_push(&s, t->u.tuple.cells[i].type, f.depth + 1);
            break;
        case AST_RECORD:
            for (size_t i = 0; i < t->u.record.len; i++)
                depth_push(&s, t->u.record.fields[i].type, f.depth + 1);
            break;
        case AST_SUM:
            for (size_t i = 0; i < t->u.sum.len; i++)
                if (t->u.sum.variants[i].arg != NULL)
                    depth_push(&s, t->u.sum.variants[i].arg, f.depth + 1);
            break;
        }
    }
    *oom = s.oom;
    util_free(s.items);
    return bad;
}

static bool depth_check(diag_ctx *d, const ast_module *m)
{
    bool ok = true;
    for (size_t i = 0; i < m->ndefs; i++) {
        bool oom = false;
        const ast_type *bad = depth_too_deep(m->defs[i].rhs, &oom);
        if (oom) {
            diag_oom(d);
            return false;
        }
        if (bad != NULL) {
            diag_error(d, bad->loc, "type expression nested too deeply (more than %d levels)",
                       AST_MAX_DEPTH);
            ok = false;
        }
    }
    return ok;
}

/* Documentation comments: a `(** text *)` documents the definition, field
 * or constructor that starts right after it, with only blanks between (and
 * the `|` before a constructor), as ocamldoc reads them. The items are
 * visited in source order, as the comments were recorded. */
static bool doc_only_blanks(const char *text, size_t from, size_t to, bool bar_allowed)
{
    for (size_t i = from; i < to; i++) {
        char c = text[i];
        if (c == '|' && bar_allowed)
            bar_allowed = false;
        else if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return false;
    }
    return true;
}

/* The text of the comment that documents the item starting at `at`, or NULL;
 * passes the comments that end before it. */
static const char *doc_take(const char *text, const parse_doc **cur, size_t at, bool bar_allowed)
{
    const parse_doc *found = NULL;
    while (*cur != NULL && (*cur)->end <= at) {
        found = *cur;
        *cur = (*cur)->next;
    }
    if (found != NULL && doc_only_blanks(text, found->end, at, bar_allowed))
        return found->text;
    return NULL;
}

static void doc_walk(const char *text, const parse_doc **cur, ast_type *t)
{
    switch (t->kind) {
    case AST_TVAR:
        return;
    case AST_NAME:
        for (size_t i = 0; i < t->u.name.nargs; i++)
            doc_walk(text, cur, t->u.name.args[i]);
        return;
    case AST_TUPLE:
        for (size_t i = 0; i < t->u.tuple.len; i++)
            doc_walk(text, cur, t->u.tuple.cells[i].type);
        return;
    case AST_RECORD:
        for (size_t i = 0; i < t->u.record.len; i++) {
            ast_field *f = &t->u.record.fields[i];
            f->doc = doc_take(text, cur, f->loc.offset, false);
            if (f->type != NULL)
                doc_walk(text, cur, f->type);
        }
        return;
    case AST_SUM:
        for (size_t i = 0; i < t->u.sum.len; i++) {
            ast_variant *v = &t->u.sum.variants[i];
            v->doc = doc_take(text, cur, v->loc.offset, true);
            if (v->arg != NULL)
                doc_walk(text, cur, v->arg);
        }
        return;
    }
}

static void doc_attach_all(const parse_ctx *pc, ast_module *m)
{
    const parse_doc *cur = pc->docs;
    for (size_t i = 0; i < m->ndefs && cur != NULL; i++) {
        m->defs[i].doc = doc_take(pc->text, &cur, m->defs[i].loc.offset, false);
        doc_walk(pc->text, &cur, m->defs[i].rhs);
    }
}

ast_module *parse_module(atd_arena *arena, diag_ctx *d, const char *name, const char *text,
                         size_t len)
{
    parse_ctx pc;
    memset(&pc, 0, sizeof pc);
    pc.arena = arena;
    pc.diag = d;
    pc.file = name;
    pc.text = text;
    pc.len = len;
    bool ok = lexer_parse(&pc);
    if (pc.oom && pc.errors == 0) {
        diag_oom(d);
    }
    if (!ok || pc.module == NULL)
        return NULL;
    if (!depth_check(d, pc.module))
        return NULL;
    doc_attach_all(&pc, pc.module);
    return pc.module;
}
