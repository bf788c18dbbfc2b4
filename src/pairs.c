/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "pairs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_pairs.h"
#include "ct_vec.h"

#define CT_PAIRS_HOST_MAX 128

/* One row as a pair's first rank keeps it and world rank 0 receives it:
 * fixed size, for ct_world_gather. */
typedef struct {
    ct_result_t result;
    ct_measurement_t measurement;
    int in_place;
    int coll_index;
} ct_pairs_row_t;

/* The report a pair's first rank runs its engine with: it keeps the rows. */
typedef struct {
    ct_pairs_row_t *rows;
    size_t n, cap;
} ct_pairs_keep_t;

static ct_status_t ct_pairs_keep_row(void *state, const ct_report_row_t *row)
{
    ct_pairs_keep_t *k = state;
    ct_pairs_row_t r = {.result = *row->result,
                        .measurement = *row->measurement,
                        .in_place = row->in_place,
                        .coll_index = -1};
    for (int i = 0; i < CT_COLL_COUNT; i++)
        if (strcmp(ct_coll_by_index(i)->name, row->result->collective) == 0)
            r.coll_index = i;
    return CT_VEC_PUSH(k->rows, k->n, k->cap, &r);
}

static const ct_report_ops_t ct_pairs_keep_ops = {.name = "pairs", .row = ct_pairs_keep_row};

/* Every rank learns every rank's host index (hosts numbered in order of
 * their first rank, as the JSON's "hosts") and the hosts' names. */
typedef struct {
    int nhosts;
    int *host_of;                     /* world-size entries */
    char (*names)[CT_PAIRS_HOST_MAX]; /* nhosts entries used */
} ct_pairs_hosts_t;

static ct_status_t ct_pairs_hosts(ct_world_t *world, ct_pairs_hosts_t *h)
{
    int n = ct_world_size(world);
    char mine[CT_PAIRS_HOST_MAX];
    memset(h, 0, sizeof *h);
    h->host_of = calloc((size_t)n, sizeof *h->host_of);
    h->names = calloc((size_t)n, sizeof *h->names);
    if (h->host_of == NULL || h->names == NULL) {
        fprintf(stderr, "collbench: out of memory listing the hosts\n");
        ct_world_abort(world, CT_EXIT_FAILURE);
    }
    memset(mine, 0, sizeof mine);
    snprintf(mine, sizeof mine, "%s", ct_world_hostname(world));
    ct_world_gather(world, mine, sizeof mine, h->names, 0);
    ct_world_bcast(world, h->names, (size_t)n * sizeof *h->names, 0);
    /* Compact in place: names[k] is host k's, host_of[r] its index. */
    for (int r = 0; r < n; r++) {
        int k = 0;
        while (k < h->nhosts && strcmp(h->names[k], h->names[r]) != 0)
            k++;
        if (k == h->nhosts)
            memmove(h->names[h->nhosts++], h->names[r], CT_PAIRS_HOST_MAX);
        h->host_of[r] = k;
    }
    return CT_OK;
}

/* Runs the sweep on this rank's pair; ct_engine_run's status. */
static ct_status_t ct_pairs_play(const ct_pairs_env_t *env, ct_world_t *pair, int loud,
                                 ct_pairs_keep_t *keep)
{
    ct_options_t opts = *env->opts;
    ct_reports_t collect;
    void *ctx = NULL;
    char why[512] = "";
    int leader = ct_world_rank(pair) == 0;

    /* One pair speaks for all in progress lines and notes. */
    opts.quiet = opts.quiet || !loud;
    memset(&collect, 0, sizeof collect);
    collect.ops[0] = &ct_pairs_keep_ops;
    collect.state[0] = keep;
    collect.n = 1;
    ct_status_t st = env->ops->open(pair, env->config, &ctx, why, sizeof why);
    if (st != CT_OK) {
        if (leader)
            fprintf(stderr, "collbench: --pairs: %s backend unavailable on a pair: %s\n",
                    env->ops->name, why);
        return st;
    }
    ct_engine_t engine = {
        .world = pair,
        .ops = env->ops,
        .ctx = ctx,
        .opts = &opts,
        .ident = env->ident,
        .reports = leader ? &collect : NULL,
        .watchdog = env->watchdog,
        .sync = ct_measure_sync_mode(&opts, env->ops),
    };
    st = ct_clocksync_create(pair, &engine.clock);
    if (st == CT_OK)
        st = ct_engine_run(&engine);
    ct_clocksync_destroy(engine.clock);
    env->ops->close(ctx);
    return st;
}

/* World rank 0: the round's rows, pair by pair, into the outputs. */
static void ct_pairs_report(const ct_pairs_env_t *env, const ct_pairs_hosts_t *h, int round,
                            const int *partner, const ct_pairs_row_t *rows, size_t per_rank)
{
    char line[1024] = "";
    size_t used = 0;
    int first = 1;

    for (int a = 0; a < h->nhosts; a++)
        if (partner[a] > a) {
            int w = snprintf(line + used, sizeof line - used, "%s%s+%s", used ? ", " : "",
                             h->names[a], h->names[partner[a]]);
            if (w > 0 && (size_t)w < sizeof line - used)
                used += (size_t)w;
        }
    for (int a = 0; a < h->nhosts; a++) {
        int b = partner[a], leader = -1;
        if (b <= a)
            continue;
        for (int r = 0; leader < 0 && r < ct_world_size(env->world); r++)
            if (h->host_of[r] == a || h->host_of[r] == b)
                leader = r;
        ct_report_pair_t pair = {round, {h->names[a], h->names[b]}, first ? line : NULL};
        first = 0;
        ct_reports_pair(env->reports, &pair);
        const ct_pairs_row_t *mine = &rows[(size_t)leader * per_rank];
        const ct_coll_desc_t *open_coll = NULL;
        for (size_t i = 0; i < per_rank && mine[i].coll_index >= 0; i++) {
            const ct_coll_desc_t *coll = ct_coll_by_index(mine[i].coll_index);
            if (coll != open_coll) {
                if (open_coll)
                    ct_reports_coll_end(env->reports, open_coll);
                ct_reports_coll_begin(env->reports, coll);
                open_coll = coll;
            }
            ct_report_row_t row = {
                &mine[i].result, &mine[i].measurement, mine[i].in_place, NULL, 0, NULL};
            ct_reports_row(env->reports, &row);
        }
        if (open_coll)
            ct_reports_coll_end(env->reports, open_coll);
    }
}

ct_status_t ct_pairs_run(const ct_pairs_env_t *env)
{
    ct_world_t *world = env->world;
    int me = ct_world_rank(world), n = ct_world_size(world);
    ct_pairs_hosts_t h;
    ct_status_t st = ct_pairs_hosts(world, &h);
    long long wrong_any = 0, refused_any = 0;

    if (h.nhosts < 2) {
        if (me == 0)
            fprintf(stderr,
                    "collbench: error: --pairs needs 2 hosts or more (this job runs on "
                    "%d)\n",
                    h.nhosts);
        free(h.host_of);
        free(h.names);
        return CT_ERR_USAGE;
    }
    int rounds = ct_pairs_rounds(h.nhosts);
    if (env->opts->pairs_rounds > 0 && env->opts->pairs_rounds < rounds)
        rounds = env->opts->pairs_rounds;
    int *partner = calloc((size_t)h.nhosts, sizeof *partner);
    if (partner == NULL) {
        fprintf(stderr, "collbench: out of memory planning the pairs\n");
        ct_world_abort(world, CT_EXIT_FAILURE);
    }

    ct_reports_begin(env->reports);
    for (int round = 0; round < rounds && st == CT_OK; round++) {
        ct_pairs_keep_t keep = {NULL, 0, 0};
        ct_world_t *pair = NULL;
        int host = h.host_of[me];
        ct_pairs_round(h.nhosts, round, partner);
        int other = partner[host];
        /* A pair is named by its lower host; a host sitting out gets none. */
        ct_world_split(world, other < 0 ? -1 : (host < other ? host : other), me, &pair);
        ct_status_t pst = CT_OK;
        if (pair)
            pst = ct_pairs_play(env, pair, host == h.host_of[0] || other == h.host_of[0], &keep);
        ct_world_free(pair);

        /* Every rank learns the worst outcome, and how many rows a pair
         * has at most, before rank 0 collects them.  A refusal (the
         * pair's first rank printed it) costs only what was refused. */
        long long agg[4] = {(long long)keep.n, pst == CT_ERR_WRONG,
                            pst != CT_OK && pst != CT_ERR_WRONG && pst != CT_ERR_REFUSED,
                            pst == CT_ERR_REFUSED};
        long long fatal_code = agg[2] ? (long long)pst : 0;
        ct_world_allreduce_long(world, agg, 4, CT_REDUCE_MAX);
        ct_world_allreduce_long(world, &fatal_code, 1, CT_REDUCE_MIN);
        wrong_any |= agg[1];
        refused_any |= agg[3];
        if (agg[2]) {
            st = fatal_code != 0 ? (ct_status_t)fatal_code : CT_ERR_BACKEND;
            free(keep.rows);
            break;
        }
        size_t per_rank = (size_t)agg[0];
        ct_pairs_row_t *send = calloc(per_rank ? per_rank : 1, sizeof *send);
        ct_pairs_row_t *all =
            me == 0 ? calloc((size_t)n * (per_rank ? per_rank : 1), sizeof *all) : NULL;
        if (send == NULL || (me == 0 && all == NULL)) {
            fprintf(stderr, "collbench: out of memory collecting the pairs' rows\n");
            ct_world_abort(world, CT_EXIT_FAILURE);
        }
        for (size_t i = 0; i < per_rank; i++)
            send[i].coll_index = -1;
        if (keep.n)
            memcpy(send, keep.rows, keep.n * sizeof *send);
        ct_world_gather(world, send, per_rank * sizeof *send, all, 0);
        if (me == 0)
            ct_pairs_report(env, &h, round, partner, all, per_rank);
        free(send);
        free(all);
        free(keep.rows);
        long long failed = ct_reports_status(env->reports) != CT_OK;
        ct_world_allreduce_long(world, &failed, 1, CT_REDUCE_MAX);
        if (failed)
            st = CT_ERR_IO;
    }
    free(partner);
    free(h.host_of);
    free(h.names);
    if (st == CT_OK && wrong_any)
        st = CT_ERR_WRONG;
    else if (st == CT_OK && refused_any)
        st = CT_ERR_REFUSED;
    return ct_engine_end_reports(env->reports, env->watchdog, st);
}
