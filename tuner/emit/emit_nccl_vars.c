/*
 * emit_nccl_vars.c - the NCCL variables nccl.env and nccl.conf carry, and
 * which NCCL_ALGO / NCCL_PROTO choices go to the tuner plugin instead.
 *
 * NCCL reads a variable for every collective and size.  Two exceptions:
 * NCCL_ALGO has a per-collective form since 2.24
 * ("allreduce:tree;broadcast:ring"), and an algorithm and protocol chosen
 * together for one collective and size range is what the tuner plugin's
 * rules say.  A per-collective choice that fits neither cannot be
 * installed, and is refused rather than silently widened.
 */
#include "emit_format.h"

#include <stdlib.h>
#include <string.h>

#include "ct_vec.h"

static int ct_is_algo_or_proto(const char *name)
{
    return strcmp(name, "NCCL_ALGO") == 0 || strcmp(name, "NCCL_PROTO") == 0;
}

int ct_emit_nccl_is_rule(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    if (!ct_emit_usable(c) || c->scope == CT_SCOPE_GLOBAL || !ct_is_algo_or_proto(c->name))
        return 0;
    const char *partner = strcmp(c->name, "NCCL_ALGO") == 0 ? "NCCL_PROTO" : "NCCL_ALGO";
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *o = &r->choices[i];
        if (ct_emit_usable(o) && o->scope == c->scope && o->min_bytes == c->min_bytes &&
            o->max_bytes == c->max_bytes && strcmp(o->name, partner) == 0)
            return 1;
    }
    return 0;
}

static int ct_is_nccl(const ct_tune_choice_t *c)
{
    return c->via == CT_VIA_ENV && ct_emit_has_prefix(c->name, "NCCL_");
}

int ct_emit_nccl_vars_wanted(const ct_tune_result_t *r)
{
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (ct_emit_usable(c) && ct_is_nccl(c) && !ct_emit_nccl_is_rule(r, c))
            return 1;
    }
    return 0;
}

void ct_emit_vars_free(ct_emit_vars_t *vars)
{
    for (size_t i = 0; i < vars->count; i++)
        free(vars->vars[i].value);
    free(vars->vars);
    vars->vars = NULL;
    vars->count = 0;
    vars->cap = 0;
}

static ct_status_t ct_vars_add(ct_emit_vars_t *vars, const char *name, char *value)
{
    ct_emit_var_t v = {.name = name, .value = value};
    if (CT_VEC_PUSH(vars->vars, vars->count, vars->cap, &v) != CT_OK) {
        free(value);
        return CT_ERR_NOMEM;
    }
    return CT_OK;
}

static const char *ct_scope_name(int scope)
{
    const char *n = ct_coll_name((ct_coll_id_t)scope);
    return n ? n : "?";
}

/* Appends "coll:algos" for every per-collective whole-range NCCL_ALGO, in
 * collective order; *buf_p stays NULL when there is none. */
static ct_status_t ct_algo_per_coll(const ct_tune_result_t *r, char **buf_p, char *err,
                                    size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;

    for (int coll = 0; coll < CT_COLL_COUNT; coll++) {
        for (size_t i = 0; i < r->nchoices; i++) {
            const ct_tune_choice_t *c = &r->choices[i];
            if (!ct_emit_usable(c) || c->scope != coll || strcmp(c->name, "NCCL_ALGO") != 0 ||
                !ct_emit_full_range(c) || ct_emit_nccl_is_rule(r, c))
                continue;
            const ct_coll_name_t *cn = ct_coll_name_find(ct_scope_name(coll));
            if (cn == NULL || cn->nccl_func < 0) {
                snprintf(err, errlen,
                         "NCCL_ALGO for %s: NCCL runs it as send/recv and has no "
                         "algorithm to choose",
                         ct_scope_name(coll));
                free(buf);
                return CT_ERR_USAGE;
            }
            /* The per-collective NCCL_ALGO form takes NCCL's spelling. */
            const char *word = cn->nccl_name;
            size_t add = strlen(word) + 1 + strlen(c->value) + 1;
            char *n = realloc(buf, len + add + 1);
            if (n == NULL) {
                free(buf);
                return CT_ERR_NOMEM;
            }
            buf = n;
            len += (size_t)sprintf(buf + len, "%s%s:%s", len ? ";" : "", word, c->value);
        }
    }
    *buf_p = buf;
    return CT_OK;
}

ct_status_t ct_emit_nccl_vars(const ct_tune_result_t *r, ct_emit_vars_t *vars_p, char *err,
                              size_t errlen)
{
    ct_emit_vars_t vars = {0};
    ct_status_t st = CT_OK;
    int global_algo = 0;

    for (size_t i = 0; i < r->nchoices && st == CT_OK; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (!ct_emit_usable(c) || !ct_is_nccl(c) || ct_emit_nccl_is_rule(r, c))
            continue;
        st = ct_emit_check_name(c, "nccl.env", err, errlen);
        if (st != CT_OK)
            break;
        if (c->scope != CT_SCOPE_GLOBAL) {
            if (strcmp(c->name, "NCCL_ALGO") == 0 && ct_emit_full_range(c))
                continue; /* joined into the per-collective form below */
            snprintf(err, errlen,
                     "%s=%s for %s over %lld..%lld bytes: NCCL reads it for every collective "
                     "and size; only NCCL_ALGO has a per-collective form, and a size range "
                     "needs NCCL_ALGO and NCCL_PROTO together (the tuner plugin's rules)",
                     c->name, c->value, ct_scope_name(c->scope), c->min_bytes, c->max_bytes);
            st = CT_ERR_USAGE;
            break;
        }
        if (!ct_emit_full_range(c)) {
            snprintf(err, errlen,
                     "%s=%s holds only over %lld..%lld bytes, but NCCL reads it for "
                     "every size",
                     c->name, c->value, c->min_bytes, c->max_bytes);
            st = CT_ERR_USAGE;
            break;
        }
        for (size_t j = 0; j < vars.count; j++) {
            if (strcmp(vars.vars[j].name, c->name) == 0) {
                snprintf(err, errlen, "%s is chosen twice (%s and %s)", c->name, vars.vars[j].value,
                         c->value);
                st = CT_ERR_USAGE;
            }
        }
        if (st != CT_OK)
            break;
        global_algo |= strcmp(c->name, "NCCL_ALGO") == 0;
        char *value = strdup(c->value);
        st = value ? ct_vars_add(&vars, c->name, value) : CT_ERR_NOMEM;
    }

    char *per_coll = NULL;
    if (st == CT_OK)
        st = ct_algo_per_coll(r, &per_coll, err, errlen);
    if (st == CT_OK && per_coll != NULL) {
        if (global_algo) {
            snprintf(err, errlen,
                     "NCCL_ALGO is chosen both for all collectives and per collective (%s); "
                     "NCCL takes one NCCL_ALGO",
                     per_coll);
            free(per_coll);
            st = CT_ERR_USAGE;
        } else {
            st = ct_vars_add(&vars, "NCCL_ALGO", per_coll);
        }
    }
    if (st != CT_OK) {
        ct_emit_vars_free(&vars);
        return st;
    }
    *vars_p = vars;
    return CT_OK;
}
