/* SPDX-License-Identifier: BSD-3-Clause */
/* clocksync_mpi.c - ct_clocksync over point-to-point MPI (see clocksync.h). */
#define _GNU_SOURCE
#include "clocksync.h"

#include <math.h>
#include <sched.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "ct_clock.h"
#include "ct_clockfit.h"
#include "ct_stats.h"
#include "mpi_check.h"

/* Exchanges per rank: the first synchronisation also measures the floor,
 * so it takes more; the first few exchanges of a pair pay for connection
 * set-up and are not used. */
#define CT_SYNC_FIRST_EXCHANGES 256
#define CT_SYNC_EXCHANGES 32
#define CT_SYNC_DISCARDED 8
/* ct_clocksync_wait_until: the last stretch is a bare spin on the clock,
 * so the call starts within a clock read of its instant.  A progress call
 * can take microseconds (with mpi_yield_when_idle it yields the CPU), so
 * none starts closer to the instant than three times the longest seen. */
#define CT_SYNC_QUIET_US 2.0
#define CT_SYNC_YIELD_US 200.0

struct ct_clocksync {
    MPI_Comm comm;
    int rank;
    int size;
    ct_clockfit_t fit;   /* every estimate so far (rank 0: none) */
    double offset_us;    /* the model: rank 0's clock minus ours at */
    double ref_local_us; /* ref_local_us, changing by drift per µs */
    double drift;
    double error_us;
    double floor_us;
    double probe_max_us; /* longest progress call in wait_until */
    int oversubscribed;  /* some host has more ranks than CPUs for them */
};

/* Rank 0 answers every exchange of every other rank in turn. */
static int ct_clocksync_serve(struct ct_clocksync *s, int exchanges)
{
    for (int r = 1; r < s->size; r++)
        for (int k = 0; k < exchanges; k++) {
            char ping;
            int rc = MPI_Recv(&ping, 0, MPI_CHAR, r, 0, s->comm, MPI_STATUS_IGNORE);
            double t0 = ct_clock_now_us();
            if (rc == MPI_SUCCESS)
                rc = MPI_Send(&t0, 1, MPI_DOUBLE, r, 1, s->comm);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    return MPI_SUCCESS;
}

/* One rank's exchanges.  The offset is the median of the exchanges whose
 * round trip is in the fastest quarter: a single fastest exchange is
 * itself noise, and slow ones were delayed on one leg more than on the
 * other.  Also the median one-way time (half of each round trip). */
static int ct_clocksync_ask(struct ct_clocksync *s, int exchanges, double *offset_p,
                            double *local_p, double *error_p, double *one_way_p)
{
    size_t n = (size_t)(exchanges - CT_SYNC_DISCARDED), kept = 0;
    double *rtt = malloc(n * sizeof *rtt), *offset = malloc(n * sizeof *offset);
    double *mid = malloc(n * sizeof *mid), *sorted = malloc(n * sizeof *sorted);
    int rc = rtt && offset && mid && sorted ? MPI_SUCCESS : MPI_ERR_NO_MEM;

    for (int k = 0; k < exchanges && rc == MPI_SUCCESS; k++) {
        double t0 = 0.0, t1 = ct_clock_now_us();
        rc = MPI_Send(&t0, 0, MPI_CHAR, 0, 0, s->comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(&t0, 1, MPI_DOUBLE, 0, 1, s->comm, MPI_STATUS_IGNORE);
        double t2 = ct_clock_now_us();
        if (k >= CT_SYNC_DISCARDED) {
            size_t j = (size_t)(k - CT_SYNC_DISCARDED);
            rtt[j] = t2 - t1;
            offset[j] = t0 - (t1 + t2) / 2.0;
            mid[j] = (t1 + t2) / 2.0;
        }
    }
    if (rc == MPI_SUCCESS) {
        ct_stats_t st;
        memcpy(sorted, rtt, n * sizeof *sorted);
        ct_stats_compute(sorted, n, &st);
        double fast = ct_stats_quantile(sorted, n, 0.25);
        for (size_t j = 0; j < n; j++)
            if (rtt[j] <= fast) {
                sorted[kept++] = offset[j];
                *local_p = mid[j];
            }
        ct_stats_sort(sorted, kept);
        *offset_p = ct_stats_quantile(sorted, kept, 0.5);
        *one_way_p = st.median / 2.0;
        *error_p = st.min / 2.0;
    }
    free(rtt), free(offset), free(mid), free(sorted);
    return rc;
}

static ct_status_t ct_clocksync_measure(struct ct_clocksync *s, int exchanges, int first)
{
    double offset = 0.0, local = ct_clock_now_us(), error = 0.0, one_way = INFINITY;
    int rc = s->rank == 0 ? ct_clocksync_serve(s, exchanges)
                          : ct_clocksync_ask(s, exchanges, &offset, &local, &error, &one_way);
    int any_failed = rc != MPI_SUCCESS;

    /* Padded: a resync runs inside a --config configuration, whose forced
     * allreduce algorithm may refuse a count of 1 (mpi_check.h). */
    if (ct_mpi_allreduce_padded(&any_failed, 1, MPI_INT, MPI_MAX, s->comm) != MPI_SUCCESS ||
        any_failed)
        return CT_ERR_BACKEND;
    if (first) {
        s->floor_us = one_way;
        if (ct_mpi_allreduce_padded(&s->floor_us, 1, MPI_DOUBLE, MPI_MIN, s->comm) != MPI_SUCCESS)
            return CT_ERR_BACKEND;
    }
    if (s->rank != 0) {
        ct_clockfit_add(&s->fit, local, offset);
        ct_clockfit_model(&s->fit, &s->offset_us, &s->ref_local_us, &s->drift);
    }
    s->error_us = error;
    return CT_OK;
}

ct_status_t ct_clocksync_create(ct_world_t *world, ct_clocksync_t **sync_p)
{
    struct ct_clocksync *s = calloc(1, sizeof *s);
    if (s == NULL)
        return CT_ERR_NOMEM;
    if (MPI_Comm_dup(*(MPI_Comm *)ct_world_native(world), &s->comm) != MPI_SUCCESS) {
        free(s);
        return CT_ERR_BACKEND;
    }
    MPI_Comm_rank(s->comm, &s->rank);
    MPI_Comm_size(s->comm, &s->size);
    s->floor_us = INFINITY; /* one rank: nothing to cross */
    cpu_set_t cpus;
    int over = sched_getaffinity(0, sizeof cpus, &cpus) == 0 &&
               ct_world_local_size(world) > CPU_COUNT(&cpus);
    if (MPI_Allreduce(&over, &s->oversubscribed, 1, MPI_INT, MPI_MAX, s->comm) != MPI_SUCCESS) {
        ct_clocksync_destroy(s);
        return CT_ERR_BACKEND;
    }
    ct_clockfit_init(&s->fit);
    ct_status_t st = ct_clocksync_measure(s, CT_SYNC_FIRST_EXCHANGES, 1);
    if (st != CT_OK) {
        ct_clocksync_destroy(s);
        return st;
    }
    if (!isfinite(s->floor_us))
        s->floor_us = 0.0;
    *sync_p = s;
    return CT_OK;
}

void ct_clocksync_destroy(ct_clocksync_t *s)
{
    if (s == NULL)
        return;
    MPI_Comm_free(&s->comm);
    free(s);
}

ct_status_t ct_clocksync_resync(ct_clocksync_t *s)
{
    return ct_clocksync_measure(s, CT_SYNC_EXCHANGES, 0);
}

double ct_clocksync_now_us(const ct_clocksync_t *s)
{
    double local = ct_clock_now_us();
    return local + s->offset_us + s->drift * (local - s->ref_local_us);
}

double ct_clocksync_wait_until(ct_clocksync_t *s, double at_us)
{
    double now = ct_clocksync_now_us(s);
    while (now < at_us) {
        double left = at_us - now;
        if (left > CT_SYNC_QUIET_US && left > 3.0 * s->probe_max_us) {
            int flag;
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, s->comm, &flag, MPI_STATUS_IGNORE);
            double after = ct_clocksync_now_us(s);
            if (after - now > s->probe_max_us)
                s->probe_max_us = after - now;
            now = after;
            continue;
        }
        if (left > CT_SYNC_YIELD_US)
            sched_yield();
        now = ct_clocksync_now_us(s);
    }
    return now;
}

double ct_clocksync_error_us(const ct_clocksync_t *s) { return s->error_us; }

int ct_clocksync_oversubscribed(const ct_clocksync_t *s) { return s->oversubscribed; }

double ct_clocksync_floor_us(const ct_clocksync_t *s) { return s->floor_us; }
