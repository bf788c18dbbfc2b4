/* SPDX-License-Identifier: BSD-3-Clause */
#define _DEFAULT_SOURCE /* fsync, O_CLOEXEC */
#include "ct_outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "ct_tmpname.h"

ct_status_t ct_outfile_open(ct_outfile_t *o, const char *target, mode_t mode, char *err,
                            size_t errlen)
{
    o->fp = NULL;
    o->tmp[0] = '\0';
    int n = snprintf(o->target, sizeof o->target, "%s", target);
    if (n < 0 || (size_t)n >= sizeof o->target ||
        ct_tmpname(target, o->tmp, sizeof o->tmp) != CT_OK) {
        o->tmp[0] = '\0';
        snprintf(err, errlen, "%s: path too long", target);
        return CT_ERR_USAGE;
    }
    (void)ct_tmpname_clean_stale(target);
    int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC;
    int fd = open(o->tmp, flags, mode);
    if (fd < 0 && errno == EEXIST) {
        /* Our own pid in its name: a dead process' leftover, pid reused. */
        (void)unlink(o->tmp);
        fd = open(o->tmp, flags, mode);
    }
    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", o->tmp, strerror(errno));
        o->tmp[0] = '\0';
        return CT_ERR_IO;
    }
    o->fp = fdopen(fd, "w");
    if (o->fp == NULL) {
        snprintf(err, errlen, "cannot write %s: %s", target, strerror(errno));
        close(fd);
        ct_outfile_abort(o);
        return CT_ERR_IO;
    }
    return CT_OK;
}

ct_status_t ct_outfile_finish(ct_outfile_t *o, char *err, size_t errlen)
{
    if (o->fp == NULL) {
        snprintf(err, errlen, "cannot write %s: %s", o->target, strerror(EBADF));
        ct_outfile_abort(o);
        return CT_ERR_IO;
    }
    /* errno is not cleared: when only the error indicator is set, errno
     * is most likely still the failed write's (ENOSPC); EIO when none. */
    int bad = fflush(o->fp) != 0 || ferror(o->fp);
    int e = errno ? errno : EIO;
    if (!bad && fsync(fileno(o->fp)) != 0)
        bad = 1, e = errno;
    if (fclose(o->fp) != 0 && !bad)
        bad = 1, e = errno;
    o->fp = NULL;
    if (bad) {
        snprintf(err, errlen, "cannot write %s: %s", o->target, strerror(e));
        ct_outfile_abort(o);
        return CT_ERR_IO;
    }
    return CT_OK;
}

ct_status_t ct_outfile_commit(ct_outfile_t *o, char *err, size_t errlen)
{
    ct_status_t st = ct_outfile_finish(o, err, errlen);
    if (st != CT_OK)
        return st;
    if (rename(o->tmp, o->target) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", o->target, strerror(errno));
        ct_outfile_abort(o);
        return CT_ERR_IO;
    }
    o->tmp[0] = '\0';
    ct_outfile_sync_dir(o->target);
    return CT_OK;
}

void ct_outfile_abort(ct_outfile_t *o)
{
    int e = errno;
    if (o->fp != NULL)
        (void)fclose(o->fp);
    o->fp = NULL;
    if (o->tmp[0] != '\0')
        (void)unlink(o->tmp);
    o->tmp[0] = '\0';
    errno = e;
}

ct_status_t ct_outfile_rename(const char *tmp, const char *target, char *err, size_t errlen)
{
    int fd = open(tmp, O_RDONLY | O_NOCTTY | O_CLOEXEC);
    int bad = fd < 0 || fsync(fd) != 0;
    int e = errno;
    if (fd >= 0)
        close(fd);
    if (!bad && rename(tmp, target) != 0)
        bad = 1, e = errno;
    if (bad) {
        snprintf(err, errlen, "cannot write %s: %s", target, strerror(e));
        (void)unlink(tmp);
        return CT_ERR_IO;
    }
    ct_outfile_sync_dir(target);
    return CT_OK;
}

void ct_outfile_sync_dir(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else if (slash != NULL)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else
        snprintf(dir, sizeof dir, ".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

ct_status_t ct_outfile_write_text(const char *target, const char *text, char *err, size_t errlen)
{
    ct_outfile_t o;
    ct_status_t st = ct_outfile_open(&o, target, 0666, err, errlen);
    if (st != CT_OK)
        return st;
    (void)fputs(text, o.fp); /* an error stays in ferror, seen by the commit */
    return ct_outfile_commit(&o, err, errlen);
}
