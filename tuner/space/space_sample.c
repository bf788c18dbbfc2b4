/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * space_sample.c - random configurations of a scope too large to list:
 * indices drawn without replacement and decoded one at a time
 * (ct_space_index_config), so memory follows the sample, not the space.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"
#include "ct_vec.h"

#define CT_SAMPLE_TRIES 16         /* draws per wanted configuration, at most */
#define CT_SAMPLE_EMPTY UINT64_MAX /* indices are below n <= UINT64_MAX */

/* splitmix64: a seeded stream with no global state. */
static uint64_t ct_sample_next(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, bound), bound > 0: draws in the top partial cycle of
 * 2^64 are redrawn, or small indices would be favoured. */
static uint64_t ct_sample_below(uint64_t *x, uint64_t bound)
{
    uint64_t rem = (UINT64_MAX % bound + 1) % bound; /* 2^64 mod bound */
    uint64_t r;
    do
        r = ct_sample_next(x);
    while (rem && r >= (uint64_t)0 - rem);
    return r % bound;
}

/* A set of indices: open addressing, linear probing, doubled when half
 * full, so it follows what was drawn. */
typedef struct {
    uint64_t *slot;
    size_t mask, n;
} ct_sample_set_t;

static ct_status_t ct_sample_set_init(ct_sample_set_t *set, size_t cap)
{
    set->slot = malloc(cap * sizeof *set->slot);
    if (set->slot == NULL)
        return CT_ERR_NOMEM;
    set->mask = cap - 1;
    set->n = 0;
    for (size_t i = 0; i < cap; i++)
        set->slot[i] = CT_SAMPLE_EMPTY;
    return CT_OK;
}

static size_t ct_sample_set_slot(const ct_sample_set_t *set, uint64_t v)
{
    size_t i = (size_t)((v * 0x9E3779B97F4A7C15ULL) >> 32) & set->mask;
    while (set->slot[i] != CT_SAMPLE_EMPTY && set->slot[i] != v)
        i = (i + 1) & set->mask;
    return i;
}

/* 1: v was in the set; 0: it was not and is now; <0: out of memory. */
static int ct_sample_set_add(ct_sample_set_t *set, uint64_t v)
{
    size_t i = ct_sample_set_slot(set, v);
    if (set->slot[i] == v)
        return 1;
    if (2 * (set->n + 1) > set->mask + 1) {
        ct_sample_set_t grown;
        if (ct_sample_set_init(&grown, 2 * (set->mask + 1)) != CT_OK)
            return -1;
        for (size_t j = 0; j <= set->mask; j++)
            if (set->slot[j] != CT_SAMPLE_EMPTY)
                grown.slot[ct_sample_set_slot(&grown, set->slot[j])] = set->slot[j];
        grown.n = set->n;
        free(set->slot);
        *set = grown;
        i = ct_sample_set_slot(set, v);
    }
    set->slot[i] = v;
    set->n++;
    return 0;
}

/* A seeded stream of distinct indices in [0, n): uniform draws, a repeat
 * drawn again.  It does not depend on how many are wanted, so a larger
 * sample extends a smaller one (a tune resumed with more --budget keeps
 * the configurations it ran). */
typedef struct {
    uint64_t x, n, seen;
    ct_sample_set_t set;
} ct_sample_stream_t;

static ct_status_t ct_sample_stream_init(ct_sample_stream_t *s, uint64_t seed, uint64_t n)
{
    s->x = seed;
    s->n = n;
    s->seen = 0;
    return ct_sample_set_init(&s->set, 16);
}

/* The next index: 1; 0 when all n were drawn; <0 out of memory. */
static int ct_sample_stream_next(ct_sample_stream_t *s, uint64_t *index_p)
{
    if (s->seen == s->n)
        return 0;
    int rc;
    do
        rc = ct_sample_set_add(&s->set, *index_p = ct_sample_below(&s->x, s->n));
    while (rc == 1);
    if (rc < 0)
        return -1;
    s->seen++;
    return 1;
}

ct_status_t ct_space_sample_indices(uint64_t seed, uint64_t n, size_t k, uint64_t *out)
{
    if (k > n)
        return CT_ERR_USAGE;
    ct_sample_stream_t s;
    if (ct_sample_stream_init(&s, seed, n) != CT_OK)
        return CT_ERR_NOMEM;
    ct_status_t st = CT_OK;
    for (size_t i = 0; i < k && st == CT_OK; i++)
        if (ct_sample_stream_next(&s, &out[i]) < 0)
            st = CT_ERR_NOMEM;
    free(s.set.slot);
    return st;
}

typedef struct {
    uint64_t index;
    ct_space_config_t config;
} ct_sample_pick_t;

static int ct_sample_pick_cmp(const void *a, const void *b)
{
    uint64_t x = ((const ct_sample_pick_t *)a)->index, y = ((const ct_sample_pick_t *)b)->index;
    return (x > y) - (x < y);
}

/* The first k listed configurations of ix along the stream (*got_p of
 * them; fewer when the stream runs out, or when after CT_SAMPLE_TRIES
 * draws per wanted one unlisted indices are all it finds). */
static ct_status_t ct_sample_draw(ct_space_index_t *ix, uint64_t seed, size_t k,
                                  ct_sample_pick_t *picks, size_t *got_p)
{
    uint64_t tries = (uint64_t)k * CT_SAMPLE_TRIES + 4096;
    ct_sample_stream_t s;
    ct_status_t st = ct_sample_stream_init(&s, seed, ct_space_index_size(ix));
    size_t got = 0;
    uint64_t index;
    while (st == CT_OK && got < k && s.seen < tries) {
        int more = ct_sample_stream_next(&s, &index);
        if (more <= 0) {
            st = more < 0 ? CT_ERR_NOMEM : CT_OK;
            break;
        }
        int listed;
        st = ct_space_index_config(ix, index, &picks[got].config, &listed);
        if (st == CT_OK && listed)
            picks[got++].index = index;
    }
    free(s.set.slot);
    *got_p = got;
    return st;
}

ct_status_t ct_space_sample(const ct_space_t *space, int scope, long nranks, uint64_t seed,
                            size_t k, ct_space_configs_t *out_p, char *err, size_t errlen)
{
    memset(out_p, 0, sizeof *out_p);
    if (k > CT_SPACE_MAX_CONFIGS)
        k = CT_SPACE_MAX_CONFIGS;
    ct_space_index_t *ix;
    ct_status_t st = ct_space_index_open(space, scope, nranks, &ix, err, errlen);
    if (st != CT_OK)
        return st;
    ct_sample_pick_t *picks = calloc(k ? k : 1, sizeof *picks);
    size_t got = 0;
    st = picks ? ct_space_index_head(ix, out_p) : CT_ERR_NOMEM;
    if (st == CT_OK)
        st = ct_sample_draw(ix, seed, k, picks, &got);
    ct_space_config_t *grown = NULL;
    if (st == CT_OK &&
        (grown = realloc(out_p->configs, (out_p->n + got + 1) * sizeof *grown)) == NULL)
        st = CT_ERR_NOMEM;
    if (st == CT_OK) {
        /* In index order: the order ct_space_each would have given. */
        ct_vec_sort(picks, got, sizeof *picks, ct_sample_pick_cmp);
        out_p->configs = grown;
        for (size_t i = 0; i < got; i++)
            out_p->configs[out_p->n++] = picks[i].config;
    } else {
        for (size_t i = 0; i < got; i++)
            ct_space_config_free(&picks[i].config);
        ct_space_configs_free(out_p);
        if (st == CT_ERR_NOMEM)
            snprintf(err, errlen, "%s: out of memory sampling %s", space->path,
                     ct_space_scope_name(scope));
    }
    free(picks);
    ct_space_index_close(ix);
    return st;
}
