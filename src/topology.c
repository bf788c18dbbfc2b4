/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "topology.h"

#include <hwloc.h>
#include <string.h>

const char *ct_topology_source(void) { return "hwloc " HWLOC_VERSION; }

static void ct_topology_set_from(hwloc_const_bitmap_t bm, ct_set_t *s)
{
    int i;
    ct_set_clear(s);
    hwloc_bitmap_foreach_begin(i, bm) ct_set_add(s, i);
    hwloc_bitmap_foreach_end();
}

ct_status_t ct_topology_rank(ct_topology_rank_t *out)
{
    hwloc_topology_t topo;
    ct_status_t st = CT_ERR_UNAVAILABLE;

    memset(out, 0, sizeof *out);
    if (hwloc_topology_init(&topo) != 0)
        return st;
    hwloc_bitmap_t cpus = hwloc_bitmap_alloc(), nodes = hwloc_bitmap_alloc();
    if (cpus && nodes && hwloc_topology_load(topo) == 0 &&
        hwloc_get_cpubind(topo, cpus, HWLOC_CPUBIND_PROCESS) == 0) {
        hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(topo);
        /* Only the PUs this machine has: a mask wider than the machine is
         * still "the whole machine". */
        hwloc_bitmap_and(cpus, cpus, all);
        hwloc_cpuset_to_nodeset(topo, cpus, nodes);
        ct_topology_set_from(cpus, &out->pus);
        ct_topology_set_from(nodes, &out->numa);
        out->cores = hwloc_get_nbobjs_inside_cpuset_by_type(topo, cpus, HWLOC_OBJ_CORE);
        /* A partial core still counts as one. */
        for (hwloc_obj_t c = NULL; (c = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_CORE, c));)
            if (hwloc_bitmap_intersects(c->cpuset, cpus) &&
                !hwloc_bitmap_isincluded(c->cpuset, cpus))
                out->cores++;
        out->bound = !hwloc_bitmap_isequal(cpus, all);
        out->host_numa_nodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
        out->host_cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        out->host_pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
        st = CT_OK;
    }
    hwloc_bitmap_free(cpus);
    hwloc_bitmap_free(nodes);
    hwloc_topology_destroy(topo);
    return st;
}

ct_status_t ct_topology_pci_numa(const char *bus_id, ct_set_t *numa)
{
    hwloc_topology_t topo;
    ct_status_t st = CT_ERR_UNAVAILABLE;

    ct_set_clear(numa);
    if (hwloc_topology_init(&topo) != 0)
        return st;
    /* PCI objects are left out of a default load; GPUs are "important". */
    hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (hwloc_topology_load(topo) == 0) {
        hwloc_obj_t dev = hwloc_get_pcidev_by_busidstring(topo, bus_id);
        hwloc_obj_t near = dev ? hwloc_get_non_io_ancestor_obj(topo, dev) : NULL;
        if (near && near->nodeset) {
            ct_topology_set_from(near->nodeset, numa);
            st = CT_OK;
        }
    }
    hwloc_topology_destroy(topo);
    return st;
}
