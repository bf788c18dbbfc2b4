/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * launcher_scale.c - placing a launch at N nodes of K ranks each
 * (sweep --scales by nodes), in whichever way its launcher takes nodes:
 * its own flags (srun --nodes), or a hostfile of the first N hosts of the
 * user's --hostfile, written in the launcher's format.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ct_input.h"
#include "launcher.h"
#include "outdir.h"

long ct_launcher_hosts_read(const ct_launcher_t *l, const char *path, char (*hosts)[256], long max,
                            char *err, size_t errlen)
{
    FILE *f;
    char why[512];
    if (ct_input_open(path, CT_INPUT_MAX_CONFIG, &f, why, sizeof why) != CT_OK) {
        snprintf(err, errlen, "--hostfile %s", why);
        return -1;
    }
    char line[1024];
    long n = 0, lineno = 0;
    while (n < max && fgets(line, sizeof line, f) != NULL) {
        lineno++;
        char *p = line + strspn(line, " \t");
        size_t len = strcspn(p, l->kind->host_end);
        if (len == 0)
            continue;
        if (len >= sizeof hosts[0]) {
            snprintf(err, errlen, "%s:%ld: host name too long", path, lineno);
            fclose(f);
            return -1;
        }
        memcpy(hosts[n], p, len);
        hosts[n][len] = '\0';
        n++;
    }
    fclose(f);
    return n;
}

/* path: the first nodes hosts, per_node slots each, in l's format. */
static int ct_launcher_hostfile(const ct_launcher_t *l, const char *path, const char (*hosts)[256],
                                long nodes, long per_node, const char *cmd)
{
    ct_outfile_t out;
    FILE *f = ct_outdir_open(&out, path, cmd);
    if (f == NULL)
        return -1;
    fprintf(f, "# colltune sweep --scales: %ld host%s, %ld slot%s each\n", nodes,
            nodes == 1 ? "" : "s", per_node, per_node == 1 ? "" : "s");
    for (long i = 0; i < nodes; i++)
        l->kind->host_line(f, hosts[i], per_node);
    return ct_outdir_commit(&out, cmd);
}

ct_status_t ct_launcher_scale_nodes(ct_launcher_t *l, long nodes, long per_node,
                                    const char (*hosts)[256], const char *hostfile_path,
                                    const char *cmd)
{
    l->np = nodes * per_node;
    if (l->kind->scale_flags != NULL)
        return l->kind->scale_flags(nodes, per_node, &l->extra);
    if (l->kind->host_line == NULL ||
        ct_launcher_hostfile(l, hostfile_path, hosts, nodes, per_node, cmd) != 0)
        return CT_ERR_IO;
    l->hostfile = hostfile_path;
    return CT_OK;
}
