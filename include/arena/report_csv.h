/*
 * report_csv.h - the CSV report, one table per file as spreadsheets and
 * scripts read it, RFC 4180: a header line, one record per line, CRLF line
 * ends, a field holding a comma, a double quote, CR or LF quoted ("..."),
 * its quotes doubled, a text field a spreadsheet would take for a formula
 * (=, +, -, @, a tab or CR first) after a ' (escape.h's esc_csv). The
 * tables:
 *   standings: rank,engine,games,points,wins,draws,losses,score,forfeits
 *   pairs:     engine_a,engine_b,games,wins_a,losses_a,draws,elo,
 *              elo_margin_95,los,draw_ratio,ptnml_ll,ptnml_ld,ptnml_even,
 *              ptnml_wd,ptnml_ww,nelo,nelo_margin_95 (an infinite Elo is inf;
 *              the pentanomial counts of game pairs, penta.h)
 *   cpu:       engine,moves,mean_ms,median_ms,p95_ms,max_ms (the engine's
 *              own user+sys time per move)
 *   forfeits:  engine,reason,count (by the reason's kind, rules.h)
 *   forfeit-games: engine,reason,detail,game,opponent (a row per forfeited
 *              game: its kind, as in forfeits, and its detail, as the
 *              journal has them; by engine in standings order, an engine's
 *              reasons most games first, each reason's games by number:
 *              tally_why_sort)
 */
#ifndef ARENA_REPORT_CSV_H
#define ARENA_REPORT_CSV_H

#include <stdio.h>
#include "arena/tally.h"

enum report_csv_table {
    REPORT_CSV_STANDINGS, REPORT_CSV_PAIRS, REPORT_CSV_CPU, REPORT_CSV_FORFEITS,
    REPORT_CSV_FORFEIT_GAMES
};

/* Prints table of t's report on out (sorts t's samples and forfeits in place). */
void report_csv(struct tally *t, enum report_csv_table table, FILE *out);

#endif
