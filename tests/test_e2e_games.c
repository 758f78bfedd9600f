/*
 * test_e2e_games.c - Othello and tic-tac-toe end to end: one-move reports
 * and board files (fixtures/othello, fixtures/tictactoe, byte for byte; an
 * Othello pass; tic-tac-toe's perfect player), a refused board file, a
 * referee match between the built-in engines verified by referee verify and
 * drawn by the HTML report for each game, Othello's disc counts in its
 * results, its record and its reports, blunder analysis with
 * tic-tac-toe's oracle, `engine perft` (its table, --from, its errors) and
 * the bench signatures.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "e2e_util.h"

#define EXIT_USAGE 2

struct onemove_case {
    char game[12];
    char player[12];
    char in[24];
    char depth[4];
    char fixture[32];   /* GAME/FIXTURE.out and .board */
};

ParameterizedTestParameters(e2e_games, one_move)
{
    static struct onemove_case cases[] = {
        { "othello", "alphabeta", "start.txt", "4", "onemove-start-d4" },
        { "othello", "alphabeta", "pass.txt", "3", "onemove-pass-d3" },
        { "tictactoe", "alphabeta", "start.txt", "9", "onemove-start-d9" },
        { "tictactoe", "perfect", "win-now.txt", "1", "onemove-win-now-perfect" },
    };
    return cr_make_param_array(struct onemove_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct onemove_case *c, e2e_games, one_move)
{
    char *fix = e2e_fixture(c->game);
    char *dir = e2e_tmpdir();
    char out[PATH_MAX], rel[80];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    struct e2e_run r;
    e2e_run(&r, fix, NULL, "engine", "one-move", "--game", c->game, "--player", c->player, c->in,
            out, c->depth, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    snprintf(rel, sizeof rel, "%s/%s.out", c->game, c->fixture);
    e2e_assert_fixture(r.out, r.out_len, rel);
    size_t len;
    char *board = e2e_slurp(out, &len);
    cr_assert_not_null(board, "no board written");
    snprintf(rel, sizeof rel, "%s/%s.board", c->game, c->fixture);
    e2e_assert_fixture(board, len, rel);
    free(board);
    e2e_run_free(&r);
    unlink(out);
    e2e_rmdir(dir);
    free(fix);
}

Test(e2e_games, a_bad_board_file_names_its_place_and_writes_nothing)
{
    char *fix = e2e_fixture("tictactoe");
    char *dir = e2e_tmpdir();
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    struct e2e_run r;
    e2e_run(&r, fix, NULL, "engine", "one-move", "--game", "tictactoe", "bad-char.txt", out, NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    cr_assert_str_eq(r.err, "bad-char.txt:2:2: unexpected character 'x', expected ., X or O\n");
    cr_assert_not(e2e_exists(out), "an output file was written");
    e2e_run_free(&r);
    e2e_rmdir(dir);
    free(fix);
}

/* A match between two depths of the built-in engine, with random openings:
 * no forfeit, every record replays (verify), and the HTML page draws the
 * game's boards with its own description. */
struct game_name {
    char name[16];
};

ParameterizedTestParameters(e2e_games, referee_match_verifies_and_reports)
{
    static struct game_name games[] = { { "othello" }, { "tictactoe" } };
    return cr_make_param_array(struct game_name, games, sizeof games / sizeof *games);
}

ParameterizedTest(struct game_name *g, e2e_games, referee_match_verifies_and_reports)
{
    const char *const game[1] = { g->name };
    char engine[PATH_MAX], a[PATH_MAX + 96], b[PATH_MAX + 96];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "name=d1,depth=1,cmd=%s one-move --game %s", engine, *game);
    snprintf(b, sizeof b, "name=d3,depth=3,cmd=%s one-move --game %s", engine, *game);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", *game, "--engine", a, "--engine", b,
            "--games", "4", "--random-plies", "2", "--seed", "3", "--log", "m.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_null(strstr(r.out, "forfeit"), "stdout:\n%s", r.out);
    cr_assert_not_null(strstr(r.out, "Score of d1 vs d3: "), "stdout:\n%s", r.out);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "verify", "m.json", NULL);
    cr_assert_eq(r.status, 0, "verify: exit %d: %s%s", r.status, r.out, r.err);
    cr_assert_not_null(strstr(r.out, "m.json: 4 games, "), "%s", r.out);
    cr_assert_not_null(strstr(r.out, " moves replayed: consistent\n"), "%s", r.out);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "report", "--format", "html", "m.json", NULL);
    cr_assert_eq(r.status, 0, "report: exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "<section id=\"games\" data-layout=\"grid\">"), "no layout");
    char style[64];
    snprintf(style, sizeof style, "}.%s td", *game);
    cr_assert_not_null(strstr(r.out, style), "the game's style (%s) is not on the page", style);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Othello's discs at the end of a recorded game, counted here without the
 * game: the 4 of the start and one more per move that is not a pass. */
static int discs_on_the_board(const cJSON *game)
{
    int discs = 4;
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItem(game, "opening"))
        discs += strcmp(m->valuestring, "pass") != 0;
    cJSON_ArrayForEach(m, cJSON_GetObjectItem(game, "moves")) {
        const cJSON *mv = cJSON_GetObjectItem(m, "move");
        cr_assert(cJSON_IsString(mv), "a move without its text");
        discs += strcmp(mv->valuestring, "pass") != 0;
    }
    return discs;
}

/* An Othello match: each game's record carries the disc counts ("of":
 * "discs"), which add up to the discs on the board and name the winner; the
 * result line ends with them, the winner's first, and the text and HTML
 * reports show them. */
Test(e2e_games, othello_results_carry_the_disc_counts, .timeout = 120)
{
    char engine[PATH_MAX], a[PATH_MAX + 96], b[PATH_MAX + 96];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "name=d1,depth=1,cmd=%s one-move --game othello", engine);
    snprintf(b, sizeof b, "name=d3,depth=3,cmd=%s one-move --game othello", engine);
    char *dir = e2e_tmpdir();
    struct e2e_run r, html;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "othello", "--engine", a, "--engine", b,
            "--games", "2", "--random-plies", "2", "--seed", "3", "--log", "m.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_run(&html, dir, NULL, "referee", "report", "--format", "html", "m.json", NULL);
    cr_assert_eq(html.status, 0, "report: exit %d: %s", html.status, html.err);
    cJSON *log = e2e_read_json(dir, "m.json");
    const cJSON *game;
    int n = 0;
    cJSON_ArrayForEach(game, cJSON_GetObjectItem(log, "games")) {
        n++;
        const cJSON *score = cJSON_GetObjectItem(game, "score");
        cr_assert(cJSON_IsObject(score), "game %d has no score", n);
        int s[2] = { cJSON_GetObjectItem(score, "1")->valueint,
                     cJSON_GetObjectItem(score, "2")->valueint };
        cr_expect_str_eq(cJSON_GetObjectItem(score, "of")->valuestring, "discs", "game %d", n);
        int board = discs_on_the_board(game);
        cr_expect_eq(s[0] + s[1], board, "game %d: %d + %d discs, %d on the board", n, s[0], s[1],
                     board);
        const char *result = cJSON_GetObjectItem(game, "result")->valuestring;
        const char *want = s[0] == s[1] ? "1/2-1/2" : s[0] > s[1] ? "1-0" : "0-1";
        cr_expect_str_eq(result, want, "game %d: %s with the discs %d-%d", n, result, s[0], s[1]);
        const cJSON *players = cJSON_GetObjectItem(game, "players");
        const char *p1 = cJSON_GetObjectItem(players, "1")->valuestring;
        const char *p2 = cJSON_GetObjectItem(players, "2")->valuestring;
        int w = s[1] > s[0];
        char line[256];
        snprintf(line, sizeof line, "Finished game %d (%s vs %s): %s {%s %d-%d}\n", n, p1, p2,
                 want, s[0] == s[1] ? "draw" : w ? "player 2 wins" : "player 1 wins", s[w], s[!w]);
        cr_expect_not_null(strstr(r.out, line), "no line %s in:\n%s", line, r.out);
        snprintf(line, sizeof line, "<summary>Game %d: %s vs %s, %s (normal, %d-%d discs), %d moves",
                 n, p1, p2, want, s[w], s[!w], cJSON_GetArraySize(cJSON_GetObjectItem(game, "moves")));
        cr_expect_not_null(strstr(html.out, line), "no %s in the HTML report", line);
    }
    cr_expect_eq(n, 2, "%d games in the log", n);
    cr_expect_not_null(strstr(html.out, "<th>Game score for (discs)</th>"), "no disc columns");
    cJSON_Delete(log);
    e2e_run_free(&html);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "report", "m.json", NULL);
    cr_assert_eq(r.status, 0, "report: exit %d: %s", r.status, r.err);
    cr_expect_not_null(
        strstr(r.out, "\nGame score (discs per game, mean: the engine's, its opponents')\n"),
        "no disc table in:\n%s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* The perfect player never loses: against random moves it wins or draws
 * every game, and analyze finds no mistake of the perfect player. */
Test(e2e_games, tictactoe_perfect_never_loses_and_analyze_blames_only_random)
{
    char engine[PATH_MAX], perfect[PATH_MAX + 96], random[PATH_MAX + 128];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(perfect, sizeof perfect,
             "name=perfect,cmd=%s one-move --game tictactoe --player perfect", engine);
    snprintf(random, sizeof random,
             "name=random,cmd=%s one-move --game tictactoe --player random --seed {player} {in} "
             "{out} {depth}",
             engine);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "tictactoe", "--engine", perfect,
            "--engine", random, "--games", "6", "--random-plies", "1", "--log", "t.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_null(strstr(r.out, "(random vs perfect): 1-0"), "perfect lost a game:\n%s", r.out);
    cr_assert_null(strstr(r.out, "(perfect vs random): 0-1"), "perfect lost a game:\n%s", r.out);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "analyze", "t.json", NULL);
    cr_assert_eq(r.status, 0, "analyze: exit %d: %s", r.status, r.err);
    cr_assert_null(strstr(r.out, "by perfect"), "a mistake of the perfect player:\n%s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_games, perft_prints_every_depth_and_its_time)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "perft", "--game", "tictactoe", "--depth", "4", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out, "perft tictactoe from start\n"
                            "depth 1 positions 9\n"
                            "depth 2 positions 72\n"
                            "depth 3 positions 504\n"
                            "depth 4 positions 3024\n");
    cr_assert(strncmp(r.err, "info game tictactoe depth 4 positions 3024 cpu_ms ", 50) == 0,
              "stderr: %s", r.err);
    cr_assert_not_null(strstr(r.err, " positions_per_s "), "stderr: %s", r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_games, perft_from_a_board_file_counts_the_pass)
{
    char *fix = e2e_fixture("othello");
    struct e2e_run r;
    e2e_run(&r, fix, NULL, "engine", "perft", "--game", "othello", "--depth", "3", "--from",
            "pass.txt", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out, "perft othello from pass.txt\n"
                            "depth 1 positions 1\n"
                            "depth 2 positions 1\n"
                            "depth 3 positions 0\n");
    e2e_run_free(&r);
    free(fix);
}

struct perft_usage {
    char args[6][16];
    char err[160];
};

ParameterizedTestParameters(e2e_games, perft_usage_error)
{
    static struct perft_usage cases[] = {
        { { "perft", "--game", "othello", "" },
          "engine: perft needs --depth from 1 to 64\n"
          "Try 'engine --help' for more information.\n" },
        { { "perft", "--depth", "0", "" },
          "engine: --depth must be a number from 1 to 64\n"
          "Try 'engine --help' for more information.\n" },
        { { "perft", "--depth", "2", "extra", "" },
          "engine: perft takes no arguments, found 'extra'\n"
          "Try 'engine --help' for more information.\n" },
        { { "perft", "--game", "tictactoe", "--depth", "2", "--from" },
          "engine: perft: option '--from' needs a value\n"
          "Try 'engine --help' for more information.\n" },
    };
    return cr_make_param_array(struct perft_usage, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct perft_usage *c, e2e_games, perft_usage_error)
{
    char *dir = e2e_tmpdir();
    const char *args[7] = { NULL };
    for (int i = 0; i < 6 && c->args[i][0]; i++)
        args[i] = c->args[i];
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, "engine", args);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    cr_assert_str_eq(r.err, c->err);
    cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_games, perft_refuses_a_bad_board_file_at_its_place)
{
    char *fix = e2e_fixture("tictactoe");
    struct e2e_run r;
    e2e_run(&r, fix, NULL, "engine", "perft", "--game", "tictactoe", "--depth", "2", "--from",
            "bad-char.txt", NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    cr_assert_str_eq(r.err, "bad-char.txt:2:2: unexpected character 'x', expected ., X or O\n");
    cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
    e2e_run_free(&r);
    free(fix);
}

struct bench_case {
    char game[12];
    char depths[8];
    char first[64];       /* the first line */
    char signature[40];   /* the last line */
};

/* The node-count signatures of the new games' bench positions: they change
 * only when the search or the game does (docs/benchmarks.md). */
ParameterizedTestParameters(e2e_games, bench_signature)
{
    static struct bench_case cases[] = {
        { "othello", "1-6", "bench othello player alphabeta positions 4 tt_mb 1\n",
          "signature 52579 nodes\n" },
        { "tictactoe", "1-9", "bench tictactoe player alphabeta positions 4 tt_mb 1\n",
          "signature 38105 nodes\n" },
    };
    return cr_make_param_array(struct bench_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bench_case *c, e2e_games, bench_signature)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "bench", "--game", c->game, "--depths", c->depths, "--tt-mb",
            "1", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert(strncmp(r.out, c->first, strlen(c->first)) == 0, "%s", r.out);
    size_t n = strlen(r.out), m = strlen(c->signature);
    cr_assert(n >= m && strcmp(r.out + n - m, c->signature) == 0, "%s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
