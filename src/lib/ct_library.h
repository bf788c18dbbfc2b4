/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_library.h - what colltune knows about each library it tunes, in one
 * table: its variable families (environment prefixes, and Open MPI's MCA
 * parameters), how a setting reaches it, how a value is read back as in
 * force, which emitters carry it and which launcher option reaches it.
 *
 * Every place that asks "whose setting is this?" asks here, so adding a
 * library is one entry (plus its emitters).  In src/lib (no MPI) because
 * collbench's tuning environment and fingerprint need the prefixes as
 * much as colltune's space, emitters and A/B do.
 */
#ifndef CT_LIBRARY_H
#define CT_LIBRARY_H

#include <stddef.h>

/* The environment form of Open MPI's MCA parameter x is OMPI_MCA_x.  A
 * literal, since launchers build words from it. */
#define CT_LIBRARY_MCA_ENV_PREFIX "OMPI_MCA_"

typedef enum {
    CT_LIB_OMPI,
    CT_LIB_UCX,
    CT_LIB_NCCL,
    CT_LIB_MPICH,
    CT_LIB_INTEL_MPI,
    CT_LIB_MVAPICH,
    CT_LIB_COUNT,
} ct_library_id_t;

/* How a setting of a family reaches the library (bits). */
#define CT_APPLY_ENV 1u      /* the environment at launch (--env, OMPI_MCA_x) */
#define CT_APPLY_MCA_FILE 2u /* an MCA parameter file (mca_base_param_files) */
#define CT_APPLY_MPIT 4u     /* collbench --config writes it through MPI_T at run time */
#define CT_APPLY_COMM 8u     /* collbench --config sets it around one communicator's init */

/* How a value is read back as in force. */
typedef enum {
    CT_READBACK_NONE,      /* not read back (not run here) */
    CT_READBACK_MPIT,      /* the MPI_T control variable (ct_library_cvar_name) */
    CT_READBACK_TRANSPORT, /* the JSON's transport record (ucx_info's configuration) */
    CT_READBACK_NCCL,      /* the JSON's nccl record (and the tuner plugin's log) */
} ct_readback_t;

/* A family of variables: one name form of one library. */
typedef struct {
    const char *prefix;          /* "UCX_"; "" with mca: every MCA parameter */
    int mca;                     /* 1: an Open MPI MCA parameter name, 0: an env name */
    unsigned apply;              /* CT_APPLY_* */
    ct_readback_t readback;      /* how a value is read back */
    const char *const *emitters; /* tuner/emit format names, NULL-terminated */
    const char *launch_opt;      /* the colltune option that reaches it */
} ct_library_family_t;

typedef struct {
    ct_library_id_t id;
    const char *name; /* "Open MPI" */
    int run_here;     /* 0: recognised and recorded, never run by these tests */
    /* The prefix of its collective-algorithm controls (Open MPI's
     * "coll_tuned_"), NULL where colltune has none yet. */
    const char *coll_prefix;
    const ct_library_family_t *families;
    size_t nfamilies;
    /* Settings colltune sets only while it measures (MPI_T names, NULL
     * terminated; NULL for none): never a choice, never written. */
    const char *const *measure_only;
} ct_library_t;

/* The entry of id; NULL out of range. */
const ct_library_t *ct_library_get(ct_library_id_t id);

/* The family a setting belongs to: an environment name (or "NAME=value"
 * entry) when mca is 0, an MCA parameter name when 1; NULL when no
 * library claims it.  The longest matching prefix wins. */
const ct_library_family_t *ct_library_family_of(const char *name, int mca,
                                                const ct_library_t **lib_p);

/* The library of a setting, as above; NULL when none. */
const ct_library_t *ct_library_of(const char *name, int mca);

/* Whether name (or "NAME=value") is in library id's environment families. */
int ct_library_env_is(ct_library_id_t id, const char *name);

/* Whether the family's settings go into emitter format (its file name). */
int ct_library_family_carries(const ct_library_family_t *f, const char *format);

/* The MCA parameter an environment name stands for (OMPI_MCA_x -> x),
 * NULL when it is not that form. */
const char *ct_library_mca_param_of_env(const char *name);

/* The MPI_T control variable a setting is read back as (x for the MCA
 * parameter x and for OMPI_MCA_x; MPIR_CVAR_X for MPICH's three spellings
 * of X) into buf; 0 when it has none or buf is too short. */
int ct_library_cvar_name(const char *name, int mca, char *buf, size_t buflen);

/* Whether the setting name (any spelling the library accepts) is one
 * colltune sets only while it measures: MPICH's
 * MPIR_CVAR_COLLECTIVE_FALLBACK=error makes a forced algorithm that
 * cannot run fail instead of silently measuring MPICH's own choice, but
 * in a job's file it would turn that silent fallback into an error. */
int ct_library_measure_only(const char *name);
/* Whether name is one of library id's collective-algorithm controls. */
int ct_library_is_coll_var(ct_library_id_t id, const char *name);

#endif
