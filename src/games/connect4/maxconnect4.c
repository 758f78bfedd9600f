/*
 * maxconnect4.c - the Max-Connect4 rule set of the seed: play goes on until
 * all 42 cells are filled; every line of four is a point for its owner
 * (overlapping lines count separately); most points wins.
 *
 * Terminal value: SCORE_WIN plus the point difference (a bigger win is
 * better), negated for a loss, 0 for a tie.
 *
 * Evaluation (side to move's view): MC4_EVAL_POINT per point of the current
 * score difference, plus still-open lines (lines of four with no opposing
 * disc, which can still become points): MC4_EVAL_THREE for each with three
 * own discs, MC4_EVAL_TWO for each with two, the opponent's counted against.
 * A point outweighs any plausible difference in open threes, so the search
 * takes a sure point before a possible one.
 *
 * Score (struct game_score): each side's points, the game's own result.
 *
 * Oracle (blunder analysis): an alpha-beta search to the end of the game,
 * exact for positions with at most max_empty empty cells, unknown before.
 */
#include <stdlib.h>
#include "arena/search.h"
#include "board.h"

#define MC4_EVAL_POINT 100
#define MC4_EVAL_THREE 10
#define MC4_EVAL_TWO   3

static const struct c4_pos *cpos(const void *state) { return state; }

static int mc4_terminal(const void *state, int *value)
{
    const struct c4_pos *p = cpos(state);
    if (p->moves < C4_CELLS)
        return 0;
    int diff = c4_count_fours(p->disc[p->to_move]) - c4_count_fours(p->disc[p->to_move ^ 1]);
    *value = diff > 0 ? SCORE_WIN + diff : diff < 0 ? -SCORE_WIN + diff : 0;
    return 1;
}

static int mc4_evaluate(const void *state)
{
    const struct c4_pos *p = cpos(state);
    struct c4_lines me, op;
    c4_count_lines(p->disc[p->to_move], p->disc[p->to_move ^ 1], &me);
    c4_count_lines(p->disc[p->to_move ^ 1], p->disc[p->to_move], &op);
    return MC4_EVAL_POINT * (me.four - op.four) + MC4_EVAL_THREE * (me.three - op.three)
           + MC4_EVAL_TWO * (me.two - op.two);
}

static void mc4_print_over(FILE *out, const void *state)
{
    (void)state;
    fputs("\nBOARD FULL\nGame over!\n\n", out);
}

static void mc4_final(const void *state, int score[2])
{
    const struct c4_pos *p = cpos(state);
    score[0] = c4_count_fours(p->disc[0]);
    score[1] = c4_count_fours(p->disc[1]);
}

static const struct game_score mc4_score = { .label = "points", .final = mc4_final };

struct mc4_oracle {
    struct search search;
    int max_empty;
};

static int mc4_oracle_open(void **oracle, const struct game_oracle_opts *o, struct err *e)
{
    struct mc4_oracle *m = malloc(sizeof *m);
    struct search_opts so = search_opts_default();
    so.tt_bytes = o->tt_bytes;
    if (!m || search_init(&m->search, &game_maxconnect4, &so) != 0) {
        free(m);
        return err_set(e, 0, 0, "out of memory for the search's table");
    }
    m->max_empty = o->max_empty;
    *oracle = m;
    return 0;
}

static int mc4_oracle_value(void *oracle, const void *state)
{
    struct mc4_oracle *m = oracle;
    int empty = C4_CELLS - cpos(state)->moves;
    if (empty > m->max_empty)
        return GAME_ORACLE_UNKNOWN;
    struct search_result r;
    search_alphabeta(&m->search, state, empty, &r);
    return r.value > 0 ? 1 : r.value < 0 ? -1 : 0;
}

static void mc4_oracle_close(void *oracle)
{
    struct mc4_oracle *m = oracle;
    if (m)
        search_free(&m->search);
    free(m);
}

static const struct game_oracle mc4_oracle = {
    .open = mc4_oracle_open,
    .value = mc4_oracle_value,
    .close = mc4_oracle_close,
};

static const struct game_drawing mc4_drawing = {
    .layout = GAME_DRAW_GRID,
    .style = ".maxconnect4 td.c49{background:#d22}.maxconnect4 td.c50{background:#ec2}\n",
};

const struct game game_maxconnect4 = {
    .name = "maxconnect4",
    .title = "MaxConnect-4 game",
    .parse = c4g_parse,
    .terminal = mc4_terminal,
    .evaluate = mc4_evaluate,
    .print_over = mc4_print_over,
    .oracle = &mc4_oracle,
    .score = &mc4_score,
    C4_SHARED_MEMBERS,
    .drawing = &mc4_drawing,
};

