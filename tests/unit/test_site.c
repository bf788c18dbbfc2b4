/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_site - what the site sets (ct_site_read) and which of it outranks
 * a setting in one of colltune's files (ct_site_outranks).
 *
 * Reading: --env over the environment over the files, the first file of a
 * library's list over the later ones, OMPI_MCA_x as the MCA parameter x,
 * Open MPI's override file over everything, UCX's ./ucx.conf marked as
 * read after colltune's; comments, blank and [section] lines skipped; a
 * missing file is no setting, an unreadable one an error naming it.
 * Ranking: one check per row of site_rank.c's table, each with the case
 * that outranks and the case that does not, so a broken rule fails.
 */
#define _XOPEN_SOURCE 700

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_library.h"
#include "ct_names.h"
#include "ct_test.h"
#include "setting.h"
#include "site.h"

typedef struct {
    char dir[64];
} ct_tmp_t;

static void ct_put(const ct_tmp_t *t, const char *name, const char *text, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", t->dir, name);
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

/* A site from env (NULL-ended) and files, no command line. */
static ct_status_t ct_read(ct_site_t *s, char *const *env, const ct_site_files_t *files, char *err,
                           size_t len)
{
    memset(s, 0, sizeof *s);
    return ct_site_read(s, NULL, env, files, err, len);
}

static const char *ct_value(const ct_site_t *s, const char *name, int mca)
{
    const ct_site_setting_t *e = ct_site_find(s, name, mca);
    return e != NULL ? e->value : NULL;
}

static const char *ct_origin(const ct_site_t *s, const char *name, int mca)
{
    const ct_site_setting_t *e = ct_site_find(s, name, mca);
    return e != NULL ? e->origin : NULL;
}

static void test_read_order(ct_test_tally_t *t, const ct_tmp_t *tmp)
{
    char user[128], sys[128], mca1[128], mca2[128], list[300];
    ct_put(tmp, "user.conf", "# NCCL user file\nNCCL_PROTO=LL\nNCCL_ALGO=ring\n\n", user,
           sizeof user);
    ct_put(tmp, "sys.conf", "NCCL_PROTO=Simple\nNCCL_BUFFSIZE=1\n", sys, sizeof sys);
    ct_put(tmp, "mca1.conf", "coll_tuned_bcast_algorithm = 6\n", mca1, sizeof mca1);
    ct_put(tmp, "mca2.conf", "coll_tuned_bcast_algorithm = 2\nbtl = self\n", mca2, sizeof mca2);
    snprintf(list, sizeof list, "%s,%s", mca1, mca2);

    ct_launch_var_t envs[] = {{.name = "NCCL_ALGO", .value = "tree"}};
    ct_launch_var_t mcas[] = {{.name = "btl", .value = "tcp,self"}};
    ct_launch_opts_t lo = {.env = envs, .nenv = 1, .mca = mcas, .nmca = 1};
    char *env[] = {"NCCL_ALGO=collnet", "NCCL_PROTO=LL128", "OMPI_MCA_coll_tuned_priority=90",
                   "HOME=/nowhere",     "PATH=/bin",        NULL};
    ct_site_files_t files = {
        .nccl_user = user, .nccl_sys = sys, .mca_files = list, .mca_override = ""};
    ct_site_t s = {0};
    char err[256] = "";
    CT_CHECK(t, ct_site_read(&s, &lo, env, &files, err, sizeof err) == CT_OK);
    /* --env over the environment over the files */
    CT_CHECK_STR(t, ct_value(&s, "NCCL_ALGO", 0), "tree");
    CT_CHECK_STR(t, ct_origin(&s, "NCCL_ALGO", 0), "--env");
    CT_CHECK(t, ct_site_find(&s, "NCCL_ALGO", 0)->source == CT_SITE_CMDLINE);
    CT_CHECK_STR(t, ct_value(&s, "NCCL_PROTO", 0), "LL128");
    CT_CHECK(t, ct_site_find(&s, "NCCL_PROTO", 0)->source == CT_SITE_ENV);
    /* first file wins (NCCL's user file over /etc/nccl.conf) */
    CT_CHECK_STR(t, ct_value(&s, "NCCL_BUFFSIZE", 0), "1");
    CT_CHECK_STR(t, ct_origin(&s, "NCCL_BUFFSIZE", 0), sys);
    /* OMPI_MCA_x is the MCA parameter x, not a variable */
    CT_CHECK_STR(t, ct_value(&s, "coll_tuned_priority", 1), "90");
    CT_CHECK(t, ct_site_find(&s, "OMPI_MCA_coll_tuned_priority", 0) == NULL);
    CT_CHECK(t, ct_site_find(&s, "coll_tuned_priority", 0) == NULL);
    /* --mca over the files; leftmost of mca_base_param_files wins */
    CT_CHECK_STR(t, ct_value(&s, "btl", 1), "tcp,self");
    CT_CHECK_STR(t, ct_value(&s, "coll_tuned_bcast_algorithm", 1), "6");
    CT_CHECK_STR(t, ct_origin(&s, "coll_tuned_bcast_algorithm", 1), mca1);
    /* unprefixed variables are not site settings */
    CT_CHECK(t, ct_site_find(&s, "HOME", 0) == NULL && ct_site_find(&s, "PATH", 0) == NULL);
    ct_site_free(&s);
}

static void test_override_and_ucx(ct_test_tally_t *t, const ct_tmp_t *tmp)
{
    char etc[128], sysconf[128], over[128], cwd[128], cfgdir[128];
    snprintf(etc, sizeof etc, "%s/etc", tmp->dir);
    mkdir(etc, 0700);
    ct_put(tmp, "etc/openmpi-mca-params.conf", "coll_tuned_use_dynamic_rules = 1\n", sysconf,
           sizeof sysconf);
    ct_put(tmp, "etc/openmpi-mca-params-override.conf", "coll_tuned_use_dynamic_rules = 0\n", over,
           sizeof over);
    ct_put(tmp, "cwd-ucx.conf", "[global]\nUCX_TLS = tcp\n", cwd, sizeof cwd);
    ct_put(tmp, "dir-ucx.conf", "UCX_TLS=shm\nUCX_RNDV_THRESH=8k\n", cfgdir, sizeof cfgdir);
    char *env[] = {"OMPI_MCA_coll_tuned_use_dynamic_rules=1", NULL};
    /* mca_override NULL: found beside mca_files' openmpi-mca-params.conf */
    ct_site_files_t files = {.mca_files = sysconf, .ucx_confs = {cwd, cfgdir}};
    ct_site_t s;
    char err[256];
    CT_CHECK(t, ct_read(&s, env, &files, err, sizeof err) == CT_OK);
    const ct_site_setting_t *e = ct_site_find(&s, "coll_tuned_use_dynamic_rules", 1);
    CT_CHECK(t, e != NULL && e->source == CT_SITE_OVERRIDE && strcmp(e->value, "0") == 0);
    CT_CHECK_STR(t, ct_origin(&s, "coll_tuned_use_dynamic_rules", 1), over);
    /* UCX: ./ucx.conf first, and marked as read after colltune's */
    e = ct_site_find(&s, "UCX_TLS", 0);
    CT_CHECK(t, e != NULL && strcmp(e->value, "tcp") == 0 && e->late);
    e = ct_site_find(&s, "UCX_RNDV_THRESH", 0);
    CT_CHECK(t, e != NULL && !e->late);
    ct_site_free(&s);
}

static void test_parsing(ct_test_tally_t *t, const ct_tmp_t *tmp)
{
    char path[128], missing[128];
    ct_put(tmp, "parse.conf",
           "# comment = no\n   # indented comment\n\n   \n[UCX]\n"
           "  coll_tuned_bcast_algorithm   =  5  \nno equals sign here\n"
           "coll_tuned_bcast_segmentsize=a=b\r\n= nameless\n",
           path, sizeof path);
    snprintf(missing, sizeof missing, "%s/no/such.conf", tmp->dir);
    char list[300];
    snprintf(list, sizeof list, "%s,%s", missing, path);
    ct_site_files_t files = {.mca_files = list, .mca_override = ""};
    ct_site_t s;
    char err[256];
    CT_CHECK(t, ct_read(&s, NULL, &files, err, sizeof err) == CT_OK);
    CT_CHECK_STR(t, ct_value(&s, "coll_tuned_bcast_algorithm", 1), "5");
    CT_CHECK_STR(t, ct_value(&s, "coll_tuned_bcast_segmentsize", 1), "a=b");
    CT_CHECK(t, s.n == 2); /* nothing from comments, blanks, [UCX], no '=' or no name */
    ct_site_free(&s);

    /* A missing file is no setting; an unreadable one (a directory here,
     * which fopen opens but getline cannot read) is an error naming it. */
    ct_site_files_t none = {.nccl_sys = missing, .mca_override = ""};
    CT_CHECK(t, ct_read(&s, NULL, &none, err, sizeof err) == CT_OK && s.n == 0);
    ct_site_free(&s);
    char unreadable[128];
    ct_put(tmp, "secret.conf", "NCCL_ALGO=ring\n", unreadable, sizeof unreadable);
    chmod(unreadable, 0);
    FILE *probe = fopen(unreadable, "r"); /* root reads it anyway */
    if (probe != NULL) {
        fclose(probe);
        snprintf(unreadable, sizeof unreadable, "%s/etc", tmp->dir); /* a directory */
    }
    ct_site_files_t bad = {.nccl_sys = unreadable, .mca_override = ""};
    err[0] = '\0';
    CT_CHECK(t, ct_read(&s, NULL, &bad, err, sizeof err) == CT_ERR_IO);
    CT_CHECK(t, strstr(err, unreadable) != NULL);
    ct_site_free(&s);
}

/* Names: the first one read wins even when it is the very first entry;
 * a name that is a prefix of another is a setting of its own; a bare
 * OMPI_MCA_ names nothing; a path of one character in the MCA list. */
static void test_names(ct_test_tally_t *t, const ct_tmp_t *tmp)
{
    char *env[] = {
        "NCCL_ALGO=ring", "NCCL_ALGO=tree",       "NCCL_AL=x", "OMPI_MCA_=y", "OMPI_MCA_a=1",
        "HOME_NCCL_X=no", "OMPI_MCA_NCCL_ALGO=m", NULL};
    ct_site_t s;
    char err[256];
    CT_CHECK(t, ct_read(&s, env, NULL, err, sizeof err) == CT_OK);
    CT_CHECK_STR(t, ct_value(&s, "NCCL_ALGO", 0), "ring");
    CT_CHECK_STR(t, ct_value(&s, "NCCL_AL", 0), "x");
    CT_CHECK_STR(t, ct_value(&s, "a", 1), "1");
    CT_CHECK(t, ct_value(&s, "", 1) == NULL);
    CT_CHECK(t, ct_value(&s, "HOME_NCCL_X", 0) == NULL);
    /* An MCA parameter and a variable of one name are two settings. */
    CT_CHECK_STR(t, ct_value(&s, "NCCL_ALGO", 1), "m");
    CT_CHECK(t, s.n == 5); /* NCCL_ALGO once, NCCL_AL, OMPI_MCA_, a, NCCL_ALGO (MCA) */
    ct_site_free(&s);

    /* The default files, from an environment: NCCL_CONF_FILE (not a
     * longer name that starts with it), UCX_CONFIG_DIR and HOME's
     * ucx.conf, the working directory's first. */
    char *denv[] = {"NCCL_CONF_FILEX=/no", "NCCL_CONF_FILE=/site/nccl.conf", "UCX_CONFIG_DIR=/u",
                    "HOME=/h", NULL};
    char buf[8192];
    ct_site_files_t d;
    ct_site_files_default(&d, denv, buf, sizeof buf);
    CT_CHECK_STR(t, d.nccl_user, "/site/nccl.conf");
    CT_CHECK_STR(t, d.nccl_sys, "/etc/nccl.conf");
    CT_CHECK_STR(t, d.ucx_confs[1], "/u/ucx.conf");
    CT_CHECK_STR(t, d.ucx_confs[2], "/h/ucx.conf");
    CT_CHECK(t, d.ucx_confs[0] != NULL && strstr(d.ucx_confs[0], "/ucx.conf") != NULL);
    char *none[] = {"UCX_CONFIG_DIR=", NULL};
    ct_site_files_default(&d, none, buf, sizeof buf);
    CT_CHECK(t, d.ucx_confs[1] == NULL && d.ucx_confs[2] == NULL);
    /* "a" in the working directory: Open MPI's list may name it so. */
    char here[512], path[128];
    ct_put(tmp, "a", "x = 1\n", path, sizeof path);
    if (getcwd(here, sizeof here) != NULL && chdir(tmp->dir) == 0) {
        ct_site_files_t files = {.mca_files = "a", .mca_override = ""};
        CT_CHECK(t, ct_read(&s, NULL, &files, err, sizeof err) == CT_OK);
        CT_CHECK_STR(t, ct_value(&s, "x", 1), "1");
        ct_site_free(&s);
        CT_CHECK(t, chdir(here) == 0);
    }
}

/* ct_site_outranks on a site of env, returning the setting's value. */
static const char *ct_rank(char *const *env, const char *file, const char *name, const char *value,
                           int coll, const char **why)
{
    static char got[64];
    ct_site_t s;
    char err[64];
    ct_site_files_t files = {.mca_override = ""};
    if (ct_read(&s, env, &files, err, sizeof err) != CT_OK)
        return "read failed";
    const ct_site_setting_t *e = ct_site_outranks(&s, file, name, value, coll, why);
    snprintf(got, sizeof got, "%s", e != NULL ? e->value : "");
    ct_site_free(&s);
    return e != NULL ? got : NULL;
}

static void test_outranks(ct_test_tally_t *t, const ct_tmp_t *tmp)
{
    const char *why = "unset";
    const int bc = CT_COLL_BROADCAST, ar = CT_COLL_ALLREDUCE;
    /* NCCL plugin rule: a site NCCL_ALGO that leaves tree off for
     * broadcast... broadcast runs ring only; use allreduce. */
    char *algo_ring[] = {"NCCL_ALGO=ring", NULL};
    CT_CHECK_STR(t, ct_rank(algo_ring, "nccl_tuner.conf", "NCCL_ALGO", "tree", ar, &why), "ring");
    CT_CHECK(t, why != NULL && strstr(why, "tuner plugin") != NULL);
    CT_CHECK(t, ct_rank(algo_ring, "nccl_tuner.conf", "NCCL_ALGO", "ring", ar, NULL) == NULL);
    /* per collective: the site disables tree for allreduce only */
    char *algo_per[] = {"NCCL_ALGO=allreduce:ring", NULL};
    CT_CHECK(t, ct_rank(algo_per, "nccl_tuner.conf", "NCCL_ALGO", "tree", ar, NULL) != NULL);
    CT_CHECK(t, ct_rank(algo_per, "nccl_tuner.conf", "NCCL_ALGO", "ring", bc, NULL) == NULL);
    char *algo_not[] = {"NCCL_ALGO=^tree", NULL};
    CT_CHECK(t, ct_rank(algo_not, "nccl_tuner.conf", "NCCL_ALGO", "tree", ar, NULL) != NULL);
    char *proto[] = {"NCCL_PROTO=Simple", NULL};
    CT_CHECK(t, ct_rank(proto, "nccl_tuner.conf", "NCCL_PROTO", "LL", ar, NULL) != NULL);
    CT_CHECK(t, ct_rank(proto, "nccl_tuner.conf", "NCCL_ALGO", "tree", ar, NULL) == NULL);

    /* nccl.conf: outranked by the environment, not by another file */
    CT_CHECK_STR(t, ct_rank(proto, "nccl.conf", "NCCL_PROTO", "LL", CT_SCOPE_GLOBAL, &why),
                 "Simple");
    CT_CHECK(t, why != NULL && strstr(why, "param.cc") != NULL);
    char sys[128];
    ct_put(tmp, "nccl-sys.conf", "NCCL_PROTO=Simple\n", sys, sizeof sys);
    ct_site_files_t files = {.nccl_sys = sys, .mca_override = ""};
    ct_site_t s;
    char err[256];
    CT_CHECK(t, ct_read(&s, NULL, &files, err, sizeof err) == CT_OK);
    CT_CHECK(t, ct_site_find(&s, "NCCL_PROTO", 0) != NULL);
    CT_CHECK(t, ct_site_outranks(&s, "nccl.conf", "NCCL_PROTO", "LL", -1, NULL) == NULL);
    /* ... and a file's NCCL_ALGO disables for the plugin as well */
    ct_site_free(&s);
    /* nccl.env is sourced last: nothing outranks it */
    CT_CHECK(t, ct_rank(proto, "nccl.env", "NCCL_PROTO", "LL", -1, NULL) == NULL);

    /* UCX: the environment outranks ucx.conf */
    char *tls[] = {"UCX_TLS=tcp", NULL};
    CT_CHECK_STR(t, ct_rank(tls, "ucx.conf", "UCX_TLS", "shm", -1, &why), "tcp");
    CT_CHECK(t, why != NULL && strstr(why, "parser.c") != NULL);
    CT_CHECK(t, ct_rank(tls, "ucx.conf", "UCX_RNDV_THRESH", "8k", -1, NULL) == NULL);

    /* MPICH: a forced algorithm outranks the selection file, auto does not */
    char *forced[] = {"MPIR_CVAR_BCAST_INTRA_ALGORITHM=scatter_ring_allgather", NULL};
    char *autov[] = {"MPIR_CVAR_BCAST_INTRA_ALGORITHM=AUTO", NULL};
    const char *cvar = "MPIR_CVAR_BCAST_INTRA_ALGORITHM";
    CT_CHECK(t, ct_rank(forced, "mpich-coll-selection.json", cvar, "binomial", bc, &why) != NULL);
    CT_CHECK(t, why != NULL && strstr(why, "auto") != NULL);
    CT_CHECK(t, ct_rank(autov, "mpich-coll-selection.json", cvar, "binomial", bc, NULL) == NULL);
    CT_CHECK(t, ct_rank(forced, "mpich.env", cvar, "binomial", bc, NULL) == NULL);

    /* Open MPI: mca-params.conf outranked by OMPI_MCA_, not by a file */
    const char *alg = "coll_tuned_bcast_algorithm";
    char *mca_env[] = {"OMPI_MCA_coll_tuned_bcast_algorithm=5", NULL};
    CT_CHECK_STR(t, ct_rank(mca_env, "mca-params.conf", alg, "6", bc, &why), "5");
    CT_CHECK(t, why != NULL && strstr(why, "mca_base_var.c") != NULL);
    char mfile[128];
    ct_put(tmp, "site-mca.conf", "coll_tuned_bcast_algorithm = 5\n", mfile, sizeof mfile);
    ct_site_files_t mf = {.mca_files = mfile, .mca_override = ""};
    CT_CHECK(t, ct_read(&s, NULL, &mf, err, sizeof err) == CT_OK);
    CT_CHECK(t, ct_site_outranks(&s, "mca-params.conf", alg, "6", bc, NULL) == NULL);
    /* 4.1's rules file beats a forced algorithm wherever it comes from */
    CT_CHECK(t, ct_site_outranks(&s, "coll-tuned-rules.conf", alg, "6", bc, NULL) == NULL);
    /* 5.x / main: the forced algorithm comes first, from a file too */
    CT_CHECK(t, ct_site_outranks(&s, "coll-tuned-rules.json", alg, "6", bc, NULL) != NULL);
    ct_site_free(&s);
    CT_CHECK(t, ct_rank(mca_env, "coll-tuned-rules.conf", alg, "6", bc, NULL) == NULL);
    CT_CHECK(t, ct_rank(mca_env, "coll-tuned-rules.json", alg, "6", bc, NULL) != NULL);
    CT_CHECK(t, ct_rank(mca_env, "coll-tuned-rules.json", alg, "6", ar, NULL) == NULL);
    /* the rules filename (or rules off) from the environment */
    char *fname[] = {"OMPI_MCA_coll_tuned_dynamic_rules_filename=/site/rules", NULL};
    CT_CHECK_STR(t, ct_rank(fname, "coll-tuned-rules.conf", alg, "6", bc, &why), "/site/rules");
    CT_CHECK(t, why != NULL && strstr(why, "coll_tuned_component.c") != NULL);
    char *off[] = {"OMPI_MCA_coll_tuned_use_dynamic_rules=false", NULL};
    char *on[] = {"OMPI_MCA_coll_tuned_use_dynamic_rules=1", NULL};
    CT_CHECK(t, ct_rank(off, "coll-tuned-rules.conf", alg, "6", bc, NULL) != NULL);
    CT_CHECK(t, ct_rank(on, "coll-tuned-rules.conf", alg, "6", bc, NULL) == NULL);
    /* rules off also silences a forced algorithm in mca-params.conf */
    CT_CHECK(t, ct_rank(off, "mca-params.conf", alg, "6", bc, NULL) != NULL);
    CT_CHECK(t, ct_rank(off, "mca-params.conf", "btl", "self,tcp", -1, NULL) == NULL);
    /* a file unknown to the table: nothing outranks it */
    CT_CHECK(t, ct_rank(mca_env, "report.json", alg, "6", bc, NULL) == NULL);
}

/* Every row of the library table (ct_library_files.c) has a precedence
 * rule: a new row without one would never be found outranked. */
static void test_every_row_ranked(ct_test_tally_t *t)
{
    const ct_library_file_t *row;
    size_t n = 0;
    for (size_t i = 0; (row = ct_library_file_at(i)) != NULL; i++, n++)
        if (!ct_site_rank_has(row->name)) {
            fprintf(stderr, "row %s has no rule in site_rank.c\n", row->name);
            CT_CHECK(t, 0);
        }
    CT_CHECK(t, n >= 10 && !ct_site_rank_has("no-such-file.conf") && !ct_site_rank_has(NULL));
}

int main(void)
{
    ct_test_tally_t t = {0};
    ct_tmp_t tmp;
    snprintf(tmp.dir, sizeof tmp.dir, "/tmp/ct_site_XXXXXX");
    if (mkdtemp(tmp.dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    test_read_order(&t, &tmp);
    test_override_and_ucx(&t, &tmp);
    test_parsing(&t, &tmp);
    test_names(&t, &tmp);
    test_outranks(&t, &tmp);
    test_every_row_ranked(&t);
    char *rm[] = {"rm", "-rf", tmp.dir, NULL};
    pid_t pid = fork();
    if (pid == 0) {
        execvp("rm", rm);
        _exit(127);
    }
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return CT_DONE(&t);
}
