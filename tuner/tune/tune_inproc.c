/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_inproc.c - the in-process search (tune_inproc.h).
 */
#include "tune_inproc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_vec.h"
#include "outdir.h"
#include "run_once.h"
#include "space_known.h"

int ct_tune_inproc_scope(const ct_space_t *space, const ct_tune_scope_t *sc)
{
    for (size_t i = 0; i < space->nvars; i++)
        if (space->vars[i].kind == CT_SPACE_VAR && space->vars[i].runtime &&
            space->vars[i].scope == sc->scope)
            return 1;
    return 0;
}

ct_status_t ct_tune_inproc_queue(ct_tune_runner_t *x, size_t scope_i, size_t ci, long launch,
                                 int short_run, size_t done, size_t total)
{
    ct_tune_pending_t p = {scope_i, ci, launch, short_run, done, total};
    return CT_VEC_PUSH(x->pending, x->npending, x->pending_cap, &p);
}

/* Whether name goes to --config: a run-time variable of the space, or a
 * name Open MPI reads per communicator that a requires= sets along with
 * one (tune_verify.ini's segment size 0 beside an algorithm): that belongs
 * to the configuration, not to the launch, or configuration 0 would get it
 * too. */
static int ct_tune_runtime_var(const ct_space_t *space, const char *name)
{
    long i = ct_space_find(space, name);
    if (i >= 0 && space->vars[i].kind == CT_SPACE_VAR)
        return space->vars[i].runtime;
    return i < 0 && ct_space_known_runtime(name);
}

static int ct_tune_runtime_require(const ct_space_t *space, int scope,
                                   const ct_space_setting_t *set)
{
    for (size_t i = 0; i < space->nvars; i++) {
        const ct_space_var_t *v = &space->vars[i];
        if (v->kind != CT_SPACE_VAR || !v->runtime || v->scope != scope)
            continue;
        for (size_t k = 0; k < v->nrequires; k++)
            if (strcmp(v->requires[k].name, set->name) == 0 &&
                strcmp(v->requires[k].value, set->value) == 0)
                return 1;
    }
    return 0;
}

/* One configuration split: the launch's settings (a configuration of
 * their own, for ct_tune_trial_launch) and the --config text. */
typedef struct {
    ct_space_config_t launch; /* settings borrowed from the configuration or the space */
    char key[17];
    char runtime[1024]; /* "NAME=VALUE,..."; "" for configuration 0 */
    int too_long;       /* no --config can carry it (too long, a comma): a launch of its own */
} ct_tune_split_t;

static ct_status_t ct_tune_split(const ct_space_t *space, int scope, const ct_space_config_t *cfg,
                                 ct_tune_split_t *sp)
{
    memset(sp, 0, sizeof *sp);
    size_t cap = cfg->n + 16;
    sp->launch.settings = calloc(cap, sizeof *sp->launch.settings);
    if (sp->launch.settings == NULL)
        return CT_ERR_NOMEM;
    size_t used = 0;
    for (size_t i = 0; i < cfg->n; i++) {
        const ct_space_setting_t *set = &cfg->settings[i];
        if (ct_tune_runtime_var(space, set->name)) {
            /* collbench --config splits at commas ("LL,LL128" cannot go). */
            if (strchr(set->value, ',') != NULL)
                sp->too_long = 1;
            int n = snprintf(sp->runtime + used, sizeof sp->runtime - used, "%s%s=%s",
                             used ? "," : "", set->name, set->value);
            if (n < 0 || (size_t)n >= sizeof sp->runtime - used)
                sp->too_long = 1;
            else
                used += (size_t)n;
        } else if (!ct_tune_runtime_require(space, scope, set))
            sp->launch.settings[sp->launch.n++] = *set;
    }
    /* Every launch of the scope carries its run-time variables' requires=
     * settings, configuration 0's too: they are read at launch. */
    for (size_t i = 0; i < space->nvars; i++) {
        const ct_space_var_t *v = &space->vars[i];
        if (v->kind != CT_SPACE_VAR || !v->runtime || v->scope != scope)
            continue;
        for (size_t k = 0; k < v->nrequires; k++) {
            if (ct_tune_runtime_var(space, v->requires[k].name))
                continue;
            size_t j = 0;
            while (j < sp->launch.n && strcmp(sp->launch.settings[j].name, v->requires[k].name))
                j++;
            if (j == sp->launch.n && sp->launch.n < cap)
            sp->launch.settings[sp->launch.n++] = v->requires[k];
        }
    }
    ct_space_config_key(sp->launch.settings, sp->launch.n, sp->key, sizeof sp->key);
    return CT_OK;
}

/* One shared launch: members[0..n) of scope sc (queued trials, each with
 * its split), the anchor (configuration 0) journaled when queued. */
typedef struct {
    size_t scope;
    ct_tune_scope_t *sc;
    const ct_tune_pending_t *anchor; /* the queued trial of configuration 0, or NULL */
    size_t anchor_ci;                /* configuration 0's index in sc (when found) */
    const ct_tune_pending_t **members;
    const ct_tune_split_t **splits;
    size_t n;
    const ct_space_config_t *launch; /* the launch's settings */
    const char *lkey;
    long launch_no;
    int short_run;
    size_t chunk;
} ct_tune_shared_t;

/* The trial directory and its files for a shared launch. */
static ct_status_t ct_tune_shared_paths(ct_tune_runner_t *x, const ct_tune_shared_t *g, char *group,
                                        size_t glen, char paths[3][4096])
{
    char dir[4096], name[160], err[512];
    snprintf(group, glen, "%s-%s-%ld-s%zu%s", g->sc->name, g->lkey, g->launch_no, g->chunk,
             g->short_run ? "-short" : "");
    snprintf(name, sizeof name, "trials/%s", group);
    if (ct_outdir_path(x->out, name, dir, sizeof dir) != CT_OK ||
        ct_outdir_path(dir, "results.csv", paths[0], sizeof paths[0]) != CT_OK ||
        ct_outdir_path(dir, "collbench.txt", paths[1], sizeof paths[1]) != CT_OK ||
        ct_outdir_path(dir, "collbench.err", paths[2], sizeof paths[2]) != CT_OK) {
        fprintf(stderr, "colltune tune: --out %s: path too long\n", x->out);
        return CT_ERR_USAGE;
    }
    if (ct_outdir_prepare(dir, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune tune: %s: %s\n", dir, err);
        return CT_ERR_IO;
    }
    /* collbench appends to its CSV: a killed attempt's rows go first. */
    char json[4096];
    ct_tune_trial_json_path(paths[0], json, sizeof json);
    if ((unlink(paths[0]) != 0 && errno != ENOENT) || (unlink(json) != 0 && errno != ENOENT)) {
        fprintf(stderr, "colltune tune: cannot empty %s: %s\n", dir, strerror(errno));
        return CT_ERR_IO;
    }
    return CT_OK;
}

/* Journals each configuration of a finished shared launch. */
static ct_status_t ct_tune_shared_record(ct_tune_runner_t *x, const ct_tune_shared_t *g,
                                         const char *csv, const char *group,
                                         const ct_tune_outcome_t *o)
{
    ct_status_t st = CT_OK;
    if (g->anchor != NULL) {
        st = ct_tune_trial_record(x, g->sc, g->anchor->ci, g->anchor->launch, csv, 0, group, o);
        const ct_trial_t *k = &x->s->trials[x->s->ntrials - 1];
        if (st == CT_OK && g->sc->configs.configs[g->anchor->ci].baseline &&
            k->status == CT_JOURNAL_WRONG) {
            fprintf(stderr,
                    "colltune tune: the defaults' trial gave wrong results (#wrong > 0 in %s): the "
                    "library is broken at its defaults; stopping (the journal is intact)\n",
                    csv);
            return CT_ERR_WRONG;
        }
    }
    for (size_t i = 0; i < g->n && st == CT_OK; i++)
        st = ct_tune_trial_record(x, g->sc, g->members[i]->ci, g->members[i]->launch, csv,
                                  (long)i + 1, group, o);
    return st;
}

static void ct_tune_shared_progress(const ct_tune_runner_t *x, const ct_tune_shared_t *g,
                                    const char *group, const ct_tune_outcome_t *o)
{
    fprintf(stderr, "%scolltune tune: launch %s: %zu configurations in one launch%s, %s, %.1fs%s",
            x->tty ? "\r\033[K" : "", group, g->n + (g->anchor != NULL),
            g->short_run ? " (short)" : "", ct_journal_status_name(o->status), o->wall_s,
            x->tty ? "" : "\n");
}

/* Runs one shared launch; *retry set when it failed as a whole (its
 * configurations then run one per launch). */
static ct_status_t ct_tune_shared_run(ct_tune_runner_t *x, const ct_tune_shared_t *g, int *retry,
                                      int *stop)
{
    char group[128], paths[3][4096];
    *retry = 0;
    ct_status_t st = ct_tune_shared_paths(x, g, group, sizeof group, paths);
    ct_argv_t extra = CT_ARGV_INIT;
    for (size_t i = 0; i < g->n && st == CT_OK; i++) {
        st = ct_argv_push(&extra, "--config");
        if (st == CT_OK)
            st = ct_argv_push(&extra, g->splits[i]->runtime);
    }
    ct_tune_outcome_t o;
    const char *const p3[3] = {paths[0], paths[1], paths[2]};
    if (st == CT_OK)
        st = ct_tune_trial_launch(
            x, g->sc, g->launch, &extra,
            g->short_run ? CT_TUNE_INPROC_SHORT_BUDGET : CT_TUNE_INPROC_BUDGET, p3, &o);
    ct_argv_free(&extra);
    if (st != CT_OK)
        return st;
    if (o.interrupted) {
        *stop = 130;
        return CT_OK;
    }
    ct_tune_shared_progress(x, g, group, &o);
    if (o.status != CT_JOURNAL_OK && o.status != CT_JOURNAL_WRONG) {
        ct_run_once_tail("tune", paths[2], 5);
        fprintf(stderr,
                "colltune tune: the shared launch %s failed (%s): its configurations run one per "
                "launch\n",
                group, o.reason[0] ? o.reason : ct_journal_status_name(o.status));
        *retry = 1;
        return CT_OK;
    }
    x->s->launches_shared++;
    x->trial_time += o.wall_s;
    return ct_tune_shared_record(x, g, paths[0], group, &o);
}

/* The queued trials one at a time, each in a launch of its own. */
static ct_status_t ct_tune_inproc_alone(ct_tune_runner_t *x, const ct_tune_pending_t *const *p,
                                        size_t n, int *stop)
{
    ct_status_t st = CT_OK;
    for (size_t i = 0; i < n && st == CT_OK && *stop == 0; i++)
        st = ct_tune_trial(x, &x->s->scopes[p[i]->scope], p[i]->ci, p[i]->launch, p[i]->short_run,
                           1, p[i]->done, p[i]->total, stop);
    return st;
}

/* One group: the queued trials of one scope, launch settings and length,
 * in chunks. */
static ct_status_t ct_tune_inproc_group(ct_tune_runner_t *x, ct_tune_shared_t *g,
                                        const ct_tune_pending_t **all,
                                        const ct_tune_split_t *splits, size_t nall, int *stop)
{
    ct_status_t st = CT_OK;
    size_t done = 0;
    for (g->chunk = 0; done < nall && st == CT_OK && *stop == 0; g->chunk++) {
        size_t take = nall - done > CT_TUNE_INPROC_MAX ? CT_TUNE_INPROC_MAX : nall - done;
        const ct_tune_split_t *sp[CT_TUNE_INPROC_MAX];
        for (size_t i = 0; i < take; i++)
            sp[i] = &splits[done + i];
        g->members = all + done;
        g->splits = sp;
        g->n = take;
        if (g->chunk > 0)
            g->anchor = NULL; /* journaled with the first chunk */
        if (ct_tune_interrupted()) {
            *stop = 130;
            break;
        }
        if (ct_tune_budget_spent(x->s, -1)) {
            *stop = 1;
            break;
        }
        int retry = 0;
        const ct_tune_pending_t *anchor = g->anchor;
        st = ct_tune_shared_run(x, g, &retry, stop);
        if (st == CT_OK && retry) {
            if (anchor != NULL)
                st = ct_tune_inproc_alone(x, &anchor, 1, stop);
            if (st == CT_OK)
                st = ct_tune_inproc_alone(x, g->members, g->n, stop);
        }
        done += take;
    }
    return st;
}

ct_status_t ct_tune_inproc_flush(ct_tune_runner_t *x, int *stop)
{
    ct_tune_state_t *s = x->s;
    size_t n = x->npending;
    *stop = 0;
    if (n == 0)
        return CT_OK;
    ct_tune_split_t *splits = calloc(n, sizeof *splits);
    int *taken = calloc(n, sizeof *taken);
    const ct_tune_pending_t **members = calloc(n, sizeof *members);
    ct_tune_split_t *msplits = calloc(n, sizeof *msplits);
    ct_status_t st = splits && taken && members && msplits ? CT_OK : CT_ERR_NOMEM;
    for (size_t i = 0; i < n && st == CT_OK; i++) {
        const ct_tune_pending_t *p = &x->pending[i];
        const ct_tune_scope_t *sc = &s->scopes[p->scope];
        st = ct_tune_split(s->space, sc->scope, &sc->configs.configs[p->ci], &splits[i]);
    }
    /* Groups in queue order: same scope, launch settings and length. */
    for (size_t i = 0; i < n && st == CT_OK && *stop == 0; i++) {
        if (taken[i])
            continue;
        const ct_tune_pending_t *p = &x->pending[i];
        ct_tune_shared_t g;
        memset(&g, 0, sizeof g);
        g.scope = p->scope;
        g.sc = &s->scopes[p->scope];
        g.launch = &splits[i].launch;
        g.lkey = splits[i].key;
        g.launch_no = p->launch;
        g.short_run = p->short_run;
        size_t nm = 0;
        for (size_t j = i; j < n; j++) {
            const ct_tune_pending_t *q = &x->pending[j];
            if (taken[j] || q->scope != p->scope || q->short_run != p->short_run ||
                strcmp(splits[j].key, splits[i].key) != 0)
                continue;
            taken[j] = 1;
            if (splits[j].runtime[0] == '\0' && g.anchor == NULL)
                g.anchor = q;
            else if (splits[j].too_long) {
                /* No --config can carry it: a launch of its own. */
                st = ct_tune_inproc_alone(x, &q, 1, stop);
            } else {
                members[nm] = q;
                msplits[nm++] = splits[j];
            }
        }
        if (st == CT_OK && nm == 0 && g.anchor != NULL)
            st = ct_tune_inproc_alone(x, &g.anchor, 1, stop);
        else if (st == CT_OK && nm > 0)
            st = ct_tune_inproc_group(x, &g, members, msplits, nm, stop);
    }
    for (size_t i = 0; i < n && splits; i++)
        free(splits[i].launch.settings);
    free(splits);
    free(taken);
    free(members);
    free(msplits);
    x->npending = 0;
    return st;
}
