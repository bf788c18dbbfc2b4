/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report_json.c - the --json file: every row plus the run's metadata, as
 * one document built with jansson and committed at the end of the run.
 *
 * The document is written to a temporary file beside the target (the
 * target's resolved path plus ".HOST.PID.tmp", ct_tmpname.h: runs never
 * collide, and a killed run's is removed by the next run on its host) and
 * renamed onto
 * the resolved target: a reader never sees half a document, and a symlink
 * stays a symlink.  SIGTERM, SIGINT and SIGHUP are blocked from the
 * temporary file's creation to the rename, so such a signal lands once the
 * temporary file is gone; any failure removes it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "ct_outfile.h"
#include "ct_json.h"
#include "ct_stats.h"
#include "ct_tmpname.h"
#include "engine.h"
#include "report.h"
#include "transport.h"

#define CT_STRINGIFY_(x) #x
#define CT_STRINGIFY(x) CT_STRINGIFY_(x)

/* The version of the libucp this process has loaded, or NULL. */
/* What one sample is in each timing mode (doc/timing.md, "Timing modes"). */
static const char *ct_report_json_sample(ct_sync_mode_t sync)
{
    switch (sync) {
    case CT_SYNC_WINDOW:
        return "one call started at an instant agreed on a common clock (offsets to rank 0 "
               "measured by ping-pong); finish minus that instant; calls some rank started "
               "late are dropped and counted";
    case CT_SYNC_BARRIER: return "barrier, then one call timed alone";
    default:
        return "barrier, then a batch of back-to-back calls until complete, divided by the "
               "batch size";
    }
}

/* Batch mode's rule for the length of a batch (doc/timing.md). */
static json_t *ct_report_batch_rule(const ct_options_t *o)
{
    json_t *j = json_object();
    int bad = j == NULL;
    bad |= ct_json_set(j, "rule", ct_json_str(o->batch_us_given ? "batch_us" : "auto"));
    bad |= ct_json_set(j, "batch_us", ct_json_real(o->batch_us));
    bad |= ct_json_set(j, "min_calls", json_integer(o->batch_us_given ? 1 : CT_BATCH_MIN_CALLS));
    bad |= ct_json_set(j, "max_calls", json_integer(CT_BATCH_MAX_CALLS));
    bad |=
        ct_json_set(j, "overhead_max",
                    o->batch_us_given ? json_null() : ct_json_real(1.0 / CT_BATCH_OVERHEAD_TIMES));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* "transport": the pml and btl components mapped in this process and,
 * with libucp loaded, UCX's configuration in force (transport.h). */
static json_t *ct_report_transport(const ct_transport_t *t)
{
    json_t *j = json_object(), *ucx = t->ucx_version ? json_object() : json_null();
    int bad = 0;
    bad |= ct_json_set(j, "pml", t->pml[0] ? ct_json_str(t->pml) : json_null());
    bad |= ct_json_set(j, "pml_evidence",
                       ct_json_str(t->pml[0] ? "the pml component mapped after MPI_Init"
                                             : "no mca_pml component mapped (not Open MPI, "
                                               "or a static build)"));
    bad |= ct_json_set(j, "btl_loaded", ct_json_str(t->btl));
    for (size_t i = 0; i < t->nucx && ucx != NULL; i++) {
        char name[160];
        snprintf(name, sizeof name, "%s", t->ucx[i]);
        char *eq = strchr(name, '=');
        *eq = '\0';
        bad |= ct_json_set(ucx, name, ct_json_str(eq + 1));
    }
    bad |= ct_json_set(j, "ucx_config", ucx);
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

static json_t *ct_report_options(const ct_options_t *o)
{
    json_t *j = json_object();
    int bad = 0;

    bad |= ct_json_set(j, "min_bytes", json_integer((json_int_t)o->min_bytes));
    bad |= ct_json_set(j, "max_bytes", json_integer((json_int_t)o->max_bytes));
    if (o->nsizes) {
        /* --sizes replaced the sweep: its list, and min/max_bytes its ends. */
        json_t *sizes = json_array();
        for (int i = 0; i < o->nsizes && sizes; i++)
            bad |= ct_json_append(sizes, json_integer((json_int_t)o->sizes[i]));
        bad |= ct_json_set(j, "sizes", sizes);
    } else if (o->step_factor > 1)
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
    bad |= ct_json_set(j, "ci_patience", ct_json_real(o->ci_patience));
    bad |= ct_json_set(j, "min_samples", json_integer(o->min_samples));
    bad |= ct_json_set(j, "max_samples", json_integer(o->max_samples));
    bad |= ct_json_set(j, "batch_us", ct_json_real(o->batch_us));
    bad |= ct_json_set(j, "sync", ct_json_str(ct_options_sync_name(o->sync)));
    bad |= ct_json_set(j, "timeout_s", json_integer(o->timeout_s));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* A set as a JSON array of its indices. */
static json_t *ct_report_set(const ct_set_t *set)
{
    json_t *a = json_array();
    for (int i = 0; i < CT_SET_MAX && a; i++)
        if (ct_set_has(set, i) && ct_json_append(a, json_integer(i)) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

/* A host's size as hwloc sees it, from one of its ranks. */
static json_t *ct_report_topology(const ct_rankinfo_t *r)
{
    json_t *o = json_object();
    int bad = 0;
    bad |= ct_json_set(o, "numa_nodes", json_integer(r->topo.host_numa_nodes));
    bad |= ct_json_set(o, "cores", json_integer(r->topo.host_cores));
    bad |= ct_json_set(o, "pus", json_integer(r->topo.host_pus));
    bad |= ct_json_set(o, "source", ct_json_str(ct_topology_source()));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* Where rank r's CPU binding and device sit (hwloc). */
static int ct_report_rank_placement(json_t *o, const ct_rankinfo_t *r)
{
    int bad = 0;
    if (r->has_topology) {
        bad |= ct_json_set(o, "numa_nodes", ct_report_set(&r->topo.numa));
        bad |= ct_json_set(o, "cores", json_integer(r->topo.cores));
        bad |= ct_json_set(o, "bound", json_boolean(r->topo.bound));
    }
    if (r->gpu >= 0) {
        /* Written only where the backend has devices (nccl); not run on
         * the machine the tests use, which has no GPU. */
        json_t *g = json_object();
        bad |= ct_json_set(g, "index", json_integer(r->gpu));
        bad |= ct_json_set(g, "pci_bus_id", ct_json_str(r->gpu_bus_id));
        bad |= ct_json_set(g, "numa_nodes", ct_report_set(&r->gpu_numa));
        bad |= ct_json_set(o, "gpu", g);
    }
    return bad;
}

/* At most this many placement warnings are listed, then a count. */
#define CT_REPORT_MAX_WARNINGS 64

typedef struct {
    json_t *list;
    int seen;
    int bad;
} ct_report_warnings_t;

static void ct_report_warning(const char *line, void *arg)
{
    ct_report_warnings_t *w = arg;
    if (w->seen++ < CT_REPORT_MAX_WARNINGS)
        w->bad |= ct_json_append(w->list, ct_json_str(line));
}

static int ct_report_placement(json_t *doc, const ct_rankinfo_t *ranks, int n)
{
    ct_report_warnings_t w = {json_array(), 0, 0};
    char more[64];
    ct_rankinfo_warnings(ranks, n, ct_report_warning, &w);
    if (w.seen > CT_REPORT_MAX_WARNINGS) {
        snprintf(more, sizeof more, "... and %d more", w.seen - CT_REPORT_MAX_WARNINGS);
        w.bad |= ct_json_append(w.list, ct_json_str(more));
    }
    w.bad |= ct_json_set(doc, "placement_warnings", w.list);
    if (n > 0 && ranks[0].has_topology)
        w.bad |= ct_json_set(doc, "topology", ct_report_topology(&ranks[0]));
    return w.bad;
}

/* Whether rank r is the first rank on its host: the "hosts" array and
 * "per_host" both list a host once, at its first rank, in the same order. */
static int ct_report_host_first(const ct_rankinfo_t *ranks, int r)
{
    for (int q = 0; q < r; q++)
        if (strcmp(ranks[q].hostname, ranks[r].hostname) == 0)
            return 0;
    return 1;
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
        bad |= ct_report_rank_placement(o, &ranks[r]);
        bad |= ct_json_append(rank_list, o);
    }
    /* Hosts in order of first rank, with their ranks. */
    for (int r = 0; r < n && !bad; r++) {
        if (!ct_report_host_first(ranks, r))
            continue;
        json_t *o = json_object(), *on_host = json_array();
        for (int q = r; q < n; q++)
            if (strcmp(ranks[q].hostname, ranks[r].hostname) == 0)
                bad |= ct_json_append(on_host, json_integer(q));
        json_int_t count = (json_int_t)json_array_size(on_host);
        bad |= ct_json_set(o, "hostname", ct_json_str(ranks[r].hostname));
        bad |= ct_json_set(o, "ranks", on_host);
        bad |= ct_json_set(o, "ranks_per_node", json_integer(count));
        if (ranks[r].has_topology)
            bad |= ct_json_set(o, "topology", ct_report_topology(&ranks[r]));
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

/* --cvars: {"NAME": {"value": typed, "scope": "all"}} as MPI_T read them
 * back on rank 0. */
static json_t *ct_report_cvars(const ct_cvars_t *cvars)
{
    json_t *j = json_object();
    int bad = 0;
    for (size_t i = 0; i < cvars->n && !bad; i++) {
        const ct_cvar_t *c = &cvars->v[i];
        json_t *o = json_object(), *value;
        switch (c->kind) {
        case CT_CVAR_INT: value = json_integer(strtoll(c->value, NULL, 10)); break;
        case CT_CVAR_REAL: value = ct_json_real(strtod(c->value, NULL)); break;
        case CT_CVAR_BOOL: value = json_boolean(strcmp(c->value, "true") == 0); break;
        default: value = ct_json_str(c->value); break;
        }
        bad |= ct_json_set(o, "value", value);
        bad |= ct_json_set(o, "scope", ct_json_str(c->scope));
        bad |= ct_json_set(j, c->name, o);
    }
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* The environment variables a configuration's communicator was made
 * with: {"NCCL_ALGO": "Ring", "NCCL_PROTO": null}, null where unset. */
static json_t *ct_report_config_env(const ct_cvars_t *env)
{
    json_t *j = json_object();
    int bad = j == NULL;
    for (size_t i = 0; i < env->n && !bad; i++)
        bad |= ct_json_set(j, env->v[i].name,
                           env->v[i].unset ? json_null() : ct_json_str(env->v[i].value));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* --config: [{"index", "config_id", "collective", "settings": {NAME:
 * VALUE}, RECORD}], "collective" the one a --config-for is measured on
 * (null: every collective, configuration 0's and a --config's), RECORD
 * what the backend's kind read back when the configuration's
 * communicator was created: "cvars" as MPI_T reads them (mpi), or
 * "environment" as getenv read it right before ncclCommInitRank (nccl,
 * which has no MPI_T). */
static json_t *ct_report_configs(const ct_configs_t *configs)
{
    json_t *list = json_array();
    int bad = list == NULL;
    for (int k = 0; k < configs->n && !bad; k++) {
        const ct_config_run_t *c = &configs->v[k];
        json_t *o = json_object(), *settings = json_object();
        for (int i = 0; c->config && i < c->config->n && settings; i++)
            bad |= ct_json_set(settings, c->config->s[i].name, ct_json_str(c->config->s[i].value));
        bad |= ct_json_set(o, "index", json_integer(k));
        bad |= ct_json_set(o, "config_id", ct_json_str(c->config_id));
        bad |= ct_json_set(o, "collective",
                           c->config && c->config->coll ? ct_json_str(c->config->coll->name)
                                                        : json_null());
        bad |= ct_json_set(o, "settings", settings);
        bad |= ct_json_set(o, configs->kind->record,
                           configs->kind->scoped ? ct_report_cvars(&c->cvars)
                                                 : ct_report_config_env(&c->cvars));
        bad |= ct_json_append(list, o);
    }
    if (bad) {
        json_decref(list);
        return NULL;
    }
    return list;
}

/* {NAME: VALUE} of a fingerprint's list. */
static json_t *ct_report_fp_vars(const ct_fp_var_t *v, size_t n)
{
    json_t *j = json_object();
    int bad = j == NULL;
    for (size_t i = 0; i < n && !bad; i++)
        bad |= ct_json_set(j, v[i].name, ct_json_str(v[i].value));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* One fingerprint's members (doc/formats.md, "fingerprint"). */
static json_t *ct_report_fp(const ct_fingerprint_t *fp, const char *digest)
{
    json_t *j = json_object(), *libs = json_object(), *cpu = json_object();
    int bad = 0;
    for (size_t i = 0; i < fp->nlibs && libs; i++) {
        const ct_fp_lib_t *l = &fp->libs[i];
        json_t *o = json_object();
        bad |= ct_json_set(o, "path", ct_json_str(l->path));
        bad |= ct_json_set(o, "build_id", ct_json_str(l->build_id));
        bad |= ct_json_set(o, "version", ct_json_str(l->version));
        bad |= ct_json_set(libs, l->name, o);
    }
    bad |= ct_json_set(cpu, "model", ct_json_str(fp->cpu_model));
    bad |= ct_json_set(cpu, "cpus_online", json_integer(fp->cpus_online));
    bad |= ct_json_set(cpu, "governor", ct_json_str(fp->governor));
    bad |= ct_json_set(j, "env", ct_report_fp_vars(fp->env, fp->nenv));
    bad |= ct_json_set(j, "libraries", libs);
    bad |= ct_json_set(j, "kernel", ct_json_str(fp->kernel));
    bad |= ct_json_set(j, "machine", ct_json_str(fp->machine));
    bad |= ct_json_set(j, "cpu", cpu);
    bad |= ct_json_set(j, "mpi_t", ct_report_fp_vars(fp->mpi_t, fp->nmpi_t));
    bad |= ct_json_set(j, "digest", ct_json_str(digest));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* "fingerprint": rank 0's host's, every host's digest, and the whole
 * fingerprint of the hosts whose digest differs. */
static json_t *ct_report_fingerprint(const ct_fingerprint_job_t *job)
{
    if (job == NULL)
        return json_null();
    json_t *j = ct_report_fp(&job->fp, job->digest), *hosts = json_object(),
           *others = json_object();
    int bad = j == NULL;
    for (size_t i = 0; i < job->nhosts && hosts; i++)
        bad |= ct_json_set(hosts, job->hosts[i].hostname, ct_json_str(job->hosts[i].digest));
    for (size_t i = 0; i < job->nothers && others; i++)
        bad |= ct_json_set(others, job->others[i].hostname,
                           ct_report_fp(&job->others[i].fp, job->others[i].digest));
    bad |= ct_json_set(j, "hosts", hosts);
    bad |= ct_json_set(j, "other_hosts", others);
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* "rank_medians_us" is written up to this many ranks; per_host always. */
#define CT_REPORT_MAX_RANK_MEDIANS 256

/* Per host, in the order of the "hosts" array (first rank): the median and
 * the max of its ranks' own medians. */
static json_t *ct_report_per_host(const ct_rankinfo_t *ranks, int n, const double *medians)
{
    json_t *list = json_array();
    double *mine = malloc((size_t)n * sizeof *mine);
    int bad = list == NULL || mine == NULL;

    for (int r = 0; r < n && !bad; r++) {
        if (!ct_report_host_first(ranks, r))
            continue;
        json_t *o = json_object(), *on_host = json_array();
        size_t k = 0;
        for (int q = r; q < n; q++)
            if (strcmp(ranks[q].hostname, ranks[r].hostname) == 0) {
                bad |= ct_json_append(on_host, json_integer(q));
                mine[k++] = medians[q];
            }
        ct_stats_t st;
        ct_stats_compute(mine, k, &st);
        bad |= ct_json_set(o, "hostname", ct_json_str(ranks[r].hostname));
        bad |= ct_json_set(o, "ranks", on_host);
        bad |= ct_json_set(o, "median_us", ct_json_real(st.median));
        bad |= ct_json_set(o, "max_us", ct_json_real(st.max));
        bad |= ct_json_append(list, o);
    }
    free(mine);
    if (bad) {
        json_decref(list);
        return NULL;
    }
    return list;
}

/* ranks: the row's ranks' placement, n of them (the world's, or a
 * --shapes shape's); ranks_per_node: the shape's, 0 outside --shapes. */
static json_t *ct_report_row(const ct_rankinfo_t *ranks, int n, int ranks_per_node,
                             const ct_report_row_t *row)
{
    const ct_measurement_t *m = row->measurement;
    const ct_result_t *r = row->result;
    /* The CSV columns (samples, converged and the CI among them), then what
     * only the JSON carries; ci95_* are the CI again, for schema 1 readers. */
    json_t *o = ct_result_json(r), *rm = json_object();
    int bad = o == NULL;

    /* The CSV leaves it to nranks / nnodes; null where the ranks are not
     * spread evenly (3 ranks on 2 hosts). */
    if (ranks_per_node == 0 && r->nnodes > 0 && r->nranks % r->nnodes == 0)
        ranks_per_node = (int)(r->nranks / r->nnodes);
    bad |= ct_json_set(o, "ranks_per_node",
                       ranks_per_node > 0 ? json_integer(ranks_per_node) : json_null());

    bad |= ct_json_set(o, "batch", json_integer(m->batch));
    bad |= ct_json_set(o, "batch_overhead_us",
                       m->sync == CT_SYNC_BATCH && m->batch_overhead_us >= 0.0
                           ? ct_json_real(m->batch_overhead_us)
                           : json_null());
    bad |= ct_json_set(o, "mean_us", ct_json_real(m->stats.mean));
    bad |= ct_json_set(o, "ci95_low_us", ct_json_real(m->stats.ci_low));
    bad |= ct_json_set(o, "ci95_high_us", ct_json_real(m->stats.ci_high));
    bad |= ct_json_set(rm, "min", ct_json_real(m->rank_median_min));
    bad |= ct_json_set(rm, "avg", ct_json_real(m->rank_median_avg));
    bad |= ct_json_set(rm, "max", ct_json_real(m->rank_median_max));
    bad |= ct_json_set(o, "rank_median_us", rm);
    if (row->rank_medians) {
        bad |= ct_json_set(o, "per_host", ct_report_per_host(ranks, n, row->rank_medians));
        json_t *each = n <= CT_REPORT_MAX_RANK_MEDIANS ? json_array() : NULL;
        for (int r = 0; each && r < n; r++)
            bad |= ct_json_append(each, ct_json_real(row->rank_medians[r]));
        if (n <= CT_REPORT_MAX_RANK_MEDIANS)
            bad |= ct_json_set(o, "rank_medians_us", each);
    }
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

typedef struct {
    const ct_report_run_t *run;
    const char *path; /* as given, for messages */
    ct_path_target_t target;
    json_t *results; /* the rows so far */
    json_t *refused; /* what the library refused (ct_report_refusal_t) */
    json_t *pairs;   /* --pairs: one entry per pair and row; else NULL */
    ct_report_pair_t pair;
    char pair_hosts[2][128];
    json_t *shapes;             /* --shapes: one entry per shape; else NULL */
    ct_rankinfo_t *shape_ranks; /* --shapes: the current shape's ranks */
    int shape_n;                /* their count; 0 before the first shape */
    int shape_rpn;              /* its ranks per node */
} ct_json_report_t;

static json_t *ct_report_body(const ct_json_report_t *j, ct_status_t run_status)
{
    const ct_report_run_t *run = j->run;
    json_t *doc = json_object(), *argv = json_array(), *tool = json_object();
    json_t *backend = json_object(), *timing = json_object();
    char end_time[32];
    int bad = 0;
    ct_transport_t transport;

    ct_engine_utc_now(end_time, sizeof end_time);
    ct_transport_read(&transport, NULL);
    /* Children are filled before they are attached: a failed attach frees
     * the child (jansson steals the reference either way). */
    for (int i = 0; i < run->argc; i++)
        bad |= ct_json_append(argv, ct_json_str(run->argv[i]));
    bad |= ct_json_set(tool, "version", ct_json_str(PACKAGE_VERSION));
    bad |= ct_json_set(tool, "git_revision", ct_json_str(CT_GIT_REV));
    bad |= ct_json_set(backend, "name", ct_json_str(run->ops->name));
    if (run->ops->describe && backend)
        bad |= run->ops->describe(run->backend_ctx, backend) != CT_OK;
    bad |= ct_json_set(timing, "clock", ct_json_str("CLOCK_MONOTONIC, host"));
    bad |= ct_json_set(timing, "sync", ct_json_str(ct_options_sync_name(run->sync)));
    bad |= ct_json_set(timing, "sample", ct_json_str(ct_report_json_sample(run->sync)));
    if (run->sync == CT_SYNC_BATCH)
        bad |= ct_json_set(timing, "batch", ct_report_batch_rule(run->opts));
    bad |= ct_json_set(timing, "floor_us", ct_json_real(run->floor_us));
    bad |= ct_json_set(timing, "rank_aggregation",
                       ct_json_str(ct_options_rank_agg_name(run->opts->rank_agg)));
    bad |= ct_json_set(timing, "statistic", ct_json_str("median of samples"));

    bad |=
        ct_json_set(doc, "schema", ct_json_str("colltune-results/" CT_STRINGIFY(CT_RESULT_SCHEMA)));
    bad |= ct_json_set(doc, "run_id", ct_json_str(run->ident->run_id));
    bad |= ct_json_set(doc, "start_time", ct_json_str(run->ident->start_time));
    bad |= ct_json_set(doc, "end_time", ct_json_str(end_time));
    bad |= ct_json_set(doc, "status",
                       ct_json_str(run_status == CT_OK          ? "ok"
                                   : run_status == CT_ERR_WRONG ? "wrong"
                                                                : "refused"));
    bad |= ct_json_set(doc, "command_line", argv);
    bad |= ct_json_set(doc, "colltune", tool);
    bad |=
        ct_json_set(doc, "mpi_library_version", ct_json_str(ct_world_library_version(run->world)));
    bad |= ct_json_set(doc, "ucx_version", ct_json_str(transport.ucx_version));
    bad |= ct_json_set(doc, "transport", ct_report_transport(&transport));
    bad |= ct_json_set(doc, "backend", backend);
    bad |= ct_json_set(doc, "nranks", json_integer(ct_world_size(run->world)));
    bad |= ct_json_set(doc, "nnodes",
                       json_integer(ct_backend_nnodes(run->ops, run->backend_ctx, run->world)));
    bad |= doc == NULL || ct_report_hosts(doc, run->ranks, ct_world_size(run->world));
    bad |= ct_report_placement(doc, run->ranks, ct_world_size(run->world));
    bad |= ct_json_set(doc, "config_id", ct_json_str(run->ident->config_id));
    bad |= ct_json_set(doc, "environment", ct_report_environment(run->env));
    bad |= ct_json_set(doc, "fingerprint", ct_report_fingerprint(run->fingerprint));
    if (run->opts->cvars)
        bad |= ct_json_set(doc, "cvars", ct_report_cvars(run->cvars));
    if (run->configs)
        bad |= ct_json_set(doc, "configs", ct_report_configs(run->configs));
    bad |= ct_json_set(doc, "options", ct_report_options(run->opts));
    bad |= ct_json_set(doc, "timing", timing);
    bad |= ct_json_set(doc, "results", json_incref(j->results));
    bad |= ct_json_set(doc, "refused", json_incref(j->refused));
    if (j->pairs)
        bad |= ct_json_set(doc, "pairs", json_incref(j->pairs));
    if (j->shapes)
        bad |= ct_json_set(doc, "shapes", json_incref(j->shapes));
    if (bad) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

static int ct_json_wanted(const ct_options_t *opts) { return opts->json_path != NULL; }

static ct_status_t ct_json_open(const ct_report_run_t *run, ct_report_files_t *files,
                                void **state_p)
{
    const ct_path_target_t *t = NULL;
    ct_json_report_t *j;

    if (strcmp(run->opts->json_path, "-") == 0) {
        fprintf(stderr, "collbench: error: --json -: the JSON is written to a file only "
                        "(--csv - streams rows to stdout)\n");
        return CT_ERR_USAGE;
    }
    if (ct_report_claim(files, "--json", run->opts->json_path, &t) != CT_OK)
        return CT_ERR_USAGE;
    j = calloc(1, sizeof *j);
    if (j == NULL || (j->results = json_array()) == NULL || (j->refused = json_array()) == NULL) {
        if (j)
            json_decref(j->results);
        free(j);
        return CT_ERR_NOMEM;
    }
    j->run = run;
    j->path = run->opts->json_path;
    j->target = *t;
    *state_p = j;
    return CT_OK;
}

/* --shapes: the next rows' ranks are the shape's (per_host maps its rank
 * order to hosts), and "shapes" lists it: {"nnodes", "ranks_per_node",
 * "nranks", "ranks" (world ranks)}. */
static ct_status_t ct_json_shape(void *state, const ct_report_shape_t *shape)
{
    ct_json_report_t *j = state;
    ct_rankinfo_t *mine = calloc((size_t)shape->nranks, sizeof *mine);
    json_t *o = json_object(), *ranks = json_array();
    int bad = mine == NULL || (j->shapes == NULL && (j->shapes = json_array()) == NULL);

    for (int i = 0; i < shape->nranks && !bad; i++) {
        mine[i] = j->run->ranks[shape->world_ranks[i]];
        bad |= ct_json_append(ranks, json_integer(shape->world_ranks[i]));
    }
    bad |= ct_json_set(o, "nnodes", json_integer(shape->shape.nnodes));
    bad |= ct_json_set(o, "ranks_per_node", json_integer(shape->shape.ranks_per_node));
    bad |= ct_json_set(o, "nranks", json_integer(shape->nranks));
    bad |= ct_json_set(o, "ranks", ranks);
    if (bad)
        json_decref(o);
    else
        bad = ct_json_append(j->shapes, o) != 0;
    if (bad) {
        free(mine);
        fprintf(stderr, "collbench: error: --json %s: out of memory keeping the shapes\n", j->path);
        return CT_ERR_NOMEM;
    }
    free(j->shape_ranks);
    j->shape_ranks = mine;
    j->shape_n = shape->nranks;
    j->shape_rpn = shape->shape.ranks_per_node;
    return CT_OK;
}

static ct_status_t ct_json_pair(void *state, const ct_report_pair_t *pair)
{
    ct_json_report_t *j = state;
    if (j->pairs == NULL && (j->pairs = json_array()) == NULL)
        return CT_ERR_NOMEM;
    j->pair = *pair;
    for (int h = 0; h < 2; h++) {
        snprintf(j->pair_hosts[h], sizeof j->pair_hosts[h], "%s", pair->hosts[h]);
        j->pair.hosts[h] = j->pair_hosts[h];
    }
    j->pair.round_line = NULL;
    return CT_OK;
}

/* The pair a row belongs to, and its short entry for "pairs". */
static int ct_json_pair_row(ct_json_report_t *j, json_t *o, const ct_result_t *r)
{
    json_t *p = json_object(), *hosts = json_array(), *tag = json_object(),
           *tag_hosts = json_array();
    int bad = 0;
    for (int h = 0; h < 2; h++) {
        bad |= ct_json_append(hosts, ct_json_str(j->pair.hosts[h]));
        bad |= ct_json_append(tag_hosts, ct_json_str(j->pair.hosts[h]));
    }
    bad |= ct_json_set(p, "round", json_integer(j->pair.round));
    bad |= ct_json_set(p, "hosts", hosts);
    bad |= ct_json_set(p, "collective", ct_json_str(r->collective));
    bad |= ct_json_set(p, "placement", ct_json_str(r->placement));
    bad |= ct_json_set(p, "dtype", ct_json_str(r->dtype));
    bad |= ct_json_set(p, "op", ct_json_str(r->op));
    bad |= ct_json_set(p, "nranks", json_integer(r->nranks));
    bad |= ct_json_set(p, "bytes", json_integer(r->bytes));
    bad |= ct_json_set(p, "median_us", ct_json_real(r->median_us));
    bad |= ct_json_set(p, "busbw_gbps", ct_json_real(r->busbw_gbps));
    bad |= ct_json_set(p, "wrong", r->wrong < 0 ? json_null() : json_integer(r->wrong));
    bad |= ct_json_append(j->pairs, p);
    bad |= ct_json_set(tag, "round", json_integer(j->pair.round));
    bad |= ct_json_set(tag, "hosts", tag_hosts);
    bad |= ct_json_set(o, "pair", tag);
    return bad;
}

static ct_status_t ct_json_row(void *state, const ct_report_row_t *row)
{
    ct_json_report_t *j = state;
    json_t *o = j->shape_n ? ct_report_row(j->shape_ranks, j->shape_n, j->shape_rpn, row)
                           : ct_report_row(j->run->ranks, ct_world_size(j->run->world), 0, row);
    if (o && j->pairs && ct_json_pair_row(j, o, row->result) != 0) {
        json_decref(o);
        o = NULL;
    }
    if (o == NULL || ct_json_append(j->results, o) != 0) {
        fprintf(stderr, "collbench: error: --json %s: out of memory keeping the rows\n", j->path);
        return CT_ERR_NOMEM;
    }
    return CT_OK;
}

/* "refused": [{"collective", "dtype", "op", "config" (null without
 * --config), "config_id", "label" (--config only), "bytes", "message"}]. */
static ct_status_t ct_json_refused(void *state, const ct_report_refusal_t *r)
{
    ct_json_report_t *j = state;
    json_t *o = json_object();
    int bad = o == NULL;
    bad |= ct_json_set(o, "collective", ct_json_str(r->coll->name));
    bad |= ct_json_set(o, "dtype", ct_json_str(r->dtype));
    bad |= ct_json_set(o, "op", ct_json_str(r->op));
    bad |= ct_json_set(o, "config", r->config >= 0 ? json_integer(r->config) : json_null());
    bad |= ct_json_set(o, "config_id", ct_json_str(r->config_id));
    if (r->config_label)
        bad |= ct_json_set(o, "label", ct_json_str(r->config_label));
    bad |= ct_json_set(o, "bytes", json_integer(r->bytes));
    bad |= ct_json_set(o, "message", ct_json_str(r->message));
    if (bad || ct_json_append(j->refused, o) != 0) {
        if (bad)
            json_decref(o);
        fprintf(stderr, "collbench: error: --json %s: out of memory keeping the refusals\n",
                j->path);
        return CT_ERR_NOMEM;
    }
    return CT_OK;
}

/* Writes text beside the target and renames it on (ct_outfile); the
 * temporary is removed on any failure.  Runs with the ending signals
 * blocked (see the top). */
static ct_status_t ct_json_commit(ct_json_report_t *j, const char *text)
{
    ct_outfile_t o;
    char err[8800];
    ct_status_t st = ct_outfile_open(&o, j->target.path, 0666, err, sizeof err);
    if (st == CT_OK) {
        /* A replaced file keeps its permissions. */
        if (j->target.exists)
            (void)fchmod(fileno(o.fp), j->target.st.st_mode & 07777);
        (void)fputs(text, o.fp); /* an error stays in ferror: the commit sees it */
        st = ct_outfile_commit(&o, err, sizeof err);
    }
    if (st != CT_OK) {
        fprintf(stderr, "collbench: error: --json %s: %s\n", j->path, err);
        return CT_ERR_IO;
    }
    return CT_OK;
}

static ct_status_t ct_json_end(void *state, ct_status_t run_status)
{
    ct_json_report_t *j = state;
    sigset_t ending, saved;

    json_t *doc = ct_report_body(j, run_status);
    char *text = doc ? json_dumps(doc, JSON_INDENT(2)) : NULL;
    json_decref(doc);
    if (text == NULL) {
        fprintf(stderr, "collbench: error: --json %s: out of memory building the document\n",
                j->path);
        return CT_ERR_NOMEM;
    }
    /* jansson ends without a newline; a text file has one. */
    size_t len = strlen(text);
    char *line = realloc(text, len + 2);
    if (line == NULL) {
        free(text);
        return CT_ERR_NOMEM;
    }
    line[len] = '\n';
    line[len + 1] = '\0';

    sigemptyset(&ending);
    sigaddset(&ending, SIGTERM);
    sigaddset(&ending, SIGINT);
    sigaddset(&ending, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &ending, &saved);
    ct_status_t st = ct_json_commit(j, line);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    free(line);
    return st;
}

static void ct_json_free(void *state)
{
    ct_json_report_t *j = state;
    json_decref(j->results);
    json_decref(j->refused);
    json_decref(j->pairs);
    json_decref(j->shapes);
    free(j->shape_ranks);
    free(j);
}

const ct_report_ops_t ct_report_json = {
    .name = "json",
    .wanted = ct_json_wanted,
    .open = ct_json_open,
    .row = ct_json_row,
    .refused = ct_json_refused,
    .pair = ct_json_pair,
    .shape = ct_json_shape,
    .end = ct_json_end,
    .close = ct_json_free,
    .abort = ct_json_free,
};
