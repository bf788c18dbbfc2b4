/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cvars.h - the values in force of MPI_T control variables, read back from
 * the MPI library itself.
 *
 * The environment says what a run asked for; a parameter file, the
 * launcher's --mca or a site's file can override it, and a name can be
 * misspelt.  What MPI_T reads back after MPI_Init is what the library
 * uses, so a results file that records it says which settings really ran
 * (collbench --cvars; the JSON's "cvars").  MPI-free interface; cvars_mpi.c
 * implements it.
 */
#ifndef CT_CVARS_H
#define CT_CVARS_H

#include <stddef.h>
#include "ct_status.h"

#define CT_CVARS_MAX 64

typedef enum { CT_CVAR_INT, CT_CVAR_REAL, CT_CVAR_BOOL, CT_CVAR_STRING } ct_cvar_kind_t;

typedef struct {
    char name[96];
    char value[1024]; /* in force, as text: decimal, "true"/"false", or the string */
    ct_cvar_kind_t kind;
    const char *scope; /* MPI_T's: "constant", "readonly", "local", "group",
                           "group_eq", "all", "all_eq"; NULL for an
                           environment variable (configs_env.c) */
    int unset;         /* an environment variable that is not set (value "") */
} ct_cvar_t;

typedef struct {
    ct_cvar_t v[CT_CVARS_MAX];
    size_t n;
} ct_cvars_t;

/* Keeps an MPI_T session open until ct_cvars_release (call that before
 * MPI_Finalize, which crashes in Open MPI 4.1 with a session open): the
 * calls below then cost microseconds, not the half second Open MPI 4.1
 * spends when its last MPI_T session closes.  MPI allows it before
 * MPI_Init too, where it is nearly free: Open MPI 4.1's first MPI_T
 * session opens every component to register its variables (0.2 s after
 * MPI_Init), and MPI_Init then finds them open (collbench.c). */
ct_status_t ct_cvars_hold(char *err, size_t errlen);
void ct_cvars_release(void);

/* Reads, on this process, each variable of list (names, comma-separated).
 * CT_ERR_USAGE, naming the variable, when the library has no such one.
 * Not collective; call it after ct_world_init. */
ct_status_t ct_cvars_read(const char *list, ct_cvars_t *out, char *err, size_t errlen);

/* Reads, on this process, every control variable whose name keep()
 * accepts and that is bound to no object, handing each to each(c, arg) in
 * MPI_T's index order; one MPI_T cannot read is skipped.  Cheap while a
 * session is held (ct_cvars_hold).  Not collective. */
ct_status_t ct_cvars_each(int (*keep)(const char *name),
                          void (*each)(const ct_cvar_t *c, void *arg), void *arg, char *err,
                          size_t errlen);

/* --config NAME=VALUE, checked on this process: the library has name, of
 * an integer type, in a scope that allows writing at run time (not
 * constant or readonly), and value written reads back.  The value in
 * force before (with its scope) goes to *startup and is written back.
 * CT_ERR_USAGE with a message naming "--config NAME=VALUE" otherwise.
 * Not collective; call it after ct_world_init. */
ct_status_t ct_cvars_probe(const char *name, const char *value, ct_cvar_t *startup, char *err,
                           size_t errlen);

/* Writes value (decimal text) to the integer variable name, on this
 * process.  CT_ERR_BACKEND, with a message, when MPI_T refuses. */
ct_status_t ct_cvars_write(const char *name, const char *value, char *err, size_t errlen);

#endif
