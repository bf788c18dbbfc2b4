/* SPDX-License-Identifier: BSD-3-Clause */
/* configs.h: the checks, the communicators and their ids. */
#include "configs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_hash.h"
#include "ct_vec.h"

/* The start-up entry of name, or NULL. */
static const ct_cvar_t *ct_configs_startup(const ct_configs_t *c, const char *name)
{
    for (size_t i = 0; i < c->startup.n; i++)
        if (strcmp(c->startup.v[i].name, name) == 0)
            return &c->startup.v[i];
    return NULL;
}

/* Probes every setting on this rank, adding each new name's start-up
 * value to c->startup. */
static ct_status_t ct_configs_probe(ct_configs_t *c, const ct_options_t *opts, char *err,
                                    size_t errlen)
{
    for (int k = 0; k < opts->nconfigs; k++)
        for (int i = 0; i < opts->configs[k].n; i++) {
            const ct_setting_t *s = &opts->configs[k].s[i];
            ct_cvar_t probed;
            ct_status_t st = c->kind->probe(s->name, s->value, &probed, err, errlen);
            if (st != CT_OK)
                return st;
            if (ct_configs_startup(c, s->name))
                continue;
            if (c->startup.n == CT_CVARS_MAX) {
                snprintf(err, errlen, "--config: more than %d distinct names", CT_CVARS_MAX);
                return CT_ERR_USAGE;
            }
            c->startup.v[c->startup.n++] = probed;
        }
    return CT_OK;
}

/* Every rank's verdict: the lowest failing rank prints its message. */
static ct_status_t ct_configs_agree(ct_world_t *world, ct_status_t st, const char *err)
{
    long long first = st != CT_OK ? ct_world_rank(world) : ct_world_size(world);
    long long worst = st;
    ct_world_allreduce_long(world, &first, 1, CT_REDUCE_MIN);
    ct_world_allreduce_long(world, &worst, 1, CT_REDUCE_MIN);
    if (first == ct_world_rank(world))
        fprintf(stderr, "collbench: error: %s%s\n", err, first ? " (on a rank other than 0)" : "");
    return (ct_status_t)worst;
}

/* The value configuration cfg gives name (its own, or the start-up one;
 * NULL: the start-up environment did not set it). */
static const char *ct_configs_value(const ct_config_t *cfg, const ct_cvar_t *startup)
{
    for (int i = 0; cfg && i < cfg->n; i++)
        if (strcmp(cfg->s[i].name, startup->name) == 0)
            return cfg->s[i].value;
    return startup->unset ? NULL : startup->value;
}

/* Writes every named variable to cfg's value (NULL: the start-up ones). */
static ct_status_t ct_configs_write(const ct_configs_t *c, const ct_config_t *cfg, char *err,
                                    size_t errlen)
{
    for (size_t i = 0; i < c->startup.n; i++) {
        ct_status_t st = c->kind->write(c->startup.v[i].name,
                                        ct_configs_value(cfg, &c->startup.v[i]), err, errlen);
        if (st != CT_OK)
            return st;
    }
    return CT_OK;
}

/* The settings' names, comma-separated, for the kind's read. */
static void ct_configs_names(const ct_configs_t *c, char *buf, size_t buflen)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < c->startup.n && used < buflen; i++) {
        int k = snprintf(buf + used, buflen - used, "%s%s", i ? "," : "", c->startup.v[i].name);
        used += k > 0 ? (size_t)k : 0;
    }
}

static int ct_configs_cmp(const void *a, const void *b)
{
    return strcmp(((const ct_setting_t *)a)->name, ((const ct_setting_t *)b)->name);
}

/* The run's id, then the settings sorted by name: one id whatever their
 * order on the command line.  A --config-for's collective is hashed too,
 * so the same settings on two collectives are two ids (a --config's id is
 * what it always was). */
static void ct_configs_id(const char *run_config_id, const ct_config_t *cfg, char *buf,
                          size_t buflen)
{
    ct_config_t sorted = *cfg;
    uint64_t h = ct_hash_string(CT_HASH_INIT, run_config_id);
    if (cfg->coll != NULL) {
        h = ct_hash_string(h, "\nfor=");
        h = ct_hash_string(h, cfg->coll->name);
    }
    ct_vec_sort(sorted.s, (size_t)sorted.n, sizeof sorted.s[0], ct_configs_cmp);
    for (int i = 0; i < sorted.n; i++) {
        h = ct_hash_string(h, "\n");
        h = ct_hash_string(h, sorted.s[i].name);
        h = ct_hash_string(h, "=");
        h = ct_hash_string(h, sorted.s[i].value);
    }
    snprintf(buf, buflen, "%016" PRIx64, h);
}

/* "NAME=VALUE,...", or "COLL:NAME=VALUE,..." for a --config-for: as
 * given. */
static void ct_configs_label(const ct_config_t *cfg, char *buf, size_t buflen)
{
    size_t used = 0;
    buf[0] = '\0';
    if (cfg->coll != NULL) {
        int k = snprintf(buf, buflen, "%s:", cfg->coll->name);
        used = k > 0 ? (size_t)k : 0;
    }
    for (int i = 0; i < cfg->n && used < buflen; i++) {
        int k = snprintf(buf + used, buflen - used, "%s%s=%s", i ? "," : "", cfg->s[i].name,
                         cfg->s[i].value);
        used += k > 0 ? (size_t)k : 0;
    }
}

/* Configuration k's values in force, and what the kind reads back then
 * into r->cvars. */
static ct_status_t ct_configs_apply(const ct_configs_t *c, ct_config_run_t *r, char *err,
                                    size_t errlen)
{
    char names[CT_CVARS_MAX * 96];
    ct_status_t st = ct_configs_write(c, r->config, err, errlen);
    if (st == CT_OK) {
        ct_configs_names(c, names, sizeof names);
        st = c->kind->read(names, &r->cvars, err, errlen);
    }
    return st;
}

/* Configuration k >= 1: its id and label, a duplicate of world, and (a
 * kind read at communicator creation) its values written around the
 * duplicate and read back. */
static ct_status_t ct_configs_make(ct_world_t *world, ct_configs_t *c, int k,
                                   const ct_options_t *opts, const char *run_config_id, char *err,
                                   size_t errlen)
{
    ct_config_run_t *r = &c->v[k];
    ct_status_t st = CT_OK;

    r->index = k;
    r->config = &opts->configs[k - 1];
    ct_configs_id(run_config_id, r->config, r->config_id, sizeof r->config_id);
    ct_configs_label(r->config, r->label, sizeof r->label);
    if (!c->kind->at_open)
        st = ct_configs_apply(c, r, err, errlen);
    /* A kind read at every call (MPICH) is in force only around k's
     * measurements: MPICH's own collectives inside MPI_Comm_dup would run
     * k's algorithm (and fail where MPIR_CVAR_COLLECTIVE_FALLBACK=error
     * and it cannot run there). */
    if (st == CT_OK && c->kind->at_call)
        st = ct_configs_write(c, NULL, err, errlen);
    /* Collective whatever this rank's verdict: the others are in it. */
    ct_status_t dst = ct_world_dup(world, &r->world);
    return st != CT_OK ? st : dst;
}

/* Writes the start-up values back and reads them again: a communicator
 * made later (by collbench or the library) gets what it would have. */
static ct_status_t ct_configs_restore(const ct_configs_t *c, char *err, size_t errlen)
{
    char names[CT_CVARS_MAX * 96];
    ct_cvars_t now;
    ct_status_t st = ct_configs_write(c, NULL, err, errlen);
    if (st == CT_OK) {
        ct_configs_names(c, names, sizeof names);
        st = c->kind->read(names, &now, err, errlen);
    }
    for (size_t i = 0; st == CT_OK && i < now.n; i++)
        if (strcmp(now.v[i].value, c->startup.v[i].value) != 0 ||
            now.v[i].unset != c->startup.v[i].unset) {
            snprintf(err, errlen,
                     "--config: %s reads %s after its start-up value %s was written back",
                     now.v[i].name, now.v[i].unset ? "(unset)" : now.v[i].value,
                     c->startup.v[i].unset ? "(unset)" : c->startup.v[i].value);
            st = CT_ERR_BACKEND;
        }
    return st;
}

static void ct_configs_zero(ct_configs_t *c, const char *run_config_id)
{
    ct_config_run_t *r = &c->v[0];
    r->index = 0;
    snprintf(r->config_id, sizeof r->config_id, "%s", run_config_id);
    snprintf(r->label, sizeof r->label, "start-up values");
    r->cvars = c->startup;
}

ct_status_t ct_configs_create(ct_world_t *world, const ct_backend_ops_t *ops,
                              const ct_options_t *opts, const char *run_config_id,
                              ct_configs_t **out)
{
    char err[1024] = "";
    *out = NULL;
    if (opts->nconfigs == 0)
        return CT_OK;
    if (ops->configs == NULL) {
        /* ct_options_parse refuses this; a caller that did not parse. */
        if (ct_world_rank(world) == 0)
            fprintf(stderr, "collbench: error: --config: the %s backend has no configurations\n",
                    ops->name);
        return CT_ERR_USAGE;
    }
    ct_configs_t *c = calloc(1, sizeof *c);
    if (c == NULL) {
        fprintf(stderr, "collbench: out of memory for --config\n");
        ct_world_abort(world, CT_EXIT_FAILURE);
    }
    c->kind = ops->configs;
    ct_status_t st = c->kind->hold ? c->kind->hold(err, sizeof err) : CT_OK;
    c->held = st == CT_OK && c->kind->hold != NULL;
    st =
        ct_configs_agree(world, st == CT_OK ? ct_configs_probe(c, opts, err, sizeof err) : st, err);
    if (st == CT_OK && ct_world_rank(world) == 0 && c->kind->note)
        c->kind->note(opts);
    ct_configs_zero(c, run_config_id);
    c->n = 1;
    for (int k = 1; st == CT_OK && k <= opts->nconfigs; k++, c->n++)
        st = ct_configs_agree(
            world, ct_configs_make(world, c, k, opts, run_config_id, err, sizeof err), err);
    if (st == CT_OK && !c->kind->at_open)
        st = ct_configs_agree(world, ct_configs_restore(c, err, sizeof err), err);
    if (st != CT_OK) {
        ct_configs_free(c);
        return st;
    }
    *out = c;
    return CT_OK;
}

/* A kind read at communicator creation (at_open): the start-up values
 * again, now that configuration 0's open() has run.  NCCL's first init
 * puts NCCL_CONF_FILE's (or ~/.nccl.conf's, /etc/nccl.conf's) values into
 * the environment where it had none, so those are what configuration 0
 * ran with and what every configuration's unnamed variables must be. */
static ct_status_t ct_configs_reread(ct_configs_t *c, char *err, size_t errlen)
{
    char names[CT_CVARS_MAX * 96];
    ct_configs_names(c, names, sizeof names);
    ct_status_t st = c->kind->read(names, &c->startup, err, errlen);
    if (st == CT_OK)
        c->v[0].cvars = c->startup;
    return st;
}

ct_status_t ct_configs_open(ct_configs_t *c, const ct_backend_ops_t *ops,
                            const ct_backend_config_t *bc)
{
    char why[512] = "", err[1024] = "";
    ct_world_t *world = c->n > 1 ? c->v[1].world : NULL;
    ct_status_t st = CT_OK;
    c->ops = ops;
    if (c->kind->at_open && world)
        st = ct_configs_agree(world, ct_configs_reread(c, err, sizeof err), err);
    for (int k = 1; st == CT_OK && k < c->n; k++) {
        ct_config_run_t *r = &c->v[k];
        /* Every rank enters open() or none does: it is collective. */
        if (c->kind->at_open)
            st = ct_configs_agree(r->world, ct_configs_apply(c, r, err, sizeof err), err);
        if (st == CT_OK) {
            st = ops->open(r->world, bc, &r->ctx, why, sizeof why);
            if (st != CT_OK && ct_world_rank(r->world) == 0)
                fprintf(stderr, "collbench: error: --config %s: the %s backend: %s\n", r->label,
                        ops->name, why);
        }
        /* Restored whatever open() said: nothing after it sees k's values. */
        if (c->kind->at_open) {
            ct_status_t rst =
                ct_configs_agree(r->world, ct_configs_restore(c, err, sizeof err), err);
            st = st != CT_OK ? st : rst;
        }
    }
    return st;
}

void ct_configs_free(ct_configs_t *c)
{
    if (c == NULL)
        return;
    for (int k = 1; k < c->n; k++) {
        if (c->v[k].ctx && c->ops)
            c->ops->close(c->v[k].ctx);
        ct_world_free(c->v[k].world);
    }
    if (c->held && c->kind->release)
        c->kind->release();
    free(c);
}

ct_status_t ct_configs_enter(const ct_configs_t *c, int k)
{
    char err[1024] = "";
    if (c == NULL || k <= 0 || !c->kind->at_call)
        return CT_OK;
    ct_status_t st = ct_configs_write(c, c->v[k].config, err, sizeof err);
    if (st != CT_OK)
        fprintf(stderr, "collbench: error: configuration %d: %s\n", k, err);
    return st;
}

ct_status_t ct_configs_leave(const ct_configs_t *c, int k)
{
    char err[1024] = "";
    if (c == NULL || k <= 0 || !c->kind->at_call)
        return CT_OK;
    ct_status_t st = ct_configs_write(c, NULL, err, sizeof err);
    if (st != CT_OK)
        fprintf(stderr, "collbench: error: configuration %d: restoring: %s\n", k, err);
    return st;
}

int ct_configs_measures(const ct_configs_t *c, int k, const ct_coll_desc_t *coll)
{
    return c == NULL || k == 0 || c->v[k].config->coll == NULL || c->v[k].config->coll == coll;
}

void *ct_configs_ctx(const ct_configs_t *c, int k, void *ctx0)
{
    return c && k > 0 ? c->v[k].ctx : ctx0;
}
