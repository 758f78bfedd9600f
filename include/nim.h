/*
 * nim.h - the misère Nim assignment's API, exactly as the seed declares it,
 * so the course's own game driver (alphanim.c) and helper file link against
 * src/games/nim/nim.c. Nothing else belongs here: nim.c compiles with this
 * header and the C library alone.
 *
 * A board is board_size ints, row i holding board[i] matches. Every board
 * reachable from start_board has a perfect hash in [0, max_hash): mixed radix,
 * row 0 the lowest digit, row i's radix start_board[i] + 1 (board2hash). The
 * table nim_hash holds one node per hash; join_graph gives each node its
 * moves (row by row, 1..board[row] matches) and the hash of the board each
 * leads to, and its nimsum: 0 when the player to move loses with perfect
 * play (whoever takes the last match loses), 1 or more when they win.
 *
 * Allocation failures print a message on stderr and exit (the seed's rule).
 * Boards from new_board, copy_board, board_from_argv and hash2board are the
 * caller's, freed with free_board; a table from mk_nim_hash is freed, boards
 * and moves included, with free_nim_hash.
 *
 * Like the course's own nim.h it includes nothing: a file that uses the C
 * library includes what it uses before this header (the course's graders
 * compile nim.c against their original header; tests/test_e2e_nim.c
 * checks that it builds so).
 */
#ifndef NIM_H
#define NIM_H

struct move {
    int row;
    int matches;
    int hash;
};

struct node {
    int nimsum;
    int *board;
    int moves;
    struct move *move;
};

/* ---- the student's functions (src/games/nim/nim.c) ---------------------- */

/* A new uninitialised board of board_size ints. */
int *new_board(int board_size);
/* max_hash nodes, node i holding hash2board(i), moves -1, move NULL,
 * nimsum -1. */
struct node *mk_nim_hash(int max_hash, int board_size, int *start_board);
void free_board(int *board);
void free_nim_hash(int max_hash, struct node *nim_hash);
/* A new board from board_size strings, each converted with atoi. */
int *board_from_argv(int board_size, char **argv);
/* A new board equal to board. */
int *copy_board(int board_size, int *board);
/* 1 when the board holds exactly one match, else 0. */
int game_over(int board_size, int *board);
/* Fills the moves and nimsum of the node at hash and of every node reachable
 * from it; a node whose moves is not -1 is already done. */
void join_graph(struct node *nim_hash, int hash, int board_size, int *start_board);
/* The XOR of the rows, unless no row holds more than one match: then the
 * logical negation (!) of that XOR. */
int compute_nimsum(int board_size, int *board);

/* ---- the course's helpers (src/games/nim/nimhelp.c) --------------------- */

/* One line per row: "[%2d]: " then one '|' per match. */
void print_board(int board_size, int *board);
/* The product of start_board[i] + 1: the number of reachable boards. */
int compute_max_hash(int board_size, int *start_board);
int board2hash(int board_size, int *start_board, int *current_board);
/* board2hash's inverse, a new board (new_board). */
int *hash2board(int board_size, int *start_board, int hash);

#endif
