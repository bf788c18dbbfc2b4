/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * helper_run.c - a helper program's answer, bounded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_input.h"
#include "helper_run.h"
#include "trial.h"

char *ct_helper_run(char *const *argv, char *why, size_t whylen)
{
    double limit = CT_HELPER_TIMEOUT_S;
    const char *given = getenv(CT_HELPER_TIMEOUT_ENV);
    if (given != NULL) {
        char *end;
        errno = 0;
        limit = strtod(given, &end);
        if (end == given || *end != '\0' || errno != 0 || !(limit >= 0.1 && limit <= 3600)) {
            snprintf(why, whylen, "did not run (%s='%.40s': want seconds, 0.1 to 3600)",
                     CT_HELPER_TIMEOUT_ENV, given);
            return NULL;
        }
    }
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char out[4000], errf[4096], err[512];
    if ((size_t)snprintf(out, sizeof out, "%s/colltune-helper.XXXXXX", dir) >= sizeof out) {
        snprintf(why, whylen, "did not run (TMPDIR is too long)");
        return NULL;
    }
    int fd = mkstemp(out);
    if (fd < 0) {
        snprintf(why, whylen, "did not run (cannot create a file in %s: %s)", dir, strerror(errno));
        return NULL;
    }
    close(fd);
    snprintf(errf, sizeof errf, "%s.err", out);
    ct_trial_spec_t spec = {.argv = argv,
                            .stdout_path = out,
                            .stderr_path = errf,
                            .timeout_s = limit,
                            .grace_s = 1,
                            .max_output = CT_HELPER_MAX_OUTPUT,
                            .hard_cap = 1};
    ct_trial_result_t res;
    char *text = NULL;
    size_t len = 0;
    ct_status_t st = ct_trial_run(&spec, &res, err, sizeof err);
    if (st != CT_OK) {
        /* err is "cannot run 'PROG': why" */
        const char *colon = strstr(err, "': ");
        snprintf(why, whylen, "did not run (cannot execute: %s)", colon ? colon + 3 : err);
    } else if (res.outcome != CT_TRIAL_OK) {
        char r[128];
        ct_trial_reason(&spec, &res, r, sizeof r);
        snprintf(why, whylen, "%s", r);
    } else if (ct_input_slurp(out, CT_HELPER_MAX_OUTPUT, 0, &text, &len, err, sizeof err) !=
               CT_OK) {
        snprintf(why, whylen, "ran but its output could not be read (%s)", err);
        text = NULL;
    } else if (memchr(text, '\0', len) != NULL) {
        /* A NUL would end the text early for every search in it. */
        const char *nul = memchr(text, '\0', len);
        int line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n';
        snprintf(why, whylen, "ran but printed no usable list (a NUL byte at line %d)", line);
        free(text);
        text = NULL;
    }
    unlink(out);
    unlink(errf);
    return text;
}
