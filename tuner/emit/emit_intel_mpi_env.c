/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_intel_mpi_env.c - intel-mpi.env: an MPICH tune's algorithm choices
 * translated to Intel MPI's I_MPI_ADJUST_<OP>="<id>[:<lo>-<hi>][;...]".
 *
 * Intel MPI has not run here.  Its ids come from the Intel MPI Library
 * Developer Reference, "I_MPI_ADJUST Family Environment Variables":
 *   https://www.intel.com/content/www/us/en/docs/mpi-library/developer-reference-linux/2021-8/i-mpi-adjust-family-environment-variables.html
 * (the syntax; the id tables as the 2019 edition lists them, which the
 * 2021 pages keep; from 2021.13 the ids are "presets" and may differ).
 * Only MPICH algorithms with a clear Intel MPI counterpart are carried;
 * a choice without one is left out (Intel MPI keeps its own choice there)
 * and the header says so.  The size conditions are collbench's message
 * sizes in bytes; Intel MPI's own definition of a collective's message
 * size was not checked.  Nothing loads it in the A/B (no Intel MPI here).
 *
 * Process counts: the same page gives a condition as "<l>-<m>@<p>-<q>",
 * messages of size l to m and p to q processes, inclusive.  A result of
 * one job shape writes no @ (its lines hold at every count, as ever); one
 * of several writes each condition with the rank count it was measured at
 * (@N-N), so a count never measured matches none of them.  Two shapes of
 * one rank count must agree (ct_emit_shape_conflict).
 */
#include "emit_format.h"

#include "ct_printable.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One MPICH algorithm name and Intel MPI's id for the same algorithm. */
typedef struct {
    const char *mpich;
    int id;
} ct_intel_alg_t;

typedef struct {
    int coll;              /* ct_coll_id_t */
    const char *cvar;      /* MPICH's algorithm CVAR */
    const char *op;        /* I_MPI_ADJUST_<op> */
    ct_intel_alg_t alg[4]; /* ended by a NULL mpich */
} ct_intel_coll_t;

/* bcast (MPICH's scatter_* algorithms have no one-to-one Intel id) and
 * reduce_scatter (collbench's is MPI_Reduce_scatter_block, whose Intel
 * ids were not found in the reference) have none. */
static const ct_intel_coll_t ct_intel_colls[] = {
    {CT_COLL_ALLREDUCE,
     "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM",
     "ALLREDUCE",
     {{"recursive_doubling", 1},
      {"reduce_scatter_allgather", 2},
      {NULL, 0}}}, /* 2: Rabenseifner's */
    {CT_COLL_ALLGATHER,
     "MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM",
     "ALLGATHER",
     {{"recursive_doubling", 1}, {"brucks", 2}, {"ring", 3}, {NULL, 0}}},
    {CT_COLL_ALLTOALL,
     "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM",
     "ALLTOALL",
     {{"brucks", 1}, {"pairwise", 3}, {NULL, 0}}}, /* 3: pair wise exchange */
};
#define CT_INTEL_NCOLLS (sizeof ct_intel_colls / sizeof ct_intel_colls[0])

/* The row for c's CVAR (any of MPICH's spellings), or NULL. */
static const ct_intel_coll_t *ct_intel_coll_of(const ct_tune_choice_t *c)
{
    char cvar[256];
    if (!ct_emit_usable(c) || c->via != CT_VIA_ENV ||
        !ct_setting_is(c->name, c->via, CT_LIB_MPICH) ||
        !ct_library_cvar_name(c->name, 0, cvar, sizeof cvar))
        return NULL;
    for (size_t i = 0; i < CT_INTEL_NCOLLS; i++)
        if (strcmp(cvar, ct_intel_colls[i].cvar) == 0)
            return &ct_intel_colls[i];
    return NULL;
}

/* Intel MPI's id for c, 0 when it has no counterpart (or is no
 * algorithm choice). */
static int ct_intel_id(const ct_tune_choice_t *c, const ct_intel_coll_t **row_p)
{
    const ct_intel_coll_t *row = ct_intel_coll_of(c);
    *row_p = row;
    for (size_t k = 0; row != NULL && row->alg[k].mpich != NULL; k++)
        if (strcasecmp(c->value, row->alg[k].mpich) == 0)
            return row->alg[k].id;
    return 0;
}

/* An algorithm choice of MPICH's: *_INTRA_ALGORITHM. */
static int ct_is_mpich_alg(const ct_tune_choice_t *c)
{
    char cvar[256];
    const char *tail = "_INTRA_ALGORITHM";
    if (!ct_emit_usable(c) || c->via != CT_VIA_ENV ||
        !ct_setting_is(c->name, c->via, CT_LIB_MPICH) ||
        !ct_library_cvar_name(c->name, 0, cvar, sizeof cvar))
        return 0;
    size_t n = strlen(cvar);
    return n > strlen(tail) && strcmp(cvar + n - strlen(tail), tail) == 0;
}

static int ct_intel_wanted(const ct_tune_result_t *r)
{
    const ct_intel_coll_t *row;
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_intel_id(&r->choices[i], &row) > 0)
            return 1;
    return 0;
}

static const char *const ct_emit_intel_install[] = {
    "Intel MPI has not run here: check each line against your Intel MPI's",
    "developer reference before use.  Source it, exported, before mpirun:",
    "  set -a; . @DIR@/intel-mpi.env; set +a",
    "I_MPI_DEBUG=6 (or higher) makes Intel MPI print the algorithms it uses.", NULL};

/* "<lo>-<hi>" of c, or "" over every size; an open top is INT_MAX. */
static void ct_intel_range(const ct_tune_choice_t *c, char *buf, size_t n)
{
    if (ct_emit_full_range(c)) {
        buf[0] = '\0';
        return;
    }
    long long lo = c->min_bytes < 0 ? 0 : c->min_bytes;
    long long hi = c->max_bytes < 0 ? INT_MAX : c->max_bytes;
    snprintf(buf, n, ":%lld-%lld", lo, hi);
}

/* "<lo>-<hi>@<n>-<n>" of c at n processes: a condition names sizes
 * when it names processes, so every size is 0 to INT_MAX. */
static void ct_intel_cond(const ct_tune_choice_t *c, long n, char *buf, size_t len)
{
    long long lo = c->min_bytes < 0 ? 0 : c->min_bytes;
    long long hi = c->max_bytes < 0 ? INT_MAX : c->max_bytes;
    snprintf(buf, len, ":%lld-%lld@%ld-%ld", lo, hi, n, n);
}

/* Sourced after the site's environment, the line wins over an
 * I_MPI_ADJUST_<op> the site sets: said above it. */
static void ct_intel_overrides(const ct_tune_result_t *r, const char *op, FILE *fp)
{
    char name[96];
    snprintf(name, sizeof name, "I_MPI_ADJUST_%s", op);
    const ct_site_setting_t *e = r->site ? ct_site_find(r->site, name, 0) : NULL;
    if (e == NULL)
        return;
    fprintf(fp, "# Overrides the site's %s=", name);
    ct_printable_put(fp, e->value, (size_t)-1);
    fputs(" (", fp);
    ct_printable_put(fp, e->origin, (size_t)-1);
    fputs(").\n", fp);
}

/* What is left out, and why: an algorithm with no Intel MPI counterpart
 * (with its shape when there are several). */
static void ct_intel_left_out(const ct_tune_result_t *r, int multi, FILE *fp)
{
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        const ct_intel_coll_t *row;
        if (!ct_is_mpich_alg(c) || ct_intel_id(c, &row) > 0)
            continue;
        char range[64], shape[64] = "";
        ct_intel_range(c, range, sizeof range);
        if (multi) {
            ct_emit_shape_name(ct_emit_choice_shape(r, c), shape + 4, sizeof shape - 4);
            memcpy(shape, " at ", 4);
        }
        /* Control bytes as '?': a newline would end the comment and leave
         * the rest of the value a command for the shell that sources it. */
        fputs("# Left out: ", fp);
        ct_printable_put(fp, c->name, (size_t)-1);
        fputc('=', fp);
        ct_printable_put(fp, c->value, (size_t)-1);
        fprintf(fp, "%s%s%s (no clear Intel MPI counterpart)\n", range[0] ? " at sizes " : "",
                range[0] ? range + 1 : "", shape);
    }
}

/* want's conditions from r (a view at one rank count n, or the whole
 * one-shape result: n 0, no @), in size order (Intel MPI takes the first
 * condition that matches), after *any of them already written. */
static void ct_intel_conds(const ct_tune_result_t *r, const ct_intel_coll_t *want, long n, int *any,
                           FILE *fp)
{
    long long last = LLONG_MIN;
    for (;;) {
        const ct_tune_choice_t *next = NULL;
        int next_id = 0;
        for (size_t i = 0; i < r->nchoices; i++) {
            const ct_intel_coll_t *row;
            int id = ct_intel_id(&r->choices[i], &row);
            if (id > 0 && row == want && r->choices[i].min_bytes > last &&
                (next == NULL || r->choices[i].min_bytes < next->min_bytes)) {
                next = &r->choices[i];
                next_id = id;
            }
        }
        if (next == NULL)
            break;
        char range[128];
        if (n > 0)
            ct_intel_cond(next, n, range, sizeof range);
        else
            ct_intel_range(next, range, sizeof range);
        if (!*any) {
            fprintf(fp, "\n# %s, from %s\n", ct_coll_name(want->coll), want->cvar);
            ct_intel_overrides(r, want->op, fp);
            fprintf(fp, "export I_MPI_ADJUST_%s=\"", want->op);
        }
        fprintf(fp, "%s%d%s", *any ? ";" : "", next_id, range);
        *any = 1;
        last = next->min_bytes;
    }
}

/* r at each rank count measured (one view each) when it has several
 * shapes; else r itself, no view (*n_p 0). */
static ct_status_t ct_intel_views(const ct_tune_result_t *r, ct_tune_result_t **views_p,
                                  size_t *n_p)
{
    long *counts;
    size_t n;
    *views_p = NULL;
    *n_p = 0;
    if (!ct_emit_multi_shape(r))
        return CT_OK;
    if (ct_emit_rank_counts(r, &counts, &n) != CT_OK)
        return CT_ERR_NOMEM;
    ct_tune_result_t *views = calloc(n, sizeof *views);
    ct_status_t st = views ? CT_OK : CT_ERR_NOMEM;
    size_t made = 0;
    for (; made < n && st == CT_OK; made++)
        st = ct_emit_ranks_view(r, counts[made], &views[made]);
    free(counts);
    if (st != CT_OK) {
        for (size_t v = 0; views != NULL && v < made; v++)
            ct_emit_shape_view_free(&views[v]);
        free(views);
        return st;
    }
    *views_p = views;
    *n_p = n;
    return CT_OK;
}

static ct_status_t ct_intel_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    const ct_tune_result_t *r = ctx->r;
    const ct_intel_coll_t *row;
    ct_tune_result_t *views;
    size_t nviews;

    /* A process count has one condition per size: its shapes must agree. */
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_intel_id(&r->choices[i], &row) > 0 &&
            ct_emit_shape_conflict_in(r, &r->choices[i], "intel-mpi.env", err, errlen) != NULL)
            return CT_ERR_USAGE;
    if (ct_intel_views(r, &views, &nviews) != CT_OK) {
        snprintf(err, errlen, "intel-mpi.env: out of memory");
        return CT_ERR_NOMEM;
    }
    ct_emit_header(ctx, fp, "intel-mpi.env",
                   "Intel MPI I_MPI_ADJUST_<OP> lines translated from an MPICH tune, sourceable "
                   "by sh",
                   ct_emit_intel_mpi_env.install);
    fputs("# Intel MPI has not run here; ids from Intel MPI 2021 developer reference\n"
          "# (https://www.intel.com/content/www/us/en/docs/mpi-library/developer-reference-"
          "linux/2021-8/i-mpi-adjust-family-environment-variables.html).\n"
          "# Carried where an MPICH algorithm has a clear Intel counterpart: allreduce\n"
          "# recursive_doubling=1, reduce_scatter_allgather (Rabenseifner's)=2; allgather\n"
          "# recursive_doubling=1, brucks=2, ring=3; alltoall brucks=1, pairwise=3.\n"
          "# Sizes are collbench's message sizes in bytes.\n",
          fp);
    if (nviews > 0)
        fputs("# Measured with MPICH at the job shapes above: each condition names the\n"
              "# process count it was measured at (<sizes>@<p>-<q>); no condition here\n"
              "# matches any other count.\n",
              fp);
    else
        fprintf(fp,
                "# Measured with MPICH at %ld ranks on %ld node%s; Intel MPI applies these\n"
                "# at every process count.\n",
                r->nranks, r->nnodes, r->nnodes == 1 ? "" : "s");
    ct_intel_left_out(r, nviews > 0, fp);
    /* One line per collective, by process count then size. */
    for (size_t t = 0; t < CT_INTEL_NCOLLS; t++) {
        int any = 0;
        if (nviews == 0)
            ct_intel_conds(r, &ct_intel_colls[t], 0, &any, fp);
        for (size_t v = 0; v < nviews; v++)
            ct_intel_conds(&views[v], &ct_intel_colls[t], views[v].nranks, &any, fp);
        if (any)
            fputs("\"\n", fp);
    }
    for (size_t v = 0; v < nviews; v++)
        ct_emit_shape_view_free(&views[v]);
    free(views);
    return CT_OK;
}

/* Not loaded by the A/B: Intel MPI does not run here.  No carries hook:
 * it translates what mpich.env and the selection tree carry, and makes no
 * choice writable that they do not. */
const ct_emit_format_t ct_emit_intel_mpi_env = {
    .name = "intel-mpi.env",
    .wanted = ct_intel_wanted,
    .write = ct_intel_write,
    .install = ct_emit_intel_install,
};
