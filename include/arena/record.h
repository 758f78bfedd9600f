/*
 * record.h - one game's record, typed, with the one JSON encoder and the one
 * decoder of it: every writer of match logs and journal lines (play, the
 * tournament's workers) encodes through rec_encode, every reader (tournament
 * resume, report, verify, analyze, merge) gets records journal_scan decoded
 * through rec_decode, and nothing else reads a record's JSON.
 *
 * The JSON (the same in match logs and journals; key order as listed):
 *   {"index": I, "pair": P, "players": {"1": NAME, "2": NAME},
 *    "opening": [MOVE...], "moves": [{"ply", "side", "engine", "move" (null
 *    on a forfeit), "cpu_user_ms", "cpu_sys_ms" (the engine's rusage),
 *    "wall_ms" (its run), "max_rss_kb", "referee_ms" (the referee's own time
 *    on the ply: writing, starting, judging), with --tc "clock_ms" (the
 *    engine's clock after the move, INC included), "status" ("ok" or the forfeit
 *    reason's kind), on a forfeit with one "detail" (what happened in
 *    words), on a forfeit "stdout_tail" and "stderr_tail" (the last 4 KiB of
 *    what the engine wrote, runner.h; only when it wrote any), and when
 *    analysed "before", "after" (outcomes) and "blunder" (true/false)}...], "result": "1-0"|"0-1"|"1/2-1/2", "winner":
 *    NAME|null, "reason": "normal"|"draw-rule"|forfeit reason's kind, and
 *    beside a forfeit's kind its "detail" when it has one, for a game
 *    with a score (game.h's struct game_score) that ended by its rules
 *    "score": {"1": N, "2": N, "of": LABEL}, and when
 *    analysed "analysis": {"blunders": {ENGINE: N...}, "unknown": N,
 *    "decisive": {"ply", "engine", "move", "before", "after"}|null}}
 * In memory a forfeit reason is one text, "KIND: detail" (rules.h); the
 * JSON keeps the kind under "status" or "reason", as records before
 * "detail" did, and the rest under "detail", so a script that compares
 * the kind never sees a limit's number or an engine's words. A record
 * written before "detail" holding the whole text under "reason" (or
 * "status") is read as it is.
 * The header of a log or journal, the first object, is header.h's.
 *
 * Representation: fixed-size strings, so a record needs no allocation but
 * its two arrays and a forfeit's output tails. Readers must take records they did not write (hand-made
 * fixtures, doctored journals), so the decoder refuses only what it cannot
 * hold (a string too long, a value of the wrong kind inside the opening or
 * the analysis) and marks what is missing: "" for a missing string, 0 for a
 * missing ply or side, -1 for a missing index or pair, NAN for a missing
 * time, REC_NO_RESULT / REC_NO_REASON / REC_UNANALYSED, and the REC_HAS_*
 * bits for keys whose value can be empty. The encoder writes back exactly
 * the keys the record has, so decoding and encoding a record the referee
 * wrote gives the same bytes.
 */
#ifndef ARENA_RECORD_H
#define ARENA_RECORD_H

#include <stdio.h>
#include "arena/err.h"
#include "arena/game.h"

struct cJSON;

#define REC_NAME_MAX 64          /* bytes of an engine name, with NUL */
/* Bytes of a status or forfeit reason, with NUL: room for the board
 * reader's message, "unreadable: 7:1: player 2 cannot be to move with 41
 * discs of player 1 and 0 of player 2" (rules.h). */
#define REC_REASON_MAX 192
#define REC_MAX_ENGINES 32       /* engines a header may name (header.h) */
/* Game indices are whole numbers from 1 to REC_INDEX_MAX: far above any
 * schedule (rounds and engines are bounded), low enough that a double holds
 * each exactly and arithmetic on them cannot overflow a long. */
#define REC_INDEX_MAX (1L << 40)

/* The result: the winning side, or a draw. */
enum rec_result { REC_NO_RESULT = -1, REC_DRAWN = 0, REC_WIN_1 = 1, REC_WIN_2 = 2 };
/* Why the game ended. */
enum rec_reason { REC_NO_REASON, REC_NORMAL, REC_DRAW_RULE, REC_FORFEIT };
/* An oracle's verdict for the side to move (analyze.h). */
enum rec_outcome { REC_LOSS = -1, REC_DRAW = 0, REC_WIN = 1, REC_UNKNOWN = 2, REC_UNANALYSED = 3 };

/* Keys that may be missing although their value can be empty. */
enum {
    REC_HAS_PLAYERS = 1, REC_HAS_OPENING = 2, REC_HAS_MOVES = 4, REC_HAS_WINNER = 8,
    REC_HAS_ANALYSIS = 16,
    REC_HAS_ENGINE = 32, REC_HAS_MOVE = 64, REC_HAS_STATUS = 128,   /* of a move */
};
#define REC_HAS_ALL 0xff

struct rec_move {
    int ply, side;                 /* as recorded; 0: missing */
    char engine[REC_NAME_MAX];
    char move[GAME_MOVE_TEXT_MAX]; /* "": none (null on a forfeit, or missing) */
    double cpu_user_ms, cpu_sys_ms, wall_ms, max_rss_kb, referee_ms;  /* NAN: missing */
    double clock_ms;               /* with --tc: the clock left after the move,
                                    * INC included; NAN: no clock */
    char status[REC_REASON_MAX];   /* "ok" or the forfeit reason; "": missing */
    enum rec_outcome before, after;  /* REC_UNANALYSED: not analysed */
    int blunder;
    unsigned has;                  /* REC_HAS_ENGINE, _MOVE, _STATUS */
    char *stdout_tail, *stderr_tail; /* a forfeit's output, UTF-8 text; malloc'd,
                                      * the record's once added; NULL: none */
};

struct rec_analysis {
    int nblunders;                 /* engines with a blunder, in order of the first */
    struct { char engine[REC_NAME_MAX]; long count; } blunders[2];
    long unknown;                  /* positions the oracle could not tell */
    int has_decisive;              /* 0: "decisive": null */
    struct {
        int ply;
        char engine[REC_NAME_MAX], move[GAME_MOVE_TEXT_MAX];
        enum rec_outcome before, after;
    } decisive;
};

#define REC_LABEL_MAX 32          /* bytes of a score's label, with NUL */

/* The game's own final score (game.h's struct game_score). */
struct rec_score {
    int set;                       /* 0: none (a game without one, a forfeit,
                                    * a record from before scores) */
    int side[2];                   /* sides 1 and 2 */
    char of[REC_LABEL_MAX];        /* what they count: "points"; "": unsaid */
};

struct game_record {
    long index, pair;              /* -1: missing (index: or not 1..REC_INDEX_MAX) */
    char player[2][REC_NAME_MAX];  /* sides 1 and 2; "": missing */
    int nopening;
    char (*opening)[GAME_MOVE_TEXT_MAX];   /* malloc'd */
    int nmoves, capmoves;
    struct rec_move *moves;                /* malloc'd */
    enum rec_result result;
    enum rec_reason reason;
    char forfeit[REC_REASON_MAX];  /* REC_FORFEIT: the reason ("timeout", ...) */
    struct rec_score score;
    struct rec_analysis analysis;  /* with REC_HAS_ANALYSIS */
    unsigned has;                  /* REC_HAS_PLAYERS, _OPENING, _MOVES, _WINNER, _ANALYSIS */
};

/* An empty record (nothing missing but what is added later: has is
 * REC_HAS_ALL, index and pair as given). Free with rec_free. */
void rec_init(struct game_record *r, long index, long pair);
void rec_free(struct game_record *r);

/* Appends an opening move or a move; 0, or -1 when out of memory. A move
 * added starts unanalysed, with every time missing; the record takes its
 * tails (rec_free frees them), also when out of memory. */
int rec_add_opening(struct game_record *r, const char *move);
int rec_add_move(struct game_record *r, const struct rec_move *m);
/* A move with nothing recorded yet (for rec_add_move). */
void rec_move_init(struct rec_move *m);
/* Frees a move's tails (a move not added to a record: play_solo_move's). */
void rec_move_free(struct rec_move *m);

/* Sets the end: result, reason and, for REC_FORFEIT, the forfeit text. */
void rec_set_end(struct game_record *r, enum rec_result result, enum rec_reason reason,
                 const char *forfeit);

/* Sets the game's own final score: side[0] side 1's, side[1] side 2's,
 * counting label (shorter than REC_LABEL_MAX). */
void rec_set_score(struct game_record *r, const int side[2], const char *label);

/* The final score as results show it, the winner's first ("14-11"; a draw
 * side 1's first), into buf of REC_SCORE_TEXT_MAX bytes; "" without one.
 * Returns buf. */
#define REC_SCORE_TEXT_MAX 32
char *rec_score_text(const struct game_record *r, char *buf);

/* The record as JSON (a new cJSON object; the caller deletes it), or NULL
 * when out of memory. Assumes a record rec_decode or the rec_* setters made. */
struct cJSON *rec_encode(const struct game_record *r);
/* Writes rec_encode's JSON, unformatted and without a newline, to fd (a
 * worker's answer to the tournament or match parent): 0, or -1 when out of
 * memory or the write failed. */
int rec_send(const struct game_record *r, int fd);

/* Decodes a record: 0 with r filled (free with rec_free), or -1 with e
 * filled (line and column 0: the caller knows the place) and r empty. */
int rec_decode(const struct cJSON *json, struct game_record *r, struct err *e);

/* Copies json's string member key into buf (cap bytes), for the records'
 * and the journal header's fixed-size texts: 1 when it is a string, 0 when
 * it is missing or no string (buf untouched), -1 with e (no place) when it
 * is cap bytes or longer. */
int rec_json_text(const struct cJSON *json, const char *key, char *buf, size_t cap,
                  struct err *e);

/* The text of a result ("1-0", "0-1", "1/2-1/2"; "?" for none), of a reason
 * ("normal", "draw-rule", the forfeit text; "?" for none), of an outcome
 * ("win", "draw", "loss", "unknown"). */
const char *rec_result_text(enum rec_result res);
const char *rec_reason_text(const struct game_record *r);
const char *rec_outcome_name(enum rec_outcome o);

/* A forfeit reason's kind, what reports count and scripts compare, into
 * kind (REC_REASON_MAX bytes): the reason without the detail after ": "
 * ("unreadable: 7:1: ..." is "unreadable", "timeout: no answer within
 * ..." is "timeout"), except "crashed: SIGNAME", a kind of its own; else
 * the reason itself. Returns the detail (inside reason), or NULL when it
 * has none. */
const char *rec_reason_split(const char *reason, char *kind);

/* The winning engine's name, or NULL for a draw or no result. */
const char *rec_winner(const struct game_record *r);

#endif
