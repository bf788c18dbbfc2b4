/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_choices.c - the scopes' decisions and the result's choices
 * (tune_choices.h).
 */
#include "tune_choices.h"

#include <stdlib.h>
#include <string.h>

#include "ct_library.h"
#include "ct_nccl_list.h"
#include "emit.h"

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
    c->default_us = p->default_us;
    c->tuned_us = p->tuned_us;
    c->significant = 1;
    c->verified = 0; /* until the A/B with the emitted files holds it */
    r->nchoices++;
    return CT_OK;
}

/* One choice per setting the pick's configuration changes, for the
 * pick's collective (a global scope decided per collective) or the
 * scope's. */
static ct_status_t ct_tune_add_pick(ct_tune_result_t *r, const ct_tune_scope_t *sc,
                                    const ct_tune_dpick_t *p)
{
    const ct_space_config_t *base = &sc->configs.configs[0], *c = &sc->configs.configs[p->config];
    int scope = p->coll != CT_SCOPE_GLOBAL ? p->coll : sc->scope;
    for (size_t i = 0; i < c->n; i++) {
        /* A guard set only while measuring (MPICH's FALLBACK=error) is
         * not what made the configuration faster, and no file carries it. */
        if (ct_tune_in_base(base, &c->settings[i]) || ct_library_measure_only(c->settings[i].name))
            continue;
        ct_status_t st = ct_tune_add_choice(r, &c->settings[i], scope, p);
        if (st != CT_OK)
            return st;
    }
    return CT_OK;
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
        ct_tune_reach_t reach = {s->nranks, s->extend_ranges, ct_tune_scope_per_coll(sc)};
        st = ct_tune_evidence_build(s, sc, &decs[si].ev);
        if (st == CT_OK)
            st = ct_tune_decide(&decs[si].ev, &reach, &decs[si].d);
        for (size_t k = 0; k < decs[si].d.npicks && st == CT_OK; k++)
            st = ct_tune_add_pick(result, sc, &decs[si].d.picks[k]);
    }
    /* Once every choice is in: whether a file can carry each over its
     * range depends on its partners (NCCL_ALGO with NCCL_PROTO). */
    for (size_t i = 0; i < result->nchoices && st == CT_OK; i++)
        result->choices[i].unwritable = ct_emit_cannot_carry(result, &result->choices[i]);
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
    }
    free(result->choices);
    result->choices = NULL;
    result->nchoices = 0;
}
