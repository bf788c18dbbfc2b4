/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

ct_status_t ct_vec_reserve(void *vp, size_t *cap_p, size_t need, size_t elem)
{
    size_t cap = *cap_p;
    if (need <= cap)
        return CT_OK;
    if (elem == 0)
        return CT_ERR_NOMEM;
    size_t grown = cap ? cap : CT_VEC_FIRST;
    while (grown < need) {
        if (grown > SIZE_MAX / 2)
            return CT_ERR_NOMEM;
        grown *= 2;
    }
    if (grown > SIZE_MAX / elem)
        return CT_ERR_NOMEM;
    /* vp is a T **; memcpy reads and writes the pointer without claiming
     * that a T * is a void * (they need not share a representation). */
    void *old;
    memcpy(&old, vp, sizeof old);
    void *v = realloc(old, grown * elem);
    if (v == NULL)
        return CT_ERR_NOMEM;
    memcpy(vp, &v, sizeof v);
    *cap_p = grown;
    return CT_OK;
}

ct_status_t ct_vec_push(void *vp, size_t *n_p, size_t *cap_p, size_t elem, const void *item)
{
    if (*n_p == SIZE_MAX)
        return CT_ERR_NOMEM;
    ct_status_t st = ct_vec_reserve(vp, cap_p, *n_p + 1, elem);
    if (st != CT_OK)
        return st;
    char *v;
    memcpy(&v, vp, sizeof v);
    memcpy(v + *n_p * elem, item, elem);
    (*n_p)++;
    return CT_OK;
}

void ct_vec_sort(void *base, size_t n, size_t elem, int (*cmp)(const void *, const void *))
{
    if (n > 1 && base != NULL)
        qsort(base, n, elem, cmp);
}

int ct_vec_cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}
