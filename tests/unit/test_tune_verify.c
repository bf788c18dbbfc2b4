/* SPDX-License-Identifier: BSD-3-Clause */
/* The verification's judge on synthetic A/B evidence: do no harm.  A
 * range is cut at an unmeasured size where the tuned side is slower; a
 * global choice is dropped by a slower cell of a collective it was never
 * tuned on; a failed or refused launch verifies nothing; a slower cell
 * no written choice reaches blocks nothing; the sizes the A/B runs cover
 * every power of two inside a range. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ct_names.h"
#include "ct_test.h"
#include "evidence.h"
#include "tune_verify.h"

#define NCELLS 6

typedef struct {
    ct_tune_ev_cell_t cells[NCELLS];
    ct_tune_launches_t l[NCELLS][2]; /* [cell][default, tuned] */
    size_t nchanged[2];
    int excluded[2];
    ct_tune_evidence_t ev;
} ct_fake_t;

/* n launches around us (a spread of 1%). */
static void fake_side(ct_tune_launches_t *l, double us)
{
    l->n = 5;
    for (size_t i = 0; i < l->n; i++) {
        l->us[i] = us * (1.0 + 0.002 * (double)i);
        l->lo[i] = l->hi[i] = NAN;
        l->bw[i] = 1;
    }
}

static void fake_cell(ct_fake_t *f, size_t k, const char *coll, const char *dtype, long long bytes,
                      double def, double tun)
{
    f->cells[k] = (ct_tune_ev_cell_t){coll, dtype, bytes, f->l[k]};
    fake_side(&f->l[k][0], def);
    fake_side(&f->l[k][1], tun);
}

static void fake_init(ct_fake_t *f, size_t ncells)
{
    memset(f, 0, sizeof *f);
    f->ev = (ct_tune_evidence_t){-1, 0, 2, f->cells, ncells, NULL, f->nchanged, f->excluded};
}

static ct_tune_choice_t choice(const char *coll, long long lo, long long hi)
{
    ct_tune_choice_t c;
    memset(&c, 0, sizeof c);
    c.name = (char *)"coll_tuned_bcast_algorithm";
    c.value = (char *)"8";
    c.via = CT_VIA_MCA;
    c.scope = coll ? (int)ct_coll_name_find(coll)->id : -1;
    c.min_bytes = lo;
    c.max_bytes = hi;
    c.significant = 1;
    return c;
}

/* broadcast measured at 4 KiB and 16 KiB, chosen for 4 KiB..16383 B;
 * the A/B adds 8 KiB, where the choice is slower: the range is cut. */
static void test_shrink(ct_test_tally_t *t)
{
    ct_fake_t f;
    fake_init(&f, 5);
    fake_cell(&f, 0, "allreduce", "float", 4096, 10, 10);
    fake_cell(&f, 1, "broadcast", "float", 8, 5, 5);
    fake_cell(&f, 2, "broadcast", "float", 4096, 20, 10);  /* holds */
    fake_cell(&f, 3, "broadcast", "float", 8192, 30, 40);  /* slower, never measured */
    fake_cell(&f, 4, "broadcast", "float", 16384, 50, 50); /* outside the range */
    ct_tune_choice_t c = choice("broadcast", 4096, 16383);
    ct_tune_result_t r = {.choices = &c, .nchoices = 1};
    const ct_tune_vsize_t searched[] = {{"broadcast", 4096}, {"broadcast", 16384}};
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, NULL, &r, searched, 2, "", &v) == CT_OK);
    CT_CHECK(t, v.ncells == 5 && v.cells[3].contradicts && !v.cells[3].tuned && v.cells[2].tuned);
    CT_CHECK(t, v.verified[0] == 1 && v.min_bytes[0] == 4096 && v.max_bytes[0] == 8191);
    CT_CHECK(t, strstr(v.why[0], "range cut") != NULL);
    /* The candidate file reached 8 KiB; 16 KiB it never did. */
    CT_CHECK(t, v.cells[3].reach == 1 && v.cells[4].reach == 0);
    /* Slower at the measured size itself: no part holds, nothing written. */
    fake_side(&f.l[2][1], 30);
    CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, NULL, &r, searched, 2, "", &v) == CT_OK);
    CT_CHECK(t, v.verified[0] == 0 && strstr(v.why[0], "no part") != NULL);
    /* A failed or refused launch verifies nothing. */
    fake_side(&f.l[2][1], 10);
    CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, NULL, &r, searched, 2, "a tuned launch failed",
                                     &v) == CT_OK);
    CT_CHECK(t, v.verified[0] == 0 && strstr(v.why[0], "failed") != NULL);
    ct_tune_verify_free(&v);
}

/* A global choice (a transport setting) tuned on allreduce is slower at
 * alltoall, a collective it was never tuned on: not written.  The same
 * slower alltoall cell does not stop a broadcast choice that cannot reach
 * it. */
static void test_global(ct_test_tally_t *t)
{
    ct_fake_t f;
    fake_init(&f, 3);
    fake_cell(&f, 0, "allreduce", "float", 65536, 100, 50);
    fake_cell(&f, 1, "alltoall", "float", 8, 10, 25);
    fake_cell(&f, 2, "broadcast", "float", 65536, 100, 50);
    ct_tune_choice_t c[2] = {choice(NULL, -1, -1), choice("broadcast", 65536, 65536)};
    ct_tune_result_t r = {.choices = c, .nchoices = 2};
    const ct_tune_vsize_t searched[] = {{"allreduce", 65536}, {"broadcast", 65536}};
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, NULL, &r, searched, 2, "", &v) == CT_OK);
    CT_CHECK(t, v.verified[0] == 0 && strstr(v.why[0], "alltoall") != NULL);
    CT_CHECK(t, v.verified[1] == 1 && v.min_bytes[1] == 65536 && v.max_bytes[1] == 65536);
    CT_CHECK(t, v.cells[1].contradicts && v.cells[1].reach == 1);
    /* Without the slower cell the global choice holds. */
    fake_side(&f.l[1][1], 10);
    CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, NULL, &r, searched, 2, "", &v) == CT_OK);
    CT_CHECK(t, v.verified[0] == 1 && v.verified[1] == 1);
    ct_tune_verify_free(&v);
}

/* The datatype launches (a second evidence): a slower int8 broadcast
 * inside a broadcast choice's range verifies nothing. */
static void test_dtypes(ct_test_tally_t *t)
{
    ct_fake_t f, g;
    fake_init(&f, 1);
    fake_cell(&f, 0, "broadcast", "float", 4096, 100, 50);
    fake_init(&g, 2);
    fake_cell(&g, 0, "broadcast", "int8", 4096, 10, 20);
    fake_cell(&g, 1, "allreduce", "bfloat16", 4096, 10, 10);
    ct_tune_evidence_t ev[2] = {f.ev, g.ev};
    ct_tune_choice_t c = choice("broadcast", 4096, 4096);
    ct_tune_result_t r = {.choices = &c, .nchoices = 1};
    const ct_tune_vsize_t searched[] = {{"broadcast", 4096}};
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    CT_CHECK(t, ct_tune_verify_judge(ev, 2, NULL, &r, searched, 1, "", &v) == CT_OK);
    CT_CHECK(t, v.ncells == 3 && !v.cells[1].tuned);
    CT_CHECK(t, v.verified[0] == 0 && strstr(v.why[0], "int8") != NULL);
    ct_tune_verify_free(&v);
}

/* A slower cell a choice reaches is a suspect: the confirmation (a
 * second A/B of the suspects alone) decides.  Not slower again: no harm,
 * the range stays whole.  Slower again: the range is cut. */
static void test_confirm(ct_test_tally_t *t)
{
    ct_fake_t f, again;
    fake_init(&f, 3);
    fake_cell(&f, 0, "broadcast", "float", 4096, 20, 10);
    fake_cell(&f, 1, "broadcast", "float", 8192, 30, 40); /* suspect */
    fake_cell(&f, 2, "alltoall", "float", 8, 10, 20);     /* slower, no choice reaches it */
    ct_tune_choice_t c = choice("broadcast", 4096, 16383);
    ct_tune_result_t r = {.choices = &c, .nchoices = 1};
    const ct_tune_vsize_t searched[] = {{"broadcast", 4096}};
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    CT_CHECK(t, ct_tune_verify_suspects(&f.ev, 1, &r, &v) == 1);
    CT_CHECK_STR(t, v.confirm_colls, "broadcast");
    CT_CHECK_STR(t, v.confirm_sizes, "8192");
    CT_CHECK_STR(t, v.confirm_dtypes, "float");
    fake_init(&again, 1);
    fake_cell(&again, 0, "broadcast", "float", 8192, 30, 31); /* not slower this time */
    CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, &again.ev, &r, searched, 1, "", &v) == CT_OK);
    CT_CHECK(t, v.cells[1].suspect && !v.cells[1].contradicts);
    CT_CHECK(t, v.verified[0] == 1 && v.min_bytes[0] == 4096 && v.max_bytes[0] == 16383);
    fake_cell(&again, 0, "broadcast", "float", 8192, 30, 45); /* slower again */
    CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, &again.ev, &r, searched, 1, "", &v) == CT_OK);
    CT_CHECK(t, v.cells[1].contradicts);
    CT_CHECK(t, v.verified[0] == 1 && v.max_bytes[0] == 8191);
    ct_tune_verify_free(&v);
}

/* The A/B's sizes: the searched ones, the checks, and every power of two
 * inside a range (an open range up to the largest searched size). */
static void test_sizes(ct_test_tally_t *t)
{
    ct_tune_choice_t c[2] = {choice("broadcast", 4096, 16383), choice("allreduce", 65536, -1)};
    ct_tune_result_t r = {.choices = c, .nchoices = 2};
    const ct_tune_vsize_t searched[] = {
        {"broadcast", 4096}, {"broadcast", 16384}, {"allreduce", 65536}, {"allreduce", 262144}};
    long long sz[64];
    size_t n = ct_tune_verify_sizes(&r, searched, 4, sz, 64);
    const long long want[] = {8, 4096, 8192, 16384, 65536, 131072, 262144, 1048576};
    CT_CHECK(t, n == sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n && i < sizeof want / sizeof want[0]; i++)
        CT_CHECK(t, sz[i] == want[i]);
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    test_shrink(&t);
    test_global(&t);
    test_dtypes(&t);
    test_confirm(&t);
    test_sizes(&t);
    return CT_DONE(&t);
}
