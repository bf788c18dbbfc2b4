/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sbatch.c - `colltune sbatch`: writes a ready Slurm batch script for a
 * sweep, a tune or the nightly regression recipe at a given scale
 * (sbatch.h has the script; this file the options and the checks).
 *
 *   colltune sbatch --out FILE --nodes N --ntasks-per-node K [OPTIONS]
 *                   (sweep | tune | nightly) [-- ARGS]
 *
 * It only writes the script (beside the target, then renamed); sbatch
 * submits it.  Exit 0, or 2 on bad input before anything is written.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ct_outfile.h"
#include "command.h"
#include "ct_tmpname.h"
#include "ct_path.h"
#include "ct_status.h"
#include "outdir.h"
#include "sbatch.h"
#include "self_path.h"

#ifndef CT_CONTRIB_DIR
#define CT_CONTRIB_DIR ""
#endif
#ifndef CT_CONTRIB_SRCDIR
#define CT_CONTRIB_SRCDIR ""
#endif

enum {
    CT_SB_OUT = 1,
    CT_SB_NODES,
    CT_SB_NTASKS,
    CT_SB_TIME,
    CT_SB_PARTITION,
    CT_SB_JOB_NAME,
    CT_SB_OUTPUT,
    CT_SB_EXCLUSIVE,
    CT_SB_COLLTUNE,
    CT_SB_NIGHTLY,
    CT_SB_FORCE,
};

static const ct_cli_opt_t ct_sb_opts[] = {
    {CT_SB_OUT, "out", "FILE", "the batch script to write (required)"},
    {CT_SB_NODES, "nodes", "N", "#SBATCH --nodes (required)"},
    {CT_SB_NTASKS, "ntasks-per-node", "K", "#SBATCH --ntasks-per-node: ranks per node (required)"},
    {CT_SB_TIME, "time", "T", "#SBATCH --time: minutes or [D-]HH:MM:SS (default 01:00:00)"},
    {CT_SB_PARTITION, "partition", "P", "#SBATCH --partition (default: left commented)"},
    {CT_SB_JOB_NAME, "job-name", "NAME", "#SBATCH --job-name (default colltune-MODE)"},
    {CT_SB_OUTPUT, "output", "PATTERN", "#SBATCH --output (default colltune-MODE-%j.out)"},
    {CT_SB_EXCLUSIVE, "exclusive", NULL, "turn #SBATCH --exclusive on (default: commented)"},
    {CT_SB_COLLTUNE, "colltune", "PATH", "colltune the job runs (default: this one)"},
    {CT_SB_NIGHTLY, "nightly", "PATH",
     "nightly: the recipe (default: contrib/nightly.sh found "
     "beside colltune or installed)"},
    {CT_SB_FORCE, "force", NULL, "replace FILE if it exists"},
};
#define CT_SB_NOPTS (sizeof ct_sb_opts / sizeof ct_sb_opts[0])

/* nightly.sh's variables: what `nightly -- NAME=VALUE` may set. */
static const char *const ct_sb_nightly_vars[] = {
    "HISTORY", "COLLTUNE", "NP",         "LAUNCHER",     "COLLS",
    "SIZES",   "TIMEOUT",  "SWEEP_ARGS", "REGRESS_ARGS", "FAILED",
};

static void ct_sb_usage(FILE *f)
{
    fprintf(f, "usage: colltune sbatch --out FILE --nodes N --ntasks-per-node K [OPTIONS]\n"
               "                       (sweep | tune | nightly) [-- ARGS]\n\n"
               "Writes a ready, commented Slurm batch script that runs a colltune sweep or\n"
               "tune (ARGS: its own arguments, --out among them) with srun as the launcher\n"
               "(--launcher 'srun --mpi=pmix', unless ARGS name one), or the nightly\n"
               "regression recipe (ARGS: NAME=VALUE settings of contrib/nightly.sh).  Every\n"
               "argument is single-quoted in the script: nothing expands.  Submit it with\n"
               "sbatch FILE.\n\n"
               "options:\n");
    ct_cli_print_options(f, ct_sb_opts, CT_SB_NOPTS);
    fprintf(f,
            "\nexamples:\n"
            "  colltune sbatch --out sweep.sbatch --nodes 4 --ntasks-per-node 8 sweep -- \\\n"
            "      --out results/4n --timeout 1800 -- -C allreduce -b 8 -e 1G -f 2\n"
            "  colltune sbatch --out nightly.sbatch --nodes 2 --ntasks-per-node 8 nightly -- \\\n"
            "      HISTORY=$HOME/colltune-history COLLS=allreduce,bcast\n\n"
            "exit codes: 0 written, 2 bad input (nothing written), 3 cannot write.\n");
}

typedef struct {
    ct_sbatch_job_t job;
    const char *out;
    int force;
    int mode_at; /* argv index of the mode */
    char colltune[PATH_MAX], nightly[PATH_MAX];
    char job_name[64], output[80];
} ct_sb_args_t;

/* Slurm's time formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S. */
static int ct_sb_time_ok(const char *t)
{
    if (strcmp(t, "UNLIMITED") == 0 || strcmp(t, "infinite") == 0)
        return 1;
    const char *dash = strchr(t, '-');
    int fields = 0;
    const char *p = t;
    if (dash) {
        if (dash == t || strspn(t, "0123456789") != (size_t)(dash - t))
            return 0;
        p = dash + 1;
    }
    for (;;) {
        size_t n = strspn(p, "0123456789");
        if (n == 0 || n > 6)
            return 0;
        fields++;
        p += n;
        if (*p == '\0')
            break;
        if (*p != ':')
            return 0;
        p++;
    }
    return fields <= 3;
}

/* A value for an #SBATCH line: sbatch splits them at blanks and reads
 * quotes, so only plain characters. */
static int ct_sb_value_ok(const char *v, const char *extra)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_.-";
    if (*v == '\0')
        return 0;
    for (; *v; v++)
        if (strchr(plain, *v) == NULL && strchr(extra, *v) == NULL)
            return 0;
    return 1;
}

static int ct_sb_bad(const char *flag, const char *value, const char *want)
{
    fprintf(stderr, "colltune sbatch: --%s '%s': %s\n", flag, value, want);
    return CT_EXIT_USAGE;
}

/* Whether args (up to a "--") hold option name, alone or as name=... */
static int ct_sb_has_opt(char *const *args, size_t n, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < n && strcmp(args[i], "--") != 0; i++)
        if (strncmp(args[i], name, len) == 0 && (args[i][len] == '\0' || args[i][len] == '='))
            return 1;
    return 0;
}

static int ct_sb_check_args(ct_sb_args_t *a)
{
    ct_sbatch_job_t *j = &a->job;
    if (j->mode == CT_SBATCH_NIGHTLY) {
        for (size_t i = 0; i < j->nargs; i++) {
            const char *eq = strchr(j->args[i], '=');
            size_t k = 0, n = sizeof ct_sb_nightly_vars / sizeof ct_sb_nightly_vars[0];
            while (eq != NULL && k < n &&
                   (strlen(ct_sb_nightly_vars[k]) != (size_t)(eq - j->args[i]) ||
                    strncmp(ct_sb_nightly_vars[k], j->args[i], (size_t)(eq - j->args[i])) != 0))
                k++;
            if (eq == NULL || k == n) {
                fprintf(stderr,
                        "colltune sbatch: nightly argument '%s': want NAME=VALUE, NAME one of "
                        "nightly.sh's (HISTORY, COLLTUNE, NP, LAUNCHER, COLLS, SIZES, TIMEOUT, "
                        "SWEEP_ARGS, REGRESS_ARGS, FAILED)\n",
                        j->args[i]);
                return CT_EXIT_USAGE;
            }
        }
        return CT_EXIT_OK;
    }
    const char *mode = ct_sbatch_mode_name(j->mode);
    if (!ct_sb_has_opt(j->args, j->nargs, "--out")) {
        fprintf(stderr, "colltune sbatch: %s needs its --out DIR among the arguments after --\n",
                mode);
        return CT_EXIT_USAGE;
    }
    if (j->mode == CT_SBATCH_TUNE && !ct_sb_has_opt(j->args, j->nargs, "--space")) {
        fprintf(stderr, "colltune sbatch: tune needs its --space FILE among the arguments after "
                        "--\n");
        return CT_EXIT_USAGE;
    }
    if (ct_sb_has_opt(j->args, j->nargs, "--hostfile")) {
        fprintf(stderr,
                "colltune sbatch: %s --hostfile: srun takes its nodes from the "
                "allocation\n",
                mode);
        return CT_EXIT_USAGE;
    }
    j->has_launcher = ct_sb_has_opt(j->args, j->nargs, "--launcher");
    return CT_EXIT_OK;
}

/* The defaults that depend on the mode, and the checks of every value. */
static int ct_sb_check(ct_sb_args_t *a)
{
    ct_sbatch_job_t *j = &a->job;
    const char *mode = ct_sbatch_mode_name(j->mode);
    if (a->out == NULL) {
        fprintf(stderr, "colltune sbatch: --out FILE is required\n");
        return CT_EXIT_USAGE;
    }
    if (j->nodes == 0 || j->ntasks_per_node == 0) {
        fprintf(stderr, "colltune sbatch: give the scale: --nodes N and --ntasks-per-node K\n");
        return CT_EXIT_USAGE;
    }
    if (!ct_sb_time_ok(j->time))
        return ct_sb_bad("time", j->time, "want minutes, MM:SS, HH:MM:SS or DAYS-HH[:MM[:SS]]");
    if (j->partition != NULL && !ct_sb_value_ok(j->partition, ","))
        return ct_sb_bad("partition", j->partition, "want letters, digits and _.-,");
    if (j->job_name == NULL) {
        snprintf(a->job_name, sizeof a->job_name, "colltune-%s", mode);
        j->job_name = a->job_name;
    } else if (!ct_sb_value_ok(j->job_name, "+"))
        return ct_sb_bad("job-name", j->job_name, "want letters, digits and _.-+");
    if (j->output == NULL) {
        snprintf(a->output, sizeof a->output, "colltune-%s-%%j.out", mode);
        j->output = a->output;
    } else if (!ct_sb_value_ok(j->output, "/%+=@,"))
        return ct_sb_bad("output", j->output,
                         "want a path of letters, digits and _.-/%+=@, (no blank, no quote)");
    return ct_sb_check_args(a);
}

static int ct_sb_parse(int argc, char **argv, ct_sb_args_t *a)
{
    ct_cli_iter_t it = CT_CLI_ITER("sbatch", argc, argv);
    const char *value;
    int id = CT_CLI_END;
    ct_sbatch_job_t *j = &a->job;
    j->time = "01:00:00";
    /* Options, then the mode, then "--" and the mode's arguments: an
     * option after the mode would be ambiguous (sweep has --out too). */
    while (it.next < argc && argv[it.next][0] == '-' && strcmp(argv[it.next], "--") != 0) {
        if ((id = ct_cli_next(&it, ct_sb_opts, CT_SB_NOPTS, &value)) <= 0)
            break;
        ct_status_t st = CT_OK;
        switch (id) {
        case CT_SB_OUT: a->out = value; break;
        case CT_SB_NODES: st = ct_cli_long("sbatch", "nodes", value, 1, 1L << 20, &j->nodes); break;
        case CT_SB_NTASKS:
            st = ct_cli_long("sbatch", "ntasks-per-node", value, 1, 1L << 16, &j->ntasks_per_node);
            break;
        case CT_SB_TIME: j->time = value; break;
        case CT_SB_PARTITION: j->partition = value; break;
        case CT_SB_JOB_NAME: j->job_name = value; break;
        case CT_SB_OUTPUT: j->output = value; break;
        case CT_SB_EXCLUSIVE: j->exclusive = 1; break;
        case CT_SB_COLLTUNE: j->colltune = value; break;
        case CT_SB_NIGHTLY: j->nightly = value; break;
        case CT_SB_FORCE: a->force = 1; break;
        }
        if (st != CT_OK)
            return CT_EXIT_USAGE;
    }
    int rc = ct_cli_finish(id, ct_sb_usage);
    if (rc != CT_EXIT_OK)
        return rc;
    a->mode_at = it.next;
    const char *mode = it.next < argc ? argv[it.next] : "";
    if (strcmp(mode, "sweep") == 0)
        j->mode = CT_SBATCH_SWEEP;
    else if (strcmp(mode, "tune") == 0)
        j->mode = CT_SBATCH_TUNE;
    else if (strcmp(mode, "nightly") == 0)
        j->mode = CT_SBATCH_NIGHTLY;
    else {
        fprintf(stderr, "colltune sbatch: %s%s%s: want sweep, tune or nightly\n", *mode ? "'" : "",
                *mode ? mode : "no job", *mode ? "'" : "");
        return CT_EXIT_USAGE;
    }
    it.next++;
    if (it.next < argc && strcmp(argv[it.next], "--") != 0) {
        fprintf(stderr,
                "colltune sbatch: '%s' after %s: sbatch's options go before it, the %s's "
                "arguments after --\n",
                argv[it.next], mode, mode);
        return CT_EXIT_USAGE;
    }
    if (it.next < argc)
        it.next++;
    j->args = argv + it.next;
    j->nargs = (size_t)(argc - it.next);
    return ct_sb_check(a);
}

/* The paths the job runs, made absolute when found here. */
static int ct_sb_paths(ct_sb_args_t *a)
{
    ct_sbatch_job_t *j = &a->job;
    if (j->colltune == NULL) {
        ssize_t n = readlink("/proc/self/exe", a->colltune, sizeof a->colltune - 1);
        a->colltune[n > 0 ? n : 0] = '\0';
        if (n <= 0)
            snprintf(a->colltune, sizeof a->colltune, "colltune");
        j->colltune = a->colltune;
    }
    if (j->mode != CT_SBATCH_NIGHTLY || j->nightly != NULL)
        return CT_EXIT_OK;
    static const char *const rel[] = {"/../contrib"};
    const char *fixed[] = {CT_CONTRIB_DIR, CT_CONTRIB_SRCDIR};
    char dir[PATH_MAX - 16];
    int found = ct_self_path_find(rel, 1, "nightly.sh", R_OK, dir, sizeof dir) == 0;
    for (size_t i = 0; i < 2 && !found; i++) {
        snprintf(dir, sizeof dir, "%s", fixed[i]);
        snprintf(a->nightly, sizeof a->nightly, "%s/nightly.sh", dir);
        found = *fixed[i] && access(a->nightly, R_OK) == 0;
    }
    if (!found) {
        fprintf(stderr,
                "colltune sbatch: contrib/nightly.sh is not installed in %s; give "
                "--nightly PATH\n",
                *CT_CONTRIB_DIR ? CT_CONTRIB_DIR : "this build");
        return CT_EXIT_USAGE;
    }
    char *real = realpath(dir, NULL);
    snprintf(a->nightly, sizeof a->nightly, "%s/nightly.sh", real ? real : dir);
    free(real);
    j->nightly = a->nightly;
    return CT_EXIT_OK;
}

/* Whether arg is an option of the table that takes a value as the next
 * argument. */
static int ct_sb_takes_value(const char *arg)
{
    for (size_t i = 0; i < CT_SB_NOPTS; i++)
        if (ct_sb_opts[i].arg != NULL && strncmp(arg, "--", 2) == 0 &&
            strcmp(arg + 2, ct_sb_opts[i].name) == 0)
            return 1;
    return 0;
}

/* "colltune sbatch ..." as given, less --out and --force: the header's
 * record of how to write the script again. */
static char *ct_sb_command(int argc, char **argv, int mode_at)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f == NULL)
        return NULL;
    fputs("colltune sbatch", f);
    for (int i = 1; i < argc; i++) {
        int value = i < mode_at && ct_sb_takes_value(argv[i]) && i + 1 < mode_at;
        int skip =
            i < mode_at && (strcmp(argv[i], "--force") == 0 || strcmp(argv[i], "--out") == 0 ||
                            strncmp(argv[i], "--out=", 6) == 0);
        if (!skip) {
            fputc(' ', f);
            ct_sbatch_word(f, argv[i]);
            if (value) {
                fputc(' ', f);
                ct_sbatch_word(f, argv[i + 1]);
            }
        }
        i += value;
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Whether the job would run the file --out writes: the same inode when
 * both exist, else the same resolved path (canonical directory, every link
 * followed), so that a --out not written yet is caught too (E21). */
static int ct_sb_runs_out(const char *run, const ct_path_target_t *target)
{
    if (run == NULL)
        return 0;
    if (ct_path_is_target(run, target))
        return 1;
    ct_path_target_t rt;
    char err[256];
    return !target->exists && ct_path_target(run, &rt, err, sizeof err) == CT_OK && !rt.exists &&
           strcmp(rt.path, target->path) == 0;
}

static int ct_sb_write(ct_sb_args_t *a, const char *command)
{
    ct_path_target_t target;
    if (ct_outdir_check_file("sbatch", a->out, a->force, &target) != CT_EXIT_OK)
        return CT_EXIT_USAGE;
    /* --out over the recipe or the colltune the job runs: a job that runs
     * itself again and again (E21). */
    const char *runs[][2] = {{a->job.nightly, "--nightly"}, {a->job.colltune, "--colltune"}};
    for (size_t i = 0; i < 2; i++)
        if (ct_sb_runs_out(runs[i][0], &target)) {
            fprintf(stderr,
                    "colltune sbatch: --out %s is %s %s, which the job runs: it would run "
                    "itself\n",
                    a->out, runs[i][1], runs[i][0]);
            return CT_EXIT_USAGE;
        }
    const char *base = strrchr(target.path, '/');
    a->job.name = base ? base + 1 : target.path;
    a->job.command = command;
    ct_outfile_t out;
    char err[8800];
    ct_status_t st = ct_outfile_open(&out, target.path, 0666, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune sbatch: --out %s: %s\n", a->out, err);
        return CT_EXIT_USAGE;
    }
    ct_sbatch_write(out.fp, &a->job);
    /* Executable, as a batch script usually is (sbatch does not need it). */
    if (fchmod(fileno(out.fp), 0755) != 0) {
        fprintf(stderr, "colltune sbatch: cannot write %s: %s\n", a->out, strerror(errno));
        ct_outfile_abort(&out);
        return CT_EXIT_FAILURE;
    }
    if (ct_outfile_commit(&out, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune sbatch: %s\n", err);
        return CT_EXIT_FAILURE;
    }
    fprintf(stderr, "colltune sbatch: %s job for %ld x %ld ranks written to %s (sbatch %s)\n",
            ct_sbatch_mode_name(a->job.mode), a->job.nodes, a->job.ntasks_per_node, a->out, a->out);
    return CT_EXIT_OK;
}

static int ct_sb_main(int argc, char **argv)
{
    ct_sb_args_t a;
    memset(&a, 0, sizeof a);
    int rc = ct_sb_parse(argc, argv, &a);
    if (rc == -1)
        return CT_EXIT_OK;
    if (rc == CT_EXIT_OK)
        rc = ct_sb_paths(&a);
    if (rc != CT_EXIT_OK)
        return rc;
    char *command = ct_sb_command(argc, argv, a.mode_at);
    if (command == NULL) {
        fprintf(stderr, "colltune sbatch: out of memory\n");
        return CT_EXIT_FAILURE;
    }
    rc = ct_sb_write(&a, command);
    free(command);
    return rc;
}

const ct_command_t ct_command_sbatch = {
    "sbatch",
    "write a Slurm batch script for a sweep, a tune or the nightly job",
    ct_sb_main,
    ct_sb_usage,
};
