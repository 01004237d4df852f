/* Shared main() for the Check unit suites: each tests/unit/GROUP/test_<name>.c
 * defines `Suite *<name>_suite(void)` and ends with ATD_CHECK_MAIN(<name>_suite).
 * ATD_SHARED_DIR (../shared beside the checkout) and ATD_SOURCE_DIR are
 * compile definitions given by CMake. */
#ifndef ATD_CHECK_MAIN_H
#define ATD_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

#define ATD_CHECK_MAIN(suite_fn)                                            \
    int main(void)                                                          \
    {                                                                       \
        SRunner *runner = srunner_create(suite_fn());                       \
        srunner_run_all(runner, CK_NORMAL);                                 \
        int failed = srunner_ntests_failed(runner);                         \
        srunner_free(runner);                                               \
        return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;                   \
    }

#endif
