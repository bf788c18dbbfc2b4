/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_names.h - the names colltune speaks, once: collectives (as -C, the
 * CSV, the JSON and the tuner plugin's rules files spell them) and NCCL's
 * algorithms and protocols with their NCCL enum values.
 *
 * Each collective is one row (ct_coll_name_t) that also carries the other
 * libraries' facts about it: NCCL's function, nccl-tests' bus factor, and
 * Open MPI coll/tuned's id and variables.  For a new collective, colltune
 * needs only an id below and a row in ct_names.c; collbench also needs its
 * descriptor (src/coll) and each backend's call.  Help texts and "unknown
 * collective" lists are built from the rows.
 *
 * collbench (src/coll/coll_table.c), the NCCL tuner plugin
 * (tuner/plugin/names.c) and the tuner's emitters read these tables, so a
 * spelling accepted in one place is accepted everywhere.  Matching is
 * case-insensitive; nothing unknown is ever mapped to a default.  Plain C,
 * no MPI: the plugin links this file into a dlopen'd library.
 */
#ifndef CT_NAMES_H
#define CT_NAMES_H

#include <stddef.h>

/* The collectives collbench measures, in the order of "-C all".  Every
 * per-collective table is indexed by this id and sized CT_COLL_COUNT. */
typedef enum {
    CT_COLL_ALLREDUCE,
    CT_COLL_ALLGATHER,
    CT_COLL_ALLTOALL,
    CT_COLL_BROADCAST,
    CT_COLL_REDUCE_SCATTER,
    CT_COLL_COUNT
} ct_coll_id_t;

/* A collective collbench does not measure (NCCL's reduce). */
#define CT_COLL_NONE (-1)

/* NCCL's ncclFunc_t (nccl_common.h) for the collectives its tuner plugin
 * is asked about; alltoall is not one (NCCL runs it as send/recv). */
#define CT_NCCL_FUNC_NONE (-1)
#define CT_NCCL_FUNC_BROADCAST 0
#define CT_NCCL_FUNC_REDUCE 1
#define CT_NCCL_FUNC_ALLGATHER 2
#define CT_NCCL_FUNC_REDUCESCATTER 3
#define CT_NCCL_FUNC_ALLREDUCE 4

#define CT_COLL_NAME_ALIASES 3

/* nccl-tests' bus factors (doc/PERFORMANCE.md); ct_busbw.c turns one
 * into a number for a rank count. */
typedef enum {
    CT_BUSBW_NONE,   /* not measured: no factor */
    CT_BUSBW_REDUCE, /* 2(n-1)/n: a ring reduce-scatter then allgather */
    CT_BUSBW_SPLIT,  /* (n-1)/n: each rank's link carries all blocks but its own */
    CT_BUSBW_WHOLE   /* 1: the whole buffer, once */
} ct_busbw_kind_t;

/* Open MPI's COLLTYPE_T (ompi/mca/coll/base/coll_base_functions.h, 4.1)
 * for a collective coll/tuned cannot be steered for. */
#define CT_OMPI_COLL_NONE (-1)
/* COLLCOUNT: one past Open MPI's last collective id. */
#define CT_OMPI_COLL_COUNT 22

/* How Open MPI's coll/tuned names a collective: its rules-file id and its
 * MCA variables, coll_tuned_<stem>_algorithm and friends.  The variable
 * names are spelled out whole (from one stem, see ct_names.c) so that the
 * space checker and the emitters compare strings, not build them. */
typedef struct {
    int id;                /* COLLTYPE_T, or CT_OMPI_COLL_NONE */
    const char *stem;      /* "bcast"; NULL when id is CT_OMPI_COLL_NONE */
    const char *prefix;    /* "coll_tuned_bcast_": every variable of it */
    const char *alg;       /* "coll_tuned_bcast_algorithm" */
    const char *seg;       /* its segment size variable */
    const char *fanout;    /* its chain fan-out variable, or NULL */
    const char *json_name; /* its key in the JSON rules (Open MPI 6) */
    int alg_max;           /* its highest algorithm id in 4.1 (0: its own decision) */
    int two_proc_alg;      /* its two_proc algorithm (aborts beyond 2 ranks), or 0 */
} ct_ompi_tuned_t;

/* One row per collective: every fact colltune keeps about it that is not
 * how collbench runs it (src/coll holds that). */
typedef struct {
    const char *name; /* canonical: -C, CSV, JSON, log lines */
    /* Also accepted: nccl-tests' binary stem, NVIDIA's example plugin and
     * NCCL's ncclFunc* spellings; unused slots are NULL. */
    const char *aliases[CT_COLL_NAME_ALIASES];
    int id;        /* ct_coll_id_t, or CT_COLL_NONE */
    int nccl_func; /* ncclFunc_t, or CT_NCCL_FUNC_NONE */
    /* NCCL's own spelling (ncclFuncStr: "AllReduce"), which the
     * per-collective NCCL_ALGO / NCCL_PROTO form takes (without case);
     * NULL without nccl_func. */
    const char *nccl_name;
    ct_busbw_kind_t busbw; /* CT_BUSBW_NONE exactly when id is CT_COLL_NONE */
    ct_ompi_tuned_t tuned; /* what collbench's MPI call is in coll/tuned */
} ct_coll_name_t;

/* Every collective colltune can name, collbench's first in id order. */
size_t ct_coll_names_count(void);
const ct_coll_name_t *ct_coll_names_at(size_t index);

/* By canonical name or alias; NULL when unknown. */
const ct_coll_name_t *ct_coll_name_find(const char *word);
/* Canonical name of a collbench collective; NULL for an invalid id. */
const char *ct_coll_name(ct_coll_id_t id);
/* The collective NCCL calls func; NULL when colltune has no name for it. */
const ct_coll_name_t *ct_coll_name_of_nccl(int func);
/* The collbench collective whose coll/tuned variables start with
 * "coll_tuned_<stem>_" for the start of name; NULL for none. */
const ct_coll_name_t *ct_coll_name_of_tuned_var(const char *name);
/* The collbench collective with coll/tuned id ompi_id; NULL for none. */
const ct_coll_name_t *ct_coll_name_of_ompi(int ompi_id);
/* collbench's collectives' canonical names in id order, separated by sep,
 * into buf (always terminated; truncated to buflen), for help texts and
 * "unknown collective" messages. */
void ct_coll_name_list(const char *sep, char *buf, size_t buflen);

/* NCCL's algorithm and protocol ids (nccl_tuner.h: the cost table's rows
 * and columns). */
#define CT_NCCL_ALGO_TREE 0
#define CT_NCCL_ALGO_RING 1
#define CT_NCCL_ALGO_COLLNET_DIRECT 2
#define CT_NCCL_ALGO_COLLNET_CHAIN 3
#define CT_NCCL_ALGO_NVLS 4
#define CT_NCCL_ALGO_NVLS_TREE 5
#define CT_NCCL_ALGO_PAT 6
#define CT_NCCL_NUM_ALGORITHMS 7

#define CT_NCCL_PROTO_LL 0
#define CT_NCCL_PROTO_LL128 1
#define CT_NCCL_PROTO_SIMPLE 2
#define CT_NCCL_NUM_PROTOCOLS 3

/* A word and the value it stands for. */
typedef struct {
    const char *name;
    int value;
} ct_name_t;

/* One kind of word; the first entry with a value is its canonical
 * spelling, later ones are aliases. */
typedef struct {
    const char *kind; /* "algorithm", "protocol", for messages */
    const ct_name_t *names;
    size_t count;
} ct_name_table_t;

/* Canonical: NVIDIA's example tuner plugin's spelling ("nvls_tree"); the
 * aliases are NCCL_ALGO's ("NVLSTree", matched case-insensitively). */
extern const ct_name_table_t ct_nccl_algo_names;
extern const ct_name_table_t ct_nccl_proto_names;

/* Looks word up; sets *value_p and returns 0, or returns -1. */
int ct_name_lookup(const ct_name_table_t *table, const char *word, int *value_p);
/* The canonical spelling of value, or "?" when the table lacks it. */
const char *ct_name_of(const ct_name_table_t *table, int value);
/* The canonical spellings, comma separated, into buf (always terminated;
 * truncated to buflen) for "expected one of ..." messages. */
void ct_name_list(const ct_name_table_t *table, char *buf, size_t buflen);

#endif
