#include "ct_busbw.h"

double ct_coll_busbw_factor(ct_coll_id_t id, int nranks)
{
    if (nranks < 1)
        return 0.0;
    double n = nranks;
    switch (id) {
    /* Each rank sends and receives 2(n-1)/n of the buffer (ring). */
    case CT_COLL_ALLREDUCE: return 2.0 * (n - 1) / n;
    /* (n-1)/n of the whole buffer crosses each rank's link. */
    case CT_COLL_ALLGATHER:
    case CT_COLL_ALLTOALL:
    case CT_COLL_REDUCE_SCATTER: return (n - 1) / n;
    /* The whole buffer, once. */
    case CT_COLL_BROADCAST: return 1.0;
    case CT_COLL_COUNT: break;
    }
    return 0.0;
}
