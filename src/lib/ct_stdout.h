/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_stdout.h - the check at the end of main that standard output was
 * written, as git does: a full disk (/dev/full) or a closed pipe with
 * SIGPIPE ignored (EPIPE) is an error, not a silent success.
 */
#ifndef CT_STDOUT_H
#define CT_STDOUT_H

/* Flushes stdout and checks its error indicator (and, with close set,
 * fclose's result).  On a failure tells stderr "PROG: cannot write standard
 * output: why" and returns CT_EXIT_FAILURE when code is CT_EXIT_OK; a
 * non-zero code (the command failed and said why) is returned as it is. */
int ct_stdout_check(const char *prog, int code, int close);

#endif
