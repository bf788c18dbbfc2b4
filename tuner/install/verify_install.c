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
#include "ct_input.h"
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
               "file missing (each named; a value the installed MPICH does not list is not\n"
               "launched), 2 bad input (a line of mpich.env sh would not read as a plain\n"
               "assignment, a name that is not a parameter's), 3 the launch failed, 124\n"
               "timeout.\n");
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
    char jerr[PATH_MAX + 512] = "collbench wrote none";
    json_t *doc = NULL;
    (void)ct_input_json(json, CT_INPUT_MAX_DATA, &doc, jerr, sizeof jerr);
    json_t *got = json_object_get(doc, "cvars");
    if (!json_is_object(got)) {
        fprintf(stderr, "colltune verify-install: %s: no cvars (%s); its files are kept in %s\n",
                json, jerr, run);
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
    /* The launch's own line named run as where its results are. */
    ct_vinstall_rmrun(run);
    fprintf(stderr, "colltune verify-install: removed %s/ (compared; kept when a launch fails)\n",
            run);
    printf("colltune verify-install: %ld of %ld values in force%s\n", ok, n,
           missing ? "; and what is named above is wrong" : "");
    return ok == n && !missing ? CT_EXIT_OK : CT_EXIT_WRONG;
}

/* Every name goes into collbench --cvars NAME,...: at most
 * CT_CVARS_MAX_NAMES of them, each a parameter's name (letters, digits,
 * _: a comma would make two names of one, and a name MPI_T does not know
 * fails the launch).  CT_EXIT_OK, or CT_EXIT_USAGE naming the line. */
static int ct_vinstall_check_names(const char *path, const ct_install_settings_t *set)
{
    if (set->n == 0) {
        fprintf(stderr, "colltune verify-install: %s sets nothing\n", path);
        return CT_EXIT_USAGE;
    }
    if (set->n > CT_CVARS_MAX_NAMES) {
        fprintf(stderr,
                "colltune verify-install: %s: %zu values, more than the %d collbench --cvars "
                "reads at once\n",
                path, set->n, CT_CVARS_MAX_NAMES);
        return CT_EXIT_USAGE;
    }
    for (size_t k = 0; k < set->n; k++) {
        const char *p = set->name[k];
        while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
               *p == '_')
            p++;
        if (*p != '\0' || p == set->name[k]) {
            fprintf(stderr,
                    "colltune verify-install: %s:%ld: '%s' is not a parameter name (letters, "
                    "digits and _ only): a bad file\n",
                    path, set->line[k], set->name[k]);
            return CT_EXIT_USAGE;
        }
    }
    return CT_EXIT_OK;
}

/* The values of set (read from path: mca-params.conf when mca, else
 * mpich.env) checked, then launched and compared. */
static int ct_vinstall_run_set(ct_vinstall_args_t *a, const char *dir, const char *path, int mca,
                               const ct_install_settings_t *set, int unreadable)
{
    long n = (long)set->n;
    ct_vinstall_val_t *vals = calloc(set->n, sizeof *vals);
    if (vals == NULL)
        return CT_EXIT_FAILURE;
    /* MPICH's algorithm names as the integers MPI_T reads: from mpivars. */
    char *mpivars = NULL;
    if (!mca) {
        char why[640] = "", *argv[] = {"mpivars", NULL};
        mpivars = ct_helper_run(argv, why, sizeof why);
        if (mpivars == NULL)
            fprintf(stderr,
                    "colltune verify-install: note: mpivars %s: an algorithm named in mpich.env "
                    "cannot be told as MPI_T's integer and reads as not in force\n",
                    why);
    }
    int missing = 0, not_one = 0;
    for (long k = 0; k < n; k++) {
        vals[k].name = set->name[k];
        vals[k].value = set->value[k];
        vals[k].file = mca ? "mca-params.conf" : "mpich.env";
        snprintf(vals[k].want, sizeof vals[k].want, "%s", set->value[k]);
        if (!mca && !ct_mpich_mpit_value(mpivars, set->name[k], set->value[k], vals[k].want,
                                         sizeof vals[k].want)) {
            printf("colltune verify-install: NOT ONE OF ITS VALUES: %s = %s in %s: the installed "
                   "MPICH lists %s\n",
                   set->name[k], set->value[k], path, vals[k].want);
            not_one = 1;
        }
        if (mca && strcmp(set->name[k], CT_INSTALL_RULES_PARAM) == 0 &&
            access(set->value[k], R_OK) != 0) {
            printf("colltune verify-install: MISSING: %s = %s: %s (Open MPI runs without it, "
                   "without a word)\n",
                   set->name[k], set->value[k], strerror(errno));
            missing = 1;
        }
    }
    free(mpivars);
    int rc = ct_launch_opts_check(&a->lo);
    /* MPICH refuses a value it does not list at MPI_Init, so the launch
     * would only fail (exit 3): what is wrong is known already. */
    if (rc == CT_EXIT_OK && not_one) {
        printf("colltune verify-install: not launched: %s holds a value the installed MPICH "
               "does not have (named above)\n",
               path);
        rc = CT_EXIT_WRONG;
    } else if (rc == CT_EXIT_OK) {
        rc = ct_vinstall_launch(a, dir, vals, n, missing || unreadable);
    }
    free(vals);
    return rc;
}

static int ct_vinstall_run(ct_vinstall_args_t *a)
{
    char dir[PATH_MAX];
    struct stat sb;
    /* errno only from the call that failed: realpath may leave one set
     * (EINVAL from readlink on a component that is not a link) and succeed. */
    const char *why = NULL;
    if (realpath(a->dir, dir) == NULL || stat(dir, &sb) != 0)
        why = strerror(errno);
    else if (!S_ISDIR(sb.st_mode))
        why = "not a directory";
    if (why != NULL) {
        fprintf(stderr, "colltune verify-install: DIR %s: %s\n", a->dir, why);
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
        /* Opened as a reader would (a FIFO refused, not waited on). */
        FILE *fp = NULL;
        char err[PATH_MAX + 512];
        if (ct_input_open(path, CT_INPUT_MAX_CONFIG, &fp, err, sizeof err) != CT_OK) {
            printf("colltune verify-install: cannot be read: %s\n", err);
            unreadable++;
        } else {
            fclose(fp);
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
    const char *path = has_mca ? mca : env;
    ct_install_settings_t set;
    char err[PATH_MAX + 512];
    ct_status_t st = ct_install_read_settings(path, has_mca ? CT_SETTINGS_MCA : CT_SETTINGS_SH,
                                              &set, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune verify-install: %s\n", err);
        return st == CT_ERR_NOMEM ? CT_EXIT_FAILURE : CT_EXIT_USAGE;
    }
    int rc = ct_vinstall_check_names(path, &set);
    if (rc == CT_EXIT_OK)
        rc = ct_vinstall_run_set(a, dir, path, has_mca, &set, unreadable);
    ct_install_settings_free(&set);
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
