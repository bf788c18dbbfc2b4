/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sbatch.h - the batch script `colltune sbatch` writes: a sweep, a tune or
 * the nightly recipe, run inside a Slurm allocation with srun launching
 * the ranks.
 *
 * The script is meant to be read and edited: commented #SBATCH lines (an
 * option that is off is "##SBATCH"), then one command.  Every user value
 * is written single-quoted (a ' as '\''), so nothing in it expands when
 * sh reads the script; values that go on #SBATCH lines, which sbatch
 * parses itself, are checked for characters it would split or mangle.
 */
#ifndef CT_SBATCH_H
#define CT_SBATCH_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
    CT_SBATCH_SWEEP,
    CT_SBATCH_TUNE,
    CT_SBATCH_NIGHTLY,
} ct_sbatch_mode_t;

typedef struct {
    ct_sbatch_mode_t mode;
    const char *name;    /* the script's file name, for its first line */
    const char *command; /* how it was written, for its header (one line) */
    long nodes, ntasks_per_node;
    const char *time, *partition, *job_name, *output; /* partition may be NULL */
    int exclusive;
    const char *colltune; /* the colltune the job runs */
    const char *nightly;  /* nightly: contrib/nightly.sh */
    char **args;          /* sweep/tune: colltune's arguments; nightly: NAME=VALUE */
    size_t nargs;
    int has_launcher; /* args name their own --launcher */
} ct_sbatch_job_t;

const char *ct_sbatch_mode_name(ct_sbatch_mode_t mode);

/* Writes s to f single-quoted for sh: 'it'\''s'. */
void ct_sbatch_quote(FILE *f, const char *s);

/* Writes s as one sh word: as it is when it holds only letters, digits
 * and _./=:,+@%- (readable), single-quoted otherwise. */
void ct_sbatch_word(FILE *f, const char *s);

/* Writes the whole script. */
void ct_sbatch_write(FILE *f, const ct_sbatch_job_t *job);

#endif
