/*
 * c4solver.h - the perfect Connect-4 solver (classic rules: four in a row
 * wins, a full board draws).
 *
 * Scores follow the public test sets (Pons, "Solving Connect 4"): 0 for a
 * draw; when the side to move wins, 22 minus the discs it has played when the
 * game ends (1: it wins with its last disc, 21: with its first); when it
 * loses, the negation of the same count for the winner. So a score says who
 * wins and how quickly, and the best move maximises it.
 *
 * The search is negamax with alpha-beta on the bitboard of connect4.h, driven
 * to the exact score by null-window searches (iterative narrowing). It keeps
 * only moves that do not hand the opponent an immediate win, orders them by
 * the TT's best move, then by how many winning cells they create (centre
 * first on ties), and remembers bounds in transposition tables of 8-byte
 * entries keyed by the full position (no false hits) in two-entry buckets.
 * A position and its mirror image share entries in a call whose root
 * allows both below it; other calls (most) skip the mirroring.
 *
 * There are two tables: a near one of at most 512 KiB that stays in the
 * caches (a bucket keeps its two newest entries) and a far one of tt_bytes
 * (one slot keeps the entry closest to the root, the other the newest). A
 * call files every position near until it has visited small_nodes
 * positions (most solves never do); then it files the positions more than a
 * few cells from the end far, taking their near entries along.
 *
 * The solver owns its tables (cleared at init); nodes counts the positions
 * the last call visited. Keeping the tables between calls, and where a
 * position is filed, only changes how fast a call is, never a score. No
 * globals: several solvers may live in one process.
 */
#ifndef ARENA_C4SOLVER_H
#define ARENA_C4SOLVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "arena/connect4.h"
#include "arena/err.h"
#include "arena/textfile.h"

#define C4S_DEFAULT_TT_MB 64
/* Scores lie in [-C4S_SCORE_MAX, C4S_SCORE_MAX]. */
#define C4S_SCORE_MAX (C4_CELLS / 2)
/* The score of a position with `moves` discs when the side to move wins
 * with its next disc (the highest it can have), and when it loses to the
 * opponent's next disc (the lowest). */
#define C4S_WIN_NOW(moves)   ((C4_CELLS + 1 - (moves)) / 2)
#define C4S_LOSE_NEXT(moves) (-(C4_CELLS - (moves)) / 2)
/* What a call returns when its budget ran out before it knew the score. */
#define C4S_UNKNOWN (-1000)

struct c4book;

struct c4s {
    uint64_t *slot;          /* the far table: 2 * buckets entries */
    size_t buckets;          /* a power of two */
    uint64_t *near;          /* the near table: 2 * near_buckets entries */
    size_t near_buckets;     /* a power of two */
    uint64_t small_nodes;    /* a call moves to the far table past this many
                              * nodes (c4s_init sets the default; 0: at once) */
    int far_mode;            /* the current call has moved */
    int mirror;              /* the current call files mirror images
                              * under one key */
    uint64_t nodes;          /* positions visited by the last call */
    uint64_t node_budget;    /* 0: none; else stop after this many nodes */
    uint64_t deadline_ns;    /* 0: none; else stop at this clock_cpu_ns() */
    int aborted;             /* set when a budget ran out */
    const struct c4book *book; /* NULL, or exact scores to use (not owned) */
};

/* Allocates the largest far table of two-entry buckets that fits in tt_bytes
 * (at least 64 KiB) and a near table of 512 KiB, or of the far table's size
 * when that is smaller. Returns 0, or -1 when out of memory (nothing to
 * free). */
int c4s_init(struct c4s *s, size_t tt_bytes);
void c4s_free(struct c4s *s);
/* Forgets every stored bound. */
void c4s_clear(struct c4s *s);

/* Makes the following calls take the score of every position the book
 * holds from the book instead of searching it (c4book.h). The book must
 * outlive those calls; NULL stops using one. Scores do not change (a book
 * holds exact scores); nodes fall. */
void c4s_set_book(struct c4s *s, const struct c4book *book);

/* The key the table and the book file a position under: equal for a
 * position and its mirror image, different for any two other positions,
 * below 2^49. */
uint64_t c4s_key(const struct c4_pos *p);

/* Sets a budget for the following calls: cpu_us microseconds of CPU time
 * from now (0: none) and nodes positions per call (0: none). A call that
 * runs out returns C4S_UNKNOWN; what it stored before stays valid. */
void c4s_set_budget(struct c4s *s, uint64_t cpu_us, uint64_t nodes);

/* The exact score of p, which must not be finished (no four on the board,
 * not full). weak: only the sign matters; returns 1, 0 or -1. */
int c4s_solve(struct c4s *s, const struct c4_pos *p, int weak);

/* The score of each column played from p (which must not be finished):
 * scores[c] for a legal column, computed as if the opponent moved next
 * (a column that wins at once scores its win); C4S_UNKNOWN for a full column
 * or when a budget ran out. Returns the number of legal columns. */
int c4s_analyze(struct c4s *s, const struct c4_pos *p, int scores[C4_WIDTH]);

/* A best move of p (not finished): the highest score, which is the quickest
 * win or the slowest loss, then the lowest column. Stores its score in
 * *score when score is not NULL. Returns the column (0-based), or -1 when a
 * budget ran out. */
int c4s_best_move(struct c4s *s, const struct c4_pos *p, int *score);

/* The position after playing the 1-based column digits of moves (e.g.
 * "4453"): returns 0, or the 1-based index of the first bad character with
 * *why set to "not a column digit 1-7", "column is full" or "game is already
 * over" (a move after a four in a row). */
int c4s_parse_moves(const char *moves, size_t len, struct c4_pos *p, const char **why);

/* One line of `engine solve` input or of a book, parsed. */
struct c4s_line {
    struct c4_pos pos;   /* the position after the moves */
    size_t moves_len;    /* bytes of the move string at the line's start */
    int has_score;       /* a score followed the moves */
    int score;           /* that score, in [-C4S_SCORE_MAX, C4S_SCORE_MAX] */
    int score_col;       /* the 1-based column where the score starts */
};

/* Parses one line as read by tf_getline (r its result, buf its text, lineno
 * its 1-based number): "MOVES", or "MOVES SCORE" with spaces or tabs
 * between; trailing blanks and a CR are cut from buf. Returns 0, or -1 with
 * e placed at the bad character (a line longer than C4S_LINE_MAX: at the
 * column past the limit). */
#define C4S_LINE_MAX 128
int c4s_parse_line(char *buf, enum tf_getline_result r, int lineno, struct c4s_line *out,
                   struct err *e);

/* `engine solve`: solves every line of in, named name in messages. A line
 * is a move string, optionally followed by spaces and the expected score
 * (the test sets' "MOVES SCORE" lines); an empty line is the start position.
 * Prints "MOVES SCORE NODES MICROSECONDS" per line to out (elapsed time of
 * the solve alone, to a hundredth; with weak the score is 1, 0 or -1). A bad
 * line is reported on diag as name:line:col: why, and the run goes on; so is a solved score that
 * differs from the expected one (compared by sign when weak). Returns 0,
 * EXIT_BAD_INPUT when a line was bad, or 1 when a score differed (and no
 * line was bad). */
int c4s_solve_lines(struct c4s *s, FILE *in, const char *name, int weak, FILE *out, FILE *diag);

#endif
