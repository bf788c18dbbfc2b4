/* SPDX-License-Identifier: BSD-3-Clause */
#include "fuzz_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int ct_fuzz_file(const uint8_t *data, size_t size, const char *suffix, char *path, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(path, len, "%s/ct-fuzz-%ld%s", tmp && *tmp ? tmp : "/tmp", (long)getpid(), suffix);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    int bad = size > 0 && fwrite(data, 1, size, f) != size;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}
