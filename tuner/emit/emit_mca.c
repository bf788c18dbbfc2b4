/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_mca.c - mca-params.conf: Open MPI's MCA parameter file
 * ("name = value" lines, '#' comments).
 *
 * Every MCA choice the rules file does not carry is a line here.  Forcing
 * a coll/tuned algorithm needs coll_tuned_use_dynamic_rules = 1, so that
 * is written whenever a coll_tuned_ choice is; with a rules file it also
 * names the file by its absolute path, so the config works from any
 * directory.  A size range only the rules file can carry, and so are
 * algorithms measured at several job shapes.  Keyed by nothing: another
 * shape's same setting is written once, a differing one refused
 * (ct_emit_shape_conflict).
 */
#include "emit_format.h"

#include <string.h>

#include "ct_printable.h"

#define CT_USE_DYNAMIC "coll_tuned_use_dynamic_rules"
#define CT_RULES_FILENAME "coll_tuned_dynamic_rules_filename"

/* The lines below the header: choices, minus those colltune writes itself
 * and another shape's same setting (written once). */
static int ct_mca_line(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    return ct_emit_usable(c) && c->via == CT_VIA_MCA && !ct_emit_tuned_in_rules(r, c) &&
           strcmp(c->name, CT_USE_DYNAMIC) != 0 && strcmp(c->name, CT_RULES_FILENAME) != 0 &&
           !ct_emit_shape_repeat(r, c);
}

static int ct_mca_wanted(const ct_tune_result_t *r)
{
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (ct_emit_usable(c) && c->via == CT_VIA_MCA)
            return 1;
    }
    return 0;
}

/* The header's install text (the entry carries it). */
static const char *const ct_emit_mca_install[] = {
    "Name it first in mca_base_param_files, a comma-separated list that replaces",
    "Open MPI's default one, so keep the files it had (ompi_info --level 9 --param",
    "mca base | grep param_files shows them; Debian's system file disables pml ucx):",
    "  export OMPI_MCA_mca_base_param_files=@DIR@/mca-params.conf,"
    "$HOME/.openmpi/mca-params.conf,/etc/openmpi/openmpi-mca-params.conf",
    "Parameters on the mpirun command line or in OMPI_MCA_* variables win.",
    NULL};

static ct_status_t ct_mca_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    const ct_tune_result_t *r = ctx->r;
    int tuned = 0, rules = ct_emit_tuned_rules_wanted(r);

    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (!ct_mca_line(r, c))
            continue;
        ct_status_t st = ct_emit_check_name(c, "mca-params.conf", err, errlen);
        if (st == CT_OK)
            st = ct_emit_check_value("mca-params.conf", c->name, c->value,
                                     "one name = value per line", err, errlen);
        if (st == CT_OK && !ct_emit_full_range(c)) {
            snprintf(err, errlen,
                     "mca-params.conf: %s = %s holds over %lld..%lld bytes only; an MCA "
                     "parameter holds for every size, and only coll/tuned algorithms (with "
                     "their segment size and chain fan-out) have per-size rules",
                     c->name, c->value, c->min_bytes, c->max_bytes);
            st = CT_ERR_USAGE;
        }
        if (st == CT_OK && ct_emit_shape_conflict_in(r, c, "mca-params.conf", err, errlen) != NULL)
            st = CT_ERR_USAGE; /* one value for every job shape */
        if (st != CT_OK)
            return st;
    }
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        tuned |= ct_emit_usable(c) && c->via == CT_VIA_MCA &&
                 ct_library_is_coll_var(CT_LIB_OMPI, c->name);
    }

    ct_emit_header(ctx, fp, "mca-params.conf", "Open MPI MCA parameters (name = value)",
                   ct_emit_mca_params.install);
    if (tuned)
        fputs("# coll/tuned uses forced algorithms and rules files only with this "
              "set.\n" CT_USE_DYNAMIC " = 1\n",
              fp);
    if (rules) {
        fputs("# Per-size algorithms: Open MPI 4.1 classic rules, written beside this file.\n", fp);
        fputs(CT_RULES_FILENAME " = ", fp);
        ct_emit_put_dir(ctx, fp, "@DIR@/" CT_EMIT_TUNED_RULES_NAME "\n");
    }
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (!ct_mca_line(r, c))
            continue;
        /* Debian's system file excludes pml ucx: only a file read before
         * it can undo that (Open MPI takes a parameter's first setting). */
        if (strcmp(c->name, "pml") == 0 && strcmp(c->value, "ucx") == 0)
            fputs("# pml ucx: Debian's /etc/openmpi/openmpi-mca-params.conf says pml = ^ucx,\n"
                  "# so this file must come before it in mca_base_param_files (or be\n"
                  "# $HOME/.openmpi/mca-params.conf); without InfiniBand pml ucx also needs\n"
                  "# pml_ucx_tls = any and pml_ucx_devices = any (below).\n",
                  fp);
        /* A site file's value of the same parameter: this file, first in
         * mca_base_param_files, overrides it (site.h). */
        const ct_site_setting_t *e = ct_site_find(r->site, c->name, 1);
        if (e != NULL && e->source == CT_SITE_FILE && strcmp(e->value, c->value) != 0) {
            fprintf(fp, "# Overrides the site's %s = ", c->name);
            ct_printable_put(fp, e->value, strlen(e->value));
            fputs(" (", fp);
            ct_printable_put(fp, e->origin, strlen(e->origin));
            fputs("): this file comes first in mca_base_param_files.\n", fp);
        }
        fprintf(fp, "%s = %s\n", c->name, c->value);
    }
    return CT_OK;
}

/* Every MCA parameter the rules file does not carry, over every size;
 * coll_tuned_use_dynamic_rules over any (written whenever a coll/tuned
 * choice is, and alone it changes no decision: without rules or a forced
 * algorithm 4.1 decides as before). */
static ct_emit_carry_t ct_mca_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                      const char **why_p)
{
    if (c->via != CT_VIA_MCA || ct_emit_tuned_rules_carries(r, c, why_p) == CT_EMIT_CARRIES)
        return CT_EMIT_NOT_MINE;
    if (ct_emit_full_range(c))
        return CT_EMIT_CARRIES;
    if (strcmp(c->name, CT_USE_DYNAMIC) == 0)
        return CT_EMIT_CARRIES_ANY_SIZE;
    *why_p = "an MCA parameter holds for every size; only coll/tuned algorithms, segment "
             "sizes and fan-outs have per-size rules";
    return CT_EMIT_REFUSES;
}

/* A choice this file would carry with a stronger source setting it (or
 * turning coll/tuned's dynamic rules off): OMPI_MCA_, --mca or the
 * override file.  A forced algorithm goes to the rules file instead
 * (emit_tuned_rules.c), so no hook answers for it here. */
static const char *ct_mca_outranked(const ct_tune_result_t *r, const ct_tune_choice_t *c, char *buf,
                                    size_t len)
{
    if (c->via != CT_VIA_MCA || ct_emit_tuned_in_rules(r, c) ||
        strcmp(c->name, CT_USE_DYNAMIC) == 0 || strcmp(c->name, CT_RULES_FILENAME) == 0)
        return NULL;
    const char *why = NULL;
    const ct_site_setting_t *e =
        ct_site_outranks(r->site, "mca-params.conf", c->name, c->value, c->scope, &why);
    if (e == NULL)
        return NULL;
    snprintf(buf, len,
             "outranked by the site's MCA parameter %s = %s (%s): %s; no file colltune writes "
             "can undo it: set %s = %s there instead",
             e->name, e->value, e->origin, why ? why : "it is read before mca-params.conf", c->name,
             c->value);
    return buf;
}

/* Setting mca_base_param_files replaces Open MPI's own list (the user's
 * and the system's files), so the A/B keeps that list after ours. */
const ct_emit_format_t ct_emit_mca_params = {
    .name = "mca-params.conf",
    .wanted = ct_mca_wanted,
    .write = ct_mca_write,
    .install = ct_emit_mca_install,
    .outranked = ct_mca_outranked,
    .carries = ct_mca_carries,
};
