/* Reads each line of standard input as an adapters_doc (schemas/adapters.atd)
 * and prints it back as JSON, or "ERROR" and the message on standard error:
 * the C side of tests/atdgen_adapters/run.sh. */
#include <stdio.h>
#include <string.h>

#include "adapters.h"

int main(void)
{
    static char line[1 << 16];
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_buf out;
    atd_buf_init(&out);
    if (arena == NULL)
        return 2;
    while (fgets(line, sizeof line, stdin) != NULL) {
        size_t len = strcspn(line, "\n");
        adapters_doc doc;
        atd_error err;
        atd_buf_clear(&out);
        if (adapters_doc_from_json(line, len, arena, &doc, &err) != 0 ||
            adapters_doc_to_json(&doc, &out, &err) != 0) {
            puts("ERROR");
            fprintf(stderr, "%s\n", err.message);
        } else {
            printf("%.*s\n", (int)out.len, out.data);
        }
        atd_arena_reset(arena);
    }
    atd_buf_free(&out);
    atd_arena_free(arena);
    return 0;
}
