/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_results.c - the one results reader (CSV and JSON) on any bytes. */
#include "ct_results_read.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    if (ct_fuzz_file(data, size, ".results", path, sizeof path) != 0)
        return 0;
    ct_results_t rows = {0};
    json_t *doc = NULL;
    char err[1024];
    if (ct_results_read(path, &rows, &doc, err, sizeof err) == CT_OK)
        json_decref(doc);
    ct_results_free(&rows);
    return 0;
}
