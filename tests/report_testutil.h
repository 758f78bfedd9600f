/*
 * report_testutil.h - the hand-made tallies the report suites share
 * (test_tally.c, test_report_text.c, test_report_json.c,
 * test_report_csv.c): games given as a table, and one field whose forfeits
 * have several kinds and details.
 */
#ifndef ARENA_REPORT_TESTUTIL_H
#define ARENA_REPORT_TESTUTIL_H

#include <stdio.h>
#include "arena/tally.h"

/* A game: its number (-1: a record without one), its players (sides 1 and
 * 2), the winning side, and the loser's forfeit reason as the referee
 * writes it, "KIND: detail" (NULL: won on the board). */
struct tu_game {
    long index;
    const char *player[2];
    int winner;
    const char *forfeit;
};

/* Starts t with the n engines names and adds games[0..count-1]; fails the
 * test on an error. Free t with tally_free. */
void tu_tally(struct tally *t, int n, const char *const names[], const struct tu_game games[],
              int count);

/* The field alpha, beta, gamma and its nine games: beta times out at two
 * limits (three games at one, one at the other) and passes its turn once,
 * gamma crashes once and writes garbage once (a detail with a comma),
 * alpha's judge-worded illegal move reads like a spreadsheet formula, and
 * one game is won on the board. Standings: alpha 4, gamma 3, beta 2. The
 * games are added in the journal's order, or (reversed) the other way
 * round, as a parallel tournament may write them. */
void tu_forfeit_tally(struct tally *t, int reversed);

/* What print(t, out) writes, as a malloc'd string. */
char *tu_print(void (*print)(struct tally *, FILE *), struct tally *t);

#endif
