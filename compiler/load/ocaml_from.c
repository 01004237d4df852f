/* <ocaml from="M"> as an import (ocaml_from.h). The module name becomes
 * the schema's file name by lowering its first letter, as atdgen names
 * the OCaml modules of x.atd X_t and X_j. Only a definition whose right
 * side is `abstract` is rewritten: that is the form atdgen gives it. */
#include "ocaml_from.h"

#include <string.h>

#include "check/check_annot.h"

/* The import of m whose alias is `mod`, added when missing. */
static ast_import *from_import(atd_arena *arena, ast_module *m, size_t first_new, const char *mod,
                               ast_loc loc)
{
    for (size_t i = first_new; i < m->nimports; i++)
        if (strcmp(m->imports[i].alias, mod) == 0)
            return &m->imports[i];
    ast_import *items = ast_alloc(arena, (m->nimports + 1) * sizeof *items);
    const char **path = ast_alloc(arena, sizeof *path);
    if (items == NULL || path == NULL)
        return NULL;
    if (m->nimports > 0)
        memcpy(items, m->imports, m->nimports * sizeof *items);
    path[0] = mod;
    ast_import *im = &items[m->nimports];
    im->path = path;
    im->npath = 1;
    im->path_loc = loc;
    im->alias = mod;
    im->alias_loc = loc;
    im->loc = loc;
    m->imports = items;
    m->nimports++;
    return im;
}

static bool from_add_type(atd_arena *arena, ast_import *im, const char *name, ast_loc loc)
{
    for (size_t i = 0; i < im->ntypes; i++)
        if (strcmp(im->types[i].name, name) == 0)
            return true;
    ast_imported_type *types = ast_alloc(arena, (im->ntypes + 1) * sizeof *types);
    if (types == NULL)
        return false;
    if (im->ntypes > 0)
        memcpy(types, im->types, im->ntypes * sizeof *types);
    types[im->ntypes].name = name;
    types[im->ntypes].name_loc = loc;
    im->types = types;
    im->ntypes++;
    return true;
}

static bool from_is_abstract(const ast_type *t)
{
    return t->kind == AST_NAME && t->u.name.npath == 1 && t->u.name.nargs == 0 &&
           strcmp(t->u.name.path[0], "abstract") == 0;
}

bool ocaml_from_rewrite(atd_arena *arena, diag_ctx *d, ast_module *m)
{
    size_t first_new = m->nimports;
    for (size_t i = 0; i < m->ndefs; i++) {
        ast_typedef *td = &m->defs[i];
        const ast_annot_field *from = check_annot_find(&td->annots, "ocaml", "from");
        if (from == NULL || from->value == NULL || from->value[0] == '\0' ||
            !from_is_abstract(td->rhs))
            continue;
        const ast_annot_field *tn = check_annot_find(&td->annots, "ocaml", "t");
        const char *remote = tn != NULL && tn->value != NULL && tn->value[0] != '\0' ? tn->value
                                                                                    : td->name;
        char *mod = atd_arena_strdup(arena, from->value, strlen(from->value));
        const char **path = ast_alloc(arena, 2 * sizeof *path);
        if (mod == NULL || path == NULL) {
            diag_oom(d);
            return false;
        }
        if (mod[0] >= 'A' && mod[0] <= 'Z')
            mod[0] = (char)(mod[0] - 'A' + 'a');
        ast_import *im = from_import(arena, m, first_new, mod, from->value_loc);
        if (im == NULL || !from_add_type(arena, im, remote, from->value_loc)) {
            diag_oom(d);
            return false;
        }
        path[0] = mod;
        path[1] = remote;
        td->rhs->u.name.path = path;
        td->rhs->u.name.npath = 2;
    }
    return true;
}
