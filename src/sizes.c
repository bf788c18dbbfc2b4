/* SPDX-License-Identifier: BSD-3-Clause */
#include "sizes.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_size.h"
#include "ct_vec.h"

static ct_status_t ct_sweep_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return CT_ERR_USAGE;
}

ct_status_t ct_sweep_sizes(const ct_options_t *o, size_t **sizes_p, size_t *n_p, char *err,
                           size_t errlen)
{
    size_t cap = 0, n = 0;
    size_t *sizes = NULL;

    /* Room from the start: an empty sweep still hands back an array. */
    if (ct_vec_reserve(&sizes, &cap, o->nsizes > 0 ? (size_t)o->nsizes : 1, sizeof *sizes) != CT_OK)
        return CT_ERR_NOMEM;
    if (o->nsizes > 0) {
        /* --sizes: already ascending and distinct (options.c). */
        memcpy(sizes, o->sizes, (size_t)o->nsizes * sizeof *sizes);
        *sizes_p = sizes;
        *n_p = (size_t)o->nsizes;
        return CT_OK;
    }
    for (size_t s = o->min_bytes; s <= o->max_bytes;) {
        if (n == CT_SWEEP_MAX_SIZES) {
            free(sizes);
            return ct_sweep_fail(err, errlen,
                                 "-b/-e/-i: the sweep has more than %d sizes; raise -i or use -f",
                                 CT_SWEEP_MAX_SIZES);
        }
        if (CT_VEC_PUSH(sizes, n, cap, &s) != CT_OK) {
            free(sizes);
            return CT_ERR_NOMEM;
        }
        size_t next;
        if (o->step_factor > 1) {
            if (s > SIZE_MAX / o->step_factor)
                break;
            next = s * o->step_factor;
        } else {
            if (o->step_bytes == 0 || s > SIZE_MAX - o->step_bytes)
                break;
            next = s + o->step_bytes;
        }
        s = next;
    }
    *sizes_p = sizes;
    *n_p = n;
    return CT_OK;
}

/* A valid size whose count argument is above the backend's limit. */
static ct_status_t ct_sweep_check_count(size_t bytes, const ct_sweep_target_t *t, char *err,
                                        size_t errlen)
{
    ct_coll_counts_t c;
    if (t->max_count == 0)
        return CT_OK;
    t->coll->counts(bytes, ct_dtype_size(t->dtype), t->nranks, &c);
    if (c.param_count <= t->max_count)
        return CT_OK;
    return ct_sweep_fail(err, errlen,
                         "%s %s at %zu bytes on %d ranks: a count of %zu elements per call is "
                         "above the backend's limit of %zu (%s); lower -e or use a wider -d",
                         t->coll->name, ct_dtype_name(t->dtype), bytes, t->nranks, c.param_count,
                         t->max_count, t->max_count_why ? t->max_count_why : "");
}

ct_status_t ct_sweep_filter(const size_t *sizes, size_t n, const ct_sweep_target_t *t,
                            size_t *valid, size_t *nvalid_p, ct_sweep_notes_t *notes_p, char *err,
                            size_t errlen)
{
    size_t typesize = ct_dtype_size(t->dtype);
    size_t gran = ct_coll_granularity(t->coll, typesize, t->nranks);
    size_t nvalid = 0;
    ct_sweep_notes_t notes = {0, 0, 0, 0, 0};

    for (size_t i = 0; i < n; i++) {
        size_t size = sizes[i] / gran * gran;
        if (size == 0) {
            notes.skipped++;
            continue;
        }
        if (size != sizes[i]) {
            if (notes.rounded++ == 0) {
                notes.example_from = sizes[i];
                notes.example_to = size;
            }
        }
        /* sizes[] ascends, so a size rounded onto another is its neighbour. */
        if (nvalid > 0 && valid[nvalid - 1] == size) {
            notes.dropped++;
            continue;
        }
        if (ct_sweep_check_count(size, t, err, errlen) != CT_OK)
            return CT_ERR_USAGE;
        valid[nvalid++] = size;
    }
    if (nvalid == 0)
        return ct_sweep_fail(err, errlen,
                             "%s on %d ranks: every size is below %zu bytes, one %s per rank; "
                             "raise -e (or the sizes of --sizes)",
                             t->coll->name, t->nranks, gran, ct_dtype_name(t->dtype));
    *nvalid_p = nvalid;
    *notes_p = notes;
    return CT_OK;
}

void ct_sweep_note_rounded(char *note, size_t notelen, const ct_sweep_target_t *t,
                           const ct_sweep_notes_t *notes)
{
    char item[160], key[64];
    size_t used = strlen(note);

    if (notes->rounded == 0 || notelen == 0)
        return;
    /* Rounding does not depend on the op: name each collective and type once. */
    snprintf(key, sizeof key, "%s %s (", t->coll->name, ct_dtype_name(t->dtype));
    if (strstr(note, key) != NULL || strstr(note, "...") != NULL)
        return;
    int len = snprintf(item, sizeof item, "%s%s%zu size%s, e.g. %zu -> %zu B)", used ? ", " : "",
                       key, notes->rounded, notes->rounded == 1 ? "" : "s", notes->example_from,
                       notes->example_to);
    /* Keep room for ", ..." so that a long list says it is cut. */
    if (len > 0 && used + (size_t)len + 6 <= notelen)
        memcpy(note + used, item, (size_t)len + 1);
    else if (used + 6 <= notelen)
        memcpy(note + used, ", ...", 6);
}

void ct_sweep_buffer_bytes(const ct_coll_desc_t *coll, size_t bytes, ct_dtype_t dtype, int nranks,
                           size_t *send_bytes_p, size_t *recv_bytes_p)
{
    ct_coll_counts_t c;
    size_t typesize = ct_dtype_size(dtype);
    coll->counts(bytes, typesize, nranks, &c);
    *send_bytes_p = c.send_count * typesize;
    *recv_bytes_p = (c.recv_count > c.send_count ? c.recv_count : c.send_count) * typesize;
}

size_t ct_sweep_rank_bytes(const ct_coll_desc_t *coll, size_t max_bytes, ct_dtype_t dtype,
                           int nranks, int staged)
{
    size_t send, recv;
    if (max_bytes > SIZE_MAX / 8)
        return SIZE_MAX; /* more than any host has; saturate, don't wrap */
    ct_sweep_buffer_bytes(coll, max_bytes, dtype, nranks, &send, &recv);
    /* Staged backends keep a host copy of each buffer for init and check. */
    return staged ? 2 * (send + recv) : send + recv;
}

ct_status_t ct_sweep_check_memory(size_t need, int local_ranks, size_t avail, char *err,
                                  size_t errlen)
{
    if (local_ranks < 1)
        local_ranks = 1;
    if (need <= avail / (size_t)local_ranks)
        return CT_OK;
    char need_s[32], avail_s[32];
    ct_size_format(need, need_s, sizeof need_s);
    ct_size_format(avail, avail_s, sizeof avail_s);
    return ct_sweep_fail(err, errlen,
                         "-e: the largest size needs %s per rank, %d ranks on this host, but only "
                         "%s of memory is available; lower -e",
                         need_s, local_ranks, avail_s);
}

ct_status_t ct_sweep_host_memory(size_t *avail_p)
{
    FILE *fp = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kib = 0;
    int found = 0;

    if (fp == NULL)
        return CT_ERR_IO;
    while (!found && fgets(line, sizeof line, fp))
        found = sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    fclose(fp);
    if (!found)
        return CT_ERR_IO;
    *avail_p = (size_t)(kib * 1024ull);
    return CT_OK;
}
