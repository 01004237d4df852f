/* Lowering: AST -> C IR (ir.h). This is where every C decision is made.
 *
 * The C mapping (for prefix P, e.g. "event_"; documented for the README):
 *
 *   ATD                          C
 *   unit                         uint8_t (always 0; a placeholder member)
 *   bool                         bool
 *   int                          int64_t; <c repr="int8|...|uint32"> narrower,
 *                                range-checked on read
 *   float                        double; <c repr="float"> float
 *   string                       atd_string {ptr, len}
 *   abstract                     atd_json (generic JSON value)
 *   { x : T; ?y : U option; ~z : V }
 *                                struct P t { T x; bool has_y; U y; V z; }
 *                                (fields in ATD order after inherit)
 *   [ A | B ]                    enum P t { P_T_A, P_T_B } (capitals)
 *   [ A | B of T ]               struct P t { P t_tag tag; union { T B; } u; }
 *                                with enum P t_tag { P_T_A, P_T_B }
 *   (T0 * T1)                    struct { T0 f0; T1 f1; }, named after the
 *                                definition, else <t0>_<t1>_tuple
 *   T list                       struct P <t>_list { T *items; size_t len; }
 *   (string * T) list <json repr="object">
 *                                struct P <t>_assoc { P <t>_assoc_item *items;
 *                                size_t len; }, items { atd_string key; T value; }
 *   T option, T nullable         struct P <t>_option { bool has; T value; }
 *                                (T nullable nullable is T nullable)
 *   T wrap, aliases              as T; an alias definition is a typedef
 *   ('a, 'b) t applied           one monomorphic type per instantiation,
 *                                named <t>_<arg1>_<arg2>
 *   anonymous record / sum       named after where it occurs: <parent>_<field>,
 *                                <parent>_<Constructor>, <parent>_elt, <parent>_<i>
 *
 * Recursion: a member whose type is a record or sum of the same strongly
 * connected component (by-value containment) becomes a pointer (sort.c), so
 * `type tree = { kids : tree list; ?left : tree option }` gives
 * `bool has_left; P tree *left;`. Lists always hold pointers.
 *
 * Defaults of `~` fields and tuple cells: <c default> (a C constant
 * expression), else the <ocaml default> literal translated (atd-spec 7.2),
 * else the implicit default of the type (0, false, "", [], None). */
#include "lower.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expand.h"
#include "names.h"
#include "sort.h"

#define NEST_MAX 200      /* recursion guard for non-checked input */
#define INSTANCES_MAX 2000 /* guard against non-regular recursion */

typedef struct memo {
    const ast_typedef *def;
    const char *argkey; /* "" for a definition without parameters */
    ir_type *result;
    bool in_progress;
} memo;

typedef struct lower_ctx {
    expand_ctx x;
    diag_ctx *diag;
    atd_arena *arena;
    const char *prefix;
    ir_type **types;
    size_t ntypes, types_cap;
    memo *memos;
    size_t nmemos, memos_cap;
    int next_id;
    int nest;
    bool failed;
} lower_ctx;

/* --- small helpers --- */

static char *fmt(lower_ctx *L, const char *f, ...) ATD_PRINTF(2, 3);
static char *fmt(lower_ctx *L, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = atd_arena_alloc(L->arena, (size_t)n + 1, 1);
    if (s == NULL)
        return (char *)"";
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

static void *grow_array(lower_ctx *L, void *items, size_t *cap, size_t len, size_t size)
{
    if (len < *cap)
        return items;
    size_t ncap = *cap ? *cap * 2 : 16;
    void *n = atd_arena_grow(L->arena, items, *cap * size, ncap * size, 8);
    if (n == NULL) {
        fprintf(stderr, "atdc: out of memory\n");
        exit(2);
    }
    *cap = ncap;
    return n;
}

static void *zalloc(lower_ctx *L, size_t size)
{
    void *p = atd_arena_alloc(L->arena, size ? size : 1, 8);
    if (p == NULL) {
        fprintf(stderr, "atdc: out of memory\n");
        exit(2);
    }
    memset(p, 0, size ? size : 1);
    return p;
}

/* Finds `<section field="value">` among annots. */
static bool annot_get(const ast_annots *a, const char *section, const char *field,
                      const char **value, size_t *len)
{
    for (size_t i = 0; i < a->len; i++) {
        if (strcmp(a->items[i].section, section) != 0)
            continue;
        for (size_t j = 0; j < a->items[i].nfields; j++) {
            const ast_annot_field *f = &a->items[i].fields[j];
            if (strcmp(f->name, field) == 0) {
                if (value)
                    *value = f->value;
                if (len)
                    *len = f->value ? f->value_len : 0;
                return true;
            }
        }
    }
    return false;
}

static bool annot_flag(const ast_annots *a, const char *section, const char *field)
{
    const char *v = NULL;
    if (!annot_get(a, section, field, &v, NULL))
        return false;
    return v == NULL || strcmp(v, "false") != 0;
}

static const char *annot_str(const ast_annots *a, const char *section, const char *field)
{
    const char *v = NULL;
    if (annot_get(a, section, field, &v, NULL))
        return v;
    return NULL;
}

static void upper_into(char *s)
{
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z')
            *s = (char)(*s - 'a' + 'A');
}

/* --- type table --- */

static ir_type *new_type(lower_ctx *L, ir_kind kind)
{
    ir_type *t = zalloc(L, sizeof *t);
    t->kind = kind;
    t->id = L->next_id++;
    t->scc = -1;
    return t;
}

/* Registers a composite type with the C name P+short. */
static void add_composite(lower_ctx *L, ir_type *t, const char *short_name)
{
    t->short_name = short_name;
    t->name = fmt(L, "%s%s", L->prefix, short_name);
    t->fn = t->name;
    if (t->atd_name == NULL)
        t->atd_name = short_name;
    L->types = grow_array(L, L->types, &L->types_cap, L->ntypes, sizeof *L->types);
    L->types[L->ntypes++] = t;
}

/* The structural twin of `key`, if one exists already. */
static ir_type *find_key(lower_ctx *L, const char *key)
{
    for (size_t i = 0; i < L->ntypes; i++)
        if (L->types[i]->key && strcmp(L->types[i]->key, key) == 0)
            return L->types[i];
    return NULL;
}

/* Scalars are deduplicated too (kept in the same table, not emitted). */
static ir_type *scalar(lower_ctx *L, ir_kind kind, const char *cname, const char *short_name,
                       const char *key)
{
    ir_type *t = find_key(L, key);
    if (t != NULL)
        return t;
    t = new_type(L, kind);
    t->key = key;
    t->name = cname;
    t->short_name = short_name;
    t->atd_name = short_name;
    L->types = grow_array(L, L->types, &L->types_cap, L->ntypes, sizeof *L->types);
    L->types[L->ntypes++] = t;
    return t;
}

static ir_type *lower_type(lower_ctx *L, const ast_type *t, const expand_env *env,
                           const char *ctx_name);

/* --- predefined types --- */

static ir_type *lower_int(lower_ctx *L, const ast_type *t)
{
    static const struct {
        const char *repr, *ctype;
        ir_int_repr r;
    } reprs[] = {{"int64", "int64_t", IR_INT64}, {"int8", "int8_t", IR_INT8},
                 {"int16", "int16_t", IR_INT16}, {"int32", "int32_t", IR_INT32},
                 {"uint8", "uint8_t", IR_UINT8}, {"uint16", "uint16_t", IR_UINT16},
                 {"uint32", "uint32_t", IR_UINT32}};
    size_t k = 0;
    const char *repr = annot_str(&t->annots, "c", "repr");
    if (repr != NULL) {
        for (k = 0; k < sizeof reprs / sizeof reprs[0]; k++)
            if (strcmp(reprs[k].repr, repr) == 0)
                break;
        if (k == sizeof reprs / sizeof reprs[0]) {
            diag_error(L->diag, t->loc, "invalid <c repr=\"%s\"> for int", repr);
            L->failed = true;
            k = 0;
        }
    }
    const char *jrepr = annot_str(&t->annots, "json", "repr");
    bool as_string = jrepr != NULL && strcmp(jrepr, "string") == 0;
    const char *sn = k == 0 ? "int" : reprs[k].repr;
    if (as_string)
        sn = fmt(L, "%s_string", sn);
    ir_type *s = scalar(L, IR_INT, reprs[k].ctype, sn, fmt(L, "int:%s", sn));
    s->int_repr = reprs[k].r;
    s->int_as_string = as_string;
    return s;
}

static ir_type *lower_float(lower_ctx *L, const ast_type *t)
{
    const char *repr = annot_str(&t->annots, "c", "repr");
    bool f32 = repr != NULL && strcmp(repr, "float") == 0;
    const char *jrepr = annot_str(&t->annots, "json", "repr");
    bool as_int = jrepr != NULL && strcmp(jrepr, "int") == 0;
    const char *prec = annot_str(&t->annots, "json", "precision");
    int p = prec ? atoi(prec) : 0;
    if (p < 0)
        p = 0;
    const char *sn = f32 ? "float32" : "float";
    if (as_int)
        sn = fmt(L, "%s_int", sn);
    else if (p > 0)
        sn = fmt(L, "%s_p%d", sn, p);
    ir_type *s = scalar(L, IR_FLOAT, f32 ? "float" : "double", sn, fmt(L, "float:%s", sn));
    s->float32 = f32;
    s->float_as_int = as_int;
    s->precision = as_int ? 0 : p;
    return s;
}

/* list, option, nullable: structural, named <elem>_<suffix>. */
static ir_type *wrapper(lower_ctx *L, ir_kind kind, ir_type *elem, const char *suffix)
{
    const char *key = fmt(L, "%s(%d)", suffix, elem->id);
    ir_type *t = find_key(L, key);
    if (t != NULL)
        return t;
    t = new_type(L, kind);
    t->key = key;
    t->elem.type = elem;
    add_composite(L, t, fmt(L, "%s_%s", elem->short_name, suffix));
    return t;
}

/* The value type V of `(string * V) list <json repr="object">`. */
static ir_type *lower_assoc(lower_ctx *L, const ast_type *list, const expand_env *env,
                            const char *ctx_name)
{
    const expand_env *e2;
    const ast_type *tup = expand_reach(&L->x, list->u.name.args[0], env, AST_TUPLE, &e2);
    if (tup == NULL || tup->u.tuple.len != 2) {
        diag_error(L->diag, list->loc, "<json repr=\"object\"> needs a (string * _) list");
        L->failed = true;
        return lower_type(L, list->u.name.args[0], env, ctx_name);
    }
    ir_type *k = lower_type(L, tup->u.tuple.cells[0].type, e2, ctx_name);
    if (k->kind != IR_STRING) {
        diag_error(L->diag, list->loc, "<json repr=\"object\">: keys must be strings");
        L->failed = true;
    }
    ir_type *v = lower_type(L, tup->u.tuple.cells[1].type, e2, fmt(L, "%s_elt", ctx_name));
    return wrapper(L, IR_ASSOC, v, "assoc");
}

/* --- defaults --- */

/* Parses an OCaml string literal body (atd-spec 7.2) into bytes. */
static bool ocaml_string(lower_ctx *L, const char *s, size_t n, ir_default *d)
{
    if (n < 2 || s[0] != '"' || s[n - 1] != '"')
        return false;
    char *out = zalloc(L, n);
    size_t k = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        char c = s[i];
        if (c != '\\') {
            out[k++] = c;
            continue;
        }
        if (++i + 1 >= n)
            return false;
        switch (s[i]) {
        case 'n': out[k++] = '\n'; break;
        case 't': out[k++] = '\t'; break;
        case 'r': out[k++] = '\r'; break;
        case 'b': out[k++] = '\b'; break;
        case '\\': out[k++] = '\\'; break;
        case '"': out[k++] = '"'; break;
        case '\'': out[k++] = '\''; break;
        case ' ': out[k++] = ' '; break;
        default:
            if (s[i] >= '0' && s[i] <= '9' && i + 3 < n) {
                out[k++] = (char)((s[i] - '0') * 100 + (s[i + 1] - '0') * 10 + (s[i + 2] - '0'));
                i += 2;
            } else {
                return false;
            }
        }
    }
    d->kind = IR_DEFAULT_STRING;
    d->bytes = out;
    d->len = k;
    return true;
}

static bool all_digits(const char *s)
{
    if (*s == '-')
        s++;
    if (!*s)
        return false;
    for (; *s; s++)
        if (!(*s >= '0' && *s <= '9'))
            return false;
    return true;
}

/* The default of a `~` field or tuple cell of type t, from its annotations. */
static bool lower_default(lower_ctx *L, const ast_annots *annots, ir_type *t, ast_loc loc,
                          ir_default *d)
{
    memset(d, 0, sizeof *d);
    const char *cdef = annot_str(annots, "c", "default");
    if (cdef != NULL) {
        bool scalar_like = !ir_is_composite(t) || t->kind == IR_ENUM;
        if (t->kind == IR_STRING || t->kind == IR_ABSTRACT)
            scalar_like = false;
        d->kind = scalar_like ? IR_DEFAULT_EXPR : IR_DEFAULT_OPAQUE;
        d->c_expr = cdef;
        return true;
    }
    const char *v = NULL;
    size_t vlen = 0;
    if (annot_get(annots, "ocaml", "default", &v, &vlen) && v != NULL) {
        /* trim spaces and one pair of parentheses: (-3) */
        char *s = fmt(L, "%.*s", (int)vlen, v);
        while (*s == ' ')
            s++;
        size_t n = strlen(s);
        while (n > 0 && s[n - 1] == ' ')
            s[--n] = 0;
        if (n >= 2 && s[0] == '(' && s[n - 1] == ')' && n > 2) {
            s[n - 1] = 0;
            s++;
            n -= 2;
        }
        if (strcmp(s, "[]") == 0 || strcmp(s, "[||]") == 0 || strcmp(s, "None") == 0 ||
            strcmp(s, "()") == 0)
            return true; /* zero */
        switch (t->kind) {
        case IR_BOOL:
            if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
                d->kind = IR_DEFAULT_EXPR;
                d->c_expr = s;
                return true;
            }
            break;
        case IR_INT:
            if (all_digits(s)) {
                d->kind = IR_DEFAULT_EXPR;
                d->c_expr = s;
                return true;
            }
            break;
        case IR_FLOAT: {
            char *end = NULL;
            strtod(s, &end);
            if (end != s && *end == 0) {
                d->kind = IR_DEFAULT_EXPR;
                /* "2." and "3" are fine C doubles once a digit/point is added */
                d->c_expr = strpbrk(s, ".eE") == NULL ? fmt(L, "%s.0", s)
                            : s[n - 1] == '.'         ? fmt(L, "%s0", s)
                                                      : s;
                return true;
            }
            break;
        }
        case IR_STRING:
            if (ocaml_string(L, s, n, d))
                return true;
            break;
        case IR_ENUM:
        case IR_SUM: {
            const char *name = s[0] == '`' ? s + 1 : s;
            for (size_t i = 0; i < t->ncases; i++) {
                if (strcmp(t->cases[i].atd_name, name) == 0 && t->cases[i].arg.type == NULL) {
                    d->kind = IR_DEFAULT_EXPR;
                    d->c_expr = t->cases[i].const_name;
                    return true;
                }
            }
            break;
        }
        default:
            break;
        }
        diag_error(L->diag, loc, "cannot translate <ocaml default=\"%s\">: add <c default>", s);
        L->failed = true;
        return false;
    }
    switch (t->kind) {
    case IR_UNIT:
    case IR_BOOL:
    case IR_INT:
    case IR_FLOAT:
    case IR_STRING:
    case IR_LIST:
    case IR_ASSOC:
    case IR_OPTION:
    case IR_NULLABLE:
        return true; /* implicit zero */
    default:
        diag_error(L->diag, loc, "missing default value: add <c default>");
        L->failed = true;
        return false;
    }
}

/* --- records, sums, tuples --- */

static void lower_record(lower_ctx *L, ir_type *rt, const ast_type *t, const expand_env *env)
{
    expand_field *fs;
    size_t n;
    if (!expand_record(&L->x, t, env, &fs, &n)) {
        L->failed = true;
        return;
    }
    rt->keep_nulls = annot_flag(&t->annots, "json", "keep_nulls");
    rt->fields = zalloc(L, n * sizeof *rt->fields);
    rt->nfields = n;
    for (size_t i = 0; i < n; i++) {
        const ast_field *af = fs[i].field;
        ir_field *f = &rt->fields[i];
        f->atd_name = af->name;
        f->c_name = names_c_name(L->arena, af->name, annot_str(&af->annots, "c", "name"));
        const char *jn = NULL;
        size_t jl = 0;
        if (annot_get(&af->annots, "json", "name", &jn, &jl) && jn != NULL) {
            f->json_name = jn;
            f->json_len = jl;
        } else {
            f->json_name = af->name;
            f->json_len = strlen(af->name);
        }
        f->required_index = -1;
        ir_type *ft = lower_type(L, af->type, fs[i].env, fmt(L, "%s_%s", rt->short_name, af->name));
        switch (af->kind) {
        case AST_FIELD_REQUIRED:
        case AST_FIELD_INHERIT:
            f->kind = IR_FIELD_REQUIRED;
            f->required_index = (int)rt->nrequired++;
            f->slot.type = ft;
            break;
        case AST_FIELD_OPTIONAL:
            f->kind = IR_FIELD_OPTIONAL;
            if (ft->kind != IR_OPTION && ft->kind != IR_NULLABLE) {
                diag_error(L->diag, af->loc, "optional field '%s' must be an option or nullable",
                           af->name);
                L->failed = true;
                f->slot.type = ft;
            } else {
                f->slot.type = ft->elem.type;
            }
            break;
        case AST_FIELD_DEFAULT:
            f->kind = IR_FIELD_DEFAULT;
            f->slot.type = ft;
            lower_default(L, &af->annots, ft, af->loc, &f->dflt);
            break;
        }
    }
}

static void lower_sum(lower_ctx *L, ir_type *st, const ast_type *t, const expand_env *env)
{
    expand_case *cs;
    size_t n;
    if (!expand_sum(&L->x, t, env, &cs, &n)) {
        L->failed = true;
        return;
    }
    st->open_enum = annot_flag(&t->annots, "json", "open_enum");
    st->cases = zalloc(L, n * sizeof *st->cases);
    st->ncases = n;
    char *up = fmt(L, "%s", st->name);
    upper_into(up);
    for (size_t i = 0; i < n; i++) {
        const ast_variant *v = cs[i].variant;
        ir_case *c = &st->cases[i];
        c->atd_name = v->name;
        c->member = names_c_name(L->arena, v->name, annot_str(&v->annots, "c", "name"));
        char *cu = fmt(L, "%s_%s", up, c->member);
        upper_into(cu);
        c->const_name = cu;
        const char *jn = NULL;
        size_t jl = 0;
        if (annot_get(&v->annots, "json", "name", &jn, &jl) && jn != NULL) {
            c->json_name = jn;
            c->json_len = jl;
        } else {
            c->json_name = v->name;
            c->json_len = strlen(v->name);
        }
        if (v->arg != NULL) {
            c->arg.type =
                lower_type(L, v->arg, cs[i].env, fmt(L, "%s_%s", st->short_name, v->name));
            if (st->open_enum && c->arg.type->kind == IR_STRING)
                c->catch_all = true;
        }
    }
}

/* Nominal types (records and sums) are created before their contents are
 * lowered, so that recursive references find them. */
static ir_type *new_nominal(lower_ctx *L, const ast_type *t, const expand_env *env,
                            const char *short_name, const char *atd_name)
{
    ir_kind kind = IR_RECORD;
    if (t->kind == AST_SUM) {
        kind = IR_ENUM;
        /* A sum is an enum when every constructor, after inheritance, is nullary. */
        expand_case *cs;
        size_t n;
        if (expand_sum(&L->x, t, env, &cs, &n)) {
            for (size_t i = 0; i < n; i++)
                if (cs[i].variant->arg != NULL)
                    kind = IR_SUM;
        }
    }
    ir_type *rt = new_type(L, kind);
    rt->atd_name = atd_name;
    add_composite(L, rt, short_name);
    return rt;
}

static void fill_nominal(lower_ctx *L, ir_type *rt, const ast_type *t, const expand_env *env)
{
    if (t->kind == AST_RECORD)
        lower_record(L, rt, t, env);
    else
        lower_sum(L, rt, t, env);
}

static ir_type *lower_tuple(lower_ctx *L, const ast_type *t, const expand_env *env,
                            const char *ctx_name)
{
    size_t n = t->u.tuple.len;
    ir_cell *cells = zalloc(L, n * sizeof *cells);
    size_t keylen = 16, namelen = 8;
    for (size_t i = 0; i < n; i++) {
        const ast_cell *c = &t->u.tuple.cells[i];
        cells[i].slot.type = lower_type(L, c->type, env, fmt(L, "%s_%zu", ctx_name, i));
        if (annot_get(&c->annots, "c", "default", NULL, NULL) ||
            annot_get(&c->annots, "ocaml", "default", NULL, NULL)) {
            cells[i].has_default = true;
            lower_default(L, &c->annots, cells[i].slot.type, c->loc, &cells[i].dflt);
        }
        keylen += 24 + (cells[i].has_default && cells[i].dflt.c_expr ? strlen(cells[i].dflt.c_expr) : 0) +
                  cells[i].dflt.len * 4;
        namelen += strlen(cells[i].slot.type->short_name) + 1;
    }
    char *key = zalloc(L, keylen), *name = zalloc(L, namelen);
    size_t k = (size_t)sprintf(key, "tuple("), m = 0;
    for (size_t i = 0; i < n; i++) {
        k += (size_t)sprintf(key + k, "%d", cells[i].slot.type->id);
        if (cells[i].has_default) {
            k += (size_t)sprintf(key + k, "=%d:%s:", (int)cells[i].dflt.kind,
                                 cells[i].dflt.c_expr ? cells[i].dflt.c_expr : "");
            for (size_t j = 0; j < cells[i].dflt.len; j++)
                k += (size_t)sprintf(key + k, "%02x", (unsigned char)cells[i].dflt.bytes[j]);
        }
        key[k++] = ',';
        m += (size_t)sprintf(name + m, "%s_", cells[i].slot.type->short_name);
    }
    key[k++] = ')';
    ir_type *tt = find_key(L, key);
    if (tt != NULL)
        return tt;
    tt = new_type(L, IR_TUPLE);
    tt->key = key;
    tt->cells = cells;
    tt->ncells = n;
    for (size_t i = 0; i < n; i++)
        if (!cells[i].has_default)
            tt->nmin_cells = i + 1;
    add_composite(L, tt, fmt(L, "%stuple", name));
    return tt;
}

/* --- definitions and instantiations --- */

/* The type denoted by definition d applied as `app` (or d itself when it has
 * no parameters, app then being NULL or argument-less). */
static ir_type *lower_def_app(lower_ctx *L, const ast_typedef *d, const ast_type *app,
                              const expand_env *env)
{
    const expand_env *denv = NULL;
    const char *argkey = "";
    const char *short_name = names_mangle(L->arena, d->name);
    if (d->nparams > 0) {
        denv = expand_bind(&L->x, d, app, env);
        /* Instance key and name from the lowered arguments. */
        char *k = fmt(L, "%s", "");
        char *nm = fmt(L, "%s", short_name);
        for (size_t i = 0; i < app->u.name.nargs; i++) {
            ir_type *a = lower_type(L, app->u.name.args[i], env, fmt(L, "%s_arg%zu", short_name, i));
            k = fmt(L, "%s%d,", k, a->id);
            nm = fmt(L, "%s_%s", nm, a->short_name);
        }
        argkey = k;
        short_name = nm;
    }
    memo *mo = NULL;
    for (size_t i = 0; i < L->nmemos; i++)
        if (L->memos[i].def == d && strcmp(L->memos[i].argkey, argkey) == 0)
            mo = &L->memos[i];
    if (mo != NULL && mo->result != NULL)
        return mo->result;
    if (mo != NULL && mo->in_progress) {
        /* An alias on a recursive cycle (type tree = node list, node refers to
         * tree): lower its right-hand side again; the cycle ends at the
         * record or sum, which already exists. */
        return lower_type(L, d->rhs, denv, short_name);
    }
    if (L->nmemos >= INSTANCES_MAX) {
        diag_error(L->diag, d->loc, "too many instantiations of parametrized types "
                                    "(non-regular recursion?)");
        L->failed = true;
        exit(1);
    }
    L->memos = grow_array(L, L->memos, &L->memos_cap, L->nmemos, sizeof *L->memos);
    size_t mi = L->nmemos++;
    L->memos[mi].def = d;
    L->memos[mi].argkey = argkey;
    L->memos[mi].result = NULL;
    L->memos[mi].in_progress = true;
    ir_type *r;
    const char *cname = annot_str(&d->annots, "c", "name");
    if (cname != NULL && d->nparams == 0)
        short_name = cname;
    if (d->rhs->kind == AST_RECORD || d->rhs->kind == AST_SUM) {
        r = new_nominal(L, d->rhs, denv, short_name, short_name);
        r->owner = d->name;
        L->memos[mi].result = r;
        fill_nominal(L, r, d->rhs, denv);
    } else {
        r = lower_type(L, d->rhs, denv, short_name);
        /* The first definition naming a structural type gives it its name. */
        if (ir_is_composite(r) && r->owner == NULL && r->kind != IR_RECORD &&
            r->kind != IR_SUM && r->kind != IR_ENUM) {
            r->owner = d->name;
            r->short_name = short_name;
            r->name = fmt(L, "%s%s", L->prefix, short_name);
            r->fn = r->name;
            r->atd_name = short_name;
        }
        L->memos[mi].result = r;
    }
    L->memos[mi].in_progress = false;
    return r;
}

static ir_type *lower_name(lower_ctx *L, const ast_type *t, const expand_env *env,
                           const char *ctx_name)
{
    if (t->u.name.npath != 1) {
        diag_error(L->diag, t->loc, "imported types are not supported by the C emitter yet");
        L->failed = true;
        return scalar(L, IR_ABSTRACT, "atd_json", "abstract", "abstract");
    }
    const char *n = t->u.name.path[0];
    size_t nargs = t->u.name.nargs;
    if (strcmp(n, "unit") == 0)
        return scalar(L, IR_UNIT, "uint8_t", "unit", "unit");
    if (strcmp(n, "bool") == 0)
        return scalar(L, IR_BOOL, "bool", "bool", "bool");
    if (strcmp(n, "int") == 0)
        return lower_int(L, t);
    if (strcmp(n, "float") == 0)
        return lower_float(L, t);
    if (strcmp(n, "string") == 0)
        return scalar(L, IR_STRING, "atd_string", "string", "string");
    if (strcmp(n, "abstract") == 0)
        return scalar(L, IR_ABSTRACT, "atd_json", "abstract", "abstract");
    if (nargs == 1 && strcmp(n, "list") == 0) {
        const char *repr = annot_str(&t->annots, "json", "repr");
        if (repr != NULL && strcmp(repr, "object") == 0)
            return lower_assoc(L, t, env, ctx_name);
        ir_type *e = lower_type(L, t->u.name.args[0], env, fmt(L, "%s_elt", ctx_name));
        return wrapper(L, IR_LIST, e, "list");
    }
    if (nargs == 1 && strcmp(n, "option") == 0)
        return wrapper(L, IR_OPTION, lower_type(L, t->u.name.args[0], env, ctx_name), "option");
    if (nargs == 1 && strcmp(n, "nullable") == 0) {
        ir_type *e = lower_type(L, t->u.name.args[0], env, ctx_name);
        if (e->kind == IR_NULLABLE)
            return e; /* T nullable nullable == T nullable (atd-spec 5.7) */
        return wrapper(L, IR_NULLABLE, e, "nullable");
    }
    if (nargs == 1 && strcmp(n, "wrap") == 0)
        return lower_type(L, t->u.name.args[0], env, ctx_name);
    const ast_typedef *d = expand_find_def(&L->x, n);
    if (d == NULL) {
        diag_error(L->diag, t->loc, "undefined type '%s'", n);
        L->failed = true;
        return scalar(L, IR_ABSTRACT, "atd_json", "abstract", "abstract");
    }
    return lower_def_app(L, d, t, env);
}

static ir_type *lower_type(lower_ctx *L, const ast_type *t, const expand_env *env,
                           const char *ctx_name)
{
    if (++L->nest > NEST_MAX) {
        diag_error(L->diag, t->loc, "type is nested too deeply (cycle not through a record or "
                                    "sum?)");
        L->failed = true;
        exit(1);
    }
    ir_type *r = NULL;
    switch (t->kind) {
    case AST_TVAR: {
        const ast_type *e;
        const expand_env *ee;
        if (!expand_lookup(env, t->u.tvar.name, &e, &ee)) {
            diag_error(L->diag, t->loc, "unbound type variable '%s", t->u.tvar.name);
            L->failed = true;
            r = scalar(L, IR_ABSTRACT, "atd_json", "abstract", "abstract");
        } else {
            r = lower_type(L, e, ee, ctx_name);
        }
        break;
    }
    case AST_NAME:
        r = lower_name(L, t, env, ctx_name);
        break;
    case AST_TUPLE:
        r = lower_tuple(L, t, env, ctx_name);
        break;
    case AST_RECORD:
    case AST_SUM: {
        const char *cn = annot_str(&t->annots, "c", "name");
        const char *sn = names_mangle(L->arena, cn ? cn : ctx_name);
        r = new_nominal(L, t, env, sn, sn);
        fill_nominal(L, r, t, env);
        break;
    }
    }
    L->nest--;
    return r;
}

/* --- module --- */

static const char *base_name(lower_ctx *L, const char *path, const char **file_out)
{
    const char *slash = strrchr(path, '/');
    const char *file = slash ? slash + 1 : path;
    *file_out = file;
    const char *dot = strrchr(file, '.');
    size_t n = dot && dot != file ? (size_t)(dot - file) : strlen(file);
    char *b = fmt(L, "%.*s", (int)n, file);
    for (char *p = b; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '_';
    return b;
}

/* Two C names that are equal would not compile: report them. */
static void check_clashes(lower_ctx *L, ir_module *m)
{
    for (size_t i = 0; i < m->ntypes; i++)
        for (size_t j = i + 1; j < m->ntypes; j++)
            if (strcmp(m->types[i]->name, m->types[j]->name) == 0) {
                diag_error(L->diag, (ast_loc){0}, "two C types would be named '%s': "
                           "rename one with <c name>", m->types[i]->name);
                L->failed = true;
            }
    for (size_t i = 0; i < m->ndefs; i++) {
        if (!m->defs[i].is_typedef)
            continue;
        for (size_t j = 0; j < m->ntypes; j++)
            if (strcmp(m->defs[i].c_name, m->types[j]->name) == 0) {
                diag_error(L->diag, (ast_loc){0}, "the C name '%s' of type '%s' is also "
                           "derived for another type: rename it with <c name>",
                           m->defs[i].c_name, m->defs[i].atd_name);
                L->failed = true;
            }
    }
}

ir_module *lower_module(diag_ctx *d, atd_arena *arena, const ast_module *am, const char *prefix)
{
    lower_ctx L;
    memset(&L, 0, sizeof L);
    L.diag = d;
    L.arena = arena;
    L.x.diag = d;
    L.x.arena = arena;
    L.x.module = am;
    ir_module *m = zalloc(&L, sizeof *m);
    m->base = base_name(&L, am->file ? am->file : "schema.atd", &m->source_name);
    if (prefix == NULL)
        prefix = annot_str(&am->annots, "c", "prefix");
    /* The prefix names the module part: "ev" and "ev_" both give ev_<type>. */
    if (prefix == NULL)
        L.prefix = fmt(&L, "%s_", m->base);
    else if (prefix[0] == 0 || prefix[strlen(prefix) - 1] == '_')
        L.prefix = prefix;
    else
        L.prefix = fmt(&L, "%s_", prefix);
    m->prefix = L.prefix;
    char *g = fmt(&L, "%s_ATD_H", m->base);
    upper_into(g);
    m->guard = g;

    m->defs = zalloc(&L, am->ndefs * sizeof *m->defs);
    for (size_t i = 0; i < am->ndefs; i++) {
        const ast_typedef *td = &am->defs[i];
        if (td->nparams > 0)
            continue; /* only its instances are emitted */
        ir_type *t = lower_def_app(&L, td, NULL, NULL);
        ir_def *def = &m->defs[m->ndefs++];
        def->atd_name = td->name;
        const char *cname = annot_str(&td->annots, "c", "name");
        def->c_name = fmt(&L, "%s%s", L.prefix,
                          cname ? cname : names_mangle(arena, td->name));
        def->type = t;
        def->is_typedef = strcmp(def->c_name, t->name) != 0;
        def->doc = annot_str(&td->annots, "doc", "text");
    }
    if (L.failed)
        return NULL;
    /* Composite types go to the module; scalars stay behind. */
    m->types = zalloc(&L, L.ntypes * sizeof *m->types);
    for (size_t i = 0; i < L.ntypes; i++)
        if (ir_is_composite(L.types[i]))
            m->types[m->ntypes++] = L.types[i];
    check_clashes(&L, m);
    if (L.failed)
        return NULL;
    sort_module(m);
    return m;
}
