/* Reading a whole test input file, for the unit suites: the file must exist
 * (a missing one fails the test with its path). The bytes get a NUL after
 * them, which the code under test never relies on (it gets the length). */
#ifndef ATD_TEST_FILES_H
#define ATD_TEST_FILES_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

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

#endif
