/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * install.h - colltune install and verify-install: a tune's verified
 * files copied out of its results directory, and a check that a launch
 * with the installed files has their values in force.
 */
#ifndef CT_INSTALL_H
#define CT_INSTALL_H

#include <jansson.h>
#include <stddef.h>
#include "ct_status.h"

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
 * setting of its mca-params.conf or mpich.env (every one, however many)
 * is set only by a dropped choice.  Each file through ct_input_slurp (a
 * FIFO or an oversized file refused).  CT_EXIT_OK, or CT_EXIT_USAGE after
 * "colltune WHO: ..." on stderr.  On CT_EXIT_OK, report_p (when not NULL)
 * gets the report it read, the caller's to json_decref: merge reads its
 * shape from it rather than reading the file again. */
int ct_install_check_report(const char *who, const char *tune, json_t **report_p);

/* How a file writes its settings. */
typedef enum {
    CT_SETTINGS_MCA, /* NAME = VALUE lines (mca-params.conf), '#' comments */
    CT_SETTINGS_SH   /* sh assignments, sourced with set -a (mpich.env) */
} ct_settings_syntax_t;

/* A file's settings, in file order (each malloc'd). */
typedef struct {
    char **name, **value;
    long *line; /* its line number, for messages */
    size_t n, cap;
} ct_install_settings_t;

/* Reads every setting of the file at path (ct_input_slurp: a regular file
 * of at most CT_INPUT_MAX_CONFIG bytes, no NUL), a line at a time however
 * long, comments and blank lines skipped.  CT_SETTINGS_MCA: each line
 * with an '=' (name and value trimmed).  CT_SETTINGS_SH: `export
 * NAME=VALUE` or `NAME=VALUE` (both exported under set -a), the value
 * unquoted as sh would ('...', "...", backslash); a value sh would expand
 * ($, `, a glob, ~) or split, a bad name, or any other line (sh would run
 * it) is refused.  CT_OK; CT_ERR_USAGE with err "PATH: why" or
 * "PATH:LINE: why"; CT_ERR_NOMEM.  *s is empty on failure. */
ct_status_t ct_install_read_settings(const char *path, ct_settings_syntax_t syntax,
                                     ct_install_settings_t *s, char *err, size_t errlen);
void ct_install_settings_free(ct_install_settings_t *s);

#endif
