/* json-c (Debian libjson-c-dev) as a benchmark contender: json_tokener_parse_ex
 * on the exact length with one tokener reused across documents (reset each
 * time), json_object_to_json_string_ext(PLAIN | NOSLASHESCAPE), json_object_put,
 * and the conversion into the generated event and donut structs with
 * json_object_object_get_ex per field. json-c has no allocator hooks: its
 * allocations are counted by malloc interposition when the build has it. */
#include "harness.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

typedef struct jc_state {
    json_tokener *tok;
    json_object *doc;
} jc_state;

static void *jc_new_state(void)
{
    jc_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    /* A deeper limit than the default 32, to be safe with any bench file. */
    s->tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH * 8);
    if (s->tok == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

static void jc_free_doc(void *st)
{
    jc_state *s = st;
    json_object_put(s->doc);
    s->doc = NULL;
}

static void jc_free_state(void *st)
{
    jc_state *s = st;
    jc_free_doc(s);
    json_tokener_free(s->tok);
    free(s);
}

static bool jc_parse(void *st, const char *json, size_t len)
{
    jc_state *s = st;
    jc_free_doc(s);
    json_tokener_reset(s->tok);
    s->doc = json_tokener_parse_ex(s->tok, json, (int)len);
    if (json_tokener_get_error(s->tok) != json_tokener_success) {
        jc_free_doc(s);
        return false;
    }
    /* A bare null parses to NULL; the bench documents are never null. */
    return s->doc != NULL;
}

static void count(json_object *v, dom_counts *c)
{
    switch (json_object_get_type(v)) {
    case json_type_object: {
        c->objects++;
        /* The walk json_object_object_foreach does, over the public lh_table. */
        for (struct lh_entry *e = json_object_get_object(v)->head; e != NULL; e = e->next) {
            c->members++;
            c->string_bytes += strlen((const char *)lh_entry_k(e));
            count((json_object *)lh_entry_v(e), c);
        }
        return;
    }
    case json_type_array: {
        c->arrays++;
        size_t n = json_object_array_length(v);
        for (size_t i = 0; i < n; i++)
            count(json_object_array_get_idx(v, i), c);
        return;
    }
    case json_type_string:
        c->strings++;
        c->string_bytes += (uint64_t)json_object_get_string_len(v);
        return;
    case json_type_int:
    case json_type_double:
        c->numbers++;
        return;
    case json_type_boolean:
        if (json_object_get_boolean(v))
            c->trues++;
        else
            c->falses++;
        return;
    case json_type_null:
        c->nulls++;
        return;
    }
}

static void jc_count(void *st, dom_counts *c)
{
    count(((jc_state *)st)->doc, c);
}

static size_t jc_print(void *st, const char **text)
{
    jc_state *s = st;
    size_t len = 0;
    const char *t = json_object_to_json_string_length(
        s->doc, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    if (t == NULL)
        return (size_t)-1;
    *text = t;
    return len;
}

static bool get_string(json_object *o, const char *key, atd_arena *a, atd_string *out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return false;
    out->len = (size_t)json_object_get_string_len(v);
    out->ptr = atd_arena_strdup(a, json_object_get_string(v), out->len);
    return out->ptr != NULL;
}

static bool jc_to_events(void *st, atd_arena *a, event_events *out)
{
    static const char *const names[] = {"Login", "Purchase", "Logout", "Cancel"};
    json_object *root = ((jc_state *)st)->doc;
    if (!json_object_is_type(root, json_type_array))
        return false;
    size_t n = json_object_array_length(root);
    out->items = atd_arena_alloc(a, n * sizeof *out->items, 8);
    out->len = n;
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < n; i++) {
        json_object *o = json_object_array_get_idx(root, i), *date, *type;
        event_event *e = &out->items[i];
        if (!json_object_is_type(o, json_type_object) ||
            !get_string(o, "username", a, &e->username) ||
            !get_string(o, "payload", a, &e->payload) ||
            !json_object_object_get_ex(o, "date", &date) ||
            !json_object_is_type(date, json_type_int) ||
            !json_object_object_get_ex(o, "event_type", &type) ||
            !json_object_is_type(type, json_type_string))
            return false;
        e->date = json_object_get_int64(date);
        const char *t = json_object_get_string(type);
        int k = 0;
        while (k < 4 && strcmp(t, names[k]) != 0)
            k++;
        if (k == 4)
            return false;
        e->event_type = (event_event_type)k;
    }
    return true;
}

static bool to_ingredients(json_object *arr, atd_arena *a, donut_ingredient_list *out)
{
    if (!json_object_is_type(arr, json_type_array))
        return false;
    out->len = json_object_array_length(arr);
    out->items = atd_arena_alloc(a, out->len * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < out->len; i++) {
        json_object *o = json_object_array_get_idx(arr, i);
        if (!json_object_is_type(o, json_type_object) ||
            !get_string(o, "id", a, &out->items[i].id) ||
            !get_string(o, "type", a, &out->items[i].ingredient_type))
            return false;
    }
    return true;
}

static bool jc_to_donut(void *st, atd_arena *a, donut_root *out)
{
    json_object *root = ((jc_state *)st)->doc;
    if (!json_object_is_type(root, json_type_array))
        return false;
    out->len = json_object_array_length(root);
    out->items = atd_arena_alloc(a, out->len * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < out->len; i++) {
        json_object *o = json_object_array_get_idx(root, i), *ppu, *batters, *batter, *topping;
        donut_item *it = &out->items[i];
        if (!json_object_is_type(o, json_type_object) || !get_string(o, "id", a, &it->id) ||
            !get_string(o, "type", a, &it->item_type) || !get_string(o, "name", a, &it->name) ||
            !json_object_object_get_ex(o, "ppu", &ppu) ||
            !(json_object_is_type(ppu, json_type_double) ||
              json_object_is_type(ppu, json_type_int)) ||
            !json_object_object_get_ex(o, "batters", &batters) ||
            !json_object_object_get_ex(batters, "batter", &batter) ||
            !json_object_object_get_ex(o, "topping", &topping) ||
            !to_ingredients(batter, a, &it->batters.batter) ||
            !to_ingredients(topping, a, &it->topping))
            return false;
        it->ppu = json_object_get_double(ppu);
    }
    return true;
}

const generic_lib lib_jsonc = {
    "json-c", "interposed", jc_new_state, jc_free_state, jc_parse,    jc_free_doc,
    jc_count, jc_print,     jc_to_events, jc_to_donut,
};
