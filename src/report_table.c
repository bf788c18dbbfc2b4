/* SPDX-License-Identifier: BSD-3-Clause */
#include "report_table.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "rankinfo.h"
#include "report.h"

void ct_table_number(double value, int width, char *buf, size_t buflen)
{
    int digits = 0;
    for (double v = 1.0; value >= v && digits < 40; v *= 10.0)
        digits++;
    if (digits < width - 2)
        snprintf(buf, buflen, "%*.2f", width, value);
    else if (digits < width - 1)
        snprintf(buf, buflen, "%*.1f", width, value);
    else if (digits < width + 1)
        snprintf(buf, buflen, "%*.0f", width, value);
    else if (width >= 7)
        snprintf(buf, buflen, "%*.1e", width, value);
    else
        snprintf(buf, buflen, "%*.0e", width, value);
}

void ct_table_header(FILE *fp)
{
    fprintf(fp, "#\n");
    fprintf(fp,
            "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place     "
            "     \n",
            "", "", "", "", "");
    fprintf(fp, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "size",
            "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw",
            "busbw", "#wrong");
    fprintf(fp, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "(B)",
            "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)",
            "");
}

static void ct_table_half(FILE *fp, const ct_table_half_t *h)
{
    char t[32], a[32], b[32];
    ct_table_number(h->time_us, 7, t, sizeof t);
    ct_table_number(h->algbw_gbps, 6, a, sizeof a);
    ct_table_number(h->busbw_gbps, 6, b, sizeof b);
    if (h->wrong >= 0)
        fprintf(fp, "  %7s  %6s  %6s  %6g", t, a, b, (double)h->wrong);
    else
        fprintf(fp, "  %7s  %6s  %6s    N/A", t, a, b);
}

void ct_table_row(FILE *fp, const ct_table_row_t *row)
{
    fprintf(fp, "%12zu  %12zu  %8s  %6s  %6i", row->bytes, row->count, row->dtype, row->op,
            row->root);
    ct_table_half(fp, &row->out_of_place);
    ct_table_half(fp, &row->in_place);
    fputc('\n', fp);
}

void ct_table_footer(FILE *fp, long long out_of_bounds, double avg_busbw)
{
    fprintf(fp, "# %-20s : %lld %s\n", "Out of bounds values", out_of_bounds,
            out_of_bounds ? "FAILED" : "OK");
    fprintf(fp, "# %-20s : %g \n", "Avg bus bandwidth", avg_busbw);
    fprintf(fp, "#\n");
}

/* ---- The table as a report ---- */

typedef struct {
    const ct_report_run_t *run;
    FILE *fp; /* stdout, or stderr when the CSV streams to stdout */
    const char *fp_name;
    ct_table_row_t line; /* the size being reported: out-of-place waits here */
    long long wrong;     /* footer: out-of-bounds values of the collective */
    double busbw_sum;    /* footer: average bus bandwidth */
    int busbw_n;
} ct_table_report_t;

static int ct_table_wanted(const ct_options_t *opts) { return !opts->no_table; }

/* stdout and stderr are not ours to check: only a write to them can fail. */
static ct_status_t ct_table_open(const ct_report_run_t *run, ct_report_files_t *files,
                                 void **state_p)
{
    const char *csv = run->opts->csv_path;
    ct_table_report_t *t = calloc(1, sizeof *t);
    (void)files;
    if (t == NULL)
        return CT_ERR_NOMEM;
    t->run = run;
    /* With --csv - stdout carries the CSV alone, so a pipe reads clean rows. */
    int to_stderr = csv && strcmp(csv, "-") == 0;
    t->fp = to_stderr ? stderr : stdout;
    t->fp_name = to_stderr ? "stderr" : "stdout";
    *state_p = t;
    return CT_OK;
}

static ct_status_t ct_table_flush(ct_table_report_t *t)
{
    errno = 0;
    if (fflush(t->fp) != 0 || ferror(t->fp))
        return ct_report_io_error("the table on", t->fp_name, "write failed", errno ? errno : EIO);
    return CT_OK;
}

/* A placement warning (rankinfo.h) as a preamble line: a pinning mistake
 * shows where the numbers are read, not only in the JSON. */
static void ct_table_warning(const char *line, void *fp)
{
    fprintf(fp, "# Placement warning: %s\n", line);
}

/* The -a reduction in words: a reader comparing the table with
 * nccl-tests' (default -a 1, the average) must see which one it holds. */
static const char *ct_table_rank_reduction(ct_rank_agg_t agg)
{
    switch (agg) {
    case CT_AGG_RANK0: return "rank 0's time (-a 0); nccl-tests' default is -a 1, the average";
    case CT_AGG_AVG:
        return "avg over ranks (-a 1, nccl-tests' default); collbench's default is -a 3, the "
               "slowest rank";
    case CT_AGG_MIN: return "min over ranks (-a 2); nccl-tests' default is -a 1, the average";
    default:
        return "max over ranks, the slowest rank (-a 3, the collective's completion); "
               "nccl-tests' default is -a 1, the average";
    }
}

static ct_status_t ct_table_begin(void *state)
{
    ct_table_report_t *t = state;
    const ct_report_run_t *run = t->run;
    const ct_options_t *o = run->opts;
    FILE *fp = t->fp;

    fprintf(fp, "# collbench (colltune %s, %s) backend %s, %d ranks on %d nodes\n", PACKAGE_VERSION,
            CT_GIT_REV, run->ops->name, ct_world_size(run->world),
            ct_backend_nnodes(run->ops, run->backend_ctx, run->world));
    fprintf(fp, "# %s\n", ct_world_library_version(run->world));
    /* --sizes has no step: "0(list)" keeps the line's shape, and the list
     * follows on a line of its own. */
    fprintf(fp,
            "# nThread 1 nGpus 1 minBytes %zu maxBytes %zu step: %zu(%s) warmup iters: %d "
            "iters: %d agg iters: 1 validation: %d graph: 0\n",
            o->min_bytes, o->max_bytes,
            o->nsizes            ? 0
            : o->step_factor > 1 ? o->step_factor
                                 : o->step_bytes,
            o->nsizes            ? "list"
            : o->step_factor > 1 ? "factor"
                                 : "bytes",
            o->warmup, o->iters, o->check);
    if (o->nsizes) {
        fprintf(fp, "# Sizes (--sizes):");
        for (int i = 0; i < o->nsizes; i++)
            fprintf(fp, "%s%zu", i ? "," : " ", o->sizes[i]);
        fprintf(fp, "\n");
    }
    if (o->iters == 0)
        fprintf(fp,
                "# Adaptive iterations: until the median's 95%% CI is within %.3g%% or, past "
                "the least, %.3gx as long as it took (least: %.3g s and %d samples); at most "
                "%.3g s per size and placement\n",
                o->target_ci * 100.0, o->ci_patience, o->min_time_s, o->min_samples,
                o->size_budget_s);
    fprintf(fp,
            "# Time: median over samples, each the %s across ranks (-a), timed in %s mode "
            "(--sync); run id %s, config %s\n",
            ct_options_rank_agg_name(o->rank_agg), ct_options_sync_name(run->sync),
            run->ident->run_id, run->ident->config_id);
    fprintf(fp, "#  Rank reduction: %s\n", ct_table_rank_reduction(o->rank_agg));
    fprintf(fp,
            "# Floor: one-way small-message latency %.3f us (median ping-pong / 2); no "
            "collective can take less\n",
            run->floor_us);
    ct_rankinfo_warnings(run->ranks, ct_world_size(run->world), ct_table_warning, fp);
    fprintf(fp, "#\n# Using devices\n");
    for (int r = 0; r < ct_world_size(run->world); r++) {
        char device[96] = "device -1 [host]";
        if (run->ops->device_label)
            run->ops->device_label(run->backend_ctx, r, device, sizeof device);
        fprintf(fp, "#  Rank %2d Group  0 Pid %6d on %10s %s cpus %s\n", r, run->ranks[r].pid,
                run->ranks[r].hostname, device, run->ranks[r].cpus);
    }
    return ct_table_flush(t);
}

static ct_status_t ct_table_coll_begin(void *state, const ct_coll_desc_t *coll)
{
    ct_table_report_t *t = state;
    t->wrong = 0;
    t->busbw_sum = 0.0;
    t->busbw_n = 0;
    fprintf(t->fp, "# Collective test starting: %s\n", coll->name);
    ct_table_header(t->fp);
    return CT_OK;
}

/* A table line holds both placements: it is printed with the in-place row. */
static ct_status_t ct_table_report_row(void *state, const ct_report_row_t *row)
{
    ct_table_report_t *t = state;
    const ct_result_t *r = row->result;
    ct_table_half_t *half = row->in_place ? &t->line.in_place : &t->line.out_of_place;

    if (!row->in_place && row->config_label)
        fprintf(t->fp, "# Configuration %d: %s\n", row->config, row->config_label);
    if (!row->in_place) {
        memset(&t->line, 0, sizeof t->line);
        t->line.bytes = (size_t)r->bytes;
        t->line.count = (size_t)r->count;
        t->line.dtype = r->dtype;
        t->line.op = r->op;
        t->line.root = (int)r->root;
    }
    half->time_us = r->median_us;
    half->algbw_gbps = r->algbw_gbps;
    half->busbw_gbps = r->busbw_gbps;
    half->wrong = r->wrong;
    t->wrong += r->wrong > 0 ? r->wrong : 0;
    t->busbw_sum += r->busbw_gbps;
    t->busbw_n++;
    if (!row->in_place)
        return CT_OK;
    ct_table_row(t->fp, &t->line);
    return ct_table_flush(t);
}

/* A comment line in the collective's block, so nccl-tests parsers (which
 * skip '#' lines) still read the table.  A refusal at the in-place half
 * (NCCL's do not depend on the placement) leaves that size without a
 * line; the CSV and JSON keep its out-of-place row. */
static ct_status_t ct_table_refused(void *state, const ct_report_refusal_t *r)
{
    ct_table_report_t *t = state;
    fprintf(t->fp, "#  %s %s%s%s", r->coll->name, r->dtype, r->coll->uses_op ? " " : "",
            r->coll->uses_op ? r->op : "");
    if (r->config_label)
        fprintf(t->fp, " (configuration %d)", r->config);
    fprintf(t->fp, ": refused by the library: %s\n", r->message);
    return ct_table_flush(t);
}

static ct_status_t ct_table_coll_end(void *state, const ct_coll_desc_t *coll)
{
    ct_table_report_t *t = state;
    ct_table_footer(t->fp, t->wrong, t->busbw_n ? t->busbw_sum / t->busbw_n : 0.0);
    fprintf(t->fp, "# Collective test concluded: %s\n#\n", coll->name);
    return ct_table_flush(t);
}

/* --pairs: one block per round, then one per pair (the columns have no
 * host, so each pair's collectives follow its own line). */
static ct_status_t ct_table_pair(void *state, const ct_report_pair_t *pair)
{
    ct_table_report_t *t = state;
    if (pair->round_line)
        fprintf(t->fp, "# pairs round %d: %s\n#\n", pair->round, pair->round_line);
    fprintf(t->fp, "# pair %s+%s (round %d)\n", pair->hosts[0], pair->hosts[1], pair->round);
    return ct_table_flush(t);
}

/* --shapes: a comment line before each shape's collectives, which
 * nccl-tests parsers skip like the other '#' lines. */
static ct_status_t ct_table_shape(void *state, const ct_report_shape_t *shape)
{
    ct_table_report_t *t = state;
    char name[32];
    ct_shape_name(&shape->shape, name, sizeof name);
    fprintf(t->fp, "# Shape %s (nodes x ranks per node): %d rank%s on %d node%s\n#\n", name,
            shape->nranks, shape->nranks == 1 ? "" : "s", shape->shape.nnodes,
            shape->shape.nnodes == 1 ? "" : "s");
    return ct_table_flush(t);
}

static ct_status_t ct_table_end(void *state, ct_status_t run_status)
{
    (void)run_status;
    return ct_table_flush(state);
}

const ct_report_ops_t ct_report_table = {
    .name = "table",
    .wanted = ct_table_wanted,
    .open = ct_table_open,
    .begin = ct_table_begin,
    .coll_begin = ct_table_coll_begin,
    .row = ct_table_report_row,
    .refused = ct_table_refused,
    .coll_end = ct_table_coll_end,
    .pair = ct_table_pair,
    .shape = ct_table_shape,
    .end = ct_table_end,
    .close = free,
    .abort = free,
};
