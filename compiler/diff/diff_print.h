/* The two forms of atdc diff's findings (diff.h): gcc-style text, one
 * block per finding, and JSON in atddiff's shape. */
#ifndef ATDC_DIFF_PRINT_H
#define ATDC_DIFF_PRINT_H

#include "atd/buf.h"
#include "diff.h"

/* Each block: `FILE:LINE:COL: <direction>: <text>` at NEW's location (OLD's
 * when NEW has none), then OLD's location as a note when both exist, then
 * the affected types; blocks are separated by an empty line. */
void diff_print_text(atd_buf *b, const diff_finding *const *findings, size_t n);

/* {"findings": [{"finding": {...}, "affected_types": [...]}]}, indented;
 * locations as atddiff writes them (1-based lines, 0-based columns). */
void diff_print_json(atd_buf *b, const diff_finding *const *findings, size_t n);

#endif
