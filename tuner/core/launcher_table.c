/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launcher_table.c - every launcher colltune knows, one entry each (its
 * ops live in launcher_NAME.c).  The order is the order of detection and
 * of sweep --help; the prefix, which claims every other word, stays last.
 */
#include "launcher.h"

extern const ct_launcher_ops_t ct_launcher_mpirun, ct_launcher_srun, ct_launcher_hydra,
    ct_launcher_prefix;

const ct_launcher_ops_t *const ct_launchers[] = {
    &ct_launcher_mpirun, &ct_launcher_srun, &ct_launcher_hydra, &ct_launcher_prefix, NULL,
};
