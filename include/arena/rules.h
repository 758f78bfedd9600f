/*
 * rules.h - the referee's rules of play, in one place for play, verify and
 * analyze: the placeholders of an engine's command, replaying an opening,
 * when a game ends (the game's own result, or the draw rule), and judging
 * an engine's answer. The forfeit reason of a failed run is forfeit.h's.
 *
 * Representation: nothing of its own; positions are the game's (game.h),
 * records are record.h's, reasons are text of at most REC_REASON_MAX bytes.
 *
 * The draw rule: games whose moves can repeat forever (game->irreversible
 * set) are drawn, reason "draw-rule", once draw_plies plies (> 0) in a row
 * had no irreversible move. Other games end only by their own rules.
 */
#ifndef ARENA_RULES_H
#define ARENA_RULES_H

#include <stddef.h>
#include "arena/game.h"
#include "arena/record.h"

/* {in} {out} {depth} {player} {time} {inc}, in this order ({time}: the
 * engine's clock before the move, {inc}: the increment, both in ms, 0
 * without --tc); a command with none of them gets the first
 * RULES_DEFAULT_PLACEHOLDERS appended. */
#define RULES_PLACEHOLDERS 6
#define RULES_DEFAULT_PLACEHOLDERS 3
extern const char *const rules_placeholder[RULES_PLACEHOLDERS];

/* 1 when word holds a placeholder. */
int rules_has_placeholder(const char *word);
/* Writes word into buf (cap > 0 bytes, cut to fit) with each placeholder k
 * replaced by value[k]. */
void rules_expand(const char *word, char *buf, size_t cap,
                  const char *const value[RULES_PLACEHOLDERS]);

/* Plays rec's opening from the start into pos. Returns 0, or -1 when a
 * move is not legal there or comes after the game ended. */
int rules_replay_opening(const struct game *g, const struct game_record *rec, void *pos);

/* Plays a book line (move texts separated by blanks) from the start into
 * pos, appending each move to rec's opening when rec is not NULL. Returns
 * 0, or -1 with e at the bad move (line lineno, column counted in line):
 * not legal, too long, after the end, or a line that ends the game (an
 * opening must leave a game to play), or out of memory. */
int rules_play_line(const struct game *g, const char *line, int lineno, void *pos,
                    struct game_record *rec, struct err *e);

/* The plies without an irreversible move after move is played at pos,
 * given quiet before it. */
int rules_quiet_after(const struct game *g, const void *pos, int move, int quiet);
/* Whether the game at pos has ended, quiet plies into a run without an
 * irreversible move: the result (REC_DRAWN, REC_WIN_1, REC_WIN_2) with
 * *reason REC_NORMAL or REC_DRAW_RULE, or REC_NO_RESULT while it goes on. */
enum rec_result rules_end(const struct game *g, const void *pos, int draw_plies, int quiet,
                          enum rec_reason *reason);

/* Judges an engine's output text (len bytes) against the position before:
 * 0 with *move set when it is that position plus one legal move, else -1
 * with the reason: the game's explanation of what the answer changed
 * (game.h's explain: "illegal-move: adds 41 discs of player 1"), else
 * unreadable: LINE:COL: the board reader's message, else illegal-move or
 * wrong-player. */
int rules_judge(const struct game *g, const void *before, const char *text, size_t len,
                int *move, char *reason);

/* The kind of a forfeit reason, what reports count and compare, is
 * record.h's rec_reason_split: a record keeps it apart from its detail. */

#endif
