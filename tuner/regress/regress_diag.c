/*
 * regress_diag.c - `colltune regress`'s diagnosis: what changed in the
 * metadata (results.json) between the last good run and the first slow
 * (or faster) one.  Series that moved at the same run are one group: a new
 * MPI library slows 19 series at once, and its diff is printed once with
 * the 19 named, not 19 times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_size.h"
#include "regress_cmd.h"

/* Metadata members that differ from run to run whatever happened: ids,
 * times, pids, the launcher's bookkeeping. */
static int ct_reg_volatile(const char *key)
{
    static const char *const skip[] = {
        "results",
        "run_id",
        "start_time",
        "end_time",
        "pid",
        "floor_us",
        "OMPI_MCA_ess_base_jobid",
        "OMPI_MCA_orte_hnp_uri",
        "OMPI_MCA_orte_local_daemon_uri",
        "OMPI_MCA_orte_jobfam_session_dir",
        "OMPI_MCA_orte_precondition_transports",
        "OMPI_MCA_initial_wdir",
        "PMIX_ID",
        "PMIX_NAMESPACE",
        "PMIX_SERVER_URI2",
    };
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (strcmp(key, skip[i]) == 0)
            return 1;
    return 0;
}

/* A value as text, the run's own directory written RUN (command lines
 * name it). */
static char *ct_reg_text(json_t *v, const char *dir)
{
    char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : strdup("(absent)");
    size_t dl = strlen(dir);
    char *hit;
    while (s != NULL && dl > 0 && (hit = strstr(s, dir)) != NULL) {
        memcpy(hit, "RUN", 3);
        memmove(hit + 3, hit + dl, strlen(hit + dl) + 1);
    }
    return s;
}

static void ct_reg_diff(FILE *f, const char *path, json_t *a, json_t *b, const char *adir,
                        const char *bdir, int md, int *count)
{
    if (json_is_object(a) && json_is_object(b)) {
        const char *k;
        json_t *v;
        char sub[512];
        json_object_foreach(a, k, v)
        {
            if (ct_reg_volatile(k))
                continue;
            snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", k);
            ct_reg_diff(f, sub, v, json_object_get(b, k), adir, bdir, md, count);
        }
        json_object_foreach(b, k, v)
        {
            if (ct_reg_volatile(k) || json_object_get(a, k) != NULL)
                continue;
            snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", k);
            ct_reg_diff(f, sub, NULL, v, adir, bdir, md, count);
        }
        return;
    }
    if (json_is_array(a) && json_is_array(b) && json_array_size(a) == json_array_size(b) &&
        json_is_object(json_array_get(a, 0))) {
        char sub[512];
        for (size_t i = 0; i < json_array_size(a); i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            ct_reg_diff(f, sub, json_array_get(a, i), json_array_get(b, i), adir, bdir, md, count);
        }
        return;
    }
    char *x = ct_reg_text(a, adir), *y = ct_reg_text(b, bdir);
    if (x && y && strcmp(x, y) != 0) {
        fprintf(f, "%s%s: %s -> %s\n", md ? "    - " : "      ", path, x, y);
        (*count)++;
    }
    free(x);
    free(y);
}

/* What changed between good and bad (good NULL: bad is the first run). */
static void ct_reg_whatchanged(FILE *f, const ct_reg_run_t *good, const ct_reg_run_t *bad, int md)
{
    const char *in = md ? "  - " : "    ";
    if (good == NULL) {
        fprintf(f, "%swhat changed: unknown (no run before %s)\n", in, bad->name);
        return;
    }
    if (good->meta == NULL || bad->meta == NULL) {
        fprintf(f, "%swhat changed: unknown (%s has no metadata: an imported run)\n", in,
                good->meta == NULL ? good->name : bad->name);
        return;
    }
    fprintf(f, "%swhat changed in results.json:\n", in);
    int count = 0;
    ct_reg_diff(f, "", good->meta, bad->meta, good->dir, bad->dir, md, &count);
    if (count == 0)
        fprintf(f, "%snothing (same versions, hosts and variables)\n", md ? "    - " : "      ");
}

/* The first flagged run of series s and the run before it (SIZE_MAX:
 * none), in runs. */
static void ct_reg_moved_at(const ct_reg_series_t *s, size_t *bad, size_t *good)
{
    *bad = s->at[s->res.first_bad];
    *good = s->res.first_bad > 0 ? s->at[s->res.first_bad - 1] : (size_t)-1;
}

/* Series named in one group before "... and N more": the table has all. */
#define CT_REG_GROUP_SHOWN 12

void ct_reg_diagnosis(FILE *f, int md, const ct_reg_runs_t *runs, const ct_reg_series_t *s,
                      size_t ns, ct_regress_verdict_t verdict)
{
    int slow = verdict == CT_REGRESS_SLOWER;
    size_t total = 0;
    for (size_t i = 0; i < ns; i++)
        total += s[i].res.verdict == verdict;
    if (total == 0)
        return;
    fprintf(f, "\n%s%zu series %s:\n", md ? (slow ? "## Diagnosis\n\n" : "## Faster\n\n") : "",
            total, slow ? "slower" : "faster");
    for (size_t i = 0; i < ns; i++) {
        if (s[i].res.verdict != verdict)
            continue;
        size_t bad, good, b2, g2, j, members = 0;
        ct_reg_moved_at(&s[i], &bad, &good);
        for (j = 0; j < i; j++) {
            if (s[j].res.verdict != verdict)
                continue;
            ct_reg_moved_at(&s[j], &b2, &g2);
            if (b2 == bad && g2 == good)
                break;
        }
        if (j < i)
            continue; /* the group was printed with its first member */
        for (j = i; j < ns; j++) {
            ct_reg_moved_at(&s[j], &b2, &g2);
            members += s[j].res.verdict == verdict && b2 == bad && g2 == good;
        }
        const ct_reg_run_t *b = &runs->v[bad], *g = good < runs->n ? &runs->v[good] : NULL;
        fprintf(f, "%sfirst %s run %s (%s), for %zu series; %s %s (%s)\n", md ? "- " : "  ",
                slow ? "slow" : "faster", b->name, b->date, members,
                slow ? "last good run" : "run before it", g ? g->name : "none", g ? g->date : "-");
        size_t shown = 0;
        for (j = i; j < ns; j++) {
            ct_reg_moved_at(&s[j], &b2, &g2);
            if (s[j].res.verdict != verdict || b2 != bad || g2 != good)
                continue;
            if (shown++ == CT_REG_GROUP_SHOWN) {
                fprintf(f, "%s... and %zu more (see the table)\n", md ? "  - " : "    ",
                        members - CT_REG_GROUP_SHOWN);
                break;
            }
            const ct_result_t *k = s[j].key;
            char sz[32];
            ct_size_format(k->bytes < 0 ? 0 : (size_t)k->bytes, sz, sizeof sz);
            char exact[40] = "";
            if (k->bytes >= 1024)
                snprintf(exact, sizeof exact, " (%lld B)", k->bytes);
            fprintf(f, "%s%s %s%s %s %s config %s: %+.1f%%%s%s\n", md ? "  - " : "    ",
                    k->collective, sz, exact, k->backend, k->placement, k->config_id,
                    100 * s[j].res.change, s[j].res.by_change ? "; change point" : "",
                    s[j].res.by_newest ? "; newest runs out of the baseline's spread" : "");
        }
        ct_reg_whatchanged(f, g, b, md);
    }
}
