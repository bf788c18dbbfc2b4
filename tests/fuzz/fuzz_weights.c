/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_weights.c - tune's --weights parser on any bytes. */
#include "fuzz_input.h"
#include "tune_weights.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    if (ct_fuzz_file(data, size, ".weights", path, sizeof path) != 0)
        return 0;
    ct_tune_weights_t w;
    char err[1024];
    if (ct_tune_weights_load(path, &w, err, sizeof err) == CT_OK)
        ct_tune_weights_free(&w);
    return 0;
}
