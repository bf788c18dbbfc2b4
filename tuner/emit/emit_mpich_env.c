/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_mpich_env.c - mpich.env: MPICH's CVARs as a file sh can source.
 *
 * MPICH 4 reads a CVAR X from the environment as MPIR_CVAR_X (also
 * MPIR_PARAM_X, MPICH_X) at MPI_Init; there is no file it reads them
 * from, so the A/B sources this one (its load: sourced).  Values are
 * written unquoted (file_values.c's rule keeps them to words sh leaves
 * alone).  Each line says why it is there: an algorithm the tune chose,
 * or a setting the choice needs (ch4's own selection switched off for the
 * collective, without which MPICH never reads the algorithm CVAR).  The
 * fallback guard the space sets while tuning
 * (MPIR_CVAR_COLLECTIVE_FALLBACK=error) is not written: in an
 * application it would turn a communicator the algorithm cannot serve
 * into an error instead of MPICH's own choice.
 *
 * A site that forces a collective's algorithm in the environment outranks
 * mpich-coll-selection.json (MPICH reads it only for auto): for a range
 * choice this file then sets that CVAR to auto, and the selection file
 * keeps the site's algorithm outside the tuned sizes.  A line that sets a
 * variable the site sets otherwise says so ("Overrides the site's ...").
 * Keyed by nothing: a value another job shape chose otherwise is refused
 * (ct_emit_shape_conflict); the same one is one line.
 */
#include "emit_format.h"

#include <string.h>

#include "ct_printable.h"

static int ct_is_mpich(const ct_tune_choice_t *c)
{
    return ct_emit_usable(c) && c->via == CT_VIA_ENV &&
           ct_setting_is(c->name, c->via, CT_LIB_MPICH);
}

/* The CVAR's name (MPIR_CVAR_X) for any of MPICH's spellings. */
static const char *ct_mpich_cvar(const ct_tune_choice_t *c, char *buf, size_t n)
{
    return ct_library_cvar_name(c->name, 0, buf, n) ? buf : c->name;
}

/* The tune makes no choice of it (ct_library_measure_only); a result
 * read from elsewhere that has one still never gets it written. */
static int ct_is_fallback(const ct_tune_choice_t *c) { return ct_library_measure_only(c->name); }

/* A line of the file: MPICH reads a CVAR for every size, so a choice over
 * a size range only is left out (named in the header; intel-mpi.env can
 * carry ranges). */
static int ct_mpich_line(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    return ct_is_mpich(c) && !ct_is_fallback(c) &&
           (ct_emit_full_range(c) || ct_emit_mpich_csel_needs(r, c));
}

/* The site's forced algorithm CVAR that this file sets to auto for c, so
 * that MPICH reads mpich-coll-selection.json (which keeps the site's
 * algorithm outside c's sizes); NULL for none, or when a line of the file
 * sets that variable already, or an earlier choice made it the auto line. */
static const ct_site_setting_t *ct_mpich_auto(const ct_tune_result_t *r, size_t i)
{
    const ct_site_setting_t *e = ct_emit_mpich_csel_overrides(r, &r->choices[i]);
    for (size_t k = 0; e != NULL && k < r->nchoices; k++) {
        const ct_tune_choice_t *d = &r->choices[k];
        if ((ct_mpich_line(r, d) && strcmp(d->name, e->name) == 0) ||
            (k < i && ct_emit_mpich_csel_overrides(r, d) == e))
            return NULL;
    }
    return e;
}

static int ct_mpich_wanted(const ct_tune_result_t *r)
{
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_mpich_line(r, &r->choices[i]) || ct_mpich_auto(r, i) != NULL)
            return 1;
    return 0;
}

static const char *const ct_emit_mpich_install[] = {
    "Source it, exported, in the job script before the launcher, which passes",
    "the environment on (mpiexec.hydra does; srun: --export=ALL):",
    "  set -a; . @DIR@/mpich.env; set +a",
    "Variables already set in the environment are overwritten by this file;",
    "MPIR_CVAR_DEBUG_CVARS=1 makes MPICH print the CVARs it read from it.",
    NULL};

/* Why the line is there, for the comment above it. */
static void ct_mpich_why(const ct_tune_result_t *r, const ct_tune_choice_t *c, FILE *fp)
{
    char buf[256];
    const char *cvar = ct_mpich_cvar(c, buf, sizeof buf);
    const char *coll =
        c->scope == CT_SCOPE_GLOBAL ? "every collective" : ct_coll_name((ct_coll_id_t)c->scope);
    size_t n = strlen(cvar);
    if (strcmp(cvar, "MPIR_CVAR_DEVICE_COLLECTIVES") == 0 ||
        (n > strlen("_DEVICE_COLLECTIVE") &&
         strcmp(cvar + n - strlen("_DEVICE_COLLECTIVE"), "_DEVICE_COLLECTIVE") == 0)) {
        fprintf(fp,
                "# %s: needed by the algorithm chosen for it: otherwise ch4 runs its own\n"
                "# selection first (on one node its shared-memory release_gather) and\n"
                "# never reads MPIR_CVAR_<COLL>_INTRA_ALGORITHM.\n",
                coll);
        if (ct_emit_mpich_csel_needs(r, c))
            fputs("# Needed by " CT_EMIT_MPICH_CSEL_NAME "'s sizes, and it holds for every\n"
                  "# size: outside them MPICH's own MPIR selection decides instead of ch4's.\n",
                  fp);
    } else
        fprintf(fp,
                "# %s, %s: chosen by the tune (median %.1f us with MPICH's default, %.1f us "
                "with this)\n",
                coll, "every size", c->default_us, c->tuned_us);
}

/* "Overrides the site's NAME=X (source)" above a line setting name to
 * value, when the site sets it otherwise. */
static void ct_mpich_overrides(const ct_tune_result_t *r, const char *name, const char *value,
                               FILE *fp)
{
    const ct_site_setting_t *e = r->site ? ct_site_find(r->site, name, 0) : NULL;
    if (e == NULL || strcmp(e->value, value) == 0)
        return;
    fputs("# Overrides the site's ", fp);
    ct_printable_put(fp, e->name, strlen(e->name));
    fputc('=', fp);
    ct_printable_put(fp, e->value, strlen(e->value));
    fputs(" (", fp);
    ct_printable_put(fp, e->origin, strlen(e->origin));
    fputs(").\n", fp);
}

static ct_status_t ct_mpich_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    const ct_tune_result_t *r = ctx->r;
    int fallback = 0;

    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (!ct_is_mpich(c))
            continue;
        ct_status_t st = ct_emit_check_name(c, "mpich.env", err, errlen);
        if (st == CT_OK)
            st = ct_emit_check_value("mpich.env", c->name, c->value,
                                     "set it in the environment instead", err, errlen);
        /* One value for every job shape: another shape's must agree.  A
         * setting the tree's range needs is keyed with that range (the
         * selection file's carries hook claims it). */
        const char *home = ct_emit_full_range(c) ? "mpich.env" : CT_EMIT_MPICH_CSEL_NAME;
        if (st == CT_OK && ct_mpich_line(r, c) &&
            ct_emit_shape_conflict_in(r, c, home, err, errlen))
            st = CT_ERR_USAGE;
        /* The same setting may come from several collectives' requires=;
         * two values of one variable cannot both be in force. */
        for (size_t k = 0; st == CT_OK && k < i; k++)
            if (ct_mpich_line(r, c) && ct_mpich_line(r, &r->choices[k]) &&
                strcmp(r->choices[k].name, c->name) == 0 &&
                strcmp(r->choices[k].value, c->value) != 0) {
                snprintf(err, errlen, "mpich.env: %s chosen as both %s and %s", c->name,
                         r->choices[k].value, c->value);
                st = CT_ERR_USAGE;
            }
        if (st != CT_OK)
            return st;
        fallback |= ct_is_fallback(c);
    }
    ct_emit_header(ctx, fp, "mpich.env", "MPICH 4 control variables (CVARs), sourceable by sh",
                   ct_emit_mpich_env.install);
    if (!ct_emit_multi_shape(r))
        fprintf(fp,
                "# Measured at %ld ranks on %ld node%s: a choice made at one shape is not\n"
                "# known to hold at another; tune again before using it at another one.\n",
                r->nranks, r->nnodes, r->nnodes == 1 ? "" : "s");
    if (fallback)
        fputs("# Not written: MPIR_CVAR_COLLECTIVE_FALLBACK=error, set while tuning so that a\n"
              "# forced algorithm that cannot run failed its trial; here MPICH's default\n"
              "# (fall back to its own choice) is kept.\n",
              fp);
    /* With several shapes, which rank count each range holds at. */
    char count[48] = "this rank count";
    int multi = ct_emit_multi_shape(r);
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (ct_is_mpich(c) && !ct_emit_full_range(c) && !ct_mpich_line(r, c)) {
            int csel = ct_emit_mpich_csel_carries(r, c);
            if (multi)
                snprintf(count, sizeof count, "%ld ranks", ct_emit_choice_shape(r, c).nranks);
            fprintf(fp, "# %s: %s=%s from %lld B",
                    csel ? "In " CT_EMIT_MPICH_CSEL_NAME : "Not written", c->name, c->value,
                    c->min_bytes < 0 ? 0 : c->min_bytes);
            if (c->max_bytes >= 0)
                fprintf(fp, " to %lld B", c->max_bytes);
            const ct_site_setting_t *e = csel ? ct_emit_mpich_csel_overrides(r, c) : NULL;
            if (e != NULL) {
                fprintf(fp, " (at %s; the site's ", count);
                ct_printable_put(fp, e->value, strlen(e->value));
                fputs(" elsewhere).\n", fp);
            } else if (csel)
                fprintf(fp, " (at %s; MPICH's own choice elsewhere).\n", count);
            else
                fputs(" only (MPICH reads it for every size).\n", fp);
        }
    }
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        int seen = 0;
        for (size_t k = 0; k < i; k++)
            seen |= ct_mpich_line(r, &r->choices[k]) && strcmp(r->choices[k].name, c->name) == 0;
        if (!ct_mpich_line(r, c) || seen)
            continue;
        fputc('\n', fp);
        ct_mpich_why(r, c, fp);
        ct_mpich_overrides(r, c->name, c->value, fp);
        fprintf(fp, "export %s=%s\n", c->name, c->value);
    }
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_site_setting_t *e = ct_mpich_auto(r, i);
        if (e == NULL)
            continue;
        fputc('\n', fp);
        ct_mpich_overrides(r, e->name, "auto", fp);
        fprintf(fp,
                "# MPICH reads " CT_EMIT_MPICH_CSEL_NAME " only when this is auto; that file\n"
                "# runs the tuned algorithm at the tuned sizes and keeps the site's %s\n"
                "# everywhere else (other sizes, other communicator sizes).\n"
                "export %s=auto\n",
                e->value, e->name);
    }
    return CT_OK;
}

/* An MPICH CVAR over every size (MPICH reads a CVAR for every size; a
 * setting a range of the selection tree needs is that file's to claim). */
static ct_emit_carry_t ct_mpich_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                        const char **why_p)
{
    (void)r;
    (void)why_p;
    return c->via == CT_VIA_ENV && ct_setting_is(c->name, c->via, CT_LIB_MPICH) &&
                   ct_emit_full_range(c)
               ? CT_EMIT_CARRIES
               : CT_EMIT_NOT_MINE;
}

/* Sourced: MPICH has no variable naming a file of CVARs, so the A/B
 * reads this file's export lines into the tuned side's environment. */
const ct_emit_format_t ct_emit_mpich_env = {
    .name = "mpich.env",
    .wanted = ct_mpich_wanted,
    .write = ct_mpich_write,
    .install = ct_emit_mpich_install,
    .carries = ct_mpich_carries,
};
