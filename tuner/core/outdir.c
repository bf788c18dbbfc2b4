/* SPDX-License-Identifier: BSD-3-Clause */
#define _XOPEN_SOURCE 700 /* realpath */

#include "outdir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p: each missing component in turn. */
static int ct_outdir_mkdirs(const char *dir)
{
    char path[4096];
    size_t len = strlen(dir);
    if (len == 0 || len >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(path, dir, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        char saved = path[i];
        path[i] = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return -1;
        path[i] = saved;
    }
    return 0;
}

/* Appends path's components to buf (a real path) as mkdir -p resolves
 * them once made: "." stays, ".." goes up (a directory made new is no
 * symlink). */
static ct_status_t ct_outdir_append(char *buf, size_t buflen, const char *path)
{
    size_t n = strlen(buf);
    while (*path != '\0') {
        size_t len = strcspn(path, "/");
        if (len == 2 && path[0] == '.' && path[1] == '.') {
            while (n > 1 && buf[n - 1] != '/')
                n--;
            n = n > 1 ? n - 1 : 1;
            buf[n] = '\0';
        } else if (len > 0 && !(len == 1 && path[0] == '.')) {
            int m = snprintf(buf + n, buflen - n, "%s%.*s", n > 1 ? "/" : "", (int)len, path);
            if (m < 0 || (size_t)m >= buflen - n)
                return CT_ERR_USAGE;
            n += (size_t)m;
        }
        path += len;
        path += *path == '/';
    }
    return CT_OK;
}

ct_status_t ct_outdir_realpath(const char *dir, char *buf, size_t buflen, char *err, size_t errlen)
{
    char head[PATH_MAX], real[PATH_MAX];
    size_t len = strlen(dir);
    if (len == 0 || len >= sizeof head) {
        snprintf(err, errlen, "%s", len ? "path is too long" : "is empty");
        return CT_ERR_USAGE;
    }
    memcpy(head, dir, len + 1);
    /* The deepest part that exists, as realpath sees it; the rest is made. */
    const char *rest = "";
    for (;;) {
        if (realpath(head[0] ? head : ".", real) != NULL)
            break;
        if (errno != ENOENT) {
            snprintf(err, errlen, "cannot be created: %s", strerror(errno));
            return CT_ERR_USAGE;
        }
        char *slash = strrchr(head, '/');
        while (slash != NULL && slash > head && slash[-1] == '/')
            slash--;
        if (slash == NULL) {
            rest = dir;
            head[0] = '\0';
        } else {
            rest = dir + (slash - head) + 1;
            slash[slash == head] = '\0'; /* "/x": the root stays */
        }
    }
    if (strlen(real) >= buflen) {
        snprintf(err, errlen, "path is too long");
        return CT_ERR_USAGE;
    }
    memcpy(buf, real, strlen(real) + 1);
    if (ct_outdir_append(buf, buflen, rest) != CT_OK) {
        snprintf(err, errlen, "path is too long");
        return CT_ERR_USAGE;
    }
    return CT_OK;
}

ct_status_t ct_outdir_prepare(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (*dir == '\0') {
        snprintf(err, errlen, "is empty");
        return CT_ERR_USAGE;
    }
    if (stat(dir, &st) != 0) {
        if (errno != ENOENT || ct_outdir_mkdirs(dir) != 0 || stat(dir, &st) != 0) {
            snprintf(err, errlen, "cannot be created: %s", strerror(errno));
            return CT_ERR_USAGE;
        }
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "exists and is not a directory");
        return CT_ERR_USAGE;
    }
    /* access() says yes to root on a read-only mount; creating a file
     * is the only proof. */
    char probe[4096];
    if (ct_outdir_path(dir, ".colltune-probe.XXXXXX", probe, sizeof probe) != CT_OK) {
        snprintf(err, errlen, "path is too long");
        return CT_ERR_USAGE;
    }
    int fd = mkstemp(probe);
    if (fd < 0) {
        snprintf(err, errlen, "is not writable: %s", strerror(errno));
        return CT_ERR_USAGE;
    }
    close(fd);
    unlink(probe);
    return CT_OK;
}

ct_status_t ct_outdir_path(const char *dir, const char *name, char *buf, size_t buflen)
{
    int n = snprintf(buf, buflen, "%s/%s", dir, name);
    return n >= 0 && (size_t)n < buflen ? CT_OK : CT_ERR_USAGE;
}

int ct_outdir_commit(ct_outfile_t *out, const char *who)
{
    char err[8800];
    if (ct_outfile_commit(out, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune %s: %s\n", who, err);
        return -1;
    }
    return 0;
}

FILE *ct_outdir_open(ct_outfile_t *out, const char *path, const char *who)
{
    char err[8800];
    if (ct_outfile_open(out, path, 0666, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune %s: %s\n", who, err);
        return NULL;
    }
    return out->fp;
}

int ct_outdir_check_file(const char *who, const char *out, int force, ct_path_target_t *target_p)
{
    char err[256];
    if (ct_path_target(out, target_p, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune %s: --out %s: %s\n", who, out, err);
        return CT_EXIT_USAGE;
    }
    if (target_p->exists && !S_ISREG(target_p->st.st_mode)) {
        fprintf(stderr, "colltune %s: --out %s: is %s, not a regular file\n", who, out,
                ct_path_kind(target_p->st.st_mode));
        return CT_EXIT_USAGE;
    }
    if (target_p->exists && !force) {
        fprintf(stderr, "colltune %s: --out %s: exists (give --force to replace it)\n", who, out);
        return CT_EXIT_USAGE;
    }
    return CT_EXIT_OK;
}

/* A lock file this code made holds nothing, or one pid line: anything
 * else is someone's file that happens to be called .lock. */
static int ct_outdir_lock_ours(int fd)
{
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf, 0);
    if (n < 0 || n == (ssize_t)sizeof buf)
        return 0;
    for (ssize_t i = 0; i < n; i++)
        if (!((buf[i] >= '0' && buf[i] <= '9') || (buf[i] == '\n' && i == n - 1)))
            return 0;
    return 1;
}

int ct_outdir_lock(const char *dir, const char *who)
{
    char path[4096];
    if (ct_outdir_path(dir, ".lock", path, sizeof path) != CT_OK) {
        fprintf(stderr, "colltune %s: %s: path too long\n", who, dir);
        return -1;
    }
    /* Never truncate on open: a hard link or a user's file would lose its
     * content.  A lock we create is new; one found is checked first. */
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
    int created = fd >= 0;
    struct stat st;
    if (fd < 0 && errno == EEXIST) {
        if (lstat(path, &st) != 0) {
            fprintf(stderr, "colltune %s: cannot lock %s: %s\n", who, path, strerror(errno));
            return -1;
        }
        /* Looked at before it is opened: opening a FIFO or a device may
         * block or act. */
        if (!S_ISREG(st.st_mode)) {
            fprintf(stderr, "colltune %s: cannot lock %s: it is %s, not a regular file\n", who,
                    path, S_ISLNK(st.st_mode) ? "a symbolic link" : ct_path_kind(st.st_mode));
            return -1;
        }
        fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    }
    if (fd < 0) {
        fprintf(stderr, "colltune %s: cannot lock %s: %s\n", who, path,
                errno == ELOOP ? "it is a symbolic link, not a regular file" : strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        fprintf(stderr, "colltune %s: cannot lock %s: %s\n", who, path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode) || st.st_nlink != 1) {
        if (!S_ISREG(st.st_mode))
            fprintf(stderr, "colltune %s: cannot lock %s: it is %s, not a regular file\n", who,
                    path, ct_path_kind(st.st_mode));
        else
            fprintf(stderr,
                    "colltune %s: cannot lock %s: it has %lu hard links (another file's "
                    "content would be overwritten)\n",
                    who, path, (unsigned long)st.st_nlink);
        close(fd);
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int busy = errno == EWOULDBLOCK;
        char buf[32] = "";
        ssize_t n = busy ? pread(fd, buf, sizeof buf - 1, 0) : -1;
        buf[n > 0 ? n : 0] = '\0';
        long pid = strtol(buf, NULL, 10);
        if (busy && pid > 0)
            fprintf(stderr, "colltune %s: %s is in use by pid %ld\n", who, dir, pid);
        else if (busy)
            fprintf(stderr, "colltune %s: %s is in use by another colltune\n", who, dir);
        else
            fprintf(stderr, "colltune %s: cannot lock %s: %s\n", who, path, strerror(errno));
        close(fd);
        return -1;
    }
    /* Read once we hold it, so that a holder's pid is whole. */
    if (!created && !ct_outdir_lock_ours(fd)) {
        fprintf(stderr,
                "colltune %s: cannot lock %s: it holds something other than a pid, so it is "
                "not a colltune lock (remove it if it is not needed)\n",
                who, path);
        close(fd);
        return -1;
    }
    char pid[32];
    int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    /* The pid is only a hint for "in use by pid N"; it is written over an
     * earlier pid line, never over anything else (checked above). */
    if (pwrite(fd, pid, (size_t)len, 0) != len || ftruncate(fd, len) != 0) {
        fprintf(stderr, "colltune %s: cannot write %s: %s\n", who, path, strerror(errno));
        close(fd);
        return -1;
    }
    return 0; /* fd stays open: the lock lasts as long as the process */
}
