/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_ucx_names.c - the space's UCX_* names against `ucx_info -c`
 * (tune_ucx_names.h).
 */
#include "tune_ucx_names.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_input.h"
#include "ct_library.h"
#include "trial.h"

/* Whether name is a "NAME=" line of the ucx_info output in text. */
static int ct_ucx_listed(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; p != NULL && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, name, n) == 0 && p[n] == '=')
            return 1;
    return 0;
}

/* The first UCX_* name of the space (variables, their requires=, fixed
 * settings) that text does not list, and its line; NULL when none. */
static const char *ct_ucx_unknown(const ct_space_t *space, const char *text, int *line)
{
    for (size_t i = 0; i < space->nvars; i++) {
        const ct_space_var_t *v = &space->vars[i];
        *line = v->line;
        if (ct_library_env_is(CT_LIB_UCX, v->name) && !ct_ucx_listed(text, v->name))
            return v->name;
        for (size_t k = 0; k < v->nrequires; k++)
            if (ct_library_env_is(CT_LIB_UCX, v->requires[k].name) &&
                !ct_ucx_listed(text, v->requires[k].name))
        return v->requires[k].name;
    }
    return NULL;
}

/* Whether the space names any UCX_* variable: against an empty listing
 * every UCX_* name is unknown. */
static int ct_ucx_named(const ct_space_t *space)
{
    int line;
    return ct_ucx_unknown(space, "", &line) != NULL;
}

/* ucx_info answers at once and prints a few hundred lines: a limit on
 * both keeps a broken or hostile one from stalling the tune or filling
 * $TMPDIR (its output goes there). */
#define CT_UCX_INFO_TIMEOUT_S 10.0
#define CT_UCX_INFO_MAX_OUTPUT (16LL << 20)

/* ucx_info -c's output, read whole (malloc'ed), or NULL with why (what
 * follows "ucx_info -c ...") in why. */
static char *ct_ucx_info(const char *ucx_info, char *why, size_t whylen)
{
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char out[4000], errf[4096], err[512];
    if ((size_t)snprintf(out, sizeof out, "%s/colltune-ucx-info.XXXXXX", dir) >= sizeof out) {
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
    char *argv[] = {(char *)ucx_info, "-c", NULL};
    ct_trial_spec_t spec = {.argv = argv,
                            .stdout_path = out,
                            .stderr_path = errf,
                            .timeout_s = CT_UCX_INFO_TIMEOUT_S,
                            .grace_s = 1,
                            .max_output = CT_UCX_INFO_MAX_OUTPUT,
                            .hard_cap = 1};
    ct_trial_result_t res;
    char *text = NULL;
    size_t len = 0;
    ct_status_t st = ct_trial_run(&spec, &res, err, sizeof err);
    if (st != CT_OK) {
        /* err is "cannot run 'ucx_info': why" */
        const char *colon = strstr(err, "': ");
        snprintf(why, whylen, "did not run (cannot execute: %s)", colon ? colon + 3 : err);
    } else if (res.outcome != CT_TRIAL_OK) {
        char r[128];
        ct_trial_reason(&spec, &res, r, sizeof r);
        snprintf(why, whylen, "%s", r);
    } else if (ct_input_slurp(out, CT_UCX_INFO_MAX_OUTPUT, 0, &text, &len, err, sizeof err) !=
               CT_OK) {
        snprintf(why, whylen, "ran but its output could not be read (%s)", err);
        text = NULL;
    } else if (memchr(text, '\0', len) != NULL) {
        /* A NUL would end the text early for the search below. */
        const char *nul = memchr(text, '\0', len);
        int line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n';
        snprintf(why, whylen, "ran but printed no usable list (a NUL byte at line %d)", line);
        free(text);
        text = NULL;
    } else if (strstr(text, "UCX_TLS=") == NULL) {
        snprintf(why, whylen, "ran but printed no usable list (no UCX_TLS= line)");
        free(text);
        text = NULL;
    }
    unlink(out);
    unlink(errf);
    return text;
}

ct_status_t ct_tune_check_ucx_names(const ct_space_t *space, const char *ucx_info, char *err,
                                    size_t errlen)
{
    if (!ct_ucx_named(space))
        return CT_OK;
    char why[640];
    char *text = ct_ucx_info(ucx_info, why, sizeof why);
    if (text == NULL) {
        fprintf(stderr,
                "colltune tune: note: %s -c %s, so the space's UCX_* names are not checked "
                "against the installed UCX (Debian: ucx-utils)\n",
                ucx_info, why);
        return CT_OK;
    }
    int line = 0;
    const char *bad = ct_ucx_unknown(space, text, &line);
    free(text);
    if (bad == NULL)
        return CT_OK;
    snprintf(err, errlen,
             "%s:%d: %s: not a variable of the installed UCX (%s -c does not list it); UCX "
             "would warn and ignore it",
             space->path, line, bad, ucx_info);
    return CT_ERR_USAGE;
}
