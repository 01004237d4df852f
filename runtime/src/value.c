/* Building and comparing values by hand (atd/value.h). */
#include "atd/value.h"

#include "atd/error.h"

#include <stdint.h>
#include <string.h>

int atd_string_dup(atd_arena *a, const char *bytes, size_t len, atd_string *out)
{
    char *copy = atd_arena_strdup(a, bytes, len);
    if (copy == NULL)
        return ATD_ERR_NOMEM;
    out->ptr = copy;
    out->len = len;
    return 0;
}

bool atd_string_equal(const atd_string *x, const atd_string *y)
{
    return x->len == y->len && (x->len == 0 || memcmp(x->ptr, y->ptr, x->len) == 0);
}

void *atd_list_alloc(atd_arena *a, size_t n, size_t size, size_t align)
{
    if ((size != 0 && n > SIZE_MAX / size) || align == 0 || align > 16 ||
        (align & (align - 1)) != 0)
        return NULL;
    return atd_arena_alloc(a, n * size, align);
}
