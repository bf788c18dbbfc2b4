/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_tuning_env.h - the environment variables that tune a run.
 *
 * The environment families of ct_library.h's table (NCCL_*, UCX_*,
 * OMPI_MCA_*, and MPICH's MPIR_CVAR_*, MPIR_PARAM_*, MPICH_*, Intel MPI's
 * I_MPI_*, MVAPICH's MV2_* and MVP_*) are what tunes a library, so a result
 * records all of them and a configuration id hashes them.  The id
 * leaves out what launchers set per job (Open MPI's OMPI_MCA_orte_*,
 * ess, pmix and session entries carry job ids, ports and paths): two runs
 * with the same settings get the same id.
 */
#ifndef CT_TUNING_ENV_H
#define CT_TUNING_ENV_H

#include <stddef.h>
#include "ct_status.h"

typedef struct {
    char **vars; /* "NAME=value", sorted by name, owned */
    size_t n;
} ct_tuning_env_t;

/* Collects the tuning variables of envp (NULL-terminated). */
ct_status_t ct_tuning_env_collect(char *const *envp, ct_tuning_env_t *env_p);
void ct_tuning_env_free(ct_tuning_env_t *env);

/* Whether NAME=value is a tuning variable, and whether it counts toward
 * the configuration id. */
int ct_tuning_env_is_tuning(const char *entry);
int ct_tuning_env_is_launcher(const char *entry);

/* 16 hex digits (buf needs 17 bytes).  With no tuning variables this is
 * the id of the libraries' defaults, the same on every run. */
void ct_tuning_env_id(const ct_tuning_env_t *env, char *buf, size_t buflen);

#endif
