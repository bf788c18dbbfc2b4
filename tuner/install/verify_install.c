/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * verify_install.c - colltune verify-install DIR: a short collbench launch
 * with DIR's files applied as `colltune install` says to (its environment
 * lines), which reads every MCA value of DIR/mca-params.conf back through
 * MPI_T (collbench --cvars) and compares it with the file's.  Open MPI
 * runs without a rules file it cannot open and says nothing, so the rules
 * file's existence is checked here too.  DIR/mpich.env is sourced as
 * install says (its export lines into the launch's environment) and each
 * of its CVARs read back the same way; an algorithm's name is compared
 * as its position in mpivars' list, the integer MPICH's MPI_T reports.
 */
#define _XOPEN_SOURCE 700

#include "install.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "helper_run.h"
#include "command.h"
#include "ct_status.h"
#include "launch_opts.h"
#include "run_once.h"
#include "tune_mpich_names.h"
#include "tune_verify.h"

/* The most names collbench --cvars takes (src/cvars.h's CT_CVARS_MAX). */
#define CT_CVARS_MAX_NAMES 64

static const ct_cli_opt_t ct_vinstall_opts[] = {
    CT_LAUNCH_OPTS("environment variable for collbench (repeatable)",
                   "Open MPI MCA parameter (repeatable; one in DIR/mca-params.conf given here "
                   "wins over the file and is then reported)",
                   "kill the launch's process group after SEC (default 120)"),
    CT_LAUNCH_OPT_COLLBENCH,
};
#define CT_VINSTALL_NOPTS (sizeof ct_vinstall_opts / sizeof ct_vinstall_opts[0])

static void ct_vinstall_usage(FILE *f)
{
    fprintf(f, "usage: colltune verify-install DIR (--np N | --launcher 'CMD ARGS') [OPTIONS]\n\n"
               "Checks that what `colltune install` put in DIR is in force: one short\n"
               "collbench launch (an 8-byte allreduce) with the settings install prints\n"
               "(OMPI_MCA_mca_base_param_files=DIR/mca-params.conf followed by Open MPI's\n"
               "default files, UCX_CONFIG_DIR, NCCL_CONF_FILE, NCCL_TUNER_CONFIG_FILE for\n"
               "the files present) reads every MCA parameter of DIR/mca-params.conf back\n"
               "through MPI_T (collbench --cvars) and compares it with the file's value;\n"
               "coll_tuned_dynamic_rules_filename must name a readable file (Open MPI\n"
               "runs without a missing one, without a word).  A DIR without\n"
               "mca-params.conf has nothing MPI_T can read back: its files are checked\n"
               "to be readable and nothing is launched.  Through mpiexec.hydra (an MPICH\n"
               "collbench, --collbench) DIR/mpich.env is checked instead: sourced (its\n"
               "export lines into the launch's environment), each of its CVARs read back\n"
               "through MPI_T (an algorithm's name as its position in the list mpivars\n"
               "prints, the integer MPICH reports).\n\noptions:\n");
    ct_cli_print_options(f, ct_vinstall_opts, CT_VINSTALL_NOPTS);
    fprintf(f, "\nexit codes: 0 every value in force, 1 some value not in force or the rules\n"
               "file missing (each named), 2 bad input, 3 the launch failed, 124 timeout.\n");
}

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

typedef struct {
    const char *dir;
    ct_launch_opts_t lo;
} ct_vinstall_args_t;

static int ct_vinstall_parse(int argc, char **argv, ct_vinstall_args_t *a)
{
    ct_cli_iter_t it = CT_CLI_ITER("verify-install", argc, argv);
    const char *value;
    int id;
    ct_status_t st = CT_OK;
    for (;;) {
        if (ct_cli_operand(&it, &a->dir, "DIR") != 0)
            return CT_EXIT_USAGE;
        if ((id = ct_cli_next(&it, ct_vinstall_opts, CT_VINSTALL_NOPTS, &value)) <= 0)
            break;
        ct_launch_opts_apply(&a->lo, id, value, &st);
        if (st != CT_OK)
            return st == CT_ERR_NOMEM ? CT_EXIT_FAILURE : CT_EXIT_USAGE;
    }
    int rc = ct_cli_finish(id, ct_vinstall_usage);
    if (rc != CT_EXIT_OK)
        return rc;
    if (it.next < argc) {
        fprintf(stderr, "colltune verify-install: unexpected argument %s\n", argv[it.next]);
        return CT_EXIT_USAGE;
    }
    if (a->dir == NULL) {
        fprintf(stderr, "colltune verify-install: DIR missing (colltune verify-install DIR "
                        "--np N)\n");
        return CT_EXIT_USAGE;
    }
    return CT_EXIT_OK;
}

/* One value to read back: its name, the file's text, the text MPI_T
 * reads for it, and the file it came from. */
typedef struct {
    char *name, *value;
    char want[1024];
    const char *file;
} ct_vinstall_val_t;

/* The launch and the comparison of the n values vals. */
static int ct_vinstall_launch(ct_vinstall_args_t *a, const char *dir, ct_vinstall_val_t *vals,
                              long n, int missing)
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
    /* The settings install prints, for the files DIR has. */
    const ct_install_file_t *t = ct_install_files();
    char setv[8][PATH_MAX + 4096];
    size_t nv = 0;
    int mpich = n > 0 && strcmp(vals[0].file, "mpich.env") == 0;
    for (size_t i = 0; t[i].name != NULL; i++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", dir, t[i].name);
        if (t[i].var == NULL || access(path, F_OK) != 0 || nv >= 8 ||
            (mpich && strcmp(t[i].name, "mca-params.conf") == 0))
            continue;
        char *v = setv[nv++];
        if (t[i].names_dir) {
            snprintf(v, PATH_MAX + 4096, "%s", dir);
        } else if (strcmp(t[i].name, "mca-params.conf") == 0) {
            char tail[4096] = "", note[256] = "";
            ct_tune_verify_mca_tail(&a->lo, tail, sizeof tail, note, sizeof note);
            if (note[0])
                fprintf(stderr, "colltune verify-install: note: %s\n", note);
            snprintf(v, PATH_MAX + 4096, "%s%s%s", path, tail[0] ? "," : "", tail);
        } else {
            snprintf(v, PATH_MAX + 4096, "%s", path);
        }
        ct_launch_var_t *e = &a->lo.env[a->lo.nenv++];
        snprintf(e->name, sizeof e->name, "%s", t[i].var);
        e->value = v;
        printf("colltune verify-install: %s=%s\n", e->name, v);
    }
    /* mpich.env sourced in the job script: its export lines into the
     * environment, before the user's --env, which the launcher's own
     * options (-genv) would override it with. */
    for (long k = n - 1; k >= 0; k--)
        if (strcmp(vals[k].file, "mpich.env") == 0) {
            memmove(&a->lo.env[1], &a->lo.env[0], a->lo.nenv++ * sizeof *a->lo.env);
            ct_launch_var_t *e = &a->lo.env[0];
            snprintf(e->name, sizeof e->name, "%s", vals[k].name);
            e->value = vals[k].value;
        }
    for (long k = 0; k < n; k++)
        if (strcmp(vals[k].file, "mpich.env") == 0)
            printf("colltune verify-install: %s=%s (%s/mpich.env)\n", vals[k].name, vals[k].value,
                   dir);
    /* collbench --cvars NAME,...: rank 0 reads them through MPI_T. */
    size_t cl = 1;
    for (long k = 0; k < n; k++)
        cl += strlen(vals[k].name) + 1;
    char *cvars = malloc(cl);
    if (cvars == NULL)
        return CT_EXIT_FAILURE;
    cvars[0] = '\0';
    for (long k = 0; k < n; k++) {
        if (k)
            strcat(cvars, ",");
        strcat(cvars, vals[k].name);
    }
    char *args[] = {"-C",   "allreduce", "-b",      "8",  "-e", "8", "--size-budget",
                    "0.05", "--quiet",   "--cvars", cvars};
    ct_launcher_t l;
    int rc;
    if (ct_launch_opts_launcher(&a->lo, &l) != CT_OK) {
        free(cvars);
        ct_vinstall_rmrun(run);
        return CT_EXIT_USAGE;
    }
    ct_run_dir_t rd = {"verify-install", &a->lo, 0, args, sizeof args / sizeof args[0]};
    rc = ct_run_once_dir(&rd, run, &l);
    ct_launcher_free(&l);
    free(cvars);
    if (rc != CT_EXIT_OK) {
        fprintf(stderr,
                "colltune verify-install: the launch failed (exit %d); its files are in %s "
                "(a name in mca-params.conf the MPI library does not have fails it)\n",
                rc, run);
        return rc == CT_EXIT_WRONG || rc == CT_EXIT_USAGE ? CT_EXIT_FAILURE : rc;
    }
    char json[PATH_MAX + 32];
    snprintf(json, sizeof json, "%s/results.json", run);
    json_error_t jerr;
    json_t *doc = json_load_file(json, 0, &jerr);
    json_t *got = json_object_get(doc, "cvars");
    if (!json_is_object(got)) {
        fprintf(stderr, "colltune verify-install: %s: no cvars (%s)\n", json,
                doc ? "collbench wrote none" : jerr.text);
        json_decref(doc);
        return CT_EXIT_FAILURE;
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
        if (strcmp(vals[k].file, "mpich.env") == 0)
            printf("colltune verify-install: NOT IN FORCE: %s = %s in %s/mpich.env (MPI_T "
                   "value %s), MPI_T reads %s (an --env, or a spelling MPICH prefers, wins)\n",
                   vals[k].name, vals[k].value, dir, vals[k].want, shown);
        else
            printf("colltune verify-install: NOT IN FORCE: %s = %s in %s/mca-params.conf, MPI_T "
                   "reads %s (an OMPI_MCA_%s in the environment, an --mca, or a file before it "
                   "wins)\n",
                   vals[k].name, vals[k].value, dir, shown, vals[k].name);
    }
    json_decref(doc);
    ct_vinstall_rmrun(run);
    printf("colltune verify-install: %ld of %ld values in force%s\n", ok, n,
           missing ? "; and what is named above is wrong" : "");
    return ok == n && !missing ? CT_EXIT_OK : CT_EXIT_WRONG;
}

static int ct_vinstall_run(ct_vinstall_args_t *a)
{
    char dir[PATH_MAX];
    struct stat sb;
    errno = 0;
    if (realpath(a->dir, dir) == NULL || stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "colltune verify-install: DIR %s: %s\n", a->dir,
                errno ? strerror(errno) : "not a directory");
        return CT_EXIT_USAGE;
    }
    const ct_install_file_t *t = ct_install_files();
    int nfiles = 0, unreadable = 0;
    for (size_t i = 0; t[i].name != NULL; i++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", dir, t[i].name);
        if (access(path, F_OK) != 0)
            continue;
        nfiles++;
        if (access(path, R_OK) != 0) {
            printf("colltune verify-install: %s cannot be read: %s\n", path, strerror(errno));
            unreadable++;
        }
    }
    if (nfiles == 0) {
        fprintf(stderr,
                "colltune verify-install: %s has none of the files colltune install "
                "writes\n",
                dir);
        return CT_EXIT_USAGE;
    }
    char mca[PATH_MAX + 32], env[PATH_MAX + 32];
    snprintf(mca, sizeof mca, "%s/mca-params.conf", dir);
    snprintf(env, sizeof env, "%s/mpich.env", dir);
    /* One launch runs one MPI: MPICH's through mpiexec.hydra (mpich.env),
     * Open MPI's otherwise (mca-params.conf); the other file is named. */
    const char *kind = ct_launch_opts_kind(&a->lo);
    int mpich = kind != NULL && strcmp(kind, "mpiexec.hydra") == 0;
    int has_mca = access(mca, F_OK) == 0, has_env = access(env, F_OK) == 0;
    if (mpich && has_mca)
        printf("colltune verify-install: note: %s is Open MPI's; not read back through "
               "mpiexec.hydra (launch with Open MPI's mpirun to check it)\n",
               mca);
    if (!mpich && has_env)
        printf("colltune verify-install: note: %s is MPICH's; not read back through Open MPI "
               "(--launcher 'mpiexec.hydra ...' --collbench with an MPICH collbench checks "
               "it)\n",
               env);
    has_mca &= !mpich;
    has_env &= mpich;
    if (!has_mca && !has_env) {
        printf("colltune verify-install: no %s in %s: nothing for MPI_T to read back; %d "
               "file%s, %s\n",
               mpich ? "mpich.env" : "mca-params.conf", dir, nfiles, nfiles == 1 ? "" : "s",
               unreadable ? "some unreadable" : "readable");
        return unreadable ? CT_EXIT_WRONG : CT_EXIT_OK;
    }
    char *names[CT_CVARS_MAX_NAMES + 1], *values[CT_CVARS_MAX_NAMES + 1];
    long n = 0, nmca = 0;
    const char *bad = NULL;
    if (has_mca) {
        nmca = n = ct_install_read_settings(mca, NULL, names, values, CT_CVARS_MAX_NAMES + 1);
        bad = n < 0 ? mca : NULL;
    }
    if (bad == NULL && has_env && n <= CT_CVARS_MAX_NAMES) {
        long m = ct_install_read_settings(env, "export ", names + n, values + n,
                                          (size_t)(CT_CVARS_MAX_NAMES + 1 - n));
        if (m < 0)
            bad = env;
        else
            n += m;
    }
    if (bad != NULL || n > CT_CVARS_MAX_NAMES) {
        fprintf(stderr, "colltune verify-install: %s: %s\n", bad ? bad : dir,
                bad ? strerror(errno) : "more values than collbench --cvars reads at once");
        if (n > 0)
            ct_install_free_mca(names, values, n > CT_CVARS_MAX_NAMES ? CT_CVARS_MAX_NAMES + 1 : n);
        return CT_EXIT_USAGE;
    }
    if (n == 0) {
        fprintf(stderr, "colltune verify-install: %s sets nothing\n",
                has_mca && has_env ? "neither mca-params.conf nor mpich.env"
                : has_mca          ? mca
                                   : env);
        return CT_EXIT_USAGE;
    }
    ct_vinstall_val_t *vals = calloc((size_t)n, sizeof *vals);
    if (vals == NULL) {
        ct_install_free_mca(names, values, n);
        return CT_EXIT_FAILURE;
    }
    /* MPICH's algorithm names as the integers MPI_T reads: from mpivars. */
    char *mpivars = NULL;
    if (n > nmca) {
        char why[640] = "", *argv[] = {"mpivars", NULL};
        mpivars = ct_helper_run(argv, why, sizeof why);
        if (mpivars == NULL)
            fprintf(stderr,
                    "colltune verify-install: note: mpivars %s: an algorithm named in mpich.env "
                    "cannot be told as MPI_T's integer and reads as not in force\n",
                    why);
    }
    int missing = 0;
    for (long k = 0; k < n; k++) {
        vals[k].name = names[k];
        vals[k].value = values[k];
        vals[k].file = k < nmca ? "mca-params.conf" : "mpich.env";
        snprintf(vals[k].want, sizeof vals[k].want, "%s", values[k]);
        if (k >= nmca &&
            !ct_mpich_mpit_value(mpivars, names[k], values[k], vals[k].want, sizeof vals[k].want)) {
            printf("colltune verify-install: NOT ONE OF ITS VALUES: %s = %s in %s: the installed "
                   "MPICH lists %s\n",
                   names[k], values[k], env, vals[k].want);
            missing = 1;
        }
        if (k < nmca && strcmp(names[k], CT_INSTALL_RULES_PARAM) == 0 &&
            access(values[k], R_OK) != 0) {
            printf("colltune verify-install: MISSING: %s = %s: %s (Open MPI runs without it, "
                   "without a word)\n",
                   names[k], values[k], strerror(errno));
            missing = 1;
        }
    }
    free(mpivars);
    int rc = ct_launch_opts_check(&a->lo);
    if (rc == CT_EXIT_OK)
        rc = ct_vinstall_launch(a, dir, vals, n, missing || unreadable);
    free(vals);
    ct_install_free_mca(names, values, n);
    return rc;
}

static int ct_vinstall_main(int argc, char **argv)
{
    ct_vinstall_args_t a = {0};
    int rc;
    /* Room for the user's --env, the four settings of DIR's files and
     * mpich.env's lines. */
    if (ct_launch_opts_init(&a.lo, "verify-install", argc + 4 + CT_CVARS_MAX_NAMES, 120) != CT_OK) {
        rc = CT_EXIT_FAILURE;
    } else {
        rc = ct_vinstall_parse(argc, argv, &a);
        if (rc < 0)
            rc = CT_EXIT_OK;
        else if (rc == CT_EXIT_OK)
            rc = ct_vinstall_run(&a);
    }
    ct_launch_opts_free(&a.lo);
    return rc;
}

const ct_command_t ct_command_verify_install = {
    .name = "verify-install",
    .summary = "check that an installed configuration is in force (MPI_T read-back)",
    .run = ct_vinstall_main,
    .usage = ct_vinstall_usage,
};
