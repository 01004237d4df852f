/* Shared declarations of the benchmark program (bench_main.c is the driver).
 *
 * The bench compares, on the same input bytes, the readers and writers that
 * atdc generates with generic JSON parsers. Every generic parser is wrapped
 * behind one small interface (generic_lib) so that the driver treats our own
 * DOM (atd_json), cJSON, jansson, json-c and yyjson (compiled from its source
 * when the build found it) alike: parse, walk (to count the
 * values, for verification), print, free, and the hand-written conversions
 * into the generated structs that a user of a generic parser has to write
 * (event and donut only). simdjson is C++ and has its own small C interface
 * (simd.cpp), present only when libsimdjson-dev was found at build time.
 *
 * alloc_count.c counts allocations: through the libraries' allocator hooks
 * and atd_allocator, and by interposing malloc in this binary (glibc, no
 * sanitizer) for the libraries without hooks. */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include "atd.h"
#include "bench.h" /* generated from bench.atd in the build dir */
#include "donut.h"
#include "event.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- verification: what a generic parse found ----------------------------
 * Counted the same way by every walker, so that two parsers that read the
 * same document agree exactly. Numbers are counted, not summed: cJSON keeps
 * every number as a double and would differ on ints above 2^53. */
typedef struct dom_counts {
    uint64_t objects, arrays, strings, numbers, trues, falses, nulls;
    uint64_t string_bytes; /* decoded bytes of string values and keys */
    uint64_t members;      /* object members */
} dom_counts;

uint64_t dom_counts_total(const dom_counts *c);
bool dom_counts_equal(const dom_counts *a, const dom_counts *b);
/* Counts the values of a JSON text with our own DOM (the reference). */
bool dom_counts_of_text(const char *json, size_t len, dom_counts *out);
void atd_json_count(const atd_json *v, dom_counts *c);

/* ---- typed checksums (same for every path that fills the structs) -------- */
uint64_t checksum_bytes(uint64_t h, const char *p, size_t n);
uint64_t checksum_events(const event_events *v);
uint64_t checksum_donut(const donut_root *v);

/* ---- the generic parsers ------------------------------------------------- */
typedef struct generic_lib {
    const char *name;
    /* Allocation counts of this library come from: "hooks", "interposed"
     * (malloc interposition) or NULL (not measurable in this build). */
    const char *alloc_source;
    void *(*new_state)(void);
    void (*free_state)(void *st);
    /* Parses a document into the state (replacing the previous one). */
    bool (*parse)(void *st, const char *json, size_t len);
    /* Frees the parsed document (our DOM: resets its arena). */
    void (*free_doc)(void *st);
    void (*count)(void *st, dom_counts *c);
    /* Prints the parsed document compactly; returns the text length, or
     * (size_t)-1 on failure. The text stays in the state until the next print. */
    size_t (*print)(void *st, const char **text);
    /* Converts the parsed document into the generated structs (strings are
     * copied into `arena`, as the DOM is freed afterwards). */
    bool (*to_events)(void *st, atd_arena *arena, event_events *out);
    bool (*to_donut)(void *st, atd_arena *arena, donut_root *out);
} generic_lib;

extern const generic_lib lib_atd, lib_cjson, lib_jansson, lib_jsonc;
#ifdef BENCH_HAVE_YYJSON
extern const generic_lib lib_yyjson;
const char *bench_yyjson_version(void);
#endif

/* struct -> our DOM -> text: what writing through a generic value costs. */
bool events_to_atd_json(const event_events *v, atd_arena *arena, atd_json *out);
bool donut_to_atd_json(const donut_root *v, atd_arena *arena, atd_json *out);

/* ---- simdjson (simd.cpp) ------------------------------------------------- */
#ifdef BENCH_HAVE_SIMDJSON
void *simd_new(const char *json, size_t len); /* copies into a padded buffer */
void simd_free(void *s);
/* DOM parse (the parser is reused, as simdjson intends). */
bool simd_dom_parse(void *s);
void simd_dom_count(void *s, dom_counts *c); /* of the last DOM parse */
/* On-Demand: iterates the whole document, touching every value. */
bool simd_ondemand_walk(void *s, dom_counts *c);
/* simdjson::minify (the DOM serializer) of the last DOM parse; returns the
 * length of the compact text, kept in the state until the next call. */
size_t simd_minify(void *s, const char **out);
/* A new parser (and padded copy) for one document, for allocation counts. */
bool simd_fresh_dom_parse(const char *json, size_t len);
bool simd_fresh_ondemand_walk(const char *json, size_t len);
const char *simd_version(void);
#endif

/* ---- synthetic inputs (gen_data.c) -------------------------------------- */

/* The next value of a xorshift64 generator with state *s (not 0): the
 * fixed-seed randomness of every synthetic input and variant. */
uint64_t bench_rand(uint64_t *s);
enum { EVENTS_PLAIN, EVENTS_UNKNOWN };
bool gen_events(atd_arena *a, size_t n, event_events *out);
/* The JSON text of the events: keys in schema order (EVENTS_PLAIN), or with
 * ten unknown fields per record. */
bool gen_events_text(const event_events *v, int variant, atd_buf *out);
bool gen_ints(atd_arena *a, size_t n, bench_ints *out);
bool gen_strings(atd_arena *a, size_t n, bench_strings *out);
bool gen_counts(atd_arena *a, size_t n, bench_counts *out);

/* ---- variants of a document (variants.c) -------------------------------- */
typedef enum doc_variant {
    VARIANT_SORTED,   /* every object's keys sorted (bytewise) */
    VARIANT_REVERSED, /* every object's keys in the reverse of their order */
    VARIANT_HASHED,   /* every object's keys in the order of a hash of their names */
    VARIANT_SHUFFLED, /* every object's keys in a random order (fixed seed) */
    VARIANT_ESCAPED,  /* `/` as `\/`, non-ASCII as `\uXXXX` in every string */
    VARIANT_PRETTY,   /* 2-space indentation, one member or item per line */
    VARIANT_COUNT
} doc_variant;
extern const char *const VARIANT_NAMES[VARIANT_COUNT]; /* "sorted", ... */
/* Whether variant v reorders objects' keys (and so the entries of maps
 * read from objects). */
bool variant_reorders_keys(doc_variant v);
/* Appends the variant of the valid JSON text [json, json + len) to out;
 * false when the text is not what it expects or memory runs out. */
bool variant_text(const char *json, size_t len, doc_variant variant, atd_buf *out);

/* ---- allocation counting (alloc_count.c) -------------------------------- */
typedef struct alloc_stats {
    uint64_t calls; /* malloc, calloc, realloc, aligned allocations */
    uint64_t bytes; /* usable bytes of those blocks */
    int64_t live;   /* bytes currently held (since counting began) */
    int64_t peak;   /* high-water mark of live */
} alloc_stats;

/* Whether malloc interposition is compiled in (glibc, no sanitizer). */
bool alloc_interposed(void);
/* Starts counting from zero; stop returns what happened in between. */
void alloc_count_begin(void);
alloc_stats alloc_count_end(void);
/* Counting allocator for atd arenas and buffers. */
extern const atd_allocator counting_allocator;
/* The counted malloc, realloc and free behind the hooks (yyjson's allocator). */
void *counted_malloc(size_t n);
void *counted_realloc(void *p, size_t n);
void counted_free(void *p);
/* Installs the counting hooks into cJSON and jansson. */
void alloc_install_library_hooks(void);

#ifdef __cplusplus
}
#endif
#endif
