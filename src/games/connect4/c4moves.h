/*
 * c4moves.h - Connect-4 positions written as move strings, and the lines of
 * `engine solve` input, of the public test sets and of opening books:
 *
 *   MOVES [SCORE]      e.g. "4453 -2"; an empty move string is the start
 *
 * MOVES the 1-based column digits played from the empty board, SCORE a
 * score as c4score.h has it, spaces or tabs between.
 */
#ifndef ARENA_C4MOVES_H
#define ARENA_C4MOVES_H

#include <stddef.h>
#include "arena/connect4.h"
#include "arena/err.h"
#include "arena/textfile.h"

/* The longest line read: a move string of a full board, a space and a score
 * fit with room left; anything longer is not a position. */
#define C4MOVES_LINE_MAX 128

/* The position after playing the 1-based column digits of moves[0..len):
 * returns 0, or the 1-based index of the first bad character with *why set
 * to "not a column digit 1-7", "column is full" or "game is already over"
 * (a move after a four in a row, or a finished game at the end: index
 * len + 1). *p is the position so far either way. */
int c4moves_parse(const char *moves, size_t len, struct c4_pos *p, const char **why);

/* One line, parsed. */
struct c4moves_line {
    struct c4_pos pos;   /* the position after the moves: valid, not finished */
    size_t moves_len;    /* bytes of the move string at the line's start */
    int has_score;       /* a score followed the moves */
    int score;           /* that score, in [-C4SCORE_MAX, C4SCORE_MAX] */
    int score_col;       /* the 1-based column where the score starts */
};

/* Parses one line as read by tf_getline into buf (r its result, lineno its
 * 1-based number); trailing blanks and a CR are cut from buf. Returns 0, or
 * -1 with e placed at the bad character (a line longer than
 * C4MOVES_LINE_MAX: at the column past the limit). */
int c4moves_parse_line(char *buf, enum tf_getline_result r, int lineno, struct c4moves_line *out,
                       struct err *e);

#endif
