/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * colltune - runs collbench through a launcher and, in later subcommands,
 * tunes, plots and tracks it.  Plain C: it never links MPI; collbench is a
 * separate program started once per trial.
 *
 *   colltune [--help | --version] COMMAND [OPTIONS] [-- COLLBENCH-ARGS]
 *
 * Exit codes: 0 ok, 2 bad input, 3 failure, 130 interrupted; a subcommand
 * that runs collbench passes on collbench's own (1 wrong, 77, 124).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "ct_stdout.h"
#include "config.h"
#include "ct_status.h"

static void colltune_usage(FILE *f)
{
    fprintf(f, "usage: colltune COMMAND [OPTIONS] [-- COLLBENCH-ARGS]\n"
               "       colltune COMMAND --help\n\n"
               "commands:\n");
    const ct_command_t *const *cmds = ct_commands();
    for (size_t i = 0; cmds[i] != NULL; i++)
        fprintf(f, "  %-14s %s\n", cmds[i]->name, cmds[i]->summary);
    fprintf(f, "\nexit codes: 0 ok, 1 wrong results, 2 bad input, 3 failure,\n"
               "77 backend unavailable, 124 timeout, 130 interrupted\n");
}

static int colltune_main(int argc, char **argv)
{
    if (argc < 2) {
        colltune_usage(stderr);
        return CT_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        colltune_usage(stdout);
        return CT_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("colltune %s\n", PACKAGE_VERSION);
        return CT_EXIT_OK;
    }
    /* "colltune help sweep" reads like "colltune sweep --help". */
    if (strcmp(name, "help") == 0) {
        if (argc < 3) {
            colltune_usage(stdout);
            return CT_EXIT_OK;
        }
        const ct_command_t *cmd = ct_command_find(argv[2]);
        if (cmd == NULL) {
            fprintf(stderr, "colltune: unknown command '%s' (colltune --help lists them)\n",
                    argv[2]);
            return CT_EXIT_USAGE;
        }
        cmd->usage(stdout);
        return CT_EXIT_OK;
    }
    const ct_command_t *cmd = ct_command_find(name);
    if (cmd == NULL) {
        fprintf(stderr, "colltune: unknown command '%s' (colltune --help lists them)\n", name);
        return CT_EXIT_USAGE;
    }
    return cmd->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    /* SIGPIPE keeps its default (a closed pipe ends colltune, as it ends
     * git); where it is ignored, the EPIPE is caught here. */
    return ct_stdout_check("colltune", colltune_main(argc, argv), 1);
}
