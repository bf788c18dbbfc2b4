/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "engine.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ct_clock.h"
#include "sizes.h"

/* One collective x dtype x op, with the sizes it will run. */
typedef struct {
    const ct_coll_desc_t *coll;
    ct_dtype_t dtype;
    ct_op_t op;
    size_t *sizes;
    size_t nsizes;
} ct_task_t;

typedef struct {
    ct_task_t *tasks;
    size_t ntasks;
    size_t total_steps;
    char rounded[512]; /* what was rounded down (D7), for one note per run */
} ct_plan_t;

typedef struct {
    double start_us;
    double last_print_us;
    size_t done;
    size_t total;
} ct_progress_t;

void ct_engine_utc_now(char *buf, size_t buflen)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, buflen, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void ct_plan_free(ct_plan_t *plan)
{
    for (size_t i = 0; i < plan->ntasks; i++)
        free(plan->tasks[i].sizes);
    free(plan->tasks);
    memset(plan, 0, sizeof *plan);
}

/* Adds coll x dtype x op when the backend can run it; with "-d all" or
 * "-o all" an unsupported pair is skipped, otherwise it is an error. */
static ct_status_t ct_plan_add(ct_engine_t *e, ct_plan_t *plan, const size_t *sizes, size_t n,
                               const ct_coll_desc_t *coll, ct_dtype_t dtype, ct_op_t op, char *err,
                               size_t errlen)
{
    const ct_options_t *o = e->opts;
    int nranks = ct_world_size(e->world);
    char why[256];

    if (e->ops->supports(e->ctx, coll, dtype, op, why, sizeof why) != CT_OK) {
        if (o->dtypes_all || (o->ops_all && coll->uses_op))
            return CT_OK;
        snprintf(err, errlen, "%s %s%s%s: %s", coll->name, ct_dtype_name(dtype),
                 coll->uses_op ? " " : "", coll->uses_op ? ct_op_name(op) : "", why);
        return CT_ERR_USAGE;
    }
    ct_task_t t = {.coll = coll, .dtype = dtype, .op = op};
    ct_sweep_notes_t notes;
    t.sizes = malloc(n * sizeof *t.sizes);
    if (t.sizes == NULL)
        return CT_ERR_NOMEM;
    ct_sweep_target_t target = {coll, dtype, nranks, e->ops->max_count, e->ops->max_count_why};
    ct_status_t st = ct_sweep_filter(sizes, n, &target, t.sizes, &t.nsizes, &notes, err, errlen);
    if (st != CT_OK) {
        free(t.sizes);
        return st;
    }
    if (notes.skipped && e->reports && !o->quiet)
        fprintf(stderr, "collbench: %s %s: %zu size(s) below one element per rank skipped\n",
                coll->name, ct_dtype_name(dtype), notes.skipped);
    ct_sweep_note_rounded(plan->rounded, sizeof plan->rounded, &target, &notes);
    ct_task_t *grown = realloc(plan->tasks, (plan->ntasks + 1) * sizeof *grown);
    if (grown == NULL) {
        free(t.sizes);
        return CT_ERR_NOMEM;
    }
    plan->tasks = grown;
    plan->tasks[plan->ntasks++] = t;
    plan->total_steps += t.nsizes;
    return CT_OK;
}

static ct_status_t ct_plan_build(ct_engine_t *e, ct_plan_t *plan, char *err, size_t errlen)
{
    const ct_options_t *o = e->opts;
    size_t *sizes = NULL, n = 0;
    ct_status_t st = ct_sweep_sizes(o, &sizes, &n, err, errlen);

    memset(plan, 0, sizeof *plan);
    for (int c = 0; st == CT_OK && c < o->ncolls; c++) {
        const ct_coll_desc_t *coll = o->colls[c];
        if (coll->uses_root && o->root >= ct_world_size(e->world)) {
            snprintf(err, errlen, "-r %d: the root must be a rank below %d", o->root,
                     ct_world_size(e->world));
            st = CT_ERR_USAGE;
            break;
        }
        for (int d = 0; st == CT_OK && d < o->ndtypes; d++) {
            int nops = coll->uses_op ? o->nops : 1;
            for (int k = 0; st == CT_OK && k < nops; k++)
                st = ct_plan_add(e, plan, sizes, n, coll, o->dtypes[d],
                                 coll->uses_op ? o->ops[k] : CT_OP_SUM, err, errlen);
        }
    }
    free(sizes);
    if (st == CT_OK && plan->ntasks == 0) {
        snprintf(err, errlen, "-d/-o: the %s backend supports none of the requested types/ops",
                 e->ops->name);
        st = CT_ERR_USAGE;
    }
    if (st == CT_OK && plan->rounded[0] && e->reports && !o->quiet)
        fprintf(stderr,
                "collbench: note: sizes that do not divide into whole elements per rank at %d "
                "ranks were rounded down, as nccl-tests does: %s\n",
                ct_world_size(e->world), plan->rounded);
    if (st != CT_OK)
        ct_plan_free(plan);
    return st;
}

/* Memory is per host, so each rank checks its own and all agree. */
static ct_status_t ct_plan_check_memory(ct_engine_t *e, const ct_plan_t *plan)
{
    size_t need = 0, avail = 0;
    ct_status_t st = CT_OK;
    char err[512];

    for (size_t i = 0; i < plan->ntasks; i++) {
        const ct_task_t *t = &plan->tasks[i];
        size_t b = ct_sweep_rank_bytes(t->coll, t->sizes[t->nsizes - 1], t->dtype,
                                       ct_world_size(e->world), !e->ops->host_memory);
        need = b > need ? b : need;
    }
    if (ct_sweep_host_memory(&avail) == CT_OK)
        st = ct_sweep_check_memory(need, ct_world_local_size(e->world), avail, err, sizeof err);
    if (st != CT_OK && ct_world_local_rank(e->world) == 0)
        fprintf(stderr, "collbench: error: %s (host %s)\n", err, ct_world_hostname(e->world));
    long long failed = st != CT_OK;
    ct_world_allreduce_long(e->world, &failed, 1, CT_REDUCE_MAX);
    return failed ? CT_ERR_USAGE : CT_OK;
}

typedef struct {
    void *send, *recv;           /* backend buffers */
    void *host_send, *host_recv; /* staging, or the same as send/recv */
    size_t send_bytes, recv_bytes;
} ct_buffers_t;

static void ct_buffers_free(ct_engine_t *e, ct_buffers_t *b)
{
    if (!e->ops->host_memory) {
        free(b->host_send);
        free(b->host_recv);
    }
    if (b->send)
        e->ops->free(e->ctx, b->send);
    if (b->recv)
        e->ops->free(e->ctx, b->recv);
    memset(b, 0, sizeof *b);
}

/* Buffers for the task's largest size (ct_sweep_buffer_bytes says why the
 * receive buffer may exceed the output). */
static ct_status_t ct_buffers_alloc(ct_engine_t *e, const ct_task_t *t, ct_buffers_t *b)
{
    ct_status_t st;

    memset(b, 0, sizeof *b);
    ct_sweep_buffer_bytes(t->coll, t->sizes[t->nsizes - 1], t->dtype, ct_world_size(e->world),
                          &b->send_bytes, &b->recv_bytes);
    st = e->ops->alloc(e->ctx, b->send_bytes, &b->send);
    if (st == CT_OK)
        st = e->ops->alloc(e->ctx, b->recv_bytes, &b->recv);
    if (st == CT_OK && e->ops->host_memory) {
        b->host_send = b->send;
        b->host_recv = b->recv;
    } else if (st == CT_OK) {
        b->host_send = malloc(b->send_bytes ? b->send_bytes : 1);
        b->host_recv = malloc(b->recv_bytes ? b->recv_bytes : 1);
        if (!b->host_send || !b->host_recv)
            st = CT_ERR_NOMEM;
    }
    if (st != CT_OK)
        ct_buffers_free(e, b);
    return st;
}

/* The backend call for one placement, and where its input and output sit
 * (in elements from the buffers' starts). */
typedef struct {
    ct_backend_call_t call;
    size_t in_offset;
    size_t out_offset;
} ct_placed_call_t;

static void ct_place_call(ct_engine_t *e, const ct_task_t *t, const ct_coll_counts_t *c,
                          const ct_buffers_t *b, int in_place, ct_placed_call_t *pc)
{
    size_t ts = ct_dtype_size(t->dtype);
    ct_coll_inplace_t layout = {0, 0};

    memset(pc, 0, sizeof *pc);
    if (in_place) {
        if (e->ops->inplace)
            e->ops->inplace(t->coll, c, ct_world_rank(e->world), &layout);
        else
            t->coll->inplace(c, ct_world_rank(e->world), &layout);
    }
    pc->in_offset = layout.send_offset;
    pc->out_offset = layout.recv_offset;
    pc->call.coll = t->coll;
    pc->call.counts = c;
    pc->call.in_place = in_place;
    pc->call.dtype = t->dtype;
    pc->call.op = t->op;
    pc->call.root = e->opts->root;
    pc->call.recv = (char *)b->recv + layout.recv_offset * ts;
    pc->call.send = in_place ? (char *)b->recv + layout.send_offset * ts : b->send;
}

/* Fills inputs, runs once, checks outputs; returns wrong elements summed
 * over ranks.  Output buffers are first set to 0xff bytes (NaN or -1,
 * never a pattern value) so a call that writes nothing is caught.  One
 * agreement carries the wrong count and whether each rank failed or was
 * refused (ct_measure_agreed). */
static ct_status_t ct_validate(ct_engine_t *e, const ct_task_t *t, const ct_coll_counts_t *c,
                               const ct_buffers_t *b, const ct_placed_call_t *pc,
                               long long *wrong_p)
{
    size_t ts = ct_dtype_size(t->dtype);
    ct_coll_data_t data = {t->dtype, t->op, e->opts->root, ct_world_rank(e->world),
                           ct_world_size(e->world)};
    int in_place = pc->call.in_place;
    void *in_host = in_place ? (char *)b->host_recv + pc->in_offset * ts : b->host_send;
    void *out_host = (char *)b->host_recv + pc->out_offset * ts;
    size_t region = in_place ? b->recv_bytes : c->recv_count * ts;
    ct_status_t st = CT_OK;

    memset(b->host_recv, 0xff, region);
    t->coll->fill_send(in_host, c, &data);
    if (!e->ops->host_memory) {
        st = e->ops->upload(e->ctx, b->recv, b->host_recv, region);
        if (st == CT_OK && !in_place)
            st = e->ops->upload(e->ctx, b->send, b->host_send, c->send_count * ts);
    }
    ct_world_barrier(e->world);
    if (st == CT_OK)
        st = e->ops->run(e->ctx, &pc->call);
    if (st == CT_OK)
        st = e->ops->wait(e->ctx);
    if (st == CT_OK && e->ops->settle)
        st = e->ops->settle(e->ctx, &pc->call);
    if (st == CT_OK && !e->ops->host_memory)
        st = e->ops->download(e->ctx, out_host, pc->call.recv, c->recv_count * ts);
    long long wrong = st == CT_OK ? (long long)t->coll->check_recv(out_host, c, &data) : 0;
    long long agg[3] = {wrong, st != CT_OK, st != CT_ERR_REFUSED};
    ct_world_allreduce_long(e->world, agg, 3, CT_REDUCE_SUM);
    *wrong_p = agg[0];
    return ct_measure_agreed(e->world, e->ops, e->ctx, st, agg[1] != 0, agg[2] == 0);
}

static void ct_engine_fill_result(ct_engine_t *e, const ct_task_t *t, const ct_coll_counts_t *c,
                                  int in_place, const ct_measurement_t *m, long long wrong,
                                  ct_result_t *r)
{
    int nranks = ct_world_size(e->world);
    memset(r, 0, sizeof *r);
    snprintf(r->run_id, sizeof r->run_id, "%s", e->ident->run_id);
    ct_engine_utc_now(r->time, sizeof r->time);
    snprintf(r->backend, sizeof r->backend, "%s", e->ops->name);
    snprintf(r->collective, sizeof r->collective, "%s", t->coll->name);
    snprintf(r->placement, sizeof r->placement, "%s", in_place ? "in-place" : "out-of-place");
    snprintf(r->dtype, sizeof r->dtype, "%s", ct_dtype_name(t->dtype));
    snprintf(r->op, sizeof r->op, "%s", t->coll->uses_op ? ct_op_name(t->op) : "none");
    r->root = t->coll->uses_root ? e->opts->root : -1;
    r->nranks = nranks;
    r->nnodes = ct_backend_nnodes(e->ops, e->ctx, e->world);
    r->bytes = (long long)c->bytes;
    r->count = (long long)c->row_count;
    r->iterations = m->iterations;
    r->median_us = m->stats.median;
    r->p10_us = m->stats.p10;
    r->p90_us = m->stats.p90;
    r->min_us = m->stats.min;
    r->max_us = m->stats.max;
    /* GB/s with 1 GB = 1e9 B, time in µs: bytes / (t * 1e3). */
    r->algbw_gbps = m->stats.median > 0 ? (double)c->bytes / (m->stats.median * 1e3) : 0.0;
    r->busbw_gbps = r->algbw_gbps * t->coll->busbw_factor(nranks);
    r->wrong = wrong;
    snprintf(r->config_id, sizeof r->config_id, "%s", e->ident->config_id);
    snprintf(r->sync, sizeof r->sync, "%s", ct_options_sync_name(m->sync));
    r->samples = (long long)m->stats.n;
    r->converged = m->converged != 0;
    r->ci_low_us = m->stats.ci_low;
    r->ci_high_us = m->stats.ci_high;
    r->late = m->late;
    r->slowest_rank_median_us = m->rank_median_max;
}

static void ct_progress_step(ct_engine_t *e, ct_progress_t *p, const ct_task_t *t, size_t bytes)
{
    double now = ct_clock_now_us();
    p->done++;
    if (e->reports == NULL || e->opts->quiet)
        return;
    double elapsed = (now - p->start_us) * 1e-6;
    /* Short sweeps stay silent; long ones report at most once a second. */
    if (elapsed < 2.0 || (now - p->last_print_us) < 1e6)
        return;
    p->last_print_us = now;
    double eta = elapsed / (double)p->done * (double)(p->total - p->done);
    fprintf(stderr, "collbench: %s %s %zu B done (%zu/%zu), elapsed %.1f s, ETA %.0f s\n",
            t->coll->name, ct_dtype_name(t->dtype), bytes, p->done, p->total, elapsed, eta);
}

/* Whether every output is still fine: rank 0 alone knows, and all ranks
 * must stop together (exit 3) when one failed. */
static ct_status_t ct_engine_reports_agree(ct_engine_t *e)
{
    long long failed = ct_reports_status(e->reports) != CT_OK;
    ct_world_allreduce_long(e->world, &failed, 1, CT_REDUCE_MAX);
    return failed ? CT_ERR_IO : CT_OK;
}

/* Measures one size of configuration k (configs.h; 0 without --config) in
 * both placements, on k's backend context, and reports each as a row. */
static ct_status_t ct_engine_placements(const ct_engine_t *e, const ct_task_t *t,
                                        const ct_buffers_t *b, const ct_coll_counts_t *c, int k,
                                        long long *wrong_p)
{
    ct_engine_t ek = *e;
    ek.ctx = ct_configs_ctx(e->configs, k, e->ctx);
    ct_measure_env_t env = {e->world, e->ops, ek.ctx, e->opts, e->sync, e->clock};
    const ct_config_run_t *cfg = e->configs ? &e->configs->v[k] : NULL;
    /* MPICH reads its algorithm variables at each call: k's in force for
     * its checks and timed calls (the engine's own small collectives in
     * between get them too; MPICH falls back from a forced algorithm that
     * cannot run unless MPIR_CVAR_COLLECTIVE_FALLBACK=error). */
    ct_status_t st = ct_configs_enter(e->configs, k);

    for (int in_place = 0; in_place < 2 && st == CT_OK; in_place++) {
        ct_placed_call_t pc;
        ct_measurement_t m;
        ct_result_t r;
        long long wrong = -1;
        ct_place_call(&ek, t, c, b, in_place, &pc);
        int checks =
            in_place && (e->ops->inplace_unchecked & (1u << t->coll->id)) ? 0 : e->opts->check;
        for (int v = 0; v < checks && st == CT_OK; v++) {
            long long w = 0;
            st = ct_validate(&ek, t, c, b, &pc, &w);
            wrong = (wrong < 0 ? 0 : wrong) + w;
        }
        if (st == CT_OK)
            st = ct_measure_call(&env, &pc.call, &m);
        if (st != CT_OK)
            break;
        ct_engine_fill_result(&ek, t, c, in_place, &m, wrong, &r);
        if (cfg)
            snprintf(r.config_id, sizeof r.config_id, "%s", cfg->config_id);
        *wrong_p += wrong > 0 ? wrong : 0;
        /* Each rank's own median to rank 0, for the per-host summaries:
         * one double per rank, outside the timed region. */
        ct_world_gather(e->world, &m.own_median, sizeof m.own_median, e->rank_medians, 0);
        /* Inside the watchdog: an output that blocks is a hang too. */
        ct_report_row_t row = {&r, &m, in_place, e->rank_medians, k, cfg ? cfg->label : NULL};
        ct_reports_row(e->reports, &row);
    }
    ct_status_t lst = ct_configs_leave(e->configs, k);
    return st != CT_OK ? st : lst;
}

/* Rank 0: configuration k refused the task at bytes (every rank agreed):
 * one stderr line, whatever --quiet says (a collective is missing from
 * the results), and the outputs' record of it.  The library's reason goes
 * on one line, as the table's comment and the CSV-minded readers of
 * stderr need. */
static void ct_engine_refused(const ct_engine_t *e, const ct_task_t *t, int k, size_t bytes)
{
    const ct_config_run_t *cfg = e->configs ? &e->configs->v[k] : NULL;
    char msg[512] = "", name[160];

    if (e->reports == NULL)
        return;
    if (e->ops->refusal)
        e->ops->refusal(ct_configs_ctx(e->configs, k, e->ctx), msg, sizeof msg);
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    for (size_t n = strlen(msg); n > 0 && msg[n - 1] == ' ';)
        msg[--n] = '\0';
    if (msg[0] == '\0')
        snprintf(msg, sizeof msg, "(the library gave no reason)");
    int n = snprintf(name, sizeof name, "%s %s%s%s", t->coll->name, ct_dtype_name(t->dtype),
                     t->coll->uses_op ? " " : "", t->coll->uses_op ? ct_op_name(t->op) : "");
    if (cfg && n > 0 && (size_t)n < sizeof name)
        snprintf(name + n, sizeof name - (size_t)n, " (configuration %d)", k);
    fprintf(stderr, "collbench: %s: refused at %zu B: %s\n", name, bytes, msg);
    ct_report_refusal_t r = {
        .coll = t->coll,
        .dtype = ct_dtype_name(t->dtype),
        .op = t->coll->uses_op ? ct_op_name(t->op) : "none",
        .config = cfg ? k : -1,
        .config_id = cfg ? cfg->config_id : e->ident->config_id,
        .config_label = cfg ? cfg->label : NULL,
        .bytes = (long long)bytes,
        .message = msg,
    };
    ct_reports_refused(e->reports, &r);
}

/* Measures one size, every configuration in turn (0, 1, ...), so that
 * configurations interleave across sizes; -T bounds each one's.  A
 * --config-for of another collective is not measured here.  A
 * configuration whose call the library refused on every rank is reported
 * once and marked in refused[k]: its later sizes are skipped, the other
 * configurations go on. */
static ct_status_t ct_engine_size(ct_engine_t *e, const ct_task_t *t, const ct_buffers_t *b,
                                  size_t bytes, unsigned char *refused, long long *wrong_p)
{
    ct_coll_counts_t c;
    char what[192];
    ct_status_t st = CT_OK;
    int nconfigs = e->configs ? e->configs->n : 1;

    t->coll->counts(bytes, ct_dtype_size(t->dtype), ct_world_size(e->world), &c);
    for (int k = 0; k < nconfigs && st == CT_OK; k++) {
        if (refused[k] || !ct_configs_measures(e->configs, k, t->coll))
            continue;
        int n =
            snprintf(what, sizeof what, "%s %s %s at %zu B", t->coll->name, ct_dtype_name(t->dtype),
                     t->coll->uses_op ? ct_op_name(t->op) : "none", bytes);
        if (e->configs && n > 0 && (size_t)n < sizeof what)
            snprintf(what + n, sizeof what - (size_t)n, " (configuration %d)", k);
        ct_watchdog_arm(e->watchdog, what);
        st = ct_engine_placements(e, t, b, &c, k, wrong_p);
        if (st == CT_ERR_REFUSED) {
            refused[k] = 1;
            ct_engine_refused(e, t, k, bytes); /* an output that blocks is a hang too */
            st = CT_OK;
        }
        ct_watchdog_disarm(e->watchdog);
    }
    if (st == CT_OK)
        st = ct_engine_reports_agree(e);
    return st;
}

/* One task, every size; *refused_p is set when some configuration refused
 * it (ct_engine_size). */
static ct_status_t ct_engine_task(ct_engine_t *e, const ct_task_t *t, int first_of_coll,
                                  int last_of_coll, long long *wrong_p, int *refused_p,
                                  ct_progress_t *progress)
{
    ct_buffers_t b;
    int nconfigs = e->configs ? e->configs->n : 1;
    unsigned char *refused = calloc((size_t)nconfigs, 1);
    ct_status_t st = refused ? ct_buffers_alloc(e, t, &b) : CT_ERR_NOMEM;
    long long failed = st != CT_OK;

    ct_world_allreduce_long(e->world, &failed, 1, CT_REDUCE_MAX);
    if (failed) {
        if (st == CT_OK)
            ct_buffers_free(e, &b);
        if (e->reports)
            fprintf(stderr, "collbench: %s: could not allocate buffers on every rank\n",
                    t->coll->name);
        free(refused);
        return st != CT_OK ? st : CT_ERR_NOMEM;
    }
    if (first_of_coll)
        ct_reports_coll_begin(e->reports, t->coll);
    for (size_t i = 0; i < t->nsizes && st == CT_OK; i++) {
        /* Every rank holds the same refused[] (the refusal was agreed). */
        int left = 0;
        for (int k = 0; k < nconfigs; k++)
            left += !refused[k] && ct_configs_measures(e->configs, k, t->coll);
        if (left)
            st = ct_engine_size(e, t, &b, t->sizes[i], refused, wrong_p);
        ct_progress_step(e, progress, t, t->sizes[i]);
    }
    for (int k = 0; k < nconfigs; k++)
        *refused_p |= refused[k];
    if (last_of_coll && st == CT_OK) {
        ct_reports_coll_end(e->reports, t->coll);
        st = ct_engine_reports_agree(e);
    }
    ct_buffers_free(e, &b);
    free(refused);
    return st;
}

ct_status_t ct_engine_run(ct_engine_t *e)
{
    ct_plan_t plan;
    char err[512] = "";
    /* Every rank reaches the same plan verdict from the same argv, so rank
     * 0 speaks for all; memory is checked per host and reported there. */
    ct_status_t st;

    ct_reports_begin(e->reports);
    st = ct_engine_reports_agree(e);
    if (st != CT_OK)
        return st;
    st = ct_plan_build(e, &plan, err, sizeof err);
    if (st == CT_OK) {
        st = ct_plan_check_memory(e, &plan);
        if (st != CT_OK)
            ct_plan_free(&plan);
    }
    if (st != CT_OK) {
        if (e->reports && err[0])
            fprintf(stderr, "collbench: error: %s\n", err);
        return st;
    }

    if (ct_world_rank(e->world) == 0 &&
        (e->rank_medians = calloc((size_t)ct_world_size(e->world), sizeof(double))) == NULL) {
        /* The others would wait in the first gather: end them too. */
        fprintf(stderr, "collbench: out of memory for the per-rank medians\n");
        ct_world_abort(e->world, CT_EXIT_FAILURE);
    }
    ct_progress_t progress = {ct_clock_now_us(), 0.0, 0, plan.total_steps};
    long long wrong_total = 0;
    int refused = 0;
    /* Tasks of one collective are adjacent; they share a table and footer. */
    for (size_t i = 0, end; i < plan.ntasks && st == CT_OK; i = end) {
        for (end = i; end < plan.ntasks && plan.tasks[end].coll == plan.tasks[i].coll; end++)
            ;
        for (size_t j = i; j < end && st == CT_OK; j++)
            st = ct_engine_task(e, &plan.tasks[j], j == i, j + 1 == end, &wrong_total, &refused,
                                &progress);
    }
    ct_plan_free(&plan);
    free(e->rank_medians);
    e->rank_medians = NULL;
    /* Exit precedence: a failure (3), then wrong results (1), then a
     * refusal (4). */
    if (st == CT_OK && wrong_total > 0)
        st = CT_ERR_WRONG;
    else if (st == CT_OK && refused)
        st = CT_ERR_REFUSED;
    return ct_engine_end_reports(e->reports, e->watchdog, st);
}

ct_status_t ct_engine_end_reports(ct_reports_t *reports, ct_watchdog_t *watchdog, ct_status_t st)
{
    if (st != CT_OK && st != CT_ERR_WRONG && st != CT_ERR_REFUSED)
        return st;
    ct_watchdog_arm(watchdog, "writing the output files");
    ct_status_t rst = ct_reports_end(reports, st);
    ct_watchdog_disarm(watchdog);
    return rst != CT_OK ? rst : st;
}
