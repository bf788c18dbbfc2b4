/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_nccl_env.c - nccl.env: NCCL's variables as a file sh can source.
 *
 * Every value is single-quoted; a ' inside becomes '\'' (close, escaped
 * quote, reopen), the one quoting that no shell expands anything in, so
 * spaces, $(...), backticks and newlines reach NCCL unchanged.
 */
#include "emit_format.h"

static void ct_put_sh_quoted(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", fp);
        else
            fputc(*s, fp);
    }
    fputc('\'', fp);
}

/* The header's install text (the entry carries it). */
static const char *const ct_emit_nccl_env_install[] = {
    "Source it in the job script before the launcher, which passes the",
    "environment on (mpirun: add -x for each NAME; srun: --export=ALL):", "  . @DIR@/nccl.env",
    "Variables already set in the environment are overwritten by this file.", NULL};

static ct_status_t ct_nccl_env_write(const ct_emit_ctx_t *ctx, FILE *fp, char *err, size_t errlen)
{
    ct_emit_vars_t vars;
    ct_status_t st = ct_emit_nccl_vars(ctx->r, &vars, err, errlen);
    if (st != CT_OK)
        return st;
    ct_emit_header(ctx, fp, "nccl.env", "NCCL environment variables, sourceable by sh",
                   ct_emit_nccl_env.install);
    st = ct_emit_nccl_coverage(ctx, fp);
    for (size_t i = 0; i < vars.count && st == CT_OK; i++) {
        fprintf(fp, "export %s=", vars.vars[i].name);
        ct_put_sh_quoted(fp, vars.vars[i].value);
        fputc('\n', fp);
    }
    ct_emit_vars_free(&vars);
    return st;
}

/* The A/B sources it (its row's load, NULL here) when nccl.conf is not
 * written (the site's environment outranks it, emit_nccl_site.c): then it
 * is the file that carries the settings, and it must be what runs;
 * otherwise it loads nccl.conf, which holds the same, and not this. */
static const ct_emit_load_t ct_nccl_env_unloaded = {.kind = CT_FILE_LOAD_NONE};

static const ct_emit_load_t *ct_nccl_env_load(const ct_tune_result_t *r)
{
    return ct_emit_nccl_conf_wanted(r) ? &ct_nccl_env_unloaded : NULL;
}

/* Sourced by a person, not loaded by a library: it holds what nccl.conf
 * holds, and the A/B loads nccl.conf, unless nccl.conf is not written
 * (load_for). */
const ct_emit_format_t ct_emit_nccl_env = {
    .name = "nccl.env",
    .wanted = ct_emit_nccl_vars_wanted,
    .write = ct_nccl_env_write,
    .install = ct_emit_nccl_env_install,
    .load_for = ct_nccl_env_load,
    .carries = ct_emit_nccl_vars_carries,
};
