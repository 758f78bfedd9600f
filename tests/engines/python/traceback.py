# traceback.py one-move IN OUT DEPTH: a search that asks the library for a
# random move among none: the IndexError is raised in random.py, the bug is
# here, in best_move.
import random
import sys

import board


def best_move(rows):
    legal = [c for c in range(7) if rows[0][c] == "9"]
    return random.choice(legal)


rows, player = board.read(sys.argv[2])
board.drop(rows, best_move(rows), player)
