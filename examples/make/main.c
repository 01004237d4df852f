/* The example program: reads an inventory (inventory.atd) from the JSON
 * file named on the command line into C structs, raises the price of every
 * item by 10 cents, and writes the inventory back to standard output. */
#include <stdio.h>
#include <stdlib.h>

#include "inventory.h"

/* The whole file in malloc'd memory, or NULL. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n;
    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        text = malloc((size_t)n + 1);
        if (text != NULL && fread(text, 1, (size_t)n, f) != (size_t)n) {
            free(text);
            text = NULL;
        }
        *len = (size_t)n;
    }
    fclose(f);
    return text;
}

int main(int argc, char **argv)
{
    size_t len = 0, i;
    char *text;
    atd_arena *arena;
    inventory_inventory inv;
    atd_error err;
    atd_buf out;
    int rc = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: %s INVENTORY.json\n", argv[0]);
        return 2;
    }
    text = read_file(argv[1], &len);
    arena = atd_arena_new(0, NULL);
    if (text == NULL || arena == NULL) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        free(text);
        atd_arena_free(arena);
        return 1;
    }
    if (inventory_inventory_from_json(text, len, arena, &inv, &err) != 0) {
        char line[600];
        atd_error_format(&err, argv[1], line, sizeof line);
        fprintf(stderr, "%s\n", line);
        rc = 1;
    } else {
        for (i = 0; i < inv.items.len; i++)
            inv.items.items[i].price.cents += 10; /* common_money, from common.atd */
        atd_buf_init(&out);
        if (inventory_inventory_to_json(&inv, &out, &err) != 0) {
            fprintf(stderr, "cannot write: %s\n", err.message);
            rc = 1;
        } else {
            fwrite(out.data, 1, out.len, stdout);
            putchar('\n');
        }
        atd_buf_free(&out);
    }
    atd_arena_free(arena);
    free(text);
    return rc;
}
