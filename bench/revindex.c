/* The revindex benchmark (bench/revindex.sh runs it; docs/lazy-format.md):
 * a reverse index of NWORDS distinct words, each with 1 to 100 occurrences
 * { filename; line } among NFILES files (bench/revindex_data.h, fixed seed),
 * written and read back five ways:
 *   json         atdc JSON, decoded whole at open (rx_plain's JSON code)
 *   biniou       atdc biniou, decoded whole at open
 *   lazy         lazy format, each word's occurrences <c lazy> (rx_plain)
 *   lazy_shared  the same with <c shared> file names (rx_shared)
 *   lazy_index   the same with the map <c index> (rx_indexed: schemas/revindex.atd)
 * Three modes, each its own process so that the reader's peak memory is a
 * server's, not the indexer's:
 *   atdc_revindex write VARIANT FILE NWORDS NFILES
 *       prints "write_s=T write_cpu_s=T write_user_s=T write_sys_s=T
 *       size=BYTES" (CPU time in all, then user and system apart): FILE is replaced
 *       atomically (a temporary file renamed over it,
 *       atd_lazy_file_begin/commit); the time is the write to the kernel,
 *       without the final fsync, elapsed and in CPU time
 *   atdc_revindex read VARIANT FILE NWORDS NQUERIES
 *       prints "open_s=T queries_s=T rss_open_kb=KB peak_kb=KB
 *       pages_open=N pages_queries=N checksum=C"
 *   atdc_revindex read_cold ...
 *       the same after dropping FILE's pages from the page cache
 *       (posix_fadvise POSIX_FADV_DONTNEED), so that open and queries read
 *       the disk; pages_* count the file's pages resident after open and
 *       those the queries added (mincore), which is the pages read;
 *       pages_ahead, of those, the pages that arrived during the queries
 *       in the parts read ahead in the background (lazy_index: the strings
 *       and the index's upper nodes), so that the pages the queries read
 *       one by one are pages_queries - pages_ahead
 * Open is from mapping the file to having the root; a query looks one
 * existing word up (binary search in a decoded map, or find in an index)
 * and decodes its occurrences (fetch for the lazy variants); the checksum
 * (occurrences and lines seen) must be the same for every variant. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* mincore */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "revindex_data.h"
#include "rx_indexed.h"
#include "rx_plain.h"
#include "rx_shared.h"

REVINDEX_DEFINE_GENERATOR(gen_plain, rx_plain_)
REVINDEX_DEFINE_GENERATOR(gen_shared, rx_shared_)
REVINDEX_DEFINE_GENERATOR(gen_indexed, rx_indexed_)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* This process's CPU time (user and system): on a machine shared with
 * other work, steadier than the elapsed time. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* This process's user and system CPU time so far, apart: much of writing
 * a large file is system time (copying into the page cache), which the
 * encoder does not decide and which varies from run to run. */
static void cpu_split(double *user, double *sys)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
    *sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static void die(const char *what, const atd_error *err)
{
    fprintf(stderr, "atdc_revindex: %s: %s\n", what, err != NULL ? err->message : "failed");
    exit(1);
}

/* --- write --- */

static int write_mode(const char *variant, const char *path, size_t nwords, size_t nfiles)
{
    atd_arena *a = atd_arena_new(1 << 20, NULL);
    rx_plain_revindex plain;
    rx_shared_revindex shared;
    rx_indexed_revindex indexed;
    bool ok;
    const uint64_t seed = 20260101;
    if (strcmp(variant, "lazy_shared") == 0) {
        ok = gen_shared(&shared, a, nwords, nfiles, seed);
        revindex_sort(shared.items, shared.len, sizeof shared.items[0]);
    } else if (strcmp(variant, "lazy_index") == 0) {
        /* unsorted: sorting is part of writing an index */
        ok = gen_indexed(&indexed, a, nwords, nfiles, seed);
    } else {
        ok = gen_plain(&plain, a, nwords, nfiles, seed);
        revindex_sort(plain.items, plain.len, sizeof plain.items[0]);
    }
    if (!ok)
        die("generating the data", NULL);
    atd_lazy_file file;
    atd_buf out;
    atd_error err;
    if (atd_lazy_file_begin(&file, path, &out, &err) != 0)
        die(path, &err);
    int rc;
    double u0, s0, u1, s1;
    cpu_split(&u0, &s0);
    double t0 = now(), c0 = cpu_now();
    if (strcmp(variant, "json") == 0)
        rc = rx_plain_revindex_to_json(&plain, &out, &err);
    else if (strcmp(variant, "biniou") == 0)
        rc = rx_plain_revindex_to_biniou(&plain, &out, &err);
    else if (strcmp(variant, "lazy") == 0)
        rc = rx_plain_revindex_lazy_write(&plain, &out, &err);
    else if (strcmp(variant, "lazy_shared") == 0)
        rc = rx_shared_revindex_lazy_write(&shared, &out, &err);
    else if (strcmp(variant, "lazy_index") == 0)
        rc = rx_indexed_revindex_lazy_write(&indexed, &out, &err);
    else
        die("unknown variant", NULL);
    if (rc == 0 && atd_buf_flush(&out) != 0)
        die("flushing", NULL);
    double t1 = now(), c1 = cpu_now();
    cpu_split(&u1, &s1);
    if (rc != 0)
        die("writing", &err);
    if (atd_lazy_file_commit(&file, &out, true, &err) != 0)
        die("replacing the file", &err);
    struct stat st;
    if (stat(path, &st) != 0)
        die(path, NULL);
    printf("write_s=%.6f write_cpu_s=%.6f write_user_s=%.6f write_sys_s=%.6f size=%lld\n",
           t1 - t0, c1 - c0, u1 - u0, s1 - s0, (long long)st.st_size);
    atd_arena_free(a);
    return 0;
}

/* --- read --- */

/* The query words: existing ones, from their own fixed seed. */
static size_t query_word(char *buf, size_t nwords, uint64_t *s)
{
    return revindex_word(buf, (size_t)(revindex_rand(s) % nwords));
}

typedef struct sums {
    uint64_t occurrences, lines;
} sums;

#define ADD_OCCURRENCES(sum, occ)                                                                  \
    do {                                                                                           \
        (sum).occurrences += (occ).len;                                                            \
        for (size_t k_ = 0; k_ < (occ).len; k_++)                                                  \
            (sum).lines += (uint64_t)(occ).items[k_].line + (occ).items[k_].filename.len;          \
    } while (0)

/* Binary search of a sorted decoded map (items start with their key). */
static const void *search(const void *items, size_t n, size_t stride, const char *key, size_t len)
{
    atd_string k = {key, len};
    return bsearch(&k, items, n, stride, revindex_key_cmp);
}

/* Pages of [p, p + len) in the page cache; when ranges is not NULL, also
 * *in_ranges: those of them in the nr byte ranges [ranges[2i],
 * ranges[2i + 1]) (from the same look, so that both counts are of the
 * same moment while pages arrive). */
static size_t resident_pages_in(const void *p, size_t len, const uint64_t *ranges, size_t nr,
                                size_t *in_ranges)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (len + page - 1) / page, count = 0;
    unsigned char *vec = (unsigned char *)malloc(n ? n : 1);
    if (vec == NULL || mincore((void *)(uintptr_t)p, len, vec) != 0)
        die("mincore", NULL);
    for (size_t i = 0; i < n; i++)
        count += vec[i] & 1;
    if (ranges != NULL) {
        *in_ranges = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t at = (uint64_t)i * page;
            bool in = false;
            for (size_t r = 0; r < nr && !in; r++)
                in = at + page > ranges[2 * r] && at < ranges[2 * r + 1];
            *in_ranges += vec[i] & in;
        }
    }
    free(vec);
    return count;
}

static size_t resident_pages(const void *p, size_t len)
{
    return resident_pages_in(p, len, NULL, 0, NULL);
}

/* The file's pages resident, and in *ahead those of the parts a lazy db
 * reads ahead (docs/lazy-format.md): the strings to the end of the file,
 * and the index's nodes above its leaves. */
static size_t index_db_pages(const atd_lazy_db *db, const atd_lazy_index *map, size_t *ahead)
{
    uint64_t ranges[4] = {db->data_end, db->len, map->inner,
                          map->root_off + map->root_len + 4};
    return resident_pages_in(db->data, db->len, ranges, 2, ahead);
}

/* The resident set now, in KB. */
static long rss_kb(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f != NULL) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static int read_mode(const char *variant, const char *path, size_t nwords, size_t nqueries,
                     bool cold)
{
    atd_arena *a = atd_arena_new(1 << 20, NULL);
    atd_arena *qa = atd_arena_new(1 << 16, NULL);
    atd_error err;
    sums sum = {0, 0};
    uint64_t s = 4242;
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        die(path, NULL);
    if (cold && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0)
        die("posix_fadvise", NULL);
    size_t pages_open = 0, pages_after = 0, rss_open = 0, ahead_open = 0, ahead_after = 0;
    double t0 = now(), t1, t2;
    if (strncmp(variant, "lazy", 4) != 0) {
        /* decode everything */
        size_t len = (size_t)st.st_size;
        const char *data = (const char *)mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (data == (const char *)MAP_FAILED)
            die("mmap", NULL);
        rx_plain_revindex v;
        int rc = strcmp(variant, "json") == 0
                     ? rx_plain_revindex_from_json(data, len, a, &v, &err)
                     : rx_plain_revindex_from_biniou(data, len, a, &v, &err);
        if (rc != 0)
            die("decoding", &err);
        t1 = now();
        rss_open = (size_t)rss_kb();
        pages_open = resident_pages(data, len);
        for (size_t q = 0; q < nqueries; q++) {
            char w[16];
            size_t wl = query_word(w, nwords, &s);
            const rx_plain_revindex_item *it =
                (const rx_plain_revindex_item *)search(v.items, v.len, sizeof v.items[0], w, wl);
            if (it == NULL)
                die("a word is missing", NULL);
            ADD_OCCURRENCES(sum, it->value);
        }
        t2 = now();
        pages_after = resident_pages(data, len);
        munmap((void *)(uintptr_t)data, len);
    } else {
        atd_lazy_db db;
        if (strcmp(variant, "lazy_index") == 0) {
            rx_indexed_revindex_lz root;
            if (rx_indexed_revindex_lazy_open_file(&db, path, a, &root, &err) != 0)
                die("opening", &err);
            t1 = now();
            rss_open = (size_t)rss_kb();
            pages_open = index_db_pages(&db, &root, &ahead_open);
            for (size_t q = 0; q < nqueries; q++) {
                char w[16];
                size_t wl = query_word(w, nwords, &s);
                atd_lazy ref;
                bool found;
                rx_indexed_occurrences occ;
                if (rx_indexed_revindex_lazy_find(&db, &root, w, wl, qa, &ref, &found, &err) != 0 ||
                    !found || rx_indexed_occurrences_lazy_fetch(&db, &ref, qa, &occ, &err) != 0)
                    die("query", &err);
                ADD_OCCURRENCES(sum, occ);
                atd_arena_reset(qa);
            }
            t2 = now();
            pages_after = index_db_pages(&db, &root, &ahead_after);
        } else {
            bool shared = strcmp(variant, "lazy_shared") == 0;
            rx_plain_revindex_lz proot;
            rx_shared_revindex_lz sroot;
            int rc = shared ? rx_shared_revindex_lazy_open_file(&db, path, a, &sroot, &err)
                            : rx_plain_revindex_lazy_open_file(&db, path, a, &proot, &err);
            if (rc != 0)
                die("opening", &err);
            t1 = now();
            rss_open = (size_t)rss_kb();
            pages_open = resident_pages(db.data, db.len);
            for (size_t q = 0; q < nqueries; q++) {
                char w[16];
                size_t wl = query_word(w, nwords, &s);
                if (shared) {
                    const rx_shared_revindex_lz_item *it =
                        (const rx_shared_revindex_lz_item *)search(sroot.items, sroot.len,
                                                                   sizeof sroot.items[0], w, wl);
                    rx_shared_occurrences occ;
                    if (it == NULL ||
                        rx_shared_occurrences_lazy_fetch(&db, &it->value, qa, &occ, &err) != 0)
                        die("query", &err);
                    ADD_OCCURRENCES(sum, occ);
                } else {
                    const rx_plain_revindex_lz_item *it = (const rx_plain_revindex_lz_item *)search(
                        proot.items, proot.len, sizeof proot.items[0], w, wl);
                    rx_plain_occurrences occ;
                    if (it == NULL ||
                        rx_plain_occurrences_lazy_fetch(&db, &it->value, qa, &occ, &err) != 0)
                        die("query", &err);
                    ADD_OCCURRENCES(sum, occ);
                }
                atd_arena_reset(qa);
            }
            t2 = now();
        }
        if (strcmp(variant, "lazy_index") != 0)
            pages_after = resident_pages(db.data, db.len);
        atd_lazy_close(&db);
    }
    close(fd);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("open_s=%.6f queries_s=%.6f rss_open_kb=%zu peak_kb=%ld pages_open=%zu "
           "pages_queries=%zu pages_ahead=%zu checksum=%llu.%llu\n",
           t1 - t0, t2 - t1, rss_open, ru.ru_maxrss, pages_open, pages_after - pages_open,
           ahead_after - ahead_open,
           (unsigned long long)sum.occurrences, (unsigned long long)sum.lines);
    atd_arena_free(a);
    atd_arena_free(qa);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: atdc_revindex write VARIANT FILE NWORDS NFILES\n"
                        "       atdc_revindex read|read_cold VARIANT FILE NWORDS NQUERIES\n");
        return 2;
    }
    size_t n = (size_t)strtoull(argv[4], NULL, 10), m = (size_t)strtoull(argv[5], NULL, 10);
    if (n == 0 || m == 0)
        return 2;
    if (strcmp(argv[1], "write") == 0)
        return write_mode(argv[2], argv[3], n, m);
    if (strcmp(argv[1], "read") == 0 || strcmp(argv[1], "read_cold") == 0)
        return read_mode(argv[2], argv[3], n, m, strcmp(argv[1], "read_cold") == 0);
    return 2;
}
