/* The C form of an `<ocaml default>` value (check_default.h decodes it;
 * the checker made sure it fits the type): scalars become C constants
 * compared by the writer (`42`, `true`, an enum constant, a string), `[]`
 * and `None` the zero value, and composite values a braced initializer kept
 * in a static const object like a braced <c default> (check_cdefault.h):
 *     Some 3                    {true, 3}
 *     {rules = []; limit = None}  {{NULL, 0}, false, 0}
 *     Circle 2.0                {P_SHAPE_CIRCLE, {.Circle = 2.0}}
 *     [1; 2]                    {(int64_t[]){1, 2}, 2}
 * Values that C cannot hold by value (a field behind a pointer, abstract,
 * a <c t> wrap, a non-empty map) are not translated. */
#ifndef ATDC_LOWER_ODEFAULT_H
#define ATDC_LOWER_ODEFAULT_H

#include <stdbool.h>

#include "atd/arena.h"
#include "check/check_default.h"
#include "lower/ir.h"

typedef enum lower_odefault_result {
    LOWER_ODEFAULT_OK,
    LOWER_ODEFAULT_UNTRANSLATABLE, /* no C form: the user gives <c default> */
    LOWER_ODEFAULT_RANGE,          /* an integer (*range_value) outside its C type
                                    * (*range_type names it) */
    LOWER_ODEFAULT_OOM
} lower_odefault_result;

/* Sets *d from v for type t. */
lower_odefault_result lower_ocaml_default(atd_arena *a, const check_default_value *v,
                                          const ir_type *t, ir_default *d, const char **range_type,
                                          int64_t *range_value);

#endif
