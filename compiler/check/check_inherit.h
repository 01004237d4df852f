/* Inheritance (check_inherit.c): the members of a record or
 * sum after `inherit` is expanded. Computed once per node and shared by
 * every pass and by lowering. */
#ifndef ATDC_CHECK_INHERIT_H
#define ATDC_CHECK_INHERIT_H

#include <stdbool.h>
#include <stddef.h>

#include "syntax/ast.h"

typedef struct check_cx check_cx;

/* A field or constructor of a record or sum after inherit expansion. */
typedef struct check_member {
    const ast_type *owner;      /* the record or sum node it is written in */
    const ast_field *field;     /* records */
    const ast_variant *variant; /* sums */
    const ast_field *via_field; /* the inherit clause of the expanded node it came through */
    const ast_variant *via_variant;
} check_member;

typedef struct check_members {
    check_member *items;
    size_t len;
} check_members;

/* Expands a record or sum node (AST_RECORD or AST_SUM). With `report`,
 * errors in its own inherit clauses are reported; errors met deeper are left
 * to the definitions they are in. Later occurrences of a name replace earlier
 * ones, as atdgen does. Returns false when out of memory. */
bool check_inherit_expand(check_cx *cx, const ast_type *t, bool report, check_members *out);

/* The node table for the module's nodes (cx->nstructs), zeroed. */
struct check_inherit_node *check_inherit_alloc(check_cx *cx);

/* The name and location of a member, for messages: the inherit clause when
 * it came through one. */
const char *check_member_name(const check_member *mb);
ast_loc check_member_loc(const check_member *mb);

#endif
