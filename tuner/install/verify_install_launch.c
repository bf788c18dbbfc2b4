/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * verify_install_launch.c - verify-install's launch: one short collbench
 * run with DIR's files applied as `colltune install` says (each present
 * row's variable, the checked file's lines when a job sources it), whose
 * --cvars read the checked file's values back through MPI_T, compared
 * with the file's.
 */
#define _XOPEN_SOURCE 700

#include "verify_install.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ct_input.h"
#include "ct_status.h"
#include "run_once.h"
#include "tune_verify.h"

/* Whether MPI_T's value (typed JSON) is the file's text value. */
static int ct_vinstall_same(const json_t *v, const char *text)
{
    if (json_is_boolean(v)) {
        static const char *const yes[] = {"1", "true", "yes", "on", "enabled"};
        static const char *const no[] = {"0", "false", "no", "off", "disabled"};
        for (size_t i = 0; i < 5; i++) {
            if (strcasecmp(text, yes[i]) == 0)
                return json_is_true(v);
            if (strcasecmp(text, no[i]) == 0)
                return json_is_false(v);
        }
        return 0;
    }
    char *end;
    if (json_is_integer(v)) {
        errno = 0;
        long long x = strtoll(text, &end, 0);
        return errno == 0 && end != text && *end == '\0' && x == json_integer_value(v);
    }
    if (json_is_real(v)) {
        double x = strtod(text, &end), y = json_real_value(v);
        return end != text && *end == '\0' && fabs(x - y) <= 1e-9 * fmax(1.0, fabs(y));
    }
    return json_is_string(v) && strcmp(json_string_value(v), text) == 0;
}

/* MPI_T's value as text, for a message. */
static void ct_vinstall_show(const json_t *v, char *buf, size_t len)
{
    if (v == NULL)
        snprintf(buf, len, "(MPI_T did not report it)");
    else if (json_is_boolean(v))
        snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
    else if (json_is_integer(v))
        snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, len, "%g", json_real_value(v));
    else if (json_is_string(v))
        snprintf(buf, len, "\"%s\"", json_string_value(v));
    else
        snprintf(buf, len, "(no value)");
}

/* Removes the run directory colltune made (its files, then itself). */
static void ct_vinstall_rmrun(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        char p[PATH_MAX + 300];
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        (void)unlink(p);
    }
    if (d != NULL)
        closedir(d);
    (void)rmdir(dir);
}

/* A file the checked one's reader does not read is still set as install
 * says, except a variable that replaces another library's default list:
 * those defaults are that library's tool's to tell (ompi_info), and that
 * library is not the one launched. */
static int ct_vinstall_sets(const ct_library_file_t *row, const ct_library_file_t *checked)
{
    return !row->load.keeps_defaults || row->reader == checked->reader;
}

/* The settings install prints, for the files dir has, into a->lo's
 * environment (values in setv: room for one per row, each
 * PATH_MAX + 4096 bytes); then the checked file's lines when a job
 * sources it, before the user's --env, which the launcher's own options
 * (-genv) would override it with. */
static void ct_vinstall_env(ct_vinstall_args_t *a, const char *dir,
                            const ct_library_file_t *checked, char (*setv)[PATH_MAX + 4096],
                            ct_vinstall_val_t *vals, long n)
{
    const ct_library_file_t *row;
    char var[256];
    size_t nv = 0;
    for (size_t i = 0; (row = ct_library_file_at(i)) != NULL; i++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", dir, row->name);
        if (!ct_library_file_env(row, var, sizeof var) || access(path, F_OK) != 0 ||
            !ct_vinstall_sets(row, checked))
            continue;
        char *v = setv[nv++];
        if (row->load.names_dir) {
            snprintf(v, PATH_MAX + 4096, "%s", dir);
        } else if (row->load.keeps_defaults) {
            char tail[4096] = "", note[256] = "";
            ct_tune_verify_mca_tail(&a->lo, tail, sizeof tail, note, sizeof note);
            if (note[0])
                fprintf(stderr, "colltune verify-install: note: %s\n", note);
            snprintf(v, PATH_MAX + 4096, "%s%s%s", path, tail[0] ? "," : "", tail);
        } else {
            snprintf(v, PATH_MAX + 4096, "%s", path);
        }
        ct_launch_var_t *e = &a->lo.env[a->lo.nenv++];
        snprintf(e->name, sizeof e->name, "%s", var);
        e->value = v;
        printf("colltune verify-install: %s=%s\n", e->name, v);
    }
    if (!ct_library_syntax_sh(checked->syntax) || checked->load.kind != CT_FILE_LOAD_SOURCED)
        return;
    for (long k = n - 1; k >= 0; k--) {
        memmove(&a->lo.env[1], &a->lo.env[0], a->lo.nenv++ * sizeof *a->lo.env);
        ct_launch_var_t *e = &a->lo.env[0];
        snprintf(e->name, sizeof e->name, "%s", vals[k].name);
        e->value = vals[k].value;
    }
    for (long k = 0; k < n; k++)
        printf("colltune verify-install: %s=%s (%s/%s)\n", vals[k].name, vals[k].value, dir,
               checked->name);
}

/* collbench --cvars NAME,...: rank 0 reads them through MPI_T.  NULL
 * when out of memory. */
static char *ct_vinstall_cvars(const ct_vinstall_val_t *vals, long n)
{
    size_t cl = 1;
    for (long k = 0; k < n; k++)
        cl += strlen(vals[k].name) + 1;
    char *cvars = malloc(cl);
    if (cvars == NULL)
        return NULL;
    cvars[0] = '\0';
    for (long k = 0; k < n; k++) {
        if (k)
            strcat(cvars, ",");
        strcat(cvars, vals[k].name);
    }
    return cvars;
}

/* Each value against what run/results.json's cvars read; prints each
 * that is not in force.  How many are; -1 when the run has no cvars. */
static long ct_vinstall_compare(const char *run, const char *dir, const ct_library_file_t *checked,
                                const ct_vinstall_val_t *vals, long n)
{
    char json[PATH_MAX + 32], jerr[PATH_MAX + 512] = "collbench wrote none";
    json_t *doc = NULL;
    snprintf(json, sizeof json, "%s/results.json", run);
    (void)ct_input_json(json, CT_INPUT_MAX_DATA, &doc, jerr, sizeof jerr);
    json_t *got = json_object_get(doc, "cvars");
    if (!json_is_object(got)) {
        fprintf(stderr, "colltune verify-install: %s: no cvars (%s); its files are kept in %s\n",
                json, jerr, run);
        json_decref(doc);
        return -1;
    }
    long ok = 0;
    for (long k = 0; k < n; k++) {
        const json_t *v = json_object_get(json_object_get(got, vals[k].name), "value");
        if (v != NULL && ct_vinstall_same(v, vals[k].want)) {
            ok++;
            continue;
        }
        char shown[512];
        ct_vinstall_show(v, shown, sizeof shown);
        if (ct_library_syntax_sh(checked->syntax))
            printf("colltune verify-install: NOT IN FORCE: %s = %s in %s/%s (MPI_T value %s), "
                   "MPI_T reads %s (an --env, or a spelling %s prefers, wins)\n",
                   vals[k].name, vals[k].value, dir, checked->name, vals[k].want, shown,
                   ct_library_get(checked->reader)->name);
        else if (checked->load.mca)
            printf("colltune verify-install: NOT IN FORCE: %s = %s in %s/%s, MPI_T reads %s (an "
                   "%s%s in the environment, an --mca, or a file before it wins)\n",
                   vals[k].name, vals[k].value, dir, checked->name, shown,
                   CT_LIBRARY_MCA_ENV_PREFIX, vals[k].name);
        else
            printf("colltune verify-install: NOT IN FORCE: %s = %s in %s/%s, MPI_T reads %s (the "
                   "environment, or a file read after it, wins)\n",
                   vals[k].name, vals[k].value, dir, checked->name, shown);
    }
    json_decref(doc);
    return ok;
}

int ct_vinstall_launch(ct_vinstall_args_t *a, const char *dir, const ct_library_file_t *checked,
                       ct_vinstall_val_t *vals, long n, int missing)
{
    char run[PATH_MAX];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(run, sizeof run, "%s/colltune-verify-install.XXXXXX",
             tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (mkdtemp(run) == NULL) {
        fprintf(stderr, "colltune verify-install: cannot make a run directory %s: %s\n", run,
                strerror(errno));
        return CT_EXIT_FAILURE;
    }
    size_t nrows = 0;
    while (ct_library_file_at(nrows) != NULL)
        nrows++;
    char(*setv)[PATH_MAX + 4096] = calloc(nrows, sizeof *setv);
    char *cvars = ct_vinstall_cvars(vals, n);
    ct_launcher_t l;
    int rc = setv == NULL || cvars == NULL ? CT_EXIT_FAILURE : CT_EXIT_OK;
    if (rc == CT_EXIT_OK) {
        ct_vinstall_env(a, dir, checked, setv, vals, n);
        if (ct_launch_opts_launcher(&a->lo, &l) != CT_OK)
            rc = CT_EXIT_USAGE;
    }
    if (rc != CT_EXIT_OK) {
        free(setv);
        free(cvars);
        ct_vinstall_rmrun(run);
        return rc;
    }
    char *args[] = {"-C",   "allreduce", "-b",      "8",  "-e", "8", "--size-budget",
                    "0.05", "--quiet",   "--cvars", cvars};
    ct_run_dir_t rd = {"verify-install", &a->lo, 0, args, sizeof args / sizeof args[0]};
    rc = ct_run_once_dir(&rd, run, &l);
    ct_launcher_free(&l);
    free(cvars);
    long ok = 0;
    if (rc != CT_EXIT_OK) {
        fprintf(stderr,
                "colltune verify-install: the launch failed (exit %d); its files are in %s "
                "(a name in %s the MPI library does not have fails it)\n",
                rc, run, checked->name);
        rc = rc == CT_EXIT_WRONG || rc == CT_EXIT_USAGE ? CT_EXIT_FAILURE : rc;
    } else if ((ok = ct_vinstall_compare(run, dir, checked, vals, n)) < 0) {
        rc = CT_EXIT_FAILURE;
    } else {
        /* The launch's own line named run as where its results are. */
        ct_vinstall_rmrun(run);
        fprintf(stderr,
                "colltune verify-install: removed %s/ (compared; kept when a launch fails)\n", run);
        printf("colltune verify-install: %ld of %ld values in force%s\n", ok, n,
               missing ? "; and what is named above is wrong" : "");
        rc = ok == n && !missing ? CT_EXIT_OK : CT_EXIT_WRONG;
    }
    free(setv); /* the environment named its values until the launch ended */
    return rc;
}
