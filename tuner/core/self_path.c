/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * self_path.c - files beside the running program (self_path.h).
 */
#include "self_path.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int ct_self_path_find(const char *const *rel, size_t nrel, const char *probe, int mode, char *buf,
                      size_t len)
{
    char self[PATH_MAX], path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash == NULL)
        return -1;
    *slash = '\0';
    for (size_t i = 0; i < nrel; i++) {
        int m = snprintf(buf, len, "%s%s", self, rel[i]);
        if (m <= 0 || (size_t)m >= len)
            continue;
        m = snprintf(path, sizeof path, "%s%s%s", buf, *probe ? "/" : "", probe);
        if (m > 0 && (size_t)m < sizeof path && access(path, mode) == 0)
            return 0;
    }
    return -1;
}
