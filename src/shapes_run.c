/* SPDX-License-Identifier: BSD-3-Clause */
#include "shapes_run.h"

#include <stdio.h>
#include <stdlib.h>

ct_status_t ct_shapes_check(ct_world_t *world, const ct_options_t *opts)
{
    int rank0 = ct_world_rank(world) == 0, nnodes = ct_world_nnodes(world);
    char name[32];

    for (int i = 0; i < opts->nshapes; i++) {
        const ct_shape_t *s = &opts->shapes[i];
        ct_shape_name(s, name, sizeof name);
        if (s->nnodes > nnodes) {
            if (rank0)
                fprintf(stderr,
                        "collbench: error: --shapes %s: needs %d hosts; this launch runs on %d\n",
                        name, s->nnodes, nnodes);
            return CT_ERR_USAGE;
        }
        for (int h = 0; h < s->nnodes; h++)
            if (ct_world_host_size(world, h) < s->ranks_per_node) {
                if (rank0)
                    fprintf(stderr,
                            "collbench: error: --shapes %s: needs %d ranks on each of the first "
                            "%d host(s); host %d (%s) runs %d\n",
                            name, s->ranks_per_node, s->nnodes, h, ct_world_host_name(world, h),
                            ct_world_host_size(world, h));
                return CT_ERR_USAGE;
            }
    }
    return CT_OK;
}

/* The engine's outputs during one shape: its events go on to the run's
 * reports as they come, but begin and end are the run's, once. */
static ct_status_t ct_shapes_fwd_coll_begin(void *state, const ct_coll_desc_t *coll)
{
    ct_reports_coll_begin(state, coll);
    return ct_reports_status(state);
}

static ct_status_t ct_shapes_fwd_row(void *state, const ct_report_row_t *row)
{
    ct_reports_row(state, row);
    return ct_reports_status(state);
}

static ct_status_t ct_shapes_fwd_refused(void *state, const ct_report_refusal_t *refusal)
{
    ct_reports_refused(state, refusal);
    return ct_reports_status(state);
}

static ct_status_t ct_shapes_fwd_coll_end(void *state, const ct_coll_desc_t *coll)
{
    ct_reports_coll_end(state, coll);
    return ct_reports_status(state);
}

static const ct_report_ops_t ct_shapes_fwd_ops = {
    .name = "shape",
    .coll_begin = ct_shapes_fwd_coll_begin,
    .row = ct_shapes_fwd_row,
    .refused = ct_shapes_fwd_refused,
    .coll_end = ct_shapes_fwd_coll_end,
};

/* One shape's sweep on its sub-communicator; ct_engine_run's status. */
static ct_status_t ct_shapes_play(const ct_shapes_env_t *env, ct_world_t *sub)
{
    ct_reports_t fwd = {.ops = {&ct_shapes_fwd_ops}, .state = {env->reports}, .n = 1};
    ct_configs_t *configs = NULL;
    void *ctx = NULL;
    char why[512] = "";
    int leader = ct_world_rank(sub) == 0;

    ct_status_t st = ct_configs_create(sub, env->ops, env->opts, env->ident->config_id, &configs);
    if (st != CT_OK)
        return st;
    ct_watchdog_arm(env->watchdog, "opening the backend on a shape");
    st = env->ops->open(sub, env->config, &ctx, why, sizeof why);
    if (st == CT_OK && configs)
        st = ct_configs_open(configs, env->ops, env->config);
    ct_watchdog_disarm(env->watchdog);
    if (st != CT_OK) {
        if (leader)
            fprintf(stderr, "collbench: --shapes: %s backend unavailable on a shape: %s\n",
                    env->ops->name, why);
        ct_configs_free(configs);
        if (ctx)
            env->ops->close(ctx);
        return st;
    }
    ct_engine_t engine = {
        .world = sub,
        .ops = env->ops,
        .ctx = ctx,
        .opts = env->opts,
        .ident = env->ident,
        .reports = env->reports ? &fwd : NULL,
        .watchdog = env->watchdog,
        .configs = configs,
        .sync = ct_measure_sync_mode(env->opts, env->ops),
    };
    st = ct_clocksync_create(sub, &engine.clock);
    if (st == CT_OK)
        st = ct_engine_run(&engine);
    ct_clocksync_destroy(engine.clock);
    ct_configs_free(configs);
    env->ops->close(ctx);
    return st;
}

/* This shape's ranks, in world rank order (its rank order), on its rank 0. */
static int *ct_shapes_members(ct_world_t *world, ct_world_t *sub)
{
    int me = ct_world_rank(world), *all = NULL;
    if (ct_world_rank(sub) == 0 &&
        (all = calloc((size_t)ct_world_size(sub), sizeof *all)) == NULL) {
        fprintf(stderr, "collbench: out of memory listing a shape's ranks\n");
        ct_world_abort(world, CT_EXIT_FAILURE);
    }
    ct_world_gather(sub, &me, sizeof me, all, 0);
    return all;
}

ct_status_t ct_shapes_run(const ct_shapes_env_t *env)
{
    ct_world_t *world = env->world;
    ct_status_t st = CT_OK;
    long long wrong_any = 0, refused_any = 0;

    ct_reports_begin(env->reports);
    for (int i = 0; i < env->opts->nshapes && st == CT_OK; i++) {
        const ct_shape_t *s = &env->opts->shapes[i];
        int member =
            ct_world_host_index(world) < s->nnodes && ct_world_host_rank(world) < s->ranks_per_node;
        ct_world_t *sub = NULL;
        ct_status_t sst = CT_OK;

        ct_world_split(world, member ? 0 : -1, ct_world_rank(world), &sub);
        if (sub) {
            /* World rank 0 is always its shape's rank 0 (host 0's first). */
            int *members = ct_shapes_members(world, sub);
            ct_report_shape_t tag = {i, *s, ct_world_size(sub), members};
            ct_reports_shape(env->reports, &tag);
            free(members);
            sst = ct_shapes_play(env, sub);
            ct_world_free(sub);
        }
        /* The ranks outside the shape have waited here all along. */
        ct_world_barrier_idle(world);
        long long agg[3] = {sst == CT_ERR_WRONG, sst == CT_ERR_REFUSED,
                            sst != CT_OK && sst != CT_ERR_WRONG && sst != CT_ERR_REFUSED};
        long long fatal_code = agg[2] ? (long long)sst : 0;
        ct_world_allreduce_long(world, agg, 3, CT_REDUCE_MAX);
        ct_world_allreduce_long(world, &fatal_code, 1, CT_REDUCE_MIN);
        wrong_any |= agg[0];
        refused_any |= agg[1];
        if (agg[2])
            st = fatal_code != 0 ? (ct_status_t)fatal_code : CT_ERR_BACKEND;
    }
    if (st == CT_OK && wrong_any)
        st = CT_ERR_WRONG;
    else if (st == CT_OK && refused_any)
        st = CT_ERR_REFUSED;
    return ct_engine_end_reports(env->reports, env->watchdog, st);
}
