/*
 * test_e2e_course.c - drop-in for the Nim course's grader: the assignment
 * says the grader compiles the student's nim.c with the course's original
 * nim.h, nimhelp.c and driver ("only the original files will be used during
 * testing"), with -Wall -pedantic -std=c99 and no warnings. The course's
 * nim.h includes nothing, so nim.c must include what it uses.
 *
 * The test writes that header from the assignment's text
 * (shared/seeds/misere-nim-assignment.txt: its two structs, its nine
 * functions, and the four helpers of nimhelp.c that nim.c calls), copies
 * src/games/nim/nim.c beside it, and compiles both with a driver of its own
 * that stands in for nimhelp.c and calls every function of nim.c, checking
 * each against the assignment's definition (and every nimsum against a brute
 * force search of the misère game).
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2e_util.h"

static const char course_header[] =
    "#ifndef NIM_H\n"
    "#define NIM_H\n"
    "\n"
    "struct move {\n"
    "   int row;\n"
    "   int matches;\n"
    "   int hash;\n"
    "};\n"
    "\n"
    "struct node {\n"
    "  int nimsum;\n"
    "  int *board;\n"
    "  int moves;\n"
    "  struct move *move;\n"
    "};\n"
    "\n"
    "int *new_board( int board_size );\n"
    "struct node *mk_nim_hash( int max_hash, int board_size, int *start_board );\n"
    "void free_board( int *board );\n"
    "void free_nim_hash( int max_hash, struct node *nim_hash );\n"
    "int *board_from_argv( int board_size, char **argv );\n"
    "int *copy_board( int board_size, int *board );\n"
    "int game_over( int board_size, int *board );\n"
    "void join_graph( struct node *nim_hash, int hash, int board_size,\n"
    "    int *start_board );\n"
    "int compute_nimsum(int board_size, int *board);\n"
    "\n"
    "void print_board( int board_size, int *board );\n"
    "int compute_max_hash( int board_size, int *start_board );\n"
    "int board2hash( int board_size, int *start_board, int *current_board );\n"
    "int *hash2board( int board_size, int *start_board, int hash );\n"
    "\n"
    "#endif\n";

/* The driver: nimhelp.c's four helpers written from their description
 * (mixed radix, row 0 the lowest digit), then every function of nim.c. */
static const char driver[] =
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include \"nim.h\"\n"
    "\n"
    "void print_board( int board_size, int *board )\n"
    "{\n"
    "    int r, m;\n"
    "    for (r = 0; r < board_size; r++) {\n"
    "        printf(\"[%2d]: \", r);\n"
    "        for (m = 0; m < board[r]; m++)\n"
    "            putchar('|');\n"
    "        putchar('\\n');\n"
    "    }\n"
    "}\n"
    "\n"
    "int compute_max_hash( int board_size, int *start_board )\n"
    "{\n"
    "    int r, n = 1;\n"
    "    for (r = 0; r < board_size; r++)\n"
    "        n *= start_board[r] + 1;\n"
    "    return n;\n"
    "}\n"
    "\n"
    "int board2hash( int board_size, int *start_board, int *current_board )\n"
    "{\n"
    "    int r, h = 0;\n"
    "    for (r = board_size - 1; r >= 0; r--)\n"
    "        h = h * (start_board[r] + 1) + current_board[r];\n"
    "    return h;\n"
    "}\n"
    "\n"
    "int *hash2board( int board_size, int *start_board, int hash )\n"
    "{\n"
    "    int r, *b = new_board(board_size);\n"
    "    for (r = 0; r < board_size; r++) {\n"
    "        b[r] = hash % (start_board[r] + 1);\n"
    "        hash /= start_board[r] + 1;\n"
    "    }\n"
    "    return b;\n"
    "}\n"
    "\n"
    "static int fails;\n"
    "#define CHECK(c) do { if (!(c)) { printf(\"line %d: %s\\n\", __LINE__, #c); fails++; } }"
    " while (0)\n"
    "\n"
    "/* The assignment's nimsum: the XOR of the rows, negated when no row\n"
    " * holds more than one match. */\n"
    "static int definition_nimsum(int n, const int *b)\n"
    "{\n"
    "    int r, x = 0, big = 0;\n"
    "    for (r = 0; r < n; r++) {\n"
    "        x ^= b[r];\n"
    "        big |= b[r] > 1;\n"
    "    }\n"
    "    return big ? x : !x;\n"
    "}\n"
    "\n"
    "int main(void)\n"
    "{\n"
    "    char *words[] = { \"1\", \"3\", \"5\" };\n"
    "    int n = 3, i, k, r, *start, *copy, max, *win;\n"
    "    int one[] = { 0, 1, 0 }, two[] = { 0, 2, 0 }, pair[] = { 1, 1, 0 };\n"
    "    struct node *h;\n"
    "    start = board_from_argv(n, words);\n"
    "    CHECK(start[0] == 1 && start[1] == 3 && start[2] == 5);\n"
    "    copy = copy_board(n, start);\n"
    "    CHECK(copy != start && copy[0] == 1 && copy[1] == 3 && copy[2] == 5);\n"
    "    CHECK(game_over(n, one) == 1);\n"
    "    CHECK(game_over(n, two) == 0);\n"
    "    CHECK(game_over(n, pair) == 0);\n"
    "    CHECK(game_over(n, start) == 0);\n"
    "    max = compute_max_hash(n, start);\n"
    "    h = mk_nim_hash(max, n, start);\n"
    "    for (i = 0; i < max; i++)\n"
    "        CHECK(h[i].moves == -1 && h[i].move == NULL && h[i].nimsum == -1\n"
    "              && board2hash(n, start, h[i].board) == i);\n"
    "    join_graph(h, board2hash(n, start, start), n, start);\n"
    "    /* A move lowers a row, so its board has a lower hash: one pass in\n"
    "     * hash order solves the misere game (no match left: the mover won). */\n"
    "    win = malloc(max * sizeof *win);\n"
    "    for (i = 0; i < max; i++) {\n"
    "        int total = 0;\n"
    "        for (r = 0; r < n; r++)\n"
    "            total += h[i].board[r];\n"
    "        CHECK(h[i].moves == total);\n"
    "        CHECK(h[i].nimsum == compute_nimsum(n, h[i].board));\n"
    "        CHECK(h[i].nimsum == definition_nimsum(n, h[i].board));\n"
    "        win[i] = total == 0;\n"
    "        for (k = 0; k < h[i].moves; k++) {\n"
    "            struct move *m = &h[i].move[k];\n"
    "            CHECK(m->row >= 0 && m->row < n);\n"
    "            CHECK(m->matches >= 1 && m->matches <= h[i].board[m->row]);\n"
    "            CHECK(m->hash >= 0 && m->hash < i);\n"
    "            for (r = 0; r < n; r++)\n"
    "                CHECK(h[m->hash].board[r]\n"
    "                      == h[i].board[r] - (r == m->row ? m->matches : 0));\n"
    "            if (!win[m->hash])\n"
    "                win[i] = 1;\n"
    "        }\n"
    "        CHECK((h[i].nimsum != 0) == win[i]);\n"
    "    }\n"
    "    free(win);\n"
    "    free_board(new_board(n));\n"
    "    free_board(copy);\n"
    "    free_nim_hash(max, h);\n"
    "    free_board(start);\n"
    "    printf(\"%s\\n\", fails ? \"failed\" : \"ok\");\n"
    "    return fails != 0;\n"
    "}\n";

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0, "%s", path);
}

/* Runs the shell command cmd in dir; its stdout and stderr in *out. */
static int run_in(const char *dir, const char *cmd, char **out)
{
    char line[PATH_MAX * 3], log[PATH_MAX];
    snprintf(log, sizeof log, "%s/log.txt", dir);
    snprintf(line, sizeof line, "cd '%s' && %s >'%s' 2>&1", dir, cmd, log);
    int status = system(line);
    *out = e2e_slurp(log, NULL);
    return status;
}

Test(e2e_course, nim_c_builds_against_the_course_header)
{
    char *dir = e2e_tmpdir(), src[PATH_MAX], cmd[PATH_MAX * 2];
    e2e_repo_path("src/games/nim/nim.c", src, sizeof src);
    char *nim_c = e2e_slurp(src, NULL);
    cr_assert_not_null(nim_c, "%s", src);
    write_file(dir, "nim.c", nim_c);
    free(nim_c);
    write_file(dir, "nim.h", course_header);
    write_file(dir, "driver.c", driver);
    const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
    /* The assignment's flags, for each object and the link. */
    const char *steps[] = { "-c nim.c -o nim.o", "-c driver.c -o driver.o",
                            "nim.o driver.o -o driver" };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        char *out;
        snprintf(cmd, sizeof cmd, "%s -Wall -pedantic -std=c99 %s", cc, steps[i]);
        int status = run_in(dir, cmd, &out);
        cr_assert_eq(status, 0, "%s failed:\n%s", cmd, out);
        cr_assert_str_empty(out, "%s is not silent:\n%s", cmd, out);
        free(out);
    }
    char *out;
    int status = run_in(dir, "./driver", &out);
    cr_assert_eq(status, 0, "the driver failed:\n%s", out);
    cr_assert_str_eq(out, "ok\n");
    free(out);
    e2e_rmdir(dir);
}
