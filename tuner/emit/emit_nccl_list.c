/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_nccl_list.c - what NCCL's lists let a file carry (see
 * emit_format.h): which choices are NCCL_ALGO / NCCL_PROTO, a value's
 * entry for one collective (its projection, src/lib/ct_nccl_list.h), and
 * why no NCCL file can carry a choice.  A leaf below the NCCL writers:
 * nccl.env and nccl.conf carry a list for every size (emit_nccl_vars.c),
 * nccl_tuner.conf one collective's rule over a range (emit_nccl_tuner.c),
 * each through its carries hook, and emit_nccl_site.c weighs a site's
 * list against them.
 */
#include "emit_format.h"

#include "ct_nccl_list.h"

int ct_emit_nccl_list_kind(const ct_tune_choice_t *c, ct_nccl_list_kind_t *kind_p)
{
    return c->via == CT_VIA_ENV && ct_nccl_list_kind_of(c->name, kind_p) == 0;
}

int ct_emit_nccl_is_rule(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    ct_nccl_list_kind_t kind;
    (void)r;
    return ct_emit_usable(c) && c->scope != CT_SCOPE_GLOBAL && ct_emit_nccl_list_kind(c, &kind) &&
           !ct_emit_full_range(c);
}

const char *ct_emit_nccl_scope_name(int scope)
{
    const char *n = ct_coll_name((ct_coll_id_t)scope);
    return n ? n : "?";
}

static const char *ct_kind_word(ct_nccl_list_kind_t kind)
{
    return kind == CT_NCCL_LIST_ALGO ? "algorithm" : "protocol";
}

ct_status_t ct_emit_nccl_project(const ct_tune_choice_t *c, ct_nccl_list_kind_t kind,
                                 const ct_coll_name_t **cn_p, ct_nccl_list_func_t *proj_p,
                                 char *err, size_t errlen)
{
    const ct_coll_name_t *cn = ct_coll_name_find(ct_emit_nccl_scope_name(c->scope));
    char why[512];

    if (cn == NULL || cn->nccl_func < 0) {
        snprintf(err, errlen, "%s for %s: NCCL runs it as send/recv and has no %s to choose",
                 c->name, ct_emit_nccl_scope_name(c->scope), ct_kind_word(kind));
        return CT_ERR_USAGE;
    }
    if (ct_nccl_list_project(kind, c->value, cn->nccl_func, proj_p, why, sizeof why) != CT_OK) {
        snprintf(err, errlen, "%s=%s for %s: %s", c->name, c->value, cn->name, why);
        return CT_ERR_USAGE;
    }
    if (!proj_p->named) {
        snprintf(err, errlen,
                 "%s=%s for %s: the value has no entry for %s, which keeps NCCL's own choice",
                 c->name, c->value, cn->name, cn->nccl_name);
        return CT_ERR_USAGE;
    }
    *cn_p = cn;
    return CT_OK;
}

/* The elements of kind that the nccl.conf lines (a global choice, then
 * scope's whole-range choice) leave func; every one when neither names
 * it.  At decision time nothing is verified yet, so choices count when
 * significant. */
static unsigned ct_conf_allows(const ct_tune_result_t *r, ct_nccl_list_kind_t kind, int scope,
                               int func)
{
    unsigned mask = (1u << ct_nccl_list_nelems(kind)) - 1u;
    char err[512];
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < r->nchoices; i++) {
            const ct_tune_choice_t *o = &r->choices[i];
            ct_nccl_list_kind_t k;
            ct_nccl_list_func_t f;
            if (!o->significant || !ct_emit_nccl_list_kind(o, &k) || k != kind ||
                !ct_emit_full_range(o) || o->scope != (pass == 0 ? CT_SCOPE_GLOBAL : scope))
                continue;
            if (ct_nccl_list_project(kind, o->value, func, &f, err, sizeof err) == CT_OK && f.named)
                mask = f.mask;
        }
    }
    return mask;
}

const char *ct_emit_nccl_cannot_carry(const ct_tune_result_t *r, const ct_tune_choice_t *c)
{
    ct_nccl_list_kind_t kind;
    ct_nccl_list_t list;
    ct_nccl_list_func_t proj;
    char err[512];

    if (!ct_emit_nccl_list_kind(c, &kind))
        return NULL;
    int algo = kind == CT_NCCL_LIST_ALGO;
    if (c->scope == CT_SCOPE_GLOBAL) {
        if (ct_nccl_list_parse(kind, c->value, &list, err, sizeof err) != CT_OK)
            return "NCCL would refuse the value (NCCL's list syntax, src/lib/ct_nccl_list.h)";
        if (ct_emit_full_range(c))
            return NULL;
        return "NCCL reads NCCL_ALGO and NCCL_PROTO for every size; over a size range only one "
               "collective's choice can be written (a tuner-plugin rule)";
    }
    const ct_coll_name_t *cn = ct_coll_name_find(ct_emit_nccl_scope_name(c->scope));
    if (cn == NULL || cn->nccl_func < 0)
        return algo ? "NCCL runs this collective as send/recv and has no algorithm to choose"
                    : "NCCL runs this collective as send/recv and has no protocol to choose";
    if (ct_nccl_list_project(kind, c->value, cn->nccl_func, &proj, err, sizeof err) != CT_OK)
        return "NCCL would refuse the value (NCCL's list syntax, src/lib/ct_nccl_list.h)";
    if (!proj.named)
        return "the value has no entry for this collective, which keeps NCCL's own choice: "
               "nothing to write";
    if (ct_emit_full_range(c))
        return NULL;
    if (ct_nccl_list_count(proj.mask) != 1)
        return algo ? "the value leaves this collective several algorithms; over a size range "
                      "only a tuner-plugin rule can carry it, and a rule names one"
                    : "the value leaves this collective several protocols; over a size range "
                      "only a tuner-plugin rule can carry it, and a rule names one";
    if ((ct_conf_allows(r, kind, c->scope, cn->nccl_func) & proj.mask) == 0)
        return algo ? "nccl.conf's NCCL_ALGO (a global or whole-range choice) disables this "
                      "algorithm for the collective, so the plugin's rule could never apply"
                    : "nccl.conf's NCCL_PROTO (a global or whole-range choice) disables this "
                      "protocol for the collective, so the plugin's rule could never apply";
    return NULL;
}
