/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sweep.c - `colltune sweep`: one collbench run through a launcher, its
 * results into a directory.
 *
 *   DIR/results.csv, DIR/results.json  collbench's --csv and --json
 *   DIR/collbench.txt, DIR/collbench.err  its stdout (the table) and stderr
 *   DIR/launch.json  the exact argv and settings, and how the run ended
 *
 * Exits with collbench's meaning (0, 1 wrong, 2, 3, 77, 124), 3 for a
 * crash, 130 when interrupted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argv.h"
#include "cli.h"
#include "command.h"
#include "launch_opts.h"
#include "launcher.h"
#include "run_once.h"
#include "sweep.h"

enum {
    CT_SWEEP_OUT = 1,
    CT_SWEEP_FORCE,
    CT_SWEEP_SCALES,
    CT_SWEEP_SCALE_BY,
    CT_SWEEP_RPN,
    CT_SWEEP_RESUME,
};

static const ct_cli_opt_t ct_sweep_opts[] = {
    {CT_SWEEP_OUT, "out", "DIR", "results directory (created if missing; required)"},
    CT_LAUNCH_OPTS("environment variable for collbench (repeatable)",
                   "Open MPI MCA parameter (repeatable)",
                   "kill the run's process group after SEC (default 3600)"),
    CT_LAUNCH_OPT_COLLBENCH,
    {CT_SWEEP_FORCE, "force", NULL, "replace results already in DIR"},
    {CT_SWEEP_SCALES, "scales", "N,N,...",
     "the same sweep at each scale into DIR/scale-N/, then the scaling plot and table"},
    {CT_SWEEP_SCALE_BY, "scale-by", "nodes|ranks", "what --scales counts (default nodes)"},
    {CT_SWEEP_RPN, "ranks-per-node", "K", "ranks on each node at every scale (default 1)"},
    {CT_SWEEP_RESUME, "resume", NULL, "--scales: keep the scales an earlier run finished"},
};
#define CT_SWEEP_NOPTS (sizeof ct_sweep_opts / sizeof ct_sweep_opts[0])

static void ct_sweep_usage(FILE *f)
{
    fprintf(f, "usage: colltune sweep --out DIR (--np N | --launcher 'CMD ARGS') [OPTIONS]\n"
               "                      [-- COLLBENCH-ARGS]\n\n"
               "Runs collbench once through a launcher, never through a shell, and keeps\n"
               "its results in DIR: results.csv, results.json, collbench.txt (the table),\n"
               "collbench.err and launch.json (the exact command).\n\n"
               "options:\n");
    ct_cli_print_options(f, ct_sweep_opts, CT_SWEEP_NOPTS);
    fprintf(f, "\nlaunchers (the form is the first word's name):\n");
    for (size_t i = 0; ct_launchers[i] != NULL; i++)
        fputs(ct_launchers[i]->help, f);
    fprintf(f, "--launcher is split into words at spaces; '...' and \"...\" group, \\ escapes;\n"
               "nothing is expanded.\n\n"
               "--scales (scaling sweeps): by nodes, mpirun takes the first N hosts of\n"
               "--hostfile (K slots each; DIR/scale-N/hostfile), srun gets --nodes=N\n"
               "--ntasks-per-node=K; by ranks, --np N.  DIR/results.csv holds every\n"
               "scale's rows, DIR/scaling.md the efficiency table (busbw against the\n"
               "smallest scale's), DIR/plots/ colltune plot's pictures.\n\n"
               "examples:\n"
               "  colltune sweep --out run1 --np 4 -- -C allreduce -b 8 -e 128M -f 2\n"
               "  colltune sweep --out run2 --launcher 'srun -N 64 --ntasks-per-node 8' \\\n"
               "      --env NCCL_ALGO=Ring -- --backend nccl\n"
               "  colltune sweep --out scaling --scales 1,2,4 --hostfile hosts \\\n"
               "      --ranks-per-node 8 -- -C allreduce -b 1M -e 1G -f 4\n\n"
               "exit codes: collbench's (0 ok, 1 wrong, 2 bad input, 3 failure,\n"
               "77 unavailable, 124 timeout), 3 on a crash, 130 when interrupted.\n");
}

/* "1,2,4": positive, strictly ascending, CT_SWEEP_MAX_SCALES at most. */
static int ct_sweep_parse_scales(const char *value, ct_sweep_args_t *a)
{
    const char *p = value;
    a->nscales = 0;
    while (*p) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || errno != 0 || v < 1 || v > 1L << 20 || (*end != ',' && *end != '\0') ||
            a->nscales == CT_SWEEP_MAX_SCALES ||
            (a->nscales > 0 && v <= a->scales[a->nscales - 1])) {
            fprintf(stderr,
                    "colltune sweep: --scales %s: positive counts, ascending, comma-separated, "
                    "%d at most (1,2,4)\n",
                    value, CT_SWEEP_MAX_SCALES);
            return -1;
        }
        a->scales[a->nscales++] = v;
        p = *end ? end + 1 : end;
        if (*end == ',' && *p == '\0') {
            fprintf(stderr, "colltune sweep: --scales %s: ends with a comma\n", value);
            return -1;
        }
    }
    if (a->nscales == 0) {
        fprintf(stderr, "colltune sweep: --scales: empty\n");
        return -1;
    }
    return 0;
}

static int ct_sweep_parse(int argc, char **argv, ct_sweep_args_t *a)
{
    ct_cli_iter_t it = CT_CLI_ITER("sweep", argc, argv);
    const char *value;
    int id;

    while ((id = ct_cli_next(&it, ct_sweep_opts, CT_SWEEP_NOPTS, &value)) > 0) {
        ct_status_t st = CT_OK;
        switch (id) {
        case CT_SWEEP_OUT: a->out = value; break;
        case CT_SWEEP_FORCE: a->force = 1; break;
        case CT_SWEEP_RESUME: a->resume = 1; break;
        case CT_SWEEP_SCALES:
            if (ct_sweep_parse_scales(value, a) != 0)
                st = CT_ERR_USAGE;
            break;
        case CT_SWEEP_SCALE_BY:
            a->by_nodes = strcmp(value, "nodes") == 0 ? 1 : strcmp(value, "ranks") == 0 ? 0 : -1;
            if (a->by_nodes < 0) {
                fprintf(stderr, "colltune sweep: --scale-by %s: nodes or ranks\n", value);
                st = CT_ERR_USAGE;
            }
            break;
        case CT_SWEEP_RPN:
            st = ct_cli_long("sweep", "ranks-per-node", value, 1, 1L << 20, &a->ranks_per_node);
            break;
        default: ct_launch_opts_apply(&a->lo, id, value, &st); break;
        }
        if (st == CT_ERR_NOMEM)
            fprintf(stderr, "colltune sweep: out of memory\n");
        if (st != CT_OK)
            return ct_status_exit_code(st);
    }
    int rc = ct_cli_finish(id, ct_sweep_usage);
    if (rc != CT_EXIT_OK)
        return rc;
    a->cb_args = argv + it.next;
    a->ncb_args = (size_t)(argc - it.next);

    if (a->out == NULL) {
        fprintf(stderr, "colltune sweep: --out DIR is required\n");
        return CT_EXIT_USAGE;
    }
    if (a->nscales > 0 && a->lo.np != 0) {
        fprintf(stderr, "colltune sweep: --np with --scales: the scales set the rank count\n");
        return CT_EXIT_USAGE;
    }
    if ((a->resume || a->ranks_per_node != 1 || !a->by_nodes) && a->nscales == 0) {
        fprintf(stderr, "colltune sweep: --resume, --scale-by and --ranks-per-node go with "
                        "--scales\n");
        return CT_EXIT_USAGE;
    }
    if (a->nscales == 0 ? ct_launch_opts_check(&a->lo) != CT_EXIT_OK
                        : ct_launch_opts_check_files(&a->lo) != CT_EXIT_OK)
        return CT_EXIT_USAGE;
    /* The output files are colltune's to name. */
    const char *taken[] = {"--csv", "--json"};
    for (size_t k = 0; k < 2; k++)
        if (ct_argv_names(a->cb_args, a->ncb_args, taken[k])) {
            fprintf(stderr,
                    "colltune sweep: collbench argument %s: sweep writes DIR/results.%s itself\n",
                    taken[k], taken[k] + 2);
            return CT_EXIT_USAGE;
        }
    return CT_EXIT_OK;
}

ct_run_dir_t ct_sweep_run_dir(const ct_sweep_args_t *a)
{
    return (ct_run_dir_t){"sweep", &a->lo, a->force, a->cb_args, a->ncb_args};
}

static int ct_sweep_run(ct_sweep_args_t *a)
{
    if (a->nscales > 0)
        return ct_sweep_scales(a);
    ct_launcher_t l;
    ct_status_t st = ct_launch_opts_launcher(&a->lo, &l);
    if (st != CT_OK)
        return ct_status_exit_code(st);
    ct_run_dir_t rd = ct_sweep_run_dir(a);
    int rc = ct_run_once_dir(&rd, a->out, &l);
    ct_launcher_free(&l);
    return rc;
}

static int ct_sweep_main(int argc, char **argv)
{
    ct_sweep_args_t a = {.by_nodes = 1, .ranks_per_node = 1};
    int rc;
    if (ct_launch_opts_init(&a.lo, "sweep", argc, 3600) != CT_OK) {
        rc = CT_EXIT_FAILURE;
    } else {
        rc = ct_sweep_parse(argc, argv, &a);
        if (rc < 0)
            rc = CT_EXIT_OK; /* --help */
        else if (rc == CT_EXIT_OK)
            rc = ct_sweep_run(&a);
    }
    ct_launch_opts_free(&a.lo);
    return rc;
}

const ct_command_t ct_command_sweep = {
    .name = "sweep",
    .summary = "run collbench once through a launcher; results into a directory",
    .run = ct_sweep_main,
    .usage = ct_sweep_usage,
};
