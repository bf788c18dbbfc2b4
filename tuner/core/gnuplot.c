/*
 * gnuplot.c - finding and running gnuplot and the scripts of plots/.
 */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "gnuplot.h"
#include "self_path.h"

extern char **environ;

#ifndef CT_PLOTS_DIR
#define CT_PLOTS_DIR ""
#endif
#ifndef CT_PLOTS_SRCDIR
#define CT_PLOTS_SRCDIR ""
#endif

/* The script every plots directory has: how a candidate is recognised. */
#define CT_GNUPLOT_PROBE "busbw.gp"

/* name itself when it holds a '/', else the first on PATH; into buf. */
static int ct_gnuplot_which(const char *name, char *buf, size_t len)
{
    if (strchr(name, '/') != NULL) {
        int n = snprintf(buf, len, "%s", name);
        return n > 0 && (size_t)n < len && access(buf, X_OK) == 0 ? 0 : -1;
    }
    const char *path = getenv("PATH");
    while (path != NULL && *path) {
        size_t dlen = strcspn(path, ":");
        int n = snprintf(buf, len, "%.*s/%s", (int)dlen, path, name);
        if (dlen > 0 && n > 0 && (size_t)n < len && access(buf, X_OK) == 0)
            return 0;
        path += dlen + (path[dlen] == ':');
    }
    return -1;
}

int ct_gnuplot_find(const char *opt, const char *who, char *buf, size_t len)
{
    if (opt != NULL) {
        if (ct_gnuplot_which(opt, buf, len) == 0)
            return 0;
    } else {
#ifdef CT_GNUPLOT_PATH
        if (ct_gnuplot_which(CT_GNUPLOT_PATH, buf, len) == 0)
            return 0;
#endif
        if (ct_gnuplot_which("gnuplot", buf, len) == 0)
            return 0;
    }
    fprintf(stderr,
            "colltune %s: gnuplot not found%s%s (on Debian or Ubuntu: apt-get install "
            "gnuplot-nox)\n",
            who, opt ? ": --gnuplot " : "", opt ? opt : "");
    return -1;
}

static int ct_gnuplot_has_probe(const char *dir)
{
    char p[PATH_MAX];
    int n = snprintf(p, sizeof p, "%s/%s", dir, CT_GNUPLOT_PROBE);
    return n > 0 && (size_t)n < sizeof p && access(p, R_OK) == 0;
}

int ct_gnuplot_find_scripts(const char *opt, const char *who, char *buf, size_t len)
{
    const char *given = opt ? opt : getenv("COLLTUNE_PLOTS_DIR");
    if (given != NULL && *given) {
        snprintf(buf, len, "%s", given);
        if (ct_gnuplot_has_probe(buf))
            return 0;
        fprintf(stderr, "colltune %s: %s: no %s there (%s)\n", who, given, CT_GNUPLOT_PROBE,
                opt ? "--plots-dir" : "COLLTUNE_PLOTS_DIR");
        return -1;
    }
    /* libtool may run the binary from tuner/.libs, hence two levels. */
    static const char *const rel[] = {"/../plots", "/../../plots"};
    if (ct_self_path_find(rel, 2, CT_GNUPLOT_PROBE, R_OK, buf, len) == 0)
        return 0;
    const char *fixed[] = {CT_PLOTS_DIR, CT_PLOTS_SRCDIR};
    for (size_t i = 0; i < 2; i++) {
        snprintf(buf, len, "%s", fixed[i]);
        if (*fixed[i] && ct_gnuplot_has_probe(buf))
            return 0;
    }
    fprintf(stderr,
            "colltune %s: the gnuplot scripts (busbw.gp, ...) are not installed in "
            "%s; give --plots-dir DIR\n",
            who, CT_PLOTS_DIR);
    return -1;
}

int ct_gnuplot_draw(const char *gnuplot, const char *dir, const char *script, const char *data,
                    const char *out, const char *const *args, size_t nargs, const char *who)
{
    char path[PATH_MAX], tmp[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, script) >= (int)sizeof path ||
        snprintf(tmp, sizeof tmp, "%s.tmp", out) >= (int)sizeof tmp)
        return -1;
    char **argv = calloc(nargs + 6, sizeof *argv);
    if (argv == NULL)
        return -1;
    size_t k = 0;
    argv[k++] = (char *)"gnuplot";
    argv[k++] = (char *)"-c";
    argv[k++] = path;
    argv[k++] = (char *)data;
    argv[k++] = tmp;
    for (size_t i = 0; i < nargs; i++)
        argv[k++] = (char *)args[i];
    argv[k] = NULL;
    pid_t pid;
    int err = posix_spawn(&pid, gnuplot, NULL, NULL, argv, environ);
    free(argv);
    if (err != 0) {
        fprintf(stderr, "colltune %s: cannot run %s: %s\n", who, gnuplot, strerror(err));
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || access(tmp, R_OK) != 0) {
        fprintf(stderr, "colltune %s: %s -c %s %s failed (status %d)\n", who, gnuplot, path, data,
                status);
        unlink(tmp);
        return -1;
    }
    if (rename(tmp, out) != 0) {
        fprintf(stderr, "colltune %s: cannot write %s: %s\n", who, out, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int ct_gnuplot_parse_format(const char *who, const char *value, int *png, int *svg)
{
    int p = strcmp(value, "png") == 0 || strcmp(value, "both") == 0;
    int s = strcmp(value, "svg") == 0 || strcmp(value, "both") == 0;
    if (!p && !s) {
        fprintf(stderr, "colltune %s: --format %s: png, svg or both\n", who, value);
        return -1;
    }
    *png = p;
    *svg = s;
    return 0;
}

int ct_gnuplot_parse_size(const char *who, const char *value, long *w, long *h)
{
    char x = 0, extra = 0;
    long a, b;
    if (sscanf(value, "%ld%c%ld%c", &a, &x, &b, &extra) != 3 || x != 'x' || a < 64 || a > 16384 ||
        b < 64 || b > 16384) {
        fprintf(stderr, "colltune %s: --size %s: WxH in pixels, 64 to 16384 each\n", who, value);
        return -1;
    }
    *w = a;
    *h = b;
    return 0;
}
