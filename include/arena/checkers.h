/*
 * checkers.h - the checkers seed's variant (shared/seeds/checkers-assignment.txt):
 * the board and its rules (src/games/checkers/board.c), the engine's
 * `checkers` game (game.c) and the course program's stdin replay behind the
 * `checkers` binary (session.c). One board serves all three.
 *
 * Rules: 8x8, 12 pieces a side, black first. A piece moves one square
 * diagonally forward (black north, towards row 1; white south, towards row
 * 8); a tower (a piece that reached the far row) one square in any diagonal
 * direction. A capture jumps over one adjacent opposing piece or tower onto
 * the empty square beyond it, forward only for a piece, any way for a tower;
 * one jump per turn, and capturing is never forced. A piece that ends its
 * action on the far row becomes a tower. A player who cannot act on their
 * turn loses.
 *
 * Coordinates are the seed's: columns A-H left to right, rows 1-8 top to
 * bottom as printed, white starting on rows 1-3. In code, row 0-7 is the
 * printed row minus 1 and col 0-7 is A-H; a square is playable when row + col
 * is odd (B1, A2, ...).
 *
 * Representation: the 32 playable squares, numbered row-major (the seed's
 * walk order), one uint32 bitboard per side for pieces and one for towers.
 *
 *          A   B   C   D   E   F   G   H
 *     1    .   0   .   1   .   2   .   3      row 0: square = 4*row + col/2
 *     2    4   .   5   .   6   .   7   .
 *     3    .   8   .   9   .  10   .  11
 *     4   12   .  13   .  14   .  15   .
 *     5    .  16   .  17   .  18   .  19
 *     6   20   .  21   .  22   .  23   .
 *     7    .  24   .  25   .  26   .  27
 *     8   28   .  29   .  30   .  31   .
 *
 * A diagonal step adds a delta that depends only on the row's parity: on
 * rows 1, 3, 5, 7 (even row index) NE -3, SE +5, SW +4, NW -4; on the others
 * NE -4, SE +4, SW +3, NW -5. So a whole bitboard steps with two masked
 * shifts, and the squares that can move or jump in one direction are a few
 * ANDs: the generator finds them for all four directions at once and then
 * only visits squares that have an action, and ck_has_action costs a few
 * dozen instructions.
 *
 * Canonical order (the seed's child order, every tie-break): squares in
 * increasing number (row-major from A1), and for each piece or tower its
 * actions clockwise from north-east: NE, SE, SW, NW. In one direction a
 * piece has at most one action (a move if the neighbour is empty, a jump if
 * it holds an opponent and the square beyond is empty).
 *
 * A move is the int CK_MOVE(from, to) = from * CK_SQUARES + to (squares as
 * above), below CK_MOVE_LIMIT.
 * A move is a capture exactly when from and to are two rows apart.
 *
 * Board file (DESIGN.md): 8 lines of 8 characters, row 1 first, `.` empty,
 * `b` `w` pieces, `B` `W` towers, pieces only on playable squares, at most
 * 12 pieces and towers a side, no plain piece on its own far row (it would
 * have become a tower); then `black` or `white`, the side to move.
 */
#ifndef ARENA_CHECKERS_H
#define ARENA_CHECKERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "arena/game.h"
#include "arena/search.h"

#define CK_SIZE        8                 /* rows and columns */
#define CK_SQUARES     32                /* playable squares */
#define CK_PER_ROW     (CK_SQUARES / CK_SIZE)
#define CK_MAX_PIECES  12                /* pieces and towers a side */
#define CK_MOVE_LIMIT  (CK_SQUARES * CK_SQUARES)
#define CK_TOWER_COST  3                 /* a tower costs three pieces */
#define CK_SEED_DEPTH  3                 /* the seed's minimax depth for A and P */
#define CK_PLAY_TURNS  10                /* the seed's P: ten turns at most */

enum ck_side { CK_BLACK = 0, CK_WHITE = 1 };
enum ck_dir { CK_NE, CK_SE, CK_SW, CK_NW, CK_DIRS };

struct ck_pos {
    uint32_t piece[2];   /* plain pieces, [enum ck_side] */
    uint32_t tower[2];   /* towers */
    uint8_t to_move;     /* enum ck_side */
    uint8_t pad[3];      /* always 0: positions compare with memcmp */
};

#define CK_MOVE(from, to)  ((from) * CK_SQUARES + (to))
#define CK_MOVE_FROM(m)    ((m) / CK_SQUARES)
#define CK_MOVE_TO(m)      ((m) % CK_SQUARES)

/* ---- the board (board.c) ------------------------------------------------ */

/* Pieces and towers of side s, as one bitboard. */
static inline uint32_t ck_all(const struct ck_pos *p, enum ck_side s)
{
    return p->piece[s] | p->tower[s];
}

/* The seed's initial setup (Figure 1a), black to move. */
void ck_init(struct ck_pos *p);
/* Square number of (row, col), both 0-based; -1 when the square is not
 * playable or off the board. */
int ck_square(int row, int col);
/* Row and column (0-based) of square sq. */
void ck_coords(int sq, int *row, int *col);
/* The character of (row, col) as printed and in board files: '.', 'b', 'w',
 * 'B' or 'W'. Unplayable squares are '.'. */
char ck_cell(const struct ck_pos *p, int row, int col);
/* Lists the side to move's actions in canonical order; returns how many
 * (at most 4 * CK_MAX_PIECES). moves holds GAME_MAX_MOVES ints. */
int ck_gen(const struct ck_pos *p, int *moves);
/* 1 when the side to move has an action. */
int ck_has_action(const struct ck_pos *p);
/* Plays a move ck_gen returned for p, in place (capture, promotion, turn). */
void ck_play(struct ck_pos *p, int move);
/* 1 when move (from ck_gen for p) captures or promotes: it can never be
 * undone, so the referee's draw counter restarts. */
int ck_irreversible(const struct ck_pos *p, int move);
/* Pieces and towers of side s. */
int ck_count(const struct ck_pos *p, enum ck_side s);
/* The seed's board cost b + 3B - w - 3W, black's view, whoever moves. */
int ck_cost(const struct ck_pos *p);
/* "G6-F5"; returns the length (5). cap >= 6. */
int ck_move_text(int move, char *buf, size_t cap);
/* The seed's printed board: column letters, then each row between rules. */
void ck_print_board(FILE *out, const struct ck_pos *p);
/* "BLACK" or "WHITE", as the seed prints sides. */
const char *ck_side_label(enum ck_side s);
/* The seed's end of game for p, whose side to move cannot act: the other
 * side wins ("BLACK WIN!" or "WHITE WIN!" and a newline). */
void ck_print_winner(FILE *out, const struct ck_pos *p);

/* The seed's checks on one input action, in its order; CK_ACTION_OK when
 * the action is legal. Cells are 0-based and may lie off the board. */
enum ck_action_check {
    CK_ACTION_OK,
    CK_SOURCE_OUTSIDE,
    CK_TARGET_OUTSIDE,
    CK_SOURCE_EMPTY,
    CK_TARGET_NOT_EMPTY,
    CK_SOURCE_OPPONENT,
    CK_ILLEGAL,
};
/* Checks the action (src_row, src_col) -> (dst_row, dst_col) of the side to
 * move; on CK_ACTION_OK sets *move. */
enum ck_action_check ck_check_action(const struct ck_pos *p, int src_row, int src_col,
                                     int dst_row, int dst_col, int *move);

/* ---- the engine game (game.c) -------------------------------------------- */

/* Terminal: the side to move has no action and has lost (-SCORE_WIN, no
 * margin). Evaluation: the seed's board cost from the side to move's view.
 * Draws are the referee's business (game->irreversible). */
extern const struct game game_checkers;

/* The seed's minimax through the one search: leaves scored by the board
 * cost, a side that cannot act lost at any depth (the seed's INT_MIN for
 * black, INT_MAX for white; here -SCORE_WIN for the side to move, which
 * orders the same against every cost), no mate distance. With these options
 * search_minimax and search_alphabeta pick the seed's action: negamax keeps
 * the first of equal values in canonical order, which is the left-most child
 * whether black maximises or white minimises. tt_bytes: the table size
 * (0 for minimax alone). */
struct search_opts ck_search_opts(size_t tt_bytes);

/* ---- the `checkers` binary: the seed's replay (session.c) --------------- */

#define CK_LINE_MAX 64      /* characters of an input line */

struct ck_session_opts {
    const struct ck_pos *start;   /* the position before the first action */
    int depth;                    /* search depth for A and P, >= 1 */
};

/*
 * Replays the actions read from in (one per line, `G6-F5`), printing the
 * seed's header, the start board and every action with its board cost to
 * out, then runs an optional last command line: `A` computes and prints one
 * action, `P` up to CK_PLAY_TURNS; computed actions carry the `*** ` prefix.
 * A turn on which the side to move cannot act prints `BLACK WIN!` or
 * `WHITE WIN!` and ends play; without a command the same is checked once
 * after the last input action. Blank lines are skipped, lines end in LF or
 * CRLF, the last one may lack its newline, and lines after the command are
 * not read.
 *
 * Returns the exit status: 0; EXIT_BAD_INPUT after the seed's `ERROR: ...`
 * line on out for a rejected action; EXIT_BAD_INPUT with `stdin:line:col:
 * ...` on diag for a line that is not an action or command (or a read
 * error); 1 when out of memory.
 */
int ck_session_run(const struct ck_session_opts *o, FILE *in, FILE *out, FILE *diag);

#endif
