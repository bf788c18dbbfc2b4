#define _GNU_SOURCE
#include "report_json.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "ct_json.h"

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

static json_t *ct_report_options(const ct_options_t *o)
{
    json_t *j = json_object();
    int bad = 0;

    bad |= ct_json_set(j, "min_bytes", json_integer((json_int_t)o->min_bytes));
    bad |= ct_json_set(j, "max_bytes", json_integer((json_int_t)o->max_bytes));
    if (o->step_factor > 1)
        bad |= ct_json_set(j, "step_factor", json_integer((json_int_t)o->step_factor));
    else
        bad |= ct_json_set(j, "step_bytes", json_integer((json_int_t)o->step_bytes));
    bad |= ct_json_set(j, "warmup_iters", json_integer(o->warmup));
    bad |= ct_json_set(j, "iters", o->iters > 0 ? json_integer(o->iters) : json_null());
    bad |= ct_json_set(j, "check", json_integer(o->check));
    bad |= ct_json_set(j, "root", json_integer(o->root));
    bad |= ct_json_set(j, "rank_aggregation", ct_json_str(ct_options_rank_agg_name(o->rank_agg)));
    bad |= ct_json_set(j, "target_ci", ct_json_real(o->target_ci));
    bad |= ct_json_set(j, "size_budget_s", ct_json_real(o->size_budget_s));
    bad |= ct_json_set(j, "min_time_s", ct_json_real(o->min_time_s));
    bad |= ct_json_set(j, "min_samples", json_integer(o->min_samples));
    bad |= ct_json_set(j, "max_samples", json_integer(o->max_samples));
    bad |= ct_json_set(j, "batch_us", ct_json_real(o->batch_us));
    bad |= ct_json_set(j, "timeout_s", json_integer(o->timeout_s));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

static int ct_report_hosts(json_t *doc, const ct_rankinfo_t *ranks, int n)
{
    json_t *rank_list = json_array(), *host_list = json_array();
    int bad = 0;

    /* Children are filled before they are attached: a failed attach frees
     * the child (jansson steals the reference either way). */
    for (int r = 0; r < n && !bad; r++) {
        json_t *o = json_object();
        bad |= ct_json_set(o, "rank", json_integer(r));
        bad |= ct_json_set(o, "hostname", ct_json_str(ranks[r].hostname));
        bad |= ct_json_set(o, "local_rank", json_integer(ranks[r].local_rank));
        bad |= ct_json_set(o, "pid", json_integer(ranks[r].pid));
        bad |= ct_json_set(o, "cpu_binding", ct_json_str(ranks[r].cpus));
        bad |= ct_json_append(rank_list, o);
    }
    /* Hosts in order of first rank, with their ranks. */
    for (int r = 0; r < n && !bad; r++) {
        int first = 1;
        for (int q = 0; q < r && first; q++)
            first = strcmp(ranks[q].hostname, ranks[r].hostname) != 0;
        if (!first)
            continue;
        json_t *o = json_object(), *on_host = json_array();
        for (int q = r; q < n; q++)
            if (strcmp(ranks[q].hostname, ranks[r].hostname) == 0)
                bad |= ct_json_append(on_host, json_integer(q));
        json_int_t count = (json_int_t)json_array_size(on_host);
        bad |= ct_json_set(o, "hostname", ct_json_str(ranks[r].hostname));
        bad |= ct_json_set(o, "ranks", on_host);
        bad |= ct_json_set(o, "ranks_per_node", json_integer(count));
        bad |= ct_json_append(host_list, o);
    }
    bad |= ct_json_set(doc, "ranks", rank_list);
    bad |= ct_json_set(doc, "hosts", host_list);
    return bad;
}

static json_t *ct_report_environment(const ct_tuning_env_t *env)
{
    json_t *j = json_object();
    int bad = 0;

    for (size_t i = 0; i < env->n && !bad; i++) {
        const char *eq = strchr(env->vars[i], '=');
        char name[256];
        size_t len = eq ? (size_t)(eq - env->vars[i]) : strlen(env->vars[i]);
        if (len >= sizeof name)
            len = sizeof name - 1;
        memcpy(name, env->vars[i], len);
        name[len] = '\0';
        bad |= ct_json_set(j, name, ct_json_str(eq ? eq + 1 : ""));
    }
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

static json_t *ct_report_row(const ct_engine_row_t *row)
{
    const ct_measurement_t *m = &row->measurement;
    /* The CSV columns, then what only the JSON carries. */
    json_t *o = ct_result_json(&row->result), *rm = json_object();
    int bad = o == NULL;

    bad |= ct_json_set(o, "samples", json_integer((json_int_t)m->stats.n));
    bad |= ct_json_set(o, "batch", json_integer(m->batch));
    bad |= ct_json_set(o, "converged", json_boolean(m->converged));
    bad |= ct_json_set(o, "mean_us", ct_json_real(m->stats.mean));
    bad |= ct_json_set(o, "ci95_low_us", ct_json_real(m->stats.ci_low));
    bad |= ct_json_set(o, "ci95_high_us", ct_json_real(m->stats.ci_high));
    bad |= ct_json_set(rm, "min", ct_json_real(m->rank_median_min));
    bad |= ct_json_set(rm, "avg", ct_json_real(m->rank_median_avg));
    bad |= ct_json_set(rm, "max", ct_json_real(m->rank_median_max));
    bad |= ct_json_set(o, "rank_median_us", rm);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *ct_report_body(const ct_report_json_t *rep)
{
    const ct_engine_t *e = rep->engine;
    json_t *doc = json_object(), *argv = json_array(), *tool = json_object();
    json_t *backend = json_object(), *timing = json_object(), *results = json_array();
    int bad = 0;

    /* Children are filled before they are attached: a failed attach frees
     * the child (jansson steals the reference either way). */
    for (int i = 0; i < rep->argc; i++)
        bad |= ct_json_append(argv, ct_json_str(rep->argv[i]));
    bad |= ct_json_set(tool, "version", ct_json_str(PACKAGE_VERSION));
    bad |= ct_json_set(tool, "git_revision", ct_json_str(CT_GIT_REV));
    bad |= ct_json_set(backend, "name", ct_json_str(e->ops->name));
    if (e->ops->describe && backend)
        bad |= e->ops->describe(e->ctx, backend) != CT_OK;
    bad |= ct_json_set(timing, "clock", ct_json_str("CLOCK_MONOTONIC, host"));
    bad |= ct_json_set(timing, "sample",
                       ct_json_str("barrier, then a batch of back-to-back calls until complete, "
                                   "divided by the batch size"));
    bad |= ct_json_set(timing, "rank_aggregation",
                       ct_json_str(ct_options_rank_agg_name(e->opts->rank_agg)));
    bad |= ct_json_set(timing, "statistic", ct_json_str("median of samples"));
    for (size_t i = 0; i < e->nrows && !bad; i++)
        bad |= ct_json_append(results, ct_report_row(&e->rows[i]));

    bad |= ct_json_set(doc, "schema", ct_json_str("colltune-results/1"));
    bad |= ct_json_set(doc, "run_id", ct_json_str(e->ident->run_id));
    bad |= ct_json_set(doc, "start_time", ct_json_str(e->ident->start_time));
    bad |= ct_json_set(doc, "end_time", ct_json_str(rep->end_time));
    bad |= ct_json_set(doc, "status", ct_json_str(rep->status));
    bad |= ct_json_set(doc, "command_line", argv);
    bad |= ct_json_set(doc, "colltune", tool);
    bad |= ct_json_set(doc, "mpi_library_version",
                       ct_json_str(ct_world_library_version(e->world)));
    bad |= ct_json_set(doc, "ucx_version", ct_json_str(ct_report_ucx_version()));
    bad |= ct_json_set(doc, "backend", backend);
    bad |= ct_json_set(doc, "nranks", json_integer(ct_world_size(e->world)));
    bad |= ct_json_set(doc, "nnodes", json_integer(ct_world_nnodes(e->world)));
    bad |= doc == NULL || ct_report_hosts(doc, rep->ranks, ct_world_size(e->world));
    bad |= ct_json_set(doc, "config_id", ct_json_str(e->ident->config_id));
    bad |= ct_json_set(doc, "environment", ct_report_environment(rep->env));
    bad |= ct_json_set(doc, "options", ct_report_options(e->opts));
    bad |= ct_json_set(doc, "timing", timing);
    bad |= ct_json_set(doc, "results", results);
    if (bad) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

ct_status_t ct_report_json_write(const char *path, const ct_report_json_t *rep)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fprintf(stderr, "collbench: --json: path too long: %s\n", path);
        return CT_ERR_USAGE;
    }
    json_t *doc = ct_report_body(rep);
    if (doc == NULL) {
        fprintf(stderr, "collbench: --json %s: out of memory building the document\n", path);
        return CT_ERR_NOMEM;
    }
    FILE *fp = fopen(tmp, "w");
    if (fp == NULL) {
        fprintf(stderr, "collbench: --json: cannot write %s: %s\n", tmp, strerror(errno));
        json_decref(doc);
        return CT_ERR_IO;
    }
    int bad = json_dumpf(doc, fp, JSON_INDENT(2)) != 0;
    json_decref(doc);
    bad |= fputc('\n', fp) == EOF;
    bad |= ferror(fp);
    bad |= fclose(fp) != 0;
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "collbench: --json: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        return CT_ERR_IO;
    }
    return CT_OK;
}
