/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_emit_intel_safe.c - intel-mpi.env's "# Left out: NAME=VALUE"
 * comment never carries a control byte of the value (issue 38, M9): a
 * newline there would end the comment, and the shell that sources the file
 * would run the rest.  The space loader refuses such a value, so a result
 * is built here by hand, as the audit's emitter harness did: an allreduce
 * choice Intel MPI has a counterpart for (so the file is written) and an
 * allgather one without (left out) whose value holds "\ntouch PWN #",
 * first in the result (the left-out comments cover every choice).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_names.h"
#include "ct_test.h"
#include "emit.h"

int main(void)
{
    ct_test_tally_t t = {0, 0};
    char dir[] = "/tmp/ct-emit-intel-XXXXXX", err[512], path[600], line[4096];
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 99;
    }
    ct_tune_choice_t c[2] = {
        {.name = "MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM",
         .value = "foo\ntouch PWN\r\x7f #",
         .via = CT_VIA_ENV,
         .scope = CT_COLL_ALLGATHER,
         .min_bytes = 0,
         .max_bytes = 1023,
         .default_us = 2.0,
         .tuned_us = 1.0,
         .significant = 1,
         .verified = 1},
        {.name = "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM",
         .value = "recursive_doubling",
         .via = CT_VIA_ENV,
         .scope = CT_COLL_ALLREDUCE,
         .min_bytes = 0,
         .max_bytes = 1023,
         .default_us = 2.0,
         .tuned_us = 1.0,
         .significant = 1,
         .verified = 1},
    };
    ct_tune_result_t r = {.space_name = "mpich-coll",
                          .space_path = "synthetic.ini",
                          .run_id = "run-1",
                          .date = "2026-01-01T00:00:00Z",
                          .source = "synthetic",
                          .nranks = 2,
                          .nnodes = 1,
                          .choices = c,
                          .nchoices = 2};
    ct_status_t st = ct_emit_all_as(&r, dir, "colltune TEST", err, sizeof err);
    CT_CHECK(&t, st == CT_OK);
    if (st != CT_OK)
        fprintf(stderr, "ct_emit_all_as: %s\n", err);
    snprintf(path, sizeof path, "%s/intel-mpi.env", dir);
    FILE *f = fopen(path, "r");
    CT_CHECK(&t, f != NULL);
    int left_out = 0, bad = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        /* Every line a comment, blank, or an export the emitter wrote. */
        if (line[0] != '#' && line[0] != '\n' && strncmp(line, "export I_MPI_ADJUST_", 20) != 0) {
            fprintf(stderr, "a line of intel-mpi.env that sets something else: %s", line);
            bad = 1;
        }
        if (strstr(line, "# Left out: MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM=foo?touch PWN?? #") ==
            line)
            left_out = 1;
    }
    if (f != NULL)
        fclose(f);
    CT_CHECK(&t, !bad);
    CT_CHECK(&t, left_out);
    /* The files the emitters wrote, then the directory. */
    static const char *const names[] = {"intel-mpi.env", "mpich.env", "mpich-coll-selection.json"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        (void)unlink(path);
    }
    if (rmdir(dir) != 0)
        fprintf(stderr, "note: %s left behind (another file in it)\n", dir);
    return CT_DONE(&t);
}
