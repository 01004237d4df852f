/* Diagnostics in the style of gcc/clang:
 *
 *   schemas/person.atd:7:6: error: type 'person' is defined twice
 *       7 | type person = { name: string }
 *         |      ^~~~~~
 *   schemas/person.atd:2:6: note: first definition is here
 *
 * Messages are lowercase, without a final period, with schema names in single
 * quotes. Output goes to a sink with a context pointer (stderr by default), so
 * tests and embedders can capture it. Errors are counted; after `max_errors`
 * errors, one "too many errors" line is printed and later ones are dropped.
 *
 * Between diag_defer_begin and diag_defer_end, diagnostics are held back and
 * then printed sorted by file and position (each note stays behind its
 * error), so that a stage made of several passes over the file (the checker)
 * still reports in source order. The error limit applies to the sorted
 * order: the first `max_errors` errors of the file are the ones shown. */
#ifndef ATDC_DIAG_H
#define ATDC_DIAG_H

#include <stdbool.h>
#include <stddef.h>

#include "syntax/ast.h"
#include "atd/common.h"

/* The kinds of warning, each named for -W<name> / -Wno-<name> (gcc's
 * style); the message ends with " [-W<name>]". */
typedef enum diag_warn_kind {
    DIAG_W_UNKNOWN_ANNOTATION,   /* a field of <json>, <biniou> or <c> that no rule knows */
    DIAG_W_MISPLACED_ANNOTATION, /* a known field where it has no effect */
    DIAG_W_IGNORED_ANNOTATION,   /* a known annotation that atdc does not apply */
    DIAG_W_OBSOLETE_ANNOTATION,  /* <json tag_field> */
    DIAG_W_UNUSED_IMPORT,        /* an imported type never used */
    DIAG_W_COUNT
} diag_warn_kind;

/* "unknown-annotation"... */
const char *diag_warn_name(diag_warn_kind kind);
/* The kind named `name`; false for an unknown name. */
bool diag_warn_lookup(const char *name, diag_warn_kind *out);

typedef void (*diag_sink_fn)(void *ctx, const char *text, size_t len);

/* Source text of a file, so that diagnostics can quote the line. */
typedef struct diag_source {
    const char *path;
    const char *text;
    size_t len;
} diag_source;

typedef struct diag_ctx {
    diag_sink_fn sink; /* NULL: stderr */
    void *sink_ctx;
    int errors;
    int warnings;
    int max_errors;       /* default 20 */
    diag_source *sources; /* files registered with diag_add_source */
    size_t nsources;
    size_t sources_cap;
    bool last_dropped;            /* the last error/warning was not printed: drop its notes */
    bool stopped;                 /* max_errors was reached and the "too many" line printed */
    ast_loc last_loc;             /* of the last error/warning: a note there is not quoted again */
    int limited;                  /* errors that went through the limit check */
    bool deferring;               /* between diag_defer_begin and diag_defer_end */
    struct diag_pending *pending; /* held back while deferring, in report order */
    size_t npending;
    size_t pending_cap;
    unsigned warn_disabled; /* bit (1u << kind): -Wno-<kind> */
    bool werror;            /* -Werror: warnings are reported as errors */
    bool oom;               /* diag_oom was called: the run ends with status 2 */
} diag_ctx;

void diag_init(diag_ctx *d);
void diag_free(diag_ctx *d);
/* Registers the text of `path` (not copied: must outlive d) for quoting lines. */
void diag_add_source(diag_ctx *d, const char *path, const char *text, size_t len);

/* The location of a diagnostic about no place in a schema (I/O, out of
 * memory): printed without a location prefix. */
#define DIAG_NO_LOC ((ast_loc){NULL, 0, 0, 0, 0, 0, 0})

/* loc.file == NULL prints no location prefix ("atdc: error: ..."). The caret
 * covers loc's range when it is on one line (^~~~), else a single ^. */
void diag_error(diag_ctx *d, ast_loc loc, const char *fmt, ...) ATD_PRINTF(3, 4);
void diag_warning(diag_ctx *d, ast_loc loc, const char *fmt, ...) ATD_PRINTF(3, 4);
/* A warning of a kind: dropped when disabled, an error under -Werror. */
void diag_warn(diag_ctx *d, diag_warn_kind kind, ast_loc loc, const char *fmt, ...)
    ATD_PRINTF(4, 5);
/* A note belongs to the preceding error/warning (dropped if that one was). */
void diag_note(diag_ctx *d, ast_loc loc, const char *fmt, ...) ATD_PRINTF(3, 4);

/* The compiler's one out-of-memory policy: whoever finds an allocation
 * failed calls this and returns failure. It counts an error and prints
 * "atdc: error: out of memory" once per run, at once and without allocating
 * (not held back by diag_defer_begin); the driver then exits with status 2. */
void diag_oom(diag_ctx *d);

/* Holds diagnostics back until diag_defer_end, which prints them sorted by
 * position (stable: equal positions keep their report order). Counts
 * (`errors`, `warnings`) are updated at once. Calls do not nest. */
void diag_defer_begin(diag_ctx *d);
void diag_defer_end(diag_ctx *d);

/* True once max_errors errors were reported: later stages may stop early. */
bool diag_should_stop(const diag_ctx *d);

#endif
