/* Failures of user validators (atd/validate.h). */
#include "atd/validate.h"

#include <stdio.h>

bool atd_reader_fail_validator(atd_reader *r, size_t at, const char *fn, const char *why)
{
    return atd_reader_fail_at(r, at, ATD_ERR_INVALID, "invalid value (validator %s): %s", fn,
                              why != NULL ? why : "rejected");
}

bool atd_writer_fail_validator(atd_writer *w, const char *fn, const char *why)
{
    char detail[ATD_ERROR_MESSAGE_MAX];
    snprintf(detail, sizeof detail, "invalid value (validator %s): %s", fn,
             why != NULL ? why : "rejected");
    return atd_writer_fail(w, ATD_ERR_INVALID, detail);
}

bool atd_reader_fail_check_int(atd_reader *r, size_t at, int64_t v, const char *expected)
{
    return atd_reader_fail_at(r, at, ATD_ERR_INVALID, "invalid value %lld: expected %s",
                              (long long)v, expected);
}

bool atd_reader_fail_check_float(atd_reader *r, size_t at, double v, const char *expected)
{
    return atd_reader_fail_at(r, at, ATD_ERR_INVALID, "invalid value %.17g: expected %s", v,
                              expected);
}

bool atd_reader_fail_check_len(atd_reader *r, size_t at, size_t len, const char *expected)
{
    return atd_reader_fail_at(r, at, ATD_ERR_INVALID, "invalid string of %zu bytes: expected %s",
                              len, expected);
}

bool atd_writer_fail_check_int(atd_writer *w, int64_t v, const char *expected)
{
    char detail[ATD_ERROR_MESSAGE_MAX];
    snprintf(detail, sizeof detail, "invalid value %lld: expected %s", (long long)v, expected);
    return atd_writer_fail(w, ATD_ERR_INVALID, detail);
}

bool atd_writer_fail_check_float(atd_writer *w, double v, const char *expected)
{
    char detail[ATD_ERROR_MESSAGE_MAX];
    snprintf(detail, sizeof detail, "invalid value %.17g: expected %s", v, expected);
    return atd_writer_fail(w, ATD_ERR_INVALID, detail);
}

bool atd_writer_fail_check_len(atd_writer *w, size_t len, const char *expected)
{
    char detail[ATD_ERROR_MESSAGE_MAX];
    snprintf(detail, sizeof detail, "invalid string of %zu bytes: expected %s", len, expected);
    return atd_writer_fail(w, ATD_ERR_INVALID, detail);
}
