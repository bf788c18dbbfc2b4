/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_fingerprint_libs.c - every shared object this process has loaded,
 * with its GNU build id and the version its file name carries.
 *
 * A slow driver stand-in preloaded, a rebuilt libmpi or another NCCL shows
 * here even when no variable changed.  The build id is read from the
 * loaded image's PT_NOTE segments (mapped with the object's first PT_LOAD),
 * so nothing is read from disk but the realpath's links.  The vdso has no
 * file and is left out; the program itself is listed under its own base
 * name (realpath of /proc/self/exe), so a rebuilt collbench shows too.
 */
#define _GNU_SOURCE
#include "ct_fingerprint.h"

#include <ctype.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "ct_vec.h"

/* NT_GNU_BUILD_ID descriptors are 20 bytes (SHA-1) in practice. */
#define CT_FP_BUILD_ID_MAX 64

/* What the loader lists, copied while its lock is held. */
typedef struct {
    char *loaded; /* dlpi_name; "" for the program */
    char build_id[2 * CT_FP_BUILD_ID_MAX + 1];
} ct_fp_seen_t;

typedef struct {
    ct_fp_seen_t *v;
    size_t n, cap;
    uintptr_t vdso;
    int bad;
} ct_fp_scan_t;

/* Whether [addr, addr + len) lies inside one of info's PT_LOAD segments,
 * that is, is mapped. */
static int ct_fp_mapped(const struct dl_phdr_info *info, uintptr_t addr, size_t len)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && addr >= start && len <= ph->p_memsz &&
            addr - start <= ph->p_memsz - len)
            return 1;
    }
    return 0;
}

static size_t ct_fp_align(size_t n, size_t align) { return (n + align - 1) & ~(align - 1); }

/* The NT_GNU_BUILD_ID note of one PT_NOTE segment, as hex into hex. */
static int ct_fp_note_build_id(const unsigned char *p, size_t size, size_t align, char *hex)
{
    size_t off = 0;
    while (size - off >= sizeof(ElfW(Nhdr))) {
        ElfW(Nhdr) nh;
        memcpy(&nh, p + off, sizeof nh);
        size_t name_off = off + sizeof nh;
        size_t name_len = ct_fp_align(nh.n_namesz, align);
        size_t desc_len = ct_fp_align(nh.n_descsz, align);
        if (name_len > size - name_off || desc_len > size - name_off - name_len)
            return 0;
        const unsigned char *desc = p + name_off + name_len;
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
            memcmp(p + name_off, "GNU", 4) == 0 && nh.n_descsz > 0 &&
            nh.n_descsz <= CT_FP_BUILD_ID_MAX) {
            for (size_t i = 0; i < nh.n_descsz; i++)
                snprintf(hex + 2 * i, 3, "%02x", desc[i]);
            return 1;
        }
        off = name_off + name_len + desc_len;
    }
    return 0;
}

static void ct_fp_build_id(const struct dl_phdr_info *info, char *hex)
{
    hex[0] = '\0';
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t at = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type != PT_NOTE || !ct_fp_mapped(info, at, ph->p_memsz))
            continue;
        /* 8-aligned note segments (GNU properties) pad to 8, others to 4. */
        if (ct_fp_note_build_id((const unsigned char *)at, ph->p_memsz, ph->p_align == 8 ? 8 : 4,
                                hex))
            return;
    }
}

/* Whether info is the vdso: its ELF header is where the kernel said. */
static int ct_fp_is_vdso(const struct dl_phdr_info *info, uintptr_t vdso)
{
    for (int i = 0; vdso && i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD && info->dlpi_phdr[i].p_offset == 0)
            return info->dlpi_addr + info->dlpi_phdr[i].p_vaddr == vdso;
    return 0;
}

static int ct_fp_scan_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    ct_fp_scan_t *scan = arg;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    (void)size;
    /* Only the first entry is the program; a nameless other has no file. */
    if (ct_fp_is_vdso(info, scan->vdso) || (name[0] == '\0' && scan->n > 0))
        return 0;
    ct_fp_seen_t seen = {strdup(name), ""};
    if (seen.loaded == NULL || CT_VEC_PUSH(scan->v, scan->n, scan->cap, &seen) != CT_OK) {
        free(seen.loaded);
        scan->bad = 1;
        return 1;
    }
    ct_fp_build_id(info, scan->v[scan->n - 1].build_id);
    return 0;
}

char *ct_fingerprint_lib_version(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *so = strstr(base, ".so.");
    if (so == NULL)
        return NULL;
    const char *v = so + 4;
    if (!isdigit((unsigned char)v[0]) || v[strspn(v, "0123456789.")] != '\0')
        return NULL;
    return strdup(v);
}

static const char *ct_fp_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* One library entry from what the loader listed. */
static ct_status_t ct_fp_lib_make(const ct_fp_seen_t *seen, ct_fp_lib_t *lib)
{
    char real[PATH_MAX];
    const char *file = seen->loaded[0] ? seen->loaded : "/proc/self/exe";
    int resolved = realpath(file, real) != NULL;

    memset(lib, 0, sizeof *lib);
    lib->path = strdup(resolved ? real : file);
    /* The program is named by its file, a library by the name it was
     * loaded under (the soname link: libmpi.so.40). */
    lib->name = strdup(ct_fp_base(seen->loaded[0] ? seen->loaded : lib->path ? lib->path : ""));
    lib->build_id = seen->build_id[0] ? strdup(seen->build_id) : NULL;
    lib->version = resolved ? ct_fingerprint_lib_version(real) : NULL;
    if (lib->path == NULL || lib->name == NULL || (seen->build_id[0] && lib->build_id == NULL))
        return CT_ERR_NOMEM;
    return CT_OK;
}

static int ct_fp_lib_cmp(const void *a, const void *b)
{
    const ct_fp_lib_t *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->path, y->path);
}

/* Two objects of one base name (rare: a copy preloaded from elsewhere)
 * keep distinct keys: the second is "NAME#2", in path order. */
static ct_status_t ct_fp_lib_rename(ct_fp_lib_t *libs, size_t n)
{
    /* libs[j] starts the run of equal names and keeps its name. */
    for (size_t i = 1, j = 0; i < n; i++) {
        if (strcmp(libs[i].name, libs[j].name) != 0) {
            j = i;
            continue;
        }
        size_t len = strlen(libs[i].name) + 24;
        char *name = malloc(len);
        if (name == NULL)
            return CT_ERR_NOMEM;
        snprintf(name, len, "%s#%zu", libs[i].name, i - j + 1);
        free(libs[i].name);
        libs[i].name = name;
    }
    return CT_OK;
}

ct_status_t ct_fingerprint_libs(ct_fingerprint_t *fp)
{
    ct_fp_scan_t scan = {NULL, 0, 0, (uintptr_t)getauxval(AT_SYSINFO_EHDR), 0};
    ct_status_t st = CT_OK;
    size_t first = fp->nlibs;

    dl_iterate_phdr(ct_fp_scan_one, &scan);
    if (scan.bad)
        st = CT_ERR_NOMEM;
    for (size_t i = 0; i < scan.n && st == CT_OK; i++) {
        ct_fp_lib_t lib;
        st = ct_fp_lib_make(&scan.v[i], &lib);
        if (st == CT_OK)
            st = CT_VEC_PUSH(fp->libs, fp->nlibs, fp->libs_cap, &lib);
        if (st != CT_OK) {
            free(lib.name);
            free(lib.path);
            free(lib.build_id);
            free(lib.version);
        }
    }
    for (size_t i = 0; i < scan.n; i++)
        free(scan.v[i].loaded);
    free(scan.v);
    if (st == CT_OK) {
        ct_vec_sort(fp->libs + first, fp->nlibs - first, sizeof *fp->libs, ct_fp_lib_cmp);
        st = ct_fp_lib_rename(fp->libs + first, fp->nlibs - first);
    }
    return st;
}
