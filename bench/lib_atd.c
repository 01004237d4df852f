/* Our runtime's generic DOM (atd_json) as a benchmark contender, and the
 * hand-written conversions a user of it would write: DOM -> generated structs
 * for event and donut, and structs -> DOM for writing through the DOM.
 *
 * The DOM lives in an arena that is reset between documents (and allocates
 * through the counting allocator); its strings are copied, like the other
 * generic parsers'. The conversion copies strings again into the target arena,
 * because a user would free the DOM after converting. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

typedef struct atd_state {
    atd_arena *arena;
    atd_json value;
    atd_buf out;
} atd_state;

static void *atd_new_state(void)
{
    atd_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->arena = atd_arena_new(0, &counting_allocator);
    atd_buf_init_with(&s->out, &counting_allocator);
    if (s->arena == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

static void atd_free_state(void *st)
{
    atd_state *s = st;
    atd_arena_free(s->arena);
    atd_buf_free(&s->out);
    free(s);
}

static bool atd_parse(void *st, const char *json, size_t len)
{
    atd_state *s = st;
    atd_arena_reset(s->arena);
    return atd_json_parse(json, len, s->arena, 0, &s->value, NULL) == 0;
}

static void atd_free_doc(void *st)
{
    atd_state *s = st;
    atd_arena_reset(s->arena);
    s->value.kind = ATD_JSON_NULL;
}

static void atd_count(void *st, dom_counts *c)
{
    atd_json_count(&((atd_state *)st)->value, c);
}

static size_t atd_print(void *st, const char **text)
{
    atd_state *s = st;
    atd_buf_clear(&s->out);
    if (atd_json_write(&s->value, &s->out, NULL) != 0)
        return (size_t)-1;
    *text = s->out.data;
    return s->out.len;
}

/* ---- DOM -> structs ------------------------------------------------------ */

static bool get_string(const atd_json *obj, const char *key, atd_arena *a, atd_string *out)
{
    const atd_json *v = atd_json_get(obj, key, strlen(key));
    if (v == NULL || v->kind != ATD_JSON_STRING)
        return false;
    out->ptr = atd_arena_strdup(a, v->u.string.ptr, v->u.string.len);
    out->len = v->u.string.len;
    return out->ptr != NULL;
}

static bool to_event_type(const atd_string *s, event_event_type *out)
{
    static const char *const names[] = {"Login", "Purchase", "Logout", "Cancel"};
    for (int i = 0; i < 4; i++) {
        if (s->len == strlen(names[i]) && memcmp(s->ptr, names[i], s->len) == 0) {
            *out = (event_event_type)i;
            return true;
        }
    }
    return false;
}

static bool atd_to_events(void *st, atd_arena *a, event_events *out)
{
    const atd_json *root = &((atd_state *)st)->value;
    if (root->kind != ATD_JSON_ARRAY)
        return false;
    size_t n = root->u.array.len;
    out->items = atd_arena_alloc(a, n * sizeof *out->items, 8);
    out->len = n;
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < n; i++) {
        const atd_json *o = &root->u.array.items[i];
        event_event *e = &out->items[i];
        if (o->kind != ATD_JSON_OBJECT || !get_string(o, "username", a, &e->username) ||
            !get_string(o, "payload", a, &e->payload))
            return false;
        const atd_json *date = atd_json_get(o, "date", 4);
        const atd_json *type = atd_json_get(o, "event_type", 10);
        if (date == NULL || date->kind != ATD_JSON_INT || type == NULL ||
            type->kind != ATD_JSON_STRING || !to_event_type(&type->u.string, &e->event_type))
            return false;
        e->date = date->u.integer;
    }
    return true;
}

static bool to_ingredients(const atd_json *arr, atd_arena *a, donut_ingredient_list *out)
{
    if (arr == NULL || arr->kind != ATD_JSON_ARRAY)
        return false;
    out->len = arr->u.array.len;
    out->items = atd_arena_alloc(a, out->len * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < out->len; i++) {
        const atd_json *o = &arr->u.array.items[i];
        if (o->kind != ATD_JSON_OBJECT || !get_string(o, "id", a, &out->items[i].id) ||
            !get_string(o, "type", a, &out->items[i].ingredient_type))
            return false;
    }
    return true;
}

static bool atd_to_donut(void *st, atd_arena *a, donut_root *out)
{
    const atd_json *root = &((atd_state *)st)->value;
    if (root->kind != ATD_JSON_ARRAY)
        return false;
    out->len = root->u.array.len;
    out->items = atd_arena_alloc(a, out->len * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < out->len; i++) {
        const atd_json *o = &root->u.array.items[i];
        donut_item *it = &out->items[i];
        if (o->kind != ATD_JSON_OBJECT || !get_string(o, "id", a, &it->id) ||
            !get_string(o, "type", a, &it->item_type) || !get_string(o, "name", a, &it->name))
            return false;
        const atd_json *ppu = atd_json_get(o, "ppu", 3);
        if (ppu == NULL)
            return false;
        if (ppu->kind == ATD_JSON_FLOAT)
            it->ppu = ppu->u.number;
        else if (ppu->kind == ATD_JSON_INT)
            it->ppu = (double)ppu->u.integer;
        else
            return false;
        const atd_json *batters = atd_json_get(o, "batters", 7);
        if (batters == NULL || batters->kind != ATD_JSON_OBJECT ||
            !to_ingredients(atd_json_get(batters, "batter", 6), a, &it->batters.batter) ||
            !to_ingredients(atd_json_get(o, "topping", 7), a, &it->topping))
            return false;
    }
    return true;
}

const generic_lib lib_atd = {
    "atd_json",    "hooks",   atd_new_state, atd_free_state, atd_parse,    atd_free_doc,
    atd_count,     atd_print, atd_to_events, atd_to_donut,
};

/* ---- structs -> DOM ------------------------------------------------------ */
/* Strings are borrowed from the structs: the DOM is written and dropped
 * before the structs change. */

static atd_json json_string(atd_string s)
{
    atd_json v = {ATD_JSON_STRING, {0}};
    v.u.string = s;
    return v;
}

static atd_json_member *new_object(atd_json *v, size_t n, atd_arena *a)
{
    v->kind = ATD_JSON_OBJECT;
    v->u.object.len = n;
    v->u.object.members = atd_arena_alloc(a, n * sizeof(atd_json_member), 8);
    return v->u.object.members;
}

static atd_json *new_array(atd_json *v, size_t n, atd_arena *a)
{
    v->kind = ATD_JSON_ARRAY;
    v->u.array.len = n;
    v->u.array.items = atd_arena_alloc(a, (n ? n : 1) * sizeof(atd_json), 8);
    return v->u.array.items;
}

#define KEY(s) ((atd_string){s, sizeof s - 1})

bool events_to_atd_json(const event_events *v, atd_arena *a, atd_json *out)
{
    static const char *const names[] = {"Login", "Purchase", "Logout", "Cancel"};
    atd_json *items = new_array(out, v->len, a);
    if (items == NULL)
        return false;
    for (size_t i = 0; i < v->len; i++) {
        const event_event *e = &v->items[i];
        atd_json_member *m = new_object(&items[i], 4, a);
        if (m == NULL || (unsigned)e->event_type > 3)
            return false;
        m[0].key = KEY("username");
        m[0].value = json_string(e->username);
        m[1].key = KEY("date");
        m[1].value.kind = ATD_JSON_INT;
        m[1].value.u.integer = e->date;
        m[2].key = KEY("event_type");
        const char *t = names[e->event_type];
        m[2].value = json_string((atd_string){t, strlen(t)});
        m[3].key = KEY("payload");
        m[3].value = json_string(e->payload);
    }
    return true;
}

static bool ingredients_to_json(const donut_ingredient_list *l, atd_arena *a, atd_json *out)
{
    atd_json *items = new_array(out, l->len, a);
    if (items == NULL)
        return false;
    for (size_t i = 0; i < l->len; i++) {
        atd_json_member *m = new_object(&items[i], 2, a);
        if (m == NULL)
            return false;
        m[0].key = KEY("id");
        m[0].value = json_string(l->items[i].id);
        m[1].key = KEY("type");
        m[1].value = json_string(l->items[i].ingredient_type);
    }
    return true;
}

bool donut_to_atd_json(const donut_root *v, atd_arena *a, atd_json *out)
{
    atd_json *items = new_array(out, v->len, a);
    if (items == NULL)
        return false;
    for (size_t i = 0; i < v->len; i++) {
        const donut_item *it = &v->items[i];
        atd_json_member *m = new_object(&items[i], 6, a);
        if (m == NULL)
            return false;
        m[0].key = KEY("id");
        m[0].value = json_string(it->id);
        m[1].key = KEY("type");
        m[1].value = json_string(it->item_type);
        m[2].key = KEY("name");
        m[2].value = json_string(it->name);
        m[3].key = KEY("ppu");
        m[3].value.kind = ATD_JSON_FLOAT;
        m[3].value.u.number = it->ppu;
        m[4].key = KEY("batters");
        atd_json_member *b = new_object(&m[4].value, 1, a);
        if (b == NULL)
            return false;
        b[0].key = KEY("batter");
        m[5].key = KEY("topping");
        if (!ingredients_to_json(&it->batters.batter, a, &b[0].value) ||
            !ingredients_to_json(&it->topping, a, &m[5].value))
            return false;
    }
    return true;
}
