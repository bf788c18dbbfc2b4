/*
 * pattern.h - data whose collective results are exactly predictable.
 *
 * Inputs are small integers, so every dtype (int8 to bfloat16) holds them
 * and the results of sum/prod/min/max exactly; integer sums that overflow
 * wrap, and the expected value wraps the same way.  Reductions have a short
 * period in the element index, so the checker precomputes one expected
 * value per residue instead of re-reducing every element.
 */
#ifndef CT_PATTERN_H
#define CT_PATTERN_H

#include <stddef.h>
#include "coll.h"

/* Element i of rank's input to a data-moving collective. */
double ct_pattern_source(int rank, size_t i);

/* Element i of rank's input to a reduction. */
double ct_pattern_reduce_input(const ct_coll_data_t *data, int rank, size_t i);

/* Table of expected reduction results, indexed by i % period. */
typedef struct {
    size_t period;
    double *expected;
} ct_pattern_expect_t;

ct_status_t ct_pattern_expect_init(ct_pattern_expect_t *expect, const ct_coll_data_t *data);
void ct_pattern_expect_fini(ct_pattern_expect_t *expect);

/* Whether a loaded value matches: exact, except avg on floats, which a
 * library may compute as sum*(1/n) rather than sum/n. */
int ct_pattern_matches(const ct_coll_data_t *data, double got, double want);

/* Fills count elements of buf with the reduction input of data->rank,
 * starting at global element index first. */
void ct_pattern_fill_reduce(void *buf, size_t count, size_t first, const ct_coll_data_t *data);
/* Counts elements of buf that differ from the reduced value of global
 * index first+j. */
size_t ct_pattern_check_reduce(const void *buf, size_t count, size_t first,
                               const ct_coll_data_t *data);

#endif
