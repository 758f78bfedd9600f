#!/usr/bin/python3
"""broken_engine.py - a first try with a bug, to read its forfeit: it plays
the column whose free cell is lowest, but its scan down a column never
stops at the bottom row."""
import board


def lowest_free(grid, col):
    row = 0
    while grid[row + 1][col] == 0:
        row += 1
    return row


if __name__ == "__main__":
    board.main(lambda grid, player: max(board.legal_columns(grid),
                                        key=lambda c: lowest_free(grid, c)))
