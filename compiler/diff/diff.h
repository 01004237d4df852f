/* atdc diff: which changes between two versions of a schema break the
 * exchange of JSON data between programs built from them (atddiff's idea,
 * for the JSON that atdc and atdgen read and write).
 *
 * Backward incompatibility: NEW's readers reject (or misread) data written
 * by OLD's writers. Forward incompatibility: OLD's readers reject data
 * written by NEW's writers. A finding is "possible" when it depends on the
 * data (a `~` field that a writer may leave out, a type that disappeared).
 * Types are compared by their JSON form, through aliases, instances of
 * parametrized types, wraps and imports, so renaming a type or moving it
 * into an imported schema is no change. */
#ifndef ATDC_DIFF_H
#define ATDC_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "atd/arena.h"
#include "atd/common.h"
#include "load/load_ir.h"

typedef enum diff_direction {
    DIFF_BACKWARD = 1,
    DIFF_FORWARD = 2,
    DIFF_BOTH = 3 /* DIFF_BACKWARD | DIFF_FORWARD */
} diff_direction;

/* The kinds of finding; the JSON output names them as atddiff does. */
typedef enum diff_kind {
    DIFF_MISSING_FIELD,            /* a required field is new, gone, or changed kind */
    DIFF_MISSING_VARIANT,          /* a constructor is new or gone */
    DIFF_MISSING_VARIANT_ARGUMENT, /* a constructor gained or lost its argument */
    DIFF_DEFAULT_REQUIRED,         /* a `~` field became required, or the reverse */
    DIFF_DEFAULT_CHANGED,          /* a `~` field's default value changed */
    DIFF_INCOMPATIBLE_TYPE,        /* another JSON form, repr or adapter */
    DIFF_DELETED_TYPE,             /* a definition is gone */
    DIFF_ADDED_TYPE                /* a definition is new */
} diff_kind;

typedef struct diff_finding {
    diff_direction direction;
    bool certain;      /* false: "possible", it depends on the data */
    diff_kind kind;
    const char *name;  /* the field or constructor named by the kind, or NULL */
    bool has_old, has_new;
    ast_loc old_loc, new_loc;
    const char *text;  /* "required field 'x' is new" */
    const char **affected; /* the definitions whose JSON changes, in schema order */
    size_t naffected, affected_cap;
    size_t seq; /* order of discovery: the sort's tie-breaker */
} diff_finding;

typedef struct diff_result {
    diff_finding *items; /* sorted by location, NEW's where there is one */
    size_t len, cap;
} diff_result;

/* Compares every definition of `old` with the one of the same name in `new`.
 * False when out of memory (nothing else can fail). */
bool diff_schemas(atd_arena *arena, const load_schema *old, const load_schema *new,
                  diff_result *out);

#endif
