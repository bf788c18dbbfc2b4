/*
 * commands.h - colltune's subcommands, as a table.
 *
 * A subcommand is one file that defines one ct_command_t and one line in
 * the table in commands.c; main() (colltune.c) knows none of them by name.
 */
#ifndef CT_COMMANDS_H
#define CT_COMMANDS_H

#include <stdio.h>

typedef struct {
    const char *name;
    const char *summary; /* one line, for `colltune --help` */
    /* argv[0] is the subcommand's name; returns colltune's exit code. */
    int (*run)(int argc, char **argv);
    /* The subcommand's --help: synopsis and every option. */
    void (*usage)(FILE *f);
} ct_command_t;

extern const ct_command_t ct_command_sweep;
extern const ct_command_t ct_command_tune;
extern const ct_command_t ct_command_import;
extern const ct_command_t ct_command_plot;
extern const ct_command_t ct_command_regress;
extern const ct_command_t ct_command_health;
extern const ct_command_t ct_command_sbatch;

/* The table, NULL-terminated, in the order --help lists it. */
const ct_command_t *const *ct_commands(void);

/* The subcommand called name, or NULL. */
const ct_command_t *ct_command_find(const char *name);

#endif
