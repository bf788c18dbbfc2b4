/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * import.c - `colltune import`: nccl-tests and OSU logs into the results
 * schema (collbench's CSV), so that old runs join plots and history.
 *
 * The readers are import_nccl.c (stdout tables), import_nccl_json.c (-J)
 * and import_osu.c; this file parses the options, picks a reader per log
 * and commits the CSV: written to a temporary file beside --out and
 * renamed, so a reader never sees half of it.
 *
 * Exit codes: 0 imported (warnings on stderr), 2 bad input (an option, a
 * log that is not of the format, or any bad line under --strict), 3 when
 * the output cannot be written.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ct_outfile.h"
#include "command.h"
#include "ct_tmpname.h"
#include "ct_names.h"
#include "ct_input.h"
#include "ct_path.h"
#include "ct_vec.h"
#include "import.h"
#include "trial.h"
#include "outdir.h"

enum {
    CT_IMPORT_FORMAT = 1,
    CT_IMPORT_NP,
    CT_IMPORT_COLL,
    CT_IMPORT_STRICT,
    CT_IMPORT_OUT,
    CT_IMPORT_FORCE,
    CT_IMPORT_RUN_ID,
    CT_IMPORT_DATE,
};

static const ct_cli_opt_t ct_import_opts[] = {
    {CT_IMPORT_FORMAT, "format", "FMT", "nccl-tests, osu or auto (default: by each log's banner)"},
    {CT_IMPORT_NP, "np", "N", "ranks of the run (OSU logs do not say; needed for them)"},
    {CT_IMPORT_COLL, "collective", "C", "collective of an nccl-tests table whose log does not say"},
    {CT_IMPORT_STRICT, "strict", NULL, "fail (exit 2) on the first line that cannot be read"},
    {CT_IMPORT_OUT, "out", "FILE.csv", "the results CSV to write (required)"},
    {CT_IMPORT_FORCE, "force", NULL, "replace an existing --out"},
    {CT_IMPORT_RUN_ID, "run-id", "ID",
     "the rows' run_id (default: each log's file name); [A-Za-z0-9._:-], 63 at most"},
    {CT_IMPORT_DATE, "date", "DATE",
     "when the logs were made, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ: the time of rows whose log "
     "has none, so that regress orders imported runs"},
};
#define CT_IMPORT_NOPTS (sizeof ct_import_opts / sizeof ct_import_opts[0])

typedef enum { CT_FMT_AUTO, CT_FMT_NCCL, CT_FMT_OSU } ct_import_fmt_t;

static void ct_import_usage(FILE *f)
{
    fprintf(f, "usage: colltune import --out FILE.csv [--format nccl-tests|osu|auto] [--np N]\n"
               "                       [--collective C] [--strict] [--force] LOG...\n\n"
               "Turns nccl-tests logs (the stdout table, or -J JSON) and OSU Micro-Benchmarks\n"
               "collective latency logs into collbench's results CSV.  busbw is recomputed\n"
               "from size, time and nranks with collbench's bus factors and checked against\n"
               "the log's own figure.  A line that cannot be read is reported as FILE:LINE\n"
               "and skipped.  OSU allgather and alltoall sizes are per-rank blocks and become\n"
               "nccl-tests' whole-buffer sizes (x --np).\n\n"
               "options:\n");
    ct_cli_print_options(f, ct_import_opts, CT_IMPORT_NOPTS);
    fprintf(f, "\nexit codes: 0 imported, 2 bad input, 3 the output could not be written.\n");
}

/* Reads path whole (a regular text file of bounded size); CT_ERR_USAGE
 * with a message. */
static ct_status_t ct_import_slurp(const char *path, char **text_p, size_t *len_p)
{
    char err[4200];
    ct_status_t st = ct_input_slurp(path, CT_INPUT_MAX_DATA, 1, text_p, len_p, err, sizeof err);
    if (st != CT_OK)
        fprintf(stderr, "colltune import: %s\n", err);
    return st == CT_OK ? CT_OK : CT_ERR_USAGE;
}

/* The reader for one log: by --format, and by its first lines for auto. */
static ct_status_t ct_import_one(ct_import_t *im, ct_import_fmt_t fmt)
{
    const char *p = im->text + strspn(im->text, " \t\r\n");
    int json = *p == '{';
    if (fmt == CT_FMT_AUTO) {
        if (json || strstr(im->text, "\n# nThread ") != NULL ||
            strncmp(im->text, "# nThread ", 10) == 0 ||
            strstr(im->text, "# nccl-tests version") != NULL ||
            strstr(im->text, "# Collective test starting:") != NULL)
            fmt = CT_FMT_NCCL;
        else if (strncmp(im->text, "# OSU MPI", 9) == 0 || strstr(im->text, "\n# OSU MPI") != NULL)
            fmt = CT_FMT_OSU;
        else {
            fprintf(stderr,
                    "colltune import: %s:1: neither an nccl-tests nor an OSU log (no banner); "
                    "give --format\n",
                    im->path);
            return CT_ERR_PARSE;
        }
    }
    if (fmt == CT_FMT_OSU)
        return ct_import_osu(im);
    return json ? ct_import_nccl_json(im) : ct_import_nccl_text(im);
}

typedef struct {
    const char *out;
    ct_import_fmt_t fmt;
    int force;
    const char *run_id; /* --run-id, or NULL */
    char **logs;        /* argc slots, not owned strings */
    int nlogs;
} ct_import_args_t;

/* Options and LOGs mix; the shared parser (cli.h) sees only the options.
 * Returns -1 to go on, else the exit code. */
static int ct_import_parse(int argc, char **argv, ct_import_args_t *a, ct_import_t *im)
{
    ct_cli_iter_t it = CT_CLI_ITER("import", argc, argv);
    const char *value;
    for (;;) {
        while (it.next < argc && argv[it.next][0] != '-')
            a->logs[a->nlogs++] = argv[it.next++];
        int id = ct_cli_next(&it, ct_import_opts, CT_IMPORT_NOPTS, &value);
        if (id == CT_CLI_END) {
            while (it.next < argc)
                a->logs[a->nlogs++] = argv[it.next++];
            break;
        }
        if (id == CT_CLI_HELP) {
            ct_import_usage(stdout);
            return CT_EXIT_OK;
        }
        if (id == CT_CLI_ERROR)
            return CT_EXIT_USAGE;
        switch (id) {
        case CT_IMPORT_FORMAT:
            if (strcmp(value, "nccl-tests") == 0)
                a->fmt = CT_FMT_NCCL;
            else if (strcmp(value, "osu") == 0)
                a->fmt = CT_FMT_OSU;
            else if (strcmp(value, "auto") == 0)
                a->fmt = CT_FMT_AUTO;
            else {
                fprintf(stderr, "colltune import: --format %s: expected nccl-tests, osu or auto\n",
                        value);
                return CT_EXIT_USAGE;
            }
            break;
        case CT_IMPORT_NP:
            if (ct_cli_long("import", "np", value, 1, 1L << 30, &im->np) != CT_OK)
                return CT_EXIT_USAGE;
            break;
        case CT_IMPORT_COLL:
            if (ct_import_coll(value) == NULL) {
                char names[128];
                ct_coll_name_list(", ", names, sizeof names);
                fprintf(stderr,
                        "colltune import: --collective %s: not one the results schema holds "
                        "(%s)\n",
                        value, names);
                return CT_EXIT_USAGE;
            }
            im->coll_flag = value;
            break;
        case CT_IMPORT_STRICT: im->strict = 1; break;
        case CT_IMPORT_OUT: a->out = value; break;
        case CT_IMPORT_FORCE: a->force = 1; break;
        case CT_IMPORT_RUN_ID:
            if (!ct_result_run_id_ok(value)) {
                fprintf(stderr,
                        "colltune import: --run-id %s: 1 to 63 of [A-Za-z0-9._:-] (it becomes a "
                        "CSV field and a series label)\n",
                        value);
                return CT_EXIT_USAGE;
            }
            a->run_id = value;
            break;
        case CT_IMPORT_DATE:
            if (ct_result_time_parse(value, im->date, sizeof im->date) != 0) {
                fprintf(stderr,
                        "colltune import: --date %s: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC), a "
                        "real date\n",
                        value);
                return CT_EXIT_USAGE;
            }
            break;
        }
    }
    if (a->out == NULL || a->nlogs == 0) {
        fprintf(stderr, "colltune import: %s\n",
                a->out == NULL ? "--out FILE.csv is required" : "no LOG to import");
        return CT_EXIT_USAGE;
    }
    return -1;
}

/* A stopping signal is waiting (they are blocked during the import). */
static int ct_import_signalled(void)
{
    sigset_t pend;
    sigpending(&pend);
    return sigismember(&pend, SIGINT) || sigismember(&pend, SIGTERM) || sigismember(&pend, SIGHUP);
}

static int ct_import_run(ct_import_args_t *a, ct_import_t *im)
{
    /* The output is checked before any log is read. */
    ct_path_target_t target;
    ct_outfile_t out;
    char err[8800];
    if (ct_outdir_check_file("import", a->out, a->force, &target) != CT_EXIT_OK)
        return CT_EXIT_USAGE;
    /* --force replaces an old output, never an input (E15). */
    for (int i = 0; i < a->nlogs; i++)
        if (ct_path_is_target(a->logs[i], &target)) {
            fprintf(stderr,
                    "colltune import: --out %s is the log %s, an input: give another --out\n",
                    a->out, a->logs[i]);
            return CT_EXIT_USAGE;
        }
    if (ct_outfile_open(&out, target.path, 0666, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune import: --out %s: %s\n", a->out, err);
        return CT_EXIT_USAGE;
    }
    im->out = out.fp;
    ct_result_csv_header(im->out);

    ct_status_t st = CT_OK;
    for (int i = 0; i < a->nlogs && st == CT_OK; i++) {
        if (ct_import_signalled()) {
            fprintf(stderr, "colltune import: interrupted; nothing written to %s\n", a->out);
            st = CT_ERR_IO;
            break;
        }
        im->path = a->logs[i];
        const char *base = strrchr(im->path, '/');
        ct_result_run_id_clean(a->run_id      ? a->run_id
                               : base != NULL ? base + 1
                                              : im->path,
                               im->run_id, sizeof im->run_id);
        st = ct_import_slurp(im->path, &im->text, &im->len);
        if (st == CT_OK) {
            st = ct_import_one(im, a->fmt);
            free(im->text);
            im->text = NULL;
        }
    }
    if (st == CT_OK && im->rows == 0) {
        /* from which logs (E23); nothing is written */
        if (a->nlogs == 1)
            fprintf(stderr, "colltune import: %s: no row could be imported; %s not written\n",
                    a->logs[0], a->out);
        else
            fprintf(stderr,
                    "colltune import: %s and the %d other logs: no row could be imported; %s not "
                    "written\n",
                    a->logs[0], a->nlogs - 1, a->out);
        st = CT_ERR_PARSE;
    }
    if (st == CT_OK && ct_outfile_commit(&out, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune import: %s\n", err);
        st = CT_ERR_IO;
    }
    if (st != CT_OK) {
        ct_outfile_abort(&out);
        return st == CT_ERR_NOMEM || st == CT_ERR_IO ? CT_EXIT_FAILURE : CT_EXIT_USAGE;
    }
    fprintf(stderr, "colltune import: %lld rows into %s (%lld lines skipped, %lld warnings)\n",
            im->rows, a->out, im->skipped, im->warnings);
    return CT_EXIT_OK;
}

static int ct_import_main(int argc, char **argv)
{
    ct_import_args_t a = {.fmt = CT_FMT_AUTO};
    ct_import_t im;
    memset(&im, 0, sizeof im);
    a.logs = calloc((size_t)argc, sizeof *a.logs);
    if (a.logs == NULL) {
        fprintf(stderr, "colltune import: out of memory\n");
        return CT_EXIT_FAILURE;
    }
    int rc = ct_import_parse(argc, argv, &a, &im);
    /* INT, TERM and HUP wait while the output exists only as its temporary
     * file: once it is renamed or removed they act as they would have, so
     * an import stopped by a signal leaves no NAME.PID.tmp behind (E17). */
    sigset_t stop, old;
    ct_trial_stop_set(&stop);
    sigaddset(&stop, SIGHUP);
    sigprocmask(SIG_BLOCK, &stop, &old);
    if (rc < 0)
        rc = ct_import_run(&a, &im);
    free(a.logs);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

const ct_command_t ct_command_import = {
    .name = "import",
    .summary = "turn nccl-tests and OSU logs into a results CSV",
    .run = ct_import_main,
    .usage = ct_import_usage,
};
