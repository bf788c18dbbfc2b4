/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_space.c - the search-space parser (tuner/space) on any bytes. */
#include "fuzz_input.h"
#include "space.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    if (ct_fuzz_file(data, size, ".ini", path, sizeof path) != 0)
        return 0;
    ct_space_t space;
    char err[1024];
    if (ct_space_load(path, &space, err, sizeof err) == CT_OK) {
        /* A space that loads is counted, and enumerated (constraints,
         * requires, when) where that is small: listing costs the same per
         * configuration at any size, and the 77,760 of a legitimate space
         * take over libFuzzer's 10 s under the sanitizers (0.6 s without). */
        uint64_t n;
        ct_space_configs_t c;
        if (ct_space_combinations(&space, CT_SCOPE_GLOBAL, 4, &n, err, sizeof err) == CT_OK &&
            n <= 4096 &&
            ct_space_enumerate(&space, CT_SCOPE_GLOBAL, 4, &c, err, sizeof err) == CT_OK)
            ct_space_configs_free(&c);
        ct_space_free(&space);
    }
    return 0;
}
