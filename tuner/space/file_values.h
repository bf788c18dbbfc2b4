/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * file_values.h - what value each file colltune emits can carry: one rule
 * per syntax of the library table's rows (ct_library.h), used by its
 * emitter when it writes (tuner/emit) and by the space parser when it
 * reads a value (space.c), so a value that no file could hold is refused
 * with the space file's line, before any trial, rather than after the
 * whole search.  A new row of an existing syntax needs nothing here.
 *
 * Here, below both, because the space parser may not include tuner/emit
 * (tuner/local.mk's layers).  Which files carry a setting is its library
 * family's and the rows' (ct_library_family_carries).
 *
 * Each *_value_ok returns 1 when the file can carry NAME=VALUE, else 0
 * with why set to the reason, worded to follow "the value of NAME ".
 */
#ifndef CT_FILE_VALUES_H
#define CT_FILE_VALUES_H

#include <stddef.h>

#include "setting.h"

/* nccl.conf: one NAME=value a line, no quoting, 1023 bytes at most. */
#define CT_NCCL_CONF_MAX 1023

/* nccl.env: single-quoted for sh, so any C string. */
int ct_emit_nccl_env_value_ok(const char *name, const char *value, char *why, size_t n);
/* nccl.conf: no newline or CR, at most CT_NCCL_CONF_MAX bytes. */
int ct_emit_nccl_conf_value_ok(const char *name, const char *value, char *why, size_t n);
/* ucx.conf: no newline or CR, no ';' or '#' (comments in UCX's reader). */
int ct_emit_ucx_conf_value_ok(const char *name, const char *value, char *why, size_t n);
/* mpich.env: written unquoted after export NAME=, so a non-empty word of
 * letters, digits and _ . , : / + - @ % (what MPICH's CVAR values are:
 * names, numbers, paths), nothing sh would expand or split. */
int ct_emit_mpich_env_value_ok(const char *name, const char *value, char *why, size_t n);
/* mca-params.conf: no newline or CR. */
int ct_emit_mca_params_value_ok(const char *name, const char *value, char *why, size_t n);

/* Every row's file that may carry NAME=VALUE set through via, by its
 * syntax's rule; on 0, why begins with the file's name ("ucx.conf: ..."). */
int ct_emit_value_ok(const char *name, ct_via_t via, const char *value, char *why, size_t n);

#endif
