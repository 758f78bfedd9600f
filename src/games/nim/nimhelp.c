/*
 * nimhelp.c - the four helpers the Nim course hands out with its driver
 * (nim.h): printing a board and the perfect hash between boards and table
 * indices. Kept apart from nim.c as the course keeps them.
 */
#include <stdio.h>
#include <stdlib.h>
#include "nim.h"

void print_board(int board_size, int *board)
{
    for (int row = 0; row < board_size; row++) {
        printf("[%2d]: ", row);
        for (int m = 0; m < board[row]; m++)
            putchar('|');
        putchar('\n');
    }
}

int compute_max_hash(int board_size, int *start_board)
{
    int max_hash = 1;
    for (int row = 0; row < board_size; row++)
        max_hash *= start_board[row] + 1;
    return max_hash;
}

int board2hash(int board_size, int *start_board, int *current_board)
{
    int hash = 0;
    for (int row = board_size - 1; row >= 0; row--)
        hash = hash * (start_board[row] + 1) + current_board[row];
    return hash;
}

int *hash2board(int board_size, int *start_board, int hash)
{
    int *board = new_board(board_size);
    for (int row = 0; row < board_size; row++) {
        board[row] = hash % (start_board[row] + 1);
        hash /= start_board[row] + 1;
    }
    return board;
}
