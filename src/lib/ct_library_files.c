/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ct_library_files.c - the rows of the files colltune writes (see
 * ct_library.h).  What outranks each file on a site is site_rank.c's, one
 * rule per row (test_site checks every row has one).
 */
#include "ct_library.h"

#include <string.h>

/* Open MPI's mca_base_param_files when unset (4.1's opal/mca/base). */
static const char *const ct_ompi_default_files[] = {"$HOME/.openmpi/mca-params.conf",
                                                    "/etc/openmpi/openmpi-mca-params.conf", NULL};

static const ct_library_file_t ct_library_files[] = {
    {"coll-tuned-rules.conf",
     CT_LIB_OMPI,
     CT_LIB_OMPI,
     {.kind = CT_FILE_LOAD_NAMED_BY, .named_by = "mca-params.conf"},
     CT_FILE_KEY_COMM_SIZE,
     CT_FILE_SYNTAX_RULES,
     "Open MPI coll/tuned's rules by communicator and message size"},
    {"coll-tuned-rules.json",
     CT_LIB_OMPI,
     CT_LIB_OMPI,
     {.kind = CT_FILE_LOAD_NAMED_BY, .named_by = "mca-params.conf"},
     CT_FILE_KEY_COMM_SIZE,
     CT_FILE_SYNTAX_RULES,
     "the same rules in Open MPI 6's JSON (--rules-json)"},
    {"mca-params.conf",
     CT_LIB_OMPI,
     CT_LIB_OMPI,
     {.kind = CT_FILE_LOAD_VAR,
      .var = "mca_base_param_files",
      .mca = 1,
      .keeps_defaults = 1,
      .defaults = ct_ompi_default_files,
      .defaults_how = "Open MPI's default list, as `ompi_info --level 9 --param mca base`\n"
                      "    shows it; or copy its lines into PREFIX/etc/openmpi-mca-params.conf"},
     CT_FILE_KEY_NONE,
     CT_FILE_SYNTAX_MCA,
     "Open MPI's MCA parameters"},
    {"ucx.conf",
     CT_LIB_UCX,
     CT_LIB_UCX,
     {.kind = CT_FILE_LOAD_VAR, .var = "UCX_CONFIG_DIR", .names_dir = 1},
     CT_FILE_KEY_NONE,
     CT_FILE_SYNTAX_UCX_INI,
     "UCX's configuration"},
    {"nccl.conf",
     CT_LIB_NCCL,
     CT_LIB_NCCL,
     {.kind = CT_FILE_LOAD_VAR, .var = "NCCL_CONF_FILE"},
     CT_FILE_KEY_NONE,
     CT_FILE_SYNTAX_NCCL_CONF,
     "NCCL's variables"},
    /* The A/B sources it only where the site outranks nccl.conf
     * (emit_nccl_env.c's load_for): otherwise it holds what nccl.conf does. */
    {"nccl.env",
     CT_LIB_NCCL,
     CT_LIB_NCCL,
     {.kind = CT_FILE_LOAD_SOURCED},
     CT_FILE_KEY_NONE,
     CT_FILE_SYNTAX_SH_QUOTED,
     "NCCL's variables to source before a job"},
    {"nccl_tuner.conf",
     CT_LIB_NCCL,
     CT_LIB_NCCL,
     {.kind = CT_FILE_LOAD_VAR,
      .var = "NCCL_TUNER_CONFIG_FILE",
      .also = "NCCL_TUNER_PLUGIN",
      .also_value = "colltune",
      .also_install = "/path/to/lib/libnccl-tuner-colltune.so"},
     CT_FILE_KEY_NODES_RANKS,
     CT_FILE_SYNTAX_PLUGIN,
     "NCCL tuner-plugin rules by nodes, ranks and size"},
    /* MPICH reads no file of CVARs. */
    {"mpich.env",
     CT_LIB_MPICH,
     CT_LIB_MPICH,
     {.kind = CT_FILE_LOAD_SOURCED},
     CT_FILE_KEY_NONE,
     CT_FILE_SYNTAX_SH,
     "MPICH's CVARs to source before a job"},
    /* MPICH's choices in Intel MPI's ids; Intel MPI does not run here. */
    {"intel-mpi.env",
     CT_LIB_INTEL_MPI,
     CT_LIB_MPICH,
     {.kind = CT_FILE_LOAD_NONE},
     CT_FILE_KEY_PROCS,
     CT_FILE_SYNTAX_SH,
     "Intel MPI's I_MPI_ADJUST_ to source before a job"},
    /* Read at MPI_Init by every rank; replaces MPICH's whole tree. */
    {"mpich-coll-selection.json",
     CT_LIB_MPICH,
     CT_LIB_MPICH,
     {.kind = CT_FILE_LOAD_VAR, .var = "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE"},
     CT_FILE_KEY_COMM_SIZE,
     CT_FILE_SYNTAX_JSON_TREE,
     "MPICH's collective selection tree"},
    /* MPICH's choices as MVAPICH 3's MVP_ aliases, written when the MPI
     * library that ran is MVAPICH (ct_library_ran); not run here. */
    {"mvapich.env",
     CT_LIB_MVAPICH,
     CT_LIB_MPICH,
     {.kind = CT_FILE_LOAD_SOURCED},
     CT_FILE_KEY_NONE,
     CT_FILE_SYNTAX_SH,
     "MVAPICH 3's MVP_ CVARs to source before a job"},
    /* oneCCL reads no file; the sizes go inside CCL_<COLL>'s value, so
     * the file is keyed by nothing else.  Not run here. */
    {"oneccl.env",
     CT_LIB_ONECCL,
     CT_LIB_ONECCL,
     {.kind = CT_FILE_LOAD_SOURCED},
     CT_FILE_KEY_NONE,
     CT_FILE_SYNTAX_SH_QUOTED,
     "oneCCL's CCL_<COLL> algorithms by size, to source before a job"},
};
#define CT_NFILES (sizeof ct_library_files / sizeof ct_library_files[0])

const ct_library_file_t *ct_library_file_at(size_t i)
{
    return i < CT_NFILES ? &ct_library_files[i] : NULL;
}

const ct_library_file_t *ct_library_file_named(const char *name)
{
    for (size_t i = 0; name != NULL && i < CT_NFILES; i++)
        if (strcmp(ct_library_files[i].name, name) == 0)
            return &ct_library_files[i];
    return NULL;
}
