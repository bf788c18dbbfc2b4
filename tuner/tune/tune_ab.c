/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_ab.c - the A/B of a tune, in rounds until the files it ran are the
 * files to be written (tune_ab.h).
 */
#define _XOPEN_SOURCE 700

#include "tune_ab.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit.h"
#include "evidence.h"
#include "outdir.h"
#include "trial.h"
#include "tune_ab_turns.h"

/* The A/B pairs on the verification's own scopes, alternating which
 * side goes first; outside the search's budget.  turns > 0: that many
 * pairs to a launch, as app contexts taking turns (tune_ab_turns.h). */
static ct_status_t ct_tune_verify_pairs(const ct_tune_ab_t *x, ct_tune_scope_t *vsc, size_t nvsc,
                                        size_t pairs, size_t turns, int *stop)
{
    if (turns > 0 && !x->run->no_turns) {
        ct_status_t st = ct_tune_ab_turns(x->run, vsc, nvsc, pairs, turns, stop);
        if (st != CT_OK || *stop != 0 || !x->run->no_turns)
            return st;
    }
    ct_status_t st = CT_OK;
    size_t total = 2 * pairs * nvsc, done = 0;
    for (size_t p = 0; p < pairs && st == CT_OK && *stop == 0; p++)
        for (size_t v = 0; v < nvsc && st == CT_OK && *stop == 0; v++)
            for (size_t k = 0; k < 2 && st == CT_OK && *stop == 0; k++, done++)
                st = ct_tune_trial(x->run, &vsc[v], p % 2 ? 1 - k : k, (long)p, 0, 0, done, total,
                                   stop);
    if (x->run->tty)
        fputc('\n', stderr);
    return st;
}

/* How many pairs the A/B puts in one launch of nvsc kinds (0: fresh
 * launches): --verify-turns, as many as the hosts hold (tune_ab_turns.h);
 * why not, said once per A/B, when the user asked for turns. */
static size_t ct_tune_turns_for(const ct_tune_ab_t *x, const ct_tune_result_t *result, size_t nvsc)
{
    char why[512] = "";
    if (x->turns == 0 || x->run->no_turns)
        return 0;
    size_t per = x->turns;
    if (!ct_tune_ab_turns_ok(x->run, result, why, sizeof why))
        per = 0;
    else if (!ct_tune_turns_pinned(x->run)) {
        size_t fit = ct_tune_turns_fit(x->run->placed, why, sizeof why) / (2 * nvsc);
        per = fit < per ? fit : per;
    }
    if (per == 0)
        fprintf(stderr, "colltune tune: note: the A/B's sides get a launch each: %s\n", why);
    return per;
}

/* What failed or was refused in the A/B's launches, into buf ("" when
 * every launch of both sides ran whole). */
static void ct_tune_verify_failures(const ct_tune_state_t *s, const ct_tune_scope_t *vsc,
                                    size_t nvsc, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < s->ntrials && buf[0] == '\0'; i++) {
        const ct_trial_t *t = &s->trials[i];
        for (size_t v = 0; v < nvsc && buf[0] == '\0'; v++) {
            /* Only this A/B's two sides: a resumed journal may hold the
             * tuned side of an A/B of other choices. */
            int tuned = strcmp(t->key, vsc[v].configs.configs[1].key) == 0;
            if (strcmp(t->scope, vsc[v].name) != 0 ||
                (!tuned && strcmp(t->key, vsc[v].configs.configs[0].key) != 0))
                continue;
            const char *side = tuned ? "tuned" : "default";
            if (t->status != CT_JOURNAL_OK)
                snprintf(buf, len, "a %s launch of the A/B failed (%s: %s; see the journal)", side,
                         ct_journal_status_name(t->status), t->reason ? t->reason : "-");
            else if (t->nrefused > 0)
                snprintf(buf, len, "the library refused the %s side's %s %s: %.300s", side,
                         t->refused[0].collective, t->refused[0].dtype, t->refused[0].reason);
        }
    }
}

/* The collectives and sizes the search measured, from its decisions
 * (malloc'ed into *sizes_p). */
static ct_status_t ct_tune_searched(const ct_tune_state_t *s, const ct_tune_scope_decision_t *decs,
                                    ct_tune_vsize_t **sizes_p, size_t *n_p)
{
    size_t n = 0;
    for (size_t si = 0; si < s->nscopes; si++)
        n += decs[si].ev.ncells;
    ct_tune_vsize_t *v = calloc(n ? n : 1, sizeof *v);
    if (v == NULL)
        return CT_ERR_NOMEM;
    n = 0;
    for (size_t si = 0; si < s->nscopes; si++)
        for (size_t k = 0; k < decs[si].ev.ncells; k++)
            v[n++] = (ct_tune_vsize_t){decs[si].ev.cells[k].coll, decs[si].ev.cells[k].bytes,
                                       decs[si].ev.cells[k].nranks, decs[si].ev.cells[k].nnodes};
    *sizes_p = v;
    *n_p = n;
    return CT_OK;
}

/* Verifies result's choices (tune_verify.h): the candidate files, the
 * A/B on scopes of its own, and the verdicts into v.  *stop 130:
 * interrupted during the A/B (v then judges nothing). */
static ct_status_t ct_tune_verify_run(const ct_tune_ab_t *x, const ct_tune_result_t *result,
                                      const ct_tune_scope_decision_t *decs, size_t round,
                                      const char *colls, ct_tune_verify_t *v, int *stop, char *err,
                                      size_t errlen)
{
    const ct_tune_state_t *s = x->s;
    ct_tune_scope_t vsc[CT_TUNE_VERIFY_MAX_SCOPES];
    size_t nvsc = 0;
    memset(vsc, 0, sizeof vsc);
    ct_tune_vsize_t *searched = NULL;
    size_t nsearched = 0;
    ct_status_t st = ct_tune_searched(s, decs, &searched, &nsearched);
    ct_tune_verify_in_t in = {x->out,    x->lo,   &s->scopes[0].configs.configs[0],
                              x->pairs,  x->nccl, searched,
                              nsearched, round,   colls};
    if (st == CT_OK)
        st = ct_tune_verify_setup(result, &in, vsc, &nvsc, v, err, errlen);
    size_t turns = st == CT_OK ? ct_tune_turns_for(x, result, nvsc) : 0;
    v->turns = turns;
    if (st == CT_OK) {
        size_t cands = 0;
        for (size_t i = 0; i < result->nchoices; i++)
            cands += (size_t)(result->choices[i].significant && !result->choices[i].unwritable);
        fprintf(stderr,
                "colltune tune: %s %zu choices: %zu A/B pairs x %zu kinds of launch%s "
                "(%s at %s B%s%s), the tuned side with %s\n",
                round > 1 ? "verifying the files as written, where they changed:" : "verifying",
                cands, v->pairs, nvsc, turns ? ", each side an app context taking turns" : "",
                colls ? colls : "every collective", v->sizes,
                nvsc > 1 ? "; int8 and bfloat16 at " : "", nvsc > 1 ? v->check_sizes : "", v->how);
        if (v->note[0])
            fprintf(stderr, "colltune tune: note: %s\n", v->note);
        st = ct_tune_verify_pairs(x, vsc, nvsc, v->pairs, turns, stop);
        if (x->run->no_turns)
            v->turns = 0; /* fell back: the report says fresh launches */
    }
    ct_tune_evidence_t ev[CT_TUNE_VERIFY_MAX_SCOPES];
    size_t nev = 0, nfirst = nvsc;
    for (; st == CT_OK && *stop == 0 && nev < nfirst; nev++)
        st = ct_tune_evidence_build(s, &vsc[nev], &ev[nev]);
    /* Suspects a choice reaches: a second A/B of their cells alone. */
    if (st == CT_OK && *stop == 0 && ct_tune_verify_suspects(ev, nev, result, v) > 0) {
        fprintf(stderr,
                "colltune tune: %zu cells read slower with the files: confirming with %zu more "
                "pairs (%s at %s B, %s)\n",
                v->nsuspects, v->pairs, v->confirm_colls, v->confirm_sizes, v->confirm_dtypes);
        st = ct_tune_verify_confirm_scope(&vsc[0], v, &vsc[nvsc]);
        nvsc++;
        if (st == CT_OK)
            st = ct_tune_verify_pairs(x, &vsc[nvsc - 1], 1, v->pairs, turns, stop);
        if (st == CT_OK && *stop == 0)
            st = ct_tune_evidence_build(s, &vsc[nvsc - 1], &ev[nev++]);
    }
    if (st == CT_OK && *stop == 0) {
        char failed[512];
        ct_tune_verify_failures(s, vsc, nvsc, failed, sizeof failed);
        st = ct_tune_verify_judge(ev, nfirst, nev > nfirst ? &ev[nfirst] : NULL, result, searched,
                                  nsearched, failed, v);
    }
    for (size_t e = 0; e < nev; e++)
        ct_tune_evidence_free(&ev[e]);
    for (size_t k = 0; k < nvsc; k++) {
        ct_space_configs_free(&vsc[k].configs);
        free(vsc[k].excluded);
        free(vsc[k].alive);
    }
    free(searched);
    return st;
}

/* A choice the site's settings would outrank in every form a file can
 * carry it in: reported with the setting named, never verified or
 * written (ct_emit_outranked).  Run again after a range is cut: the form
 * can change with the range. */
ct_status_t ct_tune_mark_outranked(ct_tune_result_t *result)
{
    for (size_t i = 0; i < result->nchoices; i++) {
        ct_tune_choice_t *c = &result->choices[i];
        char buf[512];
        const char *why =
            c->unwritable == NULL ? ct_emit_outranked(result, c, buf, sizeof buf) : NULL;
        if (why == NULL)
            continue;
        free(c->outranked);
        if ((c->outranked = strdup(why)) == NULL)
            return CT_ERR_NOMEM;
        c->unwritable = c->outranked;
    }
    return CT_OK;
}

/* The final files, emitted from result's verdicts into a scratch
 * directory beside the A/B's and hashed into *h (nothing is left there):
 * *same says whether they are the files v's A/B ran, byte for byte but
 * for the directory's own path (mca-params.conf names the rules file). */
static ct_status_t ct_tune_final_files(const ct_tune_ab_t *x, const ct_tune_result_t *result,
                                       const ct_tune_verify_t *v, ct_tune_round_t *h, int *same,
                                       char *err, size_t errlen)
{
    char dir[PATH_MAX], abs[PATH_MAX];
    *same = 0;
    h->nfiles = 0;
    if (ct_outdir_path(x->out, "verify-final", dir, sizeof dir) != CT_OK) {
        snprintf(err, errlen, "--out %s: path too long", x->out);
        return CT_ERR_USAGE;
    }
    ct_status_t st = ct_outdir_prepare(dir, err, errlen);
    if (st == CT_OK && realpath(dir, abs) == NULL) {
        snprintf(err, errlen, "%.400s: %s", dir, strerror(errno));
        st = CT_ERR_IO;
    }
    const char *names[CT_TUNE_VERIFY_MAX_FILES];
    size_t n = 0;
    if (st == CT_OK)
        st = ct_emit_all(result, abs, err, errlen);
    if (st == CT_OK) {
        n = ct_emit_files(result, names, CT_TUNE_VERIFY_MAX_FILES);
        st = ct_tune_files_hash(abs, names, n, h->files, &h->nfiles, err, errlen);
    }
    for (size_t f = 0; f < n; f++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", abs, names[f]);
        (void)unlink(path);
    }
    (void)rmdir(dir);
    if (st != CT_OK)
        return st;
    *same = h->nfiles == v->nfiles;
    for (size_t f = 0; f < h->nfiles && *same; f++)
        *same = strcmp(h->files[f].name, v->files[f].name) == 0 &&
                strcmp(h->files[f].sha256_rel, v->files[f].sha256_rel) == 0;
    return CT_OK;
}

/* Round's verdicts into result: the choices that were its candidates take
 * their verdict, range and reason; the others keep the round that
 * dropped them.  A range cut to where it held may be one no file can
 * carry, or one the site's settings outrank: not written, and said. */
static ct_status_t ct_tune_apply_round(ct_tune_result_t *result, const int *cand,
                                       ct_tune_verify_t *v, char (*why)[CT_TUNE_WHY_LEN])
{
    for (size_t i = 0; i < result->nchoices && i < v->nchoices; i++) {
        if (!cand[i])
            continue;
        ct_tune_choice_t *c = &result->choices[i];
        c->verified = v->verified[i];
        c->min_bytes = v->min_bytes[i];
        c->max_bytes = v->max_bytes[i];
        if (v->round == 1)
            snprintf(why[i], CT_TUNE_WHY_LEN, "%s", v->why[i]);
        else {
            size_t wl = strlen(why[i]);
            snprintf(why[i] + wl, CT_TUNE_WHY_LEN - wl, "; the files as written, A/B %zu: %s",
                     v->round, v->why[i]);
        }
        if (c->unwritable != NULL || (c->unwritable = ct_emit_cannot_carry(result, c)) == NULL)
            continue;
        size_t wl = strlen(why[i]);
        snprintf(why[i] + wl, CT_TUNE_WHY_LEN - wl, "; %s over what stays", c->unwritable);
        c->verified = 0;
    }
    ct_status_t st = ct_tune_mark_outranked(result);
    for (size_t i = 0; st == CT_OK && i < result->nchoices; i++)
        if (cand[i] && result->choices[i].outranked != NULL && result->choices[i].verified) {
            size_t wl = strlen(why[i]);
            snprintf(why[i] + wl, CT_TUNE_WHY_LEN - wl, "; over what stays: %s",
                     result->choices[i].outranked);
            result->choices[i].verified = 0;
        }
    return st;
}

/* Choice c's collective into the list colls (collbench -C); a global
 * choice reaches every collective: *all. */
static void ct_tune_colls_add(char *colls, size_t len, const ct_tune_choice_t *c, int *all)
{
    if (c->scope == CT_SCOPE_GLOBAL)
        *all = 1;
    else
        ct_tune_list_add(colls, len, ct_space_scope_name(c->scope));
}

ct_status_t ct_tune_ab_rounds(const ct_tune_ab_t *x, ct_tune_result_t *result,
                              const ct_tune_scope_decision_t *decs, ct_tune_verify_t *v,
                              ct_tune_rounds_t *rounds, char (*why)[CT_TUNE_WHY_LEN], int *stop,
                              char *err, size_t errlen)
{
    size_t n = result->nchoices ? result->nchoices : 1;
    int *cand = calloc(n, sizeof *cand), *judged = calloc(n, sizeof *judged);
    long long *lo = calloc(n, sizeof *lo), *hi = calloc(n, sizeof *hi);
    ct_tune_choice_t *copy = calloc(n, sizeof *copy);
    ct_status_t st = cand && judged && lo && hi && copy ? CT_OK : CT_ERR_NOMEM;
    for (size_t i = 0; i < result->nchoices; i++)
        judged[i] = cand[i] =
            result->choices[i].significant && result->choices[i].unwritable == NULL;
    char colls[256] = "";
    int all = 1;
    for (size_t round = 1; st == CT_OK && *stop == 0; round++) {
        /* This round's files: its candidates alone, as significant. */
        ct_tune_result_t next = *result;
        next.choices = copy;
        for (size_t i = 0; i < result->nchoices; i++) {
            copy[i] = result->choices[i];
            copy[i].significant = cand[i];
            lo[i] = result->choices[i].min_bytes;
            hi[i] = result->choices[i].max_bytes;
        }
        /* An earlier round's A/B stays for the report. */
        if (rounds->n > 0) {
            ct_tune_verify_t *keep = malloc(sizeof *keep);
            if (keep == NULL) {
                st = CT_ERR_NOMEM;
                break;
            }
            *keep = *v;
            memset(v, 0, sizeof *v);
            rounds->round[rounds->n - 1].v = keep;
        }
        st = ct_tune_verify_run(x, &next, decs, round, all ? NULL : colls, v, stop, err, errlen);
        if (st != CT_OK || *stop != 0)
            break;
        ct_tune_round_t *r = &rounds->round[rounds->n++];
        r->round = round;
        snprintf(r->dir, sizeof r->dir, "%s", v->dir);
        memcpy(r->files, v->files, sizeof r->files);
        r->nfiles = v->nfiles;
        r->candidates = 0;
        for (size_t i = 0; i < result->nchoices; i++)
            r->candidates += (size_t)judged[i];
        st = ct_tune_apply_round(result, judged, v, why);
        size_t usable = 0;
        for (size_t i = 0; i < result->nchoices; i++)
            usable += (size_t)ct_emit_usable(&result->choices[i]);
        r->held = usable;
        int same = 0;
        if (st == CT_OK && usable > 0)
            st = ct_tune_final_files(x, result, v, &rounds->written, &same, err, errlen);
        if (st != CT_OK || usable == 0 || same) {
            rounds->as_written = st == CT_OK && usable > 0;
            break;
        }
        if (rounds->n == CT_TUNE_MAX_ROUNDS) {
            for (size_t i = 0; i < result->nchoices; i++) {
                if (!ct_emit_usable(&result->choices[i]))
                    continue;
                result->choices[i].verified = 0;
                size_t wl = strlen(why[i]);
                snprintf(why[i] + wl, CT_TUNE_WHY_LEN - wl,
                         "; not written: the files changed again after the %zu A/Bs, and no A/B "
                         "ran the ones that would be written",
                         rounds->n);
            }
            break;
        }
        /* The next A/B runs the files as they would be written, at the
         * collectives where this one changed them (a cut, a drop, another
         * form): every cell a changed choice reaches, as the
         * confirmation does; elsewhere the files are the bytes just run. */
        colls[0] = '\0';
        all = 0;
        for (size_t i = 0; i < result->nchoices; i++) {
            const ct_tune_choice_t *c = &result->choices[i];
            if (cand[i] && (!ct_emit_usable(c) || c->min_bytes != lo[i] || c->max_bytes != hi[i]))
                ct_tune_colls_add(colls, sizeof colls, c, &all);
        }
        for (size_t i = 0; i < result->nchoices; i++) {
            cand[i] = ct_emit_usable(&result->choices[i]);
            judged[i] =
                cand[i] &&
                (all || (result->choices[i].scope != CT_SCOPE_GLOBAL &&
                         ct_tune_list_has(colls, ct_space_scope_name(result->choices[i].scope))));
        }
        fprintf(stderr,
                "colltune tune: the verdicts changed the files at %s (a range cut, a choice "
                "dropped or written in another form): an A/B of the files as they would be "
                "written\n",
                all ? "every collective" : colls);
    }
    free(cand);
    free(judged);
    free(lo);
    free(hi);
    free(copy);
    return st;
}
