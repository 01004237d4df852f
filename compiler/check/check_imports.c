/* Imports (atd-spec 5.11): `from a.b <...> as m import t1, 'x t2`. Nothing
 * is read from the other file, so all that can be checked is that the local
 * names are unambiguous; uses of `m.t` are checked by check_types.c against
 * the tables built here, which also record which imported types were used
 * so that unused ones get a warning. */
#include "check_cx.h"
#include "check_lookup.h"
#include "check_passes.h"

#include <stdint.h>
#include <string.h>

static ast_loc check_import_name_loc(const ast_import *im)
{
    return im->alias != NULL ? im->alias_loc : im->path_loc;
}

static void check_import_types(check_cx *cx, size_t i)
{
    const ast_import *im = &cx->m->imports[i];
    check_import_info *info = &cx->imports[i];
    info->used = check_alloc(cx, (im->ntypes ? im->ntypes : 1) * sizeof(bool));
    if (info->used == NULL || !check_map_init(&info->types, cx->arena, im->ntypes)) {
        check_oom(cx);
        return;
    }
    for (size_t k = 0; k < im->ntypes; k++) {
        const ast_imported_type *it = &im->types[k];
        size_t first = check_map_put(&info->types, it->name, strlen(it->name), k);
        if (first != k && first != SIZE_MAX) {
            diag_error(cx->d, it->name_loc, "type '%s' is listed twice in this import", it->name);
            diag_note(cx->d, im->types[first].name_loc, "first listed here");
        }
    }
}

void check_imports_declare(check_cx *cx)
{
    const ast_module *m = cx->m;
    check_map paths;
    cx->imports = check_alloc(cx, (m->nimports ? m->nimports : 1) * sizeof *cx->imports);
    if (cx->imports == NULL || !check_map_init(&cx->modules, cx->arena, m->nimports) ||
        !check_map_init(&paths, cx->arena, m->nimports)) {
        check_oom(cx);
        return;
    }
    for (size_t i = 0; i < m->nimports && !cx->oom; i++) {
        const ast_import *im = &m->imports[i];
        check_import_info *info = &cx->imports[i];
        info->local = im->alias != NULL ? im->alias : im->npath > 0 ? im->path[im->npath - 1] : "";
        info->valid = true;
        check_import_types(cx, i);
        const char *full = check_path(cx, im->path, im->npath);
        size_t same = check_map_put(&paths, full, strlen(full), i);
        if (same != i && same != SIZE_MAX) {
            diag_error(cx->d, im->path_loc, "module '%s' is imported twice", full);
            diag_note(cx->d, m->imports[same].path_loc, "first imported here");
            info->valid = false;
            continue;
        }
        size_t first = check_map_put(&cx->modules, info->local, strlen(info->local), i);
        if (first != i && first != SIZE_MAX) {
            diag_error(cx->d, check_import_name_loc(im),
                       "module name '%s' is already used by another import", info->local);
            diag_note(cx->d, check_import_name_loc(&m->imports[first]), "'%s' first used here",
                      info->local);
            info->valid = false;
        }
    }
}

void check_imports_unused(check_cx *cx)
{
    const ast_module *m = cx->m;
    for (size_t i = 0; i < m->nimports; i++) {
        const check_import_info *info = &cx->imports[i];
        if (!info->valid)
            continue;
        for (size_t k = 0; k < m->imports[i].ntypes; k++) {
            const ast_imported_type *it = &m->imports[i].types[k];
            /* A type listed twice was reported already; only its first
             * listing is ever marked used. */
            if (check_map_get(&info->types, it->name, strlen(it->name)) != k)
                continue;
            if (!info->used[k])
                diag_warning(cx->d, it->name_loc, "imported type '%s.%s' is never used",
                             info->local, it->name);
        }
    }
}
