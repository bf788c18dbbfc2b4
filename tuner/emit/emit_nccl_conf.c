/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_nccl_conf.c - nccl.conf: the file NCCL reads from $NCCL_CONF_FILE,
 * else ~/.nccl.conf, then /etc/nccl.conf (src/misc/param.cc).
 *
 * NCCL reads it line by line: '#' in the first column is a comment, the
 * name ends at the first '=', the rest of the line up to the newline is
 * the value (no quoting, no trimming, 1023 bytes at most), and a variable
 * already in the environment wins.  A value with a newline cannot be
 * written, so it is refused.
 */
#include "emit_format.h"

/* The header's install text (the entry carries it). */
static const char *const ct_emit_nccl_conf_install[] = {
    "Point NCCL at it on every rank (or copy it to ~/.nccl.conf or /etc/nccl.conf):",
    "  export NCCL_CONF_FILE=@DIR@/nccl.conf",
    "Variables already set in the environment win over this file.", NULL};

static ct_status_t ct_nccl_conf_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    ct_emit_vars_t vars;
    ct_status_t st = ct_emit_nccl_vars(ctx->r, &vars, err, errlen);
    if (st != CT_OK)
        return st;
    for (size_t i = 0; i < vars.count && st == CT_OK; i++)
        st = ct_emit_check_value("nccl.conf", vars.vars[i].name, vars.vars[i].value,
                                 "NCCL reads one NAME=value per line, without quoting; use "
                                 "nccl.env",
                                 err, errlen);
    if (st == CT_OK) {
        ct_emit_header(ctx, fp, "nccl.conf", "NCCL configuration file (NAME=value)",
                       ct_emit_nccl_conf.install);
        st = ct_emit_nccl_coverage(ctx, fp);
    }
    if (st == CT_OK) {
        for (size_t i = 0; i < vars.count; i++)
            fprintf(fp, "%s=%s\n", vars.vars[i].name, vars.vars[i].value);
    }
    ct_emit_vars_free(&vars);
    return st;
}

/* Not written when the site's environment outranks one of its settings
 * (emit_nccl_site.c): nccl.env, sourced after it, carries them all, and
 * a nccl.conf beside it would read as if it worked. */
int ct_emit_nccl_conf_wanted(const ct_tune_result_t *r)
{
    ct_emit_vars_t vars;
    char err[512];
    if (!ct_emit_nccl_vars_wanted(r))
        return 0;
    if (r->site == NULL || ct_emit_nccl_vars(r, &vars, err, sizeof err) != CT_OK)
        return 1; /* the writer reports an error */
    int outranked = ct_emit_nccl_site_outranks_conf(r, &vars);
    ct_emit_vars_free(&vars);
    return !outranked;
}

const ct_emit_format_t ct_emit_nccl_conf = {
    .name = "nccl.conf",
    .wanted = ct_emit_nccl_conf_wanted,
    .write = ct_nccl_conf_write,
    .install = ct_emit_nccl_conf_install,
    .carries = ct_emit_nccl_vars_carries,
};
