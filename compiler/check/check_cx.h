/* The state of one run of the checker (check.c), which is also the checked
 * module that lowering reads (check.h). The checker is split over check_*.c
 * by concern, each with its own small header:
 *
 *   check.c            the entry point, the table of definitions, pass order
 *   check_map.c        a fixed-size string map in the arena (check_map.h)
 *   check_lookup.c     what a type name refers to; alias resolution (check_lookup.h)
 *   check_types.c      names, arity, type variables, empty and duplicate members
 *   check_imports.c    imports, and the types used from the imported schemas
 *   check_recursion.c  cycles through aliases, non-regular recursion (util/graph.h)
 *   check_inherit.c    inherit expansion (check_inherit.h)
 *   check_records.c    per record/sum checks after expansion (JSON names, C names)
 *   check_fields.c     ?x / ~x fields, defaults, tuple cell defaults
 *   check_default.c    the <ocaml default> literals (check_default.h)
 *   check_annot.c      annotation schema: sections, positions, values (check_annot.h)
 *   check_annot_type.c annotations whose meaning depends on the annotated type
 *   check_cnames.c     C names that clash
 *   check_adapter.c    atdgen's built-in adapters (check_adapter.h)
 *
 * and, on the lowered module (lower/ir.h), run by the driver after lowering:
 *
 *   check_lowered.c    what lowering recorded: defaults, validators and
 *                      adapter parameters against the C types, and the limits
 *                      of lowering (check_lowered.h; check_cdefault.c,
 *                      check_validators.c, check_adapter.c)
 *   check_clash.c      the generated C names that clash (check_clash.h)
 *   check_formats.c    what biniou and the lazy format can carry (check_formats.h)
 *
 * The passes' entry points are in check_passes.h. Every walk over an AST is
 * recursive; the parser (syntax/parse.h) already rejected type expressions nested
 * deeper than AST_MAX_DEPTH, so no walk here needs a depth limit.  */
#ifndef ATDC_CHECK_CX_H
#define ATDC_CHECK_CX_H

#include <stdbool.h>
#include <stddef.h>

#include "check.h"
#include "check_inherit.h"
#include "check_map.h"

#define CHECK_MAX_INHERIT_DEPTH 100

typedef struct check_import_info {
    const char *local; /* alias, or last path component */
    check_map types;   /* name -> index in ast_import.types (first one) */
    bool *used;        /* per imported type */
    bool valid;        /* false for an import that is itself an error */
} check_import_info;

typedef struct check_cx {
    diag_ctx *d;
    atd_arena *arena;
    const ast_module *m;
    const check_options *opts;
    const deps_import *loaded; /* the schema of each import (check.h) */
    bool oom;          /* out of memory: stop quietly, report once */
    check_map defs;    /* type name -> index of its first definition */
    check_map modules; /* local module name -> import index */
    check_import_info *imports;
    size_t nstructs;        /* record and sum nodes in the module */
    check_map inherit_memo; /* node address -> index in inherit_nodes */
    struct check_inherit_node *inherit_nodes; /* the inherit graph (check_inherit.c) */
    size_t ninherit_nodes;
    size_t inherit_visits; /* nodes the graph walk has reached */
} check_cx;

/* Reports an out-of-memory condition once. */
void check_oom(check_cx *cx);
/* Arena allocation, zeroed; reports out of memory. */
void *check_alloc(check_cx *cx, size_t size);

#endif
