/*
 * verify.h - `referee verify`: replays every game of a journal or a match
 * log through the rules (rules.h) and names the first record they
 * contradict. Nothing in a record is trusted: the side to move, every
 * move's legality, the ending, the result and each game's uniqueness come
 * from the replay.
 */
#ifndef ARENA_VERIFY_H
#define ARENA_VERIFY_H

#include <stdio.h>
#include "arena/err.h"

struct judge_cmd;
/* A judge's journal is replayed through judge, the judge the user named
 * (--judge and --judge-sandbox, judge.h; NULL: none, and such a journal is
 * refused), checked against
 * its header (judge_game_of). Returns 0 when all is consistent (a summary
 * printed on out), 1 at the first inconsistency (described in e, with the
 * journal line in e->line), -1 when the file cannot be read or parsed or
 * its judge is refused (e filled), JUDGE_FAILED when the judge failed
 * (judge.h; e filled). */
int verify_file(const char *path, const struct judge_cmd *judge, FILE *out, struct err *e);

#endif
