/* SPDX-License-Identifier: BSD-3-Clause */
/* configs_kind.h for the mpi backend: MPI_T control variables, written at
 * run time through cvars.h.  configs.c writes them around a duplicate of
 * the world: Open MPI's coll/tuned reads its forced algorithm, segment size
 * and fan-outs when a communicator is created.  MPICH 4 reads its
 * MPIR_CVAR_<COLL>_INTRA_ALGORITHM at every call instead (a global int,
 * never cached per communicator; doc/collbench.md shows a write taking
 * effect at the next call), so on MPICH configs.c also puts a
 * configuration's values in force around its measurements (at_call). */
#include "configs_kind.h"
#include "ct_library.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* Which library collbench was built against decides the names' case: mpi.h
 * says, not a guess from the name.  MPICH_VERSION is MPICH's (and its
 * derivatives'); Open MPI's mpi.h has OMPI_MAJOR_VERSION. */
#if defined(MPICH_VERSION) && !defined(OMPI_MAJOR_VERSION)
#define CT_MPIT_NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
#define CT_MPIT_NAME_CLASS "[A-Z0-9_] (MPICH's MPIR_CVAR_*)"
#define CT_MPIT_AT_CALL 1
#else
#define CT_MPIT_NAME_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_"
#define CT_MPIT_NAME_CLASS "[a-z0-9_] (Open MPI's)"
#define CT_MPIT_AT_CALL 0
#endif

/* Open MPI's variable names are lower case, MPICH's upper case: a name in
 * the other case is a mistake (or an environment variable meant for
 * another backend or library). */
static ct_status_t ct_configs_mpit_check(const char *name, const char *value, char *err,
                                         size_t errlen)
{
    if (name[0] != '\0' && strspn(name, CT_MPIT_NAME_CHARS) == strlen(name))
        return CT_OK;
    snprintf(err, errlen, "--config '%s=%s': this MPI library's control variable names are %s",
             name, value, CT_MPIT_NAME_CLASS);
    return CT_ERR_USAGE;
}

static ct_status_t ct_configs_mpit_write(const char *name, const char *value, char *err,
                                         size_t errlen)
{
    /* MPI_T has no unset variable: every start-up value is a value. */
    if (value == NULL) {
        snprintf(err, errlen, "--config %s: MPI_T has no unset value to write", name);
        return CT_ERR_BACKEND;
    }
    return ct_cvars_write(name, value, err, errlen);
}

/* coll/tuned ignores a forced algorithm unless dynamic rules are on. */
static void ct_configs_mpit_note(const ct_options_t *opts)
{
    const char *algo = NULL;
    for (int k = 0; k < opts->nconfigs && !algo; k++)
        for (int i = 0; i < opts->configs[k].n && !algo; i++) {
            const char *n = opts->configs[k].s[i].name;
            size_t len = strlen(n);
            if (ct_library_is_coll_var(CT_LIB_OMPI, n) && len > 10 &&
                strcmp(n + len - 10, "_algorithm") == 0)
                algo = n;
        }
    ct_cvars_t dyn;
    char err[256];
    if (algo == NULL || opts->quiet ||
        ct_cvars_read("coll_tuned_use_dynamic_rules", &dyn, err, sizeof err) != CT_OK ||
        strcmp(dyn.v[0].value, "false") != 0)
        return;
    fprintf(stderr,
            "collbench: note: --config sets %s, but coll_tuned_use_dynamic_rules is false: "
            "coll/tuned ignores a forced algorithm without it (mpirun --mca "
            "coll_tuned_use_dynamic_rules 1)\n",
            algo);
}

const ct_configs_kind_t ct_configs_mpit = {
    .what = "MPI_T control variables",
    .record = "cvars",
    .scoped = 1,
    .at_open = 0,
    .at_call = CT_MPIT_AT_CALL,
    .check = ct_configs_mpit_check,
    .hold = ct_cvars_hold,
    .release = ct_cvars_release,
    .probe = ct_cvars_probe,
    .write = ct_configs_mpit_write,
    .read = ct_cvars_read,
    .note = ct_configs_mpit_note,
};
