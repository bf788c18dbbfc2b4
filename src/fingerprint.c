/* SPDX-License-Identifier: BSD-3-Clause */
/* fingerprint.h: each host's fingerprint, taken by its lowest rank, and
 * the differing ones gathered to rank 0 as their canonical text. */
#include "fingerprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvars.h"

extern char **environ;

typedef struct {
    char hostname[128];
    char digest[CT_FINGERPRINT_DIGEST_LEN];
    int leader; /* the lowest rank of its host: the others send nothing */
} ct_fp_entry_t;

typedef struct {
    ct_fingerprint_t *fp;
    ct_status_t st;
} ct_fp_mpit_t;

static void ct_fp_mpit_one(const ct_cvar_t *c, void *arg)
{
    ct_fp_mpit_t *m = arg;
    if (m->st == CT_OK)
        m->st = ct_fingerprint_add_mpi_t(m->fp, c->name, c->value);
}

static _Noreturn void ct_fp_nomem(ct_world_t *world)
{
    fprintf(stderr, "collbench: rank %d: out of memory taking the environment fingerprint\n",
            ct_world_rank(world));
    ct_world_abort(world, CT_EXIT_FAILURE);
}

/* This host's fingerprint and its text (the leader's part). */
static void ct_fp_local(ct_world_t *world, int *mpit_held, ct_fingerprint_t *fp, char **text_p)
{
    char err[256];
    ct_fp_mpit_t m = {fp, CT_OK};
    /* MPI_T fails only where the library has none: no mpi_t then. */
    (void)ct_cvars_each(ct_fingerprint_mpi_t_wanted, ct_fp_mpit_one, &m, err, sizeof err);
    if (*mpit_held) {
        ct_cvars_release();
        *mpit_held = 0;
    }
    if (m.st != CT_OK || ct_fingerprint_collect(environ, fp) != CT_OK ||
        ct_fingerprint_text(fp, text_p) != CT_OK)
        ct_fp_nomem(world);
}

/* Rank 0: the job's fingerprint from every rank's entry and the texts of
 * the hosts that differ. */
static ct_fingerprint_job_t *ct_fp_job(ct_world_t *world, ct_fingerprint_t *fp, const char *digest,
                                       const ct_fp_entry_t *all, const char *texts,
                                       const size_t *lens)
{
    int n = ct_world_size(world);
    ct_fingerprint_job_t *job = calloc(1, sizeof *job);
    if (job == NULL || (job->hosts = calloc((size_t)n, sizeof *job->hosts)) == NULL ||
        (job->others = calloc((size_t)n, sizeof *job->others)) == NULL)
        ct_fp_nomem(world);
    job->fp = *fp;
    memset(fp, 0, sizeof *fp);
    snprintf(job->digest, sizeof job->digest, "%s", digest);
    size_t off = 0;
    for (int r = 0; r < n; r++) {
        size_t at = off;
        off += lens[r];
        int seen = !all[r].leader;
        for (size_t h = 0; h < job->nhosts && !seen; h++)
            seen = strcmp(job->hosts[h].hostname, all[r].hostname) == 0;
        if (seen)
            continue; /* two leaders of one name: a name is one key */
        ct_fingerprint_host_t *host = &job->hosts[job->nhosts++];
        snprintf(host->hostname, sizeof host->hostname, "%s", all[r].hostname);
        snprintf(host->digest, sizeof host->digest, "%s", all[r].digest);
        if (lens[r] == 0)
            continue;
        ct_fingerprint_host_t *other = &job->others[job->nothers];
        *other = *host;
        if (texts[at + lens[r] - 1] != '\0' ||
            ct_fingerprint_parse(texts + at, &other->fp) != CT_OK) {
            fprintf(stderr, "collbench: warning: host %s sent a fingerprint that does not read\n",
                    all[r].hostname);
            ct_fingerprint_free(&other->fp);
            continue;
        }
        job->nothers++;
    }
    return job;
}

void ct_fingerprint_gather(ct_world_t *world, int *mpit_held, ct_fingerprint_job_t **job_p)
{
    int rank0 = ct_world_rank(world) == 0, n = ct_world_size(world);
    ct_fingerprint_t fp = {0};
    ct_fp_entry_t mine, *all = NULL;
    char *text = NULL, root_digest[CT_FINGERPRINT_DIGEST_LEN] = "";
    size_t *lens = NULL;
    void *texts = NULL;

    memset(&mine, 0, sizeof mine);
    mine.leader = ct_world_local_rank(world) == 0;
    snprintf(mine.hostname, sizeof mine.hostname, "%s", ct_world_hostname(world));
    if (mine.leader) {
        ct_fp_local(world, mpit_held, &fp, &text);
        ct_fingerprint_digest(text, mine.digest);
    } else if (*mpit_held) {
        ct_cvars_release();
        *mpit_held = 0;
    }
    if (rank0)
        memcpy(root_digest, mine.digest, sizeof root_digest);
    ct_world_bcast(world, root_digest, sizeof root_digest, 0);
    if (rank0 && ((all = calloc((size_t)n, sizeof *all)) == NULL ||
                  (lens = calloc((size_t)n, sizeof *lens)) == NULL))
        ct_fp_nomem(world);
    ct_world_gather(world, &mine, sizeof mine, all, 0);
    /* Only a host that differs sends its text (with its terminator). */
    int differs = mine.leader && strcmp(mine.digest, root_digest) != 0;
    ct_world_gatherv(world, differs ? text : "", differs ? strlen(text) + 1 : 0, &texts, lens, 0);
    *job_p = rank0 ? ct_fp_job(world, &fp, root_digest, all, texts, lens) : NULL;
    ct_fingerprint_free(&fp);
    free(text);
    free(texts);
    free(lens);
    free(all);
}

void ct_fingerprint_job_free(ct_fingerprint_job_t *job)
{
    if (job == NULL)
        return;
    ct_fingerprint_free(&job->fp);
    for (size_t i = 0; i < job->nothers; i++)
        ct_fingerprint_free(&job->others[i].fp);
    free(job->hosts);
    free(job->others);
    free(job);
}
