/*
 * game.h - the seam between games and everything else (DESIGN.md).
 *
 * Every game exposes one `const struct game`. Search, the engine CLI and the
 * referee see a game only through it; a new game is one folder under
 * src/games plus one line in src/engine/registry.c (registry.h).
 *
 * Positions are plain bytes of state_size: copied with memcpy, compared with
 * memcmp. Every function that produces a position (init, parse, play) writes
 * every byte, padding included, so two equal positions are equal bytes.
 *
 * Moves are small non-negative ints whose meaning belongs to the game (the
 * column for Connect-4). gen lists them in the game's canonical order, which
 * defines every tie-break in the suite (lowest column first for Connect-4).
 *
 * Values are ints from the point of view of the side to move (negamax). A
 * finished game is worth SCORE_WIN plus a margin (or its negation, or 0 for a
 * draw), beyond any static evaluation, which stays below SCORE_EVAL_MAX.
 */
#ifndef ARENA_GAME_H
#define ARENA_GAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "arena/err.h"

#define GAME_MAX_MOVES   128    /* legal moves in any position of any game */
#define GAME_MAX_STATE   256    /* bytes of the largest position */
#define GAME_FORMAT_MAX  1024   /* bytes of the largest canonical board file */
#define GAME_MOVE_TEXT_MAX 32   /* bytes of the longest move text, with NUL */

#define SCORE_INF        1000000000
#define SCORE_WIN        1000000   /* a won terminal position */
#define SCORE_MARGIN_MAX 10000     /* |margin| a terminal value may add */
#define SCORE_EVAL_MAX   100000    /* |evaluate()| is always below this */
/* Any |value| at or above this is a finished game, not an estimate. */
#define SCORE_DECIDED    (SCORE_WIN - SCORE_MARGIN_MAX - 1000)

/* ---- optional capabilities (a member NULL when the game has none) ------
 * What a game offers beyond its rules, so that the layers above ask the game
 * instead of recognising it: nothing outside a game's folder compares game
 * pointers or includes a game's header to choose what to do. */

/* An exact oracle for blunder analysis (`referee analyze`, analyze.h). */
struct game_oracle_opts {
    uint64_t budget_us;     /* oracles that search with a clock: CPU per position */
    uint64_t node_budget;   /* ...and nodes per position; 0: no node budget */
    int max_empty;          /* oracles that search to the end: exact only
                               within this many plies of it */
    size_t tt_bytes;        /* the oracle's table, > 0 */
};

/* oracle->value's answer when it cannot tell within its budget. */
#define GAME_ORACLE_UNKNOWN 2

struct game_oracle {
    /* Prepares an oracle into *oracle (NULL is a valid oracle for games that
     * need no memory). Returns 0, or -1 with e filled (out of memory). */
    int (*open)(void **oracle, const struct game_oracle_opts *o, struct err *e);
    /* The outcome of an unfinished position with perfect play, for its side
     * to move: 1 a win, 0 a draw, -1 a loss, or GAME_ORACLE_UNKNOWN. */
    int (*value)(void *oracle, const void *state);
    /* Frees what open made; oracle may be NULL. */
    void (*close)(void *oracle);
};

/* A learned player (--player qlearn and qlearn-ab, player.h). weights is the
 * game's own weight record (connect4: struct qf_weights, qfunc.h), opaque to
 * everything outside the game's folder; the caller owns it. */
struct game_learned {
    /* The greedy move of state (not finished): the move of highest learned
     * value, which it stores in *move and, scaled as an evaluation
     * (|v| < SCORE_EVAL_MAX), in *value. Returns how many moves it scored
     * (>= 1). */
    int (*choose)(const void *weights, const void *state, int *move, int *value);
    /* The learned value of state for its side to move, |v| < SCORE_EVAL_MAX:
     * the leaf evaluation of search (search_opts.evaluate_with, ctx =
     * weights). */
    int (*evaluate)(const void *state, const void *weights);
};

/* A leaf evaluation other than the game's own, picked by name (engine
 * --eval NAME); it scores what evaluate scores. */
struct game_eval {
    const char *name;
    int (*evaluate)(const void *state);
};

/* The game's own final score, beyond who won (Max-Connect4's points, a disc
 * count): shown with every result ("player 2 wins 14-11") and kept in the
 * game's record (record.h). */
struct game_score {
    const char *label;     /* what the numbers count, plural: "points" */
    /* The score of a finished position (terminal): score[0] side 1's,
     * score[1] side 2's, each in [0, SCORE_MARGIN_MAX). */
    void (*final)(const void *state, int score[2]);
};

/* The game's exact solver as the engine's commands `engine solve` (lines
 * of the solver's input in, exact scores out) and `engine book` (an opening
 * book made by it); the CLI parses their options into struct
 * game_solver_opts and leaves the rest to the game. */
struct game_solver_opts {
    const char *prog;    /* the program's name, for messages */
    long tt_mb;          /* the solver's table, MiB (> 0) */
    long threads;        /* solve: threads searching (1-max_threads) */
    int idle_only;       /* solve: helpers only on the cores the load leaves
                            idle (threads is the default, not asked for) */
    int weak;            /* solve: win/draw/loss only */
    const char *book;    /* solve: an opening book to read, or NULL */
    const char *from;    /* book: the root's moves, or NULL for the start */
    int depth;           /* book: plies below the root (1-book_max_depth) */
};

struct game_solver {
    int book_max_depth;
    /* Solves the n files (stdin when n is 0) and prints the answers; returns
     * the exit status (0, 1 a differing expected score, 2 bad input). */
    int (*solve)(const struct game_solver_opts *o, char *const *files, int n);
    /* Makes the book and writes it to out atomically; the exit status. */
    int (*book)(const struct game_solver_opts *o, const char *out);
};

/* How the HTML report's replay draws a position (report_html.h), so that
 * the page's one script draws any game from a description: the board file's
 * lines but the last (the player to move) in one of these layouts, inside an
 * element of classes "board NAME" (NAME the game's name) that style, the
 * game's CSS rules, dresses. A game without one is drawn as a plain grid. */
enum game_draw_layout {
    GAME_DRAW_GRID,      /* a table, a cell per character, of class "c" and the
                            character's code ("c49" for '1') */
    GAME_DRAW_CHECKER,   /* the same on a checkerboard (cells also "dark" or
                            "light"), a piece (a span) on every cell not '.',
                            lettered as labels says */
    GAME_DRAW_ROWS,      /* the first line's numbers, one row of matches each */
};

/* Each layout's name (the page's data-layout; a judge's "drawing"), by
 * its value. */
extern const char *const game_draw_layout_name[GAME_DRAW_ROWS + 1];

struct game_drawing {
    enum game_draw_layout layout;
    const char *style;   /* CSS rules, each under .NAME; NULL: none */
    const char *labels;  /* GAME_DRAW_CHECKER: "B=K W=K" shows the pieces B and W
                            lettered K, the others blank; NULL: none */
};

struct game {
    const char *name;       /* registry name: "connect4", "maxconnect4" */
    const char *title;      /* banner of the one-move report */
    size_t state_size;      /* bytes of a position, <= GAME_MAX_STATE */

    /* The start position. Everyone gets it through game_init, which uses
     * init or start, whichever the game gives (one of them, never both). */
    void (*init)(void *state);
    /* The start position's state_size bytes, for a game made at run time
     * whose positions carry the context its operations need (a judge's
     * positions name their judge, judge.h): operations take no context but
     * the position they are given, and init has none to read. NULL: init. */
    const void *start;

    /* Parses a board file (text of len bytes, any line ending). Returns 0, or
     * -1 with e holding line, column and reason; state is then unspecified.
     * state holds a position of the game on entry (game_init's start, or
     * any other): a game whose positions carry a context reads it there;
     * every game writes all of state. */
    int (*parse)(void *state, const char *text, size_t len, struct err *e);

    /* Writes the canonical board file (LF endings) into buf, which holds at
     * least GAME_FORMAT_MAX bytes; returns its length (NUL-terminated). */
    size_t (*format)(const void *state, char *buf);

    /* Lists the legal moves in canonical order; returns how many (0 when the
     * side to move cannot move). moves holds GAME_MAX_MOVES ints. */
    int (*gen)(const void *state, int *moves);

    /* Plays a move returned by gen for this position, in place. */
    void (*play)(void *state, int move);

    /* The player to move: 1 or 2. */
    int (*to_move)(const void *state);

    /* 1 when the game is over, with *value its worth to the side to move:
     * SCORE_WIN + margin, -(SCORE_WIN + margin) or 0, margin in
     * [0, SCORE_MARGIN_MAX). 0 while the game goes on. */
    int (*terminal)(const void *state, int *value);

    /* Static evaluation for the side to move, |v| < SCORE_EVAL_MAX. */
    int (*evaluate)(const void *state);

    /* Move ordering hint: higher is searched first, |value| < 2^19. Never
     * changes results; NULL keeps canonical order. */
    int (*priority)(const void *state, int move);

    /* A 64-bit key; equal positions give equal keys. */
    uint64_t (*hash)(const void *state);

    /* The move as users write it ("4" for column 4); returns its length. */
    int (*move_text)(const void *state, int move, char *buf, size_t cap);

    /* Parses move text as move_text writes it; returns 0 and sets *move when
     * it names a legal move of this position, -1 otherwise. */
    int (*parse_move)(const void *state, const char *text, int *move);

    /* The one-move report (the seed's stdout shape): the board with its
     * score, the line announcing a move, and the game-over text. */
    void (*print)(FILE *out, const void *state);
    void (*print_move)(FILE *out, const void *after, int move, int mover);
    void (*print_over)(FILE *out, const void *state);

    /* Why an engine's answer (text, len bytes) is not before plus one legal
     * move of the side to move, for the referee. It reads text as a board
     * the way parse does but without the checks of a reachable position
     * (the game's own: disc counts, floating discs), so that a readable
     * board is judged by what it changed, and writes into why (cap bytes)
     * the reason's kind, then ": " and what the answer changed, in the
     * game's words: "illegal-move: adds 41 discs of player 1",
     * "wrong-player: plays for player 2 on player 1's turn",
     * "tampered-board: removes the disc at row 2 column 5". The kinds are
     * stable for scripts: tampered-board (an earlier piece changed or gone),
     * wrong-player (the other side moved, or the side to move did not
     * change), illegal-move. Returns 0, or -1 when text is no board even so
     * (the referee then reports parse's error as unreadable). NULL: the
     * referee tells only wrong-player (side to move unchanged) from
     * illegal-move, on boards parse accepts. */
    int (*explain)(const void *before, const char *text, size_t len, char *why, size_t cap);

    /* The referee is about to wait on this position (an engine thinks on
     * it): a game that asks a program about its positions may ask now and
     * read the answer when first needed (a judge, judge.h). Changes no
     * answer of any operation. NULL: nothing to do. */
    void (*prefetch)(const void *state);

    /* The perfect player (--player perfect): a best move of an unfinished
     * position, by the game's own solver, or -1 when it runs out of memory;
     * NULL for games without one. */
    int (*perfect)(const void *state);

    /* 1 when move, played from state, can never be undone by later moves (a
     * capture or a promotion in checkers). The referee adjudicates a draw
     * after a set number of plies without one, because some games (two
     * checkers towers) can go on forever. NULL: every game ends by itself,
     * no draw rule applies. */
    int (*irreversible)(const void *state, int move);

    /* Fixed positions for `engine bench`: NULL-terminated, each a list of
     * move texts played from init, separated by spaces. */
    const char *const *bench;

    /* Capabilities (above); NULL: the game has none. */
    const struct game_oracle *oracle;
    const struct game_learned *learned;
    const struct game_eval *evals;   /* terminated by a NULL name */
    const struct game_drawing *drawing;   /* the HTML replay's; NULL: a grid */
    const struct game_solver *solver;     /* engine solve and book; NULL: none */
    const struct game_score *score;  /* NULL: the result is all there is */
};

/* The start position of g into state (state_size bytes): g->init's, or
 * a copy of g->start. */
void game_init(const struct game *g, void *state);

/* 1 when evaluate is one of g->evals. */
int game_has_eval(const struct game *g, int (*evaluate)(const void *state));
/* The evaluation of g->evals called name, or NULL when g has none so named. */
int (*game_eval_named(const struct game *g, const char *name))(const void *state);

/* -1 while the game goes on, else 0 for a draw or the winner (1 or 2). */
int game_result(const struct game *g, const void *state);

/* perft: how many positions lie depth plies (>= 0) from state, each line
 * of legal moves counted once; a finished game has no children, a pass is a
 * ply like any move. The standard check of a move generator (engine perft);
 * it walks every line, so its cost grows as the tree does. */
uint64_t game_perft(const struct game *g, const void *state, int depth);

/* Reads and parses a board file (parse given game_init's start). Returns
 * 0, or -1 with e filled (the caller prints it with the path). */
int game_read_file(const struct game *g, const char *path, void *state, struct err *e);

/* Writes the canonical board file atomically. Returns 0 or -1 with e filled. */
int game_write_file(const struct game *g, const char *path, const void *state, struct err *e);

#endif
