/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_options.c - collbench's command line: nccl-tests' defaults, every
 * flag in short and long form, and a usage error naming the flag and the
 * bad value for every kind of bad input.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "ct_test.h"
#include "backend/backend.h"
#include "options.h"

static ct_test_tally_t tally;

#define MAX_ARGS 64

/* argv storage that outlives a parse (opts keeps pointers into it). */
static char arg_store[MAX_ARGS][640];
static char *argv_store[MAX_ARGS + 1];
static char err[512];

/* Parses "collbench" followed by the NULL-terminated arguments. */
static ct_status_t parse_v(ct_options_t *opts, va_list ap)
{
    int argc = 0;
    strcpy(arg_store[argc], "collbench");
    argv_store[argc] = arg_store[argc];
    argc++;
    for (const char *a = va_arg(ap, const char *); a && argc < MAX_ARGS;
         a = va_arg(ap, const char *)) {
        snprintf(arg_store[argc], sizeof arg_store[argc], "%s", a);
        argv_store[argc] = arg_store[argc];
        argc++;
    }
    argv_store[argc] = NULL;
    err[0] = '\0';
    return ct_options_parse(argc, argv_store, opts, err, sizeof err);
}

static ct_status_t parse(ct_options_t *opts, ...)
{
    va_list ap;
    va_start(ap, opts);
    ct_status_t st = parse_v(opts, ap);
    va_end(ap);
    return st;
}

/* Expects CT_ERR_USAGE and an error naming flag and value (either may be
 * NULL), for the arguments after the two needles. */
static void expect_usage(int line, const char *flag, const char *value, ...)
{
    ct_options_t opts;
    va_list ap;
    va_start(ap, value);
    ct_status_t st = parse_v(&opts, ap);
    va_end(ap);
    int ok = st == CT_ERR_USAGE && err[0] != '\0' && (flag == NULL || strstr(err, flag)) &&
             (value == NULL || strstr(err, value));
    tally.checks++;
    if (!ok) {
        tally.failures++;
        fprintf(stderr,
                "%s:%d: check failed: status %d, err \"%s\", want CT_ERR_USAGE naming "
                "\"%s\" and \"%s\"\n",
                __FILE__, line, (int)st, err, flag ? flag : "", value ? value : "");
    }
}

#define EXPECT_USAGE(flag, value, ...) expect_usage(__LINE__, flag, value, __VA_ARGS__, NULL)

#define PARSE_OK(opts, ...)                                                                        \
    do {                                                                                           \
        ct_status_t st_ = parse(opts, __VA_ARGS__, NULL);                                          \
        CT_CHECK(&tally, st_ == CT_OK);                                                            \
        if (st_ != CT_OK)                                                                          \
            fprintf(stderr, "  unexpected error: %s\n", err);                                      \
    } while (0)

int main(void)
{
    ct_options_t o;

    /* Defaults: nccl-tests' -b/-e 32M, -i 1M, -w 5, -c 1, -o sum, -d float,
     * -a 1 (nccl-tests' average over ranks); all five collectives; adaptive iterations. */
    CT_CHECK(&tally, parse(&o, NULL) == CT_OK);
    CT_CHECK(&tally, o.min_bytes == (size_t)32 << 20);
    CT_CHECK(&tally, o.max_bytes == (size_t)32 << 20);
    CT_CHECK(&tally, o.step_bytes == (size_t)1 << 20);
    CT_CHECK(&tally, o.step_factor <= 1);
    CT_CHECK(&tally, o.iters == 0);
    CT_CHECK(&tally, o.warmup == 5);
    CT_CHECK(&tally, o.check == 1);
    CT_CHECK(&tally, o.nops == 1 && o.ops[0] == CT_OP_SUM && !o.ops_all);
    CT_CHECK(&tally, o.ndtypes == 1 && o.dtypes[0] == CT_DTYPE_FLOAT && !o.dtypes_all);
    CT_CHECK(&tally, o.root == 0);
    CT_CHECK(&tally, o.rank_agg == CT_AGG_MAX && CT_AGG_AVG == 1 && CT_AGG_MAX == 3);
    CT_CHECK(&tally, o.timeout_s == 0);
    CT_CHECK(&tally, o.ncolls == CT_COLL_COUNT);
    for (int i = 0; i < CT_COLL_COUNT; i++)
        CT_CHECK(&tally, o.colls[i] == ct_coll_by_index(i));
    CT_CHECK_STR(&tally, o.backend, "mpi");
    CT_CHECK(&tally, o.csv_path == NULL && o.json_path == NULL && o.run_id == NULL);
    CT_CHECK(&tally, o.target_ci == 0.02);
    CT_CHECK(&tally, o.size_budget_s == 0.2 && o.min_time_s == 0.002);
    CT_CHECK(&tally, o.ci_patience == 0.0);
    CT_CHECK(&tally, o.min_samples == 10 && o.max_samples == 10000);
    CT_CHECK(&tally, o.batch_us == 50.0);
    CT_CHECK(&tally, !o.quiet && !o.help && !o.version);
    CT_CHECK(&tally, o.nccl_library == NULL && o.cudart_library == NULL);
    CT_CHECK(&tally, !o.pairs && o.pairs_rounds == 0);
    CT_CHECK(&tally, o.cvars == NULL);
    CT_CHECK(&tally, o.nconfigs == 0);

    /* --pairs; --pairs-rounds limits the rounds and implies --pairs. */
    PARSE_OK(&o, "--pairs");
    CT_CHECK(&tally, o.pairs && o.pairs_rounds == 0);
    PARSE_OK(&o, "--pairs-rounds", "2");
    CT_CHECK(&tally, o.pairs && o.pairs_rounds == 2);
    EXPECT_USAGE("--pairs-rounds", "0", "--pairs-rounds", "0");
    EXPECT_USAGE("--pairs-rounds", "x", "--pairs-rounds", "x");

    /* Every short flag. */
    PARSE_OK(&o, "-b", "8", "-e", "128M", "-f", "2", "-i", "4K", "-n", "20", "-w", "3", "-c", "0",
             "-o", "prod,max", "-d", "int8,bf16", "-r", "2", "-a", "3", "-T", "30", "-C",
             "allreduce,bcast");
    CT_CHECK(&tally, o.min_bytes == 8 && o.max_bytes == (size_t)128 << 20);
    CT_CHECK(&tally, o.step_factor == 2 && o.step_bytes == 4096);
    CT_CHECK(&tally, o.iters == 20 && o.warmup == 3 && o.check == 0);
    CT_CHECK(&tally, o.nops == 2 && o.ops[0] == CT_OP_PROD && o.ops[1] == CT_OP_MAX);
    CT_CHECK(&tally, !o.ops_all);
    CT_CHECK(&tally,
             o.ndtypes == 2 && o.dtypes[0] == CT_DTYPE_INT8 && o.dtypes[1] == CT_DTYPE_BFLOAT16);
    CT_CHECK(&tally, !o.dtypes_all);
    CT_CHECK(&tally, o.root == 2 && o.rank_agg == CT_AGG_MAX && o.timeout_s == 30);
    CT_CHECK(&tally,
             o.ncolls == 2 && o.colls[0] == &ct_coll_allreduce && o.colls[1] == &ct_coll_broadcast);

    /* Every long form, both "--flag value" and "--flag=value". */
    PARSE_OK(&o, "--minbytes", "1K", "--maxbytes=4K", "--stepbytes", "512", "--iters", "5",
             "--warmup_iters", "0", "--check", "2", "--op", "min", "--datatype", "double", "--root",
             "1", "--average", "2", "--timeout", "10", "--collectives", "alltoall", "--backend",
             "mpi", "--csv", "out.csv", "--json=out.json", "--run-id", "abc", "--target-ci", "2%",
             "--size-budget", "0.5", "--min-samples", "5", "--max-samples", "50", "--batch-us",
             "10", "--quiet", "--nccl-lib", "/x/libnccl.so", "--cudart-lib", "/y/libcudart.so",
             "--ci-patience", "2.5");
    CT_CHECK(&tally, o.min_bytes == 1024 && o.max_bytes == 4096 && o.step_bytes == 512);
    CT_CHECK(&tally, o.step_factor <= 1);
    CT_CHECK(&tally, o.iters == 5 && o.warmup == 0 && o.check == 2);
    CT_CHECK(&tally, o.nops == 1 && o.ops[0] == CT_OP_MIN);
    CT_CHECK(&tally, o.ndtypes == 1 && o.dtypes[0] == CT_DTYPE_DOUBLE);
    CT_CHECK(&tally, o.root == 1 && o.rank_agg == CT_AGG_MIN && o.timeout_s == 10);
    CT_CHECK(&tally, o.ncolls == 1 && o.colls[0] == &ct_coll_alltoall);
    CT_CHECK_STR(&tally, o.backend, "mpi");
    CT_CHECK_STR(&tally, o.csv_path, "out.csv");
    CT_CHECK_STR(&tally, o.json_path, "out.json");
    CT_CHECK_STR(&tally, o.run_id, "abc");
    CT_CHECK(&tally, fabs(o.target_ci - 0.02) < 1e-15);
    CT_CHECK(&tally, o.size_budget_s == 0.5 && o.ci_patience == 2.5);
    CT_CHECK(&tally, o.min_samples == 5 && o.max_samples == 50);
    CT_CHECK(&tally, o.batch_us == 10.0);
    CT_CHECK(&tally, o.quiet && !o.help && !o.version);
    CT_CHECK_STR(&tally, o.nccl_library, "/x/libnccl.so");
    CT_CHECK_STR(&tally, o.cudart_library, "/y/libcudart.so");

    /* --target-ci as a fraction or a percentage. */
    PARSE_OK(&o, "--target-ci", "0.05");
    CT_CHECK(&tally, o.target_ci == 0.05);
    PARSE_OK(&o, "--target-ci", "5%");
    CT_CHECK(&tally, fabs(o.target_ci - 0.05) < 1e-15);
    PARSE_OK(&o, "--target-ci", "0.5%");
    CT_CHECK(&tally, fabs(o.target_ci - 0.005) < 1e-15);

    /* --help, -h, --version. */
    PARSE_OK(&o, "--help");
    CT_CHECK(&tally, o.help);
    PARSE_OK(&o, "-h");
    CT_CHECK(&tally, o.help);
    PARSE_OK(&o, "--version");
    CT_CHECK(&tally, o.version && !o.help);

    /* "all" lists. */
    PARSE_OK(&o, "-o", "all", "-d", "all", "-C", "all");
    CT_CHECK(&tally, o.ops_all && o.nops == CT_OP_COUNT);
    for (int i = 0; i < CT_OP_COUNT && i < o.nops; i++)
        CT_CHECK(&tally, o.ops[i] == (ct_op_t)i);
    CT_CHECK(&tally, o.dtypes_all && o.ndtypes == CT_DTYPE_COUNT);
    for (int i = 0; i < CT_DTYPE_COUNT && i < o.ndtypes; i++)
        CT_CHECK(&tally, o.dtypes[i] == (ct_dtype_t)i);
    CT_CHECK(&tally, o.ncolls == CT_COLL_COUNT);
    /* A later explicit list overrides "all". */
    PARSE_OK(&o, "-o", "all", "-o", "avg", "-d", "all", "-d", "half");
    CT_CHECK(&tally, !o.ops_all && o.nops == 1 && o.ops[0] == CT_OP_AVG);
    CT_CHECK(&tally, !o.dtypes_all && o.ndtypes == 1 && o.dtypes[0] == CT_DTYPE_HALF);

    /* Lists: aliases, case, duplicates dropped, order kept. */
    PARSE_OK(&o, "-C", "reduce_scatter,all_reduce,allreduce,bcast", "-d", "fp32,float,fp16", "-o",
             "sum,SUM,max");
    CT_CHECK(&tally, o.ncolls == 3 && o.colls[0] == &ct_coll_reduce_scatter &&
                         o.colls[1] == &ct_coll_allreduce && o.colls[2] == &ct_coll_broadcast);
    CT_CHECK(&tally,
             o.ndtypes == 2 && o.dtypes[0] == CT_DTYPE_FLOAT && o.dtypes[1] == CT_DTYPE_HALF);
    CT_CHECK(&tally, o.nops == 2 && o.ops[0] == CT_OP_SUM && o.ops[1] == CT_OP_MAX);

    /* Equal -b and -e need no step; -f 1 means "add -i". */
    PARSE_OK(&o, "-b", "1M", "-e", "1M", "-i", "0");
    CT_CHECK(&tally, o.step_bytes == 0);
    PARSE_OK(&o, "-b", "1K", "-e", "4K", "-f", "1", "-i", "1K");
    CT_CHECK(&tally, o.step_factor == 1 && o.step_bytes == 1024);
    /* ... so -f 1 with the default -i (1M) over 8-64 measured 8 alone:
     * refused, naming -e and the way out (N4); -b = -e needs no step. */
    EXPECT_USAGE("-f 1 never reaches -e 64", "give -f 2 or more, or -i STEP", "-b", "8", "-e", "64",
                 "-f", "1");
    EXPECT_USAGE("-f 1 never reaches -e 64", "-i (61 bytes)", "-b", "4", "-e", "64", "-f", "1",
                 "-i", "61");
    PARSE_OK(&o, "-b", "4", "-e", "64", "-f", "1", "-i", "60");
    PARSE_OK(&o, "-b", "64", "-e", "64", "-f", "1");

    /* Parsing twice gives the same result (getopt state is reset). */
    PARSE_OK(&o, "-b", "64", "-e", "64");
    PARSE_OK(&o, "-b", "128", "-e", "256");
    CT_CHECK(&tally, o.min_bytes == 128 && o.max_bytes == 256);

    /* Bad input: CT_ERR_USAGE with the flag and the value in the message. */
    EXPECT_USAGE("-b", "12Q", "-b", "12Q");
    EXPECT_USAGE("-e", "1.5M", "-e", "1.5M");
    EXPECT_USAGE("-i", "x1", "-i", "x1");
    /* Long forms are reported under their short letter. */
    EXPECT_USAGE("-b", "-3", "--minbytes=-3");
    EXPECT_USAGE("-b", "64", "-b", "64", "-e", "32");
    EXPECT_USAGE("-e", "32", "-b", "64", "-e", "32");
    /* options.h promises the flag and the value; options.c's "-b: the
     * smallest size must be at least 1 byte" leaves the value out. */
    EXPECT_USAGE("-b", "0", "-b", "0");
    EXPECT_USAGE("-C", "foo", "-C", "allreduce,foo");
    EXPECT_USAGE("-C", "reduce", "--collectives", "reduce");
    EXPECT_USAGE("-o", "bogus", "-o", "bogus");
    EXPECT_USAGE("-o", "mean", "-o", "sum,mean");
    EXPECT_USAGE("-d", "int16", "-d", "int16");
    EXPECT_USAGE("-d", "floaty", "--datatype", "float,floaty");
    EXPECT_USAGE("-a", "4", "-a", "4");
    EXPECT_USAGE("-a", "-1", "-a", "-1");
    EXPECT_USAGE("-n", "0", "-n", "0");
    EXPECT_USAGE("-n", "ten", "-n", "ten");
    EXPECT_USAGE("-n", "5x", "--iters", "5x");
    EXPECT_USAGE("-T", "-1", "-T", "-1");
    EXPECT_USAGE("-w", "-2", "-w", "-2");
    EXPECT_USAGE("-c", "1001", "-c", "1001");
    EXPECT_USAGE("-f", "0", "-f", "0");
    EXPECT_USAGE("-r", "-1", "-r", "-1");
    EXPECT_USAGE("-n", "99999999999999999999", "-n", "99999999999999999999");
    EXPECT_USAGE("--bogus", NULL, "--bogus");
    EXPECT_USAGE("--bogus", NULL, "--bogus=1");
    EXPECT_USAGE("-x", NULL, "-x");
    EXPECT_USAGE("-b", NULL, "-b");
    EXPECT_USAGE("--maxbytes", NULL, "-b", "8", "--maxbytes");
    EXPECT_USAGE("foo", NULL, "foo");
    EXPECT_USAGE("stray", NULL, "-b", "8", "stray", "-e", "16");
    EXPECT_USAGE("--target-ci", "0", "--target-ci", "0");
    EXPECT_USAGE("--target-ci", "0%", "--target-ci", "0%");
    EXPECT_USAGE("--target-ci", "200", "--target-ci", "200%");
    EXPECT_USAGE("--target-ci", "1.5", "--target-ci", "1.5");
    EXPECT_USAGE("--target-ci", "abc", "--target-ci", "abc");
    EXPECT_USAGE("--target-ci", "-1", "--target-ci", "-1%");
    EXPECT_USAGE("--ci-patience", "-1", "--ci-patience", "-1");
    EXPECT_USAGE("--ci-patience", "abc", "--ci-patience", "abc");
    EXPECT_USAGE("--backend", "bogus", "--backend", "bogus");
    /* The names come from the backend table: each is found by name. */
    EXPECT_USAGE("unknown backend 'bogus'", "(mpi, nccl)", "--backend", "bogus");
    {
        char names[128], *save = NULL;
        ct_backend_names(names, sizeof names);
        size_t n = 0;
        for (char *w = strtok_r(names, ", ", &save); w != NULL;
             w = strtok_r(NULL, ", ", &save), n++)
            CT_CHECK(&tally, ct_backend_find(w) != NULL);
        CT_CHECK(&tally, n == 2);
        char tiny[5];
        ct_backend_names(tiny, sizeof tiny); /* truncated, terminated */
        CT_CHECK_STR(&tally, tiny, "mpi,");
    }
    EXPECT_USAGE("--min-samples", "100", "--min-samples", "100", "--max-samples", "10");
    EXPECT_USAGE("--max-samples", "10", "--min-samples", "100", "--max-samples", "10");
    EXPECT_USAGE("--min-samples", "0", "--min-samples", "0");
    EXPECT_USAGE("--min-time", "0.5", "--min-time", "0.5", "--size-budget", "0.1");
    EXPECT_USAGE("--size-budget", "0", "--size-budget", "0");
    EXPECT_USAGE("--batch-us", "-5", "--batch-us", "-5");
    EXPECT_USAGE("-i", NULL, "-b", "1K", "-e", "4K", "-i", "0");
    EXPECT_USAGE("-o", NULL, "-o", ",");
    /* Issue 15, E24: an empty list item was skipped without a word, and
     * strtod/strtol took hexadecimal, white space and '+'. */
    EXPECT_USAGE("-C: 'allreduce,,broadcast': an empty item", NULL, "-C", "allreduce,,broadcast");
    EXPECT_USAGE("-o: 'sum,': an empty item", NULL, "-o", "sum,");
    EXPECT_USAGE("-d: ',float': an empty item", NULL, "-d", ",float");
    EXPECT_USAGE("--batch-us: '0x10' is not a number", NULL, "--batch-us", "0x10");
    EXPECT_USAGE("--target-ci: '0x1p-6' is not a number", NULL, "--target-ci", "0x1p-6");
    EXPECT_USAGE("--size-budget: ' 1' is not a number", NULL, "--size-budget", " 1");
    EXPECT_USAGE("--min-time", "infinity", "--min-time", "infinity");
    EXPECT_USAGE("-n: ' 5' is not an integer", NULL, "-n", " 5");
    EXPECT_USAGE("-w: '+5' is not an integer", NULL, "-w", "+5");
    EXPECT_USAGE("-T", "0x10", "-T", "0x10");
    {
        ct_options_t o;
        PARSE_OK(&o, "--batch-us", "2.5e1", "--target-ci", ".5%", "-r", "0");
        CT_CHECK(&tally, o.batch_us == 25.0 && o.target_ci == 0.005 && o.root == 0);
    }

    /* D12: precise messages.  'all' inside a -C list means every
     * collective, once each; -o/-d say 'all' does not combine. */
    {
        ct_options_t o;
        PARSE_OK(&o, "-C", "all,all");
        CT_CHECK(&tally, o.ncolls == CT_COLL_COUNT);
        for (int i = 0; i < o.ncolls && i < CT_COLL_COUNT; i++)
            CT_CHECK(&tally, o.colls[i] == ct_coll_by_index(i));
        PARSE_OK(&o, "-C", "broadcast,all");
        CT_CHECK(&tally, o.ncolls == CT_COLL_COUNT && o.colls[0] == &ct_coll_broadcast &&
                             o.colls[1] == &ct_coll_allreduce);
        EXPECT_USAGE("-C", "'alls'", "-C", "all,alls");
        EXPECT_USAGE("-o: 'all' cannot be combined", NULL, "-o", "sum,all");
        EXPECT_USAGE("-d: 'all' cannot be combined", NULL, "-d", "all,float");
    }
    /* An ambiguous prefix lists its candidates; an exact name or a unique
     * prefix is not ambiguous. */
    EXPECT_USAGE("option '--ba' is ambiguous: --backend", ", --batch-us", "--ba", "mpi");
    EXPECT_USAGE("option '--ba' is ambiguous: --backend", ", --batch-us", "--ba=mpi");
    EXPECT_USAGE("option '--m' is ambiguous: --minbytes, --maxbytes", "--max-samples", "--m", "1");
    {
        ct_options_t o;
        PARSE_OK(&o, "--bac", "mpi", "--batch", "20", "--qu");
        CT_CHECK(&tally, o.batch_us == 20.0 && o.quiet);
    }
    /* --sizes: every item, ascending; --no-table; --min-time may equal
     * --size-budget; the sync modes' names. */
    {
        ct_options_t o;
        PARSE_OK(&o, "--sizes", "64,8,1K", "--no-table", "--min-time", "0.5", "--size-budget",
                 "0.5");
        CT_CHECK(&tally,
                 o.nsizes == 3 && o.sizes[0] == 8 && o.sizes[1] == 64 && o.sizes[2] == 1024);
        CT_CHECK(&tally, o.no_table && o.min_time_s == 0.5 && o.size_budget_s == 0.5);
        CT_CHECK_STR(&tally, ct_options_sync_name(CT_SYNC_WINDOW), "window");
        CT_CHECK_STR(&tally, ct_options_sync_name(CT_SYNC_BARRIER), "barrier");
        CT_CHECK_STR(&tally, ct_options_sync_name(CT_SYNC_BATCH), "batch");
    }
    /* --turns: a flag, off by default; found in argv even where the
     * options do not parse (collbench's contexts agree before MPI work). */
    {
        ct_options_t o;
        PARSE_OK(&o, "-C", "allreduce");
        CT_CHECK(&tally, !o.turns);
        PARSE_OK(&o, "--turns", "-C", "allreduce");
        CT_CHECK(&tally, o.turns);
        char *argv[] = {"collbench", "--bogus", "--turns", NULL},
             *none[] = {"collbench", "-C", "--turns-x", NULL};
        CT_CHECK(&tally, ct_options_given(3, argv, "--turns"));
        CT_CHECK(&tally, !ct_options_given(3, none, "--turns"));
        CT_CHECK(&tally, !ct_options_given(1, argv, "--turns"));
    }
    /* A flag given a value says it takes none, with the full name. */
    EXPECT_USAGE("option '--quiet' takes no value (got '--quiet=1')", NULL, "--quiet=1");
    EXPECT_USAGE("option '--quiet' takes no value (got '--qui=yes')", NULL, "--qui=yes");
    EXPECT_USAGE("option '--version' takes no value", NULL, "--version=2");
    /* Still unknown: a name no option starts with. */
    EXPECT_USAGE("unknown option '--bogus'", NULL, "--bogus");
    EXPECT_USAGE("unknown option '--bogus=1'", NULL, "--bogus=1");
    EXPECT_USAGE("unknown option '-", NULL, "-Z");

    /* --cvars: names of [A-Za-z0-9_], comma-separated; whether MPI has them
     * is checked after MPI_Init (tests/mpi/json_metadata.sh,
     * tests/mpi/mpich_collbench.sh for MPICH's upper-case names). */
    PARSE_OK(&o, "--cvars", "coll_tuned_bcast_algorithm,pml");
    CT_CHECK_STR(&tally, o.cvars, "coll_tuned_bcast_algorithm,pml");
    PARSE_OK(&o, "--cvars", "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM,pml");
    CT_CHECK_STR(&tally, o.cvars, "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM,pml");
    EXPECT_USAGE("--cvars", "'a;b'", "--cvars", "a;b");
    EXPECT_USAGE("--cvars", "''", "--cvars", "");
    EXPECT_USAGE("--cvars", "'a,,b'", "--cvars", "a,,b");
    EXPECT_USAGE("--cvars", "'pml,'", "--cvars", "pml,");
    EXPECT_USAGE("--cvars", "'coll-tuned'", "--cvars", "coll-tuned");

    /* --config NAME=VALUE[,...], repeatable: configurations 1, 2, ... */
    PARSE_OK(&o, "--config",
             "coll_tuned_bcast_algorithm=3,coll_tuned_bcast_algorithm_segmentsize=1024", "--config",
             "coll_tuned_bcast_algorithm=6");
    CT_CHECK(&tally, o.nconfigs == 2 && o.configs[0].n == 2 && o.configs[1].n == 1);
    CT_CHECK_STR(&tally, o.configs[0].s[1].name, "coll_tuned_bcast_algorithm_segmentsize");
    CT_CHECK_STR(&tally, o.configs[0].s[1].value, "1024");
    CT_CHECK_STR(&tally, o.configs[1].s[0].value, "6");
    EXPECT_USAGE("--config", "'a'", "--config", "a");
    EXPECT_USAGE("--config", "'a='", "--config", "a=");
    EXPECT_USAGE("--config", "'=1'", "--config", "=1");
    EXPECT_USAGE("--config", "'A=1'", "--config", "A=1");
    EXPECT_USAGE("--config", "'a=1,'", "--config", "a=1,");
    EXPECT_USAGE("--config", "'a=1,,b=2'", "--config", "a=1,,b=2");
    EXPECT_USAGE("set twice", "'a=1,a=2'", "--config", "a=1,a=2");
    /* A long argument is quoted cut (60 characters and "..."), so that the
     * reason still fits the message (C8). */
    char longcfg[600] = "";
    for (int i = 0; i < 17; i++)
        strcat(longcfg, i ? ",coll_tuned_bcast_algorithm=1" : "coll_tuned_bcast_algorithm=1");
    EXPECT_USAGE("coll_tuned_bcast_algorithm is set twice",
                 "'coll_tuned_bcast_algorithm=1,coll_tuned_bcast_algorithm=1,co...'", "--config",
                 longcfg);
    EXPECT_USAGE("--config", "nccl", "--backend", "nccl", "--config", "a=1");
    /* nccl: NCCL_* environment variables (configs_env.c), whatever the
     * order of --backend and --config; a value can be a rules file's path. */
    PARSE_OK(&o, "--config", "NCCL_ALGO=Ring,NCCL_PROTO=LL", "--backend", "nccl", "--config",
             "NCCL_ALGO=allreduce:tree;broadcast:ring,NCCL_TUNER_CONFIG_FILE=/a/rules/file/path/"
             "longer/than/thirty-one/characters/nccl_tuner.conf");
    CT_CHECK(&tally, o.nconfigs == 2 && o.configs[1].n == 2);
    CT_CHECK_STR(&tally, o.configs[1].s[0].value, "allreduce:tree;broadcast:ring");
    EXPECT_USAGE("UCX_TLS is not an NCCL environment variable", "'UCX_TLS=tcp'", "--backend",
                 "nccl", "--config", "NCCL_ALGO=Ring,UCX_TLS=tcp");
    EXPECT_USAGE("NCCL_ is not an NCCL environment variable", "'NCCL_=1'", "--backend", "nccl",
                 "--config", "NCCL_=1");
    EXPECT_USAGE("control variable names are [a-z0-9_]", "'NCCL_ALGO=Ring'", "--config",
                 "NCCL_ALGO=Ring");
    EXPECT_USAGE("--config", "--pairs", "--pairs", "--config", "a=1");
    EXPECT_USAGE("same settings as configuration 1", "'b=2,a=1'", "--config", "a=1,b=2", "--config",
                 "b=2,a=1");
    /* The same name in two configurations is what --config is for. */
    PARSE_OK(&o, "--config", "a=1", "--config", "a=2");
    CT_CHECK(&tally, o.nconfigs == 2);
    /* --config-for COLL:NAME=VALUE[,...]: a configuration of one
     * collective, numbered with the --configs in the order given; the
     * collective ends at the first ':', so NCCL's values keep theirs. */
    PARSE_OK(&o, "-C", "allreduce,broadcast", "--config", "a=1", "--config-for",
             "broadcast:a=1,b=2", "--config-for", "allreduce:a=2");
    CT_CHECK(&tally, o.nconfigs == 3 && o.configs[0].coll == NULL &&
                         o.configs[1].coll == &ct_coll_broadcast &&
                         o.configs[2].coll == &ct_coll_allreduce && o.configs[1].n == 2);
    CT_CHECK_STR(&tally, o.configs[1].s[1].value, "2");
    PARSE_OK(&o, "--backend", "nccl", "--config-for",
             "allreduce:NCCL_ALGO=allreduce:tree;broadcast:ring");
    CT_CHECK(&tally, o.nconfigs == 1 && o.configs[0].coll == &ct_coll_allreduce);
    CT_CHECK_STR(&tally, o.configs[0].s[0].value, "allreduce:tree;broadcast:ring");
    /* The same settings on two collectives are two configurations; on one,
     * or beside a --config that measures every collective, one twice. */
    PARSE_OK(&o, "--config-for", "allreduce:a=1", "--config-for", "broadcast:a=1");
    CT_CHECK(&tally, o.nconfigs == 2);
    EXPECT_USAGE("same settings as configuration 1 on broadcast", "--config-for 'broadcast:a=1'",
                 "--config-for", "broadcast:a=1", "--config-for", "broadcast:a=1");
    EXPECT_USAGE("same settings as configuration 1 on broadcast", "--config-for 'broadcast:a=1'",
                 "--config", "a=1", "--config-for", "broadcast:a=1");
    EXPECT_USAGE("COLL one of allreduce,", "'a=1'", "--config-for", "a=1");
    EXPECT_USAGE("COLL one of allreduce,", "':a=1'", "--config-for", ":a=1");
    EXPECT_USAGE("no collective 'gather'", "'gather:a=1'", "--config-for", "gather:a=1");
    EXPECT_USAGE("NAME=VALUE pairs", "--config-for 'broadcast:a'", "--config-for", "broadcast:a");
    EXPECT_USAGE("-C does not measure broadcast", "configuration 2", "-C", "allreduce", "--config",
                 "a=1", "--config-for", "broadcast:a=2");
    EXPECT_USAGE("--config", "--pairs", "--pairs", "--config-for", "broadcast:a=1");
    /* One more --config than the limit is refused, naming the limit. */
    {
        static char words[2 * CT_CONFIGS_MAX + 3][16];
        char *args[2 * CT_CONFIGS_MAX + 4];
        int n = 0;
        args[n++] = "collbench";
        for (int k = 0; k <= CT_CONFIGS_MAX; k++) {
            args[n++] = "--config";
            snprintf(words[k], sizeof words[k], "a=%d", k + 1);
            args[n++] = words[k];
        }
        args[n] = NULL;
        char limit[32];
        snprintf(limit, sizeof limit, "at most %d", CT_CONFIGS_MAX);
        err[0] = '\0';
        CT_CHECK(&tally, ct_options_parse(n, args, &o, err, sizeof err) == CT_ERR_USAGE &&
                             strstr(err, limit) != NULL);
        err[0] = '\0';
        CT_CHECK(&tally, ct_options_parse(n - 2, args, &o, err, sizeof err) == CT_OK);
    }

    return CT_DONE(&tally);
}
