/*
 * tune_report.c - the decisions of a tune, from its trials, and
 * DIR/report.json, DIR/report.md and the ct_tune_result_t for the
 * emitters.  The decision rule itself is tune_decide.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "ct_json.h"
#include "emit.h"
#include "outdir.h"
#include "tune.h"
#include "tune_decide.h"
#include "tune_verify.h"

/* The trials of sc's configuration ci are those journaled under its scope
 * and key (the baselines of two scopes share a key). */
static int ct_tune_is(const ct_trial_t *t, const ct_tune_scope_t *sc, size_t ci)
{
    return strcmp(t->scope, sc->name) == 0 && strcmp(t->key, sc->configs.configs[ci].key) == 0;
}

size_t ct_tune_samples(const ct_tune_state_t *s, const ct_tune_scope_t *sc, size_t ci,
                       const char *coll, long long bytes, double *us, double *busbw, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < s->ntrials && n < max; i++) {
        const ct_trial_t *t = &s->trials[i];
        if (t->status != CT_JOURNAL_OK || !ct_tune_is(t, sc, ci))
            continue;
        for (size_t r = 0; r < t->nrows; r++) {
            const ct_trial_row_t *row = &t->rows[r];
            if (row->bytes == bytes && strcmp(row->collective, coll) == 0 &&
                strcmp(row->placement, "out-of-place") == 0 && row->median_us > 0) {
                us[n] = row->median_us;
                if (busbw)
                    busbw[n] = row->busbw_gbps;
                n++;
                break;
            }
        }
    }
    return n;
}

size_t ct_tune_colls(const ct_tune_state_t *s, const ct_tune_scope_t *sc, const char **colls,
                     size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < s->ntrials; i++) {
        const ct_trial_t *t = &s->trials[i];
        if (t->status != CT_JOURNAL_OK || !ct_tune_is(t, sc, 0))
            continue;
        for (size_t r = 0; r < t->nrows; r++) {
            size_t k = 0;
            while (k < n && strcmp(colls[k], t->rows[r].collective) != 0)
                k++;
            if (k == n && n < max)
                colls[n++] = t->rows[r].collective;
        }
    }
    return n;
}

static int ct_tune_cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

size_t ct_tune_sizes(const ct_tune_state_t *s, const ct_tune_scope_t *sc, const char *coll,
                     long long *sizes, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < s->ntrials; i++) {
        const ct_trial_t *t = &s->trials[i];
        if (t->status != CT_JOURNAL_OK || !ct_tune_is(t, sc, 0))
            continue;
        for (size_t r = 0; r < t->nrows; r++) {
            if (strcmp(t->rows[r].collective, coll) != 0)
                continue;
            size_t k = 0;
            while (k < n && sizes[k] != t->rows[r].bytes)
                k++;
            if (k == n && n < max)
                sizes[n++] = t->rows[r].bytes;
        }
    }
    qsort(sizes, n, sizeof *sizes, ct_tune_cmp_ll);
    return n;
}

/* Whether the baseline sets set's variable to the same value. */
static int ct_tune_in_base(const ct_space_config_t *base, const ct_space_setting_t *set)
{
    for (size_t k = 0; k < base->n; k++)
        if (strcmp(base->settings[k].name, set->name) == 0 &&
            strcmp(base->settings[k].value, set->value) == 0)
            return 1;
    return 0;
}

size_t ct_tune_nchanged(const ct_tune_scope_t *sc, size_t ci)
{
    const ct_space_config_t *base = &sc->configs.configs[0], *c = &sc->configs.configs[ci];
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++) {
        int same = ct_tune_in_base(base, &c->settings[i]);
        n += !same;
    }
    return n;
}

size_t ct_tune_weighted_samples(const ct_tune_state_t *s, const ct_tune_scope_t *sc, size_t ci,
                                double *us, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < s->ntrials && n < max; i++) {
        const ct_trial_t *t = &s->trials[i];
        if (t->status != CT_JOURNAL_OK || !ct_tune_is(t, sc, ci))
            continue;
        double w = ct_tune_weighted_us(s->weights, t);
        if (w > 0)
            us[n++] = w;
    }
    return n;
}

/* The pick of ct_tune_pick over sc's configurations, each judged by its
 * launch medians at (coll, bytes), or with coll NULL by its weighted
 * time per launch (--weights). */
static size_t ct_tune_pick_in(const ct_tune_state_t *s, const ct_tune_scope_t *sc, const char *coll,
                              long long bytes)
{
    size_t n = sc->configs.n;
    ct_tune_cand_t *c = calloc(n, sizeof *c);
    double *us = calloc(n * CT_TUNE_MAX_LAUNCHES, sizeof *us);
    size_t w = 0;
    if (c != NULL && us != NULL) {
        for (size_t i = 0; i < n; i++) {
            double *u = us + i * CT_TUNE_MAX_LAUNCHES;
            c[i].us = u;
            c[i].n = coll ? ct_tune_samples(s, sc, i, coll, bytes, u, NULL, CT_TUNE_MAX_LAUNCHES)
                          : ct_tune_weighted_samples(s, sc, i, u, CT_TUNE_MAX_LAUNCHES);
            c[i].nchanged = ct_tune_nchanged(sc, i);
            c[i].excluded = sc->excluded[i] || sc->configs.configs[i].skip != NULL;
        }
        w = ct_tune_pick(c, n);
    }
    free(c);
    free(us);
    return w;
}

size_t ct_tune_winner(const ct_tune_state_t *s, const ct_tune_scope_t *sc, const char *coll,
                      long long bytes)
{
    return ct_tune_pick_in(s, sc, coll, bytes);
}

/* "NAME=VALUE NAME=VALUE" of the settings ci changes, or "defaults". */
static void ct_tune_describe(const ct_tune_scope_t *sc, size_t ci, char *buf, size_t len)
{
    const ct_space_config_t *base = &sc->configs.configs[0], *c = &sc->configs.configs[ci];
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < c->n && ci != 0; i++) {
        int same = ct_tune_in_base(base, &c->settings[i]);
        if (same)
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

/* One collective x size of one scope: what the report says about it. */
typedef struct {
    const char *coll;
    long long bytes;
    size_t winner, best; /* best: fastest runnable candidate, significant or not */
    double base_us, base_lo, base_hi, base_bw, best_us, best_lo, best_hi, best_bw;
    size_t nbase, nbest;
    int significant;
} ct_tune_cell_t;

static void ct_tune_cell(const ct_tune_state_t *s, const ct_tune_scope_t *sc, const char *coll,
                         long long bytes, ct_tune_cell_t *cell)
{
    double us[CT_TUNE_MAX_LAUNCHES], bw[CT_TUNE_MAX_LAUNCHES];
    memset(cell, 0, sizeof *cell);
    cell->coll = coll;
    cell->bytes = bytes;
    size_t n = ct_tune_samples(s, sc, 0, coll, bytes, us, bw, CT_TUNE_MAX_LAUNCHES);
    cell->nbase = n;
    cell->base_us = ct_tune_median(us, n);
    cell->base_lo = ct_tune_min(us, n);
    cell->base_hi = ct_tune_max(us, n);
    cell->base_bw = ct_tune_median(bw, n);
    cell->winner = ct_tune_winner(s, sc, coll, bytes);
    cell->significant = cell->winner != 0;
    /* Show the winner; with no winner, the fastest runnable candidate
     * with enough launches, so the report says what fell short. */
    size_t best = cell->winner;
    double best_med = 0;
    /* Enough launches first (a candidate halving dropped after one short
     * look is no contender); any launches when none has enough. */
    for (size_t need = CT_TUNE_MIN_LAUNCHES; best == 0 && need >= 1; need--) {
        for (size_t i = 1; i < sc->configs.n; i++) {
            if (sc->excluded[i] || sc->configs.configs[i].skip)
                continue;
            size_t m = ct_tune_samples(s, sc, i, coll, bytes, us, NULL, CT_TUNE_MAX_LAUNCHES);
            if (m < need)
                continue;
            double med = ct_tune_median(us, m);
            if (best == 0 || med < best_med) {
                best = i;
                best_med = med;
            }
        }
    }
    cell->best = best;
    n = ct_tune_samples(s, sc, best, coll, bytes, us, bw, CT_TUNE_MAX_LAUNCHES);
    cell->nbest = n;
    cell->best_us = ct_tune_median(us, n);
    cell->best_lo = ct_tune_min(us, n);
    cell->best_hi = ct_tune_max(us, n);
    cell->best_bw = ct_tune_median(bw, n);
}

/* result->choices: one per setting the winner changes, per merged size
 * range (per-collective scopes); for the global scope, the configuration
 * that wins the most cells and loses none significantly, for all sizes. */
static ct_status_t ct_tune_add_choice(ct_tune_result_t *r, const ct_space_setting_t *set, int scope,
                                      long long lo, long long hi, double def_us, double tuned_us)
{
    ct_tune_choice_t *c = realloc(r->choices, (r->nchoices + 1) * sizeof *c);
    if (c == NULL)
        return CT_ERR_NOMEM;
    r->choices = c;
    c = &c[r->nchoices];
    memset(c, 0, sizeof *c);
    c->name = strdup(set->name);
    c->value = strdup(set->value);
    if (c->name == NULL || c->value == NULL) {
        free(c->name);
        free(c->value);
        return CT_ERR_NOMEM;
    }
    c->via = set->via;
    c->scope = scope;
    c->min_bytes = lo;
    c->max_bytes = hi;
    c->default_us = def_us;
    c->tuned_us = tuned_us;
    c->significant = 1;
    c->verified = 0; /* until the A/B with the emitted files holds it */
    r->nchoices++;
    return CT_OK;
}

static ct_status_t ct_tune_add_config(ct_tune_result_t *r, const ct_tune_scope_t *sc, size_t ci,
                                      int scope, long long lo, long long hi, double def_us,
                                      double tuned_us)
{
    const ct_space_config_t *base = &sc->configs.configs[0], *c = &sc->configs.configs[ci];
    for (size_t i = 0; i < c->n; i++) {
        int same = ct_tune_in_base(base, &c->settings[i]);
        if (same)
            continue;
        ct_status_t st = ct_tune_add_choice(r, &c->settings[i], scope, lo, hi, def_us, tuned_us);
        if (st != CT_OK)
            return st;
    }
    return CT_OK;
}

void ct_tune_result_free(ct_tune_result_t *result)
{
    for (size_t i = 0; i < result->nchoices; i++) {
        free(result->choices[i].name);
        free(result->choices[i].value);
    }
    free(result->choices);
    result->choices = NULL;
    result->nchoices = 0;
}

/* Writes text (NUL-terminated) to DIR/name through DIR/.name.tmp: a
 * reader, or a resumed tune, never sees half a report. */
static ct_status_t ct_tune_write_atomic(const char *dir, const char *name, const char *text,
                                        char *err, size_t errlen)
{
    char path[4096], tmp[4096], tname[256];
    snprintf(tname, sizeof tname, ".%s.tmp", name);
    if (ct_outdir_path(dir, name, path, sizeof path) != CT_OK ||
        ct_outdir_path(dir, tname, tmp, sizeof tmp) != CT_OK) {
        snprintf(err, errlen, "%s/%s: path too long", dir, name);
        return CT_ERR_USAGE;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    size_t len = strlen(text), done = 0;
    while (fd >= 0 && done < len) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    int ok = fd >= 0 && done == len && fsync(fd) == 0;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return CT_ERR_IO;
    }
    return CT_OK;
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

#define CT_TUNE_MAX_CELLS 4096

/* report.md's and report.json's account of the A/B. */
static ct_status_t ct_tune_report_verify(const ct_tune_verify_t *v, const ct_tune_state_t *s,
                                         ct_tune_buf_t *md, json_t *doc)
{
    ct_tune_bprintf(md, "## verification\n\n");
    if (v == NULL) {
        ct_tune_bprintf(md, "%s\n\n",
                        s->verify ? "Interrupted before the A/B finished: nothing verified, no "
                                    "file written (--resume finishes it)."
                                  : "None ran: no choice to verify.");
        return ct_json_set(doc, "verification", json_null()) ? CT_ERR_NOMEM : CT_OK;
    }
    ct_tune_bprintf(md,
                    "Interleaved A/B, %zu pairs of fresh launches (order alternating), against "
                    "the defaults. The tuned side read the emitted files themselves: %s.%s%s\n\n"
                    "Test per collective x size: one-sided exact Mann-Whitney over the launch "
                    "medians at p <= %.2f, and a median gain >= %.0f%%.\n\n",
                    v->pairs, v->how, v->note[0] ? " Note: " : "", v->note, CT_TUNE_VERIFY_ALPHA,
                    CT_TUNE_MARGIN * 100);
    ct_tune_bprintf(md, "| collective | size | default us [range] | default busbw | tuned us "
                        "[range] | tuned busbw | speedup | p | launches | holds |\n"
                        "|---|---|---|---|---|---|---|---|---|---|\n");
    json_t *cells = json_array(), *vj = json_object();
    int bad = cells == NULL || vj == NULL;
    for (size_t i = 0; i < v->ncells && !bad; i++) {
        const ct_tune_vcell_t *c = &v->cells[i];
        char sz[32];
        ct_tune_size_str(c->bytes, sz, sizeof sz);
        double speedup = c->tun_us > 0 ? c->def_us / c->tun_us : 0;
        ct_tune_bprintf(md,
                        "| %s | %s | %.2f [%.2f, %.2f] | %.3f | %.2f [%.2f, %.2f] | %.3f | %.2fx | "
                        "%.3g | %zu/%zu | %s |\n",
                        c->coll, sz, c->def_us, c->def_lo, c->def_hi, c->def_bw, c->tun_us,
                        c->tun_lo, c->tun_hi, c->tun_bw, speedup, c->p_faster, c->ndef, c->ntun,
                        c->holds         ? "yes"
                        : c->contradicts ? "SLOWER"
                                         : "no");
        json_t *j = json_object();
        bad |= j == NULL;
        bad |= ct_json_set(j, "collective", ct_json_str(c->coll));
        bad |= ct_json_set(j, "bytes", json_integer(c->bytes));
        bad |= ct_json_set(j, "default_us", ct_json_real(c->def_us));
        bad |= ct_json_set(j, "default_us_range", json_pack("[ff]", c->def_lo, c->def_hi));
        bad |= ct_json_set(j, "default_busbw_gbps", ct_json_real(c->def_bw));
        bad |= ct_json_set(j, "default_launches", json_integer((json_int_t)c->ndef));
        bad |= ct_json_set(j, "tuned_us", ct_json_real(c->tun_us));
        bad |= ct_json_set(j, "tuned_us_range", json_pack("[ff]", c->tun_lo, c->tun_hi));
        bad |= ct_json_set(j, "tuned_busbw_gbps", ct_json_real(c->tun_bw));
        bad |= ct_json_set(j, "tuned_launches", json_integer((json_int_t)c->ntun));
        bad |= ct_json_set(j, "speedup", ct_json_real(speedup));
        bad |= ct_json_set(j, "p_faster", ct_json_real(c->p_faster));
        bad |= ct_json_set(j, "p_slower", ct_json_real(c->p_slower));
        bad |= ct_json_set(j, "holds", json_boolean(c->holds));
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
    bad |= ct_json_set(vj, "tuned_with", ct_json_str(v->how));
    bad |= ct_json_set(vj, "files_dir", ct_json_str(v->dir));
    bad |= ct_json_set(vj, "note", v->note[0] ? ct_json_str(v->note) : json_null());
    bad |= ct_json_set(vj, "test",
                       json_pack("{s:s, s:f, s:f}", "name",
                                 "one-sided exact Mann-Whitney over "
                                 "launch medians",
                                 "alpha", CT_TUNE_VERIFY_ALPHA, "margin", CT_TUNE_MARGIN));
    bad |= ct_json_set(vj, "cells", cells);
    bad |= ct_json_set(doc, "verification", vj);
    return bad ? CT_ERR_NOMEM : CT_OK;
}

ct_status_t ct_tune_report(ct_tune_state_t *s, ct_tune_result_t *result, const ct_tune_verify_t *v,
                           char *err, size_t errlen)
{
    ct_status_t st = CT_OK;
    json_t *doc = json_object(), *cells_j = json_array(), *choices_j = json_array();
    ct_tune_buf_t md = {NULL, 0, 0, 0};
    ct_tune_cell_t *cells = calloc(CT_TUNE_MAX_CELLS, sizeof *cells);
    long long *sizes = calloc(CT_TUNE_MAX_CELLS, sizeof *sizes);
    ct_tune_bucket_t *buckets = calloc(CT_TUNE_MAX_CELLS, sizeof *buckets);
    ct_tune_range_t *ranges = calloc(CT_TUNE_MAX_CELLS, sizeof *ranges);
    if (doc == NULL || cells_j == NULL || choices_j == NULL || cells == NULL || sizes == NULL ||
        buckets == NULL || ranges == NULL) {
        st = CT_ERR_NOMEM;
        goto out;
    }

    ct_tune_bprintf(&md, "# colltune tune report\n\n");
    ct_tune_bprintf(&md,
                    "Space `%s` (%s), %ld ranks, strategy `%s`.\n\n"
                    "Trials: %zu run now, %zu from the journal (--resume), %zu skipped as "
                    "invalid, %zu failed (excluded); wall time %.1f s%s.\n\n",
                    s->space->name, s->space->path, s->nranks, s->strategy, s->ran, s->resumed,
                    s->skipped, s->failed, s->wall_s,
                    s->budget_hit ? "; the budget ran out before the search was done" : "");
    ct_tune_bprintf(&md,
                    "Rule: a candidate replaces the default in a collective x size only when, "
                    "over >= %d independent launches each, its launch medians are lower by a "
                    "one-sided exact Mann-Whitney test at p <= 0.05 (where the launch counts "
                    "cannot reach that, as 2 against 2, every launch lower) and its median is "
                    ">= %.0f%% lower; "
                    "otherwise the default stays (no significant gain). Objective: latency "
                    "(median time) below %lld bytes, busbw from there.%s\n\n"
                    "Every choice is then verified by an interleaved A/B with the emitted "
                    "files (below); only verified choices are written to the files.\n\n",
                    CT_TUNE_MIN_LAUNCHES, CT_TUNE_MARGIN * 100, CT_TUNE_LATENCY_MAX_BYTES,
                    s->weights ? " Global settings: the lowest weighted time per launch "
                                 "under --weights, by the same rule."
                               : " Global settings: the configuration that wins the most "
                                 "cells and is significantly slower in none.");

    for (size_t si = 0; si < s->nscopes; si++) {
        ct_tune_scope_t *sc = &s->scopes[si];
        const char *colls[16];
        size_t nc = ct_tune_colls(s, sc, colls, 16);
        ct_tune_bprintf(&md, "## scope %s\n\n", sc->name);
        if (nc == 0) {
            ct_tune_bprintf(&md, "No baseline measurement: nothing decided.\n\n");
            continue;
        }
        ct_tune_bprintf(&md, "| collective | size | objective | default us [range] | "
                             "default busbw | best us [range] | best busbw | speedup | launches "
                             "| significant | best configuration |\n"
                             "|---|---|---|---|---|---|---|---|---|---|---|\n");
        /* global scope: wins per configuration, and whether any loses */
        size_t *wins = calloc(sc->configs.n, sizeof *wins);
        int *loses = calloc(sc->configs.n, sizeof *loses);
        size_t first_cell = 0, ncell = 0;
        if (wins == NULL || loses == NULL) {
            free(wins);
            free(loses);
            st = CT_ERR_NOMEM;
            goto out;
        }
        for (size_t k = 0; k < nc; k++) {
            size_t ns = ct_tune_sizes(s, sc, colls[k], sizes, CT_TUNE_MAX_CELLS);
            first_cell = ncell;
            for (size_t b = 0; b < ns && ncell < CT_TUNE_MAX_CELLS; b++, ncell++) {
                ct_tune_cell_t *c = &cells[ncell];
                ct_tune_cell(s, sc, colls[k], sizes[b], c);
                char desc[512], sz[32];
                ct_tune_describe(sc, c->best, desc, sizeof desc);
                ct_tune_size_str(c->bytes, sz, sizeof sz);
                double speedup = c->best_us > 0 ? c->base_us / c->best_us : 0;
                const char *obj = c->bytes < CT_TUNE_LATENCY_MAX_BYTES ? "latency" : "busbw";
                ct_tune_bprintf(&md,
                                "| %s | %s | %s | %.2f [%.2f, %.2f] | %.3f | %.2f [%.2f, %.2f] | "
                                "%.3f | %.2fx | %zu/%zu | %s | %s |\n",
                                c->coll, sz, obj, c->base_us, c->base_lo, c->base_hi, c->base_bw,
                                c->best_us, c->best_lo, c->best_hi, c->best_bw, speedup, c->nbase,
                                c->nbest, c->significant ? "yes" : "no significant gain", desc);
                json_t *j = json_object();
                int bad = j == NULL;
                bad |= ct_json_set(j, "scope", ct_json_str(sc->name));
                bad |= ct_json_set(j, "collective", ct_json_str(c->coll));
                bad |= ct_json_set(j, "bytes", json_integer(c->bytes));
                bad |= ct_json_set(j, "objective", ct_json_str(obj));
                bad |= ct_json_set(j, "default_us", ct_json_real(c->base_us));
                bad |=
                    ct_json_set(j, "default_us_range", json_pack("[ff]", c->base_lo, c->base_hi));
                bad |= ct_json_set(j, "default_busbw_gbps", ct_json_real(c->base_bw));
                bad |= ct_json_set(j, "default_launches", json_integer((json_int_t)c->nbase));
                bad |= ct_json_set(j, "best_key", ct_json_str(sc->configs.configs[c->best].key));
                bad |= ct_json_set(j, "best_config", ct_json_str(desc));
                bad |= ct_json_set(j, "best_us", ct_json_real(c->best_us));
                bad |= ct_json_set(j, "best_us_range", json_pack("[ff]", c->best_lo, c->best_hi));
                bad |= ct_json_set(j, "best_busbw_gbps", ct_json_real(c->best_bw));
                bad |= ct_json_set(j, "best_launches", json_integer((json_int_t)c->nbest));
                bad |= ct_json_set(j, "speedup", ct_json_real(speedup));
                bad |= ct_json_set(j, "significant", json_boolean(c->significant));
                bad |= ct_json_append(cells_j, j);
                if (bad) {
                    st = CT_ERR_NOMEM;
                    break;
                }
                wins[c->winner]++;
                /* Does the baseline beat any candidate here?  Then that
                 * candidate must not be set globally. */
                double bu[CT_TUNE_MAX_LAUNCHES], cu[CT_TUNE_MAX_LAUNCHES];
                size_t nb =
                    ct_tune_samples(s, sc, 0, c->coll, c->bytes, bu, NULL, CT_TUNE_MAX_LAUNCHES);
                for (size_t i = 1; i < sc->configs.n; i++) {
                    size_t m = ct_tune_samples(s, sc, i, c->coll, c->bytes, cu, NULL,
                                               CT_TUNE_MAX_LAUNCHES);
                    if (m == 0 || ct_tune_significant(bu, nb, cu, m))
                        loses[i] = 1;
                }
            }
            if (st != CT_OK)
                break;
            if (sc->scope == CT_SCOPE_GLOBAL)
                continue;
            /* Per-collective: merge this collective's buckets into ranges. */
            size_t nb = ncell - first_cell;
            for (size_t b = 0; b < nb; b++) {
                buckets[b].bytes = cells[first_cell + b].bytes;
                buckets[b].winner = (long)cells[first_cell + b].winner;
            }
            size_t nr = ct_tune_merge(buckets, nb, ranges);
            for (size_t r = 0; r < nr && st == CT_OK; r++) {
                if (ranges[r].winner == 0)
                    continue;
                const ct_tune_cell_t *c = &cells[first_cell + ranges[r].first];
                st = ct_tune_add_config(result, sc, (size_t)ranges[r].winner, sc->scope,
                                        ranges[r].min_bytes, ranges[r].max_bytes, c->base_us,
                                        c->best_us);
            }
        }
        if (st == CT_OK && sc->scope == CT_SCOPE_GLOBAL) {
            size_t pick = 0;
            for (size_t i = 1; i < sc->configs.n && s->weights == NULL; i++)
                if (wins[i] > 0 && !loses[i] && (pick == 0 || wins[i] > wins[pick]))
                    pick = i;
            if (s->weights != NULL)
                pick = ct_tune_pick_in(s, sc, NULL, 0); /* by weighted time */
            if (pick != 0) {
                const ct_tune_cell_t *c = NULL;
                for (size_t k = 0; k < ncell && c == NULL; k++)
                    if (cells[k].winner == pick)
                        c = &cells[k];
                st = ct_tune_add_config(result, sc, pick, CT_SCOPE_GLOBAL, -1, -1,
                                        c ? c->base_us : 0, c ? c->best_us : 0);
            }
        }
        free(wins);
        free(loses);
        if (st != CT_OK)
            goto out;
        ct_tune_bprintf(&md, "\n");
    }

    /* The verdicts of the A/B, onto the same (recomputed) choices. */
    for (size_t i = 0; v != NULL && i < result->nchoices && i < v->nchoices; i++)
        result->choices[i].verified = v->verified[i];
    ct_tune_bprintf(&md, "## choices\n\n");
    if (result->nchoices == 0)
        ct_tune_bprintf(&md, "None: no significant gain anywhere; the defaults stay.\n");
    for (size_t i = 0; i < result->nchoices; i++) {
        const ct_tune_choice_t *c = &result->choices[i];
        char lo[32], hi[32];
        ct_tune_size_str(c->min_bytes, lo, sizeof lo);
        ct_tune_size_str(c->max_bytes, hi, sizeof hi);
        const char *verdict = v == NULL     ? "not verified"
                              : c->verified ? "verified, written"
                                            : "DROPPED, not written";
        ct_tune_bprintf(&md, "- %s %s=%s (%s), sizes %s..%s: search %.2f -> %.2f us; %s%s%s%s\n",
                        ct_space_scope_name(c->scope), c->name, c->value, ct_space_via_name(c->via),
                        lo, hi, c->default_us, c->tuned_us, verdict, v ? " (" : "",
                        v && i < v->nchoices ? v->why[i] : "", v ? ")" : "");
        json_t *j = json_object();
        int bad = j == NULL;
        bad |= ct_json_set(j, "name", ct_json_str(c->name));
        bad |= ct_json_set(j, "value", ct_json_str(c->value));
        bad |= ct_json_set(j, "via", ct_json_str(ct_space_via_name(c->via)));
        bad |= ct_json_set(j, "scope", ct_json_str(ct_space_scope_name(c->scope)));
        bad |= ct_json_set(j, "min_bytes", json_integer(c->min_bytes));
        bad |= ct_json_set(j, "max_bytes", json_integer(c->max_bytes));
        bad |= ct_json_set(j, "default_us", ct_json_real(c->default_us));
        bad |= ct_json_set(j, "tuned_us", ct_json_real(c->tuned_us));
        bad |= ct_json_set(j, "significant", json_boolean(c->significant));
        bad |= ct_json_set(j, "verified", json_boolean(c->verified));
        bad |=
            ct_json_set(j, "verdict", v && i < v->nchoices ? ct_json_str(v->why[i]) : json_null());
        bad |= ct_json_append(choices_j, j);
        if (bad) {
            st = CT_ERR_NOMEM;
            goto out;
        }
    }

    ct_tune_bprintf(&md, "\n");
    if (st == CT_OK)
        st = ct_tune_report_verify(v, s, &md, doc);
    {
        const char *names[16];
        size_t nf = ct_emit_files(result, names, 16);
        ct_tune_bprintf(&md, "## files\n\n");
        if (nf == 0)
            ct_tune_bprintf(&md, "None written: no verified choice.\n");
        for (size_t i = 0; i < nf && i < 16; i++)
            ct_tune_bprintf(&md, "- `%s`\n", names[i]);
        ct_tune_bprintf(&md, "\n");
    }
    json_t *trials_j = json_array();
    for (size_t i = 0; i < s->ntrials && trials_j; i++) {
        const ct_trial_t *t = &s->trials[i];
        json_t *j =
            json_pack("{s:s, s:s, s:I, s:s, s:s?, s:f}", "scope", t->scope, "key", t->key, "launch",
                      (json_int_t)t->launch, "status", ct_journal_status_name(t->status), "reason",
                      t->reason, "wall_s", t->wall_s);
        if (ct_json_append(trials_j, j) != 0)
            st = CT_ERR_NOMEM;
    }
    int bad = st != CT_OK || trials_j == NULL;
    bad |= ct_json_set(doc, "generator", ct_json_str("colltune tune " PACKAGE_VERSION));
    bad |= ct_json_set(doc, "run_id", ct_json_str(result->run_id));
    bad |= ct_json_set(doc, "date", ct_json_str(result->date));
    bad |= ct_json_set(doc, "space", ct_json_str(s->space->name));
    bad |= ct_json_set(doc, "space_path", ct_json_str(s->space->path));
    bad |= ct_json_set(doc, "nranks", json_integer(result->nranks));
    bad |= ct_json_set(doc, "strategy", ct_json_str(s->strategy));
    bad |= ct_json_set(
        doc, "rule",
        json_pack("{s:i, s:f, s:s, s:I}", "min_launches", CT_TUNE_MIN_LAUNCHES, "margin",
                  CT_TUNE_MARGIN, "test",
                  "one-sided exact Mann-Whitney over launch medians at p <= 0.05 (or complete "
                  "separation where the counts cannot reach it) and median gain >= "
                  "margin",
                  "latency_below_bytes", (json_int_t)CT_TUNE_LATENCY_MAX_BYTES));
    bad |= ct_json_set(doc, "trials_run", json_integer((json_int_t)s->ran));
    bad |= ct_json_set(doc, "trials_resumed", json_integer((json_int_t)s->resumed));
    bad |= ct_json_set(doc, "trials_skipped", json_integer((json_int_t)s->skipped));
    bad |= ct_json_set(doc, "trials_failed", json_integer((json_int_t)s->failed));
    bad |= ct_json_set(doc, "budget_exhausted", json_boolean(s->budget_hit));
    bad |= ct_json_set(doc, "wall_s", ct_json_real(s->wall_s));
    bad |= ct_json_set(doc, "nnodes", json_integer(result->nnodes));
    bad |= ct_json_set(doc, "verified", json_boolean(v != NULL));
    bad |= ct_json_set(doc, "cells", cells_j);
    bad |= ct_json_set(doc, "choices", choices_j);
    bad |= ct_json_set(doc, "trials", trials_j);
    cells_j = choices_j = NULL;
    if (bad || md.bad) {
        st = st != CT_OK ? st : CT_ERR_NOMEM;
        goto out;
    }
    char *text = json_dumps(doc, JSON_INDENT(2));
    if (text == NULL) {
        st = CT_ERR_NOMEM;
        goto out;
    }
    size_t tl = strlen(text);
    char *nl = realloc(text, tl + 2);
    if (nl != NULL) {
        text = nl;
        text[tl] = '\n';
        text[tl + 1] = '\0';
    }
    st = ct_tune_write_atomic(s->out, "report.json", text, err, errlen);
    free(text);
    if (st == CT_OK)
        st = ct_tune_write_atomic(s->out, "report.md", md.s, err, errlen);
out:
    if (st == CT_ERR_NOMEM)
        snprintf(err, errlen, "out of memory");
    json_decref(cells_j);
    json_decref(choices_j);
    json_decref(doc);
    free(md.s);
    free(cells);
    free(sizes);
    free(buckets);
    free(ranges);
    return st;
}
