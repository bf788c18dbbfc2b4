/*
 * collbench - measures collectives over MPI or NCCL and prints an
 * nccl-tests table (plus CSV and JSON on request).  main() wires the
 * pieces together; the work lives in engine.c and the tables it drives.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/backend.h"
#include "config.h"
#include "ct_tuning_env.h"
#include "engine.h"
#include "options.h"
#include "rankinfo.h"
#include "report_json.h"
#include "watchdog.h"
#include "world.h"

extern char **environ;

/* Rank 0 names the run and hashes its settings; everyone uses its answer. */
static void collbench_ident(ct_world_t *world, const ct_options_t *opts,
                            const ct_tuning_env_t *env, ct_run_ident_t *ident)
{
    memset(ident, 0, sizeof *ident);
    if (ct_world_rank(world) == 0) {
        ct_engine_utc_now(ident->start_time, sizeof ident->start_time);
        if (opts->run_id)
            snprintf(ident->run_id, sizeof ident->run_id, "%s", opts->run_id);
        else {
            char compact[32];
            size_t k = 0;
            for (const char *p = ident->start_time; *p && k + 1 < sizeof compact; p++)
                if (*p != '-' && *p != ':')
                    compact[k++] = *p;
            compact[k] = '\0';
            snprintf(ident->run_id, sizeof ident->run_id, "%s-%.24s-%d", compact,
                     ct_world_hostname(world), (int)getpid());
        }
        ct_tuning_env_id(env, ident->config_id, sizeof ident->config_id);
    }
    ct_world_bcast(world, ident, sizeof *ident, 0);
}

/* Opens --csv for appending; a new or empty file gets the header, an
 * existing one must already have it. */
static ct_status_t collbench_open_csv(const char *path, FILE **fp_p)
{
    FILE *fp = fopen(path, "a+");
    if (fp == NULL) {
        fprintf(stderr, "collbench: error: --csv %s: %s\n", path, strerror(errno));
        return CT_ERR_USAGE;
    }
    char line[1024];
    rewind(fp);
    if (fgets(line, sizeof line, fp) == NULL) {
        ct_result_csv_header(fp);
    } else {
        line[strcspn(line, "\r\n")] = '\0';
        if (!ct_result_csv_is_header(line)) {
            fprintf(stderr,
                    "collbench: error: --csv %s: line 1: not a collbench results header; "
                    "refusing to append to another file\n",
                    path);
            fclose(fp);
            return CT_ERR_USAGE;
        }
    }
    fflush(fp);
    *fp_p = fp;
    return CT_OK;
}

static void collbench_preamble(FILE *fp, const ct_engine_t *e, const ct_rankinfo_t *ranks)
{
    const ct_options_t *o = e->opts;
    fprintf(fp, "# collbench (colltune %s, %s) backend %s, %d ranks on %d nodes\n",
            PACKAGE_VERSION, CT_GIT_REV, e->ops->name, ct_world_size(e->world),
            ct_world_nnodes(e->world));
    fprintf(fp, "# %s\n", ct_world_library_version(e->world));
    fprintf(fp,
            "# nThread 1 nGpus 1 minBytes %zu maxBytes %zu step: %zu(%s) warmup iters: %d "
            "iters: %d agg iters: 1 validation: %d graph: 0\n",
            o->min_bytes, o->max_bytes, o->step_factor > 1 ? o->step_factor : o->step_bytes,
            o->step_factor > 1 ? "factor" : "bytes", o->warmup, o->iters, o->check);
    if (o->iters == 0)
        fprintf(fp, "# Adaptive iterations: until the median's 95%% CI is within %.3g%% or "
                    "%.3g s per size and placement\n",
                o->target_ci * 100.0, o->size_budget_s);
    fprintf(fp, "# Time: median over samples, each the %s across ranks (-a), timed in %s mode "
                "(--sync); run id %s, config %s\n",
            ct_options_rank_agg_name(o->rank_agg), ct_options_sync_name(e->sync),
            e->ident->run_id, e->ident->config_id);
    fprintf(fp, "# Floor: one-way small-message latency %.3f us (median ping-pong / 2); no "
                "collective can take less\n",
            ct_clocksync_floor_us(e->clock));
    fprintf(fp, "#\n# Using devices\n");
    for (int r = 0; r < ct_world_size(e->world); r++) {
        char device[96] = "device -1 [host]";
        if (e->ops->device_label)
            e->ops->device_label(e->ctx, r, device, sizeof device);
        fprintf(fp, "#  Rank %2d Group  0 Pid %6d on %10s %s cpus %s\n", r, ranks[r].pid,
                ranks[r].hostname, device, ranks[r].cpus);
    }
    fflush(fp);
}

static int collbench_run(ct_world_t *world, const ct_options_t *opts, int argc, char **argv)
{
    int rank0 = ct_world_rank(world) == 0;
    const ct_backend_ops_t *ops = ct_backend_find(opts->backend);
    ct_backend_config_t config = {opts->nccl_library, opts->cudart_library};
    ct_tuning_env_t env = {0};
    ct_rankinfo_t *ranks = NULL;
    ct_watchdog_t *watchdog = NULL;
    ct_run_ident_t ident;
    void *ctx = NULL;
    char why[512] = "";
    ct_status_t st;

    if (ct_tuning_env_collect(environ, &env) != CT_OK || ct_rankinfo_gather(world, &ranks) != CT_OK)
        return CT_EXIT_FAILURE;
    collbench_ident(world, opts, &env, &ident);

    /* -T also covers start-up: a rank stuck in NCCL's bootstrap is a hang. */
    if (ct_watchdog_create(opts->timeout_s, &watchdog) != CT_OK) {
        ct_tuning_env_free(&env);
        free(ranks);
        return CT_EXIT_FAILURE;
    }
    ct_watchdog_arm(watchdog, "opening the backend");
    st = ops->open(world, &config, &ctx, why, sizeof why);
    ct_watchdog_disarm(watchdog);
    if (st != CT_OK) {
        char upper[16];
        size_t i = 0;
        for (; ops->name[i] && i + 1 < sizeof upper; i++)
            upper[i] = (char)toupper((unsigned char)ops->name[i]);
        upper[i] = '\0';
        fprintf(stderr, "%s backend unavailable: %s\n", upper, why);
        ct_watchdog_destroy(watchdog);
        ct_tuning_env_free(&env);
        free(ranks);
        return ct_status_exit_code(st);
    }

    ct_engine_t engine = {
        .world = world, .ops = ops, .ctx = ctx, .opts = opts, .ident = &ident,
        .table = rank0 ? stdout : NULL, .sync = ct_measure_sync_mode(opts, ops),
    };
    /* The floor is measured in every mode; window mode also needs the clock. */
    if (ct_clocksync_create(world, &engine.clock) != CT_OK)
        st = CT_ERR_BACKEND;
    long long bad_csv = 0;
    if (rank0 && opts->csv_path)
        bad_csv = collbench_open_csv(opts->csv_path, &engine.csv) != CT_OK;
    ct_world_allreduce_long(world, &bad_csv, 1, CT_REDUCE_MAX);
    if (bad_csv)
        st = CT_ERR_USAGE;
    engine.watchdog = watchdog;

    if (st == CT_OK) {
        if (rank0)
            collbench_preamble(stdout, &engine, ranks);
        st = ct_engine_run(&engine);
    }
    if (rank0 && opts->json_path && (st == CT_OK || st == CT_ERR_WRONG)) {
        char end[32];
        ct_engine_utc_now(end, sizeof end);
        ct_report_json_t rep = {&engine, argc, argv, ranks, &env, end,
                                st == CT_OK ? "ok" : "wrong"};
        ct_status_t jst = ct_report_json_write(opts->json_path, &rep);
        if (jst != CT_OK && st == CT_OK)
            st = jst;
    }
    if (engine.csv)
        fclose(engine.csv);
    free(engine.rows);
    ct_clocksync_destroy(engine.clock);
    ct_watchdog_destroy(watchdog);
    ops->close(ctx);
    ct_tuning_env_free(&env);
    free(ranks);
    return ct_status_exit_code(st);
}

int main(int argc, char **argv)
{
    ct_options_t opts;
    ct_world_t *world = NULL;
    char err[512] = "";
    /* Parse before MPI_Init rewrites argv; report after, from rank 0 only. */
    ct_status_t pst = ct_options_parse(argc, argv, &opts, err, sizeof err);

    if (ct_world_init(&argc, &argv, &world) != CT_OK) {
        fprintf(stderr, "collbench: MPI_Init failed\n");
        return CT_EXIT_FAILURE;
    }
    int rank0 = ct_world_rank(world) == 0;
    int code;
    if (pst != CT_OK) {
        if (rank0)
            fprintf(stderr, "collbench: error: %s\n", err);
        code = CT_EXIT_USAGE;
    } else if (opts.help || opts.version) {
        if (rank0 && opts.help)
            ct_options_usage(stdout, "collbench");
        else if (rank0)
            printf("collbench (colltune) %s, git %s\n", PACKAGE_VERSION, CT_GIT_REV);
        code = CT_EXIT_OK;
    } else {
        code = collbench_run(world, &opts, argc, argv);
    }
    fflush(stdout);
    ct_world_finalize(world);
    return code;
}
