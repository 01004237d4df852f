/* Files in and out of the compiler: reading a whole schema, and replacing a
 * generated file only when its bytes changed. */
#ifndef ATDC_FILES_H
#define ATDC_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "atd/buf.h"
#include "diag.h"

/* Appends all of `f` to `out`. False with errno set (ENOMEM when `out` ran
 * out of memory). */
bool files_read(FILE *f, atd_buf *out);

/* Makes `path` hold exactly data[0..len). A file that already holds those
 * bytes is left alone (so it keeps its time and incremental builds stay
 * incremental); otherwise the bytes go to a temporary file in the same
 * folder that then replaces `path` by rename(), so a reader never sees a
 * half-written file. False after reporting, with the system's reason,
 * why the file could not be written. */
bool files_write_if_changed(diag_ctx *d, const char *path, const char *data, size_t len);

#endif
