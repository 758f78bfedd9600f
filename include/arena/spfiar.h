/*
 * spfiar.h - the SPFIAR assignment's Connect-4 program (seed:
 * spfiar-connect4-assignment.txt) on the shared Connect-4 bitboard and search.
 * Three parts, one source file each under src/games/connect4:
 *
 *   spfiar_score.c    the seed's scoring function (span histogram) and the
 *                     pure minimax it drives;
 *   spfiar_parse.c    the command-line parser of a session;
 *   spfiar_session.c  the game with its undo history, and the session loop
 *                     that prints the seed's messages byte for byte.
 *
 * Players: the user always moves first, so the user is Connect-4 player 1
 * (printed X) and the computer player 2 (printed O).
 */
#ifndef ARENA_SPFIAR_H
#define ARENA_SPFIAR_H

#include <stdint.h>
#include <stdio.h>
#include "arena/connect4.h"
#include "arena/search.h"

#define SPF_LEVEL_MIN 1
#define SPF_LEVEL_MAX 7
#define SPF_HISTORY   20     /* discs undo may remove: the seed's last 20 */
#define SPF_LINE_MAX  1024   /* characters of a command line (seed) */
#define SPF_SPAN      4      /* cells of a span */
#define SPF_TT_BYTES  ((size_t)4 << 20)

/* ---- scoring (spfiar_score.c) ------------------------------------------
 *
 * A span is any four cells in a line on the board (69 of them: 24
 * horizontal, 21 vertical, 24 diagonal). Its value is player A's discs in it
 * minus player B's, -4..4. The histogram counts the spans of each value; the
 * score of a board without a four weighs the counts of values -3..-1, 1..3
 * by the seed's vector {-5, -2, -1, 1, 2, 5}. A four scores INT_MAX for A,
 * INT_MIN for B in the seed; here SCORE_WIN and -SCORE_WIN, which the search
 * orders the same way. */

#define SPF_SPANS 69

struct spf_histogram {
    int count[2 * SPF_SPAN + 1];   /* count[v + SPF_SPAN]: spans of value v */
};

/* The histogram of the board with a's discs counted +1 and b's -1. */
void spf_histogram(uint64_t a, uint64_t b, struct spf_histogram *h);
/* The weighted sum of the histogram (values 0 and +-4 weigh nothing). */
int spf_weigh(const struct spf_histogram *h);
/* The seed's score for A: SCORE_WIN if a holds a four, -SCORE_WIN if b does,
 * else spf_weigh of the histogram. */
int spf_score(uint64_t a, uint64_t b);
/* spf_score with the side to move as A (struct c4_pos): the search's leaf
 * function. */
int spf_evaluate(const void *state);

/* The search the seed describes: minimax to the level, every leaf (finished
 * or not) scored by spf_evaluate, a win worth the same at any depth, ties to
 * the lowest column. Alpha-beta with these options picks what minimax picks
 * (test_spfiar checks it). */
struct search_opts spf_search_opts(void);
/* The move (0-based column) the seed's minimax picks for the side to move of
 * an unfinished position p at depth level; s was made with spf_search_opts
 * for game_connect4. r, if not NULL, receives the search's figures. */
int spf_best_move(struct search *s, const struct c4_pos *p, int level, struct search_result *r);

/* The level benchmark: the seed's search plays both sides of a game from the
 * empty board at level, the table cleared before every move, and prints per
 * move the column, nodes and CPU milliseconds, then the maximum and mean CPU
 * time and `signature N nodes` (the total, which changes only when the
 * search does). Returns 0, or 1 when out of memory. */
int spf_bench(FILE *out, int level);

/* ---- parser (spfiar_parse.c) --------------------------------------------
 *
 * A command line is whitespace-separated tokens (space, tab, CR, LF). */

enum spf_cmd {
    SPF_CMD_INVALID,    /* "Error: invalid command" */
    SPF_CMD_ADD_DISC,
    SPF_CMD_SUGGEST,
    SPF_CMD_UNDO,
    SPF_CMD_QUIT,
    SPF_CMD_RESTART,
};

struct spf_command {
    enum spf_cmd cmd;
    int valid_arg;   /* ADD_DISC: 1 when arg is an integer in 1..7 */
    int arg;         /* ADD_DISC: the column, 1-based, when valid_arg */
};

/* Parses one line (NUL-terminated, without or with its newline). add_disc
 * takes exactly one token; an integer is an optional '-' and digits. */
struct spf_command spf_parse_command(const char *line);

enum spf_level_reply { SPF_LEVEL_BAD, SPF_LEVEL_OK, SPF_LEVEL_QUIT };
/* Parses an answer to the level prompt: one token, an integer in 1..7 (sets
 * *level) or "quit". */
enum spf_level_reply spf_parse_level(const char *line, int *level);

/* ---- the game and its undo history (spfiar_session.c) -------------------
 *
 * moves holds every disc of the game in order (columns, 0-based); undoable
 * is how many of the latest may still be removed, at most SPF_HISTORY: the
 * seed's fixed-capacity list of the last 20 discs, where a new disc pushes
 * the oldest out. */

struct spf_game {
    struct c4_pos pos;
    int moves[C4_CELLS];
    int count;
    int undoable;
};

enum spf_status { SPF_ON, SPF_USER_WINS, SPF_COMPUTER_WINS, SPF_TIE };

void spf_game_init(struct spf_game *g);
/* Drops a disc of the side to move in col (0-based), which must be playable. */
void spf_game_add(struct spf_game *g, int col);
/* Undoes one turn: the computer's disc then the user's, or only the user's
 * when it was the last disc (it won). Returns how many discs went (0: nothing
 * to undo, the position unchanged) and their columns in removed, in removal
 * order. A turn whose user disc has left the history cannot be undone. */
int spf_game_undo(struct spf_game *g, int removed[2]);
enum spf_status spf_game_status(const struct spf_game *g);
/* The seed's eight lines: six rows, 17 dashes, the column numbers. */
void spf_print_board(FILE *out, const struct c4_pos *p);

struct spf_session_opts {
    int level;          /* 0: ask at the level prompt (again after each
                         * restart_game); else play every game at it */
    size_t tt_bytes;    /* the search's table */
};

/* Runs a session from in to out until quit or end of input (which quits).
 * Returns the exit status: 0, or 1 after "Error: <function> has failed". */
int spf_session_run(const struct spf_session_opts *o, FILE *in, FILE *out);

#endif
