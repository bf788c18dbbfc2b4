/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sbatch_script.c - the text of the batch script (sbatch.h).
 */
#include "sbatch.h"

#include "ct_printable.h"

#include <string.h>

const char *ct_sbatch_mode_name(ct_sbatch_mode_t mode)
{
    switch (mode) {
    case CT_SBATCH_SWEEP: return "sweep";
    case CT_SBATCH_TUNE: return "tune";
    case CT_SBATCH_NIGHTLY: return "nightly";
    }
    return "?";
}

void ct_sbatch_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

void ct_sbatch_word(FILE *f, const char *s)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_./=:,+@%-";
    if (*s != '\0' && strspn(s, plain) == strlen(s))
        fputs(s, f);
    else
        ct_sbatch_quote(f, s);
}

/* Before the first command, so it holds for the whole file. */
static const char ct_sbatch_shellcheck[] =
    "# shellcheck disable=SC2016,SC2089,SC2090 # quotes and $ in values are literal\n";

static const char *const ct_sbatch_what[] = {
    [CT_SBATCH_SWEEP] = "a colltune sweep",
    [CT_SBATCH_TUNE] = "a colltune tune",
    [CT_SBATCH_NIGHTLY] = "the nightly regression (contrib/nightly.sh)",
};

static void ct_sbatch_header(FILE *f, const ct_sbatch_job_t *job)
{
    fputs("#!/bin/sh\n# ", f);
    ct_printable_put(f, job->name, (size_t)-1);
    fprintf(f, " - %s as a Slurm batch job.\n# Written by: ", ct_sbatch_what[job->mode]);
    ct_printable_put(f, job->command, (size_t)-1);
    fputs("\n# Submit it with: sbatch ", f);
    ct_printable_put(f, job->name, (size_t)-1);
    fprintf(f, "\n"
               "#\n"
               "# Slurm reads the #SBATCH lines up to the first command; edit them for\n"
               "# the scale you want.  A line starting \"##SBATCH\" is off: delete one '#'\n"
               "# to turn it on.  Relative paths are relative to the directory sbatch is\n"
               "# run from.\n");
    if (job->mode == CT_SBATCH_NIGHTLY)
        fprintf(f, "# A fixed scale keeps the history comparable: change it and start a\n"
                   "# new HISTORY.\n");
    fprintf(f,
            "#\n"
            "# The job's name, in squeue and sacct.\n"
            "#SBATCH --job-name=%s\n"
            "# Nodes, and ranks per node: srun starts nodes x tasks per node ranks.\n"
            "#SBATCH --nodes=%ld\n"
            "#SBATCH --ntasks-per-node=%ld\n"
            "# Time limit (minutes, or [DAYS-]HH:MM:SS); the job is killed after it.\n"
            "#SBATCH --time=%s\n"
            "# Output: one log per job, %%j is the job id.\n"
            "#SBATCH --output=%s\n"
            "# The partition (queue); off: the site's default.\n"
            "%s#SBATCH --partition=%s\n"
            "# The whole nodes: another job's traffic would read as %s.\n"
            "%s#SBATCH --exclusive\n",
            job->job_name, job->nodes, job->ntasks_per_node, job->time, job->output,
            job->partition ? "" : "#", job->partition ? job->partition : "PARTITION",
            job->mode == CT_SBATCH_NIGHTLY ? "a regression" : "noise", job->exclusive ? "" : "#");
    if (job->mode == CT_SBATCH_NIGHTLY)
        fprintf(f, "# Mail on failure (a regression exits 1); set --mail-user for your site.\n"
                   "##SBATCH --mail-type=FAIL\n");
}

/* The arguments, one option per line with its values after it. */
static void ct_sbatch_args(FILE *f, char *const *args, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fputs(args[i][0] == '-' ? " \\\n    " : " ", f);
        ct_sbatch_quote(f, args[i]);
    }
}

static void ct_sbatch_run(FILE *f, const ct_sbatch_job_t *job)
{
    const char *mode = ct_sbatch_mode_name(job->mode);
    fprintf(f,
            "\n# colltune starts collbench with srun inside this allocation: srun takes\n"
            "# the ranks from it, and --mpi=pmix wires Open MPI up without mpirun.\n"
            "# Every argument is single-quoted: nothing in it expands.\n"
            "%s"
            "exec ",
            ct_sbatch_shellcheck);
    ct_sbatch_quote(f, job->colltune);
    fprintf(f, " %s", mode);
    if (!job->has_launcher)
        fprintf(f, " \\\n    '--launcher' 'srun --mpi=pmix'");
    ct_sbatch_args(f, job->args, job->nargs);
    fputc('\n', f);
}

static void ct_sbatch_nightly(FILE *f, const ct_sbatch_job_t *job)
{
    fprintf(f,
            "\n# The recipe: one fixed sweep into the history, then regress, then plot;\n"
            "# the job's exit status is regress's.  It is configured by environment\n"
            "# variables (README.md, \"Nightly regression\"); sbatch passes the\n"
            "# submitting shell's on, and those set below win.  sbatch runs a spool\n"
            "# copy of this file: NIGHTLY names the recipe, not a path beside it.\n"
            "%s"
            "NIGHTLY=${NIGHTLY:-",
            ct_sbatch_shellcheck);
    ct_sbatch_quote(f, job->nightly);
    fprintf(f, "}\nCOLLTUNE=${COLLTUNE:-");
    ct_sbatch_quote(f, job->colltune);
    fprintf(f, "}\n# srun takes the ranks from the allocation (leave NP unset); --mpi=pmix\n"
               "# wires Open MPI up without mpirun.\n"
               "LAUNCHER=${LAUNCHER:-'srun --mpi=pmix'}\n"
               "export NIGHTLY COLLTUNE LAUNCHER\n");
    for (size_t i = 0; i < job->nargs; i++) {
        const char *eq = strchr(job->args[i], '=');
        fprintf(f, "%.*s=", (int)(eq - job->args[i]), job->args[i]);
        ct_sbatch_quote(f, eq + 1);
        fprintf(f, "\nexport %.*s\n", (int)(eq - job->args[i]), job->args[i]);
    }
    fprintf(f,
            "[ -f \"$NIGHTLY\" ] || {\n"
            "    echo \"nightly job: $NIGHTLY not found: set NIGHTLY to contrib/nightly.sh\" >&2\n"
            "    exit 2\n"
            "}\n"
            "exec sh \"$NIGHTLY\"\n");
}

void ct_sbatch_write(FILE *f, const ct_sbatch_job_t *job)
{
    ct_sbatch_header(f, job);
    if (job->mode == CT_SBATCH_NIGHTLY)
        ct_sbatch_nightly(f, job);
    else
        ct_sbatch_run(f, job);
}
