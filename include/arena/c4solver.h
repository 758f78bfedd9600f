/*
 * c4solver.h - the perfect Connect-4 solver (classic rules: four in a row
 * wins, a full board draws); prefix c4s. Scores as c4score.h has them.
 *
 * The search is negamax with alpha-beta on the bitboard of connect4.h, driven
 * to the exact score by null-window searches (iterative narrowing). It keeps
 * only moves that do not hand the opponent an immediate win, orders them by
 * the table's best move, then by how many winning cells they create (centre
 * first on ties), and remembers bounds in the transposition tables of
 * c4tt.h, keyed by the full position (c4key.h: no false hits). A position
 * and its mirror image share entries in a call whose root allows both below
 * it; other calls (most) skip the mirroring.
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
#include "arena/c4book.h"
#include "arena/c4score.h"
#include "arena/c4tt.h"
#include "arena/connect4.h"
#include "arena/limits.h"

/* What a call returns when its budget ran out before it knew the score. */
#define C4S_UNKNOWN (-1000)

struct c4s_team;           /* c4solver.c's: a threaded call's helpers */

struct c4s {
    struct c4tt tt;          /* the transposition tables */
    int mirror;              /* the current call files mirror images
                              * under one key */
    uint64_t nodes;          /* positions visited by the last call */
    uint64_t node_budget;    /* 0: none; else stop after this many nodes */
    uint64_t deadline_ns;    /* 0: none; else stop at this clock_cpu_ns() */
    int aborted;             /* set when a budget ran out */
    int watch;               /* the current call has a budget or a stop flag
                              * to watch (one test per node) */
    const struct c4book *book; /* NULL, or exact scores to use (not owned) */
    int threads;             /* searchers of a c4s_solve call: this one and
                              * threads - 1 helpers */
    struct c4s *helper;      /* the helpers, sharing tt's far table (own near
                              * tables); malloc'd, c4s_free frees */
    const int *stop;         /* a helper's: set (atomically) when the call it
                              * helps is done; NULL otherwise */
    int jitter;              /* a helper's number (1, 2...), which varies its
                              * window order; 0 otherwise */
    struct c4s_team *team;   /* with helpers, their threads; malloc'd,
                              * c4s_free frees; NULL with one thread */
    int armed;               /* in a threaded c4s_solve whose helpers have
                              * not started: its main search starts them
                              * when it goes far (c4tt.h) */
    int launched;            /* ...and they have */
    int idle_only;           /* start only the helpers idle cores can run */
    const struct c4_pos *root;   /* the threaded call's position */
    int root_weak;           /* ...and its weak */
};

/* Allocates the tables (c4tt_init: a far table of at most tt_bytes, at
 * least 64 KiB). Returns 0, or -1 when out of memory (nothing to free). */
int c4s_init(struct c4s *s, size_t tt_bytes);
void c4s_free(struct c4s *s);
/* Forgets every stored bound. */
void c4s_clear(struct c4s *s);

/* Makes the following c4s_solve calls search with threads threads (1 to
 * C4S_MAX_THREADS) sharing the far table: lazy SMP, every thread searching
 * the same position, the helpers in another window order so that they
 * fill the table with what the main search will ask for. The helpers
 * start only when the main search has visited the near table's small_nodes
 * (c4tt.h), so a smaller solve costs what one thread's does. The score is the
 * main search's, so it is the same for any number of threads; nodes (the
 * sum over the threads) and time vary from run to run. Returns 0, or -1
 * when out of memory (the solver then stays with one thread). */
int c4s_set_threads(struct c4s *s, int threads);

/* on: the following solves start only as many helpers as the machine has
 * idle cores for (its cores less its load average) when they go far; on a
 * loaded machine a helper takes its CPU from the main search (the process'
 * share is split) and a solve got slower: Begin-Hard's first 8 took 2.5 s a
 * position with one helper at load 12, 0.9 to 1.6 s alone. 0 (the default):
 * all of them. */
void c4s_set_idle_only(struct c4s *s, int on);

/* Makes the following calls take the score of every position the book
 * holds from the book instead of searching it (c4book.h). The book must
 * outlive those calls; NULL stops using one. Scores do not change (a book
 * holds exact scores); nodes fall. */
void c4s_set_book(struct c4s *s, const struct c4book *book);

/* Sets a budget for the following calls: cpu_us microseconds of CPU time
 * from now (0: none) and nodes positions per call (0: none). A call that
 * runs out returns C4S_UNKNOWN; what it stored before stays valid. */
void c4s_set_budget(struct c4s *s, uint64_t cpu_us, uint64_t nodes);

/* The exact score of p, which must be valid and not finished (no four on
 * the board, not full). weak: only the sign matters; returns 1, 0 or -1. */
int c4s_solve(struct c4s *s, const struct c4_pos *p, int weak);

/* (c4s_analyze and c4s_best_move search with one thread.) */

/* The score of each column played from p (valid, not finished): scores[c]
 * for a legal column, computed as if the opponent moved next (a column that
 * wins at once scores its win); C4S_UNKNOWN for a full column or when a
 * budget ran out. Returns the number of legal columns. */
int c4s_analyze(struct c4s *s, const struct c4_pos *p, int scores[C4_WIDTH]);

/* A best move of p (valid, not finished): the highest score, which is the
 * quickest win or the slowest loss, then the lowest column. Stores its score
 * in *score when score is not NULL. Returns the column (0-based), or -1 when
 * a budget ran out. */
int c4s_best_move(struct c4s *s, const struct c4_pos *p, int *score);

#endif
