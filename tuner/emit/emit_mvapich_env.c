/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_mvapich_env.c - mvapich.env: an MPICH-named tune's CVARs in
 * MVAPICH 3's own spelling, MVP_X for MPIR_CVAR_X, as a file sh sources.
 *
 * MVAPICH has not run here.  Its CVAR list (MVAPICH Environment
 * Variables, https://mvapich-docs.readthedocs.io/en/mvapich-open/cvar.html;
 * the OSU-Nowlab/MVAPICH-docs source, docs/source/cvar.rst) gives each
 * collective CVAR MPIR_CVAR_X the aliases MVP_X and MPICH_X, e.g.
 * MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM: MVP_ALLREDUCE_INTRA_ALGORITHM,
 * MPICH_ALLREDUCE_INTRA_ALGORITHM, with MPICH's algorithm names and
 * MVAPICH's own (osu_*, ring, tree, ...).  MPICH's names are shared, so
 * a choice's name does not say MVAPICH: the file is written only when the
 * MPI library that ran is this row's reader (r->mpi_library,
 * ct_library_ran), and then holds what mpich.env holds, spelled MVP_.
 * MVAPICH reads a CVAR for every size, so a choice over a size range only
 * is named in the header, not written; so is the fallback guard the
 * space sets while tuning (ct_library_measure_only).
 */
#include "emit_format.h"

#include <string.h>

#include "ct_printable.h"

#define CT_MVP_FILE "mvapich.env"
#define CT_MVP_PREFIX "MVP_"

/* Whether the library that ran reads this file. */
static int ct_mvp_ran(const ct_tune_result_t *r)
{
    const ct_library_file_t *row = ct_library_file_named(CT_MVP_FILE);
    const ct_library_t *lib = ct_library_ran(r->mpi_library);
    return row != NULL && lib != NULL && lib->id == row->reader;
}

/* An MPICH-family choice the file could hold (any size range). */
static int ct_mvp_choice(const ct_tune_choice_t *c)
{
    return ct_emit_usable(c) && c->via == CT_VIA_ENV &&
           ct_setting_is(c->name, c->via, CT_LIB_MPICH) && !ct_library_measure_only(c->name);
}

/* A line of the file: a CVAR holds for every size. */
static int ct_mvp_line(const ct_tune_choice_t *c)
{
    return ct_mvp_choice(c) && ct_emit_full_range(c);
}

/* MVP_X for c (any of MPICH's spellings of X) into buf; NULL when the
 * name has no CVAR form or buf is too short. */
static const char *ct_mvp_name(const ct_tune_choice_t *c, char *buf, size_t n)
{
    char cvar[256];
    const char *mpir = "MPIR_CVAR_";
    if (!ct_library_cvar_name(c->name, 0, cvar, sizeof cvar) ||
        strncmp(cvar, mpir, strlen(mpir)) != 0)
        return NULL;
    int m = snprintf(buf, n, CT_MVP_PREFIX "%s", cvar + strlen(mpir));
    return m > 0 && (size_t)m < n ? buf : NULL;
}

static int ct_mvp_wanted(const ct_tune_result_t *r)
{
    for (size_t i = 0; ct_mvp_ran(r) && i < r->nchoices; i++)
        if (ct_mvp_line(&r->choices[i]))
            return 1;
    return 0;
}

static const char *const ct_emit_mvp_install[] = {
    "MVAPICH has not run here: check each name against your MVAPICH's CVAR list",
    "before use.  Source it, exported, in the job script before the launcher:",
    "  set -a; . @DIR@/mvapich.env; set +a",
    "MVAPICH also reads these CVARs as MPIR_CVAR_<X> (mpich.env's spelling).", NULL};

/* Every value as the file writes it, and no variable with two values. */
static ct_status_t ct_mvp_check(const ct_tune_result_t *r, char *err, size_t errlen)
{
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        char name[300];
        if (!ct_mvp_line(c))
            continue;
        ct_status_t st = ct_emit_check_name(c, CT_MVP_FILE, err, errlen);
        if (st == CT_OK && ct_mvp_name(c, name, sizeof name) == NULL) {
            snprintf(err, errlen, CT_MVP_FILE ": %s has no MVP_ form", c->name);
            st = CT_ERR_USAGE;
        }
        if (st == CT_OK)
            st = ct_emit_check_value(CT_MVP_FILE, c->name, c->value,
                                     "set it in the environment instead", err, errlen);
        for (size_t k = 0; st == CT_OK && k < i; k++) {
            char other[300];
            const ct_tune_choice_t *d = &r->choices[k];
            if (ct_mvp_line(d) && ct_mvp_name(d, other, sizeof other) != NULL &&
                strcmp(other, name) == 0 && strcmp(d->value, c->value) != 0) {
                snprintf(err, errlen, CT_MVP_FILE ": %s chosen as both %s and %s", name, d->value,
                         c->value);
                st = CT_ERR_USAGE;
            }
        }
        if (st != CT_OK)
            return st;
    }
    return CT_OK;
}

/* The header lines after ct_emit_header (which names the shapes): what
 * ran, and what is left out. */
static void ct_mvp_preamble(const ct_tune_result_t *r, FILE *fp)
{
    fputs("# MVAPICH has not run here; aliases from MVAPICH's CVAR list\n"
          "# (https://mvapich-docs.readthedocs.io/en/mvapich-open/cvar.html): MPIR_CVAR_<X>\n"
          "# is also read as MVP_<X> and MPICH_<X>.\n"
          "# Measured with ",
          fp);
    ct_printable_put(fp, r->mpi_library, (size_t)-1);
    fputc('\n', fp);
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (!ct_mvp_choice(c) || ct_emit_full_range(c))
            continue;
        fputs("# Not written: ", fp);
        ct_printable_put(fp, c->name, (size_t)-1);
        fputc('=', fp);
        ct_printable_put(fp, c->value, (size_t)-1);
        fprintf(fp, " from %lld B", c->min_bytes < 0 ? 0 : c->min_bytes);
        if (c->max_bytes >= 0)
            fprintf(fp, " to %lld B", c->max_bytes);
        fputs(" only (MVAPICH reads it for every size).\n", fp);
    }
}

static ct_status_t ct_mvp_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    const ct_tune_result_t *r = ctx->r;
    ct_status_t st = ct_mvp_check(r, err, errlen);
    if (st != CT_OK)
        return st;
    ct_emit_header(ctx, fp, CT_MVP_FILE,
                   "MVAPICH 3 control variables (MVP_ aliases of MPICH's CVARs), sourceable by sh",
                   ct_emit_mvapich_env.install);
    ct_mvp_preamble(r, fp);
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        char name[300], other[300];
        int seen = 0;
        if (!ct_mvp_line(c) || ct_mvp_name(c, name, sizeof name) == NULL)
            continue;
        for (size_t k = 0; k < i; k++)
            seen |= ct_mvp_line(&r->choices[k]) &&
                    ct_mvp_name(&r->choices[k], other, sizeof other) != NULL &&
                    strcmp(other, name) == 0;
        if (seen)
            continue;
        const char *coll =
            c->scope == CT_SCOPE_GLOBAL ? "every collective" : ct_coll_name((ct_coll_id_t)c->scope);
        fprintf(fp,
                "\n# %s, every size: %s set by the tune (median %.1f us with MVAPICH's "
                "default, %.1f us with this)\nexport %s=%s\n",
                coll, c->name, c->default_us, c->tuned_us, name, c->value);
    }
    return CT_OK;
}

/* An MPICH-family CVAR over every size, when MVAPICH ran. */
static ct_emit_carry_t ct_mvp_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                      const char **why_p)
{
    (void)why_p;
    return ct_mvp_ran(r) && c->via == CT_VIA_ENV && ct_setting_is(c->name, c->via, CT_LIB_MPICH) &&
                   !ct_library_measure_only(c->name) && ct_emit_full_range(c)
               ? CT_EMIT_CARRIES
               : CT_EMIT_NOT_MINE;
}

/* Sourced, as mpich.env: MVAPICH has no variable naming a file of CVARs. */
const ct_emit_format_t ct_emit_mvapich_env = {
    .name = CT_MVP_FILE,
    .wanted = ct_mvp_wanted,
    .write = ct_mvp_write,
    .install = ct_emit_mvp_install,
    .carries = ct_mvp_carries,
};
