/*
 * progress.h - the tournament's one-line progress display on stderr:
 * games done of those wanted, games per second, the time left at that
 * rate, and the leader with its points. Redrawn in place ("\r\033[K"), and
 * cleared before anything else is printed, so result lines stay whole.
 */
#ifndef ARENA_PROGRESS_H
#define ARENA_PROGRESS_H

#include <stdint.h>

struct progress {
    int on;          /* 0: show nothing */
    int shown;       /* the line is on the terminal now */
    uint64_t t0;     /* wall clock at the start, ns */
};

/* Starts the clock; on: whether to show anything. */
void progress_start(struct progress *p, int on);
/* Redraws the line: done of wanted games, played_now of them by this run
 * (the rate counts those), the leader's name and points. */
void progress_show(struct progress *p, long done, long wanted, long played_now,
                   const char *leader, double points);
/* Removes the line, if shown. */
void progress_clear(struct progress *p);

#endif
