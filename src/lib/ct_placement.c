/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_placement.h"

#include <stdio.h>
#include <string.h>

void ct_set_clear(ct_set_t *s) { memset(s, 0, sizeof *s); }

void ct_set_add(ct_set_t *s, int i)
{
    if (i >= 0 && i < CT_SET_MAX)
        s->w[i / 64] |= (uint64_t)1 << (i % 64);
}

int ct_set_has(const ct_set_t *s, int i)
{
    return i >= 0 && i < CT_SET_MAX && (s->w[i / 64] >> (i % 64) & 1u);
}

int ct_set_count(const ct_set_t *s)
{
    int n = 0;
    for (int i = 0; i < CT_SET_WORDS; i++)
        n += __builtin_popcountll(s->w[i]);
    return n;
}

int ct_set_empty(const ct_set_t *s) { return ct_set_count(s) == 0; }

int ct_set_intersects(const ct_set_t *a, const ct_set_t *b)
{
    for (int i = 0; i < CT_SET_WORDS; i++)
        if (a->w[i] & b->w[i])
            return 1;
    return 0;
}

void ct_set_format(const ct_set_t *s, char *buf, size_t buflen)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < CT_SET_MAX; i++) {
        if (!ct_set_has(s, i))
            continue;
        int end = i;
        while (end + 1 < CT_SET_MAX && ct_set_has(s, end + 1))
            end++;
        int w = end > i ? snprintf(buf + used, buflen - used, "%s%d-%d", used ? "," : "", i, end)
                        : snprintf(buf + used, buflen - used, "%s%d", used ? "," : "", i);
        if (w < 0 || (size_t)w >= buflen - used)
            return; /* truncated: keep what fits */
        used += (size_t)w;
        i = end;
    }
}

int ct_placement_gpu_mismatch(int rank, const ct_set_t *rank_numa, int gpu,
                              const ct_set_t *gpu_numa, char *buf, size_t buflen)
{
    char mine[64], its[64];
    /* Unknown on either side (no NUMA info, a GPU hwloc did not find) is
     * not evidence of a mistake. */
    if (ct_set_empty(rank_numa) || ct_set_empty(gpu_numa) || ct_set_intersects(rank_numa, gpu_numa))
        return 0;
    ct_set_format(rank_numa, mine, sizeof mine);
    ct_set_format(gpu_numa, its, sizeof its);
    snprintf(buf, buflen, "rank %d on numa %s, its GPU %d on numa %s", rank, mine, gpu, its);
    return 1;
}

int ct_placement_overlap(int rank_a, int bound_a, const ct_set_t *pus_a, int rank_b, int bound_b,
                         const ct_set_t *pus_b, const char *host, char *buf, size_t buflen)
{
    ct_set_t both;
    char list[128];
    /* Unbound ranks (--bind-to none) share every core by design. */
    if (!bound_a || !bound_b || !ct_set_intersects(pus_a, pus_b))
        return 0;
    for (int i = 0; i < CT_SET_WORDS; i++)
        both.w[i] = pus_a->w[i] & pus_b->w[i];
    ct_set_format(&both, list, sizeof list);
    snprintf(buf, buflen, "ranks %d and %d on host %s are bound to overlapping cores (PUs %s)",
             rank_a, rank_b, host, list);
    return 1;
}
