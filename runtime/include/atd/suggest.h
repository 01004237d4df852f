/* "Did you mean ...?": the known name closest to a misspelt one, for error
 * messages (unknown fields in strict mode, unknown names in atdc). */
#ifndef ATD_SUGGEST_H
#define ATD_SUGGEST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Names longer than this are compared with no one and never suggested. */
#define ATD_SUGGEST_MAX_LEN 64

/* A search in progress: offer each known name in turn, then read `best`. */
typedef struct atd_suggest {
    const char *word;     /* the misspelt name (not NUL-terminated) */
    size_t len;           /* its length in bytes */
    const char *best;     /* the closest name so far, NULL while none is close enough */
    size_t best_len;      /* its length */
    size_t best_distance; /* its distance from word */
} atd_suggest;

/* Starts a search: no name offered yet, `best` NULL.
 *   s:    the search.
 *   word: the misspelt name, len bytes; it must outlive s. */
void atd_suggest_init(atd_suggest *s, const char *word, size_t len);

/* Considers a known name.
 *   s:    the search.
 *   name: the name, len bytes; it must outlive s.
 * It becomes `best` when it is closer than every name offered before and within the distance a typo
 * plausibly explains (a third of the word's length, counting insertions,
 * deletions, substitutions and swaps of two neighbours). Names equal to the
 * word, and words of one or two bytes, are never suggested. */
void atd_suggest_offer(atd_suggest *s, const char *name, size_t len);

#ifdef __cplusplus
}
#endif

#endif
