/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mpich_csel_emit.c - for tests/mpi/mpich_csel.sh: writes the files of a
 * hand-built MPICH result holding one algorithm choice over a size range,
 * with the selection tree read out of the installed libmpich.
 *
 * usage: mpich_csel_emit LIBMPICH OUTDIR NRANKS CVAR VALUE MIN_BYTES MAX_BYTES
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_names.h"
#include "emit.h"

int main(int argc, char **argv)
{
    char err[512];
    if (argc != 8) {
        fprintf(stderr, "usage: %s LIBMPICH OUTDIR NRANKS CVAR VALUE MIN_BYTES MAX_BYTES\n",
                argv[0]);
        return 2;
    }
    char *tree = NULL;
    ct_status_t st = ct_emit_mpich_tree_read(argv[1], &tree, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "mpich_csel_emit: %s\n", err);
        return 3;
    }
    /* The collective whose CVAR is named ("MPIR_CVAR_ALLGATHER_..."). */
    int scope = -1;
    const char *stems[] = {"ALLREDUCE", "ALLGATHER", "ALLTOALL", "BCAST", "REDUCE_SCATTER"};
    const int ids[] = {CT_COLL_ALLREDUCE, CT_COLL_ALLGATHER, CT_COLL_ALLTOALL, CT_COLL_BROADCAST,
                       CT_COLL_REDUCE_SCATTER};
    for (size_t i = 0; i < 5; i++)
        if (scope < 0 && strncmp(argv[4] + 10, stems[i], strlen(stems[i])) == 0)
            scope = ids[i];
    ct_tune_choice_t c = {.name = argv[4],
                          .value = argv[5],
                          .via = CT_VIA_ENV,
                          .scope = scope,
                          .min_bytes = atoll(argv[6]),
                          .max_bytes = atoll(argv[7]),
                          .default_us = 2.0,
                          .tuned_us = 1.0,
                          .significant = 1,
                          .verified = 1};
    ct_tune_result_t r = {.space_name = "mpich-csel",
                          .space_path = "mpich_csel.ini",
                          .run_id = "test",
                          .date = "2026-01-01T00:00:00Z",
                          .source = "synthetic",
                          .nranks = atol(argv[3]),
                          .nnodes = 1,
                          .choices = &c,
                          .nchoices = 1,
                          .mpich_tree = tree};
    st = ct_emit_all_as(&r, argv[2], "colltune test", err, sizeof err);
    free(tree);
    if (st != CT_OK) {
        fprintf(stderr, "mpich_csel_emit: %s\n", err);
        return 3;
    }
    return 0;
}
