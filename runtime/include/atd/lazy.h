/* The lazy format (docs/lazy-format.md): a file of typed data that opens
 * without decoding and decodes only what a query touches. Values are
 * biniou (atd/biniou.h) except in three places the schema marks:
 *   <c lazy>   the value is stored out of line, in place a reference
 *              (atd_lazy) that `fetch` decodes on demand;
 *   <c shared> equal strings are stored once, in a strings section;
 *   <c index>  a (string * T) list <json repr="object"> is stored sorted,
 *              with a table of entry offsets for binary search (atd_lazy_index).
 * These are the primitives generated code (atdc --lazy) is made of.
 *
 * Reading never copies: strings point into the file's bytes (they are not
 * NUL-terminated), so the bytes must outlive every value read from them.
 * Every offset and length read from the file is checked against the section
 * it must lie in before use: a truncated or corrupt file is an error with
 * its byte offset and path, never an out-of-bounds read.
 *
 * Thread-safety: an opened atd_lazy_db is never written after open, so any
 * number of threads may fetch and find at the same time, each with its own
 * arena and error record. Open and close are not concurrent with anything
 * on the same db. A writer belongs to one thread. */
#ifndef ATD_LAZY_H
#define ATD_LAZY_H

#include "biniou.h"
#include "buf.h"
#include "common.h"
#include "error.h"
#include "reader.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Format constants. */
#define ATD_LAZY_VERSION 1u
#define ATD_LAZY_HEADER_SIZE 32u
#define ATD_LAZY_TRAILER_SIZE 48u
/* The tags biniou does not have (it stops at 26). */
enum {
    ATD_LAZY_TAG_REF = 48,    /* uvint offset, uvint length of an out-of-line value */
    ATD_LAZY_TAG_SHARED = 49, /* uvint index in the strings section */
    ATD_LAZY_TAG_INDEX = 50   /* uvint offset of the entry table, uvint count */
};
/* How deep lazy values (and index entries) may nest in a written value. */
#define ATD_LAZY_MAX_NEST 16

/* A reference to a value stored out of line (checked to lie in the data
 * section when it was read). */
typedef struct atd_lazy {
    uint64_t off;
    uint64_t len;
} atd_lazy;

/* An indexed map: `count` entries, sorted by key, whose offsets are the
 * 8-byte words at `table` (checked to lie in the data section). */
typedef struct atd_lazy_index {
    uint64_t table;
    uint64_t count;
} atd_lazy_index;

/* An opened file. All fields are read-only after open. */
typedef struct atd_lazy_db {
    const char *data; /* the whole file */
    size_t len;
    uint64_t fingerprint;
    uint64_t data_end;      /* lazy values and index tables lie in [HEADER_SIZE, data_end) */
    uint64_t strings_table; /* strings_count 8-byte offsets; the strings lie before it */
    uint64_t strings_count;
    uint64_t root_off; /* the root value */
    uint64_t root_len;
    void *map; /* the mapping made by atd_lazy_open_file, else NULL */
    size_t map_len;
} atd_lazy_db;

/* ------------------------------------------------------------------ */
/* Opening                                                             */
/* ------------------------------------------------------------------ */

/* Checks the header (magic, version, fingerprint) and the trailer of the
 * `len` bytes at `data` (the caller's; kept, not copied). Returns 0 or an
 * error code (ATD_ERR_SYNTAX: not this format or corrupt; ATD_ERR_TYPE:
 * written for another schema, the fingerprints differ). */
int atd_lazy_open_buffer(atd_lazy_db *db, const char *data, size_t len, uint64_t fingerprint,
                         atd_error *err);
/* Maps the file read-only, then as atd_lazy_open_buffer (ATD_ERR_IO when it
 * cannot be opened or mapped). */
int atd_lazy_open_file(atd_lazy_db *db, const char *path, uint64_t fingerprint, atd_error *err);
/* Unmaps a file opened by atd_lazy_open_file; nothing for a buffer. Values
 * read from the db must not be used after. */
void atd_lazy_close(atd_lazy_db *db);

/* ------------------------------------------------------------------ */
/* Reading (generated code)                                            */
/* ------------------------------------------------------------------ */

/* A biniou reader over [off, off + len) of the file, offsets in errors
 * counted from the file's start, strings borrowed from the file. */
void atd_lazy_reader(const atd_lazy_db *db, atd_reader *r, uint64_t off, uint64_t len,
                     atd_arena *arena);
/* A reader over the root value. */
void atd_lazy_root_reader(const atd_lazy_db *db, atd_reader *r, atd_arena *arena);
/* A reader over the value `ref` refers to, after checking it lies in the
 * data section (false, with the error in r, if not). */
bool atd_lazy_fetch_reader(const atd_lazy_db *db, atd_reader *r, const atd_lazy *ref,
                           atd_arena *arena);
/* After a tagged composite's tag byte: ATD_ERR_TYPE unless it is `want`. */
bool atd_lazy_check_tag(atd_reader *r, uint8_t tag, unsigned want);

/* Tagged references: read the tag and the body, check the bounds. */
bool atd_lazy_read_ref(atd_reader *r, const atd_lazy_db *db, atd_lazy *out);
bool atd_lazy_read_shared(atd_reader *r, const atd_lazy_db *db, atd_string *out);
bool atd_lazy_read_index(atd_reader *r, const atd_lazy_db *db, atd_lazy_index *out);
/* The body of an index (its tag read already). */
bool atd_lazy_read_index_body(atd_reader *r, const atd_lazy_db *db, atd_lazy_index *out);

/* Binary search of `key` in the map: on success *found tells whether it is
 * there, and if so r reads the entry's value (a tagged value). Returns
 * false on a corrupt entry (error in r). */
bool atd_lazy_index_seek(const atd_lazy_db *db, const atd_lazy_index *map, const char *key,
                         size_t len, atd_reader *r, bool *found);
/* Positions r on entry i (< map->count): reads its key; r then reads its value. */
bool atd_lazy_index_entry(const atd_lazy_db *db, const atd_lazy_index *map, uint64_t i,
                          atd_reader *r, atd_string *key);

/* The reader's error as atd_bin_get_error ("byte N, at PATH: DETAIL");
 * returns the code, ATD_ERR_INVALID if none was recorded. */
int atd_lazy_get_error(const atd_reader *r, atd_error *err);

/* ------------------------------------------------------------------ */
/* Writing (generated code)                                            */
/* ------------------------------------------------------------------ */

typedef struct atd_lazy_shared_slot {
    const char *ptr; /* the caller's bytes: they must live until finish */
    size_t len;
    uint64_t hash;
    uint64_t id; /* UINT64_MAX: empty slot */
} atd_lazy_shared_slot;

typedef struct atd_lazy_writer {
    atd_buf *out;   /* the file: memory or a sink */
    uint64_t start; /* absolute position of the header in out */
    unsigned depth; /* scratch writers in use */
    unsigned ninit; /* scratch buffers initialized (freed by finish) */
    atd_buf scratch[ATD_LAZY_MAX_NEST];
    atd_writer sw[ATD_LAZY_MAX_NEST];
    /* shared strings: open addressing, ids in insertion order */
    atd_lazy_shared_slot *slots;
    size_t slots_cap; /* a power of two */
    uint64_t *order;  /* slot index of each id */
    uint64_t nshared;
    uint64_t fingerprint;
} atd_lazy_writer;

/* Writes the header to out and returns the root's writer (depth 0), or
 * NULL when out of memory (err set). */
atd_writer *atd_lazy_writer_start(atd_lazy_writer *lw, atd_buf *out, uint64_t fingerprint,
                                  unsigned flags, atd_error *err);
/* After the root value was written to the root's writer (ok: whether it
 * succeeded): the strings section, the root, the trailer; frees everything.
 * Returns 0 or the first error (err filled). */
int atd_lazy_writer_finish(atd_lazy_writer *lw, bool ok, atd_error *err);

/* A lazy value: atd_lazy_begin gives the writer to write it to (NULL, with
 * the error in `outer`, beyond ATD_LAZY_MAX_NEST); atd_lazy_end (ok: whether
 * writing it succeeded) appends it to the file and gives its reference, or
 * moves its error to `outer` and returns false. */
atd_writer *atd_lazy_begin(atd_lazy_writer *lw, atd_writer *outer);
bool atd_lazy_end(atd_lazy_writer *lw, atd_writer *outer, bool ok, atd_lazy *ref);
/* Tag and body of a reference, of a shared string (interned here). */
bool atd_lazy_write_ref(atd_writer *w, const atd_lazy *ref);
bool atd_lazy_write_shared(atd_lazy_writer *lw, atd_writer *w, const char *s, size_t len);

/* An index of n entries whose keys are the atd_string at the start of each
 * item (items of `stride` bytes): the order sorted by key (NULL on error:
 * duplicate key, out of memory, error in w). Then write each entry with
 * atd_lazy_begin (key body, tagged value) / atd_lazy_end in that order and
 * record its ref.off at offsets[k]; atd_lazy_index_end writes the table,
 * the body of the index (its tag is the caller's) into w and frees the order. */
typedef struct atd_lazy_index_build {
    size_t *order;
    uint64_t *offsets;
    size_t n;
} atd_lazy_index_build;
bool atd_lazy_index_begin(atd_lazy_writer *lw, atd_writer *w, const void *items, size_t n,
                          size_t stride, atd_lazy_index_build *b);
bool atd_lazy_index_end(atd_lazy_writer *lw, atd_writer *w, atd_lazy_index_build *b, bool ok);

/* FNV-1a, 64 bits: the schema fingerprint's hash (atdc computes it). */
uint64_t atd_lazy_hash(const char *s, size_t len);

#ifdef __cplusplus
}
#endif

#endif
