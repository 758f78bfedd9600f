/*
 * report_text.h - the text report: the standings table, the pairs with Elo,
 * LOS and draw ratio, CPU per move and the referee's overhead, forfeits (the
 * lines cutechess users know).
 */
#ifndef ARENA_REPORT_TEXT_H
#define ARENA_REPORT_TEXT_H

#include <stdio.h>
#include "arena/tally.h"

/* Prints the report of t on out (sorts t's samples in place). Names longer
 * than a column widen it, so columns still line up. */
void report_text(struct tally *t, FILE *out);

/* Prints one line for each engine that forfeited every one of its games
 * for one reason ("rand forfeited every game it played (4): exit-status 2");
 * returns how many. A grading script then sees exit status 3. */
int report_text_forfeiters(const struct tally *t, FILE *out);

#endif
