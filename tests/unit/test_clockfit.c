/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_clockfit.c - ct_clockfit: the clock model that window mode's
 * common clock rests on.  Offsets with a known drift and a known noise
 * pattern must come back; short spans must not invent a drift; old
 * estimates must fall out of the window.
 */
#include <math.h>

#include "ct_clockfit.h"
#include "ct_test.h"

static ct_test_tally_t tally;

/* The model's offset at local time t. */
static double at(const ct_clockfit_t *fit, double t)
{
    double offset, ref, drift;
    ct_clockfit_model(fit, &offset, &ref, &drift);
    return offset + drift * (t - ref);
}

int main(void)
{
    ct_clockfit_t fit;

    /* Nothing known: offset 0. */
    ct_clockfit_init(&fit);
    CT_CHECK(&tally, at(&fit, 123.0) == 0.0);

    /* One estimate is the model. */
    ct_clockfit_add(&fit, 1000.0, 2.5);
    CT_CHECK(&tally, fabs(at(&fit, 5000.0) - 2.5) < 1e-12);

    /* Estimates within a short span: their mean, no drift, so +-0.2 us of
     * alternating noise averages out instead of tilting a line. */
    ct_clockfit_init(&fit);
    for (int i = 0; i < 8; i++)
        ct_clockfit_add(&fit, 1e6 + i * 1000.0, 7.0 + (i % 2 ? 0.2 : -0.2));
    CT_CHECK(&tally, fabs(at(&fit, 1e6) - 7.0) < 1e-9);
    CT_CHECK(&tally, fabs(at(&fit, 2e6) - 7.0) < 1e-9);

    /* A drift of 2 ppm over seconds, with the same noise: the line comes
     * back (slope within 2%: the alternating noise tilts it by 1%, and the
     * offset within the noise). */
    ct_clockfit_init(&fit);
    for (int i = 0; i < 12; i++) {
        double t = 5e6 + i * 2e5;
        ct_clockfit_add(&fit, t, -3.0 + 2e-6 * (t - 5e6) + (i % 2 ? 0.1 : -0.1));
    }
    double offset, ref, drift;
    ct_clockfit_model(&fit, &offset, &ref, &drift);
    CT_CHECK(&tally, fabs(drift - 2e-6) < 0.04e-6);
    CT_CHECK(&tally, fabs(at(&fit, 7.2e6) - (-3.0 + 2e-6 * 2.2e6)) < 0.1);

    /* Only the last CT_CLOCKFIT_KEEP estimates count: a step in the offset
     * is followed once enough new ones arrive. */
    ct_clockfit_init(&fit);
    for (int i = 0; i < CT_CLOCKFIT_KEEP; i++)
        ct_clockfit_add(&fit, 1e6 + i * 10.0, 100.0);
    for (int i = 0; i < CT_CLOCKFIT_KEEP; i++)
        ct_clockfit_add(&fit, 2e6 + i * 10.0, 0.5);
    CT_CHECK(&tally, fabs(at(&fit, 2e6) - 0.5) < 1e-9);
    CT_CHECK(&tally, fit.n == CT_CLOCKFIT_KEEP);

    return CT_DONE(&tally);
}
