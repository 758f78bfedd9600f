#!/usr/bin/python3
"""greedy_engine.py IN OUT [DEPTH] - a one-ply Max-Connect4 engine: it plays
the column that leaves it the best score difference right after its move
(ties to the lowest column), without looking at the reply."""
import board


def choose(grid, player):
    def margin(col):
        after = board.drop(grid, col, player)
        return board.score(after, player) - board.score(after, 3 - player)
    return max(board.legal_columns(grid), key=margin)


if __name__ == "__main__":
    board.main(choose)
