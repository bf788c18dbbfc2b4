/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_fingerprint.h - what a process ran with, beyond its settings: the
 * environment variables that steer MPI, UCX, NCCL and the loader, every
 * shared object it has loaded (path, build id, version), the kernel, the
 * CPU and its frequency governor, and MPI_T's selection variables.
 *
 * Two nightly runs whose numbers differ are compared by it (the JSON's
 * "fingerprint", doc/formats.md): a preloaded library, a rebuilt libmpi, a
 * new kernel or a changed variable each change the fingerprint and its
 * digest, and nothing that changes on every launch (job ids, ranks, ports,
 * session directories) is in it, so an unchanged machine gives the same
 * digest run after run.
 *
 * Plain C, no MPI: the MPI_T part is filled in by collbench (fingerprint.c),
 * which only hands name/value text to ct_fingerprint_add_mpi_t.  The
 * canonical text (ct_fingerprint_text) is both what the digest hashes and
 * how a host's fingerprint travels to rank 0 (ct_fingerprint_parse).
 */
#ifndef CT_FINGERPRINT_H
#define CT_FINGERPRINT_H

#include <stddef.h>
#include "ct_status.h"

/* A NAME=VALUE pair; both owned. */
typedef struct {
    char *name;
    char *value;
} ct_fp_var_t;

/* One loaded shared object (or the program itself). */
typedef struct {
    char *name;     /* the file's base name as loaded: "libmpi.so.40" */
    char *path;     /* realpath, or the name as loaded when it has none */
    char *build_id; /* NT_GNU_BUILD_ID as lower-case hex; NULL: none */
    char *version;  /* "40.30.4" from the realpath's "*.so.40.30.4"; NULL: none */
} ct_fp_lib_t;

typedef struct {
    ct_fp_var_t *env; /* kept variables (ct_fingerprint_env_keep) */
    size_t nenv, env_cap;
    ct_fp_lib_t *libs;
    size_t nlibs, libs_cap;
    char *kernel;    /* uname: release, a space, version */
    char *machine;   /* uname: machine */
    char *cpu_model; /* /proc/cpuinfo "model name"; NULL: none */
    long cpus_online;
    char *governor; /* cpu0's scaling_governor; NULL: no cpufreq */
    ct_fp_var_t *mpi_t;
    size_t nmpi_t, mpi_t_cap;
} ct_fingerprint_t;

/* Appends NAME=VALUE (copied) to the list *v of *n in room for *cap. */
ct_status_t ct_fingerprint_var_push(ct_fp_var_t **v, size_t *n, size_t *cap, const char *name,
                                    const char *value);
/* The entry of v named name, or NULL. */
const ct_fp_var_t *ct_fingerprint_var_find(const ct_fp_var_t *v, size_t n, const char *name);

/* The digest: 16 lower-case hex digits and the terminator. */
#define CT_FINGERPRINT_DIGEST_LEN 17

/* Everything but MPI_T, for this process: ct_fingerprint_env from envp,
 * ct_fingerprint_libs and ct_fingerprint_host with root "/".  *fp starts
 * empty (zeroed); free it with ct_fingerprint_free even on failure. */
ct_status_t ct_fingerprint_collect(char *const *envp, ct_fingerprint_t *fp);
void ct_fingerprint_free(ct_fingerprint_t *fp);

/* ct_fingerprint_env.c: whether variable name is recorded: LD_PRELOAD,
 * LD_LIBRARY_PATH, LD_BIND_NOW and the prefixes of one table (OMPI_,
 * UCX_, NCCL_, SLURM_, ...), less the volatile table (what changes on
 * every launch or differs between ranks and hosts for no reason: job ids,
 * ranks, URIs, ports, session directories, host names). */
int ct_fingerprint_env_keep(const char *name);
/* Adds every kept variable of envp (NULL-terminated "NAME=value"). */
ct_status_t ct_fingerprint_env(char *const *envp, ct_fingerprint_t *fp);

/* ct_fingerprint_libs.c: every object dl_iterate_phdr lists, the vdso
 * left out and the program recorded under its own base name.  Build ids
 * are read from the loaded images' PT_NOTE segments (no file is read). */
ct_status_t ct_fingerprint_libs(ct_fingerprint_t *fp);
/* "40.30.4" for ".../libmpi.so.40.30.4"; NULL when the base name has no
 * ".so." followed by digits and dots.  malloc'd. */
char *ct_fingerprint_lib_version(const char *path);

/* ct_fingerprint_host.c: uname, then ROOT/proc/cpuinfo's first "model
 * name", ROOT/sys/devices/system/cpu/online (sysconf when unreadable) and
 * ROOT/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor.  root "/" in
 * collbench; a test passes a directory of its own. */
ct_status_t ct_fingerprint_host(const char *root, ct_fingerprint_t *fp);

/* ct_fingerprint_mpit.c: whether an MPI_T control variable belongs in the
 * fingerprint: one table of patterns for those that select collective
 * algorithms and transports (Open MPI's "pml", "coll_tuned_*_algorithm",
 * "coll_*_priority", ...; MPICH's "MPIR_CVAR_*_ALGORITHM", ...). */
int ct_fingerprint_mpi_t_wanted(const char *name);
/* Adds an MPI_T variable's value in force, as text. */
ct_status_t ct_fingerprint_add_mpi_t(ct_fingerprint_t *fp, const char *name, const char *value);

/* ct_fingerprint_text.c: the canonical text, one line per item, each list
 * sorted by name (fp's lists are sorted in place), every field escaped
 * (see the file); *text_p is malloc'd. */
ct_status_t ct_fingerprint_text(ct_fingerprint_t *fp, char **text_p);
/* FNV-1a (ct_hash.h) of text, as 16 hex digits. */
void ct_fingerprint_digest(const char *text, char digest[CT_FINGERPRINT_DIGEST_LEN]);
/* The fingerprint text describes, into an empty *fp (free it either
 * way); CT_ERR_PARSE when text is not such a text. */
ct_status_t ct_fingerprint_parse(const char *text, ct_fingerprint_t *fp);

#endif
