/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE
#include "watchdog.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct ct_watchdog {
    int timeout_s;
    int have_timer;
    timer_t timer;
    pthread_mutex_t lock;
    char what[256];
};

static void ct_watchdog_fire(union sigval sv)
{
    struct ct_watchdog *wd = sv.sival_ptr;
    char msg[400];
    pthread_mutex_lock(&wd->lock);
    int len = snprintf(msg, sizeof msg, "collbench: timeout: %s took longer than -T %d s\n",
                       wd->what, wd->timeout_s);
    pthread_mutex_unlock(&wd->lock);
    if (len > 0)
        (void)!write(STDERR_FILENO, msg, (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
    _exit(124);
}

ct_status_t ct_watchdog_create(int timeout_s, ct_watchdog_t **watchdog_p)
{
    struct ct_watchdog *wd = calloc(1, sizeof *wd);
    if (wd == NULL)
        return CT_ERR_NOMEM;
    wd->timeout_s = timeout_s;
    pthread_mutex_init(&wd->lock, NULL);
    if (timeout_s > 0) {
        struct sigevent sev;
        memset(&sev, 0, sizeof sev);
        sev.sigev_notify = SIGEV_THREAD;
        sev.sigev_notify_function = ct_watchdog_fire;
        sev.sigev_value.sival_ptr = wd;
        if (timer_create(CLOCK_MONOTONIC, &sev, &wd->timer) != 0) {
            perror("collbench: timer_create");
            free(wd);
            return CT_ERR_IO;
        }
        wd->have_timer = 1;
    }
    *watchdog_p = wd;
    return CT_OK;
}

void ct_watchdog_arm(ct_watchdog_t *wd, const char *what)
{
    if (!wd->have_timer)
        return;
    pthread_mutex_lock(&wd->lock);
    snprintf(wd->what, sizeof wd->what, "%s", what);
    pthread_mutex_unlock(&wd->lock);
    struct itimerspec its = {.it_value = {.tv_sec = wd->timeout_s}};
    timer_settime(wd->timer, 0, &its, NULL);
}

void ct_watchdog_disarm(ct_watchdog_t *wd)
{
    if (!wd->have_timer)
        return;
    struct itimerspec its = {{0, 0}, {0, 0}};
    timer_settime(wd->timer, 0, &its, NULL);
}

void ct_watchdog_destroy(ct_watchdog_t *wd)
{
    if (wd == NULL)
        return;
    if (wd->have_timer)
        timer_delete(wd->timer);
    pthread_mutex_destroy(&wd->lock);
    free(wd);
}
