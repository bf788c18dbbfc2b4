/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * io_shim.c - a test double for a slow or full file system, LD_PRELOADed
 * into collbench by the output tests.  Only tests load this library.
 *
 *   IO_SHIM_SLOW_RENAME=SUFFIX  a rename() onto a path ending in SUFFIX
 *                               first writes the caller's pid to
 *                               $IO_SHIM_READY, then sleeps 3 s: the window
 *                               in which a test sends a signal (D10).
 *   IO_SHIM_FULL=SUFFIX         write() to a file whose path ends in SUFFIX
 *   IO_SHIM_FULL_AFTER=BYTES    fails with ENOSPC once BYTES were written
 *                               to it by this process (D1, where no small
 *                               file system can be mounted).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int io_shim_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return k > 0 && n >= k && strcmp(s + n - k, suffix) == 0;
}

int rename(const char *from, const char *to)
{
    int (*real)(const char *, const char *) =
        (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    const char *slow = getenv("IO_SHIM_SLOW_RENAME");
    const char *ready = getenv("IO_SHIM_READY");

    if (slow && ready && io_shim_ends_with(to, slow)) {
        char tmp[4200];
        snprintf(tmp, sizeof tmp, "%s.part", ready);
        FILE *fp = fopen(tmp, "w");
        if (fp) {
            fprintf(fp, "%ld\n", (long)getpid());
            fclose(fp);
            real(tmp, ready); /* appears whole */
        }
        sleep(3);
    }
    return real(from, to);
}

ssize_t write(int fd, const void *buf, size_t len)
{
    static size_t written; /* the shim's own counter; tests only */
    ssize_t (*real)(int, const void *, size_t) =
        (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    const char *full = getenv("IO_SHIM_FULL");
    const char *after = getenv("IO_SHIM_FULL_AFTER");

    if (full && after && fd > 2) {
        char link[64], path[4096];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, path, sizeof path - 1);
        if (n > 0) {
            path[n] = '\0';
            if (io_shim_ends_with(path, full)) {
                size_t limit = (size_t)strtoull(after, NULL, 10);
                if (written + len > limit) {
                    errno = ENOSPC;
                    return -1;
                }
                written += len;
            }
        }
    }
    return real(fd, buf, len);
}
