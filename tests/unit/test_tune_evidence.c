/* SPDX-License-Identifier: BSD-3-Clause */
/* The tune's evidence index on synthetic trials, and the pure decision
 * (cells, merged ranges, the global pick) on synthetic evidence. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_names.h"
#include "ct_test.h"
#include "evidence.h"
#include "tune_choices.h"
#include "tune_decision.h"
#include "tune_weights.h"

/* Evidence of one collective at sizes[0..ns), nconfigs configurations,
 * each cell's launches from us[config][size][0..n). */
typedef struct {
    ct_tune_ev_cell_t cells[4];
    ct_tune_launches_t l[4][4]; /* [cell][config] */
    ct_tune_launches_t w[4];
    size_t nchanged[4];
    int excluded[4];
    ct_tune_evidence_t ev;
} ct_fake_t;

static void fake_init(ct_fake_t *f, int scope, size_t ncells, size_t nconfigs)
{
    memset(f, 0, sizeof *f);
    static const long long sizes[] = {1024, 2048, 4096, 8192};
    for (size_t k = 0; k < ncells; k++)
        f->cells[k] = (ct_tune_ev_cell_t){"allreduce", "", sizes[k], f->l[k], 0, 0};
    for (size_t i = 1; i < nconfigs; i++)
        f->nchanged[i] = 1;
    f->ev =
        (ct_tune_evidence_t){scope, 0, nconfigs, f->cells, ncells, f->w, f->nchanged, f->excluded};
}

static void fake_set(ct_tune_launches_t *l, double a, double b)
{
    l->n = 2;
    l->us[0] = a;
    l->us[1] = b;
    l->bw[0] = l->bw[1] = 1.5;
}

/* Per collective: config 1 wins the two small sizes, nobody the others. */
static void test_ranges(ct_test_tally_t *t)
{
    ct_fake_t f;
    fake_init(&f, 0, 4, 3);
    for (size_t k = 0; k < 4; k++) {
        fake_set(&f.l[k][0], 100, 102);
        fake_set(&f.l[k][1], k < 2 ? 60 : 99, k < 2 ? 61 : 101);
        fake_set(&f.l[k][2], 98, 103);
    }
    ct_tune_decision_t d;
    const ct_tune_reach_t reach = {2, 0, 0};
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.ncells == 4);
    CT_CHECK(t, d.cells[0].winner == 1 && d.cells[0].significant && d.cells[1].winner == 1);
    CT_CHECK(t, d.cells[2].winner == 0 && !d.cells[2].significant);
    CT_CHECK(t, d.cells[0].base_us == 101 && d.cells[0].best_us == 60.5);
    CT_CHECK(t, d.cells[0].nbase == 2 && d.cells[0].base_bw == 1.5);
    /* No winner: the fastest runnable contender is shown. */
    CT_CHECK(t, d.cells[2].best == 1 || d.cells[2].best == 2);
    CT_CHECK(t, d.npicks == 1);
    /* From the smallest measured size (1 KiB), not from 0. */
    CT_CHECK(t, d.npicks == 1 && d.picks[0].config == 1 && d.picks[0].min_bytes == 1024 &&
                    d.picks[0].max_bytes == 4095 && d.picks[0].default_us == 101 &&
                    d.picks[0].tuned_us == 60.5);
    ct_tune_decision_free(&d);
    /* --extend-ranges: from 0. */
    const ct_tune_reach_t extend = {2, 1, 0};
    CT_CHECK(t, ct_tune_decide(&f.ev, &extend, &d) == CT_OK);
    CT_CHECK(t, d.npicks == 1 && d.picks[0].min_bytes == 0 && d.picks[0].max_bytes == 4095);
    ct_tune_decision_free(&d);
    /* Winning up to the largest measured size: up to it, not beyond. */
    for (size_t k = 0; k < 4; k++)
        fake_set(&f.l[k][1], 60, 61);
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.npicks == 1 && d.picks[0].min_bytes == 1024 && d.picks[0].max_bytes == 8192);
    ct_tune_decision_free(&d);
    CT_CHECK(t, ct_tune_decide(&f.ev, &extend, &d) == CT_OK);
    CT_CHECK(t, d.npicks == 1 && d.picks[0].min_bytes == 0 && d.picks[0].max_bytes == -1);
    ct_tune_decision_free(&d);
    /* Measured from the smallest size allreduce takes (8 B): from 0. */
    f.cells[0].bytes = 8;
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.npicks == 1 && d.picks[0].min_bytes == 0 && d.picks[0].max_bytes == 8192);
    ct_tune_decision_free(&d);
    f.cells[0].bytes = 1024;
    for (size_t k = 0; k < 4; k++)
        fake_set(&f.l[k][1], k < 2 ? 60 : 99, k < 2 ? 61 : 101);
    /* Excluded: never a winner, never shown. */
    f.excluded[1] = 1;
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.npicks == 0 && d.cells[0].winner == 0 && d.cells[0].best == 2);
    ct_tune_decision_free(&d);
}

/* Global: the most wins and no loss; a configuration the default beats
 * somewhere is never set everywhere, however often it wins. */
static void test_global(ct_test_tally_t *t)
{
    ct_fake_t f;
    fake_init(&f, -1, 3, 3);
    const ct_tune_reach_t reach = {2, 0, 0};
    for (size_t k = 0; k < 3; k++) {
        fake_set(&f.l[k][0], 100, 102);
        fake_set(&f.l[k][1], 60, 61);                              /* wins all three */
        fake_set(&f.l[k][2], k == 0 ? 50 : 99, k == 0 ? 51 : 101); /* wins one */
    }
    ct_tune_decision_t d;
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.npicks == 1 && d.picks[0].config == 1 && d.picks[0].min_bytes == -1 &&
                    d.picks[0].max_bytes == -1);
    ct_tune_decision_free(&d);
    fake_set(&f.l[2][1], 200, 210); /* now the default beats it at 4096 */
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.npicks == 1 && d.picks[0].config == 2 && d.picks[0].default_us == 101 &&
                    d.picks[0].tuned_us == 50.5);
    ct_tune_decision_free(&d);
    /* --weights: the weighted time per launch decides. */
    f.ev.weighted = 1;
    fake_set(&f.w[0], 1000, 1010);
    fake_set(&f.w[1], 990, 1000);
    fake_set(&f.w[2], 500, 510);
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.npicks == 1 && d.picks[0].config == 2);
    ct_tune_decision_free(&d);
    /* No baseline measurement: nothing decided. */
    f.ev.ncells = 0;
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.ncells == 0 && d.npicks == 0);
    ct_tune_decision_free(&d);
}

/* A global scope of NCCL_ALGO values is decided per collective: a value
 * refused for broadcast (no broadcast samples) still wins allreduce, for
 * allreduce's measured sizes only; alltoall, which NCCL runs as
 * send/recv, gets no choice however fast it reads. */
static void test_per_coll(ct_test_tally_t *t)
{
    ct_fake_t f;
    fake_init(&f, -1, 4, 2);
    f.cells[0] = (ct_tune_ev_cell_t){"allreduce", "float", 16384, f.l[0], 0, 0};
    f.cells[1] = (ct_tune_ev_cell_t){"allreduce", "float", 65536, f.l[1], 0, 0};
    f.cells[2] = (ct_tune_ev_cell_t){"broadcast", "float", 16384, f.l[2], 0, 0};
    f.cells[3] = (ct_tune_ev_cell_t){"alltoall", "float", 16384, f.l[3], 0, 0};
    for (size_t k = 0; k < 4; k++)
        fake_set(&f.l[k][0], 100, 102);
    fake_set(&f.l[0][1], 60, 61);
    fake_set(&f.l[1][1], 60, 61);
    fake_set(&f.l[3][1], 60, 61);
    /* broadcast: refused, no samples of configuration 1 */
    ct_tune_decision_t d;
    const ct_tune_reach_t global = {2, 0, 0}, per_coll = {2, 0, 1};
    /* Decided globally, it is unmeasured at broadcast: never set everywhere. */
    CT_CHECK(t, ct_tune_decide(&f.ev, &global, &d) == CT_OK);
    CT_CHECK(t, d.npicks == 0);
    ct_tune_decision_free(&d);
    CT_CHECK(t, ct_tune_decide(&f.ev, &per_coll, &d) == CT_OK);
    const ct_coll_name_t *ar = ct_coll_name_find("allreduce");
    CT_CHECK(t, ar != NULL && d.npicks == 1 && d.picks[0].config == 1 &&
                    d.picks[0].coll == (int)ar->id && d.picks[0].min_bytes == 16384 &&
                    d.picks[0].max_bytes == 65536);
    ct_tune_decision_free(&d);
}

/* The contender a cell shows when nobody wins: among candidates with at
 * least CT_TUNE_MIN_LAUNCHES (2) launches the fastest, exactly 2 being
 * enough; only when none has 2, the fastest with any. */
static void test_contender(ct_test_tally_t *t)
{
    ct_fake_t f;
    fake_init(&f, 0, 1, 3);
    const ct_tune_reach_t reach = {2, 0, 0};
    ct_tune_decision_t d;
    /* One baseline launch: nobody can be a significant gain. */
    f.l[0][0].n = 1;
    f.l[0][0].us[0] = 100;
    fake_set(&f.l[0][1], 50, 50); /* exactly 2 launches, faster */
    f.l[0][2].n = 3;              /* 3 launches, slower */
    f.l[0][2].us[0] = f.l[0][2].us[1] = f.l[0][2].us[2] = 90;
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.cells[0].winner == 0 && !d.cells[0].significant && d.cells[0].best == 1 &&
                    d.cells[0].best_us == 50 && d.cells[0].nbest == 2 && d.npicks == 0);
    ct_tune_decision_free(&d);
    /* One launch of the faster one: the one with enough launches is shown. */
    f.l[0][1].n = 1;
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.cells[0].best == 2 && d.cells[0].best_us == 90 && d.cells[0].nbest == 3);
    ct_tune_decision_free(&d);
    /* None with 2: the fastest with any. */
    f.l[0][2].n = 1;
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.cells[0].best == 1 && d.cells[0].nbest == 1);
    ct_tune_decision_free(&d);
}

/* --weights can pick a configuration that wins no single cell: the pick
 * then has no cell's search figures to show, and shows 0 for both. */
static void test_weighted_no_cell(ct_test_tally_t *t)
{
    ct_fake_t f;
    fake_init(&f, -1, 2, 3);
    const ct_tune_reach_t reach = {2, 0, 0};
    for (size_t k = 0; k < 2; k++) {
        fake_set(&f.l[k][0], 100, 102);
        fake_set(&f.l[k][1], 99, 101); /* no gain anywhere */
        fake_set(&f.l[k][2], 98, 103);
    }
    f.ev.weighted = 1;
    fake_set(&f.w[0], 1000, 1010);
    fake_set(&f.w[1], 990, 1000);
    fake_set(&f.w[2], 500, 510);
    ct_tune_decision_t d;
    CT_CHECK(t, ct_tune_decide(&f.ev, &reach, &d) == CT_OK);
    CT_CHECK(t, d.cells[0].winner == 0 && d.cells[1].winner == 0);
    CT_CHECK(t, d.npicks == 1 && d.picks[0].config == 2 && d.picks[0].default_us == 0 &&
                    d.picks[0].tuned_us == 0);
    ct_tune_decision_free(&d);
}

static void add_row(ct_trial_t *tr, const char *coll, long long bytes, const char *placement,
                    double us)
{
    ct_trial_row_t *r = &tr->rows[tr->nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->collective, sizeof r->collective, "%s", coll);
    snprintf(r->placement, sizeof r->placement, "%s", placement);
    r->bytes = bytes;
    r->median_us = us;
    r->busbw_gbps = us / 10;
}

/* The index: the baseline's cells (collectives first seen first, sizes
 * sorted), out-of-place rows only, ok trials of this scope only. */
static void test_index(ct_test_tally_t *t)
{
    ct_space_config_t cfg[2];
    memset(cfg, 0, sizeof cfg);
    snprintf(cfg[0].key, sizeof cfg[0].key, "base");
    snprintf(cfg[1].key, sizeof cfg[1].key, "cand");
    ct_tune_scope_t sc = {0};
    int excluded[2] = {0, 0};
    sc.scope = -1;
    sc.name = "global";
    sc.configs.configs = cfg;
    sc.configs.n = 2;
    sc.excluded = excluded;
    ct_trial_row_t rows[5][8];
    ct_trial_t tr[5];
    memset(tr, 0, sizeof tr);
    const char *keys[] = {"base", "cand", "base", "cand", "base"};
    const char *scopes[] = {"global", "global", "global", "global", "bcast"};
    for (size_t i = 0; i < 5; i++) {
        snprintf(tr[i].key, sizeof tr[i].key, "%s", keys[i]);
        snprintf(tr[i].scope, sizeof tr[i].scope, "%s", scopes[i]);
        tr[i].rows = rows[i];
        tr[i].status = i == 3 ? CT_JOURNAL_CRASH : CT_JOURNAL_OK;
        add_row(&tr[i], "bcast", 4096, "in-place", 1);
        add_row(&tr[i], "bcast", 4096, "out-of-place", 40 + (double)i);
        add_row(&tr[i], "bcast", 64, "out-of-place", 10 + (double)i);
        add_row(&tr[i], "allreduce", 64, "out-of-place", 20 + (double)i);
    }
    ct_tune_state_t s;
    memset(&s, 0, sizeof s);
    s.trials = tr;
    s.ntrials = 5;
    ct_tune_evidence_t ev;
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
    CT_CHECK(t, ev.ncells == 3 && ev.nconfigs == 2);
    CT_CHECK(t, strcmp(ev.cells[0].coll, "bcast") == 0 && ev.cells[0].bytes == 64);
    CT_CHECK(t, strcmp(ev.cells[1].coll, "bcast") == 0 && ev.cells[1].bytes == 4096);
    CT_CHECK(t, strcmp(ev.cells[2].coll, "allreduce") == 0);
    /* bcast 4096: the baseline's trials 0 and 2, in journal order. */
    const ct_tune_launches_t *b = &ev.cells[1].cfg[0], *c = &ev.cells[1].cfg[1];
    CT_CHECK(t, b->n == 2 && b->us[0] == 40 && b->us[1] == 42 && b->bw[1] == 4.2);
    /* The candidate's crashed trial 3 is no sample. */
    CT_CHECK(t, c->n == 1 && c->us[0] == 41);
    CT_CHECK(t, ev.nchanged[1] == 0 && !ev.excluded[0]);
    ct_tune_evidence_free(&ev);
}

static void add_row_dt(ct_trial_t *tr, const char *coll, const char *dtype, long long bytes,
                       double us)
{
    add_row(tr, coll, bytes, "out-of-place", us);
    snprintf(tr->rows[tr->nrows - 1].dtype, sizeof tr->rows[0].dtype, "%s", dtype);
}

/* The index at its edges: a kind only the first trial measured, rows told
 * apart by collective and by dtype at one size, an unmeasured row (median
 * 0) that is a cell but no sample, and only this scope's ok baseline
 * trials make cells (a failed baseline trial's size, a candidate's, another
 * scope's are none). */
static void test_index_edges(ct_test_tally_t *t)
{
    ct_space_config_t cfg[2];
    memset(cfg, 0, sizeof cfg);
    snprintf(cfg[0].key, sizeof cfg[0].key, "base");
    snprintf(cfg[1].key, sizeof cfg[1].key, "cand");
    ct_tune_scope_t sc = {0};
    int excluded[2] = {0, 0};
    sc.scope = -1;
    sc.name = "global";
    sc.configs.configs = cfg;
    sc.configs.n = 2;
    sc.excluded = excluded;
    ct_trial_row_t rows[4][8];
    ct_trial_t tr[4];
    memset(tr, 0, sizeof tr);
    const char *keys[] = {"base", "base", "cand", "base"};
    const char *scopes[] = {"global", "global", "global", "bcast"};
    for (size_t i = 0; i < 4; i++) {
        snprintf(tr[i].key, sizeof tr[i].key, "%s", keys[i]);
        snprintf(tr[i].scope, sizeof tr[i].scope, "%s", scopes[i]);
        tr[i].rows = rows[i];
        tr[i].status = i == 1 ? CT_JOURNAL_TIMEOUT : CT_JOURNAL_OK;
    }
    /* Trial 0, the baseline: reduce only here; allreduce 64 B in two
     * dtypes, after a bcast row of the same size; 128 B unmeasured. */
    add_row_dt(&tr[0], "reduce", "float", 32, 3);
    add_row_dt(&tr[0], "bcast", "float", 64, 1);
    add_row_dt(&tr[0], "allreduce", "float", 64, 5);
    add_row_dt(&tr[0], "allreduce", "double", 64, 7);
    add_row_dt(&tr[0], "allreduce", "float", 128, 0);
    /* Trial 1, the baseline timed out: its size is no cell, its row no
     * sample. */
    add_row_dt(&tr[1], "allreduce", "float", 256, 9);
    add_row_dt(&tr[1], "allreduce", "float", 64, 9);
    /* Trial 2, the candidate: a sample at 64 B, and a size of its own. */
    add_row_dt(&tr[2], "allreduce", "float", 64, 4);
    add_row_dt(&tr[2], "allreduce", "float", 512, 11);
    /* Trial 3, the baseline of another scope (the same key). */
    add_row_dt(&tr[3], "allreduce", "float", 1024, 13);
    add_row_dt(&tr[3], "allreduce", "float", 64, 13);
    ct_tune_state_t s;
    memset(&s, 0, sizeof s);
    s.trials = tr;
    s.ntrials = 4;
    ct_tune_evidence_t ev;
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
    /* reduce 32; bcast 64; allreduce/float 64, 128; allreduce/double 64. */
    CT_CHECK(t, ev.ncells == 5);
    if (ev.ncells == 5) {
        CT_CHECK(t, strcmp(ev.cells[0].coll, "reduce") == 0 && ev.cells[0].bytes == 32);
        CT_CHECK(t, ev.cells[0].cfg[0].n == 1 && ev.cells[0].cfg[0].us[0] == 3);
        CT_CHECK(t, strcmp(ev.cells[1].coll, "bcast") == 0 && ev.cells[1].cfg[0].us[0] == 1);
        const ct_tune_ev_cell_t *f64 = &ev.cells[2], *f128 = &ev.cells[3], *d64 = &ev.cells[4];
        CT_CHECK(t, strcmp(f64->coll, "allreduce") == 0 && strcmp(f64->dtype, "float") == 0 &&
                        f64->bytes == 64);
        CT_CHECK(t, f64->cfg[0].n == 1 && f64->cfg[0].us[0] == 5);
        CT_CHECK(t, f64->cfg[1].n == 1 && f64->cfg[1].us[0] == 4);
        CT_CHECK(t, f128->bytes == 128 && f128->cfg[0].n == 0 && f128->cfg[1].n == 0);
        CT_CHECK(t, strcmp(d64->dtype, "double") == 0 && d64->bytes == 64);
        CT_CHECK(t, d64->cfg[0].n == 1 && d64->cfg[0].us[0] == 7 && d64->cfg[1].n == 0);
    }
    /* The across-launch baseline samples: ok baseline trials of this scope
     * only, any dtype (the first row of the size), up to max. */
    double us[4];
    CT_CHECK(t, ct_tune_base_samples(&s, &sc, "allreduce", 64, us, 4) == 1 && us[0] == 5);
    ct_tune_evidence_free(&ev);
}

/* A two-configuration scope "global" (base, cand) over cfg. */
static ct_tune_scope_t scope_of(ct_space_config_t cfg[2], int excluded[2])
{
    memset(cfg, 0, 2 * sizeof *cfg);
    snprintf(cfg[0].key, sizeof cfg[0].key, "base");
    snprintf(cfg[1].key, sizeof cfg[1].key, "cand");
    ct_tune_scope_t sc = {0};
    sc.scope = -1;
    sc.name = "global";
    sc.configs.configs = cfg;
    sc.configs.n = 2;
    sc.excluded = excluded;
    return sc;
}

static void trial_of(ct_trial_t *tr, ct_trial_row_t *rows, const char *key, const char *scope,
                     ct_journal_status_t status)
{
    memset(tr, 0, sizeof *tr);
    snprintf(tr->key, sizeof tr->key, "%s", key);
    snprintf(tr->scope, sizeof tr->scope, "%s", scope);
    tr->rows = rows;
    tr->status = status;
}

/* The index reads the ok baseline trials of its scope alone, and only the
 * first ntrials trials and nrows rows (what lies past them, a vector's
 * spare room, is no trial and no row): the kinds in the order those
 * trials first show them, a later kind's sizes sorted too; the baseline's
 * samples at most max. */
static void test_index_order(ct_test_tally_t *t)
{
    ct_space_config_t cfg[2];
    int excluded[2] = {0, 0};
    ct_tune_scope_t sc = scope_of(cfg, excluded);
    ct_trial_row_t rows[6][4];
    ct_trial_t tr[6];
    memset(rows, 0, sizeof rows);
    /* A candidate, a timed-out baseline and another scope's baseline come
     * first, each with a kind of its own first. */
    trial_of(&tr[0], rows[0], "cand", "global", CT_JOURNAL_OK);
    add_row_dt(&tr[0], "reduce", "float", 8, 5);
    add_row_dt(&tr[0], "allreduce", "float", 64, 50);
    add_row_dt(&tr[0], "bcast", "float", 16, 7); /* spare: no sample */
    tr[0].nrows--;
    trial_of(&tr[1], rows[1], "base", "global", CT_JOURNAL_TIMEOUT);
    add_row_dt(&tr[1], "bcast", "float", 16, 9);
    trial_of(&tr[2], rows[2], "base", "bcast", CT_JOURNAL_OK);
    add_row_dt(&tr[2], "alltoall", "float", 32, 1);
    /* The baseline: bcast's sizes descending; a spare gather row. */
    trial_of(&tr[3], rows[3], "base", "global", CT_JOURNAL_OK);
    add_row_dt(&tr[3], "allreduce", "float", 64, 60);
    add_row_dt(&tr[3], "bcast", "float", 256, 70);
    add_row_dt(&tr[3], "bcast", "float", 16, 10);
    add_row_dt(&tr[3], "gather", "float", 2, 1); /* spare: no kind, no size */
    tr[3].nrows--;
    trial_of(&tr[4], rows[4], "base", "global", CT_JOURNAL_OK);
    add_row_dt(&tr[4], "reduce", "float", 8, 3);
    add_row_dt(&tr[4], "gather", "float", 4, 2);
    add_row_dt(&tr[4], "allreduce", "float", 64, 62);
    /* Past ntrials: a baseline with a sample and a size of its own. */
    trial_of(&tr[5], rows[5], "base", "global", CT_JOURNAL_OK);
    add_row_dt(&tr[5], "allreduce", "float", 64, 99);
    add_row_dt(&tr[5], "allreduce", "float", 128, 98);
    ct_tune_state_t s;
    memset(&s, 0, sizeof s);
    s.trials = tr;
    s.ntrials = 5;
    ct_tune_evidence_t ev;
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
    static const char *const colls[] = {"allreduce", "bcast", "bcast", "reduce", "gather"};
    static const long long bytes[] = {64, 16, 256, 8, 4};
    CT_CHECK(t, ev.ncells == 5);
    for (size_t k = 0; k < 5 && k < ev.ncells; k++)
        CT_CHECK(t, strcmp(ev.cells[k].coll, colls[k]) == 0 && ev.cells[k].bytes == bytes[k]);
    if (ev.ncells == 5) {
        const ct_tune_launches_t *ar = ev.cells[0].cfg;
        CT_CHECK(t, ar[0].n == 2 && ar[0].us[0] == 60 && ar[0].us[1] == 62);
        CT_CHECK(t, ar[1].n == 1 && ar[1].us[0] == 50);
        CT_CHECK(t, ev.cells[1].cfg[0].n == 1 && ev.cells[1].cfg[1].n == 0);
    }
    ct_tune_evidence_free(&ev);
    double us[4] = {0, -1, -1, -1};
    CT_CHECK(t, ct_tune_base_samples(&s, &sc, "allreduce", 64, us, 4) == 2 && us[1] == 62);
    us[1] = -1;
    CT_CHECK(t, ct_tune_base_samples(&s, &sc, "allreduce", 64, us, 1) == 1 && us[0] == 60 &&
                    us[1] == -1);

    /* Every baseline trial failed: no cell, and no error. */
    tr[3].status = tr[4].status = CT_JOURNAL_CRASH;
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK && ev.ncells == 0);
    ct_tune_evidence_free(&ev);
}

/* A configuration the scope excluded, or one that could not run (skip),
 * is excluded in the evidence; the baseline is not. */
static void test_excluded(ct_test_tally_t *t)
{
    ct_space_config_t cfg[2];
    int excluded[2] = {0, 1};
    ct_tune_scope_t sc = scope_of(cfg, excluded);
    ct_trial_row_t rows[1][4];
    ct_trial_t tr[1];
    trial_of(&tr[0], rows[0], "base", "global", CT_JOURNAL_OK);
    add_row_dt(&tr[0], "bcast", "float", 64, 10);
    ct_tune_state_t s;
    memset(&s, 0, sizeof s);
    s.trials = tr;
    s.ntrials = 1;
    ct_tune_evidence_t ev;
    for (int k = 0; k < 2; k++) {
        excluded[1] = k == 0;
        cfg[1].skip = k == 0 ? NULL : (char *)"exceeds the rank limit";
        CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
        CT_CHECK(t, ev.nconfigs == 2 && !ev.excluded[0] && ev.excluded[1]);
        ct_tune_evidence_free(&ev);
    }
}

/* The index's bounds: at most 32 x CT_SHAPES_MAX kinds (the first seen),
 * and at most CT_TUNE_EV_MAX_SIZES sizes of a kind (the first seen, then
 * sorted), counted from where its cells start. */
static void test_index_caps(ct_test_tally_t *t)
{
    enum { NKINDS = 32 * CT_SHAPES_MAX, NROWS = CT_TUNE_EV_MAX_SIZES + 3 };
    ct_space_config_t cfg[2];
    int excluded[2] = {0, 0};
    ct_tune_scope_t sc = scope_of(cfg, excluded);
    sc.configs.n = 1;
    ct_trial_row_t *rows = calloc(NROWS, sizeof *rows);
    CT_CHECK(t, rows != NULL);
    if (rows == NULL)
        return;
    ct_trial_t tr;
    trial_of(&tr, rows, "base", "global", CT_JOURNAL_OK);
    char dt[16];
    for (int k = 0; k < NKINDS + 2; k++) {
        snprintf(dt, sizeof dt, "d%d", k);
        add_row_dt(&tr, "allreduce", dt, 8, 1);
    }
    ct_tune_state_t s;
    memset(&s, 0, sizeof s);
    s.trials = &tr;
    s.ntrials = 1;
    ct_tune_evidence_t ev;
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
    CT_CHECK(t, ev.ncells == NKINDS);
    if (ev.ncells == NKINDS)
        CT_CHECK(t, strcmp(ev.cells[NKINDS - 1].dtype, "d511") == 0);
    ct_tune_evidence_free(&ev);

    /* One size of bcast, then allreduce at one size more than the cap,
     * from the largest down. */
    trial_of(&tr, rows, "base", "global", CT_JOURNAL_OK);
    add_row_dt(&tr, "bcast", "float", 8, 1);
    for (long long b = CT_TUNE_EV_MAX_SIZES + 1; b >= 1; b--)
        add_row_dt(&tr, "allreduce", "float", b, 1);
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
    CT_CHECK(t, ev.ncells == 1 + CT_TUNE_EV_MAX_SIZES);
    if (ev.ncells == 1 + CT_TUNE_EV_MAX_SIZES)
        CT_CHECK(t, ev.cells[1].bytes == 2 &&
                        ev.cells[CT_TUNE_EV_MAX_SIZES].bytes == CT_TUNE_EV_MAX_SIZES + 1);
    ct_tune_evidence_free(&ev);
    free(rows);
}

/* --shapes: one launch's rows at 1x2 and 1x4.  A scope of a shape reads
 * only its shape's rows (the cells, their samples, the baseline's
 * samples); a scope without one (the A/B's) makes a cell per shape; a
 * tune without --shapes, a cell per size of no shape. */
static void test_shapes(ct_test_tally_t *t)
{
    ct_space_config_t cfg[2];
    memset(cfg, 0, sizeof cfg);
    snprintf(cfg[0].key, sizeof cfg[0].key, "base");
    snprintf(cfg[1].key, sizeof cfg[1].key, "cand");
    int excluded[2] = {0, 0};
    ct_tune_scope_t sc = {0};
    sc.scope = -1;
    sc.name = "allreduce";
    sc.configs.configs = cfg;
    sc.configs.n = 2;
    sc.excluded = excluded;
    ct_trial_row_t rows[2][8];
    ct_trial_t tr[2];
    memset(tr, 0, sizeof tr);
    for (size_t i = 0; i < 2; i++) {
        snprintf(tr[i].key, sizeof tr[i].key, "%s", i == 0 ? "base" : "cand");
        snprintf(tr[i].scope, sizeof tr[i].scope, "allreduce");
        tr[i].rows = rows[i];
        tr[i].status = CT_JOURNAL_OK;
        for (int k = 0; k < 2; k++) { /* 1x2 then 1x4; only 1x4 has 128 B */
            add_row_dt(&tr[i], "allreduce", "float", 64, 10 * (k + 1) + (double)i);
            tr[i].rows[tr[i].nrows - 1].nranks = 2 + 2 * k;
            tr[i].rows[tr[i].nrows - 1].nnodes = 1;
        }
        add_row_dt(&tr[i], "allreduce", "float", 128, 30 + (double)i);
        tr[i].rows[tr[i].nrows - 1].nranks = 4;
        tr[i].rows[tr[i].nrows - 1].nnodes = 1;
    }
    ct_tune_state_t s;
    memset(&s, 0, sizeof s);
    s.trials = tr;
    s.ntrials = 2;
    s.nshapes = 2;
    ct_tune_evidence_t ev;
    sc.shape = (ct_shape_t){1, 2};
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
    CT_CHECK(t, ev.ncells == 1 && ev.cells[0].bytes == 64 && ev.cells[0].nranks == 2 &&
                    ev.cells[0].nnodes == 1);
    CT_CHECK(t, ev.ncells == 1 && ev.cells[0].cfg[0].us[0] == 10 && ev.cells[0].cfg[1].us[0] == 11);
    double us[2];
    CT_CHECK(t, ct_tune_base_samples(&s, &sc, "allreduce", 64, us, 2) == 1 && us[0] == 10);
    ct_tune_evidence_free(&ev);
    sc.shape = (ct_shape_t){1, 4};
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
    CT_CHECK(t, ev.ncells == 2 && ev.cells[0].cfg[0].us[0] == 20 && ev.cells[1].bytes == 128);
    CT_CHECK(t, ct_tune_base_samples(&s, &sc, "allreduce", 64, us, 2) == 1 && us[0] == 20);
    ct_tune_evidence_free(&ev);
    /* No shape of its own: 64 B at 1x2, 64 and 128 B at 1x4. */
    sc.shape = (ct_shape_t){0, 0};
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
    CT_CHECK(t, ev.ncells == 3);
    if (ev.ncells == 3) {
        CT_CHECK(t, ev.cells[0].nranks == 2 && ev.cells[0].cfg[1].us[0] == 11);
        CT_CHECK(t, ev.cells[1].nranks == 4 && ev.cells[1].bytes == 64);
        CT_CHECK(t, ev.cells[1].cfg[1].us[0] == 21 && ev.cells[2].bytes == 128);
    }
    ct_tune_evidence_free(&ev);
    /* Without --shapes the rows' shapes split no cell, and a cell has no
     * shape (0 x 0, as evidence.h says): 64 B holds the first 64 B row of
     * each trial (1x2's), 128 B 1x4's. */
    s.nshapes = 0;
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
    CT_CHECK(t, ev.ncells == 2);
    if (ev.ncells == 2) {
        CT_CHECK(t, ev.cells[0].bytes == 64 && ev.cells[1].bytes == 128);
        for (size_t k = 0; k < 2; k++)
            CT_CHECK(t, ev.cells[k].nranks == 0 && ev.cells[k].nnodes == 0);
        CT_CHECK(t, ev.cells[0].cfg[0].n == 1 && ev.cells[0].cfg[0].us[0] == 10 &&
                        ev.cells[0].cfg[1].us[0] == 11);
        CT_CHECK(t, ev.cells[1].cfg[0].n == 1 && ev.cells[1].cfg[1].us[0] == 31);
    }
    ct_tune_evidence_free(&ev);
    /* One shape given (--shapes 1x4): its cells carry it too. */
    s.nshapes = 1;
    sc.shape = (ct_shape_t){1, 4};
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
    CT_CHECK(t, ev.ncells == 2);
    for (size_t k = 0; k < ev.ncells; k++)
        CT_CHECK(t, ev.cells[k].nranks == 4 && ev.cells[k].nnodes == 1);
    ct_tune_evidence_free(&ev);
}

/* A configuration's launches in one cell stop at CT_TUNE_MAX_LAUNCHES:
 * one more trial is dropped, not written past the end; its weighted
 * times (--weights) too, each kept however small (under 1 us here). */
static void test_launch_cap(ct_test_tally_t *t)
{
    enum { NTR = CT_TUNE_MAX_LAUNCHES + 1 };
    ct_space_config_t cfg[1];
    memset(cfg, 0, sizeof cfg);
    snprintf(cfg[0].key, sizeof cfg[0].key, "base");
    ct_tune_scope_t sc = {0};
    int excluded[1] = {0};
    sc.scope = -1;
    sc.name = "global";
    sc.configs.configs = cfg;
    sc.configs.n = 1;
    sc.excluded = excluded;
    ct_trial_row_t *rows = calloc(NTR, sizeof *rows);
    ct_trial_t *tr = calloc(NTR, sizeof *tr);
    CT_CHECK(t, rows != NULL && tr != NULL);
    if (rows == NULL || tr == NULL) {
        free(rows);
        free(tr);
        return;
    }
    for (size_t i = 0; i < NTR; i++) {
        snprintf(tr[i].key, sizeof tr[i].key, "base");
        snprintf(tr[i].scope, sizeof tr[i].scope, "global");
        tr[i].rows = &rows[i];
        add_row(&tr[i], "bcast", 64, "out-of-place", 100 + (double)i);
    }
    ct_tune_weight_t bcast64 = {"bcast", 64, 0.005, 1};
    ct_tune_weights_t weights = {NULL, &bcast64, 1};
    ct_tune_state_t s;
    memset(&s, 0, sizeof s);
    s.trials = tr;
    s.ntrials = NTR;
    s.weights = &weights;
    ct_tune_evidence_t ev;
    CT_CHECK(t, ct_tune_evidence_build(&s, &sc, &ev) == CT_OK);
    CT_CHECK(t, ev.ncells == 1);
    if (ev.ncells == 1) {
        const ct_tune_launches_t *l = &ev.cells[0].cfg[0];
        CT_CHECK(t, l->n == CT_TUNE_MAX_LAUNCHES);
        CT_CHECK(t, l->us[0] == 100 && l->bw[0] == 10);
        CT_CHECK(t, l->us[CT_TUNE_MAX_LAUNCHES - 1] == 100 + CT_TUNE_MAX_LAUNCHES - 1);
    }
    const ct_tune_launches_t *w = ev.weighted ? &ev.weighted_us[0] : NULL;
    CT_CHECK(t, w != NULL && w->n == CT_TUNE_MAX_LAUNCHES && w->us[0] == 0.005 * 100);
    ct_tune_evidence_free(&ev);
    free(rows);
    free(tr);
}

/* Settings beyond the baseline: a variable counts when the baseline does
 * not set it to the same value (name and value both). */
static void test_nchanged(ct_test_tally_t *t)
{
    ct_space_setting_t base[] = {{"A", "1", 0}, {"B", "2", 0}};
    ct_space_setting_t same_a_new_c[] = {{"A", "1", 0}, {"C", "5", 0}};
    ct_space_setting_t value_of_b[] = {{"A", "1", 0}, {"D", "2", 0}};
    ct_space_setting_t other_a[] = {{"A", "3", 0}, {"B", "2", 0}};
    ct_space_config_t cfg[4];
    memset(cfg, 0, sizeof cfg);
    cfg[0].settings = base;
    cfg[0].n = 2;
    cfg[1].settings = same_a_new_c;
    cfg[1].n = 2;
    cfg[2].settings = value_of_b;
    cfg[2].n = 2;
    cfg[3].settings = other_a;
    cfg[3].n = 2;
    ct_tune_scope_t sc = {0};
    sc.configs.configs = cfg;
    sc.configs.n = 4;
    CT_CHECK(t, ct_tune_nchanged(&sc, 0) == 0);
    CT_CHECK(t, ct_tune_nchanged(&sc, 1) == 1); /* C */
    CT_CHECK(t, ct_tune_nchanged(&sc, 2) == 1); /* D, though B has its value */
    CT_CHECK(t, ct_tune_nchanged(&sc, 3) == 1); /* A, another value */
    CT_CHECK(t, ct_tune_in_base(&cfg[0], &same_a_new_c[0]) &&
                    !ct_tune_in_base(&cfg[0], &value_of_b[1]));
}

/* A setting that rides on its partner's gain is not written: the search
 * measured ALGO=tree alone within 4% of ALGO=tree + PROTO=LL (under the
 * margin), so PROTO=LL adds nothing; with a 20% gap it earns its place. */
static void ablate_case(ct_test_tally_t *t, double with_proto, int want_kept)
{
    ct_space_setting_t tree[] = {{"NCCL_ALGO", "tree", 0}};
    ct_space_setting_t tree_ll[] = {{"NCCL_ALGO", "tree", 0}, {"NCCL_PROTO", "LL", 0}};
    ct_space_setting_t ll[] = {{"NCCL_PROTO", "LL", 0}};
    ct_space_config_t cfg[4];
    memset(cfg, 0, sizeof cfg);
    cfg[1].settings = tree;
    cfg[1].n = 1;
    cfg[2].settings = tree_ll;
    cfg[2].n = 2;
    cfg[3].settings = ll;
    cfg[3].n = 1;
    const char *keys[] = {"base", "tree", "treell", "ll"};
    for (size_t k = 0; k < 4; k++)
        snprintf(cfg[k].key, sizeof cfg[k].key, "%s", keys[k]);
    ct_tune_scope_t sc = {0};
    int excluded[4] = {0, 0, 0, 0};
    sc.scope = CT_COLL_BROADCAST;
    sc.name = "broadcast";
    sc.configs.configs = cfg;
    sc.configs.n = 4;
    sc.excluded = excluded;
    /* Two launches of each, 64 KiB: base 100, tree 50, tree+LL as given, LL 100. */
    double us[4] = {100, 50, with_proto, 100};
    ct_trial_row_t rows[8][2];
    ct_trial_t tr[8];
    memset(tr, 0, sizeof tr);
    for (size_t i = 0; i < 8; i++) {
        snprintf(tr[i].key, sizeof tr[i].key, "%s", keys[i / 2]);
        snprintf(tr[i].scope, sizeof tr[i].scope, "broadcast");
        tr[i].rows = rows[i];
        tr[i].status = CT_JOURNAL_OK;
        add_row(&tr[i], "broadcast", 65536, "out-of-place", us[i / 2] + 0.5 * (double)(i % 2));
    }
    /* The space: both are searched variables (a requires= partner would
     * never be judged alone). */
    char ini[] = "/tmp/ct-ablate.XXXXXX";
    int fd = mkstemp(ini);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f != NULL) {
        fputs("[space]\nname = ablate\nvia = env\n[var NCCL_ALGO]\nvalues = tree\n"
              "[var NCCL_PROTO]\nvalues = LL\n",
              f);
        fclose(f);
    }
    ct_space_t space;
    char err[256];
    CT_CHECK(t, ct_space_load(ini, &space, err, sizeof err) == CT_OK);
    unlink(ini);
    ct_tune_state_t s;
    memset(&s, 0, sizeof s);
    s.space = &space;
    s.trials = tr;
    s.ntrials = 8;
    s.scopes = &sc;
    s.nscopes = 1;
    s.nranks = 2;
    ct_tune_scope_decision_t dec;
    ct_tune_result_t r;
    memset(&r, 0, sizeof r);
    CT_CHECK(t, ct_tune_decide_scopes(&s, &dec, &r) == CT_OK);
    size_t algo = r.nchoices, proto = r.nchoices;
    for (size_t i = 0; i < r.nchoices; i++) {
        if (strcmp(r.choices[i].name, "NCCL_ALGO") == 0)
            algo = i;
        if (strcmp(r.choices[i].name, "NCCL_PROTO") == 0)
            proto = i;
    }
    CT_CHECK(t, algo < r.nchoices && proto < r.nchoices);
    if (algo < r.nchoices && proto < r.nchoices) {
        CT_CHECK(t, r.choices[algo].significant && r.choices[algo].idle == NULL);
        CT_CHECK(t, r.choices[proto].significant == want_kept);
        CT_CHECK(t, (r.choices[proto].idle == NULL) == want_kept);
        CT_CHECK(t, want_kept || (r.choices[proto].unwritable != NULL &&
                                  strstr(r.choices[proto].unwritable, "adds nothing") != NULL));
    }
    ct_tune_result_free(&r);
    ct_tune_scope_decisions_free(&dec, 1);
    ct_space_free(&space);
}

/* Which settings may be judged alone: a searched variable another one
 * depends on (when=) may not, nor a requires= partner. */
static void test_ablatable(ct_test_tally_t *t)
{
    char ini[] = "/tmp/ct-ablatable.XXXXXX";
    int fd = mkstemp(ini);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f != NULL) {
        fputs("[space]\nname = a\n[var pml]\nvia = mca\nvalues = ob1, ucx\n"
              "requires = pml_ucx_tls=any\n[var UCX_TLS]\nvia = env\nwhen = pml=ucx\n"
              "values = all, sm\n",
              f);
        fclose(f);
    }
    ct_space_t space;
    char err[256];
    CT_CHECK(t, ct_space_load(ini, &space, err, sizeof err) == CT_OK);
    unlink(ini);
    ct_space_setting_t set[] = {
        {"UCX_TLS", "all", 0}, {"pml", "ucx", 0}, {"pml_ucx_tls", "any", 0}};
    ct_space_config_t c = {0};
    c.settings = set;
    c.n = 3;
    CT_CHECK(t, ct_tune_ablatable(&space, &c, 0));  /* UCX_TLS: nothing depends on it */
    CT_CHECK(t, !ct_tune_ablatable(&space, &c, 1)); /* pml: UCX_TLS varies under it */
    CT_CHECK(t, !ct_tune_ablatable(&space, &c, 2)); /* a requires= partner */
    c.settings = &set[1];
    c.n = 2;
    CT_CHECK(t, ct_tune_ablatable(&space, &c, 0)); /* pml alone: nothing under it */
    CT_CHECK(t, !ct_tune_ablatable(NULL, &c, 0));
    ct_space_free(&space);

    /* The first variable beside one with no when=: nothing depends on it.
     * A constraint's variable may not be judged alone. */
    char ini2[] = "/tmp/ct-ablatable2.XXXXXX";
    fd = mkstemp(ini2);
    f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f != NULL) {
        fputs("[space]\nname = b\nvia = env\n[var NCCL_MIN_CTAS]\nvalues = 2, 4\n"
              "[var NCCL_BUFFSIZE]\nvalues = 1048576\n[var NCCL_SOCKET_NTHREADS]\n"
              "values = 2, 4\n[var NCCL_NSOCKS_PERTHREAD]\nvalues = 2, 4\n"
              "[constraint sockets]\nproduct = NCCL_SOCKET_NTHREADS, NCCL_NSOCKS_PERTHREAD\n"
              "max = 64\n",
              f);
        fclose(f);
    }
    CT_CHECK(t, ct_space_load(ini2, &space, err, sizeof err) == CT_OK);
    unlink(ini2);
    ct_space_setting_t set2[] = {{"NCCL_BUFFSIZE", "1048576", 0},
                                 {"NCCL_MIN_CTAS", "2", 0},
                                 {"NCCL_NSOCKS_PERTHREAD", "2", 0}};
    c.settings = set2;
    c.n = 3;
    CT_CHECK(t, ct_tune_ablatable(&space, &c, 1));  /* var 0, beside var 1 with no when= */
    CT_CHECK(t, ct_tune_ablatable(&space, &c, 0));  /* var 1 */
    CT_CHECK(t, !ct_tune_ablatable(&space, &c, 2)); /* in the constraint */
    ct_space_free(&space);
}

static void test_ablation(ct_test_tally_t *t)
{
    test_ablatable(t);
    ablate_case(t, 48, 0); /* 4% under tree alone: below the margin */
    ablate_case(t, 40, 1); /* 20% under it: PROTO=LL earns its place */
}

int main(void)
{
    ct_test_tally_t t = {0, 0};
    test_ranges(&t);
    test_global(&t);
    test_per_coll(&t);
    test_index(&t);
    test_contender(&t);
    test_weighted_no_cell(&t);
    test_index_edges(&t);
    test_launch_cap(&t);
    test_shapes(&t);
    test_index_order(&t);
    test_excluded(&t);
    test_index_caps(&t);
    test_nchanged(&t);
    test_ablation(&t);
    return CT_DONE(&t);
}
