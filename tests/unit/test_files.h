/* Test input files for the unit suites: reading a whole file (it must exist;
 * a missing one fails the test with its path; the bytes get a NUL after them,
 * which the code under test never relies on) and walking the .json files of
 * a folder (JSONTestSuite, the bench data). */
#ifndef ATD_TEST_FILES_H
#define ATD_TEST_FILES_H

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    ck_assert_int_ge(n, 0);
    rewind(f);
    char *data = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_eq(fread(data, 1, (size_t)n, f), (size_t)n);
    data[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return data;
}

/* Calls fn on every file of dir whose name starts with prefix and ends in
 * .json; returns how many. */
static inline size_t test_for_each_json(const char *dir, const char *prefix,
                                        void (*fn)(const char *path, const char *name))
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || n < 5 ||
            strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        fn(path, e->d_name);
        count++;
    }
    closedir(d);
    return count;
}

#endif
