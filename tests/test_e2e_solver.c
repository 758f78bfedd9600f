/*
 * test_e2e_solver.c - the perfect Connect-4 solver from the command line
 * (`engine solve`, `engine book`, `engine one-move --player perfect`) and
 * blunder analysis (`referee analyze`, `--analyze`), on
 * fixtures/connect4/solve, fixtures/connect4/book, fixtures/connect4/perfect-*
 * and fixtures/analyze.
 *
 * Solve's NODES and MICROSECONDS columns are measurements; the tests compare
 * the first two columns (the move string and the score) exactly.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2e_util.h"

#define EXIT_BAD 2
#define EXIT_DIFFER 1

/* The first two space-separated fields of every line of text, malloc'd. */
static char *first_two_fields(const char *text)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        int spaces = 0;
        for (size_t i = 0; i < len; i++) {
            if (p[i] == ' ' && ++spaces == 2)
                break;
            *o++ = p[i];
        }
        *o++ = '\n';
        p += len + (nl != NULL);
    }
    *o = '\0';
    return out;
}

static void assert_scores(const struct e2e_run *r, const char *rel)
{
    char *scores = first_two_fields(r->out);
    e2e_assert_fixture(scores, strlen(scores), rel);
    free(scores);
}

Test(e2e_solver, solve_prints_the_score_of_each_line)
{
    char *dir = e2e_fixture("connect4/solve");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "solve", "positions.txt", NULL);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    cr_assert_eq(r.err_len, 0, "stderr: %s", r.err);
    assert_scores(&r, "connect4/solve/positions.scores");
    e2e_run_free(&r);
    free(dir);
}

/* Lazy SMP: the scores do not depend on the number of threads. */
Test(e2e_solver, threads_print_the_same_scores)
{
    char *dir = e2e_fixture("connect4/solve");
    static const char *const threads[] = { "1", "2", "4" };
    for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "engine", "solve", "--threads", threads[i], "positions.txt",
                NULL);
        cr_assert_eq(r.status, 0, "--threads %s: exit %d, stderr: %s", threads[i], r.status,
                     r.err);
        assert_scores(&r, "connect4/solve/positions.scores");
        e2e_run_free(&r);
    }
    free(dir);
}

Test(e2e_solver, weak_prints_win_draw_loss)
{
    char *dir = e2e_fixture("connect4/solve");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "solve", "--weak", "positions.txt", NULL);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    assert_scores(&r, "connect4/solve/positions.weak");
    e2e_run_free(&r);
    free(dir);
}

Test(e2e_solver, solve_reads_stdin)
{
    struct e2e_run r;
    e2e_run(&r, ".", "4455\n44455554221\r\n", "engine", "solve", NULL);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    char *scores = first_two_fields(r.out);
    cr_expect_str_eq(scores, "4455 18\n44455554221 -15\n");
    free(scores);
    /* Each line's last two fields: the node count, then the microseconds
     * to a hundredth. */
    for (const char *line = r.out; *line; line = strchr(line, '\n') + 1) {
        char moves[32], tail[8];
        int score, hundredths;
        unsigned long long nodes, us;
        int n = sscanf(line, "%31s %d %llu %llu.%2d%7[^\n]", moves, &score, &nodes, &us,
                       &hundredths, tail);
        cr_expect_eq(n, 5, "not 'MOVES SCORE NODES US.HH': %s", line);
        cr_expect(strchr(line, '.') && strchr(line, '.')[3] == '\n', "not two decimals: %s",
                  line);
    }
    e2e_run_free(&r);
}

/* Every bad line is named with line and column, the good lines around them
 * are still solved, and the run ends with status 2. */
Test(e2e_solver, bad_lines_are_reported_and_the_run_goes_on)
{
    char *dir = e2e_fixture("connect4/solve");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "solve", "bad.txt", NULL);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d", r.status);
    e2e_assert_fixture(r.err, r.err_len, "connect4/solve/bad.err");
    assert_scores(&r, "connect4/solve/bad.scores");
    e2e_run_free(&r);
    free(dir);
}

Test(e2e_solver, a_score_that_differs_exits_1)
{
    struct e2e_run r;
    e2e_run(&r, ".", "4455 18\n4455 17\n", "engine", "solve", NULL);
    cr_assert_eq(r.status, EXIT_DIFFER, "exit %d", r.status);
    cr_expect_str_eq(r.err, "<stdin>:2: expected score 17, solved 18\n");
    e2e_run_free(&r);
}

Test(e2e_solver, missing_file_and_bad_options)
{
    struct e2e_run r;
    e2e_run(&r, ".", NULL, "engine", "solve", "no-such-file.txt", NULL);
    cr_expect_eq(r.status, EXIT_BAD, "exit %d", r.status);
    cr_expect_str_eq(r.err, "no-such-file.txt: cannot open: No such file or directory\n");
    e2e_run_free(&r);
    e2e_run(&r, ".", NULL, "engine", "solve", "--depth", "3", NULL);
    cr_expect_eq(r.status, EXIT_BAD, "exit %d", r.status);
    cr_expect(strstr(r.err, "engine: solve: unknown option '--depth'") == r.err, "%s", r.err);
    e2e_run_free(&r);
}

/* ---- opening books (fixtures/connect4/book) ---- */

#define BOOK_ROOT "274552224131661"

/* engine book writes the fixture book byte for byte: every position within
 * two moves of BOOK_ROOT, in book order, each with its exact score; and
 * engine solve, reading the book as a test set, agrees with every line. */
Test(e2e_solver, book_makes_a_book_that_solve_confirms)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "book", "--depth", "2", "--from", BOOK_ROOT, "--tt-mb", "8",
            "made.txt", NULL);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    cr_expect(strncmp(r.out, "made.txt: 57 positions, 49 solved, ", 35) == 0, "stdout: %s",
              r.out);
    e2e_run_free(&r);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/made.txt", dir);
    size_t len;
    char *made = e2e_slurp(path, &len);
    cr_assert_not_null(made, "no book written");
    e2e_assert_fixture(made, len, "connect4/book/middle.txt");
    free(made);
    e2e_run(&r, dir, NULL, "engine", "solve", "made.txt", NULL);
    cr_expect_eq(r.status, 0, "solving the book: exit %d, stderr: %s", r.status, r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* With --book, the scores are the same and a position the book holds costs
 * no search: the solver looks it up (at most the root node and one probe
 * per null window). */
Test(e2e_solver, solve_with_a_book_looks_positions_up)
{
    char *dir = e2e_fixture("connect4/book");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "solve", "--threads", "1", "--book", "middle.txt", "under.txt",
            NULL);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    assert_scores(&r, "connect4/book/under.scores");
    const char *line = r.out;
    for (int i = 0; i < 3; i++) {
        char moves[64];
        int score;
        unsigned long long nodes;
        cr_assert_eq(sscanf(line, "%63s %d %llu", moves, &score, &nodes), 3, "%s", line);
        cr_expect_leq(nodes, 2, "%s is in the book, yet took %llu nodes", moves, nodes);
        line = strchr(line, '\n') + 1;
    }
    e2e_run_free(&r);
    free(dir);
}

Test(e2e_solver, a_bad_book_stops_solve_before_any_line)
{
    char *dir = e2e_fixture("connect4/book");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "solve", "--book", "bad.txt", "under.txt", NULL);
    cr_expect_eq(r.status, EXIT_BAD, "exit %d", r.status);
    cr_expect_eq(r.out_len, 0, "stdout: %s", r.out);
    e2e_assert_fixture(r.err, r.err_len, "connect4/book/bad.err");
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "engine", "solve", "--book", "no-such-book.txt", "under.txt", NULL);
    cr_expect_eq(r.status, EXIT_BAD, "exit %d", r.status);
    cr_expect_str_eq(r.err, "no-such-book.txt: cannot open: No such file or directory\n");
    e2e_run_free(&r);
    free(dir);
}

struct book_usage {
    const char *args[8];
    const char *err;    /* the start of stderr */
};

/* Bad book command lines exit 2, say why, and write no book. */
Test(e2e_solver, book_refuses_bad_command_lines)
{
    static const struct book_usage cases[] = {
        { { "book", "out.txt", NULL }, "engine: book needs --depth from 1 to 12" },
        { { "book", "--depth", "13", "out.txt", NULL }, "engine: book needs --depth from 1 to 12" },
        { { "book", "--depth", "2", NULL }, "engine: book takes one OUT file" },
        { { "book", "--depth", "2", "out.txt", "more.txt", NULL },
          "engine: book takes one OUT file" },
        { { "book", "--depth", "2", "--from", "1111111", "out.txt", NULL },
          "engine: --from '1111111': move 7: column is full" },
        { { "book", "--depth", "2", "--from", "1212121", "out.txt", NULL },
          "engine: --from '1212121': move 8: game is already over" },
        { { "book", "--depth", "2", "--weak", "out.txt", NULL },
          "engine: book: unknown option '--weak'" },
        { { "solve", "--from", "4", NULL }, "engine: solve: unknown option '--from'" },
        { { "solve", "--game", "nim", NULL },
          "engine: solve: the solver plays connect4 only, not 'nim'" },
        { { "book", "--game=maxconnect4", "--depth", "2", "out.txt", NULL },
          "engine: book: the solver plays connect4 only, not 'maxconnect4'" },
        { { "solve", "--threads", "0", NULL }, "engine: --threads must be a number from 1 to 64" },
        { { "book", "--depth", "2", "--threads", "2", "out.txt", NULL },
          "engine: book: unknown option '--threads'" },
    };
    char *dir = e2e_tmpdir();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct e2e_run r;
        e2e_runv(&r, dir, NULL, "engine", cases[i].args);
        cr_expect_eq(r.status, EXIT_BAD, "case %zu: exit %d", i, r.status);
        cr_expect(strncmp(r.err, cases[i].err, strlen(cases[i].err)) == 0,
                  "case %zu: stderr '%s', expected '%s'", i, r.err, cases[i].err);
        e2e_run_free(&r);
    }
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    cr_expect(!e2e_exists(path), "a refused command wrote out.txt");
    e2e_rmdir(dir);
}

struct perfect_case {
    char board[48];     /* fixtures/connect4/NAME.board -> NAME.after */
    char move[4];
};

/* The perfect player takes the win at once; in a lost position where every
 * move loses as fast, it takes the lowest column. */
Test(e2e_solver, perfect_player_moves)
{
    static const struct perfect_case cases[] = { { "perfect-win", "4" }, { "perfect-lost", "1" } };
    char *dir = e2e_fixture("connect4");
    char *tmp = e2e_tmpdir();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char in[PATH_MAX], out[PATH_MAX], rel[PATH_MAX], info[64];
        snprintf(in, sizeof in, "%s.board", cases[i].board);
        snprintf(out, sizeof out, "%s/%s.txt", tmp, cases[i].board);
        snprintf(rel, sizeof rel, "connect4/%s.after", cases[i].board);
        snprintf(info, sizeof info, " move %s value ", cases[i].move);
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "engine", "one-move", "--game", "connect4", "--player", "perfect",
                in, out, NULL);
        cr_assert_eq(r.status, 0, "%s: exit %d, stderr: %s", in, r.status, r.err);
        cr_expect(strstr(r.err, info) != NULL, "%s: expected%s in: %s", in, info, r.err);
        size_t len;
        char *after = e2e_slurp(out, &len);
        cr_assert(after != NULL, "%s: no output file", in);
        e2e_assert_fixture(after, len, rel);
        free(after);
        e2e_run_free(&r);
    }
    e2e_rmdir(tmp);
    free(dir);
}

struct analyzed {
    char log[48];       /* fixtures/analyze/NAME.{json,jsonl} -> NAME.out */
    char file[56];
};

/* Constructed games whose blunders were worked out by hand: the report
 * names each game's decisive mistake and counts blunders per engine. */
Test(e2e_solver, analyze_finds_the_known_blunders)
{
    static const struct analyzed cases[] = {
        { "nim-blunders", "nim-blunders.json" },
        { "connect4-blunder", "connect4-blunder.jsonl" },
    };
    char *dir = e2e_fixture("analyze");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char rel[PATH_MAX];
        snprintf(rel, sizeof rel, "analyze/%s.out", cases[i].log);
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "referee", "analyze", cases[i].file, NULL);
        cr_assert_eq(r.status, 0, "%s: exit %d, stderr: %s", cases[i].file, r.status, r.err);
        e2e_assert_fixture(r.out, r.out_len, rel);
        e2e_run_free(&r);
    }
    free(dir);
}

/* The oracle reads the shipped opening book: with a millisecond per
 * position the solver cannot tell the empty board's value or its
 * children's, yet the opening blunder (column 1, a win into a loss) is
 * found, every position known. Without the book both stay unknown. */
Test(e2e_solver, analyze_reads_the_opening_book)
{
    char *dir = e2e_fixture("analyze");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "analyze", "connect4-book.jsonl", "--budget-ms", "1", NULL);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    e2e_assert_fixture(r.out, r.out_len, "analyze/connect4-book.out");
    e2e_run_free(&r);
    free(dir);
}

/* --json writes every record with its analysis: the blunder flags per move
 * and the decisive mistake. */
Test(e2e_solver, analyze_writes_the_json)
{
    char *dir = e2e_fixture("analyze");
    char *tmp = e2e_tmpdir();
    char out[PATH_MAX];
    snprintf(out, sizeof out, "%s/analysis.json", tmp);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "analyze", "nim-blunders.json", "--json", out, NULL);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    size_t len;
    char *json = e2e_slurp(out, &len);
    cr_assert(json != NULL, "no %s", out);
    cr_expect(strstr(json, "\"schema\":\t\"arena.analysis/1\"") != NULL, "%s", json);
    cr_expect(strstr(json, "\"move\":\t\"1:3\",\n\t\t\t\t\t\"status\":\t\"ok\",\n\t\t\t\t\t"
                           "\"before\":\t\"win\",\n\t\t\t\t\t\"after\":\t\"loss\",\n\t\t\t\t\t"
                           "\"blunder\":\ttrue")
                  != NULL,
              "ply 2 (1:3) is not marked a win -> loss blunder: %s", json);
    cr_expect(strstr(json, "\"decisive\":\t{\n\t\t\t\t\t\"ply\":\t5,\n\t\t\t\t\t\"engine\":\t\"A\"")
                  != NULL,
              "no decisive mistake at ply 5 by A: %s", json);
    free(json);
    e2e_run_free(&r);
    e2e_rmdir(tmp);
    free(dir);
}

Test(e2e_solver, analyze_refuses_bad_input)
{
    char *dir = e2e_fixture("analyze");
    char *tmp = e2e_tmpdir();
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/checkers.jsonl", tmp);
    FILE *f = fopen(path, "w");
    cr_assert(f != NULL);
    fputs("{\"schema\":\"arena.journal/1\",\"game\":\"checkers\"}\n", f);
    fclose(f);
    struct e2e_run r;
    e2e_run(&r, tmp, NULL, "referee", "analyze", "checkers.jsonl", NULL);
    cr_expect_eq(r.status, EXIT_BAD, "exit %d", r.status);
    cr_expect_str_eq(r.err, "checkers.jsonl: no exact oracle for checkers: analyze handles "
                            "connect4, maxconnect4, nim and tictactoe\n");
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "analyze", "nim-blunders.out", NULL);
    cr_expect_eq(r.status, EXIT_BAD, "exit %d", r.status);
    cr_expect(strstr(r.err, "nim-blunders.out:1:1: not a journal") == r.err, "%s", r.err);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "checkers", "--engine", "a", "--engine",
            "b", "--analyze", NULL);
    cr_expect_eq(r.status, EXIT_BAD, "exit %d", r.status);
    cr_expect(strstr(r.err, "referee: match: --analyze has no oracle for checkers") == r.err,
              "%s", r.err);
    e2e_run_free(&r);
    e2e_rmdir(tmp);
    free(dir);
}

/* match --analyze: Nim's perfect player never blunders; the log carries
 * the analysis, and `analyze` on the log agrees with what the match printed. */
Test(e2e_solver, match_analyze_records_blunders)
{
    char *tmp = e2e_tmpdir();
    char engine[PATH_MAX], perfect[PATH_MAX + 64], random[PATH_MAX + 64], log[PATH_MAX];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(perfect, sizeof perfect, "name=perfect,cmd=%s one-move --game nim --player perfect",
             engine);
    snprintf(random, sizeof random,
             "name=random,cmd=%s one-move --game nim --player random --seed 5", engine);
    snprintf(log, sizeof log, "%s/log.json", tmp);
    struct e2e_run r;
    e2e_run(&r, tmp, NULL, "referee", "match", "--game", "nim", "--engine", perfect, "--engine",
            random, "--games", "4", "--analyze", "--log", log, NULL);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    cr_expect(strstr(r.out, "decisive mistake: ply") != NULL, "no blunder by random: %s", r.out);
    cr_expect(strstr(r.out, "by perfect") == NULL, "perfect blundered: %s", r.out);
    struct e2e_run a;
    e2e_run(&a, tmp, NULL, "referee", "analyze", "log.json", NULL);
    cr_assert_eq(a.status, 0, "exit %d, stderr: %s", a.status, a.err);
    const char *row = strstr(a.out, "\nperfect ");
    long moves = 0, blunders = -1, unknown = -1;
    cr_assert(row && sscanf(row, "\nperfect %ld %ld %ld", &moves, &blunders, &unknown) == 3,
              "no row for perfect: %s", a.out);
    cr_expect(moves > 0 && blunders == 0 && unknown == 0,
              "perfect: %ld moves, %ld blunders, %ld unknown", moves, blunders, unknown);
    /* Every decisive line the match printed is in the analysis. */
    for (const char *p = strstr(r.out, "  decisive"); p; p = strstr(p + 1, "  decisive")) {
        char line[160];
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        cr_expect(strstr(a.out, line) != NULL, "'%s' is not in the analysis: %s", line, a.out);
    }
    e2e_run_free(&a);
    e2e_run_free(&r);
    e2e_rmdir(tmp);
}
