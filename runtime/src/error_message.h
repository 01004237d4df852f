/* Building an atd_error's detail and message, one implementation for every
 * reader, writer, stream and binary reader, so that their sentences have one
 * shape. Internal. */
#ifndef ATD_ERROR_MESSAGE_H
#define ATD_ERROR_MESSAGE_H

#include "atd/error.h"

/* Which position the message states. */
typedef enum atd__error_at {
    ATD__AT_NONE, /* writers: "at PATH: DETAIL", or "DETAIL" without a path */
    ATD__AT_LINE, /* text inputs: "line L, column C, at PATH: DETAIL" */
    ATD__AT_BYTE  /* binary inputs: "byte N, at PATH: DETAIL" */
} atd__error_at;

/* Copies detail (cut to fit) into err->detail and builds err->message from
 * err's line, column or offset (as `at` says), its path and the detail. */
void atd__error_describe(atd_error *err, atd__error_at at, const char *detail);

#endif
