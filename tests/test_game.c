/*
 * test_game.c - what every game shares through the interface (game.h):
 * game_perft against published and independently computed tables, from the
 * start and from board files, the registry's lists of games, and game_init.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>
#include "arena/registry.h"

struct perft_case {
    char game[16];
    int depth;
    unsigned long long positions;
};

/*
 * Othello and tic-tac-toe: the published figures (a pass is a ply, a
 * finished game has no children; tic-tac-toe's 9 x 8 x ... less the games
 * won before). connect4: 7^d through depth 6; at 7 less the 7 lines that
 * fill one column; depth 8 by a brute force over 7x6 arrays with the four-
 * in-a-row check (a script, not this code). maxconnect4 (no wins before the
 * board is full): 7^8 less the 7 x (8 x 6 + 1) lines that overfill a column.
 * nim from 1 3 5 7: brute force over the heaps. checkers: test_checkers.c's
 * table, checked by hand and by an 8x8-array rule book.
 */
ParameterizedTestParameters(game, perft_from_the_start)
{
    static struct perft_case cases[] = {
        { "othello", 1, 4 },         { "othello", 2, 12 },         { "othello", 3, 56 },
        { "othello", 4, 244 },       { "othello", 5, 1396 },       { "othello", 6, 8200 },
        { "othello", 7, 55092 },     { "othello", 8, 390216 },     { "othello", 9, 3005288 },
        { "tictactoe", 1, 9 },       { "tictactoe", 2, 72 },       { "tictactoe", 3, 504 },
        { "tictactoe", 4, 3024 },    { "tictactoe", 5, 15120 },    { "tictactoe", 6, 54720 },
        { "tictactoe", 7, 148176 },  { "tictactoe", 8, 200448 },   { "tictactoe", 9, 127872 },
        { "tictactoe", 10, 0 },
        { "connect4", 1, 7 },        { "connect4", 2, 49 },        { "connect4", 6, 117649 },
        { "connect4", 7, 823536 },   { "connect4", 8, 5673234 },
        { "maxconnect4", 7, 823536 }, { "maxconnect4", 8, 5764458 },
        { "nim", 1, 16 },            { "nim", 2, 206 },            { "nim", 3, 2116 },
        { "nim", 4, 17338 },         { "nim", 5, 113912 },
        { "checkers", 1, 7 },        { "checkers", 2, 49 },        { "checkers", 3, 379 },
        { "checkers", 4, 2872 },     { "checkers", 5, 23582 },
    };
    return cr_make_param_array(struct perft_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct perft_case *c, game, perft_from_the_start)
{
    const struct game *g = registry_find(c->game);
    cr_assert_not_null(g, "%s is not registered", c->game);
    unsigned char pos[GAME_MAX_STATE];
    game_init(g, pos);
    unsigned long long got = game_perft(g, pos, c->depth);
    cr_assert_eq(got, c->positions, "%s perft(%d) = %llu, expected %llu", c->game, c->depth, got,
                 c->positions);
}

Test(game, perft_of_depth_0_is_the_position_itself_finished_or_not)
{
    const struct game *g = registry_find("tictactoe");
    unsigned char pos[GAME_MAX_STATE];
    struct err e;
    const char *won = "XXX\nOO.\n...\n2\n";
    cr_assert_eq(g->parse(pos, won, strlen(won), &e), 0, "%s", e.msg);
    cr_assert_eq(game_perft(g, pos, 0), 1);
    cr_assert_eq(game_perft(g, pos, 1), 0, "a finished game has no children");
}

/* From a board where X must pass: the pass is the one ply, O's one move the
 * second, and the game is over after it. */
Test(game, perft_counts_an_othello_pass_as_a_ply)
{
    const struct game *g = registry_find("othello");
    unsigned char pos[GAME_MAX_STATE];
    struct err e;
    const char *text =
        "OX......\n........\n........\n........\n........\n........\n........\n........\n1\n";
    cr_assert_eq(g->parse(pos, text, strlen(text), &e), 0, "%s", e.msg);
    cr_assert_eq(game_perft(g, pos, 1), 1);
    cr_assert_eq(game_perft(g, pos, 2), 1);
    cr_assert_eq(game_perft(g, pos, 3), 0);
}

static int has_oracle(const struct game *g)
{
    return g->oracle != NULL;
}

Test(game, registry_names_lists_games_in_registration_order)
{
    char buf[REGISTRY_NAMES_MAX];
    size_t len = registry_names(buf, sizeof buf, NULL, ", ");
    cr_assert_str_eq(buf, "connect4, maxconnect4, nim, checkers, othello, tictactoe");
    cr_assert_eq(len, strlen(buf));
    registry_names(buf, sizeof buf, has_oracle, " and ");
    cr_assert_str_eq(buf, "connect4, maxconnect4, nim and tictactoe");
    char small[12];
    len = registry_names(small, sizeof small, NULL, ", ");
    cr_assert_str_eq(small, "connect4, m");
    cr_assert_eq(len, strlen(small));
}

/* Every registered game keeps the interface's promises about its start. */
Test(game, every_registered_game_has_a_well_formed_start)
{
    for (const struct game *const *g = registry_all(); *g; g++) {
        unsigned char a[GAME_MAX_STATE], b[GAME_MAX_STATE];
        cr_assert_leq((*g)->state_size, GAME_MAX_STATE, "%s", (*g)->name);
        game_init(*g, a);
        char text[GAME_FORMAT_MAX];
        size_t len = (*g)->format(a, text);
        struct err e;
        cr_assert_eq((*g)->parse(b, text, len, &e), 0, "%s: %s", (*g)->name, e.msg);
        cr_assert_eq(memcmp(a, b, (*g)->state_size), 0, "%s: start does not round-trip",
                     (*g)->name);
        cr_assert_eq(registry_find((*g)->name), *g);
    }
}

Test(game, evaluations_are_found_by_name_in_the_games_that_offer_them)
{
    const struct game *c4 = registry_find("connect4"), *nim = registry_find("nim");
    int (*spfiar)(const void *) = game_eval_named(c4, "spfiar");
    cr_assert_not_null(spfiar, "connect4 offers no 'spfiar' evaluation");
    cr_assert(game_has_eval(c4, spfiar));
    cr_assert_null(game_eval_named(c4, "game"), "'game' is the game's own evaluate, not a member");
    cr_assert_null(game_eval_named(nim, "spfiar"));
}

/* A game made at run time gives its start as bytes (struct game's start,
 * a judge's): game_init copies them, state_size of them and no more. */
Test(game, init_copies_the_start_a_run_time_game_gives)
{
    static const unsigned char start[5] = { 1, 2, 3, 4, 5 };
    const struct game g = { .name = "runtime", .state_size = sizeof start, .start = start };
    unsigned char pos[GAME_MAX_STATE];
    memset(pos, 0xee, sizeof pos);
    game_init(&g, pos);
    cr_assert_eq(memcmp(pos, start, sizeof start), 0, "pos starts %d %d %d %d %d", pos[0],
                 pos[1], pos[2], pos[3], pos[4]);
    cr_assert_eq(pos[sizeof start], 0xee, "game_init wrote past state_size: %d",
                 pos[sizeof start]);
}
