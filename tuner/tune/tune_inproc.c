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
    /* The scopes of one collective's shapes (tune_state.h) share their
     * trials: one queued is all of theirs. */
    const ct_tune_scope_t *sc = &x->s->scopes[scope_i];
    for (size_t i = 0; i < x->npending; i++) {
        const ct_tune_pending_t *q = &x->pending[i];
        const ct_tune_scope_t *qs = &x->s->scopes[q->scope];
        if (q->launch == launch && strcmp(qs->name, sc->name) == 0 &&
            strcmp(qs->configs.configs[q->ci].key, sc->configs.configs[ci].key) == 0)
            return CT_OK;
    }
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

/* One scope's share of a shared launch: its configuration 0 (the anchor,
 * queued or not) and its members, each with its split. */
typedef struct {
    size_t scope;
    const ct_tune_pending_t *anchor; /* the queued trial of configuration 0, or NULL */
    const ct_tune_pending_t **members;
    const ct_tune_split_t **splits;
    size_t n;
} ct_tune_part_t;

/* One shared launch: parts[0..nparts), one per scope, all with the same
 * launch settings.  Of one scope, the launch is the one it always was
 * (-C the scope's, --config); of several, -C names them all and each
 * member is a --config-for of its own collective, so every collective
 * measures its own configurations alone and configuration 0 is every
 * scope's defaults. */
typedef struct {
    const ct_tune_part_t *parts;
    size_t nparts;
    const ct_space_config_t *launch; /* the launch's settings */
    const char *lkey;
    long launch_no;
    int short_run;
    size_t chunk;
} ct_tune_shared_t;

/* Whether name is a group some kept trial already has: a resumed tune's
 * launch must not pair with an earlier process's. */
static int ct_tune_group_used(const ct_tune_state_t *s, const char *name)
{
    for (size_t i = 0; i < s->ntrials; i++)
        if (strcmp(s->trials[i].group, name) == 0)
            return 1;
    return 0;
}

/* The group's name: SCOPE-LKEY-LAUNCH-sCHUNK for one scope, shared-... for
 * several, -rN added where a kept trial has it. */
static void ct_tune_group_name(const ct_tune_runner_t *x, const ct_tune_shared_t *g, char *group,
                               size_t glen)
{
    const char *who = g->nparts == 1 ? x->s->scopes[g->parts[0].scope].name : "shared";
    int n = snprintf(group, glen, "%s-%s-%ld-s%zu%s", who, g->lkey, g->launch_no, g->chunk,
                     g->short_run ? "-short" : "");
    size_t base = n > 0 && (size_t)n < glen ? (size_t)n : 0;
    for (int r = 1; ct_tune_group_used(x->s, group) && r < 1000; r++)
        snprintf(group + base, glen - base, "-r%d", r);
}

/* The trial directory and its files for a shared launch. */
static ct_status_t ct_tune_shared_paths(ct_tune_runner_t *x, const ct_tune_shared_t *g, char *group,
                                        size_t glen, char paths[3][4096])
{
    char dir[4096], name[160], err[512];
    ct_tune_group_name(x, g, group, glen);
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

/* The collective a part's rows are kept for in a launch of several
 * scopes (its own), or NULL: every row (one scope, or the global one). */
static const char *ct_tune_part_only(const ct_tune_runner_t *x, const ct_tune_shared_t *g,
                                     const ct_tune_part_t *p)
{
    const ct_tune_scope_t *sc = &x->s->scopes[p->scope];
    return g->nparts > 1 && sc->scope != CT_SCOPE_GLOBAL ? sc->name : NULL;
}

/* Journals each configuration of a finished shared launch: every part's
 * anchor as configuration 0, its members as their --config index. */
static ct_status_t ct_tune_shared_record(ct_tune_runner_t *x, const ct_tune_shared_t *g,
                                         const char *csv, const char *group,
                                         const ct_tune_outcome_t *o)
{
    ct_status_t st = CT_OK;
    long config = 1;
    for (size_t k = 0; k < g->nparts && st == CT_OK; k++) {
        const ct_tune_part_t *p = &g->parts[k];
        ct_tune_scope_t *sc = &x->s->scopes[p->scope];
        const char *only = ct_tune_part_only(x, g, p);
        if (p->anchor != NULL) {
            st = ct_tune_trial_record_only(x, sc, p->anchor->ci, p->anchor->launch, csv, 0, group,
                                           only, o);
            const ct_trial_t *t = &x->s->trials[x->s->ntrials - 1];
            if (st == CT_OK && sc->configs.configs[p->anchor->ci].baseline &&
                t->status == CT_JOURNAL_WRONG) {
                fprintf(stderr,
                        "colltune tune: the defaults' trial gave wrong results (#wrong > 0 in "
                        "%s): the library is broken at its defaults; stopping (the journal is "
                        "intact)\n",
                        csv);
                return CT_ERR_WRONG;
            }
        }
        for (size_t i = 0; i < p->n && st == CT_OK; i++)
            st = ct_tune_trial_record_only(x, sc, p->members[i]->ci, p->members[i]->launch, csv,
                                           config++, group, only, o);
    }
    return st;
}

static void ct_tune_shared_progress(const ct_tune_runner_t *x, const ct_tune_shared_t *g,
                                    const char *group, const ct_tune_outcome_t *o)
{
    size_t n = 0;
    for (size_t k = 0; k < g->nparts; k++)
        n += g->parts[k].n + (g->parts[k].anchor != NULL);
    char scopes[64] = "";
    if (g->nparts > 1)
        snprintf(scopes, sizeof scopes, " (%zu scopes)", g->nparts);
    fprintf(stderr, "%scolltune tune: launch %s: %zu configurations%s in one launch%s, %s, %.1fs%s",
            x->tty ? "\r\033[K" : "", group, n, scopes, g->short_run ? " (short)" : "",
            ct_journal_status_name(o->status), o->wall_s, x->tty ? "" : "\n");
}

/* collbench's arguments for g's members, in part order, and (several
 * scopes) the scopes' collectives for -C into colls; CT_ERR_USAGE when
 * they do not fit (the caller runs the scopes apart). */
static ct_status_t ct_tune_shared_args(const ct_tune_runner_t *x, const ct_tune_shared_t *g,
                                       ct_argv_t *extra, char *colls, size_t clen)
{
    ct_status_t st = CT_OK;
    size_t used = 0;
    colls[0] = '\0';
    for (size_t k = 0; k < g->nparts && st == CT_OK; k++) {
        const ct_tune_part_t *p = &g->parts[k];
        const ct_tune_scope_t *sc = &x->s->scopes[p->scope];
        const char *only = ct_tune_part_only(x, g, p);
        const char *mine = sc->scope == CT_SCOPE_GLOBAL ? x->s->colls : sc->name;
        int w = snprintf(colls + used, clen - used, "%s%s", used ? "," : "", mine);
        if (g->nparts > 1 && (w < 0 || (size_t)w >= clen - used))
            return CT_ERR_USAGE; /* no room: the caller runs the scopes apart */
        used += w > 0 && (size_t)w < clen - used ? (size_t)w : 0;
        for (size_t i = 0; i < p->n && st == CT_OK; i++) {
            st = ct_argv_push(extra, only ? "--config-for" : "--config");
            if (st == CT_OK && only != NULL)
                st = ct_argv_push3(extra, only, ":", p->splits[i]->runtime);
            else if (st == CT_OK)
                st = ct_argv_push(extra, p->splits[i]->runtime);
        }
    }
    return st;
}

/* Runs one shared launch; *retry set when it failed as a whole (its
 * configurations then run apart). */
static ct_status_t ct_tune_shared_run(ct_tune_runner_t *x, const ct_tune_shared_t *g, int *retry,
                                      int *stop)
{
    char group[64], paths[3][4096], colls[256];
    *retry = 0;
    ct_status_t st = ct_tune_shared_paths(x, g, group, sizeof group, paths);
    if (st != CT_OK)
        return st;
    ct_argv_t extra = CT_ARGV_INIT;
    st = ct_tune_shared_args(x, g, &extra, colls, sizeof colls);
    if (st == CT_ERR_USAGE) {
        ct_argv_free(&extra);
        *retry = 1;
        return CT_OK;
    }
    /* The first part's scope, with -C every part's collectives. */
    ct_tune_scope_t sc = x->s->scopes[g->parts[0].scope];
    if (g->nparts > 1)
        sc.colls = colls;
    ct_tune_outcome_t o;
    const char *const p3[3] = {paths[0], paths[1], paths[2]};
    if (st == CT_OK)
        st = ct_tune_trial_launch(
            x, &sc, g->launch, &extra,
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
                "colltune tune: the shared launch %s failed (%s): its configurations run %s\n",
                group, o.reason[0] ? o.reason : ct_journal_status_name(o.status),
                g->nparts > 1 ? "a launch per scope" : "one per launch");
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

/* Whether the shared launch may start: not interrupted, within
 * --budget-s. */
static int ct_tune_may_start(ct_tune_runner_t *x, int *stop)
{
    if (ct_tune_interrupted())
        *stop = 130;
    else if (ct_tune_budget_spent(x->s, -1))
        *stop = 1;
    return *stop == 0;
}

/* One scope's queued trials of one launch setting and length, as before
 * scopes shared launches: its members in chunks of CT_TUNE_INPROC_MAX
 * (the anchor journaled with the first), a failed chunk one per launch,
 * an anchor with no member alone. */
static ct_status_t ct_tune_inproc_part(ct_tune_runner_t *x, ct_tune_shared_t *g,
                                       const ct_tune_part_t *part, int *stop)
{
    ct_status_t st = CT_OK;
    if (part->n == 0)
        return part->anchor ? ct_tune_inproc_alone(x, &part->anchor, 1, stop) : CT_OK;
    size_t done = 0;
    for (g->chunk = 0; done < part->n && st == CT_OK && *stop == 0; g->chunk++) {
        size_t take = part->n - done > CT_TUNE_INPROC_MAX ? CT_TUNE_INPROC_MAX : part->n - done;
        ct_tune_part_t one = {part->scope, g->chunk == 0 ? part->anchor : NULL,
                              part->members + done, part->splits + done, take};
        g->parts = &one;
        g->nparts = 1;
        if (!ct_tune_may_start(x, stop))
            break;
        int retry = 0;
        st = ct_tune_shared_run(x, g, &retry, stop);
        if (st == CT_OK && retry) {
            if (one.anchor != NULL)
                st = ct_tune_inproc_alone(x, &one.anchor, 1, stop);
            if (st == CT_OK)
                st = ct_tune_inproc_alone(x, one.members, one.n, stop);
        }
        done += take;
    }
    return st;
}

/* Several scopes' parts in one launch (bin: their index in the group, for
 * the name); a failed one runs each scope apart. */
static ct_status_t ct_tune_inproc_bin(ct_tune_runner_t *x, ct_tune_shared_t *g,
                                      const ct_tune_part_t *parts, size_t n, size_t bin, int *stop)
{
    ct_status_t st = CT_OK;
    size_t members = 0;
    for (size_t k = 0; k < n; k++)
        members += parts[k].n;
    if (n == 1 || members == 0) {
        /* One scope, or only defaults: each as it always ran. */
        for (size_t k = 0; k < n && st == CT_OK && *stop == 0; k++)
            st = ct_tune_inproc_part(x, g, &parts[k], stop);
        return st;
    }
    g->parts = parts;
    g->nparts = n;
    g->chunk = bin;
    if (!ct_tune_may_start(x, stop))
        return CT_OK;
    int retry = 0;
    st = ct_tune_shared_run(x, g, &retry, stop);
    for (size_t k = 0; k < n && st == CT_OK && retry && *stop == 0; k++)
        st = ct_tune_inproc_part(x, g, &parts[k], stop);
    return st;
}

/* One group (same launch, length and launch settings): its scopes' parts
 * packed whole, in queue order, into launches of at most
 * CT_TUNE_INPROC_MAX members; a scope with more has its own. */
static ct_status_t ct_tune_inproc_group(ct_tune_runner_t *x, ct_tune_shared_t *g,
                                        const ct_tune_part_t *parts, size_t nparts, int *stop)
{
    ct_status_t st = CT_OK;
    size_t bin = 0;
    for (size_t i = 0, end; i < nparts && st == CT_OK && *stop == 0; i = end) {
        size_t members = parts[i].n;
        for (end = i + 1; end < nparts && members + parts[end].n <= CT_TUNE_INPROC_MAX; end++)
            members += parts[end].n;
        st = ct_tune_inproc_bin(x, g, parts + i, end - i, bin++, stop);
    }
    return st;
}

/* Whether scopes a and b can share a launch: the search's own (-C their
 * own collective or the tune's) with the same extra arguments. */
static int ct_tune_shareable(const ct_tune_scope_t *a, const ct_tune_scope_t *b)
{
    if (a->colls != NULL || b->colls != NULL)
        return a == b;
    size_t i = 0;
    while (a->args && b->args && a->args[i] && b->args[i] && strcmp(a->args[i], b->args[i]) == 0)
        i++;
    return (a->args == NULL || a->args[i] == NULL) && (b->args == NULL || b->args[i] == NULL);
}

ct_status_t ct_tune_inproc_flush(ct_tune_runner_t *x, int *stop)
{
    ct_tune_state_t *s = x->s;
    size_t n = x->npending;
    *stop = 0;
    if (n == 0)
        return CT_OK;
    ct_tune_split_t *splits = calloc(n, sizeof *splits);
    size_t *taken = calloc(n, sizeof *taken); /* 1 + the first queued trial of its group */
    const ct_tune_pending_t **members = calloc(n, sizeof *members);
    const ct_tune_split_t **msplits = calloc(n, sizeof *msplits);
    ct_tune_part_t *parts = calloc(n, sizeof *parts);
    ct_status_t st = splits && taken && members && msplits && parts ? CT_OK : CT_ERR_NOMEM;
    for (size_t i = 0; i < n && st == CT_OK; i++) {
        const ct_tune_pending_t *p = &x->pending[i];
        const ct_tune_scope_t *sc = &s->scopes[p->scope];
        st = ct_tune_split(s->space, sc->scope, &sc->configs.configs[p->ci], &splits[i]);
    }
    /* Groups in queue order: same launch, length and launch settings, and
     * scopes that can share; within one, a part per scope. */
    for (size_t i = 0; i < n && st == CT_OK && *stop == 0; i++) {
        if (taken[i])
            continue;
        const ct_tune_pending_t *p = &x->pending[i];
        ct_tune_shared_t g;
        memset(&g, 0, sizeof g);
        g.launch = &splits[i].launch;
        g.lkey = splits[i].key;
        g.launch_no = p->launch;
        g.short_run = p->short_run;
        size_t nparts = 0;
        for (size_t j = i; j < n && st == CT_OK; j++) {
            const ct_tune_pending_t *q = &x->pending[j];
            if (taken[j] || q->launch != p->launch || q->short_run != p->short_run ||
                strcmp(splits[j].key, splits[i].key) != 0 ||
                !ct_tune_shareable(&s->scopes[q->scope], &s->scopes[p->scope]))
                continue;
            taken[j] = i + 1;
            size_t k = 0;
            while (k < nparts && parts[k].scope != q->scope)
                k++;
            if (k == nparts) {
                memset(&parts[nparts++], 0, sizeof parts[0]);
                parts[k].scope = q->scope;
            }
            if (splits[j].runtime[0] == '\0' && parts[k].anchor == NULL)
                parts[k].anchor = q;
            else if (splits[j].too_long)
                st = ct_tune_inproc_alone(x, &q, 1, stop); /* no --config can carry it */
        }
        /* Each part's members (its group's trials, not its anchor nor one
         * run alone), contiguous in members[], in queue order. */
        size_t at = 0;
        for (size_t k = 0; k < nparts; k++) {
            parts[k].members = members + at;
            parts[k].splits = msplits + at;
            for (size_t j = i; j < n; j++) {
                const ct_tune_pending_t *q = &x->pending[j];
                if (taken[j] != i + 1 || q->scope != parts[k].scope || q == parts[k].anchor ||
                    splits[j].too_long)
                    continue;
                members[at] = q;
                msplits[at++] = &splits[j];
                parts[k].n++;
            }
        }
        /* A scope whose only queued trials ran alone adds nothing. */
        size_t kept = 0;
        for (size_t k = 0; k < nparts; k++)
            if (parts[k].anchor != NULL || parts[k].n > 0)
                parts[kept++] = parts[k];
        if (st == CT_OK && *stop == 0)
            st = ct_tune_inproc_group(x, &g, parts, kept, stop);
    }
    for (size_t i = 0; i < n && splits; i++)
        free(splits[i].launch.settings);
    free(splits);
    free(taken);
    free(members);
    free(msplits);
    free(parts);
    x->npending = 0;
    return st;
}
