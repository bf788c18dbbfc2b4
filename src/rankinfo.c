/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "rankinfo.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ct_rankinfo_cpus(char *buf, size_t buflen)
{
    cpu_set_t set;
    size_t used = 0;

    buf[0] = '\0';
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        snprintf(buf, buflen, "unknown");
        return;
    }
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int end = c;
        while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, &set))
            end++;
        int w = end > c ? snprintf(buf + used, buflen - used, "%s%d-%d", used ? "," : "", c, end)
                        : snprintf(buf + used, buflen - used, "%s%d", used ? "," : "", c);
        if (w < 0 || (size_t)w >= buflen - used)
            return; /* truncated: keep what fits */
        used += (size_t)w;
        c = end;
    }
}

ct_status_t ct_rankinfo_gather(ct_world_t *world, ct_rankinfo_t **all_p)
{
    ct_rankinfo_t mine;
    ct_rankinfo_t *all = NULL;

    memset(&mine, 0, sizeof mine);
    snprintf(mine.hostname, sizeof mine.hostname, "%s", ct_world_hostname(world));
    ct_rankinfo_cpus(mine.cpus, sizeof mine.cpus);
    mine.pid = (int)getpid();
    mine.local_rank = ct_world_local_rank(world);
    mine.has_topology = ct_topology_rank(&mine.topo) == CT_OK;
    mine.gpu = -1;
    if (ct_world_rank(world) == 0) {
        all = calloc((size_t)ct_world_size(world), sizeof *all);
        if (all == NULL) {
            /* The other ranks are already in the gather: end them too. */
            fprintf(stderr, "collbench: out of memory gathering rank information\n");
            ct_world_abort(world, CT_EXIT_FAILURE);
        }
    }
    ct_world_gather(world, &mine, sizeof mine, all, 0);
    *all_p = all;
    return CT_OK;
}

typedef struct {
    int gpu;
    char bus_id[32];
    ct_set_t numa;
} ct_rankinfo_gpu_t;

void ct_rankinfo_gather_gpu(ct_world_t *world, const ct_backend_ops_t *ops, void *ctx,
                            ct_rankinfo_t *all)
{
    ct_rankinfo_gpu_t mine, *each = NULL;
    int n = ct_world_size(world);

    if (ops->device_pci == NULL)
        return; /* the same on every rank: no one gathers */
    memset(&mine, 0, sizeof mine);
    mine.gpu = -1;
    if (ops->device_pci(ctx, &mine.gpu, mine.bus_id, sizeof mine.bus_id) != CT_OK)
        mine.gpu = -1;
    else
        (void)ct_topology_pci_numa(mine.bus_id, &mine.numa);
    if (all && (each = calloc((size_t)n, sizeof *each)) == NULL) {
        fprintf(stderr, "collbench: out of memory gathering device placement\n");
        ct_world_abort(world, CT_EXIT_FAILURE);
    }
    ct_world_gather(world, &mine, sizeof mine, each, 0);
    for (int r = 0; all && r < n; r++) {
        all[r].gpu = each[r].gpu;
        snprintf(all[r].gpu_bus_id, sizeof all[r].gpu_bus_id, "%s", each[r].bus_id);
        all[r].gpu_numa = each[r].numa;
    }
    free(each);
}

void ct_rankinfo_warnings(const ct_rankinfo_t *all, int n, void (*emit)(const char *, void *),
                          void *arg)
{
    char line[256];
    for (int r = 0; r < n; r++)
        if (all[r].gpu >= 0 && all[r].has_topology &&
            ct_placement_gpu_mismatch(r, &all[r].topo.numa, all[r].gpu, &all[r].gpu_numa, line,
                                      sizeof line))
            emit(line, arg);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (all[a].has_topology && all[b].has_topology &&
                strcmp(all[a].hostname, all[b].hostname) == 0 &&
                ct_placement_overlap(a, all[a].topo.bound, &all[a].topo.pus, b, all[b].topo.bound,
                                     &all[b].topo.pus, all[a].hostname, line, sizeof line))
                emit(line, arg);
}
