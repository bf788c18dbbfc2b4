/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * transport.h - the point-to-point layer a run really used, read from the
 * process itself, not from what the environment asked for.
 *
 * - The Open MPI pml: the one mca_pml_<name> component still mapped after
 *   MPI_Init.  Open MPI opens every pml component, selects one and closes
 *   the others, so the mapped one is the one that runs (Debian builds the
 *   components as shared objects).  The MPI_T variable "pml" says only
 *   what was requested.
 * - When libucp is loaded: UCX's version and its context configuration as
 *   UCX itself resolves it (environment over ucx.conf files, through
 *   ucp_config_read), so a results file shows a site's ucx.conf taking
 *   effect.  dlopen(RTLD_NOLOAD): the UCX that MPI loaded, never one of
 *   our own.
 *
 * Local to the calling process; collbench calls it on rank 0 after
 * MPI_Init.
 */
#ifndef CT_TRANSPORT_H
#define CT_TRANSPORT_H

#include <stddef.h>

#define CT_TRANSPORT_UCX_MAX 128

typedef struct {
    char pml[32];            /* "ob1", "ucx" (a list if several stay mapped); "" none */
    char btl[160];           /* mapped btl components, "self,tcp,vader" ("" none) */
    const char *ucx_version; /* NULL: libucp not loaded */
    size_t nucx;             /* UCX context variables, UCX_NAME=value */
    char ucx[CT_TRANSPORT_UCX_MAX][160];
} ct_transport_t;

/* Fills t from the calling process (/proc/self/maps, libucp if loaded).
 * maps_path: the maps file (NULL: /proc/self/maps; tests give their own). */
void ct_transport_read(ct_transport_t *t, const char *maps_path);

#endif
