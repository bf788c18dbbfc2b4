/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_busbw.h"

double ct_coll_busbw_factor(ct_coll_id_t id, int nranks)
{
    if (nranks < 1 || (int)id < 0 || id >= CT_COLL_COUNT)
        return 0.0;
    double n = nranks;
    switch (ct_coll_names_at((size_t)id)->busbw) {
    /* Each rank sends and receives 2(n-1)/n of the buffer (ring). */
    case CT_BUSBW_REDUCE: return 2.0 * (n - 1) / n;
    /* (n-1)/n of the whole buffer crosses each rank's link. */
    case CT_BUSBW_SPLIT: return (n - 1) / n;
    /* The whole buffer, once. */
    case CT_BUSBW_WHOLE: return 1.0;
    case CT_BUSBW_NONE: break;
    }
    return 0.0;
}
