/*
 * report_text.h - the text report: the standings table, the pairs with Elo,
 * LOS and draw ratio, CPU per move and the referee's overhead, forfeits (the
 * lines cutechess users know), then, when there were forfeits, why: each
 * engine's reasons in full (kind and detail), most games first, with their
 * count and games ("  3 x timeout: no answer within 1000 ms of wall time
 * (--timeout-ms)" over "      games 1, 2, 7 against a"; at most 10 reasons
 * an engine and 10 games a reason, then how many more).
 */
#ifndef ARENA_REPORT_TEXT_H
#define ARENA_REPORT_TEXT_H

#include <stdio.h>
#include "arena/tally.h"

/* Prints the report of t on out (sorts t's samples and forfeits in place:
 * tally_cpu, tally_why_sort). Names longer
 * than a column widen it, so columns still line up. */
void report_text(struct tally *t, FILE *out);

/* Prints one line for each engine that forfeited every one of its games,
 * with its reasons ("rand forfeited every game it played (4): exit-status
 * 2", "b forfeited every game it played (2): timeout (1), exit-status 1
 * (1)"), or, when none did but every game ended in a forfeit, one line
 * naming each engine that forfeited and its reasons; returns how many
 * lines. A grading script then sees exit status 3 (docs/referee.md). */
int report_text_forfeiters(const struct tally *t, FILE *out);

#endif
