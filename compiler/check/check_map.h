/* A string map for the checker (check_map.c). */
#ifndef ATDC_CHECK_MAP_H
#define ATDC_CHECK_MAP_H

#include <stdbool.h>
#include <stddef.h>

#include "atd/arena.h"

/* Open addressing, sized once for a known number of keys; keys are counted
 * byte strings that must outlive the map. */
typedef struct check_map_slot {
    const char *key;
    size_t len;
    size_t value;
} check_map_slot;

typedef struct check_map {
    check_map_slot *slots;
    size_t cap; /* a power of two, at least twice the expected keys */
    size_t count;
} check_map;

bool check_map_init(check_map *m, atd_arena *a, size_t expected);
/* Returns the value stored for key, or SIZE_MAX. */
size_t check_map_get(const check_map *m, const char *key, size_t len);
/* Stores key -> value unless key is present; returns the value now stored
 * (the old one when the key was there). Returns SIZE_MAX when full. */
size_t check_map_put(check_map *m, const char *key, size_t len, size_t value);
/* Stores key -> value, replacing any earlier value. */
void check_map_set(check_map *m, const char *key, size_t len, size_t value);

#endif
