/* nim_main.c - the nim binary: the misère Nim driver, `nim FIRST R0 R1 ...`
 * against the perfect computer, and the table benchmark. */
#include <stdio.h>
#include <string.h>
#include "arena/cli.h"
#include "arena/limits.h"
#include "arena/nimgame.h"

enum { OPT_BENCH = 256 };

static const struct option options[] = {
    { "bench", no_argument, NULL, OPT_BENCH },
    CLI_STD_OPTIONS,
};

static const char usage_text[] =
    "Usage: %1$s FIRST R0 R1 ...\n"
    "       %1$s --bench R0 R1 ...\n"
    "\n"
    "Misere Nim against a computer that never makes a mistake: a turn takes one\n"
    "or more matches from one row; whoever takes the last match loses. FIRST is\n"
    "1 when you move first, 0 when the computer does; R0 R1 ... are the rows'\n"
    "matches. You answer 'Row: ' (0 for the first row) and 'Matches: '. After\n"
    "each game 'y' plays again (the loser moves first); anything else, or end\n"
    "of input, ends. The computer plays from the assignment's hash table and\n"
    "graph of every reachable board, at most %2$ld boards and %3$ld moves.\n"
    "\n"
    "--bench builds the table and graph for the rows and prints their size,\n"
    "the time taken and the peak memory. --version prints the version.\n";

/* The rows' sizes of words into start; 0, or EXIT_BAD_INPUT. */
static int parse_rows(const char *prog, char **words, int rows, int start[NIM_ARGV_ROWS])
{
    if (rows > NIM_ARGV_ROWS)
        return cli_usage(prog, "too many rows: at most %d", NIM_ARGV_ROWS);
    int total = 0;
    for (int i = 0; i < rows; i++) {
        long v;
        if (cli_int(words[i], 0, NIM_ROW_MAX, &v) != 0)
            return cli_usage(prog, "row %d must be a number of matches from 0 to %ld, got '%s'",
                             i, NIM_ROW_MAX, words[i]);
        start[i] = (int)v;
        total += (int)v;
    }
    if (total == 0)
        return cli_usage(prog, "the rows hold no match: nothing to play");
    return 0;
}

int main(int argc, char **argv)
{
    const char *prog = cli_prog(argv[0], "nim");
    /* Options only before FIRST, so that the driver's line reads as it
     * does (a row "-1" is a bad row, not an option). --help is answered
     * here: its text also states the table's limits. */
    struct cli_parse p = { .prog = prog, .opts = options, .in_order = 1,
                           .argc = argc, .argv = argv };
    int c, bench = 0;
    while ((c = cli_next(&p)) != -1) {
        if (c == CLI_OPT_HELP) {
            printf(usage_text, prog, NIM_MAX_BOARDS, NIM_MAX_EDGES);
            return 0;
        }
        if (c != OPT_BENCH)
            return cli_stop(c);
        bench = 1;
    }
    int words = argc - optind;
    if (words < (bench ? 1 : 2))
        return bench ? cli_usage(prog, "expected at least one row")
                     : cli_usage(prog, "expected FIRST and at least one row");
    long first = 0;
    if (!bench && cli_int(argv[optind], 0, 1, &first) != 0)
        return cli_usage(prog, "FIRST must be 0 (computer first) or 1 (you first), got '%s'",
                         argv[optind]);
    int rows = bench ? words : words - 1, start[NIM_ARGV_ROWS];
    int rc = parse_rows(prog, argv + argc - rows, rows, start);
    if (rc)
        return rc;
    long long boards, edges;
    nim_table_size(start, rows, &boards, &edges);
    if (boards > NIM_MAX_BOARDS || edges > NIM_MAX_EDGES)
        return cli_usage(prog,
                         "the table for these rows is too large: at most %ld boards and %ld "
                         "moves (the product of rows+1, and boards times matches / 2)",
                         NIM_MAX_BOARDS, NIM_MAX_EDGES);
    if (bench) {
        nim_bench(start, rows, stdout);
        return 0;
    }
    struct nim_session_opts o = { .human_first = (int)first, .rows = rows, .start = start };
    return nim_session_run(&o, stdin, stdout);
}
