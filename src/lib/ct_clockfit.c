/* SPDX-License-Identifier: BSD-3-Clause */
#include "ct_clockfit.h"

void ct_clockfit_init(ct_clockfit_t *fit)
{
    fit->n = 0;
    fit->next = 0;
}

void ct_clockfit_add(ct_clockfit_t *fit, double local_us, double offset_us)
{
    fit->local_us[fit->next] = local_us;
    fit->offset_us[fit->next] = offset_us;
    fit->next = (fit->next + 1) % CT_CLOCKFIT_KEEP;
    if (fit->n < CT_CLOCKFIT_KEEP)
        fit->n++;
}

void ct_clockfit_model(const ct_clockfit_t *fit, double *offset_p, double *ref_p, double *drift_p)
{
    double t_mean = 0.0, o_mean = 0.0, t_min = 0.0, t_max = 0.0;

    *offset_p = *ref_p = *drift_p = 0.0;
    if (fit->n == 0)
        return;
    for (size_t i = 0; i < fit->n; i++) {
        t_mean += fit->local_us[i];
        o_mean += fit->offset_us[i];
        if (i == 0 || fit->local_us[i] < t_min)
            t_min = fit->local_us[i];
        if (i == 0 || fit->local_us[i] > t_max)
            t_max = fit->local_us[i];
    }
    t_mean /= (double)fit->n;
    o_mean /= (double)fit->n;
    /* Centred on the mean time, the fitted offset there is the mean offset
     * whether or not a slope is fitted. */
    *offset_p = o_mean;
    *ref_p = t_mean;
    if (fit->n < 3 || t_max - t_min < CT_CLOCKFIT_SPAN_US)
        return;
    double stt = 0.0, sto = 0.0;
    for (size_t i = 0; i < fit->n; i++) {
        double dt = fit->local_us[i] - t_mean;
        stt += dt * dt;
        sto += dt * (fit->offset_us[i] - o_mean);
    }
    *drift_p = stt > 0.0 ? sto / stt : 0.0;
}
