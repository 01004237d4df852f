/* "Did you mean ...?": the known name closest to a misspelt one. Offer each
 * candidate in turn; the best one within the distance a typo plausibly
 * explains is kept. No allocation: names of up to SUGGEST_MAX_LEN bytes are
 * compared, longer ones never suggested. */
#ifndef ATDC_SUGGEST_H
#define ATDC_SUGGEST_H

#include <stddef.h>

#define SUGGEST_MAX_LEN 64

typedef struct suggest {
    const char *word; /* the misspelt name */
    size_t len;
    const char *best; /* NULL while no candidate is close enough */
    size_t best_distance;
} suggest;

void suggest_init(suggest *s, const char *word);
/* Considers `candidate`; the first of equally close candidates stays. */
void suggest_offer(suggest *s, const char *candidate);

#endif
