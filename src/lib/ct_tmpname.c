/* SPDX-License-Identifier: BSD-3-Clause */
#define _DEFAULT_SOURCE /* gethostname, fstatat */
#include "ct_tmpname.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* This host's name as one safe file-name word: a character other than a
 * letter, digit, '.', '-' or '_' becomes '_'. */
static void ct_tmpname_host(char *buf, size_t len)
{
    if (gethostname(buf, len - 1) != 0)
        snprintf(buf, len, "host");
    buf[len - 1] = '\0';
    for (char *p = buf; *p; p++)
        if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9') &&
            *p != '.' && *p != '-' && *p != '_')
            *p = '_';
}

ct_status_t ct_tmpname(const char *target, char *buf, size_t len)
{
    char host[256];
    ct_tmpname_host(host, sizeof host);
    int n = snprintf(buf, len, "%s.%s.%ld.tmp", target, host, (long)getpid());
    return n >= 0 && (size_t)n < len ? CT_OK : CT_ERR_USAGE;
}

/* The pid of an entry named PREFIX + digits + ".tmp", or 0. */
static long ct_tmpname_pid(const char *name, const char *prefix)
{
    size_t plen = strlen(prefix);
    if (strncmp(name, prefix, plen) != 0)
        return 0;
    const char *digits = name + plen;
    char *end;
    errno = 0;
    long pid = strtol(digits, &end, 10);
    if (end == digits || *digits < '0' || *digits > '9' || errno != 0 || pid > INT_MAX ||
        strcmp(end, ".tmp") != 0)
        return 0;
    return pid;
}

int ct_tmpname_clean_stale(const char *target)
{
    char dir[4096], prefix[4400], host[256];
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    if (slash == target)
        snprintf(dir, sizeof dir, "/");
    else if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - target), target);
    else
        snprintf(dir, sizeof dir, ".");
    ct_tmpname_host(host, sizeof host);
    if (snprintf(prefix, sizeof prefix, "%s.%s.", base, host) >= (int)sizeof prefix)
        return 0;

    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    int removed = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        long pid = ct_tmpname_pid(e->d_name, prefix);
        if (pid <= 0 || pid == (long)getpid())
            continue;
        /* Alive, or someone else's (EPERM): not ours to remove. */
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            st.st_uid != geteuid())
            continue;
        removed += unlinkat(dirfd(d), e->d_name, 0) == 0;
    }
    closedir(d);
    return removed;
}
