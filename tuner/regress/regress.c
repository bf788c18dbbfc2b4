/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * regress.c - `colltune regress HISTORY`: is the newest run slower?
 *
 * HISTORY holds one directory per run (`colltune sweep --out HISTORY/RUN`,
 * or a results.csv from `colltune import`).  Runs are read with src/lib's
 * results reader (ct_results_read), ordered by their date (results.json start_time,
 * else the earliest row's time; ties by name), cut into series and judged
 * by regress_stats.c's rule.  Every slower series names its first slow run
 * and what changed in the metadata since the run before it.  Exit 0 none
 * slower, 1 some slower, 2 bad input (file:line named), 3 I/O failure.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ct_outfile.h"
#include "ct_num.h"
#include "command.h"
#include "ct_tmpname.h"
#include "ct_path.h"
#include "gnuplot.h"
#include "ct_vec.h"
#include "outdir.h"
#include "regress_cmd.h"

enum {
    CT_REG_WINDOW = 1,
    CT_REG_BASELINE,
    CT_REG_THRESHOLD,
    CT_REG_MD,
    CT_REG_PLOT,
    CT_REG_FORMAT,
    CT_REG_SIZE,
    CT_REG_GNUPLOT,
    CT_REG_PLOTS_DIR,
    CT_REG_JSON,
    CT_REG_SINCE,
    CT_REG_INDEX,
};

static const ct_cli_opt_t ct_reg_opts[] = {
    {CT_REG_WINDOW, "window", "K", "baseline: the K runs before the newest (default 12)"},
    {CT_REG_BASELINE, "baseline", "RUN",
     "pin the baseline: the window of runs ending at run directory RUN"},
    {CT_REG_THRESHOLD, "threshold", "PCT", "smallest slowdown that matters, percent (default 5)"},
    {CT_REG_SINCE, "since", "RUN",
     "a new baseline begins at run directory RUN: earlier runs are not judged against (as a "
     "file named " CT_REG_NEW_BASELINE " in RUN)"},
    {CT_REG_MD, "md", "FILE", "also write the table and the diagnosis as markdown"},
    {CT_REG_JSON, "json", "FILE", "also write the verdicts as JSON (schema colltune-regress/1)"},
    {CT_REG_PLOT, "plot", "DIR",
     "also draw the history: time series per collective and per flagged series, index.html"},
    {CT_REG_FORMAT, "format", "png|svg|both", "--plot's image format (default png)"},
    {CT_REG_SIZE, "size", "WxH", "--plot's image size in pixels (default 1280x720)"},
    CT_GNUPLOT_OPTS(CT_REG_GNUPLOT, CT_REG_PLOTS_DIR),
    {CT_REG_INDEX, "index", "FILE",
     "also write the history's page: every run newest first, its verdict, links to its plots"},
};
#define CT_REG_NOPTS (sizeof ct_reg_opts / sizeof ct_reg_opts[0])

static void ct_reg_usage(FILE *f)
{
    fprintf(f, "usage: colltune regress [--window K | --baseline RUN] [--since RUN]\n"
               "                        [--threshold PCT] [--md FILE] [--json FILE]\n"
               "                        [--plot DIR [--format png|svg|both] [--size WxH]]\n"
               "                        [--index FILE] HISTORY\n\n"
               "HISTORY holds one directory per run (colltune sweep --out HISTORY/RUN).  For\n"
               "each workload (collective x size x backend x placement x dtype/op x ranks),\n"
               "judges the newest run against the baseline and the whole history for a\n"
               "change point, and the newest run as a whole: most series moving at once\n"
               "is one event (doc/colltune.md, \"regress\": the rule and its parameters).\n"
               "For every slower series, names the first slow run and the candidate causes\n"
               "(what changed in results.json, its fingerprint and configuration, from the\n"
               "last good run; most specific first), once per run that many series moved\n"
               "at.  A configuration change is reported, not a new history: a new baseline\n"
               "begins only at a run holding a file named " CT_REG_NEW_BASELINE " (or --since).\n"
               "A series that improved by the same rule mirrored is FASTER; one whose step\n"
               "went away is recovered (neither is a regression).  A single run is the\n"
               "first night: \"baseline begins\", exit 0.  --plot DIR draws the history\n"
               "with gnuplot (plots/timeseries.gp): per collective, and per flagged series,\n"
               "the baseline band and the flagged runs marked; DIR/index.html lists them\n"
               "and the table.\n"
               "\noptions:\n");
    ct_cli_print_options(f, ct_reg_opts, CT_REG_NOPTS);
    fprintf(f, "\nexit codes: 0 nothing slower (FASTER, recovered and a first night included),\n"
               "1 some series slower, 2 bad input (file:line named; also an empty history, a\n"
               "run directory given as HISTORY, a --plot DIR that cannot be written), 3 I/O\n"
               "failure, or --plot without gnuplot (Debian: apt-get install gnuplot-nox) or\n"
               "gnuplot failed.\n");
}

static void ct_reg_runs_free(ct_reg_runs_t *runs)
{
    for (size_t i = 0; i < runs->n; i++) {
        ct_results_free(&runs->v[i].rows);
        json_decref(runs->v[i].meta);
    }
    free(runs->v);
}

static int ct_reg_run_cmp(const void *a, const void *b)
{
    const ct_reg_run_t *x = a, *y = b;
    int c = strcmp(x->date, y->date);
    return c ? c : strcmp(x->name, y->name);
}

static int ct_reg_is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Reads one run directory; 1 when it holds no results (skipped: err says
 * why). */
static int ct_reg_read_run(const char *history, const char *name, ct_reg_run_t *run, char *err,
                           size_t errlen, ct_status_t *st)
{
    char json[PATH_MAX + 16], csv[PATH_MAX + 16];
    memset(run, 0, sizeof *run);
    snprintf(run->name, sizeof run->name, "%s", name);
    snprintf(run->dir, sizeof run->dir, "%s/%s", history, name);
    snprintf(json, sizeof json, "%s/results.json", run->dir);
    snprintf(csv, sizeof csv, "%s/results.csv", run->dir);
    char marker[PATH_MAX + 32];
    snprintf(marker, sizeof marker, "%s/" CT_REG_NEW_BASELINE, run->dir);
    run->new_baseline = access(marker, F_OK) == 0;
    const char *path = ct_reg_is_file(json) ? json : ct_reg_is_file(csv) ? csv : NULL;
    if (path == NULL) {
        snprintf(err, errlen, "%s: no results.json or results.csv, skipped", run->dir);
        return 1;
    }
    /* A results.json's document is the run's metadata: read once. */
    *st = ct_results_read(path, &run->rows, &run->meta, err, errlen);
    if (*st != CT_OK)
        return 0;
    if (run->rows.n == 0) {
        /* A failed run's header alone had no date, sorted first and moved
         * the newest run's baseline (issue 15, E24). */
        snprintf(err, errlen, "%s: no rows, skipped", path);
        ct_results_free(&run->rows);
        json_decref(run->meta);
        run->meta = NULL;
        return 1;
    }
    if (path == json) {
        const char *d = json_string_value(json_object_get(run->meta, "start_time"));
        /* Runs are ordered by it: a date that is not one would sort the
         * run to either end and make it "the newest". */
        if (d != NULL && !ct_result_time_ok(d)) {
            snprintf(err, errlen, "%.400s: start_time '%.40s' is not YYYY-MM-DDTHH:MM:SSZ (UTC)",
                     path, d);
            *st = CT_ERR_PARSE;
            return 0;
        }
        snprintf(run->date, sizeof run->date, "%s", d ? d : "");
    }
    /* no metadata (an imported run): the earliest row's time */
    for (size_t i = 0; run->date[0] == '\0' && i < run->rows.n; i++)
        if (run->date[0] == '\0' || strcmp(run->rows.v[i].time, run->date) < 0)
            snprintf(run->date, sizeof run->date, "%s", run->rows.v[i].time);
    return 0;
}

/* A symbolic link p in the history, to a directory: skipped, with a note.
 * A run is counted by its own directory: `latest -> run-013` is the same
 * night again (counted twice, one slow night read as a confirmed step,
 * issue 38, H12), and a link elsewhere is not a night of this history.
 * hist: the history's stat, to tell the two apart (the target's parent). */
static void ct_reg_link_note(const char *p, const struct stat *hist)
{
    char target[PATH_MAX], up[PATH_MAX + 4], b1[CT_REG_SAFE_LEN], b2[CT_REG_SAFE_LEN];
    struct stat sb;
    ssize_t n = readlink(p, target, sizeof target - 1);
    target[n > 0 ? n : 0] = '\0';
    /* the target's last name ("run-013" of "../h/run-013/"): a hidden one
     * is no run either */
    char last[PATH_MAX];
    snprintf(last, sizeof last, "%s", target);
    for (size_t k = strlen(last); k > 1 && last[k - 1] == '/';)
        last[--k] = '\0';
    const char *base = strrchr(last, '/');
    base = base ? base + 1 : last;
    snprintf(up, sizeof up, "%s/..", p);
    int here = hist != NULL && stat(up, &sb) == 0 && sb.st_dev == hist->st_dev &&
               sb.st_ino == hist->st_ino && base[0] != '.' && base[0] != '\0';
    fprintf(stderr, "colltune regress: %s: a link to %s, %s: skipped\n",
            ct_reg_safe(p, 0, b1, sizeof b1), ct_reg_safe(target, 0, b2, sizeof b2),
            here ? "a run this history counts by its own name"
                 : "not a run directory of this history");
}

static ct_status_t ct_reg_read_history(const char *history, ct_reg_runs_t *runs)
{
    DIR *d = opendir(history);
    if (d == NULL) {
        fprintf(stderr, "colltune regress: %s: %s\n", history, strerror(errno));
        return CT_ERR_USAGE;
    }
    struct stat hist;
    int hist_ok = stat(history, &hist) == 0;
    ct_status_t st = CT_OK;
    size_t cap = 0;
    struct dirent *e;
    while (st == CT_OK && (e = readdir(d)) != NULL) {
        char p[PATH_MAX];
        struct stat sb;
        if (e->d_name[0] == '.' ||
            snprintf(p, sizeof p, "%s/%s", history, e->d_name) >= (int)sizeof p ||
            lstat(p, &sb) != 0)
            continue;
        if (S_ISLNK(sb.st_mode)) {
            if (stat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
                ct_reg_link_note(p, hist_ok ? &hist : NULL);
            continue;
        }
        if (!S_ISDIR(sb.st_mode))
            continue;
        /* The next run is read in place; n counts it only when it holds
         * results. */
        if ((st = ct_vec_reserve(&runs->v, &cap, runs->n + 1, sizeof *runs->v)) != CT_OK)
            break;
        char err[PATH_MAX + 64] = "";
        if (ct_reg_read_run(history, e->d_name, &runs->v[runs->n], err, sizeof err, &st) == 1) {
            fprintf(stderr, "colltune regress: %s\n", err);
            continue;
        }
        runs->n++;
        if (st != CT_OK)
            fprintf(stderr, "colltune regress: %s\n", err);
    }
    closedir(d);
    if (st != CT_OK)
        return st == CT_ERR_NOMEM ? st : CT_ERR_PARSE;
    char self[PATH_MAX + 16];
    snprintf(self, sizeof self, "%s/results.csv", history);
    int is_run = ct_reg_is_file(self);
    snprintf(self, sizeof self, "%s/results.json", history);
    is_run |= ct_reg_is_file(self);
    /* One run is a first night (the baseline begins), unless HISTORY is
     * itself a run directory: the user gave the wrong one. */
    if (runs->n == 0 || is_run) {
        fprintf(stderr, "colltune regress: %s: %s (colltune sweep --out %s/RUN)%s\n", history,
                runs->n ? "a single run" : "an empty history (no run directories)", history,
                is_run ? "; this is a run directory: give the directory that holds it" : "");
        return CT_ERR_USAGE;
    }
    ct_vec_sort(runs->v, runs->n, sizeof *runs->v, ct_reg_run_cmp);
    return CT_OK;
}

/* What tells series apart: the workload, not the configuration (a
 * configuration change is an attribute of a run, reported as a cause). */
static int ct_reg_same_workload(const ct_result_t *a, const ct_result_t *b)
{
    return strcmp(a->collective, b->collective) == 0 && a->bytes == b->bytes &&
           strcmp(a->backend, b->backend) == 0 && strcmp(a->placement, b->placement) == 0 &&
           strcmp(a->dtype, b->dtype) == 0 && strcmp(a->op, b->op) == 0 && a->nranks == b->nranks;
}

/* The series' row in run r (the last one when a run repeats it), or NULL.
 * A run that measured the workload under several configurations (collbench
 * --config) is read at key's configuration, and not at all without it. */
static const ct_result_t *ct_reg_find(const ct_reg_run_t *r, const ct_result_t *key)
{
    const ct_result_t *any = NULL;
    for (size_t i = r->rows.n; i-- > 0;) {
        const ct_result_t *x = &r->rows.v[i];
        if (!ct_reg_same_workload(x, key))
            continue;
        if (strcmp(x->config_id, key->config_id) == 0)
            return x;
        if (any != NULL && strcmp(any->config_id, x->config_id) != 0)
            return NULL; /* several, none key's */
        if (any == NULL)
            any = x;
    }
    return any;
}

typedef struct {
    size_t window;
    double threshold;
    const char *baseline, *since, *md, *json, *history, *index;
    /* --plot */
    const char *plot, *gnuplot_opt, *plots_opt;
    int png, svg;
    long width, height;
} ct_reg_args_t;

static int ct_reg_parse(int argc, char **argv, ct_reg_args_t *a)
{
    ct_cli_iter_t it = CT_CLI_ITER("regress", argc, argv);
    const char *value;
    int id;
    a->window = CT_REGRESS_WINDOW;
    a->threshold = CT_REGRESS_THRESHOLD;
    a->png = 1;
    a->width = 1280;
    a->height = 720;
    int drawing = 0; /* a drawing option seen: it needs --plot */
    for (;;) {
        while (it.next < argc && argv[it.next][0] != '-') {
            if (a->history != NULL) {
                fprintf(stderr, "colltune regress: one HISTORY directory, not %s and %s\n",
                        a->history, argv[it.next]);
                return CT_EXIT_USAGE;
            }
            a->history = argv[it.next++];
        }
        if ((id = ct_cli_next(&it, ct_reg_opts, CT_REG_NOPTS, &value)) <= 0)
            break;
        long k;
        switch (id) {
        case CT_REG_WINDOW:
            if (ct_cli_long("regress", "window", value, CT_REGRESS_MIN_BASE, 64, &k) != CT_OK)
                return CT_EXIT_USAGE;
            a->window = (size_t)k;
            break;
        case CT_REG_BASELINE: a->baseline = value; break;
        case CT_REG_MD: a->md = value; break;
        case CT_REG_JSON: a->json = value; break;
        case CT_REG_SINCE: a->since = value; break;
        case CT_REG_INDEX: a->index = value; break;
        case CT_REG_PLOT: a->plot = value; break;
        case CT_REG_GNUPLOT: a->gnuplot_opt = value, drawing = 1; break;
        case CT_REG_PLOTS_DIR: a->plots_opt = value, drawing = 1; break;
        case CT_REG_FORMAT:
            drawing = 1;
            if (ct_gnuplot_parse_format("regress", value, &a->png, &a->svg) != 0)
                return CT_EXIT_USAGE;
            break;
        case CT_REG_SIZE:
            drawing = 1;
            if (ct_gnuplot_parse_size("regress", value, &a->width, &a->height) != 0)
                return CT_EXIT_USAGE;
            break;
        case CT_REG_THRESHOLD:
            if (ct_num_parse(value, &a->threshold) != CT_OK)
                a->threshold = -1; /* "0x10" is no percentage (E24) */
            a->threshold /= 100;
            if (!(a->threshold >= 0 && a->threshold < 10)) {
                fprintf(stderr, "colltune regress: --threshold %s: a percentage, 0 to 1000\n",
                        value);
                return CT_EXIT_USAGE;
            }
            break;
        }
    }
    int rc = ct_cli_finish(id, ct_reg_usage);
    if (rc != CT_EXIT_OK)
        return rc;
    if (id == CT_CLI_END && it.next < argc && a->history == NULL)
        a->history = argv[it.next++];
    if (a->history == NULL) {
        fprintf(stderr, "colltune regress: give the HISTORY directory\n");
        return CT_EXIT_USAGE;
    }
    if (drawing && a->plot == NULL) {
        fprintf(stderr, "colltune regress: --format, --size, --gnuplot and --plots-dir go with "
                        "--plot DIR\n");
        return CT_EXIT_USAGE;
    }
    return CT_EXIT_OK;
}

/* An output file (--md, --json, --index): checked before any work. */
static int ct_reg_check_out(const char *opt, const char *path)
{
    struct stat st;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    /* Why, not "not a writable file path" (issue 15, E23). */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        fprintf(stderr, "colltune regress: --%s %s: is %s, not a regular file\n", opt, path,
                ct_path_kind(st.st_mode));
        return -1;
    }
    if (stat(slash ? dir : ".", &st) == 0 && !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "colltune regress: --%s %s: directory %s: is %s\n", opt, path,
                slash ? dir : ".", ct_path_kind(st.st_mode));
        return -1;
    }
    if (access(slash ? dir : ".", W_OK) != 0) {
        fprintf(stderr, "colltune regress: --%s %s: directory %s: %s\n", opt, path,
                slash ? dir : ".", strerror(errno));
        return -1;
    }
    return 0;
}

static void ct_reg_line(FILE *f, int md, const ct_reg_runs_t *runs, const ct_reg_series_t *s)
{
    static const char *fmt_txt = "%-14s %10lld %-5s %-12s %-16s %5d %4zu %11.3f %11.3f %+8.1f%% "
                                 "%-9s %s\n";
    static const char *fmt_md = "| %s | %lld | %s | %s | %s | %d | %zu | %.3f | %.3f | %+.1f%% | "
                                "%s | %s |\n";
    const ct_result_t *k = s->key;
    const ct_regress_result_t *r = &s->res;
    int moved = r->verdict == CT_REGRESS_SLOWER || r->verdict == CT_REGRESS_FASTER ||
                r->verdict == CT_REGRESS_RECOVERED;
    char b[5][CT_REG_SAFE_LEN], run[CT_REG_SAFE_LEN];
    fprintf(f, md ? fmt_md : fmt_txt, ct_reg_safe(k->collective, md, b[0], sizeof b[0]), k->bytes,
            ct_reg_safe(k->backend, md, b[1], sizeof b[1]),
            ct_reg_safe(k->placement, md, b[2], sizeof b[2]),
            ct_reg_safe(ct_reg_config_name(k->config_id), md, b[3], sizeof b[3]), (int)k->nranks,
            s->n, r->base_median, r->base_median * (1 + r->change), 100 * r->change,
            ct_regress_verdict_name(r->verdict),
            ct_reg_safe(moved ? runs->v[s->at[r->first_bad]].name : "-", md, run, sizeof run));
}

static void ct_reg_header(FILE *f, int md)
{
    if (md)
        fprintf(f, "| collective | bytes | backend | placement | config | ranks | runs | "
                   "baseline us | newest us | change | verdict | first slow/faster run |\n"
                   "|---|---:|---|---|---|---:|---:|---:|---:|---:|---|---|\n");
    else
        fprintf(f, "%-14s %10s %-5s %-12s %-16s %5s %4s %11s %11s %9s %-9s %s\n", "collective",
                "bytes", "backend", "placement", "config", "ranks", "runs", "baseline_us",
                "newest_us", "change", "verdict", "first_moved_run");
}

static void ct_reg_series_free(ct_reg_series_t *s, size_t ns)
{
    for (size_t i = 0; i < ns; i++) {
        free(s[i].p);
        free(s[i].at);
    }
    free(s);
}

/* Judges every series of the newest run, and the run as a whole:
 * j->s (free with ct_reg_series_free), j->ns of them, j->ev. */
static ct_status_t ct_reg_judge_all(const ct_reg_runs_t *runs, const ct_reg_args_t *a,
                                    long pinned_run, ct_reg_judged_t *j)
{
    const ct_reg_run_t *newest = &runs->v[runs->n - 1];
    ct_reg_series_t *s = calloc(newest->rows.n + 1, sizeof *s);
    ct_regress_series_in_t *in = calloc(newest->rows.n + 1, sizeof *in);
    ct_regress_result_t *res = calloc(newest->rows.n + 1, sizeof *res);
    size_t ns = 0;
    if (s == NULL || in == NULL || res == NULL) {
        free(s);
        free(in);
        free(res);
        return CT_ERR_NOMEM;
    }
    for (size_t i = 0; i < newest->rows.n; i++) {
        const ct_result_t *key = &newest->rows.v[i];
        if (ct_reg_find(newest, key) != key)
            continue; /* repeated in the newest run: judged once, its last row */
        ct_reg_series_t *x = &s[ns];
        x->key = key;
        x->p = malloc(runs->n * sizeof *x->p);
        x->at = malloc(runs->n * sizeof *x->at);
        in[ns].pinned = -1;
        ns++;
        if (x->p == NULL || x->at == NULL) {
            ct_reg_series_free(s, ns);
            free(in);
            free(res);
            return CT_ERR_NOMEM;
        }
        for (size_t r = 0; r < runs->n; r++) {
            const ct_result_t *row = ct_reg_find(&runs->v[r], key);
            if (row == NULL || !(row->median_us > 0))
                continue;
            double hw = (row->ci_high_us - row->ci_low_us) / 2;
            x->p[x->n] = (ct_regress_point_t){row->median_us, isfinite(hw) && hw > 0 ? hw : 0};
            if (pinned_run >= 0 && (long)r <= pinned_run)
                in[ns - 1].pinned = (long)x->n;
            x->at[x->n++] = r;
        }
        if (pinned_run >= 0 && in[ns - 1].pinned < 0)
            in[ns - 1].pinned = (long)x->n; /* no point at or before the pinned run: unknown */
        in[ns - 1].p = x->p;
        in[ns - 1].n = x->n;
    }
    /* one group per collective: an algorithm change moves its series alone */
    j->groups = calloc(ns + 1, sizeof *j->groups);
    j->group_names = calloc(ns + 1, sizeof *j->group_names);
    j->ngroups = 0;
    for (size_t i = 0; j->groups && j->group_names && i < ns; i++) {
        size_t g = 0;
        while (g < j->ngroups && strcmp(j->group_names[g], s[i].key->collective) != 0)
            g++;
        if (g == j->ngroups)
            j->group_names[j->ngroups++] = s[i].key->collective;
        in[i].group = g;
    }
    ct_regress_rule_t rule;
    ct_regress_rule_default(&rule);
    rule.window = a->window;
    rule.threshold = a->threshold;
    int rc = j->groups && j->group_names
                 ? ct_regress_judge_runs(in, ns, &rule, res, &j->ev, j->ngroups, j->groups)
                 : -1;
    for (size_t i = 0; i < ns; i++)
        s[i].res = res[i];
    free(in);
    free(res);
    j->s = s;
    j->ns = ns;
    if (rc != 0) {
        ct_reg_series_free(s, ns);
        j->s = NULL;
        return CT_ERR_NOMEM;
    }
    return CT_OK;
}

/* One event, in words; what: "" for the whole run, else " in COLL". */
static void ct_reg_event_one(FILE *f, int md, const ct_reg_run_t *newest,
                             const ct_regress_event_t *ev, const char *what)
{
    int slow = ev->direction > 0;
    char name[CT_REG_SAFE_LEN];
    fprintf(f,
            "%sone event in the newest run %s%s: %zu of %zu series %s beyond their bounds, "
            "median %+.0f%%; %s\n",
            md ? "- " : "", ct_reg_safe(newest->name, md, name, sizeof name), what, ev->moved,
            ev->judged, slow ? "slower" : "faster", 100 * ev->median_change,
            ev->severe ? "a step this large in most series is not launch noise: one run suffices"
                       : "under 2x: the next run confirms it or not");
}

/* The run-level events: the whole run's, else each collective's. */
static void ct_reg_event_line(FILE *f, int md, const ct_reg_runs_t *runs, const ct_reg_judged_t *j)
{
    const ct_reg_run_t *newest = &runs->v[runs->n - 1];
    size_t any = j->ev.direction != 0;
    for (size_t g = 0; !any && g < j->ngroups; g++)
        any += j->groups[g].direction != 0;
    if (!any)
        return;
    fprintf(f, "\n%s", md ? "## Run-level view\n\n" : "");
    if (j->ev.direction != 0) {
        ct_reg_event_one(f, md, newest, &j->ev, "");
        return;
    }
    for (size_t g = 0; g < j->ngroups; g++) {
        char what[CT_REG_SAFE_LEN + 8], coll[CT_REG_SAFE_LEN];
        snprintf(what, sizeof what, " in %s",
                 ct_reg_safe(j->group_names[g], md, coll, sizeof coll));
        if (j->groups[g].direction != 0)
            ct_reg_event_one(f, md, newest, &j->groups[g], what);
    }
}

/* How many series took each verdict, and what the unknown ones wait for. */
static void ct_reg_summary(FILE *f, int md, const ct_reg_runs_t *runs, const ct_reg_args_t *a,
                           const ct_reg_judged_t *j)
{
    const ct_reg_run_t *newest = &runs->v[runs->n - 1];
    char name[CT_REG_SAFE_LEN], date[CT_REG_SAFE_LEN], hist[CT_REG_SAFE_LEN];
    ct_reg_safe(newest->name, md, name, sizeof name);
    ct_reg_safe(newest->date, md, date, sizeof date);
    ct_reg_safe(a->history, md, hist, sizeof hist);
    size_t count[CT_REGRESS_RECOVERED + 1] = {0}, young = 0, spikes = 0, need = 0;
    for (size_t i = 0; i < j->ns; i++) {
        const ct_regress_result_t *r = &j->s[i].res;
        count[r->verdict]++;
        size_t nb = r->base_hi - r->base_lo;
        if (r->verdict == CT_REGRESS_UNKNOWN && nb < CT_REGRESS_MIN_BASE) {
            young++;
            /* the newest run joins the baseline tomorrow */
            size_t more = CT_REGRESS_MIN_BASE - (j->s[i].n > 0 ? j->s[i].n - 1 : 0);
            need = more > need ? more : need;
        } else if (r->verdict == CT_REGRESS_UNKNOWN) {
            spikes++;
        }
    }
    if (runs->n == 1) {
        fprintf(f,
                "\nbaseline begins: %zu series in run %s (%s); the rule judges a run against "
                "at least %d runs before it: %zu more runs before one can be judged, then a "
                "step is called after %d runs beyond the bounds (1 when most series move %.0fx "
                "or more)\n",
                j->ns, name, date, CT_REGRESS_MIN_BASE, need, CT_REGRESS_CONFIRM,
                CT_REGRESS_EVENT_SEVERE);
        return;
    }
    fprintf(f,
            "\n%zu runs in %s, newest %s (%s); %zu series: %zu slower, %zu faster, %zu same, "
            "%zu recovered, %zu unknown\n",
            runs->n, hist, name, date, j->ns, count[CT_REGRESS_SLOWER], count[CT_REGRESS_FASTER],
            count[CT_REGRESS_SAME], count[CT_REGRESS_RECOVERED], count[CT_REGRESS_UNKNOWN]);
    if (young)
        fprintf(f,
                "%zu series have fewer than %d baseline runs: %zu more runs before they can "
                "be judged; then a step is called after %d runs beyond the bounds (1 when "
                "most series move %.0fx or more)\n",
                young, CT_REGRESS_MIN_BASE, need, CT_REGRESS_CONFIRM, CT_REGRESS_EVENT_SEVERE);
    if (spikes)
        fprintf(f,
                "%zu series read beyond their bounds in the newest run alone: the next run "
                "confirms (a step) or clears (a spike) each\n",
                spikes);
    if (j->dropped)
        fprintf(f, "a new baseline begins at run %s: %zu earlier runs not judged against\n",
                ct_reg_safe(runs->v[0].name, md, name, sizeof name), j->dropped);
}

/* The table (md: as markdown), the run-level view, the configuration
 * changes, then the diagnosis of the slower series and the faster ones,
 * grouped by the run they moved at, and the summary. */
static void ct_reg_report(FILE *f, int md, const ct_reg_runs_t *runs, const ct_reg_args_t *a,
                          const ct_reg_judged_t *j)
{
    ct_reg_header(f, md);
    for (size_t i = 0; i < j->ns; i++)
        ct_reg_line(f, md, runs, &j->s[i]);
    ct_reg_event_line(f, md, runs, j);
    ct_reg_config_changes(f, md, runs);
    ct_reg_diagnosis(f, md, runs, j->s, j->ns, CT_REGRESS_SLOWER, a->window);
    ct_reg_diagnosis(f, md, runs, j->s, j->ns, CT_REGRESS_FASTER, a->window);
    ct_reg_diagnosis(f, md, runs, j->s, j->ns, CT_REGRESS_RECOVERED, a->window);
    ct_reg_summary(f, md, runs, a, j);
}

/* Everything --plot needs, found and checked before any work: gnuplot
 * (exit 3 without it), the scripts, the directory (exit 2). */
static int ct_reg_plot_prepare(const ct_reg_args_t *a, char *gnuplot, char *scripts, size_t len)
{
    char err[512];
    if (ct_gnuplot_find(a->gnuplot_opt, "regress", gnuplot, len) != 0 ||
        ct_gnuplot_find_scripts(a->plots_opt, "regress", scripts, len) != 0)
        return CT_EXIT_FAILURE;
    if (ct_outdir_prepare(a->plot, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune regress: --plot %s: %s\n", a->plot, err);
        return CT_EXIT_USAGE;
    }
    return ct_outdir_lock(a->plot, "regress") == 0 ? CT_EXIT_OK : CT_EXIT_USAGE;
}

/* An output given as one of the history's results files would destroy a
 * run (E11). */
static int ct_reg_not_an_input(const char *opt, const char *path, const ct_reg_runs_t *runs)
{
    for (size_t i = 0; path != NULL && i < runs->n; i++) {
        const char *names[] = {"results.json", "results.csv"};
        for (size_t k = 0; k < 2; k++) {
            char in[PATH_MAX + 16];
            snprintf(in, sizeof in, "%s/%s", runs->v[i].dir, names[k]);
            if (ct_path_same_file(path, in)) {
                fprintf(stderr, "colltune regress: --%s %s is %s, an input: give another --%s\n",
                        opt, path, in, opt);
                return -1;
            }
        }
    }
    return 0;
}

/* The markdown report through a temporary file beside path. */
static int ct_reg_write_md(const char *path, const ct_reg_runs_t *runs, const ct_reg_args_t *a,
                           const ct_reg_judged_t *j)
{
    ct_outfile_t out;
    char err[8800];
    if (ct_outfile_open(&out, path, 0666, err, sizeof err) == CT_OK) {
        char hist[CT_REG_SAFE_LEN];
        fprintf(out.fp, "# colltune regress %s\n\n", ct_reg_safe(a->history, 1, hist, sizeof hist));
        ct_reg_report(out.fp, 1, runs, a, j);
        if (ct_outfile_commit(&out, err, sizeof err) == CT_OK)
            return 0;
    }
    fprintf(stderr, "colltune regress: --md %s: %s\n", path, err);
    return -1;
}

/* A new baseline: the newest run holding the marker, or --since's run;
 * the runs before it are dropped.  -1 (told) when --since names no run. */
static int ct_reg_new_baseline(ct_reg_runs_t *runs, const char *since, size_t *dropped)
{
    size_t from = 0;
    int found = since == NULL;
    for (size_t i = 0; i < runs->n; i++) {
        if (runs->v[i].new_baseline)
            from = i;
        if (since != NULL && strcmp(runs->v[i].name, since) == 0)
            found = 1, from = i > from ? i : from;
    }
    if (!found) {
        fprintf(stderr, "colltune regress: --since %s: no such run directory in the history\n",
                since);
        return -1;
    }
    for (size_t i = 0; i < from; i++) {
        ct_results_free(&runs->v[i].rows);
        json_decref(runs->v[i].meta);
    }
    memmove(runs->v, runs->v + from, (runs->n - from) * sizeof *runs->v);
    runs->n -= from;
    *dropped = from;
    return 0;
}

static int ct_reg_run(int argc, char **argv)
{
    ct_reg_args_t a = {0};
    int rc = ct_reg_parse(argc, argv, &a);
    if (rc != CT_EXIT_OK)
        return rc < 0 ? CT_EXIT_OK : rc;
    char gnuplot[PATH_MAX], scripts[PATH_MAX], size[48];
    if (a.plot != NULL && (rc = ct_reg_plot_prepare(&a, gnuplot, scripts, PATH_MAX)) != CT_EXIT_OK)
        return rc;
    if ((a.md != NULL && ct_reg_check_out("md", a.md) != 0) ||
        (a.json != NULL && ct_reg_check_out("json", a.json) != 0) ||
        (a.index != NULL && ct_reg_check_out("index", a.index) != 0))
        return CT_EXIT_USAGE;
    ct_reg_runs_t runs = {0};
    ct_reg_judged_t j = {0};
    ct_status_t st = ct_reg_read_history(a.history, &runs);
    if (st != CT_OK) {
        ct_reg_runs_free(&runs);
        return st == CT_ERR_NOMEM ? CT_EXIT_FAILURE : CT_EXIT_USAGE;
    }
    if (ct_reg_not_an_input("md", a.md, &runs) != 0 ||
        ct_reg_not_an_input("json", a.json, &runs) != 0 ||
        ct_reg_not_an_input("index", a.index, &runs) != 0 ||
        ct_reg_new_baseline(&runs, a.since, &j.dropped) != 0) {
        ct_reg_runs_free(&runs);
        return CT_EXIT_USAGE;
    }
    long pinned = -1;
    for (size_t i = 0; a.baseline != NULL && i < runs.n; i++)
        if (strcmp(runs.v[i].name, a.baseline) == 0)
            pinned = (long)i;
    if (a.baseline != NULL && (pinned < 0 || (size_t)pinned + 1 >= runs.n)) {
        fprintf(stderr, "colltune regress: --baseline %s: %s\n", a.baseline,
                pinned < 0 ? "no such run directory in the history (after a new baseline)"
                           : "is the newest run");
        ct_reg_runs_free(&runs);
        return CT_EXIT_USAGE;
    }
    if (ct_reg_judge_all(&runs, &a, pinned, &j) != CT_OK) {
        fprintf(stderr, "colltune regress: out of memory\n");
        ct_reg_runs_free(&runs);
        return CT_EXIT_FAILURE;
    }
    size_t slower = 0;
    for (size_t i = 0; i < j.ns; i++)
        slower += j.s[i].res.verdict == CT_REGRESS_SLOWER;
    ct_reg_report(stdout, 0, &runs, &a, &j);
    rc = slower ? CT_EXIT_WRONG : CT_EXIT_OK;
    if (a.md != NULL && ct_reg_write_md(a.md, &runs, &a, &j) != 0)
        rc = CT_EXIT_FAILURE;
    if (a.json != NULL &&
        ct_reg_json(a.json, &runs, a.history, &j, rc == CT_EXIT_WRONG, a.window) != 0)
        rc = CT_EXIT_FAILURE;
    if (a.plot != NULL) {
        snprintf(size, sizeof size, "%ldx%ld", a.width, a.height);
        const ct_reg_plot_t pl = {a.plot, gnuplot, scripts, size, a.png, a.svg, a.threshold};
        if (ct_reg_plot(&pl, &runs, j.s, j.ns, a.history) != 0)
            rc = CT_EXIT_FAILURE;
        else
            printf("colltune regress: plots: open %s/index.html\n", a.plot);
    }
    if (a.index != NULL) {
        if (ct_reg_index(a.index, &runs, a.history, a.md) != 0)
            rc = CT_EXIT_FAILURE;
        else
            printf("colltune regress: history: open %s\n", a.index);
    }
    ct_reg_series_free(j.s, j.ns);
    free(j.groups);
    free(j.group_names);
    ct_reg_runs_free(&runs);
    return rc;
}

const ct_command_t ct_command_regress = {
    "regress",
    "is the newest run of a history slower? (exit 1 when so)",
    ct_reg_run,
    ct_reg_usage,
};
