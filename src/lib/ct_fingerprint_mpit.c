/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_fingerprint_mpit.c - the MPI_T control variables a fingerprint
 * records: those that choose collective algorithms and transports, as the
 * library resolved them (a site's parameter file or the launcher's --mca
 * shows here, where the environment does not).  One table of glob
 * patterns (fnmatch), matched against names as MPI_T lists them; names of
 * a library without such variables simply match nothing.
 */
#include "ct_fingerprint.h"

#include <fnmatch.h>

static const char *const ct_fp_mpi_t_patterns[] = {
    /* Open MPI: a framework's component selection ("pml" = "ob1", "^ucx") */
    "pml", "btl", "mtl", "coll", "osc", "bml",
    /* Open MPI: coll components' priorities, forced algorithms and their
     * segment sizes and fan-outs, rules files */
    "coll_*_priority", "coll_*_algorithm", "coll_*_algorithm_*", "coll_*_dynamic_rules*",
    /* Open MPI: transports */
    "pml_*_priority", "mtl_*_priority", "pml_ucx_tls", "pml_ucx_devices", "btl_*_if_include",
    "btl_*_if_exclude",
    /* MPICH (MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM, ...; tests/mpi/mpich_collbench.sh) */
    "MPIR_CVAR_*_ALGORITHM", "MPIR_CVAR_DEVICE_COLLECTIVES",
    "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", "MPIR_CVAR_CH4_NETMOD",
    "MPIR_CVAR_OFI_USE_PROVIDER"};

int ct_fingerprint_mpi_t_wanted(const char *name)
{
    for (size_t i = 0; i < sizeof ct_fp_mpi_t_patterns / sizeof ct_fp_mpi_t_patterns[0]; i++)
        if (fnmatch(ct_fp_mpi_t_patterns[i], name, 0) == 0)
            return 1;
    return 0;
}
