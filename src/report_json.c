#define _GNU_SOURCE
#include "report_json.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

const char *ct_report_ucx_version(void)
{
    /* RTLD_NOLOAD: report the UCX that MPI actually loaded, and never load
     * one ourselves (its constructors read UCX_* and may warn). */
    void *h = dlopen("libucp.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (h == NULL)
        return NULL;
    const char *(*get)(void) = (const char *(*)(void))dlsym(h, "ucp_get_version_string");
    const char *v = get ? get() : NULL;
    dlclose(h);
    return v;
}

static void ct_report_options(ct_json_writer_t *w, const ct_options_t *o)
{
    ct_json_key(w, "options");
    ct_json_begin_object(w);
    ct_json_key(w, "min_bytes"), ct_json_uint(w, o->min_bytes);
    ct_json_key(w, "max_bytes"), ct_json_uint(w, o->max_bytes);
    if (o->step_factor > 1)
        ct_json_key(w, "step_factor"), ct_json_uint(w, o->step_factor);
    else
        ct_json_key(w, "step_bytes"), ct_json_uint(w, o->step_bytes);
    ct_json_key(w, "warmup_iters"), ct_json_int(w, o->warmup);
    ct_json_key(w, "iters");
    if (o->iters > 0)
        ct_json_int(w, o->iters);
    else
        ct_json_null(w); /* adaptive */
    ct_json_key(w, "check"), ct_json_int(w, o->check);
    ct_json_key(w, "root"), ct_json_int(w, o->root);
    ct_json_key(w, "rank_aggregation"), ct_json_string(w, ct_options_rank_agg_name(o->rank_agg));
    ct_json_key(w, "target_ci"), ct_json_double(w, o->target_ci);
    ct_json_key(w, "size_budget_s"), ct_json_double(w, o->size_budget_s);
    ct_json_key(w, "min_time_s"), ct_json_double(w, o->min_time_s);
    ct_json_key(w, "min_samples"), ct_json_int(w, o->min_samples);
    ct_json_key(w, "max_samples"), ct_json_int(w, o->max_samples);
    ct_json_key(w, "batch_us"), ct_json_double(w, o->batch_us);
    ct_json_key(w, "timeout_s"), ct_json_int(w, o->timeout_s);
    ct_json_end_object(w);
}

static void ct_report_hosts(ct_json_writer_t *w, const ct_rankinfo_t *ranks, int n)
{
    ct_json_key(w, "ranks");
    ct_json_begin_array(w);
    for (int r = 0; r < n; r++) {
        ct_json_begin_object(w);
        ct_json_key(w, "rank"), ct_json_int(w, r);
        ct_json_key(w, "hostname"), ct_json_string(w, ranks[r].hostname);
        ct_json_key(w, "local_rank"), ct_json_int(w, ranks[r].local_rank);
        ct_json_key(w, "pid"), ct_json_int(w, ranks[r].pid);
        ct_json_key(w, "cpu_binding"), ct_json_string(w, ranks[r].cpus);
        ct_json_end_object(w);
    }
    ct_json_end_array(w);

    /* Hosts in order of first rank, with their ranks. */
    ct_json_key(w, "hosts");
    ct_json_begin_array(w);
    for (int r = 0; r < n; r++) {
        int first = 1;
        for (int q = 0; q < r && first; q++)
            first = strcmp(ranks[q].hostname, ranks[r].hostname) != 0;
        if (!first)
            continue;
        ct_json_begin_object(w);
        ct_json_key(w, "hostname"), ct_json_string(w, ranks[r].hostname);
        ct_json_key(w, "ranks");
        ct_json_begin_array(w);
        int count = 0;
        for (int q = r; q < n; q++)
            if (strcmp(ranks[q].hostname, ranks[r].hostname) == 0)
                ct_json_int(w, q), count++;
        ct_json_end_array(w);
        ct_json_key(w, "ranks_per_node"), ct_json_int(w, count);
        ct_json_end_object(w);
    }
    ct_json_end_array(w);
}

static void ct_report_environment(ct_json_writer_t *w, const ct_tuning_env_t *env)
{
    ct_json_key(w, "environment");
    ct_json_begin_object(w);
    for (size_t i = 0; i < env->n; i++) {
        const char *eq = strchr(env->vars[i], '=');
        char name[256];
        size_t len = eq ? (size_t)(eq - env->vars[i]) : strlen(env->vars[i]);
        if (len >= sizeof name)
            len = sizeof name - 1;
        memcpy(name, env->vars[i], len);
        name[len] = '\0';
        ct_json_key(w, name);
        ct_json_string(w, eq ? eq + 1 : "");
    }
    ct_json_end_object(w);
}

static void ct_report_row(ct_json_writer_t *w, const ct_engine_row_t *row)
{
    const ct_measurement_t *m = &row->measurement;
    /* The CSV columns, then what only the JSON carries. */
    ct_json_begin_object(w);
    ct_result_json_members(w, &row->result);
    ct_json_key(w, "samples"), ct_json_uint(w, m->stats.n);
    ct_json_key(w, "batch"), ct_json_int(w, m->batch);
    ct_json_key(w, "converged"), ct_json_bool(w, m->converged);
    ct_json_key(w, "mean_us"), ct_json_double(w, m->stats.mean);
    ct_json_key(w, "ci95_low_us"), ct_json_double(w, m->stats.ci_low);
    ct_json_key(w, "ci95_high_us"), ct_json_double(w, m->stats.ci_high);
    ct_json_key(w, "rank_median_us");
    ct_json_begin_object(w);
    ct_json_key(w, "min"), ct_json_double(w, m->rank_median_min);
    ct_json_key(w, "avg"), ct_json_double(w, m->rank_median_avg);
    ct_json_key(w, "max"), ct_json_double(w, m->rank_median_max);
    ct_json_end_object(w);
    ct_json_end_object(w);
}

static void ct_report_body(ct_json_writer_t *w, const ct_report_json_t *rep)
{
    const ct_engine_t *e = rep->engine;
    const char *ucx = ct_report_ucx_version();

    ct_json_begin_object(w);
    ct_json_key(w, "schema"), ct_json_string(w, "colltune-results/1");
    ct_json_key(w, "run_id"), ct_json_string(w, e->ident->run_id);
    ct_json_key(w, "start_time"), ct_json_string(w, e->ident->start_time);
    ct_json_key(w, "end_time"), ct_json_string(w, rep->end_time);
    ct_json_key(w, "status"), ct_json_string(w, rep->status);
    ct_json_key(w, "command_line");
    ct_json_begin_array(w);
    for (int i = 0; i < rep->argc; i++)
        ct_json_string(w, rep->argv[i]);
    ct_json_end_array(w);
    ct_json_key(w, "colltune");
    ct_json_begin_object(w);
    ct_json_key(w, "version"), ct_json_string(w, PACKAGE_VERSION);
    ct_json_key(w, "git_revision"), ct_json_string(w, CT_GIT_REV);
    ct_json_end_object(w);
    ct_json_key(w, "mpi_library_version"), ct_json_string(w, ct_world_library_version(e->world));
    ct_json_key(w, "ucx_version"), ct_json_string(w, ucx);
    ct_json_key(w, "backend");
    ct_json_begin_object(w);
    ct_json_key(w, "name"), ct_json_string(w, e->ops->name);
    if (e->ops->describe)
        e->ops->describe(e->ctx, w);
    ct_json_end_object(w);
    ct_json_key(w, "nranks"), ct_json_int(w, ct_world_size(e->world));
    ct_json_key(w, "nnodes"), ct_json_int(w, ct_world_nnodes(e->world));
    ct_report_hosts(w, rep->ranks, ct_world_size(e->world));
    ct_json_key(w, "config_id"), ct_json_string(w, e->ident->config_id);
    ct_report_environment(w, rep->env);
    ct_report_options(w, e->opts);
    ct_json_key(w, "timing");
    ct_json_begin_object(w);
    ct_json_key(w, "clock"), ct_json_string(w, "CLOCK_MONOTONIC, host");
    ct_json_key(w, "sample"),
        ct_json_string(w, "barrier, then a batch of back-to-back calls until complete, "
                          "divided by the batch size");
    ct_json_key(w, "rank_aggregation"), ct_json_string(w, ct_options_rank_agg_name(e->opts->rank_agg));
    ct_json_key(w, "statistic"), ct_json_string(w, "median of samples");
    ct_json_end_object(w);
    ct_json_key(w, "results");
    ct_json_begin_array(w);
    for (size_t i = 0; i < e->nrows; i++)
        ct_report_row(w, &e->rows[i]);
    ct_json_end_array(w);
    ct_json_end_object(w);
}

ct_status_t ct_report_json_write(const char *path, const ct_report_json_t *rep)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fprintf(stderr, "collbench: --json: path too long: %s\n", path);
        return CT_ERR_USAGE;
    }
    FILE *fp = fopen(tmp, "w");
    if (fp == NULL) {
        fprintf(stderr, "collbench: --json: cannot write %s: %s\n", tmp, strerror(errno));
        return CT_ERR_IO;
    }
    ct_json_writer_t w;
    ct_json_writer_init(&w, fp, 1);
    ct_report_body(&w, rep);
    int bad = ferror(fp);
    bad |= fclose(fp) != 0;
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "collbench: --json: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        return CT_ERR_IO;
    }
    return CT_OK;
}
