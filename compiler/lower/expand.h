/* Expansion: the AST-level half of lowering. It finds definitions by name,
 * binds the parameters of a parametrized definition to the arguments of one
 * application (substitution environments, the basis of monomorphization:
 * lower.c creates one C type per distinct closed instantiation and caches it),
 * follows aliases, and flattens `inherit` in records and sums (atd-spec 5.6:
 * when a name occurs more than once, the last occurrence wins and sits where
 * it was). Nothing here allocates outside the compilation arena. */
#ifndef ATDC_EXPAND_H
#define ATDC_EXPAND_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "diag.h"

/* A substitution: type variable `tvar` stands for `expr` read in `expr_env`
 * (a closure, so arguments are lowered lazily in the scope they were written). */
typedef struct expand_env expand_env;
struct expand_env {
    const char *tvar;
    const ast_type *expr;
    const expand_env *expr_env;
    const expand_env *next;
};

typedef struct expand_ctx {
    diag_ctx *diag;
    atd_arena *arena;
    const ast_module *module;
} expand_ctx;

/* A record field or a sum case after inheritance, with the environment its
 * type must be read in. */
typedef struct expand_field {
    const ast_field *field;
    const expand_env *env;
} expand_field;

typedef struct expand_case {
    const ast_variant *variant;
    const expand_env *env;
} expand_case;

const ast_typedef *expand_find_def(const expand_ctx *x, const char *name);

/* Binds d's parameters to the arguments of `app` (an AST_NAME naming d),
 * the arguments being read in `env`. Returns the new environment. */
const expand_env *expand_bind(expand_ctx *x, const ast_typedef *d, const ast_type *app,
                              const expand_env *env);

/* Looks up a type variable: sets *expr and *expr_env. False when unbound. */
bool expand_lookup(const expand_env *env, const char *tvar, const ast_type **expr,
                   const expand_env **expr_env);

/* Resolves a type variable chain: while t is a TVAR, replaces it by its
 * binding. Returns the final expression and sets *env_out. */
const ast_type *expand_resolve_tvars(const ast_type *t, const expand_env *env,
                                     const expand_env **env_out);

/* Follows `t` (read in env) through type variables, `wrap` and local
 * definitions until a node of kind `want` is reached; NULL when another kind
 * of node (or a predefined type) comes first. */
const ast_type *expand_reach(expand_ctx *x, const ast_type *t, const expand_env *env,
                             ast_type_kind want, const expand_env **env_out);

/* The fields of record `rec` (read in env) after inheritance. */
bool expand_record(expand_ctx *x, const ast_type *rec, const expand_env *env, expand_field **out,
                   size_t *n);
/* The constructors of sum `sum` after inheritance. */
bool expand_sum(expand_ctx *x, const ast_type *sum, const expand_env *env, expand_case **out,
                size_t *n);

#endif
