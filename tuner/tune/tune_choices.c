/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_choices.c - the scopes' decisions and the result's choices
 * (tune_choices.h).
 */
#include "tune_choices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_library.h"
#include "ct_nccl_list.h"
#include "emit.h"
#include "tune_decide.h"

static ct_status_t ct_tune_add_choice(ct_tune_result_t *r, const ct_space_setting_t *set, int scope,
                                      const ct_tune_dpick_t *p)
{
    ct_tune_choice_t *c = realloc(r->choices, (r->nchoices + 1) * sizeof *c);
    if (c == NULL)
        return CT_ERR_NOMEM;
    r->choices = c;
    c = &c[r->nchoices];
    memset(c, 0, sizeof *c);
    c->name = strdup(set->name);
    c->value = strdup(set->value);
    if (c->name == NULL || c->value == NULL) {
        free(c->name);
        free(c->value);
        return CT_ERR_NOMEM;
    }
    c->via = set->via;
    c->scope = scope;
    c->min_bytes = p->min_bytes;
    c->max_bytes = p->max_bytes;
    c->nnodes = r->nnodes;
    c->nranks = r->nranks;
    c->default_us = p->default_us;
    c->tuned_us = p->tuned_us;
    c->significant = 1;
    c->verified = 0; /* until the A/B with the emitted files holds it */
    r->nchoices++;
    return CT_OK;
}

/* The configuration of sc that is c with its i-th setting back at the
 * baseline's (the baseline's value, or unset), or 0 when the space has
 * none (a required partner, or a combination not enumerated). */
size_t ct_tune_without(const ct_tune_scope_t *sc, const ct_space_config_t *c, size_t i)
{
    const ct_space_config_t *base = &sc->configs.configs[0];
    for (size_t k = 1; k < sc->configs.n; k++) {
        const ct_space_config_t *o = &sc->configs.configs[k];
        if (o == c || o->skip != NULL)
            continue;
        int same = 1;
        /* Every setting of c but the i-th, alike in o ... */
        for (size_t j = 0; j < c->n && same; j++) {
            if (j == i)
                continue;
            int found = 0;
            for (size_t m = 0; m < o->n && !found; m++)
                found = strcmp(o->settings[m].name, c->settings[j].name) == 0 &&
                        strcmp(o->settings[m].value, c->settings[j].value) == 0;
            same = found;
        }
        /* ... and nothing else of o away from the baseline. */
        for (size_t m = 0; m < o->n && same; m++) {
            int in_c = 0;
            for (size_t j = 0; j < c->n && !in_c; j++)
                in_c = j != i && strcmp(o->settings[m].name, c->settings[j].name) == 0;
            same = in_c || ct_tune_in_base(base, &o->settings[m]);
        }
        if (same)
            return k;
    }
    return 0;
}

int ct_tune_ablatable(const ct_space_t *space, const ct_space_config_t *c, size_t i)
{
    long v = space != NULL ? ct_space_find(space, c->settings[i].name) : -1;
    if (v < 0)
        return 0;
    /* Another variable of c that varies only under this one's value. */
    for (size_t j = 0; j < c->n; j++) {
        long w = j != i ? ct_space_find(space, c->settings[j].name) : -1;
        if (w >= 0 && space->vars[w].nwhen > 0 && space->vars[w].when_var == (size_t)v)
            return 0;
    }
    /* A constraint's product or sum holds over values, not over unset. */
    for (size_t k = 0; k < space->nconstraints; k++)
        for (size_t m = 0; m < space->constraints[k].nvars; m++)
            if (space->constraints[k].vars[m] == (size_t)v)
                return 0;
    return 1;
}

/*
 * Whether the pick's i-th setting earns its place: the search measured
 * the same configuration without it, and the configuration with it is
 * significantly faster (tune_decide.h's rule) at some size of the pick's
 * range.  A setting that rides on its partners' gain (NCCL_PROTO=LL
 * beside NCCL_ALGO=tree where protocols cost the same) is not written.
 * Returns 1 to keep, 0 with why filled to drop; a setting whose
 * neighbour the search never measured is kept (the A/B still runs it).
 */
static int ct_tune_contributes(const ct_tune_evidence_t *ev, const ct_tune_scope_t *sc,
                               const ct_tune_dpick_t *p, size_t i, char *why, size_t len)
{
    const ct_space_config_t *c = &sc->configs.configs[p->config];
    size_t w = ct_tune_without(sc, c, i);
    if (w == 0 || w >= ev->nconfigs || ev->excluded[w])
        return 1;
    const char *coll = p->coll != CT_SCOPE_GLOBAL ? ct_space_scope_name(p->coll) : NULL;
    size_t cells = 0;
    for (size_t k = 0; k < ev->ncells; k++) {
        const ct_tune_ev_cell_t *e = &ev->cells[k];
        if ((coll != NULL && strcmp(e->coll, coll) != 0) ||
            (p->min_bytes >= 0 && e->bytes < p->min_bytes) ||
            (p->max_bytes >= 0 && e->bytes > p->max_bytes))
            continue;
        const ct_tune_launches_t *with = &e->cfg[p->config], *without = &e->cfg[w];
        if (with->n == 0 || without->n == 0)
            continue;
        cells++;
        if (ct_tune_significant(with->us, with->n, without->us, without->n))
            return 1;
    }
    if (cells == 0)
        return 1;
    snprintf(why, len,
             "adds nothing: the search measured its configuration without it (%s back to the "
             "default) and it was not significantly slower at any of %zu sizes of the range",
             c->settings[i].name, cells);
    return 0;
}

/* One choice per setting the pick's configuration changes, for the
 * pick's collective (a global scope decided per collective) or the
 * scope's; a setting that adds nothing to the others is reported, not
 * written (ct_tune_contributes). */
static ct_status_t ct_tune_add_pick(ct_tune_result_t *r, const ct_space_t *space,
                                    const ct_tune_evidence_t *ev, const ct_tune_scope_t *sc,
                                    const ct_tune_dpick_t *p)
{
    const ct_space_config_t *base = &sc->configs.configs[0], *c = &sc->configs.configs[p->config];
    int scope = p->coll != CT_SCOPE_GLOBAL ? p->coll : sc->scope;
    /* Only the space's searched variables can ride along: a requires=
     * partner comes with its variable.  If every searched one looks idle,
     * each alone seemed enough: keep them all and let the A/B judge. */
    char(*why)[256] = calloc(c->n ? c->n : 1, sizeof *why);
    if (why == NULL)
        return CT_ERR_NOMEM;
    size_t searched = 0, idle = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (ct_tune_in_base(base, &c->settings[i]) || !ct_tune_ablatable(space, c, i))
            continue;
        searched++;
        idle += !ct_tune_contributes(ev, sc, p, i, why[i], sizeof why[i]);
    }
    if (idle == searched)
        for (size_t i = 0; i < c->n; i++)
            why[i][0] = '\0';
    ct_status_t st = CT_OK;
    for (size_t i = 0; i < c->n && st == CT_OK; i++) {
        /* A guard set only while measuring (MPICH's FALLBACK=error) is
         * not what made the configuration faster, and no file carries it. */
        if (ct_tune_in_base(base, &c->settings[i]) || ct_library_measure_only(c->settings[i].name))
            continue;
        st = ct_tune_add_choice(r, &c->settings[i], scope, p);
        if (st != CT_OK)
            continue;
        ct_tune_choice_t *ch = &r->choices[r->nchoices - 1];
        if (sc->shape.nnodes > 0) { /* --shapes: it holds at its scope's shape */
            ch->nnodes = sc->shape.nnodes;
            ch->nranks = (long)sc->shape.nnodes * sc->shape.ranks_per_node;
        }
        if (why[i][0] == '\0')
            continue;
        if ((ch->idle = strdup(why[i])) == NULL)
            st = CT_ERR_NOMEM;
        ch->significant = 0;
    }
    free(why);
    return st;
}

/* Variables the files can set for one collective and size range:
 * NCCL_ALGO and NCCL_PROTO (NCCL >= 2.24's per-collective list, the
 * tuner plugin's per-size rules: src/lib/ct_nccl_list.h knows them).
 * Every other global setting (a transport, a buffer size) holds for every
 * collective and size. */
static int ct_tune_per_coll_var(const ct_space_setting_t *set)
{
    ct_nccl_list_kind_t kind;
    return set->via == CT_VIA_ENV && ct_nccl_list_kind_of(set->name, &kind) == 0;
}

int ct_tune_scope_per_coll(const ct_tune_scope_t *sc)
{
    if (sc->scope != CT_SCOPE_GLOBAL || sc->configs.n < 2)
        return 0;
    const ct_space_config_t *base = &sc->configs.configs[0];
    for (size_t ci = 1; ci < sc->configs.n; ci++) {
        const ct_space_config_t *c = &sc->configs.configs[ci];
        for (size_t i = 0; i < c->n; i++)
            if (!ct_tune_in_base(base, &c->settings[i]) && !ct_tune_per_coll_var(&c->settings[i]))
                return 0;
    }
    return 1;
}

ct_status_t ct_tune_decide_scopes(const ct_tune_state_t *s, ct_tune_scope_decision_t *decs,
                                  ct_tune_result_t *result)
{
    ct_status_t st = CT_OK;
    memset(decs, 0, s->nscopes * sizeof *decs);
    for (size_t si = 0; si < s->nscopes && st == CT_OK; si++) {
        const ct_tune_scope_t *sc = &s->scopes[si];
        long nranks =
            sc->shape.nnodes > 0 ? (long)sc->shape.nnodes * sc->shape.ranks_per_node : s->nranks;
        ct_tune_reach_t reach = {nranks, s->extend_ranges, ct_tune_scope_per_coll(sc)};
        st = ct_tune_evidence_build(s, sc, &decs[si].ev);
        if (st == CT_OK)
            st = ct_tune_decide(&decs[si].ev, &reach, &decs[si].d);
        for (size_t k = 0; k < decs[si].d.npicks && st == CT_OK; k++)
            st = ct_tune_add_pick(result, s->space, &decs[si].ev, sc, &decs[si].d.picks[k]);
    }
    /* Once every choice is in: whether a file can carry each over its
     * range depends on its partners (NCCL_ALGO with NCCL_PROTO). */
    for (size_t i = 0; i < result->nchoices && st == CT_OK; i++)
        result->choices[i].unwritable = result->choices[i].idle
                                            ? result->choices[i].idle
                                            : ct_emit_cannot_carry(result, &result->choices[i]);
    return st;
}

void ct_tune_scope_decisions_free(ct_tune_scope_decision_t *decs, size_t n)
{
    for (size_t i = 0; decs != NULL && i < n; i++) {
        ct_tune_evidence_free(&decs[i].ev);
        ct_tune_decision_free(&decs[i].d);
    }
}

void ct_tune_result_free(ct_tune_result_t *result)
{
    for (size_t i = 0; i < result->nchoices; i++) {
        free(result->choices[i].name);
        free(result->choices[i].value);
        free(result->choices[i].outranked);
        free(result->choices[i].idle);
    }
    free(result->choices);
    result->choices = NULL;
    result->nchoices = 0;
}
