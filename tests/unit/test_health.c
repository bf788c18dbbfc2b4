/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_health.c - the rule that names slow hosts and links
 * (tuner/health/health_rule.c), on synthetic timings with fixed seeds: a slow
 * host is named and no other, A/A noise names nobody (at most 1% of
 * trials), pairs name a slow host and not its pairs' links, a slow link
 * is named as a link, a fast host is never named.  And the input: the
 * schema versions every results reader takes (ct_results_json_load).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "ct_test.h"
#include "health_input.h"
#include "health_rule.h"

#define PI 3.14159265358979323846

typedef struct {
    uint64_t s;
} rng_t;

static double rng_uniform(rng_t *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return ((r->s >> 11) + 0.5) / 9007199254740992.0;
}

/* exp(N(0, sigma)): multiplicative noise */
static double rng_noise(rng_t *r, double sigma)
{
    double u = rng_uniform(r), v = rng_uniform(r);
    return exp(sigma * sqrt(-2 * log(u)) * cos(2 * PI * v));
}

static const char *const colls[] = {"allreduce", "alltoall", "broadcast"};
#define NCOLL 3
#define NSIZE 6

/* A whole job's rows: nh hosts, host `slow` (-1: none) times `factor`. */
static size_t job_rows(ct_health_row_t *rows, int nh, int slow, double factor, double sigma,
                       rng_t *r)
{
    size_t n = 0;
    for (int c = 0; c < NCOLL; c++)
        for (int s = 0; s < NSIZE; s++)
            for (int h = 0; h < nh; h++) {
                ct_health_row_t *w = &rows[n++];
                memset(w, 0, sizeof *w);
                snprintf(w->collective, sizeof w->collective, "%s", colls[c]);
                snprintf(w->placement, sizeof w->placement, "out-of-place");
                w->bytes = 1024LL << (2 * s);
                snprintf(w->host, sizeof w->host, "node%02d", h);
                w->us = (10.0 + w->bytes / 100.0) * rng_noise(r, sigma) * (h == slow ? factor : 1);
            }
    return n;
}

/* Pairs over a round-robin schedule of nh hosts (nh even): a pair's
 * time is the slower host's, times the link's factor. */
static size_t pair_rows(ct_health_row_t *rows, int nh, const double *host_f, int la, int lb,
                        double link_f, double sigma, double spike, rng_t *r)
{
    size_t n = 0;
    for (int round = 0; round < nh - 1; round++)
        for (int k = 0; k < nh / 2; k++) {
            /* circle method: host nh-1 fixed, the others rotate */
            int a = k == 0 ? nh - 1 : (round + k) % (nh - 1);
            int b = (round + nh - 1 - k) % (nh - 1);
            for (int c = 0; c < NCOLL; c++)
                for (int s = 0; s < NSIZE; s++) {
                    ct_health_row_t *w = &rows[n++];
                    memset(w, 0, sizeof *w);
                    snprintf(w->collective, sizeof w->collective, "%s", colls[c]);
                    snprintf(w->placement, sizeof w->placement, "in-place");
                    w->bytes = 4096LL << (2 * s);
                    snprintf(w->host, sizeof w->host, "node%02d", a);
                    snprintf(w->host_b, sizeof w->host_b, "node%02d", b);
                    double f = host_f[a] > host_f[b] ? host_f[a] : host_f[b];
                    if ((a == la && b == lb) || (a == lb && b == la))
                        f *= link_f;
                    w->us = (5.0 + w->bytes / 50.0) * f * rng_noise(r, sigma);
                    /* a busy machine: now and then a pair is 2 to 10x slower */
                    if (rng_uniform(r) < spike)
                        w->us *= 2 + 8 * rng_uniform(r);
                }
        }
    return n;
}

/* How many hosts and links are named, and whether `want` is among them. */
static void named(const ct_health_report_t *rep, const char *want, int *nh, int *nl, int *found)
{
    *nh = *nl = *found = 0;
    for (size_t i = 0; i < rep->nhosts; i++)
        if (rep->hosts[i].named) {
            (*nh)++;
            *found |= want != NULL && strcmp(rep->hosts[i].host, want) == 0;
        }
    *nl = (int)rep->nlinks;
}

/* ct_health_read on a document with schema name and one result on two
 * hosts: its status, err, and the whole-job rows read in *rows_p. */
static ct_status_t read_schema(const char *name, size_t *rows_p, char *err, size_t errlen)
{
    const char *tmp = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/test_health.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL)
        return CT_ERR_IO;
    fprintf(f,
            "{\"schema\": \"%s\", \"nnodes\": 2, \"results\": [{\"collective\": "
            "\"allreduce\", \"placement\": \"in-place\", \"bytes\": 8, \"per_host\": "
            "[{\"hostname\": \"a\", \"median_us\": 1}, {\"hostname\": \"b\", "
            "\"median_us\": 2}]}]}\n",
            name);
    fclose(f);
    ct_health_rows_t job = {0}, pairs = {0};
    ct_status_t st = ct_health_read(path, &job, &pairs, err, errlen);
    *rows_p = job.n;
    ct_health_rows_free(&job);
    ct_health_rows_free(&pairs);
    unlink(path);
    return st;
}

int main(void)
{
    ct_test_tally_t tally = {0, 0};
    const ct_health_params_t p = ct_health_default_params();
    ct_health_row_t *rows = calloc(20000, sizeof *rows);
    ct_health_report_t rep;
    rng_t r = {0x9e3779b97f4a7c15ULL};
    if (rows == NULL)
        return 99;

    /* The z-score itself: three equal hosts and one twice as slow; against
     * the others (all 1) the MAD is 0, so the floor (0.02) stands in:
     * 0.6745 ln 2 / 0.02, and the ratio is 2.  Each 1 against {1, 1, 2}:
     * median 1, z 0. */
    const double x[] = {1, 1, 1, 2};
    double z[4], ratio[4];
    ct_health_zscores(x, 4, 0.02, z, ratio);
    CT_CHECK(&tally, fabs(z[3] - 0.6745 * log(2) / 0.02) < 1e-9 && fabs(ratio[3] - 2) < 1e-12);
    CT_CHECK(&tally, z[0] == 0 && ratio[0] == 1);

    /* Whole job, 8 hosts, 5% noise: node05 1.5x slower everywhere is
     * named, and nobody else, in (nearly) every trial. */
    int hit = 0, other = 0, trials = 1000;
    for (int t = 0; t < trials; t++) {
        size_t n = job_rows(rows, 8, 5, 1.5, 0.05, &r);
        int nh, nl, found;
        if (ct_health_judge(rows, n, &p, &rep) != CT_OK)
            return 99;
        named(&rep, "node05", &nh, &nl, &found);
        hit += found;
        other += nh - found;
        if (t == 0)
            CT_CHECK(&tally,
                     strcmp(rep.hosts[0].host, "node05") == 0 && rep.hosts[0].named &&
                         strcmp(rep.hosts[0].named_in, "allreduce,alltoall,broadcast") == 0);
        ct_health_free(&rep);
    }
    printf("job, 8 hosts, 5%% noise, one host 1.5x: named in %d of %d; others named %d times\n",
           hit, trials, other);
    CT_CHECK(&tally, hit >= trials * 99 / 100);
    CT_CHECK(&tally, other <= trials / 100);

    /* A/A: nobody slow, 5% and 20% noise: at most 1% of trials name anyone. */
    const double sigmas[] = {0.05, 0.20};
    for (int k = 0; k < 2; k++) {
        int false_trials = 0;
        for (int t = 0; t < trials; t++) {
            size_t n = job_rows(rows, 8, -1, 1, sigmas[k], &r);
            int nh, nl, found;
            if (ct_health_judge(rows, n, &p, &rep) != CT_OK)
                return 99;
            named(&rep, NULL, &nh, &nl, &found);
            false_trials += nh > 0;
            ct_health_free(&rep);
        }
        printf("job A/A, 8 hosts, %.0f%% noise: a host named in %d of %d trials\n", 100 * sigmas[k],
               false_trials, trials);
        CT_CHECK(&tally, false_trials <= trials / 100);
    }

    /* A fast host (the root of a broadcast returns first) is never named. */
    {
        size_t n = job_rows(rows, 4, 2, 0.1, 0.05, &r);
        int nh, nl, found;
        ct_health_judge(rows, n, &p, &rep);
        named(&rep, NULL, &nh, &nl, &found);
        CT_CHECK(&tally, nh == 0);
        ct_health_free(&rep);
    }

    /* Pairs, 4 hosts, node02 10x slower (a rate-limited link of its own):
     * node02 named, and no link (its pairs are slow because of it). */
    double f4[4] = {1, 1, 10, 1};
    hit = other = 0;
    int links = 0;
    for (int t = 0; t < trials; t++) {
        size_t n = pair_rows(rows, 4, f4, -1, -1, 1, 0.05, 0, &r);
        int nh, nl, found;
        ct_health_judge(rows, n, &p, &rep);
        named(&rep, "node02", &nh, &nl, &found);
        hit += found;
        other += nh - found;
        links += nl;
        ct_health_free(&rep);
    }
    printf("pairs, 4 hosts, one host 10x: named in %d of %d; others %d; links %d\n", hit, trials,
           other, links);
    CT_CHECK(&tally, hit == trials && other == 0 && links == 0);

    /* The same on a busy machine: 10% noise, and one pair in 6 (the
     * emulated cluster on 2 shared cores) 2 to 10x slower at random. */
    hit = other = links = 0;
    for (int t = 0; t < trials; t++) {
        size_t n = pair_rows(rows, 4, f4, -1, -1, 1, 0.10, 1.0 / 6, &r);
        int nh, nl, found;
        ct_health_judge(rows, n, &p, &rep);
        named(&rep, "node02", &nh, &nl, &found);
        hit += found;
        other += nh - found;
        links += nl;
        ct_health_free(&rep);
    }
    printf("pairs, 4 hosts, one host 10x, spikes in 1 of 6 pairs: named in %d of %d; others %d; "
           "links %d\n",
           hit, trials, other, links);
    CT_CHECK(&tally, hit >= trials * 99 / 100 && other <= trials / 100 && links <= trials / 100);

    /* Pairs, 8 hosts, the link node01-node06 3x slower: that link is named,
     * no host is. */
    double f8[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    int link_hit = 0, host_named = 0;
    for (int t = 0; t < trials; t++) {
        size_t n = pair_rows(rows, 8, f8, 1, 6, 3, 0.05, 0, &r);
        int nh, nl, found;
        ct_health_judge(rows, n, &p, &rep);
        named(&rep, NULL, &nh, &nl, &found);
        host_named += nh > 0;
        link_hit += nl == 1 && strcmp(rep.links[0].host, "node01") == 0 &&
                    strcmp(rep.links[0].host_b, "node06") == 0;
        ct_health_free(&rep);
    }
    printf("pairs, 8 hosts, one link 3x: link named in %d of %d; a host named in %d\n", link_hit,
           trials, host_named);
    CT_CHECK(&tally, link_hit >= trials * 99 / 100 && host_named <= trials / 100);

    /* Pairs A/A, 8 hosts at 5% and 4 hosts at 10% noise, and with spikes:
     * at most 1% of trials name a host or link. */
    const int hosts_aa[] = {8, 4, 4};
    const double sigma_aa[] = {0.05, 0.10, 0.10}, spike_aa[] = {0, 0, 1.0 / 6};
    for (int k = 0; k < 3; k++) {
        int false_trials = 0;
        for (int t = 0; t < trials; t++) {
            size_t n = pair_rows(rows, hosts_aa[k], f8, -1, -1, 1, sigma_aa[k], spike_aa[k], &r);
            int nh, nl, found;
            ct_health_judge(rows, n, &p, &rep);
            named(&rep, NULL, &nh, &nl, &found);
            false_trials += nh + nl > 0;
            ct_health_free(&rep);
        }
        printf("pairs A/A, %d hosts, %.0f%% noise%s: something named in %d of %d trials\n",
               hosts_aa[k], 100 * sigma_aa[k], spike_aa[k] > 0 ? ", spikes in 1 of 6 pairs" : "",
               false_trials, trials);
        CT_CHECK(&tally, false_trials <= trials / 100);
    }

    /* Versions 1 and 2 read; a newer one and a foreign schema do not,
     * as for every other results reader. */
    {
        char err[1024] = "";
        size_t n = 0;
        CT_CHECK(&tally, read_schema("colltune-results/1", &n, err, sizeof err) == CT_OK && n == 2);
        CT_CHECK(&tally, read_schema("colltune-results/2", &n, err, sizeof err) == CT_OK && n == 2);
        CT_CHECK(&tally, read_schema("colltune-results/9", &n, err, sizeof err) == CT_ERR_PARSE);
        CT_CHECK(&tally, strstr(err, ":1: unknown schema 'colltune-results/9'") != NULL);
        CT_CHECK(&tally, read_schema("other", &n, err, sizeof err) == CT_ERR_PARSE);
        CT_CHECK(&tally, strstr(err, ":1: not collbench results") != NULL);
    }

    free(rows);
    return CT_DONE(&tally);
}
