/*
 * judge.h - a game defined by a program (docs/judges.md): a trusted judge,
 * run unsandboxed as the referee's own tool, answers the rules over JSON
 * lines on its stdin/stdout (protocol "arena-judge/1"), and judge_game
 * makes it a `struct game` so that play, journals, verify, reports and the
 * HTML replay work as for a built-in game.
 *
 * Representation: a position is the judge's canonical board text, NUL
 * padded to the state's JUDGE_BOARD_MAX bytes (limits.h), so equal boards
 * are equal bytes. A move is the index of a child in the judge's list of
 * the position's legal moves (its canonical order). The judge's answers
 * about the last positions asked are cached.
 *
 * struct game's operations carry no context, so one judge is active per
 * process (judge_open asserts there is no other); a worker forked by the
 * referee starts its own judge process on its first question. Every judge
 * process is killed if the process that started it dies (PDEATHSIG).
 *
 * A judge that crashes, answers nothing within JUDGE_TIMEOUT_MS or answers
 * nonsense ends the referee process with status JUDGE_EXIT_FAILED and
 * "referee: judge 'CMD': WHAT" on stderr after killing the judge: it is
 * never an engine's forfeit.
 */
#ifndef ARENA_JUDGE_H
#define ARENA_JUDGE_H

#include "arena/err.h"
#include "arena/game.h"

#define JUDGE_PROTOCOL "arena-judge/1"
#define JUDGE_EXIT_FAILED 4   /* the referee's exit status when its judge failed */

struct judge;
struct hdr;

/* Starts the judge of command cmd (words as a SPEC's cmd=, spec.h), says
 * hello and learns its game's name and start board. want_sha256 (NULL:
 * any) is the program's SHA-256 the caller expects (a journal's): another
 * is refused. Returns the judge (free with judge_close), or NULL with e
 * naming the judge. */
struct judge *judge_open(const char *cmd, const char *want_sha256, struct err *e);

/* The judge's game (valid until judge_close). */
const struct game *judge_game(const struct judge *j);

/* Records the judge in h: "judge": {"cmd": [WORDS], "sha256": HEX}. 0 or -1
 * (out of memory). */
int judge_header(const struct judge *j, struct hdr *h);

/* The judge a journal's header names (its recorded command, refused when
 * its program changed), or NULL with e when there is none (*none set to 1:
 * the header names no judge, e untouched) or it cannot start. */
struct judge *judge_from_header(const struct hdr *h, int *none, struct err *e);

/* The game of a journal's header: the judge's it names (started into
 * *judge, which the caller closes with judge_close), else the registry's
 * game of its name (*judge NULL). NULL with e at line 1, column 1 when
 * there is none ("unknown game 'x'") or its judge cannot start or changed. */
const struct game *judge_game_of(const struct hdr *h, struct judge **judge, struct err *e);

/* Ends the judge process (closing its stdin, then killing it) and frees j;
 * j may be NULL. */
void judge_close(struct judge *j);

#endif
