#include "report_table.h"

#include <stdint.h>

void ct_table_number(double value, int width, char *buf, size_t buflen)
{
    int digits = 0;
    for (double v = 1.0; value >= v && digits < 40; v *= 10.0)
        digits++;
    if (digits < width - 2)
        snprintf(buf, buflen, "%*.2f", width, value);
    else if (digits < width - 1)
        snprintf(buf, buflen, "%*.1f", width, value);
    else if (digits < width + 1)
        snprintf(buf, buflen, "%*.0f", width, value);
    else if (width >= 7)
        snprintf(buf, buflen, "%*.1e", width, value);
    else
        snprintf(buf, buflen, "%*.0e", width, value);
}

void ct_table_header(FILE *fp)
{
    fprintf(fp, "#\n");
    fprintf(fp, "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          \n",
            "", "", "", "", "");
    fprintf(fp, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "size",
            "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw",
            "busbw", "#wrong");
    fprintf(fp, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "(B)",
            "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)",
            "");
}

static void ct_table_half(FILE *fp, const ct_table_half_t *h)
{
    char t[32], a[32], b[32];
    ct_table_number(h->time_us, 7, t, sizeof t);
    ct_table_number(h->algbw_gbps, 6, a, sizeof a);
    ct_table_number(h->busbw_gbps, 6, b, sizeof b);
    if (h->wrong >= 0)
        fprintf(fp, "  %7s  %6s  %6s  %6g", t, a, b, (double)h->wrong);
    else
        fprintf(fp, "  %7s  %6s  %6s    N/A", t, a, b);
}

void ct_table_row(FILE *fp, const ct_table_row_t *row)
{
    fprintf(fp, "%12zu  %12zu  %8s  %6s  %6i", row->bytes, row->count, row->dtype, row->op,
            row->root);
    ct_table_half(fp, &row->out_of_place);
    ct_table_half(fp, &row->in_place);
    fputc('\n', fp);
}

void ct_table_footer(FILE *fp, long long out_of_bounds, double avg_busbw)
{
    fprintf(fp, "# %-20s : %lld %s\n", "Out of bounds values", out_of_bounds,
            out_of_bounds ? "FAILED" : "OK");
    fprintf(fp, "# %-20s : %g \n", "Avg bus bandwidth", avg_busbw);
    fprintf(fp, "#\n");
}
