/* SPDX-License-Identifier: BSD-3-Clause */
#include "commands.h"

#include <string.h>

/* One line per subcommand. */
static const ct_command_t *const ct_command_table[] = {
    &ct_command_sweep,
    &ct_command_tune,
    &ct_command_import,
    &ct_command_plot,
    &ct_command_regress,
    &ct_command_health,
    &ct_command_sbatch,
    &ct_command_install,
    &ct_command_verify_install,
    &ct_command_merge,
    NULL,
};

const ct_command_t *const *ct_commands(void) { return ct_command_table; }

const ct_command_t *ct_command_find(const char *name)
{
    for (size_t i = 0; ct_command_table[i] != NULL; i++)
        if (strcmp(ct_command_table[i]->name, name) == 0)
            return ct_command_table[i];
    return NULL;
}
