/* Verification helpers of the benchmark: value counts of a parsed document
 * and checksums of the generated structs. The driver computes them for every
 * contender before timing it and refuses to time one whose figures differ
 * from the others, so that no number in the report measures a failed or
 * partial parse. */
#include "harness.h"

uint64_t dom_counts_total(const dom_counts *c)
{
    return c->objects + c->arrays + c->strings + c->numbers + c->trues + c->falses + c->nulls;
}

bool dom_counts_equal(const dom_counts *a, const dom_counts *b)
{
    return a->objects == b->objects && a->arrays == b->arrays && a->strings == b->strings &&
           a->numbers == b->numbers && a->trues == b->trues && a->falses == b->falses &&
           a->nulls == b->nulls && a->string_bytes == b->string_bytes && a->members == b->members;
}

/* Recursion is fine here: the bench documents nest a few levels deep. */
void atd_json_count(const atd_json *v, dom_counts *c)
{
    switch (v->kind) {
    case ATD_JSON_NULL:
        c->nulls++;
        return;
    case ATD_JSON_BOOL:
        if (v->u.boolean)
            c->trues++;
        else
            c->falses++;
        return;
    case ATD_JSON_INT:
    case ATD_JSON_BIGINT:
    case ATD_JSON_FLOAT:
        c->numbers++;
        return;
    case ATD_JSON_STRING:
        c->strings++;
        c->string_bytes += v->u.string.len;
        return;
    case ATD_JSON_ARRAY:
        c->arrays++;
        for (size_t i = 0; i < v->u.array.len; i++)
            atd_json_count(&v->u.array.items[i], c);
        return;
    case ATD_JSON_OBJECT:
        c->objects++;
        c->members += v->u.object.len;
        for (size_t i = 0; i < v->u.object.len; i++) {
            c->string_bytes += v->u.object.members[i].key.len;
            atd_json_count(&v->u.object.members[i].value, c);
        }
        return;
    }
}

bool dom_counts_of_text(const char *json, size_t len, dom_counts *out)
{
    *out = (dom_counts){0};
    atd_arena *a = atd_arena_new(0, NULL);
    atd_json v;
    bool ok = a != NULL && atd_json_parse(json, len, a, 0, &v, NULL) == 0;
    if (ok)
        atd_json_count(&v, out);
    atd_arena_free(a);
    return ok;
}

/* FNV-1a, with a length prefix so that ("ab","c") and ("a","bc") differ. */
uint64_t checksum_bytes(uint64_t h, const char *p, size_t n)
{
    h = (h ^ (uint64_t)n) * 1099511628211u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211u;
    return h;
}

static uint64_t mix(uint64_t h, uint64_t x)
{
    return (h ^ x) * 1099511628211u;
}

uint64_t checksum_events(const event_events *v)
{
    uint64_t h = mix(1469598103934665603u, v->len);
    for (size_t i = 0; i < v->len; i++) {
        const event_event *e = &v->items[i];
        h = checksum_bytes(h, e->username.ptr, e->username.len);
        h = mix(h, (uint64_t)e->date);
        h = mix(h, (uint64_t)e->event_type);
        h = checksum_bytes(h, e->payload.ptr, e->payload.len);
    }
    return h;
}

static uint64_t checksum_ingredients(uint64_t h, const donut_ingredient_list *l)
{
    h = mix(h, l->len);
    for (size_t i = 0; i < l->len; i++) {
        h = checksum_bytes(h, l->items[i].id.ptr, l->items[i].id.len);
        h = checksum_bytes(h, l->items[i].ingredient_type.ptr, l->items[i].ingredient_type.len);
    }
    return h;
}

uint64_t checksum_donut(const donut_root *v)
{
    uint64_t h = mix(1469598103934665603u, v->len);
    for (size_t i = 0; i < v->len; i++) {
        const donut_item *it = &v->items[i];
        h = checksum_bytes(h, it->id.ptr, it->id.len);
        h = checksum_bytes(h, it->item_type.ptr, it->item_type.len);
        h = checksum_bytes(h, it->name.ptr, it->name.len);
        /* Every parser must round the decimal text to the same double. */
        h = checksum_bytes(h, (const char *)&it->ppu, sizeof it->ppu);
        h = checksum_ingredients(h, &it->batters.batter);
        h = checksum_ingredients(h, &it->topping);
    }
    return h;
}
