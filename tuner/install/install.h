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
#include <stdio.h>

#include "ct_library.h"
#include "ct_status.h"

/* The files install copies, verify-install checks and merge joins are
 * the library table's rows (ct_library.h: ct_library_file_at, in install
 * order), never a list here; a file named inside another (the rules file
 * in mca-params.conf) is its row's named_by. */

/* Whether tune (a tune's directory) holds verified files, as install
 * demands: its report.json says the A/B ran and wrote a choice, and no
 * setting of its files of settings named as the choices name them
 * (mca-params.conf, nccl.env, mpich.env, ...: every one, however many) is
 * set only by a dropped choice.  Each file through ct_input_slurp (a
 * FIFO or an oversized file refused).  CT_EXIT_OK, or CT_EXIT_USAGE after
 * "colltune WHO: ..." on stderr.  On CT_EXIT_OK, report_p (when not NULL)
 * gets the report it read, the caller's to json_decref: merge reads its
 * shape from it rather than reading the file again. */
int ct_install_check_report(const char *who, const char *tune, json_t **report_p);

/* A file's settings, in file order (each malloc'd). */
typedef struct {
    char **name, **value;
    long *line; /* its line number, for messages */
    size_t n, cap;
} ct_install_settings_t;

/* Whether a file of syntax is NAME=VALUE settings ct_install_read_settings
 * reads (sh's, Open MPI's, nccl.conf's, ucx.conf's). */
int ct_install_syntax_settings(ct_file_syntax_t syntax);

/* Reads every setting of the file at path (ct_input_slurp: a regular file
 * of at most CT_INPUT_MAX_CONFIG bytes, no NUL), a line at a time however
 * long, comments and blank lines skipped.  An MCA / nccl.conf / ucx.conf
 * syntax: each line with an '=' (name and value trimmed).  sh's
 * (ct_library_syntax_sh): `export NAME=VALUE` or `NAME=VALUE` (both
 * exported under set -a), the value unquoted as sh would ('...', "...",
 * backslash); a value sh would expand ($, `, a glob, ~) or split, a bad
 * name, or any other line (sh would run it) is refused.  CT_OK;
 * CT_ERR_USAGE with err "PATH: why" or "PATH:LINE: why" (or a syntax of
 * no settings); CT_ERR_NOMEM.  *s is empty on failure. */
ct_status_t ct_install_read_settings(const char *path, ct_file_syntax_t syntax,
                                     ct_install_settings_t *s, char *err, size_t errlen);
void ct_install_settings_free(ct_install_settings_t *s);

/* --- install_print.c: what install prints for a site --- */

/* Whether ch may stand unquoted in a path install writes or names. */
int ct_install_path_char(char ch);
/* s for a shell, single-quoted when it has anything but path characters. */
void ct_install_put_sh(FILE *f, const char *s);
/* Every row's name, ", "-separated, into buf; the length it needed. */
size_t ct_install_names(char *buf, size_t len);
/* text as a help paragraph: wrapped at spaces before column 72. */
void ct_install_wrap(FILE *f, const char *text);
/* The lines a site adds for the n installed rows (row order) in to: shell,
 * then an Environment Modules / Lmod file. */
void ct_install_print(const char *to, const ct_library_file_t *const *rows, size_t n);

#endif
