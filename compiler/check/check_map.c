/* A string -> index map for the checker (check_map.h): open addressing
 * with linear probing, allocated once in the arena for a known number of
 * keys, so it never grows and is never freed. Keys are counted byte strings
 * because JSON names from annotations may contain NUL. Large schemas stay
 * linear instead of comparing every name with every other. */
#include "check_map.h"

#include <stdint.h>
#include <string.h>

/* FNV-1a: simple, and good enough for identifiers. */
static size_t check_map_hash(const char *key, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)key[i];
        h *= 1099511628211ull;
    }
    return (size_t)(h ^ (h >> 32));
}

bool check_map_init(check_map *m, atd_arena *a, size_t expected)
{
    size_t cap = 8;
    while (cap < expected * 2 + 2) {
        if (cap > SIZE_MAX / 4 / sizeof(check_map_slot))
            return false;
        cap *= 2;
    }
    m->slots = atd_arena_alloc(a, cap * sizeof(check_map_slot), _Alignof(check_map_slot));
    if (m->slots == NULL)
        return false;
    memset(m->slots, 0, cap * sizeof(check_map_slot));
    m->cap = cap;
    m->count = 0;
    return true;
}

/* The slot holding key, or the empty slot where it would go. */
static check_map_slot *check_map_find(const check_map *m, const char *key, size_t len)
{
    size_t i = check_map_hash(key, len) & (m->cap - 1);
    for (;;) {
        check_map_slot *s = &m->slots[i];
        if (s->key == NULL || (s->len == len && memcmp(s->key, key, len) == 0))
            return s;
        i = (i + 1) & (m->cap - 1);
    }
}

size_t check_map_get(const check_map *m, const char *key, size_t len)
{
    if (m->slots == NULL)
        return SIZE_MAX;
    const check_map_slot *s = check_map_find(m, key, len);
    return s->key != NULL ? s->value : SIZE_MAX;
}

size_t check_map_put(check_map *m, const char *key, size_t len, size_t value)
{
    if (m->slots == NULL)
        return SIZE_MAX;
    check_map_slot *s = check_map_find(m, key, len);
    if (s->key != NULL)
        return s->value;
    /* Keep at least one empty slot so that probing always stops. */
    if (m->count + 1 >= m->cap)
        return SIZE_MAX;
    s->key = key;
    s->len = len;
    s->value = value;
    m->count++;
    return value;
}

void check_map_set(check_map *m, const char *key, size_t len, size_t value)
{
    if (m->slots == NULL)
        return;
    check_map_slot *s = check_map_find(m, key, len);
    if (s->key == NULL) {
        if (m->count + 1 >= m->cap)
            return;
        s->key = key;
        s->len = len;
        m->count++;
    }
    s->value = value;
}
