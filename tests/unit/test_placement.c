/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_placement - the pure rules behind collbench's placement warnings
 * and --pairs schedule (src/lib/ct_placement.c, ct_pairs.c).
 *
 * There is no GPU on the machine these tests run on: the GPU path of
 * collbench (hwloc PCI lookup of the CUDA device) is NOT run here; only
 * the mismatch rule it feeds is, with made-up NUMA node sets.
 */
#include <stdio.h>
#include <string.h>

#include "ct_pairs.h"
#include "ct_placement.h"
#include "ct_test.h"

static ct_set_t set_of(const int *items, int n)
{
    ct_set_t s;
    ct_set_clear(&s);
    for (int i = 0; i < n; i++)
        ct_set_add(&s, items[i]);
    return s;
}

static void test_sets(ct_test_tally_t *t)
{
    char buf[64];
    int a[] = {0, 2, 3, 4, 7, 100};
    ct_set_t s = set_of(a, 6);
    ct_set_format(&s, buf, sizeof buf);
    CT_CHECK_STR(t, buf, "0,2-4,7,100");
    CT_CHECK(t, ct_set_count(&s) == 6);
    ct_set_t e;
    ct_set_clear(&e);
    ct_set_format(&e, buf, sizeof buf);
    CT_CHECK_STR(t, buf, "");
    CT_CHECK(t, ct_set_empty(&e));
    ct_set_add(&e, CT_SET_MAX + 5); /* out of range: dropped, not a crash */
    CT_CHECK(t, ct_set_empty(&e));
}

static void test_gpu_rule(ct_test_tally_t *t)
{
    char buf[128] = "";
    int n0[] = {0}, n1[] = {1}, n01[] = {0, 1};
    ct_set_t r0 = set_of(n0, 1), r1 = set_of(n1, 1), r01 = set_of(n01, 2), none;
    ct_set_clear(&none);

    /* Rank on node 1, its GPU on node 0: flagged, in the documented words. */
    CT_CHECK(t, ct_placement_gpu_mismatch(3, &r1, 3, &r0, buf, sizeof buf) == 1);
    CT_CHECK_STR(t, buf, "rank 3 on numa 1, its GPU 3 on numa 0");
    /* Same node: fine. */
    CT_CHECK(t, ct_placement_gpu_mismatch(0, &r0, 0, &r0, buf, sizeof buf) == 0);
    /* A rank spanning both nodes (unbound) touches its GPU's: fine. */
    CT_CHECK(t, ct_placement_gpu_mismatch(1, &r01, 1, &r1, buf, sizeof buf) == 0);
    /* Unknown GPU node (hwloc found no PCI object): no evidence, no warning. */
    CT_CHECK(t, ct_placement_gpu_mismatch(2, &r1, 2, &none, buf, sizeof buf) == 0);
    CT_CHECK(t, ct_placement_gpu_mismatch(2, &none, 2, &r1, buf, sizeof buf) == 0);
}

static void test_overlap_rule(ct_test_tally_t *t)
{
    char buf[160] = "";
    int p01[] = {0, 1}, p12[] = {1, 2}, p23[] = {2, 3};
    ct_set_t a = set_of(p01, 2), b = set_of(p12, 2), c = set_of(p23, 2);

    CT_CHECK(t, ct_placement_overlap(0, 1, &a, 1, 1, &b, "h1", buf, sizeof buf) == 1);
    CT_CHECK_STR(t, buf, "ranks 0 and 1 on host h1 are bound to overlapping cores (PUs 1)");
    CT_CHECK(t, ct_placement_overlap(0, 1, &a, 1, 1, &c, "h1", buf, sizeof buf) == 0);
    /* --bind-to none: both see the whole machine, which is no mistake. */
    CT_CHECK(t, ct_placement_overlap(0, 0, &a, 1, 0, &b, "h1", buf, sizeof buf) == 0);
    CT_CHECK(t, ct_placement_overlap(0, 1, &a, 1, 0, &b, "h1", buf, sizeof buf) == 0);
}

/* Every pair meets exactly once; nobody plays twice in a round; with H
 * odd exactly one host sits out each round, with H even none. */
static void test_pairs(ct_test_tally_t *t)
{
    for (int h = 2; h <= 9; h++) {
        int met[9][9], partner[9];
        memset(met, 0, sizeof met);
        int rounds = ct_pairs_rounds(h);
        CT_CHECK(t, rounds == (h % 2 ? h : h - 1));
        for (int r = 0; r < rounds; r++) {
            int out = 0;
            ct_pairs_round(h, r, partner);
            for (int a = 0; a < h; a++) {
                int b = partner[a];
                if (b < 0) {
                    out++;
                    continue;
                }
                CT_CHECK(t, b != a && b < h && partner[b] == a);
                if (a < b)
                    met[a][b]++;
            }
            CT_CHECK(t, out == h % 2);
        }
        for (int a = 0; a < h; a++)
            for (int b = a + 1; b < h; b++)
                if (met[a][b] != 1) {
                    fprintf(stderr, "H=%d: hosts %d and %d met %d times\n", h, a, b, met[a][b]);
                    CT_CHECK(t, met[a][b] == 1);
                }
    }
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    test_sets(&t);
    test_gpu_rule(&t);
    test_overlap_rule(&t);
    test_pairs(&t);
    return CT_DONE(&t);
}
