/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_ucx_names.h - a space's UCX_* names checked against the installed
 * UCX before any trial: UCX warns about an unknown variable and runs on,
 * so a misspelt name (or one of another UCX version, UCX_MAX_RNDV_LANES
 * where 1.13 has UCX_MAX_RNDV_RAILS) would be "tuned" without effect.
 */
#ifndef CT_TUNE_UCX_NAMES_H
#define CT_TUNE_UCX_NAMES_H

#include <stddef.h>

#include "ct_status.h"
#include "space.h"

/* CT_OK when the space names no UCX_* variable, when every one is in
 * `ucx_info -c` (argv[0] ucx_info: the UCX on PATH), or when ucx_info
 * cannot be run (a note on stderr: the check is skipped, not failed).
 * CT_ERR_USAGE with "path:line: NAME: ..." for the first unknown one. */
ct_status_t ct_tune_check_ucx_names(const ct_space_t *space, const char *ucx_info, char *err,
                                    size_t errlen);

#endif
