/* Internal to the number module: the two routes atd_write_double takes to
 * the shortest digits of a double, exported for the unit test that checks
 * the fast one against the exact one over many random doubles. Both give
 * the shortest decimal f * 10^*e10 (closest to v among the shortest) of a
 * finite v > 0, f possibly ending with zeros. */
#ifndef ATD_NUMBER_SHORTEST_H
#define ATD_NUMBER_SHORTEST_H

#include <stdbool.h>
#include <stdint.h>

/* Schubfach on exact round-to-odd products: every finite v > 0. */
uint64_t atd__shortest_exact(double v, int *e10);

/* One product and no loop; false (leaving the answer to
 * atd__shortest_exact) when the neighbours of v are not evenly spaced or a
 * comparison is too close to call. */
bool atd__shortest_fast(double v, uint64_t *f, int *e10);

#endif
