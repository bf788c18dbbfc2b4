/*
 * plot_input.c - the old names of results reading (plot.h says why they
 * stay); all the reading is src/lib's ct_results_read.
 */
#include "plot.h"

ct_status_t ct_plot_read(const char *path, ct_plot_rows_t *rows, char *err, size_t errlen)
{
    return ct_results_read(path, rows, NULL, err, errlen);
}

void ct_plot_rows_free(ct_plot_rows_t *rows) { ct_results_free(rows); }
