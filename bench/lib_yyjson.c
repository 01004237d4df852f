/* yyjson (compiled from its upstream source, or the system's through
 * pkg-config; see bench/CMakeLists.txt) as a benchmark contender: the
 * immutable DOM of yyjson_read_opts (input not modified: no INSITU flag),
 * yyjson_write_opts with no flag (compact), yyjson_doc_free, and the
 * conversion into the generated event and donut structs with yyjson_obj_getn
 * per field, strings copied into the arena. Its allocations go through a
 * yyjson_alc on the counting allocator, so they are counted in every build. */
#include "harness.h"

#include <yyjson.h>

#include <stdlib.h>
#include <string.h>

typedef struct yy_state {
    yyjson_doc *doc;
    char *text; /* of the last print, from the allocator */
    yyjson_alc alc;
} yy_state;

static void *yy_malloc(void *ctx, size_t n)
{
    (void)ctx;
    return counted_malloc(n);
}

static void *yy_realloc(void *ctx, void *p, size_t old_size, size_t n)
{
    (void)ctx;
    (void)old_size;
    return counted_realloc(p, n);
}

static void yy_free(void *ctx, void *p)
{
    (void)ctx;
    counted_free(p);
}

static void *yy_new_state(void)
{
    yy_state *s = calloc(1, sizeof *s);
    if (s != NULL)
        s->alc = (yyjson_alc){yy_malloc, yy_realloc, yy_free, NULL};
    return s;
}

static void yy_free_doc(void *st)
{
    yy_state *s = st;
    yyjson_doc_free(s->doc);
    s->doc = NULL;
}

static void yy_free_state(void *st)
{
    yy_state *s = st;
    yy_free_doc(s);
    if (s->text != NULL)
        s->alc.free(NULL, s->text);
    free(s);
}

static bool yy_parse(void *st, const char *json, size_t len)
{
    yy_state *s = st;
    yy_free_doc(s);
    /* Without YYJSON_READ_INSITU the input is only read: the cast is safe. */
    s->doc = yyjson_read_opts((char *)(uintptr_t)json, len, 0, &s->alc, NULL);
    return s->doc != NULL;
}

/* Recursion is fine here: the bench documents nest a few levels deep. */
static void count(yyjson_val *v, dom_counts *c)
{
    size_t i, n;
    yyjson_val *key, *x;
    switch (yyjson_get_type(v)) {
    case YYJSON_TYPE_OBJ:
        c->objects++;
        yyjson_obj_foreach(v, i, n, key, x)
        {
            c->members++;
            c->string_bytes += yyjson_get_len(key);
            count(x, c);
        }
        return;
    case YYJSON_TYPE_ARR:
        c->arrays++;
        yyjson_arr_foreach(v, i, n, x)
        {
            count(x, c);
        }
        return;
    case YYJSON_TYPE_STR:
        c->strings++;
        c->string_bytes += yyjson_get_len(v);
        return;
    case YYJSON_TYPE_NUM:
        c->numbers++;
        return;
    case YYJSON_TYPE_BOOL:
        if (yyjson_is_true(v))
            c->trues++;
        else
            c->falses++;
        return;
    default:
        c->nulls++;
        return;
    }
}

static void yy_count(void *st, dom_counts *c)
{
    count(yyjson_doc_get_root(((yy_state *)st)->doc), c);
}

static size_t yy_print(void *st, const char **text)
{
    yy_state *s = st;
    if (s->text != NULL)
        s->alc.free(NULL, s->text);
    size_t len = 0;
    s->text = yyjson_write_opts(s->doc, 0, &s->alc, &len, NULL);
    if (s->text == NULL)
        return (size_t)-1;
    *text = s->text;
    return len;
}

/* ---- DOM -> structs ------------------------------------------------------ */

static bool get_string(yyjson_val *obj, const char *key, size_t key_len, atd_arena *a,
                       atd_string *out)
{
    yyjson_val *v = yyjson_obj_getn(obj, key, key_len);
    if (!yyjson_is_str(v))
        return false;
    out->len = yyjson_get_len(v);
    out->ptr = atd_arena_strdup(a, yyjson_get_str(v), out->len);
    return out->ptr != NULL;
}

#define GET_STRING(obj, key, a, out) get_string(obj, key, sizeof key - 1, a, out)

static bool to_event_type(yyjson_val *v, event_event_type *out)
{
    static const char *const names[] = {"Login", "Purchase", "Logout", "Cancel"};
    if (!yyjson_is_str(v))
        return false;
    const char *s = yyjson_get_str(v);
    size_t len = yyjson_get_len(v);
    for (int i = 0; i < 4; i++) {
        if (len == strlen(names[i]) && memcmp(s, names[i], len) == 0) {
            *out = (event_event_type)i;
            return true;
        }
    }
    return false;
}

/* yyjson keeps non-negative integers as uint64. */
static bool is_int64(yyjson_val *v)
{
    return yyjson_is_sint(v) || (yyjson_is_uint(v) && yyjson_get_uint(v) <= INT64_MAX);
}

static bool yy_to_events(void *st, atd_arena *a, event_events *out)
{
    yyjson_val *root = yyjson_doc_get_root(((yy_state *)st)->doc);
    if (!yyjson_is_arr(root))
        return false;
    out->len = yyjson_arr_size(root);
    out->items = atd_arena_alloc(a, out->len * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    size_t i, n;
    yyjson_val *o;
    yyjson_arr_foreach(root, i, n, o)
    {
        event_event *e = &out->items[i];
        yyjson_val *date = yyjson_obj_getn(o, "date", 4);
        if (!yyjson_is_obj(o) || !GET_STRING(o, "username", a, &e->username) ||
            !GET_STRING(o, "payload", a, &e->payload) || !is_int64(date) ||
            !to_event_type(yyjson_obj_getn(o, "event_type", 10), &e->event_type))
            return false;
        e->date = yyjson_get_sint(date);
    }
    return true;
}

static bool to_ingredients(yyjson_val *arr, atd_arena *a, donut_ingredient_list *out)
{
    if (!yyjson_is_arr(arr))
        return false;
    out->len = yyjson_arr_size(arr);
    out->items = atd_arena_alloc(a, out->len * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    size_t i, n;
    yyjson_val *o;
    yyjson_arr_foreach(arr, i, n, o)
    {
        if (!yyjson_is_obj(o) || !GET_STRING(o, "id", a, &out->items[i].id) ||
            !GET_STRING(o, "type", a, &out->items[i].ingredient_type))
            return false;
    }
    return true;
}

static bool yy_to_donut(void *st, atd_arena *a, donut_root *out)
{
    yyjson_val *root = yyjson_doc_get_root(((yy_state *)st)->doc);
    if (!yyjson_is_arr(root))
        return false;
    out->len = yyjson_arr_size(root);
    out->items = atd_arena_alloc(a, out->len * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    size_t i, n;
    yyjson_val *o;
    yyjson_arr_foreach(root, i, n, o)
    {
        donut_item *it = &out->items[i];
        yyjson_val *ppu = yyjson_obj_getn(o, "ppu", 3);
        yyjson_val *batters = yyjson_obj_getn(o, "batters", 7);
        if (!yyjson_is_obj(o) || !GET_STRING(o, "id", a, &it->id) ||
            !GET_STRING(o, "type", a, &it->item_type) || !GET_STRING(o, "name", a, &it->name) ||
            !yyjson_is_num(ppu) || !yyjson_is_obj(batters) ||
            !to_ingredients(yyjson_obj_getn(batters, "batter", 6), a, &it->batters.batter) ||
            !to_ingredients(yyjson_obj_getn(o, "topping", 7), a, &it->topping))
            return false;
        it->ppu = yyjson_get_num(ppu);
    }
    return true;
}

const char *bench_yyjson_version(void)
{
    return YYJSON_VERSION_STRING;
}

const generic_lib lib_yyjson = {
    "yyjson",    "hooks",  yy_new_state, yy_free_state, yy_parse,
    yy_free_doc, yy_count, yy_print,     yy_to_events,  yy_to_donut,
};
