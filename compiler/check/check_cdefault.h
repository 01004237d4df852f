/* The meaning of <c default="TEXT"> on a `~` field or tuple cell of type t:
 *
 *   string                  one or more C string literals ("none", "a" "b"),
 *                           decoded to their bytes (compared by value), or
 *                           an atd_string initializer as below ({0})
 *   enum, sum               a nullary constructor's ATD name (`Green`) or
 *                           enum constant, which sets the tag; a name close
 *                           to one of these is an error with a suggestion
 *   bool, int, float, enum  a C constant expression, cast to the C type
 *   unit                    none (always 0)
 *   sum                     else as below
 *   option, nullable, list, record, tuple, abstract, wrap
 *                           a braced initializer of the C type, or a constant
 *                           of it; kept in a file-scope static const object,
 *                           so that compound literals inside it (list items)
 *                           have static storage, and the C compiler rejects a
 *                           non-constant
 *
 * Anything else is an error at the annotation's value. */
#ifndef ATDC_CHECK_CDEFAULT_H
#define ATDC_CHECK_CDEFAULT_H

#include <stdbool.h>

#include "syntax/ast.h"
#include "atd/arena.h"
#include "util/diag.h"
#include "lower/ir.h"

/* Sets *d from the annotation field f (`<c default=...>`) for type t.
 * False when the text does not suit t, after reporting why through diag
 * (the checker, check_lowered.c; lowering passes NULL and reports nothing),
 * or when the arena ran out of memory, which sets *oom. */
bool check_cdefault(diag_ctx *diag, atd_arena *arena, const ast_annot_field *f, const ir_type *t,
                    ir_default *d, bool *oom);

#endif
