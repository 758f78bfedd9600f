/*
 * progress.c - the tournament's progress line on stderr (progress.h).
 */
#include <stdio.h>
#include "arena/clock.h"
#include "arena/escape.h"
#include "arena/progress.h"
#include "arena/record.h"

#define NS_PER_S 1e9
#define SECONDS_PER_MINUTE 60

void progress_start(struct progress *p, int on)
{
    p->on = on;
    p->shown = 0;
    p->t0 = clock_wall_ns();
}

void progress_show(struct progress *p, long done, long wanted, long played_now,
                   const char *leader, double points)
{
    if (!p->on)
        return;
    double secs = (double)(clock_wall_ns() - p->t0) / NS_PER_S;
    double rate = secs > 0 ? (double)played_now / secs : 0.0;
    char eta[32] = "--:--";
    if (rate > 0) {
        long t = (long)((double)(wanted - done) / rate);
        snprintf(eta, sizeof eta, "%ld:%02ld", t / SECONDS_PER_MINUTE, t % SECONDS_PER_MINUTE);
    }
    char name[ESC_ROOM(REC_NAME_MAX)];   /* as the terminal shows it */
    fprintf(stderr, "\r\033[K%ld/%ld games  %.2f games/s  ETA %s  leader %s (%.1f)", done, wanted,
            rate, eta, esc_text(leader, name, sizeof name), points);
    fflush(stderr);
    p->shown = 1;
}

void progress_clear(struct progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        p->shown = 0;
    }
}
