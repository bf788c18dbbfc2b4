/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_library.c - the per-library table (see ct_library.h and
 * doc/ARCHITECTURE.md, "To add a library").
 */
#include "ct_library.h"

#include <stdio.h>
#include <string.h>

#define CT_N(a) (sizeof(a) / sizeof((a)[0]))

/* Open MPI: a parameter x given as --mca x v (or in mca-params.conf), or
 * as OMPI_MCA_x in the environment; collbench writes the coll/tuned ones
 * through MPI_T, and --cvars reads any back under the name x. */
static const ct_library_family_t ct_fam_ompi[] = {
    {"", 1, CT_APPLY_MCA_FILE | CT_APPLY_ENV | CT_APPLY_MPIT, CT_READBACK_MPIT, 1, "--mca"},
    {CT_LIBRARY_MCA_ENV_PREFIX, 0, CT_APPLY_ENV, CT_READBACK_MPIT, 0, "--env"},
};
/* UCX reads its variables once, at its init: a launch per value. */
static const ct_library_family_t ct_fam_ucx[] = {
    {"UCX_", 0, CT_APPLY_ENV, CT_READBACK_TRANSPORT, 1, "--env"},
};
/* NCCL reads NCCL_ALGO/NCCL_PROTO (and the plugin's file) per
 * communicator: collbench --config sets them around one init. */
static const ct_library_family_t ct_fam_nccl[] = {
    {"NCCL_", 0, CT_APPLY_ENV | CT_APPLY_COMM, CT_READBACK_NCCL, 1, "--env"},
};
/* MPICH 4 accepts a CVAR X as MPIR_CVAR_X, MPIR_PARAM_X or MPICH_X
 * (highest priority first); MPI_T names it MPIR_CVAR_X, so only that
 * spelling goes to collbench --config.  MPICH reads its
 * MPIR_CVAR_<COLL>_INTRA_ALGORITHM at every call (doc/collbench.md has the
 * measurement): those are written through MPI_T, many to a launch
 * (space_known.c says which names; the others are read at MPI_Init).
 * mpich.env and intel-mpi.env carry them. */
static const ct_library_family_t ct_fam_mpich[] = {
    {"MPIR_CVAR_", 0, CT_APPLY_ENV | CT_APPLY_MPIT, CT_READBACK_MPIT, 1, "--env"},
    {"MPIR_PARAM_", 0, CT_APPLY_ENV, CT_READBACK_MPIT, 1, "--env"},
    {"MPICH_", 0, CT_APPLY_ENV, CT_READBACK_MPIT, 1, "--env"},
};
/* Intel MPI (MPICH ABI): I_MPI_ADJUST_<OP> and the rest.  Not run here. */
static const ct_library_family_t ct_fam_intel[] = {
    {"I_MPI_", 0, CT_APPLY_ENV, CT_READBACK_NONE, 0, "--env"},
};
/* MVAPICH2 (MV2_*) and MVAPICH 3 (MVP_*).  Not run here.  MVAPICH 3 is
 * MPICH-based: a collective CVAR is MPIR_CVAR_X, with aliases MVP_X and
 * MPICH_X (its CVAR list, https://mvapich-docs.readthedocs.io/en/
 * mvapich-open/cvar.html), and MPI_T names it MPIR_CVAR_X.  So a space
 * names MPICH's spelling (MPICH's family, which collbench writes through
 * MPI_T), and whose setting it is comes from the library that ran
 * (ran_as): mvapich.env writes it as MVP_X.  MVP_ itself is recorded (the
 * fingerprint, config_id), never a choice. */
static const ct_library_family_t ct_fam_mvapich[] = {
    {"MV2_", 0, CT_APPLY_ENV, CT_READBACK_NONE, 0, "--env"},
    {"MVP_", 0, CT_APPLY_ENV, CT_READBACK_NONE, 0, "--env"},
};
/* Intel oneCCL: CCL_<COLL> selects an algorithm per size range (oneCCL
 * developer guide, "Collective algorithms selection"); read at its init.
 * Not run here (collbench has no oneCCL backend); oneccl.env carries it. */
static const ct_library_family_t ct_fam_oneccl[] = {
    {"CCL_", 0, CT_APPLY_ENV, CT_READBACK_NONE, 1, "--env"},
};

/* A forced algorithm's guard while measuring (ct_library_measure_only). */
static const char *const ct_measure_only_mpich[] = {"MPIR_CVAR_COLLECTIVE_FALLBACK", NULL};

/* ran_as: MPI_Get_library_version's first words, as mpi4py's
 * PyMPI_Get_vendor reads them ("MVAPICH Version:" is MVAPICH 3's;
 * MVAPICH2's "MVAPICH2 Version:" has no MVP_ aliases). */
static const ct_library_t ct_libraries[CT_LIB_COUNT] = {
    {CT_LIB_OMPI, "Open MPI", 1, "coll_tuned_", ct_fam_ompi, CT_N(ct_fam_ompi), NULL, "Open MPI v"},
    {CT_LIB_UCX, "UCX", 1, NULL, ct_fam_ucx, CT_N(ct_fam_ucx), NULL, NULL},
    {CT_LIB_NCCL, "NCCL", 1, NULL, ct_fam_nccl, CT_N(ct_fam_nccl), NULL, NULL},
    {CT_LIB_MPICH, "MPICH", 0, NULL, ct_fam_mpich, CT_N(ct_fam_mpich), ct_measure_only_mpich,
     "MPICH Version:"},
    {CT_LIB_INTEL_MPI, "Intel MPI", 0, NULL, ct_fam_intel, CT_N(ct_fam_intel), NULL,
     "Intel(R) MPI Library"},
    {CT_LIB_MVAPICH, "MVAPICH", 0, NULL, ct_fam_mvapich, CT_N(ct_fam_mvapich), NULL,
     "MVAPICH Version:"},
    {CT_LIB_ONECCL, "oneCCL", 0, NULL, ct_fam_oneccl, CT_N(ct_fam_oneccl), NULL, NULL},
};

const ct_library_t *ct_library_get(ct_library_id_t id)
{
    return (unsigned)id < CT_LIB_COUNT ? &ct_libraries[id] : NULL;
}

const ct_library_family_t *ct_library_family_of(const char *name, int mca,
                                                const ct_library_t **lib_p)
{
    const ct_library_family_t *best = NULL;
    const ct_library_t *best_lib = NULL;
    size_t best_len = 0;
    if (name == NULL || name[0] == '\0')
        return NULL;
    for (size_t i = 0; i < CT_LIB_COUNT; i++)
        for (size_t k = 0; k < ct_libraries[i].nfamilies; k++) {
            const ct_library_family_t *f = &ct_libraries[i].families[k];
            size_t n = strlen(f->prefix);
            if (f->mca != (mca != 0) || strncmp(name, f->prefix, n) != 0)
                continue;
            if (best == NULL || n > best_len) {
                best = f;
                best_lib = &ct_libraries[i];
                best_len = n;
            }
        }
    if (lib_p != NULL)
        *lib_p = best_lib;
    return best;
}

const ct_library_t *ct_library_ran(const char *version)
{
    for (size_t i = 0; version != NULL && i < CT_LIB_COUNT; i++) {
        const char *w = ct_libraries[i].ran_as;
        if (w != NULL && strncmp(version, w, strlen(w)) == 0)
            return &ct_libraries[i];
    }
    return NULL;
}

const ct_library_t *ct_library_of(const char *name, int mca)
{
    const ct_library_t *lib = NULL;
    ct_library_family_of(name, mca, &lib);
    return lib;
}

int ct_library_env_is(ct_library_id_t id, const char *name)
{
    const ct_library_t *lib = ct_library_of(name, 0);
    return lib != NULL && lib->id == id;
}

int ct_library_family_carries(const ct_library_family_t *f, const char *file)
{
    const ct_library_file_t *row = ct_library_file_named(file);
    if (f == NULL || !f->emitted || row == NULL)
        return 0;
    const ct_library_t *lib = ct_library_get(row->carries);
    return lib != NULL && f >= lib->families && f < lib->families + lib->nfamilies;
}

const char *ct_library_mca_param_of_env(const char *name)
{
    size_t n = strlen(CT_LIBRARY_MCA_ENV_PREFIX);
    if (strncmp(name, CT_LIBRARY_MCA_ENV_PREFIX, n) != 0 || name[n] == '\0')
        return NULL;
    return name + n;
}

int ct_library_is_coll_var(ct_library_id_t id, const char *name)
{
    const ct_library_t *lib = ct_library_get(id);
    return lib != NULL && lib->coll_prefix != NULL &&
           strncmp(name, lib->coll_prefix, strlen(lib->coll_prefix)) == 0;
}

int ct_library_cvar_name(const char *name, int mca, char *buf, size_t buflen)
{
    const ct_library_t *lib = NULL;
    const ct_library_family_t *f = ct_library_family_of(name, mca, &lib);
    if (f == NULL || f->readback != CT_READBACK_MPIT)
        return 0;
    const char *x = name + strlen(f->prefix);
    int n = lib->id == CT_LIB_MPICH ? snprintf(buf, buflen, "MPIR_CVAR_%s", x)
                                    : snprintf(buf, buflen, "%s", x);
    return x[0] != '\0' && n > 0 && (size_t)n < buflen;
}

int ct_library_measure_only(const char *name)
{
    const ct_library_t *lib = ct_library_of(name, 0);
    char cvar[256];
    if (lib == NULL || lib->measure_only == NULL ||
        !ct_library_cvar_name(name, 0, cvar, sizeof cvar))
        return 0;
    for (const char *const *m = lib->measure_only; *m; m++)
        if (strcmp(*m, cvar) == 0)
            return 1;
    return 0;
}

int ct_library_file_env(const ct_library_file_t *row, char *buf, size_t buflen)
{
    if (row == NULL || row->load.kind != CT_FILE_LOAD_VAR || row->load.var == NULL)
        return 0;
    int n = snprintf(buf, buflen, "%s%s", row->load.mca ? CT_LIBRARY_MCA_ENV_PREFIX : "",
                     row->load.var);
    return n > 0 && (size_t)n < buflen;
}

int ct_library_syntax_sh(ct_file_syntax_t s)
{
    return s == CT_FILE_SYNTAX_SH || s == CT_FILE_SYNTAX_SH_QUOTED;
}
