/* Printer (print.h). The normalized layout puts one import per line, a blank
 * line between definitions, one field per line in records and one
 * constructor per line (with a leading '|') in sums, indented by two spaces
 * per level; tuples, applications and annotations stay on one line. String
 * values are written in double quotes with the escapes that make the lexer
 * read back the same bytes. The structural dump (print_dump) shares the
 * annotation and string code. Both recurse over the type tree; the driver
 * rejects trees deeper than its limit before printing. */
#include "print.h"

#include <stdio.h>
#include <string.h>

/* ==== Shared pieces ======================================================= */

static void print_indent(atd_buf *b, int level)
{
    for (int i = 0; i < level; i++)
        atd_buf_puts(b, "  ");
}

/* Bytes >= 128 are written raw (comments and strings may hold UTF-8);
 * control bytes and DEL become \xHH, which is unambiguous in any context. */
static void print_string(atd_buf *b, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    atd_buf_putc(b, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"':
            atd_buf_puts(b, "\\\"");
            break;
        case '\\':
            atd_buf_puts(b, "\\\\");
            break;
        case '\n':
            atd_buf_puts(b, "\\n");
            break;
        case '\t':
            atd_buf_puts(b, "\\t");
            break;
        case '\r':
            atd_buf_puts(b, "\\r");
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
                atd_buf_append(b, esc, sizeof esc);
            } else {
                atd_buf_putc(b, (char)c);
            }
        }
    }
    atd_buf_putc(b, '"');
}

static void print_annot(atd_buf *b, const ast_annot *a)
{
    atd_buf_putc(b, '<');
    atd_buf_puts(b, a->section);
    for (size_t i = 0; i < a->nfields; i++) {
        const ast_annot_field *f = &a->fields[i];
        atd_buf_putc(b, ' ');
        atd_buf_puts(b, f->name);
        if (f->value != NULL) {
            atd_buf_putc(b, '=');
            print_string(b, f->value, f->value_len);
        }
    }
    atd_buf_putc(b, '>');
}

/* Each annotation preceded by a space. */
static void print_annots(atd_buf *b, ast_annots as)
{
    for (size_t i = 0; i < as.len; i++) {
        atd_buf_putc(b, ' ');
        print_annot(b, &as.items[i]);
    }
}

static void print_path(atd_buf *b, const char *const *path, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            atd_buf_putc(b, '.');
        atd_buf_puts(b, path[i]);
    }
}

/* 'a, or ('a, 'b) -- followed by a space when not empty. */
static void print_params(atd_buf *b, const ast_param *ps, size_t n)
{
    if (n == 0)
        return;
    if (n > 1)
        atd_buf_putc(b, '(');
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            atd_buf_puts(b, ", ");
        atd_buf_putc(b, '\'');
        atd_buf_puts(b, ps[i].name);
    }
    if (n > 1)
        atd_buf_putc(b, ')');
    atd_buf_putc(b, ' ');
}

/* ==== Normalized ATD ====================================================== */

static void print_type(atd_buf *b, const ast_type *t, int level);

static void print_name(atd_buf *b, const ast_type *t, int level)
{
    size_t n = t->u.name.nargs;
    if (n == 1) {
        print_type(b, t->u.name.args[0], level);
        atd_buf_putc(b, ' ');
    } else if (n > 1) {
        atd_buf_putc(b, '(');
        for (size_t i = 0; i < n; i++) {
            if (i > 0)
                atd_buf_puts(b, ", ");
            print_type(b, t->u.name.args[i], level);
        }
        atd_buf_puts(b, ") ");
    }
    print_path(b, t->u.name.path, t->u.name.npath);
}

static void print_tuple(atd_buf *b, const ast_type *t, int level)
{
    atd_buf_putc(b, '(');
    for (size_t i = 0; i < t->u.tuple.len; i++) {
        const ast_cell *c = &t->u.tuple.cells[i];
        if (i > 0)
            atd_buf_puts(b, " * ");
        if (c->has_colon) {
            for (size_t j = 0; j < c->annots.len; j++) {
                print_annot(b, &c->annots.items[j]);
                atd_buf_putc(b, ' ');
            }
            atd_buf_puts(b, ": ");
        }
        print_type(b, c->type, level);
    }
    atd_buf_putc(b, ')');
}

static void print_record(atd_buf *b, const ast_type *t, int level)
{
    if (t->u.record.len == 0) {
        atd_buf_puts(b, "{}");
        return;
    }
    atd_buf_puts(b, "{\n");
    for (size_t i = 0; i < t->u.record.len; i++) {
        const ast_field *f = &t->u.record.fields[i];
        print_indent(b, level + 1);
        if (f->kind == AST_FIELD_INHERIT) {
            atd_buf_puts(b, "inherit ");
        } else {
            if (f->kind == AST_FIELD_OPTIONAL)
                atd_buf_putc(b, '?');
            else if (f->kind == AST_FIELD_DEFAULT)
                atd_buf_putc(b, '~');
            atd_buf_puts(b, f->name);
            print_annots(b, f->annots);
            atd_buf_puts(b, " : ");
        }
        print_type(b, f->type, level + 1);
        atd_buf_puts(b, ";\n");
    }
    print_indent(b, level);
    atd_buf_putc(b, '}');
}

static void print_sum(atd_buf *b, const ast_type *t, int level)
{
    if (t->u.sum.len == 0) {
        atd_buf_puts(b, "[]");
        return;
    }
    atd_buf_puts(b, "[\n");
    for (size_t i = 0; i < t->u.sum.len; i++) {
        const ast_variant *v = &t->u.sum.variants[i];
        print_indent(b, level + 1);
        atd_buf_puts(b, "| ");
        if (v->is_inherit) {
            atd_buf_puts(b, "inherit ");
            print_type(b, v->arg, level + 1);
        } else {
            atd_buf_puts(b, v->name);
            print_annots(b, v->annots);
            if (v->arg != NULL) {
                atd_buf_puts(b, " of ");
                print_type(b, v->arg, level + 1);
            }
        }
        atd_buf_putc(b, '\n');
    }
    print_indent(b, level);
    atd_buf_putc(b, ']');
}

static void print_type(atd_buf *b, const ast_type *t, int level)
{
    switch (t->kind) {
    case AST_TVAR:
        atd_buf_putc(b, '\'');
        atd_buf_puts(b, t->u.tvar.name);
        break;
    case AST_NAME:
        print_name(b, t, level);
        break;
    case AST_TUPLE:
        print_tuple(b, t, level);
        break;
    case AST_RECORD:
        print_record(b, t, level);
        break;
    case AST_SUM:
        print_sum(b, t, level);
        break;
    }
    print_annots(b, t->annots);
}

static void print_import(atd_buf *b, const ast_import *im)
{
    atd_buf_puts(b, "from ");
    print_path(b, im->path, im->npath);
    print_annots(b, im->annots);
    if (im->alias != NULL) {
        atd_buf_puts(b, " as ");
        atd_buf_puts(b, im->alias);
    }
    atd_buf_puts(b, " import ");
    for (size_t i = 0; i < im->ntypes; i++) {
        const ast_imported_type *it = &im->types[i];
        if (i > 0)
            atd_buf_puts(b, ", ");
        print_params(b, it->params, it->nparams);
        atd_buf_puts(b, it->name);
        print_annots(b, it->annots);
    }
    atd_buf_putc(b, '\n');
}

void print_module(atd_buf *b, const ast_module *m)
{
    bool need_blank = false;
    for (size_t i = 0; i < m->annots.len; i++) {
        print_annot(b, &m->annots.items[i]);
        atd_buf_putc(b, '\n');
        need_blank = true;
    }
    if (m->nimports > 0 && need_blank)
        atd_buf_putc(b, '\n');
    for (size_t i = 0; i < m->nimports; i++) {
        print_import(b, &m->imports[i]);
        need_blank = true;
    }
    for (size_t i = 0; i < m->ndefs; i++) {
        const ast_typedef *d = &m->defs[i];
        if (need_blank)
            atd_buf_putc(b, '\n');
        need_blank = true;
        atd_buf_puts(b, "type ");
        print_params(b, d->params, d->nparams);
        atd_buf_puts(b, d->name);
        print_annots(b, d->annots);
        atd_buf_puts(b, " = ");
        print_type(b, d->rhs, 0);
        atd_buf_putc(b, '\n');
    }
}

/* ==== Structural dump ===================================================== */

static void print_dump_line(atd_buf *b, int level, const char *what)
{
    print_indent(b, level);
    atd_buf_puts(b, what);
}

static void print_dump_annots(atd_buf *b, ast_annots as, int level)
{
    for (size_t i = 0; i < as.len; i++) {
        print_dump_line(b, level, "annot ");
        print_annot(b, &as.items[i]);
        atd_buf_putc(b, '\n');
    }
}

static void print_dump_params(atd_buf *b, const ast_param *ps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        atd_buf_puts(b, " '");
        atd_buf_puts(b, ps[i].name);
    }
}

static void print_dump_type(atd_buf *b, const ast_type *t, int level)
{
    static const char *const kinds[] = {"required", "optional", "default", "inherit"};
    switch (t->kind) {
    case AST_TVAR:
        print_dump_line(b, level, "tvar '");
        atd_buf_puts(b, t->u.tvar.name);
        atd_buf_putc(b, '\n');
        break;
    case AST_NAME:
        print_dump_line(b, level, "name ");
        print_path(b, t->u.name.path, t->u.name.npath);
        atd_buf_putc(b, '\n');
        for (size_t i = 0; i < t->u.name.nargs; i++)
            print_dump_type(b, t->u.name.args[i], level + 1);
        break;
    case AST_TUPLE:
        print_dump_line(b, level, "tuple\n");
        for (size_t i = 0; i < t->u.tuple.len; i++) {
            const ast_cell *c = &t->u.tuple.cells[i];
            print_dump_line(b, level + 1, c->has_colon ? "cell :\n" : "cell\n");
            print_dump_annots(b, c->annots, level + 2);
            print_dump_type(b, c->type, level + 2);
        }
        break;
    case AST_RECORD:
        print_dump_line(b, level, "record\n");
        for (size_t i = 0; i < t->u.record.len; i++) {
            const ast_field *f = &t->u.record.fields[i];
            print_dump_line(b, level + 1, "field ");
            atd_buf_puts(b, kinds[f->kind]);
            if (f->name != NULL) {
                atd_buf_putc(b, ' ');
                atd_buf_puts(b, f->name);
            }
            atd_buf_putc(b, '\n');
            print_dump_annots(b, f->annots, level + 2);
            print_dump_type(b, f->type, level + 2);
        }
        break;
    case AST_SUM:
        print_dump_line(b, level, "sum\n");
        for (size_t i = 0; i < t->u.sum.len; i++) {
            const ast_variant *v = &t->u.sum.variants[i];
            print_dump_line(b, level + 1, v->is_inherit ? "inherit" : "variant ");
            if (!v->is_inherit)
                atd_buf_puts(b, v->name);
            atd_buf_putc(b, '\n');
            print_dump_annots(b, v->annots, level + 2);
            if (v->arg != NULL)
                print_dump_type(b, v->arg, level + 2);
        }
        break;
    }
    print_dump_annots(b, t->annots, level + 1);
}

void print_dump(atd_buf *b, const ast_module *m)
{
    atd_buf_puts(b, "module\n");
    print_dump_annots(b, m->annots, 1);
    for (size_t i = 0; i < m->nimports; i++) {
        const ast_import *im = &m->imports[i];
        print_dump_line(b, 1, "import ");
        print_path(b, im->path, im->npath);
        if (im->alias != NULL) {
            atd_buf_puts(b, " as ");
            atd_buf_puts(b, im->alias);
        }
        atd_buf_putc(b, '\n');
        print_dump_annots(b, im->annots, 2);
        for (size_t j = 0; j < im->ntypes; j++) {
            print_dump_line(b, 2, "type ");
            atd_buf_puts(b, im->types[j].name);
            print_dump_params(b, im->types[j].params, im->types[j].nparams);
            atd_buf_putc(b, '\n');
            print_dump_annots(b, im->types[j].annots, 3);
        }
    }
    for (size_t i = 0; i < m->ndefs; i++) {
        const ast_typedef *d = &m->defs[i];
        print_dump_line(b, 1, "typedef ");
        atd_buf_puts(b, d->name);
        print_dump_params(b, d->params, d->nparams);
        atd_buf_putc(b, '\n');
        print_dump_annots(b, d->annots, 2);
        print_dump_type(b, d->rhs, 2);
    }
}
