/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_nccl_list.c - NCCL_ALGO / NCCL_PROTO values as NCCL 2.24-2.28 read
 * them (src/lib/ct_nccl_list.c): accepted and rejected forms, case, '^',
 * the per-collective form and its projection onto one collective.
 */
#include <string.h>

#include "ct_names.h"
#include "ct_nccl_list.h"
#include "ct_test.h"

static ct_test_tally_t tally;

#define A CT_NCCL_LIST_ALGO
#define P CT_NCCL_LIST_PROTO
#define BIT(x) (1u << (x))
#define ALL_ALGOS ((1u << CT_NCCL_NUM_ALGORITHMS) - 1u)
#define ALL_PROTOS ((1u << CT_NCCL_NUM_PROTOCOLS) - 1u)

/* value parses; func's part is named with mask and element text elems
 * (NULL: not named). */
static void check_func(ct_nccl_list_kind_t kind, const char *value, int func, unsigned mask,
                       const char *elems)
{
    ct_nccl_list_func_t f;
    char err[512] = "";
    int ok = ct_nccl_list_project(kind, value, func, &f, err, sizeof err) == CT_OK;
    CT_CHECK(&tally, ok);
    if (!ok) {
        fprintf(stderr, "  \"%s\" refused: %s\n", value, err);
        return;
    }
    if (elems == NULL) {
        CT_CHECK(&tally, !f.named);
        return;
    }
    int same = f.named && f.mask == mask && f.elems_len == strlen(elems) &&
               strncmp(f.elems, elems, f.elems_len) == 0;
    CT_CHECK(&tally, same);
    if (!same)
        fprintf(stderr, "  \"%s\" on %s: named %d mask 0x%x elems \"%.*s\"\n", value,
                ct_nccl_list_func_name(func), f.named, f.mask, (int)f.elems_len,
                f.elems ? f.elems : "");
}

/* value is refused and the message holds each of the needles. */
static void check_bad(ct_nccl_list_kind_t kind, const char *value, const char *needle,
                      const char *needle2)
{
    ct_nccl_list_t list;
    char err[512] = "";
    int refused = ct_nccl_list_parse(kind, value, &list, err, sizeof err) == CT_ERR_USAGE;
    int said = strstr(err, needle) != NULL && (needle2 == NULL || strstr(err, needle2) != NULL);
    CT_CHECK(&tally, refused && said);
    if (!refused || !said)
        fprintf(stderr, "  \"%s\": refused %d, message: %s\n", value, refused, err);
}

static void test_accepted(void)
{
    /* One list for every collective; case does not matter. */
    for (int f = 0; f < CT_NCCL_LIST_NFUNCS; f++) {
        check_func(A, "tree", f, BIT(CT_NCCL_ALGO_TREE), "tree");
        check_func(A, "Tree,RING", f, BIT(CT_NCCL_ALGO_TREE) | BIT(CT_NCCL_ALGO_RING), "Tree,RING");
        check_func(A, "^ring", f, ALL_ALGOS & ~BIT(CT_NCCL_ALGO_RING), "^ring");
        check_func(A, "^", f, ALL_ALGOS, "^"); /* excludes nothing */
        check_func(P, "LL,LL128", f, BIT(CT_NCCL_PROTO_LL) | BIT(CT_NCCL_PROTO_LL128), "LL,LL128");
    }
    check_func(A, "NVLSTree", CT_NCCL_FUNC_ALLREDUCE, BIT(CT_NCCL_ALGO_NVLS_TREE), "NVLSTree");
    check_func(A, "collnetdirect,CollNetChain,nvls,pat", CT_NCCL_FUNC_ALLREDUCE,
               BIT(CT_NCCL_ALGO_COLLNET_DIRECT) | BIT(CT_NCCL_ALGO_COLLNET_CHAIN) |
                   BIT(CT_NCCL_ALGO_NVLS) | BIT(CT_NCCL_ALGO_PAT),
               "collnetdirect,CollNetChain,nvls,pat");
    check_func(A, "tree,,ring", CT_NCCL_FUNC_REDUCE,
               BIT(CT_NCCL_ALGO_TREE) | BIT(CT_NCCL_ALGO_RING), "tree,,ring");

    /* Per collective: only the named ones change; the prefix is NCCL's
     * function name in any case. */
    static const char two[] = "allreduce:tree;broadcast:ring";
    check_func(A, two, CT_NCCL_FUNC_ALLREDUCE, BIT(CT_NCCL_ALGO_TREE), "tree");
    check_func(A, two, CT_NCCL_FUNC_BROADCAST, BIT(CT_NCCL_ALGO_RING), "ring");
    check_func(A, two, CT_NCCL_FUNC_ALLGATHER, 0, NULL);
    check_func(A, two, CT_NCCL_FUNC_REDUCE, 0, NULL);
    check_func(A, "ALLREDUCE:Tree;ReduceScatter:PAT;reduce:ring", CT_NCCL_FUNC_REDUCESCATTER,
               BIT(CT_NCCL_ALGO_PAT), "PAT");
    check_func(A, "AllGather:ring", CT_NCCL_FUNC_ALLGATHER, BIT(CT_NCCL_ALGO_RING), "ring");

    /* NCCL's own examples (tuning.cc): a first entry for all, then
     * overrides. */
    static const char mixed[] = "ring,collnetdirect;allreduce:tree,collnetdirect;broadcast:ring";
    check_func(A, mixed, CT_NCCL_FUNC_ALLGATHER,
               BIT(CT_NCCL_ALGO_RING) | BIT(CT_NCCL_ALGO_COLLNET_DIRECT), "ring,collnetdirect");
    check_func(A, mixed, CT_NCCL_FUNC_ALLREDUCE,
               BIT(CT_NCCL_ALGO_TREE) | BIT(CT_NCCL_ALGO_COLLNET_DIRECT), "tree,collnetdirect");
    check_func(A, mixed, CT_NCCL_FUNC_BROADCAST, BIT(CT_NCCL_ALGO_RING), "ring");
    check_func(P, "LL,Simple;allreduce:^LL", CT_NCCL_FUNC_ALLREDUCE,
               BIT(CT_NCCL_PROTO_LL128) | BIT(CT_NCCL_PROTO_SIMPLE), "^LL");
    check_func(P, "LL,Simple;allreduce:^LL", CT_NCCL_FUNC_BROADCAST,
               BIT(CT_NCCL_PROTO_LL) | BIT(CT_NCCL_PROTO_SIMPLE), "LL,Simple");
    check_func(P, "^LL128;allreduce:LL128", CT_NCCL_FUNC_ALLREDUCE, BIT(CT_NCCL_PROTO_LL128),
               "LL128");
    check_func(P, "^LL128;allreduce:LL128", CT_NCCL_FUNC_REDUCE,
               ALL_PROTOS & ~BIT(CT_NCCL_PROTO_LL128), "^LL128");

    /* The last entry naming a collective decides it; empty entries and a
     * trailing ':' are skipped, as strtok skips them. */
    check_func(A, "allreduce:tree;allreduce:ring", CT_NCCL_FUNC_ALLREDUCE, BIT(CT_NCCL_ALGO_RING),
               "ring");
    check_func(A, "tree;allreduce:ring", CT_NCCL_FUNC_BROADCAST, BIT(CT_NCCL_ALGO_TREE), "tree");
    check_func(A, ";;allreduce:tree;;", CT_NCCL_FUNC_ALLREDUCE, BIT(CT_NCCL_ALGO_TREE), "tree");
    check_func(A, "allreduce:tree:", CT_NCCL_FUNC_ALLREDUCE, BIT(CT_NCCL_ALGO_TREE), "tree");

    /* Projection onto a function NCCL_ALGO cannot name is an error. */
    ct_nccl_list_func_t f;
    char err[256];
    CT_CHECK(&tally, ct_nccl_list_project(A, "ring", -1, &f, err, sizeof err) == CT_ERR_USAGE);
    CT_CHECK(&tally, ct_nccl_list_project(A, "ring", 5, &f, err, sizeof err) == CT_ERR_USAGE);
}

static void test_rejected(void)
{
    /* A comma between collectives: NCCL reads "broadcast" as an
     * algorithm and fails every communicator. */
    check_bad(A, "allreduce:tree,broadcast:ring", "Unrecognized element token \"broadcast\"",
              "';'");
    check_bad(A, "treee", "Unrecognized element token \"treee\" when parsing \"treee\"",
              "Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT");
    check_bad(A, "ring,treee", "\"treee\"", NULL);
    /* colltune's plugin spellings are not NCCL's. */
    check_bad(A, "nvls_tree", "Unrecognized element token \"nvls_tree\"", NULL);
    check_bad(A, "collnet_direct", "Unrecognized element token", NULL);
    check_bad(A, "allreduce:tree;alltoall:ring", "Unrecognized prefix token \"alltoall\"",
              "send/recv");
    check_bad(A, "all_reduce:tree", "Unrecognized prefix token \"all_reduce\"",
              "Broadcast, Reduce, AllGather, ReduceScatter, AllReduce");
    check_bad(A, "allreduce :tree", "Unrecognized prefix token \"allreduce \"", NULL);
    check_bad(A, "tree;ring", "All entries except the first must have a prefix", NULL);
    check_bad(A, ";tree", "All entries except the first must have a prefix", NULL);
    check_bad(A, "^^tree", "Unrecognized element token \"^tree\"", NULL);
    /* Taken by NCCL, but not what anyone meant. */
    check_bad(A, "allreduce:tree:ring", "ignores", "\":ring\"");
    check_bad(A, ":", "names neither", NULL);
    check_bad(A, ";", "names no algorithm", NULL);
    check_bad(A, "", "names no algorithm", NULL);
    check_bad(A, "allreduce:,", "leaves AllReduce no algorithm", NULL);
    check_bad(A, "^tree,ring,collnetdirect,collnetchain,nvls,nvlstree,pat", "no algorithm", NULL);
    check_bad(P, "LL256", "Unrecognized element token \"LL256\"", "LL, LL128, Simple");
    check_bad(P, "tree", "Unrecognized element token \"tree\"", NULL);
    check_bad(P, "allreduce:LL,broadcast:Simple", "\"broadcast\" is a collective", NULL);
}

static void test_names(void)
{
    ct_nccl_list_kind_t k;
    CT_CHECK(&tally, ct_nccl_list_kind_of("NCCL_ALGO", &k) == 0 && k == A);
    CT_CHECK(&tally, ct_nccl_list_kind_of("NCCL_PROTO", &k) == 0 && k == P);
    CT_CHECK(&tally, ct_nccl_list_kind_of("NCCL_BUFFSIZE", &k) == -1);
    CT_CHECK_STR(&tally, ct_nccl_list_func_name(CT_NCCL_FUNC_ALLREDUCE), "AllReduce");
    CT_CHECK_STR(&tally, ct_nccl_list_func_name(CT_NCCL_FUNC_REDUCESCATTER), "ReduceScatter");
    CT_CHECK_STR(&tally, ct_nccl_list_func_name(CT_NCCL_FUNC_BROADCAST), "Broadcast");
    CT_CHECK_STR(&tally, ct_nccl_list_func_name(7), "?");
    CT_CHECK_STR(&tally, ct_nccl_list_elem_name(A, CT_NCCL_ALGO_NVLS_TREE), "NVLSTree");
    CT_CHECK_STR(&tally, ct_nccl_list_elem_name(P, CT_NCCL_PROTO_SIMPLE), "Simple");
    CT_CHECK_STR(&tally, ct_nccl_list_elem_name(P, 3), "?");
    CT_CHECK(&tally, ct_nccl_list_only(BIT(CT_NCCL_ALGO_PAT)) == CT_NCCL_ALGO_PAT);
    CT_CHECK(&tally, ct_nccl_list_only(BIT(0) | BIT(1)) == -1);
    CT_CHECK(&tally, ct_nccl_list_only(0) == -1);
    CT_CHECK(&tally, ct_nccl_list_count(ALL_ALGOS) == 7);
}

int main(void)
{
    test_accepted();
    test_rejected();
    test_names();
    return CT_DONE(&tally);
}
