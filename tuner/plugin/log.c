/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * log.c - formatting for NCCL's logger (see log.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "log.h"

#include <stdarg.h>
#include <stdio.h>

/* Long enough for a path, a line number and a quoted overlong field; a
 * longer message is cut, which is fine for a log line. */
#define CT_PLUGIN_LOG_MAX 2048

void ct_plugin_log(ncclDebugLogger_t logger, ncclDebugLogLevel level, const char *file, int line,
                   const char *fmt, ...)
{
    char msg[CT_PLUGIN_LOG_MAX];
    va_list ap;

    if (logger == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    logger(level, NCCL_TUNING, file, line, "%s%s", CT_PLUGIN_LOG_PREFIX, msg);
}
