/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * space_find.h - `tune --space NAME`: a search space by its name, in the
 * spaces installed with colltune (PREFIX/share/colltune/spaces) or, for a
 * colltune run from its build tree, the source tree's tuner/spaces/; and
 * `tune --list-spaces`.
 */
#ifndef CT_SPACE_FIND_H
#define CT_SPACE_FIND_H

#include <stddef.h>
#include <stdio.h>
#include "ct_status.h"

/* The file --space arg names, into buf: arg itself when a file of that
 * name exists or arg holds a '/'; else the space NAME (arg, ".ini" or
 * not) in the first spaces directory that has NAME.ini.  CT_ERR_USAGE with
 * err naming where it looked when none does. */
ct_status_t ct_space_locate(const char *arg, char *buf, size_t len, char *err, size_t errlen);

/* The spaces directory colltune uses (the first that exists), into buf:
 * 0, or -1 when there is none. */
int ct_space_dir(char *buf, size_t len);

/* Prints each space of the spaces directory to f: its name, its number of
 * variables, what it tunes (describe) and its path.  A file that does not
 * load is listed with the reason.  CT_OK, or CT_ERR_IO when there is no
 * spaces directory (err says where colltune looked). */
ct_status_t ct_space_list_installed(FILE *f, char *err, size_t errlen);

#endif
