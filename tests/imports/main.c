/* The imports test program: reads a drawing (shapes.atd) whose fields have
 * types of two imported schemas, moves the first shape, and writes the
 * drawing back; run.sh compares the output with the expected JSON. Reading
 * and writing go through point_point_read/_write and un_length_read/_write,
 * generated from the other schemas, so this links the three sources. */
#include <stdio.h>
#include <string.h>

#include "shapes.h"

static const char input[] =
    "{\"title\": \"plan\", \"shapes\": [{\"name\": \"box\", \"origin\": {\"x\": 1, \"y\": 2.5},"
    " \"corners\": [{\"x\": 0, \"y\": 0}, {\"x\": 3, \"y\": 4}], \"fill\": \"Green\","
    " \"size\": {\"value\": 12}, \"tags\": {\"a\": {\"x\": -1, \"y\": 0.5}}}]}";

int main(void)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    shapes_drawing d;
    atd_error err;
    atd_buf out;
    int ok;
    if (arena == NULL)
        return 1;
    if (shapes_drawing_from_json(input, strlen(input), arena, &d, &err) != 0) {
        fprintf(stderr, "read failed: %s\n", err.message);
        atd_arena_free(arena);
        return 1;
    }
    ok = d.shapes.len == 1 && d.shapes.items[0].fill == POINT_COLOR_GREEN &&
         d.shapes.items[0].size.unit.len == 2; /* the imported record's default */
    d.shapes.items[0].origin.x += 10;
    d.shapes.items[0].fill = POINT_COLOR_BLUE;
    atd_buf_init(&out);
    if (shapes_drawing_to_json(&d, &out, &err) != 0)
        ok = 0;
    else
        fwrite(out.data, 1, out.len, stdout);
    putchar('\n');
    atd_buf_free(&out);
    atd_arena_free(arena);
    return ok ? 0 : 1;
}
