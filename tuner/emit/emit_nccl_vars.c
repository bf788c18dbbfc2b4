/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit_nccl_vars.c - the NCCL variables nccl.env and nccl.conf carry, which
 * NCCL_ALGO / NCCL_PROTO choices go to the tuner plugin instead, and the
 * header lines that say what each setting covers.
 *
 * NCCL reads a variable for every collective and size.  NCCL_ALGO and
 * NCCL_PROTO are lists with a per-collective form since NCCL 2.24
 * ("AllReduce:tree;Broadcast:ring", src/lib/ct_nccl_list.h), so a choice
 * for one collective over every size is that collective's entry there.
 * Over a size range only the tuner plugin can carry one: a rule naming the
 * algorithm, the protocol or both (emit_nccl_tuner.c).  A per-collective
 * choice that fits neither is refused rather than silently widened: a
 * global NCCL_ALGO=tree tuned on allreduce alone kills every broadcast
 * (NCCL 2.28 runs broadcast on ring only).
 *
 * A choice's value is the space's, which may itself be a list; what is
 * written for a collective is that value's entry for it (its projection),
 * so "allreduce:tree;broadcast:ring" chosen for broadcast writes
 * "Broadcast:ring".  nccl.env and nccl.conf are keyed by nothing: another
 * job shape's same setting is written once, a differing one refused
 * (ct_emit_shape_conflict); the plugin's rules name their shape.  What
 * the lists allow is emit_nccl_list.c's; the site's lists,
 * emit_nccl_site.c's.
 */
#include "emit_format.h"

#include <stdlib.h>
#include <string.h>

#include "ct_nccl_list.h"
#include "ct_printable.h"
#include "ct_vec.h"

static int ct_is_nccl(const ct_tune_choice_t *c)
{
    return c->via == CT_VIA_ENV && ct_setting_is(c->name, c->via, CT_LIB_NCCL);
}

ct_emit_carry_t ct_emit_nccl_vars_carries(const ct_tune_result_t *r, const ct_tune_choice_t *c,
                                          const char **why_p)
{
    ct_nccl_list_kind_t kind;
    if (ct_emit_nccl_list_kind(c, &kind)) {
        if (c->scope != CT_SCOPE_GLOBAL && !ct_emit_full_range(c))
            return CT_EMIT_NOT_MINE; /* a plugin rule's */
        *why_p = ct_emit_nccl_cannot_carry(r, c);
        return *why_p != NULL ? CT_EMIT_REFUSES : CT_EMIT_CARRIES;
    }
    /* Any other NCCL variable: NCCL reads it for every size. */
    return ct_is_nccl(c) && ct_emit_full_range(c) ? CT_EMIT_CARRIES : CT_EMIT_NOT_MINE;
}

int ct_emit_nccl_vars_wanted(const ct_tune_result_t *r)
{
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        if (ct_emit_usable(c) && ct_is_nccl(c) && !ct_emit_nccl_is_rule(r, c))
            return 1;
    }
    return ct_emit_nccl_site_reenables(r);
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

/* Appends text (len bytes) to the malloc'ed *buf_p of *len_p bytes. */
static ct_status_t ct_append(char **buf_p, size_t *len_p, const char *text, size_t len)
{
    char *n = realloc(*buf_p, *len_p + len + 1);
    if (n == NULL)
        return CT_ERR_NOMEM;
    memcpy(n + *len_p, text, len);
    *len_p += len;
    n[*len_p] = '\0';
    *buf_p = n;
    return CT_OK;
}

/* coll's entry that re-enables what a plugin rule needs beside the site's
 * set ("AllReduce:Ring,Tree", emit_nccl_site.c), appended; nothing when
 * the site disables nothing a rule of coll names. */
static ct_status_t ct_reenable_entry(const ct_tune_result_t *r, ct_nccl_list_kind_t kind, int coll,
                                     char **buf_p, size_t *len_p)
{
    unsigned mask;
    const ct_coll_name_t *cn = ct_coll_name_find(ct_emit_nccl_scope_name(coll));
    if (cn == NULL || ct_emit_nccl_site_keep(r, coll, kind, &mask) < 0)
        return CT_OK;
    ct_status_t st = *len_p > 0 ? ct_append(buf_p, len_p, ";", 1) : CT_OK;
    if (st == CT_OK)
        st = ct_append(buf_p, len_p, cn->nccl_name, strlen(cn->nccl_name));
    const char *sep = ":";
    for (int e = 0; e < ct_nccl_list_nelems(kind) && st == CT_OK; e++) {
        if (!(mask & (1u << e)))
            continue;
        const char *name = ct_nccl_list_elem_name(kind, e);
        st = ct_append(buf_p, len_p, sep, 1);
        if (st == CT_OK)
            st = ct_append(buf_p, len_p, name, strlen(name));
        sep = ",";
    }
    return st;
}

/* kind's per-collective list from the whole-range choices, in collective
 * order ("AllReduce:tree;Broadcast:ring"); *buf_p stays NULL when there
 * is none. */
static ct_status_t ct_per_coll(const ct_tune_result_t *r, ct_nccl_list_kind_t kind, char **buf_p,
                               char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    ct_status_t st = CT_OK;

    for (int coll = 0; coll < CT_COLL_COUNT && st == CT_OK; coll++) {
        const ct_tune_choice_t *found = NULL;
        ct_nccl_list_kind_t k;
        for (size_t i = 0; i < r->nchoices && st == CT_OK; i++) {
            const ct_tune_choice_t *c = &r->choices[i];
            if (!ct_emit_usable(c) || c->scope != coll || !ct_emit_nccl_list_kind(c, &k) ||
                k != kind || !ct_emit_full_range(c) || ct_emit_shape_repeat(r, c))
                continue;
            if (found != NULL) {
                snprintf(err, errlen, "%s is chosen twice for %s (%s and %s)", c->name,
                         ct_emit_nccl_scope_name(coll), found->value, c->value);
                st = CT_ERR_USAGE;
            }
            found = c;
        }
        if (st != CT_OK)
            continue;
        if (found == NULL) { /* a site's list re-opened for a plugin rule, or nothing */
            st = ct_reenable_entry(r, kind, coll, &buf, &len);
            continue;
        }
        const ct_coll_name_t *cn;
        ct_nccl_list_func_t proj;
        st = ct_emit_nccl_project(found, kind, &cn, &proj, err, errlen);
        if (st == CT_OK && len > 0)
            st = ct_append(&buf, &len, ";", 1);
        if (st == CT_OK)
            st = ct_append(&buf, &len, cn->nccl_name, strlen(cn->nccl_name));
        if (st == CT_OK)
            st = ct_append(&buf, &len, ":", 1);
        if (st == CT_OK)
            st = ct_append(&buf, &len, proj.elems, proj.elems_len);
    }
    if (st != CT_OK) {
        free(buf);
        return st;
    }
    *buf_p = buf;
    return CT_OK;
}

/* A global NCCL_ALGO / NCCL_PROTO value as NCCL will read it. */
static ct_status_t ct_check_list(ct_nccl_list_kind_t kind, const char *value, char *err,
                                 size_t errlen)
{
    ct_nccl_list_t list;
    char why[512];
    if (ct_nccl_list_parse(kind, value, &list, why, sizeof why) == CT_OK)
        return CT_OK;
    snprintf(err, errlen, "%s=%s: %s", ct_nccl_list_var(kind), value, why);
    return CT_ERR_USAGE;
}

/* The site's own value of kind's variable before the per-collective
 * entries (*per_p, replaced), so that every collective they do not name
 * keeps the site's decision: nccl.env outranks the site's setting, and
 * NCCL reads the variable once for every collective.  A site value NCCL
 * refuses is not kept (nothing ran under it). */
static ct_status_t ct_site_first(const ct_tune_result_t *r, ct_nccl_list_kind_t kind, char **per_p)
{
    const ct_site_setting_t *s = ct_emit_nccl_site_var(r, kind);
    ct_nccl_list_t list;
    char why[512];
    if (s == NULL || s->value[0] == '\0' ||
        ct_nccl_list_parse(kind, s->value, &list, why, sizeof why) != CT_OK)
        return CT_OK;
    size_t len = strlen(s->value);
    char *buf = malloc(len + 1);
    if (buf == NULL)
        return CT_ERR_NOMEM;
    memcpy(buf, s->value, len + 1);
    ct_status_t st = ct_append(&buf, &len, ";", 1);
    if (st == CT_OK)
        st = ct_append(&buf, &len, *per_p, strlen(*per_p));
    if (st != CT_OK) {
        free(buf);
        return st;
    }
    free(*per_p);
    *per_p = buf;
    return CT_OK;
}

ct_status_t ct_emit_nccl_vars(const ct_tune_result_t *r, ct_emit_vars_t *vars_p, char *err,
                              size_t errlen)
{
    ct_emit_vars_t vars = {0};
    ct_status_t st = CT_OK;

    for (size_t i = 0; i < r->nchoices && st == CT_OK; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        ct_nccl_list_kind_t kind;
        if (!ct_emit_usable(c) || !ct_is_nccl(c) || ct_emit_nccl_is_rule(r, c) ||
            ct_emit_shape_repeat(r, c))
            continue;
        /* One value for every job shape: another shape's must agree. */
        if (ct_emit_full_range(c) &&
            ct_emit_shape_conflict_in(r, c, "nccl.env", err, errlen) != NULL) {
            st = CT_ERR_USAGE;
            break;
        }
        st = ct_emit_check_name(c, "nccl.env", err, errlen);
        if (st != CT_OK)
            break;
        int list = ct_emit_nccl_list_kind(c, &kind);
        if (c->scope != CT_SCOPE_GLOBAL) {
            if (list)
                continue; /* a whole-range entry of the per-collective list below */
            snprintf(err, errlen,
                     "%s=%s for %s over %lld..%lld bytes: NCCL reads it for every collective "
                     "and size; only NCCL_ALGO and NCCL_PROTO have a per-collective form",
                     c->name, c->value, ct_emit_nccl_scope_name(c->scope), c->min_bytes,
                     c->max_bytes);
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
        if (list && (st = ct_check_list(kind, c->value, err, errlen)) != CT_OK)
            break;
        for (size_t j = 0; j < vars.count; j++) {
            if (strcmp(vars.vars[j].name, c->name) == 0) {
                snprintf(err, errlen, "%s is chosen twice (%s and %s)", c->name, vars.vars[j].value,
                         c->value);
                st = CT_ERR_USAGE;
            }
        }
        if (st != CT_OK)
            break;
        char *value = strdup(c->value);
        st = value ? ct_vars_add(&vars, c->name, value) : CT_ERR_NOMEM;
    }

    /* Per-collective entries follow a global value: NCCL lets a first
     * entry without a collective cover all, later entries override it. */
    for (int k = 0; k < 2 && st == CT_OK; k++) {
        ct_nccl_list_kind_t kind = k == 0 ? CT_NCCL_LIST_ALGO : CT_NCCL_LIST_PROTO;
        char *per = NULL;
        st = ct_per_coll(r, kind, &per, err, errlen);
        if (st != CT_OK || per == NULL)
            continue;
        ct_emit_var_t *global = NULL;
        for (size_t j = 0; j < vars.count; j++)
            if (strcmp(vars.vars[j].name, ct_nccl_list_var(kind)) == 0)
                global = &vars.vars[j];
        if (global == NULL) {
            st = ct_site_first(r, kind, &per);
            if (st == CT_OK)
                st = ct_vars_add(&vars, ct_nccl_list_var(kind), per);
            if (st == CT_OK)
                st = ct_check_list(kind, vars.vars[vars.count - 1].value, err, errlen);
            continue;
        }
        size_t len = strlen(global->value);
        st = ct_append(&global->value, &len, ";", 1);
        if (st == CT_OK)
            st = ct_append(&global->value, &len, per, strlen(per));
        free(per);
        if (st == CT_OK)
            st = ct_check_list(kind, global->value, err, errlen);
    }
    if (st != CT_OK) {
        ct_emit_vars_free(&vars);
        return st;
    }
    *vars_p = vars;
    return CT_OK;
}

/* --- the header lines: what each setting covers --- */

static void ct_put_span(FILE *fp, const ct_tune_choice_t *c)
{
    long long lo = c->min_bytes < 0 ? 0 : c->min_bytes;
    if (ct_emit_full_range(c))
        fputs(", every size", fp);
    else if (c->max_bytes < 0)
        fprintf(fp, " %lld B and up", lo);
    else
        fprintf(fp, " %lld..%lld B", lo, c->max_bytes);
}

/* "#   NCCL_ALGO: AllReduce 16384..262143 B: tree, via nccl_tuner.conf",
 * with " at 2x4" before ", via" when at is set. */
static void ct_put_coll_line(FILE *fp, const ct_tune_choice_t *c, ct_nccl_list_kind_t kind,
                             const char *via, const char *at)
{
    const ct_coll_name_t *cn;
    ct_nccl_list_func_t proj;
    char err[512];
    fprintf(fp, "#   %s: ", c->name);
    if (ct_emit_nccl_project(c, kind, &cn, &proj, err, sizeof err) == CT_OK) {
        int one = ct_nccl_list_only(proj.mask);
        fputs(cn->nccl_name, fp);
        ct_put_span(fp, c);
        fputs(": ", fp);
        if (!ct_emit_full_range(c) && one >= 0) /* what the rule names */
            fputs(ct_nccl_list_elem_name(kind, one), fp);
        else /* what the list entry says */
            ct_printable_put(fp, proj.elems, proj.elems_len);
    } else { /* the writers refuse it; said here only for completeness */
        fputs(ct_emit_nccl_scope_name(c->scope), fp);
        ct_put_span(fp, c);
        fputs(": ", fp);
        ct_printable_put(fp, c->value, strlen(c->value));
    }
    fprintf(fp, "%s%s, via %s\n", at ? " at " : "", at ? at : "", via);
}

/* By scope, then first byte, then shape. */
static int ct_by_scope_then_min(const void *a, const void *b)
{
    const ct_tune_choice_t *x = *(const ct_tune_choice_t *const *)a;
    const ct_tune_choice_t *y = *(const ct_tune_choice_t *const *)b;
    if (x->scope != y->scope)
        return x->scope < y->scope ? -1 : 1;
    long long mx = x->min_bytes < 0 ? 0 : x->min_bytes, my = y->min_bytes < 0 ? 0 : y->min_bytes;
    if (mx != my)
        return mx < my ? -1 : 1;
    if (x->nranks != y->nranks)
        return x->nranks < y->nranks ? -1 : 1;
    return x->nnodes < y->nnodes ? -1 : x->nnodes > y->nnodes;
}

static const char *const ct_via_vars = "nccl.env and nccl.conf";

ct_status_t ct_emit_nccl_coverage(const ct_emit_ctx_t *ctx, FILE *fp)
{
    const ct_tune_result_t *r = ctx->r;
    const ct_tune_choice_t **ranged = calloc(r->nchoices ? r->nchoices : 1, sizeof(*ranged));
    if (ranged == NULL)
        return CT_ERR_NOMEM;

    int multi = ct_emit_multi_shape(r);
    fputs("# What each setting covers (only what the tune measured and verified):\n", fp);
    for (size_t i = 0; i < r->nchoices; i++) {
        const ct_tune_choice_t *c = &r->choices[i];
        ct_nccl_list_kind_t kind;
        if (!ct_emit_usable(c) || !ct_is_nccl(c) || c->scope != CT_SCOPE_GLOBAL ||
            ct_emit_shape_repeat(r, c))
            continue;
        fputs("#   ", fp);
        ct_printable_put(fp, c->name, strlen(c->name));
        fputs(": every collective and size", fp);
        if (ct_emit_nccl_list_kind(c, &kind)) {
            fputs(": ", fp);
            ct_printable_put(fp, c->value, strlen(c->value));
        }
        fprintf(fp, ", via %s\n", ct_via_vars);
    }
    for (int k = 0; k < 2; k++) {
        ct_nccl_list_kind_t kind = k == 0 ? CT_NCCL_LIST_ALGO : CT_NCCL_LIST_PROTO, ck;
        int global = 0, any = 0;
        size_t n = 0;
        for (int coll = 0; coll < CT_COLL_COUNT; coll++)
            for (size_t i = 0; i < r->nchoices; i++) {
                const ct_tune_choice_t *c = &r->choices[i];
                if (!ct_emit_usable(c) || !ct_emit_nccl_list_kind(c, &ck) || ck != kind)
                    continue;
                global |= c->scope == CT_SCOPE_GLOBAL;
                if (c->scope != coll)
                    continue;
                any = 1;
                if (!ct_emit_full_range(c))
                    ranged[n++] = c;
                else if (!ct_emit_shape_repeat(r, c))
                    ct_put_coll_line(fp, c, kind, ct_via_vars, NULL);
            }
        ct_vec_sort(ranged, n, sizeof(*ranged), ct_by_scope_then_min);
        for (size_t i = 0; i < n; i++) {
            char at[64];
            /* A rule holds at its own shape: said when there are several. */
            ct_emit_shape_name(ct_emit_choice_shape(r, ranged[i]), at, sizeof at);
            ct_put_coll_line(fp, ranged[i], kind, "nccl_tuner.conf", multi ? at : NULL);
        }
        const ct_site_setting_t *s = ct_emit_nccl_site_var(r, kind);
        if (any && !global && s == NULL)
            fprintf(fp, "#   %s: every other collective and size: NCCL's own choice\n",
                    ct_nccl_list_var(kind));
        else if (any && !global) {
            fprintf(fp, "#   %s: every other collective and size: the site's ",
                    ct_nccl_list_var(kind));
            ct_printable_put(fp, s->value, (size_t)-1);
            fputs(" (", fp);
            ct_printable_put(fp, s->origin, (size_t)-1);
            fputs(")\n", fp);
        }
    }
    free(ranged);
    /* The site's settings these variables override (the writers report a
     * result they refuse). */
    ct_emit_vars_t vars;
    char err[512];
    if (r->site != NULL && ct_emit_nccl_vars(r, &vars, err, sizeof err) == CT_OK) {
        ct_emit_nccl_site_lines(r, fp, &vars);
        ct_emit_vars_free(&vars);
    }
    fputc('\n', fp);
    return CT_OK;
}
