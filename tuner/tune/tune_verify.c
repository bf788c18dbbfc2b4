/*
 * tune_verify.c - the A/B with the emitted files (tune_verify.h).
 */
#define _XOPEN_SOURCE 700

#include "tune_verify.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_hash.h"
#include "ct_stats.h"
#include "emit.h"
#include "outdir.h"
#include "trial.h"
#include "evidence.h"
#include "tune_decide.h"
#include "ct_vec.h"

void ct_tune_verify_free(ct_tune_verify_t *v)
{
    free(v->cells);
    free(v->verified);
    free(v->why);
    v->cells = NULL;
    v->verified = NULL;
    v->why = NULL;
    v->ncells = v->nchoices = 0;
}

static int ct_tune_verify_cmp(const void *a, const void *b)
{
    return strcmp(((const ct_space_setting_t *)a)->name, ((const ct_space_setting_t *)b)->name);
}

static ct_status_t ct_tune_verify_add(ct_space_config_t *c, const char *name, const char *value,
                                      ct_via_t via)
{
    ct_space_setting_t *s = realloc(c->settings, (c->n + 1) * sizeof *s);
    if (s == NULL)
        return CT_ERR_NOMEM;
    c->settings = s;
    s[c->n].name = strdup(name);
    s[c->n].value = strdup(value);
    s[c->n].via = via;
    if (s[c->n].name == NULL || s[c->n].value == NULL) {
        free(s[c->n].name);
        free(s[c->n].value);
        return CT_ERR_NOMEM;
    }
    c->n++;
    return CT_OK;
}

/* The MCA files Open MPI reads when mca_base_param_files is not set (the
 * user's and the system's, where the site's settings live): from the
 * user's own --mca mca_base_param_files, else from ompi_info.  Setting
 * the parameter replaces that list, so the A/B must name them too.  ""
 * with a note when neither says. */
static void ct_tune_verify_mca_tail(const ct_launch_opts_t *lo, const char *dir, char *tail,
                                    size_t len, char *note, size_t notelen)
{
    tail[0] = '\0';
    for (size_t i = 0; i < lo->nmca; i++)
        if (strcmp(lo->mca[i].name, "mca_base_param_files") == 0) {
            snprintf(tail, len, "%s", lo->mca[i].value);
            return;
        }
    char out[4096], errf[4096], err[256];
    if (ct_outdir_path(dir, "ompi_info.txt", out, sizeof out) != CT_OK ||
        ct_outdir_path(dir, "ompi_info.err", errf, sizeof errf) != CT_OK)
        return;
    char *argv[] = {"ompi_info", "--parsable", "--param", "mca", "base", "--level", "9", NULL};
    ct_trial_spec_t spec = {argv, NULL, out, errf, 60, 2};
    ct_trial_result_t res;
    if (ct_trial_run(&spec, &res, err, sizeof err) == CT_OK && res.outcome == CT_TRIAL_OK) {
        FILE *f = fopen(out, "r");
        char line[8192];
        const char *key = ":mca_base_param_files:value:";
        while (f != NULL && fgets(line, sizeof line, f) != NULL) {
            char *p = strstr(line, key);
            if (p != NULL) {
                p += strlen(key);
                p[strcspn(p, "\n")] = '\0';
                snprintf(tail, len, "%s", p);
                break;
            }
        }
        if (f != NULL)
            fclose(f);
    }
    if (tail[0] == '\0')
        snprintf(note, notelen,
                 "ompi_info did not give Open MPI's default mca_base_param_files, so the "
                 "tuned side read only the emitted mca-params.conf, not the system's");
}

void ct_tune_verify_colls(const ct_tune_result_t *r, const char *tune_colls, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < r->nchoices; i++) {
        if (r->choices[i].scope == CT_SCOPE_GLOBAL) {
            snprintf(buf, len, "%s", tune_colls);
            return;
        }
    }
    for (size_t i = 0; i < r->nchoices; i++) {
        const char *name = ct_space_scope_name(r->choices[i].scope);
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen = r->choices[k].scope == r->choices[i].scope;
        if (seen)
            continue;
        int m = snprintf(buf + used, len - used, "%s%s", used ? "," : "", name);
        if (m < 0 || (size_t)m >= len - used)
            break;
        used += (size_t)m;
    }
}

/* Whether the user's environment or --env sets name. */
static int ct_tune_verify_user_has(const ct_launch_opts_t *lo, const char *name)
{
    int has = getenv(name) != NULL;
    for (size_t i = 0; i < lo->nenv; i++)
        has |= strcmp(lo->env[i].name, name) == 0;
    return has;
}

/* Adds to tuned the settings that make a library read the emitted file
 * name in dir, as its emitter's entry says (ld), and appends them to
 * v->how (*used: its length). */
static ct_status_t ct_tune_verify_load(const ct_launch_opts_t *lo, const char *dir,
                                       const char *name, const ct_emit_load_t *ld,
                                       ct_space_config_t *tuned, ct_tune_verify_t *v, size_t *used)
{
    if (ld->var == NULL)
        return CT_OK;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (ld->keeps_defaults) {
        char tail[4096];
        ct_tune_verify_mca_tail(lo, dir, tail, sizeof tail, v->note, sizeof v->note);
        if (tail[0] != '\0') {
            size_t pl = strlen(path);
            snprintf(path + pl, sizeof path - pl, ",%s", tail);
        }
    }
    ct_status_t st = CT_OK;
    if (ld->also != NULL && !ct_tune_verify_user_has(lo, ld->also))
        st = ct_tune_verify_add(tuned, ld->also, ld->also_value, CT_VIA_ENV);
    const char *value = ld->names_dir ? dir : path;
    if (st == CT_OK)
        st = ct_tune_verify_add(tuned, ld->var, value, ld->via);
    if (st != CT_OK)
        return st;
    int m = snprintf(v->how + *used, sizeof v->how - *used, "%s%s %s=%s", *used ? "; " : "",
                     ld->via == CT_VIA_MCA ? "--mca" : "env", ld->var, value);
    if (m > 0 && (size_t)m < sizeof v->how - *used)
        *used += (size_t)m;
    return CT_OK;
}

ct_status_t ct_tune_verify_setup(const ct_tune_result_t *r, const char *out,
                                 const ct_launch_opts_t *lo, const ct_space_config_t *base,
                                 size_t pairs, ct_tune_scope_t *sc, ct_tune_verify_t *v, char *err,
                                 size_t errlen)
{
    char dir[4096], abs[PATH_MAX];
    memset(v, 0, sizeof *v);
    v->pairs = pairs;
    if (ct_outdir_path(out, CT_TUNE_VERIFY_NAME, dir, sizeof dir) != CT_OK) {
        snprintf(err, errlen, "--out %s: path too long", out);
        return CT_ERR_USAGE;
    }
    ct_status_t st = ct_outdir_prepare(dir, err, errlen);
    if (st != CT_OK)
        return st;
    if (realpath(dir, abs) == NULL) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return CT_ERR_IO;
    }
    snprintf(v->dir, sizeof v->dir, "%s", abs);

    /* The candidate files: every significant choice, marked verified only
     * so the emitters write it; the final files carry the verdicts. */
    ct_tune_result_t cand = *r;
    cand.choices = calloc(r->nchoices ? r->nchoices : 1, sizeof *cand.choices);
    if (cand.choices == NULL)
        return CT_ERR_NOMEM;
    for (size_t i = 0; i < r->nchoices; i++) {
        cand.choices[i] = r->choices[i];
        cand.choices[i].verified = cand.choices[i].significant;
    }
    st = ct_emit_all(&cand, abs, err, errlen);
    const char *names[16];
    const ct_emit_load_t *loads[16];
    size_t nfiles = st == CT_OK ? ct_emit_loads(&cand, names, loads, 16) : 0;
    free(cand.choices);
    if (st != CT_OK)
        return st;

    /* [0] the defaults; [1] the defaults and the files. */
    sc->scope = CT_SCOPE_GLOBAL;
    sc->name = CT_TUNE_VERIFY_NAME;
    sc->configs.configs = calloc(2, sizeof *sc->configs.configs);
    sc->excluded = calloc(2, sizeof *sc->excluded);
    sc->alive = calloc(2, sizeof *sc->alive);
    if (sc->configs.configs == NULL || sc->excluded == NULL || sc->alive == NULL)
        return CT_ERR_NOMEM;
    sc->configs.n = 2;
    for (size_t side = 0; side < 2 && st == CT_OK; side++)
        for (size_t i = 0; i < base->n && st == CT_OK; i++)
            st = ct_tune_verify_add(&sc->configs.configs[side], base->settings[i].name,
                                    base->settings[i].value, base->settings[i].via);
    size_t used = 0;
    for (size_t f = 0; f < nfiles && f < 16 && st == CT_OK; f++)
        st = ct_tune_verify_load(lo, abs, names[f], loads[f], &sc->configs.configs[1], v, &used);
    if (st != CT_OK)
        return st;
    /* The tuned side's id covers the choices too, through a variable the
     * libraries ignore (its journal key is that of its settings): a
     * resumed tune that decided otherwise does not reuse an A/B of other
     * files. */
    uint64_t h = CT_HASH_INIT;
    for (size_t i = 0; i < r->nchoices; i++) {
        char text[128];
        const ct_tune_choice_t *c = &r->choices[i];
        snprintf(text, sizeof text, "|%d:%lld:%lld:", c->scope, c->min_bytes, c->max_bytes);
        h = ct_hash_string(h, text);
        h = ct_hash_string(h, c->name);
        h = ct_hash_string(h, c->value);
    }
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    st = ct_tune_verify_add(&sc->configs.configs[1], "COLLTUNE_VERIFY_CHOICES", hex, CT_VIA_ENV);
    if (st != CT_OK)
        return st;
    /* Keys as the journal checks them: of the settings sorted by name. */
    for (size_t side = 0; side < 2; side++) {
        ct_space_config_t *c = &sc->configs.configs[side];
        ct_vec_sort(c->settings, c->n, sizeof *c->settings, ct_tune_verify_cmp);
        ct_space_config_key(c->settings, c->n, c->key, sizeof c->key);
    }
    return CT_OK;
}

/* The median a report shows: 0, not ct_stats_median's NaN, for a side
 * with no launches, as the report and its JSON always printed it. */
static double ct_tune_report_median(const double *v, size_t n)
{
    return n ? ct_stats_median(v, n) : 0;
}

/* One collective x size of the A/B: side [0] default, [1] tuned. */
static void ct_tune_verify_cell(const ct_tune_ev_cell_t *e, ct_tune_vcell_t *c)
{
    const ct_tune_launches_t *d = &e->cfg[0], *t = &e->cfg[1];
    c->coll = e->coll;
    c->bytes = e->bytes;
    c->ndef = d->n;
    c->ntun = t->n;
    c->def_us = ct_tune_report_median(d->us, c->ndef);
    c->def_lo = ct_tune_min(d->us, c->ndef);
    c->def_hi = ct_tune_max(d->us, c->ndef);
    c->def_bw = ct_tune_report_median(d->bw, c->ndef);
    c->tun_us = ct_tune_report_median(t->us, c->ntun);
    c->tun_lo = ct_tune_min(t->us, c->ntun);
    c->tun_hi = ct_tune_max(t->us, c->ntun);
    c->tun_bw = ct_tune_report_median(t->bw, c->ntun);
    c->p_faster = ct_stats_mw_p_less(t->us, c->ntun, d->us, c->ndef);
    c->p_slower = ct_stats_mw_p_less(d->us, c->ndef, t->us, c->ntun);
    c->holds = c->ntun > 0 && c->ndef > 0 && c->p_faster <= CT_TUNE_VERIFY_ALPHA &&
               c->tun_us <= (1.0 - CT_TUNE_MARGIN) * c->def_us;
    c->contradicts = c->ntun > 0 && c->ndef > 0 && c->p_slower <= CT_TUNE_VERIFY_ALPHA;
}

/* The verdict on one choice from the A/B's cells (and weighted time). */
static void ct_tune_verify_choice(const ct_tune_verify_t *v, const ct_tune_choice_t *ch,
                                  int weighted, int *verified, char *why, size_t why_len)
{
    size_t in = 0, holds = 0, against = 0;
    for (size_t k = 0; k < v->ncells; k++) {
        const ct_tune_vcell_t *c = &v->cells[k];
        if (ch->scope != CT_SCOPE_GLOBAL &&
            (strcmp(c->coll, ct_space_scope_name(ch->scope)) != 0 || c->bytes < ch->min_bytes ||
             (ch->max_bytes >= 0 && c->bytes > ch->max_bytes)))
            continue;
        in++;
        holds += (size_t)c->holds;
        against += (size_t)c->contradicts;
    }
    if (in == 0) {
        snprintf(why, why_len, "the A/B measured no size in its range");
    } else if (against > 0) {
        snprintf(why, why_len, "the default was significantly faster at %zu of %zu sizes", against,
                 in);
    } else if (ch->scope == CT_SCOPE_GLOBAL && weighted) {
        *verified = v->w_n >= CT_TUNE_VERIFY_MIN_PAIRS && v->w_p <= CT_TUNE_VERIFY_ALPHA &&
                    v->w_tun <= (1.0 - CT_TUNE_MARGIN) * v->w_def;
        snprintf(why, why_len, "weighted time %.2f -> %.2f us (p = %.3g, %zu launches each)",
                 v->w_def, v->w_tun, v->w_p, v->w_n);
    } else if (ch->scope == CT_SCOPE_GLOBAL) {
        *verified = holds > 0;
        snprintf(why, why_len, "faster at %zu of %zu sizes, slower at none", holds, in);
    } else {
        *verified = 2 * holds > in;
        snprintf(why, why_len, "faster at %zu of %zu sizes of its range, slower at none", holds,
                 in);
    }
}

ct_status_t ct_tune_verify_judge(const ct_tune_evidence_t *ev, const ct_tune_result_t *r,
                                 ct_tune_verify_t *v)
{
    free(v->cells);
    v->ncells = 0;
    v->cells = calloc(ev->ncells ? ev->ncells : 1, sizeof *v->cells);
    if (v->cells == NULL)
        return CT_ERR_NOMEM;
    for (size_t k = 0; k < ev->ncells; k++)
        ct_tune_verify_cell(&ev->cells[k], &v->cells[v->ncells++]);
    free(v->verified);
    free(v->why);
    v->nchoices = r->nchoices;
    v->verified = calloc(r->nchoices ? r->nchoices : 1, sizeof *v->verified);
    v->why = calloc(r->nchoices ? r->nchoices : 1, sizeof *v->why);
    if (v->verified == NULL || v->why == NULL)
        return CT_ERR_NOMEM;
    if (ev->weighted) {
        const ct_tune_launches_t *d = &ev->weighted_us[0], *t = &ev->weighted_us[1];
        v->w_def = ct_tune_report_median(d->us, d->n);
        v->w_tun = ct_tune_report_median(t->us, t->n);
        v->w_p = ct_stats_mw_p_less(t->us, t->n, d->us, d->n);
        v->w_n = d->n < t->n ? d->n : t->n;
    }
    for (size_t i = 0; i < r->nchoices; i++) {
        /* The evidence marks a side excluded when one of its launches failed. */
        if (r->choices[i].unwritable)
            snprintf(v->why[i], sizeof v->why[i], "no file can carry it over its sizes: %s",
                     r->choices[i].unwritable);
        else if (ev->excluded[1] || ev->excluded[0])
            snprintf(v->why[i], sizeof v->why[i], "a %s launch of the A/B failed (see the journal)",
                     ev->excluded[1] ? "tuned" : "default");
        else
            ct_tune_verify_choice(v, &r->choices[i], ev->weighted, &v->verified[i], v->why[i],
                                  sizeof v->why[i]);
    }
    return CT_OK;
}
