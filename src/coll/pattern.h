/*
 * pattern.h - data whose collective results are exactly predictable, and
 * different at every global element index.
 *
 * A misplaced result (shifted by one element, another rank's block, two
 * blocks swapped) is caught only if the value expected at an index differs
 * from the values expected nearby and in other blocks, at every rank count.
 * So no value here is periodic in the index: each element draws its
 * parameters from a hash of its global index (a splitmix64 finaliser), and
 * the inputs are integers chosen per type so that every result stays exact:
 * no integer overflow, no float rounding (avg on floats excepted, see
 * ct_pattern_matches).  No expected output is ever all one bits (-1, the
 * unsigned maximum, NaN), the poison the engine writes before each call.
 *
 * Reductions, for element g of the reduced vector, with k(r) = (r + s(g))
 * mod nranks a per-element rotation of the ranks (so every rank plays
 * every part somewhere):
 *   sum   rank r gives base(g) + [k(r) < m(g)]: the sum is
 *         nranks*base(g) + m(g), at most the type's exact integer range
 *   prod  ranks with k(r) < m(g) give 2, the rank with k(r) = 0 an odd
 *         factor o(g) too: the product is o(g) * 2^m(g)
 *   min   base(g) + an offset 0 for k(r) = 0, largest for k(r) = nranks-1:
 *   max   the min is base(g), the max base(g) + min(nranks-1, 15)
 *   avg   base(g) from every rank, nranks*e(g) more from k(r) = 0: the sum
 *         is a multiple of nranks, so the mean a(g) is an integer in every
 *         type and integer division cannot truncate it
 * Signed types and floats also draw a sign per element.  A dropped or
 * doubled rank changes sum and prod wherever it adds or multiplies
 * something, and min/max where it holds the extreme.
 *
 * Data-moving collectives (allgather, alltoall, broadcast) carry one hash
 * stream: element g of it is a value spread over the type's exact range.
 * Rank r's input starts at r * send_count of that stream, so every rank's
 * block, and every shifted copy, holds different values.
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
