/*
 * test_e2e_referee.c - `referee match` end to end: every hostile engine under
 * tests/engines loses with its named reason and leaves no process behind,
 * engines writing CRLF and CR-only files play normal games, the JSON log
 * holds what the issue lists, a perfect Nim engine never gives away a won
 * position against a random one, and usage errors.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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
    char line[256];      /* the expected result line */
};

ParameterizedTestParameters(e2e_referee, hostile_engine_loses_with_its_reason)
{
    static struct hostile cases[] = {
        { "sleeper", 0,
          "Finished game 1 (sleeper.sh vs engine): 0-1 {sleeper.sh forfeits at ply 1: timeout: no "
          "answer within 8000 ms of wall time (--timeout-ms)}" },
        { "crasher", 0,
          "Finished game 1 (crasher.sh vs engine): 0-1 {crasher.sh forfeits at ply 1: crashed: "
          "SIGSEGV}" },
        { "exit3", 0,
          "Finished game 1 (exit3.sh vs engine): 0-1 {exit3.sh forfeits at ply 1: exit-status 3}" },
        { "garbage", 0,
          "Finished game 1 (garbage.sh vs engine): 0-1 {garbage.sh forfeits at ply 1: unreadable: "
          "1:1: unexpected character 'g', expected 0, 1 or 2}" },
        { "silent", 0,
          "Finished game 1 (silent.sh vs engine): 0-1 {silent.sh forfeits at ply 1: no-output: "
          "it read nothing from stdin and wrote no OUT: is it a persistent engine? add "
          "proto=persistent}" },
        { "huge", 0,
          "Finished game 1 (huge.sh vs engine): 0-1 {huge.sh forfeits at ply 1: oversized}" },
        /* It passes the turn: the board is readable, the answer adds nothing. */
        { "illegal", 0,
          "Finished game 1 (illegal.sh vs engine): 0-1 {illegal.sh forfeits at ply 1: "
          "illegal-move: adds no disc}" },
        { "wrong-side", 0,
          "Finished game 1 (wrong-side.sh vs engine): 0-1 {wrong-side.sh forfeits at ply 1: "
          "wrong-player: plays for player 2 on player 1's turn}" },
        { "forker", 0,
          "Finished game 1 (forker.sh vs engine): 0-1 {forker.sh forfeits at ply 1: no-output: "
          "it read nothing from stdin and wrote no OUT: is it a persistent engine? add "
          "proto=persistent}" },
        { "escaper", 0,
          "Finished game 1 (escaper.sh vs engine): 0-1 {escaper.sh forfeits at ply 1: no-output: "
          "it read nothing from stdin and wrote no OUT: is it a persistent engine? add "
          "proto=persistent}" },
        { "hog", 0,
          "Finished game 1 (hog.sh vs engine): 0-1 {hog.sh forfeits at ply 1: memory-limit: ran "
          "out of its 256 MB of address space (--mem-limit-mb)}" },
        { "tamper", 1,
          "Finished game 1 (engine vs tamper.sh): 1-0 {tamper.sh forfeits at ply 2: "
          "tampered-board: turns player 1's disc at row 6 column 1 into player 2's}" },
    };
    return cr_make_param_array(struct hostile, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct hostile *c, e2e_referee, hostile_engine_loses_with_its_reason)
{
    char engine[PATH_MAX], hostile[PATH_MAX], good[PATH_MAX + 64];
    e2e_engine_bin_path("engine", engine, sizeof engine);
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
    e2e_engine_bin_path("engine", engine, sizeof engine);
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
    e2e_engine_bin_path("engine", engine, sizeof engine);
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
    char args[6][48];
    char err[256];
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
        { { "serve", "", "", "" },
          "referee: unknown command 'serve' (match, tournament, report, verify, merge, "
          "analyze, bench, slurm, status, play, similarity, grade)\n" },
        { { "play", "", "", "" }, "referee: play: --game is required\n" },
        { { "play", "--game", "nim", "--games", "2", "" },
          "referee: play: unknown option '--games'\n" },
        { { "match", "--games", "0", "" }, "referee: --games must be a number from 1 to 1000000, got '0'\n" },
        { { "tournament", "--concurrency", "x", "" },
          "referee: --concurrency must be a number from 1 to 256, got 'x'\n" },
        { { "tournament", "--shard", "3/2", "" },
          "referee: --shard must be K/N with 1 <= K <= N, got '3/2'\n" },
        { { "tournament", "--sprt", "elo0=0,elo1=5,alpha=0.05,beta=0.05,model=x", "" },
          "referee: --sprt must be elo0=A,elo1=B,alpha=X,beta=Y[,model=normalized|logistic] "
          "(commas or blanks between) with A < B, |A|, |B| < 1000 and 0 < X, Y < 1, got "
          "'elo0=0,elo1=5,alpha=0.05,beta=0.05,model=x'\n" },
        { { "match", "--journal", "j", "" }, "referee: match: unknown option '--journal'\n" },
        { { "match", "-engine", "x", "" },
          "referee: match: unknown option '-engine'; did you mean '--engine'?\n" },
        { { "tournament", "--gmae", "nim", "" },
          "referee: tournament: unknown option '--gmae'; did you mean '--game'?\n" },
        { { "match", "--game", "nim", "--games", "2", "--rounds=1" },
          "referee: match: give --games or --rounds (2 games each), not both\n" },
        { { "report", "", "", "" }, "referee: report: give one journal or match log\n" },
    };
    return cr_make_param_array(struct ref_usage, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct ref_usage *c, e2e_referee, usage_error)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    const char *args[7] = { NULL };
    for (int i = 0; i < 6 && c->args[i][0]; i++)
        args[i] = c->args[i];
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    char want[320];
    snprintf(want, sizeof want, "%sTry 'referee --help' for more information.\n", c->err);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* --- the game's own score ------------------------------------------------ */

#define MC4_W 7
#define MC4_H 6

/* Max-Connect4's points of each side after the opening and the moves
 * (columns "1".."7"), counted here: every line of four, overlaps apart. */
static void mc4_points(const cJSON *game, int points[2])
{
    int board[MC4_H][MC4_W] = { { 0 } }, height[MC4_W] = { 0 }, side = 1;
    const cJSON *m;
    const char *lists[] = { "opening", "moves" };
    for (int l = 0; l < 2; l++)
        cJSON_ArrayForEach(m, cJSON_GetObjectItem(game, lists[l])) {
            const cJSON *mv = l ? cJSON_GetObjectItem(m, "move") : m;
            cr_assert(cJSON_IsString(mv), "a move without its text");
            int c = atoi(mv->valuestring) - 1;
            cr_assert(c >= 0 && c < MC4_W && height[c] < MC4_H, "move %s", mv->valuestring);
            board[height[c]++][c] = side;
            side = 3 - side;
        }
    static const int dir[4][2] = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 1, -1 } };
    points[0] = points[1] = 0;
    for (int r = 0; r < MC4_H; r++)
        for (int c = 0; c < MC4_W; c++)
            for (int d = 0; d < 4; d++) {
                int k = 0, who = board[r][c];
                while (who && k < 4 && r + k * dir[d][0] < MC4_H && c + k * dir[d][1] >= 0 &&
                       c + k * dir[d][1] < MC4_W && board[r + k * dir[d][0]][c + k * dir[d][1]] == who)
                    k++;
                if (k == 4)
                    points[who - 1]++;
            }
}

/* A Max-Connect4 match: each result line ends with the final score, the
 * winner's first, and the log records it per side, both the points counted
 * here from the moves; verify refuses a doctored score. */
Test(e2e_referee, maxconnect4_results_show_the_final_score, .timeout = 120)
{
    char engine[PATH_MAX], ab[PATH_MAX + 96], rnd[PATH_MAX + 96];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(ab, sizeof ab, "name=ab,cmd=%s one-move --game maxconnect4", engine);
    snprintf(rnd, sizeof rnd, "name=rnd,cmd=%s one-move --game maxconnect4 --player random",
             engine);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "maxconnect4", "--engine", ab,
            "--engine", rnd, "--games", "2", "--depth", "2", "--log", "log.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cJSON *log = e2e_read_json(dir, "log.json");
    const cJSON *game;
    int n = 0;
    cJSON_ArrayForEach(game, cJSON_GetObjectItem(log, "games")) {
        int points[2];
        mc4_points(game, points);
        const cJSON *score = cJSON_GetObjectItem(game, "score");
        cr_assert(cJSON_IsObject(score), "game %d has no score", n + 1);
        cr_expect_eq(cJSON_GetObjectItem(score, "1")->valueint, points[0], "game %d side 1",
                     n + 1);
        cr_expect_eq(cJSON_GetObjectItem(score, "2")->valueint, points[1], "game %d side 2",
                     n + 1);
        cr_expect_str_eq(cJSON_GetObjectItem(score, "of")->valuestring, "points");
        const char *p1 = cJSON_GetObjectItem(cJSON_GetObjectItem(game, "players"), "1")->valuestring;
        const char *p2 = cJSON_GetObjectItem(cJSON_GetObjectItem(game, "players"), "2")->valuestring;
        char line[256];
        int w = points[1] > points[0];
        snprintf(line, sizeof line, "Finished game %d (%s vs %s): %s {%s %d-%d}\n", n + 1, p1,
                 p2, points[0] == points[1] ? "1/2-1/2" : w ? "0-1" : "1-0",
                 points[0] == points[1] ? "draw" : w ? "player 2 wins" : "player 1 wins",
                 points[w], points[!w]);
        cr_expect_not_null(strstr(r.out, line), "no line %s in:\n%s", line, r.out);
        n++;
    }
    cr_expect_eq(n, 2, "%d games in the log", n);
    cJSON_Delete(log);
    e2e_run_free(&r);

    /* One point more for side 1 of game 1: verify names the game. */
    char path[PATH_MAX], *text;
    snprintf(path, sizeof path, "%s/log.json", dir);
    text = e2e_slurp(path, NULL);
    cr_assert_not_null(text);
    char *one = strstr(text, "\"score\":");
    cr_assert_not_null(one);
    one = strstr(one, "\"1\":");
    cr_assert_not_null(one);
    one += strlen("\"1\":");
    while (*one == ' ' || *one == '\t')
        one++;
    int was = atoi(one);
    char doctored[PATH_MAX + 16];
    snprintf(doctored, sizeof doctored, "%s/bad.json", dir);
    FILE *f = fopen(doctored, "w");
    cr_assert_not_null(f);
    fprintf(f, "%.*s%d%s", (int)(one - text), text, was + 1, one + strspn(one, "0123456789"));
    fclose(f);
    e2e_run(&r, dir, NULL, "referee", "verify", "bad.json", NULL);
    cr_expect_eq(r.status, 1, "verify exit %d", r.status);
    char want[128];
    snprintf(want, sizeof want, "game 1: recorded score %d-", was + 1);
    cr_expect_not_null(strstr(r.err, want), "no '%s' in: %s", want, r.err);
    e2e_run_free(&r);
    free(text);
    e2e_rmdir(dir);
}

/* ---- help and habits (issue "A student's first hour", item 8) ---------- */

/* `referee CMD --help` shows CMD's usage and its own sections, no other
 * command's; `referee --help` shows each section once. */
Test(e2e_referee, command_help_shows_that_command_only)
{
    static const struct { const char *cmd, *has, *not; } cases[] = {
        { "match", "Match:\n", "Tournament:\n" },
        { "tournament", "Tournament:\n", "Report:\n" },
        { "report", "Report:\n", "Match and tournament options:\n" },
        { "bench", "Bench: ", "Slurm " },
        { "slurm", "Slurm ", "Bench: " },
        { "play", "Play: ", "Bench: " },
        { "similarity", "Similarity: ", "Bench: " },
        { "grade", "Grade: ", "Slurm " },
    };
    char *dir = e2e_tmpdir();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "referee", cases[i].cmd, "--help", NULL);
        cr_assert_eq(r.status, 0, "%s --help: exit %d", cases[i].cmd, r.status);
        char usage[64];
        snprintf(usage, sizeof usage, "Usage: referee %s ", cases[i].cmd);
        cr_assert(strncmp(r.out, usage, strlen(usage)) == 0, "%s --help:\n%s", cases[i].cmd,
                  r.out);
        cr_assert_not_null(strstr(r.out, cases[i].has), "%s --help:\n%s", cases[i].cmd, r.out);
        cr_assert_null(strstr(r.out, cases[i].not), "%s --help:\n%s", cases[i].cmd, r.out);
        char own[64];
        snprintf(own, sizeof own, "\n       referee %s ", cases[i].cmd);
        for (const char *at = r.out; (at = strstr(at, "\n       referee ")); at++)
            cr_assert(strncmp(at, own, strlen(own)) == 0, "%s --help shows another command:\n%s",
                      cases[i].cmd, r.out);
        const char *tail = "referee --help shows every command.\n";
        size_t n = strlen(r.out), t = strlen(tail);
        cr_assert(n > t && strcmp(r.out + n - t, tail) == 0, "%s --help ends:\n%s",
                  cases[i].cmd, r.out);
        e2e_run_free(&r);
    }
    struct e2e_run all;
    e2e_run(&all, dir, NULL, "referee", "--help", NULL);
    cr_assert_eq(all.status, 0);
    static const char *const sections[] = { "Match and tournament options:\n", "Match:\n",
                                            "Tournament:\n", "Report:\n", "Bench: ", "Slurm ",
                                            "Analyze ", "Status: ", "Play: ", "Similarity: ",
                                            "Grade: " };
    for (size_t i = 0; i < sizeof sections / sizeof *sections; i++) {
        const char *at = strstr(all.out, sections[i]);
        cr_assert(at && !strstr(at + 1, sections[i]), "'%s' not once in:\n%s", sections[i],
                  all.out);
    }
    e2e_run_free(&all);
    e2e_rmdir(dir);
}

/* The lines of out that start with prefix, joined, into buf. */
static void lines_with(const char *out, const char *prefix, char *buf, size_t cap)
{
    size_t used = 0, n = strlen(prefix);
    buf[0] = '\0';
    for (const char *p = out; *p; p += strcspn(p, "\n"), p += *p == '\n') {
        size_t len = strcspn(p, "\n");
        if (strncmp(p, prefix, n) == 0 && used + len + 2 < cap) {
            memcpy(buf + used, p, len);
            used += len;
            buf[used++] = '\n';
            buf[used] = '\0';
        }
    }
}

/* fastchess's spaced --sprt is the comma form: the same games, the same
 * test; a bad value is shown joined. */
/* referee play's bad options stop it before it serves (exit 2, the
 * reason, no journal made): a --listen that is no IPv4 address, a journal
 * that exists (its bytes untouched), a --page-timeout-s out of range. */
Test(e2e_referee, play_refuses_bad_options_before_serving, .timeout = 60)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "play", "--game", "connect4", "--listen", "localhost",
            "--journal", "new.jsonl", NULL);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "referee: --listen: 'localhost' is not an IPv4 address\n");
    cr_assert_str_eq(r.out, "");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/new.jsonl", dir);
    cr_assert_neq(access(path, F_OK), 0, "%s was made", path);
    e2e_run_free(&r);
    snprintf(path, sizeof path, "%s/old.jsonl", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("kept\n", f);
    fclose(f);
    e2e_run(&r, dir, NULL, "referee", "play", "--game", "connect4", "--journal", "old.jsonl",
            NULL);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "referee: old.jsonl: the journal exists: add --resume to finish its "
                            "tournament, or name another file\n");
    char *kept = e2e_slurp(path, NULL);
    cr_assert_str_eq(kept, "kept\n");
    free(kept);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "play", "--game", "connect4", "--page-timeout-s", "0",
            NULL);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "referee: --page-timeout-s must be a number from 1 to 86400, got "
                            "'0'\nTry 'referee --help' for more information.\n");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_referee, spaced_sprt_is_the_comma_form, .timeout = 120)
{
    char engine[PATH_MAX], perfect[PATH_MAX + 64], random[PATH_MAX + 96];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(perfect, sizeof perfect, "name=perfect,cmd=%s one-move --game nim --player perfect",
             engine);
    snprintf(random, sizeof random,
             "name=random,cmd=%s one-move --game nim --player random --seed {player} {in} {out} 1",
             engine);
    char *dir = e2e_tmpdir();
    struct e2e_run comma, spaced, bad;
    e2e_run(&comma, dir, NULL, "referee", "tournament", "--game", "nim", "--engine", perfect,
            "--engine", random, "--rounds", "4", "--sprt", "elo0=0,elo1=100,alpha=0.1,beta=0.1",
            NULL);
    e2e_run(&spaced, dir, NULL, "referee", "tournament", "--game", "nim", "--engine", perfect,
            "--engine", random, "--rounds", "4", "--sprt", "elo0=0", "elo1=100", "alpha=0.1",
            "beta=0.1", NULL);
    cr_assert_eq(comma.status, 0, "comma: %s", comma.err);
    cr_assert_eq(spaced.status, 0, "spaced: %s", spaced.err);
    char a[4096], b[4096];
    lines_with(comma.out, "SPRT: ", a, sizeof a);
    lines_with(spaced.out, "SPRT: ", b, sizeof b);
    cr_assert(a[0], "no SPRT line:\n%s", comma.out);
    cr_assert_str_eq(b, a);
    lines_with(comma.out, "Finished game ", a, sizeof a);
    lines_with(spaced.out, "Finished game ", b, sizeof b);
    cr_assert_str_eq(b, a);
    e2e_run(&bad, dir, NULL, "referee", "tournament", "--sprt", "elo0=5", "elo1=0", "alpha=0.1",
            "beta=0.1", "--game", "nim", NULL);
    cr_assert_eq(bad.status, EXIT_USAGE);
    cr_assert_not_null(strstr(bad.err, "got 'elo0=5,elo1=0,alpha=0.1,beta=0.1'\n"), "%s",
                       bad.err);
    e2e_run_free(&comma);
    e2e_run_free(&spaced);
    e2e_run_free(&bad);
    e2e_rmdir(dir);
}

/* The moves and results of a log's games, one line each. */
static void log_games(const char *dir, const char *name, char *buf, size_t cap)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text, "%s", path);
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root, "%s", path);
    size_t used = 0;
    const cJSON *g, *m;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(root, "games")) {
        used += (size_t)snprintf(buf + used, cap - used, "%s %s:",
                                 cJSON_GetObjectItemCaseSensitive(g, "result")->valuestring,
                                 cJSON_GetObjectItemCaseSensitive(g, "reason")->valuestring);
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(g, "moves"))
            used += (size_t)snprintf(buf + used, cap - used, " %s",
                                     cJSON_GetObjectItemCaseSensitive(m, "move")->valuestring);
        used += (size_t)snprintf(buf + used, cap - used, "\n");
    }
    cJSON_Delete(root);
    free(text);
}

/* match --concurrency plays games at once, and prints and logs them as one
 * at a time does: in their order. --rounds N is 2N games. Three at once on
 * this project's two cores: --force-concurrency lets them share CPUs. */
Test(e2e_referee, match_concurrency_prints_and_logs_in_order, .timeout = 120)
{
    char engine[PATH_MAX], a[PATH_MAX + 64], b[PATH_MAX + 96];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "name=a,cmd=%s one-move --game connect4,depth=1", engine);
    snprintf(b, sizeof b, "name=b,cmd=%s one-move --game connect4,depth=3", engine);
    char *dir = e2e_tmpdir();
    struct e2e_run one, three;
    e2e_run(&one, dir, NULL, "referee", "match", "--game", "connect4", "--engine", a, "--engine",
            b, "--rounds", "3", "--random-plies", "4", "--log", "one.json", NULL);
    e2e_run(&three, dir, NULL, "referee", "match", "--game", "connect4", "--engine", a,
            "--engine", b, "--rounds", "3", "--random-plies", "4", "--concurrency", "3",
            "--force-concurrency", "--log", "three.json", NULL);
    cr_assert_eq(one.status, 0, "%s", one.err);
    cr_assert_eq(three.status, 0, "%s", three.err);
    cr_assert_not_null(strstr(one.out, "Finished game 6 "), "%s", one.out);
    cr_assert_str_eq(three.out, one.out);
    char x[8192], y[8192];
    log_games(dir, "one.json", x, sizeof x);
    log_games(dir, "three.json", y, sizeof y);
    cr_assert_str_eq(y, x);
    e2e_run_free(&one);
    e2e_run_free(&three);
    e2e_rmdir(dir);
}

/* More games at once than the referee has CPUs (here one: the test's own
 * affinity, which the referee inherits) is refused before anything is
 * played or written, status 2, naming the CPUs and the way out, by match
 * and tournament alike; --force-concurrency, or "force-concurrency": true
 * in a tournament's config file, plays them on the CPU they share. A
 * match of one game plays at any --concurrency. */
Test(e2e_referee, concurrency_above_the_cpus_is_refused_unless_forced, .timeout = 120)
{
    cpu_set_t own, one;
    cr_assert_eq(sched_getaffinity(0, sizeof own, &own), 0);
    int cpu = 0;
    while (!CPU_ISSET(cpu, &own))
        cpu++;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    cr_assert_eq(sched_setaffinity(0, sizeof one, &one), 0);
    char engine[PATH_MAX], a[PATH_MAX + 64], b[PATH_MAX + 64], want[512];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "name=a,cmd=%s one-move --game nim --player perfect", engine);
    snprintf(b, sizeof b, "name=b,cmd=%s one-move --game nim --player random", engine);
    snprintf(want, sizeof want,
             "referee: --concurrency 2 is more than the 1 CPU this referee may use (%d): each "
             "game plays on CPUs of its own, so give --concurrency 1 at most, or "
             "--force-concurrency to let games share CPUs\n", cpu);
    char *dir = e2e_tmpdir();
    e2e_put_at(dir, "force.json", "{\"force-concurrency\": true}\n");
    static const char *const how[] = { "", "--force-concurrency", "--config" };
    for (int cmd = 0; cmd < 2; cmd++)
        for (int k = 0; k < 3; k++) {
            if (cmd == 0 && k == 2)
                continue;   /* match has no config file */
            const char *args[] = { cmd ? "tournament" : "match", "--game", "nim", "--engine", a,
                                   "--engine", b, "--concurrency", "2",
                                   cmd ? "--journal" : "--log", "out.json",
                                   k ? how[k] : NULL, k == 2 ? "force.json" : NULL, NULL };
            char out[PATH_MAX + 16];
            snprintf(out, sizeof out, "%s/out.json", dir);
            unlink(out);
            struct e2e_run r;
            e2e_runv(&r, dir, NULL, "referee", args);
            if (!k) {
                cr_assert_eq(r.status, EXIT_USAGE, "%s: exit %d: %s", args[0], r.status, r.err);
                cr_assert_str_eq(r.err, want, "%s", args[0]);
                cr_assert_str_empty(r.out, "%s", args[0]);
                cr_assert(!e2e_exists(out), "%s wrote %s", args[0], out);
            } else {
                cr_assert_eq(r.status, 0, "%s %s: exit %d: %s", args[0], how[k], r.status, r.err);
                const char *said = cmd ? "Standings after 2 games" : "Score of a vs b";
                cr_assert_not_null(strstr(r.out, said), "%s %s: %s", args[0], how[k], r.out);
            }
            e2e_run_free(&r);
        }
    /* One game has nothing to share: --concurrency 2 is one at a time. */
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "nim", "--engine", a, "--engine", b,
            "--games", "1", "--concurrency", "2", NULL);
    cr_assert_eq(r.status, 0, "one game: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Each engine forfeits the game it starts: no engine forfeited all of its
 * games, but every game of the run was a forfeit: status 3, and a line
 * names each engine and its reasons. */
Test(e2e_referee, every_game_a_forfeit_is_status_3, .timeout = 60)
{
    char engine[PATH_MAX], a[2 * PATH_MAX], b[2 * PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    static const char fmt[] = "name=%s,cmd=sh -c 'if [ {player} = 1 ]; then exit 1; fi; exec %s "
                              "one-move --game nim {in} {out} 1'";
    snprintf(a, sizeof a, fmt, "a", engine);
    snprintf(b, sizeof b, fmt, "b", engine);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "nim", "--engine", a, "--engine", b,
            "--games", "2", "--sandbox", "none", NULL);
    cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out,
                     "Finished game 1 (a vs b): 0-1 {a forfeits at ply 1: exit-status 1}\n"
                     "  ply 1: --keep-files DIR keeps its position (DIR/game-1/ply-001-in.txt)\n"
                     "Finished game 2 (b vs a): 0-1 {b forfeits at ply 1: exit-status 1}\n"
                     "  ply 1: --keep-files DIR keeps its position (DIR/game-2/ply-001-in.txt)\n"
                     "Score of a vs b: 1 - 1 - 0  [0.500] 2\n"
                     "every game ended in a forfeit: a (1): exit-status 1; b (1): exit-status 1\n");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* On a terminal (script(1) gives the referee one), a match shows the move
 * it waits for and the most it waits, and clears the line before the
 * result; without a terminal nothing of it is printed. */
Test(e2e_referee, a_terminal_shows_the_move_being_waited_for, .timeout = 60)
{
    char referee[PATH_MAX], engine[PATH_MAX], sleeper[PATH_MAX], cmd[4 * PATH_MAX];
    e2e_bin_path("referee", referee, sizeof referee);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    hostile_path("sleeper", sleeper, sizeof sleeper);
    char *dir = e2e_tmpdir();
    snprintf(cmd, sizeof cmd,
             "cd '%s' && script -qec \"%s match --game nim --engine name=hang,cmd=%s --engine "
             "'%s one-move --game nim' --games 1 --timeout-ms 300\" /dev/null > tty.out",
             dir, referee, sleeper, engine);
    int status = system(cmd);   /* script -e: the referee's own status */
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 3, "%s: status %d", cmd, status);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/tty.out", dir);
    char *out = e2e_slurp(path, NULL);
    cr_assert_not_null(out);
    cr_assert_not_null(strstr(out, "\r\033[Kgame 1, ply 1: waiting for hang (player 1), at most "
                                   "300 ms (--timeout-ms)\r\033[KFinished game 1 (hang vs "),
                       "%s", out);
    free(out);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "nim", "--engine",
            "name=hang,cmd=sh -c 'exit 1'", "--engine", "sh -c 'exit 1'", "--games", "1", NULL);
    cr_assert_null(strstr(r.err, "waiting for"), "%s", r.err);
    cr_assert_null(strstr(r.out, "waiting for"), "%s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}
