/* nim.c - the misère Nim driver: `nim FIRST R0 R1 ...` against the perfect
 * computer, and the table benchmark. */
#include <stdio.h>
#include <string.h>
#include "arena/cli.h"
#include "arena/nimgame.h"

#define PROG "nim"
#define NIM_ROW_MAX 1000000L
#define NIM_ARGV_ROWS 64      /* rows on the command line; the table limit binds first */

static const char usage_text[] =
    "Usage: nim FIRST R0 R1 ...\n"
    "       nim --bench R0 R1 ...\n"
    "\n"
    "Misere Nim against a computer that never makes a mistake: a turn takes one\n"
    "or more matches from one row; whoever takes the last match loses. FIRST is\n"
    "1 when you move first, 0 when the computer does; R0 R1 ... are the rows'\n"
    "matches. You answer 'Row: ' (0 for the first row) and 'Matches: '. After\n"
    "each game 'y' plays again (the loser moves first); anything else, or end\n"
    "of input, ends. The computer plays from the assignment's hash table and\n"
    "graph of every reachable board, at most %ld boards and %ld moves.\n"
    "\n"
    "--bench builds the table and graph for the rows and prints their size,\n"
    "the time taken and the peak memory.\n";

int main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf(usage_text, NIM_MAX_BOARDS, NIM_MAX_EDGES);
        return 0;
    }
    if (argc < 3)
        return cli_usage(PROG, "expected FIRST and at least one row");
    int bench = strcmp(argv[1], "--bench") == 0;
    long first = 0;
    if (!bench && cli_int(argv[1], 0, 1, &first) != 0)
        return cli_usage(PROG, "FIRST must be 0 (computer first) or 1 (you first), got '%s'",
                         argv[1]);
    int rows = argc - 2, start[NIM_ARGV_ROWS], total = 0;
    if (rows > (int)(sizeof start / sizeof *start))
        return cli_usage(PROG, "too many rows: at most %d", (int)(sizeof start / sizeof *start));
    for (int i = 0; i < rows; i++) {
        long v;
        if (cli_int(argv[i + 2], 0, NIM_ROW_MAX, &v) != 0)
            return cli_usage(PROG, "row %d must be a number of matches from 0 to %ld, got '%s'",
                             i, NIM_ROW_MAX, argv[i + 2]);
        start[i] = (int)v;
        total += (int)v;
    }
    if (total == 0)
        return cli_usage(PROG, "the rows hold no match: nothing to play");
    long long boards, edges;
    nim_table_size(start, rows, &boards, &edges);
    if (boards > NIM_MAX_BOARDS || edges > NIM_MAX_EDGES)
        return cli_usage(PROG,
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
