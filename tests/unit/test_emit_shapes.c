/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_emit_shapes.c - results whose choices were measured at several job
 * shapes (issue 36): every file keyed by shape writes a block per shape,
 * read back as its library would (coll/tuned's comm-size lookup, the
 * tuner plugin's own parser), and a file keyed by nothing refuses a value
 * that differs between shapes, in one place (ct_emit_shape_conflict),
 * reported through ct_emit_cannot_carry.  Results are SYNTHETIC (built by
 * hand).  Golden files: emit_golden/shapes (EMIT_GOLDEN_UPDATE=1 rewrites
 * them).
 */
#define _XOPEN_SOURCE 700

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_test.h"
#include "emit.h"
#include "emit_format.h"
#include "rules.h"

#define WRITER "colltune TEST (git 0000000)"
#define ANY (-1LL)

static ct_test_tally_t tally;

/* Significant and verified, measured at nodes x (ranks / nodes). */
#define SH(n, v, via_, sc, lo, hi, nodes, ranks)                                                   \
    {                                                                                              \
        .name = n, .value = v, .via = via_, .scope = sc, .min_bytes = lo, .max_bytes = hi,         \
        .default_us = 100.0, .tuned_us = 50.0, .significant = 1, .verified = 1, .nnodes = nodes,   \
        .nranks = ranks                                                                            \
    }
#define MCA(n, v, sc, lo, hi, nodes, ranks) SH(n, v, CT_VIA_MCA, sc, lo, hi, nodes, ranks)
#define ENV(n, v, sc, lo, hi, nodes, ranks) SH(n, v, CT_VIA_ENV, sc, lo, hi, nodes, ranks)
#define AR_ALG "coll_tuned_allreduce_algorithm"
#define AG_CVAR "MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM"

static ct_tune_result_t result_of(ct_tune_choice_t *choices, size_t n)
{
    ct_tune_result_t r = {.space_name = "synthetic-shapes",
                          .space_path = "tuner/spaces/synthetic.ini",
                          .run_id = "synthetic-merge-0001",
                          .date = "2026-01-02T03:04:05Z",
                          .source = "synthetic",
                          .nranks = 4,
                          .nnodes = 1,
                          .choices = choices,
                          .nchoices = n};
    return r;
}
#define RESULT(arr) result_of(arr, sizeof(arr) / sizeof(arr[0]))

/* r written by format f alone (its writer, as emit calls it), malloc'ed. */
static char *write_text(const ct_emit_format_t *f, const ct_tune_result_t *r, ct_status_t *st_p,
                        char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    ct_emit_ctx_t ctx = {r, WRITER, "/out"};
    err[0] = '\0';
    *st_p = CT_ERR_IO;
    if (fp == NULL)
        return NULL;
    *st_p = f->write(&ctx, fp, err, errlen);
    fclose(fp);
    if (*st_p != CT_OK)
        fprintf(stderr, "%s: %s\n", f->name, err);
    return buf;
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (fp == NULL)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    if (buf != NULL)
        (void)fread(buf, 1, (1 << 16) - 1, fp);
    fclose(fp);
    return buf;
}

static char *file_text(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return slurp(path);
}

/* Removes every file an emit may write into dir. */
static void clear_dir(const char *dir)
{
    const char *name;
    for (size_t i = 0; (name = ct_emit_format_name(i)) != NULL; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        (void)unlink(path);
    }
}

/* text against emit_golden/shapes/name. */
static void check_golden(const char *text, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/shapes/%s", EMIT_GOLDEN_DIR, name);
    const char *update = getenv("EMIT_GOLDEN_UPDATE");
    if (update != NULL && strcmp(update, "1") == 0) {
        FILE *fp = fopen(path, "w");
        CT_CHECK(&tally, fp != NULL && text != NULL);
        if (fp != NULL) {
            fputs(text ? text : "", fp);
            fclose(fp);
        }
        return;
    }
    char *want = slurp(path);
    int same = want != NULL && text != NULL && strcmp(want, text) == 0;
    CT_CHECK(&tally, same);
    if (!same)
        fprintf(stderr, "%s differs from %s:\n%s\n", name, path, text ? text : "(none)");
    free(want);
}

static int has(const char *text, const char *want)
{
    int ok = text != NULL && strstr(text, want) != NULL;
    if (!ok)
        fprintf(stderr, "want \"%s\" in:\n%s\n", want, text ? text : "(none)");
    return ok;
}

static size_t count_of(const char *text, const char *want)
{
    size_t n = 0;
    for (const char *p = text; p != NULL && (p = strstr(p, want)) != NULL; p++)
        n++;
    return n;
}

/* --- coll-tuned-rules.conf read back as Open MPI 4.1 reads it ------------ */

#define MAX_SECTIONS 8
#define MAX_RULES 8

typedef struct {
    long comm, nrules, msg[MAX_RULES], alg[MAX_RULES];
} section_t;

typedef struct {
    long id, nsections;
    section_t s[MAX_SECTIONS];
} coll_rules_t;

/* The next number, '#' to the end of a line skipped (4.1's fscanf). */
static long next_num(FILE *fp, int *ok)
{
    long v;
    int c;
    for (;;) {
        int rc = fscanf(fp, "%li", &v);
        if (rc == 1)
            return v;
        if (rc == EOF || (c = fgetc(fp)) == EOF) {
            *ok = 0;
            return -1;
        }
        if (c == '#')
            while ((c = fgetc(fp)) != EOF && c != '\n')
                ;
    }
}

/* The rules file's structure into colls (room for 4); its count, or -1
 * when the file is not what 4.1 accepts (a first msgsize that is not 0,
 * comm sizes out of order, anything after the last rule). */
static long parse_rules(const char *text, coll_rules_t *colls)
{
    FILE *fp = text ? fmemopen((void *)text, strlen(text), "r") : NULL;
    int ok = fp != NULL;
    long n = ok ? next_num(fp, &ok) : -1;
    ok &= n >= 0 && n <= 4;
    for (long i = 0; ok && i < n; i++) {
        coll_rules_t *c = &colls[i];
        c->id = next_num(fp, &ok);
        c->nsections = next_num(fp, &ok);
        ok &= c->nsections >= 1 && c->nsections <= MAX_SECTIONS;
        for (long k = 0; ok && k < c->nsections; k++) {
            section_t *s = &c->s[k];
            s->comm = next_num(fp, &ok);
            s->nrules = next_num(fp, &ok);
            ok &=
                s->nrules >= 1 && s->nrules <= MAX_RULES && (k == 0 || s->comm > c->s[k - 1].comm);
            for (long j = 0; ok && j < s->nrules; j++) {
                s->msg[j] = next_num(fp, &ok);
                s->alg[j] = next_num(fp, &ok);
                next_num(fp, &ok);
                next_num(fp, &ok);
                ok &= j == 0 ? s->msg[0] == 0 : s->msg[j] > s->msg[j - 1];
            }
        }
    }
    if (ok) {
        int more = 1;
        next_num(fp, &more);
        ok = !more;
    }
    if (fp != NULL)
        fclose(fp);
    return ok ? n : -1;
}

/* The algorithm 4.1 runs for collective id at comm size comm and msgsize
 * bytes: the last comm size entry not above comm (the first when all
 * are), its last rule not above msg; 0 (its own decision) when the file
 * has no entry for the collective. */
static long lookup(const coll_rules_t *colls, long n, long id, long comm, long msg)
{
    for (long i = 0; i < n; i++) {
        if (colls[i].id != id)
            continue;
        const section_t *s = &colls[i].s[0];
        for (long k = 1; k < colls[i].nsections; k++)
            if (colls[i].s[k].comm <= comm)
                s = &colls[i].s[k];
        long alg = s->alg[0];
        for (long j = 1; j < s->nrules; j++)
            if (s->msg[j] <= msg)
                alg = s->alg[j];
        return alg;
    }
    return 0;
}

/* coll/tuned at 1x2 and 1x4: an entry per rank count, Open MPI's own
 * decision at 1, 3 and from 5; a global algorithm goes to the rules (keyed)
 * rather than mca-params.conf; the JSON rules one entry per count; an MCA
 * parameter chosen alike at both written once. */
static void test_tuned_two_counts(const char *dir)
{
    ct_tune_choice_t ch[] = {
        MCA(AR_ALG, "4", CT_COLL_ALLREDUCE, 0, 1023, 1, 2),
        MCA(AR_ALG, "3", CT_COLL_ALLREDUCE, ANY, ANY, 1, 4),
        MCA("coll_tuned_bcast_algorithm", "6", CT_COLL_BROADCAST, 1024, ANY, 1, 4),
        MCA("btl_vader_eager_limit", "8192", CT_SCOPE_GLOBAL, ANY, ANY, 1, 2),
        MCA("btl_vader_eager_limit", "8192", CT_SCOPE_GLOBAL, ANY, ANY, 1, 4),
    };
    ct_tune_result_t r = RESULT(ch);
    char err[1024];
    ct_status_t st;
    for (size_t i = 0; i < sizeof ch / sizeof ch[0]; i++)
        CT_CHECK(&tally, ct_emit_cannot_carry(&r, &ch[i]) == NULL);
    CT_CHECK(&tally, ct_emit_shapes(&r, NULL, 0) == 2);

    char *text = write_text(&ct_emit_tuned_rules, &r, &st, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    check_golden(text, "coll-tuned-rules.conf");
    coll_rules_t colls[4];
    long n = parse_rules(text, colls);
    CT_CHECK(&tally, n == 2);
    static const struct {
        long id, comm, msg, alg;
    } want[] = {
        {2, 2, 512, 4}, {2, 2, 1023, 4},     {2, 2, 1024, 0}, {2, 1, 512, 0},  {2, 3, 512, 0},
        {2, 4, 0, 3},   {2, 4, 1L << 30, 3}, {2, 5, 512, 0},  {2, 16, 512, 0}, {7, 4, 2048, 6},
        {7, 4, 100, 0}, {7, 2, 2048, 0},     {7, 3, 2048, 0}, {7, 8, 2048, 0},
    };
    for (size_t i = 0; n == 2 && i < sizeof want / sizeof want[0]; i++) {
        long got = lookup(colls, n, want[i].id, want[i].comm, want[i].msg);
        CT_CHECK(&tally, got == want[i].alg);
        if (got != want[i].alg)
            fprintf(stderr, "  coll %ld at %ld ranks, %ld B: %ld, want %ld\n", want[i].id,
                    want[i].comm, want[i].msg, got, want[i].alg);
    }
    CT_CHECK(&tally, n == 2 && colls[0].nsections == 5 && colls[1].nsections == 3);
    CT_CHECK(&tally, has(text, ", job shapes 1x2, 1x4 (nodes x ranks per node), synthetic"));
    CT_CHECK(&tally, has(text, "# Keyed by shape: each block holds only at the job shape"));
    free(text);

    r.rules_json = 1;
    text = write_text(&ct_emit_tuned_rules_json, &r, &st, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    check_golden(text, "coll-tuned-rules.json");
    json_t *doc = text ? json_loads(text, 0, NULL) : NULL;
    json_t *ar = json_object_get(json_object_get(doc, "collectives"), "allreduce");
    CT_CHECK(&tally, json_array_size(ar) == 2);
    for (size_t k = 0; k < 2 && json_array_size(ar) == 2; k++) {
        json_t *e = json_array_get(ar, k);
        long want_n = k == 0 ? 2 : 4;
        CT_CHECK(&tally, json_integer_value(json_object_get(e, "comm_size_min")) == want_n &&
                             json_integer_value(json_object_get(e, "comm_size_max")) == want_n);
        json_t *rule = json_array_get(json_object_get(e, "rules"), 0);
        CT_CHECK(&tally, json_integer_value(json_object_get(rule, "alg")) == (k == 0 ? 4 : 3));
    }
    json_decref(doc);
    free(text);

    /* The whole set: mca-params.conf names the rules file, forces no
     * algorithm for every shape, and has the parameter once. */
    clear_dir(dir);
    CT_CHECK(&tally, ct_emit_all_as(&r, dir, WRITER, err, sizeof err) == CT_OK);
    char *mca = file_text(dir, "mca-params.conf");
    CT_CHECK(&tally, has(mca, "\ncoll_tuned_dynamic_rules_filename = "));
    CT_CHECK(&tally, mca != NULL && strstr(mca, "\n" AR_ALG) == NULL);
    CT_CHECK(&tally, count_of(mca, "\nbtl_vader_eager_limit = 8192\n") == 1);
    CT_CHECK(&tally, has(mca, "# Measured at the job shapes above; not keyed by shape"));
    free(mca);
    clear_dir(dir);
}

/* colltune tune --shapes at 2x1 and 3x1: broadcast binomial over
 * 256K..1M at one, 1M alone at the other, each with the
 * coll_tuned_use_dynamic_rules=1 its rules need over the same range.
 * mca-params.conf holds that switch at every size, whatever its range, so
 * the two agree and it is written once; another value still conflicts. */
static void test_dynamic_rules_ranges(const char *dir)
{
    ct_tune_choice_t ch[] = {
        MCA("coll_tuned_bcast_algorithm", "6", CT_COLL_BROADCAST, 262144, 1048576, 2, 2),
        MCA("coll_tuned_use_dynamic_rules", "1", CT_COLL_BROADCAST, 262144, 1048576, 2, 2),
        MCA("coll_tuned_bcast_algorithm", "6", CT_COLL_BROADCAST, 1048576, 1048576, 3, 3),
        MCA("coll_tuned_use_dynamic_rules", "1", CT_COLL_BROADCAST, 1048576, 1048576, 3, 3),
    };
    ct_tune_result_t r = RESULT(ch);
    char err[1024];
    for (size_t i = 0; i < sizeof ch / sizeof ch[0]; i++)
        CT_CHECK(&tally, ct_emit_cannot_carry(&r, &ch[i]) == NULL);
    clear_dir(dir);
    CT_CHECK(&tally, ct_emit_all_as(&r, dir, WRITER, err, sizeof err) == CT_OK);
    char *mca = file_text(dir, "mca-params.conf");
    CT_CHECK(&tally, count_of(mca, "\ncoll_tuned_use_dynamic_rules = 1\n") == 1);
    free(mca);
    clear_dir(dir);
    ch[3].value = (char *)"0";
    CT_CHECK(&tally, ct_emit_cannot_carry(&r, &ch[1]) != NULL);
    CT_CHECK(&tally, ct_emit_cannot_carry(&r, &ch[3]) != NULL);
    /* A third shape chose an allreduce algorithm and nothing of
     * broadcast: the broadcast switch still holds there (the rules give
     * 4x1's broadcast Open MPI's own decision), so it is written. */
    ct_tune_choice_t more[] = {
        ch[0],
        ch[1],
        MCA(AR_ALG, "3", CT_COLL_ALLREDUCE, 8, 1023, 4, 4),
        MCA("coll_tuned_use_dynamic_rules", "1", CT_COLL_ALLREDUCE, 8, 1023, 4, 4),
    };
    ct_tune_result_t r2 = RESULT(more);
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        CT_CHECK(&tally, ct_emit_cannot_carry(&r2, &more[i]) == NULL);
}

/* 2x2 and 1x4: one rank count, one entry.  The same setting once, sizes
 * apart both; sizes that overlap with another value or bounds refused. */
static void test_tuned_same_count(const char *dir)
{
    ct_tune_choice_t ch[] = {
        MCA(AR_ALG, "4", CT_COLL_ALLREDUCE, 0, 1023, 2, 4),
        MCA(AR_ALG, "4", CT_COLL_ALLREDUCE, 0, 1023, 1, 4),
        MCA(AR_ALG, "5", CT_COLL_ALLREDUCE, 4096, ANY, 2, 4),
    };
    ct_tune_result_t r = RESULT(ch);
    char err[1024], why[512];
    ct_status_t st;
    for (size_t i = 0; i < sizeof ch / sizeof ch[0]; i++)
        CT_CHECK(&tally, ct_emit_shape_conflict(&r, &ch[i], why, sizeof why) == NULL);
    char *text = write_text(&ct_emit_tuned_rules, &r, &st, err, sizeof err);
    coll_rules_t colls[4];
    CT_CHECK(&tally, st == CT_OK && parse_rules(text, colls) == 1);
    /* 1-3 Open MPI's, 4: 0 alg 4, 1024 alg 0, 4096 alg 5; 5 up Open MPI's. */
    CT_CHECK(&tally,
             colls[0].nsections == 3 && colls[0].s[1].comm == 4 && colls[0].s[1].nrules == 3);
    CT_CHECK(&tally, lookup(colls, 1, 2, 4, 100) == 4 && lookup(colls, 1, 2, 4, 2000) == 0 &&
                         lookup(colls, 1, 2, 4, 5000) == 5 && lookup(colls, 1, 2, 8, 100) == 0);
    free(text);

    /* Another algorithm at 1x4 over the same sizes, or the same one over
     * other sizes that overlap: comm size 4 cannot hold both. */
    for (int k = 0; k < 2; k++) {
        ch[1].value = k == 0 ? "3" : "4";
        ch[1].max_bytes = k == 0 ? 1023 : 2047;
        const char *got = ct_emit_shape_conflict(&r, &ch[1], why, sizeof why);
        CT_CHECK(&tally, got != NULL && has(got, "at 1x4 but " AR_ALG "=4 over 0..1023 B at 2x2 "
                                                 "differs; coll-tuned-rules.conf and coll-tuned-"
                                                 "rules.json key by rank count only (4 ranks at "
                                                 "both)"));
        CT_CHECK(&tally, ct_emit_shape_conflict(&r, &ch[0], why, sizeof why) != NULL);
        CT_CHECK(&tally, ct_emit_shape_conflict(&r, &ch[2], why, sizeof why) == NULL);
        const char *stat = ct_emit_cannot_carry(&r, &ch[1]);
        CT_CHECK(&tally, stat != NULL && has(stat, "as many ranks on other nodes"));
        /* Not marked: the emit refuses, says why, writes nothing. */
        clear_dir(dir);
        CT_CHECK(&tally, ct_emit_all_as(&r, dir, WRITER, err, sizeof err) == CT_ERR_USAGE);
        CT_CHECK(&tally, has(err, "key by rank count only"));
        char *none = file_text(dir, "coll-tuned-rules.conf");
        CT_CHECK(&tally, none == NULL);
        free(none);
    }
    /* A range that ends at 0 B (a merged result may hold one) is 0..0,
     * not "and up": apart from another value from 8 B up. */
    ct_tune_choice_t zero[] = {
        MCA(AR_ALG, "4", CT_COLL_ALLREDUCE, 0, 0, 2, 4),
        MCA(AR_ALG, "5", CT_COLL_ALLREDUCE, 8, ANY, 1, 4),
    };
    ct_tune_result_t rz = RESULT(zero);
    CT_CHECK(&tally, ct_emit_shape_conflict(&rz, &zero[0], why, sizeof why) == NULL);
    CT_CHECK(&tally, ct_emit_shape_conflict(&rz, &zero[1], why, sizeof why) == NULL);
    zero[1].min_bytes = 0; /* now both hold at 0 B */
    CT_CHECK(&tally, has(ct_emit_shape_conflict(&rz, &zero[0], why, sizeof why),
                         AR_ALG "=4 for allreduce over 0..0 B holds at 2x2"));
    /* Marked as a tune or merge marks them: the rest is written. */
    for (size_t i = 0; i < sizeof ch / sizeof ch[0]; i++)
        ch[i].unwritable = ct_emit_cannot_carry(&r, &ch[i]);
    CT_CHECK(&tally, ch[0].unwritable && ch[1].unwritable && !ch[2].unwritable);
    text = write_text(&ct_emit_tuned_rules, &r, &st, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK && parse_rules(text, colls) == 1);
    CT_CHECK(&tally, lookup(colls, 1, 2, 4, 100) == 0 && lookup(colls, 1, 2, 4, 5000) == 5);
    free(text);
}

/* An MCA parameter, a UCX variable and NCCL's global NCCL_ALGO that differ
 * between shapes: their files hold one value, so the one check refuses
 * them (reason naming both shapes, both values, the files), the emit
 * refuses them unmarked, and marked they are left out. */
static void test_unkeyed(const char *dir)
{
    ct_tune_choice_t ch[] = {
        ENV("NCCL_ALGO", "ring", CT_SCOPE_GLOBAL, ANY, ANY, 1, 2),
        ENV("NCCL_ALGO", "tree", CT_SCOPE_GLOBAL, ANY, ANY, 1, 4),
        ENV("NCCL_BUFFSIZE", "4194304", CT_SCOPE_GLOBAL, ANY, ANY, 1, 2),
        ENV("NCCL_BUFFSIZE", "4194304", CT_SCOPE_GLOBAL, ANY, ANY, 1, 4),
        ENV("UCX_TLS", "sm,self", CT_SCOPE_GLOBAL, ANY, ANY, 1, 2),
        ENV("UCX_TLS", "tcp", CT_SCOPE_GLOBAL, ANY, ANY, 2, 4),
        MCA("btl_vader_eager_limit", "8192", CT_SCOPE_GLOBAL, ANY, ANY, 1, 2),
        MCA("btl_vader_eager_limit", "4096", CT_SCOPE_GLOBAL, ANY, ANY, 1, 4),
    };
    ct_tune_result_t r = RESULT(ch);
    char why[512], err[1024];
    CT_CHECK_STR(&tally, ct_emit_shape_conflict(&r, &ch[0], why, sizeof why),
                 "NCCL_ALGO=ring holds at 1x2 but NCCL_ALGO=tree at 1x4 differs; nccl.conf and "
                 "nccl.env hold one value for every job shape");
    CT_CHECK_STR(&tally, ct_emit_shape_conflict(&r, &ch[5], why, sizeof why),
                 "UCX_TLS=tcp holds at 2x2 but UCX_TLS=sm,self at 1x2 differs; ucx.conf holds one "
                 "value for every job shape");
    CT_CHECK(&tally, has(ct_emit_shape_conflict(&r, &ch[7], why, sizeof why),
                         "at 1x2 differs; mca-params.conf holds one value"));
    CT_CHECK(&tally, ct_emit_shape_conflict(&r, &ch[2], why, sizeof why) == NULL);
    CT_CHECK(&tally, has(ct_emit_cannot_carry(&r, &ch[0]), "holds one value for every job shape"));
    CT_CHECK(&tally, ct_emit_cannot_carry(&r, &ch[3]) == NULL);

    static const char *const files[] = {"nccl.env", "ucx.conf", "mca-params.conf"};
    for (size_t i = 0; i < 3; i++) {
        ct_tune_choice_t *pair = &ch[2 * i + (i == 0 ? 0 : 2)];
        ct_tune_result_t one = result_of(pair, 2);
        clear_dir(dir);
        *err = '\0';
        CT_CHECK(&tally, ct_emit_all_as(&one, dir, WRITER, err, sizeof err) == CT_ERR_USAGE);
        CT_CHECK(&tally, has(err, files[i]) && has(err, "one value for every job shape"));
        char *none = file_text(dir, files[i]);
        CT_CHECK(&tally, none == NULL);
        free(none);
    }
    for (size_t i = 0; i < sizeof ch / sizeof ch[0]; i++)
        ch[i].unwritable = ct_emit_cannot_carry(&r, &ch[i]);
    clear_dir(dir);
    CT_CHECK(&tally, ct_emit_all_as(&r, dir, WRITER, err, sizeof err) == CT_OK);
    char *env = file_text(dir, "nccl.env");
    CT_CHECK(&tally, env != NULL && strstr(env, "export NCCL_ALGO") == NULL);
    CT_CHECK(&tally, count_of(env, "\nexport NCCL_BUFFSIZE='4194304'\n") == 1);
    CT_CHECK(&tally, count_of(env, "#   NCCL_BUFFSIZE: every collective and size") == 1);
    free(env);
    char *ucx = file_text(dir, "ucx.conf"), *mca = file_text(dir, "mca-params.conf");
    CT_CHECK(&tally, ucx == NULL && mca == NULL); /* nothing left for them */
    free(ucx);
    free(mca);
    clear_dir(dir);
}

/* nccl_tuner.conf keys exactly: rules at every shape (other values at
 * other shapes are no conflict), read back by the plugin's own parser at
 * each shape and at shapes never measured; the site's catch-all after
 * every shape's rules. */
static void test_nccl_tuner(const char *dir)
{
    ct_tune_choice_t ch[] = {
        ENV("NCCL_ALGO", "tree", CT_COLL_ALLREDUCE, 0, 65535, 1, 2),
        ENV("NCCL_ALGO", "ring", CT_COLL_ALLREDUCE, 0, 65535, 1, 4),
        ENV("NCCL_PROTO", "LL", CT_COLL_ALLREDUCE, 0, 1023, 2, 4),
        ENV("NCCL_ALGO", "ring", CT_COLL_BROADCAST, 1024, ANY, 1, 2),
    };
    ct_tune_result_t r = RESULT(ch);
    char err[1024];
    ct_status_t st;
    for (size_t i = 0; i < sizeof ch / sizeof ch[0]; i++)
        CT_CHECK(&tally, ct_emit_cannot_carry(&r, &ch[i]) == NULL);
    char *text = write_text(&ct_emit_nccl_tuner, &r, &st, err, sizeof err);
    CT_CHECK(&tally, st == CT_OK);
    check_golden(text, "nccl_tuner.conf");
    CT_CHECK(&tally, has(text, "#   NCCL_ALGO: AllReduce 0..65535 B: Tree at 1x2, via "
                               "nccl_tuner.conf\n"));
    ct_plugin_rules_t rules;
    char perr[CT_PLUGIN_RULES_ERR_MAX];
    FILE *fp = text ? fmemopen(text, strlen(text), "r") : NULL;
    int loaded = fp != NULL && ct_plugin_rules_read(fp, "nccl_tuner.conf", perr, sizeof perr,
                                                    &rules) == CT_PLUGIN_RULES_OK;
    if (fp != NULL)
        fclose(fp);
    CT_CHECK(&tally, loaded);
    if (loaded) {
        static const struct {
            int coll;
            size_t nbytes, nnodes, nranks;
            int algo, proto; /* -2: no rule */
        } want[] = {
            {CT_NCCL_FUNC_ALLREDUCE, 1000, 1, 2, CT_NCCL_ALGO_TREE, -1},
            {CT_NCCL_FUNC_ALLREDUCE, 65535, 1, 2, CT_NCCL_ALGO_TREE, -1},
            {CT_NCCL_FUNC_ALLREDUCE, 65536, 1, 2, -2, -2},
            {CT_NCCL_FUNC_ALLREDUCE, 1000, 1, 4, CT_NCCL_ALGO_RING, -1},
            {CT_NCCL_FUNC_ALLREDUCE, 1000, 2, 4, -1, CT_NCCL_PROTO_LL},
            {CT_NCCL_FUNC_ALLREDUCE, 2000, 2, 4, -2, -2},
            {CT_NCCL_FUNC_ALLREDUCE, 1000, 1, 8, -2, -2}, /* never measured */
            {CT_NCCL_FUNC_ALLREDUCE, 1000, 2, 2, -2, -2},
            {CT_NCCL_FUNC_BROADCAST, 4096, 1, 2, CT_NCCL_ALGO_RING, -1},
            {CT_NCCL_FUNC_BROADCAST, 4096, 1, 4, -2, -2},
        };
        CT_CHECK(&tally, rules.count == 4);
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            ct_plugin_query_t q = {
                want[i].coll, want[i].nbytes, want[i].nnodes, want[i].nranks, 1, 0};
            long m = ct_plugin_rules_match(&rules, &q);
            int ok = want[i].algo == -2 ? m == -1
                                        : m >= 0 && rules.rules[m].algo == want[i].algo &&
                                              rules.rules[m].proto == want[i].proto;
            CT_CHECK(&tally, ok);
            if (!ok)
                fprintf(stderr, "  query %zu: rule %ld\n", i, m);
        }
        ct_plugin_rules_free(&rules);
    }
    free(text);

    /* The site's NCCL_ALGO=ring disables tree: nccl.env re-enables it and
     * the rules keep ring everywhere else, last, after both shapes. */
    ct_site_setting_t one = {
        .name = "NCCL_ALGO", .value = "ring", .origin = "environment", .source = CT_SITE_ENV};
    ct_site_t site = {.v = &one, .n = 1, .cap = 1};
    ct_tune_choice_t tree[] = {
        ENV("NCCL_ALGO", "tree", CT_COLL_ALLREDUCE, 16384, 65535, 1, 2),
        ENV("NCCL_ALGO", "tree", CT_COLL_ALLREDUCE, 16384, 65535, 1, 4),
    };
    ct_tune_result_t rs = RESULT(tree);
    rs.site = &site;
    clear_dir(dir);
    CT_CHECK(&tally, ct_emit_all_as(&rs, dir, WRITER, err, sizeof err) == CT_OK);
    text = file_text(dir, "nccl_tuner.conf");
    static const char tail[] = "\nallreduce,16384,65535,tree,-1,-1,1,2\n"
                               "allreduce,16384,65535,tree,-1,-1,1,4\n"
                               "allreduce,0,-1,ring,-1,-1,-1,-1   # the site's, everywhere else\n";
    size_t tl = strlen(tail), len = text ? strlen(text) : 0;
    CT_CHECK(&tally, len > tl && strcmp(text + len - tl, tail) == 0);
    if (!(len > tl && strcmp(text + len - tl, tail) == 0))
        fprintf(stderr, "nccl_tuner.conf:\n%s\n", text ? text : "(none)");
    free(text);
    clear_dir(dir);
}

/* A selection tree of the shape MPICH compiles in (test_emit's). */
#define CSEL_TREE                                                                                  \
    "{\"collective=bcast\":{\"comm_type=intra\":{\"avg_msg_size=any\":"                            \
    "{\"algorithm=MPIR_Bcast_intra_binomial\":{}}}},"                                              \
    "\"collective=allgather\":{\"comm_type=intra\":{\"comm_size=pow2\":"                           \
    "{\"algorithm=MPIR_Allgather_intra_recursive_doubling\":{}},\"comm_size=any\":"                \
    "{\"algorithm=MPIR_Allgather_intra_ring\":{}}},\"comm_type=inter\":"                           \
    "{\"algorithm=MPIR_Allgather_inter_local_gather_remote_bcast\":{}}}}"

/* MPICH at 1x2, 1x4 and 2x2: the selection tree a subtree per
 * communicator size, intel-mpi.env each condition with its process count
 * (@p-q), mpich.env a CVAR chosen alike once and one chosen otherwise
 * refused; 2x2 and 1x4 agree where they share sizes. */
static void test_mpich(const char *dir)
{
    ct_tune_choice_t ch[] = {
        ENV(AG_CVAR, "brucks", CT_COLL_ALLGATHER, 0, 1023, 1, 2),
        ENV(AG_CVAR, "ring", CT_COLL_ALLGATHER, 1024, ANY, 1, 2),
        ENV(AG_CVAR, "recursive_doubling", CT_COLL_ALLGATHER, 0, 1023, 1, 4),
        ENV(AG_CVAR, "recursive_doubling", CT_COLL_ALLGATHER, 0, 1023, 2, 4),
        ENV("MPIR_CVAR_BCAST_INTRA_ALGORITHM", "binomial", CT_COLL_BROADCAST, ANY, ANY, 1, 2),
        ENV("MPIR_CVAR_BCAST_INTRA_ALGORITHM", "binomial", CT_COLL_BROADCAST, ANY, ANY, 1, 4),
        ENV("MPIR_CVAR_BCAST_INTRA_ALGORITHM", "binomial", CT_COLL_BROADCAST, ANY, ANY, 2, 4),
        ENV("MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", "reduce_scatter_allgather", CT_COLL_ALLREDUCE,
            ANY, ANY, 1, 2),
        ENV("MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", "recursive_doubling", CT_COLL_ALLREDUCE, ANY,
            ANY, 1, 4),
    };
    ct_tune_result_t r = RESULT(ch);
    r.mpich_tree = CSEL_TREE;
    char why[512], err[1024];
    for (size_t i = 0; i < 7; i++)
        CT_CHECK(&tally, ct_emit_cannot_carry(&r, &ch[i]) == NULL);
    /* A CVAR chosen at 1x2 and 1x4 but not at 2x2, where MPICH's own value
     * stays: mpich.env cannot hold it for some shapes only. */
    ch[6].significant = 0;
    const char *gap = ct_emit_shape_conflict(&r, &ch[4], why, sizeof why);
    CT_CHECK(&tally, has(gap, "MPIR_CVAR_BCAST_INTRA_ALGORITHM=binomial for broadcast holds at 1x2 "
                              "but was not chosen at 2x2, where the library's own value stays; "
                              "mpich.env"));
    ch[6].significant = 1;
    const char *got = ct_emit_shape_conflict(&r, &ch[7], why, sizeof why);
    CT_CHECK(&tally, has(got, "=reduce_scatter_allgather for allreduce holds at 1x2 but "
                              "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling at 1x4 "
                              "differs; mpich.env") &&
                         has(got, "one value for every job shape"));
    /* Not marked: refused. */
    clear_dir(dir);
    CT_CHECK(&tally, ct_emit_all_as(&r, dir, WRITER, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&tally, has(err, "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM"));
    for (size_t i = 0; i < sizeof ch / sizeof ch[0]; i++)
        ch[i].unwritable = ct_emit_cannot_carry(&r, &ch[i]);
    clear_dir(dir);
    CT_CHECK(&tally, ct_emit_all_as(&r, dir, WRITER, err, sizeof err) == CT_OK);

    char *csel = file_text(dir, "mpich-coll-selection.json");
    check_golden(csel, "mpich-coll-selection.json");
    json_t *tree = csel ? json_loads(csel, 0, NULL) : NULL;
    json_t *intra =
        json_object_get(json_object_get(tree, "collective=allgather"), "comm_type=intra");
    static const char *const keys[] = {"comm_size<=1", "comm_size<=2", "comm_size<=3",
                                       "comm_size<=4", "comm_size=any"};
    size_t k = 0;
    const char *key;
    json_t *val;
    json_object_foreach(intra, key, val)
    {
        CT_CHECK(&tally, k < 5 && strcmp(key, keys[k]) == 0);
        k++;
    }
    CT_CHECK(&tally, k == 5);
    char *two = json_dumps(json_object_get(intra, "comm_size<=2"), JSON_COMPACT);
    char *four = json_dumps(json_object_get(intra, "comm_size<=4"), JSON_COMPACT);
    CT_CHECK(&tally, has(two, "MPIR_Allgather_intra_brucks") && has(two, "_intra_ring"));
    CT_CHECK(&tally, has(four, "recursive_doubling") && four && !strstr(four, "brucks"));
    free(two);
    free(four);
    json_decref(tree);
    free(csel);

    char *intel = file_text(dir, "intel-mpi.env");
    CT_CHECK(&tally, has(intel, "\nexport I_MPI_ADJUST_ALLGATHER=\"2:0-1023@2-2;"
                                "3:1024-2147483647@2-2;1:0-1023@4-4\"\n"));
    CT_CHECK(&tally, intel != NULL && strstr(intel, "I_MPI_ADJUST_ALLREDUCE") == NULL);
    CT_CHECK(&tally,
             has(intel, "# Measured with MPICH at the job shapes above: each condition names"));
    /* golden with the directory out of it: write the format alone */
    free(intel);
    ct_status_t st;
    intel = write_text(&ct_emit_intel_mpi_env, &r, &st, err, sizeof err);
    check_golden(intel, "intel-mpi.env");
    free(intel);

    char *env = file_text(dir, "mpich.env");
    CT_CHECK(&tally, count_of(env, "\nexport MPIR_CVAR_BCAST_INTRA_ALGORITHM=binomial\n") == 1);
    CT_CHECK(&tally, env != NULL && strstr(env, "export MPIR_CVAR_ALLREDUCE") == NULL);
    CT_CHECK(&tally, has(env, "=brucks from 0 B to 1023 B (at 2 ranks; MPICH's own choice "
                              "elsewhere)."));
    free(env);

    /* 2x2 choosing otherwise than 1x4 over the same sizes: one subtree at
     * comm size 4 cannot hold both. */
    ch[3].value = "brucks";
    ch[3].unwritable = NULL;
    ch[2].unwritable = NULL;
    CT_CHECK(&tally, has(ct_emit_shape_conflict(&r, &ch[3], why, sizeof why),
                         "intel-mpi.env and mpich-coll-selection.json key by rank count only"));
    CT_CHECK(&tally, ct_emit_cannot_carry(&r, &ch[2]) != NULL);
    clear_dir(dir);
}

/* The one check at its edges.  A choice with no lower bound (-1) starts
 * at 0 B; ranges that share their end byte overlap.  Another shape's
 * choice counts only when significant and of the same variable, set the
 * same way, for the same scope.  A variable of c's library chosen at
 * another shape (of as many nodes, or as many ranks) where c's was not
 * is a gap, whichever choice shows it first; a choice past nchoices is
 * none.  With buf NULL the reason is a static one whatever len says. */
static void test_conflict_edges(void)
{
    char why[512];
    /* By rank count: 2x2 and 1x4. */
    ct_tune_choice_t rc[] = {
        MCA(AR_ALG, "4", CT_COLL_ALLREDUCE, -1, 1023, 2, 4),
        MCA(AR_ALG, "4", CT_COLL_ALLREDUCE, 0, 1023, 1, 4),
    };
    ct_tune_result_t r = RESULT(rc);
    CT_CHECK(&tally, ct_emit_shape_conflict(&r, &rc[0], why, sizeof why) == NULL);
    CT_CHECK(&tally, ct_emit_shape_conflict(&r, &rc[1], why, sizeof why) == NULL);
    rc[0] = (ct_tune_choice_t)MCA(AR_ALG, "5", CT_COLL_ALLREDUCE, 1024, ANY, 2, 4);
    rc[1].max_bytes = 1024; /* 1024 B both */
    CT_CHECK(&tally, has(ct_emit_shape_conflict(&r, &rc[0], why, sizeof why),
                         AR_ALG "=5 for allreduce over 1024 B and up holds at 2x2 but " AR_ALG
                                "=4 over 0..1024 B at 1x4 differs"));
    CT_CHECK(&tally, ct_emit_shape_conflict(&r, &rc[0], NULL, sizeof why) != NULL);

    /* Keyed by nothing: another value at 1x4 that is not significant, or
     * set the other way (the environment), is no conflict. */
    ct_tune_choice_t un[] = {
        MCA("btl_vader_eager_limit", "8192", CT_SCOPE_GLOBAL, ANY, ANY, 1, 2),
        MCA("btl_vader_eager_limit", "4096", CT_SCOPE_GLOBAL, ANY, ANY, 1, 4),
    };
    r = RESULT(un);
    un[1].significant = 0;
    CT_CHECK(&tally, ct_emit_shape_conflict(&r, &un[0], why, sizeof why) == NULL);
    un[1].significant = 1;
    un[1].via = CT_VIA_ENV;
    CT_CHECK(&tally, ct_emit_shape_conflict(&r, &un[0], why, sizeof why) == NULL);
    /* NCCL_ALGO for every collective at 1x2, for allreduce alone at 1x4:
     * not the same variable and scope, so the global one was not chosen at
     * 1x4 (a gap), not chosen otherwise. */
    ct_tune_choice_t sc[] = {
        ENV("NCCL_ALGO", "ring", CT_SCOPE_GLOBAL, ANY, ANY, 1, 2),
        ENV("NCCL_ALGO", "allreduce:tree", CT_COLL_ALLREDUCE, ANY, ANY, 1, 4),
    };
    r = RESULT(sc);
    CT_CHECK(&tally, has(ct_emit_shape_conflict(&r, &sc[0], why, sizeof why),
                         "NCCL_ALGO=ring holds at 1x2 but was not chosen at 1x4"));

    /* Gaps: MPICH's allreduce CVAR shows the shape where broadcast's was
     * not chosen, listed first; at 1x4 beside 1x2 (one node both), at 2x2
     * beside 1x4 (four ranks both); not when it is not significant. */
    ct_tune_choice_t gap[] = {
        ENV("MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", "recursive_doubling", CT_COLL_ALLREDUCE, ANY,
            ANY, 1, 4),
        ENV("MPIR_CVAR_BCAST_INTRA_ALGORITHM", "binomial", CT_COLL_BROADCAST, ANY, ANY, 1, 2),
        /* past nchoices: broadcast's chosen at 1x4 alike, at 2x2 otherwise */
        ENV("MPIR_CVAR_BCAST_INTRA_ALGORITHM", "binomial", CT_COLL_BROADCAST, ANY, ANY, 1, 4),
        ENV("MPIR_CVAR_BCAST_INTRA_ALGORITHM", "scatter_ring_allgather", CT_COLL_BROADCAST, ANY,
            ANY, 2, 4),
    };
    r = result_of(gap, 2);
    const char *got = ct_emit_shape_conflict(&r, &gap[1], why, sizeof why);
    CT_CHECK(&tally, has(got, "=binomial for broadcast holds at 1x2 but was not chosen at 1x4"));
    CT_CHECK(&tally, ct_emit_shape_conflict(&r, &gap[1], NULL, sizeof why) != NULL);
    gap[0].significant = 0;
    CT_CHECK(&tally, ct_emit_shape_conflict(&r, &gap[1], why, sizeof why) == NULL);
    gap[0].significant = 1;
    gap[0].nnodes = 2;
    gap[1].nnodes = 1;
    gap[1].nranks = 4;
    CT_CHECK(&tally, has(ct_emit_shape_conflict(&r, &gap[1], why, sizeof why),
                         "holds at 1x4 but was not chosen at 2x2"));
    /* broadcast's at 1x2 and 1x4 alike; the one at 2x2 lies past them. */
    gap[0] = gap[2];
    gap[1].nranks = 2;
    CT_CHECK(&tally, ct_emit_shape_conflict(&r, &gap[1], why, sizeof why) == NULL);
}

/* A variable no file claims holds for every size as chosen: nothing to
 * refuse alone; chosen otherwise at another shape, one value for every
 * shape cannot hold both.  A value every file refuses is refused for
 * that reason, not for another shape's. */
static void test_unclaimed(void)
{
    char why[512];
    ct_tune_choice_t own[] = {
        ENV("OMP_WAIT_POLICY", "active", CT_SCOPE_GLOBAL, ANY, ANY, 1, 2),
        ENV("OMP_WAIT_POLICY", "passive", CT_SCOPE_GLOBAL, ANY, ANY, 1, 4),
    };
    ct_tune_result_t r = result_of(own, 1);
    CT_CHECK(&tally, ct_emit_cannot_carry(&r, &own[0]) == NULL);
    r = RESULT(own);
    CT_CHECK(&tally, has(ct_emit_shape_conflict(&r, &own[0], why, sizeof why),
                         "OMP_WAIT_POLICY=active holds at 1x2 but OMP_WAIT_POLICY=passive at "
                         "1x4 differs; its file holds one value"));
    ct_tune_choice_t bad[] = {
        ENV("NCCL_ALGO", "no_such_algo", CT_SCOPE_GLOBAL, ANY, ANY, 1, 2),
        ENV("NCCL_ALGO", "nor_this_one", CT_SCOPE_GLOBAL, ANY, ANY, 1, 4),
    };
    r = RESULT(bad);
    CT_CHECK(&tally, ct_emit_shape_conflict(&r, &bad[0], why, sizeof why) == NULL);
    CT_CHECK(&tally, has(ct_emit_cannot_carry(&r, &bad[0]), "NCCL would refuse the value"));
}

/* One shape given explicitly is the result's own: the same bytes as a
 * choice that leaves its shape 0. */
static void test_one_shape_same(void)
{
    ct_tune_choice_t own[] = {
        MCA(AR_ALG, "4", CT_COLL_ALLREDUCE, 0, 1023, 0, 0),
        ENV("NCCL_ALGO", "tree", CT_COLL_ALLREDUCE, 0, 65535, 0, 0),
        ENV(AG_CVAR, "brucks", CT_COLL_ALLGATHER, 0, 1023, 0, 0),
    };
    ct_tune_choice_t given[] = {
        MCA(AR_ALG, "4", CT_COLL_ALLREDUCE, 0, 1023, 1, 4),
        ENV("NCCL_ALGO", "tree", CT_COLL_ALLREDUCE, 0, 65535, 1, 4),
        ENV(AG_CVAR, "brucks", CT_COLL_ALLGATHER, 0, 1023, 1, 4),
    };
    ct_tune_result_t a = RESULT(own), b = RESULT(given);
    const ct_emit_format_t *fs[] = {&ct_emit_tuned_rules, &ct_emit_nccl_tuner,
                                    &ct_emit_intel_mpi_env};
    for (size_t i = 0; i < 3; i++) {
        char err[512];
        ct_status_t sa, sb;
        char *ta = write_text(fs[i], &a, &sa, err, sizeof err);
        char *tb = write_text(fs[i], &b, &sb, err, sizeof err);
        CT_CHECK(&tally, sa == CT_OK && sb == CT_OK && ta && tb && strcmp(ta, tb) == 0);
        CT_CHECK(&tally, ta && strstr(ta, "job shapes") == NULL && strstr(ta, "@") == NULL);
        free(ta);
        free(tb);
    }
}

int main(void)
{
    char tmpl[] = "/tmp/ct_emit_shapes_XXXXXX";
    char *dir = mkdtemp(tmpl);
    if (dir == NULL) {
        perror("mkdtemp");
        return 1;
    }
    test_tuned_two_counts(dir);
    test_tuned_same_count(dir);
    test_dynamic_rules_ranges(dir);
    test_unkeyed(dir);
    test_nccl_tuner(dir);
    test_mpich(dir);
    test_one_shape_same();
    test_conflict_edges();
    test_unclaimed();
    clear_dir(dir);
    rmdir(dir);
    return CT_DONE(&tally);
}
