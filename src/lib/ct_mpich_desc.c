/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_mpich_desc.c - the names MPICH 4.0's algorithm CVAR descriptions
 * list, read from the text MPI_T (and mpivars, which prints it) gives.
 */
#include <string.h>

#include "ct_mpich_desc.h"

/* The words MPICH 4.0's enum descriptions end an item with (read from
 * mpivars' output): what a glued name is preceded by.  "." and "error"
 * are MPIR_CVAR_COLLECTIVE_FALLBACK's ("...by the user.error   - throw an
 * errorprint   - ...") and MPIR_CVAR_DEVICE_COLLECTIVES' ("algorithms.all"). */
static const char *const ct_mpich_tails[] = {
    "algorithms", "algorithm", "collectives", "primitives", "receives",
    "allreduce",  "barrier",   "reduce",      "bcast",      "phase",
    "Allgather",  "Tree",      ")",           ".",          "error",
};
#define CT_MPICH_NTAILS (sizeof ct_mpich_tails / sizeof ct_mpich_tails[0])

static int ct_idchar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* The names token tok (length n) may end in: what follows a prefix of tok
 * that ends in one of the tails, when that is a non-empty [a-z0-9_] word.
 * Offsets into tok, into off. */
static size_t ct_mpich_splits(const char *tok, size_t n, size_t *off, size_t max)
{
    size_t k = 0;
    for (size_t i = n; i-- > 1 && ct_idchar(tok[i]) && k < max;)
        for (size_t t = 0; t < CT_MPICH_NTAILS; t++) {
            size_t tl = strlen(ct_mpich_tails[t]);
            if (tl <= i && strncmp(tok + i - tl, ct_mpich_tails[t], tl) == 0) {
                off[k++] = i;
                break;
            }
        }
    return k;
}

size_t ct_mpich_alg_values(const char *desc, char *buf, size_t buflen, const char **words,
                           size_t max)
{
    struct {
        const char *tok;
        size_t n, pad;
        size_t off[4], noff;
    } items[CT_MPICH_DESC_MAX_ITEMS];
    size_t nitems = 0;
    /* Each item is TOKEN, spaces, "- ". */
    for (const char *p = strstr(desc, " - "); p != NULL && nitems < CT_MPICH_DESC_MAX_ITEMS;
         p = strstr(p + 3, " - ")) {
        const char *end = p;
        while (end > desc && end[-1] == ' ')
            end--;
        const char *start = end;
        while (start > desc && start[-1] != ' ' && start[-1] != '\t')
            start--;
        if (start == end)
            continue;
        items[nitems].tok = start;
        items[nitems].n = (size_t)(end - start);
        items[nitems].pad = (size_t)(p + 1 - end);
        items[nitems].noff = ct_mpich_splits(start, items[nitems].n, items[nitems].off, 4);
        if (items[nitems].noff > 0)
            nitems++;
    }
    /* The column the names are padded to: the most common name + padding
     * among the items with one reading and some padding. */
    size_t col = 0, best = 0;
    for (size_t i = 0; i < nitems; i++) {
        if (items[i].noff != 1 || items[i].pad < 2)
            continue;
        size_t w = items[i].n - items[i].off[0] + items[i].pad, votes = 0;
        for (size_t j = 0; j < nitems; j++)
            votes += items[j].noff == 1 && items[j].n - items[j].off[0] + items[j].pad == w;
        if (votes > best) {
            best = votes;
            col = w;
        }
    }
    size_t nwords = 0, used = 0;
    for (size_t i = 0; i < nitems && nwords < max; i++) {
        /* A name of MPICH's nonblocking families (sched_, tsp_) first:
         * "algorithms" + "sched_x" and "algorithm" + "ssched_x" align the
         * same.  Then the column; then the longest name. */
        size_t off = items[i].off[items[i].noff - 1];
        int decided = 0;
        for (size_t k = items[i].noff; k-- > 0 && !decided;) {
            const char *w = items[i].tok + items[i].off[k];
            if (strncmp(w, "sched_", 6) == 0 || strncmp(w, "tsp_", 4) == 0) {
                off = items[i].off[k];
                decided = 1;
            }
        }
        for (size_t k = 0; k < items[i].noff && !decided; k++)
            if (items[i].n - items[i].off[k] + items[i].pad == col)
                off = items[i].off[k];
        size_t wl = items[i].n - off;
        if (used + wl + 1 > buflen)
            break;
        memcpy(buf + used, items[i].tok + off, wl);
        buf[used + wl] = '\0';
        words[nwords++] = buf + used;
        used += wl + 1;
    }
    return nwords;
}
