/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clocksync.h - a clock common to all ranks, for the window timing mode,
 * and the point-to-point floor every collective must respect.
 *
 * Each rank estimates the offset of its monotonic clock against rank 0's by
 * ping-pong, as SKaMPI and ReproMPI do: rank r reads t1, sends to rank 0,
 * which answers with its clock t0; r reads t2.  Assuming the two legs take
 * equal time, rank 0's clock read t0 - (t1 + t2) / 2 ahead of r's.  The
 * exchange with the shortest round trip bounds that assumption's error by
 * half its round trip, so that one is kept.  Offsets are measured, never
 * assumed zero, even between ranks on one host.
 *
 * One estimate is off by a random error of a good part of the round trip,
 * and clocks drift apart: each re-synchronisation adds an estimate to a
 * model fitted over the recent ones (ct_clockfit.h), which averages the
 * error down and follows the drift.
 *
 * The same exchanges measure the one-way latency of a small message (half
 * the round trip): the floor below which no collective time is physically
 * possible.  The floor is the smallest, over ranks, of each rank's median.
 */
#ifndef CT_CLOCKSYNC_H
#define CT_CLOCKSYNC_H

#include "ct_status.h"
#include "world.h"

typedef struct ct_clocksync ct_clocksync_t;

/* Collective: a private communicator and a first synchronisation. */
ct_status_t ct_clocksync_create(ct_world_t *world, ct_clocksync_t **sync_p);
void ct_clocksync_destroy(ct_clocksync_t *sync);

/* Collective: measures the offsets again (and refits the drift). */
ct_status_t ct_clocksync_resync(ct_clocksync_t *sync);

/* Now on rank 0's clock, in µs (not collective). */
double ct_clocksync_now_us(const ct_clocksync_t *sync);

/* Waits until instant at_us on the common clock; returns the instant it
 * was seen.  Until the last microsecond it keeps the MPI library's
 * progress engine turning: a rank that returned from a call may still owe
 * the others work (queued fragments, acknowledgements) that only progress
 * delivers, and they would otherwise wait for its next call.  Far from
 * the instant it also yields the CPU, for oversubscribed hosts. */
double ct_clocksync_wait_until(ct_clocksync_t *sync, double at_us);

/* Half the best round trip to rank 0 on this rank: how far its common
 * clock can be off (0 on rank 0).  Not collective. */
double ct_clocksync_error_us(const ct_clocksync_t *sync);

/* Whether some host runs more ranks than the CPUs they may use (the same
 * on every rank): ranks waiting for an instant then spin on a CPU another
 * rank needs, and window-mode times inflate. */
int ct_clocksync_oversubscribed(const ct_clocksync_t *sync);

/* The one-way small-message latency floor, the same on every rank. */
double ct_clocksync_floor_us(const ct_clocksync_t *sync);

#endif
