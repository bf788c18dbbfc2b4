/*
 * space_sample.c - random configurations of a scope too large to list:
 * indices drawn without replacement and decoded one at a time
 * (ct_space_index_config), so memory follows the sample, not the space.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space.h"

#define CT_SAMPLE_ROUNDS 64
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

/* A set of indices: open addressing, linear probing. */
typedef struct {
    uint64_t *slot;
    size_t mask;
} ct_sample_set_t;

static ct_status_t ct_sample_set_init(ct_sample_set_t *set, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 2)
        cap *= 2;
    set->mask = cap - 1;
    set->slot = malloc(cap * sizeof *set->slot);
    if (set->slot == NULL)
        return CT_ERR_NOMEM;
    for (size_t i = 0; i < cap; i++)
        set->slot[i] = CT_SAMPLE_EMPTY;
    return CT_OK;
}

/* Whether v is in the set; add: put it there when it is not. */
static int ct_sample_set_has(ct_sample_set_t *set, uint64_t v, int add)
{
    size_t i = (size_t)((v * 0x9E3779B97F4A7C15ULL) >> 32) & set->mask;
    while (set->slot[i] != CT_SAMPLE_EMPTY) {
        if (set->slot[i] == v)
            return 1;
        i = (i + 1) & set->mask;
    }
    if (add)
        set->slot[i] = v;
    return 0;
}

static int ct_sample_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

ct_status_t ct_space_sample_indices(uint64_t seed, uint64_t n, size_t k, uint64_t *out)
{
    if (k > n)
        return CT_ERR_USAGE;
    ct_sample_set_t set;
    if (ct_sample_set_init(&set, k) != CT_OK)
        return CT_ERR_NOMEM;
    uint64_t x = seed;
    /* Floyd: for j = n-k .. n-1, a uniform t in [0, j]; t, or j when t
     * is taken already (j never is).  Every k-subset is equally likely. */
    for (size_t i = 0; i < k; i++) {
        uint64_t j = n - k + i;
        uint64_t t = ct_sample_below(&x, j + 1);
        out[i] = ct_sample_set_has(&set, t, 1) ? j : t;
        if (out[i] == j)
            ct_sample_set_has(&set, j, 1);
    }
    free(set.slot);
    qsort(out, k, sizeof *out, ct_sample_cmp);
    return CT_OK;
}

typedef struct {
    uint64_t index;
    ct_space_config_t config;
} ct_sample_pick_t;

static int ct_sample_pick_cmp(const void *a, const void *b)
{
    return ct_sample_cmp(&((const ct_sample_pick_t *)a)->index,
                         &((const ct_sample_pick_t *)b)->index);
}

/* Up to k listed configurations of ix in picks (*got_p of them): rounds
 * of distinct draws, walked in a shuffled order so that taking the first
 * listed ones is still uniform; an unlisted index costs one decode. */
static ct_status_t ct_sample_draw(ct_space_index_t *ix, uint64_t seed, size_t k,
                                  ct_sample_pick_t *picks, size_t *got_p)
{
    uint64_t n = ct_space_index_size(ix), x = seed;
    ct_sample_set_t seen;
    ct_status_t st = ct_sample_set_init(&seen, k);
    size_t got = 0;
    for (int round = 0; st == CT_OK && got < k && round < CT_SAMPLE_ROUNDS; round++) {
        uint64_t d = 4 * (uint64_t)(k - got) + 64;
        if (d > n)
            d = n;
        uint64_t *draws = malloc((size_t)d * sizeof *draws);
        if (draws == NULL || ct_space_sample_indices(ct_sample_next(&x), n, (size_t)d, draws)) {
            free(draws);
            st = CT_ERR_NOMEM;
            break;
        }
        for (size_t i = (size_t)d; i > 1; i--) {
            size_t j = (size_t)ct_sample_below(&x, i);
            uint64_t t = draws[i - 1];
            draws[i - 1] = draws[j];
            draws[j] = t;
        }
        for (size_t i = 0; st == CT_OK && i < (size_t)d && got < k; i++) {
            if (ct_sample_set_has(&seen, draws[i], 0))
                continue;
            int listed;
            st = ct_space_index_config(ix, draws[i], &picks[got].config, &listed);
            if (st == CT_OK && listed) {
                ct_sample_set_has(&seen, draws[i], 1);
                picks[got++].index = draws[i];
            }
        }
        free(draws);
        if (d == n)
            break; /* every index was looked at */
    }
    free(seen.slot);
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
        qsort(picks, got, sizeof *picks, ct_sample_pick_cmp);
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
