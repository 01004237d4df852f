/* jansson (Debian libjansson-dev) as a benchmark contender: json_loadb,
 * json_dumps(JSON_COMPACT), json_decref, and the conversion into the
 * generated event and donut structs with json_object_get per field. Its
 * allocations go through json_set_alloc_funcs (alloc_count.c). Parsing uses
 * JSON_DECODE_ANY (the bench files have arrays at the top) and
 * JSON_ALLOW_NUL (keep "\u0000" like the other parsers). */
#include "harness.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef struct jn_state {
    json_t *doc;
    char *text;
} jn_state;

static void *jn_new_state(void)
{
    return calloc(1, sizeof(jn_state));
}

static void jn_free_doc(void *st)
{
    jn_state *s = st;
    json_decref(s->doc);
    s->doc = NULL;
}

/* json_dumps allocates with the hooks: free with them too. */
static void release_text(jn_state *s)
{
    json_malloc_t m;
    json_free_t f;
    json_get_alloc_funcs(&m, &f);
    f(s->text);
    s->text = NULL;
}

static void jn_free_state(void *st)
{
    jn_state *s = st;
    jn_free_doc(s);
    release_text(s);
    free(s);
}

static bool jn_parse(void *st, const char *json, size_t len)
{
    jn_state *s = st;
    jn_free_doc(s);
    s->doc = json_loadb(json, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    return s->doc != NULL;
}

static void count(const json_t *v, dom_counts *c)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *key;
        json_t *x;
        c->objects++;
        json_object_foreach((json_t *)v, key, x)
        {
            c->members++;
            c->string_bytes += strlen(key);
            count(x, c);
        }
        return;
    }
    case JSON_ARRAY: {
        size_t i;
        json_t *x;
        c->arrays++;
        json_array_foreach(v, i, x)
        {
            count(x, c);
        }
        return;
    }
    case JSON_STRING:
        c->strings++;
        c->string_bytes += json_string_length(v);
        return;
    case JSON_INTEGER:
    case JSON_REAL:
        c->numbers++;
        return;
    case JSON_TRUE:
        c->trues++;
        return;
    case JSON_FALSE:
        c->falses++;
        return;
    case JSON_NULL:
        c->nulls++;
        return;
    }
}

static void jn_count(void *st, dom_counts *c)
{
    count(((jn_state *)st)->doc, c);
}

static size_t jn_print(void *st, const char **text)
{
    jn_state *s = st;
    release_text(s);
    s->text = json_dumps(s->doc, JSON_COMPACT | JSON_ENCODE_ANY);
    if (s->text == NULL)
        return (size_t)-1;
    *text = s->text;
    return strlen(s->text);
}

static bool get_string(const json_t *o, const char *key, atd_arena *a, atd_string *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_string(v))
        return false;
    out->len = json_string_length(v);
    out->ptr = atd_arena_strdup(a, json_string_value(v), out->len);
    return out->ptr != NULL;
}

static bool jn_to_events(void *st, atd_arena *a, event_events *out)
{
    static const char *const names[] = {"Login", "Purchase", "Logout", "Cancel"};
    const json_t *root = ((jn_state *)st)->doc;
    if (!json_is_array(root))
        return false;
    size_t n = json_array_size(root);
    out->items = atd_arena_alloc(a, n * sizeof *out->items, 8);
    out->len = n;
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < n; i++) {
        const json_t *o = json_array_get(root, i);
        event_event *e = &out->items[i];
        const json_t *date = json_object_get(o, "date");
        const json_t *type = json_object_get(o, "event_type");
        if (!json_is_object(o) || !get_string(o, "username", a, &e->username) ||
            !get_string(o, "payload", a, &e->payload) || !json_is_integer(date) ||
            !json_is_string(type))
            return false;
        e->date = json_integer_value(date);
        const char *t = json_string_value(type);
        int k = 0;
        while (k < 4 && strcmp(t, names[k]) != 0)
            k++;
        if (k == 4)
            return false;
        e->event_type = (event_event_type)k;
    }
    return true;
}

static bool to_ingredients(const json_t *arr, atd_arena *a, donut_ingredient_list *out)
{
    if (!json_is_array(arr))
        return false;
    out->len = json_array_size(arr);
    out->items = atd_arena_alloc(a, out->len * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < out->len; i++) {
        const json_t *o = json_array_get(arr, i);
        if (!json_is_object(o) || !get_string(o, "id", a, &out->items[i].id) ||
            !get_string(o, "type", a, &out->items[i].ingredient_type))
            return false;
    }
    return true;
}

static bool jn_to_donut(void *st, atd_arena *a, donut_root *out)
{
    const json_t *root = ((jn_state *)st)->doc;
    if (!json_is_array(root))
        return false;
    out->len = json_array_size(root);
    out->items = atd_arena_alloc(a, out->len * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < out->len; i++) {
        const json_t *o = json_array_get(root, i);
        donut_item *it = &out->items[i];
        const json_t *ppu = json_object_get(o, "ppu");
        const json_t *batters = json_object_get(o, "batters");
        if (!json_is_object(o) || !get_string(o, "id", a, &it->id) ||
            !get_string(o, "type", a, &it->item_type) || !get_string(o, "name", a, &it->name) ||
            !json_is_number(ppu) || !json_is_object(batters) ||
            !to_ingredients(json_object_get(batters, "batter"), a, &it->batters.batter) ||
            !to_ingredients(json_object_get(o, "topping"), a, &it->topping))
            return false;
        it->ppu = json_number_value(ppu);
    }
    return true;
}

const generic_lib lib_jansson = {
    "jansson", "hooks",  jn_new_state, jn_free_state, jn_parse,    jn_free_doc,
    jn_count,  jn_print, jn_to_events, jn_to_donut,
};
