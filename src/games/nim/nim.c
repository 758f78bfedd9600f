/*
 * nim.c - the misère Nim assignment's functions (nim.h): boards, the perfect
 * hash table of every board reachable from the start board, and the graph of
 * moves between them with each node's nimsum.
 *
 * Compiles with nim.h and the C library alone, so the course's own driver and
 * helper file link against it; it includes what it uses itself, as the
 * course's nim.h includes nothing. join_graph visits the graph with an explicit
 * stack instead of the call stack: a path of moves is as long as the start
 * board has matches, and a large single row would otherwise overflow the
 * stack. Every node is still joined exactly once, with the same moves.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "nim.h"

#define NIM_STACK_START 64

/* The seed's rule for allocation failures: say which function, then exit. */
static void *nim_alloc(size_t n, size_t size, const char *who)
{
    void *p = malloc(n ? n * size : 1);
    if (!p) {
        fprintf(stderr, "%s: out of memory\n", who);
        exit(EXIT_FAILURE);
    }
    return p;
}

int *new_board(int board_size)
{
    return nim_alloc((size_t)board_size, sizeof(int), "new_board");
}

struct node *mk_nim_hash(int max_hash, int board_size, int *start_board)
{
    struct node *nim_hash = nim_alloc((size_t)max_hash, sizeof *nim_hash, "mk_nim_hash");
    for (int hash = 0; hash < max_hash; hash++) {
        nim_hash[hash].nimsum = -1;
        nim_hash[hash].board = hash2board(board_size, start_board, hash);
        nim_hash[hash].moves = -1;
        nim_hash[hash].move = NULL;
    }
    return nim_hash;
}

void free_board(int *board)
{
    free(board);
}

void free_nim_hash(int max_hash, struct node *nim_hash)
{
    for (int hash = 0; hash < max_hash; hash++) {
        free(nim_hash[hash].move);
        free_board(nim_hash[hash].board);
    }
    free(nim_hash);
}

int *board_from_argv(int board_size, char **argv)
{
    int *board = new_board(board_size);
    for (int row = 0; row < board_size; row++)
        board[row] = atoi(argv[row]);
    return board;
}

int *copy_board(int board_size, int *board)
{
    int *copy = new_board(board_size);
    for (int row = 0; row < board_size; row++)
        copy[row] = board[row];
    return copy;
}

int game_over(int board_size, int *board)
{
    int matches = 0;
    for (int row = 0; row < board_size; row++)
        matches += board[row];
    return matches == 1;
}

int compute_nimsum(int board_size, int *board)
{
    int sum = 0, big = 0;
    for (int row = 0; row < board_size; row++) {
        sum ^= board[row];
        big |= board[row] > 1;
    }
    return big ? sum : !sum;
}

/* Gives node n (hash `hash`) its moves, row by row and 1..board[row]
 * matches each, and its nimsum. weight[row] is what one match of that row
 * adds to a hash (board2hash's place value). */
static void join_node(struct node *n, int hash, int board_size, const int *weight)
{
    int total = 0;
    for (int row = 0; row < board_size; row++)
        total += n->board[row];
    n->move = total ? nim_alloc((size_t)total, sizeof *n->move, "join_graph") : NULL;
    int i = 0;
    for (int row = 0; row < board_size; row++)
        for (int m = 1; m <= n->board[row]; m++, i++) {
            n->move[i].row = row;
            n->move[i].matches = m;
            n->move[i].hash = hash - m * weight[row];
        }
    n->moves = total;
    n->nimsum = compute_nimsum(board_size, n->board);
}

void join_graph(struct node *nim_hash, int hash, int board_size, int *start_board)
{
    int *weight = new_board(board_size);
    for (int row = 0, w = 1; row < board_size; row++) {
        weight[row] = w;
        w *= start_board[row] + 1;
    }
    size_t cap = NIM_STACK_START, top = 0;
    int *stack = nim_alloc(cap, sizeof *stack, "join_graph");
    stack[top++] = hash;
    while (top) {
        int h = stack[--top];
        struct node *n = &nim_hash[h];
        if (n->moves != -1)
            continue;
        join_node(n, h, board_size, weight);
        /* Pushed last-first, so nodes are joined in the order a recursive
         * walk over the moves would join them. */
        for (int i = n->moves - 1; i >= 0; i--) {
            if (nim_hash[n->move[i].hash].moves != -1)
                continue;
            if (top == cap) {
                int *grown = realloc(stack, 2 * cap * sizeof *stack);
                if (!grown) {
                    fprintf(stderr, "join_graph: out of memory\n");
                    exit(EXIT_FAILURE);
                }
                stack = grown;
                cap *= 2;
            }
            stack[top++] = n->move[i].hash;
        }
    }
    free(stack);
    free_board(weight);
}
