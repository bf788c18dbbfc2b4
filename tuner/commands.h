/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * commands.h - colltune's subcommands, as a table.
 *
 * A subcommand is one file that defines one ct_command_t and one line in
 * the table in commands.c; main() (colltune.c) knows none of them by name.
 */
#ifndef CT_COMMANDS_H
#define CT_COMMANDS_H

#include "command.h"

extern const ct_command_t ct_command_sweep;
extern const ct_command_t ct_command_tune;
extern const ct_command_t ct_command_import;
extern const ct_command_t ct_command_plot;
extern const ct_command_t ct_command_regress;
extern const ct_command_t ct_command_health;
extern const ct_command_t ct_command_sbatch;
extern const ct_command_t ct_command_install;
extern const ct_command_t ct_command_verify_install;
extern const ct_command_t ct_command_merge;

/* The table, NULL-terminated, in the order --help lists it. */
const ct_command_t *const *ct_commands(void);

/* The subcommand called name, or NULL. */
const ct_command_t *ct_command_find(const char *name);

#endif
