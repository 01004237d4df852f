/* Parametrized definitions in atdc diff. The IR holds only the instances
 * that a schema uses, so a parametrized definition that nothing
 * instantiates would not be compared. Before loading, each one that both
 * schemas define with parameters gets an instance of its own in both: `type ('k, 'v) t` gives `type __atdc_diff_of_t = (p0, p1) t`
 * where p0, p1 are marker records standing for the type variables, the
 * same in both schemas (each side with its own number of parameters: a
 * parameter dropped is a variable that changed). The comparison reports the instance as `t`, and a
 * marker met against another marker or type as a change of type variable
 * (atddiff's "incompatible type variables"). */
#ifndef ATDC_DIFF_PARAMS_H
#define ATDC_DIFF_PARAMS_H

#include <stdbool.h>

#include "atd/arena.h"
#include "syntax/ast.h"

/* The prefix of every name that diff_params_add adds. */
#define DIFF_PARAMS_PREFIX "__atdc_diff_"

/* Adds the markers and instances to both modules. False when out of memory. */
bool diff_params_add(atd_arena *arena, ast_module *old, ast_module *new);

/* The definition an instance stands for ("t" for "__atdc_diff_of_t"), or
 * NULL for any other name. */
const char *diff_params_origin(const char *name);

/* Whether the definition named `name` is a marker of a type variable. */
bool diff_params_is_marker(const char *name);

#endif
