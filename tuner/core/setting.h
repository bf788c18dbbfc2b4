/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * setting.h - the two words every part of colltune uses for a setting:
 * how a launcher hands it to the ranks (an environment variable or an
 * Open MPI MCA parameter), and its scope (all collectives or one).
 *
 * Its own header because the space parser, the launchers and the
 * emitters' result type all speak of them, and none of them should pull
 * in another just for these words.
 */
#ifndef CT_SETTING_H
#define CT_SETTING_H

#include "ct_library.h"

typedef enum {
    CT_VIA_ENV, /* an environment variable (mpirun -x, srun --export) */
    CT_VIA_MCA, /* an Open MPI MCA parameter (--mca NAME VALUE / OMPI_MCA_NAME) */
} ct_via_t;

/* The library family a setting belongs to (ct_library.h), and its
 * library (lib_p, may be NULL); NULL when no library claims it. */
static inline const ct_library_family_t *ct_setting_family(const char *name, ct_via_t via,
                                                           const ct_library_t **lib_p)
{
    return ct_library_family_of(name, via == CT_VIA_MCA, lib_p);
}

/* Whether a setting is one of library id's. */
static inline int ct_setting_is(const char *name, ct_via_t via, ct_library_id_t id)
{
    const ct_library_t *lib = NULL;
    return ct_setting_family(name, via, &lib) != NULL && lib->id == id;
}

/* The scope of a setting: global, or a ct_coll_id_t (ct_names.h). */
#define CT_SCOPE_GLOBAL (-1)

#endif
