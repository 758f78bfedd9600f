/*
 * report_text.h - the text report: the standings table, the pairs with Elo,
 * LOS and draw ratio, CPU per move and the referee's overhead, forfeits (the
 * lines cutechess users know).
 */
#ifndef ARENA_REPORT_TEXT_H
#define ARENA_REPORT_TEXT_H

#include <stdio.h>
#include "arena/tally.h"

/* Prints the report of t on out (sorts t's samples in place). */
void report_text(struct tally *t, FILE *out);

#endif
