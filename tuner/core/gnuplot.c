/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gnuplot.c - finding and running gnuplot and the scripts of plots/.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "ct_outfile.h"
#include "ct_tmpname.h"
#include "gnuplot.h"
#include "self_path.h"
#include "trial.h"
#ifndef CT_PLOTS_DIR
#define CT_PLOTS_DIR ""
#endif
#ifndef CT_PLOTS_SRCDIR
#define CT_PLOTS_SRCDIR ""
#endif

/* A plot takes gnuplot a second or so; these keep a hung or endlessly
 * printing one from stalling the command or filling the disk. */
#define CT_GNUPLOT_TIMEOUT_S 60.0
#define CT_GNUPLOT_MAX_OUTPUT (16LL << 20)
/* How much of gnuplot's stderr (its warnings) is passed on. */
#define CT_GNUPLOT_SHOW_ERR 65536

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

/* p made absolute (against the working directory) into buf.  gnuplot
 * opens a file name that begins with '<' through popen() and an output
 * that begins with '|' as a pipe, both through /bin/sh: a name that
 * begins with '/' can be neither.  0, or -1 when it does not fit. */
static int ct_gnuplot_abs(const char *p, char *buf, size_t len)
{
    if (p[0] == '/') {
        int n = snprintf(buf, len, "%s", p);
        return n > 0 && (size_t)n < len ? 0 : -1;
    }
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) == NULL)
        return -1;
    int n = snprintf(buf, len, "%s/%s", cwd, p);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* Does path end with the bytes of tail (after trailing white space when
 * ws)?  Reads only the file's last 64 bytes. */
static int ct_gnuplot_ends_with(const char *path, const char *tail, size_t tlen, int ws)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    unsigned char b[64];
    size_t n = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        long from = size > (long)sizeof b ? size - (long)sizeof b : 0;
        if (size > 0 && fseek(f, from, SEEK_SET) == 0)
            n = fread(b, 1, sizeof b, f);
    }
    fclose(f);
    while (ws && n > 0 &&
           (b[n - 1] == '\n' || b[n - 1] == '\r' || b[n - 1] == ' ' || b[n - 1] == '\t'))
        n--;
    return n >= tlen && memcmp(b + n - tlen, tail, tlen) == 0;
}

/* Is the image gnuplot wrote whole?  On a full file system gnuplot may
 * exit 0 with a cut file: a PNG must end with its IEND chunk, an SVG with
 * its closing tag, anything else must not be empty.  Only then may it
 * replace an older image. */
static int ct_gnuplot_image_whole(const char *tmp, const char *out)
{
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    size_t len = strlen(out);
    if (len >= 4 && strcmp(out + len - 4, ".png") == 0)
        return ct_gnuplot_ends_with(tmp, (const char *)iend, sizeof iend, 0);
    if (len >= 4 && strcmp(out + len - 4, ".svg") == 0)
        return ct_gnuplot_ends_with(tmp, "</svg>", 6, 1);
    FILE *f = fopen(tmp, "rb");
    int c = f != NULL ? fgetc(f) : EOF;
    if (f != NULL)
        fclose(f);
    return c != EOF;
}

/* Passes on what gnuplot wrote to its stderr file: its warnings and
 * errors, at most CT_GNUPLOT_SHOW_ERR bytes. */
static void ct_gnuplot_show_err(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return;
    char buf[4096];
    size_t n, shown = 0;
    while (shown < CT_GNUPLOT_SHOW_ERR && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        fwrite(buf, 1, n, stderr);
        shown += n;
    }
    if (fgetc(f) != EOF)
        fprintf(stderr, "\n[... the rest of gnuplot's messages left out]\n");
    fclose(f);
}

int ct_gnuplot_draw(const char *gnuplot, const char *dir, const char *script, const char *data,
                    const char *out, const char *const *args, size_t nargs, const char *who)
{
    char rel[PATH_MAX], path[PATH_MAX], dat[PATH_MAX], tmp[PATH_MAX];
    if (snprintf(rel, sizeof rel, "%s/%s", dir, script) >= (int)sizeof rel ||
        ct_gnuplot_abs(rel, path, sizeof path) != 0 || ct_gnuplot_abs(data, dat, sizeof dat) != 0 ||
        ct_tmpname(out, rel, sizeof rel) != CT_OK || ct_gnuplot_abs(rel, tmp, sizeof tmp) != 0) {
        fprintf(stderr, "colltune %s: %s: path too long\n", who, out);
        return -1;
    }
    char **argv = calloc(nargs + 6, sizeof *argv);
    if (argv == NULL)
        return -1;
    size_t k = 0;
    argv[k++] = (char *)gnuplot; /* the runner executes argv[0] */
    argv[k++] = (char *)"-c";
    argv[k++] = path;
    argv[k++] = dat;
    argv[k++] = tmp;
    for (size_t i = 0; i < nargs; i++)
        argv[k++] = (char *)args[i];
    argv[k] = NULL;
    /* Through the trial runner: its own session, a time limit, a cap on
     * what it prints.  Its stderr goes to a file beside the image and is
     * passed on after (at most CT_GNUPLOT_SHOW_ERR bytes of it). */
    char errf[PATH_MAX + 8];
    snprintf(errf, sizeof errf, "%s.err", tmp);
    ct_trial_spec_t spec = {.argv = argv,
                            .stdout_path = "/dev/null",
                            .stderr_path = errf,
                            .timeout_s = CT_GNUPLOT_TIMEOUT_S,
                            .grace_s = 1,
                            .max_output = CT_GNUPLOT_MAX_OUTPUT};
    ct_trial_result_t res;
    char err[512];
    ct_status_t st = ct_trial_run(&spec, &res, err, sizeof err);
    free(argv);
    if (st != CT_OK) {
        fprintf(stderr, "colltune %s: cannot run %s: %s\n", who, gnuplot, err);
        unlink(errf);
        unlink(tmp);
        return -1;
    }
    ct_gnuplot_show_err(errf);
    unlink(errf);
    if (res.outcome == CT_TRIAL_INTERRUPTED) {
        /* The user's Ctrl-C (or a TERM) stops colltune as it stopped
         * gnuplot: by the signal, so the shell reads 130 (143), as before
         * gnuplot ran under the trial runner. */
        unlink(tmp);
        signal(res.interrupt, SIG_DFL);
        raise(res.interrupt);
    }
    if (res.outcome != CT_TRIAL_OK) {
        char why[128];
        ct_trial_reason(&spec, &res, why, sizeof why);
        fprintf(stderr, "colltune %s: %s -c %s %s %s%s\n", who, gnuplot, path, dat, why,
                res.timed_out || res.over_cap ? "; killed" : "");
        unlink(tmp);
        return -1;
    }
    if (!ct_gnuplot_image_whole(tmp, out)) {
        fprintf(stderr,
                "colltune %s: %s: gnuplot wrote a cut or empty image (a full disk?); %s is kept "
                "as it was\n",
                who, tmp, out);
        unlink(tmp);
        return -1;
    }
    char msg[8800];
    if (ct_outfile_rename(tmp, out, msg, sizeof msg) != CT_OK) {
        fprintf(stderr, "colltune %s: %s\n", who, msg);
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
