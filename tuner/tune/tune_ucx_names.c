/*
 * tune_ucx_names.c - the space's UCX_* names against `ucx_info -c`
 * (tune_ucx_names.h).
 */
#include "tune_ucx_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_input.h"
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
        if (strncmp(v->name, "UCX_", 4) == 0 && !ct_ucx_listed(text, v->name))
            return v->name;
        for (size_t k = 0; k < v->nrequires; k++)
            if (strncmp(v->requires[k].name, "UCX_", 4) == 0 &&
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

/* ucx_info -c's output, read whole (malloc'ed), or NULL with a note. */
static char *ct_ucx_info(const char *ucx_info)
{
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char out[4000], errf[4096], err[256];
    if ((size_t)snprintf(out, sizeof out, "%s/colltune-ucx-info.XXXXXX", dir) >= sizeof out)
        return NULL;
    int fd = mkstemp(out);
    if (fd < 0)
        return NULL;
    close(fd);
    snprintf(errf, sizeof errf, "%s.err", out);
    char *argv[] = {(char *)ucx_info, "-c", NULL};
    ct_trial_spec_t spec = {argv, NULL, out, errf, 60, 2};
    ct_trial_result_t res;
    char *text = NULL;
    size_t len;
    if (ct_trial_run(&spec, &res, err, sizeof err) == CT_OK && res.outcome == CT_TRIAL_OK &&
        ct_input_slurp(out, 1 << 24, 1, &text, &len, err, sizeof err) != CT_OK)
        text = NULL;
    unlink(out);
    unlink(errf);
    return text;
}

ct_status_t ct_tune_check_ucx_names(const ct_space_t *space, const char *ucx_info, char *err,
                                    size_t errlen)
{
    if (!ct_ucx_named(space))
        return CT_OK;
    char *text = ct_ucx_info(ucx_info);
    if (text == NULL || strstr(text, "UCX_TLS=") == NULL) {
        fprintf(stderr,
                "colltune tune: note: %s -c did not run, so the space's UCX_* names are not "
                "checked against the installed UCX (Debian: ucx-utils)\n",
                ucx_info);
        free(text);
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
