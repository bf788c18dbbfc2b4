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
 * Each returns 1 when the file can carry NAME=VALUE, else 0 with why set
 * to the reason, worded to follow "the value of NAME ".
 */
#ifndef CT_FILE_VALUES_H
#define CT_FILE_VALUES_H

#include <stddef.h>

#include "setting.h"

/* nccl.conf: one NAME=value a line, no quoting, 1023 bytes at most. */
#define CT_NCCL_CONF_MAX 1023

/* Whether the row named file can carry a value, by its syntax's rule:
 * nccl.env and oneccl.env single-quote for sh (any C string); nccl.conf
 * no newline or CR, at most CT_NCCL_CONF_MAX bytes; ucx.conf no newline,
 * CR, ';' or '#' (comments in UCX's reader); mpich.env and mvapich.env
 * write it unquoted after export NAME=, so a non-empty word of letters,
 * digits and _ . , : / + - @ % (names, numbers, paths), nothing sh would
 * expand or split; mca-params.conf no newline or CR.  A file that is no
 * row, or whose writer checks its values itself, takes any value. */
int ct_emit_file_value_ok(const char *file, const char *value, char *why, size_t n);

/* Every row's file that may carry NAME=VALUE set through via, by its
 * syntax's rule; on 0, why begins with the file's name ("ucx.conf: ..."). */
int ct_emit_value_ok(const char *name, ct_via_t via, const char *value, char *why, size_t n);

#endif
