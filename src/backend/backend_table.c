/* SPDX-License-Identifier: BSD-3-Clause */
#include "backend.h"

#include <stdio.h>
#include <string.h>

static const ct_backend_ops_t *const ct_backend_table[] = {
    &ct_backend_mpi,
    &ct_backend_nccl,
};

const ct_backend_ops_t *ct_backend_find(const char *name)
{
    for (size_t i = 0; i < sizeof ct_backend_table / sizeof ct_backend_table[0]; i++)
        if (strcmp(name, ct_backend_table[i]->name) == 0)
            return ct_backend_table[i];
    return NULL;
}

void ct_backend_names(char *buf, size_t buflen)
{
    size_t used = 0;
    if (buflen == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof ct_backend_table / sizeof ct_backend_table[0]; i++) {
        int n =
            snprintf(buf + used, buflen - used, "%s%s", i ? ", " : "", ct_backend_table[i]->name);
        if (n < 0 || (size_t)n >= buflen - used)
            return; /* truncated, but terminated by snprintf */
        used += (size_t)n;
    }
}

int ct_backend_nnodes(const ct_backend_ops_t *ops, void *ctx, const ct_world_t *world)
{
    int n = ops->nnodes != NULL && ctx != NULL ? ops->nnodes(ctx) : 0;
    return n > 0 ? n : ct_world_nnodes(world); /* 0: the backend could not count */
}
