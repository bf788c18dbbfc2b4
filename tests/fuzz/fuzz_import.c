/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_import.c - colltune import's nccl-tests (text and JSON) and OSU
 * log readers on any bytes; the first byte picks the reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    ct_import_t im;
    memset(&im, 0, sizeof im);
    im.path = "fuzz.log";
    im.len = size - 1;
    im.text = malloc(size);
    im.out = fopen("/dev/null", "w");
    if (im.text == NULL || im.out == NULL) {
        free(im.text);
        if (im.out != NULL)
            fclose(im.out);
        return 0;
    }
    memcpy(im.text, data + 1, size - 1);
    im.text[size - 1] = '\0';
    snprintf(im.run_id, sizeof im.run_id, "fuzz");
    im.np = 4;
    switch (data[0] % 3) {
    case 0: ct_import_nccl_text(&im); break;
    case 1: ct_import_nccl_json(&im); break;
    default: ct_import_osu(&im); break;
    }
    fclose(im.out);
    free(im.text);
    return 0;
}
