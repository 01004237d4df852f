/* The front end's entry point: text to AST (lexer.l + parser.y), then the
 * depth limit that lets every later stage recurse over a type expression. */
#ifndef ATDC_PARSE_H
#define ATDC_PARSE_H

#include <stddef.h>

#include "ast.h"
#include "util/diag.h"

/* Parses `text` (len bytes, not NUL-terminated, may contain NUL bytes) into
 * an AST allocated in `arena`, reporting errors to `d` (the caller registers
 * the source with diag_add_source to get quoted lines); `name` is the file
 * name in locations. Returns NULL when any lexical or syntax error was
 * reported, or when a type expression is nested deeper than AST_MAX_DEPTH. */
ast_module *parse_module(atd_arena *arena, diag_ctx *d, const char *name, const char *text,
                         size_t len);

#endif
