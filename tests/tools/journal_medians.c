/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * journal_medians - a tune journal's evidence as text, for the benches:
 * one line per scope, configuration and collective x size of its ok
 * trials:
 *
 *     SCOPE KEY COLLECTIVE BYTES MEDIAN_US LAUNCHES SETTINGS
 *
 * MEDIAN_US is the median over launches of each launch's out-of-place
 * median; SETTINGS the configuration's NAME=VALUE list ("-" for none).
 * Verification trials (scope "verify") are left out.  Usage:
 * journal_medians DIR/journal.jsonl
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_stats.h"
#include "journal.h"

#define MAXL 64

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: journal_medians JOURNAL\n");
        return 2;
    }
    char err[512];
    ct_journal_entries_t e;
    if (ct_journal_read(argv[1], &e, err, sizeof err) != CT_OK) {
        fprintf(stderr, "journal_medians: %s\n", err);
        return 2;
    }
    int *done = calloc(e.n ? e.n : 1, sizeof *done);
    for (size_t i = 0; done && i < e.n; i++) {
        const ct_trial_t *t = &e.trials[i];
        if (done[i] || t->status != CT_JOURNAL_OK || strcmp(t->scope, "verify") == 0)
            continue;
        /* Every trial of the same scope and key, every row of the first. */
        for (size_t r = 0; r < t->nrows; r++) {
            const ct_trial_row_t *row = &t->rows[r];
            if (strcmp(row->placement, "out-of-place") != 0)
                continue;
            double us[MAXL];
            size_t n = 0;
            for (size_t j = i; j < e.n && n < MAXL; j++) {
                const ct_trial_t *u = &e.trials[j];
                if (u->status != CT_JOURNAL_OK || strcmp(u->scope, t->scope) != 0 ||
                    strcmp(u->key, t->key) != 0)
                    continue;
                for (size_t k = 0; k < u->nrows; k++)
                    if (u->rows[k].bytes == row->bytes &&
                        strcmp(u->rows[k].collective, row->collective) == 0 &&
                        strcmp(u->rows[k].placement, "out-of-place") == 0 &&
                        u->rows[k].median_us > 0)
                        us[n++] = u->rows[k].median_us;
            }
            if (n == 0)
                continue;
            printf("%s %s %s %lld %.4f %zu ", t->scope, t->key, row->collective, row->bytes,
                   ct_stats_median(us, n), n);
            for (size_t s = 0; s < t->nsettings; s++)
                printf("%s%s=%s", s ? "," : "", t->settings[s].name, t->settings[s].value);
            printf("%s\n", t->nsettings ? "" : "-");
        }
        for (size_t j = i; j < e.n; j++)
            if (strcmp(e.trials[j].scope, t->scope) == 0 && strcmp(e.trials[j].key, t->key) == 0)
                done[j] = 1;
    }
    free(done);
    ct_journal_entries_free(&e);
    return 0;
}
