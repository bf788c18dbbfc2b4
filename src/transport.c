/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * transport.c - which pml and which UCX configuration a run used
 * (transport.h).
 */
#include "transport.h"
#include "ct_library.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends the component NAME of a mapped ".../mca_KIND_NAME.so" to list
 * (comma-separated, each once). */
static void ct_transport_add(char *list, size_t len, const char *name)
{
    size_t n = strlen(name), used = strlen(list);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t k = end ? (size_t)(end - p) : strlen(p);
        if (k == n && strncmp(p, name, n) == 0)
            return;
        p += k + (end != NULL);
    }
    if (used + n + 2 <= len)
        snprintf(list + used, len - used, "%s%s", used ? "," : "", name);
}

/* The component name in a maps line's path, for kind ("pml", "btl"). */
static int ct_transport_component(const char *line, const char *kind, char *name, size_t len)
{
    char prefix[16];
    snprintf(prefix, sizeof prefix, "/mca_%s_", kind);
    const char *p = strstr(line, prefix);
    if (p == NULL)
        return 0;
    p += strlen(prefix);
    const char *so = strstr(p, ".so");
    if (so == NULL || (size_t)(so - p) >= len || so == p)
        return 0;
    memcpy(name, p, (size_t)(so - p));
    name[so - p] = '\0';
    return 1;
}

static void ct_transport_maps(ct_transport_t *t, const char *path)
{
    FILE *f = fopen(path ? path : "/proc/self/maps", "r");
    if (f == NULL)
        return;
    char line[4096], name[64];
    while (fgets(line, sizeof line, f) != NULL) {
        if (ct_transport_component(line, "pml", name, sizeof name))
            ct_transport_add(t->pml, sizeof t->pml, name);
        else if (ct_transport_component(line, "btl", name, sizeof name))
            ct_transport_add(t->btl, sizeof t->btl, name);
    }
    fclose(f);
}

/* UCX's context configuration as ucp_config_print writes it: one
 * UCX_NAME=value line each (comments and blank lines skipped). */
static void ct_transport_ucx(ct_transport_t *t)
{
    void *h = dlopen("libucp.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (h == NULL)
        return;
    const char *(*version)(void) = (const char *(*)(void))dlsym(h, "ucp_get_version_string");
    int (*cfg_read)(const char *, const char *, void **) =
        (int (*)(const char *, const char *, void **))dlsym(h, "ucp_config_read");
    void (*cfg_print)(const void *, FILE *, const char *, int) =
        (void (*)(const void *, FILE *, const char *, int))dlsym(h, "ucp_config_print");
    void (*cfg_release)(void *) = (void (*)(void *))dlsym(h, "ucp_config_release");
    t->ucx_version = version ? version() : NULL;
    void *cfg = NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = NULL;
    /* UCS_CONFIG_PRINT_CONFIG is 1 (ucs/config/types.h); UCS_OK is 0. */
    if (cfg_read && cfg_print && cfg_release && cfg_read(NULL, NULL, &cfg) == 0) {
        mem = open_memstream(&text, &len);
        if (mem != NULL) {
            cfg_print(cfg, mem, NULL, 1);
            fclose(mem);
        }
        cfg_release(cfg);
    }
    for (char *line = text, *next; line != NULL && *line; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        if (ct_library_env_is(CT_LIB_UCX, line) && strchr(line, '=') != NULL &&
            t->nucx < CT_TRANSPORT_UCX_MAX)
            snprintf(t->ucx[t->nucx++], sizeof t->ucx[0], "%s", line);
    }
    free(text);
    /* The handle stays referenced by MPI's own load; this drops ours. */
    dlclose(h);
}

void ct_transport_read(ct_transport_t *t, const char *maps_path)
{
    memset(t, 0, sizeof *t);
    ct_transport_maps(t, maps_path);
    ct_transport_ucx(t);
}
