/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_tmpname.h - the temporary file beside a target that every output goes
 * through before it is renamed onto the target.
 *
 * The name is "TARGET.HOST.PID.tmp": two runs never share one, on one host
 * or, on a shared file system, on two, and a run killed between creating
 * it and the rename (SIGKILL, a node failure) leaves a file whose owner can
 * be told dead later: the same host, and no process with that pid.
 */
#ifndef CT_TMPNAME_H
#define CT_TMPNAME_H

#include <stddef.h>
#include "ct_status.h"

/* Writes the temporary's name for target into buf; CT_ERR_USAGE when it
 * does not fit. */
ct_status_t ct_tmpname(const char *target, char *buf, size_t len);

/* Removes target's temporaries that a process of this host which no longer
 * exists left behind: regular files owned by this user, never this
 * process' own.  Returns how many were removed. */
int ct_tmpname_clean_stale(const char *target);

#endif
