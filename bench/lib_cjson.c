/* cJSON (Debian libcjson-dev) as a benchmark contender: cJSON_ParseWithLength,
 * cJSON_PrintUnformatted, cJSON_Delete, and the conversion into the generated
 * event and donut structs written the way the cJSON documentation suggests
 * (cJSON_GetObjectItemCaseSensitive per field). Its allocations go through
 * cJSON_InitHooks (alloc_count.c). */
#include "harness.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

typedef struct cj_state {
    cJSON *doc;
    char *text;
} cj_state;

static void *cj_new_state(void)
{
    return calloc(1, sizeof(cj_state));
}

static void cj_free_doc(void *st)
{
    cj_state *s = st;
    cJSON_Delete(s->doc);
    s->doc = NULL;
}

static void cj_free_state(void *st)
{
    cj_state *s = st;
    cj_free_doc(s);
    cJSON_free(s->text);
    free(s);
}

static bool cj_parse(void *st, const char *json, size_t len)
{
    cj_state *s = st;
    cj_free_doc(s);
    s->doc = cJSON_ParseWithLength(json, len);
    return s->doc != NULL;
}

static void count(const cJSON *v, dom_counts *c)
{
    if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
        bool obj = cJSON_IsObject(v);
        if (obj)
            c->objects++;
        else
            c->arrays++;
        for (const cJSON *x = v->child; x != NULL; x = x->next) {
            if (obj) {
                c->members++;
                c->string_bytes += strlen(x->string);
            }
            count(x, c);
        }
    } else if (cJSON_IsString(v)) {
        c->strings++;
        c->string_bytes += strlen(v->valuestring);
    } else if (cJSON_IsNumber(v)) {
        c->numbers++;
    } else if (cJSON_IsTrue(v)) {
        c->trues++;
    } else if (cJSON_IsFalse(v)) {
        c->falses++;
    } else {
        c->nulls++;
    }
}

static void cj_count(void *st, dom_counts *c)
{
    count(((cj_state *)st)->doc, c);
}

static size_t cj_print(void *st, const char **text)
{
    cj_state *s = st;
    cJSON_free(s->text);
    s->text = cJSON_PrintUnformatted(s->doc);
    if (s->text == NULL)
        return (size_t)-1;
    *text = s->text;
    return strlen(s->text);
}

static bool get_string(const cJSON *o, const char *key, atd_arena *a, atd_string *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v))
        return false;
    out->len = strlen(v->valuestring);
    out->ptr = atd_arena_strdup(a, v->valuestring, out->len);
    return out->ptr != NULL;
}

static bool cj_to_events(void *st, atd_arena *a, event_events *out)
{
    static const char *const names[] = {"Login", "Purchase", "Logout", "Cancel"};
    const cJSON *root = ((cj_state *)st)->doc;
    if (!cJSON_IsArray(root))
        return false;
    size_t n = (size_t)cJSON_GetArraySize(root);
    out->items = atd_arena_alloc(a, n * sizeof *out->items, 8);
    out->len = n;
    if (out->items == NULL)
        return false;
    size_t i = 0;
    for (const cJSON *o = root->child; o != NULL; o = o->next, i++) {
        event_event *e = &out->items[i];
        const cJSON *date = cJSON_GetObjectItemCaseSensitive(o, "date");
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "event_type");
        if (!cJSON_IsObject(o) || !get_string(o, "username", a, &e->username) ||
            !get_string(o, "payload", a, &e->payload) || !cJSON_IsNumber(date) ||
            !cJSON_IsString(type))
            return false;
        /* cJSON keeps numbers as doubles: exact for the timestamps here. */
        e->date = (int64_t)date->valuedouble;
        int k = 0;
        while (k < 4 && strcmp(type->valuestring, names[k]) != 0)
            k++;
        if (k == 4)
            return false;
        e->event_type = (event_event_type)k;
    }
    return true;
}

static bool to_ingredients(const cJSON *arr, atd_arena *a, donut_ingredient_list *out)
{
    if (!cJSON_IsArray(arr))
        return false;
    out->len = (size_t)cJSON_GetArraySize(arr);
    out->items = atd_arena_alloc(a, out->len * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    size_t i = 0;
    for (const cJSON *o = arr->child; o != NULL; o = o->next, i++) {
        if (!cJSON_IsObject(o) || !get_string(o, "id", a, &out->items[i].id) ||
            !get_string(o, "type", a, &out->items[i].ingredient_type))
            return false;
    }
    return true;
}

static bool cj_to_donut(void *st, atd_arena *a, donut_root *out)
{
    const cJSON *root = ((cj_state *)st)->doc;
    if (!cJSON_IsArray(root))
        return false;
    out->len = (size_t)cJSON_GetArraySize(root);
    out->items = atd_arena_alloc(a, out->len * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    size_t i = 0;
    for (const cJSON *o = root->child; o != NULL; o = o->next, i++) {
        donut_item *it = &out->items[i];
        const cJSON *ppu = cJSON_GetObjectItemCaseSensitive(o, "ppu");
        const cJSON *batters = cJSON_GetObjectItemCaseSensitive(o, "batters");
        if (!cJSON_IsObject(o) || !get_string(o, "id", a, &it->id) ||
            !get_string(o, "type", a, &it->item_type) || !get_string(o, "name", a, &it->name) ||
            !cJSON_IsNumber(ppu) || !cJSON_IsObject(batters) ||
            !to_ingredients(cJSON_GetObjectItemCaseSensitive(batters, "batter"), a,
                            &it->batters.batter) ||
            !to_ingredients(cJSON_GetObjectItemCaseSensitive(o, "topping"), a, &it->topping))
            return false;
        it->ppu = ppu->valuedouble;
    }
    return true;
}

const generic_lib lib_cjson = {
    "cJSON",  "hooks",  cj_new_state, cj_free_state, cj_parse,    cj_free_doc,
    cj_count, cj_print, cj_to_events, cj_to_donut,
};
