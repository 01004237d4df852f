/* The benchmark program's own interfaces (harness.h is the contenders' side:
 * generic parsers, verification, data, allocation counting).
 *
 * One file per concern:
 *   workloads.c    what is read and written: the schema of each workload, its
 *                  input text, its typed value and reference figures; the
 *                  list of workloads run (bench_workloads);
 *   contenders.c   who reads and writes it: one row per contender in a table
 *                  (CONTENDERS), each row naming its kind (how to set up, run
 *                  once, verify, count allocations, tear down);
 *   timing.c       how it is timed: calibration, interleaved rounds,
 *                  same-round ratios, the loop callgrind counts;
 *   report.c       what is printed: the markdown table, the CSV, the
 *                  machine line and the targets;
 *   bench_main.c   options and the order of the run. */
#ifndef BENCH_DRIVER_H
#define BENCH_DRIVER_H

#include "harness.h"

#include <stdio.h>

/* ---- options (bench_main.c) ---------------------------------------------- */
extern bool quick_mode;     /* --quick: one short round, figures meaningless */
extern int rounds;          /* --rounds */
extern const char *only_id; /* --only: one contender, only_iters times */
extern long only_iters;     /* --iters */
extern int exit_status;     /* 1 once anything failed */

/* ---- workloads (workloads.c) ---------------------------------------------- */

/* What the driver needs of a generated schema's root type. */
typedef enum conv_kind { CONV_NONE, CONV_EVENTS, CONV_DONUT } conv_kind;

/* The biniou code of the same schema (a copy generated with atdc --biniou
 * under the prefix bin_, its own C types): JSON reader to get a value,
 * biniou reader and writer. */
typedef struct bin_ops {
    size_t size;
    int (*from_json)(const char *json, size_t len, atd_arena *a, void *out);
    int (*to_json)(const void *v, atd_buf *b);
    int (*from_biniou)(const char *data, size_t len, atd_arena *a, void *out);
    int (*to_biniou)(const void *v, atd_buf *b);
} bin_ops;

/* A schema written for a few fields of the same document, as users write
 * for the part of a document they need: its reader skips every other
 * member. check tells whether the part read agrees with the whole value. */
typedef struct partial_ops {
    size_t size;
    bool (*read)(atd_reader *r, void *out);
    bool (*check)(const void *whole, const void *part);
} partial_ops;

typedef struct schema_ops {
    size_t size;
    bool (*read)(atd_reader *r, void *out);
    bool (*write)(atd_writer *w, const void *v);
    /* Which hand-written conversions from a generic DOM exist (event, donut). */
    conv_kind conv;
    const bin_ops *bin;         /* NULL: no biniou contenders */
    const partial_ops *partial; /* NULL: no gen.read.partial */
} schema_ops;

typedef struct workload {
    char name[48];
    const schema_ops *ops;
    const char *input; /* the text the readers read */
    size_t input_len;
    atd_arena *value_arena; /* the typed value the writers write */
    void *value;
    atd_buf out; /* the generated writer's text of `value` */
    /* Variants that reorder keys (variant_reorders_keys) also reorder the
     * entries of maps read from objects (`<json repr="object">`): a value
     * read from them writes `out` with every object's keys sorted, this text
     * (NULL for the other workloads). */
    const atd_buf *out_sorted;
    dom_counts input_counts, out_counts;
    uint64_t typed_checksum; /* event / donut */
    long min_iters;          /* donut: enough documents in total */
    bool typed_roundtrip_exact;
} workload;

/* w's input read into value by `read` (w->ops->read, or its partial
 * schema's), then the end of the input. */
bool gen_read_into(const workload *w, bool (*read)(atd_reader *r, void *out), atd_arena *arena,
                   unsigned flags, void *value);
bool gen_write(const schema_ops *ops, const void *value, atd_buf *b);
uint64_t typed_checksum(const workload *w, const void *value);
/* Runs every workload whose name passes `filter` (NULL: all). */
void bench_workloads(const char *data_dir, const char *filter);
/* Arena chunks of one document read with a fresh arena, growing documents. */
void allocation_growth(void);

/* ---- contenders (contenders.c) -------------------------------------------- */

/* Which groups of contenders a workload runs. */
enum {
    GROUP_READ = 1,  /* readers of w->input */
    GROUP_WRITE = 2, /* writers of w->value (or of its text) */
    GROUP_SINK = 4,  /* the generated writer through bounded sinks */
    /* the few readers timed on the variants of an input (variants.c): the
     * generated reader, yyjson and simdjson's DOM */
    GROUP_VARIANT = 8
};

typedef struct contender contender;

/* How one kind of contender works; every function but run may be NULL. */
typedef struct contender_kind {
    bool writer;
    /* Allocates the state; false with c->error set when impossible. */
    bool (*setup)(contender *c);
    /* One iteration; its result stays in the state for checking. */
    bool (*run)(contender *c);
    /* After one run: is the result the workload's reference? (fail() says why.) */
    bool (*check)(contender *c);
    /* One document from nothing, between alloc_count_begin/end (the "fresh"
     * allocation figures); NULL: the loop figure is the figure. */
    bool (*fresh)(contender *c);
    void (*teardown)(contender *c);
    /* Allocations are measurable for this kind in this build. */
    bool (*alloc_measurable)(const contender *c);
} contender_kind;

struct contender {
    char id[40];
    const contender_kind *kind;
    const generic_lib *lib;
    workload *w;
    bool baseline; /* gen.read / gen.write: what the ratios divide by */
    /* state */
    void *lib_state;
    atd_arena *arena;
    void *value;
    atd_buf buf;
    FILE *file;
    void *simd;
    atd_buf bin; /* biniou contenders: the biniou bytes of the workload's value */
    char *copy;
    dom_counts counts; /* filled by the walkers of simdjson On-Demand */
    /* results */
    size_t bytes; /* per iteration, for MB/s */
    long iters;
    double best;
    double *times; /* per round */
    alloc_stats loop_alloc, fresh_alloc;
    bool alloc_known, fresh_known;
    char error[120];
};

#define MAX_CONTENDERS 32

/* Fills cs with the contenders of w in the given groups; returns how many. */
size_t contenders_for(workload *w, unsigned groups, contender *cs, size_t cap);
bool contender_setup(contender *c);
bool contender_run(contender *c);
/* Runs once and checks the result against the workload's reference. */
bool contender_verify(contender *c);
void contender_measure_allocations(contender *c);
void contender_teardown(contender *c);
bool fail(contender *c, const char *why);

/* ---- timing (timing.c) ---------------------------------------------------- */

/* The loop callgrind counts (--toggle-collect=measured_loop). */
long measured_loop(contender *c, long iters);
/* Runs the contenders of `groups` on w, interleaved, and reports them. */
void run_workload(workload *w, unsigned groups);
/* Median over rounds of t(c) / t(base) measured in the same round. */
double median_ratio(const contender *c, const contender *base);

/* ---- report (report.c) ---------------------------------------------------- */

/* Opens the CSV (NULL: none); false when it cannot be written. */
bool report_open_csv(const char *path);
void report_close_csv(void);
void report_begin(void);
/* One row per contender of a timed workload. */
void report_workload(const workload *w, contender *cs, size_t n);
void report_note(const char *workload_name, const char *text);
void report_setup_failed(const char *workload_name);
void report_targets(void);

#endif
