/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * verify_install.c - colltune verify-install DIR: a short collbench launch
 * (verify_install_launch.c) with DIR's files applied as `colltune install`
 * says to (its environment lines), which reads every value of the file of
 * the library the launcher runs (DIR/mca-params.conf through mpirun,
 * DIR/mpich.env through mpiexec.hydra: the rows read back through MPI_T)
 * back through MPI_T (collbench --cvars) and compares it with the file's.
 * Open MPI runs without a rules file it cannot open and says nothing, so
 * a file the checked one names is checked to exist too.  A sourced file
 * is sourced as install says (its export lines into the launch's
 * environment); MPICH's algorithm names are compared as their position in
 * mpivars' list, the integer MPICH's MPI_T reports.
 */
#define _XOPEN_SOURCE 700

#include "install.h"
#include "verify_install.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "command.h"
#include "ct_input.h"
#include "ct_launcher_env.h"
#include "ct_status.h"
#include "helper_run.h"
#include "launch_opts.h"
#include "tune_mpich_names.h"

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

/* Whether row's file is read back through MPI_T: settings of its reader's
 * own names (carries), which its reader loads, in a family MPI_T reads. */
static int ct_vinstall_readback(const ct_library_file_t *row)
{
    const ct_library_t *lib = ct_library_get(row->reader);
    int mpit = 0;
    for (size_t k = 0; lib != NULL && k < lib->nfamilies; k++)
        mpit |= lib->families[k].readback == CT_READBACK_MPIT;
    return mpit && row->carries == row->reader && row->load.kind != CT_FILE_LOAD_NONE &&
           ct_install_syntax_settings(row->syntax);
}

/* The rows' variables and read-back files, into the help's text. */
static void ct_vinstall_help_text(char *buf, size_t len)
{
    const ct_library_file_t *row;
    char var[256];
    size_t n = (size_t)snprintf(
        buf, len,
        "Checks that what `colltune install` put in DIR is in force: one short collbench "
        "launch (an 8-byte allreduce) with the settings install prints for the files present (");
    for (size_t i = 0, k = 0; (row = ct_library_file_at(i)) != NULL && n < len; i++)
        if (ct_library_file_env(row, var, sizeof var))
            n += (size_t)snprintf(buf + n, len - n, "%s%s", k++ ? ", " : "", var);
    if (n < len)
        n += (size_t)snprintf(buf + n, len - n,
                              "; a variable that replaces its library's default files followed "
                              "by them) reads every setting of the file of the library the "
                              "launcher runs (");
    for (size_t i = 0, k = 0; (row = ct_library_file_at(i)) != NULL && n < len; i++)
        if (ct_vinstall_readback(row)) {
            const char *kind = ct_launcher_env_kind_of(row->reader);
            n += (size_t)snprintf(buf + n, len - n, "%sDIR/%s through %s", k++ ? ", " : "",
                                  row->name, kind ? kind : "?");
        }
    if (n < len)
        snprintf(buf + n, len - n,
                 ") back through MPI_T (collbench --cvars) and compares it with the file's "
                 "value.  A file it names must be readable (its library runs without a "
                 "missing one, without a word).  A file a job sources is sourced (its export "
                 "lines into the launch's environment); MPICH's algorithm names are compared "
                 "as their position in the list mpivars prints, the integer MPICH reports.  "
                 "A DIR without such a file has nothing MPI_T can read back: its files are "
                 "checked to be readable and nothing is launched.");
}

static void ct_vinstall_usage(FILE *f)
{
    char text[4096];
    fprintf(f, "usage: colltune verify-install DIR (--np N | --launcher 'CMD ARGS') "
               "[OPTIONS]\n\n");
    ct_vinstall_help_text(text, sizeof text);
    ct_install_wrap(f, text);
    fprintf(f, "\noptions:\n");
    ct_cli_print_options(f, ct_vinstall_opts, CT_VINSTALL_NOPTS);
    fprintf(f, "\nexit codes: 0 every value in force, 1 some value not in force or a file it\n"
               "names missing (each named; a value the installed MPICH does not list is not\n"
               "launched), 2 bad input (a line of a sourced file sh would not read as a plain\n"
               "assignment, a name that is not a parameter's), 3 the launch failed, 124\n"
               "timeout.\n");
}

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

/* A value of set that names a file of a row checked names (an absolute
 * path to it: mca-params.conf's coll_tuned_dynamic_rules_filename) must
 * be readable: Open MPI runs without a rules file it cannot open, and
 * says nothing.  Whether the value is so and is missing (said). */
static int ct_vinstall_missing(const ct_library_file_t *checked, const char *name,
                               const char *value)
{
    const char *slash = strrchr(value, '/');
    const ct_library_file_t *named = slash != NULL ? ct_library_file_named(slash + 1) : NULL;
    if (value[0] != '/' || named == NULL || named->load.kind != CT_FILE_LOAD_NAMED_BY ||
        named->load.named_by == NULL || strcmp(named->load.named_by, checked->name) != 0 ||
        access(value, R_OK) == 0)
        return 0;
    printf("colltune verify-install: MISSING: %s = %s: %s (%s runs without it, without a word)\n",
           name, value, strerror(errno), ct_library_get(named->reader)->name);
    return 1;
}

/* The values of set (read from path, the checked row's file) checked,
 * then launched and compared. */
static int ct_vinstall_run_set(ct_vinstall_args_t *a, const char *dir, const char *path,
                               const ct_library_file_t *checked, const ct_install_settings_t *set,
                               int unreadable)
{
    long n = (long)set->n;
    ct_vinstall_val_t *vals = calloc(set->n, sizeof *vals);
    if (vals == NULL)
        return CT_EXIT_FAILURE;
    /* MPICH's algorithm names as the integers MPI_T reads: from mpivars. */
    char *mpivars = NULL;
    int mpich = checked->reader == CT_LIB_MPICH;
    if (mpich) {
        char why[640] = "", *argv[] = {"mpivars", NULL};
        mpivars = ct_helper_run(argv, why, sizeof why);
        if (mpivars == NULL)
            fprintf(stderr,
                    "colltune verify-install: note: mpivars %s: an algorithm named in %s "
                    "cannot be told as MPI_T's integer and reads as not in force\n",
                    why, checked->name);
    }
    int missing = 0, not_one = 0;
    for (long k = 0; k < n; k++) {
        vals[k].name = set->name[k];
        vals[k].value = set->value[k];
        snprintf(vals[k].want, sizeof vals[k].want, "%s", set->value[k]);
        if (mpich && !ct_mpich_mpit_value(mpivars, set->name[k], set->value[k], vals[k].want,
                                          sizeof vals[k].want)) {
            printf("colltune verify-install: NOT ONE OF ITS VALUES: %s = %s in %s: the installed "
                   "MPICH lists %s\n",
                   set->name[k], set->value[k], path, vals[k].want);
            not_one = 1;
        }
        missing |= ct_vinstall_missing(checked, set->name[k], set->value[k]);
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
        rc = ct_vinstall_launch(a, dir, checked, vals, n, missing || unreadable);
    }
    free(vals);
    return rc;
}

/* How many of the rows' files dir has; *unreadable of them cannot be
 * opened as a reader would (a FIFO refused, not waited on; each said). */
static int ct_vinstall_scan(const char *dir, int *unreadable)
{
    const ct_library_file_t *row;
    int nfiles = 0;
    *unreadable = 0;
    for (size_t i = 0; (row = ct_library_file_at(i)) != NULL; i++) {
        char path[PATH_MAX + 64], err[PATH_MAX + 512];
        FILE *fp = NULL;
        snprintf(path, sizeof path, "%s/%s", dir, row->name);
        if (access(path, F_OK) != 0)
            continue;
        nfiles++;
        if (ct_input_open(path, CT_INPUT_MAX_CONFIG, &fp, err, sizeof err) != CT_OK) {
            printf("colltune verify-install: cannot be read: %s\n", err);
            (*unreadable)++;
        } else {
            fclose(fp);
        }
    }
    return nfiles;
}

/* The file read back: the first present read-back row whose reader the
 * launcher runs (one launch runs one MPI); each other present one is
 * named.  NULL when none, after saying so. */
static const ct_library_file_t *ct_vinstall_pick(const ct_vinstall_args_t *a, const char *dir,
                                                 int nfiles, int unreadable)
{
    const char *kind = ct_launch_opts_kind(&a->lo);
    ct_library_id_t runs = ct_launcher_env_runs(kind);
    const ct_library_file_t *row, *checked = NULL;
    for (size_t i = 0; (row = ct_library_file_at(i)) != NULL; i++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", dir, row->name);
        if (!ct_vinstall_readback(row) || access(path, F_OK) != 0)
            continue;
        if (row->reader == runs && checked == NULL) {
            checked = row;
            continue;
        }
        const char *its = ct_launcher_env_kind_of(row->reader);
        printf("colltune verify-install: note: %s is %s's; not read back through %s (launch "
               "with %s's %s, --collbench naming a collbench built with it, to check it)\n",
               path, ct_library_get(row->reader)->name, kind ? kind : ct_library_get(runs)->name,
               ct_library_get(row->reader)->name, its ? its : "launcher");
    }
    if (checked != NULL)
        return checked;
    printf("colltune verify-install: no ");
    for (size_t i = 0, k = 0; (row = ct_library_file_at(i)) != NULL; i++)
        if (ct_vinstall_readback(row) && row->reader == runs)
            printf("%s%s", k++ ? " or " : "", row->name);
    printf(" in %s: nothing for MPI_T to read back; %d file%s, %s\n", dir, nfiles,
           nfiles == 1 ? "" : "s", unreadable ? "some unreadable" : "readable");
    return NULL;
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
    int unreadable, nfiles = ct_vinstall_scan(dir, &unreadable);
    if (nfiles == 0) {
        fprintf(stderr,
                "colltune verify-install: %s has none of the files colltune install "
                "writes\n",
                dir);
        return CT_EXIT_USAGE;
    }
    const ct_library_file_t *checked = ct_vinstall_pick(a, dir, nfiles, unreadable);
    if (checked == NULL)
        return unreadable ? CT_EXIT_WRONG : CT_EXIT_OK;
    char path[PATH_MAX + 64], err[PATH_MAX + 512];
    ct_install_settings_t set;
    snprintf(path, sizeof path, "%s/%s", dir, checked->name);
    ct_status_t st = ct_install_read_settings(path, checked->syntax, &set, err, sizeof err);
    if (st != CT_OK) {
        fprintf(stderr, "colltune verify-install: %s\n", err);
        return st == CT_ERR_NOMEM ? CT_EXIT_FAILURE : CT_EXIT_USAGE;
    }
    int rc = ct_vinstall_check_names(path, &set);
    if (rc == CT_EXIT_OK)
        rc = ct_vinstall_run_set(a, dir, path, checked, &set, unreadable);
    ct_install_settings_free(&set);
    return rc;
}

static int ct_vinstall_main(int argc, char **argv)
{
    ct_vinstall_args_t a = {0};
    int rc;
    /* Room for the user's --env, a variable per row's file and a sourced
     * file's lines. */
    size_t nrows = 0;
    while (ct_library_file_at(nrows) != NULL)
        nrows++;
    if (ct_launch_opts_init(&a.lo, "verify-install", argc + (int)nrows + CT_CVARS_MAX_NAMES, 120) !=
        CT_OK) {
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
