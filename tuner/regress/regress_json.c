/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * regress_json.c - `colltune regress --json FILE`: the verdicts of a
 * history for dashboards and the history index (schema colltune-regress/1,
 * doc/formats.md), written through a temporary file beside FILE.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_json.h"
#include "ct_outfile.h"
#include "ct_tmpname.h"
#include "regress_cmd.h"

static json_t *ct_reg_json_series(const ct_reg_runs_t *runs, const ct_reg_series_t *x)
{
    const ct_result_t *k = x->key;
    const ct_regress_result_t *r = &x->res;
    int moved = r->verdict == CT_REGRESS_SLOWER || r->verdict == CT_REGRESS_FASTER ||
                r->verdict == CT_REGRESS_RECOVERED;
    const char *config = ct_reg_config_name(k->config_id);
    return json_pack(
        "{s:s, s:I, s:s, s:s, s:s, s:s, s:I, s:s, s:I, s:o, s:o, s:o, s:s, s:o, "
        "s:b, s:b}",
        "collective", k->collective, "bytes", (json_int_t)k->bytes, "backend", k->backend,
        "placement", k->placement, "dtype", k->dtype, "op", k->op, "nranks", (json_int_t)k->nranks,
        "config", config, "runs", (json_int_t)x->n, "baseline_us", ct_json_real(r->base_median),
        "newest_us", ct_json_real(r->base_median * (1 + r->change)), "change",
        ct_json_real(r->change), "verdict", ct_regress_verdict_name(r->verdict), "first_moved_run",
        moved ? ct_json_str(runs->v[x->at[r->first_bad]].name) : json_null(), "by_newest",
        r->by_newest, "by_change", r->by_change);
}

/* The causes of each group of slower series (one per first slow run). */
static json_t *ct_reg_json_causes(const ct_reg_runs_t *runs, const ct_reg_judged_t *j,
                                  size_t window)
{
    json_t *groups = json_array();
    for (size_t i = 0; groups && i < j->ns; i++) {
        const ct_reg_series_t *x = &j->s[i];
        if (x->res.verdict != CT_REGRESS_SLOWER)
            continue;
        size_t bad = x->at[x->res.first_bad];
        size_t good = x->res.first_bad > 0 ? x->at[x->res.first_bad - 1] : (size_t)-1;
        size_t members = 0, seen = 0;
        for (size_t k = 0; k < j->ns; k++) {
            const ct_reg_series_t *y = &j->s[k];
            if (y->res.verdict != CT_REGRESS_SLOWER || y->at[y->res.first_bad] != bad)
                continue;
            members++;
            seen |= k < i;
        }
        if (seen)
            continue; /* the group is its first member's */
        json_t *list = json_array();
        ct_reg_cause_t *c = NULL;
        size_t n = 0;
        if (good < runs->n && ct_reg_causes(runs, good, bad, window, &c, &n) == 0)
            for (size_t k = 0; list && k < n; k++)
                json_array_append_new(
                    list, json_pack("{s:o, s:o, s:o, s:b}", "what", ct_json_str(c[k].what), "from",
                                    ct_json_str(c[k].from), "to", ct_json_str(c[k].to),
                                    "consistent", c[k].consistent));
        free(c);
        json_array_append_new(
            groups, json_pack("{s:o, s:o, s:I, s:o}", "first_slow_run",
                              ct_json_str(runs->v[bad].name), "last_good_run",
                              good < runs->n ? ct_json_str(runs->v[good].name) : json_null(),
                              "series", (json_int_t)members, "causes", list));
    }
    return groups;
}

static const char *ct_reg_json_verdict(const ct_reg_runs_t *runs, const size_t *count, size_t ns)
{
    if (runs->n == 1)
        return "baseline";
    if (count[CT_REGRESS_SLOWER])
        return "slower";
    if (count[CT_REGRESS_FASTER])
        return "faster";
    if (count[CT_REGRESS_RECOVERED])
        return "recovered";
    return count[CT_REGRESS_UNKNOWN] == ns ? "unknown" : "same";
}

int ct_reg_json(const char *path, const ct_reg_runs_t *runs, const char *history,
                const ct_reg_judged_t *j, int slower, size_t window)
{
    size_t count[CT_REGRESS_RECOVERED + 1] = {0};
    json_t *series = json_array();
    for (size_t i = 0; i < j->ns; i++) {
        const ct_reg_series_t *x = &j->s[i];
        count[x->res.verdict]++;
        json_array_append_new(series, ct_reg_json_series(runs, x));
    }
    /* The run most slower series first read slow at (the earliest of a
     * tie), as the report's largest group names it: one noisy series whose
     * step began a night early must not name that night for all of them
     * (each series keeps its own first_moved_run). */
    size_t first_slow = (size_t)-1, most = 0;
    for (size_t i = 0; i < j->ns; i++) {
        const ct_reg_series_t *x = &j->s[i];
        if (x->res.verdict != CT_REGRESS_SLOWER)
            continue;
        size_t at = x->at[x->res.first_bad], n = 0;
        for (size_t k = 0; k < j->ns; k++)
            n +=
                j->s[k].res.verdict == CT_REGRESS_SLOWER && j->s[k].at[j->s[k].res.first_bad] == at;
        if (n > most || (n == most && at < first_slow)) {
            most = n;
            first_slow = at;
        }
    }
    const ct_reg_run_t *newest = &runs->v[runs->n - 1];
    /* the whole run's event, else the largest collective's; "events" has
     * them all */
    json_t *event = json_null(), *events = json_array();
    const ct_regress_event_t *best = j->ev.direction ? &j->ev : NULL;
    for (size_t g = 0; g <= j->ngroups; g++) {
        const ct_regress_event_t *e = g == 0 ? &j->ev : &j->groups[g - 1];
        if (e->direction == 0)
            continue;
        if (best == NULL || (best != &j->ev && e->moved > best->moved))
            best = e;
        json_array_append_new(events,
                              json_pack("{s:o, s:s, s:I, s:I, s:o, s:b, s:o}", "collective",
                                        g == 0 ? json_null() : ct_json_str(j->group_names[g - 1]),
                                        "direction", e->direction > 0 ? "slower" : "faster",
                                        "series", (json_int_t)e->moved, "of", (json_int_t)e->judged,
                                        "median_change", ct_json_real(e->median_change), "severe",
                                        e->severe, "run", ct_json_str(newest->name)));
    }
    if (best != NULL)
        event = json_pack("{s:s, s:I, s:I, s:o, s:b, s:o}", "direction",
                          best->direction > 0 ? "slower" : "faster", "series",
                          (json_int_t)best->moved, "of", (json_int_t)best->judged, "median_change",
                          ct_json_real(best->median_change), "severe", best->severe, "run",
                          ct_json_str(newest->name));
    json_t *doc = json_pack(
        "{s:s, s:o, s:I, s:{s:o, s:o}, s:s, s:i, s:{s:I, s:I, s:I, s:I, s:I, s:I}, s:o, s:o, "
        "s:o, s:o, s:o, s:o}",
        "schema", "colltune-regress/1", "history", ct_json_str(history), "runs",
        (json_int_t)runs->n, "newest", "run", ct_json_str(newest->name), "date",
        ct_json_str(newest->date), "verdict", ct_reg_json_verdict(runs, count, j->ns), "exit",
        slower ? 1 : 0, "counts", "series", (json_int_t)j->ns, "slower",
        (json_int_t)count[CT_REGRESS_SLOWER], "faster", (json_int_t)count[CT_REGRESS_FASTER],
        "same", (json_int_t)count[CT_REGRESS_SAME], "recovered",
        (json_int_t)count[CT_REGRESS_RECOVERED], "unknown", (json_int_t)count[CT_REGRESS_UNKNOWN],
        "event", event, "events", events, "first_slow_run",
        first_slow < runs->n ? ct_json_str(runs->v[first_slow].name) : json_null(), "new_baseline",
        j->dropped ? json_pack("{s:o, s:I}", "run", ct_json_str(runs->v[0].name), "dropped",
                               (json_int_t)j->dropped)
                   : json_null(),
        "series", series, "causes", ct_reg_json_causes(runs, j, window));
    int rc = -1;
    ct_outfile_t out;
    char err[8800] = "out of memory";
    if (doc != NULL && ct_outfile_open(&out, path, 0666, err, sizeof err) == CT_OK) {
        if (json_dumpf(doc, out.fp, JSON_INDENT(1) | JSON_ENSURE_ASCII) == 0)
            rc = ct_outfile_commit(&out, err, sizeof err) == CT_OK ? 0 : -1;
        else
            ct_outfile_abort(&out), snprintf(err, sizeof err, "out of memory");
    }
    if (rc != 0)
        fprintf(stderr, "colltune regress: --json %s: %s\n", path, err);
    json_decref(doc);
    return rc;
}
