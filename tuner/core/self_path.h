/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * self_path.h - files installed or built beside the running colltune:
 * collbench, the gnuplot scripts.  Linux's /proc/self/exe names the
 * binary (libtool may run it from tuner/.libs, hence several candidates).
 */
#ifndef CT_SELF_PATH_H
#define CT_SELF_PATH_H

#include <stddef.h>

/* The first of the directory of this program + rel[i] (i < nrel) for
 * which access(candidate + ("/" probe when probe is not empty), mode)
 * succeeds, into buf (without probe): 0; -1 when none does. */
int ct_self_path_find(const char *const *rel, size_t nrel, const char *probe, int mode, char *buf,
                      size_t len);

#endif
