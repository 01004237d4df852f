/* Name lookup and alias resolution for the checker (check_lookup.h).
 * check_lookup says what one written reference means without reporting
 * anything (check_types.c owns those errors), so every later pass can call
 * it freely and simply skip what does not resolve. check_resolve walks
 * through aliases and type variables with a step budget: a chain of aliases
 * longer than the number of definitions must loop, and check_recursion.c
 * reports that loop, so resolution just gives up. */
#include "check_annot.h"
#include "check_cx.h"
#include "check_lookup.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    check_predef pre;
    size_t arity;
} check_predefs[] = {
    {"unit", CHECK_PRE_UNIT, 0},         {"bool", CHECK_PRE_BOOL, 0},
    {"int", CHECK_PRE_INT, 0},           {"float", CHECK_PRE_FLOAT, 0},
    {"string", CHECK_PRE_STRING, 0},     {"abstract", CHECK_PRE_ABSTRACT, 0},
    {"list", CHECK_PRE_LIST, 1},         {"option", CHECK_PRE_OPTION, 1},
    {"nullable", CHECK_PRE_NULLABLE, 1}, {"shared", CHECK_PRE_SHARED, 1},
    {"wrap", CHECK_PRE_WRAP, 1},
};

#define CHECK_NPREDEFS (sizeof check_predefs / sizeof check_predefs[0])

check_predef check_predef_of(const char *name)
{
    for (size_t i = 0; i < CHECK_NPREDEFS; i++)
        if (strcmp(check_predefs[i].name, name) == 0)
            return check_predefs[i].pre;
    return CHECK_PRE_NONE;
}

const char *check_predef_name(check_predef p)
{
    for (size_t i = 0; i < CHECK_NPREDEFS; i++)
        if (check_predefs[i].pre == p)
            return check_predefs[i].name;
    return "?";
}

static size_t check_predef_arity(check_predef p)
{
    for (size_t i = 0; i < CHECK_NPREDEFS; i++)
        if (check_predefs[i].pre == p)
            return check_predefs[i].arity;
    return 0;
}

static check_ref check_lookup_imported(check_cx *cx, const ast_type *t)
{
    check_ref r = {CHECK_REF_ERROR, false, 0, CHECK_PRE_NONE, 0, 0, 0};
    const char *mod = t->u.name.path[0];
    const char *name = t->u.name.path[1];
    size_t i = check_map_get(&cx->modules, mod, strlen(mod));
    if (i == SIZE_MAX || !cx->imports[i].valid)
        return r;
    size_t k = check_map_get(&cx->imports[i].types, name, strlen(name));
    if (k == SIZE_MAX)
        return r;
    cx->imports[i].used[k] = true;
    r.kind = CHECK_REF_IMPORTED;
    r.import = i;
    r.imported_type = k;
    r.arity = cx->m->imports[i].types[k].nparams;
    r.arity_ok = r.arity == t->u.name.nargs;
    return r;
}

check_ref check_lookup(check_cx *cx, const ast_type *t)
{
    check_ref r = {CHECK_REF_ERROR, false, 0, CHECK_PRE_NONE, 0, 0, 0};
    if (t->kind != AST_NAME || t->u.name.npath == 0 || t->u.name.npath > 2)
        return r;
    if (t->u.name.npath == 2)
        return check_lookup_imported(cx, t);
    const char *name = t->u.name.path[0];
    check_predef p = check_predef_of(name);
    if (p != CHECK_PRE_NONE) {
        r.kind = CHECK_REF_PREDEF;
        r.pre = p;
        r.arity = check_predef_arity(p);
    } else {
        size_t i = check_map_get(&cx->defs, name, strlen(name));
        if (i == SIZE_MAX)
            return r;
        r.kind = CHECK_REF_DEF;
        r.def = i;
        r.arity = cx->m->defs[i].nparams;
    }
    r.arity_ok = r.arity == t->u.name.nargs;
    return r;
}

const check_scope *check_scope_enter(check_cx *cx, const ast_type *t, const check_scope *sc,
                                     size_t def)
{
    const ast_typedef *td = &cx->m->defs[def];
    check_scope *s = check_alloc(cx, sizeof *s);
    check_clo *args = td->nparams ? check_alloc(cx, td->nparams * sizeof *args) : NULL;
    if (s == NULL || (td->nparams && args == NULL))
        return NULL;
    for (size_t i = 0; i < td->nparams && i < t->u.name.nargs; i++) {
        args[i].t = t->u.name.args[i];
        args[i].sc = sc;
    }
    s->def = td;
    s->args = args;
    return s;
}

const check_clo *check_bind(const check_scope *sc, const char *name)
{
    for (size_t i = 0; i < sc->def->nparams; i++)
        if (strcmp(sc->def->params[i].name, name) == 0)
            return &sc->args[i];
    return NULL;
}

check_head check_resolve(check_cx *cx, check_clo c, bool through_wrap)
{
    check_head h = {CHECK_H_ERROR, CHECK_PRE_NONE, c};
    /* Each alias step enters a definition; more steps than definitions
     * means a cycle. Variable steps only move to older scopes, and the
     * extra allowance bounds them too. */
    size_t budget = 2 * cx->m->ndefs + 2 * CHECK_MAX_INHERIT_DEPTH + 64;
    while (budget-- > 0 && c.t != NULL && !cx->oom) {
        h.clo = c;
        switch (c.t->kind) {
        case AST_TVAR: {
            if (c.sc == NULL) {
                h.kind = CHECK_H_TVAR;
                return h;
            }
            const check_clo *b = check_bind(c.sc, c.t->u.tvar.name);
            if (b == NULL)
                return h;
            c = *b;
            continue;
        }
        case AST_TUPLE:
            h.kind = CHECK_H_TUPLE;
            return h;
        case AST_RECORD:
            h.kind = CHECK_H_RECORD;
            return h;
        case AST_SUM:
            h.kind = CHECK_H_SUM;
            return h;
        case AST_NAME:
            break;
        }
        check_ref r = check_lookup(cx, c.t);
        if (r.kind == CHECK_REF_ERROR || !r.arity_ok)
            return h;
        if (r.kind == CHECK_REF_IMPORTED) {
            h.kind = CHECK_H_IMPORTED;
            return h;
        }
        if (r.kind == CHECK_REF_PREDEF) {
            if (r.pre == CHECK_PRE_WRAP && through_wrap) {
                c.t = c.t->u.name.args[0];
                continue;
            }
            h.kind = CHECK_H_PREDEF;
            h.pre = r.pre;
            return h;
        }
        const check_scope *sc = check_scope_enter(cx, c.t, c.sc, r.def);
        if (sc == NULL)
            return h;
        c.t = cx->m->defs[r.def].rhs;
        c.sc = sc;
    }
    h.kind = CHECK_H_ERROR;
    return h;
}

check_head check_resolve_c_type(check_cx *cx, check_clo c)
{
    check_head h = check_resolve(cx, c, false);
    while (h.kind == CHECK_H_PREDEF && h.pre == CHECK_PRE_WRAP &&
           check_annot_find(&h.clo.t->annots, "c", "t") == NULL) {
        check_clo inner = {h.clo.t->u.name.args[0], h.clo.sc};
        h = check_resolve(cx, inner, false);
    }
    return h;
}

bool check_is_ocaml_wrap(check_cx *cx, check_clo c)
{
    check_head h = check_resolve(cx, c, false);
    return h.kind == CHECK_H_PREDEF && h.pre == CHECK_PRE_WRAP &&
           check_annot_find(&h.clo.t->annots, "c", "t") == NULL &&
           check_annot_find(&h.clo.t->annots, "ocaml", "t") != NULL;
}

const char *check_path(check_cx *cx, const char **path, size_t npath)
{
    const char *s = ast_join_path(cx->arena, (const char *const *)path, npath);
    if (s == NULL) {
        check_oom(cx);
        return "?";
    }
    return s;
}

const char *check_quote(check_cx *cx, const char *s, size_t len)
{
    enum { SHOWN = 40 };
    size_t n = len < SHOWN ? len : SHOWN;
    char *out = check_alloc(cx, n * 4 + 4);
    if (out == NULL)
        return "?";
    char *p = out;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\') {
            *p++ = '\\';
            *p++ = (char)ch;
        } else if (ch < 0x20 || ch >= 0x7f) {
            snprintf(p, 5, "\\x%02x", ch);
            p += 4;
        } else {
            *p++ = (char)ch;
        }
    }
    if (len > n) {
        memcpy(p, "...", 3);
        p += 3;
    }
    *p = '\0';
    return out;
}

/* Appends to out[*n..cap) what fits; messages only need a readable prefix. */
static void check_type_put(char *out, size_t cap, size_t *n, const char *s)
{
    size_t len = strlen(s);
    if (*n + len >= cap)
        len = cap - 1 - *n;
    memcpy(out + *n, s, len);
    *n += len;
    out[*n] = '\0';
}

static void check_type_render(check_cx *cx, const ast_type *t, char *out, size_t cap, size_t *n,
                              int depth)
{
    if (depth > 3) {
        check_type_put(out, cap, n, "...");
        return;
    }
    switch (t->kind) {
    case AST_TVAR:
        check_type_put(out, cap, n, "'");
        check_type_put(out, cap, n, t->u.tvar.name);
        return;
    case AST_RECORD:
        check_type_put(out, cap, n, "{...}");
        return;
    case AST_SUM:
        check_type_put(out, cap, n, "[...]");
        return;
    case AST_TUPLE:
        check_type_put(out, cap, n, "(");
        for (size_t i = 0; i < t->u.tuple.len; i++) {
            if (i > 0)
                check_type_put(out, cap, n, " * ");
            check_type_render(cx, t->u.tuple.cells[i].type, out, cap, n, depth + 1);
        }
        check_type_put(out, cap, n, ")");
        return;
    case AST_NAME:
        break;
    }
    size_t nargs = t->u.name.nargs;
    if (nargs > 1)
        check_type_put(out, cap, n, "(");
    for (size_t i = 0; i < nargs; i++) {
        if (i > 0)
            check_type_put(out, cap, n, ", ");
        check_type_render(cx, t->u.name.args[i], out, cap, n, depth + 1);
    }
    if (nargs > 1)
        check_type_put(out, cap, n, ")");
    if (nargs > 0)
        check_type_put(out, cap, n, " ");
    check_type_put(out, cap, n, check_path(cx, t->u.name.path, t->u.name.npath));
}

const char *check_type_str(check_cx *cx, const ast_type *t)
{
    enum { CAP = 120 };
    char *out = check_alloc(cx, CAP);
    if (out == NULL)
        return "?";
    size_t n = 0;
    check_type_render(cx, t, out, CAP, &n, 0);
    return out;
}
