/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_ab_turns.c - the A/B's pairs as app contexts of one launch
 * (tune_ab_turns.h).
 */
#define _XOPEN_SOURCE 700

#include "tune_ab_turns.h"

#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher_words.h"
#include "outdir.h"
#include "tune_launch.h"

int ct_tune_ab_turns_ok(const ct_tune_runner_t *x, const ct_tune_result_t *result, char *why,
                        size_t len)
{
    if (!ct_launcher_apps_ok(&x->launcher, why, len))
        return 0;
    for (size_t i = 0; i < result->nchoices; i++)
        if (result->choices[i].significant && result->choices[i].unwritable == NULL &&
            result->choices[i].scope == CT_SCOPE_GLOBAL) {
            snprintf(why, len,
                     "%s is a global choice (the sides of one launch must share its transport)",
                     result->choices[i].name);
            return 0;
        }
    return 1;
}

size_t ct_tune_turns_fit(const char *json, char *why, size_t len)
{
    json_t *doc = json_load_file(json, 0, NULL);
    json_t *hosts = json_object_get(doc, "hosts");
    size_t fit = SIZE_MAX, i;
    json_t *h;
    if (json_array_size(hosts) == 0) { /* 0 too when not an array */
        snprintf(why, len, "no search launch says where its ranks ran");
        fit = 0;
    }
    json_array_foreach(hosts, i, h)
    {
        json_int_t r = json_integer_value(json_object_get(h, "ranks_per_node"));
        json_int_t c = json_integer_value(json_object_get(json_object_get(h, "topology"), "cores"));
        if (r <= 0 || c <= 0) {
            snprintf(why, len, "%s: host %zu has no ranks_per_node or cores", json, i);
            fit = 0;
        } else if (r <= c && (size_t)(c / r) < fit) {
            fit = (size_t)(c / r);
            if (fit < 2)
                snprintf(why, len,
                         "one launch's %lld ranks on %s leave no room for a second side among "
                         "its %lld cores",
                         (long long)r, json_string_value(json_object_get(h, "hostname")),
                         (long long)c);
        }
    }
    json_decref(doc);
    return fit;
}

int ct_tune_turns_pinned(const ct_tune_runner_t *x)
{
    int yield = 0;
    for (size_t i = 0; i < x->lo->nmca; i++)
        yield |= strcmp(x->lo->mca[i].name, "mpi_yield_when_idle") == 0;
    for (size_t i = 0; i < x->lo->nenv; i++)
        yield |= strcmp(x->lo->env[i].name, "OMPI_MCA_mpi_yield_when_idle") == 0;
    return yield && ct_launcher_has(&x->launcher, "--bind-to");
}

/* One context of a turns launch: which trial, its directory's files. */
typedef struct {
    ct_tune_scope_t *sc;
    size_t ci;
    long launch;
    char csv[4096];
    ct_tune_app_t app;
} ct_tune_turn_t;

/* trials/SCOPE-KEY-LAUNCH/ made and emptied, as a fresh trial's is. */
static ct_status_t ct_tune_turn_dir(const ct_tune_runner_t *x, ct_tune_turn_t *t)
{
    char dir[4096], name[128], err[512], json[4096];
    snprintf(name, sizeof name, "trials/%s-%s-%ld", t->sc->name, t->sc->configs.configs[t->ci].key,
             t->launch);
    if (ct_outdir_path(x->out, name, dir, sizeof dir) != CT_OK ||
        ct_outdir_path(dir, "results.csv", t->csv, sizeof t->csv) != CT_OK) {
        fprintf(stderr, "colltune tune: --out %s: path too long\n", x->out);
        return CT_ERR_USAGE;
    }
    if (ct_outdir_prepare(dir, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune tune: %s: %s\n", dir, err);
        return CT_ERR_IO;
    }
    ct_tune_trial_json_path(t->csv, json, sizeof json);
    if ((unlink(t->csv) != 0 && errno != ENOENT) || (unlink(json) != 0 && errno != ENOENT)) {
        fprintf(stderr, "colltune tune: cannot empty %s: %s\n", dir, strerror(errno));
        return CT_ERR_IO;
    }
    return CT_OK;
}

/* A context's outcome from its own JSON (written when its job ended: ok,
 * wrong or refused); without one, the launch's failure is its. */
static ct_tune_outcome_t ct_tune_turn_outcome(const ct_tune_turn_t *t, const ct_tune_outcome_t *o)
{
    ct_tune_outcome_t r = *o;
    json_t *doc = json_load_file(t->app.json, 0, NULL);
    const char *status = doc ? json_string_value(json_object_get(doc, "status")) : NULL;
    if (status != NULL) {
        int wrong = strcmp(status, "wrong") == 0, refused = strcmp(status, "refused") == 0;
        r.status = wrong ? CT_JOURNAL_WRONG : CT_JOURNAL_OK;
        r.exit_code = wrong ? CT_EXIT_WRONG : refused ? CT_EXIT_REFUSED : CT_EXIT_OK;
        snprintf(r.reason, sizeof r.reason, "%s", wrong ? "wrong results (#wrong > 0)" : "");
    } else {
        if (r.status == CT_JOURNAL_OK)
            r.status = CT_JOURNAL_CRASH;
        if (r.reason[0] == '\0')
            snprintf(r.reason, sizeof r.reason,
                     "its app context of the turns launch wrote no results");
    }
    json_decref(doc);
    return r;
}

/* One launch of the n contexts in t, each journaled with its own outcome,
 * grouped by the launch ("turns-SCOPE-PAIR", after the first); the
 * launch's output goes beside the first context's results. */
static ct_status_t ct_tune_turns_launch(ct_tune_runner_t *x, ct_tune_turn_t *t, size_t n, int *stop)
{
    char out[4096], errf[4096], group[96], err[512];
    snprintf(group, sizeof group, "turns-%s-%ld", t[0].sc->name, t[0].launch);
    ct_status_t st = CT_OK;
    ct_launch_app_t *apps = calloc(n, sizeof *apps);
    char *word[] = {"--turns"}; /* each context a job of its own (collbench's world.h) */
    const ct_argv_t turns = {word, 1, 1};
    if (apps == NULL)
        st = CT_ERR_NOMEM;
    for (size_t i = 0; i < n && st == CT_OK; i++) {
        st = ct_tune_turn_dir(x, &t[i]);
        if (st == CT_OK)
            st = ct_tune_trial_app(x, t[i].sc, &t[i].sc->configs.configs[t[i].ci], &turns, NULL,
                                   t[i].csv, &t[i].app);
        if (st == CT_OK)
            apps[i] =
                (ct_launch_app_t){t[i].app.env, t[i].app.nenv,   t[i].app.mca,   t[i].app.nmca,
                                  x->collbench, t[i].app.args.v, t[i].app.args.n};
    }
    if (st == CT_OK) {
        size_t dl = strrchr(t[0].csv, '/') - t[0].csv; /* results.csv's directory */
        snprintf(out, sizeof out, "%.*s/collbench.txt", (int)dl, t[0].csv);
        snprintf(errf, sizeof errf, "%.*s/collbench.err", (int)dl, t[0].csv);
    }
    ct_tune_outcome_t o;
    if (st == CT_OK) {
        ct_argv_t none = CT_ARGV_INIT;
        ct_tune_launch_t spec =
            ct_run_once_spec(x->lo, &x->launcher, x->collbench, &none, NULL, out, errf);
        spec.apps = apps;
        spec.napps = n;
        spec.timeout_s = x->lo->timeout_s * (double)n; /* --timeout is per job */
        st = ct_tune_launch(&spec, &o, err, sizeof err);
        if (st != CT_OK)
            fprintf(stderr, "colltune tune: %s\n", st == CT_ERR_NOMEM ? "out of memory" : err);
    }
    if (st == CT_OK && o.interrupted)
        *stop = 130; /* not finished: nothing journaled */
    size_t wrote = 0;
    for (size_t i = 0; i < n && st == CT_OK; i++)
        wrote += (size_t)(access(t[i].app.json, F_OK) == 0);
    if (st == CT_OK && *stop == 0 && wrote == 0 && o.status != CT_JOURNAL_OK) {
        fprintf(stderr,
                "colltune tune: note: a launch of %zu app contexts taking turns failed before "
                "any ran (%s; see %s): the A/B's sides get a launch each\n",
                n, o.reason, errf);
        x->no_turns = 1;
    } else if (st == CT_OK && *stop == 0) {
        x->trial_time += o.wall_s; /* once for the launch */
        for (size_t i = 0; i < n && st == CT_OK; i++) {
            ct_tune_outcome_t oi = ct_tune_turn_outcome(&t[i], &o);
            st = ct_tune_trial_record(x, t[i].sc, t[i].ci, t[i].launch, t[i].csv, -1, group, &oi);
        }
    }
    for (size_t i = 0; i < n; i++)
        ct_tune_app_free(&t[i].app);
    free(apps);
    if (st == CT_OK && *stop == 0 && !x->no_turns)
        fprintf(stderr,
                "colltune tune: A/B launch of %zu app contexts taking turns (%s ...): %s %.1fs\n",
                n, t[0].sc->name, o.reason[0] ? o.reason : "ok", o.wall_s);
    return st;
}

ct_status_t ct_tune_ab_turns(ct_tune_runner_t *x, ct_tune_scope_t *vsc, size_t nvsc, size_t pairs,
                             size_t per_launch, int *stop)
{
    ct_tune_turn_t *t = calloc(2 * nvsc * (per_launch ? per_launch : 1), sizeof *t);
    if (t == NULL)
        return CT_ERR_NOMEM;
    ct_status_t st = CT_OK;
    *stop = 0;
    for (size_t p0 = 0; p0 < pairs && st == CT_OK && *stop == 0 && !x->no_turns; p0 += per_launch) {
        size_t n = 0;
        for (size_t p = p0; p < pairs && p < p0 + per_launch; p++)
            for (size_t v = 0; v < nvsc; v++)
                for (size_t k = 0; k < 2; k++) {
                    size_t ci = p % 2 ? 1 - k : k;
                    if (vsc[v].excluded[ci] || ct_tune_trial_journaled(x->s, &vsc[v], ci, (long)p))
                        continue;
                    memset(&t[n], 0, sizeof t[n]);
                    t[n].sc = &vsc[v];
                    t[n].ci = ci;
                    t[n++].launch = (long)p;
                }
        if (ct_tune_interrupted())
            *stop = 130;
        else if (n > 0)
            st = ct_tune_turns_launch(x, t, n, stop);
    }
    free(t);
    return st;
}
