/* C spelling of ATD names (prefix, <c name>, mangling). Every stage that
 * turns a schema name into a C identifier goes through here, so the checker
 * (which rejects clashes) and the emitter (which prints the names) can never
 * disagree. The rules: a C keyword, or a name that a C or C++ header could
 * have made a macro, gets a trailing `_` (`default` -> `default_`); a name
 * starting with `_` gets the prefix `x` (`_tmp` -> `x_tmp`), one starting
 * with the runtime's reserved `atd_` gets `x_` (`atd_id` -> `x_atd_id`); a
 * `<c name="...">` replaces all of that. */
#ifndef ATDC_NAMES_H
#define ATDC_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "atd/arena.h"

/* True for C99/C11/C23 keywords, C++ keywords, and the names of standard
 * macros (bool, true, NULL, alignof, and, or, ...) that would break a struct
 * member or a typedef of that name. */
bool names_is_keyword(const char *s, size_t len);

/* True when s[0..len) is a C identifier: [A-Za-z_][A-Za-z0-9_]* and not a
 * keyword (names_is_keyword) nor a name reserved to the implementation
 * (`__x`, `_X`). Used to validate `<c name>` and similar values. */
bool names_is_c_identifier(const char *s, size_t len);

/* The C spelling of an ATD name (a type, field or constructor name, which
 * are ASCII identifiers, possibly with `'`). A `'` becomes `_prime` so that
 * `x'` stays distinct from `x`. Allocated in `a`; NULL when out of memory. */
char *names_mangle(atd_arena *a, const char *atd_name);

/* `c_override` when not NULL (the value of `<c name>`), else
 * names_mangle(atd_name). */
const char *names_c_name(atd_arena *a, const char *atd_name, const char *c_override);

/* The body of a C string literal that holds bytes[0..len) (no quotes),
 * written at out, which has room for 4 * len + 1 bytes; NUL-terminated.
 * Quotes, backslashes and `?` (trigraphs) are escaped, other bytes outside
 * printable ASCII written as three octal digits. */
void names_c_string(char *out, const char *bytes, size_t len);

/* An upper-case copy, for enum constants (`Red` -> `RED`). */
char *names_upper(atd_arena *a, const char *s);

/* The base name of the files generated for the schema at `path`, which is
 * also its default C prefix without the '_': the file name without its
 * extension, with every character other than an ASCII letter or digit
 * replaced by '_' ("a/my-api.atd" -> "my_api"); "stdin" for standard input
 * (the path "<stdin>"). NULL when out of memory. */
char *names_base_name(atd_arena *a, const char *path);

/* The C prefix of a schema: `explicit` (from --prefix or <c prefix>) when
 * given, else the base name; a '_' is added unless it is empty or ends with
 * one ("ev" and "ev_" both give "ev_"). NULL when out of memory. */
const char *names_prefix(atd_arena *a, const char *explicit_prefix, const char *base);

#endif
