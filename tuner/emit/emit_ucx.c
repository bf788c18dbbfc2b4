/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_ucx.c - ucx.conf: UCX's INI configuration file.
 *
 * UCX 1.13 (ucs/config/parser.c) reads ucx.conf from its compiled-in
 * directory (/etc/ucx on Debian), from ../etc/ucx.conf beside libucs, from
 * $HOME, from $UCX_CONFIG_DIR and from the working directory, each over
 * the ones before (checked here with ucp_config_read: a value in
 * $UCX_CONFIG_DIR/ucx.conf wins over /etc/ucx's and $HOME's, whose other
 * values stay); there is no variable naming the file itself.  Lines are
 * UCX_NAME=value; the environment wins over every file.
 * A value the INI reader would cut or misread (a newline, ';' or '#',
 * which start comments) is refused.  Keyed by nothing: another job shape's
 * same setting is written once, a differing one refused
 * (ct_emit_shape_conflict).
 */
#include "emit_format.h"

static int ct_is_ucx(const ct_tune_choice_t *c)
{
    return ct_emit_usable(c) && c->via == CT_VIA_ENV && ct_setting_is(c->name, c->via, CT_LIB_UCX);
}

/* A line of the file: another shape's same setting is written once. */
static int ct_ucx_line(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    return ct_is_ucx(c) && !ct_emit_shape_repeat(r, c);
}

static int ct_ucx_wanted(const ct_tune_result_t *r)
{
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_is_ucx(&r->choices[i]))
            return 1;
    return 0;
}

/* The header's install text (the entry carries it). */
static const char *const ct_emit_ucx_install[] = {
    "UCX reads ucx.conf from /etc/ucx, $HOME and $UCX_CONFIG_DIR, each over the one",
    "before, so a site's /etc/ucx/ucx.conf stays in force for what this file does",
    "not set. On every rank:",
    "  export UCX_CONFIG_DIR=@DIR@",
    "Variables set in the environment win; check with: UCX_CONFIG_DIR=@DIR@ ucx_info -c",
    NULL};

static ct_status_t ct_ucx_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    const ct_tune_result_t *r = ctx->r;

    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (!ct_ucx_line(r, c))
            continue;
        ct_status_t st = ct_emit_check_name(c, "ucx.conf", err, errlen);
        if (st == CT_OK)
            st = ct_emit_check_value("ucx.conf", c->name, c->value,
                                     "set it in the environment instead", err, errlen);
        if (st == CT_OK && (c->scope != CT_SCOPE_GLOBAL || !ct_emit_full_range(c))) {
            snprintf(err, errlen,
                     "ucx.conf: %s=%s holds for one collective or size range only; UCX "
                     "reads it for all traffic",
                     c->name, c->value);
            st = CT_ERR_USAGE;
        }
        if (st == CT_OK && ct_emit_shape_conflict_in(r, c, "ucx.conf", err, errlen) != NULL)
            st = CT_ERR_USAGE; /* one value for every job shape */
        if (st != CT_OK)
            return st;
    }
    ct_emit_header(ctx, fp, "ucx.conf", "UCX configuration (UCX 1.13 INI, UCX_NAME=value)",
                   ct_emit_ucx_conf.install);
    for (size_t i = 0; i < r->nchoices; i++)
        if (ct_ucx_line(r, &r->choices[i]))
            fprintf(fp, "%s=%s\n", r->choices[i].name, r->choices[i].value);
    return CT_OK;
}

/* A UCX variable the site sets in the environment (or in ./ucx.conf,
 * read after $UCX_CONFIG_DIR's): UCX takes that over this file, and no
 * file can beat the environment. */
static const char *ct_ucx_outranked(const ct_tune_result_t *r, const ct_tune_choice_t *c, char *buf,
                                    size_t len)
{
    if (c->via != CT_VIA_ENV || !ct_setting_is(c->name, c->via, CT_LIB_UCX))
        return NULL;
    const char *why = NULL;
    const ct_site_setting_t *e =
        ct_site_outranks(r->site, "ucx.conf", c->name, c->value, c->scope, &why);
    if (e == NULL)
        return NULL;
    snprintf(buf, len,
             "outranked by the site's %s=%s (%s): %s; no ucx.conf can undo it: set %s=%s in "
             "the job's environment instead",
             e->name, e->value, e->origin, why ? why : "UCX reads the environment first", c->name,
             c->value);
    return buf;
}

/* A UCX variable over every size (UCX reads it for every size). */
static ct_emit_carry_t ct_ucx_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                      const char **why_p)
{
    (void)r;
    (void)why_p;
    return c->via == CT_VIA_ENV && ct_setting_is(c->name, c->via, CT_LIB_UCX) &&
                   ct_emit_full_range(c)
               ? CT_EMIT_CARRIES
               : CT_EMIT_NOT_MINE;
}

/* UCX looks for ucx.conf in a directory, not at a path. */
const ct_emit_format_t ct_emit_ucx_conf = {
    .name = "ucx.conf",
    .wanted = ct_ucx_wanted,
    .write = ct_ucx_write,
    .install = ct_emit_ucx_install,
    .outranked = ct_ucx_outranked,
    .carries = ct_ucx_carries,
};
