/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_clockfit.h - a clock model from repeated offset estimates.
 *
 * Each synchronisation (clocksync.h) estimates another clock's offset at
 * one instant, with a random error of a good fraction of a round trip:
 * +-0.1-0.2 us on one host, where collectives take 0.3-1 us.  Estimates
 * taken over the run are independent, so the model fits all recent ones:
 * a straight line (offset and drift) once they span CT_CLOCKFIT_SPAN_US,
 * before that their mean (drift over a shorter span is below the noise).
 * Only the last CT_CLOCKFIT_KEEP estimates count, so a drift that changes
 * (a clock being slewed) is followed.  Pure arithmetic: no MPI, no clock.
 */
#ifndef CT_CLOCKFIT_H
#define CT_CLOCKFIT_H

#include <stddef.h>

#define CT_CLOCKFIT_KEEP 16
#define CT_CLOCKFIT_SPAN_US 1e5

typedef struct {
    double local_us[CT_CLOCKFIT_KEEP];  /* when, on our clock */
    double offset_us[CT_CLOCKFIT_KEEP]; /* the other clock minus ours */
    size_t n;                           /* estimates held (at most CT_CLOCKFIT_KEEP) */
    size_t next;                        /* slot the next estimate replaces */
} ct_clockfit_t;

void ct_clockfit_init(ct_clockfit_t *fit);

/* Records one estimate. */
void ct_clockfit_add(ct_clockfit_t *fit, double local_us, double offset_us);

/* The model: offset(t) = *offset_p + *drift_p * (t - *ref_p).  With no
 * estimate, offset and drift are 0. */
void ct_clockfit_model(const ct_clockfit_t *fit, double *offset_p, double *ref_p, double *drift_p);

#endif
