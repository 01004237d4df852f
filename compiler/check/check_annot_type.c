/* Annotations whose validity depends on the node they are written after
 * (json, biniou, c, ocaml sections): `<json repr>` on int/float/list/sum, keep_nulls on
 * a record, open_enum on a sum, precision on a float, `<biniou repr>`,
 * `<c repr>`, `<c name>` on an anonymous type or an instantiation, and
 * `<c t wrap unwrap>` on wrap. They must be written on the node itself: on a
 * reference to a type alias they would silently do nothing in atdgen, so
 * here they are misplaced. (check_annot.c has already checked positions,
 * duplicates and value shapes; this file looks at the first occurrence.) */
#include "check_annot.h"
#include "check_cx.h"
#include "check_lookup.h"

#include <string.h>

#include "check_adapter.h"

typedef enum check_node {
    CHECK_NODE_OTHER, /* an alias, an import, a bad reference, a type variable */
    CHECK_NODE_INT,
    CHECK_NODE_FLOAT,
    CHECK_NODE_LIST,
    CHECK_NODE_WRAP,
    CHECK_NODE_PREDEF, /* any other predefined type */
    CHECK_NODE_RECORD,
    CHECK_NODE_SUM,
    CHECK_NODE_TUPLE
} check_node;

static check_node check_annot_node_kind(check_cx *cx, const ast_type *t)
{
    switch (t->kind) {
    case AST_RECORD:
        return CHECK_NODE_RECORD;
    case AST_SUM:
        return CHECK_NODE_SUM;
    case AST_TUPLE:
        return CHECK_NODE_TUPLE;
    case AST_TVAR:
        return CHECK_NODE_OTHER;
    case AST_NAME:
        break;
    }
    check_ref r = check_lookup(cx, t);
    if (r.kind != CHECK_REF_PREDEF)
        return CHECK_NODE_OTHER;
    switch (r.pre) {
    case CHECK_PRE_INT:
        return CHECK_NODE_INT;
    case CHECK_PRE_FLOAT:
        return CHECK_NODE_FLOAT;
    case CHECK_PRE_LIST:
        return CHECK_NODE_LIST;
    case CHECK_PRE_WRAP:
        return CHECK_NODE_WRAP;
    default:
        return CHECK_NODE_PREDEF;
    }
}

/* A known annotation on a node where it does nothing (atdgen ignores it
 * there too): a warning, an error only with -Werror. */
static void check_annot_misplaced(check_cx *cx, const ast_type *t, const char *section,
                                  const ast_annot_field *f, const char *where)
{
    if (t->kind == AST_NAME && check_lookup(cx, t).kind == CHECK_REF_DEF)
        diag_warn(cx->d, DIAG_W_MISPLACED_ANNOTATION, f->loc,
                  "misplaced annotation '<%s %s>' is ignored: it belongs on %s, not on a "
                  "reference to type '%s'",
                  section, f->name, where, t->u.name.path[0]);
    else
        diag_warn(cx->d, DIAG_W_MISPLACED_ANNOTATION, f->loc,
                  "misplaced annotation '<%s %s>' is ignored: it belongs on %s", section, f->name,
                  where);
}

/* A built-in adapter anywhere but on a sum changes nothing in atdgen
 * either, but the schema surely meant it: an error. */
static void check_annot_misplaced_error(check_cx *cx, const ast_type *t, const ast_annot_field *f)
{
    if (t->kind == AST_NAME && check_lookup(cx, t).kind == CHECK_REF_DEF)
        diag_error(cx->d, f->loc,
                   "'<json %s>' names one of atdgen's built-in adapters, which apply to a sum "
                   "type: write it on the sum itself, not on a reference to type '%s'",
                   f->name, t->u.name.path[0]);
    else
        diag_error(cx->d, f->loc,
                   "'<json %s>' names one of atdgen's built-in adapters, which apply to a sum "
                   "type",
                   f->name);
}

/* Checks an enumerated value against the words allowed on this node
 * (a space-separated list); NULL `allowed` means the node takes none. */
static bool check_annot_enum(check_cx *cx, const ast_type *t, const char *section,
                             const ast_annot_field *f, const char *allowed, const char *where)
{
    if (allowed == NULL) {
        check_annot_misplaced(cx, t, section, f, where);
        return false;
    }
    if (f->value == NULL)
        return false; /* "missing value", reported already */
    size_t len = strlen(f->value);
    for (const char *p = allowed; *p != '\0';) {
        const char *end = strchr(p, ' ');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        if (n == len && f->value_len == len && memcmp(p, f->value, n) == 0)
            return true;
        p += n;
        while (*p == ' ')
            p++;
    }
    diag_error(cx->d, f->value_loc, "invalid value \"%s\" for '<%s %s>' here: expected one of: %s",
               check_quote(cx, f->value, f->value_len), section, f->name, allowed);
    return false;
}

/* The type a key resolves to. The keys of the C map are plain strings: a
 * wrap is seen through unless <c t> gives it a C type of its own. */
static check_head check_annot_key_type(check_cx *cx, check_clo key)
{
    check_head k = check_resolve(cx, key, false);
    while (k.kind == CHECK_H_PREDEF && k.pre == CHECK_PRE_WRAP &&
           check_annot_find(&k.clo.t->annots, "c", "t") == NULL) {
        check_clo inner = {k.clo.t->u.name.args[0], k.clo.sc};
        k = check_resolve(cx, inner, false);
    }
    return k;
}

/* (string * _) list <json repr="object">: keys must be strings. */
static void check_annot_object_keys(check_cx *cx, const ast_type *list, const ast_annot_field *f)
{
    check_clo elem = {list->u.name.args[0], NULL};
    check_head h = check_resolve(cx, elem, true);
    if (h.kind == CHECK_H_ERROR)
        return;
    if (h.kind != CHECK_H_TUPLE || h.clo.t->u.tuple.len != 2) {
        diag_error(cx->d, f->value_loc,
                   "'<json repr=\"object\">' needs a list of pairs: keys must be strings");
        return;
    }
    check_clo key = {h.clo.t->u.tuple.cells[0].type, h.clo.sc};
    check_head k = check_annot_key_type(cx, key);
    if (k.kind == CHECK_H_ERROR || (k.kind == CHECK_H_PREDEF && k.pre == CHECK_PRE_STRING))
        return;
    diag_error(cx->d, f->value_loc, "'<json repr=\"object\">': keys must be strings");
}

/* <json open_enum>: all constructors nullary but one,
 * which takes the predefined `string` itself. */
static void check_annot_open_enum(check_cx *cx, const ast_type *sum, const ast_annot_field *f)
{
    check_members ms;
    if (!check_inherit_expand(cx, sum, false, &ms))
        return;
    const ast_variant *catch_all = NULL;
    for (size_t i = 0; i < ms.len; i++) {
        const ast_variant *v = ms.items[i].variant;
        if (v->arg == NULL)
            continue;
        if (catch_all != NULL) {
            diag_error(cx->d, v->name_loc,
                       "an open enum has only one constructor with an argument, but '%s' also "
                       "has one",
                       v->name);
            diag_note(cx->d, catch_all->name_loc, "the catch-all constructor is '%s'",
                      catch_all->name);
            return;
        }
        catch_all = v;
    }
    if (catch_all == NULL) {
        diag_error(cx->d, f->loc,
                   "an open enum needs a catch-all constructor taking 'string', as in "
                   "'Other of string'");
        return;
    }
    const ast_type *a = catch_all->arg;
    if (!(a->kind == AST_NAME && a->u.name.npath == 1 && a->u.name.nargs == 0 &&
          strcmp(a->u.name.path[0], "string") == 0))
        diag_error(cx->d, catch_all->name_loc,
                   "the catch-all constructor '%s' of an open enum must take the predefined type "
                   "'string'",
                   catch_all->name);
}

/* <biniou repr="table"> needs records: a table is rows of fields. */
static void check_annot_table(check_cx *cx, const ast_type *list, const ast_annot_field *f)
{
    check_clo elem = {list->u.name.args[0], NULL};
    check_head h = check_resolve(cx, elem, true);
    if (h.kind != CHECK_H_ERROR && h.kind != CHECK_H_RECORD)
        diag_error(cx->d, f->value_loc, "'<biniou repr=\"table\">' needs a list of records");
}

static void check_annot_json(check_cx *cx, const ast_type *t, check_node k)
{
    const ast_annots *a = &t->annots;
    const ast_annot_field *f = check_annot_find(a, "json", "repr");
    if (f != NULL) {
        /* "int" on int and "float" on float are atdgen's explicit defaults
         * (its own tests write `int <json repr="int">`): accepted, no effect. */
        const char *allowed = k == CHECK_NODE_INT     ? "int string"
                              : k == CHECK_NODE_FLOAT ? "float int"
                              : k == CHECK_NODE_LIST  ? "array object"
                              : k == CHECK_NODE_SUM   ? "object"
                                                      : NULL;
        if (check_annot_enum(cx, t, "json", f, allowed, "an int, a float, a list or a sum") &&
            k == CHECK_NODE_LIST && strcmp(f->value, "object") == 0)
            check_annot_object_keys(cx, t, f);
    }
    f = check_annot_find(a, "json", "keep_nulls");
    if (f != NULL && k != CHECK_NODE_RECORD)
        check_annot_misplaced(cx, t, "json", f, "a record type");
    f = check_annot_find(a, "json", "open_enum");
    if (f != NULL && k != CHECK_NODE_SUM)
        check_annot_misplaced(cx, t, "json", f, "a sum type");
    else if (f != NULL && check_annot_flag(a, "json", "open_enum"))
        check_annot_open_enum(cx, t, f);
    f = check_annot_find(a, "json", "precision");
    if (f != NULL && k != CHECK_NODE_FLOAT)
        check_annot_misplaced(cx, t, "json", f, "'float'");
}

static void check_annot_biniou(check_cx *cx, const ast_type *t, check_node k)
{
    const ast_annot_field *f = check_annot_find(&t->annots, "biniou", "repr");
    if (f == NULL)
        return;
    const char *allowed = k == CHECK_NODE_INT     ? "uvint int8 int16 int32 int64"
                          : k == CHECK_NODE_FLOAT ? "float32 float64"
                          : k == CHECK_NODE_LIST  ? "array table"
                                                  : NULL;
    if (check_annot_enum(cx, t, "biniou", f, allowed, "an int, a float or a list") &&
        k == CHECK_NODE_LIST && strcmp(f->value, "table") == 0)
        check_annot_table(cx, t, f);
}

static void check_annot_c(check_cx *cx, const ast_type *t, check_node k)
{
    const ast_annots *a = &t->annots;
    const ast_annot_field *f = check_annot_find(a, "c", "repr");
    if (f != NULL) {
        const char *allowed = k == CHECK_NODE_INT     ? "int8 int16 int32 int64 uint8 uint16 uint32"
                              : k == CHECK_NODE_FLOAT ? "float"
                                                      : NULL;
        check_annot_enum(cx, t, "c", f, allowed, "'int' or 'float'");
    }
    f = check_annot_find(a, "c", "name");
    bool named = k == CHECK_NODE_RECORD || k == CHECK_NODE_SUM || k == CHECK_NODE_TUPLE ||
                 (t->kind == AST_NAME && t->u.name.nargs > 0);
    if (f != NULL && !named)
        check_annot_misplaced(cx, t, "c", f, "a definition, an anonymous type or an instantiation");
    const ast_annot_field *ct = check_annot_find(a, "c", "t");
    const ast_annot_field *cw = check_annot_find(a, "c", "wrap");
    const ast_annot_field *cu = check_annot_find(a, "c", "unwrap");
    const ast_annot_field *any = ct != NULL ? ct : cw != NULL ? cw : cu;
    if (any == NULL)
        return;
    if (k != CHECK_NODE_WRAP)
        check_annot_misplaced(cx, t, "c", any, "'wrap'");
    else if (ct == NULL || cw == NULL || cu == NULL)
        diag_error(cx->d, any->loc,
                   "'<c t>', '<c wrap>' and '<c unwrap>' must be given together on 'wrap'");
}

/* <ocaml repr="float"> on int changes what atdgen accepts. */
static void check_annot_ocaml(check_cx *cx, const ast_type *t, check_node k)
{
    const ast_annot_field *f = check_annot_find(&t->annots, "ocaml", "repr");
    if (k == CHECK_NODE_INT && f != NULL && f->value != NULL && strcmp(f->value, "float") == 0)
        diag_warn(cx->d, DIAG_W_IGNORED_ANNOTATION, f->loc,
                  "'<ocaml repr=\"float\">' on 'int' is ignored: atdc reads and writes an "
                  "integer");
}

/* atdgen's built-in adapters rewrite the JSON of a sum's constructors. */
static void check_annot_adapter(check_cx *cx, const ast_type *t, check_node k)
{
    check_adapter ad = check_adapter_of(cx->arena, &t->annots);
    bool param = ad.where != NULL && strcmp(ad.where->name, "adapter.type_field") == 0;
    if (ad.kind == CHECK_ADAPTER_TYPE_FIELD && param && k != CHECK_NODE_SUM)
        diag_error(cx->d, ad.where->loc,
                   "'<c adapter.type_field>' without adapter.value_field is the parameter of a "
                   "Type_field.Make module, which applies to a sum type written here");
    else if ((ad.kind == CHECK_ADAPTER_TYPE_FIELD || ad.kind == CHECK_ADAPTER_ONE_FIELD) &&
             k != CHECK_NODE_SUM)
        check_annot_misplaced_error(cx, t, ad.where);
    if (ad.kind == CHECK_ADAPTER_TYPE_AND_VALUE_FIELDS && k != CHECK_NODE_RECORD)
        diag_error(cx->d, ad.value_field->loc,
                   "'<c adapter.value_field>' (Type_and_value_fields) applies to a record "
                   "type written here, whose field of that name holds a sum");
    const ast_annot_field *c = check_adapter_c(&t->annots);
    if (c != NULL && k != CHECK_NODE_SUM && k != CHECK_NODE_RECORD)
        diag_error(cx->d, c->loc, "'<%s>' applies to a record or sum type written here, not to %s",
                   strcmp(c->name, "adapter") == 0 ? "c adapter" : "json adapter.c",
                   t->kind == AST_NAME ? "a type name" : "this type");
}

void check_annot_type(check_cx *cx, const ast_type *t)
{
    if (t->annots.len == 0)
        return;
    if (t->kind == AST_NAME) {
        check_ref r = check_lookup(cx, t);
        if (r.kind == CHECK_REF_ERROR || !r.arity_ok)
            return; /* the reference itself is the error */
    }
    check_node k = check_annot_node_kind(cx, t);
    check_annot_json(cx, t, k);
    check_annot_biniou(cx, t, k);
    check_annot_c(cx, t, k);
    check_annot_ocaml(cx, t, k);
    check_annot_adapter(cx, t, k);
}
