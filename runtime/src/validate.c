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
