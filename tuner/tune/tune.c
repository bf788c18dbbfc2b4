/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune.c - `colltune tune`: search a space's configurations through
 * collbench trials, decide per collective x size bucket, report.
 *
 *   DIR/journal.jsonl            every finished trial (journal.h), durable
 *   DIR/trials/SCOPE-KEY-LAUNCH/ one trial's results.csv, collbench.txt/.err
 *   DIR/report.json, report.md   the decisions and their evidence
 *
 * The loop runs trials one at a time; SIGINT and SIGTERM are blocked
 * across it and looked for between trials (the trial code forwards one
 * that comes during a trial), so an interrupt leaves the journal whole
 * and exits 130.  --resume reads the journal and runs only what it lacks:
 * every decision is recomputed from the journal, so a resumed tune ends
 * as an uninterrupted one would.  The search strategies are
 * tune_search.c, the command line tune_cli.c, the state every step
 * shares tune_state.h.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ct_input.h"
#include "ct_json.h"
#include "ct_hash.h"
#include "command.h"
#include "emit.h"
#include "launch_opts.h"
#include "outdir.h"
#include "evidence.h"
#include "trial.h"
#include "tune_cli.h"
#include "tune_state.h"
#include "tune_ab.h"
#include "tune_choices.h"
#include "tune_decide.h"
#include "tune_inproc.h"
#include "tune_neighbours.h"
#include "tune_report.h"
#include "tune_search.h"
#include "tune_trial.h"
#include "tune_ucx_names.h"
#include "tune_mpich_names.h"
#include "tune_verify.h"
#include "tune_weights.h"
#include "space_find.h"

/* Is name in the comma-separated list (NULL: everything)? */
static int ct_tune_listed(const char *list, const char *name)
{
    if (list == NULL || strcmp(list, "all") == 0)
        return 1;
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const ct_coll_name_t *c = NULL;
        char word[64];
        if (n < sizeof word) {
            memcpy(word, p, n);
            word[n] = '\0';
            c = ct_coll_name_find(word);
        }
        if ((c != NULL && strcmp(c->name, name) == 0) || (n == len && strncmp(p, name, n) == 0))
            return 1;
        p = end ? end + 1 : p + n;
    }
    return 0;
}

/* Everything the finish needs besides the state: the arguments and
 * the trial runner. */
typedef struct {
    ct_tune_args_t *a;
    ct_tune_state_t *s;
    ct_tune_runner_t run;
} ct_tune_ctx_t;

/* The search's trial callback: its scopes, within its budget. */
static ct_status_t ct_tune_run_one(void *user, size_t scope_i, size_t ci, long launch,
                                   int short_run, size_t done, size_t total, int *stop)
{
    ct_tune_runner_t *x = user;
    ct_tune_state_t *s = x->s;
    ct_tune_scope_t *sc = &s->scopes[scope_i];
    *stop = 0;
    if (!sc->inproc || sc->configs.configs[ci].skip != NULL || sc->excluded[ci] ||
        ct_tune_journaled(s, sc, ci, launch))
        return ct_tune_trial(x, sc, ci, launch, short_run, 1, done, total, stop);
    /* The in-process search: queued, run at the round's end. */
    if (ct_tune_budget_spent(s, (long)(s->ran + s->resumed + x->npending))) {
        *stop = 1;
        return CT_OK;
    }
    return ct_tune_inproc_queue(x, scope_i, ci, launch, short_run, done, total);
}

static ct_status_t ct_tune_flush(void *user, int *stop) { return ct_tune_inproc_flush(user, stop); }

/* One scope of the tune: scope's configurations at the launch's rank
 * count (every launch runs every shape, so a value valid at the largest
 * is the one measured at each), decided at shape. */
static ct_status_t ct_tune_scope_add(ct_tune_args_t *a, ct_tune_state_t *s, const ct_space_t *space,
                                     int scope, const ct_shape_t *shape)
{
    char err[512];
    ct_tune_scope_t *sc = &s->scopes[s->nscopes];
    sc->scope = scope;
    sc->name = ct_space_scope_name(scope);
    snprintf(sc->label, sizeof sc->label, "%s", sc->name);
    if (shape != NULL) {
        char sh[32];
        sc->shape = *shape;
        ct_shape_name(shape, sh, sizeof sh);
        snprintf(sc->label, sizeof sc->label, "%s at %s", sc->name, sh);
    }
    ct_status_t st =
        ct_tune_scope_configs(&a->plan, space, scope, s->nranks, &sc->configs, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune tune: %s\n", err);
        return st;
    }
    s->nscopes++;
    sc->inproc = ct_tune_inproc_scope(space, sc);
    sc->excluded = calloc(sc->configs.n, sizeof *sc->excluded);
    sc->alive = calloc(sc->configs.n, sizeof *sc->alive);
    return sc->excluded == NULL || sc->alive == NULL ? CT_ERR_NOMEM : CT_OK;
}

static ct_status_t ct_tune_scopes(ct_tune_args_t *a, ct_tune_state_t *s, const ct_space_t *space)
{
    unsigned bits = ct_space_scopes(space);
    size_t per = s->nshapes > 0 ? (size_t)s->nshapes : 1;
    s->scopes = calloc(sizeof(unsigned) * 8 * per, sizeof *s->scopes);
    if (s->scopes == NULL)
        return CT_ERR_NOMEM;
    for (int scope = CT_SCOPE_GLOBAL; scope < (int)(sizeof(unsigned) * 8) - 1; scope++) {
        if (!(bits & (1u << (scope + 1))))
            continue;
        if (scope != CT_SCOPE_GLOBAL && !ct_tune_listed(a->collectives, ct_space_scope_name(scope)))
            continue;
        for (size_t k = 0; k < per; k++) {
            ct_status_t st =
                ct_tune_scope_add(a, s, space, scope, s->nshapes > 0 ? &s->shapes[k] : NULL);
            if (st != CT_OK)
                return st;
        }
    }
    if (s->nscopes == 0) {
        if (a->collectives != NULL)
            fprintf(stderr, "colltune tune: --collectives %s: the space tunes none of them\n",
                    a->collectives);
        else /* E23: this said "--collectives (null)" */
            fprintf(stderr, "colltune tune: %s: the space tunes no collective at %ld ranks\n",
                    a->space_path, s->nranks);
        return CT_ERR_USAGE;
    }
    return CT_OK;
}

/* Whether collbench runs the NCCL backend (--backend nccl in its
 * arguments): the A/B then also runs the framework datatypes. */
static int ct_tune_backend_nccl(const ct_tune_args_t *a)
{
    for (size_t i = 0; i < a->ncb_args; i++) {
        const char *arg = a->cb_args[i];
        if (strcmp(arg, "--backend=nccl") == 0 ||
            (strcmp(arg, "--backend") == 0 && i + 1 < a->ncb_args &&
             strcmp(a->cb_args[i + 1], "nccl") == 0))
            return 1;
    }
    return 0;
}

/* The result's run facts; run_id and date are the caller's buffers. */
static void ct_tune_result_init(const ct_tune_ctx_t *x, const ct_space_t *space,
                                ct_tune_result_t *result, char *run_id, char *date)
{
    const ct_tune_state_t *s = x->s;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(run_id, 64, "tune-%ld-%ld", (long)now, (long)getpid());
    memset(result, 0, sizeof *result);
    result->space_name = space->name;
    result->space_path = space->path;
    result->run_id = run_id;
    result->date = date;
    result->source = "measured";
    result->nranks = s->nranks;
    result->rules_json = x->a->rules_json;
    result->site = &s->site;
    result->mpi_library = s->libs.mpi_library;
    /* The scale collbench saw: the launcher decides the node count. */
    for (size_t i = 0; i < s->ntrials; i++)
        if (s->trials[i].status == CT_JOURNAL_OK && s->trials[i].nnodes > 0) {
            result->nnodes = s->trials[i].nnodes;
            if (result->nranks == 0)
                result->nranks = s->trials[i].nranks;
            break;
        }
}

static void ct_tune_done_line(const ct_tune_ctx_t *x, const ct_tune_result_t *result, int verified)
{
    const ct_tune_state_t *s = x->s;
    size_t kept = 0;
    for (size_t i = 0; i < result->nchoices; i++)
        kept += (size_t)result->choices[i].verified;
    const char *names[16];
    size_t nf = ct_emit_files(result, names, 16);
    fprintf(stderr,
            "colltune tune: done: %zu trials run, %zu resumed, %zu skipped, %zu failed; "
            "%zu choices, %zu verified%s; %zu files; %.1f s; %s/report.md\n",
            s->ran, s->resumed, s->skipped, s->failed, result->nchoices, kept,
            verified ? "" : " (nothing to verify)", nf, s->wall_s, x->a->out);
}

/* After the search, the straight line: evidence -> decision -> report ->
 * verify (again until the files verified are the files written) ->
 * report with the verdicts -> emit the verified files -> the report with
 * their digests.  *stop 130: interrupted during the A/B (the report then
 * says what the search decided, unverified). */
static ct_status_t ct_tune_finish(ct_tune_ctx_t *x, const ct_space_t *space, int *stop)
{
    ct_tune_state_t *s = x->s;
    char err[512], run_id[64], date[32];
    ct_tune_result_t result;
    ct_tune_result_init(x, space, &result, run_id, date);
    /* MPICH's own tree, for choices over size ranges: without it they
     * stay unwritable (mpich.env holds a CVAR for every size). */
    char *mpich_tree = NULL;
    if (s->libs.mpich_lib != NULL &&
        ct_emit_mpich_tree_read(s->libs.mpich_lib, &mpich_tree, err, sizeof err) != CT_OK)
        fprintf(stderr, "colltune tune: note: no MPICH selection tree file: %s\n", err);
    result.mpich_tree = mpich_tree;
    s->wall_s = ct_tune_now() - s->start;
    ct_tune_scope_decision_t *decs = calloc(s->nscopes ? s->nscopes : 1, sizeof *decs);
    ct_status_t st = decs ? ct_tune_decide_scopes(s, decs, &result) : CT_ERR_NOMEM;
    if (st == CT_OK)
        st = ct_tune_mark_outranked(&result);
    ct_tune_rounds_t rounds;
    memset(&rounds, 0, sizeof rounds);
    char(*why)[CT_TUNE_WHY_LEN] = calloc(result.nchoices ? result.nchoices : 1, sizeof *why);
    if (st == CT_OK && why == NULL)
        st = CT_ERR_NOMEM;
    ct_tune_report_in_t rep = {s, decs, &result, NULL, 0, NULL, NULL};
    if (st == CT_OK)
        st = ct_tune_report(&rep, err, sizeof err);
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    int verified = 0;
    *stop = 0;
    size_t writable = 0;
    for (size_t i = 0; i < result.nchoices; i++)
        writable += result.choices[i].unwritable == NULL && result.choices[i].significant;
    if (st == CT_OK && writable > 0 && x->a->verify_pairs > 0) {
        ct_tune_ab_t ab = {
            &x->run,
            s,
            x->a->out,
            &x->a->lo,
            (size_t)x->a->verify_pairs,
            ct_tune_backend_nccl(x->a),
            (size_t)(x->a->verify_turns < 0 ? x->a->verify_pairs : x->a->verify_turns)};
        st = ct_tune_ab_rounds(&ab, &result, decs, &v, &rounds, why, stop, err, sizeof err);
        if (st == CT_OK && *stop == 0) {
            verified = 1;
            s->wall_s = ct_tune_now() - s->start;
            rep.v = &v;
            rep.why = why;
            rep.rounds = &rounds;
            st = ct_tune_report(&rep, err, sizeof err);
        }
    }
    /* The emitters write only verified choices: without a finished A/B,
     * nothing is installed unproven. */
    if (st == CT_OK && *stop == 0)
        st = ct_emit_all(&result, x->a->out, err, sizeof err);
    /* The digests of the files as written, beside the A/B's. */
    if (st == CT_OK && *stop == 0 && verified) {
        const char *names[CT_TUNE_VERIFY_MAX_FILES];
        size_t n = ct_emit_files(&result, names, CT_TUNE_VERIFY_MAX_FILES);
        char abs[PATH_MAX];
        if (realpath(x->a->out, abs) == NULL)
            snprintf(abs, sizeof abs, "%s", x->a->out);
        st = ct_tune_files_hash(abs, names, n, rounds.written.files, &rounds.written.nfiles, err,
                                sizeof err);
        snprintf(rounds.written.dir, sizeof rounds.written.dir, "%s", abs);
        if (st == CT_OK)
            st = ct_tune_report(&rep, err, sizeof err);
    }
    if (st == CT_ERR_NOMEM)
        fprintf(stderr, "colltune tune: out of memory\n");
    else if (st != CT_OK)
        fprintf(stderr, "colltune tune: %s\n", err);
    if (st == CT_OK && *stop == 0)
        ct_tune_done_line(x, &result, verified);
    ct_tune_result_free(&result);
    free(mpich_tree);
    free(why);
    ct_tune_verify_free(&v);
    for (size_t k = 0; k < rounds.n; k++)
        if (rounds.round[k].v != NULL) {
            ct_tune_verify_free((ct_tune_verify_t *)rounds.round[k].v);
            free((ct_tune_verify_t *)rounds.round[k].v);
        }
    ct_tune_scope_decisions_free(decs, s->nscopes);
    free(decs);
    return st;
}

/* vars as a JSON array's text of "NAME=VALUE", in the order given; NULL
 * without memory. */
static char *ct_tune_vars_text(const ct_launch_var_t *vars, size_t n)
{
    json_t *arr = json_array();
    int bad = arr == NULL;
    for (size_t i = 0; !bad && i < n; i++) {
        size_t len = strlen(vars[i].name) + strlen(vars[i].value) + 2;
        char *nv = malloc(len);
        if (nv != NULL)
            snprintf(nv, len, "%s=%s", vars[i].name, vars[i].value);
        bad = nv == NULL || json_array_append_new(arr, ct_json_str(nv)) != 0;
        free(nv);
    }
    char *text = bad ? NULL : json_dumps(arr, JSON_COMPACT);
    json_decref(arr);
    return text;
}

/* What this tune is, for its journal's head: the space file's bytes
 * hashed, the collbench arguments, and every option that changes how
 * collbench is launched (the launcher, --env, --mca, --collbench), each
 * list as a JSON array's text.  NULL without memory or when the space
 * cannot be read. */
static json_t *ct_tune_header(const ct_tune_args_t *a, const char *space_name)
{
    char *text = NULL, err[512], hex[17];
    size_t len = 0;
    if (ct_input_slurp(a->space_path, CT_INPUT_MAX_CONFIG, 0, &text, &len, err, sizeof err) !=
        CT_OK)
        return NULL;
    snprintf(hex, sizeof hex, "%016llx",
             (unsigned long long)ct_hash_bytes(CT_HASH_INIT, text, len));
    free(text);
    json_t *args = json_array(), *launcher = json_array();
    for (size_t i = 0; args != NULL && i < a->ncb_args; i++)
        json_array_append_new(args, json_string(a->cb_args[i]));
    /* Every launch's collbench --shapes: a resume at other shapes would
     * decide from rows of shapes it no longer has. */
    if (args != NULL && a->shapes_arg != NULL) {
        json_array_append_new(args, json_string("--shapes"));
        json_array_append_new(args, json_string(a->shapes_arg));
    }
    if (launcher != NULL) {
        json_array_append_new(launcher, json_string(a->lo.launcher ? a->lo.launcher : "mpirun"));
        json_array_append_new(launcher, json_integer(a->lo.np));
        json_array_append_new(launcher, json_string(a->lo.hostfile ? a->lo.hostfile : ""));
        for (size_t i = 0; i < a->lo.launcher_args.n; i++)
            json_array_append_new(launcher, json_string(a->lo.launcher_args.v[i]));
    }
    char *args_text = args ? json_dumps(args, JSON_COMPACT) : NULL;
    char *launcher_text = launcher ? json_dumps(launcher, JSON_COMPACT) : NULL;
    char *env_text = ct_tune_vars_text(a->lo.env, a->lo.nenv);
    char *mca_text = ct_tune_vars_text(a->lo.mca, a->lo.nmca);
    json_t *h = args_text && launcher_text && env_text && mca_text
                    ? ct_journal_header(space_name, hex, args_text, launcher_text, a->objective,
                                        env_text, mca_text, a->lo.collbench ? a->lo.collbench : "")
                    : NULL;
    free(args_text);
    free(launcher_text);
    free(env_text);
    free(mca_text);
    json_decref(args);
    json_decref(launcher);
    return h;
}

/* --resume: every trial of the journal jpath that belongs to this space,
 * counted and kept; a failed one excludes its configuration. */
static ct_status_t ct_tune_resume(ct_tune_state_t *s, const char *jpath, const char *dir,
                                  const json_t *header)
{
    char err[512];
    ct_status_t st;
    ct_journal_entries_t e;
    json_t *have = NULL;
    st = ct_journal_header_read(dir, &have, err, sizeof err);
    if (st == CT_OK && have != NULL && ct_journal_header_check(have, header, err, sizeof err) != 0)
        st = CT_ERR_USAGE;
    if (st == CT_OK)
        st = ct_journal_read(jpath, &e, err, sizeof err);
    else
        memset(&e, 0, sizeof e);
    /* Trials without a head cannot be checked against this tune (E12,
     * J13): another size range or launch would resume silently. */
    if (st == CT_OK && have == NULL && e.n > 0) {
        snprintf(err, sizeof err,
                 "%s/%s is missing: the journal's %zu trials cannot be checked against this "
                 "tune (tune into another --out)",
                 dir, CT_JOURNAL_HEAD_FILE, e.n);
        st = CT_ERR_USAGE;
    }
    json_decref(have);
    if (st != CT_OK)
        fprintf(stderr, "colltune tune: --resume: %s\n", err);
    for (size_t i = 0; st == CT_OK && i < e.n; i++) {
        ct_trial_t *t = &e.trials[i];
        /* Only this space's trials count. */
        for (size_t k = 0; k < s->nscopes; k++) {
            ct_tune_scope_t *sc = &s->scopes[k];
            if (strcmp(sc->name, t->scope) != 0)
                continue;
            for (size_t ci = 0; ci < sc->configs.n; ci++) {
                if (strcmp(sc->configs.configs[ci].key, t->key) != 0)
                    continue;
                if (t->status == CT_JOURNAL_SKIPPED_INVALID)
                    s->skipped++;
                else {
                    s->resumed++;
                    if (t->status != CT_JOURNAL_OK) {
                        s->failed++;
                        sc->excluded[ci] = 1;
                    }
                }
            }
        }
        st = ct_tune_keep(s, t);
    }
    ct_journal_entries_free(&e);
    if (st == CT_OK && s->ntrials > 0)
        fprintf(stderr, "colltune tune: --resume: %zu trials already in %s\n", s->ntrials, jpath);
    return st;
}

/* The search, then the finish, with SIGINT/SIGTERM blocked across them
 * and looked for between trials: the journal is never cut mid-line by
 * them.  *rc 130 when interrupted. */
static ct_status_t ct_tune_loop(ct_tune_ctx_t *x, const ct_space_t *space, const char *jpath,
                                int *rc)
{
    sigset_t set, old;
    ct_trial_stop_set(&set);
    sigprocmask(SIG_BLOCK, &set, &old);
    int stop = 0;
    ct_status_t st =
        ct_tune_search(&x->a->plan, x->s, ct_tune_run_one, ct_tune_flush, &x->run, &stop);
    /* A stop (the budget, an interrupt) leaves queued trials: run the
     * budget's (they were counted), drop an interrupt's. */
    if (st == CT_OK && stop == 1) {
        int s2 = 0;
        st = ct_tune_inproc_flush(&x->run, &s2);
        if (s2 == 130)
            stop = 130;
    }
    x->run.npending = 0;
    /* Each winner without each of its variables, where the space never
     * had that configuration (tune_neighbours.h); not after a stop. */
    if (st == CT_OK && stop == 0 && x->a->verify_pairs > 0)
        st = ct_tune_neighbours(x->s,
                                x->a->plan.launches < CT_TUNE_MIN_LAUNCHES ? CT_TUNE_MIN_LAUNCHES
                                                                           : x->a->plan.launches,
                                ct_tune_run_one, ct_tune_flush, &x->run, &stop);
    if (x->run.tty)
        fputc('\n', stderr);
    if (st == CT_OK && stop == 130) {
        fprintf(stderr,
                "colltune tune: interrupted; the journal %s is intact: --resume continues\n",
                jpath);
        *rc = 130;
    }
    if (st == CT_OK && *rc == CT_EXIT_OK) {
        st = ct_tune_finish(x, space, &stop);
        if (st == CT_OK && stop == 130) {
            fprintf(stderr,
                    "colltune tune: interrupted in the verification; the journal %s is "
                    "intact: --resume continues\n",
                    jpath);
            *rc = 130;
        }
    }
    /* Take a signal still pending, so unblocking cannot kill us
     * before the exit code says 130. */
    struct timespec zero = {0, 0};
    while (sigtimedwait(&set, NULL, &zero) > 0)
        if (*rc == CT_EXIT_OK && st == CT_OK)
            *rc = 130;
    sigprocmask(SIG_SETMASK, &old, NULL);
    return st;
}

static void ct_tune_state_free(ct_tune_state_t *s)
{
    for (size_t i = 0; i < s->ntrials; i++)
        ct_trial_free(&s->trials[i]);
    free(s->trials);
    for (size_t k = 0; k < s->nscopes; k++) {
        ct_space_configs_free(&s->scopes[k].configs);
        free(s->scopes[k].excluded);
        free(s->scopes[k].alive);
    }
    free(s->scopes);
    free(s->libs.mpich_lib);
    free(s->libs.mpi_library);
    ct_site_free(&s->site);
}

/* --out made, locked and checked, the journal (and, on --resume, its
 * trials) read and opened, and journal.head.json written;
 * jpath gets the journal's path. */
static ct_status_t ct_tune_open_out(ct_tune_args_t *a, ct_tune_state_t *s, const char *space_name,
                                    ct_journal_t *journal, char *jpath, size_t jlen)
{
    char err[512], real[PATH_MAX];
    ct_status_t st = CT_OK;
    int mca = 0;
    for (size_t i = 0; i < s->space->nvars; i++)
        mca |= s->space->vars[i].via == CT_VIA_MCA;
    /* What would fail the emit at the end (a comma where mca-params.conf's
     * path goes into a list, a target that is a directory) fails now,
     * before hours of search, and on --out as it will be, before it is made:
     * a refused --out is not left behind empty. */
    if ((st = ct_outdir_realpath(a->out, real, sizeof real, err, sizeof err)) == CT_OK)
        st = ct_emit_check_real_dir(a->out, real, mca, err, sizeof err);
    if (st != CT_OK)
        fprintf(stderr, "colltune tune: --out %s: %s\n", a->out, err);
    if (st == CT_OK && (st = ct_outdir_prepare(a->out, err, sizeof err)) != CT_OK)
        fprintf(stderr, "colltune tune: --out %s: %s\n", a->out, err);
    /* One tune (or --resume) in a directory at a time: two would journal
     * every trial twice and decide from measurements taken while they
     * competed. */
    if (st == CT_OK && ct_outdir_lock(a->out, "tune") != 0)
        st = CT_ERR_USAGE;
    if (st == CT_OK && ct_outdir_path(a->out, CT_JOURNAL_FILE, jpath, jlen) != CT_OK)
        st = CT_ERR_USAGE;
    if (st == CT_OK) {
        struct stat sb;
        if (!a->resume && stat(jpath, &sb) == 0 && sb.st_size > 0) {
            fprintf(stderr,
                    "colltune tune: --out %s: it holds a journal already (--resume to continue "
                    "that tune, or another --out)\n",
                    a->out);
            st = CT_ERR_USAGE;
        }
    }
    json_t *header = st == CT_OK ? ct_tune_header(a, space_name) : NULL;
    if (st == CT_OK && header == NULL) {
        fprintf(stderr, "colltune tune: --space %s: cannot read it again\n", a->space_path);
        st = CT_ERR_USAGE;
    }
    if (st == CT_OK && a->resume)
        st = ct_tune_resume(s, jpath, a->out, header);
    if (st == CT_OK && (st = ct_journal_open(journal, a->out, err, sizeof err)) != CT_OK)
        fprintf(stderr, "colltune tune: %s\n", err);
    /* On --resume too: the head checked equal, or there was no journal
     * (this writes it), or an older head gains the members it lacked. */
    if (st == CT_OK && (st = ct_journal_header_write(a->out, header, err, sizeof err)) != CT_OK)
        fprintf(stderr, "colltune tune: %s\n", err);
    json_decref(header);
    return st;
}

/* What the site sets before the tune (site.h): colltune's --env and
 * --mca, its environment, and the files the libraries read by themselves
 * (Open MPI's list as the A/B appends it after its own file). */
static ct_status_t ct_tune_read_site(const ct_tune_args_t *a, ct_site_t *site, char *err,
                                     size_t errlen)
{
    extern char **environ;
    char buf[2 * PATH_MAX], tail[4096], note[512];
    ct_site_files_t files;
    ct_site_files_default(&files, environ, buf, sizeof buf);
    ct_tune_verify_mca_tail(&a->lo, tail, sizeof tail, note, sizeof note);
    files.mca_files = tail;
    return ct_site_read(site, &a->lo, environ, &files, err, errlen);
}

/* The run's state from its arguments, before any scope; CT_ERR_USAGE
 * after a message when the rank count is unknown. */
static ct_status_t ct_tune_state_init(const ct_tune_args_t *a, const ct_space_t *space,
                                      const ct_tune_weights_t *weights, ct_tune_state_t *s)
{
    memset(s, 0, sizeof *s);
    s->space = space;
    s->weights = weights;
    s->extend_ranges = a->extend_ranges;
    s->out = a->out;
    s->start = ct_tune_now();
    s->colls = a->collectives ? a->collectives : "all";
    s->plan_budget = a->plan.budget;
    s->plan_budget_s = a->plan.budget_s;
    s->strategy = ct_tune_strategy_name(a->plan.strategy);
    s->objective = a->objective;
    s->shapes_arg = a->shapes_arg;
    s->nshapes = a->nshapes;
    memcpy(s->shapes, a->shapes, sizeof s->shapes);
    /* The rank count decides which configurations are valid: --np, or
     * the count the launcher line names (mpirun -np, srun -n or -N and
     * --ntasks-per-node, srun in an allocation). */
    s->nranks = ct_launch_opts_ranks(&a->lo);
    if (s->nranks == 0) {
        fprintf(stderr, "colltune tune: how many ranks? the space's valid configurations depend "
                        "on it: give --np N, or a count in --launcher (mpirun -np N; srun -n N, "
                        "or -N N --ntasks-per-node K)\n");
        return CT_ERR_USAGE;
    }
    const ct_shape_t *top = s->nshapes > 0 ? &s->shapes[s->nshapes - 1] : NULL;
    if (top != NULL && (long)top->nnodes * top->ranks_per_node > s->nranks) {
        fprintf(stderr,
                "colltune tune: --shapes: the largest, %dx%d, needs %ld ranks; the launch has "
                "%ld\n",
                top->nnodes, top->ranks_per_node, (long)top->nnodes * top->ranks_per_node,
                s->nranks);
        return CT_ERR_USAGE;
    }
    return CT_OK;
}

/* The launches per configuration, once the scopes are known, and the
 * budget checked against them. */
static ct_status_t ct_tune_plan_launches(ct_tune_args_t *a, const ct_tune_state_t *s)
{
    /* Shared launches are cheap, and a choice must win in a majority of
     * at least CT_TUNE_MIN_PAIRED of them (tune_decide.h). */
    for (size_t k = 0; !a->launches_given && k < s->nscopes; k++)
        if (s->scopes[k].inproc)
            a->plan.launches = CT_TUNE_MIN_PAIRED;
    /* The defaults of every scope come first and count: a budget they
     * use up would search nothing and still exit 0. */
    /* A collective's scopes of several shapes share their trials. */
    size_t named = s->nshapes > 0 ? s->nscopes / (size_t)s->nshapes : s->nscopes;
    long need = (long)(named + 1) * a->plan.launches;
    if (a->plan.budget > 0 && a->plan.budget < need) {
        fprintf(stderr,
                "colltune tune: --budget %ld leaves no configuration to try: the defaults of "
                "%zu scope%s take %zu x %ld launches; give --budget %ld or more\n",
                a->plan.budget, named, named == 1 ? "" : "s", named, a->plan.launches, need);
        return CT_ERR_USAGE;
    }
    return CT_OK;
}

static int ct_tune_main_run(ct_tune_args_t *a)
{
    char err[512];
    ct_space_t space;
    /* The space first: a bad file fails before any directory or trial. */
    ct_status_t st = ct_space_load(a->space_path, &space, err, sizeof err);
    if (st == CT_OK &&
        ((st = ct_tune_check_ucx_names(&space, "ucx_info", err, sizeof err)) != CT_OK ||
         (st = ct_tune_check_mpich_names(&space, "mpivars", "mpichversion", err, sizeof err)) !=
             CT_OK))
        ct_space_free(&space);
    if (st != CT_OK) {
        fprintf(stderr, "colltune tune: %s\n", err);
        return ct_status_exit_code(st);
    }
    ct_tune_weights_t weights;
    memset(&weights, 0, sizeof weights);
    if (a->weights != NULL &&
        (st = ct_tune_weights_load(a->weights, &weights, err, sizeof err)) != CT_OK) {
        fprintf(stderr, "colltune tune: --weights %s\n", err);
        ct_space_free(&space);
        return ct_status_exit_code(st);
    }
    ct_tune_state_t s;
    if (ct_tune_state_init(a, &space, a->weights ? &weights : NULL, &s) != CT_OK) {
        ct_space_free(&space);
        ct_tune_weights_free(&weights);
        return CT_EXIT_USAGE;
    }

    /* The site's own settings, before anything is launched. */
    st = ct_tune_read_site(a, &s.site, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune tune: site settings: %s\n", err);
        ct_tune_state_free(&s);
        ct_space_free(&space);
        ct_tune_weights_free(&weights);
        return ct_status_exit_code(st);
    }

    ct_tune_ctx_t x;
    memset(&x, 0, sizeof x);
    x.a = a;
    x.s = &s;
    x.run.s = &s;
    x.run.out = a->out;
    x.run.lo = &a->lo;
    x.run.cb_args = a->cb_args;
    x.run.ncb_args = a->ncb_args;
    x.run.journal.fd = -1;
    x.run.tty = isatty(2);
    int rc = CT_EXIT_OK;

    st = ct_tune_scopes(a, &s, &space);
    if (st == CT_OK)
        st = ct_tune_plan_launches(a, &s);
    char jpath[4096];
    if (st == CT_OK)
        st = ct_tune_open_out(a, &s, space.name, &x.run.journal, jpath, sizeof jpath);

    if (st == CT_OK)
        st = ct_launch_opts_launcher(&a->lo, &x.run.launcher);
    if (st == CT_OK) {
        ct_launch_opts_collbench(&a->lo, x.run.collbench, sizeof x.run.collbench);
        st = ct_tune_loop(&x, &space, jpath, &rc);
        ct_launcher_free(&x.run.launcher);
    }
    if (x.run.journal.fd >= 0)
        ct_journal_close(&x.run.journal);
    free(x.run.pending);
    ct_tune_state_free(&s);
    ct_space_free(&space);
    ct_tune_weights_free(&weights);
    if (rc == CT_EXIT_OK && st != CT_OK)
        rc = ct_status_exit_code(st);
    return rc;
}

/* --list-spaces: the installed spaces on stdout. */
static int ct_tune_list_spaces(void)
{
    char err[PATH_MAX + 128];
    if (ct_space_list_installed(stdout, err, sizeof err) != CT_OK) {
        fprintf(stderr, "colltune tune: --list-spaces: %s\n", err);
        return CT_EXIT_FAILURE;
    }
    return CT_EXIT_OK;
}

static int ct_tune_main(int argc, char **argv)
{
    ct_tune_args_t a = {0};
    ct_tune_args_defaults(&a);
    int rc;
    if (ct_launch_opts_init(&a.lo, "tune", argc, 600) != CT_OK) {
        rc = CT_EXIT_FAILURE;
    } else {
        rc = ct_tune_parse(argc, argv, &a);
        if (rc < 0)
            rc = CT_EXIT_OK;
        else if (rc == CT_EXIT_OK && a.list_spaces)
            rc = ct_tune_list_spaces();
        else if (rc == CT_EXIT_OK)
            rc = ct_tune_main_run(&a);
    }
    ct_launch_opts_free(&a.lo);
    return rc;
}

const ct_command_t ct_command_tune = {
    .name = "tune",
    .summary = "search a space with collbench trials; decide per collective x size; report",
    .run = ct_tune_main,
    .usage = ct_tune_usage,
};
