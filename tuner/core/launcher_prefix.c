/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launcher_prefix.c - any other command line, run as given in front of
 * collbench (numactl, env, a site's wrapper): the variables and
 * OMPI_MCA_* are set directly in the child's environment.  It cannot be
 * told a scale, so --np and --hostfile are refused.  The fallback: the
 * table's last entry.
 */
#include <stdio.h>

#include "launcher_words.h"

static ct_status_t ct_prefix_refuse(const ct_launcher_t *l, const ct_launch_vars_t *vars, char *err,
                                    size_t errlen)
{
    (void)vars;
    if (l->np <= 0 && l->hostfile == NULL)
        return CT_OK;
    /* The words of this message are what users (and colltune_cli.sh)
     * know; the launchers that can be told a scale are in sweep --help. */
    snprintf(err, errlen,
             "%s: '%s' is neither mpirun nor srun, so give the scale in --launcher itself",
             l->np > 0 ? "--np" : "--hostfile", l->words.v[0]);
    return CT_ERR_USAGE;
}

const ct_launcher_ops_t ct_launcher_prefix = {
    .name = "prefix",
    .words = NULL,
    .help = "  other    a prefix run as given; variables and OMPI_MCA_* in its environment\n",
    .refuse = ct_prefix_refuse,
    .env_too = 1,
    .no_scale = "a prefix launcher cannot be told the scale",
};
