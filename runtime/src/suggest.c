/* Suggestions for misspelt names (atd/suggest.h): the optimal string
 * alignment distance, bounded by a third of the word's length so that
 * `strin` suggests `string`; a name of one or two letters is too short for
 * a guess (`x` would "mean" any other one-letter name). No allocation. */
#include "atd/suggest.h"

#include <string.h>

void atd_suggest_init(atd_suggest *s, const char *word, size_t len)
{
    s->word = word;
    s->len = len;
    s->best = NULL;
    s->best_len = 0;
    s->best_distance = 0;
}

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* The distance between a[0..n) and b[0..m), both at most ATD_SUGGEST_MAX_LEN. */
static size_t distance(const char *a, size_t n, const char *b, size_t m)
{
    /* Three rows of the dynamic programming table, row i at rows[i % 3]. */
    size_t rows[3][ATD_SUGGEST_MAX_LEN + 1];
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

void atd_suggest_offer(atd_suggest *s, const char *name, size_t len)
{
    if (s->len < 3 || s->len > ATD_SUGGEST_MAX_LEN || len > ATD_SUGGEST_MAX_LEN)
        return;
    size_t bound = s->len / 3;
    size_t gap = len > s->len ? len - s->len : s->len - len;
    if (gap > bound || (s->best != NULL && gap >= s->best_distance))
        return;
    size_t d = distance(s->word, s->len, name, len);
    if (d == 0 || d > bound)
        return;
    if (s->best == NULL || d < s->best_distance) {
        s->best = name;
        s->best_len = len;
        s->best_distance = d;
    }
}
