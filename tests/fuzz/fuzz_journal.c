/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_journal.c - the tune journal's reader (--resume) on any bytes. */
#include "fuzz_input.h"
#include "journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    if (ct_fuzz_file(data, size, ".jsonl", path, sizeof path) != 0)
        return 0;
    ct_journal_entries_t e;
    char err[1024];
    if (ct_journal_read(path, &e, err, sizeof err) == CT_OK)
        ct_journal_entries_free(&e);
    return 0;
}
