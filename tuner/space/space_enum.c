/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * space_enum.c - the configurations of one scope at one rank count.
 *
 * Scopes are enumerated apart (per-collective variables cost N*K trials,
 * not K^N); inside a scope the searched variables combine, except that a
 * when= variable only varies while the variable it depends on has one of
 * the listed values (a segment size matters only to segmented algorithms).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_hash.h"
#include "ct_vec.h"
#include "space.h"
#include "space_known.h"

/* A configuration being built: settings in no particular order. */
typedef struct {
    ct_space_setting_t *s;
    size_t n, cap;
} ct_settings_t;

typedef struct {
    const ct_space_t *space;
    long nranks;
    ct_settings_t base; /* the fixed variables */
    size_t *vars;       /* the scope's searched variables, in file order */
    size_t nvars;
    char ***runnable; /* per variable: its values valid at nranks */
    size_t *nrunnable;
    const char **chosen; /* per variable of the space: the value, or NULL (unset) */
    ct_space_visit_fn visit;
    void *user;
} ct_enum_t;

static int ct_setting_cmp(const void *a, const void *b)
{
    return strcmp(((const ct_space_setting_t *)a)->name, ((const ct_space_setting_t *)b)->name);
}

void ct_space_config_key(const ct_space_setting_t *settings, size_t n, char *buf, size_t buflen)
{
    const ct_space_setting_t **order = malloc((n ? n : 1) * sizeof *order);
    uint64_t h = CT_HASH_INIT;
    if (order == NULL) { /* cannot sort: hash as given (callers pass sorted) */
        for (size_t i = 0; i < n; i++) {
            h = ct_hash_string(h, settings[i].name);
            h = ct_hash_bytes(h, "=", 1);
            h = ct_hash_string(h, settings[i].value);
            h = ct_hash_bytes(h, "\n", 1);
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            size_t j = i;
            while (j > 0 && strcmp(order[j - 1]->name, settings[i].name) > 0) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = &settings[i];
        }
        for (size_t i = 0; i < n; i++) {
            h = ct_hash_string(h, order[i]->name);
            h = ct_hash_bytes(h, "=", 1);
            h = ct_hash_string(h, order[i]->value);
            h = ct_hash_bytes(h, "\n", 1);
        }
        free(order);
    }
    snprintf(buf, buflen, "%016" PRIx64, h);
}

/* Adds name=value; a second, different value for one name is a conflict
 * (returned as 1, with the other value in *other_p). */
static int ct_settings_add(ct_settings_t *s, const char *name, const char *value, ct_via_t via,
                           const char **other_p)
{
    for (size_t i = 0; i < s->n; i++) {
        if (strcmp(s->s[i].name, name) == 0) {
            *other_p = s->s[i].value;
            return strcmp(s->s[i].value, value) != 0;
        }
    }
    /* Borrowed strings: copied when the configuration is emitted. */
    ct_space_setting_t set = {.name = (char *)name, .value = (char *)value, .via = via};
    return CT_VEC_PUSH(s->s, s->n, s->cap, &set) == CT_OK ? 0 : -1;
}

/* Builds a configuration from settings (copied, sorted) and hands it to
 * the visitor, which owns it from then on. */
static ct_status_t ct_enum_emit(ct_enum_t *e, const ct_settings_t *s, int baseline,
                                const char *skip)
{
    ct_space_config_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        return CT_ERR_NOMEM;
    c->settings = calloc(s->n ? s->n : 1, sizeof *c->settings);
    if (c->settings == NULL) {
        free(c);
        return CT_ERR_NOMEM;
    }
    for (size_t i = 0; i < s->n; i++) {
        c->settings[i].name = strdup(s->s[i].name);
        c->settings[i].value = strdup(s->s[i].value);
        c->settings[i].via = s->s[i].via;
        c->n++;
        if (c->settings[i].name == NULL || c->settings[i].value == NULL) {
            ct_space_config_free(c);
            free(c);
            return CT_ERR_NOMEM;
        }
    }
    ct_vec_sort(c->settings, c->n, sizeof *c->settings, ct_setting_cmp);
    ct_space_config_key(c->settings, c->n, c->key, sizeof c->key);
    c->baseline = baseline;
    if (skip && (c->skip = strdup(skip)) == NULL) {
        ct_space_config_free(c);
        free(c);
        return CT_ERR_NOMEM;
    }
    ct_status_t st = e->visit(e->user, c);
    free(c); /* the struct; its contents are the visitor's */
    return st;
}

/* The settings of the chosen values: base, each variable and what it
 * requires.  A conflict is written into skip. */
static ct_status_t ct_enum_settings(ct_enum_t *e, ct_settings_t *s, char *skip, size_t skiplen)
{
    const ct_space_t *sp = e->space;
    const char *other;
    skip[0] = '\0';
    for (size_t i = 0; i < e->base.n; i++)
        if (ct_settings_add(s, e->base.s[i].name, e->base.s[i].value, e->base.s[i].via, &other) < 0)
            return CT_ERR_NOMEM;
    for (size_t k = 0; k < sp->nvars; k++) {
        const ct_space_var_t *v = &sp->vars[k];
        if (e->chosen[k] == NULL)
            continue;
        int rc = ct_settings_add(s, v->name, e->chosen[k], v->via, &other);
        for (size_t r = 0; rc == 0 && r < v->nrequires; r++) {
            rc = ct_settings_add(s, v->requires[r].name, v->requires[r].value, v->requires[r].via,
                                 &other);
            if (rc > 0)
                snprintf(skip, skiplen, "%s=%s requires %s=%s, which conflicts with %s", v->name,
                         e->chosen[k], v->requires[r].name, v->requires[r].value, other);
        }
        if (rc < 0)
            return CT_ERR_NOMEM;
        if (rc > 0 && skip[0] == '\0')
            snprintf(skip, skiplen, "%s=%s conflicts with %s=%s", v->name, e->chosen[k], v->name,
                     other);
    }
    return CT_OK;
}

/* Why the chosen values break a constraint of this scope, into skip. */
static void ct_enum_constraints(const ct_enum_t *e, char *skip, size_t skiplen)
{
    const ct_space_t *sp = e->space;
    for (size_t c = 0; c < sp->nconstraints && skip[0] == '\0'; c++) {
        const ct_space_constraint_t *con = &sp->constraints[c];
        long long acc = con->op == CT_CONSTRAINT_PRODUCT ? 1 : 0;
        int known = 1;
        char terms[256] = "";
        for (size_t k = 0; k < con->nvars && known; k++) {
            const ct_space_var_t *v = &sp->vars[con->vars[k]];
            const char *value = e->chosen[con->vars[k]] ? e->chosen[con->vars[k]] : v->def;
            if (value == NULL || v->scope != sp->vars[e->vars[0]].scope) {
                known = 0; /* unset without a default, or another scope */
                break;
            }
            long long x = strtoll(value, NULL, 10);
            acc = ct_space_constraint_step(con->op, acc, x);
            size_t used = strlen(terms);
            snprintf(terms + used, sizeof terms - used, "%s%s=%s",
                     k ? (con->op ? " + " : " * ") : "", v->name, value);
        }
        if (!known)
            continue;
        if (con->has_max && acc > con->max)
            snprintf(skip, skiplen, "constraint %s: %s = %lld > max %lld", con->name, terms, acc,
                     con->max);
        else if (con->has_min && acc < con->min)
            snprintf(skip, skiplen, "constraint %s: %s = %lld < min %lld", con->name, terms, acc,
                     con->min);
    }
}

/* Whether every chosen value is its variable's default: what the baseline
 * measures already. */
static int ct_enum_all_default(const ct_enum_t *e)
{
    for (size_t k = 0; k < e->nvars; k++) {
        const ct_space_var_t *v = &e->space->vars[e->vars[k]];
        const char *value = e->chosen[e->vars[k]];
        if (value && (v->def == NULL || strcmp(value, v->def) != 0))
            return 0;
    }
    return 1;
}

static ct_status_t ct_enum_combination(ct_enum_t *e)
{
    if (ct_enum_all_default(e))
        return CT_OK;
    ct_settings_t s = {NULL, 0, 0};
    char skip[512];
    ct_status_t st = ct_enum_settings(e, &s, skip, sizeof skip);
    if (st == CT_OK) {
        ct_enum_constraints(e, skip, sizeof skip);
        st = ct_enum_emit(e, &s, 0, skip[0] ? skip : NULL);
    }
    free(s.s);
    return st;
}

/* Variable k of the scope onward, for every choice. */
/* Whether the k-th variable of the walk varies under the values chosen so
 * far: it has a runnable value, and its "when" (if any) holds.  Both the
 * full walk and the sampler's index decoding ask this, and must agree. */
static int ct_enum_active(const ct_enum_t *e, size_t k)
{
    const ct_space_var_t *v = &e->space->vars[e->vars[k]];
    int active = e->nrunnable[k] > 0;
    if (active && v->nwhen) {
        const char *dep = e->chosen[v->when_var];
        active = 0;
        for (size_t i = 0; dep && i < v->nwhen; i++)
            active |= strcmp(dep, v->when_values[i]) == 0;
    }
    return active;
}

static ct_status_t ct_enum_from(ct_enum_t *e, size_t k)
{
    if (k == e->nvars)
        return ct_enum_combination(e);
    size_t idx = e->vars[k];
    if (!ct_enum_active(e, k)) {
        e->chosen[idx] = NULL;
        return ct_enum_from(e, k + 1);
    }
    for (size_t i = 0; i < e->nrunnable[k]; i++) {
        e->chosen[idx] = e->runnable[k][i];
        ct_status_t st = ct_enum_from(e, k + 1);
        if (st != CT_OK)
            return st;
    }
    e->chosen[idx] = NULL;
    return CT_OK;
}

/* The most ranks var=value is valid at, from what colltune knows (two_proc)
 * or else from the file's max_ranks; 0: no limit. */
static long ct_enum_limit(const ct_space_var_t *v, const char *value, const char **why_p)
{
    long known = ct_space_known_max_ranks(v->name, value, why_p);
    if (known > 0) /* colltune's own reason is the more telling one */
        return known;
    for (size_t i = 0; i < v->nlimits; i++) {
        if (strcmp(v->limits[i].value, value) == 0) {
            *why_p = v->limits[i].why;
            return v->limits[i].max_ranks;
        }
    }
    return 0;
}

/* Each variable's values valid at nranks: the ones that combine. */
static ct_status_t ct_enum_runnable(ct_enum_t *e)
{
    for (size_t k = 0; k < e->nvars; k++) {
        const ct_space_var_t *v = &e->space->vars[e->vars[k]];
        e->runnable[k] = calloc(v->nvalues ? v->nvalues : 1, sizeof **e->runnable);
        if (e->runnable[k] == NULL)
            return CT_ERR_NOMEM;
        for (size_t i = 0; i < v->nvalues; i++) {
            const char *why = NULL;
            long max = ct_enum_limit(v, v->values[i], &why);
            if (max == 0 || e->nranks <= max)
                e->runnable[k][e->nrunnable[k]++] = v->values[i];
        }
    }
    return CT_OK;
}

/* One skipped configuration for each value invalid at nranks. */
static ct_status_t ct_enum_limit_skips(ct_enum_t *e)
{
    for (size_t k = 0; k < e->nvars; k++) {
        size_t idx = e->vars[k];
        const ct_space_var_t *v = &e->space->vars[idx];
        for (size_t i = 0; i < v->nvalues; i++) {
            const char *why = NULL;
            long max = ct_enum_limit(v, v->values[i], &why);
            if (max == 0 || e->nranks <= max)
                continue;
            char skip[512];
            snprintf(skip, sizeof skip,
                     "%s=%s is valid only up to %ld ranks, this run has %ld (%s)", v->name,
                     v->values[i], max, e->nranks, why ? why : "limit");
            ct_settings_t s = {NULL, 0, 0};
            char conflict[512];
            memset(e->chosen, 0, e->space->nvars * sizeof *e->chosen);
            e->chosen[idx] = v->values[i];
            ct_status_t st = ct_enum_settings(e, &s, conflict, sizeof conflict);
            if (st == CT_OK)
                st = ct_enum_emit(e, &s, 0, skip);
            free(s.s);
            e->chosen[idx] = NULL;
            if (st != CT_OK)
                return st;
        }
    }
    return CT_OK;
}

static void ct_enum_close(ct_enum_t *e)
{
    for (size_t k = 0; e->runnable && k < e->nvars; k++)
        free(e->runnable[k]);
    free(e->runnable);
    free(e->nrunnable);
    free(e->chosen);
    free(e->vars);
    free(e->base.s);
    memset(e, 0, sizeof *e);
}

/* The base settings (fixed variables), the scope's searched variables and
 * their values valid at nranks; ct_enum_close frees them, even on error. */
static ct_status_t ct_enum_open(ct_enum_t *e, const ct_space_t *space, int scope, long nranks,
                                char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    e->space = space;
    e->nranks = nranks;
    if (nranks < 1 || scope < CT_SCOPE_GLOBAL || scope >= CT_COLL_COUNT) {
        snprintf(err, errlen, "%s: cannot enumerate scope %d at %ld ranks", space->path, scope,
                 nranks);
        return CT_ERR_USAGE;
    }
    ct_status_t st = CT_OK;
    const char *other;
    for (size_t i = 0; i < space->nvars && st == CT_OK; i++) {
        const ct_space_var_t *v = &space->vars[i];
        if (v->kind == CT_SPACE_FIXED &&
            ct_settings_add(&e->base, v->name, v->values[0], v->via, &other) < 0)
            st = CT_ERR_NOMEM;
    }
    e->vars = calloc(space->nvars + 1, sizeof *e->vars);
    e->runnable = calloc(space->nvars + 1, sizeof *e->runnable);
    e->nrunnable = calloc(space->nvars + 1, sizeof *e->nrunnable);
    e->chosen = calloc(space->nvars + 1, sizeof *e->chosen);
    if (!e->vars || !e->runnable || !e->nrunnable || !e->chosen)
        st = CT_ERR_NOMEM;
    for (size_t i = 0; i < space->nvars && st == CT_OK; i++)
        if (space->vars[i].kind == CT_SPACE_VAR && space->vars[i].scope == scope)
            e->vars[e->nvars++] = i;
    if (st == CT_OK)
        st = ct_enum_runnable(e);
    if (st == CT_ERR_NOMEM)
        snprintf(err, errlen, "%s: out of memory enumerating %s", space->path,
                 ct_space_scope_name(scope));
    return st;
}

ct_status_t ct_space_each(const ct_space_t *space, int scope, long nranks, ct_space_visit_fn visit,
                          void *user, char *err, size_t errlen)
{
    ct_enum_t e;
    ct_status_t st = ct_enum_open(&e, space, scope, nranks, err, errlen);
    e.visit = visit;
    e.user = user;
    if (st == CT_OK)
        st = ct_enum_emit(&e, &e.base, 1, NULL);
    if (st == CT_OK)
        st = ct_enum_limit_skips(&e);
    if (st == CT_OK && e.nvars > 0)
        st = ct_enum_from(&e, 0);
    ct_enum_close(&e);
    if (st == CT_ERR_NOMEM)
        snprintf(err, errlen, "%s: out of memory enumerating %s", space->path,
                 ct_space_scope_name(scope));
    return st;
}

/* The line of the first searched variable of scope: where an error about
 * the scope's size points. */
static int ct_enum_scope_line(const ct_space_t *space, int scope)
{
    for (size_t i = 0; i < space->nvars; i++)
        if (space->vars[i].kind == CT_SPACE_VAR && space->vars[i].scope == scope)
            return space->vars[i].line;
    return 0;
}

/* The collecting visitor behind ct_space_enumerate. */
typedef struct {
    ct_space_configs_t *out;
    size_t cap;
} ct_enum_collect_t;

static ct_status_t ct_enum_collect(void *user, ct_space_config_t *config)
{
    ct_enum_collect_t *c = user;
    ct_status_t st = c->out->n >= CT_SPACE_MAX_CONFIGS
                         ? CT_ERR_USAGE
                         : CT_VEC_PUSH(c->out->configs, c->out->n, c->cap, config);
    if (st != CT_OK)
        ct_space_config_free(config);
    return st;
}

ct_status_t ct_space_enumerate(const ct_space_t *space, int scope, long nranks,
                               ct_space_configs_t *out_p, char *err, size_t errlen)
{
    memset(out_p, 0, sizeof *out_p);
    /* Count first (the product of the value counts, overflow-checked), so
     * that a space too large to list is refused at once rather than after
     * gigabytes of configurations. */
    uint64_t n;
    ct_status_t st = ct_space_combinations(space, scope, nranks, &n, err, errlen);
    if (st != CT_OK)
        return st;
    if (n > CT_SPACE_MAX_CONFIGS) {
        snprintf(err, errlen,
                 "%s:%d: scope %s has %llu configurations, too many to list (at most %d): "
                 "narrow the space, or give --strategy random with a --budget",
                 space->path, ct_enum_scope_line(space, scope), ct_space_scope_name(scope),
                 (unsigned long long)n, CT_SPACE_MAX_CONFIGS);
        return CT_ERR_USAGE;
    }
    ct_enum_collect_t c = {out_p, 0};
    st = ct_space_each(space, scope, nranks, ct_enum_collect, &c, err, errlen);
    if (st != CT_OK)
        ct_space_configs_free(out_p);
    return st;
}

/* Indexing without listing: one mixed-radix digit per searched variable,
 * the last the fastest, as ct_enum_from nests its loops; so the indices
 * ct_enum_from reaches come in increasing order. */
struct ct_space_index {
    ct_enum_t e;
    uint64_t size;
    size_t *digit; /* per searched variable, of the index being decoded */
};

ct_status_t ct_space_index_open(const ct_space_t *space, int scope, long nranks,
                                ct_space_index_t **ix_p, char *err, size_t errlen)
{
    *ix_p = NULL;
    ct_space_index_t *ix = calloc(1, sizeof *ix);
    if (ix == NULL) {
        snprintf(err, errlen, "%s: out of memory", space->path);
        return CT_ERR_NOMEM;
    }
    ct_status_t st = ct_enum_open(&ix->e, space, scope, nranks, err, errlen);
    if (st == CT_OK && (ix->digit = calloc(ix->e.nvars + 1, sizeof *ix->digit)) == NULL) {
        snprintf(err, errlen, "%s: out of memory", space->path);
        st = CT_ERR_NOMEM;
    }
    ix->size = 1;
    for (size_t k = 0; st == CT_OK && k < ix->e.nvars; k++) {
        uint64_t radix = ix->e.nrunnable[k] ? ix->e.nrunnable[k] : 1;
        if (ix->size > UINT64_MAX / radix) {
            snprintf(err, errlen,
                     "%s:%d: scope %s has more than 2^64 combinations: too many to index",
                     space->path, ct_enum_scope_line(space, scope), ct_space_scope_name(scope));
            st = CT_ERR_USAGE;
        }
        ix->size *= radix;
    }
    if (st != CT_OK) {
        ct_space_index_close(ix);
        return st;
    }
    *ix_p = ix;
    return CT_OK;
}

uint64_t ct_space_index_size(const ct_space_index_t *ix) { return ix->size; }

/* The visitor that hands one configuration to the caller. */
static ct_status_t ct_enum_take(void *user, ct_space_config_t *config)
{
    *(ct_space_config_t *)user = *config;
    return CT_OK;
}

ct_status_t ct_space_index_config(ct_space_index_t *ix, uint64_t index, ct_space_config_t *config,
                                  int *listed_p)
{
    ct_enum_t *e = &ix->e;
    memset(config, 0, sizeof *config);
    *listed_p = 0;
    if (index >= ix->size)
        return CT_ERR_USAGE;
    for (size_t k = e->nvars; k-- > 0;) {
        uint64_t radix = e->nrunnable[k] ? e->nrunnable[k] : 1;
        ix->digit[k] = (size_t)(index % radix);
        index /= radix;
    }
    memset(e->chosen, 0, e->space->nvars * sizeof *e->chosen);
    for (size_t k = 0; k < e->nvars; k++) {
        /* The same test as ct_enum_from, on the values chosen so far. */
        int active = ct_enum_active(e, k);
        if (!active && ix->digit[k] != 0)
            return CT_OK; /* the same combination as with digit 0 */
        e->chosen[e->vars[k]] = active ? e->runnable[k][ix->digit[k]] : NULL;
    }
    if (ct_enum_all_default(e))
        return CT_OK;
    e->visit = ct_enum_take;
    e->user = config;
    ct_status_t st = ct_enum_combination(e);
    *listed_p = st == CT_OK;
    return st;
}

ct_status_t ct_space_index_head(ct_space_index_t *ix, ct_space_configs_t *out_p)
{
    memset(out_p, 0, sizeof *out_p);
    ct_enum_collect_t c = {out_p, 0};
    ix->e.visit = ct_enum_collect;
    ix->e.user = &c;
    ct_status_t st = ct_enum_emit(&ix->e, &ix->e.base, 1, NULL);
    if (st == CT_OK)
        st = ct_enum_limit_skips(&ix->e);
    if (st != CT_OK)
        ct_space_configs_free(out_p);
    return st;
}

void ct_space_index_close(ct_space_index_t *ix)
{
    if (ix == NULL)
        return;
    ct_enum_close(&ix->e);
    free(ix->digit);
    free(ix);
}

static ct_status_t ct_enum_count(void *user, ct_space_config_t *config)
{
    size_t *counts = user;
    counts[config->skip == NULL]++;
    ct_space_config_free(config);
    return CT_OK;
}

ct_status_t ct_space_count(const ct_space_t *space, int scope, long nranks, size_t *runnable_p,
                           size_t *skipped_p, char *err, size_t errlen)
{
    size_t counts[2] = {0, 0};
    ct_status_t st = ct_space_each(space, scope, nranks, ct_enum_count, counts, err, errlen);
    if (st == CT_OK) {
        *runnable_p = counts[1];
        *skipped_p = counts[0];
    }
    return st;
}

void ct_space_config_free(ct_space_config_t *c)
{
    for (size_t j = 0; j < c->n; j++) {
        free(c->settings[j].name);
        free(c->settings[j].value);
    }
    free(c->settings);
    free(c->skip);
    memset(c, 0, sizeof *c);
}

void ct_space_configs_free(ct_space_configs_t *configs)
{
    for (size_t i = 0; i < configs->n; i++)
        ct_space_config_free(&configs->configs[i]);
    free(configs->configs);
    configs->configs = NULL;
    configs->n = 0;
}

size_t ct_space_configs_runnable(const ct_space_configs_t *configs)
{
    size_t n = 0;
    for (size_t i = 0; i < configs->n; i++)
        n += configs->configs[i].skip == NULL;
    return n;
}

ct_status_t ct_space_combinations(const ct_space_t *space, int scope, long nranks, uint64_t *n_p,
                                  char *err, size_t errlen)
{
    ct_space_index_t *ix;
    ct_status_t st = ct_space_index_open(space, scope, nranks, &ix, err, errlen);
    if (st != CT_OK)
        return st;
    *n_p = ct_space_index_size(ix);
    ct_space_index_close(ix);
    return CT_OK;
}
