/* The lazy format (docs/lazy-format.md): a file of typed data that opens
 * without decoding and decodes only what a query touches. Values are a
 * compact form of biniou (atd/biniou.h) where the schema marks them:
 *   <c lazy>   the value is stored out of line, in place a reference
 *              (atd_lazy) that `fetch` decodes on demand;
 *   <c shared> equal strings are stored once, in a strings section, in
 *              place a small number;
 *   <c index>  a (string * T) list <json repr="object"> is stored sorted in
 *              a tree of page-sized nodes (a <c lazy> value in the leaf of
 *              its key when it fits), searched by `find` in one node per
 *              level (atd_lazy_index).
 * These are the primitives generated code (atdc --lazy) is made of.
 *
 * Reading never copies: strings point into the file's bytes (they are not
 * NUL-terminated), so the bytes must outlive every value read from them.
 * Every offset and length read from the file is checked against the section
 * it must lie in before use, and every out-of-line value, index node and
 * shared string carries a CRC-32C checked when it is read: a truncated or
 * corrupt file is an error with its byte offset and path (ATD_ERR_CORRUPT
 * for a checksum), never an out-of-bounds read or silently different data.
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
#include "crc32c.h"
#include "error.h"
#include "reader.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Format constants. */
#define ATD_LAZY_VERSION 3u
#define ATD_LAZY_HEADER_SIZE 32u
#define ATD_LAZY_TRAILER_SIZE 56u
/* The tag of an indexed map (biniou stops at 26). */
enum { ATD_LAZY_TAG_INDEX = 50 };
/* How deep lazy values (and index entries) may nest in a written value. */
#define ATD_LAZY_MAX_NEST 16
/* Index nodes are at most this large and never straddle a page boundary
 * of the file, so a cold lookup reads one page per level. */
#define ATD_LAZY_PAGE 4096u

/* A reference to a value stored out of line: its frame's body at `off`,
 * `len` bytes, then its CRC-32C (checked to lie in the data section when
 * it was read). */
typedef struct atd_lazy {
    uint64_t off;
    uint64_t len;
} atd_lazy;

/* An indexed map: `count` entries, sorted by key, in a tree of nodes whose
 * root is the frame at (root_off, root_len); root_len is 0 when empty. The
 * nodes above the leaves lie from `inner` to the end of the root. */
typedef struct atd_lazy_index {
    uint64_t root_off;
    uint64_t root_len;
    uint64_t count;
    uint64_t inner;
} atd_lazy_index;

/* An opened file. All fields are read-only after open. */
typedef struct atd_lazy_db {
    const char *data; /* the whole file */
    size_t len;
    uint64_t fingerprint;
    uint64_t data_end;      /* frames (values, index nodes) lie in [HEADER_SIZE, data_end) */
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

/* Checks the header (magic, version, flags and reserved 0, fingerprint),
 * the trailer (its CRC covers the header too), the sections' bounds and
 * the root's CRC of the `len` bytes at `data` (the caller's; kept, not
 * copied).
 *   db:          the database to set up; its fields are read-only after.
 *   data:        the file's bytes, len of them; they must outlive db and
 *                every value read from it.
 *   fingerprint: the schema's fingerprint, a constant of the generated
 *                code; the file must have been written with the same.
 *   err:         filled on error when not NULL.
 * Returns 0 or an error code (ATD_ERR_SYNTAX: not this format, or
 * another version of it; ATD_ERR_CORRUPT: a checksum differs; ATD_ERR_TYPE:
 * written for another schema, the fingerprints differ). */
int atd_lazy_open_buffer(atd_lazy_db *db, const char *data, size_t len, uint64_t fingerprint,
                         atd_error *err);
/* Maps the file read-only, then as atd_lazy_open_buffer (ATD_ERR_IO when it
 * cannot be opened or mapped).
 *   path: the file; db, fingerprint and err as for atd_lazy_open_buffer.
 * Returns 0 or the error code; nothing stays mapped after an error.
 *
 * The mapping shares the file's pages: if the file is truncated or
 * rewritten in place while it is open, the next read of a page past its
 * new end kills the process with SIGBUS, and rewritten bytes are read as
 * they are (as corruption at best). Replace a database with
 * atd_lazy_file_begin / atd_lazy_file_commit (a new file renamed over the
 * old one: readers keep the old one until they close it), never with
 * O_TRUNC. */
int atd_lazy_open_file(atd_lazy_db *db, const char *path, uint64_t fingerprint, atd_error *err);
/* Unmaps db's file when atd_lazy_open_file opened it; nothing for a buffer.
 * Values read from the db must not be used after. */
void atd_lazy_close(atd_lazy_db *db);

/* Checks every checksum of the file (every value and index node of the
 * data section, every shared string, and that the zero padding between
 * frames is zero). Reads the whole file; fetch and find check only what
 * they read.
 *   db:  an opened database.
 *   err: filled on error when not NULL, with the offset of the first bad
 *        byte range.
 * Returns 0, or ATD_ERR_CORRUPT (ATD_ERR_SYNTAX for a broken frame). */
int atd_lazy_verify(const atd_lazy_db *db, atd_error *err);

/* ------------------------------------------------------------------ */
/* Reading (generated code)                                            */
/* ------------------------------------------------------------------ */

/* A biniou reader over [off, off + len) of the file, offsets in errors
 * counted from the file's start, strings borrowed from the file
 * (ATD_READ_BORROW_STRINGS).
 *   db:       an opened database.
 *   r:        the reader to set up.
 *   off, len: the bytes to read; the caller checked they lie in the file.
 *   arena:    where decoded values that are not borrowed go. */
void atd_lazy_reader(const atd_lazy_db *db, atd_reader *r, uint64_t off, uint64_t len,
                     atd_arena *arena);
/* A reader over the root value (db, r, arena as above). */
void atd_lazy_root_reader(const atd_lazy_db *db, atd_reader *r, atd_arena *arena);
/* A reader over the value `ref` refers to, after checking it lies in the
 * data section and its CRC (db, r, arena as above). Returns true, or false
 * with the error in r if not. */
bool atd_lazy_fetch_reader(const atd_lazy_db *db, atd_reader *r, const atd_lazy *ref,
                           atd_arena *arena);
/* After a tagged composite's tag byte `tag`, read just before by r:
 * true when it is `want`, else false after recording ATD_ERR_TYPE at it. */
bool atd_lazy_check_tag(atd_reader *r, uint8_t tag, unsigned want);
/* An option's presence byte (0 or 1), read by r into *present; any other
 * byte is ATD_ERR_TYPE. Returns false after recording an error. */
bool atd_lazy_read_presence(atd_reader *r, bool *present);

/* The bodies of references (lazy values, shared strings, indexes), read
 * by r and checked against the sections of db.
 *   out: the reference; for a shared string, its bytes in the file (the
 *        string's CRC checked).
 * Each returns true, or false after recording the error in r. */
bool atd_lazy_read_ref(atd_reader *r, const atd_lazy_db *db, atd_lazy *out);
bool atd_lazy_read_shared(atd_reader *r, const atd_lazy_db *db, atd_string *out);
bool atd_lazy_read_index(atd_reader *r, const atd_lazy_db *db, atd_lazy_index *out);

/* Search of a key in an indexed map.
 *   db:    the opened database.
 *   map:   the map, as atd_lazy_read_index read it.
 *   key:   the key's bytes, len of them.
 *   r:     the reader (its arena is kept); it reads the nodes, then, when
 *          the key is found, exactly the entry's value.
 *   found: set to whether the key is in the map.
 * Returns true, or false on a corrupt node (error in r). */
bool atd_lazy_index_seek(const atd_lazy_db *db, const atd_lazy_index *map, const char *key,
                         size_t len, atd_reader *r, bool *found);
/* Positions r on entry i of map in key order (db, map, r as above).
 *   i:   the entry's rank, below map->count (else ATD_ERR_INVALID).
 *   key: set to the entry's key.
 * Returns true, r then reading exactly the entry's value, or false after
 * recording the error in r. */
bool atd_lazy_index_entry(const atd_lazy_db *db, const atd_lazy_index *map, uint64_t i,
                          atd_reader *r, atd_string *key);

/* The reader's error as atd_bin_get_error ("byte N, at PATH: DETAIL").
 *   r:   the reader that failed.
 *   err: filled when not NULL.
 * Returns the code, ATD_ERR_INVALID if none was recorded. */
int atd_lazy_get_error(const atd_reader *r, atd_error *err);

/* ------------------------------------------------------------------ */
/* Writing (generated code)                                            */
/* ------------------------------------------------------------------ */

typedef struct atd_lazy_shared_slot {
    uint32_t hash; /* the high bits of the string's hash */
    uint32_t id;   /* UINT32_MAX: empty slot */
} atd_lazy_shared_slot;

/* A string met before at this address (an indexer usually shares one copy
 * of each name): found without reading or hashing its bytes. */
typedef struct atd_lazy_shared_seen {
    const char *ptr;
    uint32_t len;
    uint32_t id;
} atd_lazy_shared_seen;

typedef struct atd_lazy_writer {
    atd_buf *out;   /* the file: memory or a sink */
    uint64_t start; /* absolute position of the header in out */
    unsigned depth; /* scratch writers in use */
    unsigned ninit; /* scratch buffers initialized (freed by finish) */
    atd_buf scratch[ATD_LAZY_MAX_NEST];
    atd_writer sw[ATD_LAZY_MAX_NEST];
    /* shared strings: open addressing on the bytes' hash, ids in first-use
     * order; the bytes are the caller's and must live until finish */
    atd_lazy_shared_slot *slots;
    atd_lazy_shared_seen *seen; /* 2 * slots_cap entries, by address */
    size_t slots_cap;           /* a power of two */
    atd_string *strings; /* by id */
    uint64_t nshared;
    uint64_t fingerprint;
} atd_lazy_writer;

/* Writes the header to out and returns the root's writer (depth 0).
 *   lw:          the writer to set up.
 *   out:         the file's buffer (memory or a sink); the file starts at
 *                its current position.
 *   fingerprint: the schema's fingerprint (generated code's constant).
 *   flags:       atd_write_flags for the value writers.
 *   err:         filled on error when not NULL.
 * Returns the root's writer, or NULL when the header cannot be written
 * (out's error, err set). */
atd_writer *atd_lazy_writer_start(atd_lazy_writer *lw, atd_buf *out, uint64_t fingerprint,
                                  unsigned flags, atd_error *err);
/* After the root value was written to the root's writer: the strings
 * section, the root, the trailer; frees everything.
 *   lw:  the writer.
 *   ok:  whether writing the root value succeeded.
 *   err: filled with the first error when not NULL.
 * Returns 0 or the first error's code. */
int atd_lazy_writer_finish(atd_lazy_writer *lw, bool ok, atd_error *err);

/* A lazy value: atd_lazy_begin gives the writer to write it to (NULL, with
 * the error in `outer`, beyond ATD_LAZY_MAX_NEST); atd_lazy_end appends it
 * to the file as a frame and gives its reference, or moves its error to
 * `outer` and returns false.
 *   lw:    the file's writer.
 *   outer: the writer of the value that holds the reference.
 *   ok:    whether writing the lazy value succeeded.
 *   ref:   set to the frame's reference, for atd_lazy_write_ref. */
atd_writer *atd_lazy_begin(atd_lazy_writer *lw, atd_writer *outer);
bool atd_lazy_end(atd_lazy_writer *lw, atd_writer *outer, bool ok, atd_lazy *ref);
/* The body of a reference `ref`; of a shared string s[0..len) (interned
 * here: its bytes must live until atd_lazy_writer_finish), written by w.
 * Return true, or false after recording the error in w. */
bool atd_lazy_write_ref(atd_writer *w, const atd_lazy *ref);
bool atd_lazy_write_shared(atd_lazy_writer *lw, atd_writer *w, const char *s, size_t len);

#include "detail/lazy.h" /* ATD_LAZY_PREFETCH_SHARED, for generated list writers */

/* An option's presence byte, 1 when `present`, written by w. Returns true,
 * or false after recording the error in w. */
bool atd_lazy_write_presence(atd_writer *w, bool present);

/* An index of n entries whose keys are the atd_string at the start of each
 * item (items of `stride` bytes). atd_lazy_index_begin sorts them (false on
 * a duplicate key or out of memory, error in w); then, for each k < n, the
 * value of item order[k] is written to the writer atd_lazy_begin gives and
 * atd_lazy_index_add (ok: whether that succeeded) adds the entry, its slot
 * being what was written; or, for a <c lazy> value, its tagged value is
 * written there and atd_lazy_index_add_value adds it (stored in the leaf
 * with its key when it fits); atd_lazy_index_end writes the rest of the
 * tree and the body of the index (its tag is the caller's) into w, and
 * frees everything (ok false: frees only).
 *   lw:     the file's writer.
 *   w:      the writer of the value that holds the index.
 *   items:  the map's items, n of them, stride bytes apart.
 *   b:      the build's state, set up by atd_lazy_index_begin.
 *   ok:     add, add_value: whether the entry's value was written; end:
 *           whether every entry was.
 * Each returns true, or false after recording the error in w. */
typedef struct atd_lazy_index_build {
    size_t *order;
    size_t n, added;
    const void *items;
    size_t stride;
    atd_buf entries;                     /* the bytes of the leaf being filled */
    struct atd_lazy_index_pending *pend; /* its entries */
    size_t npend, leaf_size;
    struct atd_lazy_index_child *kids; /* the leaves written */
    size_t nkids;
} atd_lazy_index_build;
bool atd_lazy_index_begin(atd_lazy_writer *lw, atd_writer *w, const void *items, size_t n,
                          size_t stride, atd_lazy_index_build *b);
bool atd_lazy_index_add(atd_lazy_writer *lw, atd_writer *w, atd_lazy_index_build *b, bool ok);
bool atd_lazy_index_add_value(atd_lazy_writer *lw, atd_writer *w, atd_lazy_index_build *b,
                              bool ok);
bool atd_lazy_index_end(atd_lazy_writer *lw, atd_writer *w, atd_lazy_index_build *b, bool ok);

/* FNV-1a, 64 bits: the schema fingerprint's hash (atdc computes it).
 *   s: the bytes hashed, len of them.
 * Returns the hash. */
uint64_t atd_lazy_hash(const char *s, size_t len);

/* ------------------------------------------------------------------ */
/* Replacing a file safely                                             */
/* ------------------------------------------------------------------ */

/* atd_lazy_file_begin creates a temporary file next to `path` (same
 * directory, "PATH.tmp.XXXXXX") and sets `out` to write to it;
 * atd_lazy_file_commit (ok: whether the write succeeded) flushes out,
 * fsyncs the file, closes it, renames it to `path` (atomic: a reader opens
 * the old file or the new one, whole) and fsyncs the directory, so that
 * after it returns 0 the new file survives a crash. On failure, or when ok
 * is false, the temporary file is removed and `path` is untouched.
 *   f:    the replacement in progress.
 *   path: the file to replace (begin).
 *   out:  the buffer the new file is written through.
 *   ok:   whether the new file was written in full (commit).
 *   err:  filled on error when not NULL.
 * Both return 0 or an error code (ATD_ERR_IO); commit frees out. */
typedef struct atd_lazy_file {
    char *path; /* the destination */
    char *tmp;  /* the temporary file */
    int fd;
} atd_lazy_file;
int atd_lazy_file_begin(atd_lazy_file *f, const char *path, atd_buf *out, atd_error *err);
int atd_lazy_file_commit(atd_lazy_file *f, atd_buf *out, bool ok, atd_error *err);

#ifdef __cplusplus
}
#endif

#endif
