/* SPDX-License-Identifier: BSD-3-Clause */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ct_num.h"

void ct_cli_print_options(FILE *f, const ct_cli_opt_t *opts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", opts[i].name, opts[i].arg ? " " : "",
                 opts[i].arg ? opts[i].arg : "");
        fprintf(f, "  %-26s %s\n", left, opts[i].help);
    }
}

int ct_cli_operand(ct_cli_iter_t *it, const char **slot, const char *what)
{
    while (it->next < it->argc && it->argv[it->next][0] != '-') {
        if (*slot != NULL) {
            fprintf(stderr, "colltune %s: one %s only (%s and %s)\n", it->cmd, what, *slot,
                    it->argv[it->next]);
            return -1;
        }
        *slot = it->argv[it->next++];
    }
    return 0;
}

int ct_cli_next(ct_cli_iter_t *it, const ct_cli_opt_t *opts, size_t n, const char **value)
{
    *value = NULL;
    if (it->next >= it->argc)
        return CT_CLI_END;
    const char *arg = it->argv[it->next];
    if (strcmp(arg, "--") == 0) {
        it->next++;
        return CT_CLI_END;
    }
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        it->next++;
        return CT_CLI_HELP;
    }
    if (strncmp(arg, "--", 2) != 0) {
        fprintf(stderr,
                "colltune %s: unexpected argument '%s' (collbench's arguments go after --)\n",
                it->cmd, arg);
        return CT_CLI_ERROR;
    }
    const char *name = arg + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    for (size_t i = 0; i < n; i++) {
        if (strlen(opts[i].name) != len || strncmp(opts[i].name, name, len) != 0)
            continue;
        it->next++;
        if (opts[i].arg == NULL) {
            if (eq != NULL) {
                fprintf(stderr, "colltune %s: --%s takes no value\n", it->cmd, opts[i].name);
                return CT_CLI_ERROR;
            }
        } else if (eq != NULL) {
            *value = eq + 1;
        } else if (it->next < it->argc) {
            /* Taken as it is, even when it starts with "-": a launcher
             * argument like --oversubscribe is a value here. */
            *value = it->argv[it->next++];
        } else {
            fprintf(stderr, "colltune %s: --%s needs a value (%s)\n", it->cmd, opts[i].name,
                    opts[i].arg);
            return CT_CLI_ERROR;
        }
        if (*value != NULL && **value == '\0') {
            /* An empty path went on to a launch that mpirun ended with
             * signal 6 (--collbench '', --launcher-arg ''), or to a search
             * of PATH (--gnuplot '') (issue 15, E23). */
            fprintf(stderr, "colltune %s: --%s: an empty value (want %s)\n", it->cmd, opts[i].name,
                    opts[i].arg);
            return CT_CLI_ERROR;
        }
        unsigned long long bit = i < 64 ? 1ull << i : 0;
        if (opts[i].arg != NULL && (it->seen & bit) &&
            strstr(opts[i].help, "(repeatable)") == NULL) {
            fprintf(stderr, "colltune %s: --%s given twice (the second: '%s'): give it once\n",
                    it->cmd, opts[i].name, *value);
            return CT_CLI_ERROR;
        }
        it->seen |= bit;
        return opts[i].id;
    }
    fprintf(stderr, "colltune %s: unknown option '%.*s' (colltune %s --help lists them)\n", it->cmd,
            (int)(len + 2), arg, it->cmd);
    return CT_CLI_ERROR;
}

ct_status_t ct_cli_long(const char *cmd, const char *flag, const char *value, long min, long max,
                        long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(value, &end, 10);
    /* strtol also skips white space and takes '+': " 2" is no count */
    if (!(isdigit((unsigned char)*value) || (*value == '-' && isdigit((unsigned char)value[1]))) ||
        *end != '\0' || errno != 0 || v < min || v > max) {
        fprintf(stderr, "colltune %s: --%s '%s': want a whole number from %ld to %ld\n", cmd, flag,
                value, min, max);
        return CT_ERR_USAGE;
    }
    *out = v;
    return CT_OK;
}

ct_status_t ct_cli_seconds(const char *cmd, const char *flag, const char *value, double min,
                           double *out)
{
    double v = 0;
    /* "0x10" was 16 s to strtod (issue 15, E24) */
    if (ct_num_parse(value, &v) != CT_OK || v < min) {
        fprintf(stderr, "colltune %s: --%s '%s': want seconds, at least %g\n", cmd, flag, value,
                min);
        return CT_ERR_USAGE;
    }
    *out = v;
    return CT_OK;
}

int ct_cli_finish(int id, void (*usage)(FILE *))
{
    if (id == CT_CLI_HELP) {
        usage(stdout);
        return -1;
    }
    return id == CT_CLI_ERROR ? CT_EXIT_USAGE : CT_EXIT_OK;
}
