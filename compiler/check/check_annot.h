/* Annotations (check_annot.c, check_annot_type.c): lookup, and their checks. */
#ifndef ATDC_CHECK_ANNOT_H
#define ATDC_CHECK_ANNOT_H

#include <stdbool.h>

#include "syntax/ast.h"

typedef struct check_cx check_cx;

/* First field `section field` among the annotations, or NULL. */
const ast_annot_field *check_annot_find(const ast_annots *a, const char *section,
                                        const char *field);
/* The value of the first field `section field`; NULL when absent or a flag. */
const char *check_annot_str(const ast_annots *a, const char *section, const char *field);
/* A flag's value: absent -> false; no value or "true" -> true. */
bool check_annot_flag(const ast_annots *a, const char *section, const char *field);

void check_annot_module(check_cx *cx);

/* Type-dependent checks of the annotations on the type expression t. */
void check_annot_type(check_cx *cx, const ast_type *t);

#endif
