/*
 * test_e2e_referee.c - `referee match` end to end: every hostile engine under
 * tests/engines loses with its named reason and leaves no process behind,
 * engines writing CRLF and CR-only files play normal games, the JSON log
 * holds what the issue lists, a perfect Nim engine never gives away a won
 * position against a random one, and usage errors.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena/nimgame.h"
#include "e2e_util.h"

#define EXIT_USAGE 2

static void hostile_path(const char *name, char *buf, size_t cap)
{
    char rel[PATH_MAX];
    snprintf(rel, sizeof rel, "tests/engines/%s.sh", name);
    e2e_repo_path(rel, buf, cap);
}

struct hostile {
    char name[16];
    int second;          /* 1: plays second (needs a disc to tamper with) */
    char line[160];      /* the expected result line */
};

ParameterizedTestParameters(e2e_referee, hostile_engine_loses_with_its_reason)
{
    static struct hostile cases[] = {
        { "sleeper", 0, "Finished game 1 (sleeper.sh vs engine): 0-1 {sleeper.sh forfeits: timeout}" },
        { "crasher", 0,
          "Finished game 1 (crasher.sh vs engine): 0-1 {crasher.sh forfeits: crashed: SIGSEGV}" },
        { "exit3", 0, "Finished game 1 (exit3.sh vs engine): 0-1 {exit3.sh forfeits: exit-status 3}" },
        { "garbage", 0,
          "Finished game 1 (garbage.sh vs engine): 0-1 {garbage.sh forfeits: unreadable: 1:1: "
          "unexpected character 'g', expected 0, 1 or 2}" },
        { "silent", 0, "Finished game 1 (silent.sh vs engine): 0-1 {silent.sh forfeits: no-output}" },
        { "huge", 0, "Finished game 1 (huge.sh vs engine): 0-1 {huge.sh forfeits: oversized}" },
        { "illegal", 0,
          "Finished game 1 (illegal.sh vs engine): 0-1 {illegal.sh forfeits: illegal-move}" },
        { "wrong-side", 0,
          "Finished game 1 (wrong-side.sh vs engine): 0-1 {wrong-side.sh forfeits: wrong-player}" },
        { "forker", 0, "Finished game 1 (forker.sh vs engine): 0-1 {forker.sh forfeits: no-output}" },
        { "escaper", 0,
          "Finished game 1 (escaper.sh vs engine): 0-1 {escaper.sh forfeits: no-output}" },
        { "hog", 0,
          "Finished game 1 (hog.sh vs engine): 0-1 {hog.sh forfeits: memory-limit}" },
        { "tamper", 1,
          "Finished game 1 (engine vs tamper.sh): 1-0 {tamper.sh forfeits: tampered-board}" },
    };
    return cr_make_param_array(struct hostile, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct hostile *c, e2e_referee, hostile_engine_loses_with_its_reason)
{
    char engine[PATH_MAX], hostile[PATH_MAX], good[PATH_MAX + 64];
    e2e_limited_bin_path("engine", engine, sizeof engine);
    hostile_path(c->name, hostile, sizeof hostile);
    snprintf(good, sizeof good, "%s one-move --game connect4", engine);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine",
            c->second ? good : hostile, "--engine", c->second ? hostile : good, "--games", "1",
            /* 8 s: the hog reaches its memory limit in 1.5 s of CPU, which a
             * loaded 2-core machine stretches past 3 s of wall time. */
            "--depth", "1", "--timeout-ms", "8000", "--mem-limit-mb", "256", NULL);
    /* Its one game forfeited: exit status 3 (EXIT_FORFEITED). */
    cr_assert_eq(r.status, 3, "%s: exit %d: %s", c->name, r.status, r.err);
    char want[sizeof c->line + 2];
    snprintf(want, sizeof want, "%s\n", c->line);
    cr_assert(strncmp(r.out, want, strlen(want)) == 0, "%s: stdout:\n%s", c->name, r.out);
    cr_assert(!e2e_process_alive("sleep 60[12][39]"), "%s left a process running", c->name);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* The course's sample programs write CRLF or CR-only files: normal games. */
Test(e2e_referee, crlf_and_cr_only_engines_play_normal_games)
{
    char engine[PATH_MAX], crlf[PATH_MAX], cr[PATH_MAX];
    e2e_bin_path("engine", engine, sizeof engine);
    hostile_path("crlf", crlf, sizeof crlf);
    hostile_path("cr", cr, sizeof cr);
    char a[2 * PATH_MAX + 32], b[2 * PATH_MAX + 32];
    snprintf(a, sizeof a, "name=crlf,cmd=%s %s", crlf, engine);
    snprintf(b, sizeof b, "name=cr,cmd=%s %s", cr, engine);
    e2e_assert_clean_match(a, b, "crlf", "cr");
}

static struct nim_pos replay_start(const cJSON *game)
{
    struct nim_pos p;
    game_nim.init(&p);
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(game, "opening"))
    {
        int move;
        cr_assert_eq(game_nim.parse_move(&p, m->valuestring, &move), 0, "opening move %s",
                     m->valuestring);
        game_nim.play(&p, move);
    }
    return p;
}

static int losing(const struct nim_pos *p)
{
    int rows[NIM_MAX_ROWS];
    for (int i = 0; i < p->rows; i++)
        rows[i] = p->heap[i];
    return nim_losing(rows, p->rows);
}

/* Every move the perfect engine made from a won position left the random
 * engine a lost one, and every such game ended with the perfect engine's
 * win. The log's moves replay legally from the logged opening. */
Test(e2e_referee, perfect_nim_never_gives_away_a_won_position)
{
    char engine[PATH_MAX], perfect[PATH_MAX + 128], random[PATH_MAX + 128];
    e2e_bin_path("engine", engine, sizeof engine);
    snprintf(perfect, sizeof perfect, "name=perfect,cmd=%s one-move --game nim --player perfect",
             engine);
    snprintf(random, sizeof random,
             "name=random,cmd=%s one-move --game nim --player random --seed {player} {in} {out} "
             "{depth}",
             engine);
    char *dir = e2e_tmpdir();
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s/match.json", dir);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "nim", "--engine", perfect, "--engine",
            random, "--games", "6", "--random-plies", "3", "--seed", "5", "--log", log, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *text = e2e_slurp(log, NULL);
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root, "the log does not parse");
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root, "schema")->valuestring,
                     "arena.match/1");
    const cJSON *game;
    int won_positions = 0;
    cJSON_ArrayForEach(game, cJSON_GetObjectItemCaseSensitive(root, "games"))
    {
        struct nim_pos p = replay_start(game);
        int perfect_had_won = 0;
        const cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(game, "moves"))
        {
            const char *who = cJSON_GetObjectItemCaseSensitive(m, "engine")->valuestring;
            const cJSON *mv = cJSON_GetObjectItemCaseSensitive(m, "move");
            cr_assert(cJSON_IsString(mv), "a forfeit in a Nim match: %s", r.out);
            cr_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(m, "cpu_user_ms")));
            int before_losing = losing(&p), move;
            cr_assert_eq(game_nim.parse_move(&p, mv->valuestring, &move), 0, "move %s",
                         mv->valuestring);
            game_nim.play(&p, move);
            if (strcmp(who, "perfect") == 0 && !before_losing) {
                won_positions++;
                perfect_had_won = 1;
                cr_assert(losing(&p), "perfect gave away a won position with %s",
                          mv->valuestring);
            }
        }
        if (perfect_had_won)
            cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(game, "winner")->valuestring,
                             "perfect");
    }
    cr_assert_gt(won_positions, 0, "the perfect engine never had a won position");
    cJSON_Delete(root);
    free(text);
    unlink(log);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

struct ref_usage {
    char args[4][48];
    char err[192];
};

ParameterizedTestParameters(e2e_referee, usage_error)
{
    static struct ref_usage cases[] = {
        { { "match", "--engine", "a", "" }, "referee: match: --game is required\n" },
        { { "match", "--game", "nim", "" }, "referee: match: give two --engine options, got 0\n" },
        { { "match", "--game", "go", "" },
          "referee: unknown game 'go' (connect4, maxconnect4, nim, checkers, othello, tictactoe)\n" },
        { { "match", "--engine", "a 'b", "" },
          "referee: --engine 'a 'b': column 3: unterminated ' quote\n" },
        { { "play", "", "", "" },
          "referee: unknown command 'play' (match, tournament, report, verify, merge, "
          "analyze, bench, slurm, status)\n" },
        { { "match", "--games", "0", "" }, "referee: --games must be a number from 1 to 1000000, got '0'\n" },
        { { "tournament", "--concurrency", "x", "" },
          "referee: --concurrency must be a number from 1 to 256, got 'x'\n" },
        { { "tournament", "--shard", "3/2", "" },
          "referee: shard must be K/N with 1 <= K <= N, got '3/2'\n" },
        { { "tournament", "--sprt", "elo0=0,elo1=5,alpha=0.05,beta=0.05,model=x", "" },
          "referee: sprt must be elo0=A,elo1=B,alpha=X,beta=Y[,model=normalized|logistic] with "
          "A < B, |A|, |B| < 1000 and 0 < X, Y < 1, got 'elo0=0,elo1=5,alpha=0.05,beta=0.05,"
          "model=x'\n" },
        { { "match", "--rounds", "2", "" }, "referee: match: unknown option '--rounds'\n" },
        { { "report", "", "", "" }, "referee: report: give one journal or match log\n" },
    };
    return cr_make_param_array(struct ref_usage, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct ref_usage *c, e2e_referee, usage_error)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    const char *args[4] = { NULL };
    for (int i = 0; i < 3 && c->args[i][0]; i++)
        args[i] = c->args[i];
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    char want[256];
    snprintf(want, sizeof want, "%sTry 'referee --help' for more information.\n", c->err);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
