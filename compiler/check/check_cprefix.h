/* The module-wide C names (check_cprefix.c): the prefix of every generated
 * identifier and the names the schema's file gives (header guard, header
 * file), checked for the module by check_cprefix_module (check_passes.h). */
#ifndef ATDC_CHECK_CPREFIX_H
#define ATDC_CHECK_CPREFIX_H

#include <stdbool.h>

#include "syntax/ast.h"
#include "util/diag.h"

typedef enum check_prefix_origin {
    CHECK_PREFIX_OPTION,    /* --prefix */
    CHECK_PREFIX_ANNOT,     /* <c prefix="..."> */
    CHECK_PREFIX_FILE_NAME  /* the file's base name + "_" */
} check_prefix_origin;

/* Reports an error and returns false when the C prefix `prefix` (as given,
 * before the "_" that lowering adds) cannot start the generated names:
 * anything but [A-Za-z0-9_], a leading digit, a leading '_' (reserved to the
 * C implementation at file scope), or the runtime's own atd_/ATD_ in any
 * case (its struct atd_buf, ATD_ERR_... would be redefined; enum constants
 * are upper case). `loc`: the <c prefix>
 * value, or the start of the file. */
bool check_c_prefix(diag_ctx *d, const char *prefix, check_prefix_origin origin, ast_loc loc);

/* The same for the file's base name `base` (file name without folder and
 * extension, other characters already turned into '_'), which names the
 * header guard BASE_ATD_H and the header base.h whatever the prefix: a
 * leading digit or '_' and the name "atd" (the runtime's atd.h) are errors,
 * at the start of the file. */
bool check_c_file_name(diag_ctx *d, const char *base, const char *file, ast_loc loc);

#endif
