/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cli.h - a subcommand's options, declared once as data.
 *
 * The same table prints the subcommand's --help and drives its parser, so
 * the two cannot drift apart.  Options are long only: "--name VALUE" or
 * "--name=VALUE"; "--" ends them, and what follows belongs to collbench.
 * Every message names the subcommand and the flag.
 */
#ifndef CT_CLI_H
#define CT_CLI_H

#include <stddef.h>
#include <stdio.h>
#include "ct_status.h"

typedef struct {
    int id;           /* what ct_cli_next() returns for it (> 0) */
    const char *name; /* without the leading "--" */
    const char *arg;  /* metavariable, or NULL for a flag without a value */
    const char *help;
} ct_cli_opt_t;

typedef struct {
    const char *cmd; /* "sweep", for messages */
    int argc;
    char **argv; /* argv[0] is the subcommand */
    int next;    /* index of the next argument to look at */
    /* The options given so far, by their index in the table (64 at
     * most): a second --np 3 after --np 2 is refused, not taken. */
    unsigned long long seen;
} ct_cli_iter_t;

/* An iterator over argv for subcommand cmd. */
#define CT_CLI_ITER(cmd, argc, argv) ((ct_cli_iter_t){(cmd), (argc), (argv), 1, 0})

#define CT_CLI_END 0
#define CT_CLI_ERROR (-1)
#define CT_CLI_HELP (-2)

/* Prints one line per option, aligned. */
void ct_cli_print_options(FILE *f, const ct_cli_opt_t *opts, size_t n);

/* The next option's id, with *value set to its value (NULL for a flag).
 * CT_CLI_END at "--" (it->next then indexes the first argument after it)
 * or at the end; CT_CLI_HELP at "--help" or "-h"; CT_CLI_ERROR, with a
 * message on stderr, on an unknown option, a missing value, a value given
 * to a flag, an empty value (no option takes one: a path, a name or a
 * number), an option with a value given twice unless its help says
 * "(repeatable)" (issue 15, E24: the second one used to win unnoticed), or
 * an argument that is not an option. */
int ct_cli_next(ct_cli_iter_t *it, const ct_cli_opt_t *opts, size_t n, const char **value);

/* The arguments at it->next that are not options (they do not begin with
 * '-'): a subcommand's one operand (install's TUNE_DIR), into *slot.  0, or
 * -1 with a message naming both when a second one comes ("one WHAT only").
 * Call it before each ct_cli_next, so the operand may stand anywhere. */
int ct_cli_operand(ct_cli_iter_t *it, const char **slot, const char *what);

/*
 * What a subcommand's parser does once ct_cli_next has stopped at id:
 * CT_CLI_HELP prints usage on stdout and gives -1 (the caller exits 0
 * without running), CT_CLI_ERROR gives CT_EXIT_USAGE (its message is out
 * already), anything else CT_EXIT_OK (go on).  Every subcommand answers
 * --help and a bad option the same way because they all end here.
 */
int ct_cli_finish(int id, void (*usage)(FILE *));

/* Whole numbers (decimal digits, an optional '-') and seconds (a decimal
 * number: ct_num.h, no hexadecimal, inf or white space); flag is the
 * option's name without "--".  CT_ERR_USAGE with a message on stderr
 * naming the flag when value is not one, or outside [min, max]. */
ct_status_t ct_cli_long(const char *cmd, const char *flag, const char *value, long min, long max,
                        long *out);
ct_status_t ct_cli_seconds(const char *cmd, const char *flag, const char *value, double min,
                           double *out);

#endif
