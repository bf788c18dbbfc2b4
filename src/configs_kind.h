/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * configs_kind.h - what a --config setting is, for one backend.
 *
 * configs.c runs several configurations in one launch the same way for
 * every backend: check every setting on every rank, remember each name's
 * start-up value, then for configuration k write its values, let the
 * library make a communicator that reads them, and write the start-up
 * values back.  What a setting is, and when the library reads it, differ:
 *
 *   - MPI_T control variables (configs_mpit.c, the mpi backend): Open MPI's
 *     coll/tuned reads them at MPI_Comm_dup, so configs.c writes them
 *     around a duplicate of the world, before any output is opened.
 *   - environment variables (configs_env.c, the nccl backend): NCCL reads
 *     NCCL_ALGO and NCCL_PROTO (and the tuner plugin its rules file) at
 *     ncclCommInitRank, which the backend's open() calls, so configs.c sets
 *     them around that open().
 *
 * A backend names its kind in its ops table (backend.h: .configs); NULL
 * means --config is refused for it.
 */
#ifndef CT_CONFIGS_KIND_H
#define CT_CONFIGS_KIND_H

#include <stddef.h>
#include "ct_status.h"
#include "cvars.h"
#include "options.h"

typedef struct ct_configs_kind {
    const char *what;   /* "MPI_T control variables": usage text and errors */
    const char *record; /* the JSON member of each configuration's read-back
                            values ("cvars", "environment") */
    int scoped;         /* the read-back values carry an MPI_T type and scope
                            (else: strings, null where unset) */
    int at_open;        /* 1: in force around the backend's open(); 0: around
                            a duplicate of the world, before any output */
    int at_call;        /* 1: the library reads them at every call (MPICH):
                            also in force around each of the configuration's
                            measurements (ct_configs_enter/leave) */

    /* Parse time, no library needed: whether name can be a setting of this
     * kind.  CT_ERR_USAGE with a message that names "--config 'NAME=VALUE'"
     * otherwise. */
    ct_status_t (*check)(const char *name, const char *value, char *err, size_t errlen);
    /* Optional: held from the first probe to ct_configs_free. */
    ct_status_t (*hold)(char *err, size_t errlen);
    void (*release)(void);
    /* On this process: name=value can run; the value in force before goes to
     * *startup.  CT_ERR_USAGE, naming "--config NAME=VALUE", otherwise. */
    ct_status_t (*probe)(const char *name, const char *value, ct_cvar_t *startup, char *err,
                         size_t errlen);
    /* Puts value in force (NULL: the variable is unset, for a start-up
     * value that was; ct_cvar_t.unset).  CT_ERR_BACKEND with a message. */
    ct_status_t (*write)(const char *name, const char *value, char *err, size_t errlen);
    /* The values in force of list (names, comma-separated). */
    ct_status_t (*read)(const char *list, ct_cvars_t *out, char *err, size_t errlen);
    /* Optional, rank 0 once the settings are checked: a note on stderr
     * about settings that will not do what they seem to (not with -q). */
    void (*note)(const ct_options_t *opts);
} ct_configs_kind_t;

/* MPI_T control variables, written at run time (configs_mpit.c). */
extern const ct_configs_kind_t ct_configs_mpit;
/* NCCL_* environment variables, set around ncclCommInitRank
 * (configs_env.c). */
extern const ct_configs_kind_t ct_configs_env;

#endif
