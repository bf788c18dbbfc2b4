/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_clock.h - the monotonic clock in microseconds.
 *
 * Inline so that reading it inside the timed loop costs one vDSO call and
 * nothing else.
 */
#ifndef CT_CLOCK_H
#define CT_CLOCK_H

#include <time.h>

static inline double ct_clock_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

#endif
