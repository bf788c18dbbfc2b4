/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * verify_install.h - what verify_install.c (the command: DIR's files, the
 * file read back) and verify_install_launch.c (the launch and the
 * comparison) share.  Internal to tuner/install.
 */
#ifndef CT_VERIFY_INSTALL_H
#define CT_VERIFY_INSTALL_H

#include "ct_library.h"
#include "launch_opts.h"

typedef struct {
    const char *dir;
    ct_launch_opts_t lo;
} ct_vinstall_args_t;

/* One value to read back: its name, the file's text, and the text MPI_T
 * reads for it. */
typedef struct {
    char *name, *value;
    char want[1024];
} ct_vinstall_val_t;

/* The launch with DIR's files applied as install says (each row's
 * variable for the files present; the checked file's lines in the
 * environment when a job sources it) and the comparison of the n values
 * vals of the checked row's file.  missing: something already found wrong
 * (the exit is then 1 whatever the launch reads).  A CT_EXIT_ code. */
int ct_vinstall_launch(ct_vinstall_args_t *a, const char *dir, const ct_library_file_t *checked,
                       ct_vinstall_val_t *vals, long n, int missing);

#endif
