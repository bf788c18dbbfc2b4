/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * command.h - a colltune subcommand, as a table entry.
 *
 * A subcommand is one folder under tuner/ whose main file defines one
 * ct_command_t; tuner/commands.c lists them, and main() (colltune.c) knows
 * none of them by name.
 */
#ifndef CT_COMMAND_H
#define CT_COMMAND_H

#include <stdio.h>

typedef struct {
    const char *name;
    const char *summary; /* one line, for `colltune --help` */
    /* argv[0] is the subcommand's name; returns colltune's exit code. */
    int (*run)(int argc, char **argv);
    /* The subcommand's --help: synopsis and every option. */
    void (*usage)(FILE *f);
} ct_command_t;

#endif
