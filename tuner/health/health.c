/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * health.c - `colltune health`: which host or link is slow.
 *
 * Runs collbench twice through the launcher (every option of sweep's):
 * the whole job into DIR/job/, whose results carry each host's own median
 * (per_host), then `--pairs` into DIR/pairs/, the same collectives on
 * host pairs of a round-robin schedule, concurrently within a round.
 * Then judges both with health_rule.h and prints a ranked list of
 * suspects; DIR/health.md and DIR/health.json keep it.  With --report,
 * judges results.json files already made instead.
 *
 * In a whole job a slow link gates every rank of a ring or tree, so the
 * per-host times rarely single out its host; on pairs, each of that
 * host's pairs is slow and the others are not.  Exit 0 nothing named, 1
 * some host or link named, 2 bad input, else the failing run's code.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argv.h"
#include "cli.h"
#include "ct_outfile.h"
#include "ct_num.h"
#include "command.h"
#include "config.h"
#include "ct_json.h"
#include "ct_size.h"
#include "health_input.h"
#include "health_rule.h"
#include "outdir.h"
#include "launch_opts.h"
#include "run_once.h"

enum {
    CT_HEALTH_OUT = 1,
    CT_HEALTH_REPORT,
    CT_HEALTH_NO_JOB,
    CT_HEALTH_NO_PAIRS,
    CT_HEALTH_Z,
    CT_HEALTH_RATIO,
    CT_HEALTH_FORCE,
};

static const ct_cli_opt_t ct_health_opts[] = {
    {CT_HEALTH_OUT, "out", "DIR", "runs and the report (created if missing)"},
    CT_LAUNCH_OPTS("environment variable for collbench (repeatable)",
                   "Open MPI MCA parameter (repeatable)",
                   "kill a run's process group after SEC (default 3600)"),
    CT_LAUNCH_OPT_COLLBENCH,
    {CT_HEALTH_NO_JOB, "no-job", NULL, "skip the whole-job run"},
    {CT_HEALTH_NO_PAIRS, "no-pairs", NULL, "skip the pairs run"},
    {CT_HEALTH_REPORT, "report", NULL,
     "judge the results.json files given instead of running anything"},
    {CT_HEALTH_Z, "z-max", "Z", "modified z-score above which a host is an outlier (3.5)"},
    {CT_HEALTH_RATIO, "min-ratio", "R", "and at least this slower than the median host (1.2)"},
    {CT_HEALTH_FORCE, "force", NULL, "replace runs already in DIR"},
};
#define CT_HEALTH_NOPTS (sizeof ct_health_opts / sizeof ct_health_opts[0])

/* The whole job's section title where pairs decide. */
#define CT_HEALTH_JOB_INFO                                                                         \
    "whole job (each host's own median; for information: a slow link slows its neighbours "        \
    "here too, so the pairs decide)"

/* What collbench runs when no argument follows "--": bandwidth-bound sizes
 * of a ring, a personalised all-to-all and a tree. */
static char *ct_health_default_args[] = {(char *)"-C", (char *)"allreduce,alltoall,broadcast",
                                         (char *)"-b", (char *)"256K",
                                         (char *)"-e", (char *)"4M",
                                         (char *)"-f", (char *)"4"};

/* What both runs share: the output directory, the launch options (every
 * one of sweep's), --force and collbench's arguments. */
typedef struct {
    const char *out;
    ct_launch_opts_t lo;
    int force;
    char **cb_args; /* after "--" (or health's default), not owned */
    size_t ncb_args;
} ct_health_run_t;

typedef struct {
    ct_health_run_t run;
    int report, no_job, no_pairs;
    ct_health_params_t params;
    char **files; /* --report: the results.json files */
    size_t nfiles;
} ct_health_args_t;

static void ct_health_usage(FILE *f)
{
    fprintf(f, "usage: colltune health --out DIR (--np N | --launcher 'CMD ARGS') [OPTIONS]\n"
               "                       [-- COLLBENCH-ARGS]\n"
               "       colltune health --report [--out DIR] RESULTS.json...\n\n"
               "Names the slow hosts and links of a job.  Runs collbench on the whole job\n"
               "(DIR/job: each host's own median time per collective and size), then with\n"
               "--pairs (DIR/pairs: the same on host pairs, a round-robin schedule, the\n"
               "pairs of a round at once), and ranks the hosts: a host is named when its\n"
               "time (on pairs: its fastest pair's) is at least --min-ratio x the others'\n"
               "median and its modified z-score against them (0.6745 (x - median) / MAD,\n"
               "on log times) exceeds --z-max, in more than half of its cells.  A slow\n"
               "pair of two hosts that are not named is a suspect link.  With pairs, the\n"
               "pairs decide.  Default collbench arguments: -C\n"
               "allreduce,alltoall,broadcast -b 256K -e 4M -f 4.\n\noptions:\n");
    ct_cli_print_options(f, ct_health_opts, CT_HEALTH_NOPTS);
    fprintf(f, "\nexit codes: 0 no host or link named, 1 some named, 2 bad input, else the\n"
               "failing run's (3 failure, 124 timeout, 130 interrupted).\n");
}

static int ct_health_parse(int argc, char **argv, ct_health_args_t *a)
{
    ct_cli_iter_t it = CT_CLI_ITER("health", argc, argv);
    const char *value;
    int id;
    a->params = ct_health_default_params();
    a->files = calloc((size_t)argc + 1, sizeof *a->files);
    if (a->files == NULL)
        return CT_EXIT_FAILURE;
    const char *run_opt = NULL; /* the first option only a run reads */
    for (;;) {
        /* --report: file names and options mix */
        while (a->report && it.next < argc && argv[it.next][0] != '-')
            a->files[a->nfiles++] = argv[it.next++];
        if ((id = ct_cli_next(&it, ct_health_opts, CT_HEALTH_NOPTS, &value)) <= 0)
            break;
        for (size_t i = 0; run_opt == NULL && i < CT_HEALTH_NOPTS; i++)
            if (ct_health_opts[i].id == id &&
                (id >= CT_LOPT_NP || id == CT_HEALTH_NO_JOB || id == CT_HEALTH_NO_PAIRS))
                run_opt = ct_health_opts[i].name;
        ct_status_t st = CT_OK;
        switch (id) {
        case CT_HEALTH_OUT: a->run.out = value; break;
        case CT_HEALTH_REPORT: a->report = 1; break;
        case CT_HEALTH_NO_JOB: a->no_job = 1; break;
        case CT_HEALTH_NO_PAIRS: a->no_pairs = 1; break;
        case CT_HEALTH_FORCE: a->run.force = 1; break;
        case CT_HEALTH_Z:
        case CT_HEALTH_RATIO: {
            double v = 0; /* "0x10" and " 2" are no numbers here (E24) */
            if (ct_num_parse(value, &v) != CT_OK || !(v > (id == CT_HEALTH_Z ? 0 : 1)) || v > 1e6) {
                fprintf(stderr, "colltune health: --%s %s: a number above %s\n",
                        id == CT_HEALTH_Z ? "z-max" : "min-ratio", value,
                        id == CT_HEALTH_Z ? "0" : "1");
                st = CT_ERR_USAGE;
            } else if (id == CT_HEALTH_Z) {
                a->params.z_max = v;
            } else {
                a->params.min_ratio = v;
            }
            break;
        }
        default: ct_launch_opts_apply(&a->run.lo, id, value, &st); break;
        }
        if (st != CT_OK)
            return ct_status_exit_code(st);
    }
    int rc = ct_cli_finish(id, ct_health_usage);
    if (rc != CT_EXIT_OK)
        return rc;
    if (a->report) {
        if (run_opt != NULL) {
            /* it was ignored: --report --np 8 judged the files as they are
             * (issue 15, E24) */
            fprintf(stderr,
                    "colltune health: --%s: a run's option; --report runs nothing (it reads "
                    "RESULTS.json)\n",
                    run_opt);
            return CT_EXIT_USAGE;
        }
        while (it.next < argc)
            a->files[a->nfiles++] = argv[it.next++];
        if (a->nfiles == 0) {
            fprintf(stderr, "colltune health: --report: give results.json files\n");
            return CT_EXIT_USAGE;
        }
        return CT_EXIT_OK;
    }
    a->run.cb_args = argv + it.next;
    a->run.ncb_args = (size_t)(argc - it.next);
    if (a->run.ncb_args == 0) {
        a->run.cb_args = ct_health_default_args;
        a->run.ncb_args = sizeof ct_health_default_args / sizeof ct_health_default_args[0];
    }
    if (a->run.out == NULL) {
        fprintf(stderr, "colltune health: --out DIR is required\n");
        return CT_EXIT_USAGE;
    }
    if (a->no_job && a->no_pairs) {
        fprintf(stderr, "colltune health: --no-job and --no-pairs: nothing left to run\n");
        return CT_EXIT_USAGE;
    }
    const char *taken[] = {"--pairs", "--json"};
    for (size_t k = 0; k < 2; k++)
        if (ct_argv_names(a->run.cb_args, a->run.ncb_args, taken[k])) {
            fprintf(stderr, "colltune health: collbench argument %s: health sets it itself\n",
                    taken[k]);
            return CT_EXIT_USAGE;
        }
    return ct_launch_opts_check(&a->run.lo);
}

/* One run into DIR/name through l, collbench's arguments plus extra. */
static int ct_health_launch(const ct_health_args_t *a, const ct_launcher_t *l, const char *name,
                            const char *extra, char *json, size_t jlen)
{
    char dir[PATH_MAX];
    if (ct_outdir_path(a->run.out, name, dir, sizeof dir) != CT_OK ||
        ct_outdir_path(dir, "results.json", json, jlen) != CT_OK)
        return CT_EXIT_USAGE;
    const ct_health_run_t *run = &a->run;
    char **args = calloc(run->ncb_args + 4, sizeof *args);
    if (args == NULL)
        return CT_EXIT_FAILURE;
    memcpy(args, run->cb_args, run->ncb_args * sizeof *args);
    size_t nargs = run->ncb_args;
    if (extra != NULL)
        args[nargs++] = (char *)extra;
    /* Verdicts, like a tune's choices, want each size's CI. */
    if (!ct_argv_names(run->cb_args, run->ncb_args, "--ci-patience")) {
        args[nargs++] = "--ci-patience";
        args[nargs++] = CT_DECIDING_CI_PATIENCE;
    }
    fprintf(stderr, "colltune health: %s run into %s\n", name, dir);
    /* The run's own messages and launch.json's generator say "sweep", as
     * they always have: health runs what `colltune sweep` runs. */
    ct_run_dir_t rd = {"sweep", &run->lo, run->force, args, nargs};
    int rc = ct_run_once_dir(&rd, dir, l);
    free(args);
    return rc;
}

/* One section; word is what a named host is called: SLOW where this
 * section decides, "stands out" where pairs decide instead. */
static void ct_health_print(FILE *f, const char *what, const ct_health_report_t *rep, int md,
                            const char *word)
{
    fprintf(f, md ? "\n## %s\n\n" : "\n%s:\n", what);
    if (rep->nhosts == 0) {
        fputs(md ? "No timings.\n" : "  no timings\n", f);
        return;
    }
    fputs(md ? "| rank | host | verdict | median ratio | worst | at | slow cells | slow in |\n"
               "|---:|---|---|---:|---:|---|---:|---|\n"
             : "  rank host                      verdict    median  worst  at                    "
               "slow cells  slow in\n",
          f);
    for (size_t i = 0; i < rep->nhosts; i++) {
        const ct_health_verdict_t *v = &rep->hosts[i];
        char at[64], sz[32];
        ct_size_format((size_t)v->worst_bytes, sz, sizeof sz);
        snprintf(at, sizeof at, "%s %s", v->worst_collective, sz);
        fprintf(f,
                md ? "| %zu | %s | %s | %.2fx | %.2fx | %s | %zu of %zu | %s |\n"
                   : "  %4zu %-25s %-10s %5.2fx %5.2fx  %-21s %3zu of %-3zu  %s\n",
                i + 1, v->host, v->named ? word : "ok", v->ratio, v->worst, at, v->slow, v->cells,
                v->named ? v->named_in : "-");
    }
    for (size_t i = 0; i < rep->nlinks; i++) {
        const ct_health_verdict_t *v = &rep->links[i];
        fprintf(f,
                md ? "\nSuspect link: %s - %s, %.2fx the median pair (worst %.2fx, %s), "
                     "neither host slow elsewhere.\n"
                   : "  suspect link %s - %s: %.2fx the median pair (worst %.2fx, %s); "
                     "neither host is slow elsewhere\n",
                v->host, v->host_b, v->ratio, v->worst, v->worst_collective);
    }
}

static json_t *ct_health_json(const ct_health_report_t *rep)
{
    json_t *o = json_object(), *hosts = json_array(), *links = json_array();
    for (int k = 0; k < 2; k++) {
        const ct_health_verdict_t *v = k ? rep->links : rep->hosts;
        size_t n = k ? rep->nlinks : rep->nhosts;
        for (size_t i = 0; i < n; i++) {
            json_t *e = json_object();
            ct_json_set(e, "host", ct_json_str(v[i].host));
            if (k)
                ct_json_set(e, "host_b", ct_json_str(v[i].host_b));
            ct_json_set(e, "named", json_boolean(v[i].named));
            ct_json_set(e, "named_in", ct_json_str(v[i].named_in));
            ct_json_set(e, "median_ratio", ct_json_real(v[i].ratio));
            ct_json_set(e, "worst_ratio", ct_json_real(v[i].worst));
            ct_json_set(e, "worst_collective", ct_json_str(v[i].worst_collective));
            ct_json_set(e, "worst_bytes", json_integer(v[i].worst_bytes));
            ct_json_set(e, "cells", json_integer((json_int_t)v[i].cells));
            ct_json_set(e, "slow_cells", json_integer((json_int_t)v[i].slow));
            ct_json_append(k ? links : hosts, e);
        }
    }
    ct_json_set(o, "hosts", hosts);
    ct_json_set(o, "links", links);
    return o;
}

/* DIR/health.md and DIR/health.json, beside and renamed. */
static int ct_health_write(const ct_health_args_t *a, const ct_health_report_t *job,
                           const ct_health_report_t *pairs, int have_job, int have_pairs)
{
    char md[PATH_MAX], js[PATH_MAX];
    ct_outfile_t mdo, jso;
    if (ct_outdir_path(a->run.out, "health.md", md, sizeof md) != CT_OK ||
        ct_outdir_path(a->run.out, "health.json", js, sizeof js) != CT_OK)
        return -1;
    FILE *f = ct_outdir_open(&mdo, md, "health");
    if (f == NULL)
        return -1;
    fprintf(f,
            "# colltune health\n\nRule: a host is SLOW when its time is at least %.2fx the "
            "median host's and its modified z-score exceeds %.2f, in more than half of the "
            "sizes of a collective.\n",
            a->params.min_ratio, a->params.z_max);
    if (have_job)
        ct_health_print(f, have_pairs ? CT_HEALTH_JOB_INFO : "Whole job: each host's own median",
                        job, 1, have_pairs ? "stands out" : "SLOW");
    if (have_pairs)
        ct_health_print(f, "Pairs: each host's fastest pair", pairs, 1, "SLOW");
    json_t *doc = json_object();
    ct_json_set(doc, "generator", ct_json_str("colltune health " PACKAGE_VERSION));
    ct_json_set(doc, "z_max", ct_json_real(a->params.z_max));
    ct_json_set(doc, "min_ratio", ct_json_real(a->params.min_ratio));
    ct_json_set(doc, "decided_by", ct_json_str(have_pairs ? "pairs" : "job"));
    ct_json_set(doc, "job", have_job ? ct_health_json(job) : json_null());
    ct_json_set(doc, "pairs", have_pairs ? ct_health_json(pairs) : json_null());
    FILE *jf = ct_outdir_open(&jso, js, "health");
    int bad = jf == NULL || json_dumpf(doc, jf, JSON_INDENT(2)) != 0;
    json_decref(doc);
    if (bad) {
        if (jf != NULL) {
            fprintf(stderr, "colltune health: cannot write %s: out of memory\n", js);
            ct_outfile_abort(&jso);
        }
        ct_outfile_abort(&mdo);
        return -1;
    }
    /* Both written before either replaces its target. */
    if (ct_outdir_commit(&mdo, "health") != 0) {
        ct_outfile_abort(&jso);
        return -1;
    }
    return ct_outdir_commit(&jso, "health");
}

/* Appends ", path" (path alone first) to buf; "..." once it is full. */
static void ct_health_note(char *buf, size_t len, const char *path)
{
    size_t used = strlen(buf);
    if (used + strlen(path) + 8 >= len) {
        if (used + 5 < len && (used < 3 || strcmp(buf + used - 3, "...") != 0))
            snprintf(buf + used, len - used, ", ...");
        return;
    }
    snprintf(buf + used, len - used, "%s%s", used ? ", " : "", path);
}

static int ct_health_run(ct_health_args_t *a)
{
    char err[1024];
    if (a->run.out != NULL) {
        ct_status_t st = ct_outdir_prepare(a->run.out, err, sizeof err);
        if (st != CT_OK) {
            fprintf(stderr, "colltune health: --out %s: %s\n", a->run.out, err);
            return ct_status_exit_code(st);
        }
        /* D itself, as sweep and tune lock theirs: its job/ and pairs/
         * runs and health.md/.json must not mix with another's (E3). */
        if (ct_outdir_lock(a->run.out, "health") != 0)
            return CT_EXIT_USAGE;
    }
    ct_health_rows_t job = {0}, pairs = {0};
    int rc = CT_EXIT_OK;
    char inputs[1024] = ""; /* the files read, for a message */
    if (a->report) {
        for (size_t i = 0; i < a->nfiles && rc == CT_EXIT_OK; i++) {
            ct_health_note(inputs, sizeof inputs, a->files[i]);
            ct_status_t st = ct_health_read(a->files[i], &job, &pairs, err, sizeof err);
            if (st != CT_OK) {
                fprintf(stderr, "colltune health: %s\n", err);
                rc = ct_status_exit_code(st);
            }
        }
    } else {
        const char *names[] = {"job", "pairs"};
        const int skip[] = {a->no_job, a->no_pairs};
        ct_launcher_t l;
        ct_status_t st = ct_launch_opts_launcher(&a->run.lo, &l);
        if (st != CT_OK)
            return ct_status_exit_code(st);
        for (int k = 0; k < 2 && rc == CT_EXIT_OK; k++) {
            char json[PATH_MAX];
            if (skip[k])
                continue;
            rc = ct_health_launch(a, &l, names[k], k ? "--pairs" : NULL, json, sizeof json);
            if (rc == CT_EXIT_OK) {
                ct_health_note(inputs, sizeof inputs, json);
                ct_status_t st = ct_health_read(json, &job, &pairs, err, sizeof err);
                if (st != CT_OK) {
                    fprintf(stderr, "colltune health: %s\n", err);
                    rc = CT_EXIT_FAILURE;
                }
            }
        }
        ct_launcher_free(&l);
    }
    ct_health_report_t rj = {0}, rp = {0};
    if (rc == CT_EXIT_OK && (ct_health_judge(job.v, job.n, &a->params, &rj) != CT_OK ||
                             ct_health_judge(pairs.v, pairs.n, &a->params, &rp) != CT_OK))
        rc = CT_EXIT_FAILURE;
    if (rc == CT_EXIT_OK) {
        int have_job = job.n > 0, have_pairs = pairs.n > 0;
        if (!have_job && !have_pairs) {
            fprintf(stderr,
                    "colltune health: %s: no per-host or pair timings (a collbench older than "
                    "per_host, or one host)\n",
                    inputs);
            rc = CT_EXIT_USAGE;
        } else {
            printf("colltune health: %ld host%s; a host is SLOW at >= %.2fx the others' median "
                   "and modified z > %.2f in most of its cells\n",
                   job.nhosts, job.nhosts == 1 ? "" : "s", a->params.min_ratio, a->params.z_max);
            if (have_job)
                ct_health_print(
                    stdout, have_pairs ? CT_HEALTH_JOB_INFO : "whole job (each host's own median)",
                    &rj, 0, have_pairs ? "stands out" : "SLOW");
            if (have_pairs)
                ct_health_print(stdout, "pairs (each host's fastest pair; these decide)", &rp, 0,
                                "SLOW");
            if (job.wrong + pairs.wrong > 0)
                printf("\n%zu result%s with #wrong > 0 left out\n", job.wrong + pairs.wrong,
                       job.wrong + pairs.wrong == 1 ? "" : "s");
            /* Pairs decide when there are any: in a whole job a slow link
             * also slows the hosts around it. */
            const ct_health_report_t *dec = have_pairs ? &rp : &rj;
            size_t named = dec->nlinks;
            for (size_t i = 0; i < dec->nhosts; i++)
                named += dec->hosts[i].named;
            printf("\n%s\n", named ? "suspects named above" : "no host or link stands out");
            fflush(stdout);
            if (a->run.out != NULL && ct_health_write(a, &rj, &rp, have_job, have_pairs) != 0)
                rc = CT_EXIT_FAILURE;
            else
                rc = named ? CT_EXIT_WRONG : CT_EXIT_OK;
        }
    }
    ct_health_free(&rj);
    ct_health_free(&rp);
    ct_health_rows_free(&job);
    ct_health_rows_free(&pairs);
    return rc;
}

static int ct_health_main(int argc, char **argv)
{
    ct_health_args_t a = {0};
    int rc;
    if (ct_launch_opts_init(&a.run.lo, "health", argc, 3600) != CT_OK) {
        rc = CT_EXIT_FAILURE;
    } else {
        rc = ct_health_parse(argc, argv, &a);
        if (rc < 0)
            rc = CT_EXIT_OK;
        else if (rc == CT_EXIT_OK)
            rc = ct_health_run(&a);
    }
    ct_launch_opts_free(&a.run.lo);
    free(a.files);
    return rc;
}

const ct_command_t ct_command_health = {
    .name = "health",
    .summary = "name the slow hosts and links: per-host times and host pairs",
    .run = ct_health_main,
    .usage = ct_health_usage,
};
