/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_status.h"

const char *ct_status_str(ct_status_t status)
{
    switch (status) {
    case CT_OK: return "success";
    case CT_ERR_USAGE: return "usage error";
    case CT_ERR_IO: return "I/O error";
    case CT_ERR_NOMEM: return "out of memory";
    case CT_ERR_UNAVAILABLE: return "backend unavailable";
    case CT_ERR_BACKEND: return "backend error";
    case CT_ERR_PARSE: return "parse error";
    case CT_ERR_WRONG: return "wrong results";
    case CT_ERR_REFUSED: return "refused by the library";
    }
    return "unknown status";
}

int ct_status_exit_code(ct_status_t status)
{
    switch (status) {
    case CT_OK: return CT_EXIT_OK;
    case CT_ERR_WRONG: return CT_EXIT_WRONG;
    case CT_ERR_USAGE:
    case CT_ERR_PARSE: return CT_EXIT_USAGE;
    case CT_ERR_UNAVAILABLE: return CT_EXIT_SKIP;
    case CT_ERR_REFUSED: return CT_EXIT_REFUSED;
    default: return CT_EXIT_FAILURE;
    }
}
