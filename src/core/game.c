/* game.c - what every game shares through the interface: results, and reading
 * and writing board files (game.h). */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "arena/game.h"
#include "arena/textfile.h"

const char *const game_draw_layout_name[GAME_DRAW_ROWS + 1] = {
    [GAME_DRAW_GRID] = "grid", [GAME_DRAW_CHECKER] = "checker", [GAME_DRAW_ROWS] = "rows",
};

void game_init(const struct game *g, void *state)
{
    assert((g->init == NULL) != (g->start == NULL));
    if (g->start)
        memcpy(state, g->start, g->state_size);
    else
        g->init(state);
}

int game_has_eval(const struct game *g, int (*evaluate)(const void *state))
{
    for (const struct game_eval *ev = g->evals; ev && ev->name; ev++)
        if (ev->evaluate == evaluate)
            return 1;
    return 0;
}

int (*game_eval_named(const struct game *g, const char *name))(const void *state)
{
    for (const struct game_eval *ev = g->evals; ev && ev->name; ev++)
        if (strcmp(ev->name, name) == 0)
            return ev->evaluate;
    return NULL;
}

int game_result(const struct game *g, const void *state)
{
    int value;
    if (!g->terminal(state, &value))
        return -1;
    if (value == 0)
        return 0;
    int mover = g->to_move(state);
    assert(mover == 1 || mover == 2);
    return value > 0 ? mover : 3 - mover;
}

uint64_t game_perft(const struct game *g, const void *state, int depth)
{
    assert(depth >= 0);
    int value;
    if (depth == 0)
        return 1;
    if (g->terminal(state, &value))
        return 0;
    int moves[GAME_MAX_MOVES];
    int n = g->gen(state, moves);
    if (depth == 1)   /* the leaves are counted, not played */
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        _Alignas(max_align_t) unsigned char child[GAME_MAX_STATE];
        memcpy(child, state, g->state_size);
        g->play(child, moves[i]);
        total += game_perft(g, child, depth - 1);
    }
    return total;
}

int game_read_file(const struct game *g, const char *path, void *state, struct err *e)
{
    char *text;
    size_t len;
    if (tf_read(path, TF_DEFAULT_CAP, &text, &len, e) != 0)
        return -1;
    game_init(g, state);
    int rc = g->parse(state, text, len, e);
    free(text);
    return rc;
}

int game_write_file(const struct game *g, const char *path, const void *state, struct err *e)
{
    char buf[GAME_FORMAT_MAX];
    size_t len = g->format(state, buf);
    return tf_write_atomic(path, buf, len, e);
}
