/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * merge.c - colltune merge --out OUT TUNE_DIR...: tunes made at different
 * shapes (comm sizes, nodes x ranks) joined into one set of files, each
 * choice applied at the shape it was measured at only.
 *
 * A subcommand of its own, beside install, rather than a tune option: it
 * launches nothing and takes only verified tunes (install's checks).  It
 * reads each tune's report.json choices, which carry their shape
 * (merge_read.c), joins them into one result (merge_join.c: what cannot
 * be joined is refused, naming the tunes and the file), and hands that to
 * the emitters, which write every file as a tune does, a block per shape
 * where the file is keyed by one.  merge knows no file format: a row of
 * ct_library.h and its emitter are all a new file needs.  report.json
 * (merge_report.c) lists the tunes and the choices, so install takes OUT
 * as it takes a tune, and a later merge takes OUT as a tune.
 */
#define _XOPEN_SOURCE 700

#include "merge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "command.h"
#include "ct_status.h"
#include "emit.h"
#include "outdir.h"

enum { CT_MERGE_OUT = 1, CT_MERGE_FORCE };

static const ct_cli_opt_t ct_merge_opts[] = {
    {CT_MERGE_OUT, "out", "DIR",
     "where the merged files go (created if missing; outside any tune)"},
    {CT_MERGE_FORCE, "force", NULL, "replace files of the same names already in DIR"},
};
#define CT_MERGE_NOPTS (sizeof ct_merge_opts / sizeof ct_merge_opts[0])

static void ct_merge_usage(FILE *f)
{
    fprintf(f, "usage: colltune merge --out DIR [--force] TUNE_DIR TUNE_DIR...\n\n"
               "Joins tunes made at different shapes (comm sizes, nodes x ranks) into one\n"
               "set of files in DIR, each choice held at the shape it was measured at.  It\n"
               "reads the choices each tune wrote from its report.json and writes the files\n"
               "as a tune does (`colltune tune --help` lists them): a file keyed by shape\n"
               "gets a block per tune's shape.  Refused: two tunes' different choices of one\n"
               "variable at one shape over overlapping sizes; a choice for a file keyed by\n"
               "nothing that not every tune made alike; a choice or a file of a tune that\n"
               "the merge could not write; tunes made against different site settings; a\n"
               "tune's file that no row knows.  Only verified tunes are taken (as colltune\n"
               "install demands).  DIR may not lie in a tune's directory, nor hold a file a\n"
               "tune writes that this merge does not (--force or not).  Written all or none;\n"
               "install DIR with `colltune install DIR --to ...`.\n\n"
               "options:\n");
    ct_cli_print_options(f, ct_merge_opts, CT_MERGE_NOPTS);
    fprintf(f, "\nexit codes: 0 merged, 2 bad input or a conflict (nothing written), 3 a\n"
               "write failed.\n");
}

static int ct_merge_parse(int argc, char **argv, const char **out, int *force, const char **dirs,
                          int *ndirs)
{
    ct_cli_iter_t it = CT_CLI_ITER("merge", argc, argv);
    const char *value;
    int id;
    for (;;) {
        while (it.next < argc && argv[it.next][0] != '-') {
            if (*ndirs >= CT_MERGE_MAX_TUNES) {
                fprintf(stderr, "colltune merge: at most %d tunes\n", CT_MERGE_MAX_TUNES);
                return CT_EXIT_USAGE;
            }
            dirs[(*ndirs)++] = argv[it.next++];
        }
        if ((id = ct_cli_next(&it, ct_merge_opts, CT_MERGE_NOPTS, &value)) <= 0)
            break;
        if (id == CT_MERGE_OUT)
            *out = value;
        else
            *force = 1;
    }
    int rc = ct_cli_finish(id, ct_merge_usage);
    if (rc != CT_EXIT_OK)
        return rc;
    if (it.next < argc) {
        fprintf(stderr, "colltune merge: unexpected argument %s\n", argv[it.next]);
        return CT_EXIT_USAGE;
    }
    if (*out == NULL || *ndirs < 2) {
        fprintf(stderr, "colltune merge: %s (colltune merge --out DIR TUNE_DIR TUNE_DIR...)\n",
                *out == NULL ? "--out DIR missing" : "two TUNE_DIRs at least");
        return CT_EXIT_USAGE;
    }
    return CT_EXIT_OK;
}

static int ct_merge_run(ct_merge_t *m, const char *out_arg, int force, const char **dirs, int ndirs)
{
    int rc = CT_EXIT_OK;
    for (int i = 0; i < ndirs && rc == CT_EXIT_OK; i++)
        rc = ct_merge_read_tune(m, dirs[i]);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_join(m);
    size_t n = 0;
    const char **names = NULL;
    if (rc == CT_EXIT_OK) {
        n = ct_emit_files(&m->r, NULL, 0);
        names = malloc((n + 1) * sizeof *names);
        rc = names ? CT_EXIT_OK : CT_EXIT_FAILURE;
        n = names ? ct_emit_files(&m->r, names, n) : 0;
    }
    /* OUT is checked as it will be, made only now that the tunes merge,
     * and checked again as made; removed when merge made it and failed. */
    char real[PATH_MAX], err[PATH_MAX + 256];
    struct stat sb;
    int made_out = 0;
    if (rc == CT_EXIT_OK &&
        ct_outdir_realpath(out_arg, real, sizeof real, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune merge: --out %s: %s\n", out_arg, err);
        rc = CT_EXIT_USAGE;
    }
    if (rc == CT_EXIT_OK)
        rc = ct_merge_check_out(m, out_arg, real, force, names, n);
    if (rc == CT_EXIT_OK) {
        made_out = lstat(out_arg, &sb) != 0;
        if (ct_outdir_prepare(out_arg, err, sizeof err) != CT_OK) {
            fprintf(stderr, "colltune merge: --out %s: %s\n", out_arg, err);
            rc = CT_EXIT_USAGE;
            made_out = 0;
        }
    }
    if (rc == CT_EXIT_OK && realpath(out_arg, real) == NULL) {
        fprintf(stderr, "colltune merge: --out %s: %s\n", out_arg, strerror(errno));
        rc = CT_EXIT_USAGE;
    }
    if (rc == CT_EXIT_OK)
        rc = ct_merge_check_out(m, out_arg, real, force, names, n);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_write(m, real);
    if (rc == CT_EXIT_OK) {
        printf("colltune merge: %d tunes into %s:", m->ntunes, real);
        for (size_t k = 0; k < n; k++)
            printf(" %s", names[k]);
        printf(" report.json\n");
    }
    if (rc != CT_EXIT_OK && made_out)
        (void)rmdir(out_arg);
    free(names);
    return rc;
}

static int ct_merge_main(int argc, char **argv)
{
    const char *out = NULL, *dirs[CT_MERGE_MAX_TUNES];
    int force = 0, ndirs = 0;
    ct_merge_t *m = calloc(1, sizeof(*m));
    if (m == NULL)
        return CT_EXIT_FAILURE;
    int rc = ct_merge_parse(argc, argv, &out, &force, dirs, &ndirs);
    if (rc == CT_EXIT_OK)
        rc = ct_merge_run(m, out, force, dirs, ndirs);
    else if (rc < 0)
        rc = CT_EXIT_OK;
    ct_merge_free(m);
    free(m);
    return rc;
}

const ct_command_t ct_command_merge = {
    .name = "merge",
    .summary = "join tunes made at different shapes into one set of files",
    .run = ct_merge_main,
    .usage = ct_merge_usage,
};
