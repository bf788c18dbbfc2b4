/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_emit_nccl_site.c - the NCCL files against a site that sets
 * NCCL_ALGO (emit_nccl_site.c): the form that wins, or the choice dropped
 * with the setting named.  Results are SYNTHETIC (built by hand);
 * tests/mpi/colltune_site_nccl.sh runs the range form end to end on the
 * NCCL test double.
 */
#define _XOPEN_SOURCE 700

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_test.h"
#include "emit.h"
#include "emit_format.h"

#define WRITER "colltune TEST (git 0000000)"
#define ANY (-1LL)

static ct_test_tally_t tally;

#define CH(n, v, sc, lo, hi)                                                                       \
    {                                                                                              \
        .name = n, .value = v, .via = CT_VIA_ENV, .scope = sc, .min_bytes = lo, .max_bytes = hi,   \
        .default_us = 100.0, .tuned_us = 50.0, .significant = 1, .verified = 1                     \
    }

static ct_tune_result_t result_of(ct_tune_choice_t *choices, size_t n, const ct_site_t *site)
{
    ct_tune_result_t r = {.space_name = "nccl-algo",
                          .space_path = "/spaces/nccl-algo.ini",
                          .run_id = "tune-test",
                          .date = "2026-01-01T00:00:00Z",
                          .source = "synthetic",
                          .nranks = 2,
                          .nnodes = 1,
                          .choices = choices,
                          .nchoices = n,
                          .site = site};
    return r;
}

/* A site of one NCCL_ALGO setting. */
static ct_site_t site_of(ct_site_setting_t *one, const char *value, ct_site_source_t source,
                         const char *origin)
{
    memset(one, 0, sizeof *one);
    one->name = (char *)"NCCL_ALGO";
    one->value = (char *)value;
    one->origin = (char *)origin;
    one->source = source;
    ct_site_t s = {.v = one, .n = 1, .cap = 1};
    return s;
}

static char *slurp(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "r");
    if (fp == NULL)
        return NULL;
    char *buf = calloc(1, 65536);
    if (buf != NULL)
        (void)fread(buf, 1, 65535, fp);
    fclose(fp);
    return buf;
}

static void clear(const char *dir)
{
    const char *names[] = {"nccl.env", "nccl.conf", "nccl_tuner.conf"};
    for (size_t i = 0; i < 3; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        (void)unlink(path);
    }
}

/* Writes r's files into dir; 1 when done. */
static int emit(const ct_tune_result_t *r, const char *dir)
{
    char err[512] = "";
    clear(dir);
    ct_status_t st = ct_emit_all_as(r, dir, WRITER, err, sizeof err);
    if (st != CT_OK)
        fprintf(stderr, "emit: %s\n", err);
    return st == CT_OK;
}

static int has(const char *text, const char *want)
{
    int ok = text != NULL && strstr(text, want) != NULL;
    if (!ok)
        fprintf(stderr, "want \"%s\" in:\n%s\n", want, text ? text : "(no file)");
    return ok;
}

/* A whole-range choice against the site's environment: nccl.env keeps
 * the site's value first, nccl.conf (outranked) is not written, and the
 * A/B sources nccl.env. */
static void test_whole_range(const char *dir)
{
    ct_site_setting_t one;
    ct_site_t site = site_of(&one, "ring", CT_SITE_ENV, "environment");
    ct_tune_choice_t ch[] = {CH("NCCL_ALGO", "tree", CT_COLL_ALLREDUCE, ANY, ANY)};
    ct_tune_result_t r = result_of(ch, 1, &site);
    char buf[512];
    CT_CHECK(&tally, ct_emit_outranked(&r, &ch[0], buf, sizeof buf) == NULL);
    const char *names[8];
    const ct_emit_load_t *loads[8];
    CT_CHECK(&tally, ct_emit_loads(&r, names, loads, 8) == 1);
    CT_CHECK(&tally, strcmp(names[0], "nccl.env") == 0 && loads[0]->kind == CT_FILE_LOAD_SOURCED &&
                         loads[0]->var == NULL);
    CT_CHECK(&tally, emit(&r, dir));
    char *env = slurp(dir, "nccl.env");
    CT_CHECK(&tally, has(env, "\nexport NCCL_ALGO='ring;AllReduce:tree'\n"));
    CT_CHECK(&tally, has(env, "#   Overrides the site's NCCL_ALGO=ring (environment):"));
    CT_CHECK(&tally, has(env, "#   nccl.conf is not written: the site's environment outranks it"));
    CT_CHECK(&tally, slurp(dir, "nccl.conf") == NULL);
    free(env);

    /* A clean site: nccl.conf and nccl.env as before, nccl.conf loaded. */
    r.site = NULL;
    CT_CHECK(&tally, ct_emit_loads(&r, names, loads, 8) == 2);
    CT_CHECK(&tally, loads[0]->kind != CT_FILE_LOAD_SOURCED && strcmp(names[1], "nccl.conf") == 0);
    CT_CHECK(&tally, emit(&r, dir));
    env = slurp(dir, "nccl.env");
    CT_CHECK(&tally, has(env, "\nexport NCCL_ALGO='AllReduce:tree'\n"));
    CT_CHECK(&tally, env != NULL && strstr(env, "Overrides") == NULL);
    free(env);
}

/* A range choice (a plugin rule for tree) the site's NCCL_ALGO=ring
 * disables: nccl.env re-enables tree for AllReduce beside ring, the rules
 * end with ring everywhere else. */
static void test_range(const char *dir)
{
    ct_site_setting_t one;
    ct_site_t site = site_of(&one, "ring", CT_SITE_ENV, "environment");
    ct_tune_choice_t ch[] = {CH("NCCL_ALGO", "tree", CT_COLL_ALLREDUCE, 16384, 65535)};
    ct_tune_result_t r = result_of(ch, 1, &site);
    char buf[512];
    CT_CHECK(&tally, ct_emit_outranked(&r, &ch[0], buf, sizeof buf) == NULL);
    const char *names[8];
    const ct_emit_load_t *loads[8];
    CT_CHECK(&tally, ct_emit_loads(&r, names, loads, 8) == 2);
    CT_CHECK(&tally, strcmp(names[0], "nccl.env") == 0 && loads[0]->kind == CT_FILE_LOAD_SOURCED);
    CT_CHECK(&tally, strcmp(names[1], "nccl_tuner.conf") == 0);
    CT_CHECK(&tally, emit(&r, dir));
    char *env = slurp(dir, "nccl.env"), *rules = slurp(dir, "nccl_tuner.conf");
    CT_CHECK(&tally, has(env, "\nexport NCCL_ALGO='ring;AllReduce:Tree,Ring'\n"));
    CT_CHECK(&tally, has(env, "#     AllReduce: re-enabled beside the site's Ring"));
    CT_CHECK(&tally,
             has(rules, "\nallreduce,16384,65535,tree,-1,-1,1,2\n"
                        "allreduce,0,-1,ring,-1,-1,-1,-1   # the site's, everywhere else\n"));
    CT_CHECK(&tally, has(rules, "#   Overrides the site's NCCL_ALGO=ring (environment):"));
    free(env);
    free(rules);

    /* The site already leaves tree enabled: nothing to re-enable. */
    site = site_of(&one, "ring,tree", CT_SITE_ENV, "environment");
    CT_CHECK(&tally, ct_emit_loads(&r, names, loads, 8) == 1);
    CT_CHECK(&tally, strcmp(names[0], "nccl_tuner.conf") == 0);

    /* From /etc/nccl.conf, which NCCL_CONF_FILE's file outranks: nccl.conf
     * carries the list (and is what the A/B loads). */
    site = site_of(&one, "ring", CT_SITE_FILE, "/etc/nccl.conf");
    CT_CHECK(&tally, ct_emit_loads(&r, names, loads, 8) == 3);
    CT_CHECK(&tally, loads[0]->kind != CT_FILE_LOAD_SOURCED && strcmp(names[1], "nccl.conf") == 0 &&
                         strcmp(loads[1]->var, "NCCL_CONF_FILE") == 0);
    CT_CHECK(&tally, emit(&r, dir));
    char *conf = slurp(dir, "nccl.conf");
    CT_CHECK(&tally, has(conf, "\nNCCL_ALGO=ring;AllReduce:Tree,Ring\n"));
    CT_CHECK(&tally, has(conf, "#   Overrides the site's NCCL_ALGO=ring (/etc/nccl.conf):"));
    free(conf);
}

/* A site that leaves AllReduce two algorithms: a rule that keeps its
 * decision elsewhere would name one, so no form wins; the reason names
 * the setting and its source. */
static void test_cannot_win(void)
{
    ct_site_setting_t one;
    ct_site_t site = site_of(&one, "ring,pat", CT_SITE_ENV, "environment");
    ct_tune_choice_t ch[] = {CH("NCCL_ALGO", "tree", CT_COLL_ALLREDUCE, 16384, 65535)};
    ct_tune_result_t r = result_of(ch, 1, &site);
    char buf[512];
    const char *why = ct_emit_outranked(&r, &ch[0], buf, sizeof buf);
    CT_CHECK(&tally, why != NULL && has(why, "outranked by NCCL_ALGO=ring,pat (environment)") &&
                         has(why, "leaves it 2 algorithms"));
    /* NCCL refuses the site's value: nothing keeps its decision either. */
    site = site_of(&one, "rings", CT_SITE_ENV, "environment");
    why = ct_emit_outranked(&r, &ch[0], buf, sizeof buf);
    CT_CHECK(&tally, why != NULL && has(why, "NCCL refuses that value"));
    /* A whole-range choice is never outranked: nccl.env wins. */
    ct_tune_choice_t whole[] = {CH("NCCL_ALGO", "tree", CT_COLL_ALLREDUCE, ANY, ANY)};
    r = result_of(whole, 1, &site);
    CT_CHECK(&tally, ct_emit_outranked(&r, &whole[0], buf, sizeof buf) == NULL);
}

/* Another variable the site's environment sets: nccl.conf would lose it,
 * so nccl.env alone carries every setting. */
static void test_other_var(const char *dir)
{
    ct_site_setting_t one;
    ct_site_t site = site_of(&one, "4", CT_SITE_ENV, "environment");
    one.name = (char *)"NCCL_MIN_CTAS";
    ct_tune_choice_t ch[] = {CH("NCCL_MIN_CTAS", "8", CT_SCOPE_GLOBAL, ANY, ANY),
                             CH("NCCL_BUFFSIZE", "8388608", CT_SCOPE_GLOBAL, ANY, ANY)};
    ct_tune_result_t r = result_of(ch, 2, &site);
    const char *names[8];
    const ct_emit_load_t *loads[8];
    CT_CHECK(&tally,
             ct_emit_loads(&r, names, loads, 8) == 1 && loads[0]->kind == CT_FILE_LOAD_SOURCED);
    CT_CHECK(&tally, emit(&r, dir));
    char *env = slurp(dir, "nccl.env");
    CT_CHECK(&tally, has(env, "export NCCL_MIN_CTAS='8'\nexport NCCL_BUFFSIZE='8388608'\n"));
    free(env);
    /* The site sets something else: nccl.conf as usual. */
    one.name = (char *)"NCCL_DEBUG";
    CT_CHECK(&tally,
             ct_emit_loads(&r, names, loads, 8) == 2 && loads[0]->kind != CT_FILE_LOAD_SOURCED);
}

int main(void)
{
    char dir[] = "/tmp/ct-emit-nccl-site.XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    test_whole_range(dir);
    test_range(dir);
    test_cannot_win();
    test_other_var(dir);
    clear(dir);
    (void)rmdir(dir);
    return CT_DONE(&tally);
}
