/* SPDX-License-Identifier: BSD-3-Clause */
#define _DEFAULT_SOURCE /* realpath, readlink, lstat */
#include "ct_path.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *ct_path_kind(mode_t mode)
{
    if (S_ISREG(mode))
        return "a regular file";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/* Follows the symlinks of a path whose final target does not exist, so
 * that creating it creates what the last link names. */
static ct_status_t ct_path_follow_dangling(const char *path, char *cur, size_t curlen, char *err,
                                           size_t errlen)
{
    snprintf(cur, curlen, "%s", path);
    for (int hops = 0;; hops++) {
        struct stat lst;
        char link[PATH_MAX];
        if (lstat(cur, &lst) != 0 || !S_ISLNK(lst.st_mode))
            return CT_OK;
        if (hops == 40) {
            snprintf(err, errlen, "too many levels of symbolic links");
            return CT_ERR_USAGE;
        }
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) {
            snprintf(err, errlen, "cannot read symlink: %s", strerror(errno));
            return CT_ERR_USAGE;
        }
        link[n] = '\0';
        if (link[0] == '/') {
            snprintf(cur, curlen, "%s", link);
        } else {
            char *slash = strrchr(cur, '/');
            char joined[PATH_MAX * 2];
            if (slash)
                snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - cur), cur, link);
            else
                snprintf(joined, sizeof joined, "%s", link);
            if (strlen(joined) >= curlen) {
                snprintf(err, errlen, "path too long");
                return CT_ERR_USAGE;
            }
            snprintf(cur, curlen, "%s", joined);
        }
    }
}

ct_status_t ct_path_target(const char *path, ct_path_target_t *t, char *err, size_t errlen)
{
    char cur[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];
    const char *base;

    memset(t, 0, sizeof *t);
    if (path[0] == '\0') {
        snprintf(err, errlen, "empty path");
        return CT_ERR_USAGE;
    }
    if (stat(path, &t->st) == 0) {
        t->exists = 1;
        if (!S_ISREG(t->st.st_mode)) {
            snprintf(t->path, sizeof t->path, "%s", path);
            return CT_OK;
        }
        if (realpath(path, real) == NULL) {
            snprintf(err, errlen, "cannot resolve: %s", strerror(errno));
            return CT_ERR_USAGE;
        }
        snprintf(t->path, sizeof t->path, "%s", real);
        char *slash = strrchr(real, '/');
        snprintf(t->dir, sizeof t->dir, "%.*s", slash == real ? 1 : (int)(slash - real), real);
        return CT_OK;
    }
    if (errno != ENOENT) {
        /* ENOTDIR: a component is a file; ELOOP; EACCES on a directory. */
        snprintf(err, errlen, "%s", strerror(errno));
        return CT_ERR_USAGE;
    }
    ct_status_t st = ct_path_follow_dangling(path, cur, sizeof cur, err, errlen);
    if (st != CT_OK)
        return st;
    char *slash = strrchr(cur, '/');
    if (slash == NULL) {
        snprintf(dir, sizeof dir, ".");
        base = cur;
    } else {
        snprintf(dir, sizeof dir, "%.*s", slash == cur ? 1 : (int)(slash - cur), cur);
        base = slash + 1;
    }
    if (base[0] == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
        snprintf(err, errlen, "directory does not exist");
        return CT_ERR_USAGE;
    }
    struct stat dst;
    if (realpath(dir, real) == NULL || stat(real, &dst) != 0) {
        snprintf(err, errlen, "directory %s: %s", dir,
                 errno == ENOENT ? "does not exist" : strerror(errno));
        return CT_ERR_USAGE;
    }
    if (!S_ISDIR(dst.st_mode)) {
        snprintf(err, errlen, "%s is not a directory", dir);
        return CT_ERR_USAGE;
    }
    if (strlen(real) + 1 + strlen(base) >= sizeof t->path) {
        snprintf(err, errlen, "path too long");
        return CT_ERR_USAGE;
    }
    snprintf(t->dir, sizeof t->dir, "%s", real);
    snprintf(t->path, sizeof t->path, "%s%s%s", real, strcmp(real, "/") ? "/" : "", base);
    return CT_OK;
}

int ct_path_is_target(const char *path, const ct_path_target_t *target)
{
    struct stat st;
    return path != NULL && target->exists && stat(path, &st) == 0 &&
           st.st_dev == target->st.st_dev && st.st_ino == target->st.st_ino;
}

int ct_path_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}
