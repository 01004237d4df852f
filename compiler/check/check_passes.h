/* The passes of the checker, in the order check.c runs them, and the
 * per-node checks that check_records.c calls. */
#ifndef ATDC_CHECK_PASSES_H
#define ATDC_CHECK_PASSES_H

#include <stdbool.h>

#include "check_cx.h"

void check_imports_declare(check_cx *cx);
void check_imports_unused(check_cx *cx);
/* `m.t`, a use of import i that its import list accepts (check_types.c). */
void check_imports_use(check_cx *cx, const ast_type *t, size_t i);
void check_types_module(check_cx *cx);
void check_recursion_module(check_cx *cx);
void check_records_module(check_cx *cx);
void check_lazy_module(check_cx *cx);
/* The file name and the C prefix make valid C names (check_cprefix.c). */
void check_cprefix_module(check_cx *cx);

void check_fields_record(check_cx *cx, const ast_type *record);
void check_fields_tuple(check_cx *cx, const ast_type *tuple);

/* C member clashes among the fields of a record (check_cnames.c). */
void check_cnames_fields(check_cx *cx, const check_members *ms);

#endif
