/* C identifier clashes in the lowered module: the one check of every name
 * the generated file shares (the checker's check_cnames.c only compares the
 * members of one struct). Only after lowering are the SYNTHESIZED names
 * known: anonymous types (<parent>_<field>), instances (<generic>_<arg>),
 * list/option types (<elem>_list), tag enums (<sum>_tag), assoc items
 * (<t>_item), every generated function (<type>_read, ...) and the enum
 * constants of all types together (two constructors of one sum as well as of
 * two sums). Two equal identifiers would not compile. When one of them is
 * the made-up name of a structural type (`t list` is P_t_list, which a user
 * type `t_list` also names), that type gets a suffix (P_t_list_2) and a
 * note says so, as atdgen accepts such schemas; every other clash is an
 * error at the later of the two places that introduced them, with a note
 * at the other one and the hint to use <c name>. */
#ifndef ATDC_CHECK_CLASH_H
#define ATDC_CHECK_CLASH_H

#include <stdbool.h>

#include "atd/arena.h"
#include "util/diag.h"
#include "lower/ir.h"

/* Renames the structural types whose made-up C names clash with another
 * name, a note for each. False only when out of memory (reported). */
bool check_clash_rename(diag_ctx *d, atd_arena *arena, ir_module *m);

/* Reports every clash through d. Returns false when there was one, or when
 * the arena ran out of memory (reported too). */
bool check_clash(diag_ctx *d, atd_arena *arena, const ir_module *m);

#endif
