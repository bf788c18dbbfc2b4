/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * install.h - colltune install and verify-install: a tune's verified
 * files copied out of its results directory, and a check that a launch
 * with the installed files has their values in force.
 */
#ifndef CT_INSTALL_H
#define CT_INSTALL_H

#include <stddef.h>

/* One file a tune may emit (tuner/emit/emit_*.c) and the variable that
 * points its library at it: NULL where another file names it
 * (coll-tuned-rules.*: mca-params.conf) or a person sources it
 * (nccl.env). */
typedef struct {
    const char *name;
    const char *var;
    int names_dir; /* var names the directory (UCX_CONFIG_DIR), not the file */
} ct_install_file_t;

/* The files install copies, in install order, NULL-name terminated. */
const ct_install_file_t *ct_install_files(void);

/* The parameter naming the coll/tuned rules file inside mca-params.conf. */
#define CT_INSTALL_RULES_PARAM "coll_tuned_dynamic_rules_filename"

/* Whether tune (a tune's directory) holds verified files, as install
 * demands: its report.json says the A/B ran and wrote a choice, and no
 * line of its mca-params.conf is set only by a dropped choice.
 * CT_EXIT_OK, or CT_EXIT_USAGE after "colltune WHO: ..." on stderr. */
int ct_install_check_report(const char *who, const char *tune);

/* Reads the settings of a file at path into names/values (strdup'ed):
 * with lead NULL each NAME = VALUE line (mca-params.conf), else each line
 * that begins with lead ("export ": mpich.env, as sh would source it; the
 * emitter writes values unquoted); comments and blank lines skipped.
 * Returns how many, max + 1 when there are more than max (max read), or
 * -1 when the file cannot be read (errno set). */
long ct_install_read_settings(const char *path, const char *lead, char **names, char **values,
                              size_t max);
void ct_install_free_mca(char **names, char **values, long n);

#endif
