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
 *   type p in p.atd              P p, or with --no-stutter p (prefixed_name)
 *   m.t (from ... import t)      Q t, Q the imported schema's prefix (its
 *                                <c prefix>, else its base name + "_"); defined
 *                                in its header, which this header includes
 *
 * Recursion: a member whose type is a record or sum of the same strongly
 * connected component (by-value containment) becomes a pointer (sort.c), so
 * `type tree = { kids : tree list; ?left : tree option }` gives
 * `bool has_left; P tree *left;`. Lists always hold pointers.
 *
 * Defaults of `~` fields and tuple cells: <c default> (C text, whose
 * meaning per type is in check_cdefault.h), else the <ocaml default>
 * literal translated into C,
 * else the implicit default of the type (0, false, "", [], None). */
#include "lower.h"
#include "lower_bin.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atd/biniou.h"
#include "check/check_annot.h"
#include "check/check_default.h"
#include "check/check_inherit.h"
#include "check/check_lookup.h"
#include "util/alloc.h"
#include "util/names.h"
#include "lower_adapter.h"
#include "check/check_cdefault.h"
#include "lower_odefault.h"
#include "check/check_validators.h"

/* Limits of lowering itself, for input the checker let through: lowering
 * stops at the offending type expression and records it in the module
 * (ir_module.limit), and the checker reports it (check_lowered.c).
 * NEST_MAX bounds the C stack used by lower_type. */
#define NEST_MAX 200
#define INSTANCES_MAX 2000 /* non-regular recursion makes instances forever */

typedef struct memo {
    const ast_typedef *def;
    const char *argkey; /* "" for a definition without parameters */
    ir_type *result;
    bool in_progress;
} memo;

typedef struct lower_ctx {
    check_cx *cx; /* the checked module: definitions, names, inheritance */
    const ast_module *module;
    atd_arena *arena;
    const char *prefix;
    bool no_stutter; /* atdc --no-stutter (prefixed_name) */
    ir_type **types;
    size_t ntypes, types_cap;
    memo *memos;
    size_t nmemos, memos_cap;
    size_t ninstances; /* memos of parametrized definitions */
    int next_id;
    int nest;
    bool failed;                /* out of memory: no module */
    bool aborted;               /* a limit was hit: unwind quickly, record nothing more */
    ir_limit limit;             /* which one, and where (ir_module.limit) */
    ast_loc limit_loc;
    int limit_max;
    ir_use *uses;               /* ir_module.uses */
    size_t nuses, uses_cap;
    ast_loc loc;                /* the type expression being lowered: new types get it */
    bool oom;                   /* the arena ran out: aborted too; reported once, at the end */
    ir_type sink;               /* what new_type gives after running out of memory */
    char none[1];               /* what fmt gives after running out of memory: "" */
    const deps_import *imports; /* per import of the module, or NULL (deps.h) */
    const ast_annots **checked; /* nodes whose checks were looked at (lower_checks) */
    size_t nchecked, checked_cap;
    bool bin_abstract, bin_imported; /* see ir_module */
    ast_loc bin_abstract_loc, bin_imported_loc;
} lower_ctx;

/* --- small helpers --- */

static char *fmt(lower_ctx *L, const char *f, ...) ATD_PRINTF(2, 3);
/* Out of memory (the one policy of the compiler): a sticky flag, checked
 * where the stage ends. Lowering stops at once (aborted) and every
 * allocation after it gives something harmless: "" for a string, the sink
 * for a type, an empty array. */
static void lower_oom(lower_ctx *L)
{
    L->oom = true;
    L->failed = true;
    L->aborted = true;
}

static char *fmt(lower_ctx *L, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *s = util_arena_vprintf(L->arena, f, ap);
    va_end(ap);
    if (s == NULL) {
        lower_oom(L);
        L->none[0] = 0;
        return L->none;
    }
    return s;
}

/* The C name of the type called short_name in a schema of prefix P: P +
 * short_name, except with --no-stutter for the type named like the prefix
 * without its final '_' (type library in library.atd), which is the bare
 * prefix: library, not library_library. */
static const char *prefixed_name(lower_ctx *L, const char *prefix, const char *short_name)
{
    size_t n = strlen(prefix);
    if (L->no_stutter && n > 1 && prefix[n - 1] == '_' && strlen(short_name) == n - 1 &&
        strncmp(prefix, short_name, n - 1) == 0)
        return short_name;
    return fmt(L, "%s%s", prefix, short_name);
}

/* Makes room for one more item; false when out of memory. */
static bool grow_array(lower_ctx *L, void **items, size_t *cap, size_t len, size_t size)
{
    if (len < *cap)
        return true;
    size_t ncap = *cap ? *cap * 2 : 16;
    void *n = atd_arena_grow(L->arena, *items, *cap * size, ncap * size, 8);
    if (n == NULL) {
        lower_oom(L);
        return false;
    }
    *items = n;
    *cap = ncap;
    return true;
}

/* Records an annotation for the checker to judge on the IR (ir_use). */
static void record_use(lower_ctx *L, ir_use u)
{
    if (!L->aborted && grow_array(L, (void **)&L->uses, &L->uses_cap, L->nuses, sizeof *L->uses))
        L->uses[L->nuses++] = u;
}

/* Stops lowering at a limit, recorded for the checker. */
static void reach_limit(lower_ctx *L, ir_limit limit, ast_loc loc, int max)
{
    if (!L->aborted) {
        L->limit = limit;
        L->limit_loc = loc;
        L->limit_max = max;
    }
    L->aborted = true;
}

/* Zeroed memory; NULL when out of memory. */
static void *zalloc(lower_ctx *L, size_t size)
{
    void *p = atd_arena_alloc(L->arena, size ? size : 1, 8);
    if (p == NULL) {
        lower_oom(L);
        return NULL;
    }
    memset(p, 0, size ? size : 1);
    return p;
}

/* Appends t to the type table. */
static void add_type(lower_ctx *L, ir_type *t)
{
    if (t != &L->sink &&
        grow_array(L, (void **)&L->types, &L->types_cap, L->ntypes, sizeof *L->types))
        L->types[L->ntypes++] = t;
}

/* Records the first of each kind of type that biniou cannot have (see
 * ir_module). */
static void note_bin_blocker(bool *seen, ast_loc *where, ast_loc loc)
{
    if (!*seen) {
        *seen = true;
        *where = loc;
    }
}

/* <c lazy> and <c shared> on the type of a slot (the lazy format's). */
static void lower_lazy_slot(const ast_annots *a, ir_slot *s)
{
    const ast_annot_field *lz = check_annot_find(a, "c", "lazy");
    const ast_annot_field *sh = check_annot_find(a, "c", "shared");
    s->lz_lazy = check_annot_flag(a, "c", "lazy");
    s->lz_shared = check_annot_flag(a, "c", "shared");
    if (lz != NULL || sh != NULL)
        s->lz_loc = (lz != NULL ? lz : sh)->loc;
}

/* The value of `<section field="value">` (check_annot.h), or NULL. */
/* The documentation of a definition, field or constructor: its <doc text>,
 * else the (** ... *) comment before it. */
static const char *doc_text(const ast_annots *annots, const char *comment)
{
    const char *text = check_annot_str(annots, "doc", "text");
    return text != NULL ? text : comment;
}

/* names.c allocates in the arena too: out of memory is handled alike. */
static const char *c_name_of(lower_ctx *L, const char *atd_name, const char *override)
{
    const char *c = names_c_name(L->arena, atd_name, override);
    if (c == NULL) {
        lower_oom(L);
        return "";
    }
    return c;
}

static void upper_into(char *s)
{
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z')
            *s = (char)(*s - 'a' + 'A');
}

/* The local definition that the reference t (an AST_NAME) names, as the
 * checker resolved it; NULL for anything else. */
static const ast_typedef *def_of(lower_ctx *L, const ast_type *t)
{
    check_ref r = check_lookup(L->cx, t);
    return r.kind == CHECK_REF_DEF ? &L->module->defs[r.def] : NULL;
}

/* The scope of each record or sum node that `inherit` reaches from t (read
 * in sc). The checker's members say which fields survive; the scope says
 * how the type parameters of the node they are written in are bound here.
 * All the members that survive from one node came through the last path
 * that reaches it (a later path brings every name of the node again), so
 * the walk goes through the clauses backwards and keeps the first scope
 * found per node; a node met again adds nothing new. */
typedef struct owner_scope {
    const ast_type *node;
    const check_scope *sc;
} owner_scope;

typedef struct owner_scopes {
    owner_scope *items;
    size_t len, cap;
} owner_scopes;

static void owner_scopes_walk(lower_ctx *L, const ast_type *t, const check_scope *sc,
                              owner_scopes *o)
{
    for (size_t i = 0; i < o->len; i++)
        if (o->items[i].node == t)
            return;
    if (!grow_array(L, (void **)&o->items, &o->cap, o->len, sizeof *o->items))
        return;
    o->items[o->len].node = t;
    o->items[o->len].sc = sc;
    o->len++;
    size_t n = t->kind == AST_SUM ? t->u.sum.len : t->u.record.len;
    for (size_t i = n; i-- > 0;) {
        const ast_type *clause = NULL;
        if (t->kind == AST_SUM && t->u.sum.variants[i].is_inherit)
            clause = t->u.sum.variants[i].arg;
        else if (t->kind == AST_RECORD && t->u.record.fields[i].kind == AST_FIELD_INHERIT)
            clause = t->u.record.fields[i].type;
        if (clause == NULL)
            continue;
        check_clo c = {clause, sc};
        check_head h = check_resolve(L->cx, c, false);
        if (h.kind == CHECK_H_RECORD || h.kind == CHECK_H_SUM)
            owner_scopes_walk(L, h.clo.t, h.clo.sc, o);
    }
}

/* The members of record or sum t read in sc after inheritance
 * (check_inherit.h), with the scope each member's type is read in. */
static const check_scope **lower_members(lower_ctx *L, const ast_type *t, const check_scope *sc,
                                         check_members *ms)
{
    owner_scopes o = {NULL, 0, 0};
    const check_scope **scopes = NULL;
    if (check_inherit_expand(L->cx, t, false, ms)) {
        owner_scopes_walk(L, t, sc, &o);
        scopes = zalloc(L, ms->len * sizeof *scopes);
    } else {
        lower_oom(L);
    }
    if (scopes == NULL)
        ms->len = 0;
    for (size_t i = 0; i < ms->len; i++)
        for (size_t k = 0; k < o.len; k++)
            if (o.items[k].node == ms->items[i].owner)
                scopes[i] = o.items[k].sc;
    return scopes;
}

/* --- type table --- */

static ir_type *new_type(lower_ctx *L, ir_kind kind)
{
    ir_type *t = zalloc(L, sizeof *t);
    if (t == NULL) {
        memset(&L->sink, 0, sizeof L->sink);
        t = &L->sink;
    }
    t->kind = kind;
    t->id = L->next_id++;
    t->scc = -1;
    t->loc = L->loc;
    return t;
}

/* Registers a composite type with the C name P+short. */
static void add_composite(lower_ctx *L, ir_type *t, const char *short_name)
{
    t->short_name = short_name;
    t->name = prefixed_name(L, L->prefix, short_name);
    t->fn = t->name;
    if (t->atd_name == NULL)
        t->atd_name = short_name;
    add_type(L, t);
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
    add_type(L, t);
    return t;
}

static ir_type *lower_type(lower_ctx *L, const ast_type *t, const check_scope *env,
                           const char *ctx_name);

/* What an erroneous type expression lowers to, so that lowering can go on
 * (and find more errors) or unwind; nothing is emitted after an error. */
static ir_type *placeholder(lower_ctx *L)
{
    return scalar(L, IR_ABSTRACT, "atd_json", "abstract", "abstract");
}

/* --- predefined types --- */

static ir_type *lower_int(lower_ctx *L, const ast_type *t)
{
    static const struct {
        const char *repr, *ctype;
        ir_int_repr r;
    } reprs[] = {{"int64", "int64_t", IR_INT64},   {"int8", "int8_t", IR_INT8},
                 {"int16", "int16_t", IR_INT16},   {"int32", "int32_t", IR_INT32},
                 {"uint8", "uint8_t", IR_UINT8},   {"uint16", "uint16_t", IR_UINT16},
                 {"uint32", "uint32_t", IR_UINT32}};
    size_t k = 0;
    const char *repr = check_annot_str(&t->annots, "c", "repr");
    if (repr != NULL) {
        for (k = 0; k < sizeof reprs / sizeof reprs[0]; k++)
            if (strcmp(reprs[k].repr, repr) == 0)
                break;
        /* Not reached: the checker accepts only the words of this table
         * on int (check_annot_type.c); anything else would be int64. */
        if (k == sizeof reprs / sizeof reprs[0])
            k = 0;
    }
    const char *jrepr = check_annot_str(&t->annots, "json", "repr");
    bool as_string = jrepr != NULL && strcmp(jrepr, "string") == 0;
    const char *sn = k == 0 ? "int" : reprs[k].repr;
    if (as_string)
        sn = fmt(L, "%s_string", sn);
    static const struct {
        const char *repr;
        unsigned tag;
    } breprs[] = {{"uvint", ATD_BIN_UVINT},
                  {"int8", ATD_BIN_INT8},
                  {"int16", ATD_BIN_INT16},
                  {"int32", ATD_BIN_INT32},
                  {"int64", ATD_BIN_INT64}};
    unsigned btag = ATD_BIN_SVINT;
    const char *brepr = check_annot_str(&t->annots, "biniou", "repr");
    for (size_t b = 0; brepr != NULL && b < sizeof breprs / sizeof breprs[0]; b++)
        if (strcmp(breprs[b].repr, brepr) == 0) {
            btag = breprs[b].tag;
            sn = fmt(L, "%s_b%s", sn, brepr);
        }
    ir_type *s = scalar(L, IR_INT, reprs[k].ctype, sn, fmt(L, "int:%s", sn));
    s->int_repr = reprs[k].r;
    s->int_as_string = as_string;
    s->bin_int = btag;
    return s;
}

static ir_type *lower_float(lower_ctx *L, const ast_type *t)
{
    const char *repr = check_annot_str(&t->annots, "c", "repr");
    bool f32 = repr != NULL && strcmp(repr, "float") == 0;
    const char *jrepr = check_annot_str(&t->annots, "json", "repr");
    bool as_int = jrepr != NULL && strcmp(jrepr, "int") == 0;
    const char *prec = check_annot_str(&t->annots, "json", "precision");
    int p = prec ? atoi(prec) : 0;
    if (p < 0)
        p = 0;
    const char *sn = f32 ? "float32" : "float";
    if (as_int)
        sn = fmt(L, "%s_int", sn);
    else if (p > 0)
        sn = fmt(L, "%s_p%d", sn, p);
    const char *brepr = check_annot_str(&t->annots, "biniou", "repr");
    bool b32 = brepr != NULL && strcmp(brepr, "float32") == 0;
    if (b32)
        sn = fmt(L, "%s_bfloat32", sn);
    ir_type *s = scalar(L, IR_FLOAT, f32 ? "float" : "double", sn, fmt(L, "float:%s", sn));
    s->float32 = f32;
    s->bin_float32 = b32;
    s->float_as_int = as_int;
    s->precision = as_int ? 0 : p;
    return s;
}

/* The checks of a value of type ty written as t (read in env): those of t's
 * annotations, after those of the alias t names (ir_check). A record or sum
 * node ends the chain: its validator is its type's. */
static const ir_check *lower_checks(lower_ctx *L, const ast_type *t, const check_scope *env,
                                    const ir_type *ty, int depth)
{
    const ir_check *inner = NULL;
    if (depth < NEST_MAX && t->kind == AST_TVAR && env != NULL) {
        const check_clo *b = check_bind(env, t->u.tvar.name);
        if (b != NULL)
            inner = lower_checks(L, b->t, b->sc, ty, depth + 1);
    } else if (depth < NEST_MAX && t->kind == AST_NAME && t->u.name.npath == 1) {
        const ast_typedef *d = def_of(L, t);
        if (d != NULL && d->rhs->kind != AST_RECORD && d->rhs->kind != AST_SUM) {
            const check_scope *denv = NULL;
            if (d->nparams > 0)
                denv = check_scope_enter(L->cx, t, env, (size_t)(d - L->module->defs));
            if (d->nparams == 0 || denv != NULL)
                inner = lower_checks(L, d->rhs, denv, ty, depth + 1);
        }
    }
    static const char *const fields[] = {"validator", "min", "max", "min_len", "max_len"};
    bool any = false;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0] && !any; i++)
        any = check_annot_find(&t->annots, "c", fields[i]) != NULL;
    if (!any)
        return inner;
    /* A node is met once per use of its alias: reported the first time. */
    bool seen = false;
    for (size_t i = 0; i < L->nchecked && !seen; i++)
        seen = L->checked[i] == &t->annots;
    if (!seen &&
        grow_array(L, (void **)&L->checked, &L->checked_cap, L->nchecked, sizeof *L->checked))
        L->checked[L->nchecked++] = &t->annots;
    bool own = t->kind != AST_RECORD && t->kind != AST_SUM;
    if (!seen)
        record_use(L, (ir_use){IR_USE_CHECKS, &t->annots, NULL, ty, t->loc, false, own});
    bool wrong = false; /* the checker reports it: the chain goes on without this node */
    const ir_check *c = check_validators_node(NULL, L->arena, &t->annots, ty, inner, own, &wrong,
                                              &L->oom);
    if (L->oom)
        lower_oom(L);
    return c;
}

static const char *unique_short_name(lower_ctx *L, const char *stem, const char *suffix);

/* A short name for a type holding checked values of short name `base`:
 * the alias the check comes from ("port"), else base_checked; numbered
 * when taken by a type with another key. */
static const char *checked_short_name(lower_ctx *L, const ast_type *t, const char *base,
                                      const char *suffix)
{
    const ast_typedef *d = t->kind == AST_NAME && t->u.name.npath == 1 ? def_of(L, t) : NULL;
    const char *stem =
        d != NULL && d->nparams == 0 ? c_name_of(L, d->name, NULL) : fmt(L, "%s_checked", base);
    return unique_short_name(L, stem, suffix);
}

/* stem_suffix, or stem2_suffix, stem3_suffix... when a type has it already. */
static const char *unique_short_name(lower_ctx *L, const char *stem, const char *suffix)
{
    const char *sn = fmt(L, "%s_%s", stem, suffix);
    for (int n = 2;; n++) {
        bool taken = false;
        for (size_t i = 0; i < L->ntypes && !taken; i++)
            taken = L->types[i]->short_name != NULL && strcmp(L->types[i]->short_name, sn) == 0;
        if (!taken || n > 1000)
            return sn;
        sn = fmt(L, "%s%d_%s", stem, n, suffix);
    }
}

/* list, option, nullable: structural, named <elem>_<suffix>; elements with
 * checks (written as `et`) make a type of their own. */
static ir_type *wrapper(lower_ctx *L, ir_kind kind, ir_type *elem, const char *suffix,
                        const ast_type *et, const ir_check *check)
{
    const char *key =
        fmt(L, "%s(%d%s)", suffix, elem->id, check_validators_key(L->arena, check, &L->oom));
    ir_type *t = find_key(L, key);
    if (t != NULL)
        return t;
    const char *sn = check != NULL ? checked_short_name(L, et, elem->short_name, suffix)
                                   : fmt(L, "%s_%s", elem->short_name, suffix);
    t = new_type(L, kind);
    t->key = key;
    t->elem.type = elem;
    t->elem.check = check;
    add_composite(L, t, sn);
    return t;
}

/* `T wrap` is T, unless <c t="U" wrap="f" unwrap="g"> makes it the user type
 * U (the checker demands all three): a scalar-like IR_WRAP, read as T then
 * converted with f, converted back with g before writing. Deduplicated on
 * (T, U, f, g). Its short name, used in derived names (U_list), is U with
 * every non-identifier byte replaced by '_'. */
static ir_type *lower_wrap(lower_ctx *L, const ast_type *t, const check_scope *env,
                           const char *ctx_name)
{
    ir_type *u = lower_type(L, t->u.name.args[0], env, ctx_name);
    const char *ct = check_annot_str(&t->annots, "c", "t");
    const char *wf = check_annot_str(&t->annots, "c", "wrap");
    const char *uf = check_annot_str(&t->annots, "c", "unwrap");
    if (ct == NULL || wf == NULL || uf == NULL)
        return u;
    const ir_check *uc = lower_checks(L, t->u.name.args[0], env, u, 0);
    const char *key =
        fmt(L, "wrap(%d,%s,%s,%s%s)", u->id, ct, wf, uf, check_validators_key(L->arena, uc, &L->oom));
    ir_type *w = find_key(L, key);
    if (w != NULL)
        return w;
    char *sn = fmt(L, "%s", ct);
    for (char *p = sn; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '_';
    w = scalar(L, IR_WRAP, ct, sn, key);
    w->elem.type = u;
    w->elem.check = uc;
    w->wrap_fn = wf;
    w->unwrap_fn = uf;
    return w;
}

/* The value type V of `(string * V) list <json repr="object">` (the checker
 * made sure it is a list of pairs with string keys: check_annot_type.c). */
static ir_type *lower_assoc(lower_ctx *L, const ast_type *list, const check_scope *env,
                            const char *ctx_name)
{
    check_clo arg = {list->u.name.args[0], env};
    check_head h = check_resolve(L->cx, arg, true);
    const ast_type *tup = h.clo.t;
    const check_scope *e2 = h.clo.sc;
    /* The key is a string; lowered all the same, as every type expression
     * (the type table numbers what it meets in order). */
    lower_type(L, tup->u.tuple.cells[0].type, e2, ctx_name);
    const ast_type *vt = tup->u.tuple.cells[1].type;
    ir_type *v = lower_type(L, vt, e2, fmt(L, "%s_elt", ctx_name));
    const ir_check *vc = lower_checks(L, vt, e2, v, 0);
    ir_slot lz = {v, false, vc, false, false, {0}};
    lower_lazy_slot(&vt->annots, &lz);
    bool index = check_annot_flag(&list->annots, "c", "index");
    if (!lz.lz_lazy && !lz.lz_shared && !index)
        return wrapper(L, IR_ASSOC, v, "assoc", vt, vc);
    /* the lazy format's annotations make another wire form: another type
     * to the dedup, with the same C layout */
    const char *key = fmt(L, "assoc(%d%s)lz%d%d%d", v->id, check_validators_key(L->arena, vc, &L->oom),
                          lz.lz_lazy, lz.lz_shared, index);
    /* An indexed map has lookup functions, named after what the user
     * wrote: the definition, or the record field it is the type of
     * (P_catalog_films_lazy_find), so each place gets a type of its own. */
    if (index)
        key = fmt(L, "%s@%s", key, ctx_name);
    ir_type *t = find_key(L, key);
    if (t != NULL)
        return t;
    t = new_type(L, IR_ASSOC);
    t->key = key;
    t->elem = lz;
    t->lz_index = index;
    const ast_annot_field *ia = check_annot_find(&list->annots, "c", "index");
    t->loc = ia != NULL ? ia->loc : list->loc;
    add_composite(L, t, index ? ctx_name : fmt(L, "%s_assoc", v->short_name));
    return t;
}

/* --- defaults --- */

/* The default of a `~` field or tuple cell of type t (written `type` in
 * scope env), from its annotations: <c default> as written, else the
 * <ocaml default> value decoded by the checker's parser (check_default.h,
 * so both stages agree on what is translatable) in C (lower_odefault.h),
 * else the implicit zero. */
static void lower_default(lower_ctx *L, const ast_annots *annots, const ast_type *type,
                          const check_scope *env, ir_type *t, ast_loc loc, ir_default *d)
{
    memset(d, 0, sizeof *d);
    const ast_annot_field *cdef = check_annot_find(annots, "c", "default");
    if (cdef != NULL) {
        /* a text that does not suit t leaves the zero default here; the
         * checker reports it (check_lowered.c) */
        record_use(L, (ir_use){IR_USE_C_DEFAULT, annots, cdef, t, loc, false, false});
        if (!check_cdefault(NULL, L->arena, cdef, t, d, &L->oom))
            memset(d, 0, sizeof *d);
        if (L->oom)
            lower_oom(L);
        return;
    }
    const ast_annot_field *od = check_annot_find(annots, "ocaml", "default");
    /* The zero of t, as atdgen defines the implicit default; a type without
     * one needs an explicit default, which the checker demands
     * (check_fields.c). */
    if (od == NULL || od->value == NULL)
        return;
    bool wrap = check_is_ocaml_wrap(L->cx, (check_clo){type, env});
    record_use(L, (ir_use){IR_USE_OCAML_DEFAULT, annots, od, t, loc, wrap, false});
    check_default_value dv;
    const char *range_type = NULL;
    int64_t range_value = 0;
    lower_odefault_result r = LOWER_ODEFAULT_UNTRANSLATABLE;
    if (check_default_parse(L->arena, od->value, od->value_len, &dv) != CHECK_DEFAULT_INVALID)
        r = lower_ocaml_default(L->arena, &dv, t, d, &range_type, &range_value);
    if (r == LOWER_ODEFAULT_OOM)
        lower_oom(L);
    /* An <ocaml t> wrap's own value stands for the wire type's zero (the
     * checker warned: check_fields.c); a value without a C form is the
     * checker's error, and the zero default stays. */
    if (r != LOWER_ODEFAULT_OK)
        memset(d, 0, sizeof *d);
}

/* --- records, sums, tuples --- */

static void lower_record(lower_ctx *L, ir_type *rt, const ast_type *t, const check_scope *env)
{
    check_members ms;
    const check_scope **scopes = lower_members(L, t, env, &ms);
    size_t n = ms.len;
    rt->keep_nulls = check_annot_flag(&t->annots, "json", "keep_nulls");
    rt->fields = zalloc(L, n * sizeof *rt->fields);
    if (rt->fields == NULL)
        n = 0;
    rt->nfields = n;
    for (size_t i = 0; i < n; i++) {
        const ast_field *af = ms.items[i].field;
        ir_field *f = &rt->fields[i];
        f->atd_name = af->name;
        f->loc = af->loc;
        f->c_name = c_name_of(L, af->name, check_annot_str(&af->annots, "c", "name"));
        f->doc = doc_text(&af->annots, af->doc);
        const ast_annot_field *jn = check_annot_find(&af->annots, "json", "name");
        if (jn != NULL && jn->value != NULL) {
            f->json_name = jn->value;
            f->json_len = jn->value_len;
        } else {
            f->json_name = af->name;
            f->json_len = strlen(af->name);
        }
        f->required_index = -1;
        f->bin_hashtag = atd_bin_hash(af->name, strlen(af->name)) | 0x80000000u;
        ir_type *ft = lower_type(L, af->type, scopes[i], fmt(L, "%s_%s", rt->short_name, af->name));
        switch (af->kind) {
        case AST_FIELD_REQUIRED:
        case AST_FIELD_INHERIT:
            f->kind = IR_FIELD_REQUIRED;
            f->required_index = (int)rt->nrequired++;
            f->slot.type = ft;
            break;
        case AST_FIELD_OPTIONAL:
            /* an option or a nullable (check_fields.c) */
            f->kind = IR_FIELD_OPTIONAL;
            f->slot.type = ft->elem.type;
            break;
        case AST_FIELD_DEFAULT:
            f->kind = IR_FIELD_DEFAULT;
            f->slot.type = ft;
            lower_default(L, &af->annots, af->type, scopes[i], ft, af->loc, &f->dflt);
            break;
        }
        /* the checks of the field's type; for `?x : T option`, of T */
        if (af->kind == AST_FIELD_OPTIONAL)
            f->slot.check = ft->elem.check;
        else
            f->slot.check = lower_checks(L, af->type, scopes[i], ft, 0);
        if (af->type != NULL)
            lower_lazy_slot(&af->type->annots, &f->slot);
    }
    if (!lower_record_adapter(L->arena, &t->annots, rt))
        lower_oom(L);
    record_use(L, (ir_use){IR_USE_RECORD_ADAPTER, &t->annots, NULL, rt, t->loc, false, false});
}

static void lower_sum(lower_ctx *L, ir_type *st, const ast_type *t, const check_scope *env)
{
    check_members ms;
    const check_scope **scopes = lower_members(L, t, env, &ms);
    size_t n = ms.len;
    st->open_enum = check_annot_flag(&t->annots, "json", "open_enum");
    const char *repr = check_annot_str(&t->annots, "json", "repr");
    st->json_object = repr != NULL && strcmp(repr, "object") == 0;
    st->cases = zalloc(L, n * sizeof *st->cases);
    if (st->cases == NULL)
        n = 0;
    st->ncases = n;
    char *up = fmt(L, "%s", st->name);
    upper_into(up);
    for (size_t i = 0; i < n; i++) {
        const ast_variant *v = ms.items[i].variant;
        ir_case *c = &st->cases[i];
        c->atd_name = v->name;
        c->member = c_name_of(L, v->name, check_annot_str(&v->annots, "c", "name"));
        c->doc = doc_text(&v->annots, v->doc);
        c->loc = v->name_loc;
        char *cu = fmt(L, "%s_%s", up, c->member);
        upper_into(cu);
        c->const_name = cu;
        const ast_annot_field *jn = check_annot_find(&v->annots, "json", "name");
        if (jn != NULL && jn->value != NULL) {
            c->json_name = jn->value;
            c->json_len = jn->value_len;
        } else {
            c->json_name = v->name;
            c->json_len = strlen(v->name);
        }
        c->bin_hashtag = atd_bin_hash(v->name, strlen(v->name));
        if (v->arg != NULL) {
            c->bin_hashtag |= 0x80000000u;
            c->arg.type =
                lower_type(L, v->arg, scopes[i], fmt(L, "%s_%s", st->short_name, v->name));
            c->arg.check = lower_checks(L, v->arg, scopes[i], c->arg.type, 0);
            if (st->open_enum && c->arg.type->kind == IR_STRING)
                c->catch_all = true;
        }
    }
    lower_sum_adapter(L->arena, &t->annots, st);
    record_use(L, (ir_use){IR_USE_SUM_ADAPTER, &t->annots, NULL, st, t->loc, false, false});
}

/* Nominal types (records and sums) are created before their contents are
 * lowered, so that recursive references find them. */
static ir_type *new_nominal(lower_ctx *L, const ast_type *t, const char *short_name,
                            const char *atd_name)
{
    ir_kind kind = IR_RECORD;
    if (t->kind == AST_SUM) {
        kind = IR_ENUM;
        /* A sum is an enum when every constructor, after inheritance, is nullary. */
        check_members ms = {NULL, 0};
        if (!check_inherit_expand(L->cx, t, false, &ms))
            lower_oom(L);
        for (size_t i = 0; i < ms.len; i++)
            if (ms.items[i].variant->arg != NULL)
                kind = IR_SUM;
    }
    ir_type *rt = new_type(L, kind);
    rt->atd_name = atd_name;
    add_composite(L, rt, short_name);
    return rt;
}

static void fill_nominal(lower_ctx *L, ir_type *rt, const ast_type *t, const check_scope *env)
{
    if (t->kind == AST_RECORD)
        lower_record(L, rt, t, env);
    else
        lower_sum(L, rt, t, env);
}

static ir_type *lower_tuple(lower_ctx *L, const ast_type *t, const check_scope *env,
                            const char *ctx_name)
{
    size_t n = t->u.tuple.len;
    ir_cell *cells = zalloc(L, n * sizeof *cells);
    if (cells == NULL)
        return placeholder(L);
    size_t keylen = 16, namelen = 8;
    for (size_t i = 0; i < n; i++) {
        const ast_cell *c = &t->u.tuple.cells[i];
        cells[i].slot.type = lower_type(L, c->type, env, fmt(L, "%s_%zu", ctx_name, i));
        cells[i].slot.check = lower_checks(L, c->type, env, cells[i].slot.type, 0);
        if (check_annot_find(&c->annots, "c", "default") != NULL ||
            check_annot_find(&c->annots, "ocaml", "default") != NULL) {
            cells[i].has_default = true;
            lower_default(L, &c->annots, c->type, env, cells[i].slot.type, c->loc, &cells[i].dflt);
        }
        keylen +=
            24 + strlen(check_validators_key(L->arena, cells[i].slot.check, &L->oom)) +
            (cells[i].has_default && cells[i].dflt.c_expr ? strlen(cells[i].dflt.c_expr) : 0) +
            cells[i].dflt.len * 4;
        namelen += strlen(cells[i].slot.type->short_name) + 1;
    }
    char *key = zalloc(L, keylen), *name = zalloc(L, namelen);
    if (key == NULL || name == NULL)
        return placeholder(L);
    size_t k = (size_t)sprintf(key, "tuple("), m = 0;
    for (size_t i = 0; i < n; i++) {
        k += (size_t)sprintf(key + k, "%d%s", cells[i].slot.type->id,
                             check_validators_key(L->arena, cells[i].slot.check, &L->oom));
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
    bool checked = false;
    for (size_t i = 0; i < n; i++)
        checked = checked || cells[i].slot.check != NULL;
    /* cells with checks make a tuple type of its own, named apart */
    if (checked) {
        name[m > 0 ? m - 1 : 0] = 0;
        add_composite(L, tt, unique_short_name(L, fmt(L, "%s_checked", name), "tuple"));
    } else {
        add_composite(L, tt, fmt(L, "%stuple", name));
    }
    return tt;
}

/* --- definitions and instantiations --- */

/* The definition of a monomorphic alias that the argument `t` (read in env)
 * names, or NULL when t is anything else. */
static const ast_typedef *alias_arg(lower_ctx *L, const ast_type *t, const check_scope *env)
{
    const check_clo *b;
    while (t->kind == AST_TVAR && env != NULL && (b = check_bind(env, t->u.tvar.name)) != NULL) {
        t = b->t;
        env = b->sc;
    }
    const ast_typedef *d = t->kind == AST_NAME ? def_of(L, t) : NULL;
    if (d == NULL || t->u.name.nargs != 0 || d->nparams != 0 || d->rhs->kind == AST_RECORD ||
        d->rhs->kind == AST_SUM)
        return NULL;
    return d;
}

/* The type denoted by definition d applied as `app` (or d itself when it has
 * no parameters, app then being NULL or argument-less). */
static ir_type *lower_def_app(lower_ctx *L, const ast_typedef *d, const ast_type *app,
                              const check_scope *env)
{
    const check_scope *denv = NULL;
    const char *argkey = "";
    const char *short_name = c_name_of(L, d->name, NULL);
    if (d->nparams > 0) {
        denv = check_scope_enter(L->cx, app, env, (size_t)(d - L->module->defs));
        if (denv == NULL) {
            lower_oom(L);
            return placeholder(L);
        }
        /* Instance key and name from the lowered arguments. */
        char *k = fmt(L, "%s", "");
        char *nm = fmt(L, "%s", short_name);
        for (size_t i = 0; i < app->u.name.nargs; i++) {
            /* An alias argument is keyed by its name, not lowered here: it may
             * be the alias being defined (type boxed = boxed box option), and
             * lowering it first would never reach the instance's memo. */
            const ast_typedef *ad = alias_arg(L, app->u.name.args[i], env);
            if (ad != NULL) {
                k = fmt(L, "%s@%s,", k, ad->name);
                nm = fmt(L, "%s_%s", nm,
                         c_name_of(L, ad->name, check_annot_str(&ad->annots, "c", "name")));
                continue;
            }
            ir_type *a =
                lower_type(L, app->u.name.args[i], env, fmt(L, "%s_arg%zu", short_name, i));
            k = fmt(L, "%s%d,", k, a->id);
            nm = fmt(L, "%s_%s", nm, a->short_name);
        }
        /* <c name> on the instantiation names it; the name is
         * part of the key, so each spelling is its own C type. */
        const char *inst_name = check_annot_str(&app->annots, "c", "name");
        if (inst_name != NULL) {
            k = fmt(L, "%s#%s", k, inst_name);
            nm = fmt(L, "%s", inst_name);
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
    /* only instances count: a schema may have any number of definitions */
    if (d->nparams > 0 && L->ninstances++ >= INSTANCES_MAX) {
        reach_limit(L, IR_LIMIT_INSTANCES, app != NULL ? app->loc : d->name_loc, INSTANCES_MAX);
        return placeholder(L);
    }
    if (!grow_array(L, (void **)&L->memos, &L->memos_cap, L->nmemos, sizeof *L->memos))
        return placeholder(L);
    size_t mi = L->nmemos++;
    L->memos[mi].def = d;
    L->memos[mi].argkey = argkey;
    L->memos[mi].result = NULL;
    L->memos[mi].in_progress = true;
    ir_type *r;
    const char *cname = check_annot_str(&d->annots, "c", "name");
    if (cname != NULL && d->nparams == 0)
        short_name = cname;
    if (d->rhs->kind == AST_RECORD || d->rhs->kind == AST_SUM) {
        r = new_nominal(L, d->rhs, short_name, short_name);
        r->owner = d->name;
        if (d->nparams == 0)
            r->loc = d->name_loc;
        L->memos[mi].result = r;
        fill_nominal(L, r, d->rhs, denv);
    } else {
        r = lower_type(L, d->rhs, denv, short_name);
        /* The first definition naming a structural type gives it its name;
         * one with checks of its own stays a typedef, whose reader and
         * writer run them (emit_def_readers). */
        if (ir_is_composite(r) && r->owner == NULL && r->kind != IR_RECORD &&
            lower_checks(L, d->rhs, denv, r, 0) == NULL && r->kind != IR_SUM &&
            r->kind != IR_ENUM) {
            r->owner = d->name;
            r->short_name = short_name;
            r->name = prefixed_name(L, L->prefix, short_name);
            r->fn = r->name;
            r->atd_name = short_name;
            if (d->nparams == 0)
                r->loc = d->name_loc;
        }
        L->memos[mi].result = r;
    }
    /* An instance named in C by the schema (<c name>) is part of its API. */
    if (app != NULL && check_annot_str(&app->annots, "c", "name") != NULL && ir_is_composite(r))
        r->exported = true;
    L->memos[mi].in_progress = false;
    return r;
}

/* `mod.t`: a type of the imported schema, named as
 * that schema's own generation names it, <its prefix><t> (or its <c name>,
 * from the import list or from its definition), with functions of the same
 * name. Nothing is emitted for it; the header includes the imported header.
 * Its short name, for derived names here (mod_t_list), keeps the module.
 * The checker made sure the imported schema defines t without parameters
 * (check_imports.c). */
static ir_type *lower_imported(lower_ctx *L, const ast_type *t)
{
    const ast_module *am = L->module;
    const char *mod = t->u.name.path[0];
    const char *name = t->u.name.path[1];
    size_t i = 0;
    while (i < am->nimports) {
        const ast_import *im = &am->imports[i];
        if (strcmp(im->alias ? im->alias : im->path[im->npath - 1], mod) == 0)
            break;
        i++;
    }
    note_bin_blocker(&L->bin_imported, &L->bin_imported_loc, t->loc);
    const ast_import *im = &am->imports[i];
    const deps_import *di = &L->imports[i];
    const ast_imported_type *it = NULL;
    for (size_t k = 0; k < im->ntypes && it == NULL; k++)
        if (strcmp(im->types[k].name, name) == 0)
            it = &im->types[k];
    const ast_typedef *d = NULL;
    for (size_t k = 0; k < di->module->ndefs && d == NULL; k++)
        if (strcmp(di->module->defs[k].name, name) == 0)
            d = &di->module->defs[k];
    const char *cn = it != NULL ? check_annot_str(&it->annots, "c", "name") : NULL;
    if (cn == NULL)
        cn = check_annot_str(&d->annots, "c", "name");
    const char *c_t = c_name_of(L, name, cn);
    const char *key = fmt(L, "import(%s%s)", di->prefix, c_t);
    ir_type *r = find_key(L, key);
    if (r != NULL)
        return r;
    ir_kind kind = IR_RECORD;
    if (d->rhs->kind == AST_SUM) {
        kind = IR_ENUM;
        for (size_t k = 0; k < d->rhs->u.sum.len; k++)
            if (d->rhs->u.sum.variants[k].arg != NULL)
                kind = IR_RECORD; /* a tagged union (or inherit): only its name matters */
    }
    r = new_type(L, kind);
    r->key = key;
    r->imported = true;
    r->name = prefixed_name(L, di->prefix, c_t);
    r->fn = r->name;
    r->short_name = fmt(L, "%s_%s", c_name_of(L, mod, NULL), c_t);
    r->atd_name = fmt(L, "%s.%s", mod, name);
    r->owner = r->atd_name;
    add_type(L, r);
    return r;
}

static ir_type *lower_name(lower_ctx *L, const ast_type *t, const check_scope *env,
                           const char *ctx_name)
{
    if (t->u.name.npath != 1)
        return lower_imported(L, t);
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
    if (strcmp(n, "abstract") == 0) {
        note_bin_blocker(&L->bin_abstract, &L->bin_abstract_loc, t->loc);
        return scalar(L, IR_ABSTRACT, "atd_json", "abstract", "abstract");
    }
    if (nargs == 1 && strcmp(n, "list") == 0) {
        const char *repr = check_annot_str(&t->annots, "json", "repr");
        if (repr != NULL && strcmp(repr, "object") == 0)
            return lower_assoc(L, t, env, ctx_name);
        const ast_type *et = t->u.name.args[0];
        ir_type *e = lower_type(L, et, env, fmt(L, "%s_elt", ctx_name));
        const ir_check *ec = lower_checks(L, et, env, e, 0);
        /* a table is its own C type: the flag must not reach plain lists */
        const char *brepr = check_annot_str(&t->annots, "biniou", "repr");
        if (brepr != NULL && strcmp(brepr, "table") == 0) {
            ir_type *lt = wrapper(L, IR_LIST, e, "table", et, ec);
            lt->bin_table = true;
            return lt;
        }
        return wrapper(L, IR_LIST, e, "list", et, ec);
    }
    if (nargs == 1 && strcmp(n, "option") == 0) {
        const ast_type *et = t->u.name.args[0];
        ir_type *e = lower_type(L, et, env, ctx_name);
        return wrapper(L, IR_OPTION, e, "option", et, lower_checks(L, et, env, e, 0));
    }
    if (nargs == 1 && strcmp(n, "nullable") == 0) {
        const ast_type *et = t->u.name.args[0];
        ir_type *e = lower_type(L, et, env, ctx_name);
        if (e->kind == IR_NULLABLE)
            return e; /* T nullable nullable == T nullable: JSON has one null */
        return wrapper(L, IR_NULLABLE, e, "nullable", et, lower_checks(L, et, env, e, 0));
    }
    if (nargs == 1 && strcmp(n, "wrap") == 0)
        return lower_wrap(L, t, env, ctx_name);
    const ast_typedef *d = def_of(L, t);
    if (d == NULL) /* not reached: the checker reports every undefined name (check_types.c) */
        return placeholder(L);
    return lower_def_app(L, d, t, env);
}

static ir_type *lower_type(lower_ctx *L, const ast_type *t, const check_scope *env,
                           const char *ctx_name)
{
    if (L->aborted)
        return placeholder(L);
    if (L->nest >= NEST_MAX) {
        reach_limit(L, IR_LIMIT_NESTING, t->loc, NEST_MAX);
        return placeholder(L);
    }
    L->nest++;
    ast_loc saved_loc = L->loc;
    L->loc = t->loc;
    ir_type *r = NULL;
    switch (t->kind) {
    case AST_TVAR: {
        const check_clo *b = env != NULL ? check_bind(env, t->u.tvar.name) : NULL;
        if (b == NULL) {
            /* not reached: the checker reports every unbound variable
             * (check_types.c), and instantiation binds all the others */
            r = placeholder(L);
        } else {
            r = lower_type(L, b->t, b->sc, ctx_name);
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
        const char *cn = check_annot_str(&t->annots, "c", "name");
        const char *sn = c_name_of(L, cn ? cn : ctx_name, NULL);
        r = new_nominal(L, t, sn, sn);
        r->exported = cn != NULL; /* named in C by the schema */
        fill_nominal(L, r, t, env);
        break;
    }
    }
    L->nest--;
    L->loc = saved_loc;
    return r;
}

/* --- module --- */

/* Decides t->fixed and t->fixed_max (see ir_fixed): which values are
 * written with one reservation for the key and the value. */
static void lower_fixed(ir_type *t)
{
    t->fixed = IR_FIXED_NONE;
    t->fixed_max = NULL;
    switch (t->kind) {
    case IR_UNIT:
        t->fixed = IR_FIXED_NULL;
        t->fixed_max = "ATD_LEN(\"null\")";
        break;
    case IR_BOOL:
        t->fixed = IR_FIXED_BOOL;
        t->fixed_max = "ATD_LEN(\"false\")";
        break;
    case IR_INT:
        if (!t->int_as_string) {
            t->fixed = IR_FIXED_INT;
            t->fixed_max = "ATD_INT64_CHARS";
        }
        break;
    case IR_FLOAT:
        if (!t->float_as_int && t->precision == 0) {
            t->fixed = IR_FIXED_FLOAT;
            t->fixed_max = "ATD_DOUBLE_CHARS";
        }
        break;
    case IR_ENUM:
        if (!t->imported) /* its literals are in the other schema's source */
            t->fixed = IR_FIXED_ENUM;
        break;
    default: /* no fixed size */
        break;
    }
}

static ir_module *lower_all(lower_ctx *Lp, const ast_module *am, const char *prefix,
                            const deps_import *imports)
{
#define L (*Lp)
    ir_module *m = zalloc(&L, sizeof *m);
    if (m == NULL)
        return NULL;
    const char *path = am->file != NULL ? am->file : "schema.atd";
    const char *slash = strrchr(path, '/');
    m->source_name = slash != NULL ? slash + 1 : path;
    m->base = names_base_name(L.arena, path);
    if (m->base == NULL) {
        lower_oom(Lp);
        return NULL;
    }
    if (prefix == NULL)
        prefix = check_annot_str(&am->annots, "c", "prefix");
    L.prefix = names_prefix(L.arena, prefix, m->base);
    if (L.prefix == NULL) {
        lower_oom(Lp);
        return NULL;
    }
    m->prefix = L.prefix;
    char *g = fmt(&L, "%s_ATD_H", m->base);
    upper_into(g);
    m->guard = g;

    size_t ninc = 0;
    for (size_t i = 0; i < am->annots.len; i++)
        ninc += am->annots.items[i].nfields;
    m->c_includes = zalloc(&L, (ninc + 1) * sizeof *m->c_includes);
    for (size_t i = 0; i < am->annots.len && m->c_includes != NULL; i++) {
        const ast_annot *an = &am->annots.items[i];
        for (size_t j = 0; j < an->nfields && strcmp(an->section, "c") == 0; j++)
            if (strcmp(an->fields[j].name, "include") == 0 && an->fields[j].value != NULL)
                m->c_includes[m->nc_includes++] = an->fields[j].value;
    }
    m->defs = zalloc(&L, am->ndefs * sizeof *m->defs);
    for (size_t i = 0; i < am->ndefs && m->defs != NULL; i++) {
        const ast_typedef *td = &am->defs[i];
        if (td->nparams > 0)
            continue; /* only its instances are emitted */
        ir_type *t = lower_def_app(&L, td, NULL, NULL);
        ir_def *def = &m->defs[m->ndefs++];
        def->atd_name = td->name;
        const char *cname = check_annot_str(&td->annots, "c", "name");
        def->c_name = prefixed_name(&L, L.prefix, c_name_of(&L, td->name, cname));
        def->type = t;
        def->is_typedef = strcmp(def->c_name, t->name) != 0;
        def->check = lower_checks(&L, td->rhs, NULL, t, 0);
        if (!def->is_typedef)
            t->exported = true;
        def->doc = doc_text(&td->annots, td->doc);
        def->loc = td->name_loc;
        if (L.aborted)
            break;
    }
    if (L.failed)
        return NULL;
    m->bin_abstract = L.bin_abstract;
    m->bin_abstract_loc = L.bin_abstract_loc;
    m->bin_imported = L.bin_imported;
    m->bin_imported_loc = L.bin_imported_loc;
    m->uses = L.uses;
    m->nuses = L.nuses;
    m->limit = L.limit;
    m->limit_loc = L.limit_loc;
    m->limit_max = L.limit_max;
    for (size_t i = 0; i < L.ntypes; i++)
        lower_fixed(L.types[i]);
    /* Composite types go to the module; scalars stay behind. */
    m->types = zalloc(&L, L.ntypes * sizeof *m->types);
    for (size_t i = 0; i < L.ntypes && m->types != NULL; i++)
        if (ir_is_composite(L.types[i]) && !L.types[i]->imported)
            m->types[m->ntypes++] = L.types[i];
    /* Every imported schema's header, in import order. */
    m->includes = zalloc(&L, (am->nimports + 1) * sizeof *m->includes);
    for (size_t i = 0; i < am->nimports && imports != NULL && m->includes != NULL; i++)
        if (imports[i].base != NULL)
            m->includes[m->nincludes++] = imports[i].base;
    return L.failed ? NULL : m;
#undef L
}

ir_module *lower_module(diag_ctx *d, atd_arena *arena, const checked_module *cm,
                        const lower_options *o)
{
    const deps_import *imports = checked_imports(cm);
    lower_ctx *Lp = util_malloc(sizeof *Lp);
    if (Lp == NULL) {
        diag_oom(d);
        return NULL;
    }
    memset(Lp, 0, sizeof *Lp);
    Lp->imports = imports;
    Lp->no_stutter = o->no_stutter;
    Lp->arena = arena;
    Lp->cx = (check_cx *)cm;
    Lp->module = checked_ast(cm);
    ir_module *m = lower_all(Lp, checked_ast(cm), o->prefix, imports);
    if (Lp->oom)
        diag_oom(d);
    util_free(Lp);
    if (m == NULL)
        return NULL;
    m->biniou = o->biniou || o->biniou_skip_abstract || o->lazy;
    m->lazy = o->lazy;
    m->types_only = o->types_only;
    m->no_stream = o->no_stream;
    m->no_pretty = o->no_pretty;
    /* The lazy format needs every type's biniou form (check_formats.c). */
    if (o->biniou_skip_abstract && !o->lazy && m->bin_abstract &&
        !lower_bin_skip_abstract(d, arena, m))
        return NULL;
    return m;
}
