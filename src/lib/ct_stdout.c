/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_stdout.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "ct_status.h"

int ct_stdout_check(const char *prog, int code, int close)
{
    /* The errno of a write that failed before may be gone: EIO then. */
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno ? errno : EIO;
    if (close) {
        errno = 0;
        if (fclose(stdout) != 0 && !bad)
            bad = 1, e = errno ? errno : EIO;
    }
    /* A command that failed has said why; its stdout error is likely the
     * same one (collbench's table), so only a success is turned round. */
    if (!bad || code != CT_EXIT_OK)
        return code;
    fprintf(stderr, "%s: cannot write standard output: %s\n", prog, strerror(e));
    return CT_EXIT_FAILURE;
}
