/* SPDX-License-Identifier: BSD-3-Clause */
/* The verification's judge on synthetic A/B evidence: do no harm.  A
 * range is cut at an unmeasured size where the tuned side is slower; a
 * global choice is dropped by a slower cell of a collective it was never
 * tuned on; a failed or refused launch verifies nothing; a slower cell
 * no written choice reaches blocks nothing; the sizes the A/B runs cover
 * every power of two inside a range. */
#define _XOPEN_SOURCE 700

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ct_names.h"
#include "ct_test.h"
#include "evidence.h"
#include "tune_decide.h"
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
    /* The verdict names where the first cut is. */
    CT_CHECK(t, strstr(v.why[0], "(first at 8 KiB)") != NULL);
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

/* --shapes: cells at 1x2 and 1x4 (each shape's own rows), a broadcast
 * choice per shape.  A choice reaches only its own shape's cells: the
 * 1x4 choice is judged, and its range cut, at 1x4's cells alone, so the
 * slower 1x4 cell at 8 KiB neither cuts the 1x2 choice nor counts in its
 * reach, and a "tuned" cell is one the search measured at that shape. */
static void test_shapes(ct_test_tally_t *t)
{
    ct_fake_t f;
    fake_init(&f, 4);
    fake_cell(&f, 0, "broadcast", "float", 4096, 20, 10); /* 1x2: holds */
    fake_cell(&f, 1, "broadcast", "float", 8192, 30, 30); /* 1x2: same */
    fake_cell(&f, 2, "broadcast", "float", 4096, 20, 10); /* 1x4: holds */
    fake_cell(&f, 3, "broadcast", "float", 8192, 30, 40); /* 1x4: slower, never measured */
    for (size_t k = 0; k < 4; k++) {
        f.cells[k].nranks = k < 2 ? 2 : 4;
        f.cells[k].nnodes = 1;
    }
    ct_tune_choice_t c[2] = {choice("broadcast", 4096, 16383), choice("broadcast", 4096, 16383)};
    c[0].nnodes = c[1].nnodes = 1;
    c[0].nranks = 2;
    c[1].nranks = 4;
    ct_tune_result_t r = {.choices = c, .nchoices = 2};
    const ct_tune_vsize_t searched[] = {{"broadcast", 4096, 2, 1}, {"broadcast", 4096, 4, 1}};
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, NULL, &r, searched, 2, "", &v) == CT_OK);
    CT_CHECK(t, v.cells[0].reach == 1 && v.cells[1].reach == 1 && v.cells[3].reach == 1);
    CT_CHECK(t, v.cells[0].tuned && v.cells[2].tuned && !v.cells[1].tuned && !v.cells[3].tuned);
    CT_CHECK(t, v.verified[0] == 1 && v.min_bytes[0] == 4096 && v.max_bytes[0] == 16383);
    CT_CHECK(t, v.verified[1] == 1 && v.min_bytes[1] == 4096 && v.max_bytes[1] == 8191);
    CT_CHECK(t, strstr(v.why[1], "range cut") != NULL && strstr(v.why[0], "range cut") == NULL);
    /* Searched at 1x2 only: the 1x4 cell at 4 KiB is not "tuned", and
     * the 1x4 choice has no measured size left to hold. */
    CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, NULL, &r, searched, 1, "", &v) == CT_OK);
    CT_CHECK(t, !v.cells[2].tuned && v.verified[0] == 1 && v.verified[1] == 0);
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
    /* Only the first nchoices choices count: one past them (32..64 B
     * here) adds no size. */
    ct_tune_choice_t more[3] = {c[0], c[1], choice("allreduce", 32, 64)};
    r.choices = more;
    n = ct_tune_verify_sizes(&r, searched, 4, sz, 64);
    CT_CHECK(t, n == sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n && i < sizeof want / sizeof want[0]; i++)
        CT_CHECK(t, sz[i] == want[i]);
    /* A choice from 0 B: every power of two from 8 B up to its top. */
    ct_tune_choice_t low = choice("allreduce", 0, 64);
    ct_tune_result_t r1 = {.choices = &low, .nchoices = 1};
    const ct_tune_vsize_t one[] = {{"allreduce", 64}};
    n = ct_tune_verify_sizes(&r1, one, 1, sz, 64);
    const long long want1[] = {8, 16, 32, 64, 4096, 1048576};
    CT_CHECK(t, n == sizeof want1 / sizeof want1[0]);
    for (size_t i = 0; i < n && i < sizeof want1 / sizeof want1[0]; i++)
        CT_CHECK(t, sz[i] == want1[i]);
}

/* The part AFTER a cut can be the one kept: broadcast is slower at its
 * first size (4 KiB) and holds at 8 KiB and 16 KiB, so the range becomes
 * exactly 4097..16384 (one byte past the slower cell). */
static void test_keep_after_cut(ct_test_tally_t *t)
{
    ct_fake_t f;
    fake_init(&f, 3);
    fake_cell(&f, 0, "broadcast", "float", 4096, 10, 20); /* slower */
    fake_cell(&f, 1, "broadcast", "float", 8192, 20, 10);
    fake_cell(&f, 2, "broadcast", "float", 16384, 40, 20);
    ct_tune_choice_t c = choice("broadcast", 4096, 16384);
    ct_tune_result_t r = {.choices = &c, .nchoices = 1};
    const ct_tune_vsize_t searched[] = {{"broadcast", 8192}, {"broadcast", 16384}};
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, NULL, &r, searched, 2, "", &v) == CT_OK);
    CT_CHECK(t, v.verified[0] == 1 && v.min_bytes[0] == 4097 && v.max_bytes[0] == 16384);
    CT_CHECK(t, strstr(v.why[0], "faster at 2 of 2") != NULL);
    /* Slower at 8 KiB too: only the part after the LAST cut holds. */
    fake_cell(&f, 1, "broadcast", "float", 8192, 10, 20);
    fake_cell(&f, 2, "broadcast", "float", 16384, 40, 20);
    CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, NULL, &r, searched, 2, "", &v) == CT_OK);
    CT_CHECK(t, v.verified[0] == 1 && v.min_bytes[0] == 8193 && v.max_bytes[0] == 16384);
    ct_tune_verify_free(&v);
}

/* A per-collective choice is verified when the gain holds at MORE than
 * half of the measured sizes of its range: exactly half is not, one more
 * is.  None held and nothing slower: not verified, the range kept and the
 * verdict says it held nowhere (it is not a cut). */
static void test_majority(ct_test_tally_t *t)
{
    static const struct {
        double tun[4];    /* tuned side at 4, 8, 16, 32 KiB (default 100) */
        size_t nsearched; /* the first nsearched sizes were measured */
        int verified;
        const char *why;
    } cases[] = {
        {{50, 100, 100, 100}, 2, 0, "faster at 1 of 2 measured sizes"}, /* exactly half */
        {{50, 50, 100, 100}, 3, 1, "faster at 2 of 3 measured sizes"},  /* one more */
        {{50, 50, 100, 100}, 4, 0, "faster at 2 of 4 measured sizes"},  /* half again */
        {{50, 50, 50, 100}, 4, 1, "faster at 3 of 4 measured sizes"},
        {{100, 100, 100, 100}, 1, 0, "faster at 0 of 1 measured sizes"}, /* held nowhere */
    };
    const ct_tune_vsize_t searched[] = {
        {"broadcast", 4096}, {"broadcast", 8192}, {"broadcast", 16384}, {"broadcast", 32768}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ct_fake_t f;
        fake_init(&f, 4);
        for (size_t k = 0; k < 4; k++)
            fake_cell(&f, k, "broadcast", "float", 4096LL << k, 100, cases[i].tun[k]);
        ct_tune_choice_t c = choice("broadcast", 4096, 32768);
        ct_tune_result_t r = {.choices = &c, .nchoices = 1};
        ct_tune_verify_t v;
        memset(&v, 0, sizeof v);
        CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, NULL, &r, searched, cases[i].nsearched, "",
                                         &v) == CT_OK);
        CT_CHECK(t, v.verified[0] == cases[i].verified);
        CT_CHECK(t, strncmp(v.why[0], cases[i].why, strlen(cases[i].why)) == 0);
        CT_CHECK(t, v.min_bytes[0] == 4096 && v.max_bytes[0] == 32768);
        ct_tune_verify_free(&v);
    }
}

/* Slower datatype cells block only inside the part that stays: one at
 * the cut itself (outside the kept 4096..8191) and one of another
 * collective do not; one inside does. */
static void test_dtypes_outside(ct_test_tally_t *t)
{
    ct_fake_t f, g;
    fake_init(&f, 2);
    fake_cell(&f, 0, "broadcast", "float", 4096, 100, 50);
    fake_cell(&f, 1, "broadcast", "float", 8192, 100, 150); /* slower: cut */
    fake_init(&g, 2);
    fake_cell(&g, 0, "broadcast", "int8", 8192, 10, 20);     /* slower, cut away */
    fake_cell(&g, 1, "allreduce", "bfloat16", 4096, 10, 20); /* slower, other collective */
    ct_tune_evidence_t ev[2] = {f.ev, g.ev};
    ct_tune_choice_t c = choice("broadcast", 4096, 16383);
    ct_tune_result_t r = {.choices = &c, .nchoices = 1};
    const ct_tune_vsize_t searched[] = {{"broadcast", 4096}};
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    CT_CHECK(t, ct_tune_verify_judge(ev, 2, NULL, &r, searched, 1, "", &v) == CT_OK);
    CT_CHECK(t, v.ncells == 4 && v.cells[2].contradicts && v.cells[3].contradicts);
    CT_CHECK(t, v.verified[0] == 1 && v.min_bytes[0] == 4096 && v.max_bytes[0] == 8191);
    /* Inside what stays: blocks. */
    fake_cell(&g, 0, "broadcast", "int8", 8191, 10, 20);
    ev[1] = g.ev;
    CT_CHECK(t, ct_tune_verify_judge(ev, 2, NULL, &r, searched, 1, "", &v) == CT_OK);
    CT_CHECK(t, v.verified[0] == 0 && strstr(v.why[0], "int8") != NULL);
    ct_tune_verify_free(&v);
}

/* --weights: a global choice with no slower cell is verified only when
 * the weighted time per launch passes all three: at least
 * CT_TUNE_VERIFY_MIN_PAIRS launches a side, p <= alpha, and a gain of at
 * least CT_TUNE_MARGIN.  Each failing alone verifies nothing. */
static void test_weighted(ct_test_tally_t *t)
{
    static const struct {
        size_t n;
        double def[6], tun[6];
        int verified;
    } cases[] = {
        /* all three hold */
        {5, {100, 101, 102, 103, 104}, {50, 51, 52, 53, 54}, 1},
        /* too few launches (4 < 5), though p = 1/70 and the gain is large */
        {4, {100, 101, 102, 103}, {50, 51, 52, 53}, 0},
        /* p above alpha: the medians differ by half, the ranks overlap */
        {5, {100, 101, 102, 103, 104}, {50, 51, 52, 200, 201}, 0},
        /* significant but a gain of 2% only */
        {5, {100, 101, 102, 103, 104}, {98, 99, 99.5, 100.5, 101.5}, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ct_fake_t f;
        ct_tune_launches_t w[2];
        memset(w, 0, sizeof w);
        fake_init(&f, 1);
        fake_cell(&f, 0, "allreduce", "float", 65536, 100, 50);
        for (size_t s = 0; s < 2; s++) {
            w[s].n = cases[i].n;
            for (size_t k = 0; k < cases[i].n; k++)
                w[s].us[k] = s == 0 ? cases[i].def[k] : cases[i].tun[k];
        }
        f.ev.weighted = 1;
        f.ev.weighted_us = w;
        ct_tune_choice_t c = choice(NULL, -1, -1);
        ct_tune_result_t r = {.choices = &c, .nchoices = 1};
        const ct_tune_vsize_t searched[] = {{"allreduce", 65536}};
        ct_tune_verify_t v;
        memset(&v, 0, sizeof v);
        CT_CHECK(t, ct_tune_verify_judge(&f.ev, 1, NULL, &r, searched, 1, "", &v) == CT_OK);
        CT_CHECK(t, v.verified[0] == cases[i].verified);
        CT_CHECK(t, v.w_n == cases[i].n);
        /* The cases test what they say. */
        if (i == 1)
            CT_CHECK(t, v.w_p <= CT_TUNE_VERIFY_ALPHA);
        if (i == 2)
            CT_CHECK(t, v.w_p > CT_TUNE_VERIFY_ALPHA && v.w_tun <= 0.95 * v.w_def);
        if (i == 3)
            CT_CHECK(t, v.w_p <= CT_TUNE_VERIFY_ALPHA && v.w_tun > 0.95 * v.w_def);
        ct_tune_verify_free(&v);
    }
}

/* The confirmation's lists name each collective once, and only whole
 * words: allgather after allgatherv is a collective of its own. */
static void test_suspect_lists(ct_test_tally_t *t)
{
    ct_fake_t f;
    fake_init(&f, 4);
    fake_cell(&f, 0, "allgatherv", "float", 4096, 10, 20);
    fake_cell(&f, 1, "allgatherv", "float", 8192, 10, 20);
    fake_cell(&f, 2, "allgather", "float16", 4096, 10, 20);
    fake_cell(&f, 3, "allgather", "float", 4096, 10, 20);
    ct_tune_choice_t c = choice(NULL, -1, -1);
    ct_tune_result_t r = {.choices = &c, .nchoices = 1};
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    CT_CHECK(t, ct_tune_verify_suspects(&f.ev, 1, &r, &v) == 4);
    CT_CHECK_STR(t, v.confirm_colls, "allgatherv,allgather");
    CT_CHECK_STR(t, v.confirm_dtypes, "float,float16");
    CT_CHECK_STR(t, v.confirm_sizes, "4096,8192");
}

/* An A/B of many cells, on the heap: cell k is allreduce at 8 << k B,
 * measured, launches default def[k] and tuned tun[k] (fake_side). */
#define BIG 48
typedef struct {
    ct_tune_ev_cell_t cells[BIG];
    ct_tune_launches_t l[BIG][2];
    size_t nchanged[2];
    int excluded[2];
    ct_tune_vsize_t searched[BIG];
    ct_tune_evidence_t ev;
} ct_big_t;

static ct_big_t *big_new(size_t ncells, const char *coll_of_first, size_t nfirst)
{
    ct_big_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    b->ev = (ct_tune_evidence_t){-1, 0, 2, b->cells, ncells, NULL, b->nchanged, b->excluded};
    for (size_t k = 0; k < ncells; k++) {
        /* The first nfirst cells are coll_of_first's, the rest
         * broadcast's; sizes ascend within each. */
        const char *coll = k < nfirst ? coll_of_first : "broadcast";
        long long bytes = 8LL << (k < nfirst ? k : k - nfirst);
        b->cells[k] = (ct_tune_ev_cell_t){coll, "float", bytes, b->l[k]};
        b->searched[k] = (ct_tune_vsize_t){coll, bytes};
        fake_side(&b->l[k][0], 100);
        fake_side(&b->l[k][1], 100);
    }
    return b;
}

/* n launches of the same spread as fake_side. */
static void fake_side_n(ct_tune_launches_t *l, double us, size_t n)
{
    fake_side(l, us);
    l->n = n;
    for (size_t i = 0; i < n; i++) {
        l->us[i] = us * (1.0 + 0.002 * (double)i);
        l->lo[i] = l->hi[i] = NAN;
        l->bw[i] = 1;
    }
}

/* Benjamini-Hochberg across cells (tune_verify.h).  A global choice over
 * 20 measured cells: one 2x faster cell (p = 1/252, which alone holds)
 * among 19 equal ones does not verify it (1/252 > 0.05/20); four do
 * (4 x 0.05/20 = 0.01 >= 1/252). */
static void test_family_single(ct_test_tally_t *t)
{
    ct_big_t *b = big_new(20, "allreduce", 20);
    CT_CHECK(t, b != NULL);
    if (b == NULL)
        return;
    fake_side(&b->l[5][1], 50);
    ct_tune_choice_t c = choice(NULL, -1, -1);
    ct_tune_result_t r = {.choices = &c, .nchoices = 1};
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    CT_CHECK(t, ct_tune_verify_judge(&b->ev, 1, NULL, &r, b->searched, 20, "", &v) == CT_OK);
    const ct_tune_vcell_t *s = &v.cells[5];
    CT_CHECK(t, v.nfamily == 20 && s->family && s->holds_alone && !s->holds);
    CT_CHECK(t, fabs(s->p_faster - 1.0 / 252) < 1e-12 && s->rank == 1);
    CT_CHECK(t, fabs(s->p_adj - 20.0 / 252) < 1e-12 && fabs(s->level - 0.05 / 20) < 1e-12);
    CT_CHECK(t, v.verified[0] == 0 && v.bh_cutoff == 0);
    CT_CHECK(t, strstr(v.why[0], "faster at 0 of 20 measured sizes") == v.why[0]);
    CT_CHECK(t, strstr(v.why[0], "1 more faster alone (p <= 0.05), not over the 20 cells") != NULL);
    /* Its 20 cells could pass at 5 pairs (1/252 <= 20 x 0.05/20): no
     * pairs to name. */
    CT_CHECK(t, strstr(v.why[0], "--verify-pairs") == NULL);
    /* Four strong cells hold together, and verify it. */
    for (size_t k = 6; k < 9; k++)
        fake_side(&b->l[k][1], 50);
    CT_CHECK(t, ct_tune_verify_judge(&b->ev, 1, NULL, &r, b->searched, 20, "", &v) == CT_OK);
    size_t held = 0;
    for (size_t k = 0; k < v.ncells; k++)
        held += (size_t)v.cells[k].holds;
    CT_CHECK(t, held == 4 && v.cells[5].holds && v.cells[8].holds && v.cells[4].holds == 0);
    CT_CHECK(t, fabs(v.cells[8].p_adj - 20.0 / 252 / 4) < 1e-12 && v.cells[8].rank == 4);
    CT_CHECK(t, fabs(v.bh_cutoff - 1.0 / 252) < 1e-12);
    CT_CHECK(t, v.verified[0] == 1 && strstr(v.why[0], "faster at 4 of 20") == v.why[0]);
    ct_tune_verify_free(&v);
    free(b);
}

/* Per-collective choices in a family of 47 (the 4-host tune's count):
 * allreduce over 4 measured sizes, all 2x faster, verifies (4 x 0.05/47
 * = 0.0043 >= 1/252); over 3 it cannot at 5 pairs (3 x 0.05/47 =
 * 0.0032), and its verdict names the pairs that could (6: 1/924); with 6
 * launches a side it does.  The 43 broadcast cells, equal, verify their
 * choice nowhere.  Cells no choice reaches are outside the family. */
static void test_family_pairs(ct_test_tally_t *t)
{
    ct_big_t *b = big_new(47, "allreduce", 4);
    CT_CHECK(t, b != NULL);
    if (b == NULL)
        return;
    for (size_t k = 0; k < 4; k++)
        fake_side(&b->l[k][1], 50);
    ct_tune_choice_t c[2] = {choice("allreduce", 8, 64), choice("broadcast", 0, -1)};
    ct_tune_result_t r = {.choices = c, .nchoices = 2};
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    CT_CHECK(t, ct_tune_verify_judge(&b->ev, 1, NULL, &r, b->searched, 47, "", &v) == CT_OK);
    CT_CHECK(t, v.nfamily == 47 && v.cells[3].holds && v.cells[3].rank == 4);
    CT_CHECK(t, v.verified[0] == 1 && v.verified[1] == 0);
    CT_CHECK(t, strstr(v.why[0], "faster at 4 of 4") == v.why[0]);
    /* Three of 47: none can pass, and the verdict says why. */
    fake_side(&b->l[3][1], 100);
    c[0] = choice("allreduce", 8, 32);
    CT_CHECK(t, ct_tune_verify_judge(&b->ev, 1, NULL, &r, b->searched, 47, "", &v) == CT_OK);
    /* allreduce 64 B is measured but no choice reaches it now. */
    CT_CHECK(t, v.nfamily == 46 && !v.cells[3].family && v.cells[3].p_adj == 1);
    CT_CHECK(t, v.cells[0].holds_alone && !v.cells[0].holds && v.verified[0] == 0);
    CT_CHECK(t, strstr(v.why[0], "faster at 0 of 3") == v.why[0]);
    CT_CHECK(t, strstr(v.why[0], "3 more faster alone") != NULL);
    CT_CHECK(t, strstr(v.why[0], "at 5 pairs its 3 measured cells cannot pass over 46") != NULL);
    CT_CHECK(t, strstr(v.why[0], "--verify-pairs 6 could") != NULL);
    /* The broadcast choice's 43 cells could pass: no pairs named. */
    CT_CHECK(t, strstr(v.why[1], "--verify-pairs") == NULL);
    /* Six launches a side, as the verdict said: verified. */
    for (size_t k = 0; k < 47; k++) {
        fake_side_n(&b->l[k][0], 100, 6);
        fake_side_n(&b->l[k][1], k < 3 ? 50 : 100, 6);
    }
    CT_CHECK(t, ct_tune_verify_judge(&b->ev, 1, NULL, &r, b->searched, 47, "", &v) == CT_OK);
    CT_CHECK(t, fabs(v.cells[0].p_faster - 1.0 / 924) < 1e-12 && v.cells[2].holds);
    CT_CHECK(t, v.verified[0] == 1 && strstr(v.why[0], "faster at 3 of 3") == v.why[0]);
    ct_tune_verify_free(&v);
    free(b);
}

/* xorshift64: the null's own generator, the same numbers everywhere. */
static double null_uniform(unsigned long long *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return (double)(*x >> 11) / 9007199254740992.0;
}

/*
 * The null: A/Bs whose two sides draw their launch medians from the same
 * distribution (10 us, up to 50% slower, uniform: a spread wide enough
 * that the 5% margin keeps almost nothing out, so the count is the test's
 * own), a global choice reaching every cell, families of 1 to 47 measured
 * cells, 100 A/Bs each, a fixed seed.  At most one held cell per 20 A/Bs,
 * and at most one A/B in 20 holding any.  The per-cell rule this replaced
 * holds about one cell in 20 of every family (counted here as
 * holds_alone, and checked far above the bound so the test can tell).
 */
static void test_family_null(ct_test_tally_t *t)
{
    static const size_t fam[] = {1, 2, 3, 4, 8, 16, 32, 47};
    const size_t per = 100, nfam = sizeof fam / sizeof fam[0], nab = per * nfam;
    ct_big_t *b = big_new(BIG, "allreduce", BIG);
    CT_CHECK(t, b != NULL);
    if (b == NULL)
        return;
    unsigned long long x = 0x9e3779b97f4a7c15ULL;
    size_t held = 0, alone = 0, any = 0, verified = 0;
    ct_tune_choice_t c = choice(NULL, -1, -1);
    ct_tune_result_t r = {.choices = &c, .nchoices = 1};
    ct_tune_verify_t v;
    memset(&v, 0, sizeof v);
    for (size_t f = 0; f < nfam; f++) {
        size_t fheld = 0;
        for (size_t ab = 0; ab < per; ab++) {
            b->ev.ncells = fam[f];
            for (size_t k = 0; k < fam[f]; k++)
                for (size_t side = 0; side < 2; side++)
                    for (size_t i = 0; i < 5; i++)
                        b->l[k][side].us[i] = 10.0 * (1.0 + 0.5 * null_uniform(&x));
            if (ct_tune_verify_judge(&b->ev, 1, NULL, &r, b->searched, fam[f], "", &v) != CT_OK) {
                CT_CHECK(t, 0);
                break;
            }
            size_t h = 0;
            for (size_t k = 0; k < v.ncells; k++) {
                h += (size_t)v.cells[k].holds;
                alone += (size_t)v.cells[k].holds_alone;
            }
            held += h;
            fheld += h;
            any += h > 0;
            verified += (size_t)v.verified[0];
        }
        printf("null, %zu cells: %zu held in %zu A/Bs\n", fam[f], fheld, per);
    }
    printf("null: %zu cells held in %zu A/Bs (%zu A/Bs any, %zu choices verified); the per-cell "
           "rule: %zu\n",
           held, nab, any, verified, alone);
    CT_CHECK(t, 20 * held <= nab);
    CT_CHECK(t, 20 * any <= nab && verified <= any);
    /* The test can tell: the old rule is an order of magnitude over. */
    CT_CHECK(t, alone > 5 * nab / 20);
    ct_tune_verify_free(&v);
    free(b);
}

/* A fake ompi_info (a shell script printing text, no ') in dir. */
static void fake_ompi_info(const char *dir, const char *text)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/ompi_info", dir);
    FILE *fp = fopen(path, "w");
    if (fp == NULL)
        return;
    /* printf is sh's own: PATH holds nothing else. */
    fprintf(fp, "#!/bin/sh\nprintf '%%s' '%s'\n", text);
    fclose(fp);
    chmod(path, 0755);
}

/* Open MPI's default files: the user's --mca mca_base_param_files wins
 * (ompi_info is not asked); else ompi_info's value line; a run that
 * prints no such line, or no ompi_info at all, leaves "" and a note
 * that says which. */
static void test_mca_tail(ct_test_tally_t *t)
{
    char tmpl[] = "/tmp/test_tune_verify.XXXXXX";
    char *dir = mkdtemp(tmpl);
    CT_CHECK(t, dir != NULL);
    if (dir == NULL)
        return;
    const char *old = getenv("PATH");
    char *saved = old ? strdup(old) : NULL;
    setenv("PATH", dir, 1);
    char tail[256], note[512];
    ct_launch_var_t mca[2] = {{"pml", "ob1"},
                              {"mca_base_param_files", "/site/a.conf,/site/b.conf"}};
    ct_launch_opts_t lo;
    memset(&lo, 0, sizeof lo);
    lo.cmd = "tune";
    lo.mca = mca;
    lo.nmca = 2;
    fake_ompi_info(dir, "mca:base:param:mca_base_param_files:value:/from/ompi_info.conf\n");
    note[0] = '\0';
    ct_tune_verify_mca_tail(&lo, tail, sizeof tail, note, sizeof note);
    CT_CHECK_STR(t, tail, "/site/a.conf,/site/b.conf");
    CT_CHECK_STR(t, note, "");
    /* Not given: ompi_info's line, to its end. */
    lo.nmca = 1;
    fake_ompi_info(dir, "mca:base:param:mca_base_verbose:value:0\n"
                        "mca:base:param:mca_base_param_files:value:/h/.openmpi/mca-params.conf,"
                        "/etc/openmpi/openmpi-mca-params.conf\n"
                        "mca:base:param:mca_base_param_files:source:default\n");
    ct_tune_verify_mca_tail(&lo, tail, sizeof tail, note, sizeof note);
    CT_CHECK_STR(t, tail, "/h/.openmpi/mca-params.conf,/etc/openmpi/openmpi-mca-params.conf");
    CT_CHECK_STR(t, note, "");
    /* It ran but printed no such line. */
    fake_ompi_info(dir, "mca:base:param:mca_base_verbose:value:0\n");
    ct_tune_verify_mca_tail(&lo, tail, sizeof tail, note, sizeof note);
    CT_CHECK_STR(t, tail, "");
    CT_CHECK(t, strstr(note, "ompi_info ran but printed no mca_base_param_files line") == note);
    /* No ompi_info at all: the note says it did not run, not that it ran. */
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/ompi_info", dir);
    unlink(path);
    note[0] = '\0';
    ct_tune_verify_mca_tail(&lo, tail, sizeof tail, note, sizeof note);
    CT_CHECK_STR(t, tail, "");
    CT_CHECK(t, strstr(note, "ompi_info did not run") == note);
    CT_CHECK(t, strstr(note, "ran but printed") == NULL);
    if (saved != NULL)
        setenv("PATH", saved, 1);
    free(saved);
    rmdir(dir);
}

/* The value of name in configuration c, or NULL; its via into *via_p. */
static const char *setting_of(const ct_space_config_t *c, const char *name, ct_via_t *via_p)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->settings[i].name, name) == 0) {
            if (via_p != NULL)
                *via_p = c->settings[i].via;
            return c->settings[i].value;
        }
    return NULL;
}

/* The settings of c sorted by name, its key that of those settings. */
static int config_sorted(const ct_space_config_t *c)
{
    char key[17];
    for (size_t i = 1; i < c->n; i++)
        if (strcmp(c->settings[i - 1].name, c->settings[i].name) >= 0)
            return 0;
    ct_space_config_key(c->settings, c->n, key, sizeof key);
    return strcmp(key, c->key) == 0;
}

static void scope_free(ct_tune_scope_t *sc)
{
    ct_space_configs_free(&sc->configs);
    free(sc->excluded);
    free(sc->alive);
}

/* ct_tune_verify_setup on an Open MPI result (an MCA parameter and a UCX
 * variable) and on an NCCL one: the candidate files land in OUT/verify/;
 * [0] is the base's settings exactly, [1] the same plus what loads each
 * file (mca_base_param_files naming mca-params.conf first, then the
 * user's list; UCX_CONFIG_DIR the directory; NCCL_CONF_FILE the file)
 * and the choices' id, both sorted by name with the journal's key; the
 * scopes and their collbench arguments. */
static void test_setup(ct_test_tally_t *t)
{
    char tmpl[] = "/tmp/test_tune_verify.XXXXXX";
    char *out = mkdtemp(tmpl), real[PATH_MAX], dir[PATH_MAX + 16], path[PATH_MAX + 64];
    CT_CHECK(t, out != NULL && realpath(out, real) != NULL);
    if (out == NULL)
        return;
    snprintf(dir, sizeof dir, "%s/verify", real);

    ct_space_setting_t base_set[2] = {{(char *)"btl", (char *)"self,vader", CT_VIA_MCA},
                                      {(char *)"pml", (char *)"ob1", CT_VIA_MCA}};
    ct_space_config_t base;
    memset(&base, 0, sizeof base);
    base.settings = base_set;
    base.n = 2;
    ct_launch_var_t mca[1] = {{"mca_base_param_files", "/site/a.conf,/site/b.conf"}};
    ct_launch_opts_t lo;
    memset(&lo, 0, sizeof lo);
    lo.cmd = "tune";
    lo.mca = mca;
    lo.nmca = 1;
    ct_tune_choice_t c[2] = {choice(NULL, -1, -1), choice(NULL, -1, -1)};
    c[0].name = (char *)"btl_vader_eager_limit";
    c[0].value = (char *)"8192";
    c[1].name = (char *)"UCX_RNDV_THRESH";
    c[1].value = (char *)"16384";
    c[1].via = CT_VIA_ENV;
    ct_tune_result_t r = {.space_name = "test",
                          .space_path = "test.ini",
                          .run_id = "run",
                          .date = "2024-01-01T00:00:00Z",
                          .source = "synthetic",
                          .nranks = 2,
                          .nnodes = 1,
                          .choices = c,
                          .nchoices = 2};
    const ct_tune_vsize_t searched[] = {{"allreduce", 65536}, {"allreduce", 2097152}};
    ct_tune_verify_in_t in = {real, &lo, &base, 7, 0, searched, 2};
    ct_tune_scope_t scopes[CT_TUNE_VERIFY_MAX_SCOPES];
    size_t nscopes = 99;
    ct_tune_verify_t v;
    char err[512] = "";
    memset(scopes, 0, sizeof scopes);
    ct_status_t st = ct_tune_verify_setup(&r, &in, scopes, &nscopes, &v, err, sizeof err);
    CT_CHECK(t, st == CT_OK && nscopes == 1 && v.pairs == 7 && v.dtypes == 0);
    CT_CHECK_STR(t, v.dir, dir);
    CT_CHECK_STR(t, v.note, "");
    snprintf(path, sizeof path, "%s/mca-params.conf", dir);
    CT_CHECK(t, access(path, R_OK) == 0);
    snprintf(path, sizeof path, "%s/ucx.conf", dir);
    CT_CHECK(t, access(path, R_OK) == 0);
    /* The tuned side's settings, as text, in the files' write order. */
    char want[4 * PATH_MAX];
    snprintf(want, sizeof want,
             "env UCX_CONFIG_DIR=%s; --mca mca_base_param_files=%s/mca-params.conf,"
             "/site/a.conf,/site/b.conf",
             dir, dir);
    CT_CHECK_STR(t, v.how, want);
    /* Searched, 8 B, 4 KiB, 1 MiB, the largest; the checks without the
     * searched 64 KiB. */
    CT_CHECK_STR(t, v.sizes, "8,4096,65536,1048576,2097152");
    CT_CHECK_STR(t, v.check_sizes, "8,4096,1048576,2097152");
    if (st == CT_OK && nscopes == 1) {
        const ct_tune_scope_t *sc = &scopes[0];
        CT_CHECK_STR(t, sc->name, CT_TUNE_VERIFY_NAME);
        CT_CHECK_STR(t, sc->colls, "all");
        CT_CHECK(t, sc->scope == CT_SCOPE_GLOBAL && sc->configs.n == 2);
        CT_CHECK(t, sc->args != NULL && sc->args[0] != NULL &&
                        strcmp(sc->args[0], "--sizes") == 0 && sc->args[1] == v.sizes &&
                        sc->args[2] == NULL);
        const ct_space_config_t *d = &sc->configs.configs[0], *u = &sc->configs.configs[1];
        ct_via_t via = CT_VIA_ENV;
        /* [0]: the base, nothing more. */
        CT_CHECK(t, d->n == 2 && config_sorted(d));
        CT_CHECK(t, setting_of(d, "btl", &via) != NULL && via == CT_VIA_MCA);
        CT_CHECK_STR(t, setting_of(d, "btl", NULL), "self,vader");
        CT_CHECK_STR(t, setting_of(d, "pml", NULL), "ob1");
        /* [1]: the base, the two loads and the choices' id. */
        CT_CHECK(t, u->n == 5 && config_sorted(u) && strcmp(u->key, d->key) != 0);
        CT_CHECK_STR(t, setting_of(u, "btl", NULL), "self,vader");
        CT_CHECK_STR(t, setting_of(u, "pml", NULL), "ob1");
        via = CT_VIA_ENV;
        snprintf(want, sizeof want, "%s/mca-params.conf,/site/a.conf,/site/b.conf", dir);
        CT_CHECK_STR(t, setting_of(u, "mca_base_param_files", &via), want);
        CT_CHECK(t, via == CT_VIA_MCA);
        via = CT_VIA_MCA;
        CT_CHECK_STR(t, setting_of(u, "UCX_CONFIG_DIR", &via), dir);
        CT_CHECK(t, via == CT_VIA_ENV);
        const char *id = setting_of(u, "COLLTUNE_VERIFY_CHOICES", &via);
        CT_CHECK(t, id != NULL && strlen(id) == 16 && strspn(id, "0123456789abcdef") == 16 &&
                        via == CT_VIA_ENV);
        /* The journal's key: the sorted settings' names come first
         * uppercase, then lowercase. */
        CT_CHECK_STR(t, u->settings[0].name, "COLLTUNE_VERIFY_CHOICES");
        CT_CHECK_STR(t, u->settings[4].name, "pml");
    }
    for (size_t k = 0; k < nscopes && k < 3; k++)
        scope_free(&scopes[k]);

    /* NCCL: nccl.conf loaded by NCCL_CONF_FILE (nccl.env is sourced by
     * people, the A/B sets nothing for it), no MCA files asked about, and
     * the datatype launches as a second scope at the check sizes. */
    ct_tune_choice_t n = choice(NULL, -1, -1);
    n.name = (char *)"NCCL_BUFFSIZE";
    n.value = (char *)"8388608";
    n.via = CT_VIA_ENV;
    r.choices = &n;
    r.nchoices = 1;
    base.n = 0;
    in.nccl = 1;
    memset(scopes, 0, sizeof scopes);
    nscopes = 99;
    st = ct_tune_verify_setup(&r, &in, scopes, &nscopes, &v, err, sizeof err);
    CT_CHECK(t, st == CT_OK && nscopes == 2 && v.dtypes == 1);
    snprintf(want, sizeof want, "env NCCL_CONF_FILE=%s/nccl.conf", dir);
    CT_CHECK_STR(t, v.how, want);
    if (st == CT_OK && nscopes == 2) {
        for (size_t k = 0; k < 2; k++) {
            const ct_space_config_t *d = &scopes[k].configs.configs[0],
                                    *u = &scopes[k].configs.configs[1];
            CT_CHECK(t, d->n == 0 && u->n == 2 && config_sorted(d) && config_sorted(u));
            snprintf(want, sizeof want, "%s/nccl.conf", dir);
            CT_CHECK_STR(t, setting_of(u, "NCCL_CONF_FILE", NULL), want);
            CT_CHECK(t, setting_of(u, "COLLTUNE_VERIFY_CHOICES", NULL) != NULL);
        }
        const ct_tune_scope_t *sc = &scopes[1];
        CT_CHECK_STR(t, sc->name, CT_TUNE_VERIFY_DTYPES_NAME);
        CT_CHECK_STR(t, sc->colls, "allreduce,broadcast,allgather");
        CT_CHECK(t, sc->args[1] == v.check_sizes && sc->args[4] == NULL);
        CT_CHECK_STR(t, sc->args[3], "int8,bfloat16");
    }
    for (size_t k = 0; k < nscopes && k < 3; k++)
        scope_free(&scopes[k]);
    const char *files[] = {"mca-params.conf", "ucx.conf", "nccl.conf", "nccl.env"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        unlink(path);
    }
    rmdir(dir);
    rmdir(real);
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    test_shrink(&t);
    test_global(&t);
    test_shapes(&t);
    test_dtypes(&t);
    test_confirm(&t);
    test_sizes(&t);
    test_keep_after_cut(&t);
    test_majority(&t);
    test_dtypes_outside(&t);
    test_weighted(&t);
    test_family_single(&t);
    test_family_pairs(&t);
    test_family_null(&t);
    test_suspect_lists(&t);
    test_mca_tail(&t);
    test_setup(&t);
    return CT_DONE(&t);
}
