/*
 * test_e2e_cli.c - the command-line convention every binary shares (cli.h):
 * --version from one place, --opt=value and unambiguous abbreviations as
 * getopt_long promises, one message for an ambiguous or misused option, the
 * seeds' positional lines read exactly as before, and the solver's refusal
 * of a board file given where move strings belong.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/version.h"
#include "e2e_util.h"

#define EXIT_USAGE 2

/* Every binary answers --version with its name and the one version. */
Test(e2e_cli, every_binary_prints_the_version)
{
    const char *progs[] = { "engine", "referee", "maxconnect4", "spfiar", "checkers", "nim" };
    for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
        struct e2e_run r;
        e2e_run(&r, ".", NULL, progs[i], "--version", NULL);
        char want[64];
        snprintf(want, sizeof want, "%s (arena) %s\n", progs[i], ARENA_VERSION);
        cr_expect_eq(r.status, 0, "%s --version: exit %d", progs[i], r.status);
        cr_expect_str_eq(r.out, want, "%s --version", progs[i]);
        cr_expect_eq(r.err_len, 0, "%s --version: stderr %s", progs[i], r.err);
        e2e_run_free(&r);
    }
}

/* Subcommands take --version too. */
Test(e2e_cli, subcommands_print_the_version)
{
    const char *cmds[][2] = { { "engine", "solve" }, { "engine", "train" },
                              { "referee", "match" }, { "referee", "verify" } };
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        struct e2e_run r;
        e2e_run(&r, ".", NULL, cmds[i][0], cmds[i][1], "--version", NULL);
        char want[64];
        snprintf(want, sizeof want, "%s (arena) %s\n", cmds[i][0], ARENA_VERSION);
        cr_expect_eq(r.status, 0, "%s %s --version: exit %d", cmds[i][0], cmds[i][1], r.status);
        cr_expect_str_eq(r.out, want);
        e2e_run_free(&r);
    }
}

/* --depth 3, --depth=3 and --dep=3 make the same move with the same
 * statistics line (one-move's table alone decides what --dep means). */
Test(e2e_cli, value_forms_and_abbreviations_agree)
{
    const char *forms[][2] = { { "--depth", "3" }, { "--depth=3", NULL }, { "--dep=3", NULL },
                               { "--dep", "3" } };
    char *in = e2e_fixture("maxconnect4/midgame.txt");
    char *dir = e2e_tmpdir(), out[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    char *first_out = NULL, *first_err = NULL;
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        struct e2e_run r;
        if (forms[i][1])
            e2e_run(&r, dir, NULL, "engine", "one-move", forms[i][0], forms[i][1], in, out, NULL);
        else
            e2e_run(&r, dir, NULL, "engine", "one-move", forms[i][0], in, out, NULL);
        cr_assert_eq(r.status, 0, "%s: exit %d: %s", forms[i][0], r.status, r.err);
        cr_assert(strstr(r.err, " depth 3 ") != NULL, "%s: %s", forms[i][0], r.err);
        /* The statistics line's CPU time differs from run to run. */
        char *cpu = strstr(r.err, "cpu_ms");
        cr_assert_not_null(cpu);
        *cpu = '\0';
        if (!first_out) {
            first_out = strdup(r.out);
            first_err = strdup(r.err);
        } else {
            cr_expect_str_eq(r.out, first_out, "%s", forms[i][0]);
            cr_expect_str_eq(r.err, first_err, "%s", forms[i][0]);
        }
        e2e_run_free(&r);
    }
    free(first_out);
    free(first_err);
    free(in);
    e2e_rmdir(dir);
}

struct usage_case {
    char prog[16];
    char args[4][24];
    char err[160];      /* the first line of stderr */
};

ParameterizedTestParameters(e2e_cli, misused_options_are_one_message)
{
    static struct usage_case cases[] = {
        { "engine", { "bench", "--de", "3" },
          "engine: bench: option '--de' is ambiguous (--depth, --depths)" },
        { "engine", { "solve", "--weak=1" }, "engine: solve: option '--weak' takes no value" },
        { "engine", { "solve", "--tt-mb" }, "engine: solve: option '--tt-mb' needs a value" },
        { "engine", { "one-move", "--json", "x.json" },
          "engine: one-move: unknown option '--json'" },
        { "engine", { "bench", "--weights", "w" }, "engine: bench: unknown option '--weights'" },
        { "engine", { "solve", "--game", "nim" },
          "engine: solve: the solver plays connect4 only, not 'nim'" },
        { "referee", { "report", "--games", "2", "j" },
          "referee: report: unknown option '--games'" },
        { "referee", { "match", "--resume" }, "referee: match: unknown option '--resume'" },
        { "spfiar", { "--lev" }, "spfiar: option '--lev' needs a value" },
        { "checkers", { "-x" }, "checkers: unknown option '-x'" },
        /* The seeds' lines: a word that looks like an option after the
         * first argument is an argument, as before. */
        { "nim", { "-1", "3" }, "nim: FIRST must be 0 (computer first) or 1 (you first), got '-1'" },
        { "nim", { "1", "3", "-2" },
          "nim: row 1 must be a number of matches from 0 to 1000000, got '-2'" },
        { "maxconnect4", { "one-move", "a", "b", "-3" },
          "maxconnect4: depth must be a number from 1 to 64, got '-3'" },
        { "maxconnect4", { "--depth", "3" }, "maxconnect4: unknown option '--depth'" },
    };
    return cr_make_param_array(struct usage_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct usage_case *c, e2e_cli, misused_options_are_one_message)
{
    const char *args[5] = { NULL };
    for (int i = 0; i < 4 && c->args[i][0]; i++)
        args[i] = c->args[i];
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, c->prog, args);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d: %s", r.status, r.err);
    char want[256];
    snprintf(want, sizeof want, "%s\nTry '%s --help' for more information.\n", c->err, c->prog);
    cr_assert_str_eq(r.err, want);
    cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A board file where move strings belong is named as such, at once, with
 * nothing solved; a move-strings file beside it is still solved. */
Test(e2e_cli, solve_refuses_a_board_file)
{
    const char *boards[] = { "connect4/threat.txt", "maxconnect4/midgame.txt",
                             "maxconnect4/empty-crlf.txt" };
    for (size_t i = 0; i < sizeof boards / sizeof *boards; i++) {
        char *board = e2e_fixture(boards[i]);
        struct e2e_run r;
        e2e_run(&r, ".", NULL, "engine", "solve", board, NULL);
        cr_expect_eq(r.status, EXIT_USAGE, "%s: exit %d", boards[i], r.status);
        char want[PATH_MAX + 128];
        snprintf(want, sizeof want,
                 "%s:1:1: this looks like a board file; solve reads move strings such as 4453 "
                 "(see --help)\n",
                 board);
        cr_expect_str_eq(r.err, want);
        cr_expect_eq(r.out_len, 0, "%s: solved: %s", boards[i], r.out);
        e2e_run_free(&r);
        free(board);
    }
}

/* A line of 43 moves is refused with its place (the 43rd move finds its
 * column full), not solved; the lines around it are solved. */
Test(e2e_cli, solve_refuses_more_than_42_moves)
{
    /* 42 moves filling the board without a four (columns in the order
     * 1 2 ... 7, three times each way), then one more. */
    const char *full = "121212343434565656777777212121434343656565";
    char input[128];
    snprintf(input, sizeof input, "4455\n%s1\n4455\n", full);
    struct e2e_run r;
    e2e_run(&r, ".", input, "engine", "solve", NULL);
    cr_expect_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    cr_expect(strncmp(r.err, "<stdin>:2:43: ", 14) == 0, "%s", r.err);
    cr_expect(strstr(r.out, "\n4455 18 ") != NULL && strncmp(r.out, "4455 18 ", 8) == 0, "%s",
              r.out);
    cr_expect(strstr(r.out, full) == NULL, "the long line was solved: %s", r.out);
    e2e_run_free(&r);
}

/* ---- arena: one command for every tool ---- */

/* arena TOOL runs arena-TOOL, which names itself so in every message. */
Test(e2e_cli, arena_runs_each_tool_under_its_installed_name)
{
    const char *tools[] = { "engine", "referee", "maxconnect4", "spfiar", "checkers", "nim" };
    for (size_t i = 0; i < sizeof tools / sizeof *tools; i++) {
        struct e2e_run r;
        e2e_run(&r, ".", NULL, "arena", tools[i], "--version", NULL);
        char want[64];
        snprintf(want, sizeof want, "arena-%s (arena) %s\n", tools[i], ARENA_VERSION);
        cr_expect_eq(r.status, 0, "arena %s --version: exit %d: %s", tools[i], r.status, r.err);
        cr_expect_str_eq(r.out, want);
        e2e_run_free(&r);
    }
    struct e2e_run r;
    e2e_run(&r, ".", "4455\n", "arena", "engine", "solve", NULL);
    cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(strncmp(r.out, "4455 18 ", 8) == 0, "%s", r.out);
    e2e_run_free(&r);
    e2e_run(&r, ".", NULL, "arena", "nim", "--bogus", NULL);
    cr_expect_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    cr_expect_str_eq(r.err, "arena-nim: unknown option '--bogus'\n"
                            "Try 'arena-nim --help' for more information.\n");
    e2e_run_free(&r);
}

ParameterizedTestParameters(e2e_cli, arena_refuses_what_is_not_a_tool)
{
    static struct usage_case cases[] = {
        { "arena", { "" }, "arena: missing tool (engine, referee, maxconnect4, spfiar, checkers, nim)" },
        { "arena", { "gcc" },
          "arena: unknown tool 'gcc' (engine, referee, maxconnect4, spfiar, checkers, nim)" },
        { "arena", { "arena-engine" },
          "arena: unknown tool 'arena-engine' (engine, referee, maxconnect4, spfiar, checkers, "
          "nim)" },
    };
    return cr_make_param_array(struct usage_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct usage_case *c, e2e_cli, arena_refuses_what_is_not_a_tool)
{
    const char *args[2] = { c->args[0][0] ? c->args[0] : NULL, NULL };
    struct e2e_run r;
    e2e_runv(&r, ".", NULL, "arena", args);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    char want[256];
    snprintf(want, sizeof want, "%s\nTry 'arena --help' for more information.\n", c->err);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
}

Test(e2e_cli, arena_help_lists_the_tools)
{
    struct e2e_run r;
    e2e_run(&r, ".", NULL, "arena", "--help", NULL);
    cr_assert_eq(r.status, 0);
    cr_expect(strncmp(r.out, "Usage: arena TOOL [ARGS...]\n", 28) == 0, "%s", r.out);
    const char *tools[] = { "  engine ", "  referee ", "  maxconnect4 ", "  spfiar ",
                            "  checkers ", "  nim " };
    for (size_t i = 0; i < sizeof tools / sizeof *tools; i++)
        cr_expect(strstr(r.out, tools[i]) != NULL, "no '%s' in %s", tools[i], r.out);
    e2e_run_free(&r);
}

/* NEWS's newest entry is the version --version prints. */
Test(e2e_cli, news_names_the_version)
{
    char path[PATH_MAX];
    e2e_repo_path("NEWS", path, sizeof path);
    char *news = e2e_slurp(path, NULL);
    cr_assert_not_null(news, "no NEWS");
    const char *entry = strstr(news, "\n* arena ");
    cr_assert_not_null(entry, "NEWS has no '* arena VERSION' entry");
    char want[64];
    snprintf(want, sizeof want, "\n* arena %s\n", ARENA_VERSION);
    cr_expect(strncmp(entry, want, strlen(want)) == 0, "NEWS's first entry: %.40s", entry + 1);
    free(news);
}

/* Without --weights, qlearn reads the shipped weights: where make install
 * puts them, or, uninstalled, the tree's own (make test-install checks the
 * installed move). */
Test(e2e_cli, qlearn_defaults_to_the_shipped_weights)
{
    char *in = e2e_fixture("connect4/threat.txt");
    char *dir = e2e_tmpdir(), out[PATH_MAX];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "one-move", "--game", "connect4", "--player", "qlearn", in,
            out, NULL);
    cr_expect(r.status == 0 && strstr(r.err, "info game connect4 player qlearn ") != NULL,
              "exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    free(in);
    e2e_rmdir(dir);
}
