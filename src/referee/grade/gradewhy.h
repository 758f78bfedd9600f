/*
 * gradewhy.h - what a check's evidence (gradecheck.h) says went wrong, in
 * the words both of the grade's readers get: feedback.html and index.html
 * (gradehtml.h) and results.json's "output" (gradeout.h). The reasons are
 * the referee's forfeit reasons as the evidence holds them (rules.h:
 * "timeout: no answer within 1500 ms of wall time (--timeout-ms)",
 * "exit-status 1", "crashed: SIGSEGV", "illegal-move: ..."), never
 * reworded, so a student finds the same words in a tournament's report.
 *
 * An item is failed when it cost points: every position and io item (the
 * evidence keeps only those), and every game not won. Journals written
 * before an item had "ply" or "stdout" are read all the same (the ply is
 * then not said).
 */
#ifndef ARENA_GRADEWHY_H
#define ARENA_GRADEWHY_H

#include "rubric.h"

struct cJSON;

#define GWHY_MAX 1024   /* bytes of one line of gwhy_item or gwhy_caption */
#define GWHY_SHORT_MAX 96   /* bytes of gwhy_short's text */

/* 1 when item it of check ch's evidence cost points (above). */
int gwhy_failed(const struct rubric_check *ch, const struct cJSON *it);
/* 1 when a game item ended by its forfeit (its reason is neither "normal"
 * nor "draw-rule"). */
int gwhy_forfeited(const struct cJSON *game);

/* The item's line into buf (GWHY_MAX bytes), returned:
 *   "position 3 (ply 12): given 4 (not best); expected one of 2 5"
 *   "position 3 (ply 12): no move (timeout: no answer within ...)"
 *   "game 2, as player 1, opening 3 4: lost, forfeited at ply 14: exit-status 1"
 *   "game 1, as player 2, opening 4 4: drawn (the game ended after ply 42)"
 *   "input a.txt: exit-status 1; first difference at line 3" */
const char *gwhy_item(const struct rubric_check *ch, const struct cJSON *it, char *buf);
/* The caption of the item's board into buf (GWHY_MAX bytes): a position's
 * "the position (ply 12, player 1 to move):" (the engine to move), a
 * finished game's "final position (after ply 42):", a forfeited one's "the
 * position it forfeited at (ply 14): exit-status 1". */
const char *gwhy_caption(const struct rubric_check *ch, const struct cJSON *it, char *buf);
/* A cpu curve's point (gradecheck.h) when a move failed at its depth:
 * "depth 4: 2 of 2 moves failed: timeout 2", into buf (GWHY_MAX bytes);
 * NULL when none did. */
const char *gwhy_depth(const struct cJSON *pt, char *buf);

/* Why check ch lost points, in a few words (GWHY_SHORT_MAX bytes) for the
 * class's table: the commonest kinds of its failures with their counts
 * ("timeout (3), not best (1)"), a cpu check's "median 812 ms > 500 ms" or
 * "not run at depth 7"; "" when nothing in the evidence says. */
const char *gwhy_short(const struct rubric_check *ch, const struct cJSON *evidence, char *buf);

/* results.json's "output" of a check: output, then a paragraph per failed
 * item (its line, its board with the caption, the ends of its stderr and
 * stdout) or failed depth. malloc'd, NULL when out of memory. */
char *gwhy_text(const struct rubric_check *ch, const char *output,
                const struct cJSON *evidence);

#endif
