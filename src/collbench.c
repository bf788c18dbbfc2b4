/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * collbench - measures collectives over MPI or NCCL and prints an
 * nccl-tests table (plus CSV and JSON on request).  main() wires the
 * pieces together; the work lives in engine.c and the tables it drives,
 * the outputs in report*.c.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/backend.h"
#include "ct_stdout.h"
#include "config.h"
#include "configs.h"
#include "ct_tuning_env.h"
#include "cvars.h"
#include "engine.h"
#include "fingerprint.h"
#include "options.h"
#include "pairs.h"
#include "rankinfo.h"
#include "report.h"
#include "shapes_run.h"
#include "watchdog.h"
#include "world.h"

extern char **environ;

/* Rank 0 names the run and hashes its settings; everyone uses its answer. */
static void collbench_ident(ct_world_t *world, const ct_options_t *opts, const ct_tuning_env_t *env,
                            ct_run_ident_t *ident)
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

/* --cvars: rank 0 reads the values in force before any work, so a name the
 * library does not have ends every rank with exit 2 at once. */
static ct_status_t collbench_cvars(ct_world_t *world, const ct_options_t *opts, ct_cvars_t *cvars)
{
    char err[512] = "";
    long long st = CT_OK;
    cvars->n = 0;
    if (opts->cvars == NULL)
        return CT_OK;
    if (ct_world_rank(world) == 0) {
        st = ct_cvars_read(opts->cvars, cvars, err, sizeof err);
        if (st != CT_OK)
            fprintf(stderr, "collbench: error: %s\n", err);
    }
    ct_world_bcast(world, &st, sizeof st, 0);
    return (ct_status_t)st;
}

/* mpit_held: this rank holds an MPI_T session from before MPI_Init (main),
 * which the fingerprint reads and releases. */
static int collbench_run(ct_world_t *world, const ct_options_t *opts, int argc, char **argv,
                         int *mpit_held)
{
    int rank0 = ct_world_rank(world) == 0;
    const ct_backend_ops_t *ops = ct_backend_find(opts->backend);
    ct_backend_config_t config = {opts->nccl_library, opts->cudart_library};
    ct_tuning_env_t env = {0};
    ct_rankinfo_t *ranks = NULL;
    ct_watchdog_t *watchdog = NULL;
    ct_reports_t reports;
    ct_reports_t *active = rank0 ? &reports : NULL;
    ct_run_ident_t ident;
    ct_cvars_t cvars;
    ct_configs_t *configs = NULL;
    ct_fingerprint_job_t *fingerprint = NULL;
    void *ctx = NULL;
    char why[512] = "";
    ct_status_t st;

    /* Before any work: a health check of pairs needs two hosts. */
    if (opts->pairs && ct_world_nnodes(world) < 2) {
        if (rank0)
            fprintf(stderr, "collbench: error: --pairs needs 2 hosts or more (this job runs on "
                            "1)\n");
        return CT_EXIT_USAGE;
    }
    /* --shapes beyond the launch: before any work too. */
    if (ct_shapes_check(world, opts) != CT_OK)
        return CT_EXIT_USAGE;
    st = collbench_cvars(world, opts, &cvars);
    if (st != CT_OK)
        return ct_status_exit_code(st);
    if (ct_tuning_env_collect(environ, &env) != CT_OK || ct_rankinfo_gather(world, &ranks) != CT_OK)
        return CT_EXIT_FAILURE;
    collbench_ident(world, opts, &env, &ident);
    /* --config: checked, and its communicators made, before any output. */
    st = ct_configs_create(world, ops, opts, ident.config_id, &configs);
    if (st != CT_OK) {
        ct_tuning_env_free(&env);
        free(ranks);
        return ct_status_exit_code(st);
    }

    /* -T covers start-up too: the output files' checks (which must never
     * block, but a hung file system can) and NCCL's bootstrap. */
    if (ct_watchdog_create(opts->timeout_s, &watchdog) != CT_OK) {
        ct_configs_free(configs);
        ct_tuning_env_free(&env);
        free(ranks);
        return CT_EXIT_FAILURE;
    }
    ct_report_run_t run = {
        .world = world,
        .ops = ops,
        .opts = opts,
        .ident = &ident,
        .ranks = ranks,
        .env = &env,
        .cvars = &cvars,
        .configs = configs,
        .argc = argc,
        .argv = argv,
    };
    /* Every output problem is found here, before the backend is even open,
     * so a bad path costs seconds, not a sweep. */
    ct_watchdog_arm(watchdog, "opening the output files");
    long long bad_output = rank0 ? ct_reports_open(&reports, &run) : CT_OK;
    ct_watchdog_disarm(watchdog);
    ct_world_allreduce_long(world, &bad_output, 1, CT_REDUCE_MIN);
    if (bad_output != CT_OK) {
        ct_configs_free(configs);
        ct_watchdog_destroy(watchdog);
        ct_tuning_env_free(&env);
        free(ranks);
        return ct_status_exit_code((ct_status_t)bad_output);
    }

    ct_watchdog_arm(watchdog, "opening the backend");
    st = ops->open(world, &config, &ctx, why, sizeof why);
    if (st == CT_OK && configs)
        st = ct_configs_open(configs, ops, &config);
    ct_watchdog_disarm(watchdog);
    if (st != CT_OK) {
        char upper[16];
        size_t i = 0;
        for (; ops->name[i] && i + 1 < sizeof upper; i++)
            upper[i] = (char)toupper((unsigned char)ops->name[i]);
        upper[i] = '\0';
        fprintf(stderr, "%s backend unavailable: %s\n", upper, why);
        ct_reports_close(active);
        ct_configs_free(configs);
        ct_watchdog_destroy(watchdog);
        ct_tuning_env_free(&env);
        free(ranks);
        return ct_status_exit_code(st);
    }
    run.backend_ctx = ctx;
    ct_rankinfo_gather_gpu(world, ops, ctx, ranks);
    /* After the backend's open, so that the libraries it loaded count. */
    if (opts->json_path) {
        ct_fingerprint_gather(world, mpit_held, &fingerprint);
        run.fingerprint = fingerprint;
    }

    ct_engine_t engine = {
        .world = world,
        .ops = ops,
        .ctx = ctx,
        .opts = opts,
        .ident = &ident,
        .reports = active,
        .watchdog = watchdog,
        .configs = configs,
        .sync = ct_measure_sync_mode(opts, ops),
    };
    /* The floor is measured in every mode; window mode also needs the clock. */
    st = ct_clocksync_create(world, &engine.clock);
    if (st == CT_OK) {
        run.sync = engine.sync;
        run.floor_us = ct_clocksync_floor_us(engine.clock);
        if (rank0 && !opts->quiet && engine.sync == CT_SYNC_WINDOW &&
            ct_clocksync_oversubscribed(engine.clock))
            fprintf(stderr, "collbench: note: a host runs more ranks than it has CPUs for them; "
                            "window mode's waiting ranks then take CPU from working ones and "
                            "small-message times inflate (--sync barrier times them without "
                            "waiting)\n");
        if (opts->pairs) {
            ct_pairs_env_t pairs = {world, ops, &config, opts, &ident, active, watchdog};
            st = ct_pairs_run(&pairs);
        } else if (opts->nshapes) {
            ct_shapes_env_t shapes = {world, ops, &config, opts, &ident, active, watchdog};
            st = ct_shapes_run(&shapes);
        } else
            st = ct_engine_run(&engine);
    }
    ct_reports_close(active);
    ct_clocksync_destroy(engine.clock);
    ct_watchdog_destroy(watchdog);
    ct_configs_free(configs);
    ops->close(ctx);
    ct_fingerprint_job_free(fingerprint);
    ct_tuning_env_free(&env);
    free(ranks);
    return ct_status_exit_code(st);
}

/* An option error on one line: a value's newline or other control byte
 * (a hostile --run-id) is shown escaped, so that a reader of the first
 * line (colltune relays collbench's stderr by lines) gets all of it. */
static void collbench_print_error(const char *err)
{
    fputs("collbench: error: ", stderr);
    for (const unsigned char *p = (const unsigned char *)err; *p; p++) {
        if (*p == '\n')
            fputs("\\n", stderr);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(stderr, "\\x%02x", *p);
        else
            fputc(*p, stderr);
    }
    fputc('\n', stderr);
}

int main(int argc, char **argv)
{
    ct_options_t opts;
    ct_world_t *world = NULL;
    char err[512] = "", mpit_err[256];
    int mpit_held = 0;
    sigset_t ending, saved;
    /* Parse before MPI_Init rewrites argv; report after, from rank 0 only. */
    ct_status_t pst = ct_options_parse(argc, argv, &opts, err, sizeof err);

    /* The signals that end a run are blocked while MPI starts its helper
     * threads, which inherit the mask: only this thread then takes them, so
     * blocking them here around the JSON's commit (report_json.c) defers
     * them until its temporary file is gone. */
    sigemptyset(&ending);
    sigaddset(&ending, SIGTERM);
    sigaddset(&ending, SIGINT);
    sigaddset(&ending, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &ending, &saved);
    /* --json's fingerprint reads MPI_T: a session opened before MPI_Init
     * costs a run about 25 ms, one opened after it 0.2 s (cvars.h).  If
     * this fails, the fingerprint opens its own. */
    if (pst == CT_OK && opts.json_path && !opts.help && !opts.version)
        mpit_held = ct_cvars_hold(mpit_err, sizeof mpit_err) == CT_OK;
    /* --turns read from argv itself when the options did not parse: a
     * context with a usage error still takes its turn (world.h). */
    int turns = pst == CT_OK ? opts.turns : ct_options_given(argc, argv, "--turns");
    ct_status_t wst = ct_world_init(&argc, &argv, turns, &world);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (wst != CT_OK) {
        if (mpit_held)
            ct_cvars_release();
        if (wst == CT_ERR_USAGE) { /* the launch's app contexts, said by rank 0 */
            ct_world_finalize(world);
            return CT_EXIT_USAGE;
        }
        fprintf(stderr, "collbench: MPI_Init failed\n");
        return CT_EXIT_FAILURE;
    }
    /* App contexts take turns, each a job of its own (world.h). */
    ct_world_turn_begin(world);
    int rank0 = ct_world_rank(world) == 0;
    int code;
    if (pst != CT_OK) {
        if (rank0)
            collbench_print_error(err);
        code = CT_EXIT_USAGE;
    } else if (opts.help || opts.version) {
        if (rank0 && opts.help)
            ct_options_usage(stdout, "collbench");
        else if (rank0)
            printf("collbench (colltune) %s, git %s\n", PACKAGE_VERSION, CT_GIT_REV);
        code = CT_EXIT_OK;
    } else {
        code = collbench_run(world, &opts, argc, argv, &mpit_held);
    }
    /* Rank 0 prints the table; stdout stays open for MPI_Finalize. */
    if (rank0)
        code = ct_stdout_check("collbench", code, 0);
    else
        fflush(stdout);
    ct_world_turn_end(world);
    /* Open MPI 4.1 crashes in MPI_Finalize with an MPI_T session open. */
    if (mpit_held)
        ct_cvars_release();
    ct_world_finalize(world);
    return code;
}
