/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run_dir.c - the run_once service in its directory form: one collbench
 * run into DIR, as sweep and health make it (run_once.h).
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "ct_outfile.h"
#include "ct_json.h"
#include "outdir.h"
#include "run_once.h"

void ct_run_once_tail(const char *cmd, const char *path, int lines)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    char buf[4096];
    long size = 0;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    long from = size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0;
    fseek(f, from, SEEK_SET);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    if (n > 0 && buf[n - 1] == '\n')
        buf[--n] = '\0';
    if (n == 0)
        return;
    char *start = buf;
    for (char *p = buf + n; p > buf; p--)
        if (p[-1] == '\n' && --lines == 0) {
            start = p;
            break;
        }
    fprintf(stderr, "colltune %s: the end of %s:\n%s\n", cmd, path, start);
    /* collbench's own words, which a launcher's trailer can push out of
     * the tail (mpirun adds a dozen lines after a rank's exit 2). */
    if (start == buf || strstr(start, "collbench: error") != NULL)
        return;
    char *line = NULL;
    size_t cap = 0;
    int shown = 0;
    if ((f = fopen(path, "r")) == NULL)
        return;
    while (shown < 3 && getline(&line, &cap, f) > 0)
        if (strncmp(line, "collbench: error", 16) == 0) {
            fprintf(stderr, "colltune %s: %s", cmd, line);
            shown++;
        }
    free(line);
    fclose(f);
}

/* DIR/launch.json: what ran and how it ended, written beside and renamed
 * so that a reader never sees half of it. */
static ct_status_t ct_run_dir_write_launch(const char *dir, const ct_run_dir_t *a,
                                           const ct_launcher_t *l, const ct_argv_t *ran,
                                           const ct_trial_result_t *r)
{
    const char *cmd = a->cmd;
    char generator[128];
    snprintf(generator, sizeof generator, "colltune %s " PACKAGE_VERSION, cmd);
    json_t *doc = json_object(), *argv = json_array(), *env = json_object(), *mca = json_object();
    int bad = doc == NULL || argv == NULL || env == NULL || mca == NULL;
    for (size_t i = 0; i < ran->n && !bad; i++)
        bad |= ct_json_append(argv, ct_json_str(ran->v[i]));
    for (size_t i = 0; i < a->lo->nenv && !bad; i++)
        bad |= ct_json_set(env, a->lo->env[i].name, ct_json_str(a->lo->env[i].value));
    for (size_t i = 0; i < a->lo->nmca && !bad; i++)
        bad |= ct_json_set(mca, a->lo->mca[i].name, ct_json_str(a->lo->mca[i].value));
    if (!bad) {
        bad |= ct_json_set(doc, "generator", ct_json_str(generator));
        bad |= ct_json_set(doc, "launcher", ct_json_str(l->kind->name));
        bad |= ct_json_set(doc, "argv", argv);
        bad |= ct_json_set(doc, "env", env);
        bad |= ct_json_set(doc, "mca", mca);
        argv = env = mca = NULL;
        bad |= ct_json_set(doc, "timeout_s", ct_json_real(a->lo->timeout_s));
        bad |= ct_json_set(doc, "outcome", ct_json_str(ct_trial_outcome_name(r->outcome)));
        bad |= ct_json_set(doc, "exit_code", json_integer(r->exit_code));
        bad |= ct_json_set(doc, "signal", json_integer(r->term_signal));
        bad |= ct_json_set(doc, "wall_s", ct_json_real(r->wall_s));
        bad |= ct_json_set(doc, "session", json_integer(r->sid));
    }
    char path[4096], err[8800];
    ct_outfile_t out;
    ct_status_t st = CT_OK;
    if (bad)
        st = CT_ERR_NOMEM;
    else if (ct_outdir_path(dir, "launch.json", path, sizeof path) != CT_OK)
        st = CT_ERR_USAGE;
    else if ((st = ct_outfile_open(&out, path, 0666, err, sizeof err)) == CT_OK) {
        if (json_dumpf(doc, out.fp, JSON_INDENT(2) | JSON_SORT_KEYS) != 0) {
            ct_outfile_abort(&out);
            snprintf(err, sizeof err, "cannot write %s: out of memory", path);
            st = CT_ERR_IO;
        } else {
            st = ct_outfile_commit(&out, err, sizeof err);
        }
    }
    if (st == CT_ERR_IO)
        fprintf(stderr, "colltune %s: %s\n", cmd, err);
    json_decref(argv);
    json_decref(env);
    json_decref(mca);
    json_decref(doc);
    return st;
}

/* The results a run writes.  --force keeps the earlier ones aside, as one
 * pair, until the new ones exist.  Each step between the three hidden
 * folders is one rename, so a kill at any point leaves a state the next
 * run reads without guessing:
 *   .results.prev/      the pair set aside, whole;
 *   .results.prev.tmp/  a pair on its way in or out: its files go back;
 *   .results.prev.old/  a pair being dropped (the new results exist). */
static const char *const ct_run_dir_names[] = {"results.csv", "results.json"};
#define CT_RUN_DIR_NNAMES (sizeof ct_run_dir_names / sizeof ct_run_dir_names[0])
#define CT_RUN_DIR_PREV ".results.prev"
#define CT_RUN_DIR_MOVING ".results.prev.tmp"
#define CT_RUN_DIR_DROPPING ".results.prev.old"

/* DIR/SUB/NAME (SUB may be NULL) into buf; -1 when it does not fit. */
static int ct_run_dir_name(const char *dir, const char *sub, const char *name, char *buf,
                           size_t len)
{
    int n = sub != NULL ? snprintf(buf, len, "%s/%s/%s", dir, sub, name)
                        : snprintf(buf, len, "%s/%s", dir, name);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

static int ct_run_dir_exists(const char *dir, const char *sub)
{
    char path[4096];
    struct stat st;
    return ct_run_dir_name(dir, NULL, sub, path, sizeof path) == 0 && lstat(path, &st) == 0;
}

/* Moves the pair between DIR and DIR/SUB (into SUB when in is set);
 * absent files are skipped.  -1 after telling stderr. */
static int ct_run_dir_move(const char *cmd, const char *dir, const char *sub, int in)
{
    for (size_t i = 0; i < CT_RUN_DIR_NNAMES; i++) {
        char top[4096], aside[4096];
        if (ct_run_dir_name(dir, NULL, ct_run_dir_names[i], top, sizeof top) != 0 ||
            ct_run_dir_name(dir, sub, ct_run_dir_names[i], aside, sizeof aside) != 0)
            return -1;
        const char *from = in ? top : aside, *to = in ? aside : top;
        if (access(from, F_OK) != 0)
            continue;
        if (rename(from, to) != 0) {
            fprintf(stderr, "colltune %s: cannot move %s to %s: %s\n", cmd, from, to,
                    strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* Removes the pair from DIR (sub NULL) or DIR/SUB, and SUB itself. */
static int ct_run_dir_drop(const char *cmd, const char *dir, const char *sub)
{
    char path[4096];
    for (size_t i = 0; i < CT_RUN_DIR_NNAMES; i++)
        if (ct_run_dir_name(dir, sub, ct_run_dir_names[i], path, sizeof path) == 0 &&
            unlink(path) != 0 && errno != ENOENT) {
            fprintf(stderr, "colltune %s: cannot remove %s: %s\n", cmd, path, strerror(errno));
            return -1;
        }
    if (sub != NULL &&
        (ct_run_dir_name(dir, NULL, sub, path, sizeof path) != 0 || rmdir(path) != 0)) {
        fprintf(stderr, "colltune %s: cannot remove %s/%s: %s\n", cmd, dir, sub, strerror(errno));
        return -1;
    }
    return 0;
}

/* Renames DIR/FROM to DIR/TO. */
static int ct_run_dir_rename(const char *cmd, const char *dir, const char *from, const char *to)
{
    char a[4096], b[4096];
    if (ct_run_dir_name(dir, NULL, from, a, sizeof a) != 0 ||
        ct_run_dir_name(dir, NULL, to, b, sizeof b) != 0 || rename(a, b) != 0) {
        fprintf(stderr, "colltune %s: cannot move %s/%s to %s: %s\n", cmd, dir, from, to,
                strerror(errno));
        return -1;
    }
    return 0;
}

/* Finishes what a killed run left half done: a pair in motion goes back
 * into DIR, a pair being dropped goes. */
static int ct_run_dir_recover(const char *cmd, const char *dir)
{
    if (ct_run_dir_exists(dir, CT_RUN_DIR_MOVING) &&
        (ct_run_dir_move(cmd, dir, CT_RUN_DIR_MOVING, 0) != 0 ||
         ct_run_dir_drop(cmd, dir, CT_RUN_DIR_MOVING) != 0))
        return -1;
    if (ct_run_dir_exists(dir, CT_RUN_DIR_DROPPING) &&
        ct_run_dir_drop(cmd, dir, CT_RUN_DIR_DROPPING) != 0)
        return -1;
    return 0;
}

/* Refuses results an earlier sweep left (collbench appends to a CSV, and
 * rows of two runs must not mix) or, with --force, moves them aside:
 * a failed run must not cost the good results it was to replace.  A pair
 * an interrupted --force run set aside is the good one: it is never
 * replaced, and what that run left in DIR goes. */
static int ct_run_dir_check_old(const char *cmd, const char *dir, int force)
{
    char path[4096];
    if (ct_run_dir_name(dir, NULL, CT_RUN_DIR_DROPPING, path, sizeof path) != 0) {
        fprintf(stderr, "colltune %s: --out %s: path too long\n", cmd, dir);
        return CT_EXIT_USAGE;
    }
    if (ct_run_dir_recover(cmd, dir) != 0)
        return CT_EXIT_FAILURE;
    if (ct_run_dir_exists(dir, CT_RUN_DIR_PREV)) {
        if (!force) {
            fprintf(stderr,
                    "colltune %s: --out %s: %s/" CT_RUN_DIR_PREV "/ holds the results an "
                    "interrupted --force run set aside (--force to run again: they are kept "
                    "until it measures)\n",
                    cmd, dir, dir);
            return CT_EXIT_USAGE;
        }
        if (ct_run_dir_drop(cmd, dir, NULL) != 0)
            return CT_EXIT_FAILURE;
        fprintf(stderr,
                "colltune %s: --force: an interrupted run's results removed; the earlier ones "
                "stay in %s/" CT_RUN_DIR_PREV "/ until this run measures\n",
                cmd, dir);
        return CT_EXIT_OK;
    }
    int any = 0;
    for (size_t i = 0; i < CT_RUN_DIR_NNAMES; i++) {
        if (ct_run_dir_name(dir, NULL, ct_run_dir_names[i], path, sizeof path) != 0 ||
            access(path, F_OK) != 0)
            continue;
        if (!force) {
            fprintf(stderr,
                    "colltune %s: --out %s: %s already exists (another --out, or --force "
                    "to replace it)\n",
                    cmd, dir, path);
            return CT_EXIT_USAGE;
        }
        any = 1;
    }
    if (!any)
        return CT_EXIT_OK;
    if (ct_run_dir_name(dir, NULL, CT_RUN_DIR_MOVING, path, sizeof path) != 0 ||
        mkdir(path, 0777) != 0) {
        fprintf(stderr, "colltune %s: --force: cannot create %s: %s\n", cmd, path, strerror(errno));
        return CT_EXIT_FAILURE;
    }
    if (ct_run_dir_move(cmd, dir, CT_RUN_DIR_MOVING, 1) != 0 ||
        ct_run_dir_rename(cmd, dir, CT_RUN_DIR_MOVING, CT_RUN_DIR_PREV) != 0) {
        ct_run_dir_recover(cmd, dir);
        return CT_EXIT_FAILURE;
    }
    return CT_EXIT_OK;
}

/* After the run: the earlier results go when the new ones exist (the run
 * measured: ok or wrong), else they come back, whole, over what the run
 * left. */
static void ct_run_dir_settle_old(const char *cmd, const char *dir, int measured)
{
    if (!ct_run_dir_exists(dir, CT_RUN_DIR_PREV))
        return;
    if (measured) {
        if (ct_run_dir_rename(cmd, dir, CT_RUN_DIR_PREV, CT_RUN_DIR_DROPPING) == 0)
            ct_run_dir_drop(cmd, dir, CT_RUN_DIR_DROPPING);
        return;
    }
    if (ct_run_dir_drop(cmd, dir, NULL) != 0 ||
        ct_run_dir_rename(cmd, dir, CT_RUN_DIR_PREV, CT_RUN_DIR_MOVING) != 0 ||
        ct_run_dir_recover(cmd, dir) != 0) {
        fprintf(stderr, "colltune %s: the run failed: the earlier results are in %s/%s/\n", cmd,
                dir, ct_run_dir_exists(dir, CT_RUN_DIR_PREV) ? CT_RUN_DIR_PREV : CT_RUN_DIR_MOVING);
        return;
    }
    fprintf(stderr, "colltune %s: the run failed: the earlier results in %s/ are kept\n", cmd, dir);
}

int ct_run_once_dir(const ct_run_dir_t *a, const char *dir, const ct_launcher_t *l)
{
    const char *cmd = a->cmd;
    char err[512];
    ct_status_t st = ct_outdir_prepare(dir, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune %s: --out %s: %s\n", cmd, dir, err);
        return ct_status_exit_code(st);
    }
    if (ct_outdir_lock(dir, cmd) != 0 || ct_launch_opts_check_files(a->lo) != CT_EXIT_OK)
        return CT_EXIT_USAGE;
    char collbench[PATH_MAX];
    ct_launch_opts_collbench(a->lo, collbench, sizeof collbench);

    char csv[4096], json[4096], out[4096], errf[4096];
    if (ct_outdir_path(dir, "results.csv", csv, sizeof csv) != CT_OK ||
        ct_outdir_path(dir, "results.json", json, sizeof json) != CT_OK ||
        ct_outdir_path(dir, "collbench.txt", out, sizeof out) != CT_OK ||
        ct_outdir_path(dir, "collbench.err", errf, sizeof errf) != CT_OK) {
        fprintf(stderr, "colltune %s: --out %s: path too long\n", cmd, dir);
        return CT_EXIT_USAGE;
    }
    /* From here every way out settles the earlier results. */
    int rc = ct_run_dir_check_old(cmd, dir, a->force);
    if (rc != CT_EXIT_OK)
        return rc;

    ct_argv_t args = CT_ARGV_INIT;
    const char *ours[] = {"--csv", csv, "--json", json};
    st = ct_argv_append(&args, (char *const *)ours, 4);
    if (st == CT_OK)
        st = ct_argv_append(&args, a->cb_args, a->ncb_args);
    ct_run_once_t spec = ct_run_once_spec(a->lo, l, collbench, &args, csv, out, errf);
    /* A sweep's one launch may last long: its progress is not kept from
     * the user (tune's many trials print their own). */
    char relay_as[64];
    snprintf(relay_as, sizeof relay_as, "colltune %s: ", cmd);
    spec.relay_as = relay_as;
    ct_trial_result_t r;
    ct_argv_t ran = CT_ARGV_INIT;
    if (st == CT_OK)
        st = ct_run_once(&spec, &r, &ran, err, sizeof err);
    ct_argv_free(&args);
    if (st != CT_OK) {
        fprintf(stderr, "colltune %s: %s\n", cmd, st == CT_ERR_NOMEM ? "out of memory" : err);
        rc = ct_status_exit_code(st);
    } else {
        rc = ct_trial_exit_code(r.outcome);
        if (ct_run_dir_write_launch(dir, a, l, &ran, &r) != CT_OK && rc == CT_EXIT_OK)
            rc = CT_EXIT_FAILURE;
        if (r.outcome == CT_TRIAL_TIMEOUT && r.timed_out)
            fprintf(stderr,
                    "colltune %s: timeout: no result after --timeout %g s; every process of "
                    "the run got SIGTERM%s\n",
                    cmd, a->lo->timeout_s, r.killed ? ", then SIGKILL" : "");
        else if (r.over_cap != 0 && r.outcome != CT_TRIAL_INTERRUPTED)
            fprintf(stderr,
                    "colltune %s: the run printed more than %lld MiB on %s; every process of "
                    "the run got SIGTERM%s\n",
                    cmd, spec.max_output >> 20,
                    r.over_cap == 1 ? "stdout (collbench.txt)" : "stderr (collbench.err)",
                    r.killed ? ", then SIGKILL" : "");
        else if (r.outcome == CT_TRIAL_INTERRUPTED)
            fprintf(stderr, "colltune %s: interrupted: passed signal %d to the run\n", cmd,
                    r.interrupt);
        else if (r.term_signal != 0)
            fprintf(stderr, "colltune %s: crash: the run ended with signal %d\n", cmd,
                    r.term_signal);
        else if (r.outcome == CT_TRIAL_FAILURE && r.exit_code == CT_EXIT_WRONG)
            fprintf(stderr,
                    "colltune %s: the launch failed: exit 1 with no wrong result in the "
                    "results (the launcher could not start the ranks?)\n",
                    cmd);
        if (r.strays)
            fprintf(stderr, "colltune %s: killed processes the launcher left behind\n", cmd);
        if (r.outcome != CT_TRIAL_OK)
            ct_run_once_tail(cmd, errf, 10);
        fprintf(stderr, "colltune %s: %s (exit %d) after %.1f s; results in %s/\n", cmd,
                ct_trial_outcome_name(r.outcome), rc, r.wall_s, dir);
    }
    ct_run_dir_settle_old(cmd, dir,
                          rc == CT_EXIT_OK || rc == CT_EXIT_WRONG || rc == CT_EXIT_REFUSED);
    ct_argv_free(&ran);
    return rc;
}
