/* Annotations (json, biniou, c, ocaml): visits every place an annotation can
 * be written, and checks each field of the interpreted sections -- json,
 * biniou, c, `doc text` and `ocaml default` -- against one table giving its
 * valid positions and the shape of its value. Other sections (ocaml,
 * python, ...) and other doc fields belong to other tools and are ignored.
 * What depends on the annotated type (`<json repr>` values, open_enum,
 * `<c t wrap unwrap>`, ...) is left to check_annot_type.c. */
#include "check_annot.h"
#include "check_cx.h"
#include "check_lookup.h"
#include "check_passes.h"

#include <string.h>

#include "check_adapter.h"
#include "util/names.h"

typedef enum check_pos {
    CHECK_POS_MODULE = 1 << 0,
    CHECK_POS_TYPEDEF = 1 << 1,
    CHECK_POS_TYPE = 1 << 2,
    CHECK_POS_FIELD = 1 << 3,
    CHECK_POS_VARIANT = 1 << 4,
    CHECK_POS_CELL = 1 << 5,
    CHECK_POS_IMPORT = 1 << 6,
    CHECK_POS_ANY = 0x7f
} check_pos;

typedef enum check_vk {
    CHECK_VK_FLAG,     /* no value, "true" or "false" */
    CHECK_VK_STRING,   /* any value, but one is needed */
    CHECK_VK_NONEMPTY, /* a non-empty value */
    CHECK_VK_INT,      /* a decimal integer */
    CHECK_VK_CIDENT,   /* a C identifier */
    CHECK_VK_INCLUDE,  /* <hdr.h> or "hdr.h" */
    CHECK_VK_ENUM,     /* one of a set that depends on the type (check_annot_type.c) */
    CHECK_VK_SPECIAL   /* handled by its own rule below */
} check_vk;

typedef struct check_annot_rule {
    const char *section;
    const char *field;
    unsigned positions;
    check_vk value;
    bool repeatable;
} check_annot_rule;

static const check_annot_rule check_annot_rules[] = {
    {"json", "name", CHECK_POS_FIELD | CHECK_POS_VARIANT, CHECK_VK_STRING, false},
    {"json", "repr", CHECK_POS_TYPE, CHECK_VK_ENUM, false},
    {"json", "keep_nulls", CHECK_POS_TYPE, CHECK_VK_FLAG, false},
    {"json", "open_enum", CHECK_POS_TYPE, CHECK_VK_FLAG, false},
    {"json", "precision", CHECK_POS_TYPE, CHECK_VK_INT, false},
    {"json", "adapter.ocaml", CHECK_POS_TYPE, CHECK_VK_SPECIAL, false},
    {"json", "adapter.to_ocaml", CHECK_POS_TYPE, CHECK_VK_SPECIAL, false},
    {"json", "adapter.from_ocaml", CHECK_POS_TYPE, CHECK_VK_SPECIAL, false},
    {"json", "adapter.c", CHECK_POS_TYPE, CHECK_VK_CIDENT, false},
    {"c", "adapter", CHECK_POS_TYPE, CHECK_VK_CIDENT, false},
    {"c", "adapter.type_field", CHECK_POS_TYPE, CHECK_VK_SPECIAL, false},
    {"c", "adapter.value_field", CHECK_POS_TYPE, CHECK_VK_SPECIAL, false},
    {"c", "adapter.known_tags", CHECK_POS_TYPE, CHECK_VK_SPECIAL, false},
    {"c", "adapter.catch_all", CHECK_POS_TYPE, CHECK_VK_SPECIAL, false},
    {"json", "tag_field", CHECK_POS_ANY, CHECK_VK_SPECIAL, true},
    {"json", "untyped", CHECK_POS_ANY, CHECK_VK_SPECIAL, true},
    {"biniou", "repr", CHECK_POS_TYPE, CHECK_VK_ENUM, false},
    {"c", "name",
     CHECK_POS_TYPEDEF | CHECK_POS_FIELD | CHECK_POS_VARIANT | CHECK_POS_TYPE | CHECK_POS_IMPORT,
     CHECK_VK_CIDENT, false},
    {"c", "prefix", CHECK_POS_MODULE, CHECK_VK_CIDENT, false},
    {"c", "include", CHECK_POS_MODULE, CHECK_VK_INCLUDE, true},
    {"c", "repr", CHECK_POS_TYPE, CHECK_VK_ENUM, false},
    {"c", "default", CHECK_POS_FIELD | CHECK_POS_CELL, CHECK_VK_NONEMPTY, false},
    {"c", "t", CHECK_POS_TYPE | CHECK_POS_TYPEDEF, CHECK_VK_NONEMPTY, false},
    {"c", "wrap", CHECK_POS_TYPE, CHECK_VK_CIDENT, false},
    {"c", "unwrap", CHECK_POS_TYPE, CHECK_VK_CIDENT, false},
    {"c", "module", CHECK_POS_TYPEDEF, CHECK_VK_CIDENT, false},
    {"c", "validator", CHECK_POS_TYPE, CHECK_VK_CIDENT, false},
    {"c", "min", CHECK_POS_TYPE, CHECK_VK_NONEMPTY, false},
    {"c", "max", CHECK_POS_TYPE, CHECK_VK_NONEMPTY, false},
    {"c", "min_len", CHECK_POS_TYPE, CHECK_VK_NONEMPTY, false},
    {"c", "max_len", CHECK_POS_TYPE, CHECK_VK_NONEMPTY, false},
    /* the lazy format's (check_lazy.c checks where they may be) */
    {"c", "lazy", CHECK_POS_TYPE, CHECK_VK_FLAG, false},
    {"c", "shared", CHECK_POS_TYPE, CHECK_VK_FLAG, false},
    {"c", "index", CHECK_POS_TYPE, CHECK_VK_FLAG, false},
    {"doc", "text", CHECK_POS_MODULE | CHECK_POS_TYPEDEF | CHECK_POS_FIELD | CHECK_POS_VARIANT,
     CHECK_VK_STRING, false},
    {"ocaml", "default", CHECK_POS_FIELD | CHECK_POS_CELL, CHECK_VK_STRING, false},
};

const ast_annot_field *check_annot_find(const ast_annots *a, const char *section, const char *field)
{
    for (size_t i = 0; i < a->len; i++) {
        const ast_annot *an = &a->items[i];
        if (strcmp(an->section, section) != 0)
            continue;
        for (size_t k = 0; k < an->nfields; k++)
            if (strcmp(an->fields[k].name, field) == 0)
                return &an->fields[k];
    }
    return NULL;
}

const char *check_annot_str(const ast_annots *a, const char *section, const char *field)
{
    const ast_annot_field *f = check_annot_find(a, section, field);
    return f != NULL ? f->value : NULL;
}

bool check_annot_flag(const ast_annots *a, const char *section, const char *field)
{
    const ast_annot_field *f = check_annot_find(a, section, field);
    return f != NULL && (f->value == NULL || strcmp(f->value, "true") == 0);
}

static bool check_annot_interpreted(const char *section)
{
    return strcmp(section, "json") == 0 || strcmp(section, "biniou") == 0 ||
           strcmp(section, "c") == 0;
}

static const check_annot_rule *check_annot_rule_of(const char *section, const char *field)
{
    for (size_t i = 0; i < sizeof check_annot_rules / sizeof check_annot_rules[0]; i++)
        if (strcmp(check_annot_rules[i].section, section) == 0 &&
            strcmp(check_annot_rules[i].field, field) == 0)
            return &check_annot_rules[i];
    return NULL;
}

static bool check_annot_is_int(const char *s, size_t len)
{
    size_t i = len > 0 && s[0] == '-' ? 1 : 0;
    if (i == len || len - i > 9)
        return false;
    for (; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

static bool check_annot_is_include(const char *s, size_t len)
{
    if (len < 3)
        return false;
    if (!((s[0] == '<' && s[len - 1] == '>') || (s[0] == '"' && s[len - 1] == '"')))
        return false;
    for (size_t i = 1; i + 1 < len; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == '<' || s[i] == '>' || s[i] == '"')
            return false;
    return true;
}

/* The shape of a value. */
static void check_annot_value(check_cx *cx, const char *section, const ast_annot_field *f,
                              check_vk vk)
{
    const char *v = f->value;
    size_t len = f->value_len;
    if (vk == CHECK_VK_FLAG) {
        if (v != NULL && strcmp(v, "true") != 0 && strcmp(v, "false") != 0)
            diag_error(cx->d, f->value_loc,
                       "invalid value \"%s\" for flag '<%s %s>': expected \"true\" or \"false\"",
                       check_quote(cx, v, len), section, f->name);
        return;
    }
    if (vk == CHECK_VK_SPECIAL)
        return;
    if (v == NULL) {
        diag_error(cx->d, f->loc, "missing value for annotation '<%s %s>'", section, f->name);
        return;
    }
    const char *expected = NULL;
    if (vk == CHECK_VK_NONEMPTY && len == 0)
        expected = "a non-empty value";
    else if (vk == CHECK_VK_INT && !check_annot_is_int(v, len))
        expected = "an integer";
    else if (vk == CHECK_VK_CIDENT && (strlen(v) != len || !names_is_c_identifier(v, len)))
        expected = "a valid C identifier";
    else if (vk == CHECK_VK_INCLUDE && (strlen(v) != len || !check_annot_is_include(v, len)))
        expected = "<header.h> or \"header.h\"";
    if (expected != NULL)
        diag_error(cx->d, f->value_loc, "invalid value \"%s\" for '<%s %s>': expected %s",
                   check_quote(cx, v, len), section, f->name, expected);
}

/* True when `f` (in annotation item `item`, field index `k`) repeats a field
 * written before it on the same node; reports it. */
static bool check_annot_duplicate(check_cx *cx, const ast_annots *a, size_t item, size_t k)
{
    const ast_annot *an = &a->items[item];
    const ast_annot_field *f = &an->fields[k];
    for (size_t i = 0; i <= item; i++) {
        const ast_annot *prev = &a->items[i];
        if (strcmp(prev->section, an->section) != 0)
            continue;
        size_t stop = i == item ? k : prev->nfields;
        for (size_t j = 0; j < stop; j++) {
            if (strcmp(prev->fields[j].name, f->name) == 0) {
                diag_error(cx->d, f->loc, "duplicate annotation '<%s %s>'", an->section, f->name);
                diag_note(cx->d, prev->fields[j].loc, "first given here");
                return true;
            }
        }
    }
    return false;
}

/* Fields with a rule of their own: removed or OCaml-only JSON features.
 * atdgen's built-in adapters are implemented (check_adapter.h); any other
 * adapter is OCaml code. */
static void check_annot_special(check_cx *cx, const ast_annots *a, const char *section,
                                const ast_annot_field *f, unsigned pos)
{
    if (strcmp(f->name, "tag_field") == 0) {
        diag_warn(cx->d, DIAG_W_OBSOLETE_ANNOTATION, f->loc,
                  "'<json tag_field>' is obsolete and ignored");
        return;
    }
    if (strcmp(f->name, "untyped") == 0) {
        diag_error(cx->d, f->loc, "'<json untyped>' is not supported");
        return;
    }
    check_adapter ad = check_adapter_of(cx->arena, a);
    if (strncmp(f->name, "adapter.", 8) == 0 && strcmp(f->name, "adapter.ocaml") != 0 &&
        strcmp(f->name, "adapter.to_ocaml") != 0 && strcmp(f->name, "adapter.from_ocaml") != 0) {
        /* the parameters of Type_field / Type_and_value_fields (check_adapter.h) */
        if (!(pos & CHECK_POS_TYPE))
            diag_error(cx->d, f->loc, "invalid or misplaced annotation '<%s %s>'", section,
                       f->name);
        else if (f->value == NULL || f->value_len == 0)
            diag_error(cx->d, f->loc, "'<c %s>' needs a non-empty value", f->name);
        else if (ad.conflict == f && ad.conflict_why == 1)
            diag_error(cx->d, f->loc,
                       "'<c %s>' is a parameter of a module made with atdgen's Type_field.Make "
                       "or Type_and_value_fields.Make, not of the built-in adapter named here",
                       f->name);
        else if (ad.conflict == f && ad.conflict_why == 2)
            diag_error(cx->d, f->loc, "'<c %s>' needs '<c adapter.type_field>'", f->name);
        else if (ad.conflict == f)
            diag_error(cx->d, f->loc,
                       "'<c %s>' goes with '<c adapter.value_field>', and "
                       "'<c adapter.known_tags>' with '<c adapter.catch_all>'",
                       f->name);
        return;
    }
    if (ad.kind == CHECK_ADAPTER_TYPE_FIELD || ad.kind == CHECK_ADAPTER_ONE_FIELD ||
        ad.kind == CHECK_ADAPTER_TYPE_AND_VALUE_FIELDS) {
        if (!(pos & CHECK_POS_TYPE))
            diag_error(cx->d, f->loc, "invalid or misplaced annotation '<%s %s>'", section,
                       f->name);
    } else if (check_adapter_c(a) != NULL) {
        /* served by the user's C functions (atd/adapter.h) */
    } else if (!cx->opts->ignore_adapters) {
        if (f == ad.where)
            diag_error(cx->d, f->loc,
                       "'<json %s>' changes the JSON through OCaml code, which atdc cannot run "
                       "(it implements atdgen's built-in Json_adapter.Type_field, One_field and "
                       "normalize_type_field/restore_type_field): add <c "
                       "adapter=\"NAME\"> and write NAME_normalize and NAME_restore in C "
                       "(see atd/adapter.h); for a module made with Type_field.Make or "
                       "Type_and_value_fields.Make, give its parameters instead (<c "
                       "adapter.type_field=\"...\" adapter.value_field=\"...\">); or use "
                       "--ignore-adapters to ignore it",
                       f->name);
    } else if (!(pos & CHECK_POS_TYPE)) {
        diag_error(cx->d, f->loc, "invalid or misplaced annotation '<%s %s>'", section, f->name);
    }
}

/* `adapter.to_ocaml` and `adapter.from_ocaml` go together: one without the
 * other cannot round-trip. */
static void check_annot_adapters(check_cx *cx, const ast_annots *a)
{
    if (!cx->opts->ignore_adapters)
        return;
    const ast_annot_field *to = check_annot_find(a, "json", "adapter.to_ocaml");
    const ast_annot_field *from = check_annot_find(a, "json", "adapter.from_ocaml");
    if (to != NULL && from == NULL)
        diag_error(cx->d, to->loc, "'<json adapter.to_ocaml>' needs '<json adapter.from_ocaml>'");
    else if (from != NULL && to == NULL)
        diag_error(cx->d, from->loc, "'<json adapter.from_ocaml>' needs '<json adapter.to_ocaml>'");
}

/* The generic rules for every annotation on one node at position `pos`. */
static void check_annot_node(check_cx *cx, const ast_annots *a, unsigned pos)
{
    for (size_t i = 0; i < a->len; i++) {
        const ast_annot *an = &a->items[i];
        bool strict = check_annot_interpreted(an->section);
        for (size_t k = 0; k < an->nfields; k++) {
            const ast_annot_field *f = &an->fields[k];
            const check_annot_rule *rule = check_annot_rule_of(an->section, f->name);
            /* Unknown or misplaced fields do nothing, in atdgen too (whose
             * -t mode passes them all), so a shared schema stays valid: a
             * warning, an error only with -Werror. */
            if (rule == NULL) {
                if (strict)
                    diag_warn(cx->d, DIAG_W_UNKNOWN_ANNOTATION, f->loc,
                              "unknown annotation '<%s %s>' is ignored", an->section, f->name);
                continue;
            }
            if (rule->value == CHECK_VK_SPECIAL) {
                check_annot_special(cx, a, an->section, f, pos);
                continue;
            }
            if (!(rule->positions & pos)) {
                /* json, biniou and c are strict (atdc interprets them), and
                 * so is `doc text`, which atdc carries into the header: on a
                 * type expression it would be lost without a word. `ocaml
                 * default` elsewhere is for other tools. */
                if (strict || strcmp(an->section, "doc") == 0)
                    diag_warn(cx->d, DIAG_W_MISPLACED_ANNOTATION, f->loc,
                              "misplaced annotation '<%s %s>' is ignored", an->section, f->name);
                continue;
            }
            if (!rule->repeatable && check_annot_duplicate(cx, a, i, k))
                continue;
            check_annot_value(cx, an->section, f, rule->value);
        }
    }
    check_annot_adapters(cx, a);
}

/* `<c t="T" module="m">` on `type x = abstract`: a user-supplied C type. */
static void check_annot_typedef(check_cx *cx, const ast_typedef *td)
{
    const ast_annot_field *t = check_annot_find(&td->annots, "c", "t");
    const ast_annot_field *mod = check_annot_find(&td->annots, "c", "module");
    if (t == NULL && mod == NULL)
        return;
    const ast_type *rhs = td->rhs;
    bool abstract = rhs->kind == AST_NAME && rhs->u.name.npath == 1 && rhs->u.name.nargs == 0 &&
                    strcmp(rhs->u.name.path[0], "abstract") == 0;
    if (!abstract) {
        diag_error(cx->d, (t != NULL ? t : mod)->loc,
                   "invalid or misplaced annotation '<c %s>': an external C type is declared on "
                   "'type %s = abstract'",
                   (t != NULL ? t : mod)->name, td->name);
        return;
    }
    if (t == NULL || mod == NULL)
        diag_error(cx->d, (t != NULL ? t : mod)->loc,
                   "an external C type needs both '<c t>' and '<c module>'");
}

/* The checks of `?x : T option` (<c validator>, <c min>...) are written on
 * T: the option itself is no value in C (has_x and x). The value shapes and
 * types are checked on the lowered module (check_validators.h). */
static void check_annot_option_checks(check_cx *cx, const ast_type *t)
{
    static const char *const fields[] = {"validator", "min", "max", "min_len", "max_len"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const ast_annot_field *f = check_annot_find(&t->annots, "c", fields[i]);
        if (f != NULL)
            diag_error(cx->d, f->loc,
                       "'<c %s>' on the option of an optional field '?x : T option' goes on T, "
                       "the type of x",
                       fields[i]);
    }
}

static void check_annot_walk(check_cx *cx, const ast_type *t)
{
    check_annot_node(cx, &t->annots, CHECK_POS_TYPE);
    check_annot_type(cx, t);
    switch (t->kind) {
    case AST_TVAR:
        return;
    case AST_NAME:
        for (size_t i = 0; i < t->u.name.nargs; i++)
            check_annot_walk(cx, t->u.name.args[i]);
        return;
    case AST_TUPLE:
        for (size_t i = 0; i < t->u.tuple.len; i++) {
            check_annot_node(cx, &t->u.tuple.cells[i].annots, CHECK_POS_CELL);
            check_annot_walk(cx, t->u.tuple.cells[i].type);
        }
        return;
    case AST_RECORD:
        for (size_t i = 0; i < t->u.record.len; i++) {
            const ast_field *f = &t->u.record.fields[i];
            check_annot_node(cx, &f->annots, CHECK_POS_FIELD);
            if (f->type == NULL)
                continue;
            bool optional = f->kind == AST_FIELD_OPTIONAL;
            if (optional && f->type->kind == AST_NAME && f->type->u.name.nargs == 1) {
                /* `?x : T option`: the validator is on T, the type of x */
                check_annot_node(cx, &f->type->annots, CHECK_POS_TYPE);
                check_annot_type(cx, f->type);
                check_annot_option_checks(cx, f->type);
                check_annot_walk(cx, f->type->u.name.args[0]);
            } else {
                check_annot_walk(cx, f->type);
            }
        }
        return;
    case AST_SUM:
        for (size_t i = 0; i < t->u.sum.len; i++) {
            check_annot_node(cx, &t->u.sum.variants[i].annots, CHECK_POS_VARIANT);
            if (t->u.sum.variants[i].arg != NULL)
                check_annot_walk(cx, t->u.sum.variants[i].arg);
        }
        return;
    }
}

void check_annot_module(check_cx *cx)
{
    const ast_module *m = cx->m;
    check_annot_node(cx, &m->annots, CHECK_POS_MODULE);
    for (size_t i = 0; i < m->nimports; i++) {
        check_annot_node(cx, &m->imports[i].annots, CHECK_POS_IMPORT);
        for (size_t k = 0; k < m->imports[i].ntypes; k++)
            check_annot_node(cx, &m->imports[i].types[k].annots, CHECK_POS_IMPORT);
    }
    for (size_t i = 0; i < m->ndefs && !cx->oom; i++) {
        check_annot_node(cx, &m->defs[i].annots, CHECK_POS_TYPEDEF);
        check_annot_typedef(cx, &m->defs[i]);
        check_annot_walk(cx, m->defs[i].rhs);
    }
}
