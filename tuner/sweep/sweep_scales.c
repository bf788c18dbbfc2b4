/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep_scales.c - `colltune sweep --scales`: the same sweep at several
 * scales, into one results set with the scale recorded, then the scaling
 * plot and the efficiency table (scaling.h).
 *
 *   DIR/scale-S/     one sweep each (results, collbench.txt, launch.json;
 *                    by nodes under mpirun, the hostfile it ran with)
 *   DIR/results.csv  every scale's rows (collbench records nranks, nnodes)
 *   DIR/scaling.md   the efficiency table; also printed on stdout
 *   DIR/plots/       colltune plot of DIR/results.csv (with the scaling plot)
 *
 * A scale is placed by the launcher's own flags (ct_launcher_scale_nodes):
 * mpirun and mpiexec.hydra get the first S hosts of --hostfile (K slots
 * each) or --np S, srun --nodes=S --ntasks-per-node=K or --ntasks=S.  With --resume a scale whose
 * launch.json says it finished is kept, so an interrupted series goes on.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_result.h"
#include "ct_outfile.h"
#include "ct_results_read.h"
#include "outdir.h"
#include "plot.h"
#include "scaling.h"
#include "sweep.h"
#include "trial.h"

/* Did an earlier run finish this scale?  launch.json says "ok". */
static int ct_scales_done(const char *dir)
{
    char path[PATH_MAX], csv[PATH_MAX];
    if (ct_outdir_path(dir, "launch.json", path, sizeof path) != CT_OK ||
        ct_outdir_path(dir, "results.csv", csv, sizeof csv) != CT_OK || access(csv, R_OK) != 0)
        return 0;
    json_t *doc = json_load_file(path, 0, NULL);
    const char *outcome = json_string_value(json_object_get(doc, "outcome"));
    int done = outcome != NULL && strcmp(outcome, "ok") == 0;
    json_decref(doc);
    return done;
}

/* DIR/results.csv: the scales' CSVs, one header (beside and renamed). */
static int ct_scales_join(const char *out, const char (*dirs)[PATH_MAX], size_t n)
{
    char path[PATH_MAX];
    ct_outfile_t of;
    if (ct_outdir_path(out, "results.csv", path, sizeof path) != CT_OK)
        return -1;
    FILE *f = ct_outdir_open(&of, path, "sweep");
    if (f == NULL)
        return -1;
    int bad = 0;
    char header[8192] = "", line[8192];
    for (size_t i = 0; i < n && !bad; i++) {
        char csv[PATH_MAX];
        if (ct_outdir_path(dirs[i], "results.csv", csv, sizeof csv) != CT_OK)
            continue;
        FILE *in = fopen(csv, "r");
        if (in == NULL)
            continue; /* a failed scale: reported already */
        for (long ln = 1; fgets(line, sizeof line, in) != NULL; ln++) {
            if (ln > 1) {
                fputs(line, f);
            } else if (header[0] == '\0') {
                snprintf(header, sizeof header, "%s", line);
                fputs(line, f);
            } else if (strcmp(header, line) != 0) {
                fprintf(stderr,
                        "colltune sweep: %s:1: another results schema than the first "
                        "scale's; not joined\n",
                        csv);
                bad = 1;
                break;
            }
        }
        fclose(in);
    }
    if (bad || header[0] == '\0') {
        if (header[0] == '\0')
            fprintf(stderr, "colltune sweep: no scale produced results\n");
        ct_outfile_abort(&of);
        return -1;
    }
    return ct_outdir_commit(&of, "sweep");
}

/* The efficiency table of DIR/results.csv: on stdout and in
 * DIR/scaling.md. */
static int ct_scales_table(const ct_sweep_args_t *a)
{
    char csv[PATH_MAX], md[PATH_MAX], err[1024];
    if (ct_outdir_path(a->out, "results.csv", csv, sizeof csv) != CT_OK ||
        ct_outdir_path(a->out, "scaling.md", md, sizeof md) != CT_OK)
        return -1;
    ct_results_t rows = {0};
    if (ct_results_read(csv, &rows, NULL, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune sweep: %s\n", err);
        return -1;
    }
    ct_scaling_coll_t *c = calloc(rows.n + 1, sizeof *c);
    size_t n = 0;
    int rc = c == NULL ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < rows.n; i++) {
        size_t k = 0;
        while (k < n && strcmp(c[k].collective, rows.v[i].collective) != 0)
            k++;
        if (k < n)
            continue;
        snprintf(c[n].collective, sizeof c[n].collective, "%s", rows.v[i].collective);
        if (ct_scaling_build(rows.v, rows.n, c[n].collective, a->by_nodes, 4, &c[n].sc) != CT_OK)
            rc = -1;
        else if (c[n].sc.n > 0)
            n++;
    }
    if (rc == 0 && n == 0)
        fprintf(stderr, "colltune sweep: fewer than two scales have results: no scaling table\n");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        printf("\n%s: busbw (GB/s) by %s, and in brackets the efficiency against the smallest "
               "scale with a busbw above 0\n",
               c[i].collective, a->by_nodes ? "nodes" : "ranks");
        ct_scaling_write_table(stdout, &c[i].sc, 0);
    }
    fflush(stdout);
    if (rc == 0 && n > 0)
        rc = ct_scaling_write_md(md, c, n, "sweep");
    for (size_t i = 0; c != NULL && i <= n; i++)
        ct_scaling_free(&c[i].sc);
    free(c);
    ct_results_free(&rows);
    return rc;
}

/* colltune plot DIR/results.csv into DIR/plots: the same pictures a user
 * gets from that command. */
static int ct_scales_plot(const ct_sweep_args_t *a)
{
    char csv[PATH_MAX], dir[PATH_MAX];
    if (ct_outdir_path(a->out, "results.csv", csv, sizeof csv) != CT_OK ||
        ct_outdir_path(a->out, "plots", dir, sizeof dir) != CT_OK)
        return CT_EXIT_USAGE;
    return ct_plot_scaling(csv, dir, a->by_nodes);
}

/* By nodes, a launcher without flags for them takes a hostfile of the
 * first N hosts of --hostfile: those hosts, top of them, into *hosts
 * (the caller's to free). */
static int ct_scales_hosts(const ct_sweep_args_t *a, const ct_launcher_t *base, long top,
                           char (**hosts)[256])
{
    char err[512];
    if (a->lo.hostfile == NULL) {
        fprintf(stderr,
                "colltune sweep: --scales by nodes under %s needs --hostfile "
                "(its first N hosts make scale N), or --scale-by ranks\n",
                base->kind->name);
        return CT_EXIT_USAGE;
    }
    if ((*hosts = calloc((size_t)top, sizeof **hosts)) == NULL)
        return CT_EXIT_FAILURE;
    long nh = ct_launcher_hosts_read(base, a->lo.hostfile, *hosts, top, err, sizeof err);
    if (nh < 0) {
        fprintf(stderr, "colltune sweep: %s\n", err);
        return CT_EXIT_USAGE;
    }
    if (nh < top) {
        fprintf(stderr,
                "colltune sweep: --scales up to %ld nodes, but --hostfile %s "
                "names %ld host%s\n",
                top, a->lo.hostfile, nh, nh == 1 ? "" : "s");
        return CT_EXIT_USAGE;
    }
    return CT_EXIT_OK;
}

/* --out made and locked, and each scale's directory (dirs[i]) named and
 * free, unless --resume or --force. */
static int ct_scales_prepare(const ct_sweep_args_t *a, char (*dirs)[PATH_MAX])
{
    char err[512];
    ct_status_t st = ct_outdir_prepare(a->out, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune sweep: --out %s: %s\n", a->out, err);
        return ct_status_exit_code(st);
    }
    if (ct_outdir_lock(a->out, "sweep") != 0)
        return CT_EXIT_USAGE;
    for (size_t i = 0; i < a->nscales; i++) {
        char name[32];
        snprintf(name, sizeof name, "scale-%ld", a->scales[i]);
        if (ct_outdir_path(a->out, name, dirs[i], sizeof dirs[i]) != CT_OK)
            return CT_EXIT_USAGE;
        if (!a->resume && !a->force && access(dirs[i], F_OK) == 0) {
            fprintf(stderr,
                    "colltune sweep: --out %s: %s exists (--resume to keep the finished "
                    "scales, --force to run them again)\n",
                    a->out, dirs[i]);
            return CT_EXIT_USAGE;
        }
    }
    return CT_EXIT_OK;
}

/* One scale s into dir, launched by base placed at s (hosts: the
 * hostfile's, when the launcher has no node flags); *worst keeps the
 * first failed scale's code.  CT_EXIT_OK to go on. */
static int ct_scales_one(const ct_sweep_args_t *a, const ct_launcher_t *base,
                         const char (*hosts)[256], long s, const char *dir, int *worst)
{
    int rc = CT_EXIT_OK;
    ct_launcher_t l = *base;
    char hostfile[PATH_MAX] = "";
    l.extra = (ct_argv_t)CT_ARGV_INIT;
    ct_status_t st = ct_argv_append(&l.extra, base->extra.v, base->extra.n);
    if (a->by_nodes && hosts != NULL) {
        char err[512];
        if (ct_outdir_prepare(dir, err, sizeof err) != CT_OK ||
            ct_outdir_path(dir, "hostfile", hostfile, sizeof hostfile) != CT_OK ||
            ct_launcher_scale_nodes(&l, s, a->ranks_per_node, hosts, hostfile, "sweep") != CT_OK) {
            fprintf(stderr, "colltune sweep: %s: cannot prepare it\n", dir);
            rc = CT_EXIT_FAILURE;
        }
    } else if (a->by_nodes) {
        if (st == CT_OK)
            st = ct_launcher_scale_nodes(&l, s, a->ranks_per_node, NULL, NULL, "sweep");
    } else {
        l.np = s; /* by ranks */
    }
    if (st != CT_OK)
        rc = CT_EXIT_FAILURE;
    if (rc == CT_EXIT_OK) {
        fprintf(stderr, "colltune sweep: scale %ld %s%s (%ld rank%s) into %s\n", s,
                a->by_nodes ? "node" : "rank", s == 1 ? "" : "s", l.np, l.np == 1 ? "" : "s", dir);
        /* Under --resume an unfinished scale's partial results go. */
        ct_sweep_args_t one = *a;
        one.force = a->force || a->resume;
        ct_run_dir_t rd = ct_sweep_run_dir(&one);
        int r = ct_run_once_dir(&rd, dir, &l);
        if (r == ct_trial_exit_code(CT_TRIAL_INTERRUPTED))
            rc = r; /* the user stopped it: no more scales */
        else if (r != CT_EXIT_OK && *worst == CT_EXIT_OK)
            *worst = r;
    }
    ct_argv_free(&l.extra);
    return rc;
}

/* The scales joined, tabled and plotted.  A failed scale leaves a gap;
 * the others still make the table. */
static int ct_scales_finish(const ct_sweep_args_t *a, const char (*dirs)[PATH_MAX], int worst)
{
    if (ct_scales_join(a->out, dirs, a->nscales) != 0)
        return worst != CT_EXIT_OK ? worst : CT_EXIT_FAILURE;
    if (ct_scales_table(a) == 0 && ct_scales_plot(a) != CT_EXIT_OK)
        fprintf(stderr,
                "colltune sweep: the plots failed (above); results and scaling.md are "
                "in %s\n",
                a->out);
    return worst;
}

int ct_sweep_scales(ct_sweep_args_t *a)
{
    long top = a->scales[a->nscales - 1];
    ct_launcher_t base;
    ct_status_t st = ct_launch_opts_launcher(&a->lo, &base);
    if (st != CT_OK)
        return ct_status_exit_code(st);
    char(*hosts)[256] = NULL;
    char(*dirs)[PATH_MAX] = calloc(a->nscales, sizeof *dirs);
    int rc = dirs == NULL ? CT_EXIT_FAILURE : CT_EXIT_OK;
    /* Everything that can be refused is refused before the first launch. */
    if (rc == CT_EXIT_OK && base.kind->no_scale != NULL) {
        char scalers[256];
        ct_launcher_scalers(scalers, sizeof scalers);
        fprintf(stderr, "colltune sweep: --scales needs %s as the launcher: %s\n", scalers,
                base.kind->no_scale);
        rc = CT_EXIT_USAGE;
    }
    int host_nodes = a->by_nodes && base.kind->scale_flags == NULL;
    if (rc == CT_EXIT_OK && host_nodes)
        rc = ct_scales_hosts(a, &base, top, &hosts);
    if (rc == CT_EXIT_OK)
        rc = ct_scales_prepare(a, dirs);
    int worst = CT_EXIT_OK;
    for (size_t i = 0; rc == CT_EXIT_OK && i < a->nscales; i++) {
        if (a->resume && ct_scales_done(dirs[i])) {
            fprintf(stderr, "colltune sweep: scale %ld: finished before, kept (%s)\n", a->scales[i],
                    dirs[i]);
            continue;
        }
        rc = ct_scales_one(a, &base, host_nodes ? (const char(*)[256])hosts : NULL, a->scales[i],
                           dirs[i], &worst);
    }
    if (rc == CT_EXIT_OK)
        rc = ct_scales_finish(a, (const char(*)[PATH_MAX])dirs, worst);
    free(hosts);
    free(dirs);
    ct_launcher_free(&base);
    return rc;
}
