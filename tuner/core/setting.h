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

typedef enum {
    CT_VIA_ENV, /* an environment variable (mpirun -x, srun --export) */
    CT_VIA_MCA, /* an Open MPI MCA parameter (--mca NAME VALUE / OMPI_MCA_NAME) */
} ct_via_t;

/* The scope of a setting: global, or a ct_coll_id_t (ct_names.h). */
#define CT_SCOPE_GLOBAL (-1)

#endif
