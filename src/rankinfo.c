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
