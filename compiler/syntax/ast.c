/* Construction helpers for the AST (ast.h): zeroed nodes and growable arrays
 * in the compilation's arena. The parser's actions call these and nothing
 * else, so that all the allocation policy of the front end lives here. Out of
 * memory is reported by a NULL/false result; the parser turns it into a
 * "memory exhausted" abort. */
#include "ast.h"

#include <stdalign.h>
#include <string.h>

/* Every AST struct holds only pointers, sizes and ints; the arena accepts at
 * most 16. */
#define AST_ALIGN (alignof(max_align_t) < 16 ? alignof(max_align_t) : 16)

void *ast_alloc(atd_arena *a, size_t size)
{
    void *p = atd_arena_alloc(a, size, AST_ALIGN);
    if (p != NULL)
        memset(p, 0, size);
    return p;
}

bool ast_vec_push(atd_arena *a, ast_vec *v, const void *elem, size_t size)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 4;
        if (cap > (size_t)-1 / size)
            return false;
        void *items;
        if (v->items == NULL)
            items = atd_arena_alloc(a, cap * size, AST_ALIGN);
        else
            items = atd_arena_grow(a, v->items, v->cap * size, cap * size, AST_ALIGN);
        if (items == NULL)
            return false;
        v->items = items;
        v->cap = cap;
    }
    memcpy((char *)v->items + v->len * size, elem, size);
    v->len++;
    return true;
}

ast_type *ast_type_new(atd_arena *a, ast_type_kind kind, ast_loc loc)
{
    ast_type *t = ast_alloc(a, sizeof *t);
    if (t != NULL) {
        t->kind = kind;
        t->loc = loc;
    }
    return t;
}

ast_loc ast_loc_span(ast_loc first, ast_loc last)
{
    ast_loc l = first;
    if (last.end_offset > first.end_offset) {
        l.end_line = last.end_line;
        l.end_col = last.end_col;
        l.end_offset = last.end_offset;
    }
    return l;
}

ast_annots ast_annots_of(ast_vec v)
{
    ast_annots r = {v.items, v.len};
    return r;
}

const char *ast_join_path(atd_arena *a, const char *const *parts, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += strlen(parts[i]) + (i > 0);
    char *s = atd_arena_alloc(a, len + 1, 1);
    if (s == NULL)
        return NULL;
    char *p = s;
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            *p++ = '.';
        size_t l = strlen(parts[i]);
        memcpy(p, parts[i], l);
        p += l;
    }
    *p = '\0';
    return s;
}
