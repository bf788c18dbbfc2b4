/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pattern.h - data whose collective results are exactly predictable, and
 * different at every global element index.
 *
 * A misplaced result (shifted by one element, another rank's block, two
 * blocks swapped) is caught only if the value expected at an index differs
 * from the values expected nearby and in other blocks, at every rank count.
 * So nothing here is periodic in the index.  Each pattern numbers its
 * possible results (codes) and walks a stream of codes: within a window of
 * up to 2^16 elements the codes are a permutation (all different, so a slip
 * inside a window is always caught, even for a type with a few dozen
 * possible results), and each window's permutation comes from a splitmix64
 * hash of the window's number.  Inputs are integers chosen per type so that
 * every result stays exact: no integer overflow, no float rounding (avg on
 * floats excepted, see ct_pattern_matches).  No expected output is ever all
 * one bits (-1, the unsigned maximum, NaN), the poison the engine writes
 * before each call.
 *
 * Reductions, for element g of the reduced vector: rank r plays part
 * k = (r + g) mod nranks, so every rank plays every part once in any
 * nranks consecutive elements; what is reduced does not depend on it.
 *   sum   each rank gives base(g), parts k < m(g) one more: the sum is
 *         nranks*base(g) + m(g), within the type's exact integers
 *   prod  parts k < m(g) give 2, part 0 an odd factor o(g) too: the
 *         product is o(g) * 2^m(g), m and o capped per type
 *   min   base(g) + an offset: 0 for part 0, largest (min(nranks-1, 15))
 *   max   for part nranks-1, in between for the others
 *   avg   a(g) * nranks in all, split between the ranks (beyond 16 ranks,
 *         given by part 0 alone): the mean a(g) is an integer, so integer
 *         division cannot truncate it.  |a| <= exact range / nranks, so
 *         where that is below 1 (int8 beyond 127 ranks, uint8 beyond 254,
 *         bfloat16 beyond 256, half beyond 2048) the mean is 0 everywhere.
 * Signed types and floats also draw a sign per element.  A dropped or
 * doubled rank changes sum and prod wherever it adds or multiplies
 * something, and min/max where it holds the extreme.
 *
 * Data-moving collectives (allgather, alltoall, broadcast) share one
 * stream whose codes are the type's values.  Rank r's input is elements
 * r*send_count.. of it, so every rank's block, and every shifted copy,
 * holds different values at any rank count.
 */
#ifndef CT_PATTERN_H
#define CT_PATTERN_H

#include <stddef.h>
#include "coll.h"

/* Element g of the data-moving collectives' stream, in dtype's range. */
double ct_pattern_source(ct_dtype_t dtype, size_t g);
/* Stores stream elements first .. first+count-1 into buf. */
void ct_pattern_fill_source(void *buf, size_t count, size_t first, ct_dtype_t dtype);
/* Counts elements of buf that differ from stream element first+j. */
size_t ct_pattern_check_source(const void *buf, size_t count, size_t first, ct_dtype_t dtype);

/* Element g of rank's input to a reduction (data->rank is not used). */
double ct_pattern_reduce_input(const ct_coll_data_t *data, int rank, size_t g);
/* Element g of the reduction of all ranks' inputs. */
double ct_pattern_reduce_expected(const ct_coll_data_t *data, size_t g);

/* Whether a loaded value matches: exact, except avg on floats, which NCCL
 * computes as the sum of x*(1/n) rounded in the type; the tolerance is
 * that sum's error bound, and the expected means are integers kept small
 * enough that the bound stays below 0.5, so a different mean never
 * matches. */
int ct_pattern_matches(const ct_coll_data_t *data, double got, double want);

/* Fills count elements of buf with the reduction input of data->rank,
 * starting at global element index first. */
void ct_pattern_fill_reduce(void *buf, size_t count, size_t first, const ct_coll_data_t *data);
/* Counts elements of buf that differ from the reduced value of global
 * index first+j. */
size_t ct_pattern_check_reduce(const void *buf, size_t count, size_t first,
                               const ct_coll_data_t *data);

#endif
