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
 */
#include "emit_format.h"

#include "ct_printable.h"

#include <limits.h>
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

static ct_status_t ct_intel_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    const ct_tune_result_t *r = ctx->r;
    (void)err, (void)errlen;

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
    fprintf(fp,
            "# Measured with MPICH at %ld ranks on %ld node%s; Intel MPI applies these\n"
            "# at every process count.\n",
            r->nranks, r->nnodes, r->nnodes == 1 ? "" : "s");
    /* What is left out, and why. */
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        const ct_intel_coll_t *row;
        if (!ct_is_mpich_alg(c) || ct_intel_id(c, &row) > 0)
            continue;
        char range[64];
        ct_intel_range(c, range, sizeof range);
        /* Control bytes as '?': a newline would end the comment and leave
         * the rest of the value a command for the shell that sources it. */
        fputs("# Left out: ", fp);
        ct_printable_put(fp, c->name, (size_t)-1);
        fputc('=', fp);
        ct_printable_put(fp, c->value, (size_t)-1);
        fprintf(fp, "%s%s (no clear Intel MPI counterpart)\n", range[0] ? " at sizes " : "",
                range[0] ? range + 1 : "");
    }
    /* One line per collective, its ranges in size order (Intel MPI takes
     * the first condition that matches). */
    for (size_t t = 0; t < CT_INTEL_NCOLLS; t++) {
        const ct_intel_coll_t *want = &ct_intel_colls[t];
        long long last = LLONG_MIN;
        int any = 0;
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
            char range[64];
            ct_intel_range(next, range, sizeof range);
            if (!any) {
                fprintf(fp, "\n# %s, from %s\n", ct_coll_name(want->coll), want->cvar);
                ct_intel_overrides(r, want->op, fp);
                fprintf(fp, "export I_MPI_ADJUST_%s=\"", want->op);
            }
            fprintf(fp, "%s%d%s", any ? ";" : "", next_id, range);
            any = 1;
            last = next->min_bytes;
        }
        if (any)
            fputs("\"\n", fp);
    }
    return CT_OK;
}

/* Not loaded by the A/B: Intel MPI does not run here. */
const ct_emit_format_t ct_emit_intel_mpi_env = {
    .name = "intel-mpi.env",
    .wanted = ct_intel_wanted,
    .write = ct_intel_write,
    .install = ct_emit_intel_install,
    .load = {.var = NULL},
};
