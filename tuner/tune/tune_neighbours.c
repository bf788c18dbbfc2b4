/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_neighbours.c - each winning configuration, measured without each
 * of its variables (tune_neighbours.h).
 */
#define _XOPEN_SOURCE 700

#include "tune_neighbours.h"

#include <stdlib.h>
#include <string.h>

#include "ct_library.h"
#include "evidence.h"
#include "tune_choices.h"

/* The setting base gives name, or NULL. */
static const ct_space_setting_t *ct_tune_base_setting(const ct_space_config_t *base,
                                                      const char *name)
{
    for (size_t m = 0; m < base->n; m++)
        if (strcmp(base->settings[m].name, name) == 0)
            return &base->settings[m];
    return NULL;
}

/* Appends to sc the configuration c with its i-th setting at the
 * baseline's (its value there, or unset). */
static ct_status_t ct_tune_append_without(ct_tune_scope_t *sc, size_t ci, size_t i)
{
    size_t n = sc->configs.n;
    ct_space_config_t *cfgs = realloc(sc->configs.configs, (n + 1) * sizeof *cfgs);
    if (cfgs == NULL)
        return CT_ERR_NOMEM;
    sc->configs.configs = cfgs;
    int *ex = realloc(sc->excluded, (n + 1) * sizeof *ex);
    if (ex == NULL)
        return CT_ERR_NOMEM;
    sc->excluded = ex;
    ex[n] = 0;
    if (sc->alive != NULL) {
        int *al = realloc(sc->alive, (n + 1) * sizeof *al);
        if (al == NULL)
            return CT_ERR_NOMEM;
        sc->alive = al;
        al[n] = 1;
    }
    const ct_space_config_t *c = &cfgs[ci];
    const ct_space_setting_t *b = ct_tune_base_setting(&cfgs[0], c->settings[i].name);
    ct_space_config_t *o = &cfgs[n];
    memset(o, 0, sizeof *o);
    o->settings = calloc(c->n, sizeof *o->settings);
    if (o->settings == NULL)
        return CT_ERR_NOMEM;
    ct_status_t st = CT_OK;
    for (size_t j = 0; j < c->n && st == CT_OK; j++) {
        const ct_space_setting_t *from = j == i ? b : &c->settings[j];
        if (from == NULL)
            continue;
        ct_space_setting_t *to = &o->settings[o->n];
        *to = *from;
        to->name = strdup(from->name);
        to->value = strdup(from->value);
        if (to->name == NULL || to->value == NULL) {
            free(to->name);
            free(to->value);
            st = CT_ERR_NOMEM;
        } else {
            o->n++;
        }
    }
    /* Sorted by name as c's were: one dropped or replaced in place. */
    ct_space_config_key(o->settings, o->n, o->key, sizeof o->key);
    sc->configs.n++;
    return st;
}

/* How many of the space's searched variables ci sets away from the
 * baseline (a requires= partner does not count). */
static size_t ct_tune_searched_changed(const ct_space_t *space, const ct_tune_scope_t *sc,
                                       size_t ci)
{
    const ct_space_config_t *c = &sc->configs.configs[ci];
    size_t n = 0;
    for (size_t i = 0; space != NULL && i < c->n; i++)
        n += !ct_tune_in_base(&sc->configs.configs[0], &c->settings[i]) &&
             ct_space_find(space, c->settings[i].name) >= 0;
    return n;
}

/* The first launch index no trial of sc's scope used. */
static long ct_tune_next_launch(const ct_tune_state_t *s, const ct_tune_scope_t *sc)
{
    long next = 0;
    for (size_t i = 0; i < s->ntrials; i++)
        if (strcmp(s->trials[i].scope, sc->name) == 0 && s->trials[i].launch >= next)
            next = s->trials[i].launch + 1;
    return next;
}

ct_status_t ct_tune_neighbours(ct_tune_state_t *s, long launches, ct_tune_trial_fn run,
                               ct_tune_flush_fn flush, void *user, int *stop)
{
    *stop = 0;
    size_t ns = s->nscopes ? s->nscopes : 1;
    ct_tune_scope_decision_t *decs = calloc(ns, sizeof *decs);
    ct_tune_result_t r;
    memset(&r, 0, sizeof r);
    ct_status_t st = decs ? ct_tune_decide_scopes(s, decs, &r) : CT_ERR_NOMEM;
    /* Per scope: where its neighbours start, and its winners that have
     * any (winner[si][..], nwin[si]). */
    size_t *first = calloc(ns, sizeof *first), *nwin = calloc(ns, sizeof *nwin);
    size_t **winner = calloc(ns, sizeof *winner);
    if (st == CT_OK && (first == NULL || nwin == NULL || winner == NULL))
        st = CT_ERR_NOMEM;
    for (size_t si = 0; st == CT_OK && si < s->nscopes; si++) {
        ct_tune_scope_t *sc = &s->scopes[si];
        first[si] = sc->configs.n;
        if ((winner[si] = calloc(decs[si].d.npicks + 1, sizeof **winner)) == NULL)
            st = CT_ERR_NOMEM;
        for (size_t k = 0; st == CT_OK && k < decs[si].d.npicks; k++) {
            size_t ci = decs[si].d.picks[k].config, before = sc->configs.n;
            if (ct_tune_searched_changed(s->space, sc, ci) < 2)
                continue; /* without its one variable it is the baseline */
            size_t nset = sc->configs.configs[ci].n;
            for (size_t i = 0; st == CT_OK && i < nset; i++) {
                const ct_space_setting_t *set = &sc->configs.configs[ci].settings[i];
                /* Only searched variables: a requires= partner comes
                 * with its variable, never alone. */
                if (ct_tune_in_base(&sc->configs.configs[0], set) ||
                    ct_library_measure_only(set->name) ||
                    !ct_tune_ablatable(s->space, &sc->configs.configs[ci], i) ||
                    ct_tune_without(sc, &sc->configs.configs[ci], i) != 0)
                    continue;
                st = ct_tune_append_without(sc, ci, i);
            }
            int seen = 0;
            for (size_t w = 0; w < nwin[si]; w++)
                seen |= winner[si][w] == ci;
            if (sc->configs.n > before && !seen)
                winner[si][nwin[si]++] = ci;
        }
    }
    ct_tune_result_free(&r);
    ct_tune_scope_decisions_free(decs, s->nscopes);
    free(decs);
    size_t total = 0, done = 0;
    for (size_t si = 0; st == CT_OK && si < s->nscopes; si++)
        if (s->scopes[si].configs.n > first[si])
            total += (s->scopes[si].configs.n - first[si] + nwin[si] + 1) * (size_t)launches;
    if (st == CT_OK && total > 0)
        fprintf(stderr,
                "colltune tune: %zu more trials: each winner beside itself without one of its "
                "variables, and the defaults, in fresh launches: does every variable earn its "
                "place?\n",
                total);
    /* Fresh launches after the search's, the baseline and the winner
     * beside each neighbour: in one process where the scope shares
     * launches, interleaved across launches where not.  Every scope's
     * neighbours take the same launch numbers, after any scope's last, so
     * that one launch holds them all where they share launches, and the
     * scopes of one collective's shapes (tune_state.h), which share their
     * trials, ask for the same ones. */
    long l0 = 0;
    for (size_t si = 0; si < s->nscopes; si++) {
        long next = ct_tune_next_launch(s, &s->scopes[si]);
        l0 = next > l0 ? next : l0;
    }
    for (long l = l0; st == CT_OK && l < l0 + launches && *stop == 0; l++) {
        for (size_t si = 0; st == CT_OK && si < s->nscopes && *stop == 0; si++) {
            ct_tune_scope_t *sc = &s->scopes[si];
            if (sc->configs.n == first[si])
                continue;
            st = run(user, si, 0, l, 0, done++, total, stop);
            for (size_t w = 0; st == CT_OK && w < nwin[si] && *stop == 0; w++)
                st = run(user, si, winner[si][w], l, 0, done++, total, stop);
            for (size_t ci = first[si]; st == CT_OK && ci < sc->configs.n && *stop == 0; ci++)
                st = run(user, si, ci, l, 0, done++, total, stop);
        }
        if (st == CT_OK && *stop == 0)
            st = flush(user, stop);
    }
    for (size_t si = 0; winner != NULL && si < s->nscopes; si++)
        free(winner[si]);
    free(winner);
    free(nwin);
    free(first);
    return st;
}
