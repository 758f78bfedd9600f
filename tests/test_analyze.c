/*
 * test_analyze.c - the analyzer's oracles (analyze.h) against the suite's
 * plain minimax searched to the end of the game: Max-Connect4 within the
 * exact window and "unknown" before it, Nim's closed form on small boards,
 * Connect-4's node budget;
 * a record with an illegal move after a blunder.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include "arena/analyze.h"
#include "arena/nimgame.h"
#include "arena/registry.h"
#include "arena/rng.h"
#include "arena/search.h"
#include "c4_testutil.h"

#define POSITIONS 40
#define MC4_EMPTY 7
#define SEED 11

static enum rec_outcome sign_outcome(int v)
{
    return v > 0 ? REC_WIN : v < 0 ? REC_LOSS : REC_DRAW;
}

/* Plays random moves from the start until `empty` cells are left. */
static void random_mc4(struct rng *r, struct c4_pos *p, int empty)
{
    c4_init(p);
    while (C4_CELLS - p->moves > empty) {
        int moves[GAME_MAX_MOVES];
        int n = game_maxconnect4.gen(p, moves);
        c4_play(p, moves[rng_below(r, (uint32_t)n)]);
    }
}

Test(analyze, maxconnect4_matches_minimax_to_the_end)
{
    struct analyzer a;
    struct ana_opts o = { .budget_ms = ANA_DEFAULT_BUDGET_MS, .max_empty = MC4_EMPTY };
    struct err e;
    cr_assert_eq(ana_init(&a, &game_maxconnect4, &o, &e), 0, "%s", e.msg);
    struct search s;
    struct search_opts so = search_opts_default();
    so.tt_bytes = 0;
    cr_assert_eq(search_init(&s, &game_maxconnect4, &so), 0);
    struct rng r;
    rng_seed(&r, SEED);
    for (int i = 0; i < POSITIONS; i++) {
        struct c4_pos p;
        random_mc4(&r, &p, MC4_EMPTY);
        struct search_result res;
        search_minimax(&s, &p, MC4_EMPTY, &res);
        enum rec_outcome want = sign_outcome(res.value), got = ana_value(&a, &p);
        cr_expect_eq(got, want, "position %d: analyzer %s, minimax %s (value %d)", i,
                     rec_outcome_name(got), rec_outcome_name(want), res.value);
        random_mc4(&r, &p, MC4_EMPTY + 1);
        cr_expect_eq(ana_value(&a, &p), REC_UNKNOWN, "position %d: one cell too many", i);
    }
    search_free(&s);
    ana_free(&a);
}

Test(analyze, nim_closed_form_matches_minimax)
{
    struct analyzer a;
    struct ana_opts o = { .budget_ms = ANA_DEFAULT_BUDGET_MS, .max_empty = 0 };
    struct err e;
    cr_assert_eq(ana_init(&a, &game_nim, &o, &e), 0, "%s", e.msg);
    struct search s;
    struct search_opts so = search_opts_default();
    so.tt_bytes = 0;
    cr_assert_eq(search_init(&s, &game_nim, &so), 0);
    /* Every board of up to three rows of 0..3 matches, both sides to move. */
    for (int code = 1; code < 64; code++) {
        struct nim_pos p = { .rows = 3 };
        int total = 0;
        for (int row = 0; row < 3; row++)
            total += p.heap[row] = (uint8_t)((code >> (2 * row)) & 3);
        struct search_result res;
        search_minimax(&s, &p, total, &res);
        enum rec_outcome want = sign_outcome(res.value), got = ana_value(&a, &p);
        cr_expect_eq(got, want, "rows %d %d %d: analyzer %s, minimax %s", p.heap[0], p.heap[1],
                     p.heap[2], rec_outcome_name(got), rec_outcome_name(want));
    }
    search_free(&s);
    ana_free(&a);
}

Test(analyze, checkers_has_no_oracle)
{
    struct analyzer a;
    struct ana_opts o = { .budget_ms = 1, .max_empty = 0 };
    struct err e;
    cr_expect_eq(ana_init(&a, registry_find("checkers"), &o, &e), -1);
    cr_expect_str_eq(e.msg, "no exact oracle for checkers: analyze handles connect4, "
                            "maxconnect4, nim and tictactoe");
}

/* A node budget stops the solver whatever the CPU budget: the position is
 * "unknown" with one node, exact without a limit (a late loss with no
 * immediate threat, which takes a search: 46 nodes weakly; the tutorial's
 * zugzwang loss no longer does, the claimeven bound decides it at the
 * root). */
Test(analyze, connect4_node_budget_stops_the_solver)
{
    struct c4_pos p = pos_from_moves("425425561655514714266671776144");
    struct err e;
    struct analyzer a;
    struct ana_opts o = { .budget_ms = ANA_DEFAULT_BUDGET_MS, .node_budget = 1 };
    cr_assert_eq(ana_init(&a, &game_connect4, &o, &e), 0, "%s", e.msg);
    enum rec_outcome got = ana_value(&a, &p);
    cr_expect_eq(got, REC_UNKNOWN, "one node: %s", rec_outcome_name(got));
    ana_free(&a);
    o.node_budget = 0;
    cr_assert_eq(ana_init(&a, &game_connect4, &o, &e), 0, "%s", e.msg);
    got = ana_value(&a, &p);
    cr_expect_eq(got, REC_LOSS, "no node limit: %s", rec_outcome_name(got));
    ana_free(&a);
}

/* An illegal move after a blunder is refused, and the blunder's record,
 * not yet in the analysis, goes with it (it leaked; found by
 * tests/fuzz/journal_commands, seen under make check's LeakSanitizer). */
Test(analyze, illegal_move_after_a_blunder_is_refused)
{
    struct analyzer a;
    struct ana_opts o = { .budget_ms = 1, .max_empty = 0 };
    struct err e;
    cr_assert_eq(ana_init(&a, &game_nim, &o, &e), 0, "%s", e.msg);
    /* From 1 3 5 7: a's 0:1 leaves b a win, b's 1:3 throws it away. */
    cJSON *json = cJSON_Parse(
        "{\"index\":7,\"moves\":["
        "{\"ply\":1,\"engine\":\"a\",\"move\":\"0:1\",\"status\":\"ok\"},"
        "{\"ply\":2,\"engine\":\"b\",\"move\":\"1:3\",\"status\":\"ok\"},"
        "{\"ply\":3,\"engine\":\"a\",\"move\":\"9:9\",\"status\":\"ok\"}]}");
    struct game_record rec;
    cr_assert_eq(rec_decode(json, &rec, &e), 0, "%s", e.msg);
    cr_assert_eq(ana_game(&a, &rec, &e), -1);
    cr_assert_str_eq(e.msg, "game 7: a recorded move is not legal");
    cr_assert_eq(rec.has & REC_HAS_ANALYSIS, 0, "a refused record was given an analysis");
    rec_free(&rec);
    cJSON_Delete(json);
    ana_free(&a);
}
