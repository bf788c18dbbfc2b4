/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_ucx_names.c - the space's UCX_* names against `ucx_info -c`
 * (tune_ucx_names.h).
 */
#include "helper_run.h"
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

/* ucx_info -c's output (malloc'ed), or NULL with why (what follows
 * "ucx_info -c ...") in why. */
static char *ct_ucx_info(const char *ucx_info, char *why, size_t whylen)
{
    char *argv[] = {(char *)ucx_info, "-c", NULL};
    char *text = ct_helper_run(argv, why, whylen);
    if (text != NULL && strstr(text, "UCX_TLS=") == NULL) {
        snprintf(why, whylen, "ran but printed no usable list (no UCX_TLS= line)");
        free(text);
        text = NULL;
    }
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
