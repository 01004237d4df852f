/* word_index: a word index in the lazy format (words.atd).
 *
 *   word_index build DB < entries.jsonl
 *       reads JSON Lines of {"word": W, "postings": [{"file": F, "line": N}...]}
 *       and replaces DB with the index (a temporary file renamed over DB, so
 *       servers that have the old DB open keep reading it);
 *   word_index query DB WORD...
 *       prints "WORD: FILE:LINE FILE:LINE ..." or "WORD: not found";
 *   word_index verify DB
 *       checks every checksum of DB.
 * Exit status: 0; 1 when a word is not found or a line of the input is
 * invalid (reported as "line N: ..." on standard error, nothing written);
 * 2 on any other error (I/O, a corrupt or foreign DB). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "words.h"


/* One line per error, in the form compilers use: FILE:LINE:COL: ... */
static void report(const char *file, const atd_error *err)
{
    char line[700];
    atd_error_format(err, file, line, sizeof line);
    fprintf(stderr, "word_index: %s\n", line);
}
static int usage(void)
{
    fputs("usage: word_index build DB < entries.jsonl\n"
          "       word_index query DB WORD...\n"
          "       word_index verify DB\n",
          stderr);
    return 2;
}

static int build(const char *path)
{
    atd_stream in;
    /* every entry stays in the arena until the index is written */
    atd_arena *arena = atd_arena_new(0, NULL);
    if (arena == NULL || atd_stream_init_fd(&in, 0, NULL) != 0) {
        fputs("word_index: out of memory\n", stderr);
        return 2;
    }
    words_index index = {NULL, 0};
    size_t cap = 0;
    words_entry e;
    while (words_entry_next_line(&in, arena, &e)) {
        if (index.len == cap) {
            cap = cap ? 2 * cap : 1024;
            words_index_item *items =
                (words_index_item *)realloc(index.items, cap * sizeof *items);
            if (items == NULL) {
                fputs("word_index: out of memory\n", stderr);
                return 2;
            }
            index.items = items;
        }
        index.items[index.len].key = e.word;
        index.items[index.len].value = e.postings;
        index.len++;
    }
    int status = 0;
    const atd_error *stop = atd_stream_error(&in);
    atd_error err;
    if (stop != NULL) {
        report("<stdin>", stop);
        status = stop->code == ATD_ERR_IO ? 2 : 1;
    } else if (words_index_lazy_write_file(&index, path, &err) != 0) {
        report(path, &err);
        status = err.code == ATD_ERR_IO ? 2 : 1;
    }
    atd_stream_free(&in);
    free(index.items);
    atd_arena_free(arena);
    return status;
}

static int query(const char *path, char **words, int n)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_lazy_db db;
    words_index_lz root;
    atd_error err;
    if (arena == NULL) {
        fputs("word_index: out of memory\n", stderr);
        return 2;
    }
    if (words_index_lazy_open_file(&db, path, arena, &root, &err) != 0) {
        report(path, &err);
        atd_arena_free(arena);
        return 2;
    }
    int status = 0;
    for (int i = 0; i < n && status != 2; i++) {
        atd_lazy ref;
        bool found;
        words_postings p;
        if (words_index_lazy_find(&db, &root, words[i], strlen(words[i]), arena, &ref, &found,
                                  &err) != 0 ||
            (found && words_postings_lazy_fetch(&db, &ref, arena, &p, &err) != 0)) {
            report(path, &err);
            status = 2;
            break;
        }
        printf("%s:", words[i]);
        if (!found) {
            printf(" not found\n");
            status = 1;
            continue;
        }
        for (size_t k = 0; k < p.len; k++)
            printf(" %.*s:%lld", (int)p.items[k].file.len, p.items[k].file.ptr,
                   (long long)p.items[k].line);
        printf("\n");
        atd_arena_reset(arena);
    }
    atd_lazy_close(&db);
    atd_arena_free(arena);
    return status;
}

static int verify(const char *path)
{
    atd_arena *arena = atd_arena_new(0, NULL);
    atd_lazy_db db;
    words_index_lz root;
    atd_error err;
    int rc = arena == NULL ? (int)ATD_ERR_NOMEM
                           : words_index_lazy_open_file(&db, path, arena, &root, &err);
    if (rc == 0) {
        rc = atd_lazy_verify(&db, &err);
        atd_lazy_close(&db);
    }
    atd_arena_free(arena);
    if (rc != 0) {
        if (arena == NULL)
            fprintf(stderr, "word_index: %s: out of memory\n", path);
        else
            report(path, &err);
        return 2;
    }
    printf("%s: %llu words, all checksums match\n", path, (unsigned long long)root.count);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "build") == 0)
        return build(argv[2]);
    if (argc >= 3 && strcmp(argv[1], "query") == 0)
        return query(argv[2], argv + 3, argc - 3);
    if (argc == 3 && strcmp(argv[1], "verify") == 0)
        return verify(argv[2]);
    return usage();
}
