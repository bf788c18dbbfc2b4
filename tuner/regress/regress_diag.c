/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * regress_diag.c - `colltune regress`'s diagnosis: the candidate causes of
 * a step, what changed in the metadata (results.json: its fingerprint,
 * configuration, versions and hosts) between the last good run and the
 * first slow (or faster) one, most specific first.  Series that moved at
 * the same run are one group: a new MPI library slows 19 series at once,
 * and its causes are printed once with the 19 named, not 19 times.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_hash.h"
#include "ct_launcher_env.h"
#include "ct_printable.h"
#include "ct_size.h"
#include "ct_tuning_env.h"
#include "ct_vec.h"
#include "regress_cmd.h"

/* The escape of byte c in a report (see ct_reg_safe), into one[4]. */
static const char *ct_reg_escape(unsigned char c, int md, char *one)
{
    static const char *const entity[][2] = {
        {"<", "&lt;"}, {">", "&gt;"}, {"&", "&amp;"}, {"\"", "&quot;"}};
    for (size_t i = 0; md && i < sizeof entity / sizeof entity[0]; i++)
        if (c == (unsigned char)entity[i][0][0])
            return entity[i][1];
    size_t n = 0;
    if (md && strchr("\\`*[]|", c) != NULL)
        one[n++] = '\\';
    one[n++] = (char)ct_printable_byte(c);
    one[n] = '\0';
    return one;
}

const char *ct_reg_safe(const char *s, int md, char *buf, size_t len)
{
    size_t used = 0, room = 0; /* room: the end of the last escape after which "..." fits */
    char one[4];
    if (len < 4) { /* no room for "..." either */
        if (len > 0)
            buf[0] = '\0';
        return buf;
    }
    for (; *s; s++) {
        const char *out = ct_reg_escape((unsigned char)*s, md, one);
        size_t n = strlen(out);
        if (used + 4 <= len)
            room = used;
        if (used + n + 1 > len) {
            memcpy(buf + room, "...", 4);
            return buf;
        }
        memcpy(buf + used, out, n);
        used += n;
    }
    buf[used] = '\0';
    return buf;
}

const char *ct_reg_config_name(const char *config_id)
{
    char empty[24];
    /* the hash of no settings at all: collbench's default configuration */
    snprintf(empty, sizeof empty, "%016" PRIx64, (uint64_t)CT_HASH_INIT);
    return strcmp(config_id, empty) == 0 ? "default" : config_id[0] ? config_id : "-";
}

/* The configuration of a run as people read it: its metadata's, else its
 * first row's (an import). */
static const char *ct_reg_config_of(const ct_reg_run_t *run)
{
    const char *id = json_string_value(json_object_get(run->meta, "config_id"));
    if (id == NULL)
        id = run->rows.n ? run->rows.v[0].config_id : "";
    return ct_reg_config_name(id);
}

/* Metadata members that differ from run to run whatever happened: ids,
 * times, pids, the launcher's bookkeeping, digests of what is compared
 * member by member. */
static int ct_reg_volatile(const char *key)
{
    static const char *const skip[] = {
        "results", "refused", "run_id", "start_time", "end_time", "pid", "floor_us", "digest",
    };
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (strcmp(key, skip[i]) == 0)
            return 1;
    /* A variable a launcher sets anew each launch (ct_launcher_env.c). */
    return ct_launcher_env_sets(key, CT_LAUNCHER_VOLATILE);
}

/* One leaf of a run's metadata: its path ("fingerprint.env.LD_PRELOAD")
 * and its value as text, the run's own directory (/NAME/ in a path: the
 * history may have moved since) written /RUN/. */
typedef struct {
    char *path, *text;
} ct_reg_leaf_t;

/* A run's leaves in the order met (the order causes are found in), and
 * by_path: the same leaves sorted by path, for lookups in O(log n).  A
 * scan per lookup made the diff of two runs quadratic: 200k variables a
 * run took minutes (issue 38, H8). */
typedef struct {
    ct_reg_leaf_t *v;
    size_t n, cap;
    const ct_reg_leaf_t **by_path;
    int oom;
} ct_reg_leaves_t;

static char *ct_reg_text(json_t *v, const char *dir)
{
    char *s = json_is_string(v) ? strdup(json_string_value(v))
                                : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    const char *base = strrchr(dir, '/');
    char name[300];
    snprintf(name, sizeof name, "/%s/", base ? base + 1 : dir);
    size_t dl = strlen(name);
    char *hit, *from = s;
    /* A name shorter than "RUN" is left alone: it would not fit.  The
     * search goes on after each replacement (at its closing '/', the
     * opening one of a next "/NAME/"), never over it: a run named RUN
     * would otherwise be replaced by itself forever (issue 38, H6). */
    while (from != NULL && dl >= 5 && (hit = strstr(from, name)) != NULL) {
        memcpy(hit, "/RUN/", 5);
        memmove(hit + 5, hit + dl, strlen(hit + dl) + 1);
        from = hit + 4;
    }
    return s;
}

/* A loaded library as one leaf: "PATH (build id X, version V)". */
static char *ct_reg_library_text(json_t *lib, const char *dir)
{
    const char *path = json_string_value(json_object_get(lib, "path"));
    const char *id = json_string_value(json_object_get(lib, "build_id"));
    const char *ver = json_string_value(json_object_get(lib, "version"));
    if (path == NULL)
        return ct_reg_text(lib, dir);
    size_t len = strlen(path) + (id ? strlen(id) : 0) + (ver ? strlen(ver) : 0) + 64;
    char *s = malloc(len);
    if (s != NULL)
        snprintf(s, len, "%s%s%s%s%s%s", path, id || ver ? " (" : "", id ? "build id " : "",
                 id ? id : "", ver ? (id ? ", version " : "version ") : "", ver ? ver : "");
    if (s != NULL && (id || ver))
        strcat(s, ")");
    return s;
}

static void ct_reg_leaf_add(ct_reg_leaves_t *l, const char *path, char *text)
{
    if (text == NULL || ct_vec_reserve(&l->v, &l->cap, l->n + 1, sizeof *l->v) != CT_OK ||
        (l->v[l->n].path = strdup(path)) == NULL) {
        free(text);
        l->oom = 1;
        return;
    }
    l->v[l->n++].text = text;
}

static void ct_reg_flatten(ct_reg_leaves_t *l, const char *path, json_t *v, const char *dir)
{
    char sub[768];
    int libraries = strcmp(path, "fingerprint.libraries") == 0 ||
                    strncmp(path, "fingerprint.other_hosts.", 24) == 0;
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x)
        {
            if (ct_reg_volatile(k) || strcmp(path, "fingerprint.hosts") == 0)
                continue;
            snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", k);
            if (libraries && strcmp(path, "fingerprint.libraries") == 0)
                ct_reg_leaf_add(l, sub, ct_reg_library_text(x, dir));
            else
                ct_reg_flatten(l, sub, x, dir);
        }
        return;
    }
    if (json_is_array(v) && json_is_object(json_array_get(v, 0))) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            ct_reg_flatten(l, sub, json_array_get(v, i), dir);
        }
        return;
    }
    ct_reg_leaf_add(l, path, ct_reg_text(v, dir));
}

static void ct_reg_leaves_free(ct_reg_leaves_t *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].path);
        free(l->v[i].text);
    }
    free(l->v);
    free(l->by_path);
}

/* By path, then by place in v: of two leaves with one path (a path cut
 * at its buffer's length), the first met is found, as a scan found it. */
static int ct_reg_leaf_cmp(const void *a, const void *b)
{
    const ct_reg_leaf_t *x = *(const ct_reg_leaf_t *const *)a,
                        *y = *(const ct_reg_leaf_t *const *)b;
    int c = strcmp(x->path, y->path);
    return c != 0 ? c : (x > y) - (x < y);
}

/* Fills l->by_path once the leaves are all added (v moves no more). */
static void ct_reg_leaves_index(ct_reg_leaves_t *l)
{
    if (l->oom || l->n == 0)
        return;
    if ((l->by_path = malloc(l->n * sizeof *l->by_path)) == NULL) {
        l->oom = 1;
        return;
    }
    for (size_t i = 0; i < l->n; i++)
        l->by_path[i] = &l->v[i];
    ct_vec_sort(l->by_path, l->n, sizeof *l->by_path, ct_reg_leaf_cmp);
}

/* The text at path, or NULL: the first of by_path not before path. */
static const char *ct_reg_leaf_get(const ct_reg_leaves_t *l, const char *path)
{
    if (l->by_path == NULL)
        return NULL; /* no leaves */
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(l->by_path[mid]->path, path) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->n && strcmp(l->by_path[lo]->path, path) == 0 ? l->by_path[lo]->text : NULL;
}

static int ct_reg_prefixed(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A tuning variable (the configuration): what collbench's config_id
 * hashes, less the launcher's bookkeeping. */
static int ct_reg_tuning_name(const char *name)
{
    char entry[300];
    snprintf(entry, sizeof entry, "%s=", name);
    return ct_tuning_env_is_tuning(entry) && !ct_tuning_env_is_launcher(entry);
}

/* The kind of a path (1 most specific .. 8), and its name in words: a
 * preloaded library, a library's build or version, a tuning variable (what
 * was asked for), an MPI_T value (what is in force), another variable, the
 * kernel and CPU, the hosts, other metadata. */
static int ct_reg_kind(const char *path, char *what, size_t len, int absent_before)
{
    const char *env = "fingerprint.env.", *lib = "fingerprint.libraries.";
    if (ct_reg_prefixed(path, env)) {
        const char *name = path + strlen(env);
        snprintf(what, len, "%s", name);
        if (ct_reg_prefixed(name, "LD_PRELOAD"))
            return 1;
        return ct_reg_tuning_name(name) ? 3 : 5;
    }
    if (ct_reg_prefixed(path, lib)) {
        snprintf(what, len, "library %s", path + strlen(lib));
        return absent_before ? 1 : 2;
    }
    if (ct_reg_prefixed(path, "environment.")) {
        snprintf(what, len, "%s", path + strlen("environment."));
        return 3;
    }
    if (ct_reg_prefixed(path, "fingerprint.mpi_t.")) {
        snprintf(what, len, "MPI_T %s (in force)", path + strlen("fingerprint.mpi_t."));
        return 4;
    }
    snprintf(what, len, "%s", path);
    if (strcmp(path, "mpi_library_version") == 0 || strcmp(path, "ucx_version") == 0 ||
        ct_reg_prefixed(path, "backend.") || ct_reg_prefixed(path, "colltune."))
        return 2;
    if (strcmp(path, "config_id") == 0)
        return 3;
    if (ct_reg_prefixed(path, "fingerprint.kernel") || ct_reg_prefixed(path, "fingerprint.cpu") ||
        ct_reg_prefixed(path, "fingerprint.machine"))
        return 6;
    if (ct_reg_prefixed(path, "hosts") || ct_reg_prefixed(path, "ranks") ||
        ct_reg_prefixed(path, "fingerprint.other_hosts") || strcmp(path, "nnodes") == 0)
        return 7;
    return 8;
}

static int ct_reg_cause_cmp(const void *a, const void *b)
{
    const ct_reg_cause_t *x = a, *y = b;
    if (x->consistent != y->consistent)
        return y->consistent - x->consistent;
    if (x->rank != y->rank)
        return x->rank - y->rank;
    return strcmp(x->what, y->what);
}

/* Does every run of [lo, hi) with metadata hold text t at path (NULL:
 * absent)? */
static int ct_reg_holds(const ct_reg_leaves_t *all, size_t lo, size_t hi, const char *path,
                        const char *t)
{
    for (size_t r = lo; r < hi; r++) {
        if (all[r].n == 0)
            continue; /* no metadata: no evidence either way */
        const char *x = ct_reg_leaf_get(&all[r], path);
        if ((x == NULL) != (t == NULL) || (x != NULL && strcmp(x, t) != 0))
            return 0;
    }
    return 1;
}

int ct_reg_causes(const ct_reg_runs_t *runs, size_t good, size_t bad, size_t window,
                  ct_reg_cause_t **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (good >= runs->n || bad >= runs->n || runs->v[good].meta == NULL ||
        runs->v[bad].meta == NULL)
        return -1;
    size_t lo = bad > window ? bad - window : 0;
    ct_reg_leaves_t *all = calloc(runs->n, sizeof *all);
    if (all == NULL)
        return -1;
    int oom = 0;
    for (size_t r = lo; r < runs->n; r++) {
        if (runs->v[r].meta != NULL) {
            ct_reg_flatten(&all[r], "", runs->v[r].meta, runs->v[r].dir);
            ct_reg_leaves_index(&all[r]);
        }
        oom |= all[r].oom;
    }
    ct_reg_cause_t *c = NULL;
    size_t nc = 0, cap = 0;
    /* every path of either run, once */
    for (int side = 0; side < 2 && !oom; side++) {
        const ct_reg_leaves_t *l = &all[side ? bad : good];
        for (size_t i = 0; i < l->n && !oom; i++) {
            const char *path = l->v[i].path;
            const char *from = ct_reg_leaf_get(&all[good], path);
            const char *to = ct_reg_leaf_get(&all[bad], path);
            if (side == 1 && from != NULL)
                continue; /* seen from the good run */
            if (from != NULL && to != NULL && strcmp(from, to) == 0)
                continue;
            /* environment.X repeats fingerprint.env.X */
            if (ct_reg_prefixed(path, "environment.")) {
                char fp[768];
                snprintf(fp, sizeof fp, "fingerprint.env.%s", path + strlen("environment."));
                if (ct_reg_leaf_get(&all[good], fp) || ct_reg_leaf_get(&all[bad], fp))
                    continue;
            }
            if (ct_vec_reserve(&c, &cap, nc + 1, sizeof *c) != CT_OK) {
                oom = 1;
                break;
            }
            ct_reg_cause_t *x = &c[nc++];
            memset(x, 0, sizeof *x);
            x->rank = ct_reg_kind(path, x->what, sizeof x->what, from == NULL);
            int env =
                ct_reg_prefixed(path, "fingerprint.env.") || ct_reg_prefixed(path, "environment.");
            snprintf(x->from, sizeof x->from, "%s", from ? from : env ? "unset" : "absent");
            snprintf(x->to, sizeof x->to, "%s", to ? to : env ? "unset" : "absent");
            x->consistent =
                ct_reg_holds(all, lo, bad, path, from) && ct_reg_holds(all, bad, runs->n, path, to);
        }
    }
    for (size_t r = 0; r < runs->n; r++)
        ct_reg_leaves_free(&all[r]);
    free(all);
    if (oom) {
        free(c);
        return -1;
    }
    ct_vec_sort(c, nc, sizeof *c, ct_reg_cause_cmp);
    *out = c;
    *n = nc;
    return 0;
}

/* Causes shown before "... and N more". */
#define CT_REG_CAUSES_SHOWN 8

/* The candidate causes of the step from bad on (good: the run before it;
 * SIZE_MAX when none). */
static void ct_reg_print_causes(FILE *f, int md, const ct_reg_runs_t *runs, size_t good, size_t bad,
                                size_t window)
{
    const char *in = md ? "  - " : "    ", *item = md ? "    " : "      ";
    char bn[CT_REG_SAFE_LEN], gn[CT_REG_SAFE_LEN];
    const ct_reg_run_t *b = &runs->v[bad];
    ct_reg_safe(b->name, md, bn, sizeof bn);
    if (good >= runs->n) {
        fprintf(f, "%scandidate causes: unknown (no run before %s)\n", in, bn);
        return;
    }
    const ct_reg_run_t *g = &runs->v[good];
    ct_reg_safe(g->name, md, gn, sizeof gn);
    ct_reg_cause_t *c;
    size_t n;
    if (ct_reg_causes(runs, good, bad, window, &c, &n) != 0) {
        fprintf(f, "%scandidate causes: unknown (%s has no metadata: an imported run)\n", in,
                g->meta == NULL ? gn : bn);
        return;
    }
    size_t held = 0;
    for (size_t i = 0; i < n; i++)
        held += c[i].consistent;
    if (n == 0) {
        fprintf(f,
                "%scandidate causes: none recorded (the same fingerprint, configuration, "
                "versions and hosts in %s and %s)\n",
                in, gn, bn);
        return;
    }
    fprintf(f, "%scandidate causes, most specific first (from %s to %s):\n", in, gn, bn);
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == held && held > 0 && i < n)
            fprintf(f, "%s(these also vary among the runs before or after %s: less likely)\n", item,
                    bn);
        if (shown++ == CT_REG_CAUSES_SHOWN) {
            fprintf(f, "%s... and %zu more differences\n", item, n - CT_REG_CAUSES_SHOWN);
            break;
        }
        char what[CT_REG_SAFE_LEN], from[CT_REG_SAFE_LEN], to[CT_REG_SAFE_LEN];
        fprintf(f, "%s%zu. %s: %s -> %s from run %s%s\n", item, i + 1,
                ct_reg_safe(c[i].what, md, what, sizeof what),
                ct_reg_safe(c[i].from, md, from, sizeof from),
                ct_reg_safe(c[i].to, md, to, sizeof to), bn,
                c[i].consistent ? " (in every run since; in none of the baseline)" : "");
    }
    free(c);
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
                      size_t ns, ct_regress_verdict_t verdict, size_t window)
{
    int slow = verdict == CT_REGRESS_SLOWER, back = verdict == CT_REGRESS_RECOVERED;
    size_t total = 0;
    for (size_t i = 0; i < ns; i++)
        total += s[i].res.verdict == verdict;
    if (total == 0)
        return;
    fprintf(f, "\n%s%zu series %s:\n",
            md ? (slow   ? "## Diagnosis\n\n"
                  : back ? "## Recovered\n\n"
                         : "## Faster\n\n")
               : "",
            total,
            slow   ? "slower"
            : back ? "recovered (the step the run before was judged slower at went away: "
                     "history, not a regression)"
                   : "faster");
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
        char t[4][CT_REG_SAFE_LEN];
        fprintf(f, "%s%s run %s (%s), for %zu series; %s %s (%s)\n", md ? "- " : "  ",
                slow   ? "first slow"
                : back ? "the step began at"
                       : "first faster",
                ct_reg_safe(b->name, md, t[0], sizeof t[0]),
                ct_reg_safe(b->date, md, t[1], sizeof t[1]), members,
                slow || back ? "last good run" : "run before it",
                ct_reg_safe(g ? g->name : "none", md, t[2], sizeof t[2]),
                ct_reg_safe(g ? g->date : "-", md, t[3], sizeof t[3]));
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
            char w[5][CT_REG_SAFE_LEN];
            fprintf(f, "%s%s %s%s %s %s %s/%s: %+.1f%%%s%s\n", md ? "  - " : "    ",
                    ct_reg_safe(k->collective, md, w[0], sizeof w[0]), sz, exact,
                    ct_reg_safe(k->backend, md, w[1], sizeof w[1]),
                    ct_reg_safe(k->placement, md, w[2], sizeof w[2]),
                    ct_reg_safe(k->dtype, md, w[3], sizeof w[3]),
                    ct_reg_safe(k->op, md, w[4], sizeof w[4]), 100 * s[j].res.change,
                    s[j].res.by_change ? "; change point" : "",
                    s[j].res.by_newest ? "; newest runs beyond the baseline's bounds" : "");
        }
        if (!back)
            ct_reg_print_causes(f, md, runs, good, bad, window);
    }
}

/* The tuning variables of a run: its results.json "environment" less the
 * launcher's, or NULL (an imported run). */
static json_t *ct_reg_tuning(const ct_reg_run_t *run)
{
    json_t *env = json_object_get(run->meta, "environment"), *out, *v;
    const char *k;
    if (!json_is_object(env) || (out = json_object()) == NULL)
        return NULL;
    json_object_foreach(env, k, v)
    {
        if (ct_reg_tuning_name(k))
            json_object_set(out, k, v);
    }
    return out;
}

void ct_reg_config_changes(FILE *f, int md, const ct_reg_runs_t *runs)
{
    int header = 0;
    for (size_t r = 1; r < runs->n; r++) {
        json_t *a = ct_reg_tuning(&runs->v[r - 1]), *b = ct_reg_tuning(&runs->v[r]);
        const char *la = ct_reg_config_of(&runs->v[r - 1]), *lb = ct_reg_config_of(&runs->v[r]);
        if (strcmp(la, lb) != 0 || (a && b && !json_equal(a, b))) {
            if (!header++)
                fprintf(f,
                        "\n%sconfiguration changes (series continue across them; a new "
                        "baseline begins only at a run holding a file named "
                        "\"" CT_REG_NEW_BASELINE "\", or with --since RUN):\n",
                        md ? "## Configuration\n\n" : "");
            char t[3][CT_REG_SAFE_LEN];
            fprintf(f, "%sat run %s: configuration %s -> %s\n", md ? "- " : "  ",
                    ct_reg_safe(runs->v[r].name, md, t[0], sizeof t[0]),
                    ct_reg_safe(la, md, t[1], sizeof t[1]), ct_reg_safe(lb, md, t[2], sizeof t[2]));
            const char *k;
            json_t *v;
            for (int side = 0; a && b && side < 2; side++) {
                json_t *x = side ? b : a, *y = side ? a : b;
                json_object_foreach(x, k, v)
                {
                    json_t *w = json_object_get(y, k);
                    if (side == 1 && w != NULL)
                        continue;
                    if (w != NULL && json_equal(v, w))
                        continue;
                    const char *from = side ? "unset" : json_string_value(v);
                    const char *to = side ? json_string_value(v)
                                     : w  ? json_string_value(w)
                                          : "unset";
                    fprintf(f, "%s%s: %s -> %s\n", md ? "  - " : "    ",
                            ct_reg_safe(k, md, t[0], sizeof t[0]),
                            ct_reg_safe(from ? from : "?", md, t[1], sizeof t[1]),
                            ct_reg_safe(to ? to : "?", md, t[2], sizeof t[2]));
                }
            }
        }
        json_decref(a);
        json_decref(b);
    }
}
