/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trial_relay.h - the progress lines a launch writes to its stderr file,
 * passed on to colltune's stderr while it runs: collbench's "collbench:
 * allreduce float 1048576 B done (12/40), elapsed 3.1 s, ETA 8 s" lines,
 * so that a long sweep is not silent.  Its other lines stay in the file.
 */
#ifndef CT_TRIAL_RELAY_H
#define CT_TRIAL_RELAY_H

#include <stddef.h>
#include <sys/types.h>

/* The lines of the file that begin with this are relayed. */
#define CT_TRIAL_RELAY_MATCH "collbench: "

typedef struct {
    int fd;         /* the stderr file, read-only; -1: relaying nothing */
    off_t off;      /* read so far */
    const char *as; /* each relayed line is prefixed by it ("colltune sweep: ") */
    char line[512]; /* the line being read */
    size_t have;
    int overlong; /* the line outgrew line[]: skipped to its end */
} ct_trial_relay_t;

/* Starts relaying path's lines (none when as is NULL or path cannot be
 * opened: the relay is only a courtesy). */
void ct_trial_relay_open(ct_trial_relay_t *r, const char *path, const char *as);
/* Relays the complete lines written since the last call. */
void ct_trial_relay_poll(ct_trial_relay_t *r);
/* The last lines, then closes. */
void ct_trial_relay_close(ct_trial_relay_t *r);

#endif
