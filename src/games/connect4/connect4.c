/*
 * connect4.c - the classic rule set: four in a row wins at once, a full board
 * is a draw.
 *
 * Evaluation (side to move's view): open lines are lines of four holding no
 * opposing disc. Each open line with three own discs (a threat) counts
 * C4_EVAL_THREE, each with two C4_EVAL_TWO; the opponent's count against.
 *
 * Capabilities: the solver is both the perfect player and the exact oracle
 * of blunder analysis (weak: the sign only, within a CPU and node budget per
 * position); the Q-learning player's attributes (qfunc.h) know these rules;
 * the SPFIAR seed's evaluation (spfiar.h) may replace the leaf evaluation;
 * the solver also answers `engine solve` and `engine book` (c4solvecmd.h).
 */
#include <limits.h>
#include <stdlib.h>
#include "arena/c4book.h"
#include "arena/c4solver.h"
#include "arena/datadir.h"
#include "arena/qfunc.h"
#include "arena/spfiar.h"
#include "board.h"
#include "c4solvecmd.h"

#define C4_EVAL_THREE 10
#define C4_EVAL_TWO   2

static const struct c4_pos *cpos(const void *state) { return state; }

/* The classic game also rejects positions no game can reach: play stops at
 * the first four, so the side to move cannot hold one. */
static int c4_parse_classic(void *state, const char *text, size_t len, struct err *e)
{
    if (c4g_parse(state, text, len, e) != 0)
        return -1;
    const struct c4_pos *p = state;
    if (c4_has_four(p->disc[p->to_move]))
        return err_set(e, C4_PLAYER_LINE, 1,
                       "impossible position: player %d is to move but already has four in "
                       "a row",
                       p->to_move + 1);
    return 0;
}

static int c4_terminal(const void *state, int *value)
{
    const struct c4_pos *p = cpos(state);
    if (c4_has_four(p->disc[p->to_move ^ 1])) {
        *value = -SCORE_WIN;
        return 1;
    }
    if (p->moves == C4_CELLS) {
        *value = 0;
        return 1;
    }
    return 0;
}

static int c4_evaluate(const void *state)
{
    const struct c4_pos *p = cpos(state);
    struct c4_lines me, op;
    c4_count_lines(p->disc[p->to_move], p->disc[p->to_move ^ 1], &me);
    c4_count_lines(p->disc[p->to_move ^ 1], p->disc[p->to_move], &op);
    return C4_EVAL_THREE * (me.three - op.three) + C4_EVAL_TWO * (me.two - op.two);
}

static void c4_print_over(FILE *out, const void *state)
{
    const struct c4_pos *p = cpos(state);
    if (c4_has_four(p->disc[p->to_move ^ 1]))
        fprintf(out, "\nFOUR IN A ROW: Player %d wins\nGame over!\n\n", (p->to_move ^ 1) + 1);
    else
        fputs("\nBOARD FULL\nGame over!\n\n", out);
}

/* The shipped opening book (datadir.h) into *book; 1 when it loaded. No
 * book, or one that does not read, only makes the solver slower, never
 * different: a book holds exact scores. */
static int load_book(struct c4book *book)
{
    char path[PATH_MAX];
    struct err e;
    return c4book_load(datadir_find(DATA_C4_BOOK, path, sizeof path), book, &e) == 0;
}

/* The solver's best move (c4solver.h: quickest win, slowest loss, lowest
 * column), with the shipped book. When the book holds the position and its
 * children (the first moves), the answer is look-ups alone and the solver
 * gets the smallest table: clearing the full one would be most of the
 * move's time. A table it cannot get at full size it takes small: slower,
 * still perfect. */
static int c4_perfect(const void *state)
{
    const struct c4_pos *p = cpos(state);
    struct c4book book;
    struct c4s s;
    int has_book = load_book(&book);
    size_t tt_bytes = has_book && p->moves < book.max_moves ? 0 : (size_t)C4S_DEFAULT_TT_MB << 20;
    if (c4s_init(&s, tt_bytes) != 0 && c4s_init(&s, 0) != 0) {
        if (has_book)
            c4book_free(&book);
        return -1;
    }
    if (has_book)
        c4s_set_book(&s, &book);
    int move = c4s_best_move(&s, state, NULL);
    c4s_free(&s);
    if (has_book)
        c4book_free(&book);
    return move;
}

/* The oracle: the solver with the shipped book (the openings, where a
 * budget would leave the search unknown, are look-ups) and the budget it
 * gets afresh for each position. */
struct c4_oracle {
    struct c4s solver;
    struct c4book book;
    int has_book;
    uint64_t budget_us, node_budget;
};

static int c4_oracle_open(void **oracle, const struct game_oracle_opts *o, struct err *e)
{
    struct c4_oracle *c = malloc(sizeof *c);
    if (!c || c4s_init(&c->solver, o->tt_bytes) != 0) {
        free(c);
        return err_set(e, 0, 0, "out of memory for the solver's table");
    }
    c->has_book = load_book(&c->book);
    if (c->has_book)
        c4s_set_book(&c->solver, &c->book);
    c->budget_us = o->budget_us;
    c->node_budget = o->node_budget;
    *oracle = c;
    return 0;
}

static int c4_oracle_value(void *oracle, const void *state)
{
    struct c4_oracle *c = oracle;
    c4s_set_budget(&c->solver, c->budget_us, c->node_budget);
    int v = c4s_solve(&c->solver, state, 1);
    return v == C4S_UNKNOWN ? GAME_ORACLE_UNKNOWN : v;
}

static void c4_oracle_close(void *oracle)
{
    struct c4_oracle *c = oracle;
    if (!c)
        return;
    c4s_free(&c->solver);
    if (c->has_book)
        c4book_free(&c->book);
    free(c);
}

static const struct game_oracle c4_oracle = {
    .open = c4_oracle_open,
    .value = c4_oracle_value,
    .close = c4_oracle_close,
};

static const struct game_learned c4_learned = {
    .choose = qf_choose,
    .evaluate = qf_evaluate,
};

static const struct game_eval c4_evals[] = {
    { "spfiar", spf_evaluate },
    { NULL, NULL },
};

/* Red and yellow discs on the page's blue grid. */
static const struct game_drawing c4_drawing = {
    .layout = GAME_DRAW_GRID,
    .style = ".connect4 td.c49{background:#d22}.connect4 td.c50{background:#ec2}\n",
};

const struct game game_connect4 = {
    .name = "connect4",
    .title = "Connect-4 game",
    .parse = c4_parse_classic,
    .terminal = c4_terminal,
    .evaluate = c4_evaluate,
    .print_over = c4_print_over,
    .perfect = c4_perfect,
    .oracle = &c4_oracle,
    .learned = &c4_learned,
    .evals = c4_evals,
    C4_SHARED_MEMBERS,
    .drawing = &c4_drawing,
    .solver = &c4solvecmd_solver,
};
