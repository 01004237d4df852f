/* Suggestions for misspelt names (suggest.h): the optimal string alignment
 * distance (insertions, deletions, substitutions and transpositions of two
 * neighbours each cost 1), with a bound of a third of the word's length, so
 * that `strin` suggests `string`; a name of one or two letters is too short
 * for a guess (`x` would "mean" any other one-letter name). */
#include "suggest.h"

#include <string.h>

void suggest_init(suggest *s, const char *word)
{
    s->word = word;
    s->len = strlen(word);
    s->best = NULL;
    s->best_distance = 0;
}

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* The distance between a[0..n) and b[0..m), both at most SUGGEST_MAX_LEN. */
static size_t distance(const char *a, size_t n, const char *b, size_t m)
{
    /* Three rows of the dynamic programming table, row i at rows[i % 3]. */
    size_t rows[3][SUGGEST_MAX_LEN + 1];
    for (size_t j = 0; j <= m; j++)
        rows[0][j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t *cur = rows[i % 3], *prev = rows[(i + 2) % 3], *prev2 = rows[(i + 1) % 3];
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 1 < cur[j])
                cur[j] = prev2[j - 2] + 1;
        }
    }
    return rows[n % 3][m];
}

void suggest_offer(suggest *s, const char *candidate)
{
    size_t m = strlen(candidate);
    if (s->len < 3 || s->len > SUGGEST_MAX_LEN || m > SUGGEST_MAX_LEN)
        return;
    size_t bound = s->len / 3;
    size_t gap = m > s->len ? m - s->len : s->len - m;
    if (gap > bound || (s->best != NULL && gap >= s->best_distance))
        return;
    size_t d = distance(s->word, s->len, candidate, m);
    if (d == 0 || d > bound)
        return;
    if (s->best == NULL || d < s->best_distance) {
        s->best = candidate;
        s->best_distance = d;
    }
}
