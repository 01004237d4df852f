/* Reading and writing whole files (files.h). */
#define _POSIX_C_SOURCE 200809L /* getpid */

#include "files.h"

#include "alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool files_read(FILE *f, atd_buf *out)
{
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        atd_buf_append(out, chunk, got);
    if (ferror(f)) {
        if (errno == 0)
            errno = EIO;
        return false;
    }
    if (out->status != 0) {
        errno = ENOMEM;
        return false;
    }
    return true;
}

/* True when `path` holds exactly data[0..len). */
static bool files_same(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return false;
    bool same = true;
    char buf[65536];
    size_t pos = 0, n;
    while (same && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (pos + n > len || memcmp(buf, data + pos, n) != 0)
            same = false;
        pos += n;
    }
    if (ferror(f))
        same = false;
    fclose(f);
    return same && pos == len;
}

bool files_write_if_changed(diag_ctx *d, const char *path, const char *data, size_t len)
{
    if (files_same(path, data, len))
        return true;
    size_t n = strlen(path) + 32;
    char *tmp = util_malloc(n);
    if (tmp == NULL) {
        diag_oom(d);
        return false;
    }
    snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
    bool ok = false;
    FILE *f = fopen(tmp, "wb");
    if (f == NULL) {
        diag_error(d, DIAG_NO_LOC, "cannot write '%s': %s", tmp, strerror(errno));
    } else {
        bool written = len == 0 || fwrite(data, 1, len, f) == len;
        int err = errno;
        if (fclose(f) != 0 && written) {
            written = false;
            err = errno;
        }
        if (!written)
            diag_error(d, DIAG_NO_LOC, "cannot write '%s': %s", tmp, strerror(err));
        else if (rename(tmp, path) != 0)
            diag_error(d, DIAG_NO_LOC, "cannot rename '%s' to '%s': %s", tmp, path,
                       strerror(errno));
        else
            ok = true;
        if (!ok)
            remove(tmp);
    }
    util_free(tmp);
    return ok;
}

bool files_make_dirs(diag_ctx *d, const char *dir)
{
    size_t n = strlen(dir);
    char *path = util_malloc(n + 1);
    if (path == NULL) {
        diag_oom(d);
        return false;
    }
    memcpy(path, dir, n + 1);
    bool ok = true;
    /* Each prefix that ends before a '/', then the whole path. */
    for (size_t i = 1; i <= n && ok; i++) {
        if (i < n && path[i] != '/')
            continue;
        char saved = path[i];
        path[i] = '\0';
        struct stat st;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            diag_error(d, DIAG_NO_LOC, "cannot create directory '%s': %s", path, strerror(errno));
            ok = false;
        } else if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
            diag_error(d, DIAG_NO_LOC, "cannot create directory '%s': %s", path, strerror(ENOTDIR));
            ok = false;
        }
        path[i] = saved;
    }
    util_free(path);
    return ok;
}
