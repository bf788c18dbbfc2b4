/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * log.h - messages through the logger NCCL hands to init().
 *
 * NCCL's logger is variadic, so a message cannot be forwarded with a
 * va_list; it is formatted here and passed as one "%s" argument.  Every
 * line is prefixed "TUNER/colltune: " and tagged NCCL_TUNING, so
 * NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING shows exactly this plugin's
 * lines.  A NULL logger (some harnesses pass none) silences the plugin.
 */
#ifndef CT_PLUGIN_LOG_H
#define CT_PLUGIN_LOG_H

#include "abi.h"

#define CT_PLUGIN_LOG_PREFIX "TUNER/colltune: "

#if defined(__GNUC__)
#define CT_PLUGIN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CT_PLUGIN_PRINTF(f, a)
#endif

void ct_plugin_log(ncclDebugLogger_t logger, ncclDebugLogLevel level, const char *file, int line,
                   const char *fmt, ...) CT_PLUGIN_PRINTF(5, 6);

#define CT_PLUGIN_WARN(logger, ...)                                                                \
    ct_plugin_log((logger), NCCL_LOG_WARN, __FILE__, __LINE__, __VA_ARGS__)
#define CT_PLUGIN_INFO(logger, ...)                                                                \
    ct_plugin_log((logger), NCCL_LOG_INFO, __FILE__, __LINE__, __VA_ARGS__)
#define CT_PLUGIN_TRACE(logger, ...)                                                               \
    ct_plugin_log((logger), NCCL_LOG_TRACE, __FILE__, __LINE__, __VA_ARGS__)

#endif
