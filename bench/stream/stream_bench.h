/* Between the stream benchmark's C driver and its C++ simdjson contender. */
#ifndef STREAM_BENCH_H
#define STREAM_BENCH_H

#include <stddef.h>

/* Reads all of fd into a malloc'ed buffer with `padding` spare bytes after
 * the data (zeroed); NULL on error. */
char *stream_bench_read_all(int fd, size_t *len, size_t padding);

/* A contender: reads JSON Lines of events from in_fd, writes the valid ones
 * compact, one per line, to out_fd. Returns the number of bad records, or
 * -1 on an error. */
typedef long (*stream_contender_fn)(int in_fd, int out_fd);

long stream_bench_simdjson(int in_fd, int out_fd);

#endif
