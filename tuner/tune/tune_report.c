/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_report.c - DIR/report.md and DIR/report.json: formats what the
 * tune decided (tune_choices.h), the A/B's verdicts (tune_verify.h) and
 * the trials, and writes both.  It decides nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "ct_outfile.h"
#include "ct_json.h"
#include "emit.h"
#include "outdir.h"
#include "tune_decide.h"
#include "tune_report.h"

/* "NAME=VALUE NAME=VALUE" of the settings ci changes, or "defaults". */
static void ct_tune_describe(const ct_tune_scope_t *sc, size_t ci, char *buf, size_t len)
{
    const ct_space_config_t *base = &sc->configs.configs[0], *c = &sc->configs.configs[ci];
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < c->n && ci != 0; i++) {
        if (ct_tune_in_base(base, &c->settings[i]))
            continue;
        int m = snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", c->settings[i].name,
                         c->settings[i].value);
        if (m < 0 || (size_t)m >= len - used)
            break;
        used += (size_t)m;
    }
    if (used == 0)
        snprintf(buf, len, "defaults");
}

/* Writes text (NUL-terminated) to DIR/name through a temporary beside it
 * (ct_outfile): a reader, or a resumed tune, never sees half a report. */
static ct_status_t ct_tune_write_atomic(const char *dir, const char *name, const char *text,
                                        char *err, size_t errlen)
{
    char path[4096];
    if (ct_outdir_path(dir, name, path, sizeof path) != CT_OK) {
        snprintf(err, errlen, "%s/%s: path too long", dir, name);
        return CT_ERR_USAGE;
    }
    return ct_outfile_write_text(path, text, err, errlen);
}

/* A growing string for report.md. */
typedef struct {
    char *s;
    size_t n, cap;
    int bad;
} ct_tune_buf_t;

__attribute__((format(printf, 2, 3))) static void ct_tune_bprintf(ct_tune_buf_t *b, const char *fmt,
                                                                  ...)
{
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->n;
        va_start(ap, fmt);
        int m = b->s ? vsnprintf(b->s + b->n, room, fmt, ap) : -1;
        va_end(ap);
        if (m >= 0 && (size_t)m < room) {
            b->n += (size_t)m;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        if (m >= 0 && cap < b->n + (size_t)m + 1)
            cap = b->n + (size_t)m + 1;
        char *s = realloc(b->s, cap);
        if (s == NULL) {
            b->bad = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

static void ct_tune_size_str(long long bytes, char *buf, size_t len)
{
    if (bytes < 0)
        snprintf(buf, len, "any");
    else if (bytes >= (1LL << 20) && bytes % (1LL << 20) == 0)
        snprintf(buf, len, "%lldM", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, len, "%lldK", bytes >> 10);
    else
        snprintf(buf, len, "%lld", bytes);
}

/* An A/B cell's collective, with its shape under --shapes ("allreduce
 * at 2x4"): each shape's cells are judged against its own choices. */
static void ct_tune_vcell_name(const ct_tune_vcell_t *c, char *buf, size_t len)
{
    if (c->nranks > 0 && c->nnodes > 0)
        snprintf(buf, len, "%s at %lldx%lld", c->coll, c->nnodes, c->nranks / c->nnodes);
    else
        snprintf(buf, len, "%s", c->coll);
}

/* Its shape into report.json's entry j, under --shapes; nonzero when out
 * of memory. */
static int ct_tune_json_vcell_shape(json_t *j, const ct_tune_vcell_t *c)
{
    if (c->nranks <= 0 || c->nnodes <= 0)
        return 0;
    return ct_json_set(j, "nodes", json_integer(c->nnodes)) ||
           ct_json_set(j, "ranks_per_node", json_integer(c->nranks / c->nnodes));
}

/* One side of a cell in report.json, under the keys SIDE_us,
 * SIDE_us_range, SIDE_busbw_gbps and SIDE_launches: the verification's
 * default and tuned, the decision's default and best, all alike.  Nonzero
 * when a member could not be set. */
static int ct_tune_json_side(json_t *j, const char *side, double us, double lo, double hi,
                             double bw, size_t n)
{
    char key[64];
    int bad = 0;
    snprintf(key, sizeof key, "%s_us", side);
    bad |= ct_json_set(j, key, ct_json_real(us));
    snprintf(key, sizeof key, "%s_us_range", side);
    bad |= ct_json_set(j, key, json_pack("[ff]", lo, hi));
    snprintf(key, sizeof key, "%s_busbw_gbps", side);
    bad |= ct_json_set(j, key, ct_json_real(bw));
    snprintf(key, sizeof key, "%s_launches", side);
    bad |= ct_json_set(j, key, json_integer((json_int_t)n));
    return bad;
}

/* report.md's "no harm" table and report.json's verification.no_harm:
 * every cell the A/B measured, tuned or not, whether the tuned side was
 * slower there, and how many candidate choices reach it.  NULL without
 * memory. */
static json_t *ct_tune_report_no_harm(const ct_tune_verify_t *v, ct_tune_buf_t *md)
{
    size_t slower = 0, unreached = 0;
    for (size_t i = 0; i < v->ncells; i++) {
        slower += (size_t)v->cells[i].contradicts;
        unreached += (size_t)(v->cells[i].contradicts && v->cells[i].reach == 0);
    }
    ct_tune_bprintf(md,
                    "## no harm\n\nThe files reach more than the search measured: the A/B also "
                    "ran every collective at `--sizes %s` (they include every power of two "
                    "inside each choice's range)%s%s%s. A cell is slower where the default is "
                    "faster by the same test (p <= %.2f) by >= %.0f%%; a choice's range is cut at "
                    "its slower cells, and a global choice is dropped by any. A slower cell a "
                    "choice reaches counts only when a second A/B of as many pairs, of the "
                    "suspects alone, finds it slower too.\n\n",
                    v->sizes,
                    v->dtypes ? ", and int8 and bfloat16 allreduce, broadcast and allgather at "
                                "`--sizes "
                              : "",
                    v->dtypes ? v->check_sizes : "", v->dtypes ? "`" : "", CT_TUNE_VERIFY_ALPHA,
                    CT_TUNE_HARM_MARGIN * 100);
    if (v->failed[0])
        ct_tune_bprintf(md, "**Nothing written**: %s.\n\n", v->failed);
    ct_tune_bprintf(md,
                    "%zu cells, %zu slower%s.\n\n| collective | dtype | size | default us | tuned "
                    "us | tuned/default | p slower | verdict | choices reaching it "
                    "|\n|---|---|---|---|---|---|---|---|---|\n",
                    v->ncells, slower,
                    unreached ? " (where no choice reaches, the files change nothing: noise)" : "");
    json_t *cells = json_array(), *nh = json_object();
    int bad = cells == NULL || nh == NULL;
    for (size_t i = 0; i < v->ncells && !bad; i++) {
        const ct_tune_vcell_t *c = &v->cells[i];
        char sz[32];
        ct_tune_size_str(c->bytes, sz, sizeof sz);
        double ratio = c->def_us > 0 ? c->tun_us / c->def_us : 0;
        const char *verdict = c->contradicts ? "SLOWER"
                              : c->suspect   ? "slower once, not confirmed"
                              : c->holds     ? "faster"
                                             : "same";
        char cn[64];
        ct_tune_vcell_name(c, cn, sizeof cn);
        ct_tune_bprintf(md, "| %s | %s | %s | %.2f | %.2f | %.3f | %.3g | %s | %d |\n", cn,
                        c->dtype[0] ? c->dtype : "-", sz, c->def_us, c->tun_us, ratio, c->p_slower,
                        verdict, c->reach);
        json_t *j =
            json_pack("{s:s, s:s, s:I, s:b, s:f, s:f, s:I, s:I, s:f, s:s, s:i}", "collective",
                      c->coll, "dtype", c->dtype, "bytes", (json_int_t)c->bytes, "searched",
                      c->tuned, "default_us", c->def_us, "tuned_us", c->tun_us, "default_launches",
                      (json_int_t)c->ndef, "tuned_launches", (json_int_t)c->ntun, "p_slower",
                      c->p_slower, "verdict", verdict, "reached_by", c->reach);
        bad |= j == NULL || ct_tune_json_vcell_shape(j, c) || ct_json_append(cells, j);
    }
    ct_tune_bprintf(md, "\n");
    bad |= ct_json_set(nh, "harm_margin", ct_json_real(CT_TUNE_HARM_MARGIN));
    bad |= ct_json_set(nh, "sizes", ct_json_str(v->sizes));
    bad |= ct_json_set(nh, "datatype_sizes", v->dtypes ? ct_json_str(v->check_sizes) : json_null());
    bad |= ct_json_set(nh, "failed", v->failed[0] ? ct_json_str(v->failed) : json_null());
    bad |= ct_json_set(nh, "slower", json_integer((json_int_t)slower));
    bad |= ct_json_set(nh, "suspects", json_integer((json_int_t)v->nsuspects));
    bad |=
        ct_json_set(nh, "confirm",
                    v->nsuspects ? json_pack("{s:s, s:s, s:s}", "collectives", v->confirm_colls,
                                             "sizes", v->confirm_sizes, "dtypes", v->confirm_dtypes)
                                 : json_null());
    bad |= ct_json_set(nh, "cells", cells);
    if (bad) {
        json_decref(nh);
        return NULL;
    }
    return nh;
}

/* report.md's and report.json's account of the A/B. */
static ct_status_t ct_tune_report_verify(const ct_tune_report_in_t *in, ct_tune_buf_t *md,
                                         json_t *doc)
{
    const ct_tune_verify_t *v = in->v;
    const ct_tune_state_t *s = in->s;
    ct_tune_bprintf(md, "## verification\n\n");
    if (v == NULL) {
        ct_tune_bprintf(md, "%s\n\n",
                        in->ab_started
                            ? "Interrupted before the A/B finished: nothing verified, no "
                              "file written (--resume finishes it)."
                            : "None ran: no choice to verify.");
        return ct_json_set(doc, "verification", json_null()) ? CT_ERR_NOMEM : CT_OK;
    }
    char launches[160];
    if (v->turns > 0)
        snprintf(launches, sizeof launches,
                 "each side a job of its own (fresh processes: app contexts taking turns, %zu "
                 "pairs to a launch)",
                 v->turns);
    else
        snprintf(launches, sizeof launches, "of fresh launches");
    ct_tune_bprintf(md,
                    "Interleaved A/B, %zu pairs %s (order alternating), against "
                    "the defaults. The tuned side read the emitted files themselves: %s.%s%s\n\n"
                    "Test per collective x size: one-sided exact Mann-Whitney over the launch "
                    "medians at p <= %.2f, and a median gain >= %.0f%%. Across the %zu measured "
                    "cells a choice reaches, Benjamini-Hochberg at q = %.2f: a cell holds only "
                    "where its adjusted p (p adj) is <= %.2f too.\n\n",
                    v->pairs, launches, v->how, v->note[0] ? " Note: " : "", v->note,
                    CT_TUNE_VERIFY_ALPHA, CT_TUNE_MARGIN * 100, v->nfamily, CT_TUNE_VERIFY_FDR,
                    CT_TUNE_VERIFY_FDR);
    ct_tune_bprintf(md, "| collective | size | default us [range] | default busbw | tuned us "
                        "[range] | tuned busbw | speedup | p | p adj | launches | holds |\n"
                        "|---|---|---|---|---|---|---|---|---|---|---|\n");
    json_t *cells = json_array(), *vj = json_object();
    int bad = cells == NULL || vj == NULL;
    for (size_t i = 0; i < v->ncells && !bad; i++) {
        const ct_tune_vcell_t *c = &v->cells[i];
        if (!c->tuned) /* the others are in the no-harm table */
            continue;
        char sz[32];
        ct_tune_size_str(c->bytes, sz, sizeof sz);
        double speedup = c->tun_us > 0 ? c->def_us / c->tun_us : 0;
        char cn[64];
        ct_tune_vcell_name(c, cn, sizeof cn);
        ct_tune_bprintf(md,
                        "| %s | %s | %.2f [%.2f, %.2f] | %.3f | %.2f [%.2f, %.2f] | %.3f | %.2fx | "
                        "%.3g | %.3g | %zu/%zu | %s |\n",
                        cn, sz, c->def_us, c->def_lo, c->def_hi, c->def_bw, c->tun_us, c->tun_lo,
                        c->tun_hi, c->tun_bw, speedup, c->p_faster, c->p_adj, c->ndef, c->ntun,
                        c->holds         ? "yes"
                        : c->contradicts ? "SLOWER"
                        : c->holds_alone ? (c->family ? "alone only (BH)" : "no choice reaches it")
                                         : "no");
        json_t *j = json_object();
        bad |= j == NULL;
        bad |= ct_json_set(j, "collective", ct_json_str(c->coll));
        bad |= ct_tune_json_vcell_shape(j, c);
        bad |= ct_json_set(j, "bytes", json_integer(c->bytes));
        bad |= ct_tune_json_side(j, "default", c->def_us, c->def_lo, c->def_hi, c->def_bw, c->ndef);
        bad |= ct_tune_json_side(j, "tuned", c->tun_us, c->tun_lo, c->tun_hi, c->tun_bw, c->ntun);
        bad |= ct_json_set(j, "speedup", ct_json_real(speedup));
        bad |= ct_json_set(j, "p_faster", ct_json_real(c->p_faster));
        bad |= ct_json_set(j, "p_slower", ct_json_real(c->p_slower));
        bad |= ct_json_set(j, "holds", json_boolean(c->holds));
        bad |= ct_json_set(j, "holds_alone", json_boolean(c->holds_alone));
        bad |= ct_json_set(j, "bh",
                           c->family ? json_pack("{s:I, s:f, s:f}", "rank", (json_int_t)c->rank,
                                                 "level", c->level, "p_adjusted", c->p_adj)
                                     : json_null());
        bad |= ct_json_set(j, "slower", json_boolean(c->contradicts));
        bad |= ct_json_append(cells, j);
    }
    if (s->weights != NULL && !bad) {
        ct_tune_bprintf(md,
                        "\nWeighted time (--weights %s): %.2f us default, %.2f us tuned, "
                        "p = %.3g over %zu launches each.\n",
                        s->weights->path, v->w_def, v->w_tun, v->w_p, v->w_n);
        bad |= ct_json_set(vj, "weighted",
                           json_pack("{s:s, s:f, s:f, s:f, s:I}", "weights", s->weights->path,
                                     "default_us", v->w_def, "tuned_us", v->w_tun, "p", v->w_p,
                                     "launches", (json_int_t)v->w_n));
    }
    ct_tune_bprintf(md, "\n");
    bad |= ct_json_set(vj, "pairs", json_integer((json_int_t)v->pairs));
    bad |= ct_json_set(vj, "pairs_per_launch", json_integer((json_int_t)v->turns));
    bad |= ct_json_set(vj, "tuned_with", ct_json_str(v->how));
    bad |= ct_json_set(vj, "files_dir", ct_json_str(v->dir));
    bad |= ct_json_set(vj, "note", v->note[0] ? ct_json_str(v->note) : json_null());
    bad |= ct_json_set(vj, "test",
                       json_pack("{s:s, s:f, s:f, s:s, s:f, s:I}", "name",
                                 "one-sided exact Mann-Whitney over "
                                 "launch medians",
                                 "alpha", CT_TUNE_VERIFY_ALPHA, "margin", CT_TUNE_MARGIN,
                                 "across_cells", "Benjamini-Hochberg", "fdr", CT_TUNE_VERIFY_FDR,
                                 "family", (json_int_t)v->nfamily));
    bad |= ct_json_set(vj, "cells", cells);
    bad |= ct_json_set(vj, "no_harm", ct_tune_report_no_harm(v, md));
    bad |= ct_json_set(doc, "verification", vj);
    return bad ? CT_ERR_NOMEM : CT_OK;
}

/* report.md's opening: the run, and the rule. */
static void ct_tune_report_head(const ct_tune_state_t *s, ct_tune_buf_t *md)
{
    ct_tune_bprintf(md, "# colltune tune report\n\n");
    ct_tune_bprintf(md,
                    "Space `%s` (%s), %ld ranks, strategy `%s`.\n\n"
                    "Trials: %zu run now, %zu from the journal (--resume), %zu skipped as "
                    "invalid, %zu failed (excluded); %zu launches measured several "
                    "configurations side by side (run-time variables, collbench --config); "
                    "wall time %.1f s%s.\n\n",
                    s->space->name, s->space->path, s->nranks, s->strategy, s->ran, s->resumed,
                    s->skipped, s->failed, s->launches_shared, s->wall_s,
                    s->budget_hit ? "; the budget ran out before the search was done" : "");
    ct_tune_bprintf(md,
                    "Objective over ranks (--objective %s): %s; every launch, search and "
                    "verification, measured it.\n\n",
                    s->objective, CT_TUNE_OBJECTIVE_TEXT(s->objective));
    ct_tune_bprintf(md,
                    "Rule: a candidate replaces the default in a collective x size only when, "
                    "over >= %d independent launches each, its launch medians are lower by a "
                    "one-sided exact Mann-Whitney test at p <= 0.05 (where the launch counts "
                    "cannot reach that, as 2 against 2, every launch lower) and its median is "
                    ">= %.0f%% lower. Where the candidate and the default ran side by side in "
                    ">= %d shared launches, those decide instead: it must win a strict majority "
                    "of them (median >= the margin lower, 95%% intervals apart) and its median "
                    "time over the default's across them must be >= the margin below 1; "
                    "otherwise the default stays (no significant gain). Objective: latency "
                    "(median time) below %lld bytes, busbw from there.%s\n\n"
                    "Every choice is then verified by an interleaved A/B with the emitted "
                    "files (below); only verified choices are written to the files.\n\n",
                    CT_TUNE_MIN_LAUNCHES, CT_TUNE_MARGIN * 100, CT_TUNE_MIN_PAIRED,
                    CT_TUNE_LATENCY_MAX_BYTES,
                    s->weights ? " Global settings: the lowest weighted time per launch "
                                 "under --weights, by the same rule."
                               : " Global settings: the configuration that wins the most "
                                 "cells and is significantly slower in none.");
}

/* One cell: a row of report.md's scope table and an entry of
 * report.json's cells. */
static ct_status_t ct_tune_report_cell(const ct_tune_scope_t *sc, const ct_tune_ev_cell_t *e,
                                       const ct_tune_dcell_t *c, ct_tune_buf_t *md, json_t *cells)
{
    char desc[512], sz[32];
    ct_tune_describe(sc, c->best, desc, sizeof desc);
    ct_tune_size_str(e->bytes, sz, sizeof sz);
    double speedup = c->best_us > 0 ? c->base_us / c->best_us : 0;
    const char *obj = e->bytes < CT_TUNE_LATENCY_MAX_BYTES ? "latency" : "busbw";
    ct_tune_bprintf(md,
                    "| %s | %s | %s | %.2f [%.2f, %.2f] | %.3f | %.2f [%.2f, %.2f] | "
                    "%.3f | %.2fx | %zu/%zu | %s | %s |\n",
                    e->coll, sz, obj, c->base_us, c->base_lo, c->base_hi, c->base_bw, c->best_us,
                    c->best_lo, c->best_hi, c->best_bw, speedup, c->nbase, c->nbest,
                    c->significant ? "yes" : "no significant gain", desc);
    json_t *j = json_object();
    int bad = j == NULL;
    bad |= ct_json_set(j, "scope", ct_json_str(sc->name));
    bad |= ct_json_set(j, "collective", ct_json_str(e->coll));
    if (sc->shape.nnodes > 0) { /* --shapes: the shape it decided for */
        bad |= ct_json_set(j, "nodes", json_integer(sc->shape.nnodes));
        bad |= ct_json_set(j, "ranks_per_node", json_integer(sc->shape.ranks_per_node));
    }
    bad |= ct_json_set(j, "bytes", json_integer(e->bytes));
    bad |= ct_json_set(j, "objective", ct_json_str(obj));
    bad |=
        ct_tune_json_side(j, "default", c->base_us, c->base_lo, c->base_hi, c->base_bw, c->nbase);
    bad |= ct_json_set(j, "best_key", ct_json_str(sc->configs.configs[c->best].key));
    bad |= ct_json_set(j, "best_config", ct_json_str(desc));
    bad |= ct_tune_json_side(j, "best", c->best_us, c->best_lo, c->best_hi, c->best_bw, c->nbest);
    bad |= ct_json_set(j, "speedup", ct_json_real(speedup));
    bad |= ct_json_set(j, "significant", json_boolean(c->significant));
    bad |= ct_json_append(cells, j);
    return bad ? CT_ERR_NOMEM : CT_OK;
}

/* A scope's section of report.md and its cells in report.json. */
static ct_status_t ct_tune_report_scope(const ct_tune_scope_t *sc,
                                        const ct_tune_scope_decision_t *dec, int extend_ranges,
                                        ct_tune_buf_t *md, json_t *cells)
{
    ct_tune_bprintf(md, "## scope %s\n\n", sc->label[0] ? sc->label : sc->name);
    if (dec->ev.ncells == 0) {
        ct_tune_bprintf(md, "No baseline measurement: nothing decided.\n\n");
        return CT_OK;
    }
    ct_tune_bprintf(md, "| collective | size | objective | default us [range] | "
                        "default busbw | best us [range] | best busbw | speedup | launches "
                        "| significant | best configuration |\n"
                        "|---|---|---|---|---|---|---|---|---|---|---|\n");
    ct_status_t st = CT_OK;
    for (size_t k = 0; k < dec->ev.ncells && st == CT_OK; k++)
        st = ct_tune_report_cell(sc, &dec->ev.cells[k], &dec->d.cells[k], md, cells);
    /* The span each collective was measured over: a choice reaches no
     * size outside it (tune --help, "reach"). */
    ct_tune_bprintf(md, "\nMeasured span:");
    for (size_t k = 0; k < dec->ev.ncells;) {
        size_t n = 1;
        while (k + n < dec->ev.ncells &&
               strcmp(dec->ev.cells[k + n].coll, dec->ev.cells[k].coll) == 0)
            n++;
        char lo[32], hi[32];
        ct_tune_size_str(dec->ev.cells[k].bytes, lo, sizeof lo);
        ct_tune_size_str(dec->ev.cells[k + n - 1].bytes, hi, sizeof hi);
        ct_tune_bprintf(md, "%s %s %s..%s", k ? ";" : "", dec->ev.cells[k].coll, lo, hi);
        k += n;
    }
    ct_tune_bprintf(md, ". Outside it the libraries' own decisions stay%s.\n\n",
                    extend_ranges ? " (here --extend-ranges stretched the first and last "
                                    "choice of each collective to every size)"
                                  : "");
    return st;
}

/* What the site already set before the tune (site.h), as report.json's
 * "site"; NULL without memory. */
static json_t *ct_tune_report_site(const ct_site_t *site)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr != NULL && i < site->n; i++) {
        const ct_site_setting_t *e = &site->v[i];
        json_t *j = json_object();
        int bad = j == NULL;
        bad |= ct_json_set(j, "name", ct_json_str(e->name));
        bad |= ct_json_set(j, "value", ct_json_str(e->value));
        bad |= ct_json_set(j, "origin", ct_json_str(e->origin));
        bad |= ct_json_set(j, "mca", json_boolean(e->mca));
        if (bad)
            json_decref(j);
        if (bad || ct_json_append(arr, j)) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

/* Choice i's verdict in words: over every round of the A/B, else the
 * one A/B's, else (no A/B) why no file carries it. */
static const char *ct_tune_report_why(const ct_tune_report_in_t *in, size_t i)
{
    const ct_tune_choice_t *c = &in->result->choices[i];
    /* Dropped before any A/B: its own reason, not the A/B's account. */
    if (c->idle != NULL)
        return c->idle;
    if (c->outranked != NULL && !c->verified)
        return c->outranked;
    if (in->why != NULL && in->why[i][0] != '\0')
        return in->why[i];
    if (in->v != NULL && i < in->v->nchoices && in->v->why[i][0] != '\0')
        return in->v->why[i];
    return c->unwritable;
}

/* The files of one A/B (or those written) with their digests; NULL
 * without memory. */
static json_t *ct_tune_report_files_json(const ct_tune_round_t *r)
{
    json_t *files = json_array();
    for (size_t f = 0; files != NULL && f < r->nfiles; f++) {
        json_t *j = json_pack("{s:s, s:s, s:s}", "name", r->files[f].name, "sha256",
                              r->files[f].sha256, "sha256_rel", r->files[f].sha256_rel);
        if (j == NULL || ct_json_append(files, j)) {
            json_decref(files);
            return NULL;
        }
    }
    return files;
}

/* report.md's and report.json's account of the A/Bs as rounds: which
 * files each ran, and whether the last ran the files written. */
static int ct_tune_report_rounds(const ct_tune_rounds_t *rs, ct_tune_buf_t *md, json_t *doc)
{
    json_t *arr = json_array(), *o = json_object();
    int bad = arr == NULL || o == NULL;
    ct_tune_bprintf(md, "## the files verified are the files written\n\n");
    for (size_t k = 0; k < rs->n && !bad; k++) {
        const ct_tune_round_t *r = &rs->round[k];
        ct_tune_bprintf(md, "- A/B %zu (`%s`): %zu choices tested, %zu held; files:", r->round,
                        r->dir, r->candidates, r->held);
        for (size_t f = 0; f < r->nfiles; f++)
            ct_tune_bprintf(md, " %s (sha256 %.16s..., as @DIR@ %.16s...)", r->files[f].name,
                            r->files[f].sha256, r->files[f].sha256_rel);
        ct_tune_bprintf(md, "\n");
        /* An earlier round's cells: what cut or dropped a choice. */
        json_t *nh = NULL;
        if (r->v != NULL && k + 1 < rs->n) {
            ct_tune_bprintf(md, "\n### A/B %zu, whose verdicts changed the files\n\n", r->round);
            nh = ct_tune_report_no_harm(r->v, md);
            bad |= nh == NULL;
        }
        json_t *j =
            json_pack("{s:I, s:s, s:I, s:I, s:o*, s:o*}", "round", (json_int_t)r->round, "dir",
                      r->dir, "choices_tested", (json_int_t)r->candidates, "held",
                      (json_int_t)r->held, "files", ct_tune_report_files_json(r), "no_harm", nh);
        bad |= j == NULL || ct_json_append(arr, j);
    }
    ct_tune_bprintf(md, "- written (`%s`):", rs->written.dir[0] ? rs->written.dir : "-");
    for (size_t f = 0; f < rs->written.nfiles; f++)
        ct_tune_bprintf(md, " %s (sha256 %.16s..., as @DIR@ %.16s...)", rs->written.files[f].name,
                        rs->written.files[f].sha256, rs->written.files[f].sha256_rel);
    ct_tune_bprintf(md, "%s\n\n%s\n\n", rs->written.nfiles ? "" : " none",
                    rs->as_written ? "The last A/B ran these files, byte for byte (with the "
                                     "directory's own path as @DIR@)."
                                   : "No verified file is written.");
    bad |= ct_json_set(o, "rounds", arr);
    arr = NULL;
    bad |= ct_json_set(o, "written", ct_tune_report_files_json(&rs->written));
    bad |= ct_json_set(o, "as_written", json_boolean(rs->as_written));
    bad |= ct_json_set(doc, "verified_as_written", o);
    return bad;
}

/* report.md's choices list and report.json's choices. */
static ct_status_t ct_tune_report_choices(const ct_tune_report_in_t *in, ct_tune_buf_t *md,
                                          json_t *choices)
{
    const ct_tune_result_t *result = in->result;
    const ct_tune_verify_t *v = in->v;
    ct_tune_bprintf(md, "## choices\n\n");
    if (result->nchoices == 0)
        ct_tune_bprintf(md, "None: no significant gain anywhere; the defaults stay.\n");
    for (size_t i = 0; i < result->nchoices; i++) {
        const ct_tune_choice_t *c = &result->choices[i];
        char lo[32], hi[32];
        ct_tune_size_str(c->min_bytes, lo, sizeof lo);
        ct_tune_size_str(c->max_bytes, hi, sizeof hi);
        const char *verdict = c->unwritable ? "NOT WRITTEN"
                              : v == NULL   ? "not verified"
                              : c->verified ? "verified, written"
                                            : "DROPPED, not written";
        /* Without an A/B an unwritable choice still says why. */
        const char *why = ct_tune_report_why(in, i);
        /* The shape it was measured at: the rules files apply it there only
         * (colltune merge joins tunes of other shapes). */
        ct_emit_shape_t shape = ct_emit_choice_shape(result, c);
        long nodes = shape.nnodes;
        long ppn = shape.nranks / nodes;
        ct_tune_bprintf(md,
                        "- %s %s=%s (%s), sizes %s..%s, at %ld node%s x %ld ranks: search %.2f -> "
                        "%.2f us; %s%s%s%s\n",
                        ct_space_scope_name(c->scope), c->name, c->value, ct_space_via_name(c->via),
                        lo, hi, nodes, nodes == 1 ? "" : "s", ppn, c->default_us, c->tuned_us,
                        verdict, why ? " (" : "", why ? why : "", why ? ")" : "");
        json_t *j = json_object();
        int bad = j == NULL;
        bad |= ct_json_set(j, "name", ct_json_str(c->name));
        bad |= ct_json_set(j, "value", ct_json_str(c->value));
        bad |= ct_json_set(j, "via", ct_json_str(ct_space_via_name(c->via)));
        bad |= ct_json_set(j, "scope", ct_json_str(ct_space_scope_name(c->scope)));
        bad |= ct_json_set(j, "min_bytes", json_integer(c->min_bytes));
        bad |= ct_json_set(j, "max_bytes", json_integer(c->max_bytes));
        bad |= ct_json_set(j, "nodes", json_integer(nodes));
        bad |= ct_json_set(j, "ranks_per_node", json_integer(ppn));
        bad |= ct_json_set(j, "nranks", json_integer(shape.nranks));
        bad |= ct_json_set(j, "default_us", ct_json_real(c->default_us));
        bad |= ct_json_set(j, "tuned_us", ct_json_real(c->tuned_us));
        bad |= ct_json_set(j, "significant", json_boolean(c->significant));
        bad |= ct_json_set(j, "verified", json_boolean(c->verified));
        bad |= ct_json_set(j, "written", json_boolean(c->verified && c->unwritable == NULL));
        bad |= ct_json_set(j, "verdict", why ? ct_json_str(why) : json_null());
        /* The reason in words, for a choice not written; the site
         * setting by name when one outranks every form. */
        bad |= ct_json_set(j, "reason",
                           why && !(c->verified && c->unwritable == NULL) ? ct_json_str(why)
                                                                          : json_null());
        bad |=
            ct_json_set(j, "outranked_by", c->outranked ? ct_json_str(c->outranked) : json_null());
        bad |= ct_json_append(choices, j);
        if (bad)
            return CT_ERR_NOMEM;
    }
    ct_tune_bprintf(md, "\n");
    return CT_OK;
}

/* The configuration of scope sc whose key is key, or NULL. */
static const ct_tune_scope_t *ct_tune_report_scope_of(const ct_tune_state_t *s, const char *scope,
                                                      const char *key, size_t *ci_p)
{
    for (size_t si = 0; si < s->nscopes; si++) {
        const ct_tune_scope_t *sc = &s->scopes[si];
        if (strcmp(sc->name, scope) != 0)
            continue;
        for (size_t ci = 0; ci < sc->configs.n; ci++)
            if (strcmp(sc->configs.configs[ci].key, key) == 0) {
                *ci_p = ci;
                return sc;
            }
    }
    return NULL;
}

/* report.md's "refused" list and report.json's refused: what the
 * library refused under a configuration of the search (NCCL's invalid
 * usage), once per scope x configuration x collective x dtype.  Such a
 * configuration is invalid for that collective only: it was still
 * measured and decided for the others. */
static ct_status_t ct_tune_report_refused(const ct_tune_state_t *s, ct_tune_buf_t *md, json_t *doc)
{
    json_t *list = json_array();
    int bad = list == NULL, any = 0;
    for (size_t i = 0; i < s->ntrials && !bad; i++) {
        const ct_trial_t *t = &s->trials[i];
        size_t ci = 0;
        const ct_tune_scope_t *sc = ct_tune_report_scope_of(s, t->scope, t->key, &ci);
        for (size_t r = 0; sc != NULL && r < t->nrefused && !bad; r++) {
            const ct_trial_refusal_t *f = &t->refused[r];
            int seen = 0; /* by an earlier trial of the same configuration */
            for (size_t j = 0; j < i && !seen; j++) {
                const ct_trial_t *o = &s->trials[j];
                for (size_t q = 0; q < o->nrefused && !seen; q++)
                    seen = strcmp(o->scope, t->scope) == 0 && strcmp(o->key, t->key) == 0 &&
                           strcmp(o->refused[q].collective, f->collective) == 0 &&
                           strcmp(o->refused[q].dtype, f->dtype) == 0;
            }
            if (seen)
                continue;
            char desc[512];
            ct_tune_describe(sc, ci, desc, sizeof desc);
            if (!any++)
                ct_tune_bprintf(md, "## refused\n\nThe library refused these collectives under "
                                    "these configurations; each was still measured and decided "
                                    "for the other collectives.\n\n");
            ct_tune_bprintf(md, "- scope %s, %s: %s %s refused (%s)\n", sc->name, desc,
                            f->collective, f->dtype, f->reason);
            json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "scope", sc->name, "key",
                                  t->key, "config", desc, "collective", f->collective, "dtype",
                                  f->dtype, "reason", f->reason);
            bad |= j == NULL || ct_json_append(list, j);
        }
    }
    if (any)
        ct_tune_bprintf(md, "\n");
    bad |= ct_json_set(doc, "refused", list);
    return bad ? CT_ERR_NOMEM : CT_OK;
}

static void ct_tune_report_files(const ct_tune_result_t *result, ct_tune_buf_t *md)
{
    const char *names[16];
    size_t nf = ct_emit_files(result, names, 16);
    ct_tune_bprintf(md, "## files\n\n");
    if (nf == 0)
        ct_tune_bprintf(md, "None written: no verified choice.\n");
    for (size_t i = 0; i < nf && i < 16; i++)
        ct_tune_bprintf(md, "- `%s`\n", names[i]);
    ct_tune_bprintf(md, "\n");
}

static json_t *ct_tune_report_trials(const ct_tune_state_t *s)
{
    json_t *trials = json_array();
    int bad = trials == NULL;
    for (size_t i = 0; i < s->ntrials && !bad; i++) {
        const ct_trial_t *t = &s->trials[i];
        json_t *j =
            json_pack("{s:s, s:s, s:I, s:s, s:s?, s:f}", "scope", t->scope, "key", t->key, "launch",
                      (json_int_t)t->launch, "status", ct_journal_status_name(t->status), "reason",
                      t->reason, "wall_s", t->wall_s);
        /* A shared launch's name: its trials' wall_s is the launch's, once. */
        if (j != NULL && t->group[0])
            bad = ct_json_set(j, "group", ct_json_str(t->group)) != 0;
        if (bad)
            json_decref(j);
        else
            bad = ct_json_append(trials, j) != 0;
    }
    if (bad) {
        json_decref(trials);
        return NULL;
    }
    return trials;
}

/* report.json's top-level fields around its cells, choices and
 * verification (in doc already); takes cells and choices. */
static int ct_tune_report_doc(const ct_tune_report_in_t *in, json_t *doc, json_t *cells,
                              json_t *choices)
{
    const ct_tune_state_t *s = in->s;
    const ct_tune_result_t *result = in->result;
    json_t *trials = ct_tune_report_trials(s);
    int bad = trials == NULL;
    bad |= ct_json_set(doc, "generator", ct_json_str("colltune tune " PACKAGE_VERSION));
    bad |= ct_json_set(doc, "run_id", ct_json_str(result->run_id));
    bad |= ct_json_set(doc, "date", ct_json_str(result->date));
    bad |= ct_json_set(doc, "space", ct_json_str(s->space->name));
    bad |= ct_json_set(doc, "space_path", ct_json_str(s->space->path));
    bad |= ct_json_set(doc, "nranks", json_integer(result->nranks));
    bad |= ct_json_set(doc, "strategy", ct_json_str(s->strategy));
    /* Over ranks; each cell's "objective" is the per-size one (latency or busbw). */
    bad |= ct_json_set(doc, "objective",
                       json_pack("{s:s, s:i, s:s}", "ranks", s->objective, "collbench_a",
                                 atoi(CT_TUNE_OBJECTIVE_A(s->objective)), "text",
                                 CT_TUNE_OBJECTIVE_TEXT(s->objective)));
    bad |= ct_json_set(
        doc, "rule",
        json_pack("{s:i, s:i, s:f, s:s, s:s, s:I}", "min_launches", CT_TUNE_MIN_LAUNCHES,
                  "min_shared_launches", CT_TUNE_MIN_PAIRED, "margin", CT_TUNE_MARGIN, "test",
                  "one-sided exact Mann-Whitney over launch medians at p <= 0.05 (or complete "
                  "separation where the counts cannot reach it) and median gain >= "
                  "margin",
                  "paired_test",
                  "with >= min_shared_launches shared launches: wins (median >= margin lower, "
                  "95% intervals apart) in a strict majority of them and median ratio <= "
                  "1 - margin",
                  "latency_below_bytes", (json_int_t)CT_TUNE_LATENCY_MAX_BYTES));
    bad |= ct_json_set(doc, "trials_run", json_integer((json_int_t)s->ran));
    bad |= ct_json_set(doc, "trials_resumed", json_integer((json_int_t)s->resumed));
    bad |= ct_json_set(doc, "trials_skipped", json_integer((json_int_t)s->skipped));
    bad |= ct_json_set(doc, "trials_failed", json_integer((json_int_t)s->failed));
    bad |= ct_json_set(doc, "launches_shared", json_integer((json_int_t)s->launches_shared));
    bad |= ct_json_set(doc, "budget_exhausted", json_boolean(s->budget_hit));
    bad |= ct_json_set(doc, "wall_s", ct_json_real(s->wall_s));
    bad |= ct_json_set(doc, "nnodes", json_integer(result->nnodes));
    /* The MPICH library the tune ran: colltune merge reads its selection
     * tree again (ct_emit_mpich_tree_read), as the tune did. */
    bad |= ct_json_set(doc, "mpich_lib",
                       s->libs.mpich_lib ? ct_json_str(s->libs.mpich_lib) : json_null());
    bad |= ct_json_set(doc, "mpi_library",
                       s->libs.mpi_library ? ct_json_str(s->libs.mpi_library) : json_null());
    bad |= ct_json_set(doc, "verified", json_boolean(in->v != NULL));
    bad |= ct_json_set(doc, "site", ct_tune_report_site(&s->site));
    bad |= ct_json_set(doc, "cells", cells);
    bad |= ct_json_set(doc, "choices", choices);
    bad |= ct_json_set(doc, "trials", trials);
    return bad;
}

/* doc as text with a final newline, into DIR/report.json. */
static ct_status_t ct_tune_report_write_json(const char *out, json_t *doc, char *err, size_t errlen)
{
    char *text = json_dumps(doc, JSON_INDENT(2));
    if (text == NULL)
        return CT_ERR_NOMEM;
    size_t tl = strlen(text);
    char *nl = realloc(text, tl + 2);
    if (nl != NULL) {
        text = nl;
        text[tl] = '\n';
        text[tl + 1] = '\0';
    }
    ct_status_t st = ct_tune_write_atomic(out, "report.json", text, err, errlen);
    free(text);
    return st;
}

ct_status_t ct_tune_report(const ct_tune_report_in_t *in, char *err, size_t errlen)
{
    const ct_tune_state_t *s = in->s;
    json_t *doc = json_object(), *cells = json_array(), *choices = json_array();
    ct_tune_buf_t md = {NULL, 0, 0, 0};
    ct_status_t st = doc && cells && choices ? CT_OK : CT_ERR_NOMEM;
    if (st == CT_OK)
        ct_tune_report_head(s, &md);
    for (size_t si = 0; si < s->nscopes && st == CT_OK; si++)
        st = ct_tune_report_scope(&s->scopes[si], &in->decs[si], s->extend_ranges, &md, cells);
    if (st == CT_OK)
        st = ct_tune_report_refused(s, &md, doc);
    if (st == CT_OK)
        st = ct_tune_report_choices(in, &md, choices);
    if (st == CT_OK)
        st = ct_tune_report_verify(in, &md, doc);
    if (st == CT_OK && in->rounds != NULL && ct_tune_report_rounds(in->rounds, &md, doc))
        st = CT_ERR_NOMEM;
    if (st == CT_OK)
        ct_tune_report_files(in->result, &md);
    if (st == CT_OK) {
        int bad = ct_tune_report_doc(in, doc, cells, choices);
        cells = choices = NULL; /* doc's now, even on failure */
        if (bad || md.bad)
            st = CT_ERR_NOMEM;
    }
    if (st == CT_OK)
        st = ct_tune_report_write_json(s->out, doc, err, errlen);
    if (st == CT_OK)
        st = ct_tune_write_atomic(s->out, "report.md", md.s, err, errlen);
    if (st == CT_ERR_NOMEM)
        snprintf(err, errlen, "out of memory");
    json_decref(cells);
    json_decref(choices);
    json_decref(doc);
    free(md.s);
    return st;
}
