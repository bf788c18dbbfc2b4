/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_status.h - the one status type used across colltune.
 *
 * CT_OK is 0 and every error is negative.  Foreign codes (MPI, NCCL, CUDA,
 * errno) are converted where they enter, with the message logged there once.
 * ct_status_exit_code() maps a status to collbench's documented exit codes.
 */
#ifndef CT_STATUS_H
#define CT_STATUS_H

typedef enum {
    CT_OK = 0,
    CT_ERR_USAGE = -1,       /* bad flag or value from the user */
    CT_ERR_IO = -2,          /* a file could not be read or written */
    CT_ERR_NOMEM = -3,       /* allocation failed */
    CT_ERR_UNAVAILABLE = -4, /* backend cannot run on this machine */
    CT_ERR_BACKEND = -5,     /* a backend call failed while running */
    CT_ERR_PARSE = -6,       /* malformed input file */
    CT_ERR_WRONG = -7,       /* results failed validation */
    CT_ERR_REFUSED = -8,     /* the library refused the call under the settings
                                in force (NCCL_ALGO=tree for a broadcast) */
} ct_status_t;

/* Exit codes of collbench, documented in doc/collbench.md, "Exit codes". */
enum {
    CT_EXIT_OK = 0,
    CT_EXIT_WRONG = 1,
    CT_EXIT_USAGE = 2,
    CT_EXIT_FAILURE = 3,
    CT_EXIT_REFUSED = 4, /* some collective refused, the others measured */
    CT_EXIT_SKIP = 77,
    CT_EXIT_TIMEOUT = 124,
};

const char *ct_status_str(ct_status_t status);
int ct_status_exit_code(ct_status_t status);

#endif
