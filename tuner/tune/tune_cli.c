/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tune_cli.c - `colltune tune`'s command line: the option table, --help,
 * and argv parsed and checked into ct_tune_args_t (tune_cli.h), so that
 * the run (tune.c) starts from arguments already known good.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argv.h"
#include "cli.h"
#include "ct_library.h"
#include "ct_names.h"
#include "space_find.h"
#include "tune_cli.h"
#include "tune_decide.h"
#include "tune_state.h"

enum {
    CT_TUNE_SPACE = 1,
    CT_TUNE_OUT,
    CT_TUNE_COLLECTIVES,
    CT_TUNE_STRATEGY,
    CT_TUNE_BUDGET,
    CT_TUNE_BUDGET_S,
    CT_TUNE_LAUNCHES,
    CT_TUNE_SEED,
    CT_TUNE_RESUME,
    CT_TUNE_WEIGHTS,
    CT_TUNE_VERIFY_PAIRS,
    CT_TUNE_VERIFY_TURNS,
    CT_TUNE_RULES_JSON,
    CT_TUNE_EXTEND_RANGES,
    CT_TUNE_OBJECTIVE,
    CT_TUNE_LIST_SPACES,
    CT_TUNE_SHAPES,
};

static const ct_cli_opt_t ct_tune_opts[] = {
    {CT_TUNE_SPACE, "space", "FILE|NAME",
     "search space: a file, or the name of an installed one (--list-spaces); required"},
    {CT_TUNE_LIST_SPACES, "list-spaces", NULL, "list the installed search spaces and exit"},
    {CT_TUNE_OUT, "out", "DIR", "output directory (created if missing; required)"},
    CT_LAUNCH_OPTS("environment variable for every trial (repeatable)",
                   "MCA parameter for every trial (repeatable)",
                   "per-trial timeout, kills the trial (default 600)"),
    {CT_TUNE_SHAPES, "shapes", "LIST",
     "job shapes NODESxRANKS_PER_NODE, ascending (1x8,2x8,4x8): every launch measures each "
     "on the first nodes' ranks (collbench --shapes), and the tune decides and verifies per "
     "shape"},
    {CT_TUNE_COLLECTIVES, "collectives", "LIST",
     "collectives to tune (default: all the space tunes; global scope: all)"},
    {CT_TUNE_STRATEGY, "strategy", "NAME", "exhaustive, random or halving (default)"},
    {CT_TUNE_BUDGET, "budget", "N", "at most N trials in all (resumed ones count)"},
    {CT_TUNE_BUDGET_S, "budget-s", "SEC", "start no trial after SEC seconds"},
    {CT_TUNE_LAUNCHES, "launches", "N",
     "launches per configuration (exhaustive, random) or per finalist (halving); default 2, 3 "
     "with run-time variables"},
    {CT_TUNE_SEED, "seed", "N", "random strategy: the subset's seed (default 1)"},
    {CT_TUNE_WEIGHTS, "weights", "FILE",
     "message-size profile ([COLLECTIVE] SIZE WEIGHT lines) that decides global settings"},
    {CT_TUNE_VERIFY_PAIRS, "verify-pairs", "N",
     "A/B pairs (each side fresh processes) that verify the emitted files (default 5, at least "
     "5; 0: "
     "search and report only, no file written)"},
    {CT_TUNE_VERIFY_TURNS, "verify-turns", "N",
     "A/B pairs one launch holds, each side an app context of its own taking its turn "
     "(mpirun A : B; default: all of a round's; 0: a fresh launch per side)"},
    {CT_TUNE_RULES_JSON, "rules-json", NULL,
     "also write coll-tuned-rules.json (Open MPI 6's JSON rules format)"},
    {CT_TUNE_EXTEND_RANGES, "extend-ranges", NULL,
     "stretch each collective's first choice down to 0 B and its last to any size (default: "
     "only the measured span)"},
    {CT_TUNE_OBJECTIVE, "objective", "max|avg",
     "the time compared: the slowest rank's (max, default) or the average rank's (avg); "
     "collbench -a 3 or -a 1 for every launch"},
    {CT_TUNE_RESUME, "resume", NULL, "continue the tune in DIR, skipping journaled trials"},
    CT_LAUNCH_OPT_COLLBENCH,
};
#define CT_TUNE_NOPTS (sizeof ct_tune_opts / sizeof ct_tune_opts[0])

void ct_tune_usage(FILE *f)
{
    fprintf(f, "usage: colltune tune --space FILE|NAME --out DIR (--np N | --launcher 'CMD ARGS')\n"
               "                     [OPTIONS] [-- COLLBENCH-SIZE-ARGS]\n\n"
               "Searches the space's configurations with collbench trials through the\n"
               "launcher, and decides per collective x size whether a configuration beats\n"
               "the defaults by more than the noise.  Arguments after -- go to every trial\n"
               "(sizes: -b 64K -e 1M -f 2); -C, --csv, --json and -a (--objective) are\n"
               "colltune's.\n\n"
               "options:\n");
    ct_cli_print_options(f, ct_tune_opts, CT_TUNE_NOPTS);
    fprintf(f, "\nstrategies:\n"
               "  exhaustive  every configuration, --launches times, interleaved (A B C A B C)\n"
               "  random      a random subset that fits --budget, baseline always in\n"
               "  halving     one short launch each, keep half (each size's fastest first),\n"
               "              more launches for survivors, baseline always kept; finalists\n"
               "              get at least 2 full launches\n\n"
               "run-time variables (space: apply = runtime; coll/tuned algorithms by\n"
               "default) share launches: one collbench launch measures every such\n"
               "configuration of a scope side by side with the defaults (collbench\n"
               "--config); the other variables get a launch each.\n\n"
               "decision: a candidate replaces the default only when, over >= 2 launches\n"
               "each, its launch medians are lower by a one-sided Mann-Whitney test at\n"
               "p <= 0.05 (with 2 launches each: every one lower) and its median is >= 5%%\n"
               "lower; where both ran in >= 3 shared launches, it must instead be >= 5%%\n"
               "faster (95%% intervals apart) in a majority of them and >= 5%% faster in\n"
               "the median ratio; otherwise \"no significant gain\".  Ties go to fewer\n"
               "changes.\n\n"
               "verification: the files for the choices are written to DIR/verify/ and run\n"
               "against the defaults in --verify-pairs interleaved pairs, each side fresh\n"
               "processes (through mpirun a round's pairs share one launch as app contexts\n"
               "taking turns: --verify-turns; else a launch per side)\n"
               "(the tuned side reads the files themselves: --mca mca_base_param_files,\n"
               "UCX_CONFIG_DIR, NCCL_CONF_FILE).  A choice is kept when its gain holds\n"
               "(one-sided Mann-Whitney p <= 0.05 and >= 5%%) at most sizes of its range and\n"
               "the default is significantly faster at none; the others are dropped.\n"
               "Do no harm: the A/B runs every collective at the searched sizes, 8 B, 4 KiB,\n"
               "1 MiB, the largest searched size and every power of two inside each range\n"
               "(on NCCL also int8 broadcast and allgather and bfloat16 allreduce); a range\n"
               "is cut where the files made it slower (p <= 0.05 and >= 10%%, confirmed by a\n"
               "second A/B of those cells), a global choice is dropped by any slower cell,\n"
               "and a launch that fails or has a collective refused verifies nothing.\n\n"
               "refusals: a collective the library refuses under a configuration (collbench\n"
               "exit 4: NCCL's invalid usage, MPICH's unusable forced algorithm) makes it\n"
               "invalid for that collective only; it is still decided for the others.\n"
               "NCCL_ALGO and NCCL_PROTO are decided per collective and size range, even in\n"
               "a global scope.\n\n"
               "reach: a per-collective choice covers the sizes it was measured at, up to\n"
               "just below the next measured size where it did not win; below the smallest\n"
               "and above the largest measured size the library's own decision stays\n"
               "(coll-tuned-rules.conf gives those sizes algorithm 0), unless the smallest\n"
               "measured size is the smallest the collective takes (8 B, 8 B per rank for\n"
               "allgather, alltoall, reduce_scatter) or --extend-ranges is given.\n\n"
               "outputs in DIR: journal.jsonl, trials/, verify/, report.json, report.md,\n"
               "and the verified files, each only when it has a choice:\n");
    for (size_t i = 0; ct_library_file_at(i) != NULL; i++)
        fprintf(f, "  %-26s %s\n", ct_library_file_at(i)->name, ct_library_file_at(i)->what);
    fprintf(f, "exit codes: 0 done, 2 bad input (file:line), 3 failure, 130 interrupted\n"
               "(the journal is intact; --resume continues).\n");
}

/* --collectives: "all", or collbench's collectives (aliases too), comma
 * separated.  A name the space did not tune was dropped without a word,
 * so "allreduce,bcastt" tuned allreduce alone (issue 15, E24). */
static int ct_tune_check_collectives(const char *list)
{
    if (strcmp(list, "all") == 0)
        return CT_EXIT_OK;
    for (const char *p = list;;) {
        size_t n = strcspn(p, ",");
        char word[64];
        const ct_coll_name_t *c = NULL;
        if (n == 0) {
            fprintf(stderr, "colltune tune: --collectives '%s': an empty item\n", list);
            return CT_EXIT_USAGE;
        }
        if (n < sizeof word) {
            memcpy(word, p, n);
            word[n] = '\0';
            c = ct_coll_name_find(word);
        }
        if (c == NULL || c->id == CT_COLL_NONE) {
            char names[128];
            ct_coll_name_list(", ", names, sizeof names);
            fprintf(stderr,
                    "colltune tune: --collectives '%s': unknown collective '%.*s' (%s, all)\n",
                    list, (int)n, p, names);
            return CT_EXIT_USAGE;
        }
        if (p[n] == '\0')
            return CT_EXIT_OK;
        p += n + 1;
    }
}

/* --strategy NAME into plan. */
static ct_status_t ct_tune_parse_strategy(const char *value, ct_tune_plan_t *plan)
{
    if (strcmp(value, "exhaustive") == 0)
        plan->strategy = CT_TUNE_EXHAUSTIVE;
    else if (strcmp(value, "random") == 0)
        plan->strategy = CT_TUNE_RANDOM;
    else if (strcmp(value, "halving") == 0)
        plan->strategy = CT_TUNE_HALVING;
    else {
        fprintf(stderr, "colltune tune: --strategy '%s': want exhaustive, random or halving\n",
                value);
        return CT_ERR_USAGE;
    }
    return CT_OK;
}

/* --objective max|avg. */
static ct_status_t ct_tune_parse_objective(const char *value, ct_tune_args_t *a)
{
    if (strcmp(value, "max") == 0 || strcmp(value, "avg") == 0) {
        a->objective = value;
        return CT_OK;
    }
    fprintf(stderr,
            "colltune tune: --objective '%s': want max (the slowest rank) or avg "
            "(the average rank)\n",
            value);
    return CT_ERR_USAGE;
}

/* --verify-pairs N: 0 (the search and its report only: nothing is
 * written), else enough pairs for the test to reach p <= 0.05. */
static ct_status_t ct_tune_parse_verify_pairs(const char *value, ct_tune_args_t *a)
{
    ct_status_t st =
        ct_cli_long("tune", "verify-pairs", value, 0, CT_TUNE_MAX_LAUNCHES / 2, &a->verify_pairs);
    if (st == CT_OK && a->verify_pairs > 0 && a->verify_pairs < CT_TUNE_VERIFY_MIN_PAIRS) {
        fprintf(stderr,
                "colltune tune: --verify-pairs %ld: want 0 (no verification, no "
                "files) or at least %d\n",
                a->verify_pairs, CT_TUNE_VERIFY_MIN_PAIRS);
        st = CT_ERR_USAGE;
    }
    return st;
}

/* --shapes LIST, as collbench parses it. */
static ct_status_t ct_tune_parse_shapes(const char *value, ct_tune_args_t *a)
{
    char err[256];
    ct_status_t st = ct_shapes_parse(value, a->shapes, &a->nshapes, err, sizeof err);
    if (st != CT_OK)
        fprintf(stderr, "colltune tune: %s\n", err);
    else
        a->shapes_arg = value;
    return st;
}

/* --space FILE|NAME: the file, or the installed space of that name. */
static ct_status_t ct_tune_parse_space(const char *value, ct_tune_args_t *a)
{
    char why[PATH_MAX + 256];
    ct_status_t st = ct_space_locate(value, a->space_buf, sizeof a->space_buf, why, sizeof why);
    if (st == CT_OK)
        a->space_path = a->space_buf;
    else
        fprintf(stderr, "colltune tune: %s\n", why);
    return st;
}

/* One option id with its value into *a (the launch options included). */
static ct_status_t ct_tune_parse_one(int id, const char *value, ct_tune_args_t *a)
{
    ct_status_t st = CT_OK;
    long v;
    switch (id) {
    case CT_TUNE_SPACE: return ct_tune_parse_space(value, a);
    case CT_TUNE_LIST_SPACES: a->list_spaces = 1; break;
    case CT_TUNE_OUT: a->out = value; break;
    case CT_TUNE_COLLECTIVES: a->collectives = value; break;
    case CT_TUNE_STRATEGY: return ct_tune_parse_strategy(value, &a->plan);
    case CT_TUNE_BUDGET: return ct_cli_long("tune", "budget", value, 1, 100000000, &a->plan.budget);
    case CT_TUNE_BUDGET_S:
        return ct_cli_seconds("tune", "budget-s", value, 0.001, &a->plan.budget_s);
    case CT_TUNE_LAUNCHES:
        a->launches_given = 1;
        return ct_cli_long("tune", "launches", value, 1, CT_TUNE_MAX_LAUNCHES / 2,
                           &a->plan.launches);
    case CT_TUNE_SEED:
        st = ct_cli_long("tune", "seed", value, 0, LONG_MAX, &v);
        a->plan.seed = (unsigned long)v;
        break;
    case CT_TUNE_RESUME: a->resume = 1; break;
    case CT_TUNE_WEIGHTS: a->weights = value; break;
    case CT_TUNE_RULES_JSON: a->rules_json = 1; break;
    case CT_TUNE_EXTEND_RANGES: a->extend_ranges = 1; break;
    case CT_TUNE_OBJECTIVE: return ct_tune_parse_objective(value, a);
    case CT_TUNE_SHAPES: return ct_tune_parse_shapes(value, a);
    case CT_TUNE_VERIFY_PAIRS: return ct_tune_parse_verify_pairs(value, a);
    case CT_TUNE_VERIFY_TURNS:
        return ct_cli_long("tune", "verify-turns", value, 0, CT_TUNE_MAX_LAUNCHES / 2,
                           &a->verify_turns);
    default: ct_launch_opts_apply(&a->lo, id, value, &st); break;
    }
    return st;
}

/* The collbench arguments after --: none of those tune sets itself. */
static int ct_tune_check_cb_args(const ct_tune_args_t *a)
{
    const char *taken[] = {"-C", "--collectives", "--csv", "--json", "--shapes"};
    for (size_t k = 0; k < 5; k++)
        if (ct_argv_names(a->cb_args, a->ncb_args, taken[k])) {
            fprintf(stderr, "colltune tune: collbench argument %s is tune's to set (%s)\n",
                    taken[k],
                    k < 2   ? "use --collectives"
                    : k < 4 ? "each trial's results go to DIR/trials/" /* E23 */
                            : "use colltune tune --shapes: it decides per shape");
            return CT_EXIT_USAGE;
        }
    for (size_t i = 0; i < a->ncb_args; i++) {
        const char *arg = a->cb_args[i];
        /* -a decides what every comparison compares: the objective's, so
         * a collbench argument may not change it unseen.  getopt_long
         * takes -aN, --average=N and any prefix of --average. */
        const char *eq = strchr(arg, '=');
        size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
        if ((arg[0] == '-' && arg[1] == 'a') ||
            (n > 2 && strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, "average", n - 2) == 0 &&
             n - 2 <= 7)) {
            fprintf(stderr,
                    "colltune tune: collbench argument %s is tune's to set: use --objective max "
                    "(the slowest rank, -a 3; the default) or --objective avg (-a 1)\n",
                    arg);
            return CT_EXIT_USAGE;
        }
    }
    return CT_EXIT_OK;
}

/* What the options say together, once all are read. */
static int ct_tune_check_args(const ct_tune_args_t *a)
{
    if (a->space_path == NULL || a->out == NULL) {
        fprintf(stderr, "colltune tune: --space FILE and --out DIR are required\n");
        return CT_EXIT_USAGE;
    }
    if (a->collectives != NULL && ct_tune_check_collectives(a->collectives) != CT_EXIT_OK)
        return CT_EXIT_USAGE;
    if (ct_launch_opts_check(&a->lo) != CT_EXIT_OK)
        return CT_EXIT_USAGE;
    /* A weighted time sums one launch's rows, and a launch of several
     * shapes has a row per shape at each size. */
    if (a->nshapes > 0 && a->weights != NULL) {
        fprintf(stderr, "colltune tune: --weights and --shapes: a weighted time is one job "
                        "shape's; tune each shape with --weights on its own\n");
        return CT_EXIT_USAGE;
    }
    if (a->plan.strategy == CT_TUNE_RANDOM && a->plan.budget == 0) {
        fprintf(stderr, "colltune tune: --strategy random needs --budget N\n");
        return CT_EXIT_USAGE;
    }
    return ct_tune_check_cb_args(a);
}

int ct_tune_parse(int argc, char **argv, ct_tune_args_t *a)
{
    ct_cli_iter_t it = CT_CLI_ITER("tune", argc, argv);
    const char *value;
    int id;
    while ((id = ct_cli_next(&it, ct_tune_opts, CT_TUNE_NOPTS, &value)) > 0) {
        ct_status_t st = ct_tune_parse_one(id, value, a);
        if (st == CT_ERR_NOMEM)
            fprintf(stderr, "colltune tune: out of memory\n");
        if (st != CT_OK)
            return ct_status_exit_code(st);
    }
    int rc = ct_cli_finish(id, ct_tune_usage);
    if (rc != CT_EXIT_OK)
        return rc;
    a->cb_args = argv + it.next;
    a->ncb_args = (size_t)(argc - it.next);
    if (a->list_spaces)
        return CT_EXIT_OK;
    return ct_tune_check_args(a);
}

void ct_tune_args_defaults(ct_tune_args_t *a)
{
    a->plan.strategy = CT_TUNE_HALVING;
    a->plan.launches = 2;
    a->plan.seed = 1;
    a->verify_pairs = CT_TUNE_VERIFY_MIN_PAIRS;
    a->verify_turns = -1;
    a->objective = "max"; /* the slowest rank's completion is the job's */
}
