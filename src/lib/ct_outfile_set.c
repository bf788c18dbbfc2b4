/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_outfile_set.c - a set of temporaries renamed all or nothing.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_outfile.h"
#include "ct_outfile_set.h"
#include "ct_tmpname.h"

#define CT_OUTFILE_OLD_LEN (PATH_MAX + 512)

ct_status_t ct_outfile_rename_all(size_t n, const char *const *tmp, const char *const *dst,
                                  char *err, size_t errlen)
{
    char *old = calloc(n ? n : 1, CT_OUTFILE_OLD_LEN);
    int *had = calloc(n ? n : 1, sizeof *had);
    if (old == NULL || had == NULL) {
        free(old);
        free(had);
        snprintf(err, errlen, "out of memory");
        return CT_ERR_NOMEM;
    }
    ct_status_t st = CT_OK;
    size_t done = 0;
    for (size_t i = 0; i < n && st == CT_OK; i++) {
        char base[PATH_MAX + 80];
        char *oldi = old + i * CT_OUTFILE_OLD_LEN;
        int len = snprintf(base, sizeof base, "%s.old", dst[i]);
        if (len < 0 || (size_t)len >= sizeof base ||
            ct_tmpname(base, oldi, CT_OUTFILE_OLD_LEN) != CT_OK) {
            snprintf(err, errlen, "%s: path too long", dst[i]);
            st = CT_ERR_USAGE;
            break;
        }
        (void)ct_tmpname_clean_stale(base); /* a killed run's copy aside */
        if (link(dst[i], oldi) == 0) {
            had[i] = 1;
        } else if (errno != ENOENT) {
            snprintf(err, errlen, "cannot keep %s aside as %s: %s", dst[i], oldi, strerror(errno));
            st = CT_ERR_IO;
        }
    }
    for (; done < n && st == CT_OK; done++)
        if (rename(tmp[done], dst[done]) != 0) {
            snprintf(err, errlen, "cannot rename %s to %s: %s", tmp[done], dst[done],
                     strerror(errno));
            st = CT_ERR_IO;
            break;
        }
    if (st != CT_OK)
        for (size_t i = 0; i < done; i++) {
            const char *oldi = old + i * CT_OUTFILE_OLD_LEN;
            if (had[i] ? rename(oldi, dst[i]) != 0 : unlink(dst[i]) != 0)
                fprintf(stderr, "colltune: cannot put back %s%s%s: %s\n", dst[i],
                        had[i] ? " from " : "", had[i] ? oldi : "", strerror(errno));
            had[i] = 0; /* put back: nothing left to remove */
        }
    for (size_t i = 0; i < n; i++) {
        if (had[i])
            (void)unlink(old + i * CT_OUTFILE_OLD_LEN);
        if (st == CT_OK)
            ct_outfile_sync_dir(dst[i]);
    }
    free(old);
    free(had);
    return st;
}
