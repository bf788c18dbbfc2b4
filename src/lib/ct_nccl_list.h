/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_nccl_list.h - NCCL_ALGO and NCCL_PROTO values read as NCCL reads them.
 *
 * NCCL parses both variables with one function (parseList in
 * src/graph/tuning.cc; checked against NCCL v2.24.3-1, where the
 * per-function form arrived, and v2.28.9-1, which only fixed its leaks):
 *   - ';' separates entries; empty entries are skipped;
 *   - an entry is "func:elems" or, for the first entry only, "elems",
 *     which applies to every function; func is compared without case with
 *     ncclFuncStr (Broadcast, Reduce, AllGather, ReduceScatter, AllReduce);
 *   - ',' separates elements (ncclAlgoStr: Tree, Ring, CollNetDirect,
 *     CollNetChain, NVLS, NVLSTree, PAT; ncclProtoStr: LL, LL128, Simple),
 *     compared without case; empty elements are skipped;
 *   - a leading '^' enables every element except those listed;
 *   - each entry replaces the whole set of the functions it names, so the
 *     last entry naming a function decides it; a function no entry names
 *     keeps NCCL's default set.
 * An unknown function or element is a hard error in NCCL ("Unrecognized
 * element token"), so "allreduce:tree,broadcast:ring" (a comma between
 * collectives) fails every communicator.  NCCL before 2.24 (v2.23.4-1)
 * took only a comma list, '^' included, and skipped unknown tokens
 * silently.
 *
 * Also refused here, though NCCL takes them, because they cannot be what
 * was meant: a third ':' field (NCCL ignores it), a value with no entry,
 * and an entry that leaves its functions no element at all.
 *
 * Plain C, no MPI.
 */
#ifndef CT_NCCL_LIST_H
#define CT_NCCL_LIST_H

#include <stddef.h>

#include "ct_status.h"

typedef enum { CT_NCCL_LIST_ALGO, CT_NCCL_LIST_PROTO } ct_nccl_list_kind_t;

/* NCCL's collective functions the lists can name (ncclFunc_t 0..4). */
#define CT_NCCL_LIST_NFUNCS 5

/* What a value does to one function. */
typedef struct {
    int named;     /* an entry decides it; else NCCL's default set stays */
    unsigned mask; /* when named: bit e set = NCCL's element e enabled */
    /* When named: that entry's element list as written ("tree",
     * "^LL128", "LL,Simple"), pointing into the parsed value. */
    const char *elems;
    size_t elems_len;
} ct_nccl_list_func_t;

typedef struct {
    ct_nccl_list_func_t func[CT_NCCL_LIST_NFUNCS]; /* by ncclFunc_t */
} ct_nccl_list_t;

/*
 * Parses value as NCCL would for kind.  CT_OK fills *list_p (whose elems
 * point into value); otherwise CT_ERR_USAGE with the reason in err: NCCL's
 * own message where NCCL rejects the value, then a hint.
 */
ct_status_t ct_nccl_list_parse(ct_nccl_list_kind_t kind, const char *value, ct_nccl_list_t *list_p,
                               char *err, size_t errlen);

/* ct_nccl_list_parse, keeping only func's part (an ncclFunc_t). */
ct_status_t ct_nccl_list_project(ct_nccl_list_kind_t kind, const char *value, int func,
                                 ct_nccl_list_func_t *proj_p, char *err, size_t errlen);

/* Sets *kind_p for "NCCL_ALGO" / "NCCL_PROTO" and returns 0; -1 for any
 * other name. */
int ct_nccl_list_kind_of(const char *name, ct_nccl_list_kind_t *kind_p);

/* "NCCL_ALGO" or "NCCL_PROTO". */
const char *ct_nccl_list_var(ct_nccl_list_kind_t kind);

/* How many elements kind has (7 algorithms, 3 protocols). */
int ct_nccl_list_nelems(ct_nccl_list_kind_t kind);

/* NCCL's spelling of element id ("NVLSTree", "LL128"); "?" out of range. */
const char *ct_nccl_list_elem_name(ct_nccl_list_kind_t kind, int id);

/* NCCL's spelling of function func (ncclFuncStr: "AllReduce"); "?" out
 * of range. */
const char *ct_nccl_list_func_name(int func);

/* The one element mask holds, or -1 when it holds none or several. */
int ct_nccl_list_only(unsigned mask);

/* How many elements mask holds. */
int ct_nccl_list_count(unsigned mask);

#endif
