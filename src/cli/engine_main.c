/* engine_main.c - the engine binary: one-move engine, benchmark, Connect-4
 * solver and Q-learning trainer for every game, one command per file
 * (engine.h); this file holds the usage text and the dispatch. */
#include <stdio.h>
#include <string.h>
#include "arena/c4solver.h"
#include "arena/cli.h"
#include "arena/limits.h"
#include "engine.h"

const char engine_usage_text[] =
    "Usage: %1$s COMMAND [OPTIONS]\n"
    "\n"
    "  %1$s one-move [--game G] [--depth N] [--player P] [--seed N] [--tt-mb N]\n"
    "                  [--weights F] [--eval game|spfiar] IN OUT [DEPTH]\n"
    "      Reads the board file IN, makes one move, writes the new board to OUT and\n"
    "      prints the board before and after (the Max-Connect4 sample program's\n"
    "      shape). One line of statistics goes to stderr:\n"
    "        info game G player P depth D nodes N cpu_ms T move M value V\n"
    "      DEPTH (or --depth) is the search depth in plies, default "
    CLI_STR(ENGINE_DEFAULT_DEPTH) ".\n"
    "      A finished game is reported and nothing is written.\n"
    "      Players: alphabeta (default), minimax (the plain reference), random\n"
    "      (uniform, a function of --seed and the position), perfect (the game's\n"
    "      solver: %3$s;\n"
    "      the quickest win, then the lowest column), and\n"
    "      for %4$s the learned players qlearn (the move of highest Q) and\n"
    "      qlearn-ab (alpha-beta, a leaf worth its best Q), which read\n"
    "      --weights F (a weights file of %1$s train; default: the shipped\n"
    "      weights, installed as share/arena/qlearn.weights). --eval spfiar scores the\n"
    "      leaves of alphabeta and minimax on connect4 with the SPFIAR span\n"
    "      histogram instead of the game's evaluation.\n"
    "\n"
    "  %1$s bench [--game G] [--player alphabeta|minimax] [--depth N | --depths A-B]\n"
    "               [--tt-mb N] [--json FILE]\n"
    "      Searches fixed positions at fixed depths with the TT cleared before each\n"
    "      search; prints nodes, CPU seconds, nodes/s and effective branching factor\n"
    "      per depth, then the total node count (the search's signature).\n"
    "      Default depths " CLI_STR(BENCH_DEFAULT_DEPTH_MIN) "-" CLI_STR(BENCH_DEFAULT_DEPTH_MAX) ".\n"
    "\n"
    "  %1$s perft [--game G] --depth N [--from FILE]\n"
    "      Counts the positions 1, 2, ..., N plies from the start (or the board file\n"
    "      FILE), one line 'depth D positions P' each: the standard check of a move\n"
    "      generator. A finished game has no children; a pass (othello) is a ply.\n"
    "      The last depth's CPU time and positions per second go to stderr:\n"
    "        info game G depth N positions P cpu_ms T positions_per_s R\n"
    "\n"
    "  %1$s solve [--weak] [--tt-mb N] [--threads N] [--book BOOK] [FILE...]\n"
    "      The perfect Connect-4 solver. Reads move strings (1-based column digits\n"
    "      from the empty board, e.g. 4453), one per line, from the FILEs or stdin;\n"
    "      a line may also carry the expected score after a space (the public test\n"
    "      sets' format), which is then checked. Prints per line:\n"
    "        MOVES SCORE NODES MICROSECONDS\n"
    "      MICROSECONDS: the solve's elapsed time, to a hundredth (monotonic clock).\n"
    "      SCORE: 0 draw; 22 minus the discs the winner has played at the end when\n"
    "      the side to move wins, its negation when it loses. --weak prints only\n"
    "      1, 0 or -1 (win, draw, loss). A bad line is reported with file:line:col\n"
    "      and the run goes on (exit status 2 at the end; 1 when a score differs\n"
    "      from the expected one). The table (default "
    CLI_STR(C4S_DEFAULT_TT_MB) " MiB) is kept across lines.\n"
    "      --book BOOK takes the score of every position BOOK holds from it instead\n"
    "      of searching (fixtures/connect4/book.txt is the shipped one, installed as\n"
    "      share/arena/connect4-book.txt). A board file given instead is refused.\n"
    "      --threads N (1-" CLI_STR(C4S_MAX_THREADS) ", default: the idle cores) searches with N threads\n"
    "      sharing the table, the helpers started only once a solve passes 100,000\n"
    "      nodes; scores are the same for any N, NODES (all threads') and times vary.\n"
    "\n"
    "  %1$s book --depth N [--from MOVES] [--tt-mb N] OUT\n"
    "      Makes a Connect-4 opening book with the solver: the exact score of every\n"
    "      position at most N moves (1-12) after MOVES (default: the empty board),\n"
    "      one line 'MOVES SCORE' each (the solve format; a position and its mirror\n"
    "      image once), in OUT, written whole at the end. The deepest positions are\n"
    "      solved, the others follow from their moves. Prints the positions, the\n"
    "      solves, the solver's nodes and the CPU seconds.\n"
    "\n"
    "  %1$s train --games N --weights-out F [--opponent O] [--weights-in F]\n"
    "               [--opponent-weights F] [--gamma X] [--alpha X] [--alpha-final X]\n"
    "               [--epsilon X] [--switch-prob X] [--seed N] [--log F] [--log-every K]\n"
    "      Trains the Q-learning Connect-4 player in N games against O, in process:\n"
    "      random (default), trained, alphabeta:D, learning or self. Try\n"
    "      '%1$s train --help'.\n"
    "\n"
    "  %1$s weights [--json] FILE\n"
    "      Prints a weights file: one attribute and its weight per line.\n"
    "\n"
    "Games: %2$s.\n"
    "--tt-mb sets the transposition table size in MiB (default " CLI_STR(TT_DEFAULT_MB) "). Bad input exits\n"
    "with status 2 and writes nothing.\n"
    "--version prints the version.\n";

static const struct {
    const char *name;
    int (*run)(const char *prog, int argc, char **argv);
} commands[] = {
    { "one-move", cmd_one_move }, { "bench", cmd_bench }, { "perft", cmd_perft },
    { "solve", cmd_solve },       { "book", cmd_book },   { "train", cmd_train },
    { "weights", cmd_weights },
};

int main(int argc, char **argv)
{
    const char *prog = cli_prog(argv[0], "engine");
    char list[128];   /* the commands' names, from the table */
    size_t used = 0;
    for (size_t i = 0; i < sizeof commands / sizeof *commands && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                 commands[i].name);
    if (argc < 2)
        return cli_usage(prog, "missing command (%s)", list);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
    {
        struct eopt_help h;
        return cli_help_args(engine_usage_text, prog, eopt_help_args(&h));
    }
    if (strcmp(argv[1], "--version") == 0)
        return cli_version(prog);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(prog, argc - 1, argv + 1);
    return cli_usage(prog, "unknown command '%s' (%s)", argv[1], list);
}
