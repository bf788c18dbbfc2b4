/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_vec.h - the one growable array: room for one more element, made by
 * doubling, with the size arithmetic checked.
 *
 * colltune collects rows, runs and trials whose count it learns only by
 * reading; each of those arrays used to carry its own copy of the
 * "if full, double and realloc" block, and not every copy checked the
 * multiplication.  An array here is three plain variables the caller owns
 * (a T *, its count and its capacity), so a struct keeps its own field
 * names and no element type is hidden behind a void *.
 */
#ifndef CT_VEC_H
#define CT_VEC_H

#include <stddef.h>
#include "ct_status.h"

/* The capacity a first growth gives, in elements. */
#define CT_VEC_FIRST 16

/*
 * Makes *vp (the address of a T *, NULL or from malloc) hold at least
 * need elements of elem bytes: the capacity *cap_p doubles (from
 * CT_VEC_FIRST when 0) until it is enough.  On success *vp and *cap_p are
 * updated and the elements already there are kept.  CT_ERR_NOMEM when the
 * size in bytes would overflow size_t or realloc fails; *vp and *cap_p are
 * then unchanged (the caller still owns and frees the old array).
 */
ct_status_t ct_vec_reserve(void *vp, size_t *cap_p, size_t need, size_t elem);

/*
 * Appends the elem bytes at item to *vp, which holds *n_p elements in room
 * for *cap_p, growing it as ct_vec_reserve does; *n_p is incremented on
 * success.  CT_ERR_NOMEM leaves all three as they were.
 */
ct_status_t ct_vec_push(void *vp, size_t *n_p, size_t *cap_p, size_t elem, const void *item);

/*
 * CT_VEC_PUSH(v, n, cap, item): ct_vec_push for a T *v and a const T
 * *item, with the element size taken from v; the unevaluated assignment
 * makes the compiler refuse an item of another type.
 */
#define CT_VEC_PUSH(v, n, cap, item)                                                               \
    ((void)sizeof((v)[0] = *(item)), ct_vec_push(&(v), &(n), &(cap), sizeof *(v), (item)))

/*
 * The one sort: qsort, except that fewer than two elements are left alone.
 * An empty array is often NULL, and qsort(NULL, 0, ...) is undefined
 * behaviour (UBSan reports it; issue 15, E20), so nothing calls qsort
 * directly (tests/unit/sort_guard.sh).
 */
void ct_vec_sort(void *base, size_t n, size_t elem, int (*cmp)(const void *, const void *));

/* ct_vec_sort's comparison for long long, ascending. */
int ct_vec_cmp_ll(const void *a, const void *b);

#endif
