/* SPDX-License-Identifier: BSD-3-Clause */
/* How many app contexts a turns launch of the A/B may hold
 * (ct_tune_turns_fit): as many as the host with the least room fits
 * without oversubscribing it (cores / ranks per node), no bound from a
 * host one launch already oversubscribes, none at all (0) where the
 * search's JSON cannot say; and whether the user pinned yield and
 * binding (ct_tune_turns_pinned). */
#define _XOPEN_SOURCE 700

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_test.h"
#include "space.h"
#include "tune_ab_turns.h"

/* A results JSON with one host per (ranks_per_node, cores) pair. */
static void hosts_json(const char *path, const long (*h)[2], size_t n)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return;
    fputs("{\"hosts\": [", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f,
                "%s{\"hostname\": \"h%zu\", \"ranks_per_node\": %ld, \"topology\": {\"cores\": "
                "%ld, \"pus\": %ld}}",
                i ? ", " : "", i, h[i][0], h[i][1], 2 * h[i][1]);
    fputs("]}\n", f);
    fclose(f);
}

static size_t fit_of(const char *path, const long (*h)[2], size_t n, char *why, size_t len)
{
    hosts_json(path, h, n);
    why[0] = '\0';
    return ct_tune_turns_fit(path, why, len);
}

static void test_fit(ct_test_tally_t *t, const char *dir)
{
    char path[4096], why[512];
    snprintf(path, sizeof path, "%s/results.json", dir);
    const long fits[][2] = {{2, 8}, {1, 8}};
    CT_CHECK(t, fit_of(path, fits, 2, why, sizeof why) == 4 && why[0] == '\0'); /* least room */
    const long exact[][2] = {{8, 8}};
    CT_CHECK(t, fit_of(path, exact, 1, why, sizeof why) == 1);
    CT_CHECK(t, strstr(why, "no room for a second side") != NULL);
    const long three[][2] = {{3, 8}};
    CT_CHECK(t, fit_of(path, three, 1, why, sizeof why) == 2 && why[0] == '\0');
    /* np 4 on 2 cores: oversubscribed by one launch already. */
    const long over[][2] = {{4, 2}};
    CT_CHECK(t, fit_of(path, over, 1, why, sizeof why) == SIZE_MAX);
    const long mixed[][2] = {{4, 2}, {2, 6}};
    CT_CHECK(t, fit_of(path, mixed, 2, why, sizeof why) == 3);
    const long one[][2] = {{1, 1}};
    CT_CHECK(t, fit_of(path, one, 1, why, sizeof why) == 1);
    const long nocores[][2] = {{2, 0}};
    CT_CHECK(t, fit_of(path, nocores, 1, why, sizeof why) == 0 && why[0] != '\0');
    const long bad[][2] = {{0, 8}};
    CT_CHECK(t, fit_of(path, bad, 1, why, sizeof why) == 0 && why[0] != '\0');
    CT_CHECK(t, fit_of(path, bad, 0, why, sizeof why) == 0 && why[0] != '\0');
    why[0] = '\0';
    CT_CHECK(t, ct_tune_turns_fit("", why, sizeof why) == 0 && why[0] != '\0');
    snprintf(path, sizeof path, "%s/missing.json", dir);
    CT_CHECK(t, ct_tune_turns_fit(path, why, sizeof why) == 0);
}

static void test_pinned(ct_test_tally_t *t)
{
    char err[256];
    ct_launch_opts_t lo;
    memset(&lo, 0, sizeof lo);
    ct_tune_runner_t x;
    memset(&x, 0, sizeof x);
    x.lo = &lo;
    CT_CHECK(t, ct_launcher_init(&x.launcher, "mpirun --bind-to none", "unused", err, sizeof err) ==
                    CT_OK);
    ct_launch_var_t mca[1] = {{"mpi_yield_when_idle", "1"}},
                    env[1] = {{"OMPI_MCA_mpi_yield_when_idle", "0"}};
    CT_CHECK(t, !ct_tune_turns_pinned(&x)); /* binding, no yield */
    lo.mca = mca;
    lo.nmca = 1;
    CT_CHECK(t, ct_tune_turns_pinned(&x));
    lo.nmca = 0;
    lo.env = env;
    lo.nenv = 1;
    CT_CHECK(t, ct_tune_turns_pinned(&x));
    ct_launcher_free(&x.launcher);
    CT_CHECK(t, ct_launcher_init(&x.launcher, "mpirun", "unused", err, sizeof err) == CT_OK);
    CT_CHECK(t, !ct_tune_turns_pinned(&x)); /* yield, no binding */
    ct_launcher_free(&x.launcher);
}

/* Turns need a launcher that starts contexts with the scale from --np,
 * and no candidate that changes the transport (a global choice). */
static void test_ok(ct_test_tally_t *t)
{
    char err[256], why[512];
    ct_launch_opts_t lo;
    memset(&lo, 0, sizeof lo);
    ct_tune_runner_t x;
    memset(&x, 0, sizeof x);
    x.lo = &lo;
    CT_CHECK(t, ct_launcher_init(&x.launcher, "mpirun", "unused", err, sizeof err) == CT_OK);
    x.launcher.np = 4;
    ct_tune_choice_t c[2];
    memset(c, 0, sizeof c);
    c[0].name = "coll_tuned_bcast_algorithm";
    c[0].scope = 7;
    c[0].significant = 1;
    c[1].name = "pml";
    c[1].scope = CT_SCOPE_GLOBAL;
    ct_tune_result_t r;
    memset(&r, 0, sizeof r);
    r.choices = c;
    r.nchoices = 2;
    CT_CHECK(t, ct_tune_ab_turns_ok(&x, &r, why, sizeof why)); /* pml: no candidate */
    c[1].significant = 1;
    c[1].unwritable = "no file";
    CT_CHECK(t, ct_tune_ab_turns_ok(&x, &r, why, sizeof why)); /* pml: not written */
    c[1].unwritable = NULL;
    CT_CHECK(t, !ct_tune_ab_turns_ok(&x, &r, why, sizeof why) && strstr(why, "pml") != NULL);
    c[1].significant = 0;
    x.launcher.np = 0;
    CT_CHECK(t, !ct_tune_ab_turns_ok(&x, &r, why, sizeof why) && strstr(why, "--np") != NULL);
    ct_launcher_free(&x.launcher);
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    char dir[] = "/tmp/test_tune_turns.XXXXXX";
    if (mkdtemp(dir) == NULL)
        return 99;
    test_fit(&t, dir);
    test_pinned(&t);
    test_ok(&t);
    char path[4096];
    snprintf(path, sizeof path, "%s/results.json", dir);
    unlink(path);
    rmdir(dir);
    return CT_DONE(&t);
}
