/* Reads each file named on the command line with the generated reader of
 * one type and prints one line per file: "ok", or "err NAME message" with
 * NAME the atd_error_code without its ATD_ERR_ prefix. The type comes from
 * the build: -DHEADER='"x.h"' -DROOT_T=x_t -DROOT_FROM_JSON=x_t_from_json. */
#include <stdio.h>
#include <stdlib.h>

#include HEADER

#define NAME_OF(name, text) #name,
static const char *const code_names[] = {ATD_ERROR_LIST(NAME_OF)};

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *p = malloc(cap);
    while (p != NULL) {
        n += fread(p + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *q = realloc(p, cap *= 2);
        if (q == NULL)
            free(p);
        p = q;
    }
    fclose(f);
    *len = n;
    return p;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        size_t len = 0;
        char *text = slurp(argv[i], &len);
        atd_arena *arena = atd_arena_new(0, NULL);
        if (text == NULL || arena == NULL) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 2;
        }
        ROOT_T v;
        atd_error err;
        int rc = ROOT_FROM_JSON(text, len, arena, &v, &err);
        if (rc == 0)
            puts("ok");
        else
            printf("err %s %s\n", code_names[err.code], err.message);
        atd_arena_free(arena);
        free(text);
    }
    return 0;
}
