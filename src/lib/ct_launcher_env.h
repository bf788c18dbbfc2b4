/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_launcher_env.h - what the launchers put in a job's environment, one
 * table (ct_launcher_env.c): Open MPI's mpirun, PMIx, MPICH's Hydra and
 * Slurm, each with the variables it sets and what they are.  The
 * configuration id (ct_tuning_env.c), the fingerprint
 * (ct_fingerprint_env.c) and regress's causes (regress_diag.c) all ask
 * here; verify-install asks which library a launcher runs.
 */
#ifndef CT_LAUNCHER_ENV_H
#define CT_LAUNCHER_ENV_H

#include <stddef.h>

#include "ct_library.h"

/* What a launcher-set variable is (bits). */
#define CT_LAUNCHER_VOLATILE                                                                       \
    1u /* differs per launch, rank or host: no fingerprint keeps it,
                                   regress never names it as a cause */
#define CT_LAUNCHER_WIRING                                                                         \
    2u /* the launcher's bookkeeping in a library's own family
                                   (OMPI_MCA_orte_*): a configuration id leaves it out */

typedef struct {
    const char *pattern; /* a name, or a prefix when it ends in '*' */
    unsigned what;       /* CT_LAUNCHER_* */
} ct_launcher_var_t;

typedef struct {
    const char *name; /* "Open MPI's mpirun" */
    /* Its kind among tuner/core's launchers ("mpirun", "mpiexec.hydra"),
     * NULL for a layer no command names (PMIx). */
    const char *kind;
    /* The library whose collbench it runs; CT_LIB_COUNT: any (srun). */
    ct_library_id_t runs;
    const ct_launcher_var_t *vars;
    size_t nvars;
} ct_launcher_env_t;

/* The i-th launcher, NULL past the last.  The first is the default: the
 * one whose library a launcher of no one library (srun) or an unknown
 * one is taken to run. */
const ct_launcher_env_t *ct_launcher_env_at(size_t i);

/* Whether some launcher sets name (or "NAME=value") as a variable with
 * any of the bits of what. */
int ct_launcher_env_sets(const char *name, unsigned what);

/* The library a launcher of kind kind (tuner/core's name; NULL when it
 * cannot be told) runs: the launcher's of that kind, else the default's. */
ct_library_id_t ct_launcher_env_runs(const char *kind);
/* The kind of the launcher that runs lib's collbench, NULL when none. */
const char *ct_launcher_env_kind_of(ct_library_id_t lib);

#endif
