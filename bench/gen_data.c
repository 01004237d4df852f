/* Deterministic inputs of the synthetic workloads: the event records, their
 * JSON text (as the generated writer writes it, or with ten unknown fields
 * per record), and the values of the writer micro-workloads (ints, strings
 * with escapes, an object-as-map).
 *
 * A fixed-seed xorshift generator makes every run read the same bytes, so
 * figures from two runs or two machines compare. Texts are built with the
 * runtime's writer primitives (atd_writer_*), so the escaping is the
 * runtime's and every reader must accept them. */
#include "harness.h"

#include <stdio.h>
#include <string.h>

uint64_t bench_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x;
}

static atd_string random_text(atd_arena *a, uint64_t *rng, size_t min, size_t max, bool escapes)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz      ABCDEFGHIJ0123456789.,-";
    size_t n = min + (size_t)(bench_rand(rng) % (max - min + 1));
    char *p = atd_arena_alloc(a, n + 1, 1);
    if (p == NULL)
        return (atd_string){NULL, 0};
    for (size_t i = 0; i < n; i++)
        p[i] = letters[bench_rand(rng) % (sizeof letters - 1)];
    if (escapes && n >= 4) {
        /* One of each kind of escape the writer has to produce. */
        static const char specials[] = {'"', '\\', '\n', '\t', '\x01', '/'};
        for (size_t k = 0; k < 2; k++)
            p[bench_rand(rng) % n] = specials[bench_rand(rng) % sizeof specials];
    }
    p[n] = '\0';
    return (atd_string){p, n};
}

bool gen_events(atd_arena *a, size_t n, event_events *out)
{
    uint64_t rng = 0x9e3779b97f4a7c15u;
    out->len = n;
    out->items = atd_arena_alloc(a, (n ? n : 1) * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < n; i++) {
        event_event *e = &out->items[i];
        e->username = random_text(a, &rng, 5, 14, false);
        e->date = 1600000000 + (int64_t)(bench_rand(&rng) % 100000000);
        e->event_type = (event_event_type)(bench_rand(&rng) % 4);
        /* One payload in eight has escapes, so borrowing is mostly possible. */
        e->payload = random_text(a, &rng, 20, 90, i % 8 == 3);
        if (e->username.ptr == NULL || e->payload.ptr == NULL)
            return false;
    }
    return true;
}

/* Writes one member ("key":value) of an event; `k` in 0..3. */
static bool write_event_member(atd_writer *w, const event_event *e, int k)
{
    switch (k) {
    case 0:
        return atd_writer_raw(w, "\"username\":", 11) &&
               atd_writer_string(w, e->username.ptr, e->username.len);
    case 1:
        return atd_writer_raw(w, "\"date\":", 7) && atd_writer_int64(w, e->date);
    case 2:
        return atd_writer_raw(w, "\"event_type\":", 13) && event_event_type_write(w, &e->event_type);
    default:
        return atd_writer_raw(w, "\"payload\":", 10) &&
               atd_writer_string(w, e->payload.ptr, e->payload.len);
    }
}

/* An unknown field of one of ten shapes, so that skipping meets every kind
 * of value. */
static bool write_unknown(atd_writer *w, int k, uint64_t *rng)
{
    char key[32];
    int n = snprintf(key, sizeof key, "\"extra_%d\":", k);
    if (!atd_writer_raw(w, key, (size_t)n))
        return false;
    switch (k) {
    case 0:
        return atd_writer_int64(w, (int64_t)(bench_rand(rng) % 1000000));
    case 1:
        return atd_writer_double(w, (double)(bench_rand(rng) % 100000) / 64.0 + 0.1);
    case 2:
        return atd_writer_string(w, "a short string", 14);
    case 3:
        return atd_writer_bool(w, bench_rand(rng) & 1);
    case 4:
        return atd_writer_raw(w, "null", 4);
    case 5:
        return atd_writer_raw(w, "[1,2,3,4,5,6,7,8]", 17);
    case 6:
        return atd_writer_raw(w, "{\"a\":1,\"b\":[true,\"x\"],\"c\":{\"d\":null}}", 37);
    case 7:
        return atd_writer_string(w, "escaped \"quotes\" and \\ backslash\n", 33);
    case 8:
        return atd_writer_raw(w, "-12345.678e-3", 13);
    default:
        return atd_writer_raw(w, "[]", 2);
    }
}

bool gen_events_text(const event_events *v, int variant, atd_buf *out)
{
    uint64_t rng = 0x2545f4914f6cdd1du;
    atd_writer w;
    atd_writer_init(&w, out, 0);
    if (!atd_writer_raw(&w, "[", 1))
        return false;
    for (size_t i = 0; i < v->len; i++) {
        if (!atd_writer_raw(&w, i ? ",{" : "{", i ? 2 : 1))
            return false;
        /* With unknowns, the ten extra members are spread before, between
         * and after the four known ones. */
        int extra = 0;
        for (int k = 0; k < 4; k++) {
            if (k > 0 && !atd_writer_raw(&w, ",", 1))
                return false;
            if (variant == EVENTS_UNKNOWN) {
                int here = k == 0 ? 3 : 2;
                for (int u = 0; u < here; u++, extra++) {
                    if (!write_unknown(&w, extra, &rng) || !atd_writer_raw(&w, ",", 1))
                        return false;
                }
            }
            if (!write_event_member(&w, &v->items[i], k))
                return false;
        }
        for (; variant == EVENTS_UNKNOWN && extra < 10; extra++) {
            if (!atd_writer_raw(&w, ",", 1) || !write_unknown(&w, extra, &rng))
                return false;
        }
        if (!atd_writer_raw(&w, "}", 1))
            return false;
    }
    return atd_writer_raw(&w, "]", 1) && out->status == 0;
}

bool gen_ints(atd_arena *a, size_t n, bench_ints *out)
{
    uint64_t rng = 0x853c49e6748fea9bu;
    out->len = n;
    out->items = atd_arena_alloc(a, n * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < n; i++) {
        /* Magnitudes from 1 to 19 digits, both signs. */
        uint64_t r = bench_rand(&rng);
        int64_t v = (int64_t)(r >> (r % 63));
        out->items[i] = (r & 1) ? -v : v;
    }
    return true;
}

bool gen_strings(atd_arena *a, size_t n, bench_strings *out)
{
    uint64_t rng = 0xda3e39cb94b95bdbu;
    out->len = n;
    out->items = atd_arena_alloc(a, n * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < n; i++) {
        out->items[i] = random_text(a, &rng, 6, 24, true);
        if (out->items[i].ptr == NULL)
            return false;
    }
    return true;
}

bool gen_counts(atd_arena *a, size_t n, bench_counts *out)
{
    uint64_t rng = 0x6a09e667f3bcc908u;
    out->len = n;
    out->items = atd_arena_alloc(a, n * sizeof *out->items, 8);
    if (out->items == NULL)
        return false;
    for (size_t i = 0; i < n; i++) {
        /* Distinct keys: the generic DOMs keep duplicates differently. */
        char key[40];
        int len = snprintf(key, sizeof key, "k%06zu_%llx", i,
                           (unsigned long long)(bench_rand(&rng) & 0xffff));
        out->items[i].key.ptr = atd_arena_strdup(a, key, (size_t)len);
        out->items[i].key.len = (size_t)len;
        out->items[i].value = (int64_t)(bench_rand(&rng) % 1000000);
        if (out->items[i].key.ptr == NULL)
            return false;
    }
    return true;
}
