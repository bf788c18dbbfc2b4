/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * watchdog.h - the -T timeout.
 *
 * A POSIX timer fires on its own thread, so a rank stuck inside MPI or
 * NCCL still gets a message naming what hung, and the process ends with
 * exit code 124 (the launcher then tears down the other ranks).
 */
#ifndef CT_WATCHDOG_H
#define CT_WATCHDOG_H

#include "ct_status.h"

typedef struct ct_watchdog ct_watchdog_t;

/* timeout_s 0 gives a watchdog that never fires. */
ct_status_t ct_watchdog_create(int timeout_s, ct_watchdog_t **watchdog_p);
/* Restarts the countdown; what names the step in the timeout message. */
void ct_watchdog_arm(ct_watchdog_t *watchdog, const char *what);
void ct_watchdog_disarm(ct_watchdog_t *watchdog);
void ct_watchdog_destroy(ct_watchdog_t *watchdog);

#endif
