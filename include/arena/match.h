/*
 * match.h - a match of N games between two engines, played one after the
 * other (play.h), with its JSON log (schema arena.match/1, journal.h) and
 * the result line every finished game prints.
 */
#ifndef ARENA_MATCH_H
#define ARENA_MATCH_H

#include <stdio.h>
#include "arena/play.h"

struct match_opts {
    struct play_rules rules;
    const struct spec *engine[2];
    int games;               /* games in all; pairs share an opening */
    const char *log_path;    /* JSON log; NULL: none */
};

/* Plays the match, printing one line per game and the score. Returns 0,
 * MATCH_FORFEITED when an engine forfeited every one of its games for one
 * reason (a line at the end says so: report_text_forfeiters), or -1 with e
 * filled when the referee itself fails (temporary folder, log file); an
 * engine's failure is a lost game, not an error. */
#define MATCH_FORFEITED 1
int match_run(const struct match_opts *o, FILE *out, struct err *e);

/* Prints a record's result line: "Finished game I (A vs B): 1-0 {why}",
 * where a forfeit's why ends with the last line its engine wrote to stderr
 * ("{rand forfeits: exit-status 1: ValueError: no legal move}"), a game
 * with a score ends with it, the winner's first ("{player 2 wins 14-11}"),
 * and its
 * analysis line when it has one. */
void match_print_result(FILE *out, const struct game_record *rec);

#endif
