#include "coll.h"

#include <strings.h>

static const ct_coll_desc_t *const ct_coll_table[CT_COLL_COUNT] = {
    &ct_coll_allreduce, &ct_coll_allgather, &ct_coll_alltoall,
    &ct_coll_broadcast, &ct_coll_reduce_scatter,
};

const ct_coll_desc_t *ct_coll_by_index(int index)
{
    return (index >= 0 && index < CT_COLL_COUNT) ? ct_coll_table[index] : NULL;
}

const ct_coll_desc_t *ct_coll_find(const char *name)
{
    for (int i = 0; i < CT_COLL_COUNT; i++)
        if (strcasecmp(name, ct_coll_table[i]->name) == 0 ||
            strcasecmp(name, ct_coll_table[i]->alias) == 0)
            return ct_coll_table[i];
    return NULL;
}

size_t ct_coll_granularity(const ct_coll_desc_t *coll, size_t typesize, int nranks)
{
    return coll->splits_by_ranks ? typesize * (size_t)nranks : typesize;
}
