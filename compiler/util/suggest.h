/* "Did you mean ...?" for the compiler's NUL-terminated names: the
 * runtime's search (atd/suggest.h), which also serves the generated
 * readers' unknown-field errors, so both suggest by one rule. */
#ifndef ATDC_SUGGEST_H
#define ATDC_SUGGEST_H

#include <string.h>

#include "atd/suggest.h"

typedef atd_suggest suggest;

static inline void suggest_init(suggest *s, const char *word)
{
    atd_suggest_init(s, word, strlen(word));
}

/* Considers `candidate`; the first of equally close candidates stays. */
static inline void suggest_offer(suggest *s, const char *candidate)
{
    atd_suggest_offer(s, candidate, strlen(candidate));
}

#endif
