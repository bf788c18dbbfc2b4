/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trial_relay.c - a launch's progress lines passed on while it runs.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "trial_relay.h"

void ct_trial_relay_open(ct_trial_relay_t *r, const char *path, const char *as)
{
    memset(r, 0, sizeof *r);
    r->as = as;
    r->fd = as != NULL ? open(path, O_RDONLY | O_CLOEXEC) : -1;
}

/* One complete line (without its newline) read from the file. */
static void ct_trial_relay_line(const ct_trial_relay_t *r)
{
    size_t m = strlen(CT_TRIAL_RELAY_MATCH);
    if (r->have >= m && memcmp(r->line, CT_TRIAL_RELAY_MATCH, m) == 0)
        fprintf(stderr, "%s%.*s\n", r->as, (int)r->have, r->line);
}

void ct_trial_relay_poll(ct_trial_relay_t *r)
{
    if (r->fd < 0)
        return;
    char buf[4096];
    ssize_t n;
    while ((n = pread(r->fd, buf, sizeof buf, r->off)) > 0) {
        r->off += n;
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] == '\n') {
                if (!r->overlong)
                    ct_trial_relay_line(r);
                r->have = 0;
                r->overlong = 0;
            } else if (r->have < sizeof r->line) {
                r->line[r->have++] = buf[i];
            } else {
                r->overlong = 1;
            }
        }
    }
    fflush(stderr);
}

void ct_trial_relay_close(ct_trial_relay_t *r)
{
    if (r->fd < 0)
        return;
    ct_trial_relay_poll(r); /* a cut last line stays in the file only */
    close(r->fd);
    r->fd = -1;
}
