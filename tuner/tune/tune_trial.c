/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_trial.c - one trial of a tune (tune_trial.h): collbench launched
 * once through the launcher with a configuration's settings, its rows
 * read, the outcome journaled and kept, a progress line written.
 */
#include "tune_trial.h"
#include "run_once.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "argv.h"
#include "ct_stats.h"
#include "ct_vec.h"
#include "evidence.h"
#include "outdir.h"
#include "tune_decide.h"
#include "tune_launch.h"

double ct_tune_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

ct_status_t ct_tune_keep(ct_tune_state_t *s, ct_trial_t *t)
{
    if (CT_VEC_PUSH(s->trials, s->ntrials, s->cap, t) != CT_OK)
        return CT_ERR_NOMEM;
    /* The state owns the trial's arrays now. */
    memset(t, 0, sizeof *t);
    return CT_OK;
}

static const ct_trial_t *ct_tune_find(const ct_tune_state_t *s, const ct_tune_scope_t *sc,
                                      size_t ci, long launch)
{
    for (size_t i = 0; i < s->ntrials; i++) {
        const ct_trial_t *t = &s->trials[i];
        if (t->launch == launch && strcmp(t->scope, sc->name) == 0 &&
            strcmp(t->key, sc->configs.configs[ci].key) == 0)
            return t;
    }
    return NULL;
}

int ct_tune_trial_journaled(const ct_tune_state_t *s, const ct_tune_scope_t *sc, size_t ci,
                            long launch)
{
    return ct_tune_find(s, sc, ci, launch) != NULL;
}

int ct_tune_budget_spent(ct_tune_state_t *s, long trials)
{
    int spent = (trials >= 0 && s->plan_budget > 0 && trials >= s->plan_budget) ||
                (s->plan_budget_s > 0 && ct_tune_now() - s->start >= s->plan_budget_s);
    s->budget_hit |= spent;
    return spent;
}

int ct_tune_journaled(const ct_tune_state_t *s, const ct_tune_scope_t *sc, size_t ci, long launch)
{
    return ct_tune_find(s, sc, ci, launch) != NULL;
}

/* Whether sc is one of the A/B's scopes (tune_verify.h: "verify...").
 * Its own name, not tune_verify.h's: the trial code sits below it. */
static int ct_tune_is_ab(const ct_tune_scope_t *sc) { return strncmp(sc->name, "verify", 6) == 0; }

/* After a trial: the best gain over the baseline seen so far, for the
 * progress line (one launch each: a hint, not a decision). */
static void ct_tune_track_best(ct_tune_runner_t *x, const ct_tune_scope_t *sc, size_t ci)
{
    /* An A/B's tuned side is not a search result: a "best" there may be a
     * cell no choice reaches, and would read as a gain found. */
    if (ci == 0 || ct_tune_is_ab(sc))
        return;
    const ct_trial_t *t = &x->s->trials[x->s->ntrials - 1];
    for (size_t r = 0; r < t->nrows; r++) {
        const ct_trial_row_t *row = &t->rows[r];
        if (strcmp(row->placement, "out-of-place") != 0 || row->median_us <= 0)
            continue;
        double us[CT_TUNE_MAX_LAUNCHES];
        size_t n =
            ct_tune_base_samples(x->s, sc, row->collective, row->bytes, us, CT_TUNE_MAX_LAUNCHES);
        if (n == 0)
            continue;
        double sp = ct_stats_median(us, n) / row->median_us;
        if (sp > x->best_speedup) {
            x->best_speedup = sp;
            snprintf(x->best, sizeof x->best, "%s %lld B %.2fx (%s %s)", row->collective,
                     row->bytes, sp, sc->name, t->key);
        }
    }
}

int ct_tune_interrupted(void)
{
    sigset_t pend;
    sigpending(&pend);
    return sigismember(&pend, SIGINT) || sigismember(&pend, SIGTERM);
}

/* Journals sc's configuration ci as skipped-invalid (once). */
static ct_status_t ct_tune_skip(ct_tune_runner_t *x, ct_tune_scope_t *sc, size_t ci)
{
    if (ct_tune_find(x->s, sc, ci, 0) != NULL)
        return CT_OK;
    ct_trial_t t;
    memset(&t, 0, sizeof t);
    char err[512];
    ct_status_t st = ct_trial_set_config(&t, &sc->configs.configs[ci], sc->name);
    if (st == CT_OK) {
        t.status = CT_JOURNAL_SKIPPED_INVALID;
        t.reason = strdup(sc->configs.configs[ci].skip);
        t.exit_code = -1;
        st = ct_journal_append(&x->journal, &t, err, sizeof err);
        if (st != CT_OK)
            fprintf(stderr, "colltune tune: %s\n", err);
    }
    if (st == CT_OK) {
        x->s->skipped++;
        st = ct_tune_keep(x->s, &t);
    }
    ct_trial_free(&t);
    return st;
}

ct_status_t ct_tune_trial_app(const ct_tune_runner_t *x, const ct_tune_scope_t *sc,
                              const ct_space_config_t *cfg, const ct_argv_t *extra,
                              const char *budget, const char *csv, ct_tune_app_t *app)
{
    const ct_tune_state_t *s = x->s;
    memset(app, 0, sizeof *app);
    app->args = (ct_argv_t)CT_ARGV_INIT;
    app->env = calloc(x->lo->nenv + cfg->n + 1, sizeof *app->env);
    app->mca = calloc(x->lo->nmca + cfg->n + 1, sizeof *app->mca);
    if (app->env == NULL || app->mca == NULL) {
        ct_tune_app_free(app);
        return CT_ERR_NOMEM;
    }
    memcpy(app->env, x->lo->env, x->lo->nenv * sizeof *app->env);
    memcpy(app->mca, x->lo->mca, x->lo->nmca * sizeof *app->mca);
    app->nenv = x->lo->nenv;
    app->nmca = x->lo->nmca;
    /* Replacing the user's entry of the same name: mpirun refuses an
     * MCA parameter given twice. */
    for (size_t i = 0; i < cfg->n; i++) {
        int is_mca = cfg->settings[i].via == CT_VIA_MCA;
        ct_launch_var_t *list = is_mca ? app->mca : app->env;
        size_t *n = is_mca ? &app->nmca : &app->nenv, k = 0;
        while (k < *n && strcmp(list[k].name, cfg->settings[i].name) != 0)
            k++;
        if (k == *n)
            (*n)++;
        snprintf(list[k].name, sizeof list[k].name, "%s", cfg->settings[i].name);
        list[k].value = cfg->settings[i].value;
    }
    const char *coll = sc->colls ? sc->colls : sc->scope == CT_SCOPE_GLOBAL ? s->colls : sc->name;
    ct_tune_trial_json_path(csv, app->json, sizeof app->json);
    const char *ours[] = {"-C", coll, "--csv", csv, "--json", app->json, "--no-table", "--quiet"};
    ct_status_t st = ct_argv_append(&app->args, (char *const *)ours, 8);
    if (st == CT_OK)
        st = ct_argv_append(&app->args, x->cb_args, x->ncb_args);
    const char *shapes[] = {"--shapes", s->shapes_arg};
    if (st == CT_OK && s->shapes_arg != NULL)
        st = ct_argv_append(&app->args, (char *const *)shapes, 2);
    size_t nscope = 0;
    while (sc->args != NULL && sc->args[nscope] != NULL)
        nscope++;
    if (st == CT_OK && nscope > 0)
        st = ct_argv_append(&app->args, (char *const *)sc->args, nscope);
    if (st == CT_OK && extra != NULL)
        st = ct_argv_append(&app->args, extra->v, extra->n);
    /* The tuner's measuring settings; the user's, when given, win. */
    const char *ours_too[][2] = {{"--size-budget", budget},
                                 {"--sync", CT_TUNE_SYNC},
                                 {"--ci-patience", CT_DECIDING_CI_PATIENCE}};
    for (size_t k = 0; st == CT_OK && k < sizeof ours_too / sizeof ours_too[0]; k++)
        if (ours_too[k][1] != NULL && !ct_argv_names(x->cb_args, x->ncb_args, ours_too[k][0]))
            st = ct_argv_append(&app->args, (char *const *)ours_too[k], 2);
    /* Last: the objective's reduction over ranks (tune.c refuses -a
     * among the user's arguments; getopt takes the last one anyway). */
    const char *agg[] = {"-a", CT_TUNE_OBJECTIVE_A(s->objective)};
    if (st == CT_OK)
        st = ct_argv_append(&app->args, (char *const *)agg, 2);
    if (st != CT_OK)
        ct_tune_app_free(app);
    return st;
}

void ct_tune_app_free(ct_tune_app_t *app)
{
    ct_argv_free(&app->args);
    free(app->env);
    free(app->mca);
    app->env = app->mca = NULL;
}

ct_status_t ct_tune_trial_launch(ct_tune_runner_t *x, const ct_tune_scope_t *sc,
                                 const ct_space_config_t *cfg, const ct_argv_t *extra,
                                 const char *budget, const char *const paths[3],
                                 ct_tune_outcome_t *o)
{
    char err[512];
    ct_tune_app_t app;
    ct_status_t st = ct_tune_trial_app(x, sc, cfg, extra, budget, paths[0], &app);
    if (st == CT_OK) {
        ct_tune_launch_t spec = ct_run_once_spec(x->lo, &x->launcher, x->collbench, &app.args,
                                                 paths[0], paths[1], paths[2]);
        spec.env = app.env; /* the user's settings with the configuration's over them */
        spec.nenv = app.nenv;
        spec.mca = app.mca;
        spec.nmca = app.nmca;
        st = ct_tune_launch(&spec, o, err, sizeof err);
        if (st != CT_OK)
            fprintf(stderr, "colltune tune: %s\n", st == CT_ERR_NOMEM ? "out of memory" : err);
        ct_tune_app_free(&app);
    } else
        fprintf(stderr, "colltune tune: out of memory\n");
    return st;
}

void ct_tune_trial_json_path(const char *csv, char *buf, size_t len)
{
    size_t n = strlen(csv);
    if (n > 4 && strcmp(csv + n - 4, ".csv") == 0)
        snprintf(buf, len, "%.*s.json", (int)(n - 4), csv);
    else
        snprintf(buf, len, "%s.json", csv);
}

/* A collective x dtype the configuration was refused is invalid there,
 * whatever rows it has: MPICH refuses alltoall brucks only in place, so
 * its smallest size's out-of-place row comes before the refusal, and the
 * rest of that collective is skipped (collbench's refusal is per
 * configuration).  Such rows are dropped, never compared. */
static void ct_tune_drop_refused(ct_trial_t *t)
{
    size_t kept = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        int refused = 0;
        for (size_t q = 0; q < t->nrefused && !refused; q++)
            refused =
                strcmp(t->refused[q].collective, t->rows[r].collective) == 0 &&
                (t->rows[r].dtype[0] == '\0' || strcmp(t->refused[q].dtype, t->rows[r].dtype) == 0);
        if (!refused)
            t->rows[kept++] = t->rows[r];
    }
    t->nrows = kept;
}

/* Keeps only collective only's rows and refusals (NULL: all). */
static void ct_tune_keep_only(ct_trial_t *t, const char *only)
{
    if (only == NULL)
        return;
    size_t kept = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (strcmp(t->rows[r].collective, only) == 0)
            t->rows[kept++] = t->rows[r];
    t->nrows = kept;
    kept = 0;
    for (size_t q = 0; q < t->nrefused; q++) {
        if (strcmp(t->refused[q].collective, only) == 0)
            t->refused[kept++] = t->refused[q];
        else
            free(t->refused[q].reason);
    }
    t->nrefused = kept;
}

ct_status_t ct_tune_trial_record(ct_tune_runner_t *x, ct_tune_scope_t *sc, size_t ci, long launch,
                                 const char *csv, long config, const char *group,
                                 const ct_tune_outcome_t *o)
{
    return ct_tune_trial_record_only(x, sc, ci, launch, csv, config, group, NULL, o);
}

ct_status_t ct_tune_trial_record_only(ct_tune_runner_t *x, ct_tune_scope_t *sc, size_t ci,
                                      long launch, const char *csv, long config, const char *group,
                                      const char *only, const ct_tune_outcome_t *o_in)
{
    ct_tune_outcome_t oc = *o_in, *o = &oc;
    ct_tune_state_t *s = x->s;
    const ct_space_config_t *cfg = &sc->configs.configs[ci];
    char err[512];
    ct_status_t st;
    ct_trial_t t;
    memset(&t, 0, sizeof t);
    st = ct_trial_set_config(&t, cfg, sc->name);
    t.launch = launch;
    t.exit_code = o->exit_code;
    t.wall_s = o->wall_s;
    t.status = o->status;
    snprintf(t.group, sizeof t.group, "%s", group ? group : "");
    /* Exit 1 of a shared launch: only a configuration with a wrong row
     * is wrong. */
    if (config >= 0 && t.status == CT_JOURNAL_WRONG) {
        t.status = CT_JOURNAL_OK;
        oc.reason[0] = '\0';
    }
    char json[4096], id[24] = "";
    ct_tune_trial_json_path(csv, json, sizeof json);
    if (st == CT_OK && t.status == CT_JOURNAL_OK) {
        /* The JSON says what was refused and which config_id is which
         * configuration; a collbench that wrote none refused nothing. */
        ct_status_t jst = ct_trial_read_json(&t, json, config, id, &s->libs, err, sizeof err);
        if (jst == CT_ERR_NOMEM) {
            st = jst;
        } else if (jst != CT_OK && (jst != CT_ERR_USAGE || o->exit_code == CT_EXIT_REFUSED)) {
            t.status = CT_JOURNAL_CRASH;
            snprintf(o->reason, sizeof o->reason, "%.250s", err);
        }
        ct_tune_keep_only(&t, only);
    }
    /* Exit 4 of a shared launch: only a configuration with a refusal of
     * its own was refused (its JSON says which). */
    if (st == CT_OK && config >= 0 && t.status == CT_JOURNAL_OK &&
        o->exit_code == CT_EXIT_REFUSED && t.nrefused == 0)
        o->reason[0] = '\0';
    if (st == CT_OK && t.status == CT_JOURNAL_OK) {
        if (ct_trial_read_csv_config(&t, csv, config, id, err, sizeof err) != CT_OK) {
            t.status = CT_JOURNAL_CRASH;
            snprintf(o->reason, sizeof o->reason, "%.250s", err);
        } else {
            ct_tune_keep_only(&t, only);
            ct_tune_drop_refused(&t);
            for (size_t r = 0; r < t.nrows; r++)
                if (t.rows[r].wrong > 0)
                    t.status = CT_JOURNAL_WRONG;
            /* Every collective refused is an answer (invalid there), not
             * a crash; no rows and no refusal is. */
            if (t.nrows == 0 && t.nrefused == 0) {
                t.status = CT_JOURNAL_CRASH;
                snprintf(o->reason, sizeof o->reason, "no results in its results.csv");
            }
        }
    }
    if (st == CT_OK && o->reason[0] && (t.reason = strdup(o->reason)) == NULL)
        st = CT_ERR_NOMEM;
    /* Where a launch of the tune's own placed its ranks (tune_ab_turns.h). */
    if (st == CT_OK && t.status == CT_JOURNAL_OK &&
        (group == NULL || strncmp(group, "turns-", 6) != 0))
        snprintf(x->placed, sizeof x->placed, "%s", json);
    if (st == CT_OK && (st = ct_journal_append(&x->journal, &t, err, sizeof err)) != CT_OK)
        fprintf(stderr, "colltune tune: %s\n", err);
    if (st == CT_OK) {
        s->ran++;
        if (group == NULL) /* a shared launch's time is counted once, by its runner */
            x->trial_time += o->wall_s;
        if (t.status != CT_JOURNAL_OK) {
            s->failed++;
            /* Every scope of its name shares the trial: a collective's
             * scopes of other shapes too (tune_state.h). */
            for (size_t k = 0; k < s->nscopes; k++)
                for (size_t cj = 0; cj < s->scopes[k].configs.n; cj++)
                    if (strcmp(s->scopes[k].name, sc->name) == 0 &&
                        strcmp(s->scopes[k].configs.configs[cj].key, cfg->key) == 0)
                        s->scopes[k].excluded[cj] = 1;
            sc->excluded[ci] = 1;
        }
        st = ct_tune_keep(s, &t);
    }
    ct_trial_free(&t);
    return st;
}

/* Progress: one line per trial; on a tty the line is rewritten. */
static void ct_tune_trial_progress(const ct_tune_runner_t *x, const ct_tune_scope_t *sc,
                                   const ct_space_config_t *cfg, long launch, int short_run,
                                   size_t done, size_t total, double wall_s)
{
    const ct_tune_state_t *s = x->s;
    const ct_trial_t *k = &s->trials[s->ntrials - 1];
    size_t left = total > done + 1 ? total - done - 1 : 0;
    double eta = s->ran ? x->trial_time / (double)s->ran * (double)left : 0;
    if (ct_tune_is_ab(sc))
        fprintf(stderr,
                "%scolltune tune: A/B launch %zu/%zu %s pair %ld, %s side (%s) %s %.1fs, ETA "
                "%.0fs: the files' side against the defaults, judged at the end%s",
                x->tty ? "\r\033[K" : "", done + 1, total, sc->name, launch,
                cfg == &sc->configs.configs[0] ? "default" : "tuned", cfg->key,
                ct_journal_status_name(k->status), wall_s, eta,
                k->status != CT_JOURNAL_OK ? " [failed]" : "");
    else
        fprintf(stderr,
                "%scolltune tune: trial %zu/%zu %s %s#%ld %s%s %.1fs, ETA %.0fs, best so far: "
                "%s%s",
                x->tty ? "\r\033[K" : "", done + 1, total, sc->name, cfg->key, launch,
                ct_journal_status_name(k->status), short_run ? " (short)" : "", wall_s, eta,
                x->best[0] ? x->best : "-", k->status != CT_JOURNAL_OK ? " [excluded]" : "");
    fputs(x->tty ? "" : "\n", stderr);
    if (k->status != CT_JOURNAL_OK)
        fprintf(stderr, "%scolltune tune: %s %s excluded: %s\n", x->tty ? "\n" : "", sc->name,
                cfg->key, k->reason ? k->reason : ct_journal_status_name(k->status));
}

/* Runs one trial of sc (unless journaled): CT_OK with *stop 0, 1 (the
 * budget is spent; only when budgeted: the search's, not the A/B's) or
 * 130 (interrupted), or an error. */
ct_status_t ct_tune_trial(ct_tune_runner_t *x, ct_tune_scope_t *sc, size_t ci, long launch,
                          int short_run, int budgeted, size_t done, size_t total, int *stop)
{
    ct_tune_state_t *s = x->s;
    ct_space_config_t *cfg = &sc->configs.configs[ci];
    char err[512];
    *stop = 0;
    if (cfg->skip != NULL)
        return ct_tune_skip(x, sc, ci);
    if (sc->excluded[ci] || ct_tune_find(s, sc, ci, launch) != NULL)
        return CT_OK;
    if (ct_tune_interrupted()) {
        *stop = 130;
        return CT_OK;
    }
    /* The budget is the search's; the verification always runs. */
    if (budgeted && ct_tune_budget_spent(s, (long)(s->ran + s->resumed))) {
        *stop = 1;
        return CT_OK;
    }

    /* DIR/trials/SCOPE-KEY-LAUNCH/, emptied of a killed attempt's rows
     * (collbench appends to its CSV). */
    char dir[4096], csv[4096], out[4096], errf[4096], name[128];
    snprintf(name, sizeof name, "trials/%s-%s-%ld", sc->name, cfg->key, launch);
    if (ct_outdir_path(x->out, name, dir, sizeof dir) != CT_OK ||
        ct_outdir_path(dir, "results.csv", csv, sizeof csv) != CT_OK ||
        ct_outdir_path(dir, "collbench.txt", out, sizeof out) != CT_OK ||
        ct_outdir_path(dir, "collbench.err", errf, sizeof errf) != CT_OK) {
        fprintf(stderr, "colltune tune: --out %s: path too long\n", x->out);
        return CT_ERR_USAGE;
    }
    if (ct_outdir_prepare(dir, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune tune: %s: %s\n", dir, err);
        return CT_ERR_IO;
    }
    char json[4096];
    ct_tune_trial_json_path(csv, json, sizeof json);
    if ((unlink(csv) != 0 && errno != ENOENT) || (unlink(json) != 0 && errno != ENOENT)) {
        fprintf(stderr, "colltune tune: cannot empty %s: %s\n", dir, strerror(errno));
        return CT_ERR_IO;
    }

    const char *const paths[3] = {csv, out, errf};
    ct_tune_outcome_t o;
    ct_status_t st = ct_tune_trial_launch(x, sc, cfg, NULL, short_run ? "0.05" : NULL, paths, &o);
    if (st != CT_OK)
        return st;
    if (o.interrupted) {
        *stop = 130;
        return CT_OK; /* an interrupted trial is not finished: not journaled */
    }

    st = ct_tune_trial_record(x, sc, ci, launch, csv, -1, NULL, &o);
    if (st != CT_OK)
        return st;
    const ct_trial_t *k = &s->trials[s->ntrials - 1];
    if (cfg->baseline && k->status == CT_JOURNAL_WRONG) {
        /* Wrong results at the libraries' own defaults: nothing to tune
         * against, and a broken library to report, not "done". */
        ct_run_once_tail("tune", errf, 10);
        fprintf(stderr,
                "colltune tune: the defaults' trial gave wrong results (#wrong > 0 in %s): the "
                "library is broken at its defaults; stopping (the journal is intact)\n",
                csv);
        return CT_ERR_WRONG;
    }
    if (cfg->baseline && k->status != CT_JOURNAL_OK) {
        /* The libraries' defaults failed: a reason every trial shares (bad
         * collbench arguments, a launcher that cannot start the ranks),
         * and nothing could be compared with them anyway (E8). */
        ct_run_once_tail("tune", errf, 10);
        fprintf(stderr,
                "colltune tune: the defaults' trial failed (%s; exit %d): every "
                "configuration would; stopping (the journal is intact)\n",
                k->reason ? k->reason : ct_journal_status_name(k->status), o.exit_code);
        return o.exit_code == CT_EXIT_USAGE ? CT_ERR_USAGE : CT_ERR_IO;
    }
    if (k->status == CT_JOURNAL_OK)
        ct_tune_track_best(x, sc, ci);
    ct_tune_trial_progress(x, sc, cfg, launch, short_run, done, total, o.wall_s);
    return CT_OK;
}
