/* The stream benchmark: a JSON Lines workload (event records of
 * schemas/event.atd) read from a pipe and written to a file, by
 *   atdc stream     event_event_next_line on the pipe, write_line to the file
 *                   (bounded memory);
 *   atdc in-memory  the whole input read first, each line through
 *                   event_event_from_json, the whole output built in memory;
 *   yyjson          the whole input in memory, each line read with yyjson_read,
 *                   fields checked, the document written back with yyjson_write;
 *   simdjson        iterate_many over the whole input (stream_simd.cpp).
 * Each run forks a feeder (the input file into a pipe, 64 KiB writes) and
 * the contender; MB/s is over the contender's wall time, from fork to exit,
 * MB/CPU-s over its user + system time (steadier on a loaded machine), both
 * best of the rounds, and the memory is its peak RSS (wait4). Every output is
 * checked against the expected bytes (the input is in canonical form).
 *
 * Usage: atdc_bench_stream [--lines N] [--rounds R] [--tmp DIR] */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "event.h"
#include "stream_bench.h"
#ifdef BENCH_HAVE_YYJSON
#include "yyjson.h"
#endif

char *stream_bench_read_all(int fd, size_t *len, size_t padding)
{
    size_t cap = 1 << 20, n = 0;
    char *data = malloc(cap + padding);
    if (data == NULL)
        return NULL;
    for (;;) {
        if (cap - n < 65536) {
            char *grown = realloc(data, cap * 2 + padding);
            if (grown == NULL) {
                free(data);
                return NULL;
            }
            data = grown;
            cap *= 2;
        }
        ssize_t got = read(fd, data + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            free(data);
            return NULL;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    memset(data + n, 0, padding);
    *len = n;
    return data;
}

/* ---- contenders ---- */

static long atdc_stream(int in_fd, int out_fd)
{
    atd_stream_options opt = {0};
    opt.skip_bad = true;
    opt.read_flags = ATD_READ_BORROW_STRINGS;
    atd_stream in;
    atd_buf out;
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL || atd_stream_init_fd(&in, in_fd, &opt) != 0 ||
        atd_buf_init_fd(&out, out_fd) != 0)
        return -1;
    event_event ev;
    long rc = 0;
    while (event_event_next_line(&in, arena, &ev)) {
        if (event_event_write_line(&ev, &out, NULL) != 0)
            rc = -1;
        atd_arena_reset(arena);
    }
    if (atd_stream_error(&in) != NULL || atd_buf_flush(&out) != 0)
        rc = -1;
    if (rc == 0)
        rc = (long)in.bad_records;
    atd_buf_free(&out);
    atd_stream_free(&in);
    atd_arena_free(arena);
    return rc;
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static long atdc_in_memory(int in_fd, int out_fd)
{
    size_t len;
    char *data = stream_bench_read_all(in_fd, &len, 0);
    atd_arena *arena = atd_arena_new(0, NULL);
    if (data == NULL || arena == NULL)
        return -1;
    atd_buf out;
    atd_buf_init(&out);
    long bad = 0;
    const char *p = data, *end = data + len;
    while (p < end) {
        const char *lf = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = lf != NULL ? lf : end;
        event_event ev;
        if (event_event_from_json(p, (size_t)(line_end - p), arena, &ev, NULL) == 0 &&
            event_event_write_line(&ev, &out, NULL) == 0)
            ;
        else
            bad++;
        atd_arena_reset(arena);
        p = line_end + 1;
    }
    long rc = out.status == 0 && write_all(out_fd, out.data, out.len) ? bad : -1;
    atd_buf_free(&out);
    atd_arena_free(arena);
    free(data);
    return rc;
}

#ifdef BENCH_HAVE_YYJSON
static bool yy_event_ok(yyjson_val *root)
{
    yyjson_val *t = yyjson_obj_get(root, "event_type");
    const char *s = yyjson_get_str(t);
    return yyjson_is_obj(root) && yyjson_obj_size(root) == 4 &&
           yyjson_is_str(yyjson_obj_get(root, "username")) &&
           yyjson_is_int(yyjson_obj_get(root, "date")) &&
           yyjson_is_str(yyjson_obj_get(root, "payload")) && s != NULL &&
           (strcmp(s, "Login") == 0 || strcmp(s, "Purchase") == 0 || strcmp(s, "Logout") == 0 ||
            strcmp(s, "Cancel") == 0);
}

/* Each line read on its own: YYJSON_READ_STOP_WHEN_DONE over the rest of
 * the input would size every document's value pool by all the input that
 * remains (quadratic), so lines are framed with memchr as atdc does. */
static long yyjson_lines(int in_fd, int out_fd)
{
    size_t len;
    char *data = stream_bench_read_all(in_fd, &len, 0);
    if (data == NULL)
        return -1;
    atd_buf out;
    if (atd_buf_init_fd(&out, out_fd) != 0)
        return -1;
    long bad = 0;
    const char *p = data, *end = data + len;
    while (p < end) {
        const char *lf = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = lf != NULL ? lf : end;
        yyjson_doc *doc = yyjson_read(p, (size_t)(line_end - p), 0);
        p = line_end + 1;
        if (doc != NULL && yy_event_ok(yyjson_doc_get_root(doc))) {
            size_t n;
            char *text = yyjson_write(doc, 0, &n);
            if (text == NULL) {
                bad++;
            } else {
                atd_buf_append(&out, text, n);
                atd_buf_putc(&out, '\n');
                free(text);
            }
        } else {
            bad++;
        }
        yyjson_doc_free(doc);
    }
    long rc = atd_buf_flush(&out) == 0 ? bad : -1;
    atd_buf_free(&out);
    free(data);
    return rc;
}
#endif

/* ---- the harness ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes the file at `path` into fd, in 64 KiB writes. */
static void feed(const char *path, int fd)
{
    int in = open(path, O_RDONLY);
    if (in < 0)
        _exit(1);
    static char chunk[65536];
    ssize_t n;
    while ((n = read(in, chunk, sizeof chunk)) > 0)
        if (!write_all(fd, chunk, (size_t)n))
            _exit(1);
    _exit(n == 0 ? 0 : 1);
}

typedef struct run {
    double seconds;
    double cpu_seconds; /* user + system */
    long peak_kib;
    bool ok;
} run;

static run run_once(stream_contender_fn fn, const char *in_path, const char *out_path)
{
    run r = {0, 0, 0, false};
    int fds[2];
    if (pipe(fds) != 0)
        return r;
    pid_t feeder = fork();
    if (feeder == 0) {
        close(fds[0]);
        feed(in_path, fds[1]);
    }
    close(fds[1]);
    double t0 = now();
    pid_t child = fork();
    if (child == 0) {
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0)
            _exit(2);
        long bad = fn(fds[0], out);
        if (close(out) != 0)
            _exit(2);
        _exit(bad == 0 ? 0 : 1);
    }
    close(fds[0]);
    int status;
    struct rusage ru;
    if (wait4(child, &status, 0, &ru) != child)
        return r;
    r.seconds = now() - t0;
    r.peak_kib = ru.ru_maxrss;
    r.cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    int fstatus;
    waitpid(feeder, &fstatus, 0);
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && WIFEXITED(fstatus) &&
           WEXITSTATUS(fstatus) == 0;
    return r;
}

static bool same_files(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa != NULL && fb != NULL;
    static char ba[65536], bb[65536];
    while (same) {
        size_t na = fread(ba, 1, sizeof ba, fa), nb = fread(bb, 1, sizeof bb, fb);
        if (na != nb || memcmp(ba, bb, na) != 0)
            same = false;
        if (na == 0)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* Event records in canonical form (what the writers print), with strings
 * that need escapes now and then. */
static size_t generate(const char *path, long lines)
{
    static const char *const types[] = {"Login", "Purchase", "Logout", "Cancel"};
    static const char words[] = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do "
                                "eiusmod tempor incididunt ut labore et dolore magna aliqua";
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return 0;
    uint64_t x = 88172645463325252u;
    for (long i = 0; i < lines; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int plen = 20 + (int)(x % 80);
        int start = (int)((x >> 8) % 40);
        fprintf(f,
                "{\"username\":\"user_%u\",\"date\":%lld,\"event_type\":\"%s\","
                "\"payload\":\"%.*s%s\"}\n",
                (unsigned)(x >> 40) % 100000u, 1500000000LL + (long long)(x % 200000000u),
                types[x % 4], plen, words + start, i % 10 == 0 ? "\\\"\xc3\xa9\\n" : "");
    }
    long size = ftell(f);
    fclose(f);
    return size > 0 ? (size_t)size : 0;
}

int main(int argc, char **argv)
{
    long lines = 1000000;
    int rounds = 5;
    const char *tmp = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--lines") == 0 && i + 1 < argc)
            lines = atol(argv[++i]);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--tmp") == 0 && i + 1 < argc)
            tmp = argv[++i];
        else {
            fputs("usage: atdc_bench_stream [--lines N] [--rounds R] [--tmp DIR]\n", stderr);
            return 2;
        }
    }
    char in_path[512], out_path[512];
    snprintf(in_path, sizeof in_path, "%s/atdc_bench_stream_in.%ld.jsonl", tmp, (long)getpid());
    snprintf(out_path, sizeof out_path, "%s/atdc_bench_stream_out.%ld.jsonl", tmp, (long)getpid());
    size_t size = generate(in_path, lines);
    if (size == 0) {
        fprintf(stderr, "cannot write %s\n", in_path);
        return 2;
    }
    static const struct {
        const char *name;
        stream_contender_fn fn;
    } contenders[] = {
        {"atdc stream (pipe -> file)", atdc_stream},
        {"atdc in-memory (from_json per line)", atdc_in_memory},
#ifdef BENCH_HAVE_YYJSON
        {"yyjson per line (in memory)", yyjson_lines},
#endif
#ifdef BENCH_HAVE_SIMDJSON
        {"simdjson iterate_many (in memory)", stream_bench_simdjson},
#endif
    };
    size_t n = sizeof contenders / sizeof contenders[0];
    printf("JSON Lines: %ld event records, %.1f MB, from a pipe to a file; best of %d rounds\n",
           lines, (double)size / 1e6, rounds);
    printf("%-40s %10s %12s %12s\n", "contender", "MB/s", "MB/CPU-s", "peak RSS");
    int status = 0;
    for (size_t c = 0; c < n; c++) {
        double best = 1e30, best_cpu = 1e30;
        long peak = 0;
        bool ok = true;
        for (int r = 0; r < rounds && ok; r++) {
            run res = run_once(contenders[c].fn, in_path, out_path);
            ok = res.ok && same_files(in_path, out_path);
            if (res.seconds < best)
                best = res.seconds;
            if (res.cpu_seconds < best_cpu)
                best_cpu = res.cpu_seconds;
            if (res.peak_kib > peak)
                peak = res.peak_kib;
        }
        if (!ok) {
            printf("%-40s  FAILED (wrong output or error)\n", contenders[c].name);
            status = 1;
            continue;
        }
        printf("%-40s %10.0f %12.0f %8.1f MiB\n", contenders[c].name, (double)size / 1e6 / best,
               (double)size / 1e6 / best_cpu, (double)peak / 1024.0);
    }
    remove(in_path);
    remove(out_path);
    return status;
}
