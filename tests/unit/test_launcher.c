/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_launcher - the argv colltune builds for a collbench launch.
 *
 * Values that a shell would split, expand or execute (spaces, quotes, ';',
 * $(...), backticks, a newline, '*') must arrive as single, unchanged argv
 * elements in every launcher form; srun must refuse what --export cannot
 * carry; the --launcher splitter must follow its documented rules.
 * mpiexec.hydra, added as one file and one table entry, gets the same
 * checks: -genv pairs, -n, -f, and --mca refused.
 */
#include <stdlib.h>
#include <string.h>

#include "argv.h"
#include "ct_test.h"
#include "launcher.h"

/* The launchers are table entries (launcher_table.c), found by name. */
#define CT_LAUNCHER_MPIRUN ct_launcher_find("mpirun")
#define CT_LAUNCHER_SRUN ct_launcher_find("srun")
#define CT_LAUNCHER_HYDRA ct_launcher_find("mpiexec.hydra")
#define CT_LAUNCHER_PREFIX ct_launcher_find("prefix")

static const char *const hostile[] = {
    "a b",
    "it's",
    "say \"hi\"",
    "x;touch /tmp/ct_pwned",
    "$(touch /tmp/ct_pwned)",
    "`id`",
    "line1\nline2",
    "*",
    "",
    "tab\there",
    "back\\slash",
    "a=b=c",
};
#define NHOSTILE (sizeof hostile / sizeof hostile[0])

/* The index of the first element equal to s at or after from, or -1. */
static long find(const ct_argv_t *a, size_t from, const char *s)
{
    for (size_t i = from; i < a->n; i++)
        if (strcmp(a->v[i], s) == 0)
            return (long)i;
    return -1;
}

static void check_argv(ct_test_tally_t *t, const ct_argv_t *a, const char *const *want, size_t n)
{
    CT_CHECK(t, a->n == n);
    for (size_t i = 0; i < n && i < a->n; i++)
        CT_CHECK_STR(t, a->v[i], want[i]);
    CT_CHECK(t, a->v != NULL && a->v[a->n] == NULL);
}

static void test_split(ct_test_tally_t *t)
{
    char err[256];
    ct_argv_t a = CT_ARGV_INIT;
    CT_CHECK(t, ct_argv_split("srun -N 64 --ntasks-per-node 8", &a, err, sizeof err) == CT_OK);
    const char *w1[] = {"srun", "-N", "64", "--ntasks-per-node", "8"};
    check_argv(t, &a, w1, 5);
    ct_argv_free(&a);

    CT_CHECK(t, ct_argv_split("  mpirun\t-np 4\n --oversubscribe  ", &a, err, sizeof err) == CT_OK);
    const char *w2[] = {"mpirun", "-np", "4", "--oversubscribe"};
    check_argv(t, &a, w2, 4);
    ct_argv_free(&a);

    /* Quotes group, join, and expand nothing. */
    CT_CHECK(t, ct_argv_split("a 'b c' \"d \\\"e\\\" \\\\ \\n\" f\\ g h'i j'k '' $(x) `y` * ~ ;",
                              &a, err, sizeof err) == CT_OK);
    const char *w3[] = {"a", "b c", "d \"e\" \\ \\n", "f g", "hi jk", "", "$(x)", "`y`", "*",
                        "~", ";"};
    check_argv(t, &a, w3, sizeof w3 / sizeof w3[0]);
    ct_argv_free(&a);

    CT_CHECK(t, ct_argv_split("   ", &a, err, sizeof err) == CT_OK && a.n == 0);

    /* Errors leave out untouched. */
    CT_CHECK(t, ct_argv_push(&a, "keep") == CT_OK);
    CT_CHECK(t, ct_argv_split("srun 'open", &a, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, strstr(err, "unterminated '") != NULL);
    CT_CHECK(t, ct_argv_split("srun \"open", &a, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, strstr(err, "unterminated \"") != NULL);
    CT_CHECK(t, ct_argv_split("srun x\\", &a, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, a.n == 1 && strcmp(a.v[0], "keep") == 0 && a.v[1] == NULL);
    ct_argv_free(&a);

    /* push3 never interprets a byte. */
    CT_CHECK(t, ct_argv_push3(&a, "%s%n", "=", "%d\n") == CT_OK);
    CT_CHECK_STR(t, a.v[0], "%s%n=%d\n");
    ct_argv_free(&a);
}

static void test_detect_and_vars(ct_test_tally_t *t)
{
    CT_CHECK(t, ct_launcher_detect("mpirun") == CT_LAUNCHER_MPIRUN);
    CT_CHECK(t, ct_launcher_detect("/usr/bin/mpirun") == CT_LAUNCHER_MPIRUN);
    CT_CHECK(t, ct_launcher_detect("/opt/ompi/bin/mpiexec") == CT_LAUNCHER_MPIRUN);
    CT_CHECK(t, ct_launcher_detect("srun") == CT_LAUNCHER_SRUN);
    CT_CHECK(t, ct_launcher_detect("/usr/local/slurm/bin/srun") == CT_LAUNCHER_SRUN);
    CT_CHECK(t, ct_launcher_detect("mpirun-wrapper") == CT_LAUNCHER_PREFIX);
    CT_CHECK(t, ct_launcher_detect("/usr/bin/env") == CT_LAUNCHER_PREFIX);
    CT_CHECK(t, ct_launcher_detect("/srun/bin/numactl") == CT_LAUNCHER_PREFIX);

    char err[256];
    ct_launch_var_t v;
    CT_CHECK(t, ct_launch_var_parse("NCCL_ALGO=a=b", 0, &v, err, sizeof err) == CT_OK);
    CT_CHECK_STR(t, v.name, "NCCL_ALGO");
    CT_CHECK_STR(t, v.value, "a=b");
    CT_CHECK(t, ct_launch_var_parse("EMPTY=", 0, &v, err, sizeof err) == CT_OK);
    CT_CHECK_STR(t, v.value, "");
    CT_CHECK(t, ct_launch_var_parse("NOEQUALS", 0, &v, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, strstr(err, "NOEQUALS") != NULL);
    CT_CHECK(t, ct_launch_var_parse("=x", 0, &v, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, ct_launch_var_parse("A B=x", 0, &v, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, ct_launch_var_parse("$(x)=1", 0, &v, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, ct_launch_var_parse("1X=1", 0, &v, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, ct_launch_var_parse("1X=1", 1, &v, err, sizeof err) == CT_OK);
    CT_CHECK(t, ct_launch_var_parse("coll-tuned=1", 1, &v, err, sizeof err) == CT_ERR_USAGE);
}

/* One variable per hostile value, V0..Vn, and one MCA parameter each. */
static void hostile_vars(ct_launch_var_t *env, ct_launch_var_t *mca)
{
    for (size_t i = 0; i < NHOSTILE; i++) {
        snprintf(env[i].name, sizeof env[i].name, "V%zu", i);
        env[i].value = hostile[i];
        snprintf(mca[i].name, sizeof mca[i].name, "p%zu", i);
        mca[i].value = hostile[i];
    }
}

static char *base_env[] = {"PATH=/usr/bin:/bin", "V0=old", "OMPI_MCA_p1=old", "HOME=/root", NULL};

static void test_mpirun(ct_test_tally_t *t)
{
    char err[256];
    ct_launcher_t l;
    CT_CHECK(t, ct_launcher_init(&l, "mpirun --oversubscribe", "unused", err, sizeof err) == CT_OK);
    CT_CHECK(t, l.kind == CT_LAUNCHER_MPIRUN);
    l.np = 4;
    l.hostfile = "my hosts";
    l.as_root = 1;
    ct_argv_push(&l.extra, "--bind-to none");
    ct_argv_push(&l.extra, "$(reboot)");

    ct_launch_var_t env[NHOSTILE], mca[NHOSTILE];
    hostile_vars(env, mca);
    char *args[] = {"-C", "allreduce", "--run-id", "a;b", NULL};
    ct_launch_t launch;
    CT_CHECK(t, ct_launcher_build(&l, base_env, env, NHOSTILE, mca, NHOSTILE, "/x/collbench", args,
                                  4, &launch, err, sizeof err) == CT_OK);
    const ct_argv_t *a = &launch.argv;
    const char *head[] = {"mpirun",     "--oversubscribe", "--allow-run-as-root", "--np", "4",
                          "--hostfile", "my hosts"};
    for (size_t i = 0; i < 7; i++)
        CT_CHECK_STR(t, a->n > i ? a->v[i] : NULL, head[i]);
    /* Each value: "-x" then "Vi=value", exactly; "--mca" "pi" "value". */
    for (size_t i = 0; i < NHOSTILE; i++) {
        char want[256];
        snprintf(want, sizeof want, "V%zu=%s", i, hostile[i]);
        long at = find(a, 0, want);
        CT_CHECK(t, at > 0 && strcmp(a->v[at - 1], "-x") == 0);
        snprintf(want, sizeof want, "p%zu", i);
        at = find(a, 0, want);
        CT_CHECK(t, at > 0 && strcmp(a->v[at - 1], "--mca") == 0 && (size_t)at + 1 < a->n &&
                        strcmp(a->v[at + 1], hostile[i]) == 0);
    }
    /* Then the extra arguments, collbench and its arguments, in order. */
    const char *tail[] = {"--bind-to none", "$(reboot)", "/x/collbench", "-C",
                          "allreduce",      "--run-id",  "a;b"};
    CT_CHECK(t, a->n == 7 + 2 * NHOSTILE + 3 * NHOSTILE + 7);
    for (size_t i = 0; i < 7 && a->n >= 7; i++)
        CT_CHECK_STR(t, a->v[a->n - 7 + i], tail[i]);
    CT_CHECK(t, a->v[a->n] == NULL);
    /* mpirun carries the settings; its own environment is left as it was. */
    CT_CHECK(t, launch.envp.n == 4);
    for (size_t i = 0; i < 4 && i < launch.envp.n; i++)
        CT_CHECK_STR(t, launch.envp.v[i], base_env[i]);
    ct_launch_free(&launch);
    ct_launcher_free(&l);

    /* The default word; --allow-run-as-root once even when given. */
    CT_CHECK(t, ct_launcher_init(&l, NULL, "/usr/bin/mpirun", err, sizeof err) == CT_OK);
    CT_CHECK(t, l.kind == CT_LAUNCHER_MPIRUN);
    l.as_root = 1;
    ct_argv_push(&l.extra, "--allow-run-as-root");
    CT_CHECK(t, ct_launcher_build(&l, base_env, NULL, 0, NULL, 0, "cb", NULL, 0, &launch, err,
                                  sizeof err) == CT_OK);
    const char *w[] = {"/usr/bin/mpirun", "--allow-run-as-root", "cb"};
    check_argv(t, &launch.argv, w, 3);
    ct_launch_free(&launch);
    ct_launcher_free(&l);
}

static void test_srun(ct_test_tally_t *t)
{
    char err[256];
    ct_launcher_t l;
    CT_CHECK(t, ct_launcher_init(&l, "srun -N 64 --ntasks-per-node 8", NULL, err, sizeof err) ==
                    CT_OK);
    CT_CHECK(t, l.kind == CT_LAUNCHER_SRUN);
    ct_launch_var_t env[2], mca[1];
    CT_CHECK(t, ct_launch_var_parse("NCCL_ALGO=allreduce:tree;broadcast:ring", 0, &env[0], err,
                                    sizeof err) == CT_OK);
    CT_CHECK(t, ct_launch_var_parse("V0=a b $(x) `y`\n*", 0, &env[1], err, sizeof err) == CT_OK);
    CT_CHECK(t, ct_launch_var_parse("coll_tuned_use_dynamic_rules=1", 1, &mca[0], err,
                                    sizeof err) == CT_OK);
    char *args[] = {"-b", "8", NULL};
    ct_launch_t launch;
    CT_CHECK(t, ct_launcher_build(&l, base_env, env, 2, mca, 1, "/x/collbench", args, 2, &launch,
                                  err, sizeof err) == CT_OK);
    const char *w[] = {"srun",
                       "-N",
                       "64",
                       "--ntasks-per-node",
                       "8",
                       "--mpi=pmix",
                       "--export=ALL,NCCL_ALGO=allreduce:tree;broadcast:ring,"
                       "V0=a b $(x) `y`\n*,OMPI_MCA_coll_tuned_use_dynamic_rules=1",
                       "/x/collbench",
                       "-b",
                       "8"};
    check_argv(t, &launch.argv, w, sizeof w / sizeof w[0]);
    /* srun's own environment carries them too (it wins over --export),
     * replacing the old V0. */
    const char *e[] = {"PATH=/usr/bin:/bin", "OMPI_MCA_p1=old",
                       "HOME=/root",         "NCCL_ALGO=allreduce:tree;broadcast:ring",
                       "V0=a b $(x) `y`\n*", "OMPI_MCA_coll_tuned_use_dynamic_rules=1"};
    check_argv(t, &launch.envp, e, sizeof e / sizeof e[0]);
    ct_launch_free(&launch);

    /* --np becomes --ntasks; the user's --mpi wins over pmix. */
    ct_launcher_free(&l);
    CT_CHECK(t, ct_launcher_init(&l, "srun --mpi=pmi2", NULL, err, sizeof err) == CT_OK);
    l.np = 16;
    CT_CHECK(t, ct_launcher_build(&l, NULL, NULL, 0, NULL, 0, "cb", NULL, 0, &launch, err,
                                  sizeof err) == CT_OK);
    const char *w2[] = {"srun", "--mpi=pmi2", "--ntasks=16", "cb"};
    check_argv(t, &launch.argv, w2, 4);
    ct_launch_free(&launch);

    /* A comma cannot travel in --export: such a value is left out of the
     * list and travels in srun's own environment (exported by ALL). */
    ct_launch_var_t comma[2];
    CT_CHECK(t, ct_launch_var_parse("UCX_TLS=rc,sm", 0, &comma[0], err, sizeof err) == CT_OK);
    CT_CHECK(t, ct_launch_var_parse("btl=self,vader", 1, &comma[1], err, sizeof err) == CT_OK);
    ct_launch_var_t plain;
    CT_CHECK(t, ct_launch_var_parse("A=1", 0, &plain, err, sizeof err) == CT_OK);
    ct_launch_var_t envs[2] = {comma[0], plain};
    CT_CHECK(t, ct_launcher_build(&l, base_env, envs, 2, &comma[1], 1, "cb", NULL, 0, &launch, err,
                                  sizeof err) == CT_OK);
    const char *w3[] = {"srun", "--mpi=pmi2", "--ntasks=16", "--export=ALL,A=1", "cb"};
    check_argv(t, &launch.argv, w3, 5);
    int has_tls = 0, has_btl = 0;
    for (size_t i = 0; i < launch.envp.n; i++) {
        has_tls |= strcmp(launch.envp.v[i], "UCX_TLS=rc,sm") == 0;
        has_btl |= strcmp(launch.envp.v[i], "OMPI_MCA_btl=self,vader") == 0;
    }
    CT_CHECK(t, has_tls && has_btl);
    ct_launch_free(&launch);
    l.hostfile = "hosts";
    CT_CHECK(t, ct_launcher_build(&l, base_env, NULL, 0, NULL, 0, "cb", NULL, 0, &launch, err,
                                  sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, strstr(err, "--hostfile") != NULL);
    ct_launcher_free(&l);
}

static void test_prefix(ct_test_tally_t *t)
{
    char err[256];
    ct_launcher_t l;
    CT_CHECK(t, ct_launcher_init(&l, "/usr/bin/time -f '%e s'", NULL, err, sizeof err) == CT_OK);
    CT_CHECK(t, l.kind == CT_LAUNCHER_PREFIX);
    ct_argv_push(&l.extra, "--");
    ct_launch_var_t env[NHOSTILE], mca[NHOSTILE];
    hostile_vars(env, mca);
    char *args[] = {"--quiet", NULL};
    ct_launch_t launch;
    CT_CHECK(t, ct_launcher_build(&l, base_env, env, NHOSTILE, mca, NHOSTILE, "cb", args, 1,
                                  &launch, err, sizeof err) == CT_OK);
    const char *w[] = {"/usr/bin/time", "-f", "%e s", "--", "cb", "--quiet"};
    check_argv(t, &launch.argv, w, 6);
    /* The settings are in the child's environment, unchanged, and replace
     * the entries of the same name. */
    CT_CHECK(t, launch.envp.n == 2 + 2 * NHOSTILE);
    CT_CHECK(t, find(&launch.envp, 0, "V0=old") < 0);
    CT_CHECK(t, find(&launch.envp, 0, "OMPI_MCA_p1=old") < 0);
    CT_CHECK(t, find(&launch.envp, 0, "HOME=/root") >= 0);
    for (size_t i = 0; i < NHOSTILE; i++) {
        char want[256];
        snprintf(want, sizeof want, "V%zu=%s", i, hostile[i]);
        CT_CHECK(t, find(&launch.envp, 0, want) >= 0);
        snprintf(want, sizeof want, "OMPI_MCA_p%zu=%s", i, hostile[i]);
        CT_CHECK(t, find(&launch.envp, 0, want) >= 0);
    }
    ct_launch_free(&launch);

    /* A prefix cannot be told the scale. */
    l.np = 2;
    CT_CHECK(t, ct_launcher_build(&l, base_env, NULL, 0, NULL, 0, "cb", NULL, 0, &launch, err,
                                  sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, strstr(err, "--np") != NULL && strstr(err, "/usr/bin/time") != NULL);
    ct_launcher_free(&l);

    CT_CHECK(t, ct_launcher_init(&l, "  ", NULL, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, ct_launcher_init(&l, "srun 'x", NULL, err, sizeof err) == CT_ERR_USAGE);
}

/* ranks_of LINE [EXTRA] NP SLURM_NTASKS: ct_launcher_ranks of that launcher. */
static long ranks_of(const char *line, const char *extra, long np, const char *slurm_ntasks)
{
    char err[256];
    ct_launcher_t l;
    if (ct_launcher_init(&l, line, NULL, err, sizeof err) != CT_OK)
        return -1;
    l.np = np;
    if (extra != NULL)
        ct_argv_push(&l.extra, extra);
    long n = ct_launcher_ranks(&l, slurm_ntasks);
    ct_launcher_free(&l);
    return n;
}

/* The rank count a launcher line names (a tune needs it). */
static void test_ranks(ct_test_tally_t *t)
{
    CT_CHECK(t, ranks_of("mpirun -np 4 --oversubscribe", NULL, 0, NULL) == 4);
    CT_CHECK(t, ranks_of("mpirun --np=3", NULL, 0, NULL) == 3);
    CT_CHECK(t, ranks_of("mpiexec -n 6", NULL, 0, NULL) == 6);
    CT_CHECK(t, ranks_of("mpirun", NULL, 5, NULL) == 5);
    CT_CHECK(t, ranks_of("mpirun --oversubscribe", NULL, 0, "8") == 0);
    CT_CHECK(t, ranks_of("srun -N 1 --ntasks-per-node 2", NULL, 0, NULL) == 2);
    CT_CHECK(t, ranks_of("srun -N 4 --ntasks-per-node=8 -t 5", NULL, 0, NULL) == 32);
    CT_CHECK(t, ranks_of("srun --nodes=3", NULL, 0, NULL) == 3);
    CT_CHECK(t, ranks_of("srun --ntasks-per-node 2", NULL, 0, NULL) == 2);
    CT_CHECK(t, ranks_of("srun -n7 -N 2", NULL, 0, NULL) == 7);
    CT_CHECK(t, ranks_of("srun --ntasks=16 --mpi=pmix", NULL, 0, NULL) == 16);
    CT_CHECK(t, ranks_of("srun -t 5", "--ntasks=3", 0, NULL) == 3);
    CT_CHECK(t, ranks_of("srun -t 5", NULL, 2, "64") == 2);
    /* in an allocation, srun alone starts all its tasks */
    CT_CHECK(t, ranks_of("srun --mpi=pmix", NULL, 0, "64") == 64);
    CT_CHECK(t, ranks_of("srun --mpi=pmix", NULL, 0, NULL) == 0);
    CT_CHECK(t, ranks_of("srun -N 2-4 --ntasks-per-node 2", NULL, 0, NULL) == 0);
    CT_CHECK(t, ranks_of("srun -n many", NULL, 0, NULL) == 0);
    CT_CHECK(t, ranks_of("env -n 3", NULL, 0, NULL) == 0);
}

/* mpiexec.hydra: every hostile value one -genv word, the scale as -n and
 * -f, the environment left as it was, MCA refused, and its rank count. */
static void test_hydra(ct_test_tally_t *t)
{
    char err[256];
    ct_launcher_t l;
    CT_CHECK(t, CT_LAUNCHER_HYDRA != NULL);
    CT_CHECK(t, ct_launcher_detect("/opt/intel/mpi/bin/mpiexec.hydra") == CT_LAUNCHER_HYDRA);
    CT_CHECK(t, ct_launcher_detect("mpiexec.mpich") == CT_LAUNCHER_HYDRA);
    CT_CHECK(t, ct_launcher_init(&l, "mpiexec.hydra -ppn 1", NULL, err, sizeof err) == CT_OK);
    CT_CHECK(t, l.kind == CT_LAUNCHER_HYDRA);
    CT_CHECK_STR(t, l.kind->name, "mpiexec.hydra");
    l.np = 4;
    l.hostfile = "hosts";
    l.as_root = 1; /* Open MPI's flag: not Hydra's */
    ct_launch_var_t env[NHOSTILE], mca[NHOSTILE];
    hostile_vars(env, mca);
    char *args[] = {"-C", "a b"};
    ct_launch_t launch;
    CT_CHECK(t, ct_launcher_build(&l, base_env, env, NHOSTILE, NULL, 0, "/x/collbench", args, 2,
                                  &launch, err, sizeof err) == CT_OK);
    const char *head[] = {"mpiexec.hydra", "-ppn", "1", "-n", "4", "-f", "hosts"};
    for (size_t i = 0; i < 7; i++)
        CT_CHECK_STR(t, launch.argv.v[i], head[i]);
    for (size_t i = 0; i < NHOSTILE; i++) {
        size_t at = 7 + 3 * i;
        CT_CHECK(t, at + 2 < launch.argv.n);
        if (at + 2 >= launch.argv.n)
            break;
        CT_CHECK_STR(t, launch.argv.v[at], "-genv");
        CT_CHECK_STR(t, launch.argv.v[at + 1], env[i].name);
        CT_CHECK_STR(t, launch.argv.v[at + 2], hostile[i]);
    }
    CT_CHECK(t, launch.argv.n == 7 + 3 * NHOSTILE + 3);
    CT_CHECK(t, find(&launch.argv, 0, "--allow-run-as-root") < 0);
    CT_CHECK_STR(t, launch.argv.v[launch.argv.n - 3], "/x/collbench");
    CT_CHECK_STR(t, launch.argv.v[launch.argv.n - 1], "a b");
    /* the settings travel in -genv only: the environment is unchanged */
    CT_CHECK(t, find(&launch.envp, 0, "V0=old") >= 0);
    CT_CHECK(t, launch.envp.n == 4);
    ct_launch_free(&launch);

    /* No MCA: refused, naming the parameter. */
    CT_CHECK(t, ct_launcher_build(&l, base_env, NULL, 0, mca, 1, "cb", NULL, 0, &launch, err,
                                  sizeof err) == CT_ERR_USAGE);
    CT_CHECK(t, strstr(err, "--mca p0") != NULL && strstr(err, "mpiexec.hydra") != NULL);
    ct_launcher_free(&l);

    CT_CHECK(t, ranks_of("mpiexec.hydra -n 6", NULL, 0, NULL) == 6);
    CT_CHECK(t, ranks_of("mpiexec.hydra -np 3 -ppn 1", NULL, 0, NULL) == 3);
    CT_CHECK(t, ranks_of("mpiexec.hydra", NULL, 5, "8") == 5);
    CT_CHECK(t, ranks_of("mpiexec.hydra -ppn 2", NULL, 0, "8") == 0);

    /* The launchers that can be told a scale, for --scales' refusal. */
    char scalers[128];
    ct_launcher_scalers(scalers, sizeof scalers);
    CT_CHECK_STR(t, scalers, "mpirun, srun or mpiexec.hydra");
}

/* Several app contexts in one launch (collbench's turns): the global
 * words once, then per context its --np, --hostfile and every setting as
 * -x (MCA as OMPI_MCA_), hostile values kept as one word; refused where a
 * launcher word would reach only the first context, or by srun. */
static void test_apps(ct_test_tally_t *t)
{
    char err[256];
    ct_launcher_t l;
    CT_CHECK(t, ct_launcher_init(&l, "mpirun --oversubscribe", "unused", err, sizeof err) == CT_OK);
    CT_CHECK(t, !ct_launcher_apps_ok(&l, err, sizeof err) && strstr(err, "--np") != NULL);
    l.np = 2;
    l.hostfile = "h f";
    l.as_root = 1;
    ct_argv_push(&l.extra, "--bind-to");
    ct_argv_push(&l.extra, "none");
    CT_CHECK(t, ct_launcher_apps_ok(&l, err, sizeof err));
    ct_launch_var_t env[1] = {{"A", "x y;$(z)"}}, mca[1] = {{"coll_tuned_use_dynamic_rules", "1"}};
    char *a0[] = {"--csv", "d.csv"}, *a1[] = {"--csv", "t.csv"};
    ct_launch_app_t apps[2] = {{NULL, 0, NULL, 0, "/x/cb", a0, 2},
                               {env, 1, mca, 1, "/x/cb", a1, 2}};
    ct_launch_t launch;
    CT_CHECK(t, ct_launcher_build_apps(&l, base_env, apps, 2, &launch, err, sizeof err) == CT_OK);
    const char *w[] = {"mpirun",
                       "--oversubscribe",
                       "--bind-to",
                       "none",
                       "--allow-run-as-root",
                       "--np",
                       "2",
                       "--hostfile",
                       "h f",
                       "/x/cb",
                       "--csv",
                       "d.csv",
                       ":",
                       "--np",
                       "2",
                       "--hostfile",
                       "h f",
                       "-x",
                       "A=x y;$(z)",
                       "-x",
                       "OMPI_MCA_coll_tuned_use_dynamic_rules=1",
                       "/x/cb",
                       "--csv",
                       "t.csv"};
    check_argv(t, &launch.argv, w, sizeof w / sizeof w[0]);
    CT_CHECK(t, launch.envp.n == 4);
    ct_launch_free(&launch);

    /* An MCA setting every context gives alike is the launch's, once, as
     * --mca before the first context (mpirun itself reads plm_rsh_agent:
     * as -x it would never see it); one that differs stays each context's
     * -x, and one the first lacks too. */
    ct_launch_var_t m0[2] = {{"plm_rsh_agent", "ag ent"}, {"coll_tuned_bcast_algorithm", "0"}},
                    m1[3] = {{"coll_tuned_bcast_algorithm", "6"},
                             {"plm_rsh_agent", "ag ent"},
                             {"btl", "self"}};
    ct_launch_app_t two[2] = {{NULL, 0, m0, 2, "/x/cb", a0, 2}, {NULL, 0, m1, 3, "/x/cb", a1, 2}};
    CT_CHECK(t, ct_launcher_build_apps(&l, base_env, two, 2, &launch, err, sizeof err) == CT_OK);
    const char *ws[] = {"mpirun",
                        "--oversubscribe",
                        "--bind-to",
                        "none",
                        "--allow-run-as-root",
                        "--np",
                        "2",
                        "--hostfile",
                        "h f",
                        "--mca",
                        "plm_rsh_agent",
                        "ag ent",
                        "-x",
                        "OMPI_MCA_coll_tuned_bcast_algorithm=0",
                        "/x/cb",
                        "--csv",
                        "d.csv",
                        ":",
                        "--np",
                        "2",
                        "--hostfile",
                        "h f",
                        "-x",
                        "OMPI_MCA_coll_tuned_bcast_algorithm=6",
                        "-x",
                        "OMPI_MCA_btl=self",
                        "/x/cb",
                        "--csv",
                        "t.csv"};
    check_argv(t, &launch.argv, ws, sizeof ws / sizeof ws[0]);
    ct_launch_free(&launch);
    /* The shared one after one of the first context's own, and the second
     * context's only: still shared. */
    ct_launch_var_t m2[2] = {{"btl", "self"}, {"plm_rsh_agent", "ag ent"}},
                    m3[1] = {{"plm_rsh_agent", "ag ent"}};
    ct_launch_app_t after[2] = {{NULL, 0, m2, 2, "/x/cb", a0, 2}, {NULL, 0, m3, 1, "/x/cb", a1, 2}};
    CT_CHECK(t, ct_launcher_build_apps(&l, base_env, after, 2, &launch, err, sizeof err) == CT_OK);
    const char *wa[] = {"mpirun",
                        "--oversubscribe",
                        "--bind-to",
                        "none",
                        "--allow-run-as-root",
                        "--np",
                        "2",
                        "--hostfile",
                        "h f",
                        "--mca",
                        "plm_rsh_agent",
                        "ag ent",
                        "-x",
                        "OMPI_MCA_btl=self",
                        "/x/cb",
                        "--csv",
                        "d.csv",
                        ":",
                        "--np",
                        "2",
                        "--hostfile",
                        "h f",
                        "/x/cb",
                        "--csv",
                        "t.csv"};
    check_argv(t, &launch.argv, wa, sizeof wa / sizeof wa[0]);
    ct_launch_free(&launch);
    /* One context: each of its settings is the launch's. */
    CT_CHECK(t, ct_launcher_build_apps(&l, base_env, after, 1, &launch, err, sizeof err) == CT_OK);
    const char *w1c[] = {"mpirun",
                         "--oversubscribe",
                         "--bind-to",
                         "none",
                         "--allow-run-as-root",
                         "--np",
                         "2",
                         "--hostfile",
                         "h f",
                         "--mca",
                         "btl",
                         "self",
                         "--mca",
                         "plm_rsh_agent",
                         "ag ent",
                         "/x/cb",
                         "--csv",
                         "d.csv"};
    check_argv(t, &launch.argv, w1c, sizeof w1c / sizeof w1c[0]);
    ct_launch_free(&launch);
    /* The first context with many settings of its own, the other none
     * (the A/B's tuned side first): every one its -x. */
    enum { NMANY = 12 };
    ct_launch_var_t many[NMANY];
    for (size_t k = 0; k < NMANY; k++) {
        snprintf(many[k].name, sizeof many[k].name, "p%zu", k);
        many[k].value = "1";
    }
    ct_launch_app_t lop[2] = {{NULL, 0, many, NMANY, "/x/cb", a1, 2},
                              {NULL, 0, NULL, 0, "/x/cb", a0, 2}};
    CT_CHECK(t, ct_launcher_build_apps(&l, base_env, lop, 2, &launch, err, sizeof err) == CT_OK);
    size_t nx = 0;
    for (size_t i = 0; i + 1 < launch.argv.n; i++)
        nx += strcmp(launch.argv.v[i], "-x") == 0 &&
              strncmp(launch.argv.v[i + 1], "OMPI_MCA_p", 10) == 0;
    CT_CHECK(t, nx == NMANY && launch.argv.n == 9 + 2 * NMANY + 3 + 1 + 4 + 3);
    CT_CHECK(t, launch.argv.n > 13 && strcmp(launch.argv.v[10], "OMPI_MCA_p0=1") == 0);
    ct_launch_free(&launch);
    ct_launcher_free(&l);

    /* One rank a context, no hostfile, not root: none of their flags;
     * --allow-run-as-root among the words: not twice. */
    const char *plain[] = {"mpirun --allow-run-as-root", "mpirun"};
    for (size_t i = 0; i < 2; i++) {
        CT_CHECK(t, ct_launcher_init(&l, plain[i], "unused", err, sizeof err) == CT_OK);
        l.np = 1;
        l.as_root = (int)(i == 0);
        CT_CHECK(t, ct_launcher_apps_ok(&l, err, sizeof err));
        CT_CHECK(t,
                 ct_launcher_build_apps(&l, base_env, apps, 1, &launch, err, sizeof err) == CT_OK);
        const char *w1[] = {"mpirun", "--allow-run-as-root", "--np", "1", "/x/cb", "--csv",
                            "d.csv"};
        const char *w2[] = {"mpirun", "--np", "1", "/x/cb", "--csv", "d.csv"};
        if (i == 0)
            check_argv(t, &launch.argv, w1, 7);
        else
            check_argv(t, &launch.argv, w2, 6);
        ct_launch_free(&launch);
        ct_launcher_free(&l);
    }

    /* A scale or setting among the launcher's words or --launcher-arg. */
    const char *words[] = {"mpirun -np 4", "mpirun -H a,b", "mpirun -x FOO=1"};
    for (size_t i = 0; i < 3; i++) {
        CT_CHECK(t, ct_launcher_init(&l, words[i], "unused", err, sizeof err) == CT_OK);
        l.np = 4;
        CT_CHECK(t, !ct_launcher_apps_ok(&l, err, sizeof err) &&
                        strstr(err, "first app context") != NULL);
        CT_CHECK(t, ct_launcher_build_apps(&l, base_env, apps, 2, &launch, err, sizeof err) ==
                        CT_ERR_USAGE);
        ct_launcher_free(&l);
    }
    /* ... and in --launcher-arg, after more words of the launcher's own. */
    CT_CHECK(t, ct_launcher_init(&l, "mpirun --bind-to none --oversubscribe", "unused", err,
                                 sizeof err) == CT_OK);
    l.np = 4;
    ct_argv_push(&l.extra, "-x");
    CT_CHECK(t, !ct_launcher_apps_ok(&l, err, sizeof err) &&
                    strstr(err, "own -x would reach the first app context") != NULL);
    ct_launcher_free(&l);
    CT_CHECK(t, ct_launcher_init(&l, "srun -N 2", "unused", err, sizeof err) == CT_OK);
    l.np = 4;
    CT_CHECK(t, !ct_launcher_apps_ok(&l, err, sizeof err) && strstr(err, "srun") != NULL);
    ct_launcher_free(&l);
}

/* Whether the user's collbench arguments name a flag colltune would
 * otherwise give: the flag alone or with "=", never a longer flag or a
 * value that merely contains it. */
static void test_names(ct_test_tally_t *t)
{
    char *args[] = {"-b", "8", "--ci-patience=2", "--size-budget", "0.1", "--sync-x"};
    CT_CHECK(t, ct_argv_names(args, 6, "--ci-patience"));
    CT_CHECK(t, ct_argv_names(args, 6, "--size-budget"));
    CT_CHECK(t, !ct_argv_names(args, 6, "--sync"));
    CT_CHECK(t, !ct_argv_names(args, 6, "--size"));
    CT_CHECK(t, !ct_argv_names(args, 2, "--ci-patience")); /* only the first n */
    CT_CHECK(t, !ct_argv_names(args, 0, "-b"));
    CT_CHECK(t, ct_argv_names(args, 1, "-b"));
    /* As long as the flag, or with "=" where it ends, but another name. */
    char *others[] = {"--jsom", "--csv=x.csv"};
    CT_CHECK(t, !ct_argv_names(others, 2, "--json"));
    CT_CHECK(t, !ct_argv_names(others, 2, "--csx"));
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    test_split(&t);
    test_names(&t);
    test_detect_and_vars(&t);
    test_mpirun(&t);
    test_srun(&t);
    test_prefix(&t);
    test_ranks(&t);
    test_hydra(&t);
    test_apps(&t);
    return CT_DONE(&t);
}
