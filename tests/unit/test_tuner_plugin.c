/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_tuner_plugin.c - drives libnccl-tuner-colltune.so the way NCCL 2.28
 * does: dlopen, dlsym("ncclTunerPlugin_v5"), init per communicator, then
 * getCollInfo with a contiguous float[7][3] cost table cast to float **.
 *
 * The plugin's ABI is declared here again, from NCCL's headers, rather than
 * taken from tuner/plugin/abi.h, so a wrong declaration there is caught.
 * Rules files are written into a fresh mkdtemp() directory; the logger
 * captures every message so that rejections and "logged once" can be
 * checked.
 *
 * Usage: test_tuner_plugin [PLUGIN.so [RULES_DIR]]; the build passes both
 * as PLUGIN_PATH and PLUGIN_RULES_DIR.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_test.h"

/* ---- NCCL's side of the ABI (nccl_common.h, tuner_v3/4/5.h) ---------- */

typedef int tt_result_t; /* ncclResult_t; ncclSuccess is 0 */
typedef void (*tt_logger_t)(int level, unsigned long flags, const char *file, int line,
                            const char *fmt, ...);

enum { TT_LOG_WARN = 2, TT_LOG_INFO = 3, TT_LOG_TRACE = 5 };
#define TT_TUNING 0x40UL

enum {
    TT_BROADCAST,
    TT_REDUCE,
    TT_ALLGATHER,
    TT_REDUCESCATTER,
    TT_ALLREDUCE,
    TT_SENDRECV,
    TT_SEND,
    TT_RECV,
    TT_ALLTOALL
};
enum {
    TT_TREE,
    TT_RING,
    TT_COLLNET_DIRECT,
    TT_COLLNET_CHAIN,
    TT_NVLS,
    TT_NVLS_TREE,
    TT_PAT,
    TT_NUM_ALGOS
};
enum { TT_LL, TT_LL128, TT_SIMPLE, TT_NUM_PROTOS };
#define TT_IGNORE (-1.0f)

typedef struct {
    int nNvlDomains, minRanks, maxRanks;
} tt_nvl_t;
typedef struct {
    double d[144];
} tt_constants_t;

typedef struct {
    const char *name;
    tt_result_t (*init)(void **ctx, uint64_t commId, size_t nRanks, size_t nNodes, tt_logger_t log,
                        tt_nvl_t *nvl, tt_constants_t *constants);
    tt_result_t (*getCollInfo)(void *ctx, int coll, size_t nBytes, int numPipeOps, float **table,
                               int numAlgo, int numProto, int regBuff, int *nChannels);
    tt_result_t (*finalize)(void *ctx);
} tt_v5_t;

typedef struct {
    const char *name;
    tt_result_t (*init)(size_t nRanks, size_t nNodes, tt_logger_t log, void **ctx);
    tt_result_t (*getCollInfo)(void *ctx, int coll, size_t nBytes, int numPipeOps, float **table,
                               int numAlgo, int numProto, int regBuff, int *nChannels);
    tt_result_t (*destroy)(void *ctx);
} tt_v4_t;

typedef struct {
    const char *name;
    tt_result_t (*init)(size_t nRanks, size_t nNodes, tt_logger_t log, void **ctx);
    tt_result_t (*getCollInfo)(void *ctx, int coll, size_t nBytes, int numPipeOps, float **table,
                               int numAlgo, int numProto, int *nChannels);
    tt_result_t (*destroy)(void *ctx);
} tt_v3_t;

/* ---- captured log ---------------------------------------------------- */

#define LOG_MAX 64
typedef struct {
    int level;
    unsigned long flags;
    char msg[2600];
} tt_msg_t;

/* The logger has no context argument, so the capture lives in the test.
 * g_log holds the messages since the last reset; g_total and g_untagged
 * count every message of the run, for the tagging check at the end. */
static tt_msg_t g_log[LOG_MAX];
static int g_nlog;
static int g_total;
static int g_untagged;

static void capture(int level, unsigned long flags, const char *file, int line, const char *fmt,
                    ...)
{
    char msg[sizeof(g_log[0].msg)];
    va_list ap;

    (void)file;
    (void)line;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    g_total++;
    if ((flags & TT_TUNING) == 0 || strncmp(msg, "TUNER/colltune: ", 16) != 0)
        g_untagged++;
    if (g_nlog == LOG_MAX)
        return;
    g_log[g_nlog].level = level;
    g_log[g_nlog].flags = flags;
    memcpy(g_log[g_nlog].msg, msg, sizeof(msg));
    g_nlog++;
}

static int count_level(int level)
{
    int n = 0;
    for (int i = 0; i < g_nlog; i++)
        n += g_log[i].level == level;
    return n;
}

/* ---- helpers --------------------------------------------------------- */

typedef struct {
    ct_test_tally_t *t;
    const tt_v5_t *v5;
    char dir[256];
    int nfiles;
} tt_env_t;

/* NCCL's table before the tuner sees it: distinct costs, and the CollNet
 * and NVLS rows ruled out as on a machine without them. */
static void table_fill(float table[TT_NUM_ALGOS][TT_NUM_PROTOS])
{
    for (int a = 0; a < TT_NUM_ALGOS; a++)
        for (int p = 0; p < TT_NUM_PROTOS; p++)
            table[a][p] = 100.0f + 10.0f * (float)a + (float)p + 0.25f;
    for (int a = TT_COLLNET_DIRECT; a <= TT_NVLS_TREE; a++)
        for (int p = 0; p < TT_NUM_PROTOS; p++)
            table[a][p] = TT_IGNORE;
}

/* Writes text to a new file in the test directory; returns its path. */
static const char *write_rules(tt_env_t *e, const char *text, size_t len)
{
    static char path[512];
    FILE *fp;

    snprintf(path, sizeof(path), "%s/rules%d.conf", e->dir, e->nfiles++);
    fp = fopen(path, "wb");
    if (fp == NULL || fwrite(text, 1, len, fp) != len || fclose(fp) != 0) {
        perror(path);
        exit(99);
    }
    return path;
}

static void *init5(tt_env_t *e, const char *path, size_t nranks, size_t nnodes)
{
    void *ctx = (void *)&ctx; /* must be overwritten */
    tt_nvl_t nvl = {1, (int)nranks, (int)nranks};
    tt_constants_t k;

    memset(&k, 0, sizeof(k));
    if (path)
        setenv("NCCL_TUNER_CONFIG_FILE", path, 1);
    else
        unsetenv("NCCL_TUNER_CONFIG_FILE");
    g_nlog = 0;
    CT_CHECK(e->t, e->v5->init(&ctx, 0x1234abcdULL, nranks, nnodes, capture, &nvl, &k) == 0);
    CT_CHECK(e->t, ctx != (void *)&ctx);
    return ctx;
}

/* Calls getCollInfo like NCCL and reports what changed.  Returns the
 * number of table entries that differ from the prefilled table; *which_p
 * is set to the algo*3+proto of the last one, -1 if none. */
static int call5(tt_env_t *e, void *ctx, int coll, size_t nbytes, int pipe, int regbuff, int nch_in,
                 int *nch_out, int *which_p)
{
    float table[TT_NUM_ALGOS][TT_NUM_PROTOS], ref[TT_NUM_ALGOS][TT_NUM_PROTOS];
    int nch = nch_in, changed = 0;

    table_fill(table);
    table_fill(ref);
    CT_CHECK(e->t, e->v5->getCollInfo(ctx, coll, nbytes, pipe, (float **)table, TT_NUM_ALGOS,
                                      TT_NUM_PROTOS, regbuff, &nch) == 0);
    *which_p = -1;
    for (int a = 0; a < TT_NUM_ALGOS; a++)
        for (int p = 0; p < TT_NUM_PROTOS; p++)
            if (memcmp(&table[a][p], &ref[a][p], sizeof(float)) != 0) {
                changed++;
                *which_p = a * TT_NUM_PROTOS + p;
            }
    *nch_out = nch;
    return changed;
}

/* As call5, from the table given (NCCL's costs and IGNOREs) rather than
 * table_fill's; the table is left as the plugin wrote it. */
static int call5_table(tt_env_t *e, void *ctx, int coll, size_t nbytes,
                       float table[TT_NUM_ALGOS][TT_NUM_PROTOS], int *which_p)
{
    float ref[TT_NUM_ALGOS][TT_NUM_PROTOS];
    int nch = 0, changed = 0;

    memcpy(ref, table, sizeof(ref));
    CT_CHECK(e->t, e->v5->getCollInfo(ctx, coll, nbytes, 1, (float **)table, TT_NUM_ALGOS,
                                      TT_NUM_PROTOS, 0, &nch) == 0);
    *which_p = -1;
    for (int a = 0; a < TT_NUM_ALGOS; a++)
        for (int p = 0; p < TT_NUM_PROTOS; p++)
            if (memcmp(&table[a][p], &ref[a][p], sizeof(float)) != 0) {
                changed++;
                *which_p = a * TT_NUM_PROTOS + p;
            }
    CT_CHECK(e->t, nch == 0);
    return changed;
}

/* Expects exactly table[algo][proto] set to 0.0 and *nChannels == nch. */
#define EXPECT_PICK(e, ctx, coll, nbytes, pipe, regbuff, nch_in, algo, proto, nch_want)            \
    do {                                                                                           \
        int nch_, which_;                                                                          \
        int n_ = call5((e), (ctx), (coll), (nbytes), (pipe), (regbuff), (nch_in), &nch_, &which_); \
        CT_CHECK((e)->t, n_ == 1 && which_ == (algo)*TT_NUM_PROTOS + (proto));                     \
        CT_CHECK((e)->t, nch_ == (nch_want));                                                      \
    } while (0)

/* Expects the table and *nChannels bit-for-bit as passed. */
#define EXPECT_UNTOUCHED(e, ctx, coll, nbytes, pipe, regbuff, nch_in)                              \
    do {                                                                                           \
        int nch_, which_;                                                                          \
        int n_ = call5((e), (ctx), (coll), (nbytes), (pipe), (regbuff), (nch_in), &nch_, &which_); \
        CT_CHECK((e)->t, n_ == 0);                                                                 \
        CT_CHECK((e)->t, nch_ == (nch_in));                                                        \
    } while (0)

static int log_has(int level, const char *needle)
{
    for (int i = 0; i < g_nlog; i++)
        if (g_log[i].level == level && strstr(g_log[i].msg, needle))
            return 1;
    return 0;
}

/* ---- the checks ------------------------------------------------------ */

static const char good_rules[] = "# colltune test rules\n"                                   /* 1 */
                                 "   # an indented comment, then a blank line\n"             /* 2 */
                                 "\n"                                                        /* 3 */
                                 "allreduce,0,1023,tree,ll,4,-1,-1\n"                        /* 4 */
                                 "allreduce, 1024 ,65536,ring,ll128,-1,-1,-1  # spaces ok\n" /* 5 */
                                 "allreduce,65537,-1,ring,simple,8,2,-1\n"                   /* 6 */
                                 "allreduce,65537,-1,pat,simple,6,-1,16\n"                   /* 7 */
                                 "broadcast,-1,4096,ring,ll,2,-1,-1\n"                       /* 8 */
                                 "reduce,0,-1,tree,simple,3,-1,-1,4\n"                       /* 9 */
                                 "reducescatter,0,-1,ring,ll,5,-1,-1,-1,1\n"          /* 10 */
                                 "reducescatter,0,-1,tree,ll,7,-1,-1,-1,0\n"          /* 11 */
                                 "allgather,100,200,nvls,simple,9,-1,-1\n"            /* 12 */
                                 "allgather,100,200,ring,simple,9,-1,-1\n"            /* 13 */
                                 "ALLGATHER,300,400,Ring,LL128,11,-1,-1\n"            /* 14 */
                                 "ncclFuncAllGather,500,600,ring,simple,12,-1,-1\r\n" /* 15 */
                                 "allgather,700,800,tree,simple,13,-1,-1"; /* 16: no \n */

static void test_matching(tt_env_t *e)
{
    const char *path = write_rules(e, good_rules, sizeof(good_rules) - 1);
    void *c82 = init5(e, path, 8, 2); /* 8 ranks on 2 nodes */

    CT_CHECK(e->t, count_level(TT_LOG_WARN) == 0);
    CT_CHECK(e->t, log_has(TT_LOG_INFO, "loaded 13 rule(s)"));

    /* Size range edges, both inclusive. */
    EXPECT_PICK(e, c82, TT_ALLREDUCE, 0, 1, 0, 0, TT_TREE, TT_LL, 4);
    EXPECT_PICK(e, c82, TT_ALLREDUCE, 1023, 1, 0, 0, TT_TREE, TT_LL, 4);
    /* channels -1 keeps whatever NCCL passed in. */
    EXPECT_PICK(e, c82, TT_ALLREDUCE, 1024, 1, 0, 0, TT_RING, TT_LL128, 0);
    EXPECT_PICK(e, c82, TT_ALLREDUCE, 65536, 1, 0, 13, TT_RING, TT_LL128, 13);
    /* nNodes 2 matches this communicator; max_bytes -1 is unbounded. */
    EXPECT_PICK(e, c82, TT_ALLREDUCE, 65537, 1, 0, 0, TT_RING, TT_SIMPLE, 8);
    EXPECT_PICK(e, c82, TT_ALLREDUCE, SIZE_MAX, 1, 0, 0, TT_RING, TT_SIMPLE, 8);
    /* min_bytes -1 means 0. */
    EXPECT_PICK(e, c82, TT_BROADCAST, 0, 1, 0, 0, TT_RING, TT_LL, 2);
    EXPECT_PICK(e, c82, TT_BROADCAST, 4096, 1, 0, 0, TT_RING, TT_LL, 2);
    EXPECT_UNTOUCHED(e, c82, TT_BROADCAST, 4097, 1, 0, 0);
    /* numPipeOps. */
    EXPECT_PICK(e, c82, TT_REDUCE, 10, 4, 0, 0, TT_TREE, TT_SIMPLE, 3);
    EXPECT_UNTOUCHED(e, c82, TT_REDUCE, 10, 1, 0, 0);
    /* regBuff. */
    EXPECT_PICK(e, c82, TT_REDUCESCATTER, 10, 1, 1, 0, TT_RING, TT_LL, 5);
    EXPECT_PICK(e, c82, TT_REDUCESCATTER, 10, 1, 0, 0, TT_TREE, TT_LL, 7);
    /* Names are case-insensitive; ncclFunc names work; CRLF and a last
     * line without a newline are read. */
    EXPECT_PICK(e, c82, TT_ALLGATHER, 350, 1, 0, 0, TT_RING, TT_LL128, 11);
    EXPECT_PICK(e, c82, TT_ALLGATHER, 550, 1, 0, 0, TT_RING, TT_SIMPLE, 12);
    EXPECT_PICK(e, c82, TT_ALLGATHER, 800, 1, 0, 0, TT_TREE, TT_SIMPLE, 13);
    /* Collective must match; gaps between ranges match nothing. */
    EXPECT_UNTOUCHED(e, c82, TT_ALLGATHER, 250, 1, 0, 0);
    EXPECT_UNTOUCHED(e, c82, TT_ALLGATHER, 0, 1, 0, 7);
    EXPECT_UNTOUCHED(e, c82, TT_SENDRECV, 100, 1, 0, 0);
    EXPECT_UNTOUCHED(e, c82, TT_ALLTOALL, 100, 1, 0, 0);

    /* First match wins even when NCCL has ruled its choice out: line 12's
     * nvls/simple is IGNORE here, so nothing changes (line 13 is not
     * consulted), and the note is logged once, naming the line. */
    g_nlog = 0;
    EXPECT_UNTOUCHED(e, c82, TT_ALLGATHER, 150, 1, 0, 0);
    EXPECT_UNTOUCHED(e, c82, TT_ALLGATHER, 150, 1, 0, 3);
    CT_CHECK(e->t, g_nlog == 1);
    CT_CHECK(e->t, log_has(TT_LOG_INFO, "line 12"));

    /* nRanks: 16 ranks on 1 node skips line 6 (nNodes 2), takes line 7. */
    void *c161 = init5(e, path, 16, 1);
    EXPECT_PICK(e, c161, TT_ALLREDUCE, 65537, 1, 0, 0, TT_PAT, TT_SIMPLE, 6);
    /* A pre-PAT NCCL passes 6 algorithm rows: pat is outside the table. */
    {
        float table[TT_NUM_ALGOS][TT_NUM_PROTOS], ref[TT_NUM_ALGOS][TT_NUM_PROTOS];
        int nch = 0;
        table_fill(table);
        table_fill(ref);
        CT_CHECK(e->t, e->v5->getCollInfo(c161, TT_ALLREDUCE, 65537, 1, (float **)table, 6,
                                          TT_NUM_PROTOS, 0, &nch) == 0);
        CT_CHECK(e->t, memcmp(table, ref, sizeof(table)) == 0 && nch == 0);
    }
    /* A table with rows of 4 is not NCCL's layout: left alone. */
    {
        float t4[TT_NUM_ALGOS][4], r4[TT_NUM_ALGOS][4];
        int nch = 0;
        for (int a = 0; a < TT_NUM_ALGOS; a++)
            for (int p = 0; p < 4; p++)
                t4[a][p] = r4[a][p] = 1.0f + (float)(a * 4 + p);
        CT_CHECK(e->t, e->v5->getCollInfo(c161, TT_ALLREDUCE, 65537, 1, (float **)t4, TT_NUM_ALGOS,
                                          4, 0, &nch) == 0);
        CT_CHECK(e->t, memcmp(t4, r4, sizeof(t4)) == 0 && nch == 0);
    }
    /* 8 ranks on 1 node: neither line 6 nor 7. */
    void *c81 = init5(e, path, 8, 1);
    EXPECT_UNTOUCHED(e, c81, TT_ALLREDUCE, 65537, 1, 0, 0);
    EXPECT_UNTOUCHED(e, c81, TT_ALLREDUCE, 65537, 1, 0, 24);
    EXPECT_PICK(e, c81, TT_ALLREDUCE, 100, 1, 0, 0, TT_TREE, TT_LL, 4);

    CT_CHECK(e->t, e->v5->finalize(c82) == 0);
    CT_CHECK(e->t, e->v5->finalize(c161) == 0);
    CT_CHECK(e->t, e->v5->finalize(c81) == 0);
}

/* -1 for the algorithm or the protocol: the other is the rule's, and
 * within it NCCL's cheapest entry among those NCCL left available wins.
 * An entry NCCL ruled out (IGNORE) is never made to win: with none
 * available the call is left to NCCL and that is said once. */
static void test_any(tt_env_t *e)
{
    static const char text[] = "allreduce,0,1023,tree,-1,-1,-1,-1\n"      /* 1 */
                               "allreduce,1024,4095,-1,simple,-1,-1,-1\n" /* 2 */
                               "broadcast,0,-1,-1,LL128,2,-1,-1\n"        /* 3 */
                               "allgather,0,-1,nvls,-1,-1,-1,-1\n";       /* 4 */
    float t[TT_NUM_ALGOS][TT_NUM_PROTOS];
    int which;
    void *ctx = init5(e, write_rules(e, text, sizeof(text) - 1), 8, 1);

    CT_CHECK(e->t, count_level(TT_LOG_WARN) == 0);
    CT_CHECK(e->t, log_has(TT_LOG_INFO, "loaded 4 rule(s)"));

    /* tree's protocols as NCCL costs them: LL128 is the cheapest. */
    table_fill(t);
    t[TT_TREE][TT_LL] = 50.0f;
    t[TT_TREE][TT_LL128] = 20.0f;
    t[TT_TREE][TT_SIMPLE] = 30.0f;
    t[TT_RING][TT_LL] = 1.0f; /* cheaper still, but not tree */
    CT_CHECK(e->t, call5_table(e, ctx, TT_ALLREDUCE, 64, t, &which) == 1 &&
                       which == TT_TREE * TT_NUM_PROTOS + TT_LL128);
    CT_CHECK(e->t, t[TT_TREE][TT_LL128] == 0.0f && t[TT_RING][TT_LL] == 1.0f);
    /* The cheapest ruled out: the next one; IGNORE stays IGNORE. */
    table_fill(t);
    t[TT_TREE][TT_LL] = TT_IGNORE;
    CT_CHECK(e->t, call5_table(e, ctx, TT_ALLREDUCE, 64, t, &which) == 1 &&
                       which == TT_TREE * TT_NUM_PROTOS + TT_LL128);
    CT_CHECK(e->t, t[TT_TREE][TT_LL] == TT_IGNORE);

    /* Simple with NCCL's cheapest algorithm for it: tree's is ruled out,
     * the CollNet and NVLS rows are IGNORE (table_fill), so ring. */
    table_fill(t);
    t[TT_TREE][TT_SIMPLE] = TT_IGNORE;
    CT_CHECK(e->t, call5_table(e, ctx, TT_ALLREDUCE, 2048, t, &which) == 1 &&
                       which == TT_RING * TT_NUM_PROTOS + TT_SIMPLE);
    for (int a = TT_COLLNET_DIRECT; a <= TT_NVLS_TREE; a++)
        CT_CHECK(e->t, t[a][TT_SIMPLE] == TT_IGNORE);
    table_fill(t);
    t[TT_PAT][TT_SIMPLE] = 0.5f; /* NCCL finds PAT cheapest: it stays so */
    CT_CHECK(e->t, call5_table(e, ctx, TT_ALLREDUCE, 2048, t, &which) == 1 &&
                       which == TT_PAT * TT_NUM_PROTOS + TT_SIMPLE);
    /* The rule's channels apply as for any rule. */
    EXPECT_PICK(e, ctx, TT_BROADCAST, 100, 1, 0, 0, TT_TREE, TT_LL128, 2);

    /* No available entry: untouched, logged once for the rule. */
    g_nlog = 0;
    table_fill(t);
    for (int a = 0; a < TT_NUM_ALGOS; a++)
        t[a][TT_LL128] = TT_IGNORE;
    CT_CHECK(e->t, call5_table(e, ctx, TT_BROADCAST, 100, t, &which) == 0);
    table_fill(t);
    for (int a = 0; a < TT_NUM_ALGOS; a++)
        t[a][TT_LL128] = TT_IGNORE;
    CT_CHECK(e->t, call5_table(e, ctx, TT_BROADCAST, 200, t, &which) == 0);
    CT_CHECK(e->t,
             g_nlog == 1 && log_has(TT_LOG_INFO, "line 3") && log_has(TT_LOG_INFO, "any/ll128"));
    /* nvls is IGNORE in every protocol here (table_fill). */
    g_nlog = 0;
    EXPECT_UNTOUCHED(e, ctx, TT_ALLGATHER, 100, 1, 0, 0);
    CT_CHECK(e->t,
             g_nlog == 1 && log_has(TT_LOG_INFO, "line 4") && log_has(TT_LOG_INFO, "nvls/any"));
    /* Outside the rules' sizes and collectives: NCCL's. */
    EXPECT_UNTOUCHED(e, ctx, TT_ALLREDUCE, 4096, 1, 0, 0);
    EXPECT_UNTOUCHED(e, ctx, TT_REDUCE, 64, 1, 0, 0);
    CT_CHECK(e->t, e->v5->finalize(ctx) == 0);
}

/* Boundaries of one rule's fields, table-driven: a one-byte range
 * (min_bytes == max_bytes loads and matches that size only), one byte
 * either side of a range, the first matching line winning over a later
 * overlapping one, nRanks and nNodes matching only their own communicator
 * size, and -1 in each of them matching any. */
static void test_bounds(tt_env_t *e)
{
    static const char text[] = "allreduce,4096,4096,tree,ll128,3,-1,-1\n"  /* 1 */
                               "allreduce,4096,8192,ring,simple,5,-1,-1\n" /* 2 */
                               "broadcast,0,-1,ring,ll,2,-1,8\n"           /* 3 */
                               "broadcast,0,-1,tree,ll,4,2,-1\n"           /* 4 */
                               "reduce,0,0,tree,simple,6,-1,-1\n";         /* 5 */
    static const struct {
        size_t nranks, nnodes;
        int coll;
        size_t nbytes;
        int algo, proto, nch; /* algo -1: untouched */
    } cases[] = {
        {8, 1, TT_ALLREDUCE, 4095, -1, 0, 0},              /* one below line 1 */
        {8, 1, TT_ALLREDUCE, 4096, TT_TREE, TT_LL128, 3},  /* line 1 only size, over 2 */
        {8, 1, TT_ALLREDUCE, 4097, TT_RING, TT_SIMPLE, 5}, /* one above: line 2 */
        {8, 1, TT_ALLREDUCE, 8192, TT_RING, TT_SIMPLE, 5}, /* line 2's max, inclusive */
        {8, 1, TT_ALLREDUCE, 8193, -1, 0, 0},              /* one above line 2 */
        {8, 1, TT_BROADCAST, 64, TT_RING, TT_LL, 2},       /* nRanks 8 at 8 ranks */
        {7, 1, TT_BROADCAST, 64, -1, 0, 0},                /* ... not at 7 */
        {9, 1, TT_BROADCAST, 64, -1, 0, 0},                /* ... nor at 9 */
        {9, 2, TT_BROADCAST, 64, TT_TREE, TT_LL, 4},       /* nNodes 2, nRanks -1 */
        {8, 2, TT_BROADCAST, 64, TT_RING, TT_LL, 2},       /* both match: line 3 first */
        {16, 3, TT_BROADCAST, 64, -1, 0, 0},               /* nNodes 3: neither */
        {8, 1, TT_REDUCE, 0, TT_TREE, TT_SIMPLE, 6},       /* 0..0: size 0 only */
        {8, 1, TT_REDUCE, 1, -1, 0, 0},                    /* ... not 1 */
    };
    const char *path = write_rules(e, text, sizeof(text) - 1);

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        void *ctx = init5(e, path, cases[i].nranks, cases[i].nnodes);
        CT_CHECK(e->t, count_level(TT_LOG_WARN) == 0);
        CT_CHECK(e->t, log_has(TT_LOG_INFO, "loaded 5 rule(s)"));
        if (cases[i].algo < 0)
            EXPECT_UNTOUCHED(e, ctx, cases[i].coll, cases[i].nbytes, 1, 0, 0);
        else
            EXPECT_PICK(e, ctx, cases[i].coll, cases[i].nbytes, 1, 0, 0, cases[i].algo,
                        cases[i].proto, cases[i].nch);
        CT_CHECK(e->t, e->v5->finalize(ctx) == 0);
    }
}

/* Each communicator owns its rules: a later init with another file does
 * not change an earlier context. */
static void test_contexts_independent(tt_env_t *e)
{
    static const char a[] = "allreduce,0,-1,tree,ll,2,-1,-1\n";
    static const char b[] = "allreduce,0,-1,ring,simple,9,-1,-1\n";
    void *ca = init5(e, write_rules(e, a, sizeof(a) - 1), 4, 1);
    void *cb = init5(e, write_rules(e, b, sizeof(b) - 1), 4, 1);

    EXPECT_PICK(e, ca, TT_ALLREDUCE, 64, 1, 0, 0, TT_TREE, TT_LL, 2);
    EXPECT_PICK(e, cb, TT_ALLREDUCE, 64, 1, 0, 0, TT_RING, TT_SIMPLE, 9);
    CT_CHECK(e->t, e->v5->finalize(cb) == 0);
    EXPECT_PICK(e, ca, TT_ALLREDUCE, 64, 1, 0, 0, TT_TREE, TT_LL, 2);
    CT_CHECK(e->t, e->v5->finalize(ca) == 0);
}

/* Unset or empty NCCL_TUNER_CONFIG_FILE reads ./nccl_tuner.conf. */
static void test_default_file(tt_env_t *e)
{
    static const char text[] = "broadcast,0,-1,tree,ll128,3,-1,-1\n";
    char old[4096], path[512];
    FILE *fp;

    snprintf(path, sizeof(path), "%s/nccl_tuner.conf", e->dir);
    fp = fopen(path, "w");
    if (fp == NULL || fputs(text, fp) < 0 || fclose(fp) != 0) {
        perror(path);
        exit(99);
    }
    if (getcwd(old, sizeof(old)) == NULL || chdir(e->dir) != 0) {
        perror("chdir");
        exit(99);
    }
    void *c1 = init5(e, NULL, 2, 1);
    EXPECT_PICK(e, c1, TT_BROADCAST, 8, 1, 0, 0, TT_TREE, TT_LL128, 3);
    void *c2 = init5(e, "", 2, 1);
    EXPECT_PICK(e, c2, TT_BROADCAST, 8, 1, 0, 0, TT_TREE, TT_LL128, 3);
    if (chdir(old) != 0) {
        perror("chdir");
        exit(99);
    }
    e->v5->finalize(c1);
    e->v5->finalize(c2);
    unlink(path);
}

/* A missing file: one WARN at init, silence and no changes afterwards. */
static void test_missing_file(tt_env_t *e)
{
    char path[512];

    snprintf(path, sizeof(path), "%s/does-not-exist.conf", e->dir);
    void *ctx = init5(e, path, 8, 1);
    CT_CHECK(e->t, g_nlog == 1 && count_level(TT_LOG_WARN) == 1);
    CT_CHECK(e->t, log_has(TT_LOG_WARN, path));
    g_nlog = 0;
    for (int coll = TT_BROADCAST; coll <= TT_ALLREDUCE; coll++) {
        EXPECT_UNTOUCHED(e, ctx, coll, 0, 1, 0, 0);
        EXPECT_UNTOUCHED(e, ctx, coll, 1 << 20, 1, 1, 16);
    }
    CT_CHECK(e->t, g_nlog == 0);
    CT_CHECK(e->t, e->v5->finalize(ctx) == 0);
}

typedef struct {
    const char *what;
    const char *text; /* NULL: built by the test */
    int line;         /* line number the message must name */
    const char *needle;
} tt_bad_t;

/* Every malformed file is rejected whole: one WARN naming file and line,
 * and then even its good first line is not applied. */
static void test_rejects(tt_env_t *e)
{
    static const char head[] = "allreduce,0,-1,ring,simple,4,-1,-1\n"
                               "# comment\n";
    static const tt_bad_t cases[] = {
        {"unknown collective", "allreduse,0,10,ring,ll,-1,-1,-1\n", 3, "allreduse"},
        {"alltoall is not tunable", "alltoall,0,10,ring,ll,-1,-1,-1\n", 3, "alltoall"},
        {"unknown algorithm", "allreduce,0,10,rings,ll,-1,-1,-1\n", 3, "rings"},
        {"unknown protocol", "allreduce,0,10,ring,ll64,-1,-1,-1\n", 3, "ll64"},
        {"algorithm and protocol both -1", "allreduce,0,10,-1,-1,-1,-1,-1\n", 3, "both -1"},
        {"protocol -2", "allreduce,0,10,ring,-2,-1,-1,-1\n", 3, "unknown protocol '-2'"},
        {"algorithm any", "allreduce,0,10,any,ll,-1,-1,-1\n", 3, "or -1"},
        {"collective -1", "-1,0,10,ring,ll,-1,-1,-1\n", 3, "unknown collective '-1'"},
        {"number with junk", "\nallreduce,12x,100,ring,ll,-1,-1,-1\n", 4, "12x"},
        {"fractional channels", "allreduce,0,100,ring,ll,4.0,-1,-1\n", 3, "4.0"},
        {"zero channels", "allreduce,0,100,ring,ll,0,-1,-1\n", 3, "channels"},
        {"negative nNodes", "allreduce,0,100,ring,ll,-1,-2,-1\n", 3, "nNodes"},
        {"hex nRanks", "allreduce,0,100,ring,ll,-1,-1,0x10\n", 3, "0x10"},
        {"size overflow", "allreduce,0,99999999999999999999999,ring,ll,-1,-1,-1\n", 3, "max_bytes"},
        {"regBuff 2", "allreduce,0,100,ring,ll,-1,-1,-1,-1,2\n", 3, "regBuff"},
        {"min > max", "allreduce,100,10,ring,ll,-1,-1,-1\n", 3, "larger than"},
        {"too few fields", "allreduce,0,100,ring,ll,-1,-1\n", 3, "only 7"},
        {"too many fields", "allreduce,0,100,ring,ll,-1,-1,-1,-1,-1,-1\n", 3, "more than 10"},
        {"empty field", "allreduce,0,,ring,ll,-1,-1,-1\n", 3, "empty"},
        {"trailing comma", "allreduce,0,100,ring,ll,-1,-1,-1,\n", 3, "empty"},
        {"bad line after good ones",
         "broadcast,0,100,ring,ll,-1,-1,-1\n\n\n"
         "broadcast,0,100,ring,lll,-1,-1,-1\n",
         6, "lll"},
        {"overlong line", NULL, 3, "longer than 1024"},
        {"very long line", NULL, 3, "longer than 1024"},
        {"NUL byte", NULL, 3, "NUL"},
    };
    char text[4096];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const tt_bad_t *c = &cases[i];
        size_t len;
        char line_tag[32];

        len = (size_t)snprintf(text, sizeof(text), "%s", head);
        if (strcmp(c->what, "overlong line") == 0 || strcmp(c->what, "very long line") == 0) {
            /* 1025 bytes (or 3000), even inside a comment. */
            size_t n = c->what[0] == 'o' ? 1025 : 3000;
            memset(text + len, ' ', n);
            text[len] = '#';
            len += n;
            text[len++] = '\n';
        } else if (strcmp(c->what, "NUL byte") == 0) {
            static const char nul[] = "allreduce,0,1\0000,ring,ll,-1,-1,-1\n";
            memcpy(text + len, nul, sizeof(nul) - 1);
            len += sizeof(nul) - 1;
        } else {
            len += (size_t)snprintf(text + len, sizeof(text) - len, "%s", c->text);
        }
        const char *path = write_rules(e, text, len);
        void *ctx = init5(e, path, 8, 1);

        snprintf(line_tag, sizeof(line_tag), ":%d:", c->line);
        int ok = g_nlog == 1 && count_level(TT_LOG_WARN) == 1 && strstr(g_log[0].msg, path) &&
                 strstr(g_log[0].msg, line_tag) && strstr(g_log[0].msg, c->needle);
        CT_CHECK(e->t, ok);
        if (!ok)
            fprintf(stderr, "  case \"%s\": got %d message(s): %s\n", c->what, g_nlog,
                    g_nlog ? g_log[0].msg : "");
        g_nlog = 0;
        EXPECT_UNTOUCHED(e, ctx, TT_ALLREDUCE, 64, 1, 0, 0);
        EXPECT_UNTOUCHED(e, ctx, TT_BROADCAST, 64, 1, 0, 5);
        CT_CHECK(e->t, g_nlog == 0);
        CT_CHECK(e->t, e->v5->finalize(ctx) == 0);
    }

    /* The limit is inclusive: a 1024-byte rule line is fine. */
    {
        static const char rule[] = "allreduce,0,-1,tree,ll128,-1,-1,-1";
        size_t len = sizeof(rule) - 1;
        memcpy(text, rule, len);
        memset(text + len, ' ', 1024 - len);
        text[1024] = '\n';
        void *ctx = init5(e, write_rules(e, text, 1025), 8, 1);
        CT_CHECK(e->t, count_level(TT_LOG_WARN) == 0);
        EXPECT_PICK(e, ctx, TT_ALLREDUCE, 64, 1, 0, 0, TT_TREE, TT_LL128, 0);
        e->v5->finalize(ctx);
    }
}

/* The shipped example and a file in NVIDIA's example format both load. */
static void test_fixtures(tt_env_t *e, const char *dir)
{
    char path[1024];

    snprintf(path, sizeof(path), "%s/example.conf", dir);
    void *c1 = init5(e, path, 32, 4);
    CT_CHECK(e->t, count_level(TT_LOG_WARN) == 0);
    CT_CHECK(e->t, log_has(TT_LOG_INFO, "loaded 8 rule(s)"));
    EXPECT_PICK(e, c1, TT_ALLREDUCE, 1 << 20, 1, 0, 0, TT_RING, TT_LL128, 8);
    EXPECT_PICK(e, c1, TT_BROADCAST, 1 << 20, 1, 0, 0, TT_RING, TT_SIMPLE, 4);
    e->v5->finalize(c1);

    snprintf(path, sizeof(path), "%s/nvidia_example.conf", dir);
    void *c2 = init5(e, path, 32, 4);
    CT_CHECK(e->t, count_level(TT_LOG_WARN) == 0);
    CT_CHECK(e->t, log_has(TT_LOG_INFO, "loaded 8 rule(s)"));
    EXPECT_PICK(e, c2, TT_ALLREDUCE, 65537, 1, 0, 0, TT_RING, TT_SIMPLE, 4);
    e->v5->finalize(c2);

    /* -1 rules as colltune tune writes them, at 16 ranks on 2 nodes. */
    snprintf(path, sizeof(path), "%s/any.conf", dir);
    void *c3 = init5(e, path, 16, 2);
    CT_CHECK(e->t, count_level(TT_LOG_WARN) == 0);
    CT_CHECK(e->t, log_has(TT_LOG_INFO, "loaded 3 rule(s)"));
    EXPECT_PICK(e, c3, TT_ALLREDUCE, 16384, 1, 0, 0, TT_TREE, TT_LL, 0);
    EXPECT_PICK(e, c3, TT_ALLREDUCE, 262143, 1, 0, 0, TT_TREE, TT_LL, 0);
    EXPECT_PICK(e, c3, TT_ALLREDUCE, 262144, 1, 0, 0, TT_TREE, TT_LL128, 0);
    EXPECT_UNTOUCHED(e, c3, TT_ALLREDUCE, 16383, 1, 0, 0);
    EXPECT_PICK(e, c3, TT_BROADCAST, 1 << 20, 1, 0, 0, TT_RING, TT_LL, 0);
    e->v5->finalize(c3);
}

/* Older NCCL releases look up v4 and v3; same rules, same table. */
static void test_old_apis(tt_env_t *e, void *lib)
{
    const tt_v4_t *v4 = dlsym(lib, "ncclTunerPlugin_v4");
    const tt_v3_t *v3 = dlsym(lib, "ncclTunerPlugin_v3");
    /* nNodes 1 and nRanks 4 pin init's argument order. */
    static const char text[] = "allreduce,0,-1,tree,ll,5,1,4\n"
                               "reducescatter,0,-1,ring,ll,6,-1,-1,-1,1\n"
                               "reducescatter,0,-1,tree,ll128,7,-1,-1\n";
    float table[TT_NUM_ALGOS][TT_NUM_PROTOS], ref[TT_NUM_ALGOS][TT_NUM_PROTOS];
    void *ctx = NULL;
    int nch;

    CT_CHECK(e->t, v4 != NULL && v3 != NULL);
    if (v4 == NULL || v3 == NULL)
        return;
    CT_CHECK_STR(e->t, v4->name, "colltune");
    CT_CHECK_STR(e->t, v3->name, "colltune");
    setenv("NCCL_TUNER_CONFIG_FILE", write_rules(e, text, sizeof(text) - 1), 1);

    g_nlog = 0;
    CT_CHECK(e->t, v4->init(4, 1, capture, &ctx) == 0 && ctx != NULL);
    CT_CHECK(e->t, count_level(TT_LOG_WARN) == 0);
    table_fill(table);
    table_fill(ref);
    nch = 0;
    CT_CHECK(e->t, v4->getCollInfo(ctx, TT_REDUCESCATTER, 64, 1, (float **)table, TT_NUM_ALGOS,
                                   TT_NUM_PROTOS, 1, &nch) == 0);
    ref[TT_RING][TT_LL] = 0.0f;
    CT_CHECK(e->t, memcmp(table, ref, sizeof(table)) == 0 && nch == 6);
    CT_CHECK(e->t, v4->destroy(ctx) == 0);

    /* v3 has no regBuff, so the regBuff=1 rule cannot match. */
    ctx = NULL;
    CT_CHECK(e->t, v3->init(4, 1, capture, &ctx) == 0 && ctx != NULL);
    table_fill(table);
    table_fill(ref);
    nch = 0;
    CT_CHECK(e->t, v3->getCollInfo(ctx, TT_REDUCESCATTER, 64, 1, (float **)table, TT_NUM_ALGOS,
                                   TT_NUM_PROTOS, &nch) == 0);
    ref[TT_TREE][TT_LL128] = 0.0f;
    CT_CHECK(e->t, memcmp(table, ref, sizeof(table)) == 0 && nch == 7);
    table_fill(table);
    table_fill(ref);
    nch = 0;
    CT_CHECK(e->t, v3->getCollInfo(ctx, TT_ALLREDUCE, 64, 1, (float **)table, TT_NUM_ALGOS,
                                   TT_NUM_PROTOS, &nch) == 0);
    ref[TT_TREE][TT_LL] = 0.0f;
    CT_CHECK(e->t, memcmp(table, ref, sizeof(table)) == 0 && nch == 5);
    CT_CHECK(e->t, v3->destroy(ctx) == 0);
}

static void rm_dir(const char *dir, int nfiles)
{
    char path[512];
    for (int i = 0; i < nfiles; i++) {
        snprintf(path, sizeof(path), "%s/rules%d.conf", dir, i);
        unlink(path);
    }
    rmdir(dir);
}

int main(int argc, char **argv)
{
    ct_test_tally_t tally = {0, 0};
    tt_env_t env = {&tally, NULL, "", 0};
    const char *plugin = argc > 1 ? argv[1] : NULL;
    const char *rules_dir = argc > 2 ? argv[2] : NULL;
    const char *tmp = getenv("TMPDIR");
    void *lib;

#ifdef PLUGIN_PATH
    if (plugin == NULL)
        plugin = PLUGIN_PATH;
#endif
#ifdef PLUGIN_RULES_DIR
    if (rules_dir == NULL)
        rules_dir = PLUGIN_RULES_DIR;
#endif
    if (plugin == NULL) {
        fprintf(stderr, "usage: %s PLUGIN.so [RULES_DIR]\n", argv[0]);
        return 77;
    }
    lib = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "dlopen %s: %s\n", plugin, dlerror());
        return 1;
    }
    env.v5 = dlsym(lib, "ncclTunerPlugin_v5");
    CT_CHECK(&tally, env.v5 != NULL);
    if (env.v5 == NULL)
        return CT_DONE(&tally);
    CT_CHECK_STR(&tally, env.v5->name, "colltune");

    snprintf(env.dir, sizeof(env.dir), "%s/ct-tuner-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(env.dir) == NULL) {
        perror("mkdtemp");
        return 99;
    }

    test_matching(&env);
    test_any(&env);
    test_bounds(&env);
    test_contexts_independent(&env);
    test_default_file(&env);
    test_missing_file(&env);
    test_rejects(&env);
    if (rules_dir != NULL)
        test_fixtures(&env, rules_dir);
    test_old_apis(&env, lib);

    /* Every line went out tagged NCCL_TUNING with the plugin's prefix. */
    CT_CHECK(&tally, g_total > 0 && g_untagged == 0);

    rm_dir(env.dir, env.nfiles);
    dlclose(lib);
    return CT_DONE(&tally);
}
