/* The ATD printer: turns an AST back into text. `atdc --print` shows a schema
 * in a normalized layout (comments dropped, every annotation kept), and
 * `--dump-ast` shows the structure alone, without locations, so that tests can
 * compare parse(F) with parse(print(F)). */
#ifndef ATDC_PRINT_H
#define ATDC_PRINT_H

#include "ast.h"
#include "atd/buf.h"

/* Appends the normalized ATD text of `m` to `b`. Parsing the output gives the
 * same AST (up to locations), and printing that again gives the same text. */
void print_module(atd_buf *b, const ast_module *m);

/* Appends an indented structural dump of `m`: one node per line, every name,
 * annotation and flag, no locations. */
void print_dump(atd_buf *b, const ast_module *m);

#endif
