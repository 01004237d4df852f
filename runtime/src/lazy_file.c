/* Replacing a lazy-format file safely (atd/lazy.h): the new file is
 * written beside the old one and renamed over it, so a reader that has the
 * old one mapped keeps reading its pages (the inode lives on until it is
 * unmapped) and a reader that opens the path gets one whole file or the
 * other. fsync of the file before the rename and of the directory after it
 * make the new file durable before commit returns. */
#define _POSIX_C_SOURCE 200809L

#include "atd/lazy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int io_fail(atd_error *err, const char *what, const char *path)
{
    if (err != NULL) {
        char detail[ATD_ERROR_MESSAGE_MAX - 32];
        snprintf(detail, sizeof detail, "cannot %s %s: %s", what, path, strerror(errno));
        atd_error_set(err, ATD_ERR_IO, NULL, detail);
    }
    return ATD_ERR_IO;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

int atd_lazy_file_begin(atd_lazy_file *f, const char *path, atd_buf *out, atd_error *err)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    size_t n = strlen(path);
    f->path = dup_str(path);
    f->tmp = (char *)malloc(n + sizeof ".tmp.XXXXXX");
    if (f->path == NULL || f->tmp == NULL) {
        free(f->path);
        free(f->tmp);
        atd_error_set(err, ATD_ERR_NOMEM, NULL, "out of memory");
        return ATD_ERR_NOMEM;
    }
    memcpy(f->tmp, path, n);
    memcpy(f->tmp + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    f->fd = mkstemp(f->tmp);
    if (f->fd < 0 || atd_buf_init_fd(out, f->fd) != 0) {
        int rc = io_fail(err, "create a temporary file for", path);
        if (f->fd >= 0) {
            close(f->fd);
            unlink(f->tmp);
        }
        free(f->path);
        free(f->tmp);
        return rc;
    }
    return 0;
}

/* fsync of the directory holding path, so that the rename is durable. */
static int sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash == NULL ? dup_str(".") : dup_str(path);
    if (dir == NULL)
        return -1;
    if (slash != NULL)
        dir[slash == path ? 1 : (size_t)(slash - path)] = '\0';
    int fd = open(dir, O_RDONLY);
    free(dir);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

int atd_lazy_file_commit(atd_lazy_file *f, atd_buf *out, bool ok, atd_error *err)
{
    int rc = 0;
    if (ok && atd_buf_flush(out) != 0)
        rc = io_fail(err, "write", f->tmp);
    atd_buf_free(out);
    if (ok && rc == 0 && fsync(f->fd) != 0)
        rc = io_fail(err, "fsync", f->tmp);
    if (close(f->fd) != 0 && ok && rc == 0)
        rc = io_fail(err, "close", f->tmp);
    if (ok && rc == 0 && rename(f->tmp, f->path) != 0)
        rc = io_fail(err, "rename the new file to", f->path);
    if (ok && rc == 0 && sync_dir(f->path) != 0)
        rc = io_fail(err, "fsync the directory of", f->path);
    if (!ok || rc != 0)
        unlink(f->tmp);
    else if (err != NULL)
        atd_error_set(err, ATD_ERR_OK, NULL, NULL);
    free(f->path);
    free(f->tmp);
    memset(f, 0, sizeof *f);
    f->fd = -1;
    return rc;
}
