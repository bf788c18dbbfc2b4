/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_nccl_site.c - the NCCL files against a site that already sets
 * NCCL_ALGO / NCCL_PROTO: the form that wins, or why none does.
 *
 * NCCL takes a variable from the environment before NCCL_CONF_FILE's
 * nccl.conf, and asks the tuner plugin only about what NCCL_ALGO /
 * NCCL_PROTO left enabled (site_rank.c cites the sources).  So against a
 * site's NCCL_ALGO=ring:
 *   - a whole-range choice for one collective goes to nccl.env, which a
 *     job sources after its environment, as NCCL_ALGO="ring;AllReduce:tree":
 *     the site's value first keeps its decision for every other
 *     collective, and nccl.conf is not written (its value would lose);
 *   - a range choice (a plugin rule for tree) needs tree enabled: nccl.env
 *     gives the collective the site's set plus tree ("AllReduce:Tree,Ring")
 *     and nccl_tuner.conf ends that collective's rules with one for any
 *     size and shape naming the site's algorithm, so outside the rule the
 *     site's decision stays.  That last rule can name only one algorithm:
 *     a site that leaves the collective several cannot be kept, and the
 *     choice is dropped with the setting named (the tuner's outranked
 *     hook).
 * Which choices are lists, and their entries, are emit_nccl_list.c's;
 * the variables nccl.env writes come from emit_nccl_vars.c, which asks
 * here (the header lines take them as given).
 */
#include "emit_format.h"

#include <stdlib.h>
#include <string.h>

#include "ct_printable.h"

const ct_site_setting_t *ct_emit_nccl_site_var(const ct_tune_result_t *r, ct_nccl_list_kind_t kind)
{
    return r->site ? ct_site_find(r->site, ct_nccl_list_var(kind), 0) : NULL;
}

/* A choice of kind for one collective over part of the sizes (a plugin
 * rule's shape, verified or not: the decision runs before the A/B). */
static int ct_rule_shaped(const ct_tune_choice_t *c, ct_nccl_list_kind_t *kind_p)
{
    return c->scope != CT_SCOPE_GLOBAL && ct_emit_nccl_list_kind(c, kind_p) &&
           !ct_emit_full_range(c);
}

/* Whether r has a whole-range choice of kind for coll (nccl.env's entry
 * for it then replaces the site's); significant ones count, as
 * ct_emit_nccl_cannot_carry counts them. */
static int ct_has_whole(const ct_tune_result_t *r, ct_nccl_list_kind_t kind, int coll)
{
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *o = &r->choices[i];
        ct_nccl_list_kind_t k;
        if (o->significant && ct_emit_nccl_list_kind(o, &k) && k == kind && ct_emit_full_range(o) &&
            (o->scope == coll || o->scope == CT_SCOPE_GLOBAL))
            return 1;
    }
    return 0;
}

/* For c, a rule of kind: the site's set for c's collective when the site
 * disables c's element there (1), else 0.  *site_p: the site's setting,
 * NULL when the site's value does not parse. */
static int ct_disabled(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                       ct_nccl_list_kind_t kind, ct_nccl_list_func_t *site_p, unsigned *want_p,
                       const ct_site_setting_t **s_p, const ct_coll_name_t **cn_p)
{
    char err[512];
    ct_nccl_list_func_t want;
    const ct_site_setting_t *s =
        ct_site_outranks(r->site, CT_EMIT_NCCL_TUNER_NAME, c->name, c->value, c->scope, NULL);
    if (s == NULL || ct_has_whole(r, kind, c->scope) ||
        ct_emit_nccl_project(c, kind, cn_p, &want, err, sizeof err) != CT_OK)
        return 0;
    *want_p = want.mask;
    *s_p = s;
    if (ct_nccl_list_project(kind, s->value, (*cn_p)->nccl_func, site_p, err, sizeof err) != CT_OK)
        site_p->named = 0;
    return 1;
}

int ct_emit_nccl_site_keep(const ct_tune_result_t *r, int coll, ct_nccl_list_kind_t kind,
                           unsigned *mask_p)
{
    int keep = -1;
    unsigned mask = 0;
    for (size_t i = 0; r->site != NULL && i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        ct_nccl_list_kind_t k;
        ct_nccl_list_func_t site;
        unsigned want;
        const ct_site_setting_t *s;
        const ct_coll_name_t *cn;
        if (c->scope != coll || !ct_emit_usable(c) || !ct_rule_shaped(c, &k) || k != kind ||
            !ct_disabled(r, c, kind, &site, &want, &s, &cn))
            continue;
        int one = site.named ? ct_nccl_list_only(site.mask) : -1;
        if (one < 0)
            continue; /* outranked: the tuner's hook drops it */
        keep = one;
        mask |= site.mask | want;
    }
    if (mask_p != NULL)
        *mask_p = mask;
    return keep;
}

int ct_emit_nccl_site_reenables(const ct_tune_result_t *r)
{
    for (int coll = 0; coll < CT_COLL_COUNT; coll++)
        for (int k = 0; k < 2; k++)
            if (ct_emit_nccl_site_keep(r, coll, k == 0 ? CT_NCCL_LIST_ALGO : CT_NCCL_LIST_PROTO,
                                       NULL) >= 0)
                return 1;
    return 0;
}

/* "ring (environment)" / "ring (/etc/nccl.conf)", control bytes as '?'. */
static void ct_put_setting(FILE *fp, const ct_site_setting_t *s)
{
    ct_printable_put(fp, s->name, (size_t)-1);
    fputc('=', fp);
    ct_printable_put(fp, s->value, (size_t)-1);
    fputs(" (", fp);
    ct_printable_put(fp, s->origin, (size_t)-1);
    fputc(')', fp);
}

const char *ct_emit_nccl_site_outranked(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                        char *buf, size_t len)
{
    ct_nccl_list_kind_t kind;
    ct_nccl_list_func_t site;
    unsigned want;
    const ct_site_setting_t *s;
    const ct_coll_name_t *cn;
    if (!ct_rule_shaped(c, &kind) || !ct_disabled(r, c, kind, &site, &want, &s, &cn))
        return NULL;
    const char *what = kind == CT_NCCL_LIST_ALGO ? "algorithm" : "protocol";
    if (!site.named) {
        snprintf(buf, len,
                 "outranked by %s=%s (%s): NCCL refuses that value, so no list colltune writes "
                 "can keep the site's decision beside the plugin's rule",
                 s->name, s->value, s->origin);
        return buf;
    }
    if (ct_nccl_list_only(site.mask) < 0) {
        snprintf(buf, len,
                 "outranked by %s=%s (%s): it disables this %s for %s, and leaves it %d %ss; "
                 "re-enabling it in nccl.env would let NCCL choose it at sizes never measured, "
                 "and a plugin rule that keeps the site's decision elsewhere names one %s",
                 s->name, s->value, s->origin, what, cn->nccl_name, ct_nccl_list_count(site.mask),
                 what, what);
        return buf;
    }
    return NULL; /* nccl.env re-enables it; nccl_tuner.conf keeps the site's elsewhere */
}

int ct_emit_nccl_site_outranks_conf(const ct_tune_result_t *r, const ct_emit_vars_t *vars)
{
    for (size_t i = 0; r->site != NULL && i < vars->count; i++)
        if (ct_site_outranks(r->site, "nccl.conf", vars->vars[i].name, vars->vars[i].value,
                             CT_SCOPE_GLOBAL, NULL) != NULL)
            return 1;
    return 0;
}

/* One kind's lines: the site's value overridden (how), then each
 * collective re-enabled. */
static void ct_site_kind_lines(const ct_tune_result_t *r, FILE *fp, ct_nccl_list_kind_t kind,
                               const ct_emit_vars_t *vars)
{
    const ct_site_setting_t *s = ct_emit_nccl_site_var(r, kind);
    const char *var = ct_nccl_list_var(kind);
    const ct_emit_var_t *ours = NULL;
    for (size_t i = 0; i < vars->count; i++)
        if (strcmp(vars->vars[i].name, var) == 0)
            ours = &vars->vars[i];
    if (s == NULL || ours == NULL)
        return;
    fputs("#   Overrides the site's ", fp);
    ct_put_setting(fp, s);
    if (strncmp(ours->value, s->value, strlen(s->value)) == 0 &&
        ours->value[strlen(s->value)] == ';')
        fprintf(fp,
                ":\n#     nccl.env's %s starts with it, so every collective not named after it\n"
                "#     keeps the site's decision\n",
                var);
    else
        fprintf(fp, ":\n#     nccl.env's %s replaces it (a choice for every collective)\n", var);
    for (int coll = 0; coll < CT_COLL_COUNT; coll++) {
        unsigned mask;
        int keep = ct_emit_nccl_site_keep(r, coll, kind, &mask);
        const ct_coll_name_t *cn = ct_coll_name_find(ct_coll_name((ct_coll_id_t)coll));
        if (keep < 0 || cn == NULL)
            continue;
        fprintf(fp,
                "#     %s: re-enabled beside the site's %s for nccl_tuner.conf's rules, whose\n"
                "#     last %s rule keeps %s at every other size and shape\n",
                cn->nccl_name, ct_nccl_list_elem_name(kind, keep), cn->name,
                ct_nccl_list_elem_name(kind, keep));
    }
}

void ct_emit_nccl_site_lines(const ct_tune_result_t *r, FILE *fp, const ct_emit_vars_t *vars)
{
    int any = 0;
    for (int k = 0; r->site != NULL && k < 2; k++)
        any |= ct_emit_nccl_site_var(r, k == 0 ? CT_NCCL_LIST_ALGO : CT_NCCL_LIST_PROTO) != NULL;
    if (!any || vars->count == 0)
        return;
    fputs("# Site settings (read before the tune; its baseline):\n", fp);
    for (int k = 0; k < 2; k++)
        ct_site_kind_lines(r, fp, k == 0 ? CT_NCCL_LIST_ALGO : CT_NCCL_LIST_PROTO, vars);
    if (ct_emit_nccl_site_outranks_conf(r, vars))
        fputs("#   nccl.conf is not written: the site's environment outranks it (NCCL takes\n"
              "#   a variable from the environment first); nccl.env, sourced after the\n"
              "#   site's environment, carries every setting\n",
              fp);
}
