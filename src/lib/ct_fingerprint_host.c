/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_fingerprint_host.c - the kernel, the CPU and its frequency governor:
 * a new kernel or a governor left at "powersave" after maintenance moves
 * latencies as surely as a library does.
 */
#include "ct_fingerprint.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* root + rel, or NULL when it does not fit. */
static const char *ct_fp_path(const char *root, const char *rel, char *buf, size_t len)
{
    size_t r = strlen(root);
    while (r > 0 && root[r - 1] == '/')
        r--;
    int n = snprintf(buf, len, "%.*s%s", (int)r, root, rel);
    return n >= 0 && (size_t)n < len ? buf : NULL;
}

/* s without leading and trailing white space, in place. */
static char *ct_fp_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* The first line of a file, trimmed, malloc'd; NULL when unreadable or
 * empty. */
static char *ct_fp_first_line(const char *path)
{
    char line[512];
    FILE *f = path ? fopen(path, "r") : NULL;
    if (f == NULL)
        return NULL;
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    char *t = got ? ct_fp_trim(line) : NULL;
    return t && *t ? strdup(t) : NULL;
}

/* The value of cpuinfo's first "model name" line (x86; other machines
 * may have none). */
static char *ct_fp_cpu_model(const char *path)
{
    char line[1024];
    char *model = NULL;
    FILE *f = path ? fopen(path, "r") : NULL;
    if (f == NULL)
        return NULL;
    while (model == NULL && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (colon == NULL)
            continue;
        *colon = '\0';
        if (strcmp(ct_fp_trim(line), "model name") == 0)
            model = strdup(ct_fp_trim(colon + 1));
    }
    fclose(f);
    return model;
}

/* The count of CPUs in a kernel CPU list ("0-3,8"); -1 when malformed. */
static long ct_fp_cpu_list_count(const char *list)
{
    long count = 0;
    const char *p = list;
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p || a < 0)
            return -1;
        p = end;
        if (*p == '-') {
            b = strtol(p + 1, &end, 10);
            if (end == p + 1 || b < a)
                return -1;
            p = end;
        }
        count += b - a + 1;
        if (*p == ',')
            p++;
        else if (*p)
            return -1;
    }
    return count > 0 ? count : -1;
}

ct_status_t ct_fingerprint_host(const char *root, ct_fingerprint_t *fp)
{
    struct utsname u;
    char buf[4096];

    if (uname(&u) != 0)
        memset(&u, 0, sizeof u);
    size_t len = strlen(u.release) + strlen(u.version) + 2;
    fp->kernel = malloc(len);
    fp->machine = strdup(u.machine);
    if (fp->kernel == NULL || fp->machine == NULL)
        return CT_ERR_NOMEM;
    snprintf(fp->kernel, len, "%s %s", u.release, u.version);

    fp->cpu_model = ct_fp_cpu_model(ct_fp_path(root, "/proc/cpuinfo", buf, sizeof buf));
    char *online =
        ct_fp_first_line(ct_fp_path(root, "/sys/devices/system/cpu/online", buf, sizeof buf));
    fp->cpus_online = online ? ct_fp_cpu_list_count(online) : -1;
    free(online);
    if (fp->cpus_online < 0)
        fp->cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
    fp->governor = ct_fp_first_line(
        ct_fp_path(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof buf));
    return CT_OK;
}
